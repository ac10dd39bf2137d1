"""Perfect recall (X2): what a seat has seen narrows what `determinize` may deal.

The observation keeps the initial tables that were redealt (G4, F4), and
the sampler deals the unseen cards only where the seat's memory allows:
no redealt card in a hand dealt before the redeal, and every past play of
the current deal legal with the hand it came from. These tests check the
sampler against the rules by brute force on small positions, and that it
draws every consistent state equally often.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import attrs
import pytest

import xeri
from xeri import GERMAN, GREEK, GREEK_FOUR, GameState, InvalidStateError, Phase
from xeri._agents.sampling import check_observation, consistent_states
from xeri._core.validate import check_state

FORCED = attrs.evolve(GERMAN, name="german-forced", capture=xeri.SumCapture(forced_capture=True))


def redealt_deals(rules: xeri.RuleSet, count: int, seed: int = 0) -> list[GameState]:
    """The first `count` fresh deals of `rules` whose initial table was redealt."""
    found: list[GameState] = []
    rng = random.Random(seed)
    while len(found) < count:
        state = xeri.new_game(rules, rng=rng)
        if state.redealt:
            found.append(state)
    return found


def positions(rules: xeri.RuleSet, rounds: int, seed: int) -> list[GameState]:
    """Every decision point of `rounds` random rounds."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for _ in range(rounds):
        state = xeri.new_game(rules, rng=rng)
        while state.to_move is not None:
            out.append(state)
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return out


def test_X2_a_redealt_table_is_kept_in_the_state_and_every_observation():
    for state in redealt_deals(GREEK_FOUR, 5):
        assert all(len(table) == 4 for table in state.redealt)
        assert all(GREEK_FOUR.redeal.needed(table) for table in state.redealt)
        for seat in range(4):
            assert xeri.observe(state, seat).redealt == state.redealt


def test_X2_the_redealt_tables_are_forgotten_when_the_next_round_is_dealt():
    rng = random.Random(3)
    state = redealt_deals(GREEK, 1, seed=3)[0]
    while not state.is_round_over:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    assert state.redealt  # the finished round still shows what happened in it
    state = xeri.apply(state, xeri.Deal(deck=tuple(reversed(xeri.DECK))))
    assert state.redealt == ()


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR], ids=lambda r: r.name)
def test_X2_no_sample_puts_a_redealt_card_in_a_hand_dealt_before_the_redeal(rules):
    rng = random.Random(11)
    samples = 0
    for dealt in redealt_deals(rules, 40, seed=7):
        state = dealt
        shown = {card for table in state.redealt for card in table}
        # Follow the first deal, play by play: the hands then are the hands dealt first.
        while state.phase is Phase.PLAY and len(state.history) < rules.seats * rules.hand_size:
            seat = state.to_move
            seen = xeri.observe(state, seat)
            for _ in range(5):
                sample = xeri.determinize(seen, rng)
                samples += 1
                assert xeri.observe(sample, seat) == seen
                for other, hand in enumerate(sample.hands):
                    assert shown.isdisjoint(hand), f"seat {other} holds a redealt card"
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    assert samples > 1000


def test_X2_after_the_first_deal_a_redealt_card_may_be_in_any_hand():
    # The redealt cards went back into the stock, and later deals come from it.
    rng = random.Random(5)
    hits = 0
    for dealt in redealt_deals(GREEK, 30, seed=5):
        state = dealt
        shown = {card for table in state.redealt for card in table}
        while len(state.history) < 12:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        seen = xeri.observe(state, state.to_move)
        other = 1 - state.to_move
        hits += sum(
            bool(shown.intersection(xeri.determinize(seen, rng).hands[other])) for _ in range(10)
        )
    assert hits > 0


def test_X2_an_observation_whose_own_first_hand_held_a_redealt_card_is_refused():
    state = redealt_deals(GREEK, 1, seed=9)[0]
    seen = xeri.observe(state, state.to_move)
    forged = attrs.evolve(seen, redealt=((seen.hand[0], *state.redealt[0][1:]),))
    assert check_observation(forged)
    with pytest.raises(InvalidStateError):
        xeri.determinize(forged, random.Random(0))


def _brute_force_hands(state: GameState, seat: int) -> set[tuple[xeri.Card, ...]]:
    """Every hand of the other seat (of two) that some consistent state gives it.

    Each split of the unseen cards (the other hand and the stock) is tried
    through the loader's own check, which replays the round from its start.
    """
    other = 1 - seat
    size = len(state.hands[other])
    pool = sorted((*state.hands[other], *state.stock))
    seen = xeri.observe(state, seat)
    found = set()
    for hand in itertools.combinations(pool, size):
        hands = list(state.hands)
        hands[other] = hand
        stock = tuple(c for c in pool if c not in hand)
        candidate = attrs.evolve(state, hands=tuple(hands), stock=stock)
        if not check_state(candidate).problems and xeri.observe(candidate, seat) == seen:
            found.add(hand)
    return found


def _narrowed(rules: xeri.RuleSet, seed: int, most: int) -> list[tuple[GameState, int]]:
    """Positions of the third deal whose other hand is small and narrowed by the plays."""
    out = []
    for state in positions(rules, 30, seed):
        other = 1 - state.to_move  # type: ignore[operator]
        if len(state.stock) != 12 or not 0 < len(state.hands[other]) <= most:
            continue
        seen = xeri.observe(state, state.to_move)  # type: ignore[arg-type]
        free = math.comb(len(state.hands[other]) + 12, len(state.hands[other]))
        hands = consistent_states(seen) // math.factorial(12)
        if 1 < hands < free:
            out.append((state, hands))
    return out


@pytest.mark.parametrize("rules", [GERMAN, FORCED], ids=lambda r: r.name)
def test_X2_determinize_deals_exactly_the_hands_the_plays_allow(rules):
    found = _narrowed(rules, seed=2, most=2)[:4]
    assert len(found) >= 3
    for i, (state, hands) in enumerate(found):
        seat = state.to_move
        assert seat is not None
        possible = _brute_force_hands(state, seat)
        assert state.hands[1 - seat] in possible
        assert hands == len(possible)
        seen = xeri.observe(state, seat)
        rng = random.Random(i)
        drawn = {xeri.determinize(seen, rng).hands[1 - seat] for _ in range(6 * len(possible))}
        assert drawn <= possible


def test_X2_determinize_draws_every_consistent_hand_equally_often():
    # 1,200 draws spread evenly over the hands the plays allow (a loose chi-square bound).
    state, hands = next((s, h) for s, h in _narrowed(FORCED, seed=4, most=2) if 3 <= h <= 12)
    seat = state.to_move
    assert seat is not None
    seen = xeri.observe(state, seat)
    rng = random.Random(1)
    draws = 1200
    counts = Counter(xeri.determinize(seen, rng).hands[1 - seat] for _ in range(draws))
    assert len(counts) == hands
    expected = draws / hands
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 2 * hands + 30, counts  # well above the 99.9% quantile for these degrees


@pytest.mark.parametrize("rules", [FORCED, GERMAN, GREEK], ids=lambda r: r.name)
def test_X2_every_genuine_observation_is_accepted_and_sampled(rules):
    rng = random.Random(8)
    for state in positions(rules, 6, seed=8):
        seen = xeri.observe(state, state.to_move)
        assert check_observation(seen) == []
        sample = xeri.determinize(seen, rng)
        assert xeri.observe(sample, state.to_move) == seen
        other = xeri.observe(state, (state.to_move + 1) % rules.seats)
        assert check_observation(other) == []


def test_D5_X2_a_trail_under_forced_capture_tells_that_the_hand_could_take_nothing():
    # Seat 1 leads and lays a Jack free on four small cards that every number card
    # could take part of: under a compulsory capture its hand held pictures only.
    # Seat 0 holds the other pictures, so seat 1's hand is known exactly.
    c = xeri.Card.parse
    first = [c(n) for n in ["JC", "JD", "JH", "QC", "QD", "QH"]]
    second = [c(n) for n in ["KC", "KD", "KH", "KS", "QS", "JS"]]
    table = [c(n) for n in ["AC", "2C", "3C", "4C"]]
    rest = [card for card in xeri.DECK if card not in {*first, *second, *table}]
    state = xeri.new_game(FORCED, deck=(*first, *second, *table, *rest), dealer=0)
    state = xeri.apply(state, xeri.Trail(card=c("JC")))
    seen = xeri.observe(state, 0)
    assert check_observation(seen) == []
    assert consistent_states(seen) == math.factorial(len(state.stock))
    sample = xeri.determinize(seen, random.Random(0))
    assert sample.hands[1] == state.hands[1]
    assert xeri.from_json(xeri.to_json(seen)) == seen

"""Chance card by card (`DealCard`, `chance_outcomes`) against whole-deck chance (X3, X4)."""

from __future__ import annotations

import copy
import math
import pickle
import random

import attrs
import pytest

import xeri
from edge_games import VARIANTS, named_cards, redeal_state
from xeri import (
    DECK,
    GERMAN,
    GREEK,
    GREEK_FOUR,
    ArgumentError,
    Card,
    Deal,
    DealCard,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Phase,
    Reshuffle,
    RuleSet,
    chance_outcomes,
)

PRESETS = [GREEK, GREEK_FOUR, GERMAN]
V1_GREEK = VARIANTS[0]  # the shown bottom card (V1): redeals keep it last
assert V1_GREEK.show_bottom_card


def _free(state: GameState) -> list[Card]:
    """The cards chance may place next: the pool minus the placed cards and a pinned bottom."""
    if state.phase is Phase.REDEAL:
        pool = set(state.stock) | set(state.table)  # type: ignore[arg-type]  # a pile of cards
        pinned = state.bottom_card
    else:
        pool, pinned = set(DECK), None
    free = sorted(pool - set(state.dealing) - {pinned}, key=lambda c: c.index)
    return free or [pinned]  # type: ignore[list-item]  # the pinned card is all that is left


def _deal_by_card(state: GameState, rng: random.Random) -> tuple[GameState, tuple[Card, ...]]:
    """Deal one whole order card by card, checking every node; the end state and the order."""
    start = state
    seats = range(state.rules.seats)
    seen = [xeri.observe(start, seat) for seat in seats]
    pinned = start.bottom_card if start.phase is Phase.REDEAL else None
    while True:
        outcomes = chance_outcomes(state)
        free = _free(state)
        assert [move.card for move, _ in outcomes] == free  # exactly the unplaced cards, sorted
        assert all(p == outcomes[0][1] for _, p in outcomes)
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
        move, _ = outcomes[rng.randrange(len(outcomes))]
        placed = state.dealing
        state = xeri.apply(state, move)
        if not state.dealing:  # the order is complete: the whole move was applied
            rest = [c for c in free if c is not move.card]
            order = (*placed, move.card, *rest) + ((pinned,) if pinned is not None else ())
            return state, order
        assert state.is_chance
        assert state.phase is start.phase
        assert state.to_move is None
        assert state.dealing == (*placed, move.card)
        assert state == attrs.evolve(start, dealing=state.dealing)
        if len(state.dealing) % 17 == 1:  # X2: the pending order is hidden from every seat
            assert [xeri.observe(state, seat) for seat in seats] == seen


def _whole(start: GameState, order: tuple[Card, ...]) -> GameState:
    move = Reshuffle(stock=order) if start.phase is Phase.REDEAL else Deal(deck=order)
    return xeri.apply(start, move)


def _rounds(rules: RuleSet, seed: int, rounds: int) -> dict[str, int]:
    """Play `rounds` rounds dealt card by card, each deal checked against the whole move."""
    rng = random.Random(seed)
    state = xeri.start(rules, dealer=rng.randrange(rules.seats))
    counts = {"deals": 0, "redeals": 0, "dealt cards": 0}
    while len(state.round_results) < rounds and not state.is_over:
        if state.is_chance:
            start = state
            state, order = _deal_by_card(state, rng)
            assert state == _whole(start, order)
            counts["redeals" if start.phase is Phase.REDEAL else "deals"] += 1
            counts["dealt cards"] += len(order)
        else:
            state = xeri.rollout(state, rng)
    return counts


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_X4_dealing_card_by_card_reaches_the_whole_deck_states(rules: RuleSet) -> None:
    counts = {"deals": 0, "redeals": 0}
    seed = 0
    while counts["deals"] < 100:  # >= 300 rounds over the three presets, whole matches
        found = _rounds(rules, seed, rounds=100)
        counts["deals"] += found["deals"]
        counts["redeals"] += found["redeals"]
        seed += 1
    if rules.redeal is not xeri.Redeal.NEVER:
        assert counts["redeals"] > 0  # G4 and F4: redeals were dealt card by card too


def test_V1_a_redeal_card_by_card_keeps_the_bottom_card_last() -> None:
    redeals = 0
    for seed in range(12):
        redeals += _rounds(V1_GREEK, seed, rounds=3)["redeals"]
    assert redeals > 0


def test_V1_the_pinned_bottom_card_is_never_offered_before_the_end() -> None:
    state = redeal_state(V1_GREEK)
    bottom = state.bottom_card
    assert bottom is not None
    assert bottom not in {move.card for move, _ in chance_outcomes(state)}
    with pytest.raises(IllegalMoveError, match="still to be placed"):
        xeri.apply(state, DealCard(card=bottom))


def test_X4_a_deal_takes_51_dealt_cards_the_last_one_forced() -> None:
    state = xeri.start(GREEK, dealer=1)
    for i, card in enumerate(DECK[:51]):
        assert state.is_chance, i
        state = xeri.apply(state, DealCard(card=card))
    assert not state.dealing
    assert state == xeri.apply(xeri.start(GREEK, dealer=1), Deal(deck=DECK))


def test_X4_card_by_card_deals_the_same_distribution_of_first_cards() -> None:
    # Each outcome is 1/n among the unplaced cards: no card is favoured, whatever was placed.
    state = xeri.start(GERMAN, dealer=0)
    for card in DECK[10:30]:
        state = xeri.apply(state, DealCard(card=card))
        outcomes = chance_outcomes(state)
        assert len(outcomes) == 52 - len(state.dealing)
        assert {p for _, p in outcomes} == {1.0 / len(outcomes)}


def test_X4_a_whole_move_continues_a_pending_order_or_is_refused() -> None:
    start = xeri.start(GREEK, dealer=0)
    rng = random.Random(5)
    deck = list(DECK)
    rng.shuffle(deck)
    state = start
    for card in deck[:20]:
        state = xeri.apply(state, DealCard(card=card))
    whole = xeri.apply(state, Deal(deck=tuple(deck)))
    assert whole == xeri.apply(start, Deal(deck=tuple(deck)))
    other = deck[1:21] + deck[:1] + deck[21:]
    with pytest.raises(IllegalMoveError, match="begin with the 20 cards already dealt") as info:
        xeri.apply(state, Deal(deck=tuple(other)))
    assert not named_cards(str(info.value))  # the pending order is hidden
    # chance_move completes the pending order: the placed cards first.
    move = xeri.chance_move(state, random.Random(1))
    assert isinstance(move, Deal)
    assert move.deck[:20] == state.dealing
    assert sorted(move.deck) == sorted(DECK)


def test_G4_a_pending_redeal_is_completed_by_chance_move_and_rollout() -> None:
    state = redeal_state(GREEK)
    for move, _ in chance_outcomes(state)[:5]:
        state = xeri.apply(state, move)
    reshuffle = xeri.chance_move(state, random.Random(2))
    assert isinstance(reshuffle, Reshuffle)
    assert reshuffle.stock[:5] == state.dealing
    with pytest.raises(IllegalMoveError, match="begin with the 5 cards"):
        xeri.apply(state, Reshuffle(stock=reshuffle.stock[1:] + reshuffle.stock[:1]))
    end = xeri.rollout(state, random.Random(3))  # completes the redeal at random, then plays
    assert end.is_round_over
    assert end.redealt[0] == state.table


def test_a_pending_first_deal_is_not_rolled_out() -> None:
    state = xeri.apply(xeri.start(GREEK), DealCard(card=DECK[7]))
    with pytest.raises(ArgumentError, match="first round is not dealt yet"):
        xeri.rollout(state)


def test_X5_dealt_cards_that_cannot_come_next_are_refused() -> None:
    state = xeri.apply(xeri.start(GREEK, dealer=0), DealCard(card=DECK[3]))
    with pytest.raises(IllegalMoveError, match="still to be placed") as info:
        xeri.apply(state, DealCard(card=DECK[3]))
    assert not named_cards(str(info.value))
    with pytest.raises(IllegalMoveError, match="still to be placed"):
        xeri.apply(state, DealCard(card="AS"))  # type: ignore[arg-type]  # not a card
    with pytest.raises(IllegalMoveError, match="out of turn"):
        xeri.apply(state, DealCard(card=DECK[4]), seat=0)
    played = xeri.new_game(GREEK, rng=random.Random(1))
    with pytest.raises(IllegalMoveError, match="DealCard is not a move"):
        xeri.apply(played, DealCard(card=played.stock[0]))
    with pytest.raises(IllegalMoveError, match="redealt with a Reshuffle"):
        xeri.apply(redeal_state(GREEK), Deal(deck=DECK))


def test_chance_outcomes_are_only_for_chance_states() -> None:
    played = xeri.new_game(GREEK, rng=random.Random(1))
    with pytest.raises(IllegalMoveError, match="chance does not act now"):
        chance_outcomes(played)
    with pytest.raises(ArgumentError, match="needs a GameState"):
        chance_outcomes(xeri.observe(played, 0))  # type: ignore[arg-type]  # not a state
    ended = xeri.rollout(played, random.Random(1))
    assert len(chance_outcomes(ended)) == 52  # the next round's deck


def test_X2_determinize_draws_a_state_before_the_pending_order() -> None:
    state = xeri.rollout(xeri.new_game(GREEK_FOUR, rng=random.Random(4)), random.Random(4))
    for move, _ in chance_outcomes(state)[10:30:3]:
        state = xeri.apply(state, move)
    seen = xeri.observe(state, 2)
    assert seen == xeri.observe(attrs.evolve(state, dealing=()), 2)
    drawn = xeri.determinize(seen, random.Random(1))
    assert drawn.dealing == ()
    assert xeri.observe(drawn, 2) == seen


def test_a_mid_deal_state_round_trips_through_json_pickle_and_copy() -> None:
    state = redeal_state(GREEK_FOUR)
    for move, _ in chance_outcomes(state)[::7]:
        state = xeri.apply(state, move)
    assert state.dealing
    text = xeri.to_json(state)
    assert '"dealing":[' in text
    assert xeri.from_json(text) == state
    assert pickle.loads(pickle.dumps(state, protocol=5)) == state
    assert copy.deepcopy(state) is state
    move = DealCard(card=Card.parse("10D"))
    assert xeri.to_json(move) == (
        '{"data":{"card":"10D","kind":"deal card"},"format":"xeri","type":"move","version":2}'
    )
    assert xeri.from_json(xeri.to_json(move)) == move
    assert copy.deepcopy(move) is move
    assert str(move) == "deal a card"  # shown without its card, as a Deal is


def test_a_state_without_a_pending_order_is_written_as_before() -> None:
    state = xeri.new_game(GREEK, rng=random.Random(2))
    assert '"dealing"' not in xeri.to_json(state)
    text = xeri.to_json(state).replace('"dealer":', '"dealing":[],"dealer":')
    with pytest.raises(InvalidStateError, match="canonical"):
        xeri.from_json(text)
    assert xeri.from_json(text, strict=False) == state


def test_a_record_of_dealt_cards_replays() -> None:
    state, rec = xeri.start(GERMAN, dealer=1), xeri.GameRecord(rules=GERMAN, dealer=1)
    rng = random.Random(8)
    while state.is_chance:
        outcomes = chance_outcomes(state)
        move = outcomes[rng.randrange(len(outcomes))][0]
        state, rec = xeri.apply(state, move), rec.then(move)
    assert len(rec.moves) == 51
    assert xeri.replay(rec)[-1] == state
    assert xeri.from_json(xeri.to_json(rec)) == rec


def _bad(state: GameState, **changes: object) -> list[str]:
    text = xeri.to_json(attrs.evolve(state, **changes))
    with pytest.raises(InvalidStateError) as info:
        xeri.from_json(text)
    for problem in info.value.problems:
        assert not named_cards(problem), problem  # the pending order is hidden
    return info.value.problems


def test_X4_a_loaded_pending_order_must_be_one_chance_could_place() -> None:
    dealt = xeri.start(GREEK, dealer=0)
    assert "a card is dealt twice" in _bad(dealt, dealing=(DECK[0], DECK[0]))[0]
    assert "complete" in _bad(dealt, dealing=DECK[:51])[0]
    playing = xeri.new_game(GREEK, rng=random.Random(3))
    assert "only while chance deals" in _bad(playing, dealing=DECK[:2])[0]
    redeal = redeal_state(GREEK)
    held = redeal.hands[0][0]  # in a hand: not in the redeal's pool
    assert "stock and the shown table" in _bad(redeal, dealing=(held,))[0]
    v1 = redeal_state(V1_GREEK)
    assert "bottom card" in _bad(v1, dealing=(v1.bottom_card,))[0]
    # A consistent pending order loads.
    fine = attrs.evolve(redeal, dealing=redeal.stock[:3])
    assert xeri.from_json(xeri.to_json(fine)) == fine


class _CallingShuffle(random.Random):
    """A generator whose `shuffle` is `random.Random`'s own, called as a method."""


def test_X4_a_plain_random_deals_as_its_own_shuffle_would() -> None:
    # The engine shuffles inline for a plain random.Random: same cards, same order,
    # same generator state after, as a call of its shuffle (seeded games keep their deals).
    for seed in range(20):
        deck = list(DECK)
        random.Random(seed).shuffle(deck)
        state = xeri.start(xeri.GREEK)
        assert xeri.chance_move(state, random.Random(seed)) == xeri.Deal(deck=tuple(deck))
        for rules in (*PRESETS, V1_GREEK):  # redeals of the initial table included
            plain, calling = random.Random(seed), _CallingShuffle(seed)
            assert xeri.new_game(rules, rng=plain) == xeri.new_game(rules, rng=calling)
            assert plain.random() == calling.random()
            # and so does determinize, which shuffles the unseen cards
            observation = xeri.observe(xeri.new_game(rules, rng=random.Random(seed)), 0)
            plain, calling = random.Random(seed), _CallingShuffle(seed)
            assert xeri.determinize(observation, plain) == xeri.determinize(observation, calling)

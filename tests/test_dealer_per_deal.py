"""The option `dealer_per_deal`: the deal passes to the next seat after every deal (G2, G8).

Greek Xeri changes the dealer after every round (G2); some published rules
of the fishing games pass the deal after every hand. Under the option the
seat after the dealer deals the next hands when the hands are empty and the
stock is not (G8), in the order of X3 with the new dealer, and the seat
after it leads. The dealer of the current deal still plays its last card,
so the round's last card (V3) and the bottom card shown after the cut (V1)
are the last deal's dealer's. Every part of the library that reasons about
who dealt follows: the checks of a loaded state, observations, determinize,
the observation tensor, the rollouts and the rebuilding of a round's chance
moves.
"""

# Test names carry the clause id of the rules pages (test_G2_...).

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import find

import xeri
from support import cards, fill_deck, public_round
from xeri import (
    CASSINO,
    GERMAN,
    GREEK,
    GREEK_FOUR,
    Card,
    Deal,
    GameState,
    Phase,
    RuleSet,
    XeriKind,
)
from xeri._agents.features import observation_layout
from xeri._core.chance import _round_moves
from xeri._core.validate import check_state
from xeri._errors import InvalidStateError, RuleSetError
from xeri.testing import ConformanceError, check_rules, harness, rule_sets

GREEK_PER_DEAL = attrs.evolve(GREEK, name="greek-per-deal", dealer_per_deal=True)
FOUR_PER_DEAL = attrs.evolve(GREEK_FOUR, name="greek-four-per-deal", dealer_per_deal=True)
GERMAN_PER_DEAL = attrs.evolve(GERMAN, name="german-per-deal", dealer_per_deal=True)
CASSINO_PER_DEAL = attrs.evolve(CASSINO, name="cassino-per-deal", dealer_per_deal=True)
PER_DEAL = [GREEK_PER_DEAL, FOUR_PER_DEAL, GERMAN_PER_DEAL, CASSINO_PER_DEAL]

# Decks whose initial table needs no redeal: distinct ranks, no Jack on top.
DECK_TWO = fill_deck([None] * 12 + ["3♣", "4♣", "6♥", "5♠"])
DECK_FOUR = fill_deck([None] * 24 + ["3♣", "4♣", "6♥", "5♠"])


def hand(deck: tuple[Card, ...], start: int, size: int = 6) -> tuple[Card, ...]:
    """Cards `start` to `start + size` of a deck, sorted as a hand is."""
    return tuple(sorted(deck[start : start + size]))


def play_deals(state: GameState) -> list[GameState]:
    """Play the round with the first legal move; the state at the start of each deal."""
    starts = [state]
    while not state.is_round_over:
        before = len(state.stock)
        state = xeri.apply(state, xeri.legal_moves(state)[0])
        if state.phase is Phase.PLAY and len(state.stock) < before:
            starts.append(state)
    return [*starts, state]


def movers(state: GameState) -> list[int]:
    """Play the round with the first legal move; the seat that made each play."""
    seats = []
    while not state.is_round_over:
        seats.append(state.to_move)
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    return seats


# --------------------------------------------------------------------------
# Exact deals


def test_G2_G8_two_seats_the_deal_passes_after_every_deal():
    state = xeri.apply(xeri.start(GREEK_PER_DEAL, dealer=0), Deal(deck=DECK_TWO))
    assert state.table == cards("3♣ 4♣ 6♥ 5♠")
    *deals, end = play_deals(state)
    assert [(s.dealer, s.to_move) for s in deals] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    # X3: the seat after the dealer receives the first block of each deal.
    assert deals[0].hands == (hand(DECK_TWO, 6), hand(DECK_TWO, 0))
    assert deals[1].hands == (hand(DECK_TWO, 16), hand(DECK_TWO, 22))
    assert deals[2].hands == (hand(DECK_TWO, 34), hand(DECK_TWO, 28))
    assert deals[3].hands == (hand(DECK_TWO, 40), hand(DECK_TWO, 46))
    # Each deal's dealer plays its last card, and the round's.
    assert movers(state)[11::12] == [0, 1, 0, 1]
    assert end.phase is Phase.ROUND_OVER
    assert end.dealer == 1
    # The next round is dealt by the seat after the last deal's dealer.
    again = xeri.apply(end, Deal(deck=DECK_TWO))
    assert (again.dealer, again.to_move) == (0, 1)
    assert again.hands == (hand(DECK_TWO, 6), hand(DECK_TWO, 0))


def test_G2_G8_without_the_option_the_same_dealer_deals_the_whole_round():
    state = xeri.apply(xeri.start(GREEK, dealer=0), Deal(deck=DECK_TWO))
    *deals, end = play_deals(state)
    assert [(s.dealer, s.to_move) for s in deals] == [(0, 1)] * 4
    assert deals[1].hands == (hand(DECK_TWO, 22), hand(DECK_TWO, 16))
    assert end.dealer == 0
    assert xeri.apply(end, Deal(deck=DECK_TWO)).dealer == 1


def test_F2_G8_four_seats_the_deal_passes_clockwise_after_every_deal():
    state = xeri.apply(xeri.start(FOUR_PER_DEAL, dealer=3), Deal(deck=DECK_FOUR))
    assert (state.dealer, state.to_move) == (3, 0)
    assert state.hands == tuple(hand(DECK_FOUR, 6 * i) for i in range(4))
    *deals, end = play_deals(state)
    assert [(s.dealer, s.to_move) for s in deals] == [(3, 0), (0, 1)]
    # Seat 0 deals the second hands: seats 1, 2, 3 and then itself.
    assert deals[1].hands == (
        hand(DECK_FOUR, 46),
        hand(DECK_FOUR, 28),
        hand(DECK_FOUR, 34),
        hand(DECK_FOUR, 40),
    )
    assert movers(state)[23::24] == [3, 0]
    assert end.dealer == 0
    again = xeri.apply(end, Deal(deck=DECK_FOUR))
    assert (again.dealer, again.to_move) == (1, 2)
    assert again.hands[2] == hand(DECK_FOUR, 0)
    assert again.hands[1] == hand(DECK_FOUR, 18)
    # The preset keeps seat 3 dealing the second hands too.
    *fixed, _ = play_deals(xeri.apply(xeri.start(GREEK_FOUR, dealer=3), Deal(deck=DECK_FOUR)))
    assert [(s.dealer, s.to_move) for s in fixed] == [(3, 0), (3, 0)]
    assert fixed[1].hands[0] == hand(DECK_FOUR, 28)


def test_G5_observation_plays_name_the_seat_of_every_play():
    state = xeri.apply(xeri.start(FOUR_PER_DEAL, dealer=3), Deal(deck=DECK_FOUR))
    seats = movers(state)
    assert seats == [0, 1, 2, 3] * 6 + [1, 2, 3, 0] * 6
    end = state
    while not end.is_round_over:
        end = xeri.apply(end, xeri.legal_moves(end)[0])
    for seat in range(4):
        assert [s for s, _ in xeri.observe(end, seat).plays] == seats


# The last deal, dealt by seat 1 in the two-player game whose first dealer is
# seat 0: seat 0 leaves 6♦ (no capture), seat 1 sweeps with J♠, seat 0 leaves
# 9♣ alone and seat 1 takes it with 9♦, the round's very last card.
LAST_NON_DEALER = "2♦ 3♦ 4♦ 5♦ 6♦ 9♣"
LAST_DEALER = "7♥ 8♥ 10♥ Q♥ J♠ 9♦"
DECK_LAST = fill_deck(
    [None] * 12
    + ["3♣", "4♣", "6♥", "5♠"]
    + [None] * 24
    + LAST_NON_DEALER.split()
    + LAST_DEALER.split()
)


def play_last_xeri(rules: RuleSet) -> GameState:
    state = xeri.apply(xeri.start(rules, dealer=0), Deal(deck=DECK_LAST))
    scripts = {0: list(cards(LAST_NON_DEALER)), 1: list(cards(LAST_DEALER))}
    while not state.is_round_over:
        seat: int = state.to_move  # type: ignore[assignment]  # a seat is to move
        move = xeri.legal_moves(state)[0] if state.stock else scripts[seat].pop(0)
        state = xeri.apply(state, move)
    return state


def test_V3_the_last_deals_dealer_plays_the_rounds_last_card():
    counted = play_last_xeri(GREEK_PER_DEAL)
    last = counted.takes[-1]
    assert (last.seat, last.turn, last.cards) == (1, 47, cards("9♣ 9♦"))
    assert last.xeri is XeriKind.XERI  # G7: a xeri with the last card counts
    assert counted.dealer == 1
    no_last = attrs.evolve(GREEK_PER_DEAL, name="greek-per-deal-v3", xeri_on_last_card=False)
    end = play_last_xeri(no_last)
    last = end.takes[-1]
    assert (last.seat, last.turn, last.cards, last.xeri) == (1, 47, cards("9♣ 9♦"), None)
    assert end.history == counted.history
    assert end.round_results[-1].xeris[1] == counted.round_results[-1].xeris[1] - 1
    # The fast rollout applies the same rule.
    start = xeri.apply(xeri.start(no_last, dealer=0), Deal(deck=DECK_LAST))
    moves = list(end.history)
    fast = xeri.rollout(
        start, random.Random(0), lambda view: list(view.moves).index(moves[view.plays])
    )
    assert fast == end


@pytest.mark.parametrize(
    ("rules", "first", "last"), [(GREEK_PER_DEAL, 0, 1), (FOUR_PER_DEAL, 3, 0)]
)
def test_V1_the_bottom_card_goes_to_the_dealer_of_the_last_deal(rules, first, last):
    v1 = attrs.evolve(rules, name=rules.name + "-v1", show_bottom_card=True)
    deck = DECK_TWO if rules.seats == 2 else DECK_FOUR
    state = xeri.apply(xeri.start(v1, dealer=first), Deal(deck=deck))
    assert state.bottom_card == deck[-1] == Card.parse("K♠")
    while state.stock:
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    assert state.dealer == last
    assert state.bottom_card in state.hands[last]
    assert xeri.from_json(xeri.to_json(state)) == state
    for seat in range(v1.seats):
        seen = xeri.observe(state, seat)
        drawn = xeri.determinize(seen, random.Random(seat))
        assert drawn.bottom_card in drawn.hands[last]
        assert xeri.observe(drawn, seat) == seen


# --------------------------------------------------------------------------
# The rule set, the harness and JSON


def test_G2_the_option_is_a_checked_flag_off_in_every_preset():
    for preset in (GREEK, GREEK_FOUR, GERMAN, xeri.PISTI, xeri.SCOPA, CASSINO):
        assert preset.dealer_per_deal is False
    with pytest.raises(RuleSetError, match="dealer_per_deal must be True or False, not 1"):
        attrs.evolve(GREEK, name="greek-one", dealer_per_deal=1)
    assert "dealer_per_deal" not in repr(GREEK)
    assert "dealer_per_deal=True" in repr(GREEK_PER_DEAL)


@pytest.mark.parametrize("rules", PER_DEAL, ids=lambda r: r.name)
def test_G2_G8_check_rules_passes_with_a_dealer_per_deal(rules):
    report = check_rules(rules, games=10, rng=random.Random(11))
    assert report.games == 10
    assert report.moves > 0


@pytest.mark.parametrize("rules", [GREEK_PER_DEAL, GREEK], ids=lambda r: r.name)
def test_G8_check_rules_refuses_a_deal_passed_against_the_option(rules, monkeypatch):
    real = harness.apply

    def wrong(state: GameState, move: xeri.Move, seat: int | None = None) -> GameState:
        """The engine, but the deal within a round passes only when the option is off."""
        new = real(state, move, seat=seat)
        if state.phase is new.phase is Phase.PLAY and len(new.stock) < len(state.stock):
            dealer = state.dealer if rules.dealer_per_deal else (state.dealer + 1) % rules.seats
            new = attrs.evolve(new, dealer=dealer, to_move=(dealer + 1) % rules.seats)
        return new

    monkeypatch.setattr(harness, "apply", wrong)
    with pytest.raises(ConformanceError, match=r"seat \d deals, not seat \d") as info:
        check_rules(rules, games=1, rng=random.Random(0))
    assert info.value.check == "apply"


def test_G2_rule_sets_draw_the_option_both_ways():
    assert find(rule_sets(), lambda r: r.dealer_per_deal).dealer_per_deal is True
    assert find(rule_sets(), lambda r: not r.dealer_per_deal).dealer_per_deal is False


def test_json_round_trips_and_documents_without_the_option_are_unchanged():
    text = xeri.to_json(GREEK_PER_DEAL)
    assert '"dealer_per_deal":true' in text
    assert xeri.from_json(text) == GREEK_PER_DEAL
    plain = attrs.evolve(GREEK, name="greek-plain", hand_size=12)
    assert "dealer_per_deal" not in xeri.to_json(plain)
    assert xeri.from_json(xeri.to_json(plain)) == plain
    # A state in the third deal, dealt by the first dealer's neighbour's neighbour.
    state = xeri.apply(xeri.start(FOUR_PER_DEAL, dealer=2), Deal(deck=DECK_FOUR))
    for _ in range(30):
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    assert (state.dealer, state.to_move) == (3, 2)
    assert check_state(state).problems == []
    assert xeri.from_json(xeri.to_json(state)) == state
    for seat in range(4):
        seen = xeri.observe(state, seat)
        assert xeri.from_json(xeri.to_json(seen)) == seen
    # A dealer that did not deal this deal is refused.
    wrong = xeri.to_json(attrs.evolve(state, dealer=2, to_move=3))
    with pytest.raises(InvalidStateError):
        xeri.from_json(wrong)
    # A record of two rounds replays, through the second round's deal by seat 1.
    state, record = xeri.record(FOUR_PER_DEAL, deck=DECK_FOUR, dealer=3)
    while len(state.round_results) < 2:
        move = (
            xeri.chance_move(state, random.Random(4))
            if state.is_chance
            else xeri.legal_moves(state)[0]
        )
        state, record = xeri.apply(state, move), record.then(move)
    loaded = xeri.from_json(xeri.to_json(record))
    assert loaded == record
    assert xeri.replay(loaded)[-1] == state


# --------------------------------------------------------------------------
# Observations, determinize, tensors, chance and rollouts


def random_states(rules: RuleSet, seed: int, rounds: int = 2) -> list[GameState]:
    """The states of a few random rounds, chance card by card now and then."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    states = [state]
    while len(state.round_results) < rounds and not state.is_over:
        if state.is_chance and rng.random() < 0.1:
            outcomes = xeri.chance_outcomes(state)
            state = xeri.apply(state, outcomes[rng.randrange(len(outcomes))][0])
        elif state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("rules", PER_DEAL, ids=lambda r: r.name)
def test_X2_determinize_and_observations_follow_the_dealer_of_each_deal(rules):
    rng = random.Random(5)
    states = random_states(rules, 7)
    n = rules.seats
    layout = {name: (a, b) for name, a, b in observation_layout(rules)}
    played = layout["played"][0]
    seats_seen: list[int] = []  # the seat of each play of the round, as the engine moved
    for i, state in enumerate(states):
        if i and states[i - 1].phase is Phase.PLAY:
            seats_seen.append(states[i - 1].to_move)  # type: ignore[arg-type]  # a seat moved
        if not state.history:
            seats_seen = []
        if i % 7:
            continue
        assert check_state(state).problems == []
        for seat in range(n):
            seen = xeri.observe(state, seat)
            assert [s for s, _ in seen.plays] == seats_seen
            tensor = xeri.observation_tensor(seen)
            for s, move in seen.plays:
                card = move if type(move) is Card else move.card
                assert tensor[played + (s - seat) % n * 52 + card.index] == 1.0
            drawn = xeri.determinize(seen, rng)
            assert xeri.observe(drawn, seat) == seen
            assert drawn.dealer == state.dealer
            assert check_state(drawn).problems == []
            assert xeri.observation_tensor(xeri.observe(drawn, seat)) == xeri.observation_tensor(
                seen
            )


@pytest.mark.parametrize("rules", [GREEK_PER_DEAL, FOUR_PER_DEAL], ids=lambda r: r.name)
def test_X4_the_chance_moves_of_a_round_are_rebuilt_with_its_first_dealer(rules):
    rng = random.Random(2)
    for seed in range(6):
        states = random_states(rules, seed, rounds=1)
        before = xeri.start(rules, dealer=states[0].dealer)  # the chance state of round 1
        for state in states[1::9]:
            if state.is_chance or state.dealing:
                continue
            drawn = xeri.determinize(xeri.observe(state, rng.randrange(rules.seats)), rng)
            moves = _round_moves(drawn, before)
            current = before
            for at, move in moves:
                assert at == current
                current = xeri.apply(current, move)
            assert current == drawn


@pytest.mark.parametrize("rules", PER_DEAL, ids=lambda r: r.name)
def test_X4_rollout_agrees_with_the_engine_when_the_deal_passes_each_deal(rules):
    for seed in range(25 if rules.capture.pile else 10):
        rng = random.Random(seed)
        start = xeri.new_game(rules, rng=rng)
        for _ in range(rng.randrange(40)):
            start = xeri.apply(start, rng.choice(xeri.legal_moves(start)))
        end, moves = public_round(start, random.Random(seed + 1))
        script = iter(moves)

        def policy(view: xeri.RolloutView, script=script) -> int:
            return list(view.moves).index(next(script))

        fast = xeri.rollout(start, random.Random(0), policy)
        assert fast == end
        free = xeri.rollout(start, random.Random(seed))
        assert check_state(free).problems == []
        assert free.dealer == end.dealer

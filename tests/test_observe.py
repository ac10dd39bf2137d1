"""Observations (clauses X2, P3, V1): what a seat sees, non-interference, determinize."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import attrs
import pytest

import xeri
from edge_games import (
    PISTI,
    VARIANTS,
    all_rules,
    cards_in,
    game,
    hidden_cards,
    named_cards,
    redeal_state,
    states,
)
from xeri import (
    DECK,
    Capture,
    Card,
    Combine,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Observation,
    Phase,
    Trail,
    determinize,
    observe,
)
from xeri._core.validate import check_state
from xeri.testing import card_at, hidden_places, shuffle_hidden

RULES = all_rules()
IDS = [r.name for r in RULES]


def sample_states(rules: xeri.RuleSet, seeds: range = range(2), every: int = 3) -> list[GameState]:
    """States of every phase: before the deal, a redeal if the rules have one, play, round end."""
    out = [s for seed in seeds for s in states(rules, seed, rounds=1, every=every)]
    if rules.redeal is not xeri.Redeal.NEVER:
        out.append(redeal_state(rules))
    return out


# --------------------------------------------------------------------------
# What is seen


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_x2_observation_holds_own_hand_counts_and_public_facts(rules):
    for state in sample_states(rules):
        for seat in range(rules.seats):
            seen = observe(state, seat)
            assert seen.seat == seat
            assert seen.hand == state.hands[seat]
            assert seen.hand_sizes == tuple(map(len, state.hands))
            assert seen.stock_size == len(state.stock)
            assert (seen.phase, seen.dealer, seen.to_move) == (
                state.phase,
                state.dealer,
                state.to_move,
            )
            assert seen.history == state.history
            assert seen.round_results == state.round_results
            assert seen.bottom_card == state.bottom_card
            assert seen.scores == state.scores
            assert seen.captured_counts == tuple(map(len, state.captured))
            assert seen.xeris == state.xeris
            assert seen.last_capturer == state.last_capturer
            assert seen.is_chance == state.is_chance
            assert seen.is_round_over == state.is_round_over
            assert seen.winner == state.winner
            assert seen.status == state.status
            assert [s for s, _ in seen.plays] == [
                (state.dealer + 1 + i) % rules.seats for i in range(len(state.history))
            ]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_x2_no_hidden_card_in_observation_or_its_repr_or_json(rules):
    for state in sample_states(rules):
        for seat in range(rules.seats):
            seen = observe(state, seat)
            hidden = hidden_cards(state, seat)
            assert not cards_in(seen) & hidden
            # The rule set's points table names cards; the rest must not name hidden ones.
            assert not named_cards(repr(seen).replace(repr(rules), "")) & hidden
            doc = json.loads(xeri.to_json(seen))
            del doc["data"]["rules"]
            assert not named_cards(json.dumps(doc)) & hidden


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_legal_moves_of_an_observation_are_those_of_the_state_for_the_mover(rules):
    for state in sample_states(rules, every=1):
        for seat in range(rules.seats):
            seen = observe(state, seat)
            if state.to_move == seat:
                assert xeri.legal_moves(seen) == xeri.legal_moves(state)
            else:
                assert xeri.legal_moves(seen) == ()


def test_observe_refuses_a_seat_out_of_range():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    for seat in (-1, 2, True, "0", 0.0):
        with pytest.raises(IllegalMoveError, match="seat must be an int"):
            observe(state, seat)  # type: ignore[arg-type]
    assert observe(state, None).seat is None  # None is the spectator's view


def test_p3_face_down_cards_hidden_until_captured_then_shown_to_the_capturer_only():
    state = xeri.new_game(PISTI, dealer=0, rng=random.Random(11))
    down = state.table[:3]
    for seat in (0, 1):
        seen = observe(state, seat)
        assert seen.face_down == 3
        assert seen.table == state.table[3:]
        assert not cards_in(seen) & set(down)
    rng = random.Random(2)
    while not state.takes:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    first = state.takes[0]
    assert first.cards[:3] == down
    capturer, other = first.seat, 1 - first.seat
    mine, theirs = observe(state, capturer), observe(state, other)
    assert mine.takes[0].cards == first.cards
    assert mine.takes[0].hidden == 0
    assert theirs.takes[0].cards == first.cards[3:]
    assert theirs.takes[0].hidden == 3
    assert theirs.takes[0].count == len(first.cards)
    assert theirs.captured_counts == mine.captured_counts == tuple(map(len, state.captured))
    assert not cards_in(theirs) & set(down)
    assert mine.face_down == theirs.face_down == 0


def test_v1_bottom_card_is_public_and_stays_in_its_known_place():
    rules = VARIANTS[0]
    for state in states(rules, 3, rounds=1):
        if state.phase is Phase.DEAL:
            continue
        bottom = state.bottom_card
        assert bottom is not None
        assert bottom.rank is not xeri.Rank.JACK
        for seat in range(rules.seats):
            assert observe(state, seat).bottom_card is bottom
        if state.stock:
            assert state.stock[-1] is bottom


# --------------------------------------------------------------------------
# Non-interference


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_x2_non_interference_in_every_phase(rules):
    rng = random.Random(5)
    phases = set()
    for state in (
        sample_states(rules, seeds=range(3), every=2)
        + [s for s, _ in game(rules, 9, rounds=None)][-1:]
    ):
        phases.add(state.phase)
        for seat in range(rules.seats):
            seen = observe(state, seat)
            text = xeri.to_json(seen)
            for _ in range(2):
                other = shuffle_hidden(state, seat, rng)
                assert observe(other, seat) == seen
                assert xeri.to_json(observe(other, seat)) == text
    assert {Phase.DEAL, Phase.PLAY, Phase.ROUND_OVER, Phase.MATCH_OVER} <= phases
    if rules.redeal is not xeri.Redeal.NEVER:
        assert Phase.REDEAL in phases


def _probes(state: GameState) -> list[xeri.Move]:
    """Moves to submit: every card played alone, and German-style moves with every card."""
    items = list(state.table)
    probes: list[xeri.Move] = list(DECK)
    for card in DECK:
        probes.append(Trail(card=card))
        if items:
            probes.append(Capture(card=card, taken=(items[0],)))
            probes.append(Capture(card=card, taken=tuple(items)))
            probes.append(Combine(card=card, onto=items[-1], value=10))
    return probes


def _refusal(call: Callable[..., object], *args, **kwargs) -> str:
    """The message of the IllegalMoveError that `call(*args, **kwargs)` raises, or "legal"."""
    try:
        call(*args, **kwargs)
    except IllegalMoveError as exc:
        return str(exc)
    return "legal"


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_x5_error_messages_name_no_hidden_card_and_do_not_depend_on_hidden_cards(rules):
    rng = random.Random(8)
    checked = 0
    for state in sample_states(rules, seeds=range(1), every=11):
        for seat in range(rules.seats):
            hidden = hidden_cards(state, seat)
            other = shuffle_hidden(state, seat, rng)
            probes = _probes(state)
            for move in rng.sample(probes, min(len(probes), 60)):
                messages = [_refusal(xeri.apply, s, move, seat=seat) for s in (state, other)]
                assert messages[0] == messages[1], move
                named = named_cards(messages[0]) - cards_in(move)
                assert not named & hidden, (move, messages[0])
                checked += 1
                text = str(move)
                refusal = _refusal(xeri.parse_move, state, text, seat=seat)
                assert not named_cards(refusal) & hidden, (text, refusal)
    assert checked > 500


# --------------------------------------------------------------------------
# Determinize


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_determinize_gives_reachable_states_with_the_same_observation(rules):
    rng = random.Random(3)
    for state in sample_states(rules, seeds=range(1), every=4):
        for seat in range(rules.seats):
            seen = observe(state, seat)
            for _ in range(2):
                sampled = determinize(seen, rng)
                assert observe(sampled, seat) == seen
                assert check_state(sampled).problems == []
                assert sampled.hands[seat] == state.hands[seat]
                # The sampled state plays on like a real one.
                if sampled.to_move is not None:
                    assert len(xeri.legal_moves(sampled)) > 0


def test_determinize_is_repeatable_with_a_seeded_generator():
    state = states(xeri.GREEK, 4, rounds=1)[20]
    seen = observe(state, 0)
    assert determinize(seen, random.Random(9)) == determinize(seen, random.Random(9))
    assert isinstance(determinize(seen), GameState)  # the default, secure generator


@pytest.mark.parametrize(
    "rules", [xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN, PISTI, VARIANTS[0]], ids=lambda r: r.name
)
def test_determinize_every_hidden_card_reaches_every_hidden_place(rules):
    rng = random.Random(12)
    state = next(
        s for s, _ in game(rules, 21) if s.phase is Phase.PLAY and len(s.history) >= 2 * rules.seats
    )
    if rules is PISTI:  # the face-down cards still lie on the table
        state = xeri.new_game(rules, dealer=0, rng=random.Random(1))
    seat = state.to_move
    assert seat is not None
    seen = observe(state, seat)
    places = hidden_places(state, seat)
    hidden = hidden_cards(state, seat)
    # A hand is a set: its place is the hand, not a position in it.
    where = {("hand", i, 0) if kind == "hand" else (kind, i, pos) for kind, i, pos in places}
    reached: dict[Card, set[tuple[str, int, int]]] = {c: set() for c in hidden}
    counts: Counter[tuple[Card, int]] = Counter()
    draws = 600
    for _ in range(draws):
        sampled = determinize(seen, rng)
        for kind, i, pos in places:
            card = card_at(sampled, (kind, i, pos))
            reached[card].add(("hand", i, 0) if kind == "hand" else (kind, i, pos))
        for other in range(rules.seats):
            if other != seat:
                counts.update((c, other) for c in sampled.hands[other])
    for card in hidden:
        assert reached[card] == where, card
    if any(isinstance(item, xeri.Build) for item in state.table):
        return  # a build's owner must hold a card of its value: not uniform per card (D4)
    # Uniform: each hidden card lies in a given other hand with probability size / hidden.
    for other in range(rules.seats):
        if other == seat:
            continue
        size = len(state.hands[other]) - (state.bottom_card in state.hands[other])
        expected = draws * size / len(hidden)
        for card in hidden:
            assert abs(counts[card, other] - expected) < 6 * expected**0.5 + 5


def test_determinize_keeps_the_german_build_owner_able_to_take_the_build():
    # D4: a seat owning a build of value v holds a card of value v; sampling
    # the owner's hand must respect that.
    rng = random.Random(0)
    for seed in range(200):
        found = None
        for state, _ in game(xeri.GERMAN, seed, rounds=1):
            if state.to_move is None:
                continue
            owners = {
                item.owner: item.value for item in state.table if isinstance(item, xeri.Build)
            }
            other = [o for o in owners if o != state.to_move]
            if other:
                found = state, other[0], owners[other[0]]
                break
        if found:
            break
    assert found is not None
    state, owner, value = found
    seen = observe(state, state.to_move)
    for _ in range(100):
        sampled = determinize(seen, rng)
        assert any(xeri.card_value(c) == value for c in sampled.hands[owner])


def test_determinize_refuses_an_observation_no_state_fits():
    state = states(xeri.GREEK, 1, rounds=1)[10]
    seen = observe(state, 0)
    bad = [
        attrs.evolve(seen, stock_size=seen.stock_size + 1),
        attrs.evolve(seen, hand_sizes=(seen.hand_sizes[0], seen.hand_sizes[1] - 1)),
        attrs.evolve(seen, hand=seen.hand[1:]),
        attrs.evolve(seen, to_move=1 - seen.to_move),  # type: ignore[operator]
        attrs.evolve(seen, seat=5),
        attrs.evolve(seen, phase=Phase.ROUND_OVER),
    ]
    for obs in bad:
        with pytest.raises(InvalidStateError) as info:
            determinize(obs, random.Random(0))
        assert info.value.problems


def test_observation_is_frozen_and_compares_by_value():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(2))
    a, b = observe(state, 0), observe(state, 0)
    assert a == b
    assert isinstance(a, Observation)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        a.seat = 1  # type: ignore[misc]

"""Integer actions (`xeri._agents.actions`): a fixed action space, exact on every legal move.

Random rounds of every preset and of the German options: at every decision
point the legal actions, the mask and the legal moves agree, every action
round-trips through its move, and the observation of the seat to move
gives the same answers as the state.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import ClassVar

import attrs
import pytest

import xeri
from xeri import (
    DECK,
    GERMAN,
    GREEK,
    GREEK_FOUR,
    ArgumentError,
    Build,
    Capture,
    Card,
    Combine,
    GameState,
    IllegalMoveError,
    PileCapture,
    RuleSet,
    RuleSetError,
    SumCapture,
    Trail,
)
from xeri._agents.actions import factored, num_targets
from xeri._families.protocol import HandNeeds, OutcomeTuple
from xeri._moves import PlayerMove
from xeri._table import TableItem

CHUNKS = 3
"""Each preset plays this many chunks of random rounds, each chunk a test of its own."""
ROUNDS = 100
"""Random rounds per chunk: 300 per preset; one chunk per German option."""


def _german(**options: bool) -> RuleSet:
    return attrs.evolve(GERMAN, capture=SumCapture(**options))


def _decisions(rules: RuleSet, rounds: int, seed: int) -> Iterator[GameState]:
    """Every decision point of `rounds` random rounds (one round per match)."""
    rng = random.Random(seed)
    for _ in range(rounds):
        state = xeri.new_game(rules, rng=rng)
        while not state.is_round_over:
            yield state
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))


def _check_decision(state: GameState, count: int, targets: int) -> int:
    """The Done-when property at one decision point; returns how many actions were legal."""
    moves = xeri.legal_moves(state)
    actions = xeri.legal_actions(state)
    mask = xeri.action_mask(state)
    assert len(mask) == count
    assert len(actions) == mask.count(1) == len(moves) == len(set(actions))
    assert mask.count(0) == count - len(actions)
    assert list(actions) == sorted(actions)
    assert all(0 <= a < count and mask[a] == 1 for a in actions)
    decoded = [xeri.action_to_move(state, a) for a in actions]
    assert set(decoded) == set(moves)
    assert [xeri.move_to_action(state, m) for m in decoded] == list(actions)
    for action, move in zip(actions, decoded, strict=True):
        card, target = factored(state.rules, action)
        assert card == move.card.index
        assert 0 <= target < targets
    seat = state.to_move
    assert seat is not None
    seen = xeri.observe(state, seat)
    assert xeri.legal_actions(seen) == actions
    assert xeri.action_mask(seen) == mask
    assert [xeri.action_to_move(seen, a) for a in actions] == decoded
    assert [xeri.move_to_action(seen, m) for m in decoded] == list(actions)
    other = xeri.observe(state, (seat + 1) % state.rules.seats)
    assert xeri.legal_actions(other) == ()
    assert xeri.action_mask(other).count(0) == count
    return len(actions)


PRESETS = {"GREEK": GREEK, "GREEK_FOUR": GREEK_FOUR, "GERMAN": GERMAN}
VARIANTS = {
    "forced_capture": _german(forced_capture=True),
    "self_raise": _german(self_raise=True),
}


@pytest.mark.parametrize(
    ("name", "chunk"), [(n, c) for n in PRESETS for c in range(CHUNKS)] + [(n, 0) for n in VARIANTS]
)
def test_X5_actions_match_the_legal_moves_over_random_rounds(name: str, chunk: int) -> None:
    rules = PRESETS.get(name) or VARIANTS[name]
    count, targets = xeri.num_actions(rules), num_targets(rules)
    decisions = legal = 0
    for state in _decisions(rules, ROUNDS, seed=chunk * 100 + len(name)):
        legal += _check_decision(state, count, targets)
        decisions += 1
    assert decisions >= ROUNDS * 24  # every round has at least 24 plays per two seats
    assert legal > decisions  # more than one legal move on average


def test_num_actions_of_the_presets() -> None:
    assert xeri.num_actions(GREEK) == xeri.num_actions(GREEK_FOUR) == 52
    assert num_targets(GREEK) == 1
    assert xeri.num_actions(GERMAN) == 18308
    assert num_targets(GERMAN) == 4194
    for rules in VARIANTS.values():
        assert xeri.num_actions(rules) == xeri.num_actions(GERMAN)


def test_pile_actions_are_deck_indices() -> None:
    state = xeri.new_game(GREEK, rng=random.Random(3))
    hand = state.hands[state.to_move or 0]
    assert xeri.legal_actions(state) == tuple(c.index for c in hand)
    assert [factored(GREEK, a) for a in range(52)] == [(a, 0) for a in range(52)]


def test_german_actions_are_distinct_and_factor_distinctly() -> None:
    count = xeri.num_actions(GERMAN)
    pairs = {factored(GERMAN, a) for a in range(count)}
    assert len(pairs) == count
    cards = [card for card, _ in sorted(pairs)]
    assert cards == sorted(cards)  # the actions of a card are consecutive, in deck order
    assert [factored(GERMAN, a)[0] for a in range(count)] == cards


def test_german_action_meaning_does_not_depend_on_the_table() -> None:
    five, three, two, four = (Card.parse(s) for s in ("5C", "3C", "2D", "4H"))
    build = Build(cards=(two, three), value=5, owner=1)
    on_build = Combine(card=four, onto=build, value=9)
    on_card = Combine(card=four, onto=two, value=6)
    take_build = Capture(card=five, taken=(build,))
    take_cards = Capture(card=five, taken=(two, three))
    actions = [
        GERMAN.capture.action_of(m, (), 0)  # type: ignore[attr-defined]  # SumCapture
        for m in (on_build, on_card, take_build, take_cards, Trail(card=five))
    ]
    assert len(set(actions)) == len(actions)
    # The same action names the same move on any table holding its items.
    for table in ((build, Card.parse("KC")), (Card.parse("9S"), build)):
        action = actions[0]
        move = GERMAN.capture.move_of(action, table, (four, Card.parse("9C")), 0)  # type: ignore[attr-defined]  # SumCapture
        assert move == on_build


def test_X5_an_illegal_action_raises_IllegalMoveError() -> None:
    state = xeri.new_game(GREEK, rng=random.Random(4))
    seat = state.to_move
    assert seat is not None
    absent = next(c for c in DECK if c not in state.hands[seat])
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        xeri.action_to_move(state, absent.index)
    for bad in (-1, 52, True, 3.0, "3"):
        with pytest.raises(ArgumentError, match="an action is an int"):
            xeri.action_to_move(state, bad)  # type: ignore[arg-type]  # the point of the test
    with pytest.raises(IllegalMoveError):
        xeri.move_to_action(state, absent)
    other = xeri.observe(state, (seat + 1) % 2)
    with pytest.raises(IllegalMoveError, match="not the observing seat"):
        xeri.action_to_move(other, state.hands[seat][0].index)


def test_X5_an_illegal_german_action_raises_IllegalMoveError() -> None:
    state = xeri.new_game(GERMAN, rng=random.Random(6))
    legal = set(xeri.legal_actions(state))
    illegal = [a for a in range(0, xeri.num_actions(GERMAN), 97) if a not in legal]
    assert illegal
    for action in illegal:
        with pytest.raises(IllegalMoveError):
            xeri.action_to_move(state, action)


def test_D3_multi_capture_has_no_encoding() -> None:
    rules = _german(multi_capture=True)
    state = xeri.new_game(rules, rng=random.Random(7))
    for function in (xeri.legal_actions, xeri.action_mask):
        with pytest.raises(RuleSetError, match="multi_capture"):
            function(state)
    with pytest.raises(RuleSetError, match="multi_capture"):
        xeri.num_actions(rules)
    with pytest.raises(RuleSetError, match="multi_capture"):
        xeri.move_to_action(state, xeri.legal_moves(state)[0])
    with pytest.raises(RuleSetError, match="multi_capture"):
        xeri.action_to_move(state, 0)


@attrs.frozen(kw_only=True)
class _PlainPile:
    """A custom capture rule without the action encoding: it wraps the pile rule."""

    pile: ClassVar[bool] = True
    inner: PileCapture = PileCapture()

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        return self.inner.moves(table, hand, seat)

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> OutcomeTuple:
        return self.inner.play(table, hand, seat, move)

    def needs(self, table: tuple[TableItem, ...], move: PlayerMove, seat: int) -> HandNeeds:
        return self.inner.needs(table, move, seat)

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        return self.inner.table_cards(table)


def test_a_capture_rule_without_the_encoding_gets_RuleSetError() -> None:
    rules = attrs.evolve(GREEK, name="plain-pile", capture=_PlainPile())
    assert isinstance(rules.capture, xeri.CaptureRule)
    assert not isinstance(rules.capture, xeri.ActionEncoding)
    assert isinstance(GREEK.capture, xeri.ActionEncoding)
    assert isinstance(GERMAN.capture, xeri.ActionEncoding)
    state = xeri.new_game(rules, rng=random.Random(8))
    assert xeri.legal_moves(state)  # the rule set itself plays
    message = "_PlainPile has no action encoding: it lacks action_count, target_count"
    with pytest.raises(RuleSetError, match=message):
        xeri.num_actions(rules)
    for call in (
        lambda: xeri.legal_actions(state),
        lambda: xeri.action_mask(state),
        lambda: xeri.action_to_move(state, 0),
        lambda: xeri.move_to_action(state, xeri.legal_moves(state)[0]),
        lambda: factored(rules, 0),
    ):
        with pytest.raises(RuleSetError, match="no action encoding"):
            call()


def test_no_decision_gives_no_actions() -> None:
    rng = random.Random(9)
    state = xeri.new_game(GREEK, rng=rng)
    while not state.is_round_over:
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    assert xeri.legal_actions(state) == ()
    assert xeri.action_mask(state) == bytes(52)
    with pytest.raises(IllegalMoveError, match="no seat is to move"):
        xeri.action_to_move(state, 0)
    with pytest.raises(ArgumentError, match="needs a GameState or an Observation"):
        xeri.legal_actions("a state")  # type: ignore[arg-type]  # the point of the test

"""Integer actions: a fixed action space per rule set, for learning agents.

A policy network wants its choices numbered: [`num_actions`][xeri.num_actions]
gives the size of a rule set's action space, and every legal move of every
state is one integer below it. [`legal_actions`][xeri.legal_actions] and
[`action_mask`][xeri.action_mask] give the legal ones,
[`move_to_action`][xeri.move_to_action] and
[`action_to_move`][xeri.action_to_move] translate, each the inverse of the
other on the legal moves. All of them accept a [`GameState`][xeri.GameState]
or the [`Observation`][xeri.Observation] of the seat to move, and answer the
same for both.

The meaning of an action never depends on the state: an action names the
card played and what it is played onto, never a position on the table.

**Pile games** ([`PileCapture`][xeri.PileCapture]): the move is the card
played, and the action is its index in [`DECK`][xeri.DECK] (52 actions).

**German Xeri** ([`SumCapture`][xeri.SumCapture]): a table item is named by
its *anchor*, the lowest deck index among its cards (a loose card's own
index; a [`Build`][xeri.Build]'s lowest card). The cards on a table are
distinct, so an anchor names at most one item of any table. An action is a
tuple `(card, kind, anchors, value)`:

| kind | move | anchors | value |
|---|---|---|---|
| 0 trail | [`Trail`][xeri.Trail] | none | 0 |
| 1 take cards | [`Capture`][xeri.Capture] of loose cards | the cards, ascending | 0 |
| 2 take a build | [`Capture`][xeri.Capture] of one build | its anchor | 0 |
| 3 combine | [`Combine`][xeri.Combine] | the item laid onto | its value |

The action space holds every such tuple the rules allow for some table
([D3][rules-d3]): the 52 trails; a picture taking each loose card of its
rank; a number card taking each set of loose number cards adding up to its
value, each build of its value (an anchor with a smaller value, from which
the cards above it in the deck can make the rest), and combining onto each
loose number card or build whose value leaves a sum of at most 10. The
tuples are numbered in the order `(card, kind, anchors, value)`, so the
actions of one card are consecutive and the cards come in deck order:
18,308 actions in all. A value is needed only for combinations: a build and
a loose card may share an anchor, and a build's value tells them apart.

Under `multi_capture` one card may take any set of items that divides into
groups of its value, billions of sets on some tables, so no fixed action
space of a usable size covers the legal moves: a
[`SumCapture`][xeri.SumCapture] with `multi_capture=True` has no encoding,
and these functions raise [`RuleSetError`][xeri.RuleSetError] for it.
The same holds for `multi_builds`, where a build may gather any set of
table items: [`CASSINO`][xeri.CASSINO] has no encoding, here or in the
PettingZoo and OpenSpiel adapters; and for `sweepers`, whose cards take
every item of the table ([W1][rules-w1]). The other options change only which
actions are legal (`forced_capture`, `self_raise`, `builds`, `raises`,
`equal_first`, `card_must_capture`) or which captures are jack xeris
(`jack_xeri_ranks`), or, for `values` and `total`, which
groups add up: the table is numbered once for each table of values and
total, in the same layout ([`SCOPA`][xeri.SCOPA] has 18,308 actions too;
a total or ranks of several values leave out the builds, which such a
rule cannot make, [K1][rules-k1], [K2][rules-k2]). A table that would
hold more than 32,768 actions has no encoding (Escoba's 84,536), nor has
a rule that builds with ranks of several values.

**Two-headed policies.** [`factored`][xeri.factored] splits an
action into the card played (its deck index, 0 to 51) and a *target*, below
[`num_targets`][xeri.num_targets]: what the card is played onto,
whatever the card (in German Xeri the tuple `(kind, anchors, value)`, the
targets numbered in the order of those tuples; in pile games the one
target 0). No two actions have the same pair, so a policy may choose a card
with one head and a target with another, then look the pair up in a
dictionary built once from `factored` over `range(num_actions(rules))`.

**Custom capture rules.** A [`CaptureRule`][xeri.CaptureRule] does not
need actions. One that wants them implements the methods of
[`ActionEncoding`][xeri.ActionEncoding]; without them these functions raise
[`RuleSetError`][xeri.RuleSetError] naming the missing methods.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> xeri.num_actions(xeri.GREEK)
    52
    >>> actions = xeri.legal_actions(state)
    >>> [xeri.action_to_move(state, a) for a in actions] == list(xeri.legal_moves(state))
    True
    >>> sum(xeri.action_mask(state)) == len(actions)
    True
    >>> xeri.num_actions(xeri.GERMAN)
    18308
"""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol, runtime_checkable

from xeri._agents.observation import Observation
from xeri._cards import Card
from xeri._core.engine import legal_moves
from xeri._core.state import GameState
from xeri._errors import ArgumentError, IllegalMoveError, RuleSetError, XeriError, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.sums.actions import (
    Values,
    _no_multi,
    _sum_action_of,
    _sum_key,
    _sum_move_of,
    _sum_table,
)
from xeri._families.sums.rule import SumCapture
from xeri._moves import PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem

__all__ = [
    "ActionEncoding",
    "action_mask",
    "action_to_move",
    "factored",
    "legal_actions",
    "move_to_action",
    "num_actions",
    "num_targets",
]


@runtime_checkable
class ActionEncoding(Protocol):
    """The methods a capture rule adds to number its moves ([optional][integer-actions]).

    [`CaptureRule`][xeri.CaptureRule] does not require them. The encoding
    must be a fixed bijection between `range(action_count())` and a set of
    moves described without reference to a state, so that on every table
    `move_of(action_of(m, ...), ...) == m` for every legal move `m`, and
    distinct legal moves get distinct actions. The action functions
    check legality themselves (with [`CaptureRule.play`][xeri.CaptureRule.play]):
    `move_of` only has to decode.
    """

    def action_count(self) -> int:
        """The size of the action space: every action is below it.

        Returns:
            The number of actions.

        Raises:
            RuleSetError: the rule's options have no encoding.
        """
        ...

    def target_count(self) -> int:
        """The number of targets of [`action_parts`][xeri.ActionEncoding.action_parts].

        Returns:
            The number of targets.

        Raises:
            RuleSetError: the rule's options have no encoding.
        """
        ...

    def action_of(self, move: PlayerMove, table: tuple[TableItem, ...], seat: int) -> int:
        """The action of a legal move.

        Args:
            move: a legal move of `seat` on `table`.
            table: the table items.
            seat: the mover's seat.

        Returns:
            The action, from 0 to `action_count() - 1`.

        Raises:
            IllegalMoveError: the move is not a move this encoding numbers.
            RuleSetError: the rule's options have no encoding.
        """
        ...

    def move_of(
        self, action: int, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> PlayerMove:
        """The move an action names on this table, not yet checked for legality.

        Args:
            action: an int from 0 to `action_count() - 1`.
            table: the table items.
            hand: the mover's hand, sorted in deck order.
            seat: the mover's seat.

        Returns:
            The move.

        Raises:
            IllegalMoveError: the action names no move here (its card is not
                held, or the items it names are not on the table).
            RuleSetError: the rule's options have no encoding.
        """
        ...

    def action_parts(self, action: int) -> tuple[int, int]:
        """An action as (card played, target), for two-headed policies.

        Args:
            action: an int from 0 to `action_count() - 1`.

        Returns:
            The deck index of the card played and the target, below
            `target_count()`; distinct actions give distinct pairs.

        Raises:
            RuleSetError: the rule's options have no encoding.
        """
        ...


_METHODS = ("action_count", "target_count", "action_of", "move_of", "action_parts")


def _encoding(rules: RuleSet) -> ActionEncoding:
    """The capture rule of `rules` as an encoding, or a RuleSetError naming what it lacks."""
    capture = rules.capture
    if capture.__class__ is PileCapture:
        return capture  # the built-in implements it
    if capture.__class__ is SumCapture:
        _no_multi(capture)  # a SumCapture, by the class test
        # the methods of SumCapture, without their checks and imports
        return _sum_encoding(capture.values, capture.total)
    missing = [name for name in _METHODS if not callable(getattr(capture, name, None))]
    if missing:
        raise RuleSetError(
            f"capture rule {type(capture).__name__} has no action encoding: "
            f"it lacks {', '.join(missing)} (see xeri.ActionEncoding)"
        )
    return capture  # type: ignore[return-value]  # every method of the protocol is there


def _rules_of(rules: object, function: str) -> RuleSet:
    if not isinstance(rules, RuleSet):
        raise ArgumentError(f"{function} needs a RuleSet, not {type(rules).__name__}")
    return rules


def _decision(
    state: GameState | Observation, function: str
) -> tuple[RuleSet, tuple[TableItem, ...], tuple[Card, ...], int] | None:
    """The rules, table, hand and seat of the seat to move, or None when it is not known."""
    if type(state) is GameState:
        seat = state.to_move
        if seat is None:
            return None
        return state.rules, state.table, state.hands[seat], seat
    if type(state) is Observation:
        seat = state.to_move
        if seat is None or seat != state.seat:
            return None
        return state.rules, state.table, state.hand, seat
    raise ArgumentError(
        f"{function} needs a GameState or an Observation, not {type(state).__name__}"
    )


def _no_decision(state: GameState | Observation) -> IllegalMoveError:
    if state.to_move is None:
        return IllegalMoveError("no seat is to move: chance acts or the match is over")
    return IllegalMoveError(f"seat {state.to_move} is to move, not the observing seat")


def _check_legal(
    rules: RuleSet,
    table: tuple[TableItem, ...],
    hand: tuple[Card, ...],
    seat: int,
    move: PlayerMove,
) -> None:
    """Raise IllegalMoveError unless `move` is legal, as the capture rule's `play` decides."""
    capture = rules.capture
    try:
        capture.play(table, hand, seat, move)
    except XeriError:
        raise
    except Exception as exc:
        raise RuleSetError(
            f"capture rule {type(capture).__name__}: play raised {type(exc).__name__}"
        ) from exc


def num_actions(rules: RuleSet) -> int:
    """The size of the fixed action space of a rule set.

    Args:
        rules: the rule set.

    Returns:
        The number of actions: 52 for pile games, 18,308 for German Xeri.

    Raises:
        RuleSetError: the capture rule has no action encoding (see
            [`ActionEncoding`][xeri.ActionEncoding]), or its options have none
            (`multi_capture`).
    """
    return _encoding(_rules_of(rules, "num_actions")).action_count()


def num_targets(rules: RuleSet) -> int:
    """The number of targets of [`factored`][xeri.factored]: 1 in pile games.

    Args:
        rules: the rule set.

    Returns:
        The size of the target head of a two-headed policy.

    Raises:
        RuleSetError: the capture rule has no action encoding.
    """
    return _encoding(_rules_of(rules, "num_targets")).target_count()


def factored(rules: RuleSet, action: int) -> tuple[int, int]:
    """An action as `(card index, target)`: the card played, and what it is played onto.

    Args:
        rules: the rule set.
        action: an action of the rule set.

    Returns:
        The deck index of the card played (0 to 51) and the target (below
        [`num_targets`][xeri.num_targets]); distinct actions give
        distinct pairs. In pile games the target is always 0.

    Raises:
        ArgumentError: `rules` is not a rule set, or `action` is not an int below
            `num_actions(rules)`.
        RuleSetError: the capture rule has no action encoding.
    """
    encoding = _encoding(_rules_of(rules, "factored"))
    _check_range(action, encoding.action_count())
    return encoding.action_parts(action)


def _check_range(action: object, count: int) -> None:
    if type(action) is not int or not 0 <= action < count:
        raise ArgumentError(f"an action is an int from 0 to {count - 1}, not {_show(action)}")


def legal_actions(state: GameState | Observation) -> tuple[int, ...]:
    """The actions of the legal moves, sorted, one per move.

    Args:
        state: a state, or the observation of the seat to move.

    Returns:
        The actions, ascending; empty when no seat is to move (or, for an
        observation, when another seat is).

    Raises:
        ArgumentError: `state` is neither a state nor an observation.
        RuleSetError: the capture rule has no action encoding.
    """
    decision = _decision(state, "legal_actions")
    if decision is None:
        _encoding(state.rules)
        return ()
    rules, table, _, seat = decision
    moves = legal_moves(state)
    capture = rules.capture
    if capture.__class__ is PileCapture:  # the moves are the hand, in deck order
        return tuple([card.index for card in moves])  # type: ignore[union-attr]  # cards
    if capture.__class__ is SumCapture:  # straight to the table, without a method call per move
        _encoding(rules)
        values, total = capture.values, capture.total
        index = _sum_table(values, total).index
        try:
            return tuple(sorted([index[_sum_key(move, values)] for move in moves]))
        except KeyError:  # not expected: the table holds every move; name the one it misses
            return tuple(sorted([_sum_action_of(move, values, total) for move in moves]))
    encoding = _encoding(rules)
    actions = sorted([encoding.action_of(move, table, seat) for move in moves])
    count = encoding.action_count()  # a custom encoding: check what it gave
    if len(set(actions)) < len(actions) or not all(0 <= a < count for a in actions):
        raise RuleSetError(
            f"capture rule {type(capture).__name__}: action_of gave the legal moves "
            "actions that are repeated or out of range"
        )
    return tuple(actions)


def action_mask(state: GameState | Observation) -> bytes:
    """A mask of the legal actions: one byte per action, 1 at the legal ones, else 0.

    Args:
        state: a state, or the observation of the seat to move.

    Returns:
        `num_actions(state.rules)` bytes (all 0 when no seat is to move);
        `numpy.frombuffer(mask, dtype=numpy.uint8)` reads it without a copy.

    Raises:
        ArgumentError: `state` is neither a state nor an observation.
        RuleSetError: the capture rule has no action encoding.
    """
    actions = legal_actions(state)
    mask = bytearray(_encoding(state.rules).action_count())
    for action in actions:
        mask[action] = 1
    return bytes(mask)


def move_to_action(state: GameState | Observation, move: PlayerMove) -> int:
    """The action of a legal move of the seat to move.

    Args:
        state: a state, or the observation of the seat to move.
        move: a legal move.

    Returns:
        Its action; [`action_to_move`][xeri.action_to_move] gives the move back.

    Raises:
        IllegalMoveError: no seat (or not the observing one) is to move, or
            the move is not legal.
        RuleSetError: the capture rule has no action encoding, or its
            options have none.
    """
    decision = _decision(state, "move_to_action")
    if decision is None:
        raise _no_decision(state)
    rules, table, hand, seat = decision
    encoding = _encoding(rules)
    _check_legal(rules, table, hand, seat, move)
    return encoding.action_of(move, table, seat)


def action_to_move(state: GameState | Observation, action: int) -> PlayerMove:
    """The legal move an action names.

    Args:
        state: a state, or the observation of the seat to move.
        action: an action, below [`num_actions`][xeri.num_actions].

    Returns:
        The move; [`move_to_action`][xeri.move_to_action] gives the action back.

    Raises:
        IllegalMoveError: no seat (or not the observing one) is to move, the
            action is out of range, or the move it names is not legal here.
        RuleSetError: the capture rule has no action encoding.
    """
    decision = _decision(state, "action_to_move")
    if decision is None:
        raise _no_decision(state)
    rules, table, hand, seat = decision
    encoding = _encoding(rules)
    _check_range(action, encoding.action_count())
    move = encoding.move_of(action, table, hand, seat)
    try:
        _check_legal(rules, table, hand, seat, move)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"action {action} is not legal: {exc}") from None
    return move


# -- the built-in encodings ---------------------------------------------------------------


class _SumEncoding:
    """The encoding of a SumCapture with an encoding, as the action functions use it."""

    __slots__ = ("total", "values")

    def __init__(self, values: Values, total: int | None) -> None:
        self.values = values
        self.total = total

    def action_count(self) -> int:
        return len(_sum_table(self.values, self.total).actions)

    def target_count(self) -> int:
        return _sum_table(self.values, self.total).targets

    def action_of(self, move: PlayerMove, table: tuple[TableItem, ...], seat: int) -> int:
        return _sum_action_of(move, self.values, self.total)

    def move_of(
        self, action: int, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> PlayerMove:
        return _sum_move_of(action, table, hand, self.values, self.total)

    def action_parts(self, action: int) -> tuple[int, int]:
        return _sum_table(self.values, self.total).parts[action]


@lru_cache(maxsize=64)
def _sum_encoding(values: Values, total: int | None = None) -> _SumEncoding:
    """The encoding of the sum games with these card values (and `total`), made once."""
    return _SumEncoding(values, total)

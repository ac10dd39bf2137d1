"""The checked calls of the rule set's components shared by the engine and the round core.

See [`xeri._core.engine`][xeri._core.engine] for the boundary: the built-in
components are trusted, a custom one's answers are checked for their shape,
and a failure is a [`RuleSetError`][xeri.RuleSetError] naming the component.
"""

from __future__ import annotations

from xeri._cards import Card
from xeri._errors import RuleSetError, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.sums.rule import SumCapture
from xeri._moves import Capture, Combine, PlayerMove, Trail
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem

__all__: list[str] = []

# The built-in capture rules, exactly these classes (a subclass may override
# anything): their answers are not checked.
_TRUSTED_CAPTURES = frozenset({PileCapture, SumCapture})
_PLAYER_MOVES = frozenset({Card, Capture, Combine, Trail})


def _failed(rules: RuleSet, field: str, method: str, problem: str) -> RuleSetError:
    """The error for a component that raised or broke its protocol: names it and the rule set."""
    kind = type(getattr(rules, field)).__name__
    return RuleSetError(f"rule set {rules.name!r}: its {field} {kind}.{method} {problem}")


def _table_cards(rules: RuleSet, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
    """`rules.capture.table_cards(table)`, with a custom capture rule's answer checked."""
    capture = rules.capture
    try:
        cards = capture.table_cards(table)
    except Exception as exc:
        raise _failed(rules, "capture", "table_cards", f"raised {type(exc).__name__}") from exc
    if capture.__class__ not in _TRUSTED_CAPTURES and not (
        type(cards) is tuple
        and all(c.__class__ is Card for c in cards)
        and len(set(cards)) == len(cards)
    ):
        problem = f"returned {_show(cards, text=False)}, not a tuple of distinct cards"
        raise _failed(rules, "capture", "table_cards", problem)
    return cards


def _moves(
    rules: RuleSet, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> tuple[PlayerMove, ...]:
    """`rules.capture.moves(...)`, with a custom capture rule's answer checked for its shape."""
    capture = rules.capture
    try:
        moves = capture.moves(table, hand, seat)
    except Exception as exc:
        raise _failed(rules, "capture", "moves", f"raised {type(exc).__name__}") from exc
    if capture.__class__ in _TRUSTED_CAPTURES:
        return moves
    if not (
        type(moves) is tuple
        and (moves or not hand)
        and all(move.__class__ in _PLAYER_MOVES for move in moves)
    ):
        problem = (
            "returned no move for a hand that holds cards"
            if type(moves) is tuple and not moves
            else f"returned {_show(moves, text=False)}, not a tuple of moves"
        )
        raise _failed(rules, "capture", "moves", problem)
    return moves

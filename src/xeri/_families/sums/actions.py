"""The integer actions of a [`SumCapture`][xeri.SumCapture], numbered once per table of values.

The layout is documented in `xeri._agents.actions`. The actions depend only on the
rule's card values (German Xeri's, Scopa's, ...): each table is built on
first use and kept, the last `_TABLES` (8) tables used, and only tables of
at most `_MAX_ACTIONS` (32,768) actions, about 9 MB each: a table of values
whose actions would number more (small values on many ranks make subsets by
the million, tables of hundreds of MB) has no action encoding, and asking
for it raises a [`RuleSetError`][xeri.RuleSetError] saying so, before
anything is built. Every preset's table has 18,308 actions. This module
sits below `xeri._families.sums.rule`, which implements the action methods
with it, and below `xeri._agents.actions`, which uses it directly.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from xeri._cards import DECK, Card, Rank
from xeri._errors import IllegalMoveError, RuleSetError
from xeri._moves import TRAILS, Capture, Combine, PlayerMove, Trail
from xeri._table import Build, TableItem

if TYPE_CHECKING:
    from xeri._families.sums.rule import SumCapture

__all__: list[str] = []

_TRAIL, _TAKE, _TAKE_BUILD, _COMBINE = 0, 1, 2, 3
_MAX = 10

_Key = tuple[int, int, tuple[int, ...], int]
"""An action of a sum game: (card index, kind, anchors, value)."""

Values = tuple[tuple[Rank, int], ...]
"""A rule's card values, as `SumCapture.values` holds them."""

_GERMAN: Values = tuple((Rank(v), v) for v in range(1, _MAX + 1))


_TABLES = 8
"""The action tables kept, most recently used first."""
_MAX_ACTIONS = 32_768
"""The most actions a table of values may have for an action encoding (about 9 MB)."""


@lru_cache(maxsize=64)
def _value_map(values: Values) -> dict[Card, int | None]:
    by_rank = dict(values)
    return {card: by_rank.get(card.rank) for card in DECK}


class _SumTable:
    """The actions of a sum game with given card values, numbered once."""

    __slots__ = ("actions", "index", "parts", "targets")

    def __init__(self, values: Values) -> None:
        value = _value_map(values)
        keys: list[_Key] = []
        for card in DECK:
            keys += sorted(_card_actions(card, value))
        self.actions: tuple[_Key, ...] = tuple(keys)
        self.index: dict[_Key, int] = {key: i for i, key in enumerate(keys)}
        targets = sorted({key[1:] for key in keys})
        target_index = {target: i for i, target in enumerate(targets)}
        self.targets: int = len(targets)
        self.parts: tuple[tuple[int, int], ...] = tuple(
            (key[0], target_index[key[1:]]) for key in keys
        )


def _card_actions(card: Card, values: dict[Card, int | None]) -> list[_Key]:
    """Every (card, kind, anchors, value) tuple the rules allow for one card."""
    i = card.index
    out: list[_Key] = [(i, _TRAIL, (), 0)]
    value = values[card]
    if value is None:
        out += [(i, _TAKE, (c.index,), 0) for c in DECK if c.rank is card.rank and c is not card]
        return out
    numbers = [(c.index, v) for c in DECK if c is not card and (v := values[c]) is not None]
    numbers.sort(key=_by_value)  # German Xeri's deck order already is
    out += [(i, _TAKE, tuple(sorted(group)), 0) for group in _subsets(numbers, value)]
    for anchor, v in numbers:
        rest = _rest_sums(numbers, anchor)
        if v < value and rest >> (value - v) & 1:
            out.append((i, _TAKE_BUILD, (anchor,), 0))
        if v + value <= _MAX:
            out.append((i, _COMBINE, (anchor,), v))  # onto the loose card
            out += [
                (i, _COMBINE, (anchor,), w)  # onto a build of value w anchored there
                for w in range(v + 1, _MAX - value + 1)
                if rest >> (w - v) & 1
            ]
    return out


def _by_value(number: tuple[int, int]) -> tuple[int, int]:
    return number[1], number[0]


def _rest_sums(numbers: list[tuple[int, int]], anchor: int) -> int:
    """The sums (bit s for s) of non-empty sets of the number cards above `anchor` in the deck."""
    sums = 1
    for index, v in numbers:
        if index > anchor:
            sums |= (sums << v) & ((1 << (_MAX + 1)) - 1)
    return sums & ~1


def _subsets(numbers: list[tuple[int, int]], total: int) -> list[tuple[int, ...]]:
    """The sets of cards (ascending indices) whose values add up to `total`."""
    out: list[tuple[int, ...]] = []
    chosen: list[int] = []

    def search(start: int, rest: int) -> None:
        for k in range(start, len(numbers)):
            index, v = numbers[k]
            if v > rest:
                return  # numbers are sorted by value
            chosen.append(index)
            if v == rest:
                out.append(tuple(chosen))
            else:
                search(k + 1, rest - v)
            chosen.pop()

    search(0, total)
    return out


@lru_cache(maxsize=_TABLES)
def _sum_table(values: Values = _GERMAN) -> _SumTable:
    """The action table of a table of values, built on first use (a constant of the rules).

    Raises:
        RuleSetError: the table would hold more than `_MAX_ACTIONS` actions.
    """
    count = _action_count(values)
    if count > _MAX_ACTIONS:
        raise RuleSetError(
            f"SumCapture.values: these values make {count:,} actions, more than the"
            f" {_MAX_ACTIONS:,} an action encoding holds (every preset has 18,308), so the rule"
            " has no integer actions; it plays without them (legal_moves, apply, the bots)"
        )
    return _SumTable(values)


def _action_count(values: Values) -> int:
    """How many actions `_SumTable(values)` would hold, counted without listing them."""
    value = _value_map(values)
    total = 0
    for card in DECK:
        v = value[card]
        total += 1  # the trail
        if v is None:
            total += sum(1 for c in DECK if c.rank is card.rank and c is not card)
            continue
        numbers = [(c.index, w) for c in DECK if c is not card and (w := value[c]) is not None]
        ways = [1] + [0] * v  # ways[s]: the sets of numbers adding up to s
        for _, w in numbers:
            for t in range(v, w - 1, -1):
                ways[t] += ways[t - w]
        total += ways[v]
        for anchor, w in numbers:
            rest = _rest_sums(numbers, anchor)
            if w < v and rest >> (v - w) & 1:
                total += 1
            if w + v <= _MAX:
                total += 1 + sum(1 for x in range(w + 1, _MAX - v + 1) if rest >> (x - w) & 1)
    return total


def _no_multi(rule: SumCapture) -> None:
    if rule.multi_capture:
        raise RuleSetError(
            "SumCapture(multi_capture=True) has no action encoding: one card may take any set "
            "of items that divides into groups of its value, too many for a fixed action space"
        )
    if rule.multi_builds:
        raise RuleSetError(
            "SumCapture(multi_builds=True) has no action encoding: a build may gather any set "
            "of table items, too many for a fixed action space"
        )
    if rule.sweepers:
        raise RuleSetError(
            "SumCapture(sweepers=...) has no action encoding: a sweeper takes every item of the "
            "table, any set of them, too many for a fixed action space"
        )


def _anchor(item: TableItem) -> int:
    return item.index if type(item) is Card else min(c.index for c in item.cards)  # type: ignore[union-attr]  # a Build


def _sum_key(move: PlayerMove, values: Values = _GERMAN) -> _Key:
    """The (card, kind, anchors, value) tuple of a move; IllegalMoveError if none."""
    card = move.card
    if type(move) is Trail:
        return (card.index, _TRAIL, (), 0)
    if type(move) is Capture:
        taken = move.taken
        if len(taken) == 1 and type(taken[0]) is Build:
            return (card.index, _TAKE_BUILD, (_anchor(taken[0]),), 0)
        if all(type(t) is Card for t in taken):
            return (card.index, _TAKE, tuple(sorted(_anchor(t) for t in taken)), 0)
    elif type(move) is Combine:
        onto = move.onto
        value = onto.value if type(onto) is Build else _value_map(values)[onto]  # type: ignore[index]  # a Card, by the type test
        return (card.index, _COMBINE, (_anchor(onto),), value or 0)
    raise IllegalMoveError(f"{move} is not a move of a sum game that an action names")


def _sum_action_of(move: PlayerMove, values: Values = _GERMAN) -> int:
    if type(move) not in {Trail, Capture, Combine}:
        raise IllegalMoveError(f"{type(move).__name__} is not a move of a sum game")
    action = _sum_table(values).index.get(_sum_key(move, values))
    if action is None:
        raise IllegalMoveError(f"{move} is not a move of a sum game that an action names")
    return action


def _sum_move_of(
    action: int, table: tuple[TableItem, ...], hand: tuple[Card, ...], values: Values = _GERMAN
) -> PlayerMove:
    value_of = _value_map(values)
    index, kind, anchors, value = _sum_table(values).actions[action]
    card = DECK[index]
    if card not in hand:
        raise IllegalMoveError(f"action {action} plays {card}, which is not in the hand")
    if kind == _TRAIL:
        return TRAILS[card]
    by_anchor = {_anchor(item): item for item in table}
    items = [by_anchor.get(a) for a in anchors]
    if kind == _TAKE and all(type(t) is Card for t in items):
        return Capture(card=card, taken=tuple(items))  # type: ignore[arg-type]  # Cards
    item = items[0]
    if kind == _TAKE_BUILD and type(item) is Build:
        return Capture(card=card, taken=(item,))
    if kind == _COMBINE and item is not None:
        onto_value = item.value if type(item) is Build else value_of[item]  # type: ignore[index]  # a Card, by the type test
        if onto_value == value:  # a loose card's own value; a build's is above its anchor's
            return Combine(card=card, onto=item, value=value + (value_of[card] or 0))
    raise IllegalMoveError(f"action {action}: the items it names are not on the table")

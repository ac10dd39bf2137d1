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
from xeri._families.sums.items import _ints, _sumset
from xeri._families.sums.lazy import _reaching_sets
from xeri._moves import TRAILS, Capture, Combine, PlayerMove, Trail
from xeri._table import Build, TableItem

if TYPE_CHECKING:
    from xeri._families.sums.rule import SumCapture

__all__: list[str] = []

_TRAIL, _TAKE, _TAKE_BUILD, _COMBINE = 0, 1, 2, 3
_MAX = 10

_Key = tuple[int, int, tuple[int, ...], int]
"""An action of a sum game: (card index, kind, anchors, value)."""

Values = tuple[tuple[Rank, int | tuple[int, ...]], ...]
"""A rule's card values, as `SumCapture.values` holds them (a rank may have several)."""

_GERMAN: Values = tuple((Rank(v), v) for v in range(1, _MAX + 1))


_TABLES = 8
"""The action tables kept, most recently used first."""
_MAX_ACTIONS = 32_768
"""The most actions a table of values may have for an action encoding (about 9 MB)."""


@lru_cache(maxsize=64)
def _value_map(values: Values) -> dict[Card, int | None]:
    """Each card's value (the lowest of several), None for a picture."""
    by_rank = {rank: _ints(v)[0] for rank, v in values}
    return {card: by_rank.get(card.rank) for card in DECK}


def _top(values: Values) -> int:
    """The largest value a build may have under these values: at least 10."""
    return max([_MAX, *(_ints(v)[-1] for _, v in values)])


@lru_cache(maxsize=64)
def _targets(values: Values, total: int | None) -> dict[Card, int] | None:
    """Under several values or a `total`: each number card's targets as bits (see `SumCapture`).

    None for a rule of one value a rank and no total: its targets are its values.
    """
    if total is None and all(type(v) is int for _, v in values):
        return None
    by_rank = {rank: _ints(v) for rank, v in values}
    out: dict[Card, int] = {}
    for card in DECK:
        own = by_rank.get(card.rank, ())
        if total is None:
            out[card] = sum(1 << v for v in own)
        else:
            out[card] = sum(1 << (total - v) for v in own if v < total)
    return out


@lru_cache(maxsize=64)
def _masks(values: Values) -> dict[Card, int]:
    """Each card's values as bits, 0 for a picture."""
    by_rank = {rank: _ints(v) for rank, v in values}
    return {card: sum(1 << v for v in by_rank.get(card.rank, ())) for card in DECK}


class _SumTable:
    """The actions of a sum game with given card values (and `total`), numbered once."""

    __slots__ = ("actions", "index", "parts", "targets")

    def __init__(self, values: Values, total: int | None = None) -> None:
        value = _value_map(values)
        aims = _targets(values, total)
        keys: list[_Key] = []
        for card in DECK:
            if aims is not None:
                keys += sorted(_mask_actions(card, _masks(values), aims))
                continue
            keys += sorted(_card_actions(card, value, _top(values)))
        self.actions: tuple[_Key, ...] = tuple(keys)
        self.index: dict[_Key, int] = {key: i for i, key in enumerate(keys)}
        targets = sorted({key[1:] for key in keys})
        target_index = {target: i for i, target in enumerate(targets)}
        self.targets: int = len(targets)
        self.parts: tuple[tuple[int, int], ...] = tuple(
            (key[0], target_index[key[1:]]) for key in keys
        )


def _mask_actions(card: Card, masks: dict[Card, int], targets: dict[Card, int]) -> list[_Key]:
    """`_card_actions` under several values or a total: trails and captures of loose cards.

    Those rules have no builds, so no action takes or makes one ([K1][rules-k1], [K2][rules-k2]).
    """
    i = card.index
    out: list[_Key] = [(i, _TRAIL, (), 0)]
    if not masks[card]:
        out += [(i, _TAKE, (c.index,), 0) for c in DECK if c.rank is card.rank and c is not card]
        return out
    want = targets[card]
    numbers: list[TableItem] = [c for c in DECK if c is not card and masks[c]]
    # The sets the lazy counts read, on a table of every other number card (no builds).
    letters = [("L", masks[c], 0) for c in numbers]  # type: ignore[index]  # Cards
    sets = _reaching_sets(numbers, letters, want, single=False, ok={}, keeps=True)
    out += [
        (i, _TAKE, tuple(c.index for c in group), 0)  # type: ignore[attr-defined]  # Cards
        for group in sets.members()
    ]
    return out


def _card_actions(card: Card, values: dict[Card, int | None], top: int = _MAX) -> list[_Key]:
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
        rest = _rest_sums(numbers, anchor, top)
        if v < value and rest >> (value - v) & 1:
            out.append((i, _TAKE_BUILD, (anchor,), 0))
        if v + value <= top:
            out.append((i, _COMBINE, (anchor,), v))  # onto the loose card
            out += [
                (i, _COMBINE, (anchor,), w)  # onto a build of value w anchored there
                for w in range(v + 1, top - value + 1)
                if rest >> (w - v) & 1
            ]
    return out


def _by_value(number: tuple[int, int]) -> tuple[int, int]:
    return number[1], number[0]


def _rest_sums(numbers: list[tuple[int, int]], anchor: int, top: int = _MAX) -> int:
    """The sums (bit s for s, up to `top`) of non-empty sets of the number cards above `anchor`."""
    sums = 1
    for index, v in numbers:
        if index > anchor:
            sums |= (sums << v) & ((1 << (top + 1)) - 1)
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
def _sum_table(values: Values = _GERMAN, total: int | None = None) -> _SumTable:
    """The action table of a table of values and a total, built on first use (constants).

    Raises:
        RuleSetError: the table would hold more than `_MAX_ACTIONS` actions.
    """
    count = _action_count(values, total)
    if count > _MAX_ACTIONS:
        what = "these values" if total is None else f"these values with total={total}"
        raise RuleSetError(
            f"SumCapture.values: {what} make {count:,} actions, more than the"
            f" {_MAX_ACTIONS:,} an action encoding holds (every preset has 18,308), so the rule"
            " has no integer actions; it plays without them (legal_moves, apply, the bots)"
        )
    return _SumTable(values, total)


def _mask_action_count(values: Values, total: int | None) -> int:
    """`_action_count` under several values or a total: sets counted, not choices of values.

    For each number card, the other number cards are read once, keeping how
    many sets reach each *set* of sums (as bits): a set is counted once
    however many choices of values make a target.
    """
    masks = _masks(values)
    targets = _targets(values, total)
    assert targets is not None  # the caller's test
    count = 0
    for card in DECK:
        count += 1  # the trail
        if not masks[card]:
            count += sum(1 for c in DECK if c.rank is card.rank and c is not card)
            continue
        want = targets[card]
        limit = (1 << want.bit_length()) - 1
        ways: dict[int, int] = {1: 1}  # the sets of sums reached, and how many card sets reach each
        for c in DECK:
            if c is card or not masks[c]:
                continue
            grown = dict(ways)
            for sums, n in ways.items():
                new = _sumset(sums, masks[c], limit)
                if new:
                    grown[new] = grown.get(new, 0) + n
            ways = grown
        count += sum(n for sums, n in ways.items() if sums & want)
    return count


def _action_count(values: Values, total: int | None = None) -> int:
    """How many actions `_SumTable(values, total)` would hold, counted without listing them."""
    if _targets(values, total) is not None:
        return _mask_action_count(values, total)
    value = _value_map(values)
    top = _top(values)
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
            rest = _rest_sums(numbers, anchor, top)
            if w < v and rest >> (v - w) & 1:
                total += 1
            if w + v <= top:
                total += 1 + sum(1 for x in range(w + 1, top - v + 1) if rest >> (x - w) & 1)
    return total


def _no_multi(rule: SumCapture) -> None:
    if rule.multi_capture:
        raise RuleSetError(
            "SumCapture(multi_capture=True) has no action encoding: one card may take any set "
            "of items that divides into groups of its value, too many for a fixed action space"
        )
    if rule.builds and any(type(v) is tuple for _, v in rule.values):
        raise RuleSetError(
            "SumCapture with builds and ranks of several values has no action encoding: an "
            "action names the value of the item built on, not which value the card announces"
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


def _sum_action_of(move: PlayerMove, values: Values = _GERMAN, total: int | None = None) -> int:
    if type(move) not in {Trail, Capture, Combine}:
        raise IllegalMoveError(f"{type(move).__name__} is not a move of a sum game")
    action = _sum_table(values, total).index.get(_sum_key(move, values))
    if action is None:
        raise IllegalMoveError(f"{move} is not a move of a sum game that an action names")
    return action


def _sum_move_of(
    action: int,
    table: tuple[TableItem, ...],
    hand: tuple[Card, ...],
    values: Values = _GERMAN,
    total: int | None = None,
) -> PlayerMove:
    value_of = _value_map(values)
    index, kind, anchors, value = _sum_table(values, total).actions[action]
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

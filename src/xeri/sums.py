"""German Xeri's capture rule: sums, builds and raises ([`SumCapture`][xeri.SumCapture]).

The table is a row of items (loose cards and [`Build`][xeri.Build]s), every
one visible and takeable. On a turn the player plays one card and does
exactly one thing (RULES.md D3):

* **capture**: take one group of the card's value: a single build of that
  value, or loose number cards whose values add up to it (one card of equal
  value included). A picture (J, Q, K) takes only a loose card of its own
  rank, one at a time; pictures never sum. With `multi_capture` a number
  card may take several disjoint groups of its value at once.
* **combine**: lay a number card on a loose number card or a build and
  announce the sum (at most 10); onto the opponent's build this is a raise
  and the mover becomes its owner. The mover must keep a card of the
  announced value.
* **trail**: lay the card free.

The ownership rule D4 holds after every move: for every value, the builds
of that value a seat owns never outnumber the cards of that value in its
hand, and a seat that owns a build may not trail. It follows that the seat
to move always has a legal move (it can take one of its builds, or trail
when it owns none), and that no build outlives a deal.
"""

from __future__ import annotations

from typing import ClassVar

import attrs

from xeri.capture import NO_NEEDS, HandNeeds, OutcomeTuple, XeriKind
from xeri.cards import DECK, Card
from xeri.errors import IllegalMoveError, RuleSetError
from xeri.moves import TRAILS, Capture, Combine, PlayerMove, Trail, move_sort_key
from xeri.table import Build, TableItem, item_cards, item_sort_key

__all__ = ["SumCapture", "card_value"]

_MAX = 10


def card_value(card: Card) -> int | None:
    """The value of a card in sums: Ace 1, number cards as printed, pictures None (D1)."""
    return _VALUES[card]


_VALUES: dict[Card, int | None] = {c: (int(c.rank) if c.rank <= _MAX else None) for c in DECK}
_BY_VALUE: dict[int, frozenset[Card]] = {
    v: frozenset(c for c in DECK if _VALUES[c] == v) for v in range(1, _MAX + 1)
}


def _capturers(table: tuple[TableItem, ...]) -> frozenset[Card]:
    """Every card that could take something from `table` (for a compulsory capture, D5)."""
    numbers, pictures, builds, _ = _scan(table)
    sums = _subset_sums(numbers, _MAX) if numbers else [[] for _ in range(_MAX + 1)]
    values = {v for v in range(1, _MAX + 1) if sums[v]} | {v for v, _, _, _ in builds}
    ranks = {card.rank for _, card in pictures}
    return frozenset(c for c in DECK if _VALUES[c] in values or c.rank in ranks)


def _value(item: TableItem) -> int | None:
    return item.value if isinstance(item, Build) else _VALUES[item]


def _subset_sums(numbers: list[tuple[int, int, Card]], limit: int) -> list[list[tuple[Card, ...]]]:
    """Every set of loose number cards with a sum up to `limit`, bucketed by sum.

    `numbers` holds `(value, index, card)` sorted; values are at least 1, so
    the search is bounded by the limit (at most ten), never by the size of
    the table.
    """
    out: list[list[tuple[Card, ...]]] = [[] for _ in range(limit + 1)]
    chosen: list[Card] = []
    n = len(numbers)

    def search(start: int, total: int) -> None:
        for i in range(start, n):
            value, _, card = numbers[i]
            new = total + value
            if new > limit:
                return
            chosen.append(card)
            out[new].append(tuple(chosen))
            search(i + 1, new)
            chosen.pop()

    search(0, 0)
    return out


def _disjoint_unions(groups: list[tuple[TableItem, ...]]) -> list[tuple[TableItem, ...]]:
    """Every union of one or more pairwise disjoint groups (multi_capture)."""
    out: list[tuple[TableItem, ...]] = []
    chosen: list[TableItem] = []
    used: set[int] = set()

    def search(start: int) -> None:
        for i in range(start, len(groups)):
            group = groups[i]
            ids = {id(item) for item in group}
            if used & ids:
                continue
            used.update(ids)
            chosen.extend(group)
            out.append(tuple(chosen))
            search(i + 1)
            del chosen[len(chosen) - len(group) :]
            used.difference_update(ids)

    search(0)
    return out


def _splits(items: tuple[TableItem, ...], value: int) -> bool:
    """Whether `items` divide into disjoint groups of `value` each (multi_capture)."""
    numbers, pictures, builds, _ = _scan(items)
    groups: list[tuple[TableItem, ...]] = list(_subset_sums(numbers, value)[value])
    groups += [(b,) for v, _, _, b in builds if v == value]
    return not pictures and any(len(u) == len(items) for u in _disjoint_unions(groups))


def _owner_rule_holds(owned: list[int], held: list[int]) -> bool:
    """D4: for each value, the builds of that value owned <= the cards of that value held."""
    return all(held[value] >= owned.count(value) for value in owned)


def _items_key(items: tuple[TableItem, ...]) -> tuple[tuple[int, ...], ...]:
    return tuple(map(item_sort_key, items))


def _without(owned: list[int], taken: tuple[TableItem, ...], seat: int) -> list[int]:
    """The values of the builds `seat` owns once the builds among `taken` are gone."""
    left = list(owned)
    for t in taken:
        if type(t) is Build and t.owner == seat:
            left.remove(t.value)
    return left


_Targets = list[tuple[int, int, int, object, TableItem]]


def _scan(
    table: tuple[TableItem, ...],
) -> tuple[
    list[tuple[int, int, Card]],
    list[tuple[int, Card]],
    list[tuple[int, int, tuple[int, ...], Build]],
    _Targets,
]:
    """Sort the table's items for move generation: number cards, pictures, builds, targets.

    Sort keys are built inline, in the order `item_sort_key` defines: loose
    cards by index, then builds by value, owner and cards; targets (every
    number item, for combining) by value first.
    """
    values = _VALUES
    numbers: list[tuple[int, int, Card]] = []
    pictures: list[tuple[int, Card]] = []
    builds: list[tuple[int, int, tuple[int, ...], Build]] = []
    targets: _Targets = []
    for t in table:
        if type(t) is Card:
            v = values[t]
            if v is not None:
                numbers.append((v, t.index, t))
                targets.append((v, 0, t.index, 0, t))
            else:
                pictures.append((t.index, t))
        elif isinstance(t, Build):
            key = tuple(c.index for c in t.cards)
            builds.append((t.value, t.owner, key, t))
            targets.append((t.value, 1, t.owner, key, t))
    numbers.sort()
    pictures.sort()
    targets.sort()
    builds.sort()
    return numbers, pictures, builds, targets


_LAST: list[object] = [None]


@attrs.frozen(kw_only=True)
class SumCapture:
    """Captures by equal value or by sum, with builds and raises (German Xeri, RULES.md D3–D6).

    A capture that leaves the table empty is a xeri (D6); there is no jack xeri.
    """

    pile: ClassVar[bool] = False
    """Capability: an open table, every item takeable (see [`CaptureRule`][xeri.CaptureRule])."""

    multi_capture: bool = False
    """D3 option: one card may take several disjoint groups of its value at once."""
    forced_capture: bool = False
    """D5 option: a player who can capture must capture."""
    self_raise: bool = False
    """D3 option: a player may raise their own build."""

    def __attrs_post_init__(self) -> None:
        for name in ("multi_capture", "forced_capture", "self_raise"):
            if type(getattr(self, name)) is not bool:
                raise RuleSetError(f"SumCapture.{name} must be True or False")

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """Every legal capture, combination, raise and trail, sorted (D3–D5)."""
        last = _LAST[0]
        if (
            last is not None
            and last[0] is self  # type: ignore[index]  # the cache tuple below
            and last[1] is table  # type: ignore[index]  # the cache tuple below
            and last[2] is hand  # type: ignore[index]  # the cache tuple below
            and last[3] == seat  # type: ignore[index]  # the cache tuple below
        ):
            return last[4]  # type: ignore[index,no-any-return]  # the cache tuple below
        moves = self._generate(table, hand, seat)
        # One entry, swapped atomically: `apply` right after `legal_moves` on the
        # same state finds the list without generating it again.
        _LAST[0] = (self, table, hand, seat, moves)
        return moves

    def _generate(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        values = _VALUES
        numbers, pictures, builds, targets = _scan(table)
        owned = [v for v, owner, _, _ in builds if owner == seat]
        held = [0] * (_MAX + 1)
        top = 0
        for card in hand:
            value = values[card]
            if value is not None:
                held[value] += 1
                top = max(top, value)
        sums = _subset_sums(numbers, top) if numbers and top else None
        captures: list[PlayerMove] = []
        out: list[PlayerMove] = []
        for card in hand:  # hands are sorted, so the moves come out sorted by card
            value = values[card]
            if value is None:
                groups: list[tuple[TableItem, ...]] = [
                    (t,) for _, t in pictures if t.rank is card.rank
                ]
            else:
                held[value] -= 1  # from here on, `held` counts the hand after this card
                # Canonical order without sorting: card groups first, each a
                # sorted tuple and in lexicographic order, then builds by key.
                groups = list(sums[value]) if sums is not None else []
                groups += [(b,) for v, _, _, b in builds if v == value]
            # A picture takes one card of its rank even under multi_capture:
            # pictures have no value, so they never form groups of a value.
            unions = self.multi_capture and value is not None and len(groups) > 1
            if unions:
                # Different partitions can make the same union: one move each.
                groups = sorted(
                    {tuple(sorted(g, key=item_sort_key)) for g in _disjoint_unions(groups)},
                    key=_items_key,
                )
            found: list[PlayerMove] = [
                Capture(card=card, taken=taken)
                for taken in groups
                if not owned or _owner_rule_holds(_without(owned, taken, seat), held)
            ]
            if unions:
                found.sort(key=move_sort_key)
            captures += found
            out += found
            if value is not None:
                out += self._combines(card, value, held, targets=targets, owned=owned, seat=seat)
                held[value] += 1
            if not owned:
                out.append(TRAILS[card])
        if self.forced_capture and captures:
            return tuple(captures)
        return tuple(out)

    def _combines(
        self,
        card: Card,
        value: int,
        held: list[int],
        *,
        targets: _Targets,
        owned: list[int],
        seat: int,
    ) -> list[PlayerMove]:
        """The combinations and raises with `card`; `held` counts the hand without it."""
        out: list[PlayerMove] = []
        for target, _, _, _, item in targets:
            total = target + value
            if total > _MAX:
                break
            if not held[total]:
                continue
            if type(item) is Build and item.owner == seat:
                if not self.self_raise:
                    continue
                left = _without(owned, (item,), seat)
            else:
                left = list(owned)
            left.append(total)
            if _owner_rule_holds(left, held):
                out.append(Combine(card=card, onto=item, value=total))
        return out  # targets are sorted by value, then item: so are the moves

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> OutcomeTuple:
        """Apply a Capture, Combine or Trail by `seat`; see the module docstring."""
        if not isinstance(move, (Capture, Combine, Trail)):
            raise IllegalMoveError(
                f"{type(move).__name__} is not a move of German Xeri: use Capture, Combine or Trail"
            )
        card = move.card
        if card not in hand:
            raise IllegalMoveError(f"{card} is not in the hand of seat {seat}")
        if move not in self.moves(table, hand, seat):
            raise IllegalMoveError(self._why_illegal(table, hand, seat, move))
        _LAST[0] = None  # the cached hand is the mover's: keep nothing once it is played
        i = hand.index(card)
        rest = hand[:i] + hand[i + 1 :]
        if isinstance(move, Trail):
            return rest, (*table, card), None, None
        if isinstance(move, Combine):
            onto = move.onto
            build = Build(cards=(*item_cards(onto), card), value=move.value, owner=seat)
            return rest, tuple(build if t == onto else t for t in table), None, None
        taken = move.taken
        left = tuple(t for t in table if t not in taken)
        cards = tuple(c for t in table if t in taken for c in item_cards(t)) + (card,)
        return rest, left, cards, (None if left else XeriKind.XERI)

    def _why_illegal(
        self,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        move: Capture | Combine | Trail,
    ) -> str:
        """A sentence saying why a move of a held card is not legal (X5)."""
        owned = [t for t in table if type(t) is Build and t.owner == seat]
        if isinstance(move, Trail):
            if owned:
                return (
                    f"seat {seat} owns a build and may not lay a free card until it is taken (D4)"
                )
            return "a capture is possible and capturing is compulsory (D5)"
        if isinstance(move, Combine):
            return self._why_not_combine(table, hand, seat, move)
        missing = [t for t in move.taken if t not in table]
        if missing or not move.taken:
            return f"{move}: it names items that are not on the table"
        value = card_value(move.card)
        if value is None:
            return f"{move}: a picture takes only loose cards of its own rank, one at a time"
        if any(type(t) is Build and t.value != value for t in move.taken):
            return f"{move}: a build is taken only by a card of exactly its value"
        total = sum(_value(t) or 100 for t in move.taken)
        if total != value and not (self.multi_capture and _splits(move.taken, value)):
            return f"{move}: the items taken do not add up to {value}"
        return f"{move}: seat {seat} would give up the card it needs for one of its builds (D4)"

    def _why_not_combine(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: Combine
    ) -> str:
        value = card_value(move.card)
        target = _value(move.onto) if move.onto in table else None
        if move.onto not in table:
            return f"{move}: the item combined onto is not on the table"
        if value is None or target is None:
            return f"{move}: only number cards combine, and only onto number cards or builds"
        if move.value != value + target:
            return f"{move}: the announced value must be the sum, {value + target}"
        if move.value > _MAX:
            return f"{move}: a build may not exceed {_MAX}"
        if type(move.onto) is Build and move.onto.owner == seat and not self.self_raise:
            return f"{move}: raising one's own build is not allowed"
        if self._must_capture(table, hand, seat):
            return f"{move}: a capture is possible and capturing is compulsory (D5)"
        rest = list(hand)
        rest.remove(move.card)
        if not any(card_value(c) == move.value for c in rest):
            return f"{move}: seat {seat} holds no other card of value {move.value} to take it (D3)"
        return f"{move}: seat {seat} must keep a card of value {move.value} per build it owns (D4)"

    def _must_capture(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> bool:
        return self.forced_capture and any(
            type(m) is Capture for m in self.moves(table, hand, seat)
        )

    def needs(self, table: tuple[TableItem, ...], move: PlayerMove, seat: int) -> HandNeeds:
        """What the hand must have held for `move` to be legal ([D3][rules-d3]-[D5][rules-d5]).

        * after the play, for every value, at least as many other cards of
          that value as the seat owns builds of it ([D4][rules-d4]; for a
          combination or a raise, the new build included);
        * under `forced_capture`, a trail or a combination means that no
          card of the hand could capture ([D5][rules-d5]); a seat owning a
          build can always take it, so it never trails or combines then.
        """
        owned = [t.value for t in table if type(t) is Build and t.owner == seat]
        owns_a_build = bool(owned)
        card = move.card
        if isinstance(move, Capture):
            owned = _without(owned, move.taken, seat)
        elif isinstance(move, Combine):
            if type(move.onto) is Build and move.onto.owner == seat:
                owned = _without(owned, (move.onto,), seat)
            owned.append(move.value)
        at_least = [
            (_BY_VALUE[value] - {card}, owned.count(value)) for value in sorted(set(owned))
        ]
        none_of: frozenset[Card] = frozenset()
        if self.forced_capture and not isinstance(move, Capture):
            # Owning a build, the seat could have taken it: no hand allows this move.
            none_of = frozenset(DECK) if owns_a_build else _capturers(table)
        if not at_least and not none_of:
            return NO_NEEDS
        return HandNeeds(none_of=none_of, at_least=at_least)

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """Every card on the table, builds flattened, in the order they lie."""
        return tuple(c for item in table for c in item_cards(item))

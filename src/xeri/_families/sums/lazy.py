"""[`SumCapture`][xeri.SumCapture]'s legal moves counted and indexed without listing them.

The moves of a hand come in the order of `move_sort_key`: by card, then
captures, combinations and the trail. For one card the captures are the
sets of table items it may take and the combinations, for each value
announced, the sets of items it may be laid with; both are families of
sets in lexicographic order, counted and unranked by
[`LexSets`][xeri._families.lexsets.LexSets] through small automata:

* without `multi_capture`, a capture is loose number cards adding up to
  the card's value (the state: the sum so far, up to ten) or one build of
  that value;
* with `multi_capture` (and for `multi_builds`' groupings), the loose cards
  must divide into groups of the value. The state is the set of the ways
  the cards read so far can be split into closed groups and open groups,
  each open group written as what it still lacks (a *residual*). A card
  equal to a residual closes that group (exchanging it with the cards that
  would close it otherwise keeps every split valid), so the sets stay
  small; residuals that the cards left cannot fill are dropped.

Builds (and [D4][rules-d4]: the cards a seat must keep for its builds) add
a count of the seat's own builds taken to the state. Everything else
(pictures' captures, plain combinations, trails) is listed, at a cost in
proportion to the table. Cards of equal value share their families.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from xeri._cards import Card
from xeri._families.lexsets import DEAD, DownSets, LexSets
from xeri._families.sums.items import _multiple, _scan
from xeri._moves import TRAILS, Capture, Combine, PlayerMove
from xeri._table import Build, TableItem, item_sort_key

if TYPE_CHECKING:
    from xeri._families.sums.rule import SumCapture

__all__ = ["plan"]

_MAX = 10

_KEPT = 50_000
"""How many steps of sets of ways a division keeps before it starts afresh."""

_Getter = Callable[[int], PlayerMove]


def _owner_ok(owned: list[int], held: list[int]) -> bool:
    return all(held[value] >= owned.count(value) for value in owned)


def _less(owned: list[int], taken: list[int]) -> list[int]:
    left = list(owned)
    for value in taken:
        left.remove(value)
    return left


_BITS = 6
"""Bits per residual in a packed way: room for 63 open groups lacking the same value."""
_FIELD = (1 << _BITS) - 1


class _Division:
    """The residual automaton for groups of one value `v` (see the module docstring).

    A way is packed in an int: bits `6 * (r - 1)` on count the open groups
    lacking `r` (1 to `v - 1`); 0 is the way with no open group.
    """

    __slots__ = ("_adds", "_sets", "_sums", "v")

    def __init__(self, v: int) -> None:
        self.v = v
        self._adds: list[dict[int, tuple[int, ...]]] = [{} for _ in range(v + 1)]
        self._sets: dict[
            tuple[frozenset[int], int], tuple[frozenset[int], int, dict[int, frozenset[int]]]
        ] = {}
        self._sums: dict[int, int] = {0: 0}

    def total(self, way: int) -> int:
        """What the open groups of a way lack, in all."""
        got = self._sums.get(way)
        if got is None:
            got = 0
            rest, r = way, 1
            while rest:
                got += r * (rest & _FIELD)
                rest >>= _BITS
                r += 1
            self._sums[way] = got
        return got

    def add(self, way: int, w: int) -> tuple[int, ...]:
        """The ways after a card of value `w` joins the open groups of `way` (kept per `w`)."""
        v = self.v
        shift = _BITS * (w - 1)
        if w < v and way >> shift & _FIELD:  # close a group that lacks exactly w
            got: tuple[int, ...] = (way - (1 << shift),)
        else:
            out = [way + (1 << _BITS * (v - w - 1)) if w < v else way]  # a group of its own
            for r in range(w + 1, v):
                at = _BITS * (r - 1)
                if way >> at & _FIELD:
                    out.append(way - (1 << at) + (1 << _BITS * (r - w - 1)))
            got = tuple(out)
        self._adds[w][way] = got
        return got

    def step(self, ways: frozenset[int], w: int, room: int) -> frozenset[int]:
        """The ways after a card of value `w`, but those the cards left cannot close.

        `room` is the sum of the values of the loose cards left to read.
        """
        sets = self._sets
        key = (ways, w)
        got = sets.get(key)
        if got is None:
            if len(sets) > _KEPT:  # bounded: forget, then learn again
                sets.clear()
                for adds in self._adds:
                    adds.clear()
            adds = self._adds[w]
            out: set[int] = set()
            for way in ways:
                new = adds.get(way)
                out.update(self.add(way, w) if new is None else new)
            after = frozenset(out)
            total = self.total
            got = sets[key] = (after, max(map(total, after), default=0), {})
        after, largest, pruned = got
        if largest <= room:
            return after
        cut = pruned.get(room)
        if cut is None:
            total = self.total
            cut = pruned[room] = frozenset(way for way in after if total(way) <= room)
        return cut


@lru_cache(maxsize=32)
def _division(v: int) -> _Division:
    return _Division(v)


def _grouped_sets(
    items: list[TableItem],
    letters: list[tuple[str, int]],
    v: int,
    start: frozenset[int],
    ok: list[bool],
) -> DownSets:
    """Sets whose loose cards (with `start`'s) divide into groups of `v`, read from the last.

    Letters: `("L", w)` a loose card of value w, `("B", own)` a build of the
    value (own 1 when the seat owns it), `("R", 0)` a build raised by the
    card, a member on its own. `ok[k]` says whether taking `k` of the
    seat's own builds keeps [D4][rules-d4].
    """
    division = _division(v)
    below = 0  # the sum of the loose values before the block
    marked: list[tuple[str, int, int, int]] = []
    k = 0
    while k < len(letters):
        end = k
        while end < len(letters) and letters[end] == letters[k]:
            end += 1
        kind, w = letters[k]
        marked += [(kind, w, below, end - k)] * (end - k)
        if kind == "L":
            below += w * (end - k)
        k = end
    kmax = len(ok) - 1
    pruned = frozenset(way for way in start if division.total(way) <= below)
    if kmax == 0 and all(letter[0] != "R" for letter in letters) and ok[0]:
        # No build of the seat's own and no raise: the state is the set of ways alone
        # (a build of another seat is a group of its own and changes nothing).

        def plain(ways: Any, letter: Any, j: int) -> Hashable:  # noqa: ANN401  # sets of ways
            kind, w, base, size = letter
            if kind == "B":
                return ways  # type: ignore[no-any-return]  # a set of ways
            return division.step(ways, w, base + (size - j) * w) or DEAD

        def closed(ways: Any) -> bool:  # noqa: ANN401  # a set of ways
            return 0 in ways

        return DownSets(items, marked, pruned, plain, closed)

    def step(state: Any, letter: Any, j: int) -> Hashable:  # noqa: ANN401  # the states made here
        ways, k, raised, touched = state
        kind, w, base, size = letter
        if raised:
            return DEAD
        if kind == "R":
            return DEAD if touched else (ways, k, 1, 1)
        if kind == "B":
            return (ways, min(k + w, kmax), 0, 1)
        new = division.step(ways, w, base + (size - j) * w)
        return (new, k, 0, 1) if new else DEAD

    def accept(state: Any) -> bool:  # noqa: ANN401  # the states made here
        ways, k, raised, _ = state
        return bool(raised or (0 in ways and ok[k]))

    return DownSets(items, marked, (pruned, 0, 0, 0), step, accept)


def _sum_sets(
    items: list[TableItem], letters: list[tuple[str, int]], v: int, ok: list[bool], *, single: bool
) -> LexSets:
    """Sets of loose cards adding up to `v`, or one build of the value ([D3][rules-d3])."""

    def step(state: Any, letter: Any, pos: int) -> Hashable:  # noqa: ANN401  # the states made here
        s, n, build = state
        kind, w = letter
        if build or (single and n):
            return DEAD
        if kind == "B":
            return DEAD if n else (0, 1, 1 + w)
        total = s + w
        return DEAD if total > v else (total, min(n + 1, 2), 0)

    def accept(state: Any) -> bool:  # noqa: ANN401  # the states made here
        s, n, build = state
        if not n:
            return False
        if build:
            return ok[int(build) - 1]
        return bool(s == v and ok[0])

    return LexSets(items, letters, (0, 0, 0), step, accept)


class Plan:
    """The legal moves of one hand as blocks: each a count and a getter by index."""

    __slots__ = ("_ends", "_getters", "total")

    def __init__(self, blocks: list[tuple[int, _Getter]]) -> None:
        ends: list[int] = []
        getters: list[_Getter] = []
        total = 0
        for count, getter in blocks:
            if count:
                total += count
                ends.append(total)
                getters.append(getter)
        self._ends = ends
        self._getters = getters
        self.total = total
        """The number of legal moves."""

    def at(self, index: int) -> PlayerMove:
        """The move of index `index`, from 0 to `total - 1`."""
        b = bisect_right(self._ends, index)
        start = self._ends[b - 1] if b else 0
        return self._getters[b](index - start)


def _listed(moves: list[PlayerMove]) -> tuple[int, _Getter]:
    return len(moves), moves.__getitem__


def _captures_of(card: Card, sets: LexSets | DownSets) -> tuple[int, _Getter]:
    def get(i: int) -> PlayerMove:
        return Capture(card=card, taken=sets.at(i))  # type: ignore[arg-type]  # table items

    return sets.count(), get


def _combines_of(card: Card, total: int, sets: LexSets | DownSets) -> tuple[int, _Getter]:
    def get(i: int) -> PlayerMove:
        first, *rest = sets.at(i)
        return Combine(card=card, onto=first, value=total, also=tuple(rest))  # type: ignore[arg-type]  # table items

    return sets.count(), get


@lru_cache(maxsize=8)
def plan(  # noqa: PLR0915  # one pass over the hand, in the order of the moves
    rule: SumCapture, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> Plan:
    """The legal moves of `hand` on `table`, counted, in the order `SumCapture.moves` lists them.

    Kept for the last 8 positions asked (each holds counts, not moves), so
    that `len`, then an index, of one position count once.
    """
    values = rule._values
    ordered = sorted(table, key=item_sort_key)
    loose: list[tuple[Card, int]] = []
    pictures: list[Card] = []
    for t in ordered:
        if type(t) is Card:
            w = values[t]
            if w is None:
                pictures.append(t)
            else:
                loose.append((t, w))
    builds = [t for t in ordered if type(t) is Build]
    owned = [b.value for b in builds if b.owner == seat]
    held = [0] * (_MAX + 1)
    for card in hand:
        value = values[card]
        if value is not None:
            held[value] += 1
    # For each card: its captures, its combinations, and whether it captures (None: a sweep).
    per_card: list[
        tuple[Card, list[tuple[int, _Getter]], list[tuple[int, _Getter]], bool | None]
    ] = []
    families: dict[tuple[object, ...], LexSets | DownSets] = {}
    any_capture = False
    targets = None
    sweeping = rule._sweeping if table else None
    for card in hand:
        value = values[card]
        captures: list[tuple[int, _Getter]] = []
        combines: list[tuple[int, _Getter]] = []
        if sweeping and card in sweeping:  # W1: the whole table, and nothing else
            any_capture = True
            per_card.append((card, [_listed([Capture(card=card, taken=table)])], [], None))
            continue
        if value is None:
            if not owned or _owner_ok(owned, held):
                captures.append(
                    _listed(
                        [Capture(card=card, taken=(t,)) for t in pictures if t.rank is card.rank]
                    )
                )
        else:
            held[value] -= 1
            sets = families.get(("capture", value))
            if sets is None:
                sets = families["capture", value] = _capture_sets(
                    rule, value, loose, builds, owned, held, seat
                )
            captures.append(_captures_of(card, sets))
            if rule.builds:
                if rule.multi_builds:
                    for total in range(value, _MAX + 1):
                        if not held[total]:
                            continue
                        key = ("combine", value, total)
                        sets = families.get(key)
                        if sets is None:
                            sets = families[key] = _grouping_sets(
                                rule, value, total, loose, builds, owned, held, seat, _multiple
                            )
                        combines.append(_combines_of(card, total, sets))
                else:
                    if targets is None:
                        targets = _scan(table, values)[3]
                    combines.append(
                        _listed(
                            rule._combines(
                                card, value, held, targets=targets, owned=owned, seat=seat
                            )
                        )
                    )
            held[value] += 1
        captured = any(count for count, _ in captures)
        any_capture = any_capture or captured
        per_card.append((card, captures, combines, captured))
    blocks: list[tuple[int, _Getter]] = []
    forced = rule.forced_capture and any_capture
    for card, captures, combines, capturing in per_card:
        blocks += captures
        if forced or capturing is None or (capturing and rule.card_must_capture):
            continue
        blocks += combines
        if not owned:
            blocks.append(_listed([TRAILS[card]]))
    return Plan(blocks)


def _capture_sets(  # noqa: PLR0917  # internal, the facts of one position
    rule: SumCapture,
    value: int,
    loose: list[tuple[Card, int]],
    builds: list[Build],
    owned: list[int],
    held: list[int],
    seat: int,
) -> LexSets | DownSets:
    """The captures of a card of `value`; `held` counts the hand without it."""
    mine = [b for b in builds if b.value == value and b.owner == seat]
    ok = [_owner_ok(_less(owned, [value] * k), held) for k in range(len(mine) + 1)]
    single = rule.equal_first and any(w == value for _, w in loose)
    items: list[TableItem] = []
    letters: list[tuple[str, int]] = []
    for t, w in loose:
        if w <= value:
            items.append(t)
            letters.append(("L", w))
    for b in builds:
        if b.value == value:
            items.append(b)
            letters.append(("B", int(b.owner == seat)))
    if rule.multi_capture:
        if single:  # equal_first: an item alone, as without multi_capture
            return _sum_sets(items, letters, value, ok, single=True)
        return _grouped_sets(items, letters, value, frozenset({0}), ok)
    return _sum_sets(items, letters, value, ok, single=single)


def _grouping_sets(  # noqa: PLR0917  # internal, the facts of one position
    rule: SumCapture,
    value: int,
    total: int,
    loose: list[tuple[Card, int]],
    builds: list[Build],
    owned: list[int],
    held: list[int],
    seat: int,
    multiple: Callable[[Build, dict[Card, int | None]], bool],
) -> DownSets:
    """Under `multi_builds`, the item sets a card of `value` may be built with into `total`.

    The loose cards with the card divide into groups of `total`, with any
    builds of that value ([C4][rules-c4]); or one build of `total - value`
    is raised, as a plain combination does. `held` counts the hand without it.
    """
    mine = [b for b in builds if b.value == total and b.owner == seat]
    ok = [_owner_ok([*_less(owned, [total] * k), total], held) for k in range(len(mine) + 1)]
    entries: list[tuple[tuple[int, ...], TableItem, tuple[str, int]]] = []
    for t, w in loose:
        if w <= total:
            entries.append((item_sort_key(t), t, ("L", w)))
    for b in builds:
        if b.value == total:
            entries.append((item_sort_key(b), b, ("B", int(b.owner == seat))))
        elif b.value + value == total and rule.raises and not multiple(b, rule._values):
            if b.owner == seat:
                good = rule.self_raise and _owner_ok([*_less(owned, [b.value]), total], held)
            else:
                good = _owner_ok([*owned, total], held)
            if good:
                entries.append((item_sort_key(b), b, ("R", 0)))
    entries.sort(key=lambda e: e[0])
    start = frozenset(_division(total).add(0, value))
    return _grouped_sets([e[1] for e in entries], [e[2] for e in entries], total, start, ok)

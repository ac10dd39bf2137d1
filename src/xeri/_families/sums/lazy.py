"""[`SumCapture`][xeri.SumCapture]'s legal moves counted and indexed without listing them.

The moves of a hand come in the order of `move_sort_key`: by card, then
captures, combinations and the trail. For one card the captures are the
sets of table items it may take and the combinations, for each value
announced, the sets of items it may be laid with; both are families of
sets in lexicographic order, counted and unranked through small automata
(`xeri._families.lexsets`):

* without `multi_capture`, a capture is loose number cards adding up to
  the card's value (the state: the sum so far, up to ten) or one build of
  that value, read item by item ([`LexSets`][xeri._families.lexsets.LexSets]);
* with `multi_capture` (and for `multi_builds`' groupings), the loose cards
  must divide into groups of the value `v`: whether they do depends only on
  how many cards of each value a set holds, so the automaton reads the
  values as classes ([`ClassSets`][xeri._families.lexsets.ClassSets]). A
  card above `v / 2` (*large*) shares its group with small cards only (below
  `v / 2`), which add up to its complement. The values are read large, then
  its complement: `v - 1`, 1, `v - 2`, 2, and so on, then `v / 2`. Each large
  card first takes a card of its complement, if there is one (exchanging
  such a card with the cards that would complete it otherwise keeps every
  division valid); the large cards left take their complement from the small
  cards read before that no large card took (the *excess*), in every way
  they can, and the small cards left join the excess. Cards of `v / 2`
  pair, one left takes `v / 2` from the excess, and in the end the excess
  must divide into groups of `v`. The state is the set of excesses that may
  be left; the automaton is minimised, and stays small (a few dozen states
  a level on a table of a whole deck). Its excesses grow fast with `v`, so
  the rule refuses groups with values above 10 or cards of several values
  ([K2][rules-k2]): a value is always a single int here.

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
from xeri._families.lexsets import DEAD, ClassSets, LexSets
from xeri._families.sums.items import _matched, _multiple, _scan, _sumset
from xeri._moves import TRAILS, Capture, Combine, PlayerMove
from xeri._table import Build, TableItem, item_sort_key

if TYPE_CHECKING:
    from xeri._families.sums.rule import SumCapture

__all__ = ["plan"]

_MAX = 10

_Getter = Callable[[int], PlayerMove]
_Lister = Callable[[], list[PlayerMove]]
_Block = tuple[int, _Getter, _Lister | None]
"""A block of moves: its count, its getter by index, and its lister (None: by the getter)."""


def _owner_ok(owned: list[int], held: list[int]) -> bool:
    return all(held[value] >= owned.count(value) for value in owned)


def _less(owned: list[int], taken: list[int]) -> list[int]:
    left = list(owned)
    for value in taken:
        left.remove(value)
    return left


_BITS = 7
"""Bits per small value in a packed excess: six for the count (a deck holds 52 cards at
most) and a guard bit above them."""

_KEPT = 50_000
"""How many rows a division keeps before it forgets what it learnt and starts afresh."""
_GUARD_BIT = 1 << (_BITS - 1)


class _Groups:
    """The automaton for dividing loose cards into groups of one value `v` (module docstring).

    A card is *small* below `v / 2`, *large* above. An *excess* is a
    multiset of small cards packed in an int: bits `7 * (w - 1)` on count
    the cards of value `w`, the bit above each field left free as a guard.
    """

    __slots__ = (
        "_accepts",
        "_canon",
        "_final",
        "_guards",
        "_merges",
        "_parts",
        "_removed",
        "_settled",
        "_steps",
        "small",
        "v",
    )

    def __init__(self, v: int) -> None:
        self.v = v
        self.small = (v - 1) // 2
        """The largest small value."""
        self._guards = sum(_GUARD_BIT << _BITS * k for k in range(self.small))
        unit = [0] + [1 << _BITS * (w - 1) for w in range(1, self.small + 1)]
        self._merges = [  # two small cards, and the one card of their sum
            (unit[a] + unit[b], unit[a + b])
            for a in range(1, self.small + 1)
            for b in range(a, self.small + 1 - a)
        ]
        self._parts: dict[tuple[int, int], tuple[int, ...]] = {}
        self._removed: dict[tuple[int, int, int], tuple[int, ...]] = {}
        self._final: dict[int, bool] = {0: True}
        self._steps: dict[tuple[frozenset[int], int, int], list[Hashable]] = {}
        self._accepts: dict[frozenset[int], bool] = {}
        self._canon: dict[tuple[bool, bool], frozenset[int]] = {}
        self._settled: dict[frozenset[int], frozenset[int]] = {}

    def parts(self, total: int, top: int) -> tuple[int, ...]:
        """The multisets of small cards of values up to `top` that add up to `total`, packed."""
        key = (total, top)
        got = self._parts.get(key)
        if got is None:
            if total == 0:
                got = (0,)
            else:
                out: list[int] = []
                for w in range(min(total, top, self.small), 0, -1):
                    unit = 1 << _BITS * (w - 1)
                    out += [unit + rest for rest in self.parts(total - w, w)]
                got = tuple(out)
            self._parts[key] = got
        return got

    def remove(self, excess: int, total: int, top: int) -> tuple[int, ...]:
        """The excesses left once a multiset of values up to `top` adding up to `total` is taken."""
        key = (excess, total, top)
        got = self._removed.get(key)
        if got is None:
            guarded = excess | self._guards
            guards = self._guards
            got = self._removed[key] = tuple(
                guarded - part ^ guards
                for part in self.parts(total, top)
                if (guarded - part) & guards == guards  # no count went below zero
            )
        return got

    def finest(self, excesses: set[int]) -> frozenset[int]:
        """The excesses without those that another one gives by putting two of its cards as one.

        Such a coarser excess is dominated: in any division that completes
        it, the two cards can stand for the one.
        """
        if len(excesses) > 1:
            guards = self._guards
            coarser = set()
            for excess in excesses:
                guarded = excess | guards
                for two, one in self._merges:
                    if (guarded - two) & guards == guards:
                        merged = excess - two + one
                        if merged in excesses:
                            coarser.add(merged)
            excesses -= coarser
        return frozenset(excesses)

    def final(self, excess: int) -> bool:
        """Whether an excess divides into groups of `v` (each holding its largest card)."""
        got = self._final.get(excess)
        if got is None:
            w = (excess.bit_length() - 1) // _BITS + 1  # the largest small value present
            rest = excess - (1 << _BITS * (w - 1))
            got = self._final[excess] = any(
                self.final(left) for left in self.remove(rest, self.v - w, w)
            )
        return got

    def settled(self, excesses: frozenset[int]) -> frozenset[int]:
        """Once every small card is read: one set of excesses for all with the same future.

        What is left to read is the cards of `v / 2`: a set of excesses
        matters only by whether it divides into groups, and whether it does
        once a card of `v / 2` takes its complement from it.
        """
        got = self._settled.get(excesses)
        if got is None:
            odd: set[int] = set()
            if 2 * self.small + 2 == self.v:
                for excess in excesses:
                    odd.update(self.remove(excess, self.small + 1, self.small))
            key = (self.accepts(excesses), bool(odd) and self.accepts(frozenset(odd)))
            got = self._settled[excesses] = self._canon.setdefault(key, excesses)
        return got

    def row(self, excesses: frozenset[int], pending: int, w: int, n: int) -> list[Hashable]:
        """`(excesses, pending)` after `0, 1, ..., n` loose cards of value `w`, each maybe DEAD.

        The classes are read large, then its complement, from `v - 1` down,
        then `v / 2`: a large card waits (`pending`) for the small cards of
        its complement, each taking one; the large cards left take their
        complement from the excess, and the small cards left join it.
        Cards of `v / 2` pair, and one left takes `v / 2` from the excess.
        After the last small value the sets of excesses are `settled`.
        """
        key = (excesses, pending, w)
        got = self._steps.get(key)
        if got is not None and len(got) > n:  # kept for the most cards asked so far
            return got if len(got) == n + 1 else got[: n + 1]
        if len(self._steps) > _KEPT:  # bounded: forget, then learn again
            for table in (self._steps, self._removed, self._final, self._accepts, self._settled):
                table.clear()
            self._canon.clear()
            self._final[0] = True
        v = self.v
        if 2 * w > v:
            got = [(excesses, x) for x in range(n + 1)]
        elif 2 * w == v:
            odd: set[int] = set()
            for excess in excesses:
                odd.update(self.remove(excess, w, self.small))
            pair = ((excesses, 0), (self.finest(odd), 0) if odd else DEAD)
            got = [pair[x % 2] for x in range(n + 1)]
        else:
            # ways[k]: the excesses once k large cards have taken their complement from it
            ways = [excesses]
            for _ in range(pending):
                ways.append(
                    self.finest({left for way in ways[-1] for left in self.remove(way, w, w - 1)})
                )
            unit = 1 << _BITS * (w - 1)
            got = [
                ((ways[pending - x], 0) if ways[pending - x] else DEAD)
                if x <= pending
                else (frozenset(e + (x - pending) * unit for e in excesses), 0)
                for x in range(n + 1)
            ]
            if w == self.small:
                settled = self.settled
                got = [new if new is DEAD else (settled(new[0]), 0) for new in got]  # type: ignore[index]  # a pair
        self._steps[key] = got
        return got

    def done(self, state: Any) -> bool:  # noqa: ANN401  # a pair
        """Whether a state after the last class is a member: nothing pending, a division."""
        excesses, pending = state
        return not pending and self.accepts(excesses)

    def accepts(self, excesses: frozenset[int]) -> bool:
        """Whether one of the excesses divides into groups of `v`."""
        got = self._accepts.get(excesses)
        if got is None:
            got = self._accepts[excesses] = any(map(self.final, excesses))
        return got


@lru_cache(maxsize=32)
def _division(v: int) -> _Groups:
    return _Groups(v)


_RAISE = -1
"""The class of the builds a card may raise (each a member on its own)."""
_OWN = -2
"""The class of the seat's own builds of the value."""
_OTHER = -3
"""The class of the other seats' builds of the value (a group each)."""


def _grouped_sets(
    items: list[TableItem],
    letters: list[tuple[str, int]],
    v: int,
    played: int,
    ok: list[bool],
) -> ClassSets:
    """Sets whose loose cards (with a card of value `played`, 0 for none) divide into groups of `v`.

    Letters: `("L", w)` a loose card of value w, `("B", own)` a build of the
    value (own 1 when the seat owns it), `("R", 0)` a build raised by the
    card, a member on its own. `ok[k]` says whether taking `k` of the
    seat's own builds keeps [D4][rules-d4]. The cards of one value are a
    class, and so are each kind of build: see `ClassSets`.
    """
    groups = _division(v)
    classes = [
        w if kind == "L" else _RAISE if kind == "R" else _OWN if w else _OTHER
        for kind, w in letters
    ]
    order = [_RAISE, _OWN, _OTHER, v]
    for large in range(v - 1, v // 2, -1):
        order += [large, v - large]
    if v % 2 == 0:
        order.append(v // 2)
    kmax = len(ok) - 1
    row_of = groups.row
    if not kmax and _RAISE not in classes and ok[0]:  # no build of the seat's own, no raise

        def plain(state: Any, c: int, m: int) -> list[Hashable]:  # noqa: ANN401  # a pair
            excesses, pending = state
            if c <= 0 or c == v:
                return [state] * (m + 1)  # other seats' builds, cards of v: groups of their own
            if c == played:
                return row_of(excesses, pending, c, m + 1)[1:]  # the card played, one more
            return row_of(excesses, pending, c, m)

        return ClassSets(items, classes, order, (frozenset({0}), 0), plain, groups.done)

    def successors(state: Any, c: int, m: int) -> list[Hashable]:  # noqa: ANN401  # the states made here
        excesses, pending, k, raised = state
        if raised or c == _RAISE:
            got: list[Hashable] = [state]
            if m:
                got.append(DEAD if raised else (excesses, pending, k, 1))
            return got + [DEAD] * (m - 1)
        if c == _OWN:
            return [(excesses, pending, min(x, kmax), 0) for x in range(m + 1)]
        if c in (_OTHER, v):
            return [state] * (m + 1)  # groups of their own
        extra = int(c == played)
        got = [
            DEAD if new is DEAD else (*new, k, 0)  # type: ignore[misc]  # a pair
            for new in row_of(excesses, pending, c, m + extra)
        ]
        return got[extra:]

    def accept(state: Any) -> bool:  # noqa: ANN401  # the states made here
        excesses, pending, k, raised = state
        return bool(raised or (not pending and ok[k] and groups.accepts(excesses)))

    return ClassSets(items, classes, order, (frozenset({0}), 0, 0, 0), successors, accept)


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
    """The legal moves of one hand as blocks: each a count, a getter by index and a lister.

    A block is `(card, count, getter, lister)`: `getter(i)` is its move of
    index `i`, `lister()` all its moves in order (None: by the getter).
    """

    __slots__ = ("_cards", "_ends", "_getters", "_listers", "total")

    def __init__(self, blocks: list[tuple[Card, int, _Getter, _Lister | None]]) -> None:
        ends: list[int] = []
        getters: list[_Getter] = []
        listers: list[_Lister | None] = []
        cards: list[Card] = []
        total = 0
        for card, count, getter, lister in blocks:
            if count:
                total += count
                ends.append(total)
                getters.append(getter)
                listers.append(lister)
                cards.append(card)
        self._ends = ends
        self._getters = getters
        self._listers = listers
        self._cards = cards
        self.total = total
        """The number of legal moves."""

    def moves(self) -> tuple[PlayerMove, ...]:
        """Every move in order: what `at(0)`, `at(1)`, ... give, listed block by block."""
        out: list[PlayerMove] = []
        start = 0
        for end, getter, lister in zip(self._ends, self._getters, self._listers, strict=True):
            if lister is not None:
                out += lister()
            else:
                out += [getter(i) for i in range(end - start)]
            start = end
        return tuple(out)

    def at(self, index: int) -> PlayerMove:
        """The move of index `index`, from 0 to `total - 1`."""
        b = bisect_right(self._ends, index)
        start = self._ends[b - 1] if b else 0
        return self._getters[b](index - start)

    def by_card(self) -> tuple[tuple[Card, int], ...]:
        """Each card that has a move with its number of moves, in the order of the moves.

        The blocks of one card follow each other (the moves sort by card first).
        """
        out: list[tuple[Card, int]] = []
        start = 0
        for card, end in zip(self._cards, self._ends, strict=True):
            if out and out[-1][0] is card:
                out[-1] = (card, out[-1][1] + end - start)
            else:
                out.append((card, end - start))
            start = end
        return tuple(out)


def _listed(moves: list[PlayerMove]) -> _Block:
    return len(moves), moves.__getitem__, moves.copy


def _captures_of(card: Card, sets: LexSets | ClassSets) -> _Block:
    def get(i: int) -> PlayerMove:
        return Capture(card=card, taken=sets.at(i))  # type: ignore[arg-type]  # table items

    if type(sets) is not LexSets:
        return sets.count(), get, None

    def every() -> list[PlayerMove]:
        return [Capture(card=card, taken=t) for t in sets.members()]  # type: ignore[arg-type]  # table items

    return sets.count(), get, every


def _combines_of(card: Card, total: int, sets: LexSets | ClassSets) -> _Block:
    def get(i: int) -> PlayerMove:
        first, *rest = sets.at(i)
        return Combine(card=card, onto=first, value=total, also=tuple(rest))  # type: ignore[arg-type]  # table items

    return sets.count(), get, None


@lru_cache(maxsize=8)
def plan(  # noqa: PLR0915  # one pass over the hand, in the order of the moves
    rule: SumCapture, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> Plan:
    """The legal moves of `hand` on `table`, counted, in the order `SumCapture.moves` lists them.

    Kept for the last 8 positions asked (each holds counts, not moves), so
    that `len`, then an index, of one position count once.
    """
    if rule._masks is not None:
        return _mask_plan(rule, table, hand, seat)
    values = rule._values
    top = rule._top
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
    held = [0] * (top + 1)
    for card in hand:
        value = values[card]
        if value is not None:
            held[value] += 1
    # For each card: its captures, its combinations, and whether it captures (None: a sweep).
    per_card: list[tuple[Card, list[_Block], list[_Block], bool | None]] = []
    families: dict[tuple[object, ...], LexSets | ClassSets] = {}
    any_capture = False
    targets = None
    sweeping = rule._sweeping if table else None
    for card in hand:
        value = values[card]
        captures: list[_Block] = []
        combines: list[_Block] = []
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
                    for total in range(value, top + 1):
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
        captured = any(block[0] for block in captures)
        any_capture = any_capture or captured
        per_card.append((card, captures, combines, captured))
    blocks: list[tuple[Card, int, _Getter, _Lister | None]] = []
    forced = rule.forced_capture and any_capture
    for card, captures, combines, capturing in per_card:
        blocks += [(card, *block) for block in captures]
        if forced or capturing is None or (capturing and rule.card_must_capture):
            continue
        blocks += [(card, *block) for block in combines]
        if not owned:
            blocks.append((card, *_listed([TRAILS[card]])))
    return Plan(blocks)


def _capture_sets(  # noqa: PLR0917  # internal, the facts of one position
    rule: SumCapture,
    value: int,
    loose: list[tuple[Card, int]],
    builds: list[Build],
    owned: list[int],
    held: list[int],
    seat: int,
) -> LexSets | ClassSets:
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
        return _grouped_sets(items, letters, value, 0, ok)
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
) -> ClassSets:
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
    return _grouped_sets([e[1] for e in entries], [e[2] for e in entries], total, value, ok)


def _mask_plan(  # one pass over the hand, in the order of the moves
    rule: SumCapture, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> Plan:
    """`plan` under several values or a `total` ([K1][rules-k1], [K2][rules-k2]).

    A number card takes loose number cards for which some choice of values
    makes one of its targets, or one build whose value is a target. The
    automaton's state is the *set* of sums the cards read so far can make
    (bits up to the largest target), so a set of cards is counted once
    however many choices of values make it a capture. [D4][rules-d4] is
    checked per build taken (`_matched`); the builds a card makes are
    listed, as the trails. `multi_capture` never comes here: the rule refuses
    it with cards of several values ([K2][rules-k2]), as `total` does ([K1][rules-k1]).
    """
    masks = rule._masks
    assert masks is not None  # the caller's test
    targets = rule._targets
    ordered = sorted(table, key=item_sort_key)
    items: list[TableItem] = []
    letters: list[tuple[str, int, int]] = []
    pictures: list[Card] = []
    for t in ordered:
        if type(t) is Build:
            items.append(t)
            letters.append(("B", t.value, int(t.owner == seat)))
        elif masks[t]:  # type: ignore[index]  # not a Build: a Card
            items.append(t)
            letters.append(("L", masks[t], 0))  # type: ignore[index]  # a Card
        else:
            pictures.append(t)  # type: ignore[arg-type]  # a Card
    owned = [t.value for t in items if type(t) is Build and t.owner == seat]
    families: dict[int, list[LexSets | ClassSets | None]] = {}
    # For each card: its captures, and the hand it leaves (None: a sweep, W1).
    per_card: list[tuple[Card, list[_Block], list[int] | None]] = []
    sweeping = rule._sweeping if table else None
    for card in hand:
        if sweeping and card in sweeping:  # W1: the whole table, and nothing else
            per_card.append((card, [_listed([Capture(card=card, taken=table)])], None))
            continue
        rest = rule._rest_masks(hand, card)
        keeps = not owned or _matched(owned, rest)
        if not masks[card]:
            found = [
                _listed(
                    [
                        Capture(card=card, taken=(t,))
                        for t in pictures
                        if t.rank is card.rank and keeps
                    ]
                )
            ]
        else:
            want = targets[card]
            key = masks[card]  # the card's values: its targets and the hand it leaves
            got = families.get(key)
            if got is None:
                # No multi_capture here: the rule refuses it with several values (K2).
                single = rule.equal_first and any(k == "L" and m & want for k, m, _ in letters)
                ok = {
                    (v, own): _matched(
                        [*owned[: owned.index(v)], *owned[owned.index(v) + 1 :]], rest
                    )
                    if own
                    else keeps
                    for _, v, own in letters
                }
                got = [_reaching_sets(items, letters, want, single=single, ok=ok, keeps=keeps)]
                families[key] = got
            found = [_captures_of(card, sets) for sets in got if sets is not None]
        per_card.append((card, found, rest))
    forced = rule.forced_capture and any(block[0] for _, found, _ in per_card for block in found)
    blocks: list[tuple[Card, int, _Getter, _Lister | None]] = []
    for card, found, left in per_card:
        blocks += [(card, *block) for block in found]
        if forced or left is None or (rule.card_must_capture and any(block[0] for block in found)):
            continue
        if rule.builds and masks[card]:
            blocks.append((card, *_listed(rule._mask_combines(card, left, ordered, owned, seat))))
        if not owned:
            blocks.append((card, *_listed([TRAILS[card]])))
    return Plan(blocks)


def _reaching_sets(
    items: list[TableItem],
    letters: list[tuple[str, int, int]],
    want: int,
    *,
    single: bool,
    ok: dict[tuple[int, int], bool],
    keeps: bool,
) -> LexSets:
    """Sets of loose cards some choice of whose values makes a sum of `want`, or one build.

    Letters: `("L", mask, 0)` a loose card of the values of `mask` (bits),
    `("B", value, own)` a build (own 1 when the seat owns it). The state:
    the sums reachable so far (bits, up to the largest of `want`), the
    number of items (0, 1, or 2 for more) and the letter of a build taken
    (None for none); `single` allows one item. [D4][rules-d4]: `keeps` says
    whether a capture of loose cards keeps it, `ok[value, own]` whether
    taking such a build does.
    """
    limit = (1 << want.bit_length()) - 1

    def step(state: Any, letter: Any, pos: int) -> Hashable:  # noqa: ANN401  # the states made here
        sums, n, build = state
        kind, w, own = letter
        if build is not None or (single and n):
            return DEAD
        if kind == "B":
            return DEAD if n else (0, 1, (w, own))
        # One value (one bit, `1 << v`): the sums shift by v, a product by the bit.
        new = (sums * w) & limit if not w & (w - 1) else _sumset(sums, w, limit)
        return (new, 2 if n else 1, None) if new else DEAD

    def accept(state: Any) -> bool:  # noqa: ANN401  # the states made here
        sums, n, build = state
        if not n:
            return False
        if build is not None:
            return bool(want >> build[0] & 1 and ok[build])
        return bool(keeps and sums & want)

    return LexSets(items, letters, (1, 0, None), step, accept)

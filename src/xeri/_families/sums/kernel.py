"""The rollout fast path for the built-in [`SumCapture`][xeri.SumCapture] (German Xeri).

[`rollout`][xeri.rollout] calls `sum_rollout` when the capture rule is
exactly `SumCapture`, whatever its options. The round is played on an
int-coded copy built once per call:

* a card is its index in [`DECK`][xeri.DECK] (0 to 51); its value in sums
  is `index // 4 + 1` below 40 and 0 for a picture ([D1][rules-d1]);
* a hand is a list of indices in deck order, the stock a list of indices;
* the table is a list of items in the order the engine keeps them: a loose
  card is its index, a build is the public [`Build`][xeri.Build] itself (a
  new one replaces it at each combination, so a build recorded in the
  history keeps its value and owner of the time);
* each table item has a *key*, one bit of a 52-bit mask: bit `c` for the
  loose card `c`, and for a build the bit of its first card, which stays
  the same through raises. A set of items is the OR of their keys;
* `sets[s]` counts the sets of loose number cards adding up to `s` (1 to
  10): the groups a card of value `s` takes ([D3][rules-d3]). It is kept
  up to date as cards are laid and taken (`_lay`, `_lift`: a few additions
  each), never recomputed. The sets themselves are numbered in the order
  `_sums` lists them, and only the one a move takes is built, from the
  counts (`_set_at`, walking the table once at most); under
  `multi_capture`, whose moves are all listed at each turn, the lists
  `_sums` gives are kept up to date besides;
* a move is a tuple `(kind, card, what, value)`: a trail `(0, card, 0, 0)`,
  a capture `(1, card, mask, 0)`, a combination `(2, card, key, value)`.

Besides `sets`, the rollout keeps up to date the counts `_counters` gives
(number items, builds and owned builds by value, loose pictures by rank),
`grabs` (the captures a card of each kind has, `_capture_counts`) and, for
each seat, the values its hand holds, as bits, and its cards of each value
(`_holding`). It also keeps the keys of the builds on the table as a mask:
a capture of one item (most captures) is told a build or a loose card by
it, and takes the item off the table in place, without walking the table.

The default policy draws one index below the number of legal moves: the
trails are numbered first, and the trail of `hand[i]` is move `i` (most
turns end here, with no move built). How the number is found and any other
move built depends on the turn:

* when no `SumCapture` option is on and the player owns no build (most
  turns of GERMAN), the number is the hand's size, plus `grabs` summed over
  its cards, plus, for each pair of values `v < w` the hand holds
  (`_pairs`), its cards of value `v` times the items of value `w - v`; no
  group is listed, and `_pick` builds the move drawn if it is no trail;
* otherwise, without `multi_capture`, `_groups` counts the moves by groups
  of cards of one value (cards of equal value have the same captures and
  combinations), where [D4][rules-d4] reduces to one *slack* per value (see
  `_groups`), and `_decode` builds the move drawn, walking the table once
  at most;
* under `multi_capture` (or in a state play never reaches) `_options`
  lists the moves by groups, and `_nth` reads the one drawn.

Each way, the moves drawn from are the set
[`SumCapture.moves`][xeri.SumCapture.moves] gives (in another order), for
every option. With a plain `random.Random` the index is drawn as its
`randrange` draws it, in the loop. A rollout with a policy does not come
here (see `xeri.rollout`).

The hot loops are plain `for` loops with `append`: for lists of a few
items they take fewer instructions than comprehensions (each a call of its
own before Python 3.12) or than `map` over bound methods.

Only the moves played become public values: the history, the builds and
the captures, and the end of the round. They are made by the fast
constructors of their modules (`_make_capture`, `_make_combine`,
`_make_build`, `_make_take`), which fill a plain twin class's slots and then
give the value its real class, as `xeri._core.state` explains; `_make_capture`
takes `taken` already in the canonical order (loose cards by index, then
builds by `item_sort_key`), so the converter that would sort it again is
skipped. The tests compare every value made here with the engine's, field
by field. The round's last play is played here like the others, then the
round core's `end_round` gives the table to the last capturer and scores
the round. The core also names the dealer and the seats of each deal and
says whether a capture that clears the table counts as a xeri
(`xeri._core.round`).
"""

from __future__ import annotations

from bisect import bisect_left
from itertools import combinations
from random import Random

from xeri._cards import DECK, Card
from xeri._core.engine import RandomSource
from xeri._core.round import counted_xeri, end_round, later_deals
from xeri._core.state import GameState, Take, _make_take
from xeri._families.protocol import XeriKind
from xeri._families.sums.rule import SumCapture
from xeri._moves import TRAILS, Capture, Combine, PlayerMove, _make_capture, _make_combine
from xeri._table import Build, TableItem, _make_build, item_sort_key

__all__ = ["sum_rollout"]

_MAX = 10
_VALUE = tuple(i // 4 + 1 if i < 40 else 0 for i in range(52))
"""The value of each card index in sums; 0 for a picture (J, Q, K)."""
_BIT = tuple(1 << i for i in range(52))
_KIND = tuple((i >> 2) + 1 for i in range(52))
"""The value of a number card, and 11, 12, 13 for a Jack, a Queen, a King."""
_TRAIL, _CAPTURE, _COMBINE = 0, 1, 2
_NOTHING = [0]
"""The payloads of a trail: it takes and builds nothing."""


_HELD: list[tuple[int, ...]] = [(), ()]  # bit 0 stands for no value
"""The values of a set of values given as bits, ascending: `_HELD[0b1010] == (1, 3)`."""
for _v in range(1, _MAX + 1):
    _HELD += [(*held, _v) for held in _HELD]  # the sets with value _v, after those without
del _v


_PAIRS: list[tuple[tuple[int, int], ...] | None] = [None] * (1 << (_MAX + 1))
"""`_pairs(held)` at index `held`, filled as the rollouts meet each set of values."""


def _pairs(held: int) -> tuple[tuple[int, int], ...]:
    """For a set of values given as bits, `(v, w - v)` for each pair `v < w` of them.

    By `v`, then `w`: a card of value `v` combines onto an item of value
    `w - v` when the hand keeps a card of value `w` ([D3][rules-d3]).
    """
    values = _HELD[held]
    return tuple((v, w - v) for i, v in enumerate(values) for w in values[i + 1 :])


_Item = int | Build
"""A table item of the int-coded table: a loose card's index, or a build."""
_Move = tuple[int, int, int, int]
"""An int-coded move: `(kind, card, what, value)`, see the module docstring."""
_Options = list[tuple[int, list[int], list[int] | list[tuple[int, int]]]]
"""`(kind, cards, payloads)`: each card of `cards` with each payload is a legal move."""


def _key(item: _Item) -> int:
    """The bit that stands for a table item in masks; see the module docstring."""
    return _BIT[item] if type(item) is int else _BIT[item.cards[0].index]  # type: ignore[union-attr]  # a Build


def _set_counts(table: list[_Item]) -> list[int]:
    """How many sets of loose number cards add up to each value 0 to 10 (the empty set: 0)."""
    sets = [1] + [0] * _MAX
    unread = [0] * (_MAX + 1)  # the counts `_lay` keeps: `_capture_counts` makes its own
    top = 0
    for t in table:
        if type(t) is int and _VALUE[t]:
            _lay(sets, _VALUE[t], top, unread)
            top += _VALUE[t]
    return sets


def _lay(sets: list[int], value: int, top: int, grabs: list[int]) -> None:
    """Count the sets a loose number card laid completes in `sets`, largest sums first.

    `top` is the sum of the loose number cards before it: no set adds up to
    more. `grabs[s]` (see `_capture_counts`) grows as `sets[s]` does.
    """
    for s in range(_MAX - value if top > _MAX - value else top, -1, -1):
        n = sets[s]
        if n:
            sets[s + value] += n
            grabs[s + value] += n


def _lift(sets: list[int], value: int, top: int, grabs: list[int]) -> None:
    """Uncount the sets holding a loose number card taken away: `_lay` undone, smallest sums first.

    `top` is the sum of the loose number cards with it. `grabs[s]` (see
    `_capture_counts`) shrinks as `sets[s]` does.
    """
    for s in range(value, (top if top < _MAX else _MAX) + 1):
        n = sets[s - value]
        if n:
            sets[s] -= n
            grabs[s] -= n


def _sums(table: list[_Item]) -> list[list[int]]:
    """The sets of loose number cards adding up to each value 0 to 10, as masks.

    In the order `_set_at` numbers them: as the table lays its loose cards
    one by one, each card's sets (it and the sets of the cards before it
    adding up to the rest) come after the sets of the cards before it.
    """
    sums: list[list[int]] = [[0]] + [[] for _ in range(_MAX)]
    for t in table:
        if type(t) is int and _VALUE[t]:
            _add_sets(sums, _VALUE[t], _BIT[t])
    return sums


def _add_sets(sums: list[list[int]], value: int, bit: int) -> None:
    """Add a loose number card to `sums`: each set it completes, largest sums first."""
    for s in range(_MAX - value, -1, -1):
        masks = sums[s]
        if masks:
            grown = sums[s + value]
            for m in masks:  # a loop: cheaper than a comprehension for so few
                grown.append(m | bit)


def _drop_sets(sums: list[list[int]], mask: int, low: int) -> None:
    """Remove the loose cards of `mask` from `sums`: the sets holding any of them go.

    `low` is at most the smallest value among them: no smaller sum holds one.
    """
    for s in range(low, _MAX + 1):
        masks = sums[s]
        if masks:
            kept = []
            for m in masks:  # a loop: cheaper than a comprehension for so few
                if not m & mask:
                    kept.append(m)  # noqa: PERF401  # a loop: cheaper than a comprehension here
            sums[s] = kept


def _set_at(table: list[_Item], sets: list[int], value: int, j: int) -> int:
    """The set number `j` of `_sums(table)[value]`, as a mask, found from the counts `sets`.

    The sets without the table's last loose number card come first, then
    the sets with it, numbered as the rest of their value is among the
    cards before it. So the walk goes from the last card back, taking each
    card out of a copy of the counts (as `_lift` does, for the sums up to
    `value` only): the count without it says whether set `j` holds it.
    """
    left = sets[: value + 1]
    mask = 0
    for t in reversed(table):
        if type(t) is int:
            w = _VALUE[t]
            if w == value:  # no smaller sum holds t, and it is a set alone
                left[value] -= 1
                if j >= left[value]:
                    return mask | _BIT[t]
            elif w and w < value:
                for s in range(w, value + 1):
                    left[s] -= left[s - w]
                if j >= left[value]:  # set j holds t
                    j -= left[value]
                    mask |= _BIT[t]
                    value -= w
                    if not value:
                        return mask
    raise AssertionError(value)  # pragma: no cover  # set j exists


def _owner_rule(owned: list[int], held: list[int]) -> bool:
    """[D4][rules-d4]: for each value, the builds of it owned <= the cards of it held."""
    return all(held[v] >= owned.count(v) for v in owned)


def _options(  # noqa: PLR0915, PLR0917  # one pass, kept whole for speed
    table: list[_Item],
    sums: list[list[int]],
    hand: list[int],
    seat: int,
    multi: bool,  # noqa: FBT001  # internal, positional on the hot path
    forced: bool,  # noqa: FBT001  # internal, positional on the hot path
    self_raise: bool,  # noqa: FBT001  # internal, positional on the hot path
) -> tuple[_Options, int]:
    """The legal moves of `seat` by groups of cards, and how many there are.

    Captures come first, then combinations, then trails; under
    `forced_capture` only the captures when there is one ([D5][rules-d5]).
    `sums` is `_sums(table)`; the payload lists may be its own lists: read
    them, never change them.
    """
    numbers: list[tuple[int, int, int]] = []  # (value, key, -1) of loose number cards
    pictures: list[int] = []
    builds: list[tuple[int, int, int]] = []  # (value, key, owner)
    owned: list[int] = []
    values, bits = _VALUE, _BIT
    targets = 0  # bit t: some number item of value t lies on the table
    for t in table:
        if type(t) is int:
            v = values[t]
            if v:
                numbers.append((v, bits[t], -1))
                targets |= 1 << v
            else:
                pictures.append(t)
        else:
            v = t.value  # type: ignore[union-attr]  # a Build
            builds.append((v, bits[t.cards[0].index], t.owner))  # type: ignore[union-attr]  # a Build
            targets |= 1 << v
            if t.owner == seat:  # type: ignore[union-attr]  # a Build
                owned.append(v)
    by_value: dict[int, list[int]] = {}
    for c in hand:
        v = values[c]
        if v in by_value:
            by_value[v].append(c)
        else:
            by_value[v] = [c]
    out: _Options = []
    total = 0
    if not owned and not multi:
        # The common case: D4 binds nobody, so every loose group of a card's value
        # and every build of it is a capture, every fitting combination legal.
        for v, cards in by_value.items():
            if v:
                taken = sums[v]
                if builds:
                    taken = taken + [key for bv, key, _ in builds if bv == v]
                if taken:
                    out.append((_CAPTURE, cards, taken))
                    total += len(cards) * len(taken)
            elif pictures:
                total += _picture_captures(out, cards, pictures)
        if forced and total:
            return out, total
        if targets:
            # A card of value v combines onto an item of value t when the hand keeps
            # a card of value t + v: bit t of `fits` (D3); the builds are all raises.
            hand_bits = 0
            for v in by_value:
                hand_bits |= 1 << v
            items = numbers + builds if builds else numbers
            for v, cards in by_value.items():
                if v:
                    fits = (hand_bits if len(cards) > 1 else hand_bits & ~(1 << v)) >> v
                    if fits & targets:
                        made = [(key, tv + v) for tv, key, _ in items if fits >> tv & 1]
                        out.append((_COMBINE, cards, made))
                        total += len(cards) * len(made)
        out.append((_TRAIL, hand, _NOTHING))
        return out, total + len(hand)
    held = [0] * (_MAX + 1)  # held[0] counts the pictures, never read
    for v, cards in by_value.items():
        held[v] = len(cards)
    for v, cards in by_value.items():
        if not v:
            if pictures and (not owned or _owner_rule(owned, held)):
                total += _picture_captures(out, cards, pictures)
            continue
        held[v] -= 1  # the hand after the card played
        loose_ok = not owned or _owner_rule(owned, held)
        if multi:
            taken = _unions(v, sums[v], builds, loose_ok, owned, held, seat)
        else:
            taken = sums[v] if loose_ok else []
            for bv, key, owner in builds:
                if bv == v:
                    if owned:
                        left = list(owned)
                        if owner == seat:
                            left.remove(v)
                        if not _owner_rule(left, held):
                            continue
                    taken = [*taken, key]
        held[v] += 1
        if taken:
            out.append((_CAPTURE, cards, taken))
            total += len(cards) * len(taken)
    if forced and total:
        return out, total
    if numbers or builds:
        onto = numbers + builds if builds else numbers
        for v, cards in by_value.items():
            if not v:
                continue
            held[v] -= 1
            fitting: list[tuple[int, int]] = []
            for tv, key, owner in onto:
                value = tv + v
                if value > _MAX or not held[value]:
                    continue
                if owner == seat:
                    if not self_raise:
                        continue
                    left = list(owned)
                    left.remove(tv)
                else:
                    left = list(owned) if owned else owned
                if left:
                    left.append(value)
                    if not _owner_rule(left, held):
                        continue
                fitting.append((key, value))
            held[v] += 1
            if fitting:
                out.append((_COMBINE, cards, fitting))
                total += len(cards) * len(fitting)
    if not owned:
        out.append((_TRAIL, hand, _NOTHING))
        total += len(hand)
    return out, total


def _picture_captures(out: _Options, cards: list[int], pictures: list[int]) -> int:
    """Add the captures of the pictures in `cards`: each a loose card of its rank ([D3][rules-d3]).

    Returns how many there are.
    """
    n = 0
    for c in cards:
        rank = c >> 2
        taken = [_BIT[p] for p in pictures if p >> 2 == rank]
        if taken:
            out.append((_CAPTURE, [c], taken))
            n += len(taken)
    return n


def _unions(  # noqa: PLR0917  # internal, called from one place
    value: int,
    groups: list[int],
    builds: list[tuple[int, int, int]],
    loose_ok: bool,  # noqa: FBT001  # internal
    owned: list[int],
    held: list[int],
    seat: int,
) -> list[int]:
    """Under `multi_capture`, the item sets a card of `value` takes, as masks ([D3][rules-d3]).

    Unions of disjoint loose groups of the value, with any set of the builds
    of the value after which [D4][rules-d4] holds; `held` counts the hand
    without the card played.
    """
    loose = [0]
    if groups:
        unions = {0}
        for g in groups:
            unions |= {m | g for m in unions if not m & g}
        loose = sorted(unions)  # nothing depends on the order of a set
    equal = [(key, owner) for v, key, owner in builds if v == value]
    out: list[int] = []
    for k in range(len(equal) + 1):
        for chosen in combinations(equal, k):
            if k == 0:
                if not loose_ok:
                    continue
            elif owned:
                left = list(owned)
                for _, owner in chosen:
                    if owner == seat:
                        left.remove(value)
                if not _owner_rule(left, held):
                    continue
            mask = 0
            for key, _ in chosen:
                mask |= key
            out += [mask | m for m in loose if mask | m]
    return out


def _nth(options: _Options, r: int) -> _Move:
    """The move at index `r` of the moves `options` stands for."""
    for kind, cards, payloads in options:
        n = len(payloads)
        if r < n * len(cards):
            i, j = divmod(r, n)
            what = payloads[j]
            if kind == _COMBINE:
                return (kind, cards[i], *what)  # type: ignore[misc]  # a (key, value) pair
            return (kind, cards[i], what, 0)  # type: ignore[return-value,unused-ignore]  # a mask: an int
        r -= n * len(cards)
    raise AssertionError(r)  # pragma: no cover  # r is below the number of moves


def _public_item(item: _Item) -> TableItem:
    return DECK[item] if type(item) is int else item  # type: ignore[return-value]  # a Build


def _public_move(move: _Move, table: list[_Item]) -> PlayerMove:
    """The public move of an int-coded one, on the int-coded table it is played on."""
    kind, c, what, value = move
    if kind == _TRAIL:
        return TRAILS[DECK[c]]
    if kind == _COMBINE:
        onto = next(t for t in table if _key(t) == what)
        return Combine(card=DECK[c], onto=_public_item(onto), value=value)
    return Capture(card=DECK[c], taken=tuple(_public_item(t) for t in table if _key(t) & what))


def _legal(options: _Options, total: int, table: list[_Item]) -> list[PlayerMove]:
    """Every move `options` stands for, as public moves: what the default policy draws from."""
    return [_public_move(_nth(options, r), table) for r in range(total)]


def _legal_set(
    capture: SumCapture, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> list[PlayerMove]:
    """The moves the default policy draws from at a public position (for the tests)."""
    items: list[_Item] = [t.index if type(t) is Card else t for t in table]  # type: ignore[misc]  # a Card or a Build
    options, total = _options(
        items,
        _sums(items),
        [c.index for c in hand],
        seat,
        capture.multi_capture,
        capture.forced_capture,
        capture.self_raise,
    )
    return _legal(options, total, items)


_Counters = tuple[list[int], list[int], list[list[int]], list[int]]
"""`(count, builds, owned, pictures)`, see `_counters`."""
_Groups = list[tuple[int, int, int, int]]
"""`(kind, key, payloads, cards)`: `cards` cards of the hand, each with `payloads` moves.

`key` is the value of the cards for numbers, the card itself for a
picture. The trails are counted apart (see `_groups`).
"""


def _counters(table: list[_Item], seats: int) -> _Counters:
    """The counts `_groups` reads, computed afresh; the rollout keeps them up to date.

    `count[v]`: the number items of value `v` on the table (loose cards and
    builds); `builds[v]`: the builds of value `v`; `owned[seat][v]`: the builds
    of value `v` that `seat` owns; `pictures[r]`: the loose pictures of rank
    index `r` (10 to 12, the card index `// 4`).
    """
    count, builds, pictures = [0] * (_MAX + 1), [0] * (_MAX + 1), [0] * 13
    owned = [[0] * (_MAX + 1) for _ in range(seats)]
    for t in table:
        if type(t) is int:
            if _VALUE[t]:
                count[_VALUE[t]] += 1
            else:
                pictures[t >> 2] += 1
        else:
            v = t.value  # type: ignore[union-attr]  # a Build
            count[v] += 1
            builds[v] += 1
            owned[t.owner][v] += 1  # type: ignore[union-attr]  # a Build
    return count, builds, owned, pictures


def _holding(hand: list[int]) -> tuple[int, list[int]]:
    """The values a hand holds, as bits, and how many cards of each value it holds.

    Pictures are left out. The rollout keeps both up to date for each seat.
    """
    counts = [0] * (_MAX + 1)
    held = 0
    for c in hand:
        v = _VALUE[c]
        if v:
            counts[v] += 1
            held |= 1 << v
    return held, counts


def _capture_counts(table: list[_Item], sets: list[int]) -> list[int]:
    """How many captures a card of each kind has, when its player owns no build.

    Indexed by `_KIND`: for a value `v`, the sets of loose cards adding up to
    `v` and the builds of value `v`; for a picture, the loose pictures of its
    rank ([D3][rules-d3]). The rollout keeps it up to date (`_lay`, `_lift`).
    """
    grabs = [*sets, 0, 0, 0]
    grabs[0] = 0
    for t in table:
        if type(t) is not int:
            grabs[t.value] += 1  # type: ignore[union-attr]  # a Build
        elif t >= 40:  # the first picture's index
            grabs[_KIND[t]] += 1
    return grabs


def _loose_picture(table: list[_Item], rank: int, j: int) -> int:
    """The key of the loose picture number `j`, in table order, of the rank index `rank`."""
    for t in table:
        if type(t) is int and t >> 2 == rank:
            if not j:
                return _BIT[t]
            j -= 1
    raise AssertionError(j)  # pragma: no cover  # j is below the number of such pictures


def _card_of_value(hand: list[int], value: int, i: int) -> int:
    """The card number `i` of value `value` in `hand`, which holds at least `i + 1` of them.

    The hand is in deck order, so its cards of one value lie together, from
    the first card not below the value's first index.
    """
    return hand[bisect_left(hand, 4 * value - 4) + i]


def _pick(  # noqa: PLR0917  # internal, positional on the hot path
    r: int,
    captures: int,
    hand: list[int],
    table: list[_Item],
    sets: list[int],
    grabs: list[int],
    counts: list[int],
    count: list[int],
    pairs: tuple[tuple[int, int], ...],
) -> _Move:
    """The move at index `r` after the trails, for a player who owns no build.

    Without any `SumCapture` option. `captures` is how many captures there
    are: they come first, by card of the hand, each card's loose sets in the
    order of `_set_at`, then the table's builds (or loose pictures); then the
    combinations, by pair of `pairs` (see `_pairs`), by card, then by item
    of the table in its order.
    """
    kinds = _KIND
    if r < captures:
        for c in hand:
            n = grabs[kinds[c]]
            if r < n:
                break
            r -= n
        if c >= 40:  # the first picture's index: it takes a loose picture of its rank
            return (_CAPTURE, c, _loose_picture(table, c >> 2, r), 0)
        v = _VALUE[c]
        if r < sets[v]:
            return (_CAPTURE, c, _set_at(table, sets, v, r), 0)
        r -= sets[v]
        for t in table:
            if type(t) is not int and t.value == v:  # type: ignore[union-attr]  # a Build
                if not r:
                    return (_CAPTURE, c, _BIT[t.cards[0].index], 0)  # type: ignore[union-attr]  # a Build
                r -= 1
    else:
        r -= captures
        for v, d in pairs:
            n = count[d]
            k = counts[v] * n
            if r < k:
                i, r = divmod(r, n)
                break
            r -= k
        c = _card_of_value(hand, v, i)
        for t in table:
            if type(t) is int:
                if _VALUE[t] == d:
                    if not r:
                        return (_COMBINE, c, _BIT[t], v + d)
                    r -= 1
            elif t.value == d:  # type: ignore[union-attr]  # a Build
                if not r:
                    return (_COMBINE, c, _BIT[t.cards[0].index], v + d)  # type: ignore[union-attr]  # a Build
                r -= 1
    raise AssertionError(r)  # pragma: no cover  # r is below the number of moves


def _groups(  # noqa: PLR0915, PLR0917  # one pass, kept whole for speed
    hand: list[int],
    held: tuple[int, ...],
    counts: list[int],
    sets: list[int],
    counters: _Counters,
    seat: int,
    forced: bool,  # noqa: FBT001  # internal, positional on the hot path
    self_raise: bool,  # noqa: FBT001  # internal, positional on the hot path
) -> tuple[_Groups, int, list[int], int] | None:
    """How many legal moves `seat` has, by groups of cards of one value, without listing them.

    Without `multi_capture` only. `held` lists the values of `hand`,
    ascending, and `counts` is `_holding(hand)[1]`;
    `sets` is `_set_counts(table)`, `counters` is `_counters(table)`.
    Returns the groups of captures and combinations (captures first), the
    number of moves, the *slack*
    `room[v]` (the cards of value `v` held minus the builds of it owned), and
    the number of trails: the moves numbered first, the trail of `hand[i]`
    being move `i`; `_decode` builds the others, numbered from 0 after the
    trails. [D4][rules-d4] keeps every slack at 0 or more (a player only makes a
    build it can take, and the opponent only takes or raises it), and then
    it decides every move: a card of value `v` takes loose cards when
    `room[v] > 0` and its own builds always; it combines onto an item of
    value `t` when `room[t + v] > 0`, and when `room[v] > 0` or the item is
    its own build of value `v`. Returns None when some slack is negative (a
    state play never reaches): the caller then lists the moves with `_options`.
    """
    count, builds, owned, pictures = counters
    mine = owned[seat]
    room = counts
    out: _Groups = []
    total = 0
    if hand[-1] >= 40:  # the first picture's index: pictures come last
        for c in reversed(hand):
            if c < 40:  # the first picture's index
                break
            n = pictures[c >> 2]
            if n:
                out.append((_CAPTURE, c, n, 1))
                total += n
    unheld = sum(mine)  # the builds owned, less those of a value held (below)
    owns = unheld > 0
    if owns:
        room = counts[:]
        for v in held:
            if mine[v]:
                room[v] -= mine[v]
                if room[v] < 0:
                    return None
                unheld -= mine[v]
        if unheld:  # a build of a value the hand does not hold: a slack below 0
            return None
        for v in held:
            n = sets[v] + builds[v] if room[v] else mine[v]
            if n:
                k = room[v] + mine[v]
                out.append((_CAPTURE, v, n, k))
                total += n * k
    else:
        for v in held:
            n = sets[v] + builds[v]
            if n:
                out.append((_CAPTURE, v, n, room[v]))
                total += n * room[v]
    if forced and total:
        return out, total, room, 0
    if owns or self_raise:
        for i, v in enumerate(held):
            n = 0
            if room[v]:
                for w in held[i + 1 :]:
                    if room[w]:
                        n += count[w - v] if self_raise else count[w - v] - mine[w - v]
            elif self_raise and 2 * v <= _MAX and room[2 * v]:
                n = mine[v]
            if n:
                k = room[v] + mine[v]
                out.append((_COMBINE, v, n, k))
                total += n * k
    elif len(held) > 1:
        for i, v in enumerate(held):
            n = 0
            for w in held[i + 1 :]:
                n += count[w - v]
            if n:
                out.append((_COMBINE, v, n, room[v]))
                total += n * room[v]
    if owns:
        return out, total, room, 0
    return out, total + len(hand), room, len(hand)


def _decode(  # noqa: PLR0917  # internal, positional on the hot path
    groups: _Groups,
    r: int,
    room: list[int],
    hand: list[int],
    table: list[_Item],
    sets: list[int],
    seat: int,
    self_raise: bool,  # noqa: FBT001  # internal, positional on the hot path
) -> _Move:
    """The move at index `r` of the moves `groups` counts: only this one is built.

    The moves of a group are its cards times its payloads, in the order of
    `_set_at` for loose groups, then of the table for builds and combinations.
    """
    for kind, key, n, k in groups:
        if r < n * k:
            i, j = divmod(r, n)
            if key >= 40:  # a picture: it takes a loose card of its rank
                return (kind, key, _loose_picture(table, key >> 2, j), 0)
            v = key
            c = _card_of_value(hand, v, i)
            if kind == _CAPTURE:
                if room[v]:
                    if j < sets[v]:
                        return (kind, c, _set_at(table, sets, v, j), 0)
                    j -= sets[v]
                for t in table:
                    if type(t) is not int and t.value == v and (room[v] or t.owner == seat):  # type: ignore[union-attr]  # a Build
                        if not j:
                            return (kind, c, _BIT[t.cards[0].index], 0)  # type: ignore[union-attr]  # a Build
                        j -= 1
            else:
                for t in table:
                    if type(t) is int:
                        tv, owner, bit = _VALUE[t], -1, _BIT[t]
                        if not tv:
                            continue
                    else:
                        tv, owner = t.value, t.owner  # type: ignore[union-attr]  # a Build
                        bit = _BIT[t.cards[0].index]  # type: ignore[union-attr]  # a Build
                    w = tv + v
                    if w > _MAX or not room[w]:
                        continue
                    if owner == seat:
                        if not self_raise or not (room[v] or tv == v):
                            continue
                    elif not room[v]:
                        continue
                    if not j:
                        return (kind, c, bit, w)
                    j -= 1
            break
        r -= n * k
    raise AssertionError(r)  # pragma: no cover  # r is below the number of moves


def sum_rollout(state: GameState, rng: RandomSource) -> GameState:  # noqa: PLR0915  # one loop, kept whole for speed
    """Play the round of a `SumCapture` game on int-coded lists; see the module docstring.

    Args:
        state: a state in phase `PLAY` whose capture rule is exactly `SumCapture`.
        rng: the generator of the moves, drawn uniformly at random among the legal ones.

    Returns:
        The scored state at the end of the round, equal to the engine's.
    """
    rules = state.rules
    capture: SumCapture = rules.capture  # type: ignore[assignment]  # checked by the caller
    multi, forced, self_raise = capture.multi_capture, capture.forced_capture, capture.self_raise
    seats = rules.seats
    size = rules.hand_size
    dealer = state.dealer
    hands = [[c.index for c in hand] for hand in state.hands]
    table: list[_Item] = [t.index if type(t) is Card else t for t in state.table]  # type: ignore[misc]  # a Card or a Build
    stock = [c.index for c in state.stock]
    deals = later_deals(rules, dealer, len(stock) // (seats * size))  # the deals to come
    history: list[PlayerMove] = list(state.history)
    takes: list[Take] = list(state.takes)
    sets = _set_counts(table)
    # `multi_capture` lists every move at each turn (`_options`): the sets as masks are
    # kept for it as the counts are.
    sums = _sums(table) if multi else None
    top = 0  # the sum of the loose number cards on the table: no set adds up to more
    build_keys = 0  # the keys of the builds on the table
    for t in table:
        if type(t) is int:
            top += _VALUE[t]
        else:
            build_keys |= _BIT[t.cards[0].index]  # type: ignore[union-attr]  # a Build
    counters = _counters(table, seats)
    count, nbuilds, owned, pictures = counters
    holding = [_holding(hand) for hand in hands]
    values_held = [held for held, _ in holding]  # the values of each hand, as bits
    counts_of = [counts for _, counts in holding]  # the cards of each value in each hand
    # Without any option, a player who owns no build (most turns) counts its moves
    # from `grabs` and `_pairs` and `_pick` builds the one drawn, if no trail.
    plain = not (multi or forced or self_raise)
    grabs = _capture_counts(table, sets)
    owning = [sum(mine) for mine in owned]
    kinds = _KIND
    pairs_of = _PAIRS
    xeri = XeriKind.XERI
    randrange = rng.randrange
    # random.Random draws `randrange(n)` as getrandbits(n.bit_length()) until below
    # n; done here, that saves its calls and draws the same numbers.
    getrandbits = rng.getrandbits if type(rng) is Random else None
    deck, values, bits, trails = DECK, _VALUE, _BIT, TRAILS
    mover: int = state.to_move  # type: ignore[assignment]  # a seat in phase PLAY
    while True:
        hand = hands[mover]
        by_counts = plain and not owning[mover]
        if by_counts:
            counts = counts_of[mover]
            trailing = len(hand)
            captures = 0
            for c in hand:
                captures += grabs[kinds[c]]
            total = trailing + captures
            pairs = pairs_of[values_held[mover]]
            if pairs is None:
                pairs = pairs_of[values_held[mover]] = _pairs(values_held[mover])
            for v, d in pairs:
                total += counts[v] * count[d]
        else:
            found = (
                None
                if multi
                else _groups(
                    hand,
                    _HELD[values_held[mover]],
                    counts_of[mover],
                    sets,
                    counters,
                    mover,
                    forced,
                    self_raise,
                )
            )
            if found is None:
                listed = _sums(table) if sums is None else sums
                options, total = _options(table, listed, hand, mover, multi, forced, self_raise)
                trailing = 0
            else:
                groups, total, room, trailing = found
        if total < 2:  # one move: nothing to draw
            r = 0
        elif getrandbits:
            k = total.bit_length()
            r = getrandbits(k)
            while r >= total:
                r = getrandbits(k)
        else:
            r = randrange(total)
        if r < trailing:  # the trail of hand[r]: most turns, no move built
            kind = _TRAIL
            c = hand[r]
            del hand[r]
        else:
            if by_counts:
                move = _pick(r - trailing, captures, hand, table, sets, grabs, counts, count, pairs)  # type: ignore[arg-type]  # filled above
            elif found is None:
                move = _nth(options, r)
            else:
                move = _decode(groups, r - trailing, room, hand, table, sets, mover, self_raise)
            kind, c, what, value = move
            hand.remove(c)
        v = values[c]
        if v:
            counts = counts_of[mover]
            counts[v] -= 1
            if not counts[v]:
                values_held[mover] ^= 1 << v
        if kind == _TRAIL:
            table.append(c)
            if v:
                # _lay, written out: most turns are trails
                for s in range(_MAX - v if top > _MAX - v else top, -1, -1):
                    n = sets[s]
                    if n:
                        sets[s + v] += n
                        grabs[s + v] += n
                top += v
                if sums is not None:
                    _add_sets(sums, v, bits[c])
                count[v] += 1
            else:
                pictures[c >> 2] += 1
                grabs[kinds[c]] += 1
            public: PlayerMove = trails[deck[c]]
        elif kind == _COMBINE:
            for i, t in enumerate(table):
                if type(t) is int:
                    if bits[t] == what:
                        v = values[t]
                        _lift(sets, v, top, grabs)
                        top -= v
                        if sums is not None:
                            _drop_sets(sums, what, v)
                        count[v] -= 1
                        onto: TableItem = deck[t]
                        table[i] = _make_build(cards=(deck[t], deck[c]), value=value, owner=mover)
                        build_keys |= what
                        break
                elif bits[t.cards[0].index] == what:  # type: ignore[union-attr]  # a Build
                    v = t.value  # type: ignore[union-attr]  # a Build
                    count[v] -= 1
                    nbuilds[v] -= 1
                    owned[t.owner][v] -= 1  # type: ignore[union-attr]  # a Build
                    owning[t.owner] -= 1  # type: ignore[union-attr]  # a Build
                    grabs[v] -= 1
                    onto = t  # type: ignore[assignment]  # a Build
                    table[i] = _make_build(cards=(*t.cards, deck[c]), value=value, owner=mover)  # type: ignore[union-attr]  # a Build
                    break
            count[value] += 1
            nbuilds[value] += 1
            owned[mover][value] += 1
            owning[mover] += 1
            grabs[value] += 1
            public = _make_combine(card=deck[c], onto=onto, value=value)
        elif not what & (what - 1):  # a capture of one item: most captures
            if what & build_keys:
                for i, t in enumerate(table):  # noqa: B007  # i is read after the loop
                    if type(t) is not int and bits[t.cards[0].index] == what:  # type: ignore[union-attr]  # a Build
                        break
                del table[i]
                v = t.value  # type: ignore[union-attr]  # a Build
                count[v] -= 1
                nbuilds[v] -= 1
                owned[t.owner][v] -= 1  # type: ignore[union-attr]  # a Build
                owning[t.owner] -= 1  # type: ignore[union-attr]  # a Build
                grabs[v] -= 1
                build_keys ^= what
                public = _make_capture(card=deck[c], taken=(t,))  # type: ignore[arg-type]  # a Build
                cards = (*t.cards, deck[c])  # type: ignore[union-attr]  # a Build
            else:
                t = what.bit_length() - 1
                table.remove(t)
                v = values[t]
                if v:
                    count[v] -= 1
                    _lift(sets, v, top, grabs)
                    top -= v
                    if sums is not None:
                        _drop_sets(sums, what, v)
                else:
                    pictures[t >> 2] -= 1
                    grabs[kinds[t]] -= 1
                public = _make_capture(card=deck[c], taken=(deck[t],))
                cards = (deck[t], deck[c])
            turn = len(history)
            made = None  # D6: a capture that clears the table; the round core says if it counts
            if not table:
                made = counted_xeri(rules, xeri, turn, len(stock) + sum(map(len, hands)))
            takes.append(_make_take(seat=mover, cards=cards, xeri=made, turn=turn))
        else:
            taken: list[Card] = []
            loose: list[int] = []
            builds: list[TableItem] = []
            left: list[_Item] = []
            low = _MAX + 1  # the smallest value of a loose number card taken
            for t in table:
                if type(t) is int:
                    if bits[t] & what:
                        taken.append(deck[t])
                        loose.append(t)
                        v = values[t]
                        if v:
                            count[v] -= 1
                            _lift(sets, v, top, grabs)
                            top -= v
                            if v < low:  # noqa: PLR1730  # faster than a call of min
                                low = v
                        else:
                            pictures[t >> 2] -= 1
                            grabs[kinds[t]] -= 1
                    else:
                        left.append(t)
                elif bits[t.cards[0].index] & what:  # type: ignore[union-attr]  # a Build
                    taken += t.cards  # type: ignore[union-attr]  # a Build
                    builds.append(t)  # type: ignore[arg-type]  # a Build
                    build_keys ^= bits[t.cards[0].index]  # type: ignore[union-attr]  # a Build
                    v = t.value  # type: ignore[union-attr]  # a Build
                    count[v] -= 1
                    nbuilds[v] -= 1
                    owned[t.owner][v] -= 1  # type: ignore[union-attr]  # a Build
                    owning[t.owner] -= 1  # type: ignore[union-attr]  # a Build
                    grabs[v] -= 1
                else:
                    left.append(t)
            loose.sort()
            items: list[TableItem] = [deck[t] for t in loose]
            if len(builds) > 1:
                builds.sort(key=item_sort_key)
            public = _make_capture(card=deck[c], taken=tuple(items + builds))
            taken.append(deck[c])
            table = left
            if sums is not None and low <= _MAX:
                _drop_sets(sums, what, low)
            turn = len(history)
            made = None  # D6: a capture that clears the table; the round core says if it counts
            if not left:
                made = counted_xeri(rules, xeri, turn, len(stock) + sum(map(len, hands)))
            takes.append(_make_take(seat=mover, cards=tuple(taken), xeri=made, turn=turn))
        history.append(public)
        if mover == dealer and not hand:
            if not stock:
                break  # the round is over: the engine scores it
            # Every hand is empty: the stock deals again, as the round core says (D2, X3).
            dealer, mover, blocks, _ = deals[len(deals) - len(stock) // (seats * size)]
            for i, seat in enumerate(blocks):
                hands[seat] = sorted(stock[i * size : (i + 1) * size])
                values_held[seat], counts_of[seat] = _holding(hands[seat])
            del stock[: seats * size]
            continue
        mover = mover + 1 if mover + 1 < seats else 0
    return end_round(
        state,
        tuple(tuple(deck[c] for c in h) for h in hands),
        tuple(deck[t] if type(t) is int else t for t in table),  # type: ignore[misc]  # a Card or a Build
        tuple(history),
        tuple(takes),
        dealer=dealer,
    )

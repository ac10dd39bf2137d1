"""German Xeri's capture rule: sums, builds and raises ([`SumCapture`][xeri.SumCapture]).

The table is a row of items (loose cards and [`Build`][xeri.Build]s), every
one visible and takeable. On a turn the player plays one card and does
exactly one thing ([D3][rules-d3]):

* **capture**: take one group of the card's value: a single build of that
  value, or loose number cards whose values add up to it (one card of equal
  value included). A picture (J, Q, K) takes only a loose card of its own
  rank, one at a time; pictures never sum. With `multi_capture` a number
  card may take several disjoint groups of its value at once.
* **combine**: lay a number card on a loose number card or a build and
  announce the sum (at most 10, or the largest value of the rule's
  `values`); onto the opponent's build this is a raise
  and the mover becomes its owner. The mover must keep a card of the
  announced value. With `multi_builds` the card may be laid with several
  items, which together with it divide into groups of the announced value
  (a multiple build, [C4][rules-c4]).
* **trail**: lay the card free.

A card the rule names among its [`sweepers`][xeri.SumCapture.sweepers]
does none of these on a table that holds something: it takes every item
on it ([W1][rules-w1]).

The ownership rule [D4][rules-d4] holds after every move: for every value,
the builds of that value a seat owns never outnumber the cards of that
value in its hand, and a seat that owns a build may not trail. It follows
that the seat to move always has a legal move (it can take one of its
builds, or trail when it owns none), and that no build outlives a deal.

Two options change the sums themselves: `total` makes the cards taken and
the card played add up to a fixed total ([K1][rules-k1], Escoba's 15), and
`values` may give a rank a value above 10 or several values, any of which
a sum may count ([K2][rules-k2]). Those rules are played by the `_mask_`
methods, which keep each card's values as a bit set and the sums a set of
cards can make as another.

[`SumCapture.play`][xeri.SumCapture.play] checks the move played and
nothing else: it never lists the legal moves.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations, pairwise, product
from operator import add
from typing import ClassVar

import attrs

from xeri._cards import DECK, Card, Rank
from xeri._errors import IllegalMoveError, RuleSetError, _int_in
from xeri._families.options import Option
from xeri._families.protocol import NO_NEEDS, HandNeeds, OutcomeTuple, XeriKind
from xeri._families.sums import actions as _sum_actions
from xeri._families.sums import lazy as _lazy
from xeri._families.sums.items import (
    _ints,
    _matched,
    _multiple,
    _scan,
    _sumset,
    _Targets,
)
from xeri._families.sweepers import Sweeper, _by_card, _ranks, _sweeper_problems, _sweepers
from xeri._immutable import _Immutable, _repr
from xeri._moves import (
    TRAILS,
    Capture,
    Combine,
    PlayerMove,
    Trail,
    _make_capture,
    _make_combine,
    move_sort_key,
)
from xeri._table import Build, TableItem, item_cards, item_sort_key

__all__ = [
    "GERMAN_VALUES",
    "MAX_VALUE",
    "SCOPA_VALUES",
    "SUM_OPTIONS",
    "SumCapture",
    "card_value",
]

_MAX = 10
"""German Xeri's largest value, and the smallest bound on a build's value ([D3][rules-d3])."""
_SUMS = (1 << (_MAX + 1)) - 1
"""A bit set of sums 0 to 10: bit s stands for the sum s."""
MAX_VALUE = 40
"""The largest value a rank may have in sums, and the largest `total` ([K2][rules-k2])."""

Value = int | tuple[int, ...]
"""A rank's value in sums: one int, or the ints it may count as, ascending ([K2][rules-k2])."""


def card_value(card: Card) -> int | None:
    """The value of a card in German Xeri's sums: Ace 1, number cards as printed, pictures None.

    As [D1][rules-d1] says; [`SumCapture.value`][xeri.SumCapture.value] gives
    the value under a rule's own [`values`][xeri.SumCapture.values].
    """
    return _VALUES[card]


GERMAN_VALUES: tuple[tuple[Rank, int], ...] = tuple((Rank(v), v) for v in range(1, _MAX + 1))
"""The values of German Xeri ([D1][rules-d1]): Ace 1, 2 to 10 as printed; pictures have none."""

SCOPA_VALUES: tuple[tuple[Rank, int], ...] = (
    *((Rank(v), v) for v in range(1, 8)),
    (Rank.JACK, 8),
    (Rank.QUEEN, 9),
    (Rank.KING, 10),
)
"""The values of Scopa ([S1][rules-s1]): Ace 1, 2 to 7 as printed, Jack 8, Queen 9, King 10."""


def _card_values(pairs: tuple[tuple[Rank, Value], ...]) -> dict[Card, int | None]:
    """Each card's value (the lowest, for a rank of several), None for a picture."""
    by_rank = {rank: _ints(value)[0] for rank, value in pairs}
    return {c: by_rank.get(c.rank) for c in DECK}


def _card_masks(pairs: tuple[tuple[Rank, Value], ...]) -> dict[Card, int]:
    """Each card's values as a bit set (bit v for the value v), 0 for a picture."""
    by_rank = {rank: _ints(value) for rank, value in pairs}
    return {c: sum(1 << v for v in by_rank.get(c.rank, ())) for c in DECK}


def _by_value(values: dict[Card, int | None], top: int = _MAX) -> dict[int, frozenset[Card]]:
    return {v: frozenset(c for c in DECK if values[c] == v) for v in range(1, top + 1)}


_VALUES: dict[Card, int | None] = _card_values(GERMAN_VALUES)
_BY_VALUE: dict[int, frozenset[Card]] = _by_value(_VALUES)


def _value_pairs(value: object) -> object:
    """A dict or pairs of `(rank, value)`, as pairs sorted by rank; anything else as given.

    A value given as a list or tuple of ints becomes a sorted tuple, and a tuple of one
    int that int: the canonical form, so that equal rules are equal values.
    """
    if isinstance(value, dict):
        value = tuple(value.items())
    if isinstance(value, (tuple, list)) and all(
        isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], Rank) for p in value
    ):
        return tuple(sorted(((rank, _one_value(v)) for rank, v in value), key=_first))
    return value


def _one_value(value: object) -> object:
    """A rank's value in its canonical form: an int, or a sorted tuple of several ints."""
    if isinstance(value, (tuple, list)) and value and all(type(v) is int for v in value):
        ints = tuple(sorted(value))
        return ints[0] if len(ints) == 1 else ints
    return value


def _first(pair: tuple[Rank, object]) -> Rank:
    return pair[0]


SUM_OPTIONS: tuple[Option, ...] = (
    Option(
        name="multi_capture",
        default=False,
        since=1,
        kernel=True,
        words="multi capture",
        doc="D3: one card may take several disjoint groups of its value at once.",
    ),
    Option(
        name="multi_builds",
        default=False,
        since=2,
        kernel=False,
        words="multi builds",
        doc="C4: a card may be laid with several items into one (multiple) build.",
        needs="builds",
    ),
    Option(
        name="forced_capture",
        default=False,
        since=1,
        kernel=True,
        words="forced capture",
        doc="D5: a player who can capture must capture.",
    ),
    Option(
        name="self_raise",
        default=False,
        since=1,
        kernel=True,
        words="self raise",
        doc="D3: a player may raise their own build.",
    ),
    Option(
        name="equal_first",
        default=False,
        since=2,
        kernel=False,
        words="equal first",
        doc="S3: a card that can take an item of its value takes one such item alone.",
    ),
    Option(
        name="card_must_capture",
        default=False,
        since=2,
        kernel=False,
        words="card must capture",
        doc="S3: a card that can capture may not be laid free; needs builds=False.",
    ),
    Option(
        name="raises",
        default=True,
        since=2,
        kernel=False,
        words="no raises",
        doc="D3: a build may be combined onto, making it larger.",
        needs="builds",
    ),
    Option(
        name="builds",
        default=True,
        since=2,
        kernel=False,
        words=None,
        doc="D3: a card may be combined with a table item into a build (False in Scopa).",
    ),
    Option(
        name="values",
        default=GERMAN_VALUES,
        since=2,
        kernel=False,
        words=None,
        doc="D1, S1, K2: the value of each rank in sums (1 to 40, or several); none: a picture.",
    ),
    Option(
        name="total",
        default=None,
        since=3,
        kernel=False,
        words="the played card counts",
        doc="K1: the cards taken and the card played make this total (None: they make its value).",
    ),
    Option(
        name="sweepers",
        default=(),
        since=3,
        kernel=False,
        words="sweepers",
        doc="W1, W2: cards that take the whole table, each with the kind of xeri its sweep is.",
    ),
    Option(
        name="jack_xeri_ranks",
        default=(),
        since=3,
        kernel=False,
        words="jack xeris",
        doc="W3: a card of these ranks taking a lone card of its own rank is a jack xeri.",
    ),
)
"""The table of `SumCapture`'s options: the only list of their names (see `Option`)."""

_LATER_OPTIONS: dict[str, object] = {o.name: o.default for o in SUM_OPTIONS if o.since > 1}
"""The options added after German Xeri's, with German Xeri's values: left out of reprs."""

_FLAGS = tuple(o.name for o in SUM_OPTIONS if type(o.default) is bool)
"""The options that are True or False."""


def _good_values(pairs: object) -> bool:
    return (
        type(pairs) is tuple
        and all(
            type(p) is tuple and len(p) == 2 and isinstance(p[0], Rank) and _good_value(p[1])
            for p in pairs
        )
        and len({p[0] for p in pairs}) == len(pairs)
    )


def _good_value(value: object) -> bool:
    """One int from 1 to `MAX_VALUE`, or a tuple of several such ints, ascending, distinct."""
    if type(value) is tuple:
        return (
            len(value) > 1
            and all(_int_in(v, 1, MAX_VALUE) for v in value)
            and all(a < b for a, b in pairwise(value))
        )
    return _int_in(value, 1, MAX_VALUE)


@lru_cache(maxsize=64)
def _partitions_of(total: int, top: int = _MAX) -> tuple[tuple[int, ...], ...]:
    """The ways to write `total` as a sum of values 1 to `top`, as counts indexed by value."""
    out: list[tuple[int, ...]] = []
    counts = [0] * (top + 1)

    def search(rest: int, largest: int) -> None:
        if not rest:
            out.append(tuple(counts))
            return
        for v in range(min(rest, largest), 0, -1):
            counts[v] += 1
            search(rest - v, v)
            counts[v] -= 1

    search(total, min(total, top))
    return tuple(out)


def _value(item: TableItem, values: dict[Card, int | None]) -> int | None:
    return item.value if isinstance(item, Build) else values[item]


def _held(hand: tuple[Card, ...], values: dict[Card, int | None], top: int) -> list[int]:
    """The number cards of a hand, counted by value (values 0 to `top`)."""
    held = [0] * (top + 1)
    for card in hand:
        value = values[card]
        if value is not None:
            held[value] += 1
    return held


def _groups(
    numbers: list[tuple[int, int, Card]], wanted: int, top: int
) -> list[list[tuple[TableItem, ...]]]:
    """The sets of loose number cards adding up to each value of `wanted`, bucketed by sum.

    `numbers` holds `(value, index, card)` sorted by value, so in deck order
    when values grow with the deck (German Xeri's, Scopa's); `wanted` is a
    bit set of values (bit v for the value v), up to `top`. Each bucket comes
    out in lexicographic order of `numbers`. A card is added only when the cards after it can
    still complete a wanted sum (`reach` says which sums they make), so
    every step of the search leads to a group: the cost is the number of
    groups times the size of the table, whatever the table holds.
    """
    n = len(numbers)
    limit = (1 << (top + 1)) - 1
    reach = [1] * (n + 1)  # reach[i]: the sums some subset of numbers[i:] makes
    sums = 1
    for i in range(n - 1, -1, -1):
        sums |= (sums << numbers[i][0]) & limit
        reach[i] = sums
    out: list[list[tuple[TableItem, ...]]] = [[] for _ in range(top + 1)]
    chosen: list[Card] = []

    def search(start: int, total: int) -> None:
        for i in range(start, n):
            v, _, card = numbers[i]
            new = total + v
            if not wanted >> new:  # numbers are sorted: no later card does better
                return
            if wanted >> new & 1:
                out[new].append((*chosen, card))
            if (reach[i + 1] << new) & wanted & ~(1 << new):
                chosen.append(card)
                search(i + 1, new)
                chosen.pop()

    search(0, 0)
    return out


def _divisible(
    numbers: list[tuple[int, int, Card]], value: int, top: int
) -> list[tuple[Card, ...]]:
    """Every non-empty set of loose number cards that divides into groups of `value` each.

    Whether a set divides depends only on how many cards of each value it
    holds. The search walks those counts, from none, by adding one group of
    `value` at a time (at most 42 shapes of group), so it visits only counts
    that divide; each count found then stands for every card set that has
    it. The cost is proportional to the number of sets returned.
    """
    by_value: list[list[Card]] = [[] for _ in range(top + 1)]
    for v, _, card in numbers:
        if v <= value:
            by_value[v].append(card)
    room = tuple(map(len, by_value))
    shapes = [s for s in _partitions_of(value, top) if all(map(int.__le__, s, room))]
    empty = (0,) * (top + 1)
    seen = {empty}
    todo = [empty]
    while todo:
        counts = todo.pop()
        for shape in shapes:
            new = tuple(map(add, counts, shape))
            if new not in seen and all(map(int.__le__, new, room)):
                seen.add(new)
                todo.append(new)
    seen.remove(empty)
    out: list[tuple[Card, ...]] = []
    for counts in seen:
        choices = [combinations(by_value[v], k) for v, k in enumerate(counts) if k]
        out += (tuple(c for part in parts for c in part) for parts in product(*choices))
    return out


def _splits(counts: list[int], value: int) -> bool:
    """Whether number cards, counted by value, divide into groups of `value` each.

    The largest card left belongs to some group: try every way to fill that
    group with cards no larger (at most 42 ways for ten), then divide the
    rest; `counts` is restored on return.
    """
    if sum(v * k for v, k in enumerate(counts)) % value:
        return False
    failed: set[tuple[int, ...]] = set()

    def divide() -> bool:
        top = next((v for v in range(len(counts) - 1, 0, -1) if counts[v]), 0)
        if not top:
            return True
        key = tuple(counts)
        if key in failed:
            return False
        counts[top] -= 1
        done = fill(value - top, top)
        counts[top] += 1
        if not done:
            failed.add(key)
        return done

    def fill(need: int, largest: int) -> bool:
        if not need:
            return divide()
        for v in range(min(need, largest), 0, -1):
            if counts[v]:
                counts[v] -= 1
                done = fill(need - v, v)
                counts[v] += 1
                if done:
                    return True
        return False

    return divide()


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


def _reach(
    table: tuple[TableItem, ...], values: dict[Card, int | None], limit: int = _SUMS
) -> tuple[int, int, set[Rank]]:
    """What the table offers to a capture, as bit masks and a set.

    Returns:
        The sums its loose number cards can make (bit `v` set for a sum `v`
        up to the bits of `limit`, bit 0 for the empty sum), the values of
        its builds (bit `v` for a build of `v`), and the ranks of its loose
        pictures.
    """
    sums = 1
    builds = 0
    ranks: set[Rank] = set()
    for t in table:
        if type(t) is Card:
            value = values[t]
            if value is None:
                ranks.add(t.rank)
            else:
                sums |= (sums << value) & limit
        elif isinstance(t, Build):
            builds |= 1 << t.value
    return sums, builds, ranks


def _capturers(
    table: tuple[TableItem, ...], values: dict[Card, int | None], top: int
) -> frozenset[Card]:
    """Every card that could take something from `table` (for a compulsory capture, D5)."""
    sums, builds, ranks = _reach(table, values, (1 << (top + 1)) - 1)
    reached = (sums & ~1) | builds
    return frozenset(
        c for c in DECK if c.rank in ranks or ((v := values[c]) is not None and reached >> v & 1)
    )


def _mask_reach(
    table: tuple[TableItem, ...], masks: dict[Card, int], limit: int
) -> tuple[int, int, set[Rank]]:
    """`_reach` for cards of several values: the sums some choice of the values makes."""
    sums = 1
    builds = 0
    ranks: set[Rank] = set()
    for t in table:
        if type(t) is Card:
            mask = masks[t]
            if not mask:
                ranks.add(t.rank)
            else:
                sums |= _sumset(sums, mask, limit)
        elif isinstance(t, Build):
            builds |= 1 << t.value
    return sums, builds, ranks


@attrs.frozen(kw_only=True, repr=False)
class SumCapture(_Immutable):
    """Captures by equal value or by sum, with builds and raises (German Xeri, [D3][rules-d3]).

    A capture that leaves the table empty is a xeri ([D6][rules-d6]); there
    is no jack xeri.

    How many legal moves there can be. By default a card takes one group,
    so its captures are the sets of loose cards adding up to its value,
    and the builds of that value: a 10 has at most 1,698 (every card from
    Ace to 9 on the table). The longest list known has 8,818 moves: the
    34 number cards the mover does not hold lie on the table (reachable
    when both players lay their cards free) and the mover holds
    9 9 10 10 10 10. With `multi_capture` a card takes any set of items
    that divides into groups of its value, and the number of such sets
    grows exponentially with the table: `k` disjoint groups on it give
    one card at least `2**k - 1` captures. Ace to 4 on the table (16 cards) and
    a hand of 5 to 10 give 49,301 moves; Ace to 7 (28 cards) and a hand
    of 8 9 10 10 10 10 over 120 million; the 34 number cards and
    9 9 10 10 10 10 over 4 billion. Since each move takes a different
    set, no smaller list is possible: [`moves`][xeri.SumCapture.moves]
    takes time in proportion to the list (it never goes through the
    several divisions of one set), and [`play`][xeri.SumCapture.play]
    checks the move played alone, at a cost that does not depend on the
    list.
    """

    pile: ClassVar[bool] = False
    """Capability: an open table, every item takeable (see [`CaptureRule`][xeri.CaptureRule])."""
    OPTIONS: ClassVar[tuple[Option, ...]] = SUM_OPTIONS
    """The table of the options below: name, default, format version, whether the fast
    kernel plays it, its words in the CLI and its doc line (see [`Option`][xeri.Option])."""

    multi_capture: bool = False
    """[D3][rules-d3] option: one card may take several disjoint groups of its value at once."""
    forced_capture: bool = False
    """[D5][rules-d5] option: a player who can capture must capture."""
    self_raise: bool = False
    """[D3][rules-d3] option: a player may raise their own build."""
    values: tuple[tuple[Rank, Value], ...] = attrs.field(
        default=GERMAN_VALUES, converter=_value_pairs
    )
    """The value of each rank in sums, as `(rank, value)` pairs (a dict is accepted):
    [`GERMAN_VALUES`][xeri.GERMAN_VALUES] by default, [`SCOPA_VALUES`][xeri.SCOPA_VALUES]
    in Scopa. A value is an int from 1 to [`MAX_VALUE`][xeri.MAX_VALUE] (40), or a tuple
    of several such ints, any of which a sum may count (`(Rank.ACE, (1, 11))`,
    [K2][rules-k2]); a tuple of one int is that int. A rank without a value is a
    *picture*: it takes only a loose card of its own rank, one at a time, and never
    builds. A build may be announced up to the largest value (at least 10). A card
    of several values builds with the value its builder announces, and
    [D4][rules-d4] gives each build owned a card of its own. Ranks of several values,
    and values above 10, need `multi_capture=False` and `multi_builds=False`: the
    groups of one value those options divide cards into are counted for single values
    up to 10 only, and a rule that asks for more is refused."""
    builds: bool = True
    """Whether a card may be combined with a table item into a build ([D3][rules-d3]);
    False in Scopa, where a card only captures or is laid free."""
    raises: bool = True
    """Whether a build may be combined onto, making it larger: a raise ([D3][rules-d3])."""
    equal_first: bool = False
    """Whether a card that can take an item of its own value must take one such item alone,
    rather than a sum (Scopa's rule, [S3][rules-s3])."""
    multi_builds: bool = False
    """Whether a card may be laid with several table items into one build, and a build may
    hold several groups of its value (Cassino's multiple builds, [C4][rules-c4]): the card
    and the loose cards grouped must divide into groups of the announced value, and any
    build grouped in must already have that value. A multiple build cannot be raised.
    Needs `builds`."""
    card_must_capture: bool = False
    """Whether a card that can capture must capture: it may not be laid free or built
    with, though another card that cannot capture may be laid free (Scopa, [S3][rules-s3]).
    `forced_capture` is the stronger rule: a player who can capture with any card must."""
    total: int | None = None
    """The total a capture makes with the card played ([K1][rules-k1]): None (the default)
    for German Xeri's rule, where the loose cards taken add up to the card played; an int
    from 2 to [`MAX_VALUE`][xeri.MAX_VALUE] when the cards taken *and* the card played
    add up to it (15 in Escoba). A card whose value (or each of whose values) reaches the
    total alone takes nothing by sum; a picture still takes a loose card of its own rank.
    `equal_first` then means: a card that can make the total with a single loose card
    takes one such card alone. Needs `builds=False` and no `multi_capture`: a build of
    a value, or groups of it, have no meaning when the card played counts in the sum."""
    sweepers: tuple[Sweeper, ...] = attrs.field(default=(), converter=_sweepers)
    """Cards that take the whole table ([W1][rules-w1]), each [`Sweeper`][xeri.Sweeper]
    with the kind of xeri its sweep is ([W2][rules-w2]); none by default. Played on a
    table that holds something, a sweeping card takes every item on it and has no other
    move; on an empty table it is laid free. The pile family's one sweeping rank is
    [`PileCapture.sweeper`][xeri.PileCapture.sweeper]: a pile rule with `sweeper=r` plays
    as `sweepers=(Sweeper(cards=(r,)),)` with `jack_xeri_ranks=(r,)` would on a pile."""
    jack_xeri_ranks: tuple[Rank, ...] = attrs.field(default=(), converter=_ranks)
    """The ranks whose card, taking a lone card of its own rank from a table that holds
    nothing else, makes a jack xeri (worth [`jack_xeri_points`][xeri.RuleSet.jack_xeri_points])
    rather than a xeri ([W3][rules-w3]): `(Rank.JACK,)` for a Jack on a lone Jack. Empty by
    default: on an open table every capture that clears it is a xeri ([D6][rules-d6])."""
    _values: dict[Card, int | None] = attrs.field(init=False, repr=False, eq=False)
    _values_by: dict[int, frozenset[Card]] = attrs.field(init=False, repr=False, eq=False)
    _top: int = attrs.field(init=False, repr=False, eq=False)
    """The largest value a build may have and the size of the counts by value: at least 10."""
    _masks: dict[Card, int] | None = attrs.field(init=False, repr=False, eq=False)
    """Each card's values as bits, when some rank has several or `total` is set, else None."""
    _targets: dict[Card, int] = attrs.field(init=False, repr=False, eq=False)
    """With `_masks`: the sums, as bits, that the loose cards a card takes may make."""
    _limit: int = attrs.field(init=False, repr=False, eq=False)
    """The bits of the sums from 0 to the largest sum a capture needs."""
    _monotone: bool = attrs.field(init=False, repr=False, eq=False)
    """Whether values never fall in deck order, so that sorting by value keeps deck order."""
    _sweeping: dict[Card, Sweeper] = attrs.field(init=False, repr=False, eq=False)

    @_values.default
    def _compute_values(self) -> dict[Card, int | None]:
        if self.values == GERMAN_VALUES:
            return _VALUES
        if not _good_values(self.values):
            return {}  # refused in __attrs_post_init__
        return _card_values(self.values)

    @_values_by.default
    def _compute_values_by(self) -> dict[int, frozenset[Card]]:
        if not self._values:
            return {}  # bad values, refused in __attrs_post_init__
        return _BY_VALUE if self._values is _VALUES else _by_value(self._values, MAX_VALUE)

    @_top.default
    def _compute_top(self) -> int:
        if not self._values:
            return _MAX  # bad values, refused in __attrs_post_init__
        largest = [_ints(v)[-1] for _, v in self.values]
        return max([_MAX, *largest])

    @_masks.default
    def _compute_masks(self) -> dict[Card, int] | None:
        if not self._values:
            return None  # bad values, refused in __attrs_post_init__
        several = any(type(v) is tuple for _, v in self.values)
        if not (several or self.total is not None):
            return None
        return _card_masks(self.values)

    @_targets.default
    def _compute_targets(self) -> dict[Card, int]:
        masks = self._masks
        total = self.total
        if masks is None or (total is not None and not _int_in(total, 2, MAX_VALUE)):
            return {}
        if total is None:
            return masks
        return {
            c: sum(1 << (total - v) for v in range(1, total) if m >> v & 1)
            for c, m in masks.items()
        }

    @_limit.default
    def _compute_limit(self) -> int:
        top = max([self._top, *(t.bit_length() - 1 for t in self._targets.values())])
        return (1 << (top + 1)) - 1

    @_monotone.default
    def _compute_monotone(self) -> bool:
        numbers = [v for c in DECK if (v := self._values.get(c)) is not None]
        return numbers == sorted(numbers)

    @_sweeping.default
    def _compute_sweeping(self) -> dict[Card, Sweeper]:
        return _by_card(self.sweepers)

    def __attrs_post_init__(self) -> None:
        for name in _FLAGS:
            if type(getattr(self, name)) is not bool:
                raise RuleSetError(f"SumCapture.{name} must be True or False")
        if self.multi_builds and not self.builds:
            raise RuleSetError("SumCapture.multi_builds needs builds=True")
        if self.card_must_capture and self.builds:
            raise RuleSetError(
                "SumCapture.card_must_capture needs builds=False: it is Scopa's rule, for games "
                "where a card only captures or is laid free"
            )
        if not _good_values(self.values):
            raise RuleSetError(
                "SumCapture.values must be (Rank, value) pairs, each rank once, each value an "
                f"int from 1 to {MAX_VALUE} or a tuple of several such ints"
            )
        total = self.total
        if total is not None and not _int_in(total, 2, MAX_VALUE):
            raise RuleSetError(
                f"SumCapture.total must be None or an int from 2 to {MAX_VALUE}, not {total!r}"
            )
        several = [rank.symbol for rank, v in self.values if type(v) is tuple]
        if total is not None and self.builds:
            raise RuleSetError(
                "SumCapture.total: the card played counts in the sum, which needs builds=False "
                "(K1): a build's value would not be fixed"
            )
        if total is not None and self.multi_capture:
            raise RuleSetError(
                "SumCapture.total: the card played counts in the sum once, which needs "
                "multi_capture=False (K1)"
            )
        if several and self.multi_builds:
            raise RuleSetError(
                f"SumCapture.values: {', '.join(several)} may count several values, which "
                "needs multi_builds=False (K2)"
            )
        problems = _sweeper_problems(self.sweepers, self.jack_xeri_ranks)
        if problems:
            raise RuleSetError("; ".join(problems))
        grouped = [n for n in ("multi_capture", "multi_builds") if getattr(self, n)]
        beyond = [
            f"{rank.symbol}={value!r}"
            for rank, value in self.values
            if isinstance(value, tuple) or value > _MAX
        ]
        if grouped and beyond:
            raise RuleSetError(
                f"SumCapture.{' and '.join(grouped)} divides cards into groups of one value, "
                f"which needs each value a single int from 1 to {_MAX} (K2): the moves of "
                "larger values or of cards of several values cannot be counted in bounded "
                f"time; not {', '.join(beyond)}"
            )

    def __repr__(self) -> str:
        # The options added after German Xeri are shown only when they differ from it.
        return _repr(self, _LATER_OPTIONS)

    def fast_path(self) -> bool:
        """Capability: whether [`rollout`][xeri.rollout] may play this rule with its fast kernel.

        True when the class overrides neither `moves` nor `play` (a subclass
        that changes how moves are made or played loses the fast path, one
        that overrides nothing keeps it) and every option the kernel does
        not play (`kernel` False in [`OPTIONS`][xeri.SumCapture.OPTIONS])
        holds its default.

        Returns:
            Whether the kernel plays this rule exactly as the engine does.
        """
        cls = type(self)
        if cls.moves is not SumCapture.moves or cls.play is not SumCapture.play:
            return False
        return not any(o.differs(self) for o in self.OPTIONS if not o.kernel)

    def value(self, card: Card) -> int | None:
        """The value of a card in sums under this rule, or None for a picture.

        For a rank of several values, the lowest ([`card_values`][xeri.SumCapture.card_values]
        gives them all).

        Examples:
            >>> import xeri
            >>> scopa = xeri.SumCapture(values=xeri.SCOPA_VALUES)
            >>> scopa.value(xeri.Card.parse("K♠")), xeri.SumCapture().value(xeri.Card.parse("K♠"))
            (10, None)
        """
        return self._values[card]

    def card_values(self, card: Card) -> tuple[int, ...]:
        """Every value a card may count as in sums under this rule, ascending ([K2][rules-k2]).

        Returns:
            One value for most ranks, several for a rank given several, none for a picture.

        Examples:
            >>> import xeri
            >>> rule = xeri.SumCapture(values={xeri.Rank.ACE: (1, 11)}, builds=False)
            >>> rule.card_values(xeri.Card.parse("A♠")), rule.card_values(xeri.Card.parse("K♠"))
            ((1, 11), ())
        """
        for rank, value in self.values:
            if rank is card.rank:
                return _ints(value)
        return ()

    def moves(  # noqa: PLR0915  # one pass over the hand makes every kind of move, in order
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """Every legal capture, combination and trail, sorted ([D3][rules-d3]–[D5][rules-d5]).

        Args:
            table: the table items.
            hand: the mover's hand, sorted in deck order.
            seat: the mover's seat.

        Returns:
            The legal moves, in the order of
            [`move_sort_key`][xeri.move_sort_key]; under `multi_capture`
            one capture per set of items taken, however it divides into groups.
        """
        if self._masks is not None:  # several values or a total (K1, K2): the lazy plan's list
            return _lazy.plan(self, table, hand, seat).moves()
        values = self._values
        top = self._top
        numbers, pictures, builds, targets = _scan(table, values)
        owned = [v for v, owner, _, _ in builds if owner == seat]
        held = [0] * (top + 1)
        wanted = 0
        for card in hand:
            value = values[card]
            if value is not None:
                held[value] += 1
                wanted |= 1 << value
        if owned:  # values whose cards may not take loose cards alone (D4)
            for value in range(1, top + 1):
                if wanted >> value & 1:
                    held[value] -= 1
                    if not _owner_rule_holds(owned, held):
                        wanted &= ~(1 << value)
                    held[value] += 1
        multi = self.multi_capture
        groups = _groups(numbers, wanted, top) if numbers and wanted and not multi else None
        if groups is not None and not self._monotone:  # sorted by value is not deck order
            for group in groups:
                group[:] = sorted(
                    [tuple(sorted(t, key=item_sort_key)) for t in group], key=_items_key
                )
        unions: dict[int, list[tuple[TableItem, ...]]] = {}
        forced = self.forced_capture
        captures: list[PlayerMove] = []
        out: list[PlayerMove] = []
        sweeping = self._sweeping if table else None
        for card in hand:  # hands are sorted, so the moves come out sorted by card
            if sweeping and card in sweeping:  # W1: the whole table, and nothing else
                sweep = Capture(card=card, taken=table)
                captures.append(sweep)
                out.append(sweep)
                continue
            value = values[card]
            if value is None:
                # A picture takes one card of its rank even under multi_capture:
                # pictures have no value, so they never form groups of a value.
                found: list[PlayerMove] = (
                    [
                        _make_capture(card=card, taken=(t,))
                        for _, t in pictures
                        if t.rank is card.rank
                    ]
                    if not owned or _owner_rule_holds(owned, held)
                    else []
                )
            else:
                held[value] -= 1  # from here on, `held` counts the hand after this card
                if multi:
                    taken = unions.get(value)
                    if taken is None:  # cards of one value take the same sets
                        taken = unions[value] = self._unions(
                            value, numbers, builds, owned=owned, held=held, seat=seat
                        )
                else:
                    # Card groups first, each in deck order, in lexicographic order,
                    # then builds by key: the order of `move_sort_key`, unsorted.
                    taken = groups[value] if groups is not None else []
                    if builds:
                        taken = taken + [
                            (b,)
                            for v, _, _, b in builds
                            if v == value
                            and (not owned or _owner_rule_holds(_without(owned, (b,), seat), held))
                        ]
                if self.equal_first and any(v == value for v, _, _ in numbers):
                    taken = [t for t in taken if len(t) == 1]  # an equal card alone (S3)
                # Every set above is in the canonical order of `taken`: no converter needed.
                found = [_make_capture(card=card, taken=t) for t in taken]
            captures += found
            out += found
            if found and self.card_must_capture:
                if value is not None:
                    held[value] += 1
                continue  # this card captures: no build, no trail with it
            if value is not None:
                if self.builds and not (forced and captures):
                    made = self._combines(
                        card, value, held, targets=targets, owned=owned, seat=seat
                    )
                    if self.multi_builds:
                        made += self._groupings(card, value, held, numbers, builds, owned, seat)
                        made.sort(key=move_sort_key)
                    out += made
                held[value] += 1
            if not owned:
                out.append(TRAILS[card])
        if forced and captures:
            return tuple(captures)
        return tuple(out)

    # -- counting, indexing and membership without listing (the CaptureRule's optional methods) --

    def count_moves(self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int) -> int:
        """How many moves [`moves`][xeri.SumCapture.moves] lists, counted without listing them.

        Counted by card and by value with small automata over the table
        (see [the performance page](../performance.md#legal-moves-on-large-tables)):
        time polynomial in the table's size, whatever the options.
        """
        return _lazy.plan(self, table, hand, seat).total

    def move_at(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, index: int
    ) -> PlayerMove:
        """The move `moves(table, hand, seat)[index]`, found without listing the others.

        Raises:
            IndexError: `index` is not from 0 to the number of moves - 1.
        """
        found = _lazy.plan(self, table, hand, seat)
        if not 0 <= index < found.total:
            raise IndexError(f"move index {index} out of range: {found.total:,} moves")
        return found.at(index)

    def count_by_card(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[tuple[Card, int], ...]:
        """How many of [`moves`][xeri.SumCapture.moves] play each card, counted without listing.

        Returns:
            `(card, count)` for each card of the hand that has a move, in
            the order of the moves (deck order); the counts add up to
            [`count_moves`][xeri.SumCapture.count_moves].
        """
        return _lazy.plan(self, table, hand, seat).by_card()

    def has_move(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> bool:
        """Whether `move` is one of `moves(table, hand, seat)`, checked as `play` checks it."""
        if move.__class__ not in _MOVE_CLASSES:
            return False
        try:
            self.play(table, hand, seat, move)
        except IllegalMoveError:
            return False
        return True

    def _unions(
        self,
        value: int,
        numbers: list[tuple[int, int, Card]],
        builds: list[tuple[int, int, tuple[int, ...], Build]],
        *,
        owned: list[int],
        held: list[int],
        seat: int,
    ) -> list[tuple[TableItem, ...]]:
        """Under `multi_capture`, the item sets a card of `value` may take, each once, sorted.

        Any of the builds of the value (each a group of its own), with any
        set of loose cards that divides into groups of the value; `held`
        counts the hand without the card played ([D4][rules-d4]).
        """
        equal = [b for v, _, _, b in builds if v == value]  # sorted by key, as item_sort_key
        with_builds = [
            chosen
            for k in range(len(equal) + 1)
            for chosen in combinations(equal, k)
            if not owned or _owner_rule_holds(_without(owned, chosen, seat), held)
        ]
        if not with_builds:
            return []
        loose: list[tuple[TableItem, ...]] = [()]
        loose += _divisible(numbers, value, self._top) if numbers else []
        if not self._monotone:  # each set comes grouped by value: put it in deck order
            loose = [tuple(sorted(c, key=item_sort_key)) for c in loose]
        out = [c + b for b in with_builds for c in loose if c or b]
        out.sort(key=_items_key)  # once per value played
        return out

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
        top = self._top
        for target, _, _, _, item in targets:
            total = target + value
            if total > top:
                break
            if not held[total]:
                continue
            if type(item) is Build:
                if not self.raises or (self.multi_builds and _multiple(item, self._values)):
                    continue
                if item.owner == seat:
                    if not self.self_raise:
                        continue
                    left = _without(owned, (item,), seat)
                    left.append(total)
                    if _owner_rule_holds(left, held):
                        out.append(_make_combine(card=card, onto=item, value=total))
                    continue
            # Owning no build, the seat keeps a card of `total` (held above): D4 holds.
            if not owned or _owner_rule_holds([*owned, total], held):
                out.append(_make_combine(card=card, onto=item, value=total))
        return out  # targets are sorted by value, then item: so are the moves

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> OutcomeTuple:
        """Check a Capture, Combine or Trail by `seat` and apply it ([rule][sums-builds-raises]).

        Only the move played is checked, against [D3][rules-d3]–[D5][rules-d5]:
        the legal moves are never listed.

        Args:
            table: the table items before the move.
            hand: the mover's hand before the move.
            seat: the mover's seat.
            move: the move submitted.

        Returns:
            The mover's hand without the card, the new table, the cards taken
            (None for a combination or a trail) and the kind of xeri.

        Raises:
            IllegalMoveError: the move is not legal; the message says why ([X5][rules-x5]).
        """
        if not isinstance(move, (Capture, Combine, Trail)):
            raise IllegalMoveError(
                f"{type(move).__name__} is not a move of this game: use Capture or Trail"
                + (", or Combine to build" if self.builds else "")
            )
        card = move.card
        try:
            i = hand.index(card)
        except ValueError:
            raise IllegalMoveError(f"{card} is not in the hand of seat {seat}") from None
        owned = [t.value for t in table if type(t) is Build and t.owner == seat]  # `_owned`, inline
        if self.sweepers and card in self._sweeping:
            why = _sweep_refusal(table, move)
        elif isinstance(move, Capture):
            why = self._capture_refusal(table, hand, seat, move, owned)
        elif isinstance(move, Combine):
            why = self._combine_refusal(table, hand, seat, move, owned)
        elif owned:
            why = f"seat {seat} owns a build and may not lay a free card until it is taken (D4)"
        elif self.forced_capture and self._can_capture(table, hand, owned, seat):
            why = _COMPULSORY
        elif self.card_must_capture and self._can_capture(table, (card,), owned, seat):
            why = f"{card} can capture, so it may not be laid free (S3)"
        else:
            why = None
        if why is not None:
            raise IllegalMoveError(why)
        rest = hand[:i] + hand[i + 1 :]
        if isinstance(move, Trail):
            return rest, (*table, card), None, None
        if isinstance(move, Combine):
            onto = move.onto
            if not move.also:
                build = Build(cards=(*item_cards(onto), card), value=move.value, owner=seat)
                return rest, tuple([build if t == onto else t for t in table]), None, None
            return rest, _grouped(table, {onto, *move.also}, card, move.value, seat), None, None
        taken = move.taken
        left: list[TableItem] = []
        cards: list[Card] = []
        for t in table:
            if t not in taken:
                left.append(t)
            elif type(t) is Card:
                cards.append(t)
            else:
                cards += t.cards  # type: ignore[union-attr]  # not a Card: a Build
        cards.append(card)
        if left:
            return rest, tuple(left), tuple(cards), None
        if not (self.sweepers or self.jack_xeri_ranks):
            return rest, (), tuple(cards), XeriKind.XERI
        return rest, (), tuple(cards), self._sweep_kind(card, taken)

    def _sweep_kind(self, card: Card, taken: tuple[TableItem, ...]) -> XeriKind | None:
        """The xeri of a capture by `card` that clears the table ([W2][rules-w2], [W3][rules-w3]).

        A lone card of the card's own rank taken by a rank of `jack_xeri_ranks`
        is a jack xeri; a sweeper's sweep is of its sweeper's kind; any other
        capture that clears the table is a xeri ([D6][rules-d6]).
        """
        if len(taken) == 1:
            item = taken[0]
            if type(item) is Card and item.rank is card.rank and card.rank in self.jack_xeri_ranks:
                return XeriKind.JACK_XERI
        sweeper = self._sweeping.get(card)
        if sweeper is not None:
            return sweeper.kind(taken, self._values)
        return XeriKind.XERI

    def _capture_refusal(
        self,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        move: Capture,
        owned: list[int],
    ) -> str | None:
        """Why a capture with a held card is not legal ([X5][rules-x5]), or None when it is."""
        taken = move.taken
        if not taken:
            return f"{move}: it names items that are not on the table"
        for t in taken:
            if t not in table:
                return f"{move}: it names items that are not on the table"
        if len(taken) > 1 and len(set(taken)) < len(taken):
            return f"{move}: it names an item more than once"
        card = move.card
        values = self._values
        value = values[card]
        if value is None:
            item = taken[0]
            if len(taken) > 1 or type(item) is not Card or item.rank is not card.rank:
                return f"{move}: a picture takes only loose cards of its own rank, one at a time"
        elif self._masks is not None:
            why = self._mask_refusal(table, move)
            if why is not None:
                return why
        else:
            total = 0
            for t in taken:
                if type(t) is Build:
                    if t.value != value:
                        return f"{move}: a build is taken only by a card of exactly its value"
                    total += value
                else:
                    total += values[t] or 100  # type: ignore[index]  # t is on the table: a Card
            if total != value and not (
                self.multi_capture and _divides(taken, value, values, self._top)
            ):
                return f"{move}: the items taken do not add up to {value}"
            if (
                self.equal_first
                and len(taken) > 1
                and any(type(t) is Card and values[t] == value for t in table)
            ):
                return (
                    f"{move}: a card of value {value} lies on the table, so it must be "
                    "taken alone, not a sum (S3)"
                )
        if not owned:
            return None
        if self._masks is not None:
            kept = _matched(_without(owned, taken, seat), self._rest_masks(hand, card))
        else:
            held = _held(hand, values, self._top)
            if value is not None:
                held[value] -= 1
            kept = _owner_rule_holds(_without(owned, taken, seat), held)
        if not kept:
            return f"{move}: seat {seat} would give up the card it needs for one of its builds (D4)"
        return None

    def _combine_refusal(
        self,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        move: Combine,
        owned: list[int],
    ) -> str | None:
        """Why a combination with a held card is not legal ([X5][rules-x5]), or None when it is."""
        if not self.builds:
            return f"{move}: this game has no builds: a card captures or is laid free"
        if move.also and not self.multi_builds:
            return f"{move}: a card is combined with one item (multi_builds is off)"
        if self._masks is not None:
            return self._mask_combine_refusal(table, hand, seat, move, owned)
        values = self._values
        value = values[move.card]
        if self.multi_builds and value is not None:
            target = _value(move.onto, values)
            if move.also or target is None or move.value != value + target:
                return self._group_refusal(table, hand, seat, move, owned)
            if type(move.onto) is Build and _multiple(move.onto, values):
                return f"{move}: a multiple build cannot be raised (C4)"
        onto = move.onto
        if onto not in table:
            return f"{move}: the item combined onto is not on the table"
        if type(onto) is Build and not self.raises:
            return f"{move}: this game does not allow raising a build"
        target = _value(onto, values)
        if value is None or target is None:
            return f"{move}: only number cards combine, and only onto number cards or builds"
        total = value + target
        if type(move.value) is not int or move.value != total:
            return f"{move}: the announced value must be the sum, {total}"
        if total > self._top:
            return f"{move}: a build may not exceed {self._top}"
        mine = type(onto) is Build and onto.owner == seat
        if mine and not self.self_raise:
            return f"{move}: raising one's own build is not allowed"
        # `card_must_capture` needs `builds=False`: no build reaches this point under it.
        if self.forced_capture and self._can_capture(table, hand, owned, seat):
            return f"{move}: {_COMPULSORY}"
        left = _without(owned, (onto,), seat) if mine else list(owned)
        held = _held(hand, values, self._top)
        return _holding_refusal(move, held, seat, value, left, clause="D3")

    def _group_refusal(
        self,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        move: Combine,
        owned: list[int],
    ) -> str | None:
        """Why a multi-card or multiple build is not legal ([C4][rules-c4]), or None."""
        items = (move.onto, *move.also)
        if any(t not in table for t in items):
            return f"{move}: an item combined onto is not on the table"
        if move.also and item_sort_key(move.onto) > item_sort_key(move.also[0]):
            first, *rest = sorted(items, key=item_sort_key)
            named = Combine(card=move.card, onto=first, value=move.value, also=tuple(rest))
            return f"{move}: name the items in their order, the first as onto: {named}"
        if len(set(items)) < len(items):
            return f"{move}: it names an item more than once"
        values = self._values
        total = move.value
        top = self._top
        if type(total) is not int or not 1 <= total <= top:
            return f"{move}: the announced value must be from 1 to {top}"
        counts = [0] * (top + 1)
        counts[values[move.card] or 0] += 1
        for t in items:
            if type(t) is Build:
                if t.value != total:
                    return f"{move}: a build grouped into a build of {total} must have that value"
            elif (v := values[t]) is None:  # type: ignore[index]  # not a Build: a Card
                return f"{move}: only number cards and builds can be built with"
            else:
                counts[v] += 1
        if not _splits(counts, total):
            return f"{move}: the card and the loose cards do not divide into groups of {total}"
        if self.forced_capture and self._can_capture(table, hand, owned, seat):
            return f"{move}: {_COMPULSORY}"
        held = _held(hand, values, top)
        left = _without(owned, items, seat)
        return _holding_refusal(move, held, seat, values[move.card] or 0, left, clause="C4")

    # -- several values, or a total with the card played (K1, K2): no builds, one group --

    def _owned(self, table: tuple[TableItem, ...], seat: int) -> list[int]:
        """The values of the builds `seat` owns ([D4][rules-d4])."""
        return [t.value for t in table if type(t) is Build and t.owner == seat]

    def _rest_masks(self, hand: tuple[Card, ...], card: Card) -> list[int]:
        """The masks of the hand's cards but `card` (once): what is kept after it is played."""
        masks = self._masks
        assert masks is not None  # the caller's test
        i = hand.index(card)
        return [masks[c] for c in hand[:i] + hand[i + 1 :]]

    def _mask_combines(
        self,
        card: Card,
        rest: list[int],
        ordered: list[TableItem],
        owned: list[int],
        seat: int,
    ) -> list[PlayerMove]:
        """The builds and raises with `card` under several values, sorted ([K2][rules-k2]).

        `rest` holds the masks of the hand without the card, `ordered` the
        table sorted. Each announced value is a value of the card plus one
        of the item's (a build has one), up to the largest value.
        """
        masks = self._masks
        assert masks is not None  # the caller's test
        every = (1 << (self._top + 1)) - 1
        out: list[PlayerMove] = []
        for item in ordered:
            if type(item) is Build:
                if not self.raises or (item.owner == seat and not self.self_raise):
                    continue
                onto = 1 << item.value
                left = _without(owned, (item,), seat)
            else:
                onto = masks[item]  # type: ignore[index]  # not a Build: a Card
                left = list(owned)
            totals = _sumset(onto, masks[card], every) if onto else 0
            while totals:
                low = totals & -totals
                totals ^= low
                total = low.bit_length() - 1
                if _matched([*left, total], rest):
                    out.append(Combine(card=card, onto=item, value=total))
        out.sort(key=move_sort_key)
        return out

    def _mask_combine_refusal(
        self,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        move: Combine,
        owned: list[int],
    ) -> str | None:
        """Why a build under several values is not legal ([K2][rules-k2]), or None."""
        masks = self._masks
        assert masks is not None  # the caller's test
        onto = move.onto
        if onto not in table:
            return f"{move}: the item combined onto is not on the table"
        if type(onto) is Build and not self.raises:
            return f"{move}: this game does not allow raising a build"
        played = masks[move.card]
        target = (1 << onto.value) if type(onto) is Build else masks[onto]  # type: ignore[index]  # a Card
        if not played or not target:
            return f"{move}: only number cards combine, and only onto number cards or builds"
        total = move.value
        top = self._top
        sums = _sumset(target, played, (1 << (2 * MAX_VALUE + 1)) - 1)
        if type(total) is not int or not 1 <= total <= 2 * MAX_VALUE or not sums >> total & 1:
            sums_made = ", ".join(str(v) for v in range(sums.bit_length()) if sums >> v & 1)
            return (
                f"{move}: the announced value must be a value of {move.card} plus one of "
                f"the item's: {sums_made}"
            )
        if total > top:
            return f"{move}: a build may not exceed {top}"
        mine = type(onto) is Build and onto.owner == seat
        if mine and not self.self_raise:
            return f"{move}: raising one's own build is not allowed"
        if self.forced_capture and self._can_capture(table, hand, owned, seat):
            return f"{move}: {_COMPULSORY}"
        rest = self._rest_masks(hand, move.card)
        if not any(m >> total & 1 for m in rest):
            return f"{move}: seat {seat} holds no other card of value {total} to take it (D3)"
        left = _without(owned, (onto,), seat) if mine else list(owned)
        if not _matched([*left, total], rest):
            return f"{move}: seat {seat} must keep a card of value {total} per build it owns (D4)"
        return None

    def _mask_refusal(self, table: tuple[TableItem, ...], move: Capture) -> str | None:
        """Why a number card's capture is not legal under several values or `total`, or None."""
        masks = self._masks
        assert masks is not None  # the caller's test
        card = move.card
        taken = move.taken
        want = self._targets[card]
        aim = (
            f"make {self.total} with {card}"
            if self.total is not None
            else f"add up to a value of {card}"
        )
        # No multi_capture here: the rule refuses it with several values (K2) and a total (K1).
        if any(type(t) is Build for t in taken):
            if len(taken) > 1 or not want >> taken[0].value & 1:  # type: ignore[union-attr]  # a Build
                return f"{move}: a build is taken alone, and its value must {aim}"
        else:
            sums = 1
            for t in taken:
                mask = masks[t]  # type: ignore[index]  # not a Build: a Card
                if not mask:
                    return f"{move}: a number card does not take a picture"
                sums = _sumset(sums, mask, self._limit)
            if not sums & want:
                return f"{move}: the cards taken do not {aim}"
        if (
            self.equal_first
            and len(taken) > 1
            and any(type(t) is Card and masks[t] & want for t in table)
        ):
            return (
                f"{move}: a loose card alone would {aim}, so one such card must be "
                "taken alone, not a sum (S3)"
            )
        return None

    def _mask_can_capture(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], owned: list[int], seat: int
    ) -> bool:
        """`_can_capture` under several values or `total`, [D4][rules-d4] by `_matched`."""
        masks = self._masks
        assert masks is not None  # the caller's test
        sums, _, ranks = _mask_reach(table, masks, self._limit)
        targets = self._targets
        builds = [t for t in table if type(t) is Build]
        for card in hand:
            rest = self._rest_masks(hand, card)
            keeps = not owned or _matched(owned, rest)
            if not masks[card]:
                if card.rank in ranks and keeps:
                    return True
                continue
            want = targets[card]
            if keeps and sums & ~1 & want:
                return True
            for b in builds:
                if not want >> b.value & 1:
                    continue
                if b.owner != seat:
                    if keeps:
                        return True
                    continue
                # One build taken (no multi_capture with several values or a total).
                if _matched(_without(owned, (b,), seat), rest):
                    return True
        return False

    def _capturers(self, table: tuple[TableItem, ...]) -> frozenset[Card]:
        """Every card that could take something from `table` (for a compulsory capture, D5)."""
        masks = self._masks
        if masks is None:
            return _capturers(table, self._values, self._top)
        sums, builds, ranks = _mask_reach(table, masks, self._limit)
        reached = (sums & ~1) | builds
        targets = self._targets
        return frozenset(
            c for c in DECK if (c.rank in ranks if not masks[c] else bool(reached & targets[c]))
        )

    def _groupings(  # noqa: PLR0917  # internal, called from `moves` alone
        self,
        card: Card,
        value: int,
        held: list[int],
        numbers: list[tuple[int, int, Card]],
        builds: list[tuple[int, int, tuple[int, ...], Build]],
        owned: list[int],
        seat: int,
    ) -> list[PlayerMove]:
        """Under `multi_builds`, the builds of several items or groups with `card` ([C4][rules-c4]).

        Every set of table items that the card completes into groups of a
        value the mover holds another card of, except the single item a
        card builds on by a plain sum (those `_combines` makes). `held`
        counts the hand without the card.
        """
        values = self._values
        pool = sorted([*numbers, (value, card.index, card)])
        out: list[PlayerMove] = []
        for total in range(1, self._top + 1):
            if not held[total]:
                continue
            equal = [b for v, _, _, b in builds if v == total]
            with_builds = [c for k in range(len(equal) + 1) for c in combinations(equal, k)]
            for group in _divisible(pool, total, self._top) if value <= total else []:
                if card not in group:
                    continue
                loose: tuple[TableItem, ...] = tuple(c for c in group if c is not card)
                for chosen in with_builds:
                    items = loose + chosen
                    if not items or (
                        not chosen and len(loose) == 1 and value + (values[loose[0]] or 0) == total  # type: ignore[index]  # a Card
                    ):
                        continue  # nothing to build on, or a plain sum: made by `_combines`
                    left = _without(owned, chosen, seat)
                    left.append(total)
                    if _owner_rule_holds(left, held):
                        first, *rest = sorted(items, key=item_sort_key)
                        out.append(Combine(card=card, onto=first, value=total, also=tuple(rest)))
        return out

    def _can_capture(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], owned: list[int], seat: int
    ) -> bool:
        """Whether some card of `hand` has a legal capture, without listing any ([D5][rules-d5]).

        A picture needs a loose card of its rank; a number card a build of
        its value or loose cards adding up to it. [D4][rules-d4] after the
        capture depends only on the seat's own builds taken: taking as many
        as one capture may (one, or all of them under `multi_capture`) is
        the best chance.
        """
        if table and self.sweepers and any(c in self._sweeping for c in hand):
            return True  # a sweeper takes a table that holds something (W1)
        values = self._values
        if self._masks is not None:
            return self._mask_can_capture(table, hand, owned, seat)
        sums, builds, ranks = _reach(table, values, self._limit)
        held = _held(hand, values, self._top)
        short = {v for v in owned if owned.count(v) > held[v]}  # D4 already broken there
        for card in hand:
            value = values[card]
            if value is None:
                if card.rank in ranks and not short:
                    return True
            elif not short - {value}:
                mine = owned.count(value)
                if mine:  # take its own builds of the value
                    taken = mine if self.multi_capture else 1
                    if mine - taken <= held[value] - 1:
                        return True
                elif (sums | builds) >> value & 1:
                    return True
        return False

    def needs(self, table: tuple[TableItem, ...], move: PlayerMove, seat: int) -> HandNeeds:
        """What the hand must have held for `move` to be legal ([D3][rules-d3]-[D5][rules-d5]).

        * after the play, for every value, at least as many other cards of
          that value as the seat owns builds of it ([D4][rules-d4]; for a
          combination or a raise, the new build included);
        * under `forced_capture`, a trail or a combination means that no
          card of the hand could capture ([D5][rules-d5]); a seat owning a
          build can always take it, so it never trails or combines then.

        Exact for the hands the seat can hold: those meeting [D4][rules-d4]
        before the move, as every hand to move does.
        """
        owned = self._owned(table, seat)
        owns_a_build = bool(owned)
        card = move.card
        if isinstance(move, Capture):
            owned = _without(owned, move.taken, seat)
        elif isinstance(move, Combine):
            owned = _without(owned, (move.onto, *move.also), seat)
            owned.append(move.value)
        if self._masks is not None:
            at_least = _hall(owned, self._masks, card)
        else:
            by_value = self._values_by
            at_least = [
                (by_value[value] - {card}, owned.count(value)) for value in sorted(set(owned))
            ]
        none_of: frozenset[Card] = frozenset()
        if self.forced_capture and not isinstance(move, Capture):
            # Owning a build, the seat could have taken it: no hand allows this move.
            none_of = frozenset(DECK) if owns_a_build else self._capturers(table)
            if table and self.sweepers:  # a sweeper would have taken the table (W1)
                none_of |= frozenset(self._sweeping)
        if not at_least and not none_of:
            return NO_NEEDS
        return HandNeeds(none_of=none_of, at_least=at_least)

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """Every card on the table, builds flattened, in the order they lie."""
        cards: list[Card] = []
        for item in table:  # a loop: a round's end reads it, and most items are loose cards
            if item.__class__ is Card:
                cards.append(item)
            else:
                cards += item_cards(item)
        return tuple(cards)

    # -- integer actions (xeri.ActionEncoding; the layout is documented there) --

    def action_count(self) -> int:
        """The number of actions: 18,308, the same for every option but `multi_capture`.

        Raises:
            RuleSetError: `multi_capture` is set: no fixed action space covers its captures.
        """
        _sum_actions._no_multi(self)
        return len(_sum_actions._sum_table(self.values, self.total).actions)

    def target_count(self) -> int:
        """The number of targets: the `(kind, anchors, value)` tuples of the actions.

        Raises:
            RuleSetError: `multi_capture` is set.
        """
        _sum_actions._no_multi(self)
        return _sum_actions._sum_table(self.values, self.total).targets

    def action_of(self, move: PlayerMove, table: tuple[TableItem, ...], seat: int) -> int:
        """The action of a move: its `(card, kind, anchors, value)` tuple, numbered.

        Raises:
            IllegalMoveError: the move is not a Capture, Combine or Trail an action names.
            RuleSetError: `multi_capture` is set.
        """
        _sum_actions._no_multi(self)
        return _sum_actions._sum_action_of(move, self.values, self.total)

    def move_of(
        self, action: int, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> PlayerMove:
        """The move an action names on `table`, its items found by their anchors.

        Raises:
            IllegalMoveError: the card is not in the hand or the items are not on the table.
            RuleSetError: `multi_capture` is set.
        """
        _sum_actions._no_multi(self)
        return _sum_actions._sum_move_of(action, table, hand, self.values, self.total)

    def action_parts(self, action: int) -> tuple[int, int]:
        """The deck index of the card played and the number of its target.

        Raises:
            RuleSetError: `multi_capture` is set.
        """
        _sum_actions._no_multi(self)
        return _sum_actions._sum_table(self.values, self.total).parts[action]


_MOVE_CLASSES = frozenset({Capture, Combine, Trail})


def _sweep_refusal(table: tuple[TableItem, ...], move: PlayerMove) -> str | None:
    """Why a move with a sweeping card is not legal ([W1][rules-w1]), or None when it is."""
    card = move.card
    if isinstance(move, Capture):
        taken = move.taken
        if (
            table
            and len(taken) == len(table)
            and len(set(taken)) == len(taken)
            and all(t in table for t in taken)
        ):
            return None
        if not table:
            return f"{move}: the table is empty, so {card} sweeps nothing and is laid free (W1)"
        return f"{move}: {card} sweeps, so it takes every item on the table (W1)"
    if isinstance(move, Trail) and not table:
        return None
    if isinstance(move, Trail):
        return f"{card} sweeps: on a table that holds something it takes everything (W1)"
    return f"{move}: {card} sweeps, and a sweeping card does not build (W1)"


_COMPULSORY = "a capture is possible and capturing is compulsory (D5)"
"""Why a trail or a build is refused under `forced_capture`."""


def _holding_refusal(  # the facts of one refusal, named
    move: Combine, held: list[int], seat: int, played: int, left: list[int], *, clause: str
) -> str | None:
    """Why a build is refused for the cards kept, or None ([D3][rules-d3], [D4][rules-d4]).

    `held` counts the hand with the card played (of value `played`); `left`
    lists the values of the builds the seat owns after the move, but the new one.
    """
    total = move.value
    held[played] -= 1
    if not held[total]:
        return f"{move}: seat {seat} holds no other card of value {total} to take it ({clause})"
    left.append(total)
    if not _owner_rule_holds(left, held):
        return f"{move}: seat {seat} must keep a card of value {total} per build it owns (D4)"
    return None


def _grouped(
    table: tuple[TableItem, ...], group: set[TableItem], card: Card, value: int, seat: int
) -> tuple[TableItem, ...]:
    """The table after `card` is built with the items of `group`: one build, where the first lay."""
    cards = [c for t in table if t in group for c in item_cards(t)]
    build = Build(cards=(*cards, card), value=value, owner=seat)
    out: list[TableItem] = []
    for t in table:
        if t not in group:
            out.append(t)
        elif build is not None:
            out.append(build)
            build = None  # type: ignore[assignment]  # placed once
    return tuple(out)


def _hall(
    owned: list[int], masks: dict[Card, int], card: Card
) -> list[tuple[frozenset[Card], int]]:
    """`needs`' cards to keep under several values: Hall's condition for `_matched`.

    For every set S of the values of the builds owned after the move, the
    hand but `card` holds at least as many cards with a value in S as there
    are builds of a value in S: by Hall's theorem, exactly when each build
    can be given a card of its own.
    """
    values = sorted(set(owned))
    out: list[tuple[frozenset[Card], int]] = []
    for size in range(1, len(values) + 1):
        for chosen in combinations(values, size):
            bits = sum(1 << v for v in chosen)
            cards = frozenset(c for c in DECK if masks[c] & bits and c is not card)
            out.append((cards, sum(owned.count(v) for v in chosen)))
    return out


def _divides(
    taken: tuple[TableItem, ...], value: int, values: dict[Card, int | None], top: int
) -> bool:
    """Whether items divide into groups of `value`: builds of it, and loose number cards."""
    counts = [0] * (top + 1)
    for t in taken:
        if type(t) is Card:
            v = values[t]
            if v is None:
                return False
            counts[v] += 1
    return _splits(counts, value)

"""Named scoring categories: the lines of a score sheet beyond card points, majority and xeris.

The fishing games score more than the Xeri family does: Cassino gives a
point for most spades and names its big and little casino, Scopa scores
most coins, the settebello and the primiera. A rule set lists such lines in
[`RuleSet.categories`][xeri.RuleSet.categories]; the
[`StandardScorer`][xeri.StandardScorer] adds each one's points to the round's
total and keeps them by name in
[`RoundResult.categories`][xeri.RoundResult.categories], so that score
sheets, saved games and a [match format][xeri.MatchFormat] can tell them
apart.

A category is any frozen, hashable attrs value implementing the
[`Category`][xeri.Category] protocol; the built-ins are
[`NamedPoints`][xeri.NamedPoints] (points for given cards or ranks),
[`MostOfSuit`][xeri.MostOfSuit], [`Primiera`][xeri.Primiera],
[`Sweeps`][xeri.Sweeps] and [`SweepPoints`][xeri.SweepPoints] (each sweep
worth what it took, read from the round's captures).

    >>> import xeri
    >>> coins = xeri.MostOfSuit(suit=xeri.Suit.DIAMONDS, name="most coins")
    >>> coins.award((xeri.DECK[:26], xeri.DECK[26:]), ((), ()), xeri.GREEK)
    (1, 0)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Protocol, runtime_checkable

import attrs

from xeri._cards import Card, Rank, Suit
from xeri._errors import RuleSetError, _int_in, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._rules.scoring import MajorityTie, PointsTable

if TYPE_CHECKING:
    from xeri._core.state import Take
    from xeri._rules.ruleset import RuleSet
    from xeri._rules.scoring import RoundResult

__all__ = [
    "PRIMIERA_VALUES",
    "Category",
    "MostOfSuit",
    "NamedPoints",
    "Primiera",
    "SweepPoints",
    "Sweeps",
]

_MAX_POINTS = 1_000_000


@runtime_checkable
class Category(Protocol):
    """One named line of the score sheet, scored at the end of each round.

    Implementations must be frozen attrs classes with hashable fields (so
    rule sets stay comparable and serialisable) and pure.

    A category may declare one optional capability, as a class attribute:
    `additive = True` when a side's points are the sum of what each of its
    captures brings (points for cards, points per sweep), so that
    [`preview`][xeri.preview] can count them for a single move.
    [`NamedPoints`][xeri.NamedPoints] and [`Sweeps`][xeri.Sweeps] are
    additive; comparisons such as [`MostOfSuit`][xeri.MostOfSuit] and
    [`Primiera`][xeri.Primiera] are decided only at the end of the round.

    A second optional capability ties a loaded line to the rest of its
    round's result: a method `check_points(points, result, rules)` returning
    every reason (a list of messages) why `points` could not have been
    scored on this line in a round that gave `result`.
    [`from_json`][xeri.from_json] calls it for every earlier round of a
    saved match, once the result's own counts are sound; a category without
    it is checked only against [`most`][xeri.Category.most]. Every built-in
    category has it: a sweeps line is the sweeps recorded times their points,
    a line that goes to one side (most of a suit, the primiera) goes to one
    side at most and only to a side whose cards could win it, and the points
    of named cards are what the captured cards could be worth.

    A third optional capability gives a category the round's captures one by
    one ([W4][rules-w4]): `needs_takes = True`, and `award` then takes a
    keyword `takes`, the round's [`Take`][xeri.Take]s in order (which cards
    each capture took, the card played last, by which seat, of what kind of
    xeri; the last capturer's collection of the cards left has `turn` None),
    or None when they are not known. Only a category that declares it is
    given them, so the round's end costs nothing more for the others.
    [`SweepPoints`][xeri.SweepPoints] declares it.
    """

    @property
    def name(self) -> str:
        """The line's name on score sheets and in saved games, unique in its rule set."""
        ...

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
    ) -> tuple[int, ...]:
        """The points each side gets on this line.

        Args:
            captured: the cards each side captured in the round.
            xeris: the xeris (sweeps) each side made.
            rules: the rule set.

        Returns:
            One int from 0 to `most(rules)` per side.
        """
        ...

    def most(self, rules: RuleSet) -> int:
        """The most points one side can get on this line in a round: a bound for checks.

        Args:
            rules: the rule set.

        Returns:
            An int from 0 up; a loaded round result is refused when it gives more.
        """
        ...


def _check_points(kind: str, points: object) -> None:
    if not _int_in(points, 0, _MAX_POINTS):
        raise RuleSetError(f"{kind}.points must be an int from 0 to 1,000,000, not {_show(points)}")


def _check_name(kind: str, name: object) -> None:
    if not (type(name) is str and 0 < len(name) <= 64 and name.isprintable()):
        raise RuleSetError(f"{kind}.name must be a printable str of 1 to 64 characters")


def _unique_best(values: list[int | None], points: int, tie: MajorityTie) -> tuple[int, ...]:
    """`points` to the side with the greatest value (None never wins); a tie as `tie` says."""
    known = [v for v in values if v is not None]
    if not known:
        return (0,) * len(values)
    best = max(known)
    tied = values.count(best)
    share = points if tied == 1 else (points // tied if tie is MajorityTie.SPLIT else 0)
    return tuple(share if v == best else 0 for v in values)


def _row_text(row: tuple[int, ...]) -> str:
    return f"({', '.join(map(str, row))})"


def _best_problems(
    name: str,
    row: tuple[int, ...],
    points: int,
    tie: MajorityTie,
    can_win: list[bool],
) -> list[str]:
    """A line that `_unique_best` gives: `points` to one side, a split share, or nothing.

    `can_win[s]` says whether side `s` could hold the best value at all.
    """
    winners = [s for s, v in enumerate(row) if v]
    if not winners:
        return []
    if len(winners) == 1:
        if row[winners[0]] != points:
            return [f"categories: {name!r} gives {points} points to one side, not {_row_text(row)}"]
    else:
        share = points // len(winners)
        if tie is not MajorityTie.SPLIT or any(row[s] != share for s in winners):
            how = "one side only" if tie is not MajorityTie.SPLIT else "one side, or a split share"
            return [f"categories: {name!r} goes to {how}, not {_row_text(row)}"]
    losing = [s for s in winners if not can_win[s]]
    if losing:
        return [f"categories: side {losing[0]} cannot win {name!r} with the cards it captured"]
    return []


def _fit_problems(
    name: str,
    values: tuple[int, ...],
    row: tuple[int, ...],
    counts: tuple[int, ...],
    leftover: int,
) -> list[str]:
    """Whether the cards worth `values` (those worth points) could make `row`.

    Each side gets a share of those cards, no more than the cards it
    captured, the rest going to nobody (at most `leftover` of them); each
    side's share must be worth exactly its points. Searched exactly over the
    sums each side can still reach when at most `_MAX_VALUED` cards are worth
    points and the search stays within `_MAX_FITS` partial splits; beyond
    that only the sums are checked, so the time per round stays bounded.
    """
    total = sum(values)
    if sum(row) > total:
        return [
            f"categories: {name!r} gives {sum(row)} points in all, and the cards are worth {total}"
        ]
    if leftover == 0 and sum(row) != total:
        message = (
            f"categories: {name!r} gives out the {total} points of the cards when none is left"
            f" over, not {sum(row)}"
        )
        return [message]
    if len(values) > _MAX_VALUED:
        return []
    sides = len(row)
    # A split: the points each side has so far, the cards it has so far, those left over.
    splits = {((0,) * sides, (0,) * sides, 0)}
    for value in sorted(values, reverse=True):
        grown = set()
        for got, held, left in splits:
            if left < leftover:
                grown.add((got, held, left + 1))
            for s in range(sides):
                if held[s] < counts[s] and got[s] + value <= row[s]:
                    grown.add(
                        (
                            got[:s] + (got[s] + value,) + got[s + 1 :],
                            held[:s] + (held[s] + 1,) + held[s + 1 :],
                            left,
                        )
                    )
        splits = grown
        if not splits:
            break
        if len(splits) > _MAX_FITS:
            return []
    if not any(got == row for got, _, _ in splits):
        return [f"categories: no split of the cards gives {name!r} {_row_text(row)}"]
    return []


_MAX_FITS = 256
"""Partial splits searched by `_fit_problems` before it settles for the sums."""
_MAX_VALUED = 16
"""Cards worth points on a line, at most, for `_fit_problems` to search their splits."""


@attrs.frozen(kw_only=True)
class NamedPoints(_Immutable):
    """Points for given cards, scored under a name: Cassino's big casino, Scopa's settebello.

    Examples:
        >>> import xeri
        >>> ten = xeri.Card.parse("10♦")
        >>> big = xeri.NamedPoints(name="big casino", points=xeri.PointsTable(cards={ten: 2}))
        >>> big.award(((ten,), ()), ((), ()), xeri.GREEK), big.most(xeri.GREEK)
        ((2, 0), 2)
    """

    name: str
    """The line's name."""
    points: PointsTable
    """The points of each card: by rank, plus extra points for single cards."""

    additive: ClassVar[bool] = True
    """Capability: a side's points are those of each capture added up."""

    def __attrs_post_init__(self) -> None:
        _check_name("NamedPoints", self.name)
        if not isinstance(self.points, PointsTable):
            raise RuleSetError(
                f"NamedPoints.points must be a PointsTable, not {_show(self.points)}"
            )

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
    ) -> tuple[int, ...]:
        """The points of the cards each side captured."""
        return tuple(map(self.points.count, captured))

    def most(self, rules: RuleSet) -> int:
        """The points of the whole deck."""
        return self.points.count(rules.deck)

    def check_points(
        self, points: tuple[int, ...], result: RoundResult, rules: RuleSet
    ) -> list[str]:
        """Whether the captured cards could be worth `points` (see [`Category`][xeri.Category]).

        The cards worth points are shared out among the sides, each getting
        no more than it captured and the rest going to nobody: a named card
        never scores for two sides, and the line adds up to the deck's
        points when no card is left over.
        """
        values = tuple(v for v in map(self.points.points, rules.deck) if v)
        return _fit_problems(self.name, values, points, result.cards, result.leftover)


def _plural(suit: Suit) -> str:
    return suit.name.lower()


@attrs.frozen(kw_only=True)
class MostOfSuit(_Immutable):
    """`points` to the side that captured the most cards of a suit: most spades in Cassino.

    Examples:
        >>> import xeri
        >>> spades = xeri.MostOfSuit(suit=xeri.Suit.SPADES)
        >>> spades.name, spades.award((xeri.DECK[:26], xeri.DECK[26:]), ((), ()), xeri.GREEK)
        ('most spades', (0, 1))
    """

    suit: Suit
    """The suit counted."""
    points: int = 1
    """The points for the most cards of the suit."""
    tie: MajorityTie = MajorityTie.NOBODY
    """Who scores when several sides have the most: nobody, or a split rounded down."""
    name: str = attrs.field()
    """The line's name; `"most spades"` and the like by default."""

    @name.default
    def _name(self) -> str:
        return f"most {_plural(self.suit)}" if isinstance(self.suit, Suit) else "most"

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.suit, Suit):
            raise RuleSetError(f"MostOfSuit.suit must be a Suit, not {_show(self.suit)}")
        _check_points("MostOfSuit", self.points)
        if not isinstance(self.tie, MajorityTie):
            raise RuleSetError(f"MostOfSuit.tie must be a MajorityTie, not {_show(self.tie)}")
        _check_name("MostOfSuit", self.name)

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
    ) -> tuple[int, ...]:
        """`points` to the side with strictly the most cards of the suit (ties as `tie` says)."""
        suit = self.suit
        counts: list[int | None] = [sum(c.suit is suit for c in cards) for cards in captured]
        return _unique_best(counts, self.points, self.tie)

    def most(self, rules: RuleSet) -> int:
        """`points`."""
        return self.points

    def check_points(
        self, points: tuple[int, ...], result: RoundResult, rules: RuleSet
    ) -> list[str]:
        """`points` to one side (or a split share on a tie), as the cards captured allow.

        The cards of the suit that each side could hold are bounded by the
        cards it captured, and all but those left over went to some side:
        the line must come from such a share (a side of one card cannot
        have most spades when every other spade was captured by another).
        """
        problems = _best_problems(
            self.name, points, self.points, self.tie, [n > 0 for n in result.cards]
        )
        if problems:
            return problems
        suit = sum(c.suit is self.suit for c in rules.deck)
        if not _suit_share_possible(points, self.points, self.tie, suit, result):
            message = (
                f"categories: no share of the {suit} {_plural(self.suit)} among cards"
                f" {_row_text(result.cards)} gives {self.name!r} {_row_text(points)}"
            )
            return [message]
        return []


def _suit_share_possible(
    row: tuple[int, ...], points: int, tie: MajorityTie, suit: int, result: RoundResult
) -> bool:
    """Whether some share of a suit's `suit` cards gives `row` (see `MostOfSuit.check_points`).

    Side `s` holds `a[s]` of them, from 0 to the cards it captured, and the
    others lie among the cards left over: `suit - leftover <= sum(a) <= suit`.
    A line for one side needs that side strictly ahead; a split share, or
    nothing, needs a tie at the top (nothing also comes from any tie under
    `NOBODY`, or a split share rounded down to 0).
    """
    counts, need = result.cards, suit - result.leftover
    sides = range(len(counts))

    def ahead(w: int) -> bool:  # w strictly ahead: the most it can hold, the others below
        top = min(counts[w], suit)
        if top == 0:
            return False
        return top + sum(min(counts[o], top - 1) for o in sides if o != w) >= need

    def tied(group: set[int]) -> bool:  # the sides of `group` tied at the top
        for v in range(min(*(counts[t] for t in group), suit // len(group)) + 1):
            if v == 0 and len(group) < len(counts):
                continue  # the others would need fewer than none
            others = sum(min(counts[o], v - 1) for o in sides if o not in group)
            if len(group) * v + others >= need:
                return True
        return False

    winners = {s for s in sides if row[s]}
    if len(winners) == 1:
        return ahead(next(iter(winners)))
    if winners:
        return tied(winners)
    # Nothing: a tie of sides whose share rounds to nothing, or any tie under NOBODY.
    groups = [{s for s in sides if mask >> s & 1} for mask in range(1, 1 << len(counts))]
    return any(
        len(g) > 1 and (tie is MajorityTie.NOBODY or points // len(g) == 0) and tied(g)
        for g in groups
    )


PRIMIERA_VALUES: tuple[tuple[Rank, int], ...] = (
    (Rank.ACE, 16),
    (Rank(2), 12),
    (Rank(3), 13),
    (Rank(4), 14),
    (Rank(5), 15),
    (Rank(6), 18),
    (Rank(7), 21),
    (Rank.JACK, 10),
    (Rank.QUEEN, 10),
    (Rank.KING, 10),
)
"""The usual primiera values: 7 = 21, 6 = 18, Ace = 16, 5 = 15, 4 = 14, 3 = 13, 2 = 12,
pictures 10 ([S5][rules-s5])."""


def _rank_values(value: object) -> tuple[tuple[Rank, int], ...]:
    pairs = dict(value) if isinstance(value, dict) else value
    if isinstance(pairs, dict):
        pairs = tuple(pairs.items())
    if not isinstance(pairs, (tuple, list)) or not all(
        isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], Rank) and _int_in(p[1], 0, 1000)
        for p in pairs
    ):
        raise RuleSetError("Primiera.values must be (Rank, int from 0 to 1000) pairs or a dict")
    if len({p[0] for p in pairs}) != len(pairs):
        raise RuleSetError("Primiera.values names a rank twice")
    return tuple(sorted(pairs))


@attrs.frozen(kw_only=True)
class Primiera(_Immutable):
    """Scopa's primiera: each side's best card of every suit, by primiera value, added up.

    A side that captured no card of some suit of the deck has no primiera.
    Of the others, the greatest sum scores `points`; a tie scores nobody.
    Ranks missing from `values` count 0.

    Examples:
        >>> import xeri
        >>> sevens = tuple(c for c in xeri.ITALIAN_DECK if c.rank == 7)
        >>> others = tuple(c for c in xeri.ITALIAN_DECK if c.rank != 7)
        >>> xeri.Primiera().award((sevens, others), ((), ()), xeri.GREEK)
        (1, 0)
    """

    points: int = 1
    """The points for the best primiera."""
    values: tuple[tuple[Rank, int], ...] = attrs.field(
        default=PRIMIERA_VALUES, converter=_rank_values
    )
    """The primiera value of each rank, as `(rank, value)` pairs (a dict is accepted)."""
    name: str = "primiera"
    """The line's name."""

    def __attrs_post_init__(self) -> None:
        _check_points("Primiera", self.points)
        _check_name("Primiera", self.name)

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
    ) -> tuple[int, ...]:
        """`points` to the side with strictly the best primiera."""
        value = dict(self.values)
        suits = {c.suit for c in rules.deck}
        sums: list[int | None] = []
        for cards in captured:
            best: dict[Suit, int] = {}
            for card in cards:
                v = value.get(card.rank, 0)
                if v >= best.get(card.suit, -1):
                    best[card.suit] = v
            sums.append(sum(best.values()) if best.keys() >= suits else None)
        return _unique_best(sums, self.points, MajorityTie.NOBODY)

    def most(self, rules: RuleSet) -> int:
        """`points`."""
        return self.points

    def check_points(
        self, points: tuple[int, ...], result: RoundResult, rules: RuleSet
    ) -> list[str]:
        """`points` to one side at most, which captured a card of every suit at least."""
        suits = len({c.suit for c in rules.deck})
        can_win = [n >= suits for n in result.cards]
        return _best_problems(self.name, points, self.points, MajorityTie.NOBODY, can_win)


@attrs.frozen(kw_only=True)
class Sweeps(_Immutable):
    """`points` for each xeri a side made, under a name of its own: Cassino's sweeps, Scopa's scope.

    Use it with `xeri_points=0` and `jack_xeri_points=0`, so that the sweeps
    are not counted twice.

    Examples:
        >>> import xeri
        >>> from xeri import XeriKind
        >>> xeri.Sweeps(name="scope").award(((), ()), ((XeriKind.XERI,) * 2, ()), xeri.GREEK)
        (2, 0)
    """

    points: int = 1
    """The points for each sweep."""
    name: str = "sweeps"
    """The line's name."""

    additive: ClassVar[bool] = True
    """Capability: a side's points are those of each capture added up."""

    def __attrs_post_init__(self) -> None:
        _check_points("Sweeps", self.points)
        _check_name("Sweeps", self.name)

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
    ) -> tuple[int, ...]:
        """`points` times the xeris each side made."""
        return tuple(len(made) * self.points for made in xeris)

    def most(self, rules: RuleSet) -> int:
        """`points` times the most sweeps a side can make: one a play, two cards each."""
        most_seats = max(map(rules.sides.count, set(rules.sides)))
        plays = rules.hand_size * rules.deals_per_round * most_seats
        return self.points * min(len(rules.deck) // 2, plays)

    def check_points(
        self, points: tuple[int, ...], result: RoundResult, rules: RuleSet
    ) -> list[str]:
        """`points` times the sweeps the result records for each side."""
        want = tuple(n * self.points for n in result.xeris)
        if points != want:
            message = (
                f"categories: {self.name!r} is {self.points} a sweep: {_row_text(want)} for the"
                f" sweeps {_row_text(result.xeris)}, not {_row_text(points)}"
            )
            return [message]
        return []


def _kinds(value: object) -> object:
    """Xeri kinds as a tuple sorted by value, once each; anything else as given."""
    if isinstance(value, XeriKind):
        value = (value,)
    if isinstance(value, (list, tuple, set, frozenset)) and all(
        isinstance(k, XeriKind) for k in value
    ):
        return tuple(sorted(set(value), key=lambda k: k.value))
    return value


_BOTH_KINDS = (XeriKind.JACK_XERI, XeriKind.XERI)


@attrs.frozen(kw_only=True)
class SweepPoints(_Immutable):
    """Points for each xeri (sweep) a side made, by what it took ([W4][rules-w4]).

    For each capture of the round that is a xeri of one of `kinds`, the side
    that made it scores `each`, plus what the card that made it is worth under
    `played`, plus what the cards it took are worth under `taken` (the card
    played is not one of them; a xeri that no card played made, a
    [`Take`][xeri.Take] whose `turn` is None, took all its cards). The
    category reads the round's captures one by one (the `needs_takes`
    capability of [`Category`][xeri.Category]). Use it
    beside `xeri_points`, or with `xeri_points=0` and `jack_xeri_points=0` for
    sweeps worth only what this line gives.

    Examples:
        A sweep worth the values of the cards it took, Ace 1 to King 13:

        >>> import xeri
        >>> values = xeri.PointsTable(ranks={rank: int(rank) for rank in xeri.Rank})
        >>> line = xeri.SweepPoints(taken=values)
        >>> three, four, seven = map(xeri.Card.parse, ["3♣", "4♦", "7♥"])
        >>> sweep = xeri.Take(seat=0, cards=(three, four, seven), xeri=xeri.XeriKind.XERI, turn=5)
        >>> plain = xeri.Take(seat=1, cards=(seven,) * 2, turn=6)
        >>> line.award(((three, four, seven), ()), ((xeri.XeriKind.XERI,), ()), xeri.GERMAN,
        ...            takes=(sweep, plain))
        (7, 0)
    """

    each: int = 0
    """The points of every sweep of the kinds counted."""
    played: PointsTable = PointsTable()
    """What the card that made the sweep adds, by its rank or itself (a sweep with the 7♦
    worth 10 more: `PointsTable(cards={Card.parse("7♦"): 10})`)."""
    taken: PointsTable = PointsTable()
    """What each card the sweep took adds."""
    kinds: tuple[XeriKind, ...] = attrs.field(default=_BOTH_KINDS, converter=_kinds)
    """The kinds of xeri counted: both by default."""
    name: str = "sweep points"
    """The line's name."""

    additive: ClassVar[bool] = True
    """Capability: a side's points are those of each capture added up."""
    needs_takes: ClassVar[bool] = True
    """Capability: `award` is given the round's captures, `takes` ([W4][rules-w4])."""

    def __attrs_post_init__(self) -> None:
        if not _int_in(self.each, 0, _MAX_POINTS):
            raise RuleSetError(
                f"SweepPoints.each must be an int from 0 to 1,000,000, not {_show(self.each)}"
            )
        for field in ("played", "taken"):
            if not isinstance(getattr(self, field), PointsTable):
                raise RuleSetError(
                    f"SweepPoints.{field} must be a PointsTable, not {_show(getattr(self, field))}"
                )
        kinds = self.kinds
        if not (type(kinds) is tuple and kinds and all(isinstance(k, XeriKind) for k in kinds)):
            raise RuleSetError(
                f"SweepPoints.kinds must be one or more XeriKinds, not {_show(kinds)}"
            )
        _check_name("SweepPoints", self.name)

    def _worth(self, cards: tuple[Card, ...], *, played: bool = True) -> int:
        """One sweep's points: the cards it took, the card that made it last when `played`."""
        if not cards:
            return self.each
        if not played:  # a xeri made by no card played (turn None): every card was taken
            return self.each + self.taken.count(cards)
        return self.each + self.played.points(cards[-1]) + self.taken.count(cards[:-1])

    def award(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
        *,
        takes: tuple[Take, ...] | None = None,
    ) -> tuple[int, ...]:
        """Each side's sweeps of the kinds counted, each worth what it took.

        Args:
            captured: the cards each side captured in the round.
            xeris: the xeris each side made.
            rules: the rule set.
            takes: the round's captures; None when they are not known, as for a
                [`preview`][xeri.preview] of one move: each side's cards are then read as
                one capture, the card played last, and each of its xeris as that capture.

        Returns:
            One int per side.
        """
        kinds = self.kinds
        if takes is None:
            return tuple(
                sum(self._worth(cards) for kind in made if kind in kinds)
                for cards, made in zip(captured, xeris, strict=True)
            )
        points = [0] * len(captured)
        sides = rules.sides
        for take in takes:
            if take.xeri is not None and take.xeri in kinds:
                points[sides[take.seat]] += self._worth(take.cards, played=take.turn is not None)
        return tuple(points)

    def most(self, rules: RuleSet) -> int:
        """The most one side's sweeps can be worth: each its card the best, and every card taken.

        The sweeps of a round take each card once, so their cards are worth at most the
        whole deck's points under `taken`.
        """
        deck = rules.deck
        best = max(self.played.points(c) for c in deck)
        return self._most_sweeps(rules) * (self.each + best) + self.taken.count(deck)

    def _most_sweeps(self, rules: RuleSet) -> int:
        """The most sweeps one side makes in a round: one a play, two cards each."""
        most_seats = max(map(rules.sides.count, set(rules.sides)))
        plays = rules.hand_size * rules.deals_per_round * most_seats
        return min(len(rules.deck) // 2, plays)

    def check_points(
        self, points: tuple[int, ...], result: RoundResult, rules: RuleSet
    ) -> list[str]:
        """The line against the sweeps the result records ([W4][rules-w4]).

        A side without xeris scores nothing here; a side's sweeps are worth at
        least `each` apiece when both kinds count and at most what its number of
        sweeps can take; the sweeps of all sides take each card once, so the
        line adds up to at most what every sweep's card and the whole deck are
        worth. A round still in a saved state is replayed from its captures,
        which checks the line exactly.
        """
        deck = rules.deck
        best = max(self.played.points(c) for c in deck)
        cards = self.taken.count(deck)
        every = set(self.kinds) == set(_BOTH_KINDS)
        p: list[str] = []
        for side, (got, made) in enumerate(zip(points, result.xeris, strict=True)):
            if made == 0 and got:
                p.append(f"categories: side {side} made no xeri, so {self.name!r} gives it 0")
            elif got > made * (self.each + best) + cards:
                p.append(
                    f"categories: {made} sweeps are worth at most "
                    f"{made * (self.each + best) + cards} on {self.name!r}, not {got}"
                    f" (side {side})"
                )
            elif every and got < made * self.each:
                p.append(
                    f"categories: {made} sweeps are worth at least {made * self.each} on"
                    f" {self.name!r}, not {got} (side {side})"
                )
        if not p and sum(points) > sum(result.xeris) * (self.each + best) + cards:
            p.append(
                f"categories: {self.name!r} gives {sum(points)} in all, more than the sweeps"
                " can take"
            )
        return p

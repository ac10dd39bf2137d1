"""How captured cards and xeris become points at the end of a round.

The points are data on the [`RuleSet`][xeri.RuleSet] (a
[`PointsTable`][xeri.PointsTable], the majority bonus and its tie rule, the
xeri bonuses); the [`Scorer`][xeri.Scorer] protocol turns them into a
[`RoundResult`][xeri.RoundResult]. [`StandardScorer`][xeri.StandardScorer]
serves every preset; write another scorer only for a scoring that the data
cannot say.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import Enum
from itertools import accumulate, repeat
from operator import add
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import attrs

from xeri._cards import DECK, Card, Rank
from xeri._errors import RuleSetError, _int_in, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _fast_maker, _Immutable, _repr

if TYPE_CHECKING:
    from xeri._core.state import Take
    from xeri._rules.ruleset import RuleSet

__all__ = [
    "MajorityTie",
    "PointsTable",
    "RoundResult",
    "Scorer",
    "StandardScorer",
]


class MajorityTie(Enum):
    """Who gets the majority bonus when the most cards are shared by several sides."""

    NOBODY = "nobody"
    """Nobody gets it ([G10][rules-g10], [D8][rules-d8]: 26–26 gives no majority)."""
    SPLIT = "split"
    """The tied sides share it, each getting the bonus divided by their number, rounded down."""


_MAX_POINTS = 2**53 - 1
"""The most points a table may give the whole deck (the largest integer JSON keeps exactly)."""


def _pairs(value: object, field: str) -> list[tuple[object, object]]:
    """The `(key, points)` pairs of a dict or of an iterable of pairs, unchecked."""
    if isinstance(value, Mapping):
        value = list(value.items())
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise RuleSetError(
            f"PointsTable.{field} must be a dict or (key, points) pairs, not {_show(value)}"
        )
    pairs: list[tuple[object, object]] = []
    for pair in value:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2:
            raise RuleSetError(f"PointsTable.{field} holds {_show(pair)}, not a (key, points) pair")
        pairs.append((pair[0], pair[1]))
    return pairs


def _checked_points(points: object, field: str, key: object) -> int:
    if not _int_in(points, 0, _MAX_POINTS):
        raise RuleSetError(
            f"PointsTable.{field}: the points of {key} must be an int from 0 to 2**53 - 1,"
            f" not {_show(points)}"
        )
    return points  # type: ignore[return-value]  # an int, checked above


def _rank_pairs(value: object) -> tuple[tuple[Rank, int], ...]:
    pairs: dict[Rank, int] = {}
    for key, points in _pairs(value, "ranks"):
        if not (isinstance(key, Rank) or _int_in(key, Rank.ACE, Rank.KING)):
            raise RuleSetError(f"PointsTable.ranks: {_show(key)} is not a Rank (or an int 1 to 13)")
        rank = Rank(key)  # type: ignore[arg-type]  # an int, checked above
        if rank in pairs:
            raise RuleSetError(f"PointsTable.ranks names {rank.name} twice")
        pairs[rank] = _checked_points(points, "ranks", rank.name)
    return tuple(sorted(pairs.items()))


def _points_pairs(value: object) -> tuple[tuple[Card, int], ...]:
    pairs: dict[Card, int] = {}
    for key, points in _pairs(value, "cards"):
        if not isinstance(key, Card):
            raise RuleSetError(f"PointsTable.cards: {_show(key)} is not a Card")
        if key in pairs:
            raise RuleSetError(f"PointsTable.cards names {key} twice")
        pairs[key] = _checked_points(points, "cards", key)
    return tuple(sorted(pairs.items(), key=lambda cp: cp[0].index))


@attrs.frozen(kw_only=True)
class PointsTable(_Immutable):
    """Points per captured card: by rank, plus extra points for single cards.

    A card's points are its rank's points plus its own extra points. The
    Greek table gives 1 to each A, K, Q, J, 10, one more to the 10♦ and 1 to
    the 2♣ ([G10][rules-g10]).

    Points are whole numbers from 0 up, and the whole deck is worth at most
    2**53 - 1 points; a key that is not a rank (or an int 1 to 13) or a card,
    a key given twice, or points that are not such an int raise
    [`RuleSetError`][xeri.RuleSetError] naming the field.

    Examples:
        >>> from xeri import Card, PointsTable, Rank
        >>> table = PointsTable(ranks={Rank.ACE: 1}, cards={Card.parse("10♦"): 2})
        >>> table.points(Card.parse("A♠")), table.points(Card.parse("10♦")), table.total
        (1, 2, 6)
        >>> PointsTable(cards={"AS": 5})
        Traceback (most recent call last):
        ...
        xeri.RuleSetError: PointsTable.cards: 'AS' is not a Card
    """

    ranks: tuple[tuple[Rank, int], ...] = attrs.field(default=(), converter=_rank_pairs)
    """Points for every card of a rank, as `(rank, points)` pairs (a dict is accepted)."""
    cards: tuple[tuple[Card, int], ...] = attrs.field(default=(), converter=_points_pairs)
    """Extra points for single cards, as `(card, points)` pairs (a dict is accepted)."""
    _by_card: dict[Card, int] = attrs.field(init=False, repr=False, eq=False)
    _fewest: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)
    _most: tuple[int, ...] = attrs.field(init=False, repr=False, eq=False)

    @_by_card.default
    def _compute(self) -> dict[Card, int]:
        by_rank = dict(self.ranks)
        extra = dict(self.cards)
        return {c: by_rank.get(c.rank, 0) + extra.get(c, 0) for c in DECK}

    @_fewest.default
    def _compute_fewest(self) -> tuple[int, ...]:
        return tuple(accumulate(sorted(self._by_card.values()), initial=0))

    @_most.default
    def _compute_most(self) -> tuple[int, ...]:
        return tuple(accumulate(sorted(self._by_card.values(), reverse=True), initial=0))

    def __attrs_post_init__(self) -> None:
        if self.total > _MAX_POINTS:
            raise RuleSetError(
                f"PointsTable: the deck is worth {self.total} points, more than 2**53 - 1"
            )

    def points(self, card: Card) -> int:
        """The points a card is worth when captured.

        Args:
            card: any card.

        Returns:
            Its rank's points plus its own extra points.
        """
        return self._by_card[card]

    def count(self, cards: tuple[Card, ...]) -> int:
        """The points of a group of cards.

        Args:
            cards: the cards, for instance one side's captures.

        Returns:
            The sum of their points.
        """
        return sum(map(self._by_card.__getitem__, cards))

    def _bounds(self, cards: int, deck: tuple[Card, ...] = DECK) -> tuple[int, int]:
        """The points of the `cards` least valuable cards of `deck` and of the most valuable."""
        if deck is DECK:
            return self._fewest[cards], self._most[cards]
        values = sorted(map(self._by_card.__getitem__, deck))
        return sum(values[:cards]), sum(values[len(values) - cards :])

    @property
    def total(self) -> int:
        """The points of the whole deck."""
        return self._most[-1]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its two tables; the per-card caches are computed again on loading.
        return (_points_table, (self.ranks, self.cards))


def _points_table(
    ranks: tuple[tuple[Rank, int], ...], cards: tuple[tuple[Card, int], ...]
) -> PointsTable:
    """A points table from its pairs: what an unpickled `PointsTable` is made by."""
    return PointsTable(ranks=ranks, cards=cards)


class _ResultSlots(_Immutable):
    """The slots of `RoundResult`, in a plain class, for `_make_result`.

    The engine makes a result at the end of every round; as for its states
    (see `xeri._core.state`), it fills these slots and then gives the value its
    real class, in a third of the keyword constructor's time.
    """

    __slots__ = (
        "__weakref__",
        "card_points",
        "cards",
        "categories",
        "leftover",
        "majority",
        "total",
        "xeri_bonus",
        "xeris",
    )


@attrs.frozen(kw_only=True, repr=False, weakref_slot=False)
class RoundResult(_ResultSlots):
    """The score sheet of one finished round; every field but `leftover` has one entry per side."""

    cards: tuple[int, ...]
    """How many cards each side captured."""
    card_points: tuple[int, ...]
    """Points for the cards captured, from the points table."""
    majority: tuple[int, ...]
    """The bonus for capturing the most cards (0 for the others, and for all on a tie)."""
    xeris: tuple[int, ...]
    """How many xeris each side made."""
    xeri_bonus: tuple[int, ...]
    """Points for xeris."""
    total: tuple[int, ...]
    """The round's points: card points + majority + xeri bonus."""
    leftover: int = 0
    """Cards left on the table that went to nobody, because nobody captured ([X1][rules-x1])."""
    categories: tuple[tuple[str, tuple[int, ...]], ...] = ()
    """The points of the rule set's named scoring [categories][xeri.RuleSet.categories],
    in its order, as `(name, points per side)` pairs; part of `total`. Empty for the presets
    of the Xeri family, which score with the fields above alone."""

    def __repr__(self) -> str:
        # The categories are shown only when the rule set has some: the results of the
        # Xeri family read as they always have.
        return _repr(self, {"categories": ()})

    @property
    def sheet(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Every line of the score sheet that gives points, by name, in order.

        `"card points"`, `"majority"` and `"xeri bonus"`, then the
        [categories][xeri.RoundResult.categories]; their sum is `total`.

        Examples:
            >>> import xeri
            >>> halves = (xeri.DECK[:26], xeri.DECK[26:])
            >>> result = xeri.GREEK.scorer.score(halves, ((), ()), xeri.GREEK)
            >>> for name, points in result.sheet:
            ...     print(f"{name:12} {points}")
            card points  (5, 17)
            majority     (0, 0)
            xeri bonus   (0, 0)
        """
        return (
            ("card points", self.card_points),
            ("majority", self.majority),
            ("xeri bonus", self.xeri_bonus),
            *self.categories,
        )

    @property
    def base(self) -> tuple[int, ...]:
        """Card points plus majority, without xeri bonuses (25 or 22 a round in Greek Xeri)."""
        return tuple(c + m for c, m in zip(self.card_points, self.majority, strict=True))

    @property
    def winner(self) -> int | None:
        """The side with strictly the most points in this round, or None on a tie."""
        best = max(self.total)
        sides = [s for s, t in enumerate(self.total) if t == best]
        return sides[0] if len(sides) == 1 else None


@runtime_checkable
class Scorer(Protocol):
    """Turns a finished round's captures into a [`RoundResult`][xeri.RoundResult].

    Implementations must be frozen attrs classes (so rule sets stay
    comparable and serialisable) and pure. Besides `score`, a scorer
    implements `check`, which says whether a result read from outside (a
    saved match's earlier rounds, which survive only as their results) is
    one it could have produced; a scorer that cannot tell returns `[]`.

    A scorer may declare one optional capability, as a class attribute:
    `needs_takes = True` when it scores from the round's captures one by
    one (which cards each took, by whom, of what kind of xeri); the round
    end then also passes `takes=`, the round's [`Take`][xeri.Take]s in order,
    the last capturer's collection of the cards left included
    ([W4][rules-w4]). Without it the round end hands over nothing more, so a
    round costs the same as before. The
    [`StandardScorer`][xeri.StandardScorer] is always given them, and hands
    them to each [category][xeri.Category] that declares the same capability.
    """

    def score(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
        *,
        leftover: int = 0,
    ) -> RoundResult:
        """Score one round.

        Args:
            captured: the cards each side captured.
            xeris: the xeris each side made.
            rules: the rule set, for its points table and bonuses.
            leftover: cards that went to nobody ([X1][rules-x1]).

        Returns:
            The round's result.
        """
        ...

    def check(self, result: RoundResult, rules: RuleSet) -> list[str]:
        """Every reason this scorer could not have produced `result` under `rules`.

        [`from_json`][xeri.from_json] calls it for every finished round of a
        state it reads, after checking what holds for every scorer (one entry
        per side, counts that are not negative, 52 cards in all, totals that
        are the sum of their parts). It must not raise, whatever numbers
        `result` holds, and its messages should name the side and the field.

        Args:
            result: a round's result, with one entry per side in every field.
            rules: the rule set the round was played under.

        Returns:
            Every problem found; empty if `score` could have given `result`
            (or if the scorer cannot tell).
        """
        ...


def _majority(counts: tuple[int, ...], rules: RuleSet) -> tuple[int, ...]:
    """The majority bonus of each side, from the cards each captured and the tie rule."""
    most = max(counts)
    tied = counts.count(most)
    shares = [0] * len(counts)
    if tied == 1:
        shares[counts.index(most)] = rules.majority_points
    elif rules.majority_tie is MajorityTie.SPLIT:
        share = rules.majority_points // tied
        for i, n in enumerate(counts):
            if n == most:
                shares[i] = share
    return tuple(shares)


_JACK_XERIS = 2
"""A jack xeri takes a Jack with a Jack: the deck's four Jacks make at most two a round."""


def _most_jack_xeris(rules: RuleSet) -> int:
    """The most jack xeris a round can give: two for each rank of four cards that makes them.

    A pile's jack xeri takes its sweeper's rank with the same ([G7][rules-g7]); a sum
    rule's, a card of one of its `jack_xeri_ranks` with another ([W3][rules-w3]). Two
    for any other rule, as before those ranks could be named. A sum rule whose
    sweepers make jack xeris ([W2][rules-w2]) may make one a play: then no bound
    below the deck's half.
    """
    capture = rules.capture
    sweepers = getattr(capture, "sweepers", ())
    if type(sweepers) is tuple and any(
        getattr(s, "xeri", None) is XeriKind.JACK_XERI for s in sweepers
    ):
        return len(rules.deck) // 2
    ranks = getattr(capture, "jack_xeri_ranks", ())
    return max(_JACK_XERIS, 2 * len(ranks)) if type(ranks) is tuple else _JACK_XERIS


@attrs.frozen(kw_only=True)
class StandardScorer(_Immutable):
    """Points table + majority bonus + xeri bonuses, read from the rule set.

    As [G10][rules-g10], [F7][rules-f7] and [D8][rules-d8] say.

    Examples:
        >>> import attrs, xeri
        >>> scorer = xeri.GREEK.scorer
        >>> result = scorer.score((xeri.DECK[:26], xeri.DECK[26:]), ((), ()), xeri.GREEK)
        >>> result.total, scorer.check(result, xeri.GREEK)
        ((5, 17), [])
        >>> forged = attrs.evolve(result, card_points=(111, 17), total=(111, 17))
        >>> for problem in scorer.check(forged, xeri.GREEK):
        ...     print(problem)
        side 0: 26 cards are worth 0 to 22 points, not 111
        the card points must add up to the 22 points of the deck when no card is left over, not 128
    """

    def score(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
        *,
        leftover: int = 0,
        takes: tuple[Take, ...] | None = None,
    ) -> RoundResult:
        """Score one round from the rule set's data; see [`Scorer.score`][xeri.Scorer.score].

        Args:
            captured: the cards each side captured.
            xeris: the xeris each side made.
            rules: the rule set, for its points table, bonuses and categories.
            leftover: cards that went to nobody ([X1][rules-x1]).
            takes: the round's captures in order ([W4][rules-w4]), handed to each
                category that declares `needs_takes`; None when not known (such a
                category then reads each side's cards as one capture, as for a
                [`preview`][xeri.preview] of one move).

        Returns:
            The round's result.
        """
        return _scored(captured, xeris, rules, leftover, takes)

    def check(self, result: RoundResult, rules: RuleSet) -> list[str]:
        """Every reason `score` could not have given `result` ([`Scorer.check`][xeri.Scorer.check]).

        Rule by rule: the cards captured and left over number 52; each side's
        card points are what its number of cards can be worth (0 up to the
        deck's points), and together they make the deck's points less what
        the cards left over can be worth ([X1][rules-x1]); the majority bonus
        goes as the card counts and the tie rule give it ([G10][rules-g10],
        [D8][rules-d8]); each side's xeris are at most its plays and half its
        cards, and its bonus is a number of xeris at `xeri_points` and of
        jack xeris at `jack_xeri_points`, at most two of these in all (they
        take four Jacks, [G7][rules-g7]; two for each rank of a sum rule's
        `jack_xeri_ranks`, [W3][rules-w3], and up to one a play where its
        sweepers make them, [W2][rules-w2]); each category's line is within its
        [`most`][xeri.Category.most] and, for a category with the
        `check_points` capability (every built-in one), consistent with the
        rest of the result (a sweeps line is the sweeps recorded times their
        points, a line that goes to one side never goes to two); the totals
        are card points + majority + xeri bonus + the categories. The bounds
        never refuse a result `score` gives; the few results they let
        through that no round gives (card points between the bounds that no
        set of cards is worth, more xeris than a round's play allows) still
        score within them.
        """
        sides = rules.num_sides
        rows = {f.name: getattr(result, f.name) for f in attrs.fields(RoundResult)}
        leftover = rows.pop("leftover")
        lines = rows.pop("categories")
        wrong = [
            name
            for name, row in rows.items()
            if type(row) is not tuple or len(row) != sides or any(type(v) is not int for v in row)
        ]
        if wrong or type(leftover) is not int:
            named = ", ".join(wrong) if wrong else "leftover"
            return [f"{named}: every score is an int, one per side ({sides})"]
        category_problems = _category_problems(lines, rules)
        if category_problems:
            return category_problems
        counts, points, majority = result.cards, result.card_points, result.majority
        xeris, bonus = result.xeris, result.xeri_bonus
        p: list[str] = []
        counted = min(*counts, *xeris, leftover) >= 0
        if not counted:
            p.append("counts of cards and xeris cannot be negative")
        elif sum(counts) + leftover != len(rules.deck):
            p.append(f"the cards captured and left over must add up to {len(rules.deck)}")
            counted = False
        p.extend(
            _card_point_problems(
                counts, points, leftover, rules.card_points, rules.deck, counted=counted
            )
        )
        want = _majority(counts, rules)
        if majority != want:
            p.append(
                f"the majority bonus for {_shows(counts)} cards is {want}, not {_shows(majority)}"
            )
        if min(xeris) >= 0:
            p.extend(_xeri_problems(counts, xeris, bonus, rules, counted=counted))
            if counted:
                p.extend(_category_fact_problems(result, rules))
        if result.total != tuple(map(sum, zip(*(row for _, row in result.sheet), strict=True))):
            p.append(_total_rule(rules))
        return p


_make_result = _fast_maker(RoundResult)
"""`RoundResult(...)` from trusted values, quickly, generated from its fields (`xeri._immutable`).
"""


def _scored(
    captured: tuple[tuple[Card, ...], ...],
    xeris: tuple[tuple[XeriKind, ...], ...],
    rules: RuleSet,
    leftover: int,
    takes: tuple[Take, ...] | None,
) -> RoundResult:
    """[`StandardScorer.score`][xeri.StandardScorer.score], its arguments by position.

    The one implementation of the standard scoring: the method calls it, and
    so does the round's end for the `StandardScorer` (every rollout ends here).
    Two sides without categories, the presets of the Xeri family, take a path
    that makes no tuple per line and no list per side: the same result, field
    by field, as the general path (`_scored_any`, which the tests compare it with).
    """
    if len(captured) == 2 and not rules.categories:  # two sides
        a, b = captured
        xa, xb = xeris
        # `PointsTable.count` of each side's cards, the sums made in C.
        worth = rules.card_points._by_card.__getitem__
        pa, pb = sum(map(worth, a)), sum(map(worth, b))
        na, nb = len(a), len(b)
        if na != nb:  # as `_majority`: the bonus to the side with more cards
            ma, mb = (rules.majority_points, 0) if na > nb else (0, rules.majority_points)
        elif rules.majority_tie is MajorityTie.SPLIT:
            ma = mb = rules.majority_points // 2
        else:
            ma = mb = 0
        ka, kb = len(xa), len(xb)
        if ka or kb:
            xeri, extra = rules.xeri_points, rules.jack_xeri_points - rules.xeri_points
            ba = ka * xeri + xa.count(XeriKind.JACK_XERI) * extra
            bb = kb * xeri + xb.count(XeriKind.JACK_XERI) * extra
        else:
            ba = bb = 0
        return _make_result(
            cards=(na, nb),
            card_points=(pa, pb),
            majority=(ma, mb),
            xeris=(ka, kb),
            xeri_bonus=(ba, bb),
            total=(pa + ma + ba, pb + mb + bb),
            leftover=leftover,
            categories=(),
        )
    return _scored_any(captured, xeris, rules, leftover, takes)


def _scored_any(
    captured: tuple[tuple[Card, ...], ...],
    xeris: tuple[tuple[XeriKind, ...], ...],
    rules: RuleSet,
    leftover: int,
    takes: tuple[Take, ...] | None,
) -> RoundResult:
    """The standard scoring for any number of sides, the rule set's categories included."""
    counts = tuple(map(len, captured))
    # `PointsTable.count` of each side's cards, the sums made in C: the round's
    # end of every rollout comes here.
    worth = rules.card_points._by_card.__getitem__
    card_points = tuple(map(sum, map(map, repeat(worth), captured)))
    majority = _majority(counts, rules)
    made = tuple(map(len, xeris))
    if any(made):
        xeri, jack = rules.xeri_points, rules.jack_xeri_points
        bonus = tuple(len(ks) * xeri + ks.count(XeriKind.JACK_XERI) * (jack - xeri) for ks in xeris)
    else:
        bonus = made  # all zero
    total = tuple(map(add, map(add, card_points, majority), bonus))
    lines: tuple[tuple[str, tuple[int, ...]], ...] = ()
    if rules.categories:
        lines = tuple(
            (
                c.name,
                c.award(captured, xeris, rules, takes=takes)  # type: ignore[call-arg]  # its needs_takes capability
                if getattr(c, "needs_takes", False) is True
                else c.award(captured, xeris, rules),
            )
            for c in rules.categories
        )
        total = tuple(map(sum, zip(total, *(points for _, points in lines), strict=True)))
    return _make_result(
        cards=counts,
        card_points=card_points,
        majority=majority,
        xeris=made,
        xeri_bonus=bonus,
        total=total,
        leftover=leftover,
        categories=lines,
    )


def _total_rule(rules: RuleSet) -> str:
    """The message for a total that is not the sum of the score sheet's lines."""
    extra = " + the categories" if rules.categories else ""
    return f"a total must be card points + majority + xeri bonus{extra}"


def _category_problems(lines: object, rules: RuleSet) -> list[str]:
    """The categories: the rule set's names in its order, each side's points within bounds."""
    names = tuple(c.name for c in rules.categories)
    sides = rules.num_sides
    if not (
        type(lines) is tuple
        and len(lines) == len(names)
        and all(type(line) is tuple and len(line) == 2 for line in lines)
    ):
        return [f"categories must be one (name, points) line for each of {list(names)}"]
    p: list[str] = []
    for (name, row), category, want in zip(lines, rules.categories, names, strict=True):
        if name != want:
            p.append(f"categories: the line {_show(name)} must be {want!r}")
        elif not (type(row) is tuple and len(row) == sides and all(type(v) is int for v in row)):
            p.append(f"categories: {want!r} must give an int to each of the {sides} sides")
        elif not all(0 <= v <= category.most(rules) for v in row):
            p.append(f"categories: {want!r} gives from 0 to {category.most(rules)} points a side")
    return p


def _category_fact_problems(result: RoundResult, rules: RuleSet) -> list[str]:
    """Each category's line against the rest of the result, by its `check_points` capability.

    See [`Category`][xeri.Category]; called once the result's counts are sound
    (one int per side, cards adding up, xeris within a round's plays).
    """
    p: list[str] = []
    for category, (_, row) in zip(rules.categories, result.categories, strict=True):
        check = getattr(category, "check_points", None)
        if not callable(check):
            continue
        try:
            found = check(row, result, rules)
        except Exception as exc:  # a category of one's own may fail on data from outside
            found = [f"categories: {category.name!r} cannot check its line ({type(exc).__name__})"]
        if not isinstance(found, list) or not all(isinstance(x, str) for x in found):
            found = [f"categories: the check of {category.name!r} does not return messages"]
        p.extend(found)
    return p


def _shows(row: tuple[int, ...]) -> str:
    return f"({', '.join(map(_show, row))})"


def _card_point_problems(
    counts: tuple[int, ...],
    points: tuple[int, ...],
    leftover: int,
    table: PointsTable,
    deck: tuple[Card, ...],
    *,
    counted: bool,
) -> list[str]:
    """The card points: each side's within what its cards can be worth, their sum the deck's."""
    p: list[str] = []
    total = table.count(deck)
    for side, (n, got) in enumerate(zip(counts, points, strict=True)):
        low, high = table._bounds(n, deck) if counted else (0, total)
        if not low <= got <= high:
            held = f"{n} cards are" if counted else "the cards captured are"
            p.append(f"side {side}: {held} worth {low} to {high} points, not {_show(got)}")
    if not counted:
        return p
    got = sum(points)
    if leftover == 0:
        if got != total:
            p.append(
                f"the card points must add up to the {total} points of the deck when no card "
                f"is left over, not {_show(got)}"
            )
    else:
        fewest, most = table._bounds(leftover, deck)
        if not total - most <= got <= total - fewest:
            p.append(
                f"with {leftover} cards left over the card points add up to {total - most} to "
                f"{total - fewest}, not {_show(got)}"
            )
    return p


def _xeri_problems(
    counts: tuple[int, ...],
    xeris: tuple[int, ...],
    bonus: tuple[int, ...],
    rules: RuleSet,
    *,
    counted: bool,
) -> list[str]:
    """The xeris: at most a side's plays and half its cards; bonuses that they can make."""
    p: list[str] = []
    plays_per_seat = rules.hand_size * rules.deals_per_round
    xeri, jack = rules.xeri_points, rules.jack_xeri_points
    most_jacks = _most_jack_xeris(rules)
    jacks_needed = 0
    for side, (made, got) in enumerate(zip(xeris, bonus, strict=True)):
        plays = plays_per_seat * len(rules.seats_of(side))
        if made > plays:
            p.append(f"side {side} plays {plays} cards a round: it cannot make {_show(made)} xeris")
            continue
        if counted and 2 * made > counts[side]:
            p.append(
                f"side {side} made {made} xeris, which take at least {2 * made} cards,"
                f" but captured {counts[side]}"
            )
        # The bonus of each possible number of jack xeris; the fewest kept for a bonus.
        jacks = reversed(range(min(made, most_jacks) + 1))
        can = {made * xeri + j * (jack - xeri): j for j in jacks}
        if got not in can:
            worth = " or ".join(map(str, sorted(can)))
            p.append(f"side {side}: {made} xeris are worth {worth} points, not {_show(got)}")
        else:
            jacks_needed += can[got]
    if jacks_needed > most_jacks == _JACK_XERIS:
        p.append("the bonuses need more than two jack xeris, and four Jacks make at most two")
    elif jacks_needed > most_jacks:
        p.append(
            f"the bonuses need more than {most_jacks} jack xeris, and the ranks that make them"
            f" make at most {most_jacks}"
        )
    return p

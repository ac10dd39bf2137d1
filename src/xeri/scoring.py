"""How captured cards and xeris become points at the end of a round.

The points are data on the [`RuleSet`][xeri.RuleSet] (a
[`PointsTable`][xeri.PointsTable], the majority bonus and its tie rule, the
xeri bonuses); the [`Scorer`][xeri.Scorer] protocol turns them into a
[`RoundResult`][xeri.RoundResult]. [`StandardScorer`][xeri.StandardScorer]
serves every preset; write another scorer only for a scoring that the data
cannot say.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

from xeri.capture import XeriKind
from xeri.cards import DECK, Card, Rank

if TYPE_CHECKING:
    from xeri.rules import RuleSet

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
    """Nobody gets it (G10, D8: 26–26 gives no majority)."""
    SPLIT = "split"
    """The tied sides share it, each getting the bonus divided by their number, rounded down."""


def _points_pairs(value: object) -> tuple[tuple[Card, int], ...]:
    if isinstance(value, dict):
        value = value.items()
    return tuple(sorted(((c, p) for c, p in value), key=lambda cp: cp[0].index))  # type: ignore[attr-defined]  # validated by PointsTable


def _rank_pairs(value: object) -> tuple[tuple[Rank, int], ...]:
    if isinstance(value, dict):
        value = value.items()
    return tuple(sorted(((Rank(r), p) for r, p in value), key=lambda rp: rp[0]))  # type: ignore[attr-defined]  # validated by PointsTable


@attrs.frozen(kw_only=True)
class PointsTable:
    """Points per captured card: by rank, plus extra points for single cards.

    A card's points are its rank's points plus its own extra points. The
    Greek table gives 1 to each A, K, Q, J, 10, one more to the 10♦ and 1 to
    the 2♣ (G10).

    Examples:
        >>> from xeri import Card, PointsTable, Rank
        >>> table = PointsTable(ranks={Rank.ACE: 1}, cards={Card.parse("10♦"): 2})
        >>> table.points(Card.parse("A♠")), table.points(Card.parse("10♦")), table.total
        (1, 2, 6)
    """

    ranks: tuple[tuple[Rank, int], ...] = attrs.field(default=(), converter=_rank_pairs)
    """Points for every card of a rank, as `(rank, points)` pairs (a dict is accepted)."""
    cards: tuple[tuple[Card, int], ...] = attrs.field(default=(), converter=_points_pairs)
    """Extra points for single cards, as `(card, points)` pairs (a dict is accepted)."""
    _by_card: dict[Card, int] = attrs.field(init=False, repr=False, eq=False)

    @_by_card.default
    def _compute(self) -> dict[Card, int]:
        by_rank = dict(self.ranks)
        extra = dict(self.cards)
        return {c: by_rank.get(c.rank, 0) + extra.get(c, 0) for c in DECK}

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

    @property
    def total(self) -> int:
        """The points of the whole deck."""
        return sum(self._by_card.values())


@attrs.frozen(kw_only=True)
class RoundResult:
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
    """Cards left on the table that went to nobody, because nobody captured (X1)."""

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
    comparable and serialisable) and pure.
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
            leftover: cards that went to nobody (X1).

        Returns:
            The round's result.
        """
        ...


@attrs.frozen(kw_only=True)
class StandardScorer:
    """Points table + majority bonus + xeri bonuses, read from the rule set (G10, F7, D8)."""

    def score(
        self,
        captured: tuple[tuple[Card, ...], ...],
        xeris: tuple[tuple[XeriKind, ...], ...],
        rules: RuleSet,
        *,
        leftover: int = 0,
    ) -> RoundResult:
        """Score one round from the rule set's data; see [`Scorer.score`][xeri.Scorer.score]."""
        counts = tuple(map(len, captured))
        card_points = tuple(map(rules.card_points.count, captured))
        most = max(counts)
        tied = counts.count(most)
        if tied == 1:
            share = rules.majority_points
        elif rules.majority_tie is MajorityTie.SPLIT:
            share = rules.majority_points // tied
        else:
            share = 0
        majority = tuple(share if n == most else 0 for n in counts)
        xeri, jack = rules.xeri_points, rules.jack_xeri_points
        bonus = tuple(len(ks) * xeri + ks.count(XeriKind.JACK_XERI) * (jack - xeri) for ks in xeris)
        total = tuple(map(sum, zip(card_points, majority, bonus, strict=True)))
        return RoundResult(
            cards=counts,
            card_points=card_points,
            majority=majority,
            xeris=tuple(len(k) for k in xeris),
            xeri_bonus=bonus,
            total=total,
            leftover=leftover,
        )

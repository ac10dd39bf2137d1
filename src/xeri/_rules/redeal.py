"""When the initial table is dealt again: the [`RedealRule`][xeri.RedealRule] component.

A redeal rule looks at the initial table as dealt and says whether it must
be put back into the stock and dealt again ([G4][rules-g4], [F4][rules-f4]).
The [`Redeal`][xeri.Redeal] members are the Greek family's conditions;
[`RanksOnTable`][xeri.RanksOnTable] is Scopa's (three or more Kings); any
frozen, hashable attrs value with a `needed` method is a rule of its own:

    >>> import attrs, xeri
    >>> @attrs.frozen
    ... class TwoAces:
    ...     def needed(self, cards: tuple[xeri.Card, ...]) -> bool:
    ...         return sum(card.rank == xeri.Rank.ACE for card in cards) >= 2
    >>> aces = attrs.evolve(xeri.GREEK, name="greek-two-aces", redeal=TwoAces())
    >>> aces.redeal.needed(tuple(map(xeri.Card.parse, ["AC", "AD", "5S", "7H"])))
    True
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol, runtime_checkable

import attrs

from xeri._cards import Card, Rank
from xeri._errors import RuleSetError, _int_in, _show
from xeri._immutable import _Immutable

__all__ = ["RanksOnTable", "Redeal", "RedealRule"]


@runtime_checkable
class RedealRule(Protocol):
    """Whether an initial table must be dealt again.

    Implementations must be frozen attrs classes (so rule sets stay
    comparable and serialisable) and pure. A rule that always asks for a
    redeal cannot be played: [`new_game`][xeri.new_game] gives up after
    1,000 redeals in a row with a [`RuleSetError`][xeri.RuleSetError].
    A redeal rule reads every initial table card, so it cannot be combined
    with face-down table cards ([P3][rules-p3]).
    """

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether a table dealt as `cards` must be redealt.

        Args:
            cards: the initial table in the order dealt, the last card on top.

        Returns:
            True to put the table back into the stock and deal it again.
        """
        ...


class Redeal(Enum):
    """When the initial table is put back into the stock and dealt again.

    The rules of [G4][rules-g4], [F4][rules-f4] and [V2][rules-v2].
    """

    NEVER = "never"
    """No redeal: any initial table stands ([V2][rules-v2], [D2][rules-d2])."""
    TOP_JACK_OR_TOP_PAIR = "top jack or top pair"
    """The top card is a Jack, or the top two cards have equal rank ([G4][rules-g4])."""
    TOP_JACK_OR_ANY_PAIR = "top jack or any pair"
    """The top card is a Jack, or any two of the table cards have equal rank ([F4][rules-f4])."""

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether a table dealt as `cards` must be redealt.

        Args:
            cards: the initial table in the order dealt, the last card on top.

        Returns:
            True when the condition of this member holds.
        """
        if self is Redeal.NEVER or not cards:
            return False
        if cards[-1].rank is Rank.JACK:
            return True
        if self is Redeal.TOP_JACK_OR_TOP_PAIR:
            return len(cards) >= 2 and cards[-1].rank is cards[-2].rank
        return len({c.rank for c in cards}) < len(cards)


@attrs.frozen(kw_only=True)
class RanksOnTable(_Immutable):
    """Redeal when `count` or more cards of `rank` lie on the initial table.

    Scopa's rule ([S2][rules-s2]): three or four Kings on the table are dealt again.

    Examples:
        >>> import xeri
        >>> kings = xeri.RanksOnTable(rank=xeri.Rank.KING, count=3)
        >>> table = tuple(map(xeri.Card.parse, ["KC", "KD", "5S", "KH"]))
        >>> kings.needed(table), kings.needed(table[:3])
        (True, False)
    """

    rank: Rank
    """The rank counted."""
    count: int
    """How many cards of the rank make a redeal, from 1 to 4."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rank, Rank):
            raise RuleSetError(f"RanksOnTable.rank must be a Rank, not {_show(self.rank)}")
        if not _int_in(self.count, 1, 4):
            raise RuleSetError(
                f"RanksOnTable.count must be an int from 1 to 4, not {_show(self.count)}"
            )

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether `count` or more of the table cards have the rank."""
        rank = self.rank
        return sum(card.rank is rank for card in cards) >= self.count

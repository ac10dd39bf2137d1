"""How a played card takes cards: the [`CaptureRule`][xeri.CaptureRule] protocol.

A capture rule is one of the few behaviours that truly differ between the
families of the game. It sees plain values (the table, the mover's hand and
seat, the move) and never a whole game state. The built-ins are
[`PileCapture`][xeri.PileCapture] (Greek family: one pile, the top card
matches, a Jack sweeps) and [`SumCapture`][xeri.SumCapture] (German Xeri:
sums, builds and raises, in `xeri.building`).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import attrs

from xeri.cards import Card, Rank
from xeri.errors import IllegalMoveError, RuleSetError
from xeri.moves import PlayerMove
from xeri.scoring import XeriKind
from xeri.table import TableItem, item_cards

__all__ = ["CaptureRule", "PileCapture", "PlayOutcome"]

PlayOutcome = tuple[
    tuple[Card, ...], tuple[TableItem, ...], "tuple[Card, ...] | None", "XeriKind | None"
]
"""What a play does: the mover's new hand, the new table, the cards taken
(None if nothing was taken) and the kind of xeri (None if none)."""


@runtime_checkable
class CaptureRule(Protocol):
    """How cards are played and captured.

    Implementations must be frozen attrs classes (so rule sets stay
    comparable and serialisable), pure, and list moves sorted.
    """

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """Every legal move of a seat, sorted, without duplicates.

        Must not be empty while the hand holds a card.

        Args:
            table: the table items, in the order the rule keeps them.
            hand: the mover's hand, sorted in deck order.
            seat: the mover's seat.

        Returns:
            The legal moves; each plays exactly one card of `hand`.
        """
        ...

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> PlayOutcome:
        """Apply a move: the new hand, the new table, the cards taken and the xeri.

        Args:
            table: the table items before the move.
            hand: the mover's hand before the move.
            seat: the mover's seat.
            move: the move submitted, not yet known to be legal.

        Returns:
            The mover's hand without the card played, the new table, the cards
            taken (capturing card last; None if nothing was taken) and the
            kind of xeri (None if none).

        Raises:
            IllegalMoveError: the move is not legal here; the message names why
                and never names a card the mover cannot see.
        """
        ...

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """Every card on the table, builds flattened, in the order they lie.

        Args:
            table: the table items.

        Returns:
            The cards, for conservation checks and the last capture (G9, D7).
        """
        ...


def _to_rank(value: Rank | int | None) -> Rank | None:
    """The sweeper as a `Rank` (so `is` comparisons hold), or None."""
    if value is None or isinstance(value, Rank):
        return value
    if type(value) is int and 1 <= value <= 13:  # the thirteen ranks
        return Rank(value)
    raise RuleSetError(f"PileCapture.sweeper must be a Rank or None, not {value!r}")


@attrs.frozen(kw_only=True)
class PileCapture:
    """One central pile: the top card's rank takes it, the sweeper takes any pile (G6, G7).

    * empty pile: the card starts a new pile, taking nothing, even the sweeper;
    * same rank as the top card: the whole pile is taken with the card played;
      if the pile was one card, that is a xeri (a jack xeri when both are the
      sweeper's rank);
    * the sweeper on a non-empty pile: the whole pile is taken, a xeri only
      as above;
    * otherwise the card becomes the new top.
    """

    sweeper: Rank | None = attrs.field(default=Rank.JACK, converter=_to_rank)
    """The rank that takes any non-empty pile (the Jack); None for no sweeper."""

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """The hand itself: in a pile game the move is the card played (hands are kept sorted)."""
        return hand

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> PlayOutcome:
        """Play the move's card onto the pile; see the class docstring."""
        if move.__class__ is not Card:
            raise IllegalMoveError(
                f"{type(move).__name__} is not a move of a pile game: the move is the card played"
            )
        card: Card = move  # type: ignore[assignment,unused-ignore]  # a Card by the class test
        try:
            i = hand.index(card)
        except ValueError:
            raise IllegalMoveError(f"{card} is not in the hand of seat {seat}") from None
        rest = hand[:i] + hand[i + 1 :]
        if table:
            top = table[-1]
            rank = card.rank
            if rank is top.rank:  # type: ignore[union-attr]  # a pile holds cards only
                if len(table) == 1:
                    kind = XeriKind.JACK_XERI if rank is self.sweeper else XeriKind.XERI
                    return rest, (), (top, card), kind  # type: ignore[return-value]  # a pile holds cards only
                return rest, (), table + (card,), None  # type: ignore[return-value]  # a pile holds cards only
            if rank is self.sweeper:
                return rest, (), table + (card,), None  # type: ignore[return-value]  # a pile holds cards only
        return rest, table + (card,), None, None

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """The pile, bottom card first."""
        return tuple(c for item in table for c in item_cards(item))

"""The Greek family's capture rule: [`PileCapture`][xeri.PileCapture], one pile."""

from __future__ import annotations

from typing import ClassVar

import attrs

from xeri._cards import DECK, Card, Rank
from xeri._errors import IllegalMoveError, RuleSetError
from xeri._families.options import Option
from xeri._families.protocol import NO_NEEDS, HandNeeds, OutcomeTuple, XeriKind
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove
from xeri._table import TableItem, item_cards

__all__ = ["PILE_OPTIONS", "PileCapture"]

PILE_OPTIONS: tuple[Option, ...] = (
    Option(
        name="sweeper",
        default=Rank.JACK,
        since=1,
        kernel=True,
        words=None,
        doc="G6: the rank that takes any non-empty pile (the Jack); None for no sweeper.",
    ),
)
"""The table of `PileCapture`'s options: the only list of their names (see `Option`)."""


def _to_rank(value: Rank | int | None) -> Rank | None:
    """The sweeper as a `Rank` (so `is` comparisons hold), or None."""
    if value is None or isinstance(value, Rank):
        return value
    if type(value) is int and 1 <= value <= 13:  # the thirteen ranks
        return Rank(value)
    raise RuleSetError(f"PileCapture.sweeper must be a Rank or None, not {value!r}")


@attrs.frozen(kw_only=True)
class PileCapture(_Immutable):
    """One central pile: the top card's rank takes it, the sweeper takes any pile.

    The rules of [G6][rules-g6] and [G7][rules-g7]:

    * empty pile: the card starts a new pile, taking nothing, even the sweeper;
    * same rank as the top card: the whole pile is taken with the card played;
      if the pile was one card, that is a xeri (a jack xeri when both are the
      sweeper's rank);
    * the sweeper on a non-empty pile: the whole pile is taken, a xeri only
      as above;
    * otherwise the card becomes the new top.

    The move is the [`Card`][xeri.Card] played: the rule decides what it takes.
    """

    pile: ClassVar[bool] = True
    """Capability: one pile, matched at its top (see [`CaptureRule`][xeri.CaptureRule])."""

    OPTIONS: ClassVar[tuple[Option, ...]] = PILE_OPTIONS
    """The table of the options below (see [`Option`][xeri.Option])."""

    sweeper: Rank | None = attrs.field(default=Rank.JACK, converter=_to_rank)
    """The rank that takes any non-empty pile (the Jack); None for no sweeper."""

    def fast_path(self) -> bool:
        """Capability: whether [`rollout`][xeri.rollout] may play this rule with its fast loops.

        True when the class overrides neither `moves` nor `play`: a subclass
        that overrides nothing keeps the fast path. Every option is played there.

        Returns:
            Whether the pile loops play this rule exactly as the engine does.
        """
        cls = type(self)
        if cls.moves is not PileCapture.moves or cls.play is not PileCapture.play:
            return False
        return not any(o.differs(self) for o in self.OPTIONS if not o.kernel)

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """The hand itself: in a pile game the move is the card played (hands are kept sorted)."""
        return hand

    def count_moves(self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int) -> int:
        """The size of the hand: every card is a move."""
        return len(hand)

    def move_at(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, index: int
    ) -> PlayerMove:
        """The card `hand[index]`.

        Raises:
            IndexError: `index` is not from 0 to the size of the hand - 1.
        """
        if not 0 <= index < len(hand):
            raise IndexError(f"move index {index} out of range: {len(hand)} moves")
        return hand[index]

    def has_move(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> bool:
        """Whether `move` is a card of the hand."""
        return move.__class__ is Card and move in hand

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> OutcomeTuple:
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

    def needs(self, table: tuple[TableItem, ...], move: PlayerMove, seat: int) -> HandNeeds:
        """Nothing: any hand holding the card may play it."""
        return NO_NEEDS

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """The pile, bottom card first."""
        return tuple(c for item in table for c in item_cards(item))

    # -- integer actions (xeri.ActionEncoding) --

    def action_count(self) -> int:
        """52: the action of a move is the deck index of the card played."""
        return 52

    def target_count(self) -> int:
        """1: a card is played onto the pile, the one target."""
        return 1

    def action_of(self, move: PlayerMove, table: tuple[TableItem, ...], seat: int) -> int:
        """The deck index of the card played.

        Raises:
            IllegalMoveError: the move is not a card.
        """
        if move.__class__ is not Card:
            raise IllegalMoveError(
                f"{type(move).__name__} is not a move of a pile game: the move is the card played"
            )
        return move.index

    def move_of(
        self, action: int, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> PlayerMove:
        """The card of deck index `action`.

        Raises:
            IllegalMoveError: the card is not in the hand.
        """
        card = DECK[action]
        if card not in hand:
            raise IllegalMoveError(f"action {action} plays {card}, which is not in the hand")
        return card

    def action_parts(self, action: int) -> tuple[int, int]:
        """The card played, and the one target 0."""
        return action, 0

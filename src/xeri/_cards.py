"""Ranks, suits and the 52 cards of the French deck.

There are exactly 52 [`Card`][xeri.Card] objects: every way of naming a card
(`Card(rank=..., suit=...)`, [`Card.parse`][xeri.Card.parse], unpickling,
copying) returns one of them, so cards compare by identity and are cheap to
hash. [`DECK`][xeri.DECK] lists them in their sorting order: by rank, then
by suit.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, Protocol

import attrs

from xeri._errors import NotationError

__all__ = ["DECK", "ITALIAN_DECK", "PIQUET_DECK", "Card", "Rank", "Suit"]


class Rank(IntEnum):
    """The thirteen ranks; the value is the number printed on the card, pictures 11 to 13."""

    ACE = 1
    """The Ace: worth 1 in sums (German Xeri)."""
    TWO = 2
    """The Two."""
    THREE = 3
    """The Three."""
    FOUR = 4
    """The Four."""
    FIVE = 5
    """The Five."""
    SIX = 6
    """The Six."""
    SEVEN = 7
    """The Seven."""
    EIGHT = 8
    """The Eight."""
    NINE = 9
    """The Nine."""
    TEN = 10
    """The Ten."""
    JACK = 11
    """The Jack: sweeps the pile in the Greek family."""
    QUEEN = 12
    """The Queen."""
    KING = 13
    """The King."""

    @property
    def symbol(self) -> str:
        """The rank as printed in card names: `A`, `2` … `10`, `J`, `Q`, `K`."""
        return _RANK_SYMBOLS[self]

    @property
    def is_picture(self) -> bool:
        """True for Jack, Queen and King, which have no numeric value ([D1][rules-d1])."""
        return self >= Rank.JACK


class Suit(IntEnum):
    """The four suits. Suits never matter for capturing; some cards score by suit."""

    CLUBS = 0
    """Clubs, ♣ (`C`)."""
    DIAMONDS = 1
    """Diamonds, ♦ (`D`)."""
    HEARTS = 2
    """Hearts, ♥ (`H`)."""
    SPADES = 3
    """Spades, ♠ (`S`)."""

    @property
    def symbol(self) -> str:
        """The suit symbol: ♣ ♦ ♥ ♠."""
        return "♣♦♥♠"[self]

    @property
    def letter(self) -> str:
        """The ASCII letter of the suit: C D H S."""
        return "CDHS"[self]


_RANK_SYMBOLS = {r: str(int(r)) for r in Rank} | {
    Rank.ACE: "A",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
}
_RANK_BY_TEXT: dict[str, Rank] = {
    **{_RANK_SYMBOLS[r]: r for r in Rank},
    "T": Rank.TEN,
}
_SUIT_BY_TEXT: dict[str, Suit] = {
    **{s.symbol: s for s in Suit},
    **{s.letter: s for s in Suit},
    "♧": Suit.CLUBS,
    "♢": Suit.DIAMONDS,
    "♡": Suit.HEARTS,
    "♤": Suit.SPADES,
}


class _Printer(Protocol):
    def text(self, text: str, /) -> None: ...


@attrs.frozen(eq=False, init=False, repr=False)
class Card:
    """One of the 52 cards: `Card(rank=Rank.TEN, suit=Suit.DIAMONDS)` or `Card.parse("10♦")`.

    Cards are interned: equal cards are the same object. They sort in
    [`DECK`][xeri.DECK] order (by rank, then suit). `str(card)` is the short
    name (`"10♦"`); `repr(card)` is Python that gives the card back.

    Examples:
        >>> from xeri import Card, Rank, Suit
        >>> Card.parse("10D") is Card.parse("TD") is Card(rank=Rank.TEN, suit=Suit.DIAMONDS)
        True
        >>> str(Card.parse("js")), Card.parse("2c").rank
        ('J♠', <Rank.TWO: 2>)
    """

    rank: Rank
    """The rank of the card."""
    suit: Suit
    """The suit of the card."""
    index: int
    """The card's position in [`DECK`][xeri.DECK], 0 to 51: a fixed number for bots and arrays."""

    def __new__(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """Return the interned card of this rank and suit."""
        if (
            type(rank) not in (int, Rank)
            or type(suit) not in (int, Suit)
            or not 1 <= rank <= 13
            or not 0 <= suit <= 3
        ):
            raise NotationError(f"no card has rank {rank!r} and suit {suit!r}")
        return DECK[(rank - 1) * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card name: rank (`A 2 … 10 T J Q K`) then suit (`♣♦♥♠` or `CDHS`).

        Case and surrounding spaces are ignored.

        Args:
            text: the card's name, as `"10♦"`, `"10D"` or `"TD"`.

        Returns:
            The interned card.

        Raises:
            NotationError: the text names no card.
        """
        if not isinstance(text, str):
            raise NotationError(f"a card name must be a string, not {type(text).__name__}")
        t = text.strip().upper()
        rank = _RANK_BY_TEXT.get(t[:-1])
        suit = _SUIT_BY_TEXT.get(t[-1:])
        if rank is None or suit is None:
            raise NotationError(f"{text[:20]!r} is not a card name (try '10♦', '10D' or 'TD')")
        return DECK[(rank - 1) * 4 + suit]

    @classmethod
    def from_index(cls, index: int) -> Card:
        """Return the card at `index` of [`DECK`][xeri.DECK].

        Args:
            index: the position in the deck, 0 to 51.

        Returns:
            The interned card.

        Raises:
            NotationError: the index is not an int from 0 to 51.
        """
        if type(index) is not int or not 0 <= index < 52:
            raise NotationError(f"card index must be an int from 0 to 51, not {index!r}")
        return DECK[index]

    @property
    def card(self) -> Card:
        """The card itself: in a pile game a card is also the move that plays it."""
        return self

    @property
    def ascii(self) -> str:
        """The ASCII name of the card, as `10D` or `JS`."""
        return f"{self.rank.symbol}{self.suit.letter}"

    def __str__(self) -> str:
        return f"{self.rank.symbol}{self.suit.symbol}"

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def _repr_pretty_(self, printer: _Printer, cycle: bool) -> None:  # noqa: FBT001  # IPython's protocol
        """Print as `repr` does, for IPython and hypothesis's failing examples."""
        printer.text(repr(self))

    def __lt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index < other.index

    def __le__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index <= other.index

    def __gt__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index > other.index

    def __ge__(self, other: Card) -> bool:
        if type(other) is not Card:
            return NotImplemented
        return self.index >= other.index

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        # A module-level function pickles as one memoized reference; the bound
        # method `Card.from_index` would be written again for every card.
        return (_card_at, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self


def _card_at(index: int) -> Card:
    """The card at `index` of the deck, for unpickling (see `Card.__reduce__`)."""
    return Card.from_index(index)


def _make_deck() -> tuple[Card, ...]:
    cards = []
    for i in range(52):
        card = object.__new__(Card)
        object.__setattr__(card, "rank", Rank(i // 4 + 1))
        object.__setattr__(card, "suit", Suit(i % 4))
        object.__setattr__(card, "index", i)
        cards.append(card)
    return tuple(cards)


DECK: tuple[Card, ...] = _make_deck()
"""The 52 cards, sorted: A♣ A♦ A♥ A♠ 2♣ … K♠. A new round's deck is a permutation of it."""

ITALIAN_DECK: tuple[Card, ...] = tuple(c for c in DECK if c.rank not in (8, 9, 10))
"""The 40 cards of the Italian deck in French suits, without the 8s, 9s and 10s, sorted.

Scopa is played with it; give it to a rule set as
[`RuleSet.deck`][xeri.RuleSet.deck]."""

PIQUET_DECK: tuple[Card, ...] = tuple(c for c in DECK if c.rank == 1 or c.rank >= 7)
"""The 32 cards of the piquet deck: the Aces and the 7s to the Kings, sorted."""

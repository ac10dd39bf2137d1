"""The moves: what a player does on a turn, and what chance does between turns.

A player's move states the whole choice, so [`apply`][xeri.apply] needs no
further input:

* a [`Card`][xeri.Card] itself: play that card onto the pile (Greek family;
  the rules decide whether it captures, so the card is the whole choice);
* [`Capture`][xeri.Capture], [`Combine`][xeri.Combine] and
  [`Trail`][xeri.Trail]: take items, build or raise, or lay a free card
  (German Xeri).

Chance acts through [`Deal`][xeri.Deal] (a new round's deck) and
[`Reshuffle`][xeri.Reshuffle] (an initial-pile redeal), [X4][rules-x4]; or,
for frameworks that want chance nodes with few outcomes, one card at a
time through [`DealCard`][xeri.DealCard] (see [chance card by card][chance-card-by-card]).

Moves sort by the card they play, then by kind, then by what they take, so
[`legal_moves`][xeri.legal_moves] is sorted and stable.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from xeri._cards import DECK, Card
from xeri._immutable import _fast_maker, _Immutable
from xeri._table import TableItem, item_sort_key

__all__ = [
    "Capture",
    "ChanceMove",
    "Combine",
    "Deal",
    "DealCard",
    "Move",
    "PlayerMove",
    "Reshuffle",
    "Trail",
    "move_sort_key",
]


def _sorted_items(items: tuple[TableItem, ...] | list[TableItem]) -> tuple[TableItem, ...]:
    if len(items) < 2:
        return tuple(items)
    return tuple(sorted(items, key=item_sort_key))


class _Ordered(_Immutable):
    """Mixin: order moves by `move_sort_key`; copies are the move itself."""

    __slots__ = ()

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return move_sort_key(self) < move_sort_key(other)  # type: ignore[arg-type]  # every _Ordered is a Move

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, _Ordered):
            return NotImplemented
        return move_sort_key(self) > move_sort_key(other)  # type: ignore[arg-type]  # every _Ordered is a Move


class _CaptureSlots(_Ordered):
    """The slots of `Capture` in a plain class, for `_make_capture` (as `xeri._core.state` does)."""

    __slots__ = ("__weakref__", "card", "taken")


class _CombineSlots(_Ordered):
    """The slots of `Combine` in a plain class, for `_make_combine` (as `xeri._core.state` does)."""

    __slots__ = ("__weakref__", "also", "card", "onto", "value")


@attrs.frozen(kw_only=True, order=False, weakref_slot=False)
class Capture(_CaptureSlots):
    """Play a card and take table items with it (German Xeri, [D3][rules-d3]).

    `taken` is kept sorted (cards in deck order, then builds), so two captures
    of the same items are equal however the items were listed.
    """

    card: Card
    """The card played from the mover's hand."""
    taken: tuple[TableItem, ...] = attrs.field(converter=_sorted_items)
    """The table items taken: one equal card or build, or cards summing to the card's value."""

    @property
    def ascii(self) -> str:
        """The move in ASCII notation, as `7C x 3D+4S` or `8H x [3D+5S=8]`."""
        return f"{self.card.ascii} x {'+'.join(i.ascii for i in self.taken)}"

    def __str__(self) -> str:
        return f"{self.card} takes {'+'.join(map(str, self.taken))}"


@attrs.frozen(kw_only=True, order=False, repr=False, weakref_slot=False)
class Combine(_CombineSlots):
    """Lay a number card onto a table item and announce the sum (German Xeri, [D3][rules-d3]).

    Onto a loose card or one's own build this builds; onto the opponent's
    build it raises, and the mover becomes the build's owner. Under
    [`SumCapture(multi_builds=True)`][xeri.SumCapture.multi_builds] the card
    may be laid with several items (`also`), and the build may hold several
    groups of the announced value (Cassino's multiple builds).
    """

    card: Card
    """The number card played from the mover's hand."""
    onto: TableItem
    """The loose number card or build it is laid on (the first of the items, when there
    are several)."""
    value: int
    """The announced value, at most 10 (or the rule's largest value, [K2][rules-k2]): the
    item's value plus the card's, the builder naming which when a card has several; for a
    build of several items, the value of each of its groups (a multiple build of 9s
    holds 9)."""
    also: tuple[TableItem, ...] = attrs.field(default=(), converter=_sorted_items)
    """Further table items grouped into the same build (multi-card and multiple builds);
    empty in German Xeri. Kept sorted."""

    def __repr__(self) -> str:
        also = f", also={self.also!r}" if self.also else ""
        return f"Combine(card={self.card!r}, onto={self.onto!r}, value={self.value!r}{also})"

    @property
    def ascii(self) -> str:
        """The move in ASCII notation, as `2S on 3D+4C = 9`."""
        items = "+".join(i.ascii for i in (self.onto, *self.also))
        return f"{self.card.ascii} on {items} = {self.value}"

    def __str__(self) -> str:
        items = "+".join(map(str, (self.onto, *self.also)))
        return f"{self.card} on {items} makes {self.value}"


_make_capture = _fast_maker(Capture)
"""`Capture(...)` from trusted values, quickly, for `taken` already in the canonical order:
generated from its fields (`xeri._immutable`), the converter skipped."""
_make_combine = _fast_maker(Combine)
"""`Combine(...)` from trusted values, quickly: generated from its fields (`xeri._immutable`)."""


@attrs.frozen(kw_only=True, order=False)
class Trail(_Ordered):
    """Lay a free card on the table, taking nothing (German Xeri, [D3][rules-d3])."""

    card: Card
    """The card played from the mover's hand."""

    @property
    def ascii(self) -> str:
        """The move in ASCII notation, as `trail 5H`."""
        return f"trail {self.card.ascii}"

    def __str__(self) -> str:
        return f"{self.card} free"


@attrs.frozen(kw_only=True)
class Deal(_Immutable):
    """Chance: the deck of a new round, top card first, after shuffle and cut.

    See [X3][rules-x3] and [X4][rules-x4].
    """

    deck: tuple[Card, ...]
    """A permutation of the 52 cards; the first card is dealt first."""

    def __str__(self) -> str:
        return "deal"


@attrs.frozen(kw_only=True)
class Reshuffle(_Immutable):
    """Chance: an initial-pile redeal ([G4][rules-g4], [F4][rules-f4]).

    The pile cards go back into the stock; `stock` is the stock's new order,
    top first, and the next table cards are dealt from its top.
    """

    stock: tuple[Card, ...]
    """The new order of the stock with the old pile cards in it, top first."""

    def __str__(self) -> str:
        return "reshuffle"


@attrs.frozen(kw_only=True)
class DealCard(_Immutable):
    """Chance, card by card: the next card of a pending deal or redeal order.

    A [`Deal`][xeri.Deal] or a [`Reshuffle`][xeri.Reshuffle] chooses a whole
    order at once; a run of `DealCard` moves chooses the same order one card
    at a time, each uniformly among the cards not yet placed, and ends in
    exactly the state the whole move with that order gives
    ([X4][rules-x4]). [`chance_outcomes`][xeri.chance_outcomes] lists the
    cards that may come next; [chance card by card][chance-card-by-card] explains the two
    forms.
    """

    card: Card
    """The card placed next in the pending order."""

    def __str__(self) -> str:
        return "deal a card"


PlayerMove: TypeAlias = "Card | Capture | Combine | Trail"
"""A move made by the seat to move; every one has `.card` (a card's is itself)."""
ChanceMove: TypeAlias = "Deal | Reshuffle | DealCard"
"""A move made by chance: a whole order at once, or one card of it."""
Move: TypeAlias = "Card | Capture | Combine | Trail | Deal | Reshuffle | DealCard"
"""Any move [`apply`][xeri.apply] accepts."""

_KIND = {Card: 0, Capture: 1, Combine: 2, Trail: 3}


def move_sort_key(move: PlayerMove) -> tuple[object, ...]:
    """The key by which moves sort: card, kind, then what the move takes or builds."""
    kind = _KIND[type(move)]
    if isinstance(move, Card):
        return (move.index, kind)
    if isinstance(move, Capture):
        return (move.card.index, kind, tuple(item_sort_key(i) for i in move.taken))
    if isinstance(move, Combine):
        also = tuple(item_sort_key(i) for i in move.also) if move.also else ()
        return (move.card.index, kind, move.value, item_sort_key(move.onto), also)
    return (move.card.index, kind)


TRAILS: dict[Card, Trail] = {card: Trail(card=card) for card in DECK}
"""The 52 `Trail` moves, shared by move generators."""

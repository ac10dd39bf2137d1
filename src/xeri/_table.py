"""What lies on the table: loose cards and, in German Xeri, builds.

In the Greek family the table is one pile, bottom card first, and only its
top card matters. In German Xeri the cards lie side by side in the order
they were laid, and a [`Build`][xeri.Build] (combined cards announced as one
value, [D3][rules-d3]) is a single item among them.
"""

from __future__ import annotations

from typing import TypeAlias

import attrs

from xeri._cards import Card
from xeri._immutable import _fast_maker, _Immutable

__all__ = ["Build", "TableItem", "item_cards", "item_sort_key"]


class _BuildSlots(_Immutable):
    """The slots of `Build` in a plain class, for `_make_build` (as `xeri._core.state` does)."""

    __slots__ = ("__weakref__", "cards", "owner", "value")


@attrs.frozen(kw_only=True, weakref_slot=False)
class Build(_BuildSlots):
    """Cards combined on the table and announced as one value (German Xeri, [D3][rules-d3]).

    A build is taken only whole, by a card of exactly its value.
    """

    cards: tuple[Card, ...]
    """The cards of the build, in the order they were laid."""
    value: int
    """The announced value, 2 to 10 (or the rule's largest value, [K2][rules-k2])."""
    owner: int
    """The seat that made the build or raised it last."""

    @property
    def ascii(self) -> str:
        """The build in ASCII, as `[3D+5S=8]`."""
        return f"[{'+'.join(c.ascii for c in self.cards)}={self.value}]"

    def __str__(self) -> str:
        return f"[{'+'.join(map(str, self.cards))}={self.value}]"


_make_build = _fast_maker(Build)
"""`Build(...)` from trusted values, quickly: generated from its fields (`xeri._immutable`)."""


TableItem: TypeAlias = "Card | Build"
"""One item on the table: a loose card or a build."""


def item_cards(item: Card | Build) -> tuple[Card, ...]:
    """The cards an item is made of: the card itself, or a build's cards."""
    return (item,) if isinstance(item, Card) else item.cards


def item_sort_key(item: Card | Build) -> tuple[int, ...]:
    """A key that sorts table items: loose cards in deck order, then builds by value."""
    if isinstance(item, Card):
        return (0, item.index)
    return (1, item.value, item.owner, *(c.index for c in item.cards))

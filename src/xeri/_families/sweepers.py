"""Cards that take the whole table: [`Sweeper`][xeri.Sweeper], an option of the sum family.

In the pile family one rank sweeps ([`PileCapture.sweeper`][xeri.PileCapture.sweeper],
the Jack, [G6][rules-g6]). On an open table a rule set may name sweepers of
its own ([`SumCapture.sweepers`][xeri.SumCapture.sweepers]): Basra's Jacks
and its 7♦ take every item of a table that holds one, and the kind of xeri
each such sweep scores is the sweeper's ([W1][rules-w1], [W2][rules-w2]).
A card taking a lone card of its own rank may score the jack kind on an
open table too ([`SumCapture.jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks],
[W3][rules-w3]).

    >>> import xeri
    >>> jacks = xeri.Sweeper(cards=(xeri.Rank.JACK,))
    >>> [str(c) for c in jacks.cards], jacks.xeri
    (['J♣', 'J♦', 'J♥', 'J♠'], None)
"""

from __future__ import annotations

from collections.abc import Iterable

import attrs

from xeri._cards import DECK, Card, Rank
from xeri._errors import RuleSetError, _int_in, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._table import TableItem, item_cards

__all__ = ["Sweeper"]

_MOST = 1_000
"""The largest `xeri_up_to` a sweeper may name."""


def _sweeping_cards(value: object) -> object:
    """Cards and ranks (a rank: its cards of the 52), as cards sorted in deck order, once each.

    Anything that is not such an iterable is kept as given, for the checks to name.
    """
    if isinstance(value, (Card, Rank)):
        value = (value,)
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        return value
    items = list(value)
    if not all(isinstance(v, (Card, Rank)) for v in items):
        return tuple(items)
    cards = {c for v in items for c in ((v,) if isinstance(v, Card) else _of_rank(v))}
    return tuple(sorted(cards, key=_index))


def _of_rank(rank: Rank) -> tuple[Card, ...]:
    return tuple(c for c in DECK if c.rank is rank)


def _index(card: Card) -> int:
    return card.index


@attrs.frozen(kw_only=True)
class Sweeper(_Immutable):
    """Cards that take the whole table when played on it, and the xeri their sweep scores.

    An option of the sum family ([`SumCapture.sweepers`][xeri.SumCapture.sweepers]).
    Played on a table that holds something, a sweeper takes every item on
    it, builds included; that is its only move there. Played on an empty
    table it is laid free. A sweeper does not build, and as a table item it
    is an ordinary card ([W1][rules-w1]).

    Its sweep is a xeri of the kind `xeri` ([W2][rules-w2]): None (Basra's
    Jack, like the Greek Jack, scores nothing for a sweep), or a
    [`XeriKind`][xeri.XeriKind], when the cards it takes meet `xeri_up_to`.
    A sweeper taking a lone card of its own rank scores as
    [`jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks] says, whatever `xeri` is.

    Examples:
        >>> import xeri
        >>> seven = xeri.Card.parse("7♦")
        >>> xeri.Sweeper(cards=(seven,), xeri=xeri.XeriKind.XERI, xeri_up_to=10)
        Sweeper(cards=(Card.parse('7♦'),), xeri=<XeriKind.XERI: 'xeri'>, xeri_up_to=10)
        >>> xeri.Sweeper(cards=())
        Traceback (most recent call last):
        ...
        xeri.RuleSetError: Sweeper.cards must name at least one card
    """

    cards: tuple[Card, ...] = attrs.field(converter=_sweeping_cards)
    """The cards that sweep, sorted in deck order; a [`Rank`][xeri.Rank] given here
    stands for its four cards."""
    xeri: XeriKind | None = None
    """The kind of xeri a sweep with one of these cards is, or None for none."""
    xeri_up_to: int | None = None
    """When set, a sweep is a xeri only if every card it takes is a number card (one with
    a value under the rule's [`values`][xeri.SumCapture.values]) and their values add up
    to at most this (Basra's 7♦: 10); None: every sweep is."""

    def __attrs_post_init__(self) -> None:
        cards = self.cards
        if not (type(cards) is tuple and all(isinstance(c, Card) for c in cards)):
            raise RuleSetError(f"Sweeper.cards must be Cards or Ranks, not {_show(cards)}")
        if not cards:
            raise RuleSetError("Sweeper.cards must name at least one card")
        if self.xeri is not None and not isinstance(self.xeri, XeriKind):
            raise RuleSetError(f"Sweeper.xeri must be a XeriKind or None, not {_show(self.xeri)}")
        most = self.xeri_up_to
        if most is not None and not _int_in(most, 0, _MOST):
            raise RuleSetError(
                f"Sweeper.xeri_up_to must be None or an int from 0 to {_MOST:,}, not {_show(most)}"
            )

    def kind(self, taken: tuple[TableItem, ...], values: dict[Card, int | None]) -> XeriKind | None:
        """The kind of xeri a sweep of `taken` by one of these cards is ([W2][rules-w2]).

        Args:
            taken: every item of the table, taken.
            values: the value of each card in sums, None for a picture.

        Returns:
            `xeri`, or None when `xeri_up_to` is not met.
        """
        kind = self.xeri
        most = self.xeri_up_to
        if kind is None or most is None:
            return kind
        total = 0
        for item in taken:
            for card in item_cards(item):
                value = values[card]
                if value is None:
                    return None
                total += value
        return kind if total <= most else None


def _sweepers(value: object) -> object:
    """A list of sweepers as a tuple sorted by their first card; anything else as given."""
    if isinstance(value, Sweeper):
        value = (value,)
    if isinstance(value, list):
        value = tuple(value)
    if type(value) is tuple and all(isinstance(s, Sweeper) for s in value):
        return tuple(sorted(value, key=lambda s: s.cards[0].index))
    return value


def _ranks(value: object) -> object:
    """Ranks (or ints 1 to 13) as a tuple of `Rank`s sorted, once each; anything else as given."""
    if isinstance(value, (Rank, int)):
        value = (value,)
    if isinstance(value, (list, tuple, set, frozenset)) and all(
        isinstance(r, Rank) or (type(r) is int and 1 <= r <= 13)  # the thirteen ranks
        for r in value
    ):
        return tuple(sorted({Rank(r) for r in value}))
    return value


def _sweeper_problems(sweepers: object, ranks: object) -> list[str]:
    """What is wrong with a sum rule's `sweepers` and `jack_xeri_ranks`."""
    p: list[str] = []
    if not (type(sweepers) is tuple and all(isinstance(s, Sweeper) for s in sweepers)):
        p.append(f"SumCapture.sweepers must be a tuple of Sweeper values, not {_show(sweepers)}")
    else:
        seen: set[Card] = set()
        for s in sweepers:
            twice = seen.intersection(s.cards)
            if twice:
                first = min(twice, key=_index)
                p.append(f"SumCapture.sweepers names {first} in two sweepers")
            seen.update(s.cards)
    if not (type(ranks) is tuple and all(isinstance(r, Rank) for r in ranks)):
        p.append(f"SumCapture.jack_xeri_ranks must be a tuple of Ranks, not {_show(ranks)}")
    return p


def _by_card(sweepers: tuple[Sweeper, ...]) -> dict[Card, Sweeper]:
    """Each sweeping card's sweeper (empty for bad values, which the rule refuses)."""
    if type(sweepers) is not tuple:
        return {}
    return {c: s for s in sweepers if isinstance(s, Sweeper) for c in s.cards}

"""Where the cards hidden from one seat lie, and states that seat cannot tell apart.

What a seat sees is decided by [`observe`][xeri.observe] alone
([X2][rules-x2], [P3][rules-p3]); this module reads it off an observation
instead of restating the rules. An [`Observation`][xeri.Observation] counts
the other hands and the stock without showing them, and shows a suffix of
the table and of each capture: whatever the state holds in front of that
suffix lies face down for the seat.

A place is a `(place, index, position)` triple: `("hand", seat, i)`,
`("stock", 0, i)`, `("table", 0, i)` or `("take", n, i)` (card `i` of the
round's capture `n`).

Examples:
    >>> import random, xeri
    >>> from xeri.testing import hidden_places, shuffle_hidden
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> places = hidden_places(state, 1)
    >>> len(places), places[0]
    (42, ('hand', 0, 0))
    >>> other = shuffle_hidden(state, 1, random.Random(2))
    >>> xeri.observe(other, 1) == xeri.observe(state, 1)
    True
"""

from __future__ import annotations

import random
from typing import TypeAlias

import attrs

from xeri._agents.observation import observe
from xeri._cards import Card
from xeri._core.state import GameState

__all__ = ["Place", "card_at", "hidden_places", "place_cards", "shuffle_hidden"]

Place: TypeAlias = "tuple[str, int, int]"
"""A place of a card in a state: `(place, index, position)`, as
[`hidden_places`][xeri.testing.hidden_places] names it."""


def hidden_places(state: GameState, seat: int) -> list[Place]:
    """Where the cards hidden from a seat lie, as its observation shows ([X2][rules-x2]).

    Other hands and the stock, except the shown bottom card ([V1][rules-v1])
    and the initial-table cards replaced at the deal ([T2][rules-t2]), whose
    places are known; then the table cards and the captured cards that
    [`observe`][xeri.observe] leaves out for this seat (face-down cards under
    the pile, and inside the capture that took them for the seats that did
    not make it).

    Args:
        state: any state.
        seat: the seat whose view is meant.

    Returns:
        `(place, index, position)` triples, in the order hands, stock,
        table, captures: place is `"hand"` (index: the seat), `"stock"`,
        `"table"` or `"take"` (index: the capture's place in the round).

    Raises:
        IllegalMoveError: `seat` is not a seat of the rule set.
    """
    seen = observe(state, seat)
    known = {seen.bottom_card, *seen.replaced}
    places: list[Place] = []
    for other, hand in enumerate(state.hands):
        if other != seat:
            places.extend(("hand", other, i) for i, c in enumerate(hand) if c not in known)
    places.extend(("stock", 0, i) for i, c in enumerate(state.stock) if c not in known)
    # The observation shows the end of the table and of each capture; what
    # lies in front of what it shows is hidden from the seat.
    places.extend(("table", 0, i) for i in range(len(state.table) - len(seen.table)))
    for n, (take, shown) in enumerate(zip(state.takes, seen.takes, strict=True)):
        places.extend(("take", n, i) for i in range(len(take.cards) - len(shown.cards)))
    return places


def card_at(state: GameState, place: Place) -> Card:
    """The card at a place named by [`hidden_places`][xeri.testing.hidden_places].

    Args:
        state: the state the place was found in.
        place: a `(place, index, position)` triple.

    Returns:
        The card lying there.
    """
    kind, index, pos = place
    if kind == "hand":
        return state.hands[index][pos]
    if kind == "stock":
        return state.stock[pos]
    if kind == "table":
        item = state.table[pos]
        assert isinstance(item, Card), "hidden table places are loose cards"
        return item
    return state.takes[index].cards[pos]


def shuffle_hidden(state: GameState, seat: int, rng: random.Random) -> GameState:
    """The state with the cards hidden from a seat shuffled among the places hidden from it.

    The seat's observation must not change: that is non-interference.

    Args:
        state: any state.
        seat: the seat whose view is kept.
        rng: the generator for the shuffle.

    Returns:
        A state the seat cannot tell from `state` (equal to it when fewer
        than two cards are hidden).
    """
    places = hidden_places(state, seat)
    cards = [card_at(state, p) for p in places]
    rng.shuffle(cards)
    return place_cards(state, list(zip(places, cards, strict=True)))


def place_cards(state: GameState, placed: list[tuple[Place, Card]]) -> GameState:
    """The state with each card given laid at its place (hands are sorted again).

    Args:
        state: any state.
        placed: `(place, card)` pairs, places as
            [`hidden_places`][xeri.testing.hidden_places] names them (a
            seat's own hand included); the caller keeps every card once.

    Returns:
        The new state; `state` itself is not changed.
    """
    hands = [list(h) for h in state.hands]
    stock = list(state.stock)
    table = list(state.table)
    takes = [list(t.cards) for t in state.takes]
    for (kind, index, pos), card in placed:
        if kind == "hand":
            hands[index][pos] = card
        elif kind == "stock":
            stock[pos] = card
        elif kind == "table":
            table[pos] = card
        else:
            takes[index][pos] = card
    return attrs.evolve(
        state,
        hands=tuple(tuple(sorted(h)) for h in hands),
        stock=tuple(stock),
        table=tuple(table),
        takes=tuple(
            t if list(t.cards) == new else attrs.evolve(t, cards=tuple(new))
            for t, new in zip(state.takes, takes, strict=True)
        ),
    )

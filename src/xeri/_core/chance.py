"""Chance card by card: [`chance_outcomes`][xeri.chance_outcomes] and [`DealCard`][xeri.DealCard].

Chance acts twice in a round ([X4][rules-x4]): it deals a new round's deck
([X3][rules-x3]) and, when the initial table must be dealt again
([G4][rules-g4], [F4][rules-f4]), it reshuffles the stock. The engine's
default chance moves choose a whole order at once:

* a [`Deal`][xeri.Deal] is a permutation of the 52 cards, top card first;
* a [`Reshuffle`][xeri.Reshuffle] is the stock's new order, top first,
  holding the old stock and the shown table.

[`chance_move`][xeri.chance_move] draws them, and one such node has
52! outcomes. Frameworks that enumerate a chance node's outcomes
(OpenSpiel, tree search) need nodes with a handful: there the same order is
chosen one card at a time. Each [`DealCard`][xeri.DealCard] appends the
next card of the pending order, drawn uniformly among the cards not yet
placed; [`chance_outcomes`][xeri.chance_outcomes] lists them, each with
its probability. While the order is incomplete the state stays a chance
state in the same phase, its [`dealing`][xeri.GameState.dealing] holding the
cards placed so far; the card that completes the order applies the whole
move, so the state becomes exactly (`==`) the state that the `Deal` or
`Reshuffle` with that order gives. A uniformly random order is a uniformly
random first card followed by a uniformly random order of the rest, so both
forms give every order, and every state, the same chance.

Details:

* The last free card is forced: it is placed together with the one before
  it, so a deal of 52 cards takes 51 `DealCard` moves.
* Under [V1][rules-v1] a redeal keeps the shown bottom card at the bottom of
  the stock: it is never offered, and goes last when the order completes. A
  new round's deck is a plain permutation (the engine moves a Jack off the
  bottom, as for a `Deal`).
* The two forms mix: in the middle of a card-by-card deal, a whole `Deal` or
  `Reshuffle` is accepted only if its order begins with the cards already
  placed, and [`chance_move`][xeri.chance_move] draws such a move (the
  placed cards, then the others at random), so loops written for whole
  moves, [`new_game`][xeri.new_game] and [`rollout`][xeri.rollout] among
  them, complete a pending order correctly.
* The pending order is hidden: [`observe`][xeri.observe] gives every seat
  the observation of the state before the first card, and
  [`determinize`][xeri.determinize] draws a state with no pending order.

Examples:
    >>> import xeri
    >>> state = xeri.start(xeri.GREEK, dealer=0)
    >>> outcomes = xeri.chance_outcomes(state)
    >>> len(outcomes), outcomes[0]
    (52, (DealCard(card=Card.parse('A♣')), 0.019230769230769232))
    >>> for card in xeri.DECK[:51]:          # the deck in deck order, card by card
    ...     state = xeri.apply(state, xeri.DealCard(card=card))
    >>> state == xeri.apply(xeri.start(xeri.GREEK, dealer=0), xeri.Deal(deck=xeri.DECK))
    True
"""

from __future__ import annotations

from xeri._cards import DECK, Card
from xeri._core.engine import _not_a_state, _pending, apply
from xeri._core.round import round_dealer
from xeri._core.state import GameState, Phase
from xeri._core.validate import _dealt
from xeri._errors import InvalidStateError, XeriError
from xeri._moves import DealCard, PlayerMove
from xeri._table import item_cards

__all__ = ["chance_outcomes"]

_DEAL_CARDS: dict[Card, DealCard] = {card: DealCard(card=card) for card in DECK}
"""The 52 `DealCard` moves, made once."""


def chance_outcomes(state: GameState) -> tuple[tuple[DealCard, float], ...]:
    """Chance's possible next cards, card by card, each with its probability.

    See [chance card by card][chance-card-by-card]: the cards not yet placed in the pending deal
    or redeal order (a pinned [V1][rules-v1] bottom card only when it is all
    that is left), each [`DealCard`][xeri.DealCard] with probability 1/n.

    Args:
        state: a state where `state.is_chance` is true, with or without a
            pending card-by-card order.

    Returns:
        `(DealCard, probability)` pairs sorted by card in deck order; the
        probabilities are equal and add up to 1.

    Raises:
        ArgumentError: `state` is not a state.
        IllegalMoveError: chance does not act in `state`.
    """
    if not isinstance(state, GameState):
        raise _not_a_state("chance_outcomes", state)
    free, pinned = _pending(state)
    cards = free if free or pinned is None else (pinned,)
    p = 1.0 / len(cards)
    moves = _DEAL_CARDS
    return tuple([(moves[card], p) for card in cards])


def _round_moves(
    state: GameState, before: GameState
) -> list[tuple[GameState, DealCard | PlayerMove]]:
    """Moves that lead from `before` to `state`, chance card by card, for a history.

    `before` is the chance state that deals the round of `state`: phase
    `DEAL` or `ROUND_OVER`, no pending order, the same finished rounds
    before it. `state` has no pending order and is in phase `REDEAL` or
    `PLAY`, or has finished its round. The deal (and each redeal) is an order
    that gives the hands the cards they were dealt ([X3][rules-x3]), lays each
    shown table in turn ([G4][rules-g4]) and leaves the stock as it was; the
    order of the cards nothing reveals is made up. A state drawn by
    [`determinize`][xeri.determinize] gets a history this way (the OpenSpiel
    adapter's `resample_from_infostate`).

    Returns:
        Each move with the state it is applied to, in order: the `DealCard`
        moves of the deal and the redeals, then the round's plays.

    Raises:
        InvalidStateError: the moves do not lead to `state`.
    """
    if state.phase is Phase.REDEAL:
        hands = state.hands
        last = tuple(c for item in state.table for c in item_cards(item))
        rest = state.stock
    else:
        hands, last, rest = _dealt(state)  # the table as dealt, before any replacement (T2)
    n = state.rules.seats
    first = round_dealer(state.rules, state.dealer, len(state.history))  # the round's dealer
    top = tuple(c for i in range(n) for c in hands[(first + 1 + i) % n])
    held = frozenset(top)
    pool = [c for c in state.rules.deck if c not in held]
    bottom = state.bottom_card
    final = (*last, *rest)
    if bottom is not None and bottom in rest and final[-1] is not bottom:
        final = (*[c for c in final if c is not bottom], bottom)  # V1: dealt last
    tables = (*state.redealt, last)
    orders = []
    for i, table in enumerate(tables):
        tail = final
        if i < len(tables) - 1:  # a table shown and redealt: the rest in any order
            shown = frozenset(table)
            others = tuple(c for c in pool if c not in shown and c is not bottom)
            tail = (*table, *others) if bottom is None else (*table, *others, bottom)
        orders.append((*top, *tail) if i == 0 else tail)
    moves: list[tuple[GameState, DealCard | PlayerMove]] = []
    current = before
    try:
        for order in orders:
            for card in order:
                if card is current.bottom_card and current.phase is Phase.REDEAL:
                    continue  # pinned: it completes the order
                move = _DEAL_CARDS[card]
                moves.append((current, move))
                current = apply(current, move)
                if not current.dealing:
                    break
        for play in state.history:
            moves.append((current, play))
            current = apply(current, play)
    except XeriError:
        current = before
    if current != state:
        raise InvalidStateError("the round cannot be rebuilt from the chance state before it")
    return moves

"""Play the rest of a round quickly, for search: [`rollout`][xeri.rollout].

Search bots spend their time playing rounds to the end from sampled states.
Through the public API every play makes a new frozen
[`GameState`][xeri.GameState]; here the round is played on plain mutable
lists built once per call, and only the end of the round becomes a state
again. Nothing mutable escapes: the input and the result are ordinary
frozen states, and the result is exactly the state that repeated
[`legal_moves`][xeri.legal_moves] and [`apply`][xeri.apply] with the same
choices would reach.

Fast paths serve the built-in capture rules,
[`PileCapture`][xeri.PileCapture] and [`SumCapture`][xeri.SumCapture] with
every option (an int-coded table in `xeri._sum_rollout`); any other capture
rule is played through the public engine, with the same contract.

## Policies

A policy picks the move at each turn. It is called with a
[`RolloutView`][xeri.rollout.RolloutView] and returns the *index* of the
chosen move in `view.moves`, which lists the legal moves in the order of
[`legal_moves`][xeri.legal_moves]. The view is reused and changed in place
between calls: read it during the call, never keep it or change it. Besides
the moves it shows the table, every hand (`view.hands`: a rollout plays a
full state, a sampled one when a search bot calls it), the stock's size and
how many plays the round has had. [`playout_policy`][xeri.bots.playout_policy]
is the policy the search bots use.

The default policy chooses uniformly at random among the legal moves. In a
pile game every card of the hand is legal at every turn, so it draws, once
per deal, a uniformly random order in which each hand is played: the same
distribution as choosing at every turn, for a fraction of the calls to the
generator. The draws differ from those of a loop calling `rng.choice`, so
a seeded rollout and a seeded public loop play different (equally likely)
rounds; to replay given moves, pass a policy.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from functools import cache
from itertools import permutations
from math import factorial
from operator import attrgetter

from xeri._sum_rollout import sum_rollout
from xeri.capture import XeriKind
from xeri.cards import Card
from xeri.engine import RandomSource, _end_round, apply, chance_move, legal_moves
from xeri.errors import IllegalMoveError
from xeri.moves import PlayerMove
from xeri.pile import PileCapture
from xeri.rules import RuleSet
from xeri.state import GameState, Phase, Take
from xeri.sums import SumCapture
from xeri.table import TableItem

__all__ = ["Policy", "RolloutView", "rollout"]

_SYSTEM_RANDOM = secrets.SystemRandom()
_INDEX = attrgetter("index")


class RolloutView:
    """What a policy sees at each turn of a rollout: read it during the call only.

    The lists are the rollout's own working lists, changed in place as the
    round goes on; a policy must not keep or modify them.
    """

    __slots__ = ("hands", "moves", "plays", "rules", "seat", "state", "stock", "table")

    def __init__(self, rules: RuleSet) -> None:
        self.rules: RuleSet = rules
        """The rule set of the round."""
        self.seat: int = 0
        """The seat to move."""
        self.moves: Sequence[PlayerMove] = ()
        """The legal moves of the seat to move, sorted as `legal_moves` gives them."""
        self.table: Sequence[TableItem] = ()
        """The table: the pile bottom to top, or the items in the order laid."""
        self.stock: int = 0
        """How many cards the stock holds."""
        self.plays: int = 0
        """How many plays the round has had."""
        self.hands: Sequence[Sequence[Card]] = ()
        """Every seat's hand, by seat. A rollout plays a full state (a sampled
        one, for search), so its policy may look at every hand."""
        self.state: GameState | None = None
        """The current state when the round is played through the public engine
        (custom capture rules); None on the fast path."""


Policy = Callable[[RolloutView], int]
"""A policy: the index in `view.moves` of the move to play."""


def rollout(
    state: GameState, rng: RandomSource | None = None, policy: Policy | None = None
) -> GameState:
    """Play the current round from `state` to its end.

    Args:
        state: a state in the middle of a round (phase `PLAY` or `REDEAL`,
            a redeal pending card by card included, which is completed at
            random); a state whose round is over is returned as it is.
        rng: the generator for the default policy and for any redeal of the
            initial table; defaults to `secrets.SystemRandom()`.
        policy: picks each move (see the module docstring); by default
            uniformly at random among the legal moves.

    Returns:
        The state at the end of the round, scored: phase `ROUND_OVER`, or
        `MATCH_OVER` when the round decides the match. It equals the state
        that `apply` would reach with the same moves.

    Raises:
        IllegalMoveError: `state` is not a state, or the first round is not
            dealt yet, or the policy returned no index of a legal move.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(4))
        >>> end = xeri.rollout(state, random.Random(4))
        >>> end.is_round_over, len(end.history)
        (True, 48)
    """
    if type(state) is not GameState:
        raise IllegalMoveError(f"rollout needs a GameState, not {type(state).__name__}")
    if state.is_round_over:
        return state
    if state.phase is Phase.DEAL:
        raise IllegalMoveError(
            "the first round is not dealt yet: apply a Deal (or the rest of its DealCards) first"
        )
    rng = _SYSTEM_RANDOM if rng is None else rng
    while state.phase is Phase.REDEAL:
        state = apply(state, chance_move(state, rng))
    if type(state.rules.capture) is PileCapture:
        return _pile_rollout(state, rng, policy)
    if type(state.rules.capture) is SumCapture and state.rules.capture._german:
        return sum_rollout(state, rng, policy, RolloutView(state.rules), _pick)
    return _public_rollout(state, rng, policy)


def _pick(policy: Policy, view: RolloutView) -> int:
    index = policy(view)
    if type(index) is not int or not 0 <= index < len(view.moves):
        raise IllegalMoveError(
            f"the policy must return the index of a legal move (0 to {len(view.moves) - 1}),"
            f" not {index!r}"
        )
    return index


def _public_rollout(state: GameState, rng: RandomSource, policy: Policy | None) -> GameState:
    """The round through `legal_moves` and `apply`, for capture rules without a fast path."""
    view = RolloutView(state.rules)
    while not state.is_round_over:
        moves = legal_moves(state)
        if policy is None:
            move = moves[rng.randrange(len(moves))]
        else:
            view.seat = state.to_move  # type: ignore[assignment]  # a seat while playing
            view.moves = moves
            view.table = state.table
            view.hands = state.hands
            view.stock = len(state.stock)
            view.plays = len(state.history)
            view.state = state
            move = moves[_pick(policy, view)]
        state = apply(state, move)
    return state


_TABLED = 6
"""Hands up to this size take their random order from a table of permutations."""


@cache
def _permutations(size: int) -> tuple[tuple[int, ...], ...]:
    """Every order of `size` positions (a constant table, built on first use)."""
    return tuple(permutations(range(size)))


def _random_orders(hands: list[list[Card]], rng: RandomSource) -> list[list[Card]]:
    """Each hand in a uniformly random order, all drawn with one call of the generator.

    In a pile game every card of the hand is legal at every turn, so a
    player choosing uniformly at random at each turn plays its hand in a
    uniformly random order, independent of the others. One number below
    the product of the hands' factorials, read digit by digit in the mixed
    radix of those factorials, is exactly such an order for every hand.
    """
    total = 1
    for hand in hands:
        total *= factorial(len(hand))
    r = rng.randrange(total) if total > 1 else 0
    orders = []
    for hand in hands:
        size = len(hand)
        if size <= _TABLED:
            r, p = divmod(r, factorial(size))
            orders.append([hand[i] for i in _permutations(size)[p]])
            continue
        left = list(hand)
        order = []
        for k in range(size, 0, -1):
            r, i = divmod(r, k)
            order.append(left.pop(i))
        orders.append(order)
    return orders


def _pile_rollout(  # noqa: PLR0915  # one loop, kept whole for speed
    state: GameState, rng: RandomSource, policy: Policy | None
) -> GameState:
    """The round on mutable lists of cards (Greek family, the built-in pile rule).

    With the default policy each deal's plays are drawn at once
    (`_random_orders`); a policy is asked at every turn. The engine's own
    end of round gives the table to the last capturer and scores.
    """
    rules = state.rules
    sweeper = rules.capture.sweeper  # type: ignore[attr-defined]  # a PileCapture
    seats = rules.seats
    size = rules.hand_size
    dealer = state.dealer
    per_deal = rules.dealer_per_deal
    hands = [list(hand) for hand in state.hands]
    pile: list[Card] = list(state.table)  # type: ignore[arg-type]  # a pile holds cards only
    stock = list(state.stock)
    history: list[PlayerMove] = list(state.history)
    takes: list[Take] = list(state.takes)
    first_xeri = rules.xeri_on_first_card
    last_xeri = rules.xeri_on_last_card
    xeri_kind, jack_kind = XeriKind.XERI, XeriKind.JACK_XERI
    view = RolloutView(rules)
    view.table = pile
    view.hands = hands
    mover: int = state.to_move  # type: ignore[assignment]  # a seat in phase PLAY
    while True:  # one deal after another
        left = sum(map(len, hands))
        orders = _random_orders(hands, rng) if policy is None else hands
        for k in range(left - 1, -1, -1):  # k plays of the deal are left after this one
            if policy is None:
                card = orders[mover].pop()
            else:
                hand = hands[mover]
                view.seat, view.moves, view.stock, view.plays = (
                    mover,
                    hand,
                    len(stock),
                    len(history),
                )
                card = hand.pop(_pick(policy, view))
            turn = len(history)
            history.append(card)
            if pile:
                rank = card.rank
                if rank is pile[-1].rank:
                    kind = None
                    if len(pile) == 1 and (first_xeri or turn) and (last_xeri or k or stock):
                        kind = jack_kind if rank is sweeper else xeri_kind
                    pile.append(card)
                    takes.append(Take(seat=mover, cards=tuple(pile), xeri=kind, turn=turn))
                    pile.clear()
                elif rank is sweeper:
                    pile.append(card)
                    takes.append(Take(seat=mover, cards=tuple(pile), xeri=None, turn=turn))
                    pile.clear()
                else:
                    pile.append(card)
            else:
                pile.append(card)
            mover = mover + 1 if mover + 1 < seats else 0
        if not stock:
            break
        # Every hand is empty: the same dealer deals again from the stock (G8),
        # or the next seat under `dealer_per_deal`.
        if per_deal:
            dealer = (dealer + 1) % seats
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            hands[seat] = sorted(stock[i * size : (i + 1) * size], key=_INDEX)
        del stock[: seats * size]
        mover = (dealer + 1) % seats
    return _end_round(
        state, ((),) * seats, tuple(pile), tuple(history), tuple(takes), dealer=dealer
    )

"""Play the rest of a round quickly, for search: [`rollout`][xeri.rollout].

Search bots spend their time playing rounds to the end from sampled states.
Through the public API every play makes a new frozen
[`GameState`][xeri.GameState]; here the round is played on plain mutable
lists built once per call, and only the end of the round becomes a state
again. Nothing mutable escapes: the input and the result are ordinary
frozen states, and the result is exactly the state that repeated
[`legal_moves`][xeri.legal_moves] and [`apply`][xeri.apply] with the same
choices would reach.

Fast paths serve the built-in capture rules: [`PileCapture`][xeri.PileCapture],
and [`SumCapture`][xeri.SumCapture] with every option under the default
policy (an int-coded table in `xeri._families.sums.kernel`). Any other capture rule
is played through the public engine, with the same contract, and so is a
`SumCapture` round with a policy: the policy reads each turn's legal moves
as public values, which is most of the engine's work there, and the
int-coded table would only add its own upkeep (it measured about a tenth
slower).

## Policies

A policy picks the move at each turn. It is called with a
[`RolloutView`][xeri.RolloutView] and returns the *index* of the
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
from itertools import chain, permutations
from math import factorial
from operator import attrgetter, itemgetter
from random import Random

from xeri._cards import Card
from xeri._core.engine import RandomSource, apply, chance_move, legal_moves
from xeri._core.round import counted_xeri, end_round, later_deals
from xeri._core.state import GameState, Phase, Take, _make_take
from xeri._errors import ArgumentError
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._families.sums.kernel import sum_rollout
from xeri._families.sums.rule import SumCapture
from xeri._immutable import _per_value
from xeri._moves import PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem

__all__ = ["Policy", "RolloutView", "rollout"]

_SYSTEM_RANDOM = secrets.SystemRandom()
_PLAY = Phase.PLAY
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
        policy: picks each move (see [rollouts][rollouts-and-policies]); by default
            uniformly at random among the legal moves.

    Returns:
        The state at the end of the round, scored: phase `ROUND_OVER`, or
        `MATCH_OVER` when the round decides the match. It equals the state
        that `apply` would reach with the same moves.

    Raises:
        ArgumentError: `state` is not a state, or the first round is not
            dealt yet, or the policy returned no index of a legal move.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(4))
        >>> end = xeri.rollout(state, random.Random(4))
        >>> end.is_round_over, len(end.history)
        (True, 48)
    """
    if type(state) is not GameState:
        raise ArgumentError(f"rollout needs a GameState, not {type(state).__name__}")
    rng = _SYSTEM_RANDOM if rng is None else rng
    if state.phase is not _PLAY:  # most rollouts start in play: one test for them
        if state.is_round_over:
            return state
        if state.phase is Phase.DEAL:
            raise ArgumentError(
                "the first round is not dealt yet:"
                " apply a Deal (or the rest of its DealCards) first"
            )
        while state.phase is Phase.REDEAL:
            state = apply(state, chance_move(state, rng))
    route = _route(state.rules)
    if route.loop is _PILE:
        if policy is None:
            return _pile_random(state, rng, route.layouts)
        return _pile_policy(state, policy)
    if route.loop is _SUM and policy is None:
        return sum_rollout(state, rng)
    return _public_rollout(state, rng, policy)


_PILE, _SUM, _PUBLIC = "pile", "sum", "public"


class _Route:
    """How `rollout` plays a round of one rule set (`_route`)."""

    __slots__ = ("layouts", "loop")

    def __init__(self, loop: str) -> None:
        self.loop: str = loop
        """Which loop plays the round: `_PILE`, `_SUM` (without a policy) or `_PUBLIC`."""
        self.layouts: dict[tuple[int, ...], _Layout] = {}
        """The random pile loop's layouts of the round's plays, by shape of state (`_layout`)."""


@_per_value
def _route(rules: RuleSet) -> _Route:
    """Which loop plays a round of `rules`, and the room for what that loop keeps.

    Fast paths are capabilities the rules declare (`fast_path`), not class
    tests; the answer depends on the rule set alone, so it is asked once per
    rule set.
    """
    capture = rules.capture
    if isinstance(capture, PileCapture) and capture.fast_path():
        return _Route(_PILE)
    if isinstance(capture, SumCapture) and capture.fast_path():
        return _Route(_SUM)
    return _Route(_PUBLIC)


def _pick(policy: Policy, view: RolloutView) -> int:
    index = policy(view)
    if type(index) is not int or not 0 <= index < len(view.moves):
        raise _not_an_index(index, len(view.moves))
    return index


def _not_an_index(index: object, moves: int) -> ArgumentError:
    """The error for a policy's answer that is not the index of one of `moves` legal moves."""
    return ArgumentError(
        f"the policy must return the index of a legal move (0 to {moves - 1}), not {index!r}"
    )


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
"""Hands up to this size take their random order from a table of orders."""

_FACTORIALS = tuple(factorial(size) for size in range(53))


@cache
def _orderings(size: int) -> tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...]:
    """For each order of `size` positions, a getter that lists a hand in that order.

    A constant table, built on first use (720 getters for a hand of six).
    """
    if size < 2:  # an itemgetter of one index gives the item, not a tuple
        return (tuple,)
    return tuple(itemgetter(*order) for order in permutations(range(size)))


_ORDERINGS: list[tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...] | None] = [None] * (
    _TABLED + 1
)
"""`_orderings(size)` at index `size`, filled on first use: a list read without a call."""


def _orders(size: int) -> tuple[Callable[[Sequence[Card]], tuple[Card, ...]], ...]:
    """`_ORDERINGS[size]`, filled first if empty (`size` up to `_TABLED`)."""
    getters = _ORDERINGS[size]
    if getters is None:
        getters = _ORDERINGS[size] = _orderings(size)
    return getters


def _ordered(hand: Sequence[Card], p: int) -> tuple[Card, ...]:
    """The hand in its order number `p` (below the factorial of its size)."""
    n = len(hand)
    if n <= _TABLED:
        return _orders(n)[p](hand)
    left = list(hand)
    order = []
    for k in range(len(hand), 0, -1):
        p, i = divmod(p, k)
        order.append(left.pop(i))
    return tuple(order)


class _Layout:
    """Where each hand's cards go in the list of a round's plays (`_layout`).

    The same for every state of one shape: its rule set, its dealer and
    mover, the sizes of its table, hands and stock.
    """

    __slots__ = ("blocks", "dealer", "hands", "seat_of", "size", "total")

    def __init__(self, rules: RuleSet, state: GameState) -> None:
        seats, size = rules.seats, rules.hand_size
        mover: int = state.to_move  # type: ignore[assignment]  # a seat in phase PLAY
        offset, stock = len(state.table), len(state.stock)
        # The current deal: the hands differ by one card at most, the longer ones
        # first, so the seat `j` places after the mover plays at every `seats`-th
        # place from `j`.
        order = [(mover + j) % seats for j in range(seats)]
        sizes = [len(state.hands[seat]) for seat in order]
        first = sum(sizes)
        self.hands: tuple[tuple[int, slice, int], ...] = tuple(
            (seat, slice(offset + j, offset + j + seats * n, seats), n)
            for j, (seat, n) in enumerate(zip(order, sizes, strict=True))
        )
        """For each hand of the current deal, in the order they play: its seat,
        its places in the list and its size."""
        seat_of = [-1] * offset + [order[u % seats] for u in range(first)]
        # The deals to come, from the stock's top, each to the seats the round
        # core names (`later_deals`), the seat of block `j` playing `place`-th
        # after the deal's leader.
        block = seats * size
        deals = later_deals(rules, state.dealer, stock // block)
        blocks = []
        at = offset + first  # the first play of the deal to come from stock[d]
        for deal, (_, lead, _, places) in enumerate(deals):
            d = deal * block  # the deal's first card in the stock
            seat_of += [(lead + q) % seats for q in range(block)]
            for j, place in enumerate(places):
                k = d + j * size
                blocks.append((slice(k, k + size), slice(at + d + place, at + d + block, seats)))
        self.blocks: tuple[tuple[slice, slice], ...] = tuple(blocks)
        """For each block of `size` cards the stock will deal, in order: its
        cards in the stock, its places in the list."""
        self.seat_of: tuple[int, ...] = tuple(seat_of)
        """The seat of each play, by its index in the list (-1 for the table's cards)."""
        self.dealer: int = deals[-1][0] if deals else state.dealer
        """The dealer of the round's last deal."""
        self.size: int = size
        """The cards in each block of the stock."""
        total = _FACTORIALS[size] ** (stock // size)
        for n in sizes:
            total *= _FACTORIALS[n]
        self.total: int = total
        """How many orders the hands can be played in: one is drawn below it."""


_MAX_LAYOUTS = 512
"""At most this many layouts kept per rule set (about 2 kB each), past which its cache starts
again empty. GREEK's rounds take some 1,600 shapes of state; a search decision rolls out from
one, many times."""


def _layout(layouts: dict[tuple[int, ...], _Layout], state: GameState) -> _Layout:
    """The layout of the round's plays for `state`, made once for each shape of state.

    `layouts` is the rule set's (`_Route`): a shape is the dealer, the mover,
    and the sizes of the table, the stock and each hand.
    """
    key = (state.dealer, state.to_move, len(state.table), len(state.stock), *map(len, state.hands))
    layout = layouts.get(key)  # type: ignore[arg-type]  # `to_move` is a seat in phase PLAY
    if layout is None:
        if len(layouts) >= _MAX_LAYOUTS:
            layouts.clear()
        layout = layouts[key] = _Layout(state.rules, state)  # type: ignore[index]  # as above
    return layout


def _random_plays(state: GameState, rng: RandomSource, layout: _Layout) -> list[Card]:
    """The table's cards, then every play left in the round, in a uniformly random order.

    In a pile game every card of the hand is legal at every turn, so a
    player choosing uniformly at random at each turn plays its hand in a
    uniformly random order, independent of the others. The plays left are
    fixed by these orders: of the hands held now, and of the hands the
    stock will deal, block by block, each to the seat the round core names
    (`xeri._core.round.later_deals`), which plays in its place after the
    deal's leader. One number below the product of the hands' factorials,
    read digit by digit in the mixed radix of those factorials, is exactly
    such an order for every hand: one call of the generator for the round.
    Each hand's cards then go to its seat's places in the list (every
    `seats`-th), as `layout` lists them.
    """
    hands, stock = state.hands, state.stock
    # Every place after the table's is filled below: the hands only give the length.
    plays: list[Card] = [*state.table, *chain.from_iterable(hands), *stock]  # type: ignore[list-item]  # a pile holds cards only
    total = layout.total
    if total < 2:  # one order of every hand: nothing to draw
        r = 0
    elif type(rng) is Random:
        # random.Random draws `randrange(n)` as getrandbits(n.bit_length()) until
        # below n; done here, that saves its calls and draws the same number.
        getrandbits = rng.getrandbits
        k = total.bit_length()
        r = getrandbits(k)
        while r >= total:
            r = getrandbits(k)
    else:
        r = rng.randrange(total)
    facts = _FACTORIALS
    for seat, places, n in layout.hands:
        r, p = divmod(r, facts[n])
        hand = hands[seat]
        plays[places] = (
            (_ORDERINGS[n] or _orders(n))[p](hand) if n <= _TABLED else _ordered(hand, p)
        )
    if layout.blocks:
        size = layout.size
        radix = facts[size]
        if size <= _TABLED:
            getters = _ORDERINGS[size] or _orders(size)
            for cards, places in layout.blocks:
                r, p = divmod(r, radix)
                plays[places] = getters[p](stock[cards])
        else:
            for cards, places in layout.blocks:
                r, p = divmod(r, radix)
                plays[places] = _ordered(stock[cards], p)
    return plays


def _pile_random(
    state: GameState, rng: RandomSource, layouts: dict[tuple[int, ...], _Layout]
) -> GameState:
    """The round with uniformly random plays, every play of it drawn at once.

    Laid out in the order of play after the table's cards
    (`_random_plays`), the round is one list, and the pile at any moment
    is the stretch of it since the last capture: the loop keeps only where
    that stretch starts and the rank on top.
    """
    rules = state.rules
    sweeper = rules.capture.sweeper  # type: ignore[attr-defined]  # a PileCapture
    layout = _layout(layouts, state)
    cards = tuple(_random_plays(state, rng, layout))  # the takes and the history: stretches of it
    seat_of = layout.seat_of
    offset = len(state.table)
    turn0 = len(state.history) - offset  # the turn of `cards[i]` is `turn0 + i`
    last = len(cards) - 1
    xeri_kind, jack_kind = XeriKind.XERI, XeriKind.JACK_XERI
    takes: list[Take] = list(state.takes)
    top = cards[offset - 1].rank if offset else None
    bottom = 0  # the pile is `cards[bottom:i]` before the play `cards[i]`
    for i in range(offset, last + 1):
        rank = cards[i].rank
        if rank is top:
            kind = None
            if i - bottom == 1:  # a lone card: the round core says whether it counts
                kind = jack_kind if rank is sweeper else xeri_kind
                kind = counted_xeri(rules, kind, turn0 + i, last - i)
        elif rank is sweeper and top is not None:
            kind = None
        else:
            top = rank
            continue
        takes.append(
            _make_take(seat=seat_of[i], cards=cards[bottom : i + 1], xeri=kind, turn=turn0 + i)
        )
        top = None
        bottom = i + 1
    history = state.history + cards[offset:]
    return end_round(
        state, ((),) * rules.seats, cards[bottom:], history, tuple(takes), dealer=layout.dealer
    )


def _pile_policy(  # noqa: PLR0915  # one loop, kept whole for speed
    state: GameState, policy: Policy
) -> GameState:
    """The round on mutable lists of cards, the policy asked at every turn."""
    rules = state.rules
    sweeper = rules.capture.sweeper  # type: ignore[attr-defined]  # a PileCapture
    seats = rules.seats
    size = rules.hand_size
    dealer = state.dealer
    hands = [list(hand) for hand in state.hands]
    pile: list[Card] = list(state.table)  # type: ignore[arg-type]  # a pile holds cards only
    stock = list(state.stock)
    history: list[PlayerMove] = list(state.history)
    takes: list[Take] = list(state.takes)
    xeri_kind, jack_kind = XeriKind.XERI, XeriKind.JACK_XERI
    view = RolloutView(rules)
    view.table = pile
    view.hands = hands
    mover: int = state.to_move  # type: ignore[assignment]  # a seat in phase PLAY
    deals = later_deals(rules, dealer, len(stock) // (seats * size))  # the deals to come
    while True:  # one deal after another
        left = sum(map(len, hands))
        for k in range(left - 1, -1, -1):  # k plays of the deal are left after this one
            hand = hands[mover]
            view.seat, view.moves, view.stock, view.plays = mover, hand, len(stock), len(history)
            index = policy(view)  # checked as `_pick` does, without its call at every turn
            if type(index) is not int or not 0 <= index < len(hand):
                raise _not_an_index(index, len(hand))
            card = hand.pop(index)
            turn = len(history)
            history.append(card)
            if pile:
                rank = card.rank
                if rank is pile[-1].rank:
                    kind = None
                    if len(pile) == 1:  # a lone card: the round core says whether it counts
                        kind = jack_kind if rank is sweeper else xeri_kind
                        kind = counted_xeri(rules, kind, turn, k + len(stock))
                    pile.append(card)
                    takes.append(_make_take(seat=mover, cards=tuple(pile), xeri=kind, turn=turn))
                    pile.clear()
                elif rank is sweeper:
                    pile.append(card)
                    takes.append(_make_take(seat=mover, cards=tuple(pile), xeri=None, turn=turn))
                    pile.clear()
                else:
                    pile.append(card)
            else:
                pile.append(card)
            mover = mover + 1 if mover + 1 < seats else 0
        if not stock:
            break
        # Every hand is empty: the stock deals again, as the round core says (G8, X3).
        dealer, mover, blocks, _ = deals[len(deals) - len(stock) // (seats * size)]
        for i, seat in enumerate(blocks):
            hands[seat] = sorted(stock[i * size : (i + 1) * size], key=_INDEX)
        del stock[: seats * size]
    return end_round(state, ((),) * seats, tuple(pile), tuple(history), tuple(takes), dealer=dealer)

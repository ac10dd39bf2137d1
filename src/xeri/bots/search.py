"""Search bots: [`PIMCBot`][xeri.bots.PIMCBot] and [`ISMCTSBot`][xeri.bots.ISMCTSBot].

Both sample the cards their seat cannot see as
[`determinize`][xeri.determinize] does, every consistent deal equally
likely, except that in the pile games they also read the captures the
other seats declined in the current deal (`infer`: a seat that laid a card
on a pile it could have taken by rank most likely held no card of that
rank), and play rounds out with [`rollout`][xeri.rollout] under a fast playout
policy: on an open table [`playout_policy`][xeri.bots.playout_policy]; in
a pile game a counting policy that lays its cards by the chance, from the
cards its mover has seen, that the next seat can take them (a playout
policy that read the sampled hands would never leave a xeri, unlike the
players the bots meet). Both judge a round by their side's round total
minus the best other side's ([G10][rules-g10], [D8][rules-d8]), and both
switch to the exact [`solve_endgame`][xeri.bots.solve_endgame] once the
rest of the round is determined for them (a single consistent state, two
sides) and small enough to solve at once: at most 12 cards left in all
hands in a pile game (in the two-player Greek game, the whole last deal),
4 on an open table; a search that grows past 8,000 positions, or past the
decision's deadline, is abandoned for sampling.

Budgets are given in samples or iterations, which replay exactly under a
seeded generator, with a deadline of CPU time (0.1 s a decision by
default) as the safety net, or in seconds of wall-clock time, which do not
replay.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Sequence

import attrs

from xeri._agents.observation import Observation, _seat
from xeri._agents.rollouts import Policy, RolloutView, rollout
from xeri._agents.sampling import _Belief, _Plan
from xeri._cards import Card
from xeri._core.engine import RandomSource, apply, legal_moves
from xeri._core.state import GameState
from xeri._errors import ArgumentError, InvalidStateError, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable, _per_value
from xeri._moves import Capture, Combine, PlayerMove, Trail
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem, item_cards
from xeri.bots._prices import _Prices, _prices
from xeri.bots.base import CANDIDATES, candidates, moves_to_choose
from xeri.bots.endgame import _solve

__all__ = ["ISMCTSBot", "PIMCBot", "family", "playout_policy"]


def playout_policy(rng: RandomSource) -> Policy:
    """A fast, greedy-minded policy for [`rollout`][xeri.rollout], drawing from `rng`.

    It reads every hand from the view (a rollout plays a full, sampled
    state) and plays for its side: a partner's capture is the side's
    ([F1][rules-f1]), so a card the next seat could take is dangerous only
    when that seat is an opponent, and a card the partner can take next is
    a good one to lay.

    * In a pile game ([G6][rules-g6]) it takes the pile with a card of the
      top card's rank when it has one, sweeps a pile of two or more cards
      with the sweeper, and otherwise lays a card, preferring one the next
      seat, if an opponent, holds no card of the same rank to take (a lone
      card on an empty table risks a xeri, [G7][rules-g7]), then one its
      partner can take, then one worth no points, and the sweeper last.
    * On an open table ([D3][rules-d3]) it prices every capture by the
      counting model (each card's points, the additive
      [categories][xeri.Category] it scores, a fifth of a point for the
      majority, and the sweep bonus when it clears the table) and makes the
      dearest. A build or raise it can take next turn with a card it keeps
      ([D3][rules-d3]) is priced at half its cards' worth,
      and more when it takes a build away from an opponent; it is made when
      it is worth more than any capture. Otherwise it lays a card free,
      preferring one the next seat, if an opponent, cannot take by its
      value, then the card worth least.

    Ties are broken at random. Playouts with it judge moves far better than
    uniformly random ones. The search bots play it on an open table; in a
    pile game their playouts count the cards instead of reading the other
    hands, which measured stronger (see the strategy page).

    Args:
        rng: the generator for its random choices.

    Returns:
        The policy.
    """
    randrange = rng.randrange

    def policy(view: RolloutView) -> int:
        moves = view.moves
        n = len(moves)
        if n == 1:
            return 0
        capture = view.rules.capture
        if capture.pile:
            return _pile_choice(view, getattr(capture, "sweeper", None), randrange)
        return _table_choice(view, _prices(view.rules), randrange)

    return policy


_PLAYOUT_SAMPLE = 16
"""How many moves drawn by index the playout prices when there are more than `CANDIDATES`."""


def _priced(
    moves: Sequence[PlayerMove], randrange: Callable[[int], int]
) -> Iterable[tuple[int, PlayerMove]]:
    """The moves the playout prices, with their indices: all, or a sample above the cap."""
    n = len(moves)
    if n <= CANDIDATES:
        return enumerate(moves)
    # The moves of a sample by index, the rest never listed.
    return [(i, moves[i]) for i in sorted({randrange(n) for _ in range(_PLAYOUT_SAMPLE)})]


def _table_choice(view: RolloutView, prices: _Prices, randrange: Callable[[int], int]) -> int:
    """The playout's pick on an open table: the dearest capture or build, else lay a safe card."""
    moves = view.moves
    table = view.table
    rules = view.rules
    sides = rules.sides
    seat = view.seat
    side = sides[seat]
    hands = view.hands
    hand: Sequence[Card] = hands[seat] if hands else ()
    worth = prices.card
    value = prices.value
    best, best_gain = -1, 0.0
    trails: list[int] = []
    # All the moves up to the cap (most turns: no call), else a sample of them.
    priced = enumerate(moves) if len(moves) <= CANDIDATES else _priced(moves, randrange)
    for i, move in priced:
        kind = type(move)
        if kind is Trail:
            trails.append(i)
            continue
        if kind is Capture:
            taken: tuple[TableItem, ...] = move.taken  # type: ignore[union-attr]  # a Capture
            gain = worth[move.card]
            for item in taken:
                if type(item) is Card:
                    gain += worth[item]
                else:
                    for card in item_cards(item):
                        gain += worth[card]
            if len(taken) == len(table):
                gain += prices.sweep
        elif kind is Combine:
            gain = _build_gain(move, hand, side, sides, worth, value)  # type: ignore[arg-type]  # a Combine
        else:
            continue
        if gain > best_gain:
            best, best_gain = i, gain
    if best >= 0:
        return best
    if not trails:
        return randrange(len(moves))
    # Lay a card: the cheapest, avoiding what the next seat (an opponent) can answer.
    n = len(hands)
    nxt = (seat + 1) % n if n else seat
    answers = {value[card] for card in hands[nxt]} if n and sides[nxt] != side else set()
    risk = 1.0 + (prices.sweep if not table else 0.0)
    count = len(trails)
    start = randrange(count)
    pick, cost = trails[start], math.inf
    for k in range(count):
        i = trails[(start + k) % count]
        card = moves[i].card
        c = worth[card] + (risk if value[card] in answers else 0.0)
        if c < cost:
            pick, cost = i, c
    return pick


def _build_gain(  # noqa: PLR0917  # internal, called once per build in the loop
    move: Combine,
    hand: Sequence[Card],
    side: int,
    sides: tuple[int, ...],
    worth: dict[Card, float],
    value: dict[Card, object],
) -> float:
    """What a build or raise is worth to the playout: half its cards' worth if it can be taken.

    Zero unless the mover keeps a card of the announced value to take it on
    its next turn; a raise of an opponent's build also takes that build away
    from them, which adds the same again.
    """
    target = move.value
    if not any(card != move.card and value[card] == target for card in hand):
        return 0.0
    gain = worth[move.card]
    owner = getattr(move.onto, "owner", None)
    for item in (move.onto, *move.also):
        for card in item_cards(item):
            gain += worth[card]
    gain *= 0.5
    if owner is not None and sides[owner] != side:
        gain *= 2.0
    return gain


def _pile_choice(view: RolloutView, sweeper: object, randrange: Callable[[int], int]) -> int:
    """The playout's pick in a pile game: take by rank, sweep a pile worth it, else lay safe."""
    moves: Sequence[Card] = view.moves  # type: ignore[assignment]  # pile moves are cards
    table: Sequence[Card] = view.table  # type: ignore[assignment]  # a pile holds cards
    if table:
        top = table[-1].rank
        for i, card in enumerate(moves):
            if card.rank is top:
                return i
        if len(table) >= 2:  # a pile of two is worth the sweeper
            for i, card in enumerate(moves):
                if card.rank is sweeper:
                    return i
    # Lay a card: the playout plays a full state, so it may look at the other
    # hands. Prefer a card the next seat, if an opponent, cannot take by rank
    # (on an empty table such a take is a xeri), then one the partner after
    # it can take, then one worth no points; never the sweeper while another
    # card will do.
    hands = view.hands
    seats = len(hands)
    answers: set[object] = set()
    helps: set[object] = set()
    if seats:
        sides = view.rules.sides
        seat = view.seat
        side = sides[seat]
        nxt = (seat + 1) % seats
        if sides[nxt] != side:
            answers = {card.rank for card in hands[nxt]}
            after = (seat + 2) % seats
            if after != seat and sides[after] == side:
                helps = {card.rank for card in hands[after]}
        else:
            helps = {card.rank for card in hands[nxt]}
    danger = 4 if not table else 2
    points = view.rules.card_points.points
    n = len(moves)
    start = randrange(n)
    best, best_cost = start, 99
    for k in range(n):
        i = (start + k) % n
        card = moves[i]
        rank = card.rank
        if rank is sweeper:
            cost = 8
        else:
            cost = (danger if rank in answers else (-1 if rank in helps else 0)) + (
                1 if points(card) else 0
            )
        if cost < best_cost:
            best, best_cost = i, cost
    return best


class _PileFacts:
    """What the counting pile policy reads from the rule set alone, worked out once per rule set.

    The chance that the next seat holds a card of a rank depends only on
    how many of that rank the mover has not seen (`u`), how many cards it
    has not seen in all (`unseen`) and the size of the next hand (`h`): a
    small domain of ints, so each row of chances is worked out once, when
    first needed, by the same product as the policy's definition.
    """

    __slots__ = (
        "following",
        "opposed",
        "orders",
        "rows",
        "size",
        "sweeper",
        "swept",
        "top",
        "totals",
        "worth",
        "xeri",
    )

    def __init__(self, rules: RuleSet) -> None:
        self.sweeper = getattr(rules.capture, "sweeper", None)
        # Ranks are counted by `card.index >> 2`, the rank less one (DECK is by rank, then
        # suit): an int indexes a list faster than the Rank it stands for.
        self.swept = -1 if self.sweeper is None else self.sweeper - 1
        totals = [0] * 13
        for card in rules.deck:
            totals[card.index >> 2] += 1
        self.totals = tuple(totals)
        self.top = max(totals)
        points = rules.card_points.points
        self.worth = {card: float(points(card)) for card in rules.deck}
        self.xeri = float(rules.xeri_points)
        sides, seats = rules.sides, rules.seats
        # The seat after each seat, and whether it plays for another side (F1).
        following = self.following = tuple((seat + 1) % seats for seat in range(seats))
        self.opposed = tuple(sides[after] != sides[seat] for seat, after in enumerate(following))
        self.size = len(rules.deck) + 1
        self.rows: list[tuple[tuple[float, ...], tuple[float, ...]] | None] = [None] * (
            self.size * self.size
        )
        self.orders: list[tuple[int, tuple[tuple[int, ...], ...]] | None] = [None] * self.size

    def row(self, unseen: int, h: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
        """The factors of a card's stake by `u`, against an opponent and for a partner."""
        key = unseen * self.size + h
        found = self.rows[key]
        if found is None:
            against, along = [], []
            for u in range(self.top + 1):
                miss = 1.0
                if u > 0 and unseen > 0:
                    for j in range(min(h, unseen)):
                        miss *= max(0.0, (unseen - u - j) / (unseen - j))
                chance = 1.0 - miss
                against.append(chance)
                along.append(-0.5 * chance)
            found = self.rows[key] = (tuple(against), tuple(along))
        return found

    def order(self, n: int) -> tuple[int, tuple[tuple[int, ...], ...]]:
        """`n.bit_length()` and the `n` orders of `range(n)` from each start, wrapping round."""
        found = self.orders[n]
        if found is None:
            turns = tuple(tuple(range(start, n)) + tuple(range(start)) for start in range(n))
            found = self.orders[n] = (n.bit_length(), turns)
        return found


_pile_facts = _per_value(_PileFacts)


class _FairPile:
    """A pile-game playout policy that plays on what its mover could know.

    [`playout_policy`][xeri.bots.playout_policy] reads every hand of the
    sampled state, so in its playouts nobody ever lays a card the next seat
    can take: a game without xeris, unlike the one the bots play. This
    policy counts instead, as a player does: the cards of each rank that the
    mover has not seen (not in its hand, not played) could be in the next
    hand, and a card is laid by the chance that the next seat, an opponent,
    holds one of its rank, weighted by what that take would win. The cards
    played are the state's at `start` and then every card this policy plays.

    The chance is `1 - miss`, where `miss` is the chance that none of the
    next seat's `h` cards, drawn from the `unseen` cards the mover has not
    seen, is one of the `u` unseen cards of the rank: the product over
    `j < min(h, unseen)` of `max(0, (unseen - u - j) / (unseen - j))`
    (`_PileFacts.row` keeps it per rule set).
    """

    __slots__ = ("facts", "getrandbits", "left", "randrange", "rest")

    def __init__(self, rules: RuleSet, rng: RandomSource) -> None:
        self.facts = _pile_facts(rules)
        self.randrange = rng.randrange
        # random.Random draws `randrange(n)` as getrandbits(n.bit_length()) until
        # below n; done here, that saves its calls and draws the same numbers.
        self.getrandbits = rng.getrandbits if type(rng) is random.Random else None
        self.rest = [0] * 13
        """The cards of each rank (by `card.index >> 2`) not seen by all: neither taken,
        on the pile, nor played."""
        self.left = 0
        """How many cards are neither taken nor on the pile (hands and stock)."""

    def start(self, state: GameState) -> None:
        """Count the cards out of play, seen by all, in `state`: taken or on the pile."""
        rest = list(self.facts.totals)
        out = 0
        for take in state.takes:
            cards = take.cards
            for card in cards:
                rest[card.index >> 2] -= 1
            out += len(cards)
        pile: Sequence[Card] = state.table  # type: ignore[assignment]  # a pile holds cards
        for card in pile:
            rest[card.index >> 2] -= 1
        self.rest = rest
        self.left = len(state.rules.deck) - out - len(pile)

    def __call__(self, view: RolloutView) -> int:  # noqa: PLR0915  # one call a turn, kept whole for speed
        moves: Sequence[Card] = view.moves  # type: ignore[assignment]  # pile moves are cards
        rest = self.rest
        n = len(moves)
        if n == 1:
            rest[moves[0].index >> 2] -= 1
            self.left -= 1
            return 0
        facts = self.facts
        table: Sequence[Card] = view.table  # type: ignore[assignment]  # a pile holds cards
        sweeper = facts.sweeper
        piled = len(table)
        if piled:
            top = table[-1].rank
            if piled >= 2 and sweeper is not None:  # a pile of two is worth the sweeper
                jack = -1  # the first sweeper, played when no card takes by rank
                for i, card in enumerate(moves):
                    rank = card.rank
                    if rank is top:
                        jack = i
                        break
                    if rank is sweeper and jack < 0:
                        jack = i
                if jack >= 0:
                    rest[moves[jack].index >> 2] -= 1
                    self.left -= 1
                    return jack
            else:
                for i, card in enumerate(moves):
                    if card.rank is top:
                        rest[card.index >> 2] -= 1
                        self.left -= 1
                        return i
        seat = view.seat
        left = self.left
        unseen = left - n  # cards the mover has not seen: other hands, stock
        if unseen < 0:  # noqa: PLR1730  # a test, not a call of max, at every turn
            unseen = 0
        h = len(view.hands[facts.following[seat]])
        rows = facts.rows[unseen * facts.size + h]
        if rows is None:
            rows = facts.row(unseen, h)
        row = rows[0] if facts.opposed[seat] else rows[1]
        worth = facts.worth
        pile = 0.0
        for card in table:
            pile += worth[card]
        stake = pile + 0.2 * (piled + 1) + (facts.xeri if not piled else 0.0)
        order = facts.orders[n]
        if order is None:
            order = facts.order(n)
        bits, turns = order
        getrandbits = self.getrandbits
        if getrandbits is None:
            start = self.randrange(n)
        else:
            start = getrandbits(bits)
            while start >= n:
                start = getrandbits(bits)
        held = [0] * 13  # the mover's own cards are seen: `rest` less the hand
        for card in moves:
            held[card.index >> 2] += 1
        swept = facts.swept
        best, best_cost = start, math.inf
        for i in turns[start]:
            card = moves[i]
            r = card.index >> 2
            if r == swept:
                cost = 50.0
            else:
                w = worth[card]
                u = rest[r] - held[r]
                cost = w + (stake + w) * row[u] if u > 0 else w
            if cost < best_cost:
                best, best_cost = i, cost
        rest[moves[best].index >> 2] -= 1
        self.left = left - 1
        return best


def _policy_for(rules: RuleSet, rng: RandomSource) -> Policy:
    """The search bots' playout policy: `_FairPile` in a pile game, else `playout_policy`."""
    if rules.capture.pile:
        return _FairPile(rules, rng)
    return playout_policy(rng)


def _margin(total: Sequence[float], side: int) -> float:
    """The side's round total minus the best other side's."""
    other = max(t for s, t in enumerate(total) if s != side)
    return float(total[side] - other)


class _Finish:
    """How the search bots end a playout and price it, per side.

    Played to the end of the round with [`rollout`][xeri.rollout], a playout
    is priced by the round's totals. Truncated (`stop` set), it stops once
    the round's history reaches `stop` plays, the end of the deal the
    decision is in (of the next deal too when fewer than two plays a seat
    are left in it), and prices what each side has by the counting model:
    each card taken at its worth (`_prices`), each xeri at its bonus, and a
    build of the side's on the table at half its cards' worth. A round that
    ends before then is priced by its totals.
    """

    __slots__ = ("prices", "stop", "view")

    def __init__(self, observation: Observation, *, truncate: bool) -> None:
        rules = observation.rules
        self.stop: int | None = None
        self.view = RolloutView(rules)
        self.prices = _prices(rules) if truncate else None
        if truncate:
            left = sum(observation.hand_sizes)
            if left < 2 * rules.seats and observation.stock_size:
                left += min(observation.stock_size, rules.seats * rules.hand_size)
            self.stop = len(observation.history) + left

    def __call__(self, state: GameState, rng: RandomSource, policy: Policy) -> Sequence[float]:
        start = getattr(policy, "start", None)
        if start is not None:
            start(state)
        stop = self.stop
        if stop is None:
            end = rollout(state, rng, policy) if state.to_move is not None else state
            return end.round_results[-1].total
        view = self.view
        while (mover := state.to_move) is not None and len(state.history) < stop:
            moves = legal_moves(state)
            view.seat = mover
            view.moves = moves
            view.table = state.table
            view.hands = state.hands
            view.stock = len(state.stock)
            view.plays = len(state.history)
            view.state = state
            state = apply(state, moves[policy(view)])
        if state.is_round_over:
            return state.round_results[-1].total
        return self._priced(state)

    def _priced(self, state: GameState) -> list[float]:
        rules = state.rules
        sides = rules.sides
        prices: _Prices = self.prices  # type: ignore[assignment]  # set when truncating
        worth = prices.card
        values = [0.0] * rules.num_sides
        for take in state.takes:
            value = 0.0
            for card in take.cards:
                value += worth[card]
            if take.xeri is XeriKind.JACK_XERI:
                value += rules.jack_xeri_points
            elif take.xeri is not None:
                value += prices.sweep
            values[sides[take.seat]] += value
        for item in state.table:
            owner = getattr(item, "owner", None)
            if owner is not None:
                values[sides[owner]] += 0.5 * sum(worth[c] for c in item_cards(item))
        return values


def _sampler(observation: Observation) -> _Plan:
    """`determinize` for many draws from one observation: the counting is done once.

    Raises:
        InvalidStateError: no state is consistent with the observation.
    """
    plan = _Plan(observation)
    if not plan.total:
        raise InvalidStateError(plan.why_none())
    return plan


_ENDGAME_CARDS = {True: 12, False: 4}
"""The most cards left in all hands for which the bots call the solver, by the
capture rule's `pile` capability: the solver's work grows about fivefold per
card, and an open table has many more moves per card than a pile. Twelve in a
pile game is the whole last deal of the two-player Greek game."""

_ENDGAME_NODES = 8_000
"""The solver gives up past this many positions (about 0.07 s on one core of
the reference machine, at some 8.5 microseconds a position); the bot then
samples as usual, with `_AFTER_SOLVER` of its count of work. The whole last
Greek deal (12 cards) takes 5,000 to 11,000 positions, about half of them
within this bound; 11 cards about 3,300 at the median."""

_AFTER_SOLVER = (3, 10)
"""The fraction of its count of work a search runs after the solver gave up:
the part of the 0.1 s the solver left."""

CPU_SECONDS = 0.1
"""The default deadline of a search decision, in CPU seconds of its thread."""

_CPU_MARGIN = 0.002
"""The CPU seconds the search leaves before its deadline for what follows the
last unit of work (choosing the move) and for the work before its clock starts."""


class _Clock:
    """The deadline of one decision: CPU time of the thread, and wall-clock time.

    `over()` is asked after each unit of work (an iteration, a sample) and
    says True once the next unit, as long as the last one took, would end
    past either deadline; `passed()` says whether a deadline has passed,
    for the endgame solver, which checks it every few dozen positions.
    """

    __slots__ = ("cpu_end", "last_cpu", "last_wall", "wall_end")

    def __init__(self, cpu_seconds: float | None, seconds: float | None) -> None:
        now_cpu, now_wall = time.thread_time(), time.perf_counter()
        self.cpu_end = (
            math.inf
            if cpu_seconds is None
            else now_cpu + max(cpu_seconds / 2, cpu_seconds - _CPU_MARGIN)
        )
        self.wall_end = math.inf if seconds is None else now_wall + seconds
        self.last_cpu, self.last_wall = now_cpu, now_wall

    def passed(self) -> bool:
        """Whether either deadline has passed."""
        return time.thread_time() >= self.cpu_end or time.perf_counter() >= self.wall_end

    def over(self) -> bool:
        """Whether the next unit of work would end past a deadline (see the class)."""
        now_cpu, now_wall = time.thread_time(), time.perf_counter()
        cpu_step, wall_step = now_cpu - self.last_cpu, now_wall - self.last_wall
        self.last_cpu, self.last_wall = now_cpu, now_wall
        return now_cpu + cpu_step >= self.cpu_end or now_wall + wall_step >= self.wall_end


def _solved(
    observation: Observation, plan: _Plan, rng: RandomSource, clock: _Clock
) -> PlayerMove | bool | None:
    """The solver's move when the rest of the round is determined and small.

    None when the solver is not called; False when it was and gave up (too big).
    """
    rules = observation.rules
    if rules.num_sides != 2 or plan.total * plan.rest_orders != 1:
        return None
    if sum(observation.hand_sizes) > _ENDGAME_CARDS[bool(rules.capture.pile)]:
        return None
    solution = _solve(plan.draw(rng), _ENDGAME_NODES, clock.passed)
    return False if solution is None else solution.move


def _candidates(
    moves: Sequence[PlayerMove], observation: Observation, rng: RandomSource
) -> Sequence[PlayerMove]:
    """The moves a search bot weighs: all, or the bounded candidates above the cap."""
    return candidates(moves, rng, hand=observation.hand, table=observation.table)


def _start(  # noqa: PLR0917  # internal, positional like its neighbours
    observation: Observation,
    moves: Sequence[PlayerMove],
    rng: RandomSource,
    endgame: bool,  # noqa: FBT001  # internal, positional like its neighbours
    clock: _Clock,
    infer: bool | None,  # noqa: FBT001  # internal, positional like its neighbours
) -> tuple[_Belief, bool] | PlayerMove:
    """What both search bots do first: the move when no search is needed, else the belief.

    The move is the only legal one (no sampling plan is counted for it), or
    the solver's when the rest of the round is determined and small (by the
    rules alone, not the belief). With the belief that draws the samples
    (`infer` None: the family's default, `_INFERS`) comes whether the solver
    was tried and gave up.
    """
    if len(moves) == 1:
        return moves[0]
    plan = _sampler(observation)
    solved = _solved(observation, plan, rng, clock) if endgame else None
    if solved is None or solved is False:
        infers = _INFERS[family(observation.rules)] if infer is None else infer
        return _Belief(plan, infer=infers, sweep_pile=_SWEEP_PILE), solved is False
    return solved  # type: ignore[return-value]  # a move


_INFERS = {"pile": True, "partners": True, "sums": False}
"""Whether the search bots read declined captures into their samples by
default (`infer`), by family: in the pile games, where a seat that could
take the pile by rank nearly always does."""

_SWEEP_PILE = 3
"""A seat that lays a card on a pile of this many visible cards or more is
taken to hold no sweeper: the counting bot keeps its Jack for piles of
three and more (a take of four cards with the Jack), and the greedy bot
sweeps any pile with points."""


def _cpu_deadline(cpu_seconds: float | None, count: int | None) -> float | None:
    """A search bot's CPU deadline: `cpu_seconds` when set, else 0.1 at the default count."""
    if cpu_seconds is not None:
        return cpu_seconds
    return CPU_SECONDS if count is None else None


def _check_budget(name: str, count: int | None, seconds: float | None) -> None:
    """Refuse a search budget that is not a positive int or None, or seconds not positive."""
    if count is not None and (type(count) is not int or count < 1):
        raise ArgumentError(f"{name} must be a positive int or None, not {_show(count)}")
    if seconds is not None and not (type(seconds) in (int, float) and 0 < seconds < math.inf):
        raise ArgumentError(f"seconds must be a positive number or None, not {_show(seconds)}")


def _check_seconds(name: str, seconds: float | None) -> None:
    """Refuse a deadline that is not a positive number or None."""
    if seconds is not None and not (type(seconds) in (int, float) and 0 < seconds < math.inf):
        raise ArgumentError(f"{name} must be a positive number or None, not {_show(seconds)}")


def _check_flag(name: str, value: bool | None) -> None:  # noqa: FBT001  # the flag checked
    if value is not None and type(value) is not bool:
        raise ArgumentError(f"{name} must be True, False or None, not {_show(value)}")


def family(rules: RuleSet) -> str:
    """The family of a rule set whose search settings the bots share.

    `"pile"` for a pile game with one player a side (GREEK, PISTI),
    `"partners"` for a pile game with partners (GREEK_FOUR, [F1][rules-f1]),
    `"sums"` for an open table (GERMAN, SCOPA, CASSINO, [D3][rules-d3]),
    partners or not. The search bots' defaults are set per family
    ([`PIMCBot`][xeri.bots.PIMCBot], [`ISMCTSBot`][xeri.bots.ISMCTSBot]).

    Args:
        rules: any rule set.

    Returns:
        `"pile"`, `"partners"` or `"sums"`.
    """
    if not rules.capture.pile:
        return "sums"
    return "partners" if rules.num_sides != rules.seats else "pile"


_PLAYOUTS = {"sums": 300}
"""The default work of one decision on an open table, in playouts: a decision
of a bot left at its defaults plays about this many (more with few legal
moves, fewer with many). An open-table playout, through the public engine
and truncated at the end of the deal (`_Finish`), takes about 0.2 ms. The
pile families plan their work by the plays left (`_PILE_WALK`)."""

_SLOW_SUMS = (2, 3)
"""Open-table rule sets with multiple captures or builds (Cassino) play out
slower: their default work is multiplied by this fraction."""

_SEARCH_FORM = {"pile": (True, True), "partners": (True, True), "sums": (True, True)}
"""`ISMCTSBot`'s default `(paired, model_others)` by family: the strongest form measured."""


_TRUNCATES = {"pile": True, "partners": False, "sums": True}
"""Whether the family's playouts stop at the end of the deal (`_Finish`), by
family: on an open table and in the two-player pile games, where a truncated
playout measured at least as strong as a whole round and cheaper; not yet
with partners, where it was not measured."""


def _truncates(rules: RuleSet) -> bool:
    """Whether the family's playouts stop at the end of the deal (see `_Finish`)."""
    return _TRUNCATES[family(rules)]


_PILE_WALK = {"pile": (70.0, 5.0), "partners": (90.0, 6.0)}
"""What one playout costs in the pile families, in microseconds of one core
of the reference machine: a fixed part (sampling, the tree's walk) plus a
part for every play left in the round, with the counting playout policy
(`_FairPile`). Measured with `ISMCTSBot` at fixed counts on observations of
random points of random rounds, fitted by least squares, and rounded up.
The count is planned at this cost of a whole round's playout also in the
two-player pile games, whose playouts stop at the end of the deal
(`_TRUNCATES`): their decisions take a half to a third of the time of
whole playouts, and more iterations measured no stronger there."""

_PILE_BUDGET = 0.075
"""The CPU seconds of playouts a default decision plans in the pile families:
with the cost above, a decision's fixed count of work fits in this, leaving
the rest of `CPU_SECONDS` for the sampler and the solver's attempt."""

_MAX_WORK = 4_000
"""The most playouts a default decision plans, however cheap they are."""


def _work(observation: Observation, moves: int) -> int:
    """Samples (PIMC) or iterations (paired IS-MCTS) of a decision at the defaults."""
    rules = observation.rules
    kind = family(rules)
    if kind in _PILE_WALK:
        fixed, per_play = _PILE_WALK[kind]
        left = sum(observation.hand_sizes) + observation.stock_size
        playouts = min(_MAX_WORK, int(_PILE_BUDGET * 1e6 / (fixed + per_play * left)))
        return max(4, playouts // max(1, moves))
    work = _PLAYOUTS[kind]
    capture = rules.capture
    if kind == "sums" and (
        getattr(capture, "multi_capture", False) or getattr(capture, "multi_builds", False)
    ):
        work = work * _SLOW_SUMS[0] // _SLOW_SUMS[1]
    return max(4, work // max(1, moves))


@attrs.frozen(kw_only=True)
class PIMCBot(_Immutable):
    """Perfect-information Monte Carlo: sample the hidden cards, play each move out.

    Each sample is a full state drawn with [`determinize`][xeri.determinize];
    every legal move is applied to it and the round is played out with the
    playout policy (the module's: [`playout_policy`][xeri.bots.playout_policy]
    on an open table, a counting policy in a pile game). The move with the best
    average margin over the samples is played (the first in move order among
    equals). Every move is tried on the same samples, so their comparison is
    paired.

    With no arguments the bot is at its strongest measured form within
    0.1 s of CPU time a decision: its number of samples is set by the rule
    set's [`family`][xeri.bots.family], the number of legal moves and, in
    the pile games, the plays left in the round (about 0.075 s of playouts
    to the end of the round at their measured cost: some 250 playouts at the
    start of a round, several times more near its end, played to the end of
    the deal in the two-player pile games, so fewer CPU seconds than that,
    and to the end of the round with partners; 300 truncated ones on an open table,
    two thirds of that with Cassino's multiple captures and builds), so
    every run replays exactly with its seed. `samples=` fixes the count
    (and lifts the deadline, for exact replays), `cpu_seconds=` sets the
    deadline, `seconds=` adds a wall-clock cap.
    """

    samples: int | None = None
    """How many sampled states each decision uses at most; None: set by the family (above)."""
    seconds: float | None = None
    """A wall-clock budget per decision, or None; at least one sample is always taken."""
    cpu_seconds: float | None = None
    """The deadline of a decision in CPU seconds of the bot's thread
    (`time.thread_time`). None: 0.1 s when the count is the family's default
    (the safety net over it, which fits well within it on one core of the
    reference machine), no deadline when `samples` fixes the count, so that
    a fixed count replays exactly on any machine. Checked after every
    sample, before every playout of a sample after the first, and by the
    endgame solver every 64 positions; the search stops when the next
    sample would end past it. Other work on the machine does not use up
    this budget, though it can slow the core down."""
    truncate: bool | None = None
    """Whether playouts stop at the end of the current deal and price the round
    so far by the counting model rather than play to the end of the round.
    None: the family's default: True on an open table (its playouts go through
    the public engine, and a deal is a quarter of a round or less) and in the
    two-player pile games (GREEK, PISTI: as strong as whole rounds, at about
    half the CPU time), False with partners (GREEK_FOUR)."""
    endgame: bool = True
    """Whether to solve the round exactly once it is determined for the seat."""
    infer: bool | None = None
    """Whether the sampled hands follow what the other seats' lays reveal:
    a seat that laid a card on a pile whose top card it could have taken by
    rank (or, on a pile of three or more, swept) is taken to hold no such
    card, held softly: a state where it does is drawn at a twentieth of the
    weight, never excluded. Only the current deal's public plays are read.
    None: the family's default, True in the pile games (a seat there
    nearly always takes when it can), False on an open table."""

    def __attrs_post_init__(self) -> None:
        _check_budget("PIMCBot.samples", self.samples, self.seconds)
        _check_seconds("PIMCBot.cpu_seconds", self.cpu_seconds)
        _check_flag("PIMCBot.truncate", self.truncate)
        _check_flag("PIMCBot.infer", self.infer)

    def cpu_deadline(self) -> float | None:
        """The CPU seconds a decision may take at most, or None for no deadline.

        Returns:
            `cpu_seconds` when set; else 0.1 at the default count, None with a fixed one.
        """
        return _cpu_deadline(self.cpu_seconds, self.samples)

    def samples_for(self, observation: Observation) -> int:
        """How many samples a decision in `observation` draws at most.

        Args:
            observation: what the seat to move sees.

        Returns:
            `samples`, or the family's default for this many legal moves.
        """
        if self.samples is not None:
            return self.samples
        return _work(observation, len(legal_moves(observation)))

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The move with the best sampled playouts; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        clock = _Clock(self.cpu_deadline(), self.seconds)
        moves = _candidates(moves_to_choose(observation), observation, rng)
        started = _start(observation, moves, rng, self.endgame, clock, self.infer)
        if not isinstance(started, tuple):
            return started
        belief, gave_up = started
        draw = belief.draw
        side = observation.rules.sides[_seat(observation)]
        totals = [0.0] * len(moves)
        over = clock.over
        rules = observation.rules
        count = self.samples if self.samples is not None else _work(observation, len(moves))
        if gave_up:
            count = max(1, count * _AFTER_SOLVER[0] // _AFTER_SOLVER[1])
        truncate = _truncates(rules) if self.truncate is None else self.truncate
        finish = _Finish(observation, truncate=truncate)
        done = [0] * len(moves)
        passed = clock.passed
        for k in range(count):
            state = draw(rng)
            # Common random numbers: every move's playout of this sample draws
            # the same numbers, so the moves are compared on equal luck.
            seed = rng.randrange(1 << 62)
            for i, move in enumerate(moves):
                if k and passed():  # a long sample stops at the deadline, mid-way
                    break
                playout = random.Random(seed)
                policy = _policy_for(rules, playout)
                totals[i] += _margin(finish(apply(state, move), playout, policy), side)
                done[i] += 1
            else:
                if not over():
                    continue
            break
        return moves[max(range(len(moves)), key=lambda i: totals[i] / done[i])]


class _Node:
    """One move's statistics in the tree of an information-set search."""

    __slots__ = ("avail", "children", "side", "total", "visits")

    def __init__(self, side: int) -> None:
        self.side = side
        """The side of the seat that made the move leading here."""
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.children: dict[PlayerMove, _Node] = {}


class _Tree:
    """The search tree of one decision, and one iteration over it."""

    def __init__(
        self,
        root_rules: RuleSet,
        *,
        scale: float,
        c: float,
        policy: Policy,
        root: _Node,
        depth: int,
        model_others: bool,
        finish: _Finish,
    ) -> None:
        sides = root_rules.sides
        self.finish = finish
        self.sides = sides
        self.scale = scale
        self.c = c
        self.policy = policy
        self.root = root
        self.view = RolloutView(root_rules)
        self.depth = depth
        self.model_others = model_others

    def _guided(
        self, state: GameState, available: Sequence[PlayerMove], policy: Policy | None
    ) -> PlayerMove:
        """The move the playout policy picks in `state`."""
        view = self.view
        view.seat = state.to_move  # type: ignore[assignment]  # a seat is to move
        view.moves = available
        view.table = state.table
        view.hands = state.hands
        view.stock = len(state.stock)
        view.plays = len(state.history)
        view.state = state
        chosen = self.policy if policy is None else policy
        start = getattr(chosen, "start", None)
        if start is not None:
            start(state)
        return available[chosen(view)]

    def iterate(
        self,
        state: GameState,
        rng: RandomSource,
        policy: Policy | None = None,
        first: PlayerMove | None = None,
    ) -> None:
        """Walk down with UCB among the moves legal in `state`, add one, play out, credit.

        With `first`, the walk starts with that move at the root.
        """
        sides, c = self.sides, self.c
        log, sqrt = math.log, math.sqrt
        node = self.root
        path: list[_Node] = []
        if first is not None:
            child = node.children.get(first)
            if child is None:
                child = node.children[first] = _Node(node.side)
            node = child
            state = apply(state, first)
            path.append(child)
        depth = self.depth
        me = self.root.side
        modelled = self.model_others
        while (mover := state.to_move) is not None and len(path) < depth:
            available: Sequence[PlayerMove] = legal_moves(state)
            if len(available) > CANDIDATES:  # else `candidates` gives the moves as they are
                available = candidates(available, rng, hand=state.hands[mover], table=state.table)
            children = node.children
            if modelled and sides[mover] != me:
                # Another side's move, played by the policy: an opponent model.
                move = self._guided(state, available, policy)
                known = children.get(move)
                node = known if known is not None else children.setdefault(move, _Node(-1))
                state = apply(state, move)
                continue
            untried = [m for m in available if m not in children]
            if untried:
                # The playout policy's own pick first, when it is untried: the
                # first visits of a node then follow the likeliest good reply.
                move = self._guided(state, available, policy)
                if move in children:
                    move = untried[rng.randrange(len(untried))]
                child = children[move] = _Node(sides[mover])
                for m in available:
                    known = children.get(m)
                    if known is not None:
                        known.avail += 1
                state = apply(state, move)
                path.append(child)
                break
            best = available[0]
            best_score = -math.inf
            for m in available:
                child = children[m]
                child.avail += 1
                score = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = m, score
            node = children[best]
            state = apply(state, best)
            path.append(node)
        policy = self.policy if policy is None else policy
        self._credit(path, self.finish(state, rng, policy))

    def _credit(self, path: list[_Node], total: Sequence[float]) -> None:
        """Add the playout's margin to every node of the path, from its mover's side."""
        scale = self.scale
        for n in path:
            mine = total[n.side]
            other = max(t for s, t in enumerate(total) if s != n.side)
            n.visits += 1
            n.total += (mine - other) / scale


@attrs.frozen(kw_only=True)
class ISMCTSBot(_Immutable):
    """Single-observer information-set Monte Carlo tree search.

    One tree over the moves seen from the bot's seat, shared by every sample:
    each iteration draws a state with [`determinize`][xeri.determinize],
    walks down the tree among the moves legal in that state (choosing by
    UCB with availability counts), adds one new move, plays the round out
    with the playout policy (as [`PIMCBot`][xeri.bots.PIMCBot]'s), and credits the
    margin of the mover's side to every move on the path (a partner's
    capture is its side's). The most visited move at the root is played
    (with `paired`, the best mean).

    With no arguments the bot is at its strongest measured form within
    0.1 s of CPU time a decision: paired, with the other sides played by the
    playout policy (the form of the strategy page's ladder), and its
    iterations set by the rule set's [`family`][xeri.bots.family], the
    number of legal moves and the plays left, as
    [`PIMCBot`][xeri.bots.PIMCBot]'s samples are; every run replays exactly
    with its seed. Each keyword changes one setting: `iterations=` fixes the
    count (and lifts the deadline), `cpu_seconds=` sets the deadline,
    `seconds=` adds a wall-clock cap, `paired=False` or `model_others=False` give the plain search.
    """

    iterations: int | None = None
    """How many iterations each decision runs at most; None: set by the family (above).
    A paired iteration walks once from every legal move."""
    seconds: float | None = None
    """A wall-clock budget per decision, or None; at least one iteration always runs."""
    cpu_seconds: float | None = None
    """The deadline of a decision in CPU seconds of the bot's thread, as
    [`PIMCBot.cpu_seconds`][xeri.bots.PIMCBot.cpu_seconds]; None: 0.1 s at
    the default count, none when `iterations` fixes it."""
    exploration: float = 0.35
    """The UCB exploration constant, for margins scaled by the points of a round."""
    depth: int | None = None
    """How many plays deep the tree grows (None: to the end of the round); below
    it, the playout policy plays."""
    model_others: bool | None = None
    """Whether the other sides' moves in the tree are played by the playout
    policy (an opponent model) rather than searched;
    the tree then branches on this side's own decisions only (a partner's
    included). None: the family's default (True for every family so far)."""
    paired: bool | None = None
    """Whether each iteration walks down once from every move at the root, on
    the same sampled state and with the same random numbers, so that the moves
    are compared on equal luck as [`PIMCBot`][xeri.bots.PIMCBot] compares them;
    the move with the best mean is then played. An iteration then costs one
    walk per legal move. None: the family's default (True for every family so far)."""
    truncate: bool | None = None
    """Whether playouts stop at the end of the current deal and price the round
    so far by the counting model, as [`PIMCBot.truncate`][xeri.bots.PIMCBot.truncate];
    None: the family's default (True on an open table and in the two-player
    pile games, False with partners)."""
    endgame: bool = True
    """Whether to solve the round exactly once it is determined for the seat."""
    infer: bool | None = None
    """Whether the sampled hands follow what the other seats' lays reveal:
    a seat that laid a card on a pile whose top card it could have taken by
    rank (or, on a pile of three or more, swept) is taken to hold no such
    card, held softly: a state where it does is drawn at a twentieth of the
    weight, never excluded. Only the current deal's public plays are read.
    None: the family's default, True in the pile games (a seat there
    nearly always takes when it can), False on an open table."""

    def __attrs_post_init__(self) -> None:
        _check_flag("ISMCTSBot.infer", self.infer)
        _check_budget("ISMCTSBot.iterations", self.iterations, self.seconds)
        _check_seconds("ISMCTSBot.cpu_seconds", self.cpu_seconds)
        _check_flag("ISMCTSBot.truncate", self.truncate)
        _check_flag("ISMCTSBot.paired", self.paired)
        _check_flag("ISMCTSBot.model_others", self.model_others)

    def cpu_deadline(self) -> float | None:
        """The CPU seconds a decision may take at most, or None for no deadline.

        Returns:
            `cpu_seconds` when set; else 0.1 at the default count, None with a fixed one.
        """
        return _cpu_deadline(self.cpu_seconds, self.iterations)

    def settings(self, observation: Observation) -> tuple[int, bool, bool]:
        """The `(iterations, paired, model_others)` a decision in `observation` uses.

        Args:
            observation: what the seat to move sees.

        Returns:
            Each setting as given, or the family's default where it is None.
        """
        return self._settings(observation, len(legal_moves(observation)))

    def _settings(self, observation: Observation, moves: int) -> tuple[int, bool, bool]:
        rules = observation.rules
        default_paired, default_model = _SEARCH_FORM[family(rules)]
        paired = default_paired if self.paired is None else self.paired
        model = default_model if self.model_others is None else self.model_others
        if self.iterations is not None:
            return self.iterations, paired, model
        work = _work(observation, moves)
        # An unpaired iteration is one walk: as many as a paired search walks.
        return (work if paired else work * max(1, moves)), paired, model

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The search's move; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        clock = _Clock(self.cpu_deadline(), self.seconds)
        moves = _candidates(moves_to_choose(observation), observation, rng)
        started = _start(observation, moves, rng, self.endgame, clock, self.infer)
        if not isinstance(started, tuple):
            return started
        belief, gave_up = started
        draw = belief.draw
        rules = observation.rules
        iterations, paired, model_others = self._settings(observation, len(moves))
        if gave_up:
            iterations = max(1, iterations * _AFTER_SOLVER[0] // _AFTER_SOLVER[1])
        search = _Tree(
            rules,
            scale=float(max(1, rules.card_points.total + rules.majority_points)),
            c=self.exploration,
            policy=_policy_for(rules, rng),
            root=_Node(rules.sides[_seat(observation)]),
            depth=self.depth if self.depth is not None else 1 << 30,
            model_others=model_others,
            finish=_Finish(
                observation,
                truncate=_truncates(rules) if self.truncate is None else self.truncate,
            ),
        )
        over = clock.over
        passed = clock.passed
        for k in range(iterations):
            state = draw(rng)
            if paired:
                seed = rng.randrange(1 << 62)
                for move in moves:
                    if k and passed():  # a long iteration stops at the deadline, mid-way
                        break
                    playout = random.Random(seed)
                    search.iterate(state, playout, _policy_for(rules, playout), move)
                else:
                    if not over():
                        continue
                break
            search.iterate(state, rng)
            if over():
                break
        children = search.root.children
        if paired:
            return max(moves, key=lambda m: children[m].total / children[m].visits)
        return max(moves, key=lambda m: children[m].visits if m in children else -1)

"""Search bots: [`PIMCBot`][xeri.bots.PIMCBot] and [`ISMCTSBot`][xeri.bots.ISMCTSBot].

Both sample the cards their seat cannot see with
[`determinize`][xeri.determinize], every consistent deal equally likely,
and play rounds out with [`rollout`][xeri.rollout] under a fast playout
policy ([`playout_policy`][xeri.bots.playout_policy]). Both judge a round
by their side's round total minus the best other side's
([G10][rules-g10], [D8][rules-d8]), and both switch to the exact
[`solve_endgame`][xeri.bots.solve_endgame] once the rest of the round is
determined for them (a single consistent state, two sides) and small
enough to solve at once: at most 11 cards left in all hands in a pile game
(in the two-player Greek game, from the second play of the last deal), 4 on
an open table; a search that grows past 20,000 positions, or past the
bot's `seconds` budget, is abandoned for sampling.

Budgets are given in samples or iterations, which replay exactly under a
seeded generator, or in seconds of wall-clock time, which do not.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence

import attrs

from xeri._agents.observation import Observation, _seat
from xeri._agents.rollouts import Policy, RolloutView, rollout
from xeri._agents.sampling import _Plan
from xeri._cards import Card
from xeri._core.engine import RandomSource, apply, legal_moves
from xeri._core.state import GameState
from xeri._errors import ArgumentError, InvalidStateError, _show
from xeri._immutable import _Immutable
from xeri._moves import Capture, PlayerMove, Trail
from xeri._rules.ruleset import RuleSet
from xeri.bots.base import moves_to_choose
from xeri.bots.endgame import _solve

__all__ = ["ISMCTSBot", "PIMCBot", "playout_policy"]


def playout_policy(rng: RandomSource) -> Policy:
    """A fast, greedy-minded policy for [`rollout`][xeri.rollout], drawing from `rng`.

    In a pile game ([G6][rules-g6]) it takes the pile with a card of the top
    card's rank when it has one, sweeps a pile of two or more cards with
    the sweeper, and otherwise lays a card, preferring one the next seat
    holds no card of the same rank to take, then one worth no points, and
    the sweeper last. On an open table ([D3][rules-d3]) it makes the capture
    taking the most cards; otherwise it lays a card free, preferring one the
    next seat holds no card of the same rank to take, and builds only when
    it cannot lay a card free. It reads the next hand from the view (a
    rollout plays a full, sampled state); ties are broken at random.
    Playouts with it judge moves far better than uniformly random ones.

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
        return _table_choice(view, randrange)

    return policy


def _table_choice(view: RolloutView, randrange: Callable[[int], int]) -> int:
    """The playout's pick on an open table: the biggest capture, else lay a safe card."""
    moves = view.moves
    best, most = -1, 0
    trails: list[int] = []
    for i, move in enumerate(moves):
        kind = type(move)
        if kind is Capture:
            taken = len(move.taken)  # type: ignore[union-attr]  # a Capture
            if taken > most:
                best, most = i, taken
        elif kind is Trail:
            trails.append(i)
    if best >= 0:
        return best
    if not trails:
        return randrange(len(moves))
    # Lay a card the next seat cannot take by its rank, when there is one.
    hands = view.hands
    answers = {card.rank for card in hands[(view.seat + 1) % len(hands)]} if hands else set()
    start = randrange(len(trails))
    for k in range(len(trails)):
        i = trails[(start + k) % len(trails)]
        if moves[i].card.rank not in answers:
            return i
    return trails[start]


def _pile_choice(view: RolloutView, sweeper: object, randrange: Callable[[int], int]) -> int:
    """The playout's pick in a pile game: take by rank, sweep a pile worth it, else lay safe."""
    moves: Sequence[Card] = view.moves  # type: ignore[assignment]  # pile moves are cards
    table: Sequence[Card] = view.table  # type: ignore[assignment]  # a pile holds cards
    if table:
        top = table[-1].rank
        for i, card in enumerate(moves):
            if card.rank is top:
                return i
        if len(table) >= 2:
            for i, card in enumerate(moves):
                if card.rank is sweeper:
                    return i
    # Lay a card: the playout plays a full state, so it may look at the next
    # hand. Prefer a card the next seat cannot take by rank, then one worth
    # no points; never the sweeper while another card will do.
    hands = view.hands
    answers = {card.rank for card in hands[(view.seat + 1) % len(hands)]} if hands else set()
    points = view.rules.card_points.points
    n = len(moves)
    start = randrange(n)
    best, best_cost = start, 99
    for k in range(n):
        i = (start + k) % n
        card = moves[i]
        rank = card.rank
        cost = 4 if rank is sweeper else (2 if rank in answers else 0) + (1 if points(card) else 0)
        if cost < best_cost:
            best, best_cost = i, cost
    return best


def _margin(end: GameState, side: int) -> float:
    """The side's round total minus the best other side's."""
    total = end.round_results[-1].total
    other = max(t for s, t in enumerate(total) if s != side)
    return float(total[side] - other)


def _sampler(observation: Observation) -> _Plan:
    """`determinize` for many draws from one observation: the counting is done once.

    Raises:
        InvalidStateError: no state is consistent with the observation.
    """
    plan = _Plan(observation)
    if not plan.total:
        raise InvalidStateError(plan.why_none())
    return plan


_ENDGAME_CARDS = {True: 11, False: 4}
"""The most cards left in all hands for which the bots call the solver, by the
capture rule's `pile` capability: the solver's work grows about fivefold per
card, and an open table has many more moves per card than a pile."""

_ENDGAME_NODES = 20_000
"""The solver gives up past this many positions; the bot then samples as usual."""


def _solved(
    observation: Observation, plan: _Plan, rng: RandomSource, seconds: float | None
) -> PlayerMove | None:
    """The solver's move when the rest of the round is determined and small, else None."""
    rules = observation.rules
    if rules.num_sides != 2 or plan.total * plan.rest_orders != 1:
        return None
    if sum(observation.hand_sizes) > _ENDGAME_CARDS[bool(rules.capture.pile)]:
        return None
    solution = _solve(plan.draw(rng), _ENDGAME_NODES, seconds)
    return None if solution is None else solution.move  # None: too large after all, sample


def _start(
    observation: Observation,
    moves: Sequence[PlayerMove],
    rng: RandomSource,
    endgame: bool,  # noqa: FBT001  # internal, positional like its neighbours
    seconds: float | None,
) -> _Plan | PlayerMove:
    """What both search bots do first: the move when no search is needed, else the plan.

    The move is the only legal one (no sampling plan is counted for it), or
    the solver's when the rest of the round is determined and small.
    """
    if len(moves) == 1:
        return moves[0]
    plan = _sampler(observation)
    solved = _solved(observation, plan, rng, seconds) if endgame else None
    return plan if solved is None else solved


def _deadline(seconds: float | None) -> Callable[[], bool]:
    if seconds is None:
        return lambda: False
    end = time.perf_counter() + seconds
    return lambda: time.perf_counter() >= end


def _check_budget(name: str, count: int, seconds: float | None) -> None:
    """Refuse a search budget that is not a positive int, or seconds that are not positive."""
    if type(count) is not int or count < 1:
        raise ArgumentError(f"{name} must be a positive int, not {_show(count)}")
    if seconds is not None and not (type(seconds) in (int, float) and 0 < seconds < math.inf):
        raise ArgumentError(f"seconds must be a positive number or None, not {_show(seconds)}")


@attrs.frozen(kw_only=True)
class PIMCBot(_Immutable):
    """Perfect-information Monte Carlo: sample the hidden cards, play each move out.

    Each sample is a full state drawn with [`determinize`][xeri.determinize];
    every legal move is applied to it and the round is played out with
    [`playout_policy`][xeri.bots.playout_policy]. The move with the best
    average margin over the samples is played (the first in move order among
    equals). Every move is tried on the same samples, so their comparison is
    paired.
    """

    samples: int = 40
    """How many sampled states each decision uses at most."""
    seconds: float | None = None
    """A wall-clock budget per decision, or None; at least one sample is always taken."""
    endgame: bool = True
    """Whether to solve the round exactly once it is determined for the seat."""

    def __attrs_post_init__(self) -> None:
        _check_budget("PIMCBot.samples", self.samples, self.seconds)

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The move with the best sampled playouts; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        moves = moves_to_choose(observation)
        plan = _start(observation, moves, rng, self.endgame, self.seconds)
        if not isinstance(plan, _Plan):
            return plan
        draw = plan.draw
        side = observation.rules.sides[_seat(observation)]
        totals = [0.0] * len(moves)
        over = _deadline(self.seconds)
        for _ in range(self.samples):
            state = draw(rng)
            # Common random numbers: every move's playout of this sample draws
            # the same numbers, so the moves are compared on equal luck.
            seed = rng.randrange(1 << 62)
            for i, move in enumerate(moves):
                playout = random.Random(seed)
                policy = playout_policy(playout)
                totals[i] += _margin(rollout(apply(state, move), playout, policy), side)
            if over():
                break
        return moves[max(range(len(moves)), key=totals.__getitem__)]


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
    ) -> None:
        sides = root_rules.sides
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
        return available[(self.policy if policy is None else policy)(view)]

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
            available = legal_moves(state)
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
        end = rollout(state, rng, policy) if state.to_move is not None else state
        self._credit(path, end)

    def _credit(self, path: list[_Node], end: GameState) -> None:
        """Add the round's margin to every node of the path, from its mover's side."""
        total = end.round_results[-1].total
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
    with [`playout_policy`][xeri.bots.playout_policy], and credits the
    margin to every move on the path from the mover's side's point of view.
    The most visited move at the root is played.
    """

    iterations: int = 600
    """How many iterations each decision runs at most."""
    seconds: float | None = None
    """A wall-clock budget per decision, or None; at least one iteration always runs."""
    exploration: float = 0.35
    """The UCB exploration constant, for margins scaled by the points of a round."""
    depth: int | None = None
    """How many plays deep the tree grows (None: to the end of the round); below
    it, the playout policy plays."""
    model_others: bool = False
    """Whether the other sides' moves in the tree are played by the playout
    policy (an opponent model that sees the sampled hands) rather than searched;
    the tree then branches on this side's own decisions only."""
    paired: bool = False
    """Whether each iteration walks down once from every move at the root, on
    the same sampled state and with the same random numbers, so that the moves
    are compared on equal luck as [`PIMCBot`][xeri.bots.PIMCBot] compares them;
    the move with the best mean is then played. An iteration then costs one
    walk per legal move."""
    endgame: bool = True
    """Whether to solve the round exactly once it is determined for the seat."""

    def __attrs_post_init__(self) -> None:
        _check_budget("ISMCTSBot.iterations", self.iterations, self.seconds)

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The most visited move of the search; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        moves = moves_to_choose(observation)
        plan = _start(observation, moves, rng, self.endgame, self.seconds)
        if not isinstance(plan, _Plan):
            return plan
        draw = plan.draw
        rules = observation.rules
        search = _Tree(
            rules,
            scale=float(max(1, rules.card_points.total + rules.majority_points)),
            c=self.exploration,
            policy=playout_policy(rng),
            root=_Node(rules.sides[_seat(observation)]),
            depth=self.depth if self.depth is not None else 1 << 30,
            model_others=self.model_others,
        )
        over = _deadline(self.seconds)
        for _ in range(self.iterations):
            state = draw(rng)
            if self.paired:
                seed = rng.randrange(1 << 62)
                for move in moves:
                    playout = random.Random(seed)
                    search.iterate(state, playout, playout_policy(playout), move)
            else:
                search.iterate(state, rng)
            if over():
                break
        children = search.root.children
        if self.paired:
            return max(moves, key=lambda m: children[m].total / children[m].visits)
        return max(moves, key=lambda m: children[m].visits if m in children else -1)

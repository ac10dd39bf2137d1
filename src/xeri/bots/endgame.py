"""An exact solver for the rest of a round: [`solve_endgame`][xeri.bots.solve_endgame].

Once every card's place is known to the player (in the two-player Greek
game, once the stock is empty: every card not seen is in the other hand),
the rest of the round is a game of perfect information. The solver
searches it to the end with alpha-beta pruning and a transposition table,
maximising the side to move's round points minus the other side's
([G10][rules-g10], [D8][rules-d8]).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import attrs

from xeri._core.engine import apply, legal_moves
from xeri._core.state import GameState, Take
from xeri._errors import ArgumentError, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove

__all__ = ["EndgameSolution", "solve_endgame"]


@attrs.frozen(kw_only=True)
class EndgameSolution(_Immutable):
    """The exact value of a round's remaining plays, and a move that reaches it."""

    move: PlayerMove
    """A best move for the seat to move: among equals, the first the search tried
    (the moves that win the most points at once first, then in the order of
    `legal_moves`)."""
    value: int
    """The side to move's round total minus the other side's, with best play by both."""
    nodes: int
    """How many positions the search visited."""


_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = 1 << 40

_Summary = tuple[int, int, int, int, int]
"""Captured cards and points of sides 0 and 1 so far, and the last capturer's side + 1."""


def solve_endgame(
    state: GameState, *, max_nodes: int = 2_000_000, max_seconds: float | None = None
) -> EndgameSolution:
    """Solve the rest of the round from a full state, by both sides playing their best.

    Args:
        state: a two-sided state with a seat to move; every card's place in
            it is taken as known, so pass it only when the rest of the round
            is determined for the mover (or to study a position).
        max_nodes: give up after visiting this many positions.
        max_seconds: give up after this much wall-clock time, or never (None).

    Returns:
        The best move and the value of the round for the mover's side.

    Raises:
        ArgumentError: `state` is not a state with a seat to move, its rule set
            does not have exactly two sides, `max_nodes` is not a positive int
            or `max_seconds` not a positive number or None, or the search
            passed `max_nodes` or `max_seconds` (the budget is too small for
            this endgame).

    Examples:
        >>> import random, xeri
        >>> from xeri.bots import solve_endgame
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
        >>> while len(state.stock) or len(state.hands[state.to_move]) > 2:
        ...     state = xeri.apply(state, xeri.legal_moves(state)[0])
        >>> solution = solve_endgame(state)
        >>> solution.move in xeri.legal_moves(state)
        True
    """
    if type(state) is not GameState or state.to_move is None:
        raise ArgumentError("solve_endgame needs a state with a seat to move")
    rules = state.rules
    if rules.num_sides != 2:
        raise ArgumentError(f"solve_endgame solves two-sided games, not {rules.num_sides} sides")
    if type(max_nodes) is not int or max_nodes < 1:
        raise ArgumentError(f"max_nodes must be a positive int, not {_show(max_nodes)}")
    if max_seconds is not None and not (
        type(max_seconds) in (int, float) and 0 < max_seconds < math.inf
    ):
        raise ArgumentError(
            f"max_seconds must be a positive number or None, not {_show(max_seconds)}"
        )
    passed = None
    if max_seconds is not None:
        end = time.perf_counter() + max_seconds
        passed = lambda: time.perf_counter() >= end  # noqa: E731  # a one-line deadline
    solution = _solve(state, max_nodes, passed)
    if solution is None:
        budget = f"{max_nodes:,} positions" + (
            "" if max_seconds is None else f" or {max_seconds} seconds"
        )
        raise ArgumentError(f"the endgame search passed its budget of {budget}: raise it")
    return solution


class _OutOfBudget(Exception):  # noqa: N818  # a signal, not an error: the search stops
    """The search passed its budget of positions or time: the solver's own signal."""


def _solve(
    state: GameState, max_nodes: int, passed: Callable[[], bool] | None
) -> EndgameSolution | None:
    """The solution, or None when the search passes its budget (the search bots then sample).

    `state` is a two-sided state with a seat to move; the arguments are not
    checked. `passed`, asked every 64 positions, says whether the time is up.
    """
    search = _Search(state, max_nodes, passed)
    try:
        value, move = search.root()
    except _OutOfBudget:
        return None
    return EndgameSolution(move=move, value=value, nodes=search.nodes)


class _Search:
    """Negamax with alpha-beta over the public engine, with a transposition table."""

    def __init__(self, state: GameState, max_nodes: int, passed: Callable[[], bool] | None) -> None:
        self.state = state
        self.passed = passed
        self.rules = state.rules
        self.sides = state.rules.sides
        self.points = state.rules.card_points.count
        self.max_nodes = max_nodes
        self.nodes = 0
        self.table: dict[object, tuple[int, int]] = {}
        counts = [0, 0]
        points = [0, 0]
        last = 0
        for take in state.takes:
            side = self.sides[take.seat]
            counts[side] += len(take.cards)
            points[side] += self._take_points(take)
            last = side + 1
        self.summary: _Summary = (counts[0], counts[1], points[0], points[1], last)

    def _take_points(self, take: Take) -> int:
        bonus = 0
        if take.xeri is XeriKind.JACK_XERI:
            bonus = self.rules.jack_xeri_points
        elif take.xeri is not None:
            bonus = self.rules.xeri_points
        return self.points(take.cards) + bonus

    def root(self) -> tuple[int, PlayerMove]:
        state = self.state
        best_move: PlayerMove | None = None
        alpha = -_INF
        for child, summary, move in self._children(state, self.summary):
            value = self._value(child, summary, state, alpha, _INF)
            if best_move is None or value > alpha:
                alpha, best_move = value, move
        assert best_move is not None  # a seat to move has a legal move
        return alpha, best_move

    def _children(
        self, state: GameState, summary: _Summary
    ) -> list[tuple[GameState, _Summary, PlayerMove]]:
        out = []
        moves = legal_moves(state)
        if len(moves) > self.max_nodes - self.nodes:  # their positions alone pass the budget
            raise _OutOfBudget
        for move in moves:
            child = apply(state, move)
            takes = child.takes
            new = summary
            if len(takes) > len(state.takes):
                take = takes[-1]
                side = self.sides[take.seat]
                c0, c1, p0, p1, _ = summary
                n, p = len(take.cards), self._take_points(take)
                new = (c0 + n, c1, p0 + p, p1, 1) if side == 0 else (c0, c1 + n, p0, p1 + p, 2)
            out.append((child, new, move))
        # Captures first, the largest first: they settle the bounds soonest.
        out.sort(key=lambda c: (c[1][2] + c[1][3]) - (summary[2] + summary[3]), reverse=True)
        return out

    def _value(  # internal, one call site per search level
        self, child: GameState, summary: _Summary, parent: GameState, alpha: int, beta: int
    ) -> int:
        """The value of `child` for the side that moved into it from `parent`, in a window."""
        mover_side = self.sides[parent.to_move]  # type: ignore[index]  # a seat moved
        if child.to_move is None:
            total = child.round_results[-1].total
            return total[mover_side] - total[1 - mover_side]
        if self.sides[child.to_move] == mover_side:
            return self._negamax(child, summary, alpha, beta)
        return -self._negamax(child, summary, -beta, -alpha)

    def _negamax(self, state: GameState, summary: _Summary, alpha: int, beta: int) -> int:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _OutOfBudget
        if self.passed is not None and not self.nodes & 63 and self.passed():
            raise _OutOfBudget
        key = (state.hands, state.table, state.stock, state.to_move, summary)
        hit = self.table.get(key)
        if hit is not None:
            flag, value = hit
            if flag == _EXACT:
                return value
            if flag == _LOWER:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                return value
        start_alpha = alpha
        best = -_INF
        for child, new, _ in self._children(state, summary):
            value = self._value(child, new, state, alpha, beta)
            best = max(best, value)
            alpha = max(alpha, best)
            if alpha >= beta:
                break
        flag = _UPPER if best <= start_alpha else _LOWER if best >= beta else _EXACT
        self.table[key] = (flag, best)
        return best

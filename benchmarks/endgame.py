"""The exact endgame solver's time on the last deal of a round.

Run: `python benchmarks/endgame.py [--rounds N] [--rules greek]`. Plays
random rounds to the first play of their last deal (the stock empty, every
hand full: in the two-player Greek game each player holds 6 cards, and
every card the mover has not seen is in the other hand) and times
`solve_endgame` there, then one play later, and so on to the end. Prints
the mean and the slowest solve, and the positions visited, by cards left.
A measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import xeri
from xeri.bots import solve_endgame


def last_deal(rules: xeri.RuleSet, rng: random.Random) -> xeri.GameState:
    """A random round played at random up to the first play of its last deal."""
    state = xeri.new_game(rules, rng=rng)
    while state.stock or len(state.hands[state.to_move]) < rules.hand_size:  # type: ignore[index]
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


def main() -> None:
    """Print the solver's times by the number of cards left in the hands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--rules", default="greek")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rules = xeri.find_rules(args.rules)
    rng = random.Random(args.seed)
    times: dict[int, list[float]] = {}
    nodes: dict[int, list[int]] = {}
    for _ in range(args.rounds):
        state = last_deal(rules, rng)
        while not state.is_round_over:
            left = sum(map(len, state.hands))
            started = time.perf_counter()
            solution = solve_endgame(state)
            times.setdefault(left, []).append(time.perf_counter() - started)
            nodes.setdefault(left, []).append(solution.nodes)
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    print(f"{args.rules}, {args.rounds} rounds: the solver from each number of cards left")
    print(f"{'cards left':>10} {'solves':>7} {'mean ms':>9} {'max ms':>9} {'mean nodes':>11}")
    for left in sorted(times, reverse=True):
        t = times[left]
        print(
            f"{left:>10} {len(t):>7} {statistics.mean(t) * 1e3:>9.2f} {max(t) * 1e3:>9.2f}"
            f" {statistics.mean(nodes[left]):>11,.0f}"
        )


if __name__ == "__main__":
    main()

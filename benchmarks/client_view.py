"""Client views: time to build and encode one, and its size, beside today's observation JSON.

Run: `python benchmarks/client_view.py [--games N] [--timed M]`. Plays N
random rounds of every preset (two rounds each, chance's states and the
round's end included) and measures, at every state, for every seat and for
a spectator, the size of the view's UTF-8 JSON text
(`client_view_json(state, seat)`) against the observation's
(`to_json(observe(state, seat))`, what a server sent before): mean, median
and worst ratio, and the share of views larger. Then, for GREEK and GERMAN,
at M states where a seat is to move, it times `client_view_json` (the
server's path: build and encode), `to_json(observe(...))` and `apply` of one
legal move, interleaved in the same run so that the ratios hold on a noisy
machine, and prints the medians in microseconds with the ratios. Figures,
not tests.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import xeri


def best_us(f: Callable[[], object], number: int = 200, repeat: int = 3) -> float:
    """The best of `repeat` runs of `number` calls of `f`, per call, in microseconds."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            f()
        best = min(best, (time.perf_counter() - start) / number)
    return best * 1e6


def states(rules: xeri.RuleSet, games: int, rounds: int = 2) -> list[xeri.GameState]:
    """Every state of `games` random matches' first `rounds` rounds (or to the match's end)."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = xeri.new_game(rules, rng=rng)
        while len(state.round_results) < rounds and not state.is_over:
            out.append(state)
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
            else:
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        out.append(state)
    return out


def sizes(rules: xeri.RuleSet, games: int) -> None:
    """Print the size ratios of one rule set's views, every seat's and the spectator's."""
    ratios = []
    for state in states(rules, games):
        for seat in (*range(rules.seats), None):
            view = len(xeri.client_view_json(state, seat).encode("utf-8"))
            seen = len(xeri.to_json(xeri.observe(state, seat)).encode("utf-8"))
            ratios.append(view / seen)
    print(
        f"{rules.name:11} {len(ratios):6} views: size / observation JSON mean"
        f" {statistics.mean(ratios):.2f}, median {statistics.median(ratios):.2f},"
        f" worst {max(ratios):.2f}, larger {sum(r > 1 for r in ratios) / len(ratios):.1%}"
    )


def times(rules: xeri.RuleSet, games: int, timed: int) -> None:
    """Print the times of one rule set's views at `timed` states where a seat is to move."""
    playing = [s for s in states(rules, games, rounds=1) if s.to_move is not None]
    view_us, obs_us, apply_us = [], [], []
    for state in random.Random(1).sample(playing, min(timed, len(playing))):
        seat = state.to_move
        move = xeri.legal_moves(state)[0]
        view_us.append(best_us(lambda: xeri.client_view_json(state, seat)))  # noqa: B023  # called at once
        obs_us.append(best_us(lambda: xeri.to_json(xeri.observe(state, seat))))  # noqa: B023
        apply_us.append(best_us(lambda: xeri.apply(state, move)))  # noqa: B023
    med = statistics.median
    v, o, a = med(view_us), med(obs_us), med(apply_us)
    print(f"{rules.name}: {len(view_us)} states, medians")
    ratios = f"({v / o:.2f} x observation JSON, {v / a:.1f} x apply)"
    print(f"  client_view_json       {v:7.1f} us   {ratios}")
    print(f"  to_json(observe(...))  {o:7.1f} us")
    print(f"  apply                  {a:7.2f} us")


def main() -> None:
    """Sizes of every preset, times of GREEK and GERMAN."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="matches per rule set (10)")
    parser.add_argument("--timed", type=int, default=60, help="states timed per rule set (60)")
    args = parser.parse_args()
    for name in xeri.registered():
        sizes(xeri.find_rules(name), args.games)
    for rules in (xeri.GREEK, xeri.GERMAN):
        times(rules, args.games, args.timed)


if __name__ == "__main__":
    main()

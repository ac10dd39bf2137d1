"""Client views: time to build and encode one, and its size, beside today's observation JSON.

Run: `python benchmarks/client_view.py [--games N]`. Plays N random GREEK
(and GERMAN) rounds and, at every state where a seat is to move, times
`client_view_json(state, seat)` (the server's path: build and encode),
`encode_view(client_view(state, seat))` (the dict, then `json.dumps`),
`to_json(observe(state, seat))` (what a server wrapped before) and `apply`
of one legal move, interleaved in the same run so the ratios hold on a
noisy machine. Prints the medians in microseconds, the ratios, and the
size of the view's UTF-8 text against the observation's (mean and worst).
Figures, not tests.
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


def states(rules: xeri.RuleSet, games: int) -> list[xeri.GameState]:
    """States of random rounds where a seat is to move."""
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = xeri.new_game(rules, rng=rng)
        while not state.is_round_over:
            out.append(state)
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return out


def measure(rules: xeri.RuleSet, games: int) -> None:
    """Print the figures of one rule set."""
    view_us, dict_us, obs_us, apply_us, sizes = [], [], [], [], []
    for state in states(rules, games):
        seat = state.to_move
        assert seat is not None
        move = xeri.legal_moves(state)[0]
        view_us.append(best_us(lambda: xeri.client_view_json(state, seat)))  # noqa: B023  # called at once
        dict_us.append(best_us(lambda: xeri.encode_view(xeri.client_view(state, seat))))  # noqa: B023
        obs_us.append(best_us(lambda: xeri.to_json(xeri.observe(state, seat))))  # noqa: B023
        apply_us.append(best_us(lambda: xeri.apply(state, move)))  # noqa: B023
        view = len(xeri.client_view_json(state, seat).encode("utf-8"))
        sizes.append(view / len(xeri.to_json(xeri.observe(state, seat))))
    med = statistics.median
    v, d, o, a = med(view_us), med(dict_us), med(obs_us), med(apply_us)
    print(f"{rules.name}: {len(sizes)} states")
    ratios = f"({v / o:.2f} x observation JSON, {v / a:.1f} x apply)"
    print(f"  client_view_json       {v:7.1f} us   {ratios}")
    print(f"  encode_view(dict)      {d:7.1f} us   ({d / o:.2f} x observation JSON)")
    print(f"  to_json(observe(...))  {o:7.1f} us")
    print(f"  apply                  {a:7.2f} us")
    print(
        f"  size / observation JSON: mean {statistics.mean(sizes):.2f},"
        f" median {med(sizes):.2f}, worst {max(sizes):.2f},"
        f" share larger {sum(s > 1 for s in sizes) / len(sizes):.0%}"
    )


def main() -> None:
    """Measure GREEK and GERMAN."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="rounds per rule set (3)")
    args = parser.parse_args()
    for rules in (xeri.GREEK, xeri.GERMAN):
        measure(rules, args.games)


if __name__ == "__main__":
    main()

"""Random playouts through the public API: rounds per second for each preset.

Run: `python benchmarks/playout.py [--rounds N] [--repeat K]`. Each round is
dealt with a seeded generator and played to its end by a uniformly random
player using only `legal_moves` and `apply`; the best of K timings is
reported, single-threaded. A figure, not a test: machines are noisy.
"""

from __future__ import annotations

import argparse
import random
import time

import xeri


def playout_rounds(rules: xeri.RuleSet, rounds: int, seed: int) -> int:
    """Play `rounds` random rounds; return the number of plays made."""
    rng = random.Random(seed)
    legal_moves, apply, choice = xeri.legal_moves, xeri.apply, rng.choice
    plays = 0
    for _ in range(rounds):
        state = xeri.new_game(rules, rng=rng)
        while state.to_move is not None:
            state = apply(state, choice(legal_moves(state)))
            plays += 1
    return plays


def main() -> None:
    """Print rounds per second for every registered preset."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--rules", nargs="*", default=None)
    args = parser.parse_args()
    names = args.rules or [n for n in ("greek", "greek-four", "german") if n in xeri.registered()]
    for name in names:
        rules = xeri.find_rules(name)
        best = float("inf")
        plays = 0
        for k in range(args.repeat):
            t0 = time.perf_counter()
            plays = playout_rounds(rules, args.rounds, seed=k)
            best = min(best, time.perf_counter() - t0)
        print(
            f"{name:12s} {args.rounds / best:10,.0f} rounds/s "
            f"{plays / best:12,.0f} plays/s  ({plays / args.rounds:.1f} plays/round)"
        )


if __name__ == "__main__":
    main()

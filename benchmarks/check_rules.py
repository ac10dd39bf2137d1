"""Seconds `xeri.testing.check_rules` takes for 300 matches of each registered preset.

Run: `python benchmarks/check_rules.py [--games N] [--seed S] [--only NAME]`.
One process, one core: the seconds printed are the process's CPU time, and
the wall-clock time beside it (which other work on the machine inflates).
The rule sets are every registered preset, Pişti (a target of 151: a
match runs to many rounds), Scopa and Cassino included. A measurement, not
a test.
"""

from __future__ import annotations

import argparse
import random
import time

import xeri
from xeri.testing import check_rules


def rule_sets() -> list[xeri.RuleSet]:
    """Every registered preset (Pişti is one: the guide's rule set, shipped as `PISTI`)."""
    return [xeri.find_rules(name) for name in xeri.registered()]


def main() -> None:
    """Print the seconds, matches, rounds and moves checked per rule set."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", default=None, help="one rule set's name")
    args = parser.parse_args()
    print(f"{'rules':<11} {'games':>6} {'rounds':>7} {'moves':>8} {'cpu s':>7} {'wall s':>7}")
    for rules in rule_sets():
        if args.only is not None and rules.name != args.only:
            continue
        began, cpu = time.perf_counter(), time.process_time()
        report = check_rules(rules, games=args.games, rng=random.Random(args.seed))
        cpu = time.process_time() - cpu
        wall = time.perf_counter() - began
        print(
            f"{rules.name:<11} {report.games:>6} {report.rounds:>7} {report.moves:>8} "
            f"{cpu:>7.1f} {wall:>7.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()

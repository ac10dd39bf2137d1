"""The bot ladder: each bot against the next weaker one, over duplicate deals.

Run: `python benchmarks/ladder.py [--rules greek] [--deals N] [--workers K]
[--steps 1,2,3,4] [--json FILE]`. Each step plays `xeri.simulate` with the
stronger bot as bot 1, prints its mean point difference per round, the
paired 95% interval, and each bot's decisions per second and mean seconds
per decision. The search bots' budgets are fixed sample and iteration
counts (so the figures replay exactly with the same seed) chosen to stay
under 0.2 s per decision on one core; the seconds column shows what they
took. A measurement, not a test: it takes minutes.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor

import xeri
from xeri.bots import Bot, CountingBot, GreedyBot, ISMCTSBot, PIMCBot, RandomBot

BUDGETS = {
    # Sample and iteration counts that keep a decision under 0.2 s on one
    # core of the reference machine (the German move lists are longer). The
    # IS-MCTS of the ladder walks down from every root move on each sampled
    # state (`paired=True`), its strongest form in our measurements; on GREEK
    # its tree also branches on its own side's moves only, the other side
    # playing the playout policy (`model_others=True`), as PIMC's playouts do.
    "greek": (
        PIMCBot(samples=100),
        ISMCTSBot(iterations=160, paired=True, model_others=True),
    ),
    "greek-four": (PIMCBot(samples=100), ISMCTSBot(iterations=120, paired=True)),
    "german": (PIMCBot(samples=25), ISMCTSBot(iterations=25, paired=True)),
}


def ladder(rules_name: str) -> list[tuple[str, Bot, Bot]]:
    """The ladder's steps for a rule set: (label, stronger, weaker)."""
    pimc, ismcts = BUDGETS.get(rules_name, BUDGETS["greek"])
    return [
        ("greedy > random", GreedyBot(), RandomBot()),
        ("counting > greedy", CountingBot(), GreedyBot()),
        ("PIMC > counting", pimc, CountingBot()),
        ("IS-MCTS >= PIMC", ismcts, pimc),
    ]


def main() -> None:
    """Play the requested ladder steps and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="greek")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--steps", default="1,2,3,4")
    parser.add_argument("--json", default=None, help="append the rows to this JSON-lines file")
    args = parser.parse_args()
    rules = xeri.find_rules(args.rules)
    steps = ladder(args.rules)
    print(
        f"{'step':<18} {'deals':>6} {'diff':>8} {'95% interval':>18}"
        f" {'dec/s strong':>13} {'s/dec strong':>13} {'dec/s weak':>11}"
    )
    for number in (int(s) for s in args.steps.split(",")):
        label, strong, weak = steps[number - 1]
        started = time.perf_counter()
        with ProcessPoolExecutor(args.workers) as pool:
            result = xeri.simulate(
                rules, (strong, weak), deals=args.deals, seed=args.seed, executor=pool
            )
        low, high = result.interval
        speed = result.decisions_per_second
        print(
            f"{label:<18} {result.deals:>6} {result.difference:>+8.2f}"
            f" [{low:>+7.2f}, {high:>+7.2f}] {speed[0]:>13.1f} {1 / speed[0]:>13.4f}"
            f" {speed[1]:>11.1f}   ({time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        if args.json:
            row = {"rules": args.rules, "step": label, **result.to_dict()}
            with open(args.json, "a", encoding="utf-8") as out:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()

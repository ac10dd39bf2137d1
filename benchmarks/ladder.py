"""The bot ladder on every preset: each bot against the next weaker one, over duplicate deals.

Run: `python benchmarks/ladder.py [--rules greek,pisti,...] [--steps 1,2,3,4]
[--pilot N] [--max-deals N] [--max-search-deals N] [--workers K] [--seed S]
[--json FILE] [--target NAME=D,...]`. The steps, on GREEK, GREEK_FOUR, GERMAN, PISTI, SCOPA and
CASSINO by default:

1. greedy > random: [`GreedyBot`][xeri.bots.GreedyBot] against [`RandomBot`][xeri.bots.RandomBot];
2. counting > greedy: [`CountingBot`][xeri.bots.CountingBot] against greedy;
3. search > counting: the strongest level's bot, `xeri.bots.make("expert")`
   (an [`ISMCTSBot`][xeri.bots.ISMCTSBot] at its defaults), against counting;
4. PIMC > counting: [`PIMCBot`][xeri.bots.PIMCBot] at its defaults (the
   `hard` level) against counting.

How many deals: each step first plays `--pilot` duplicate deals, estimates
the standard deviation s of the per-deal differences from them, and asks for
n = ceil((2.80 s / d)^2) deals in all: enough for a paired 95% interval to
exclude zero with 80% power when the true difference is d, 2 points a round
in the Greek family (GREEK, GREEK_FOUR, PISTI) and 1 in the sum family
(GERMAN, SCOPA, CASSINO), whose rounds are worth fewer points;
`--target NAME=D,...` sets another difference for a rule set, chosen before
its deals are played (PISTI's search step: 1 point). The count
is capped by `--max-deals` (`--max-search-deals` for the search steps,
whose deals take seconds each); the row written says the pilot's s, the
count wanted and the count played. The deals after the pilot come from
another seed, so no deal is played twice; with `--chunk N` they are played
N at a time (chunk k from seed S + 1 + k), and with `--cache FILE` every
chunk played is kept in FILE, so that the same command run again resumes
an interrupted step. The search bots keep their default fixed counts, so
every figure replays exactly with the same seed and chunk size (their CPU
deadline of 0.1 s a decision, the safety net, cuts a count short only on a
machine slower than the one the counts were set on).
With `--speed N` the script first measures the CPU time of one decision of
each search bot at its defaults, on N observations of random points of
random rounds of each rule set (`time.process_time`, so other work on the
machine does not count), prints the mean, the 99th percentile and the
maximum, and writes them to `--speed-json`
(`benchmarks/results/speed.jsonl`), which the strategy page shows.

A measurement, not a test: the cheap steps take a minute, a search step
a few minutes per preset.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

import xeri
from xeri._simulation import _t95  # the same t quantile as the intervals of xeri.simulate
from xeri.bots import Bot, CountingBot, GreedyBot, PIMCBot, RandomBot, family, make

SPEED_JSONL = Path(__file__).resolve().parent / "results" / "speed.jsonl"
PRESETS = ("greek", "greek-four", "german", "pisti", "scopa", "cassino")
"""The rule sets of the ladder, in the order of the page."""

POWER_FACTOR = 1.96 + 0.84
"""z of a two-sided 95% interval plus z of 80% power."""


def target(rules: xeri.RuleSet, targets: dict[str, float] | None = None) -> float:
    """The difference a step should separate: 2 points a round (Greek family), else 1.

    `targets` (from `--target NAME=D,...`) sets it for a rule set by name instead.
    """
    if targets and rules.name in targets:
        return targets[rules.name]
    return 2.0 if family(rules) != "sums" else 1.0


def parse_targets(text: str) -> dict[str, float]:
    """`--target`'s `NAME=D,...`: a difference to separate for each named rule set."""
    targets: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        difference = float(value)
        if not difference > 0:
            raise SystemExit(f"--target: the difference for {name} must be above 0")
        targets[xeri.find_rules(name.strip()).name] = difference
    return targets


def steps() -> list[tuple[str, Bot, Bot, bool]]:
    """The ladder's steps: (label, stronger, weaker, whether the stronger one searches)."""
    return [
        ("greedy > random", GreedyBot(), RandomBot(), False),
        ("counting > greedy", CountingBot(), GreedyBot(), False),
        ("search > counting", make("expert"), CountingBot(), True),
        ("PIMC > counting", PIMCBot(), CountingBot(), True),
    ]


def wanted(sd: float, difference: float) -> int:
    """Deals for a paired 95% interval to exclude 0 with 80% power at `difference`."""
    return max(2, math.ceil((POWER_FACTOR * sd / difference) ** 2))


def _played(
    rules: xeri.RuleSet,
    bots: tuple[Bot, Bot],
    *,
    deals: int,
    seed: int,
    executor: Executor | None,
    cache: Path | None,
) -> dict[str, Any]:
    """One `simulate` call's figures, read from `cache` when it holds them, else played.

    The cache is a JSON-lines file of played chunks keyed by the rule set,
    the bots' reprs, the seed and the count of deals, so that a long step
    split into chunks resumes where an interrupted run stopped.
    """
    key = [rules.name, [repr(b) for b in bots], seed, deals]
    if cache is not None and cache.exists():
        for line in cache.read_text(encoding="utf-8").splitlines():
            entry = json.loads(line)
            if entry["key"] == key:
                return entry["result"]  # type: ignore[no-any-return]  # written below
    result = xeri.simulate(rules, bots, deals=deals, seed=seed, executor=executor)
    figures = {
        "bots": list(result.bots),
        "differences": list(result.differences),
        "decisions": list(result.decisions),
        "seconds": list(result.seconds),
        "rounds": result.rounds,
        "mean_points": list(result.mean_points),
    }
    if cache is not None:
        with cache.open("a", encoding="utf-8") as out:
            out.write(json.dumps({"key": key, "result": figures}) + "\n")
    return figures


def run_step(
    rules: xeri.RuleSet,
    strong: Bot,
    weak: Bot,
    *,
    pilot: int,
    cap: int,
    seed: int,
    executor: Executor | None,
    chunk: int = 0,
    cache: Path | None = None,
    difference: float | None = None,
) -> dict[str, Any]:
    """Play one step: the pilot, then the deals the pilot asks for (capped).

    The deals asked for are those that separate `difference` (default: the
    rule set's `target`).

    With `chunk`, the deals after the pilot are played `chunk` at a time,
    chunk k from seed `seed + 1 + k`, each kept in `cache` as it ends.
    """
    bots = (strong, weak)
    first = _played(rules, bots, deals=pilot, seed=seed, executor=executor, cache=cache)
    sd = stdev(first["differences"])
    goal = target(rules) if difference is None else difference
    want = wanted(sd, goal)
    played = min(max(want, pilot), cap)
    results = [first]
    rest = played - pilot
    k = 0
    while rest > 0:
        size = rest if not chunk else min(chunk, rest)
        results.append(
            _played(rules, bots, deals=size, seed=seed + 1 + k, executor=executor, cache=cache)
        )
        rest -= size
        k += 1
    differences = [d for r in results for d in r["differences"]]
    n = len(differences)
    mean = fmean(differences)
    half = _t95(n - 1) * stdev(differences) / math.sqrt(n)
    decisions = [sum(r["decisions"][i] for r in results) for i in range(2)]
    seconds = [sum(r["seconds"][i] for r in results) for i in range(2)]
    rounds = sum(r["rounds"] for r in results)
    return {
        "bots": first["bots"],
        "seed": seed,
        "deals": n,
        "rounds": rounds,
        "difference": mean,
        "interval": [mean - half, mean + half],
        "decisions": decisions,
        "seconds": seconds,
        "mean_points": [
            sum(r["mean_points"][i] * r["rounds"] for r in results) / rounds for i in range(2)
        ],
        "target": goal,
        "pilot": pilot,
        "pilot_sd": sd,
        "wanted": want,
        "capped": want > played,
        "chunk": chunk,
    }


def observations(rules: xeri.RuleSet, count: int, seed: int) -> list[xeri.Observation]:
    """Observations of the seat to move at random points of random rounds."""
    rng = random.Random(seed)
    out: list[xeri.Observation] = []
    while len(out) < count:
        state = xeri.new_game(rules, rng=rng)
        stop = rng.randrange(0, rules.seats * rules.hand_size * rules.deals_per_round)
        plays = 0
        while not state.is_round_over:
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
                continue
            if plays == stop:
                out.append(xeri.observe(state, state.to_move))  # type: ignore[arg-type]  # a seat
                break
            moves = xeri.legal_moves(state)
            state = xeri.apply(state, moves[rng.randrange(len(moves))])
            plays += 1
    return out


def speed(rules: xeri.RuleSet, count: int, seed: int) -> list[dict[str, Any]]:
    """CPU seconds a decision of each search bot at its defaults, on `count` observations."""
    rows = []
    seen = observations(rules, count, seed)
    for bot in (make("expert"), make("hard")):
        times = []
        for k, observation in enumerate(seen):
            started = time.process_time()
            bot.choose(observation, random.Random(k))
            times.append(time.process_time() - started)
        times.sort()
        rows.append(
            {
                "rules": rules.name,
                "bot": repr(bot),
                "decisions": len(times),
                "mean": fmean(times),
                "p99": times[min(len(times) - 1, math.ceil(0.99 * len(times)) - 1)],
                "max": times[-1],
            }
        )
    return rows


def main() -> None:
    """Play the requested ladder steps on the requested rule sets and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(PRESETS))
    parser.add_argument("--steps", default="1,2,3,4")
    parser.add_argument("--pilot", type=int, default=24, help="pilot deals of each step")
    parser.add_argument("--max-deals", type=int, default=600, help="cap, cheap steps")
    parser.add_argument("--max-search-deals", type=int, default=60, help="cap, search steps")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=None, help="append the rows to this JSON-lines file")
    parser.add_argument("--speed", type=int, default=0, help="observations to time, per preset")
    parser.add_argument("--speed-json", default=str(SPEED_JSONL))
    parser.add_argument("--no-steps", action="store_true", help="only the timing of --speed")
    parser.add_argument("--chunk", type=int, default=0, help="deals a chunk after the pilot")
    parser.add_argument("--cache", default=None, help="JSON-lines file of played chunks")
    parser.add_argument(
        "--target",
        default="",
        help="NAME=D,...: the difference a step of that rule set is to separate (default 2 or 1)",
    )
    args = parser.parse_args()
    if args.speed:
        for name in args.rules.split(","):
            for row in speed(xeri.find_rules(name), args.speed, args.seed):
                print(
                    f"{name:<11} {row['bot'].split('(')[0]:<10} CPU s a decision: mean"
                    f" {row['mean']:.3f}, 99th percentile {row['p99']:.3f},"
                    f" max {row['max']:.3f} over {row['decisions']}",
                    flush=True,
                )
                with Path(args.speed_json).open("a", encoding="utf-8") as out:
                    out.write(json.dumps(row) + "\n")
    if args.no_steps:
        return
    ladder = steps()
    targets = parse_targets(args.target)
    print(
        f"{'rules':<11} {'step':<18} {'deals':>5} {'wanted':>6} {'diff':>7} {'95% interval':>17}"
        f" {'s/dec':>7}",
        flush=True,
    )
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for name in args.rules.split(","):
            rules = xeri.find_rules(name)
            for number in (int(s) for s in args.steps.split(",")):
                label, strong, weak, searches = ladder[number - 1]
                started = time.perf_counter()
                row = run_step(
                    rules,
                    strong,
                    weak,
                    pilot=args.pilot,
                    cap=args.max_search_deals if searches else args.max_deals,
                    seed=args.seed,
                    executor=pool,
                    chunk=args.chunk,
                    cache=Path(args.cache) if args.cache else None,
                    difference=target(rules, targets),
                )
                low, high = row["interval"]
                per = row["seconds"][0] / max(1, row["decisions"][0])
                print(
                    f"{name:<11} {label:<18} {row['deals']:>5} {row['wanted']:>6}"
                    f" {row['difference']:>+7.2f} [{low:>+6.2f}, {high:>+6.2f}] {per:>7.4f}"
                    f"   ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
                if args.json:
                    with Path(args.json).open("a", encoding="utf-8") as out:
                        out.write(json.dumps({"rules": name, "step": label, **row}) + "\n")
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()

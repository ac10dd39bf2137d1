"""A league of every bot on every preset: a round robin over duplicate deals, Bradley-Terry ratings.

Run: `python benchmarks/league.py [--rules greek,pisti,...] [--bots a,b,...]
[--deals N] [--search-deals N] [--workers K] [--seed S] [MODULE:ATTRIBUTE ...]`. Every
pair of bots plays the same duplicate deals with [`xeri.simulate`][xeri.simulate]:
the shipped kinds of the registry (random, greedy, counting, pimc and
ismcts, the search bots at their defaults) and any bot of your own named
`MODULE:ATTRIBUTE` (a bot, a bot class or a function `(observation, rng) ->
move`). Pairs with a search bot play `--search-deals` deals, the others
`--deals`. Each deal of a pair is a win, loss or half of each for the pair's
first bot by its mean points a round; `xeri.bots.league.fit_ratings` fits
Bradley-Terry ratings to the wins, on the Elo scale with random at 0, and
their 95% intervals by resampling each pair's deals (the pairing kept).

The results go to `benchmarks/results/league.json` (one entry per rule set,
replaced when measured again); `python benchmarks/strategy.py render`
turns them into the league table and plot of the strategy page. A
measurement, not a test: minutes per preset.
"""

from __future__ import annotations

import argparse
import json
import time
from concurrent.futures import ProcessPoolExecutor
from itertools import combinations
from pathlib import Path
from typing import Any

import xeri
from xeri.bots import ISMCTSBot, PIMCBot, as_bot, load_bot, make, registry
from xeri.bots.league import PairResult, fit_ratings, play_league

ROOT = Path(__file__).resolve().parent.parent
LEAGUE_JSON = ROOT / "benchmarks" / "results" / "league.json"
PRESETS = ("greek", "greek-four", "german", "pisti", "scopa", "cassino")


def main() -> None:
    """Play the league on each rule set asked for and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("own", nargs="*", metavar="MODULE:ATTRIBUTE", help="bots of your own")
    parser.add_argument("--rules", default=",".join(PRESETS))
    parser.add_argument(
        "--bots",
        default=",".join(kind.name for kind in registry()),
        help="the shipped bots to play, registry names (all five by default)",
    )
    parser.add_argument("--deals", type=int, default=60, help="deals of a pair without search")
    parser.add_argument("--search-deals", type=int, default=10, help="deals of a search pair")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--json", default=str(LEAGUE_JSON))
    args = parser.parse_args()
    shipped = [name.strip() for name in args.bots.split(",") if name.strip()]
    names = shipped + list(args.own)
    bots = [make(name) for name in shipped] + [load_bot(spec) for spec in args.own]
    bots = [as_bot(bot) for bot in bots]
    searches = [isinstance(bot, (PIMCBot, ISMCTSBot)) for bot in bots]
    path = Path(args.json)
    stored: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for name in args.rules.split(","):
            rules = xeri.find_rules(name)
            started = time.perf_counter()
            results: list[PairResult] = []
            for i, j in combinations(range(len(bots)), 2):
                deals = args.search_deals if searches[i] or searches[j] else args.deals
                league = play_league(
                    rules,
                    [bots[i], bots[j]],
                    names=[names[i], names[j]],
                    deals=deals,
                    seed=args.seed,
                    executor=pool,
                )
                pair = league.pairs[0]
                results.append(
                    PairResult(
                        first=i,
                        second=j,
                        per_deal=pair.per_deal,
                        difference=pair.difference,
                        interval=pair.interval,
                    )
                )
                low, high = pair.interval
                print(
                    f"{name:<11} {names[i]:>9} - {names[j]:<9} {deals:>4} deals"
                    f" {pair.difference:+7.2f} [{low:+.2f}, {high:+.2f}]",
                    flush=True,
                )
            ratings, intervals = fit_ratings(results, len(bots), seed=args.seed)
            stored[name] = {
                "bots": names,
                "deals": args.deals,
                "search_deals": args.search_deals,
                "seed": args.seed,
                "ratings": list(ratings),
                "intervals": [list(i) for i in intervals],
                "pairs": [
                    {
                        "first": p.first,
                        "second": p.second,
                        "deals": len(p.per_deal),
                        "difference": p.difference,
                        "interval": list(p.interval),
                    }
                    for p in results
                ],
                "seconds": time.perf_counter() - started,
            }
            order = sorted(range(len(names)), key=lambda k: -ratings[k])
            print(
                f"{name}: "
                + ", ".join(
                    f"{names[k]} {ratings[k]:+.0f} [{intervals[k][0]:+.0f}, {intervals[k][1]:+.0f}]"
                    for k in order
                ),
                flush=True,
            )
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(stored, indent=1) + "\n", encoding="utf-8")
    finally:
        if pool is not None:
            pool.shutdown()


if __name__ == "__main__":
    main()

"""`xeri rate`: a bot of one's own rated against the shipped ladder.

The bot, named `MODULE:ATTRIBUTE` (a bot, a bot class or a function
`(observation, rng) -> move`), plays every bot of the ladder over the same
duplicate deals, and the ladder's neighbours play each other, so that the
Bradley-Terry ratings of [`rate_bot`][xeri.bots.rate_bot] are tied to the
ladder: random at 0, on the Elo scale.
"""

from __future__ import annotations

import argparse

from xeri.bots.league import PairResult, rate_bot
from xeri.cli._common import _bot, _Io, _load_rules


def _rate(args: argparse.Namespace, io: _Io) -> int:
    rules = _load_rules(args.rules)
    bot = _bot(args.bot)
    ladder = [name.strip() for name in args.ladder.split(",") if name.strip()]
    names = [*ladder, "yours"]
    io.say(
        f"Rating {args.bot} on {rules.name}: {args.deals} duplicate deals against each of"
        f" {', '.join(ladder)}."
    )

    def report(pair: PairResult) -> None:
        low, high = pair.interval
        io.say(
            f"  {names[pair.second]} against {names[pair.first]}: {-pair.difference:+.2f}"
            f" points a round, 95% interval [{-high:+.2f}, {-low:+.2f}]"
        )

    league = rate_bot(rules, bot, ladder=ladder, deals=args.deals, seed=args.seed, progress=report)
    io.say("")
    io.say("Bradley-Terry ratings over the deals (Elo scale, random = 0):")
    for line in league.table().splitlines():
        io.say(f"  {line}")
    return 0

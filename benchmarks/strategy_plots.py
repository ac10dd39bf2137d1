"""Two plots of the strategy page: strength against search budget, and where points come from.

Run: `python benchmarks/strategy_plots.py [--deals N] [--ladder 10,40,160]
[--rounds N] [--seed S] [--out DIR]`.

1. Strength against budget (`strategy-budget.png`): an
   [`ISMCTSBot`][xeri.bots.ISMCTSBot] with a fixed number of iterations a
   decision, for each count of the ladder, against
   [`CountingBot`][xeri.bots.CountingBot] on GREEK, over `--deals`
   duplicate deals of [`simulate`][xeri.simulate] (each bot plays both seats
   of every deal) with seed `--seed`. The plot shows the mean points
   difference a round (search minus counting) with its paired 95% interval.
2. Points split (`strategy-split.png`): on each of the six presets,
   `--rounds` rounds of `CountingBot` self-play (the round only, no match),
   each from its own seeded generator; every round's score sheet
   ([`RoundResult`][xeri.RoundResult]) is split into card points, majority,
   xeri bonus (the Greek family and GERMAN), sweeps (the `Sweeps` category
   of SCOPA and CASSINO) and
   the other categories; the bar shows each source's share of all points
   scored on that preset.

A measurement, not a test: about four minutes on one core with the defaults.
Needs matplotlib, from the `docs` extra.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import xeri
from xeri.bots import CountingBot, ISMCTSBot

IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
PRESETS = (
    ("GREEK", xeri.GREEK),
    ("GREEK_FOUR", xeri.GREEK_FOUR),
    ("GERMAN", xeri.GERMAN),
    ("PISTI", xeri.PISTI),
    ("SCOPA", xeri.SCOPA),
    ("CASSINO", xeri.CASSINO),
)
SOURCES = ("cards", "majority", "xeri bonus", "sweeps", "other categories")


def budget(ladder: list[int], deals: int, seed: int) -> list[tuple[int, float, float, float]]:
    """(iterations, mean difference, interval low, interval high) for each count."""
    rows = []
    for k in ladder:
        result = xeri.simulate(
            xeri.GREEK, (ISMCTSBot(iterations=k), CountingBot()), deals=deals, seed=seed
        )
        low, high = result.interval
        rows.append((k, result.difference, low, high))
        print(f"iterations {k}: {result.difference:+.2f} [{low:+.2f}, {high:+.2f}]", flush=True)
    return rows


def play_round(rules: xeri.RuleSet, rng: random.Random) -> xeri.RoundResult:
    """One round of CountingBot self-play; its score sheet."""
    bot = CountingBot()
    state = xeri.new_game(rules, rng=rng)
    while not state.is_round_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        seat: int = state.to_move  # type: ignore[assignment]  # not chance, not over
        state = xeri.apply(state, bot.choose(xeri.observe(state, seat), rng))
    return state.round_results[-1]


def split(rules: xeri.RuleSet, rounds: int, seed: int) -> dict[str, float]:
    """Each source's share of all the points scored in `rounds` rounds."""
    totals = dict.fromkeys(SOURCES, 0.0)
    sweeps = {c.name for c in rules.categories if isinstance(c, xeri.Sweeps)}
    for index in range(rounds):
        result = play_round(rules, random.Random(seed * 1_000_003 + index))
        totals["cards"] += sum(result.card_points)
        totals["majority"] += sum(result.majority)
        totals["xeri bonus"] += sum(result.xeri_bonus)
        for name, points in result.categories:
            key = "sweeps" if name in sweeps else "other categories"
            totals[key] += sum(points)
    whole = sum(totals.values()) or 1.0
    return {key: value / whole for key, value in totals.items()}


def main() -> None:
    """Measure and draw both plots."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--ladder", default="10,40,160")
    parser.add_argument("--rounds", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=IMAGES)
    args = parser.parse_args()
    try:
        import matplotlib  # noqa: PLC0415  # lazy: only this script draws, and says what is missing

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415  # after choosing the Agg backend
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise SystemExit(
            "this script needs matplotlib, from the docs extra: pip install 'xeri[docs]'"
        ) from exc
    args.out.mkdir(parents=True, exist_ok=True)

    shares = {}
    for name, rules in PRESETS:
        shares[name] = split(rules, args.rounds, args.seed)
        print(name, {k: round(v, 3) for k, v in shares[name].items()}, flush=True)
    fig, ax = plt.subplots(figsize=(7.5, 4.2))
    names = [name for name, _ in PRESETS]
    bottom = [0.0] * len(names)
    for source in SOURCES:
        values = [shares[name][source] for name in names]
        ax.bar(names, values, bottom=bottom, label=source)
        bottom = [b + v for b, v in zip(bottom, values, strict=True)]
    ax.set_ylabel("share of all points scored")
    ax.set_ylim(0, 1)
    ax.set_title(f"Where points come from: CountingBot self-play, {args.rounds} rounds a preset")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize="small")
    fig.tight_layout()
    fig.savefig(args.out / "strategy-split.png", dpi=110)
    plt.close(fig)

    ladder = [int(k) for k in args.ladder.split(",")]
    rows = budget(ladder, args.deals, args.seed)
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    ks = [r[0] for r in rows]
    means = [r[1] for r in rows]
    errors = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    ax.errorbar(ks, means, yerr=errors, fmt="o-", capsize=4)
    ax.axhline(0.0, color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.set_xlabel("ISMCTS iterations a decision (log scale)")
    ax.set_ylabel("mean points difference a round")
    ax.set_title(
        f"ISMCTS against CountingBot on GREEK\n{args.deals} duplicate deals, seed {args.seed},"
        " 95% intervals"
    )
    fig.tight_layout()
    fig.savefig(args.out / "strategy-budget.png", dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    main()

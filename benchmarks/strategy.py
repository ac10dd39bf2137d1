"""Measured strategy: the figures and plots of the docs page "Strategy, measured".

Run: `python benchmarks/strategy.py measure [--rounds N] [--german-rounds N]
[--search-rounds N] [--search-rules a,b] [--iterations I] [--tables N]
[--workers K] [--seed S]` to measure (the defaults take about 9 minutes on
a busy 2-core machine), which writes `benchmarks/results/strategy.json`;
then `python
benchmarks/strategy.py render [--ladder FILE]` to rewrite the generated
parts of `docs/strategy.md` (the blocks between `<!-- name:start -->` and
`<!-- name:end -->`; the prose around them stays) and the plots in
`docs/images/`, from that file and from the ladder's rows
(`benchmarks/results/ladder.jsonl`, written by `benchmarks/ladder.py
--json`).

What `measure` measures, per preset:

* the dealer's side against the other side ([G5][rules-g5], [F2][rules-f2],
  [F5][rules-f5]): the same bot on every seat, mean round points of each
  side and a paired 95% interval of their difference. Each deal is played
  once per rotation of the hands around the table (two games in a
  two-player game, four with four players), so every hand is played from
  every seat and the luck of the cards cancels; the interval is Student's t
  over the deals, as `xeri.simulate` computes it. Measured with
  `CountingBot` over many rounds and with `ISMCTSBot` at a small iteration
  budget over fewer;
* xeris, from the same rounds: how many per round, their points per round
  and per side, and the share of jack xeris ([G7][rules-g7], [D6][rules-d6]);
* the initial table's redeal ([G4][rules-g4], [F4][rules-f4]): the share of
  rounds whose table was redealt at least once and the mean number of
  redeals over many fresh deals (`xeri.new_game`, then `state.redealt`),
  next to the exact figures computed from the deck's composition.

Every deal's randomness derives from the seed, the rule set and the deal's
index alone, so the figures are the same whatever the number of workers.
A measurement, not a test: it takes minutes.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, factorial
from pathlib import Path
from statistics import fmean, stdev
from typing import Any

import attrs

import xeri
from xeri._simulation import _t95  # the same t quantile as the intervals of xeri.simulate
from xeri.bots import Bot, CountingBot, ISMCTSBot, family

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
STRATEGY_JSON = RESULTS / "strategy.json"
LADDER_JSONL = RESULTS / "ladder.jsonl"
LEAGUE_JSON = RESULTS / "league.json"
SPEED_JSONL = RESULTS / "speed.jsonl"
PAGE = ROOT / "docs" / "strategy.md"
IMAGES = ROOT / "docs" / "images"

LADDER_STEPS = 4
"""Steps of the ladder of `benchmarks/ladder.py`: greedy > random, counting > greedy,
the default search > counting, PIMC > counting."""
SHOWN = {
    "greek": "GREEK",
    "greek-four": "GREEK_FOUR",
    "german": "GERMAN",
    "pisti": "PISTI",
    "scopa": "SCOPA",
    "cassino": "CASSINO",
}
"""How the page names each preset."""
SHOWN_BACK = {shown: name for name, shown in SHOWN.items()}
"""The preset of each name on the page."""

CLAUSE = {
    "greek": " ([G4][rules-g4])",
    "greek-four": " ([F4][rules-f4])",
    "german": " ([D2][rules-d2])",
}
"""The clause of each preset's redeal rule."""

BLOCKS = ("ladder", "league", "dealer", "xeri", "redeal")
"""The generated blocks of the page, in page order."""


# --- Measuring the dealer's side and the xeris --------------------------------------------


@attrs.frozen(kw_only=True)
class DealTally:
    """What one deal gave, summed over its rotations of the hands."""

    games: int
    """Games played (one per rotation)."""
    dealer_points: int
    """Round points of the dealer's side, summed over the games."""
    other_points: int
    """Round points of the other side, summed over the games."""
    dealer_wins: int
    """Games the dealer's side won."""
    other_wins: int
    """Games the other side won."""
    draws: int
    """Games with equal points."""
    xeris: int
    """Xeris made, by both sides."""
    jack_xeris: int
    """Jack xeris among them."""
    dealer_xeri_points: int
    """Xeri points of the dealer's side."""
    other_xeri_points: int
    """Xeri points of the other side."""


def _rotated(
    cards: tuple[xeri.Card, ...], seats: int, size: int, turn: int
) -> tuple[xeri.Card, ...]:
    """Each deal's hands in `cards` moved `turn` seats on: hand i becomes hand i + turn.

    `cards` is a run of whole deals (blocks of `size` cards, one per seat, in
    dealing order); a short tail that is no whole deal stays as it is.
    """
    out: list[xeri.Card] = []
    group = seats * size
    whole = len(cards) - len(cards) % group
    for start in range(0, whole, group):
        blocks = [cards[start + i * size : start + (i + 1) * size] for i in range(seats)]
        for i in range(seats):
            out.extend(blocks[(i - turn) % seats])
    out.extend(cards[whole:])
    return tuple(out)


def _deal_rng(seed: int, rules: xeri.RuleSet, index: int) -> random.Random:
    # String seeds are hashed with SHA-512: the same in every process and version.
    return random.Random(f"xeri.strategy/{seed}/{rules.name}/{index}/deal")


Chance = tuple[int, tuple[xeri.Card, ...], tuple[tuple[xeri.Card, ...], ...]]
"""One game's chance: the dealer, the deck dealt, the stocks of the redeals that follow."""


def rotations(rules: xeri.RuleSet, seed: int, index: int) -> list[Chance]:
    """Deal `index`, once per rotation of the hands around the table.

    The deck and any redeal of the initial table are drawn as the engine's
    `chance_move` draws them, so rotation 0 is the deal `xeri.new_game`
    makes with the same generator. Rotation r moves every hand of every
    deal of the round r seats on; with two sides, the dealer's side plays
    the other side's cards in every other rotation.

    Returns:
        One (dealer, deck, reshuffles) per seat: apply `Deal(deck=deck)` to
        `xeri.start(rules, dealer=dealer)`, then `Reshuffle(stock=s)` for
        each `s` of `reshuffles`.
    """
    seats, size, t = rules.seats, rules.hand_size, rules.table_size
    if rules.show_bottom_card or rules.num_sides != 2:
        raise xeri.RuleSetError("the dealer measurement needs two sides and no shown bottom card")
    chance = _deal_rng(seed, rules, index)
    deck = list(xeri.DECK)
    chance.shuffle(deck)
    hands, rest = tuple(deck[: seats * size]), tuple(deck[seats * size :])
    first_rest = rest
    reshuffles: list[tuple[xeri.Card, ...]] = []
    while rules.redeal.needed(rest[:t]):
        # As chance_move draws a redeal: the stock, then the shown table, shuffled.
        pool = list(rest[t:]) + list(rest[:t])
        chance.shuffle(pool)
        rest = tuple(pool)
        reshuffles.append(rest)
    out: list[Chance] = []
    for turn in range(seats):
        final = rest[:t] + _rotated(rest[t:], seats, size, turn)
        dealt = _rotated(hands, seats, size, turn) + (first_rest if reshuffles else final)
        out.append((index % seats, dealt, (*reshuffles[:-1], final) if reshuffles else ()))
    return out


@attrs.frozen(kw_only=True)
class SeatsJob:
    """One bot on every seat of one rule set; pickled to the workers with each chunk."""

    rules: xeri.RuleSet
    """The rule set."""
    bot: Bot
    """The bot on every seat."""
    label: str
    """The bot's short name, part of the seed of its own draws."""
    seed: int
    """The seed every deal derives from."""

    def play(self, index: int) -> DealTally:
        """Play deal `index` once per rotation of the hands (see `rotations`).

        Returns:
            The deal's totals.
        """
        tally = [0] * 9
        for turn, (dealer, deck, reshuffles) in enumerate(rotations(self.rules, self.seed, index)):
            state = self._round(dealer, deck, reshuffles, f"{index}/{turn}")
            _add(tally, state, dealer)
        return DealTally(
            games=self.rules.seats,
            dealer_points=tally[0],
            other_points=tally[1],
            dealer_wins=tally[2],
            other_wins=tally[3],
            draws=tally[4],
            xeris=tally[5],
            jack_xeris=tally[6],
            dealer_xeri_points=tally[7],
            other_xeri_points=tally[8],
        )

    def _round(
        self,
        dealer: int,
        deck: tuple[xeri.Card, ...],
        reshuffles: Sequence[tuple[xeri.Card, ...]],
        game: str,
    ) -> xeri.GameState:
        """Play one round from `deck` and the given redeals to its end."""
        rules = self.rules
        state = xeri.apply(xeri.start(rules, dealer=dealer), xeri.Deal(deck=deck))
        for order in reshuffles:
            state = xeri.apply(state, xeri.Reshuffle(stock=order))
        if state.is_chance:
            raise xeri.InvalidStateError("the redeals drawn left the initial table to redeal")
        own = [
            random.Random(f"xeri.strategy/{self.seed}/{rules.name}/{self.label}/{game}/{seat}")
            for seat in range(rules.seats)
        ]
        bot = self.bot
        while not state.is_round_over:
            seat: int = state.to_move  # type: ignore[assignment]  # no chance within a round
            state = xeri.apply(state, bot.choose(xeri.observe(state, seat), own[seat]))
        return state


def _add(tally: list[int], state: xeri.GameState, dealer: int) -> None:
    """Add a finished round to the running totals of `SeatsJob.play`."""
    result = state.round_results[-1]
    mine = state.rules.sides[dealer]
    other = 1 - mine
    tally[0] += result.total[mine]
    tally[1] += result.total[other]
    winner = result.winner
    tally[2 if winner == mine else 3 if winner == other else 4] += 1
    tally[5] += sum(result.xeris)
    tally[6] += sum(1 for take in state.takes if take.xeri is xeri.XeriKind.JACK_XERI)
    tally[7] += result.xeri_bonus[mine]
    tally[8] += result.xeri_bonus[other]


def _play_chunk(job: SeatsJob, start: int, stop: int) -> tuple[list[DealTally], float]:
    """Play deals `start` to `stop - 1`; module-level so that the workers can unpickle it."""
    started = time.process_time()
    deals = [job.play(i) for i in range(start, stop)]
    return deals, time.process_time() - started


def _interval(values: Sequence[float]) -> list[float]:
    """The 95% interval of the mean of `values` (Student's t)."""
    n = len(values)
    if n < 2:
        return [-math.inf, math.inf]
    half = _t95(n - 1) * stdev(values) / math.sqrt(n)
    mean = fmean(values)
    return [mean - half, mean + half]


def _summary(job: SeatsJob, deals: list[DealTally], cpu: float) -> dict[str, Any]:
    """The figures of one measurement, as JSON-ready data."""
    games = sum(d.games for d in deals)
    xeri_points = sum(d.dealer_xeri_points + d.other_xeri_points for d in deals)
    xeris = sum(d.xeris for d in deals)
    return {
        "rules": job.rules.name,
        "bot": repr(job.bot),
        "label": job.label,
        "seed": job.seed,
        "deals": len(deals),
        "rotations": job.rules.seats,
        "rounds": games,
        "dealer_points": sum(d.dealer_points for d in deals) / games,
        "other_points": sum(d.other_points for d in deals) / games,
        "difference": fmean((d.dealer_points - d.other_points) / d.games for d in deals),
        "interval": _interval([(d.dealer_points - d.other_points) / d.games for d in deals]),
        "dealer_wins": sum(d.dealer_wins for d in deals),
        "other_wins": sum(d.other_wins for d in deals),
        "draws": sum(d.draws for d in deals),
        "xeris_per_round": xeris / games,
        "jack_xeris": sum(d.jack_xeris for d in deals),
        "xeris": xeris,
        "xeri_points_per_round": xeri_points / games,
        "xeri_points_interval": _interval(
            [(d.dealer_xeri_points + d.other_xeri_points) / d.games for d in deals]
        ),
        "dealer_xeri_points_per_round": sum(d.dealer_xeri_points for d in deals) / games,
        "other_xeri_points_per_round": sum(d.other_xeri_points for d in deals) / games,
        "cpu_seconds": cpu,
    }


# --- The initial table's redeal -----------------------------------------------------------


def _redeal_chunk(rules: xeri.RuleSet, seed: int, start: int, stop: int) -> dict[int, int]:
    """How many of deals `start` to `stop - 1` had 0, 1, 2, ... redeals of the initial table."""
    counts: dict[int, int] = {}
    for index in range(start, stop):
        state = xeri.new_game(rules, dealer=index % rules.seats, rng=_deal_rng(seed, rules, index))
        k = len(state.redealt)
        counts[k] = counts.get(k, 0) + 1
    return counts


def _elementary(values: Sequence[int], k: int) -> int:
    """The elementary symmetric polynomial of degree `k` in `values`."""
    e = [1] + [0] * k
    for v in values:
        for j in range(k, 0, -1):
            e[j] += e[j - 1] * v
    return e[k]


def _redeal_chance(rules: xeri.RuleSet, jacks: int, others: Sequence[int]) -> Fraction:
    """The chance that a table dealt from a pool holding these ranks must be redealt.

    Args:
        rules: the rule set, for its redeal condition and table size.
        jacks: the Jacks in the pool.
        others: the count in the pool of each other rank.
    """
    t = rules.table_size
    pool = jacks + sum(others)
    if rules.redeal is xeri.Redeal.NEVER or t == 0:
        return Fraction(0)
    if rules.redeal is xeri.Redeal.TOP_JACK_OR_TOP_PAIR:
        # G4: a Jack on top, or the card below the top of the top card's rank.
        pairs = sum(c * (c - 1) for c in others)
        below = Fraction(pairs, pool * (pool - 1)) if t >= 2 else Fraction(0)
        return Fraction(jacks, pool) + below
    # F4: a Jack on top, or any two equal ranks. Ordered tables of t distinct
    # ranks: t! e_t over all ranks; those with a Jack on top: jacks (t-1)! e_(t-1) of the others.
    counts = [jacks, *others]
    fine = factorial(t) * _elementary(counts, t) - jacks * factorial(t - 1) * _elementary(
        others, t - 1
    )
    ordered = math.perm(pool, t)
    return 1 - Fraction(fine, ordered)


def _hand_outcomes(dealt: int) -> Iterator[tuple[Fraction, int, tuple[int, ...]]]:
    """Every composition of the pool left after `dealt` cards went to the hands, with its chance.

    Yields (chance, Jacks left, how many of each of the twelve other ranks
    are left, sorted). The hands take `dealt` cards of the shuffled deck;
    the pool is the rest, which the initial table is dealt and redealt from.
    """
    total = comb(52, dealt)
    ways = [comb(4, k) for k in range(5)]
    for jacks_taken in range(5):
        # taken[k]: how many of the twelve other ranks gave k cards to the hands.
        for head in product(range(13), repeat=4):
            taken = (*head, 12 - sum(head))
            if taken[4] < 0 or sum(k * n for k, n in enumerate(taken)) != dealt - jacks_taken:
                continue
            weight = factorial(12) * ways[jacks_taken]
            for k, n in enumerate(taken):
                weight = weight // factorial(n) * ways[k] ** n
            left = tuple(sorted(c for k, n in enumerate(taken) for c in (4 - k,) * n))
            yield Fraction(weight, total), 4 - jacks_taken, left


@cache
def exact_redeal(rules: xeri.RuleSet) -> tuple[Fraction, Fraction]:
    """The exact share of rounds whose initial table is redealt, and the mean number of redeals.

    The hands are dealt first and stay; every redeal deals the table again
    from the same pool (the stock and the table shown), so given the pool the
    number of redeals is geometric with the pool's redeal chance q: at least
    one with chance q, q / (1 - q) on average. Both are averaged over the
    hands dealt. Jacks sit on no special place (no shown bottom card).

    Args:
        rules: a rule set with the 52-card deck and no shown bottom card.

    Returns:
        (share of rounds with at least one redeal, mean redeals per round).
    """
    share = Fraction(0)
    mean = Fraction(0)
    if rules.redeal is xeri.Redeal.NEVER:
        return share, mean
    for chance, jacks, others in _hand_outcomes(rules.seats * rules.hand_size):
        q = _redeal_chance(rules, jacks, others)
        share += chance * q
        mean += chance * q / (1 - q)
    return share, mean


# --- measure ----------------------------------------------------------------------------------


def _chunks(total: int, size: int) -> list[tuple[int, int]]:
    return [(s, min(s + size, total)) for s in range(0, total, size)]


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Run every measurement on a process pool and return the figures."""
    presets = [xeri.find_rules(name) for name in args.rules.split(",")]
    jobs: list[tuple[SeatsJob, int, int]] = []  # (job, deals, chunk size)

    def rounds_of(rules: xeri.RuleSet) -> int:
        # German rounds take ten times as long: their move lists are longer.
        return args.german_rounds if isinstance(rules.capture, xeri.SumCapture) else args.rounds

    for rules in presets:
        search_rounds = args.search_rounds if rules.name in args.search_rules.split(",") else 0
        plans = [
            (ISMCTSBot(iterations=args.iterations), "ismcts", search_rounds, 1),
            (CountingBot(), "counting", rounds_of(rules), 25),
        ]
        for bot, label, rounds, chunk in plans:
            if rounds > 0:
                deals = max(2, -(-rounds // rules.seats))
                jobs.append(
                    (SeatsJob(rules=rules, bot=bot, label=label, seed=args.seed), deals, chunk)
                )
    started = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        # The slow search chunks first, so that the fast ones fill the gaps at the end.
        seats_futures = _submit_seats(pool, jobs)
        redeal_futures: dict[Future[dict[int, int]], str] = {
            pool.submit(_redeal_chunk, rules, args.seed, start, stop): rules.name
            for rules in presets
            for start, stop in _chunks(args.tables, 5_000)
        }
        measured = _collect_seats(jobs, seats_futures, started)
        histograms: dict[str, dict[int, int]] = {rules.name: {} for rules in presets}
        for future in as_completed(redeal_futures):
            for k, n in future.result().items():
                hist = histograms[redeal_futures[future]]
                hist[k] = hist.get(k, 0) + n
    redeals = [_redeal_summary(rules, histograms[rules.name], args.tables) for rules in presets]
    return {
        "seed": args.seed,
        "iterations": args.iterations,
        "dealer": measured,
        "redeal": redeals,
        "seconds": round(time.perf_counter() - started, 1),
    }


def _submit_seats(
    pool: Executor, jobs: list[tuple[SeatsJob, int, int]]
) -> dict[Future[tuple[list[DealTally], float]], tuple[int, int]]:
    """Send every chunk of every job to the pool: future -> (job number, chunk start)."""
    return {
        pool.submit(_play_chunk, job, start, stop): (j, start)
        for j, (job, deals, chunk) in enumerate(jobs)
        for start, stop in _chunks(deals, chunk)
    }


def _collect_seats(
    jobs: list[tuple[SeatsJob, int, int]],
    futures: dict[Future[tuple[list[DealTally], float]], tuple[int, int]],
    started: float,
) -> list[dict[str, Any]]:
    """Wait for the chunks, print each job as it completes, and summarise in job order."""
    parts: list[dict[int, list[DealTally]]] = [{} for _ in jobs]
    cpu = [0.0] * len(jobs)
    left = [len(_chunks(deals, chunk)) for _, deals, chunk in jobs]
    for future in as_completed(futures):
        j, start = futures[future]
        deals, seconds = future.result()
        parts[j][start] = deals
        cpu[j] += seconds
        left[j] -= 1
        if left[j] == 0:
            job = jobs[j][0]
            summary = _summary(job, _ordered(parts[j]), cpu[j])
            low, high = summary["interval"]
            print(
                f"{job.rules.name:<11} {job.label:<9} {summary['rounds']:>6} rounds:"
                f" dealer - other {summary['difference']:+.2f} [{low:+.2f}, {high:+.2f}],"
                f" xeri points/round {summary['xeri_points_per_round']:.2f}"
                f"   ({time.perf_counter() - started:.0f} s)",
                flush=True,
            )
    return [_summary(job, _ordered(parts[j]), cpu[j]) for j, (job, _, _) in enumerate(jobs)]


def _ordered(parts: dict[int, list[DealTally]]) -> list[DealTally]:
    return [deal for start in sorted(parts) for deal in parts[start]]


def _redeal_summary(rules: xeri.RuleSet, hist: dict[int, int], deals: int) -> dict[str, Any]:
    """The measured and exact redeal figures of one rule set."""
    redealt = deals - hist.get(0, 0)
    share = redealt / deals
    half = 1.96 * math.sqrt(share * (1 - share) / deals)
    exact_share, exact_mean = exact_redeal(rules)
    return {
        "rules": rules.name,
        "redeal": rules.redeal.value,
        "deals": deals,
        "redealt": redealt,
        "histogram": {str(k): hist[k] for k in sorted(hist)},
        "share": share,
        "interval": [share - half, share + half],
        "mean_redeals": sum(k * n for k, n in hist.items()) / deals,
        "exact_share": float(exact_share),
        "exact_share_fraction": str(exact_share),
        "exact_mean_redeals": float(exact_mean),
    }


# --- render -----------------------------------------------------------------------------------


def _header(*columns: str) -> list[str]:
    """A markdown table's head; a column whose name ends in ':' is aligned right."""
    names = [c.removesuffix(":") for c in columns]
    rules = ["---:" if c.endswith(":") else "---" for c in columns]
    return [f"| {' | '.join(names)} |", f"|{'|'.join(rules)}|"]


def _count(n: int) -> str:
    return f"{n:,}"


def _name(rules: str) -> str:
    return SHOWN.get(rules, rules)


def _bot(text: str) -> str:
    """A bot's repr, short: its class, its search budget and the options it turns on."""
    name = text.split("(", 1)[0]
    shown = [f"{m[1]}={m[2]}" for m in re.finditer(r"\b(samples|iterations)=(\d+)", text)]
    shown += [f"{m[1]}=True" for m in re.finditer(r"\b(paired|model_others)=True", text)]
    if not shown and re.search(r"\b(samples|iterations)=None", text):
        return f"{name}()"  # the search bot at its defaults
    return f"{name}({', '.join(shown)})" if shown else name


def _verdict(interval: Sequence[float]) -> str:
    low, high = interval
    if low > 0:
        return "holds"
    if high < 0:
        return "reversed"
    return "not separated"


def read_ladder(path: Path) -> list[dict[str, Any]]:
    """The ladder's rows: the last row written for each (rule set, step), presets in order."""
    if not path.exists():
        return []
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    order: list[tuple[str, str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            key = (row["rules"], row["step"])
            if key not in latest:
                order.append(key)
            latest[key] = row
    rank = {name: i for i, name in enumerate(SHOWN)}
    order.sort(key=lambda key: rank.get(key[0], len(rank)))  # stable: steps stay in order
    return [latest[key] for key in order]


def read_speed(path: Path) -> list[dict[str, Any]]:
    """The timings of the defaults: the last row written for each (rule set, bot), presets first.

    A bot is its class (the table shows the defaults only): a row of a bot
    whose repr gained a field since replaces the older row of that class.
    """
    if not path.exists():
        return []
    latest: dict[tuple[str, str], dict[str, Any]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            latest[(row["rules"], row["bot"].split("(")[0])] = row
    rank = {name: i for i, name in enumerate(SHOWN)}
    return sorted(latest.values(), key=lambda r: (rank.get(r["rules"], len(rank)), r["bot"]))


def speed_block(rows: list[dict[str, Any]]) -> list[str]:
    """The CPU seconds a decision of the search bots at their defaults, as table lines."""
    if not rows:
        return []
    said = (
        "CPU seconds a decision of the search bots at their defaults"
        " (`benchmarks/ladder.py --speed`, on observations of random points of random rounds):"
    )
    lines = [
        "",
        said,
        "",
        *_header("rule set", "bot", "decisions:", "mean s:", "99th percentile s:", "max s:"),
    ]
    for row in rows:
        p99 = f"{row['p99']:.3f}" if "p99" in row else "n/a"
        lines.append(
            f"| {_name(row['rules'])} | `{_bot(row['bot'])}` | {row['decisions']}"
            f" | {row['mean']:.3f} | {p99} | {row['max']:.3f} |"
        )
    return lines


def ladder_block(rows: list[dict[str, Any]], speed: list[dict[str, Any]] | None = None) -> str:
    """The ladder table, and a sentence per rule set saying which steps hold."""
    if not rows:
        return "The ladder has not been measured yet: run `benchmarks/ladder.py` as shown below."
    # The verdict and its figures first: a table wider than the column scrolls,
    # and what a reader looks for stays in view.
    lines = _header(
        "rule set", "step", "verdict", "difference:", "95% interval", "stronger", "weaker",
        "deals:", "wanted:", "rounds:", "s/decision (stronger):",
    )  # fmt: skip
    for row in rows:
        low, high = row["interval"]
        decisions, seconds = row["decisions"][0], row["seconds"][0]
        per = f"{seconds / decisions:.4f}" if decisions and seconds else "n/a"
        want = _count(row["wanted"]) if "wanted" in row else "n/a"
        lines.append(
            f"| {_name(row['rules'])} | {row['step']} | {_verdict(row['interval'])}"
            f" | {row['difference']:+.2f} | [{low:+.2f}, {high:+.2f}]"
            f" | `{_bot(row['bots'][0])}` | `{_bot(row['bots'][1])}`"
            f" | {_count(row['deals'])} | {want} | {_count(row['rounds'])} | {per} |"
        )
    lines.extend(["", *_ladder_sentences(rows), *_count_sentences(rows)])
    lines.extend(speed_block(speed or []))
    lines.extend(["", "![The ladder](images/ladder.png)"])
    return "\n".join(lines)


def _default_target(rules: str) -> float:
    """The ladder's default d for a rule set by name: 1 point in the sum family, else 2."""
    return 1.0 if family(xeri.find_rules(rules)) == "sums" else 2.0


def _count_sentences(rows: list[dict[str, Any]]) -> list[str]:
    """What deal counts the script chose, and where it played fewer than it wanted."""
    chosen = [r for r in rows if "wanted" in r]
    if not chosen:
        return []
    pilots = sorted({r["pilot"] for r in chosen})
    capped = [r for r in chosen if r["capped"]]
    out = [
        (
            f"* Deal counts: each step's pilot of {' or '.join(map(str, pilots))} deals gave"
            " the standard deviation s of its per-deal differences, and the step asked for"
            " ceil((2.80 s / d)^2) deals, d = 2 points a round in the Greek family and 1 in"
            " the sum family (the *wanted* column)."
        )
    ]
    other = [
        r
        for r in chosen
        if r.get("target", _default_target(r["rules"])) != _default_target(r["rules"])
    ]
    if other:
        out.append(
            "* Played for another d, set with `--target` before the deals were played"
            " (see below): "
            + "; ".join(f"{_name(r['rules'])} {r['step']} (d = {r['target']:g})" for r in other)
            + "."
        )
    if capped:
        out.append(
            "* Fewer deals were played than wanted (the cap for the CPU time at hand) on: "
            + "; ".join(
                f"{_name(r['rules'])} {r['step']} ({r['deals']} of {r['wanted']})" for r in capped
            )
            + "."
        )
    return out


def _ladder_sentences(rows: list[dict[str, Any]]) -> list[str]:
    """One sentence per rule set: whether its ladder holds, and which steps do not."""
    out = []
    by_rules: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_rules.setdefault(row["rules"], []).append(row)
    for rules, steps in by_rules.items():
        failing = [r for r in steps if _verdict(r["interval"]) != "holds"]
        measured = f"{len(steps)} of the {LADDER_STEPS} steps measured"
        if not failing and len(steps) == LADDER_STEPS:
            said = "the whole ladder holds: every step's interval lies above zero"
        elif not failing:
            said = f"every step measured holds, but only {measured}"
        else:
            held = len(steps) - len(failing)
            said = f"{held} of {len(steps)} steps measured hold; " + "; ".join(
                f"{r['step']}: {_verdict(r['interval'])}"
                f" ([{r['interval'][0]:+.2f}, {r['interval'][1]:+.2f}])"
                for r in failing
            )
        out.append(f"* On {_name(rules)} {said}.")
    return out


def read_league(path: Path) -> dict[str, Any] | None:
    """The league's results by rule set, or None when not measured."""
    if not path.exists():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rank = {name: i for i, name in enumerate(SHOWN)}
    return dict(sorted(data.items(), key=lambda item: rank.get(item[0], len(rank))))


def league_block(league: dict[str, Any] | None) -> str:
    """The league's ratings, one table row per bot and rule set, strongest first."""
    if not league:
        return "The league has not been measured yet: run `benchmarks/league.py` as shown below."
    lines = _header(
        "rule set", "bot", "rating:", "95% interval", "deals a pair (with a search bot)",
    )  # fmt: skip
    for rules, entry in league.items():
        order = sorted(range(len(entry["bots"])), key=lambda k: -entry["ratings"][k])
        counts = sorted({pair["deals"] for pair in entry["pairs"]}, reverse=True)
        deals = f"{counts[0]} ({counts[1]})" if len(counts) > 1 else f"{counts[0]}"
        for k in order:
            low, high = entry["intervals"][k]
            lines.append(
                f"| {_name(rules)} | `{entry['bots'][k]}` | {entry['ratings'][k]:+.0f}"
                f" | [{low:+.0f}, {high:+.0f}] | {deals} |"
            )
    lines.extend(["", "![The league](images/league.png)"])
    return "\n".join(lines)


def dealer_block(data: dict[str, Any] | None) -> str:
    """The dealer's side against the other side, per rule set and bot."""
    if not data:
        return "Not measured yet: run `benchmarks/strategy.py measure`."
    lines = _header(
        "rule set", "bot on every seat", "difference:", "95% interval", "dealer's side:",
        "other side:", "rounds won (dealer / other / equal)", "deals:", "rounds:",
    )  # fmt: skip
    for row in data["dealer"]:
        low, high = row["interval"]
        lines.append(
            f"| {_name(row['rules'])} | `{_bot(row['bot'])}`"
            f" | {row['difference']:+.2f} | [{low:+.2f}, {high:+.2f}]"
            f" | {row['dealer_points']:.2f} | {row['other_points']:.2f}"
            f" | {_count(row['dealer_wins'])} / {_count(row['other_wins'])}"
            f" / {_count(row['draws'])} | {_count(row['deals'])} | {_count(row['rounds'])} |"
        )
    lines.extend(["", *_dealer_sentences(data["dealer"]), "", "![The dealer](images/dealer.png)"])
    return "\n".join(lines)


def _dealer_sentences(rows: list[dict[str, Any]]) -> list[str]:
    """One sentence per measurement, then what they say of source 002's claim."""
    out = []
    for row in rows:
        low, high = row["interval"]
        if high < 0:
            said = f"the dealer's side is behind by {-row['difference']:.2f} points a round"
        elif low > 0:
            said = f"the dealer's side is ahead by {row['difference']:.2f} points a round"
        else:
            said = "no difference between the dealer's side and the other side is shown"
        xeris = row["dealer_xeri_points_per_round"] - row["other_xeri_points_per_round"]
        out.append(
            f"* {_name(row['rules'])}, `{_bot(row['bot'])}` on every seat: {said}"
            f" (interval [{low:+.2f}, {high:+.2f}], {_count(row['rounds'])} rounds);"
            f" xeris make {xeris:+.2f} of the difference, cards and majority"
            f" {row['difference'] - xeris:+.2f}."
        )
    four = [row for row in rows if row["rules"] == "greek-four"]
    if four:
        behind = sum(row["interval"][1] < 0 for row in four)
        ahead = sum(row["interval"][0] > 0 for row in four)
        if behind == len(four):
            verdict = "these measurements agree: the dealer's side is behind with every bot"
        elif ahead:
            verdict = (
                f"these bots do not bear it out: the dealer's side is ahead with {ahead}"
                f" of the {len(four)} bots measured"
            )
        elif behind:
            verdict = (
                f"these bots bear it out in part: the dealer's side is behind with {behind}"
                f" of the {len(four)} bots measured, and no difference is shown with the others"
            )
        else:
            verdict = "these bots do not show it: no difference is shown with any bot measured"
        out.extend(
            ["", f"Source 002 says dealing is a slight disadvantage in GREEK_FOUR; {verdict}."]
        )
    return out


def xeri_block(data: dict[str, Any] | None) -> str:
    """Xeris per round and their points, per rule set and bot."""
    if not data:
        return "Not measured yet: run `benchmarks/strategy.py measure`."
    lines = _header(
        "rule set", "bot on every seat", "rounds:", "xeris per round:", "jack xeris:",
        "xeri points per round:", "95% interval", "dealer's side:", "other side:",
        "points per xeri:",
    )  # fmt: skip
    for row in data["dealer"]:
        low, high = row["xeri_points_interval"]
        per = row["xeri_points_per_round"] / row["xeris_per_round"] if row["xeris"] else 0.0
        lines.append(
            f"| {_name(row['rules'])} | `{_bot(row['bot'])}` | {_count(row['rounds'])}"
            f" | {row['xeris_per_round']:.3f} | {_count(row['jack_xeris'])} of"
            f" {_count(row['xeris'])} | {row['xeri_points_per_round']:.2f}"
            f" | [{low:.2f}, {high:.2f}] | {row['dealer_xeri_points_per_round']:.2f}"
            f" | {row['other_xeri_points_per_round']:.2f} | {per:.2f} |"
        )
    return "\n".join(lines)


def redeal_block(data: dict[str, Any] | None) -> str:
    """How often the initial table is redealt: measured and exact."""
    if not data:
        return "Not measured yet: run `benchmarks/strategy.py measure`."
    lines = _header(
        "rule set", "redeal rule", "deals:", "redealt:", "share:", "95% interval",
        "exact share:", "mean redeals:", "exact mean:",
    )  # fmt: skip
    for row in data["redeal"]:
        low, high = row["interval"]
        lines.append(
            f"| {_name(row['rules'])} | {row['redeal']}{CLAUSE.get(row['rules'], '')}"
            f" | {_count(row['deals'])}"
            f" | {_count(row['redealt'])} | {row['share']:.4f} | [{low:.4f}, {high:.4f}]"
            f" | {row['exact_share']:.4f} | {row['mean_redeals']:.4f}"
            f" | {row['exact_mean_redeals']:.4f} |"
        )
    return "\n".join(lines)


def read_strategy(path: Path) -> dict[str, Any] | None:
    """The figures `measure` wrote, or None before the first measurement."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else None


def blocks(
    ladder: list[dict[str, Any]],
    data: dict[str, Any] | None,
    league: dict[str, Any] | None = None,
    speed: list[dict[str, Any]] | None = None,
) -> dict[str, str]:
    """The text of every generated block of the page."""
    return {
        "ladder": ladder_block(ladder, speed),
        "league": league_block(league),
        "dealer": dealer_block(data),
        "xeri": xeri_block(data),
        "redeal": redeal_block(data),
    }


def fill(page: str, texts: dict[str, str]) -> str:
    """The page with each generated block replaced by its text; the prose stays."""
    for name, text in texts.items():
        start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
        if page.count(start) != 1 or page.count(end) != 1 or page.index(start) > page.index(end):
            raise SystemExit(f"the page needs one {start} ... {end} block")
        head, rest = page.split(start)
        _, tail = rest.split(end)
        page = f"{head}{start}\n{text}\n{end}{tail}"
    return page


def _plots(  # noqa: PLR0915  # one plot after another
    ladder: list[dict[str, Any]], data: dict[str, Any] | None, league: dict[str, Any] | None
) -> None:
    """Write the ladder and dealer plots: each difference with its interval as an error bar."""
    import matplotlib as mpl  # noqa: PLC0415  # only render draws

    mpl.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    IMAGES.mkdir(parents=True, exist_ok=True)
    # A plot of data no longer there would go on being committed: remove it.
    if not ladder:
        (IMAGES / "ladder.png").unlink(missing_ok=True)
    if not data:
        (IMAGES / "dealer.png").unlink(missing_ok=True)
    if not league:
        (IMAGES / "league.png").unlink(missing_ok=True)
    if league:
        fig, ax = plt.subplots(figsize=(7, 3.4), dpi=100)
        kinds = list(dict.fromkeys(b for entry in league.values() for b in entry["bots"]))
        for i, (rules, entry) in enumerate(league.items()):
            x = [kinds.index(b) + (i - (len(league) - 1) / 2) * 0.12 for b in entry["bots"]]
            y = entry["ratings"]
            err = [[r - lo for r, (lo, _) in zip(y, entry["intervals"], strict=True)],
                   [hi - r for r, (_, hi) in zip(y, entry["intervals"], strict=True)]]  # fmt: skip
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=_name(rules))
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(kinds)), kinds)
        ax.set_ylabel("Bradley-Terry rating (Elo scale)")
        ax.set_title("League ratings, random = 0 (95% intervals)")
        ax.legend(frameon=False, fontsize="small", loc="best")
        fig.tight_layout()
        fig.savefig(IMAGES / "league.png")
        plt.close(fig)
    if ladder:
        steps = list(dict.fromkeys(row["step"] for row in ladder))
        names = list(dict.fromkeys(row["rules"] for row in ladder))
        fig, ax = plt.subplots(figsize=(7, 3.4), dpi=100)
        for i, rules in enumerate(names):
            rows = [row for row in ladder if row["rules"] == rules]
            x = [steps.index(r["step"]) + (i - (len(names) - 1) / 2) * 0.12 for r in rows]
            y = [r["difference"] for r in rows]
            err = [[r["difference"] - r["interval"][0] for r in rows],
                   [r["interval"][1] - r["difference"] for r in rows]]  # fmt: skip
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=_name(rules))
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(steps)), steps)
        ax.set_ylabel("points per round")
        ax.set_title("Each bot against the next weaker one (95% intervals)")
        ax.legend(frameon=False, fontsize="small", loc="best")
        fig.tight_layout()
        fig.savefig(IMAGES / "ladder.png")
        plt.close(fig)
    if data:
        rows = data["dealer"]
        fig, ax = plt.subplots(figsize=(7, 2.8), dpi=100)
        labels = [f"{_name(r['rules'])}\n{_bot(r['bot'])}" for r in rows]
        y = [r["difference"] for r in rows]
        err = [[r["difference"] - r["interval"][0] for r in rows],
               [r["interval"][1] - r["difference"] for r in rows]]  # fmt: skip
        ax.errorbar(range(len(rows)), y, yerr=err, fmt="o", capsize=3)
        ax.axhline(0, color="grey", linewidth=0.8)
        ax.set_xticks(range(len(rows)), labels, fontsize="small")
        ax.set_ylabel("points per round")
        ax.set_title("Dealer's side minus the other side (95% intervals)")
        fig.tight_layout()
        fig.savefig(IMAGES / "dealer.png")
        plt.close(fig)


def render(args: argparse.Namespace) -> None:
    """Rewrite the page's generated blocks and the plots."""
    ladder = read_ladder(Path(args.ladder))
    data = read_strategy(STRATEGY_JSON)
    league = read_league(LEAGUE_JSON)
    speed = read_speed(SPEED_JSONL)
    page = fill(PAGE.read_text(encoding="utf-8"), blocks(ladder, data, league, speed))
    PAGE.write_text(page, encoding="utf-8")
    _plots(ladder, data, league)
    print(
        f"rendered {len(ladder)} ladder rows and {len(data['dealer']) if data else 0} dealer rows"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Measure or render, as the command line says."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    m = commands.add_parser("measure", help="measure and write benchmarks/results/strategy.json")
    m.add_argument("--rules", default="greek,greek-four,german")
    m.add_argument("--rounds", type=int, default=3000, help="CountingBot rounds, pile games")
    m.add_argument("--german-rounds", type=int, default=600, help="CountingBot rounds, sum games")
    m.add_argument("--search-rounds", type=int, default=100, help="ISMCTSBot rounds per rule set")
    m.add_argument("--search-rules", default="greek,greek-four", help="where ISMCTSBot plays")
    m.add_argument("--iterations", type=int, default=150, help="ISMCTSBot iterations per move")
    m.add_argument("--tables", type=int, default=100_000, help="fresh deals for the redeal share")
    m.add_argument("--workers", type=int, default=2)
    m.add_argument("--seed", type=int, default=2026)
    r = commands.add_parser("render", help="rewrite docs/strategy.md's tables and the plots")
    r.add_argument("--ladder", default=str(LADDER_JSONL), help="the ladder's JSON-lines file")
    args = parser.parse_args(argv)
    if args.command == "measure":
        figures = measure(args)
        RESULTS.mkdir(parents=True, exist_ok=True)
        STRATEGY_JSON.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {STRATEGY_JSON.relative_to(ROOT)} in {figures['seconds']:.0f} s")
    else:
        render(args)


if __name__ == "__main__":
    main(sys.argv[1:])

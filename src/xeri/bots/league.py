"""A rating of bots from games over duplicate deals: [`play_league`][xeri.bots.play_league].

Every pair of bots plays the same deals ([`simulate`][xeri.simulate], each
deal once per seating), and each deal of a pair gives one paired result:
the first bot's mean points a round minus the second's over that deal's
games, a win for the first bot when above zero, a loss below, half of each
when equal. A Bradley-Terry model is fitted to these wins (the chance that
bot *i* beats bot *j* on a deal is `s_i / (s_i + s_j)`) by its standard
minorise-maximise iteration, and shown on the Elo scale, 400 log10 s, with
the first bot of the list at 0. The 95% interval of each rating is the
2.5th to 97.5th percentile over bootstrap resamples of the deals of every
pair (the pairing kept: a deal's result is drawn whole), from a fixed seed.

The command `xeri rate MODULE:ATTRIBUTE --rules scopa` rates a bot of one's
own against the shipped ladder with [`rate_bot`][xeri.bots.rate_bot];
`benchmarks/league.py` plays the round robin of every shipped bot on every
preset for the strategy page.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from itertools import combinations

import attrs

from xeri._errors import ArgumentError
from xeri._immutable import _Immutable
from xeri._rules.ruleset import RuleSet
from xeri.bots.registry import as_bot, make

__all__ = ["League", "PairResult", "fit_ratings", "play_league", "rate_bot"]


@attrs.frozen(kw_only=True)
class PairResult(_Immutable):
    """The paired results of one pair of bots over the same deals."""

    first: int
    """The index of the first bot of the pair in the league's list."""
    second: int
    """The index of the second bot."""
    per_deal: tuple[float, ...]
    """Per deal: the first bot's mean points a round minus the second's."""
    difference: float
    """The mean of `per_deal`."""
    interval: tuple[float, float]
    """Its paired 95% interval (Student's t over the deals)."""


@attrs.frozen(kw_only=True)
class League(_Immutable):
    """A round robin's results and the ratings fitted to them."""

    rules: str
    """The rule set's name."""
    bots: tuple[str, ...]
    """The bots, as their names were given."""
    deals: int
    """Deals each pair played (each once per seating)."""
    seed: int
    """The seed every pair's deals derive from."""
    pairs: tuple[PairResult, ...]
    """Every pair's results, in the order of the pairs played."""
    ratings: tuple[float, ...]
    """Each bot's Bradley-Terry rating on the Elo scale, the first bot at 0."""
    intervals: tuple[tuple[float, float], ...]
    """The bootstrap 95% interval of each rating."""

    def table(self) -> str:
        """The ratings as a plain-text table, strongest first."""
        width = max(len("bot"), *(len(b) for b in self.bots))
        lines = [f"{'bot':<{width}}  {'rating':>7}  95% interval"]
        order = sorted(range(len(self.bots)), key=lambda i: -self.ratings[i])
        for i in order:
            low, high = self.intervals[i]
            lines.append(
                f"{self.bots[i]:<{width}}  {self.ratings[i]:>+7.0f}  [{low:+.0f}, {high:+.0f}]"
            )
        return "\n".join(lines)


def _wins(pairs: Sequence[PairResult], n: int) -> list[list[float]]:
    wins = [[0.0] * n for _ in range(n)]
    for pair in pairs:
        for value in pair.per_deal:
            score = 1.0 if value > 0 else 0.0 if value < 0 else 0.5
            wins[pair.first][pair.second] += score
            wins[pair.second][pair.first] += 1.0 - score
    return wins


def _bradley_terry(wins: list[list[float]], rounds: int = 200) -> list[float]:
    """Elo-scale ratings from a matrix of wins, by the MM iteration; the first bot at 0.

    A bot that won or lost every game has no finite rating: half a win and
    half a loss against each opponent it met are added to every pair (a
    weak prior), which keeps every rating finite and changes little where
    results are many.
    """
    n = len(wins)
    games = [[wins[i][j] + wins[j][i] for j in range(n)] for i in range(n)]
    w = [[wins[i][j] + (0.5 if games[i][j] else 0.0) for j in range(n)] for i in range(n)]
    g = [[w[i][j] + w[j][i] for j in range(n)] for i in range(n)]
    strength = [1.0] * n
    for _ in range(rounds):
        new = []
        for i in range(n):
            total = sum(w[i])
            denom = sum(g[i][j] / (strength[i] + strength[j]) for j in range(n) if g[i][j])
            new.append(total / denom if denom else strength[i])
        scale = math.exp(sum(math.log(s) for s in new) / n)
        strength = [s / scale for s in new]
    base = math.log10(strength[0])
    return [400.0 * (math.log10(s) - base) for s in strength]


def fit_ratings(
    pairs: Sequence[PairResult], n: int, *, resamples: int = 200, seed: int = 0
) -> tuple[tuple[float, ...], tuple[tuple[float, float], ...]]:
    """Bradley-Terry ratings of `n` bots from paired results, with bootstrap 95% intervals.

    Args:
        pairs: the results of pairs of the bots (indices below `n`).
        n: how many bots.
        resamples: bootstrap resamples of the deals of every pair.
        seed: the seed of the resampling.

    Returns:
        The ratings on the Elo scale (the first bot at 0) and each one's interval.
    """
    ratings = _bradley_terry(_wins(pairs, n))
    draw = random.Random(seed)
    samples: list[list[float]] = [[] for _ in range(n)]
    for _ in range(resamples):
        resampled = [
            attrs.evolve(
                pair,
                per_deal=tuple(
                    pair.per_deal[draw.randrange(len(pair.per_deal))] for _ in pair.per_deal
                ),
            )
            for pair in pairs
        ]
        for i, value in enumerate(_bradley_terry(_wins(resampled, n), rounds=80)):
            samples[i].append(value)
    intervals = []
    for values in samples:
        values.sort()
        if not values:
            intervals.append((math.nan, math.nan))
            continue
        low = values[int(0.025 * (len(values) - 1))]
        high = values[math.ceil(0.975 * (len(values) - 1))]
        intervals.append((low, high))
    return tuple(ratings), tuple(intervals)


def _pair(
    rules: RuleSet,
    bots: Sequence[object],
    i: int,
    j: int,
    *,
    deals: int,
    seed: int,
    executor: Executor | None,
) -> PairResult:
    from xeri._simulation import simulate  # noqa: PLC0415  # simulate imports the bots package

    result = simulate(rules, (bots[i], bots[j]), deals=deals, seed=seed, executor=executor)  # type: ignore[arg-type]  # as_bot checked them
    return PairResult(
        first=i,
        second=j,
        per_deal=tuple(result.differences),
        difference=result.difference,
        interval=result.interval,
    )


def play_league(
    rules: RuleSet,
    bots: Sequence[object],
    *,
    names: Sequence[str] | None = None,
    deals: int,
    seed: int = 2026,
    pairs: Sequence[tuple[int, int]] | None = None,
    executor: Executor | None = None,
    progress: Callable[[PairResult], None] | None = None,
) -> League:
    """Play every pair of `bots` over the same duplicate deals and rate them.

    Args:
        rules: the rule set, with two sides.
        bots: the bots (anything [`as_bot`][xeri.bots.as_bot] takes); the
            first is the rating's zero.
        names: how to name each bot; their reprs by default.
        deals: deals per pair, each played once per seating.
        seed: the seed of every pair's deals (the same deals for every pair).
        pairs: the pairs to play, as index pairs; every pair by default.
        executor: runs each pair's deals, as [`simulate`][xeri.simulate]'s.
        progress: called with each pair's result as it is done.

    Returns:
        The results and the ratings.

    Raises:
        XeriError: fewer than two bots, a bot that is no bot, a rule set
            without exactly two sides, or pairs that leave a bot out.
    """
    checked = [as_bot(bot) for bot in bots]
    n = len(checked)
    if n < 2:  # a pair at least
        raise ArgumentError(f"a league needs two bots at least, not {n}")
    if rules.num_sides != 2:  # paired results of two sides
        raise ArgumentError(
            f"a league needs a rule set of two sides; {rules.name} has {rules.num_sides}"
        )
    shown = tuple(names) if names is not None else tuple(repr(bot) for bot in checked)
    if len(shown) != n:
        raise ArgumentError(f"{len(shown)} names were given for {n} bots")
    chosen = list(pairs) if pairs is not None else list(combinations(range(n), 2))
    met = {k for pair in chosen for k in pair}
    if met != set(range(n)):
        raise ArgumentError("the pairs must give every bot a game")
    results = []
    for i, j in chosen:
        result = _pair(rules, checked, i, j, deals=deals, seed=seed, executor=executor)
        results.append(result)
        if progress is not None:
            progress(result)
    ratings, intervals = fit_ratings(results, n, seed=seed)
    return League(
        rules=rules.name,
        bots=shown,
        deals=deals,
        seed=seed,
        pairs=tuple(results),
        ratings=ratings,
        intervals=intervals,
    )


LADDER: tuple[str, ...] = ("random", "greedy", "counting", "expert")
"""The shipped bots a bot of one's own is rated against by default, weakest first."""


def rate_bot(
    rules: RuleSet,
    bot: object,
    *,
    ladder: Sequence[str] = LADDER,
    deals: int = 10,
    seed: int = 2026,
    executor: Executor | None = None,
    progress: Callable[[PairResult], None] | None = None,
) -> League:
    """Rate one bot against the shipped ladder.

    The bot plays every ladder bot, and each ladder bot plays the next
    stronger one, over the same duplicate deals; the ratings are fitted to
    all of it, `random` (or the first ladder bot) at 0.

    Args:
        rules: the rule set, with two sides.
        bot: the bot to rate (anything [`as_bot`][xeri.bots.as_bot] takes).
        ladder: names of shipped kinds or levels ([`make`][xeri.bots.make]).
        deals: deals per pair, each played once per seating.
        seed: the seed of the deals.
        executor: runs the deals, as [`simulate`][xeri.simulate]'s.
        progress: called with each pair's result as it is done.

    Returns:
        The league: the ladder's bots first, the rated bot last.
    """
    shipped = [make(name) for name in ladder]
    k = len(shipped)
    pairs = [(i, i + 1) for i in range(k - 1)] + [(i, k) for i in range(k)]
    names = [*ladder, "yours"]
    return play_league(
        rules,
        [*shipped, bot],
        names=names,
        deals=deals,
        seed=seed,
        pairs=pairs,
        executor=executor,
        progress=progress,
    )

"""Bots against bots, with sound statistics: [`simulate`][xeri.simulate].

Each deal is played twice with the sides swapped (duplicate deals), so the
luck of the cards cancels and the point difference between two bots is
measured on the same cards; the result gives a paired 95% confidence
interval of that difference. All the randomness of a deal (the shuffle, any
redeal, the bots' own draws) derives from the seed and the deal's index
alone, so the result is identical however the deals are split into chunks
and whichever executor plays them: the default runs in this process; a
`concurrent.futures.ProcessPoolExecutor` uses every core; a Dask
`Client.get_executor()` runs on a cluster.

Examples:
    >>> import xeri
    >>> from xeri.bots import GreedyBot, RandomBot
    >>> result = xeri.simulate(xeri.GREEK, (GreedyBot(), RandomBot()), deals=20, seed=1)
    >>> result.games, result.rounds
    (40, 40)
    >>> low, high = result.interval
    >>> low <= result.difference <= high
    True
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import random
import secrets
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, CancelledError, Executor, Future, wait
from statistics import NormalDist, fmean, stdev
from typing import Any

import attrs

from xeri._agents.observation import Observation, observe
from xeri._core.engine import apply, chance_move, new_game
from xeri._errors import ArgumentError, BotError, IllegalMoveError, XeriError, _show
from xeri._immutable import _Immutable
from xeri._moves import Move
from xeri._rules.ruleset import RuleSet
from xeri.bots.base import Bot
from xeri.bots.registry import as_bot

__all__ = ["SimulationResult", "simulate"]

Progress = Callable[[int, int], object]
"""A progress callback: called with (deals done, deals in all) after each chunk."""


@attrs.frozen(kw_only=True)
class SimulationResult(_Immutable):
    """What [`simulate`][xeri.simulate] measured; equal for equal seeds, whatever the executor.

    Bot `i` is `bots[i]`; with duplicate deals each bot plays every side
    once per deal. Timings (`seconds`) vary from run to run and take no part
    in equality.
    """

    rules: str
    """The name of the rule set."""
    bots: tuple[str, ...]
    """The bots, as their reprs."""
    seed: int
    """The seed every deal's randomness derives from (drawn at random when none was given)."""
    deals: int
    """How many deals were played."""
    duplicate: bool
    """Whether each deal was played once per seating of the bots (sides rotated)."""
    matches: bool
    """Whether each deal started a whole match rather than a single round."""
    games: int
    """Rounds or matches started: `deals` times the number of seatings."""
    rounds: int
    """Rounds played in all."""
    points: tuple[int, ...]
    """Each bot's total round points, summed over every round it played."""
    round_wins: tuple[int, ...]
    """Rounds in which each bot's side scored more than every other side."""
    round_draws: int
    """Rounds with no single best side."""
    match_wins: tuple[int, ...]
    """Matches each bot's side won (all zero unless `matches`)."""
    differences: tuple[float, ...]
    """Per deal: bot 0's mean round points minus bot 1's, over that deal's games."""
    decisions: tuple[int, ...]
    """How many moves each bot chose."""
    seconds: tuple[float, ...] = attrs.field(default=(), eq=False)
    """Time each bot spent choosing, in seconds (varies between runs; not compared)."""

    @property
    def mean_points(self) -> tuple[float, ...]:
        """Each bot's mean points per round it played."""
        # Every bot plays a side in every round.
        return tuple(p / self.rounds if self.rounds else 0.0 for p in self.points)

    @property
    def difference(self) -> float:
        """Bot 0's mean points per round minus bot 1's, averaged over the deals."""
        return fmean(self.differences) if self.differences else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The paired 95% confidence interval of `difference` (Student's t over the deals).

        Infinite when fewer than two deals were played.
        """
        n = len(self.differences)
        if n < 2:
            return (-math.inf, math.inf)
        half = _t95(n - 1) * stdev(self.differences) / math.sqrt(n)
        mean = self.difference
        return (mean - half, mean + half)

    @property
    def decisions_per_second(self) -> tuple[float, ...]:
        """Each bot's moves chosen per second of its own thinking time."""
        return tuple(
            d / s if s > 0 else math.inf for d, s in zip(self.decisions, self.seconds, strict=True)
        )

    def table(self) -> str:
        """The result as a plain-text table, one row per bot, and the interval."""
        name_width = max(len("bot"), *(len(b) for b in self.bots))
        head = (
            f"{'bot':<{name_width}}  {'points/round':>12}  {'round wins':>10}"
            f"  {'match wins':>10}  {'decisions/s':>11}"
        )
        rows = [head]
        speed = self.decisions_per_second if self.seconds else (math.nan,) * len(self.bots)
        for i, bot in enumerate(self.bots):
            rows.append(
                f"{bot:<{name_width}}  {self.mean_points[i]:>12.3f}  {self.round_wins[i]:>10}"
                f"  {self.match_wins[i]:>10}  {speed[i]:>11.1f}"
            )
        low, high = self.interval
        rows.append(
            f"difference (bot 1 - bot 2): {self.difference:+.3f} points/round,"
            f" 95% interval [{low:+.3f}, {high:+.3f}] over {self.deals} deals"
            f" ({self.games} {'matches' if self.matches else 'rounds'},"
            f" {'duplicate' if self.duplicate else 'single'}; seed {self.seed})"
        )
        return "\n".join(rows)

    def to_dict(self) -> dict[str, Any]:
        """The result as plain JSON-ready data, derived figures included."""
        low, high = self.interval
        return {
            "rules": self.rules,
            "bots": list(self.bots),
            "seed": self.seed,
            "deals": self.deals,
            "duplicate": self.duplicate,
            "matches": self.matches,
            "games": self.games,
            "rounds": self.rounds,
            "mean_points": list(self.mean_points),
            "round_wins": list(self.round_wins),
            "round_draws": self.round_draws,
            "match_wins": list(self.match_wins),
            "difference": self.difference,
            "interval": [low, high],
            "decisions": list(self.decisions),
            "seconds": list(self.seconds),
        }


def _t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom.

    A Cornish-Fisher expansion around the normal quantile: within 0.2% for
    df >= 3 and exact in the limit; df 1 and 2 are tabled.
    """
    if df == 1:
        return 12.706204736
    if df == 2:
        return 4.302652730
    z = NormalDist().inv_cdf(0.975)
    z3, z5, z7 = z**3, z**5, z**7
    return (
        z
        + (z3 + z) / (4 * df)
        + (5 * z5 + 16 * z3 + 3 * z) / (96 * df**2)
        + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df**3)
    )


@attrs.frozen
class _Deal:
    """What one deal's games gave, per bot."""

    rounds: int
    points: tuple[int, ...]
    round_wins: tuple[int, ...]
    round_draws: int
    match_wins: tuple[int, ...]
    difference: float
    decisions: tuple[int, ...]
    seconds: tuple[float, ...]


def _rng(seed: int, index: int, what: str) -> random.Random:
    # String seeds are hashed with SHA-512: the same in every process and version.
    return random.Random(f"xeri.simulate/{seed}/{index}/{what}")


class _Tally:
    """Running totals of one deal, per bot."""

    def __init__(self, n_bots: int) -> None:
        self.rounds = 0
        self.points = [0] * n_bots
        self.wins = [0] * n_bots
        self.draws = 0
        self.match_wins = [0] * n_bots
        self.decisions = [0] * n_bots
        self.seconds = [0.0] * n_bots
        self.per_game: list[float] = []

    def round_over(self, total: tuple[int, ...], bot_of_side: list[int]) -> None:
        self.rounds += 1
        for side, value in enumerate(total):
            self.points[bot_of_side[side]] += value
        best = max(total)
        if total.count(best) > 1:
            self.draws += 1
        else:
            self.wins[bot_of_side[total.index(best)]] += 1

    def deal(self) -> _Deal:
        return _Deal(
            self.rounds,
            tuple(self.points),
            tuple(self.wins),
            self.draws,
            tuple(self.match_wins),
            fmean(self.per_game) if self.per_game else 0.0,
            tuple(self.decisions),
            tuple(self.seconds),
        )


class _Timeout(BaseException):  # not an error of the bot's: the alarm's signal
    """Raised by the alarm inside a bot's `choose` that took longer than the time limit."""


def _alarm(signum: int, frame: object) -> None:
    raise _Timeout


@contextlib.contextmanager
def _time_limit(seconds: float | None) -> Iterator[bool]:
    """An alarm `seconds` after each `choose` starts, where signals can interrupt it.

    Yields whether the alarm is armed: in the main thread of a process on a
    system with `SIGALRM` (a worker of a process pool, or `simulate` called
    from the main thread). Elsewhere (threads, Windows) a decision that
    took too long is refused only once it returns: best effort.
    """
    armed = (
        seconds is not None
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not armed:
        yield False
        return
    previous = signal.signal(signal.SIGALRM, _alarm)
    try:
        yield True
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@attrs.frozen
class _Job:
    """What every deal of a simulation shares; pickled to the executor with each chunk."""

    rules: RuleSet
    bots: tuple[Bot, ...]
    seed: int
    duplicate: bool
    matches: bool
    seconds: float | None = None
    """The time limit of one decision, or None."""

    def play(self, index: int, *, armed: bool = False) -> _Deal:
        """Play deal `index` once per seating of the bots (`armed`: see `_time_limit`)."""
        n_bots = len(self.bots)
        tally = _Tally(n_bots)
        for seating in range(n_bots if self.duplicate else 1):
            # Side s is played by bot (s + seating) % n: every bot plays every side once.
            bot_of_side = [(s + seating) % n_bots for s in range(n_bots)]
            self._game(index, seating, bot_of_side, tally, armed=armed)
        return tally.deal()

    def _choose(
        self, bot: int, seat: int, obs: Observation, rng: random.Random, index: int, *, armed: bool
    ) -> Move:
        """`bots[bot].choose`, its failures as a `BotError` naming the bot, deal and seat."""
        seconds = self.seconds
        try:
            if armed:
                signal.setitimer(signal.ITIMER_REAL, seconds)  # type: ignore[arg-type]  # armed: set
            started = time.perf_counter()
            try:
                move = self.bots[bot].choose(obs, rng)
            finally:
                if armed:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            late = seconds is not None and time.perf_counter() - started > seconds
        except _Timeout:
            late, move = True, None
        except Exception as exc:  # a bot of one's own may fail in any way
            raise BotError(
                f"bot {bot} ({_short_repr(self.bots[bot])}) raised {type(exc).__name__} in deal"
                f" {index}, playing seat {seat}",
                bot=bot,
                deal=index,
                seat=seat,
                error=exc,
            ) from exc
        if late:
            raise BotError(
                f"bot {bot} ({_short_repr(self.bots[bot])}) did not choose within {seconds} s"
                f" in deal {index}, playing seat {seat}",
                bot=bot,
                deal=index,
                seat=seat,
            )
        return move  # type: ignore[return-value]  # set unless late

    def _game(
        self,
        index: int,
        seating: int,
        bot_of_side: list[int],
        tally: _Tally,
        *,
        armed: bool = False,
    ) -> None:
        rules, bots, matches = self.rules, self.bots, self.matches
        sides = rules.sides
        chance = _rng(self.seed, index, "chance")
        own = [_rng(self.seed, index, f"bot{seating}/{seat}") for seat in range(rules.seats)]
        state = new_game(rules, dealer=index % rules.seats, rng=chance)
        rounds, points = tally.rounds, list(tally.points)
        while not (state.is_over or (state.is_round_over and not matches)):
            if state.is_chance:
                state = apply(state, chance_move(state, chance))
                continue
            seat: int = state.to_move  # type: ignore[assignment]  # not chance, not over
            bot = bot_of_side[sides[seat]]
            started = time.perf_counter()
            move = self._choose(bot, seat, observe(state, seat), own[seat], index, armed=armed)
            tally.seconds[bot] += time.perf_counter() - started
            tally.decisions[bot] += 1
            before = len(state.round_results)
            try:
                state = apply(state, move)
            except IllegalMoveError as exc:
                raise BotError(
                    f"bot {bot} ({_short_repr(bots[bot])}) chose a move that is not legal in"
                    f" deal {index}, playing seat {seat}",
                    bot=bot,
                    deal=index,
                    seat=seat,
                    error=exc,
                ) from exc
            if len(state.round_results) > before:
                tally.round_over(state.round_results[-1].total, bot_of_side)
        if matches and state.winner is not None:
            tally.match_wins[bot_of_side[state.winner]] += 1
        played = tally.rounds - rounds
        if len(bots) >= 2 and played:
            gained = [now - then for now, then in zip(tally.points, points, strict=True)]
            tally.per_game.append((gained[0] - gained[1]) / played)


def _short_repr(bot: Bot) -> str:
    """A bot's repr, cut short: it names the bot in messages."""
    try:
        text = repr(bot)
    except Exception:  # a bot of one's own may fail even here
        return type(bot).__name__
    return text if len(text) <= _REPR else text[: _REPR - 3] + "..."


_REPR = 80


def _play_chunk(job: _Job, start: int, stop: int) -> list[_Deal]:
    """Play deals `start` to `stop - 1`; module-level so that every executor can pickle it."""
    with _time_limit(job.seconds) as armed:
        return [job.play(i, armed=armed) for i in range(start, stop)]


def _in_flight(executor: Executor) -> int:
    """How many chunks to keep submitted: twice the executor's workers, or the machine's cores."""
    workers = getattr(executor, "_max_workers", None)
    if type(workers) is not int or workers < 1:
        workers = os.cpu_count() or 1
    return 2 * min(workers, _MAX_WORKERS)


_MAX_WORKERS = 1024
"""A bound on the workers an executor says it has, for `_in_flight`."""


class _Totals:
    """The deals' results added up as they come, in deal order (chunks may finish in any)."""

    def __init__(self, n_bots: int) -> None:
        self.n = n_bots
        self.rounds = 0
        self.draws = 0
        self.sums: dict[str, list[Any]] = {
            name: [0] * n_bots
            for name in ("points", "round_wins", "match_wins", "decisions", "seconds")
        }
        self.differences: list[float] = []
        self.waiting: dict[int, list[_Deal]] = {}
        self.next = 0

    def add(self, chunk: int, deals: list[_Deal]) -> None:
        """Keep chunk `chunk`'s deals; add up every chunk that is now next in order."""
        self.waiting[chunk] = deals
        while self.next in self.waiting:
            for d in self.waiting.pop(self.next):
                self.rounds += d.rounds
                self.draws += d.round_draws
                for name, row in self.sums.items():
                    values = getattr(d, name)
                    for b in range(self.n):
                        row[b] += values[b]
                self.differences.append(d.difference)
            self.next += 1


def simulate(
    rules: RuleSet,
    bots: Sequence[Bot],
    *,
    deals: int,
    duplicate: bool = True,
    matches: bool = False,
    seed: int | None = None,
    executor: Executor | None = None,
    chunk_size: int | None = None,
    progress: Progress | None = None,
    decision_seconds: float | None = None,
) -> SimulationResult:
    """Play bots against each other over many deals.

    Args:
        rules: the rule set.
        bots: one bot per side ([F1][rules-f1]: partners play the same bot);
            a plain function `(observation, rng) -> move` is wrapped in
            [`FunctionBot`][xeri.bots.FunctionBot] ([`as_bot`][xeri.bots.as_bot]).
        deals: how many deals to play.
        duplicate: play each deal once per seating, the sides rotated among
            the bots, so every bot gets every side's cards.
        matches: play a whole match from each deal rather than one round.
        seed: the seed every deal derives from; None draws one (see the
            result's `seed`).
        executor: runs the chunks of deals; None plays them here, one after
            another. Any `concurrent.futures.Executor` works: the bots and
            the rule set are pickled to it. The chunks are made as they are
            sent, at most twice the executor's workers (or the machine's
            cores) at a time, so memory does not grow with `deals` (but for
            one float per deal, the differences the interval needs).
        chunk_size: deals per task sent to the executor; by default about
            32 tasks in all, at most 64 deals each.
        progress: called with (deals done, deals in all) after each chunk.
        decision_seconds: the most time a bot may take to choose one move;
            None for no limit. Where the deal is played in the main thread
            of a process (the workers of a `ProcessPoolExecutor`, or no
            executor from the main thread) an alarm interrupts a bot that
            takes longer; elsewhere (threads, systems without `SIGALRM`) it
            is best effort: the decision is refused only once it returns,
            and a bot that never returns is not stopped. A bot stuck in code
            that does not return to Python is not interrupted either.

    Returns:
        The result; identical for the same arguments and seed, whatever the
        executor and the chunk size.

    Raises:
        ArgumentError: `rules` is not a rule set, the bots do not match its
            sides, or `deals`, `chunk_size` or `decision_seconds` is not a
            positive number.
        BotError: a bot raised, chose a move that is not legal, or took
            longer than `decision_seconds`; the message names the bot, the
            deal and the seat, the bot's exception is the cause. The run
            stops at once: chunks not started are cancelled, those running
            elsewhere are abandoned, and no result is returned.
        XeriError: a chunk was cancelled from outside, or the engine
            refused the rule set; no result is returned; or an entry of
            `bots` is no bot.
    """
    if not isinstance(rules, RuleSet):
        raise ArgumentError(f"simulate needs a RuleSet, not {type(rules).__name__}")
    bots = tuple(as_bot(bot) for bot in bots)
    if len(bots) != rules.num_sides:
        raise ArgumentError(
            f"simulate needs one bot per side: {rules.name} has {rules.num_sides} sides,"
            f" {len(bots)} bots were given"
        )
    if type(deals) is not int or deals < 1:
        raise ArgumentError(f"deals must be a positive int, not {_show(deals)}")
    if chunk_size is None:
        chunk_size = max(1, min(64, -(-deals // 32)))
    elif type(chunk_size) is not int or chunk_size < 1:
        raise ArgumentError(f"chunk_size must be a positive int, not {_show(chunk_size)}")
    if decision_seconds is not None and not (
        type(decision_seconds) in (int, float) and 0 < decision_seconds < math.inf
    ):
        raise ArgumentError(
            f"decision_seconds must be a positive number of seconds or None,"
            f" not {_show(decision_seconds)}"
        )
    if seed is None:
        seed = secrets.randbits(63)
    # The chunks as (index, start, stop), made one at a time.
    chunks = ((i, s, min(s + chunk_size, deals)) for i, s in enumerate(range(0, deals, chunk_size)))
    job = _Job(rules, bots, seed, duplicate, matches, decision_seconds)
    n = len(bots)
    totals = _Totals(n)
    done = 0
    if executor is None:
        for i, start, stop in chunks:
            totals.add(i, _play_chunk(job, start, stop))
            done += stop - start
            if progress is not None:
                progress(done, deals)
    else:
        for deals_done in _run_chunks(executor, job, chunks, totals):
            done += deals_done
            if progress is not None:
                progress(done, deals)
    if totals.next * chunk_size < deals:  # pragma: no cover  # every chunk is added above
        raise XeriError("the simulation stopped before every deal was played")
    sums = totals.sums
    played_rounds, draws = totals.rounds, totals.draws

    return SimulationResult(
        rules=rules.name,
        bots=tuple(map(repr, bots)),
        seed=seed,
        deals=deals,
        duplicate=duplicate,
        matches=matches,
        games=deals * (n if duplicate else 1),
        rounds=played_rounds,
        points=tuple(sums["points"]),
        round_wins=tuple(sums["round_wins"]),
        round_draws=draws,
        match_wins=tuple(sums["match_wins"]),
        differences=tuple(totals.differences),
        decisions=tuple(sums["decisions"]),
        seconds=tuple(sums["seconds"]),
    )


def _run_chunks(
    executor: Executor,
    job: _Job,
    chunks: Iterator[tuple[int, int, int]],
    totals: _Totals,
) -> Iterator[int]:
    """Send the chunks to `executor` a few at a time; yield each one's deals once it is added.

    On any failure (a bot's, a cancelled chunk, Ctrl-C) the chunks not
    started are cancelled and the others abandoned; a `BotError` from a
    worker process gets its bot's exception back as its cause.
    """
    limit = _in_flight(executor)
    pending: dict[Future[list[_Deal]], tuple[int, int, int]] = {}
    try:
        for chunk in itertools.islice(chunks, limit):
            pending[executor.submit(_play_chunk, job, chunk[1], chunk[2])] = chunk
        while pending:
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                i, start, stop = pending.pop(future)
                try:
                    deals = future.result()
                except CancelledError:
                    raise XeriError(
                        f"chunk {i} (deals {start} to {stop - 1}) was cancelled: no result"
                    ) from None
                except BotError as exc:
                    raise exc from exc.error
                totals.add(i, deals)
                yield stop - start
                for chunk in itertools.islice(chunks, 1):
                    pending[executor.submit(_play_chunk, job, chunk[1], chunk[2])] = chunk
    finally:
        for future in pending:
            future.cancel()

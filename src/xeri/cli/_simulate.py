"""`xeri simulate`: bots against each other, with a progress report.

Runs [`simulate`][xeri.simulate] in this process or in a pool of fresh worker
processes (stopped at once on Ctrl-C or a failure), and prints the result as
a table or as JSON.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor

from xeri._simulation import SimulationResult, simulate
from xeri.cli._common import _bot, _console, _Io, _load_rules

# --------------------------------------------------------------------------
# simulate


@contextlib.contextmanager
def _progress(mode: str, io: _Io) -> Iterator[Callable[[int, int], None]]:
    """A progress callback for [`simulate`][xeri.simulate]: a bar, lines, or nothing.

    `auto` is a bar (rich) when standard output is a terminal and rich is
    installed, else lines; `bar` forces the bar (lines without rich); `lines`
    prints `done/total deals` on the error stream at each tenth; `none`
    prints nothing.
    """
    if mode in ("auto", "bar"):
        console = _console(io.stdout, "always" if mode == "bar" else "auto")
        if console is not None:
            from rich.progress import (  # noqa: PLC0415  # optional: the `cli` extra
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            with Progress(
                TextColumn("deals"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            ) as bar:
                task = bar.add_task("deals", total=None)

                def update(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                yield update
            return
    if mode == "none":
        yield lambda done, total: None
        return
    shown = [0]

    def line(done: int, total: int) -> None:
        tenth = done * 10 // total
        if tenth > shown[0]:
            shown[0] = tenth
            print(f"{done}/{total} deals", file=io.stderr, flush=True)

    yield line


def _table(result: SimulationResult, names: list[str]) -> list[str]:
    """The result as a table that fits 80 columns: the bots by their command-line names.

    [`SimulationResult.table`][xeri.SimulationResult.table] names the bots by
    their reprs, with every parameter, and writes the interval on one long line.
    """
    width = max(len("bot"), *map(len, names))
    head = (
        f"{'bot':<{width}}  {'points/round':>12}  {'round wins':>10}"
        f"  {'match wins':>10}  {'decisions/s':>11}"
    )
    rows = [head]
    speed = result.decisions_per_second if result.seconds else (math.nan,) * len(names)
    for i, name in enumerate(names):
        rows.append(
            f"{name:<{width}}  {result.mean_points[i]:>12.3f}  {result.round_wins[i]:>10}"
            f"  {result.match_wins[i]:>10}  {speed[i]:>11.1f}"
        )
    low, high = result.interval
    games = f"{result.games} {'matches' if result.matches else 'rounds'}"
    kind = "duplicate" if result.duplicate else "single"
    rows.append(f"difference (bot 1 - bot 2): {result.difference:+.3f} points/round,")
    rows.append(f"  95% interval [{low:+.3f}, {high:+.3f}]")
    rows.append(f"  over {result.deals} deals ({games}, {kind}; seed {result.seed})")
    return rows


def _finite(value: object) -> object:
    """JSON-ready data with infinite and NaN numbers written as null (JSON has none)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now, whatever they are playing."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if callable(terminate):
        terminate()
        return
    # Before 3.14: the pool's own record of its processes (which `shutdown` clears).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()


def _simulate(args: argparse.Namespace, io: _Io) -> int:
    rules = _load_rules(args.rules)
    bots = [_bot(spec) for spec in args.bots]
    pool: ProcessPoolExecutor | None = None
    if args.workers > 1:
        # Fresh interpreters, not forks: safe whatever threads this process runs. The
        # workers leave Ctrl-C to this process, which stops them.
        pool = ProcessPoolExecutor(
            max_workers=args.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=signal.signal,
            initargs=(signal.SIGINT, signal.SIG_IGN),
        )
    executor: Executor | None = pool
    try:
        with _progress(args.progress, io) as report:
            result = simulate(
                rules,
                bots,
                deals=args.deals,
                duplicate=not args.no_duplicate,
                matches=args.matches,
                seed=args.seed,
                executor=executor,
                progress=report,
            )
    except BaseException:  # interrupted, or a bot failed: stop the deals still playing
        if pool is not None:
            _stop(pool)
        raise
    if pool is not None:
        pool.shutdown()
    if args.json:
        io.say(json.dumps(_finite(result.to_dict())))
    else:
        for line in _table(result, [spec.strip() for spec in args.bots]):
            io.say(line)
    return 0

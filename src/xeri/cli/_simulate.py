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
import os
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor

from xeri._simulation import SimulationResult, simulate
from xeri.cli._common import _bot, _console, _import_here, _Io, _load_rules, _rules_module

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


def _worker_start(module_name: str | None, here: str) -> None:
    """A worker's start: Ctrl-C left to the parent, and the `--rules` module imported.

    The workers are fresh interpreters whose `sys.path` is the command's,
    without the current directory (see `xeri.cli._common`): the module a
    `--rules MODULE:ATTRIBUTE` names is imported as the command imported
    it, so that the rule set sent with each chunk can be unpickled.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if module_name is not None:
        _import_here(module_name, here)


def _pool(workers: int, module_name: str | None) -> ProcessPoolExecutor:
    """A pool of `workers` fresh interpreters, every one started now, Ctrl-C left to us.

    Fresh interpreters, not forks: safe whatever threads this process runs.
    The workers are started while this process ignores Ctrl-C, which they
    inherit (an interpreter keeps a SIGINT it was started ignoring), so a
    Ctrl-C while one is still starting up prints no traceback; their
    initializer ignores it again. This process stops them (`_stop`).
    """
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_start,
        initargs=(module_name, os.getcwd()),
    )
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: the workers start as tasks come
        return pool
    try:
        for _ in range(workers):  # each task submitted starts a worker, here and now
            pool.submit(int)
    finally:
        signal.signal(signal.SIGINT, previous)
    return pool


def _simulate(args: argparse.Namespace, io: _Io) -> int:
    rules = _load_rules(args.rules)
    bots = [_bot(spec) for spec in args.bots]
    pool: ProcessPoolExecutor | None = None
    workers = min(args.workers, os.cpu_count() or 1)  # more processes than cores only wait
    if workers > 1:
        pool = _pool(workers, _rules_module(args.rules))
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
                decision_seconds=args.decision_seconds,
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

"""Decisions per second of the search bots, with `rollout` and with the public engine.

Run: `python benchmarks/bots_speed.py [--decisions N] [--compare ROOT [--repeat K]] [--cpu]
[--whole]`.
The search bots play their rounds out with `xeri.rollout`; this script
measures what that gains by timing the same bots on the same observations
with `xeri.rollout` replaced by a loop over `legal_moves` and `apply` that
asks the same policy (the public path). A measurement, not a test.

With `--compare ROOT` it compares two versions of the library instead: this
one and the checkout at `ROOT` (its `src` folder), each row timed in a
child process of each version in turn, `K` times, the two versions' order
alternating. A ratio is the median over the `K` turns of this version's
decisions per second over ROOT's in that turn, so that a change in the
machine's load touches both alike. The bots draw the same numbers in both
versions as long as their rollouts do, so both make the same decisions.

With `--cpu` the decisions are timed in CPU time of the thread rather than
wall-clock time: on a machine whose cores other jobs share, the time spent
waiting for a core then counts in neither version.

With `--whole` the bots play their pile-game playouts to the end of the
round (`truncate=False`), as their defaults did before the two-player pile
games' playouts stopped at the end of the deal: the same work in both
versions when ROOT is older than that change.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from unittest import mock

import xeri
from xeri._agents.rollouts import RolloutView
from xeri.bots import ISMCTSBot, PIMCBot

RULES = ("GREEK", "GREEK_FOUR", "GERMAN")


def bots(rules: str = "GERMAN", *, whole: bool = False) -> tuple[PIMCBot, ISMCTSBot]:
    """The bots timed on `rules` (a preset's name), in the order of the rows.

    With `whole`, a pile game's playouts run to the end of the round.
    """
    truncate = False if whole and getattr(xeri, rules).capture.pile else None
    return (
        PIMCBot(samples=20, endgame=False, truncate=truncate),
        ISMCTSBot(iterations=100, endgame=False, truncate=truncate),
    )


def public_rollout(
    state: xeri.GameState, rng: object, policy: xeri.Policy | None = None
) -> xeri.GameState:
    """The round played out through `legal_moves` and `apply` only."""
    view = RolloutView(state.rules)
    while not state.is_round_over:
        moves = xeri.legal_moves(state)
        view.seat, view.moves, view.table = state.to_move, moves, state.table  # type: ignore[assignment]
        view.hands, view.stock, view.plays = state.hands, len(state.stock), len(state.history)
        index = policy(view) if policy is not None else rng.randrange(len(moves))  # type: ignore[attr-defined]
        state = xeri.apply(state, moves[index])
    return state


def observations(rules: xeri.RuleSet, count: int) -> list[xeri.Observation]:
    """Observations of the seat to move at random points of random rounds."""
    rng = random.Random(5)
    out: list[xeri.Observation] = []
    while len(out) < count:
        state = xeri.new_game(rules, rng=rng)
        stop = rng.randrange(30)
        for _ in range(stop):
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        out.append(xeri.observe(state, state.to_move))
    return out


def speeds(
    rules: xeri.RuleSet,
    bot: PIMCBot | ISMCTSBot,
    decisions: int,
    *,
    public: bool = True,
    cpu: bool = False,
) -> list[float]:
    """Decisions per second of `bot` on `rules`: with `rollout`, then through the public path.

    Without `public`, with `rollout` only; with `cpu`, per second of the thread's CPU time.
    """
    clock = time.thread_time if cpu else time.perf_counter
    views = observations(rules, decisions)
    out: list[float] = []
    for patched in (False, True) if public else (False,):
        rng = random.Random(1)
        started = clock()
        if patched:
            with mock.patch("xeri.bots.search.rollout", public_rollout):
                for view in views:
                    bot.choose(view, rng)
        else:
            for view in views:
                bot.choose(view, rng)
        out.append(len(views) / (clock() - started))
    return out


def child(row: int, decisions: int, *, cpu: bool, whole: bool) -> None:
    """Time one row (rule set and bot) with `rollout` and print its speed as JSON."""
    name = RULES[row // 2]
    bot = bots(name, whole=whole)[row % 2]
    print(json.dumps(speeds(getattr(xeri, name), bot, decisions, public=False, cpu=cpu)[0]))


def timed_in(src: Path, row: int, decisions: int, *, cpu: bool, whole: bool) -> float:
    """One row's decisions per second, timed in a child process importing the library from `src`."""
    env = dict(os.environ, PYTHONPATH=str(src))
    args = [sys.executable, __file__, "--row", str(row), "--decisions", str(decisions)]
    args += ["--cpu"] if cpu else []
    args += ["--whole"] if whole else []
    done = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
    return float(json.loads(done.stdout.splitlines()[-1]))


def compare(root: Path, decisions: int, repeat: int, *, cpu: bool, whole: bool) -> None:
    """Print each row's decisions per second in this version and in `root`'s, and their ratio."""
    here = Path(xeri.__file__).resolve().parent.parent
    there = root.resolve() / "src"
    print(f"this version: {here}\nagainst:      {there}")
    print(f"{'rules':<11} {'bot':<28} {'this':>8} {'ROOT':>8} {'ratio':>6}")
    for row in range(2 * len(RULES)):
        ours: list[float] = []
        theirs: list[float] = []
        for turn in range(repeat):
            pair = (here, there) if turn % 2 == 0 else (there, here)
            got = {src: timed_in(src, row, decisions, cpu=cpu, whole=whole) for src in pair}
            ours.append(got[here])
            theirs.append(got[there])
        ratio = statistics.median(a / b for a, b in zip(ours, theirs, strict=True))
        bot = repr(bots(RULES[row // 2], whole=whole)[row % 2])
        print(
            f"{RULES[row // 2].lower():<11} {bot:<28.28} {max(ours):>8.1f} {max(theirs):>8.1f}"
            f" {ratio:>5.2f}x",
            flush=True,
        )


def main() -> None:
    """Print decisions per second per bot and rule set, both ways (or against another version)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--compare", type=Path, metavar="ROOT", help="another checkout to compare")
    parser.add_argument("--repeat", type=int, default=3, help="turns of each version (--compare)")
    parser.add_argument("--cpu", action="store_true", help="time in CPU time of the thread")
    parser.add_argument("--whole", action="store_true", help="pile playouts to the round's end")
    parser.add_argument("--row", type=int, help=argparse.SUPPRESS)  # one row, in a child process
    args = parser.parse_args()
    if args.row is not None:
        child(args.row, args.decisions, cpu=args.cpu, whole=args.whole)
        return
    if args.compare is not None:
        compare(args.compare, args.decisions, args.repeat, cpu=args.cpu, whole=args.whole)
        return
    print(f"{'rules':<11} {'bot':<28} {'rollout':>9} {'public':>9} {'gain':>6}")
    for name in RULES:
        rules = getattr(xeri, name)
        for bot in bots(name, whole=args.whole):
            fast, public = speeds(rules, bot, args.decisions, cpu=args.cpu)
            print(
                f"{rules.name:<11} {bot!r:<28.28} {fast:>9.1f} {public:>9.1f}"
                f" {fast / public:>5.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()

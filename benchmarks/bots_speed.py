"""Decisions per second of the search bots, with `rollout` and with the public engine.

Run: `python benchmarks/bots_speed.py [--decisions N]`. The search bots play
their rounds out with `xeri.rollout`; this script measures what that gains
by timing the same bots on the same observations with `xeri.rollout`
replaced by a loop over `legal_moves` and `apply` that asks the same
policy (the public path). A measurement, not a test.
"""

from __future__ import annotations

import argparse
import random
import time
from unittest import mock

import xeri
from xeri._agents.rollouts import RolloutView
from xeri.bots import ISMCTSBot, PIMCBot


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
    out = []
    while len(out) < count:
        state = xeri.new_game(rules, rng=rng)
        stop = rng.randrange(30)
        for _ in range(stop):
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        out.append(xeri.observe(state, state.to_move))  # type: ignore[arg-type]
    return out


def main() -> None:
    """Print decisions per second per bot and rule set, both ways."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=20)
    args = parser.parse_args()
    print(f"{'rules':<11} {'bot':<28} {'rollout':>9} {'public':>9} {'gain':>6}")
    for rules in (xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN):
        views = observations(rules, args.decisions)
        for bot in (PIMCBot(samples=20, endgame=False), ISMCTSBot(iterations=100, endgame=False)):
            speeds = []
            for patched in (False, True):
                rng = random.Random(1)
                started = time.perf_counter()
                if patched:
                    with mock.patch("xeri.bots.search.rollout", public_rollout):
                        for view in views:
                            bot.choose(view, rng)
                else:
                    for view in views:
                        bot.choose(view, rng)
                speeds.append(len(views) / (time.perf_counter() - started))
            print(
                f"{rules.name:<11} {bot!r:<28.28} {speeds[0]:>9.1f} {speeds[1]:>9.1f}"
                f" {speeds[0] / speeds[1]:>5.2f}x",
                flush=True,
            )


if __name__ == "__main__":
    main()

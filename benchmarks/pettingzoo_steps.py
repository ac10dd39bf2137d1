"""PettingZoo environment steps per second with random masked actions.

Run: `python benchmarks/pettingzoo_steps.py [--seconds S]` (needs the
`pettingzoo` extra). For `raw_env` and the wrapped `env`, every preset and
both episode modes, it plays episodes for S seconds, choosing uniformly
among the actions the mask allows. A figure, not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import xeri
from xeri.envs.pettingzoo import env, raw_env


def main() -> None:
    """Print steps per second for each environment, preset and episode mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    for make, label in ((raw_env, "raw_env"), (env, "env")):
        for rules in (xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN):
            for episode in ("match", "round"):
                game = make(rules=rules, episode=episode)
                rng = np.random.default_rng(0)
                steps = 0
                seed = 0
                t0 = time.perf_counter()
                while time.perf_counter() - t0 < args.seconds:
                    game.reset(seed=seed)
                    seed += 1
                    for _agent in game.agent_iter():
                        obs, _reward, term, trunc, _info = game.last()
                        if term or trunc:
                            game.step(None)
                            continue
                        game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                        steps += 1
                rate = steps / (time.perf_counter() - t0)
                print(
                    f"{label:8} {rules.name:11} {episode:6} {rate:8.0f} steps/s ({seed} episodes)"
                )


if __name__ == "__main__":
    main()

"""OpenSpiel game steps per second with random legal actions.

Run: `python benchmarks/openspiel_steps.py [--seconds S]` (needs the
`openspiel` extra). For every preset and both episode modes, it plays
episodes of `python_xeri` for S seconds through the `pyspiel` state API, as
an OpenSpiel loop would: at a chance node it samples `chance_outcomes()`,
at a decision node it chooses uniformly among `legal_actions()`. It prints
the decisions per second (the players' steps, comparable with
`pettingzoo_steps.py`, whose chance is played inside `step`) and every
action per second (chance's 51 per deal included). Then it times one
`resample_from_infostate` per decision of a round. A figure, not a test.
"""

from __future__ import annotations

import argparse
import random
import time

import pyspiel

import xeri.envs.openspiel  # noqa: F401  # registers python_xeri


def _episode(game: pyspiel.Game, rng: random.Random) -> tuple[int, int]:
    """Play one episode at random; the numbers of decisions and of actions."""
    state = game.new_initial_state()
    decisions = actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
        actions += 1
    return decisions, actions


def _resample_rate(game: pyspiel.Game, rng: random.Random, seconds: float) -> float:
    """Resamples per second, at the decision nodes of random rounds."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    done = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.resample_from_infostate(state.current_player(), sampler)
            done += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return done / (time.perf_counter() - t0)


def main() -> None:
    """Print decisions and actions per second for each preset and episode mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    for rules in ("greek", "greek-four", "german"):
        for episode in ("round", "match"):
            game = pyspiel.load_game("python_xeri", {"rules": rules, "episode": episode})
            rng = random.Random(0)
            decisions = actions = episodes = 0
            t0 = time.perf_counter()
            while time.perf_counter() - t0 < args.seconds:
                d, a = _episode(game, rng)
                decisions, actions, episodes = decisions + d, actions + a, episodes + 1
            elapsed = time.perf_counter() - t0
            print(
                f"{rules:11} {episode:6} {decisions / elapsed:8.0f} decisions/s"
                f" {actions / elapsed:8.0f} actions/s ({episodes} episodes)"
            )
        game = pyspiel.load_game("python_xeri", {"rules": rules})
        rate = _resample_rate(game, random.Random(0), args.seconds)
        print(f"{rules:11} round  {rate:8.0f} resample_from_infostate/s")


if __name__ == "__main__":
    main()

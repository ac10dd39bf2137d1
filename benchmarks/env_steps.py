"""Player decisions per second of every way to play GREEK rounds, side by side in one run.

Run: `python benchmarks/env_steps.py [--seconds S] [--repeat K] [--envs N]`
from the project's root (needs the `pettingzoo`, `openspiel`, `gymnasium`
and `vector` extras; a contender whose extra is missing is reported as
absent). Every contender plays whole GREEK rounds with uniformly random
legal actions and counts the players' decisions (chance is not counted).
The contenders take turns, K times, S seconds each; a rate is the median
of its K timings and a ratio the median, over the K turns, of its rate to
the engine loop's rate in the same turn. A figure, not a test.

The contenders:

* **engine loop**: `legal_actions`, a random action, `action_to_move` and
  `apply`, chance by `chance_move`: the baseline of every ratio;
* **rollout**: `xeri.rollout(state, rng)` from a dealt round;
* **engine + tensor + mask, plain Python**: the engine loop plus, before
  each decision, `observation_tensor(observe(state, seat))` and `action_mask`;
* **engine + tensor + mask, arrays**: the same with
  `xeri.envs.arrays.observation_array` and `action_mask_array`, and with a
  `TensorTracker` (the PettingZoo environment's path);
* **PettingZoo** `raw_env` and the wrapped `env`, as a PettingZoo loop
  plays them (`last`, a random action among the mask's `nonzero()`, `step`),
  seeded at the first `reset` and continued by the next ones;
* **OpenSpiel** `python_xeri`, chance sampled from `chance_outcomes`,
  without and with `information_state_tensor` at each decision;
* **Gymnasium** `xeri.envs.gymnasium.env` against `RandomBot`: the agent's
  and the bot's decisions both counted;
* **vector**: `xeri.envs.vector.XeriVector` with N games, self-play, the
  observation and mask of every game at every step (the environment's own
  arrays, as `step` returns them by default), one decision per game per
  step; the random legal actions come from the environment's own sampler
  (`games.sample_actions(rng)`, uniform over each mover's hand), as the
  engine loop draws from the engine's own list (`legal_actions`); once with
  `float32` observations, once with `uint8` ones (`dtype="uint8"`: the same
  tensors times their columns' divisors), and, for comparison, once with
  the mask-noise policy of a user without the sampler (the argmax of random
  odd 16-bit integers on the mask; a tie, about 1 decision in 20,000, goes
  to the lower card);
* **greek_numpy**: the shared vectorised yardstick
  `../shared/bench/greek_numpy.py` (random rounds on arrays without
  observations), imported from `../shared/bench` relative to the project
  root (the working directory) or from `--bench DIR`, 48 decisions a
  round; reported as absent when it is not there.

`--markdown` prints the table as the Game AI page shows it. `--cpu` times
every contender in this process's CPU time (`time.process_time`) instead of
the wall clock: on a machine shared with other work, a contender's turn is
then not charged for the time the process waits for a core (each contender
is one thread, so the two agree on a quiet machine).
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

import xeri
from xeri._agents.features import observation_tensor

RULES = xeri.GREEK
Contender = Callable[[float], float]
"""Plays for about the given seconds; returns the decisions per second."""


CLOCK: list[Callable[[], float]] = [time.perf_counter]
"""The clock of every timing: the wall clock, or the process's CPU time with `--cpu`."""


def _timed(body: Callable[[], int], seconds: float) -> float:
    clock = CLOCK[0]
    done = 0
    t0 = clock()
    while (elapsed := clock() - t0) < seconds:
        done += body()
    return done / elapsed


def engine_loop(seconds: float, *, tensors: str | None = None) -> float:
    """Random rounds through legal_actions/action_to_move/apply, with tensors if asked."""
    rng = random.Random(1)
    if tensors in ("arrays", "tracker"):
        from xeri.envs.arrays import (  # noqa: PLC0415  # the numpy extra, when asked for
            TensorTracker,
            action_mask_array,
            observation_array,
        )

        tracker = TensorTracker(RULES)
    legal_actions, action_to_move, apply, chance_move = (
        xeri.legal_actions,
        xeri.action_to_move,
        xeri.apply,
        xeri.chance_move,
    )

    def body() -> int:
        state = xeri.new_game(RULES, rng=rng)
        n = 0
        while not state.is_round_over:
            if state.is_chance:
                state = apply(state, chance_move(state, rng))
                continue
            if tensors == "python":
                observation_tensor(xeri.observe(state, state.to_move))  # type: ignore[arg-type]
                xeri.action_mask(state)
            elif tensors == "arrays":
                observation_array(state, state.to_move)  # type: ignore[arg-type]
                action_mask_array(state)
            elif tensors == "tracker":
                tracker.observe(state, state.to_move)  # type: ignore[arg-type]
                action_mask_array(state)
            actions = legal_actions(state)
            state = apply(state, action_to_move(state, actions[rng.randrange(len(actions))]))
            n += 1
        return n

    return _timed(body, seconds)


def rollout(seconds: float) -> float:
    """xeri.rollout from dealt rounds."""
    rng = random.Random(2)

    def body() -> int:
        end = xeri.rollout(xeri.new_game(RULES, rng=rng), rng)
        return len(end.history)

    return _timed(body, seconds)


def pettingzoo(seconds: float, *, wrapped: bool) -> float:
    """A PettingZoo AEC loop with random masked actions."""
    from xeri.envs.pettingzoo import env, raw_env  # noqa: PLC0415

    game = (env if wrapped else raw_env)(rules=RULES, episode="round")
    rng = random.Random(3)
    game.reset(seed=3)  # seeded once, as Gymnasium and PettingZoo advise; then continued

    def body() -> int:
        game.reset()
        n = 0
        for _agent in game.agent_iter():
            obs, _reward, term, trunc, _info = game.last()
            if term or trunc:
                game.step(None)
                continue
            legal = obs["action_mask"].nonzero()[0]
            game.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n

    return _timed(body, seconds)


def openspiel(seconds: float, *, tensor: bool) -> float:
    """An OpenSpiel state loop, with the information-state tensor at each decision if asked."""
    import pyspiel  # noqa: PLC0415

    import xeri.envs.openspiel  # noqa: F401, PLC0415  # registers python_xeri

    game = pyspiel.load_game("python_xeri", {"rules": "greek", "episode": "round"})
    rng = random.Random(4)

    def body() -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if tensor:
                state.information_state_tensor()
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n

    return _timed(body, seconds)


def gymnasium_env(seconds: float) -> float:
    """The Gymnasium environment against RandomBot; both seats' decisions counted."""
    from xeri.envs.gymnasium import env  # noqa: PLC0415

    game = env(rules=RULES, opponents="random")
    rng = random.Random(5)
    seeds = iter(range(10**9))

    def body() -> int:
        _obs, info = game.reset(seed=next(seeds))
        n = 0
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _obs, _reward, done, _trunc, info = game.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return len(game.game_state.history) if n else 0

    return _timed(body, seconds)


def vector(seconds: float, *, envs: int, dtype: str = "float32", noise: bool = False) -> float:
    """XeriVector self-play: one decision per game per step, observations and masks included.

    The actions from `games.sample_actions(rng)`, or with `noise` the
    argmax of random odd 16-bit integers on the mask.
    """
    from xeri.envs.vector import XeriVector  # noqa: PLC0415

    games = XeriVector(RULES, num_envs=envs, seed=6, dtype=dtype)
    rng = np.random.default_rng(6)
    _obs, mask, _to_move = games.reset()
    state = {"mask": mask}

    def sampled() -> int:
        _obs, _mask, _to_move, _rewards, _ended = games.step(games.sample_actions(rng))
        return envs

    def masked() -> int:
        mask = state["mask"]
        # A random legal card per game: the argmax of random 16-bit integers (odd,
        # so never 0) on the mask; ties (about 1 decision in 20,000) go to the lower card.
        bits = np.frombuffer(rng.bytes(2 * mask.size), np.uint16).reshape(mask.shape)
        actions = ((bits | np.uint16(1)) * mask.view(np.uint8)).argmax(axis=1)
        _obs, state["mask"], _to_move, _rewards, _ended = games.step(actions)
        return envs

    return _timed(masked if noise else sampled, seconds)


def greek_numpy(seconds: float, *, module: object) -> float:
    """The shared yardstick: random GREEK rounds on arrays, 48 decisions a round."""
    rng = np.random.default_rng(7)
    batch = 20_000

    def body() -> int:
        module.play(batch, rng)  # type: ignore[attr-defined]  # the yardstick's function
        return batch * 48

    return _timed(body, seconds)


def _yardstick(where: Path | None) -> object | None:
    """The shared `greek_numpy` module, or None when it is absent.

    Looked for in `where` if given, else in `../shared/bench` from the
    working directory (the project root).
    """
    bench = where if where is not None else Path.cwd().parent / "shared" / "bench"
    if not (bench / "greek_numpy.py").exists():
        return None
    sys.path.insert(0, str(bench))
    try:
        return importlib.import_module("greek_numpy")
    finally:
        sys.path.remove(str(bench))


def _contenders(envs: int, bench: Path | None) -> list[tuple[str, Contender | None]]:
    def needs(module: str, contender: Contender) -> Contender | None:
        try:
            importlib.import_module(module)
        except ImportError:
            return None
        return contender

    yardstick = _yardstick(bench)
    return [
        ("engine loop (`legal_actions`/`apply`)", engine_loop),
        ("`xeri.rollout()`", rollout),
        ("engine + tensor + mask, plain Python", lambda s: engine_loop(s, tensors="python")),
        ("engine + tensor + mask, arrays", lambda s: engine_loop(s, tensors="arrays")),
        ("engine + tensor + mask, `TensorTracker`", lambda s: engine_loop(s, tensors="tracker")),
        (
            "PettingZoo `raw_env`",
            needs("pettingzoo", lambda s: pettingzoo(s, wrapped=False)),
        ),
        ("PettingZoo `env()`", needs("pettingzoo", lambda s: pettingzoo(s, wrapped=True))),
        ("OpenSpiel `python_xeri`", needs("pyspiel", lambda s: openspiel(s, tensor=False))),
        (
            "OpenSpiel + information-state tensor",
            needs("pyspiel", lambda s: openspiel(s, tensor=True)),
        ),
        ("Gymnasium env vs `RandomBot`", needs("gymnasium", gymnasium_env)),
        (f"vector env, {envs} games, obs + masks", lambda s: vector(s, envs=envs)),
        (
            f"vector env, {envs} games, `uint8` obs + masks",
            lambda s: vector(s, envs=envs, dtype="uint8"),
        ),
        (
            f"vector env, {envs} games, obs + masks, mask-noise policy",
            lambda s: vector(s, envs=envs, noise=True),
        ),
        (
            "shared `greek_numpy.py` (no observations)",
            None if yardstick is None else (lambda s: greek_numpy(s, module=yardstick)),
        ),
    ]


def main() -> None:
    """Measure every contender K times in turn and print rates and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--cpu", action="store_true", help="time in process CPU time")
    parser.add_argument(
        "--bench", type=Path, default=None, help="where greek_numpy.py is (../shared/bench)"
    )
    args = parser.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    contenders = _contenders(args.envs, args.bench)
    rates: dict[str, list[float]] = {name: [] for name, _ in contenders}
    ratios: dict[str, list[float]] = {name: [] for name, _ in contenders}
    base_name = contenders[0][0]
    for _ in range(args.repeat):
        base = 0.0
        for name, contender in contenders:
            if contender is None:
                continue
            rate = contender(args.seconds)
            if name == base_name:
                base = rate
            rates[name].append(rate)
            ratios[name].append(rate / base)
    if args.markdown:
        print("| contender | decisions/s | ratio to the engine loop |")
        print("|---|---:|---:|")
    for name, contender in contenders:
        if contender is None:
            line = ("| " + name + " | absent | |") if args.markdown else f"{name:48} absent"
            print(line)
            continue
        rate = statistics.median(rates[name])
        ratio = statistics.median(ratios[name])
        if args.markdown:
            print(f"| {name} | {rate / 1000:,.1f}k | {ratio:.2f} |")
        else:
            print(f"{name:48} {rate:12,.0f} decisions/s  ratio {ratio:6.2f}")


if __name__ == "__main__":
    main()

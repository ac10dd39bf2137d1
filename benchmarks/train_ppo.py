"""Train a GREEK agent by self-play PPO on the vector environment, in NumPy alone, then evaluate it.

Run: `python benchmarks/train_ppo.py [--minutes M] [--envs N] [--out DIR]`
from the project's root (needs the `vector` extra; matplotlib for the
plot). Set `OMP_NUM_THREADS=1` (and the like for your BLAS) to hold it to one core.

* **Play.** `xeri.envs.vector.XeriVector` plays N GREEK rounds at once,
  every seat played by the one policy being trained (self-play). A GREEK
  round is 48 decisions for every game, so one iteration collects exactly
  one round of each game: 48 x N decisions, each seat's observation tensor
  and mask as the environments give them.
* **Returns.** The return of a decision is the rest of the round's margin
  for the deciding seat: the round's margin (its total minus the other
  seat's) less the margin already banked when it decides (points captured
  and xeri bonuses, `XeriVector.banked_margins`), / 25, without discount.
  The sum is the same objective, with less noise.
* **Learn.** An MLP (the observation, two hidden layers of 128 tanh units,
  52 logits masked to the legal cards, and a value head) is trained by PPO
  with the clipped objective; the advantage is the return minus the value,
  normalised per batch. Adam, written here; three epochs of minibatches a round.
* **Checkpoints.** The weights are saved with `numpy.savez` (`policy.npz`),
  with the learning curve (`curve.json`).
* **Evaluate.** `PolicyBot` plays the policy through the library's public
  API (`observation_tensor` of the bot's `Observation`, argmax over its
  legal actions) and `xeri.simulate` plays it over duplicate deals against
  `RandomBot`, `GreedyBot` and `CountingBot`; the result is the paired 95%
  interval of the points per round the agent makes more than each.

Every `--every` iterations the script plays a quick duplicate evaluation
against `GreedyBot` for the learning curve (`--curve-deals` deals), and it
draws `curve.png` at the end.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

import xeri
from xeri.bots import CountingBot, GreedyBot, RandomBot
from xeri.envs.vector import XeriVector

HIDDEN = 128
ACTIONS = 52
SCALE = 25.0


def init_params(size: int, rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Orthogonal-ish initial weights: scaled Gaussians, small logits."""

    def layer(n_in: int, n_out: int, gain: float) -> np.ndarray:
        return (rng.standard_normal((n_in, n_out)) * gain / np.sqrt(n_in)).astype(np.float32)

    return {
        "w1": layer(size, HIDDEN, 1.0),
        "b1": np.zeros(HIDDEN, np.float32),
        "w2": layer(HIDDEN, HIDDEN, 1.0),
        "b2": np.zeros(HIDDEN, np.float32),
        "wp": layer(HIDDEN, ACTIONS, 0.01),
        "bp": np.zeros(ACTIONS, np.float32),
        "wv": layer(HIDDEN, 1, 1.0),
        "bv": np.zeros(1, np.float32),
    }


def forward(
    p: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray
) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, ...]]:
    """Masked log-probabilities, values and the activations for the backward pass."""
    h1 = np.tanh(x @ p["w1"] + p["b1"])
    h2 = np.tanh(h1 @ p["w2"] + p["b2"])
    logits = h2 @ p["wp"] + p["bp"]
    logits = np.where(mask > 0, logits, -1e9)
    logits = logits - logits.max(axis=1, keepdims=True)
    logp = logits - np.log(np.exp(logits).sum(axis=1, keepdims=True))
    value = (h2 @ p["wv"] + p["bv"])[:, 0]
    return logp, value, (x, h1, h2)


def backward(
    p: dict[str, np.ndarray],
    cache: tuple[np.ndarray, ...],
    d_logits: np.ndarray,
    d_value: np.ndarray,
) -> dict[str, np.ndarray]:
    """The gradients of the loss, given its gradients on the logits and the values."""
    x, h1, h2 = cache
    g = {
        "wp": h2.T @ d_logits,
        "bp": d_logits.sum(axis=0),
        "wv": h2.T @ d_value[:, None],
        "bv": d_value.sum(keepdims=True),
    }
    dh2 = (d_logits @ p["wp"].T + d_value[:, None] @ p["wv"].T) * (1 - h2 * h2)
    g["w2"] = h1.T @ dh2
    g["b2"] = dh2.sum(axis=0)
    dh1 = (dh2 @ p["w2"].T) * (1 - h1 * h1)
    g["w1"] = x.T @ dh1
    g["b1"] = dh1.sum(axis=0)
    return g


class Adam:
    """Adam on a dict of arrays."""

    def __init__(self, params: dict[str, np.ndarray], lr: float) -> None:
        self.lr = lr
        self.m = {k: np.zeros_like(v) for k, v in params.items()}
        self.v = {k: np.zeros_like(v) for k, v in params.items()}
        self.t = 0

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        """One update, the global gradient norm clipped at 0.5."""
        self.t += 1
        norm = np.sqrt(sum(float((g * g).sum()) for g in grads.values()))
        clip = min(1.0, 0.5 / (norm + 1e-8))
        for k, grad in grads.items():
            g = grad * clip
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat = self.m[k] / (1 - 0.9**self.t)
            v_hat = self.v[k] / (1 - 0.999**self.t)
            params[k] -= (self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


class PolicyBot:
    """A bot playing the trained policy's most likely legal card, through the public API."""

    def __init__(self, params: dict[str, np.ndarray]) -> None:
        self.params = {k: v.copy() for k, v in params.items()}

    def __repr__(self) -> str:
        return "PolicyBot()"

    def choose(self, observation: xeri.Observation, rng: object) -> xeri.PlayerMove:
        """The legal move of the highest logit."""
        x = np.asarray(xeri.observation_tensor(observation), dtype=np.float32)[None]
        mask = np.zeros((1, ACTIONS), np.int8)
        legal = xeri.legal_actions(observation)
        mask[0, list(legal)] = 1
        logp, _value, _cache = forward(self.params, x, mask)
        return xeri.action_to_move(observation, int(logp[0].argmax()))


def collect(
    games: XeriVector, params: dict[str, np.ndarray], rng: np.random.Generator
) -> tuple[np.ndarray, ...]:
    """One GREEK round of every game: observations, masks, actions, log-probs, returns."""
    obs, mask, to_move = games.reset()
    xs, ms, acts, logps, movers, banked = [], [], [], [], [], []
    while True:
        logp, _value, _cache = forward(params, obs, mask)
        probs = np.exp(logp)
        choice = (probs.cumsum(axis=1) > rng.random((len(probs), 1))).argmax(axis=1)
        choice = np.where(mask[np.arange(len(mask)), choice] > 0, choice, mask.argmax(axis=1))
        xs.append(obs)
        ms.append(mask)
        acts.append(choice)
        logps.append(logp[np.arange(len(logp)), choice])
        movers.append(to_move)
        banked.append(games.banked_margins()[np.arange(len(to_move)), to_move])
        obs, mask, to_move, rewards, ended = games.step(choice)
        if ended.all():
            break
        if ended.any():  # not expected: every GREEK round is 48 decisions
            raise RuntimeError("the games did not end together")
    mover = np.stack(movers)
    # The return of a decision is what the rest of the round adds to the
    # mover's margin: the round's margin less the margin banked before it.
    returns = (rewards[np.arange(rewards.shape[0])[None, :], mover] - np.stack(banked)) / SCALE
    return (
        np.concatenate(xs),
        np.concatenate(ms),
        np.concatenate(acts),
        np.concatenate(logps),
        returns.reshape(-1).astype(np.float32),
    )


def update(
    params: dict[str, np.ndarray],
    opt: Adam,
    batch: tuple[np.ndarray, ...],
    rng: np.random.Generator,
    *,
    epochs: int = 3,
    minibatch: int = 4096,
    clip: float = 0.2,
    entropy: float = 0.01,
) -> dict[str, float]:
    """PPO's clipped objective, value regression and an entropy bonus, over minibatches."""
    x, m, a, old_logp, ret = batch
    n = len(a)
    stats = {"loss_v": 0.0, "entropy": 0.0}
    for _ in range(epochs):
        order = rng.permutation(n)
        for start in range(0, n, minibatch):
            idx = order[start : start + minibatch]
            k = len(idx)
            logp, value, cache = forward(params, x[idx], m[idx])
            adv = ret[idx] - value
            adv = (adv - adv.mean()) / (adv.std() + 1e-8)
            rows = np.arange(k)
            ratio = np.exp(logp[rows, a[idx]] - old_logp[idx])
            use = ((adv >= 0) & (ratio < 1 + clip)) | ((adv < 0) & (ratio > 1 - clip))
            # d(-min(r A, clip(r) A))/d logp_a = -r A where the unclipped term is used
            d_logp_a = np.where(use, -ratio * adv, 0.0) / k
            probs = np.exp(logp)
            legal = m[idx] > 0
            d_logits = -probs * d_logp_a[:, None]
            d_logits[rows, a[idx]] += d_logp_a
            # entropy bonus: -entropy * H, H = -sum p logp over the legal cards
            plogp = np.where(legal, probs * logp, 0.0)
            h = -plogp.sum(axis=1)
            d_h = -(plogp + probs * h[:, None])  # dH/dlogits
            d_logits -= entropy * np.where(legal, d_h, 0.0) / k
            d_value = (value - ret[idx]) / k
            grads = backward(params, cache, d_logits.astype(np.float32), d_value.astype(np.float32))
            opt.step(params, grads)
            stats["loss_v"] = float(((value - ret[idx]) ** 2).mean())
            stats["entropy"] = float(h.mean())
    return stats


def evaluate(params: dict[str, np.ndarray], bot: object, deals: int, seed: int) -> dict[str, float]:
    """Duplicate deals of the policy against a bot: mean margin per round and its interval."""
    result = xeri.simulate(xeri.GREEK, [PolicyBot(params), bot], deals=deals, seed=seed)
    low, high = result.interval
    return {"difference": result.difference, "low": low, "high": high, "deals": deals}


def main() -> None:
    """Train for the time given, checkpoint, evaluate, plot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=15.0)
    parser.add_argument("--envs", type=int, default=512)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--every", type=int, default=20)
    parser.add_argument("--curve-deals", type=int, default=200)
    parser.add_argument("--eval-deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/ppo"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    games = XeriVector(xeri.GREEK, num_envs=args.envs, seed=args.seed, copy=True)  # kept per step
    params = init_params(games.observation_size, rng)
    opt = Adam(params, args.lr)
    curve: list[dict[str, float]] = []
    t0 = time.perf_counter()
    iteration = 0
    samples = 0
    while True:
        elapsed = time.perf_counter() - t0
        if iteration % args.every == 0:
            point = evaluate(params, GreedyBot(), args.curve_deals, seed=10_000 + iteration)
            point.update(minutes=elapsed / 60, samples=samples, iteration=iteration)
            curve.append(point)
            print(json.dumps(point), flush=True)
            np.savez(args.out / "policy.npz", **params)
            (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
        if elapsed > args.minutes * 60:
            break
        batch = collect(games, params, rng)
        samples += len(batch[2])
        update(params, opt, batch, rng)
        iteration += 1
    train_minutes = (time.perf_counter() - t0) / 60
    np.savez(args.out / "policy.npz", **params)
    final = {"minutes": train_minutes, "samples": samples, "iterations": iteration}
    for name, bot in (
        ("random", RandomBot()),
        ("greedy", GreedyBot()),
        ("counting", CountingBot()),
    ):
        final[name] = evaluate(params, bot, args.eval_deals, seed=1)  # type: ignore[assignment]
        print(name, json.dumps(final[name]), flush=True)
    (args.out / "final.json").write_text(json.dumps(final, indent=1))
    (args.out / "curve.json").write_text(json.dumps(curve, indent=1))
    plot(curve, args.out / "curve.png")


def plot(curve: list[dict[str, float]], path: Path) -> None:
    """The learning curve: margin against GreedyBot per round, with its 95% interval."""
    try:
        import matplotlib  # noqa: PLC0415

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt  # noqa: PLC0415
    except ImportError:
        print("matplotlib is not installed: no plot")
        return
    minutes = [p["minutes"] for p in curve]
    fig, ax = plt.subplots(figsize=(6, 3.5), dpi=110)
    ax.plot(minutes, [p["difference"] for p in curve], marker="o", ms=3, label="PPO agent")
    ax.fill_between(
        minutes, [p["low"] for p in curve], [p["high"] for p in curve], alpha=0.25, label="95%"
    )
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.set_xlabel("training minutes (one core)")
    ax.set_ylabel("points per round vs GreedyBot")
    ax.set_title("Self-play PPO on the vector GREEK environment")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()

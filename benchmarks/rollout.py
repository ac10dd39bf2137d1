"""Rollouts against a plain mutable Greek engine, measured side by side in one run.

Run: `python benchmarks/rollout.py [--rounds N] [--repeat K] [--shared DIR]`. Single core;
the contenders take turns, K times. A rate is the best of its K timings; a
ratio is the median, over the K turns, of the two runs' ratio in that turn.
A figure, not a test (machines are noisy).

Four things are timed on the same dealt positions (fresh GREEK deals made
before the clock starts):

* **shared reference**: `play_round` of `xeri_fast.py`, the shared speed
  yardstick of the project (the fastest plain-Python Greek engine: int
  cards, mutable lists, one `Random.random` per shuffle key), imported from
  `../shared/bench` beside the project's root or from `--shared DIR`. It is
  not copied here; when the file is absent the benchmark says so and uses
  its own reference (next) in its place. A round of it shuffles, deals,
  redeals, plays and scores;
* **reference**: `reference_round` below, a plain mutable pure-Python
  Greek engine written here with no library code: lists of ints, the pile
  rule, the refills, the last capture and the scoring of G10, random moves
  by `rng.choice`;
* **rollout**: `xeri.rollout(state, rng)`, which returns the scored frozen
  end-of-round state (history, captures and result included);
* **public path**: the loop users write (the README's): from `new_game`,
  per step the `is_chance`/`is_round_over` tests, `legal_moves`, a random
  choice and `apply`, dealing included, so it is timed from `new_game`.

GERMAN rollouts are compared with GERMAN's public path from the same deals.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import xeri

# ---------------------------------------------------------------------------
# The reference: a mutable Greek engine in plain Python, no library code.

_POINTS = [0] * 52
for _i in range(52):
    _rank = _i // 4 + 1
    _POINTS[_i] = 1 if _rank in (1, 10, 11, 12, 13) else 0
_POINTS[9 * 4 + 1] += 1  # 10 of diamonds: 2 in all
_POINTS[1 * 4 + 0] += 1  # 2 of clubs
_JACK = 11


def reference_round(
    hands: list[list[int]], pile: list[int], stock: list[int], dealer: int, rng: random.Random
) -> tuple[int, int]:
    """Play one Greek round from a dealt position; return the two players' points."""
    hands = [list(h) for h in hands]
    pile = list(pile)
    stock = list(stock)
    captured = [0, 0]
    points = [0, 0]
    bonus = [0, 0]
    last = -1
    mover = 1 - dealer
    choice = rng.choice
    while True:
        hand = hands[mover]
        card = choice(hand)
        hand.remove(card)
        rank = card // 4 + 1
        if pile:
            top = pile[-1] // 4 + 1
            if rank in (top, _JACK):
                if len(pile) == 1 and rank == top:
                    bonus[mover] += 20 if rank == _JACK else 10
                pile.append(card)
                captured[mover] += len(pile)
                points[mover] += sum(_POINTS[c] for c in pile)
                pile.clear()
                last = mover
            else:
                pile.append(card)
        else:
            pile.append(card)
        if mover == dealer and not hand:
            if not stock:
                break
            hands[1 - dealer] = stock[:6]
            hands[dealer] = stock[6:12]
            del stock[:12]
        mover = 1 - mover
    if pile and last >= 0:
        captured[last] += len(pile)
        points[last] += sum(_POINTS[c] for c in pile)
    if captured[0] != captured[1]:
        points[0 if captured[0] > captured[1] else 1] += 3
    return points[0] + bonus[0], points[1] + bonus[1]


def reference_game(rng: random.Random) -> tuple[int, int]:
    """Shuffle, deal (with the redeal rule of G4) and play one Greek round."""
    deck = list(range(52))
    rng.shuffle(deck)
    dealer = rng.randrange(2)
    hands = [deck[0:6], deck[6:12]] if dealer == 1 else [deck[6:12], deck[0:6]]
    rest = deck[12:]
    while True:
        pile, stock = rest[:4], rest[4:]
        top, below = pile[-1] // 4 + 1, pile[-2] // 4 + 1
        if top not in (_JACK, below):
            break
        rng.shuffle(rest)
    return reference_round(hands, pile, stock, dealer, rng)


def shared_reference(folder: Path) -> ModuleType | None:
    """The shared yardstick `xeri_fast.py` in `folder`, imported as a module; None if absent."""
    path = folder / "xeri_fast.py"
    if not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location("xeri_fast", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------------------
# Timing


def timings(repeat: int, runs: dict[str, Callable[[], object]]) -> dict[str, list[float]]:
    """The wall times of each run over `repeat` rounds, in seconds.

    The runs take turns (one of each per round), so that a change in the
    machine's load touches them all alike.
    """
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeat):
        for name, run in runs.items():
            t0 = time.perf_counter()
            run()
            times[name].append(time.perf_counter() - t0)
    return times


def ratio(times: dict[str, list[float]], slow: str, fast: str) -> float:
    """How many times faster `fast` ran than `slow`: the median over the rounds of turns.

    Each round's two runs were timed side by side, so their ratio is less
    touched by the machine's load than a ratio of two best times.
    """
    return statistics.median(s / f for s, f in zip(times[slow], times[fast], strict=True))


def public_rounds(rules: xeri.RuleSet, rounds: int, seed: int) -> None:
    """The README's loop, one round per `new_game`."""
    rng = random.Random(seed)
    legal_moves, apply, choice = xeri.legal_moves, xeri.apply, rng.choice
    for _ in range(rounds):
        state = xeri.new_game(rules, rng=rng)
        while not state.is_round_over:
            if state.is_chance:
                state = apply(state, xeri.chance_move(state, rng))
            else:
                state = apply(state, choice(legal_moves(state)))


def main() -> None:
    """Print rounds per second of the reference, the rollouts and the public path."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--shared",
        type=Path,
        default=Path(__file__).resolve().parent.parent.parent / "shared" / "bench",
        help="the folder of the shared xeri_fast.py (default: ../shared/bench from the root)",
    )
    args = parser.parse_args()
    n = args.rounds
    fast_py = shared_reference(args.shared)
    if fast_py is None:
        print(f"the shared reference xeri_fast.py is absent from {args.shared}: using this")
        print("benchmark's own reference (shuffle and deal included) in its place")
    deal_rng = random.Random(0)
    greek = [xeri.new_game(xeri.GREEK, rng=deal_rng) for _ in range(n)]
    positions = [
        (
            [[c.index for c in h] for h in s.hands],
            [c.index for c in s.table],  # type: ignore[union-attr]
            [c.index for c in s.stock],
            s.dealer,
        )
        for s in greek
    ]

    def run_reference() -> None:
        rng = random.Random(1)
        for hands, pile, stock, dealer in positions:
            reference_round(hands, pile, stock, dealer, rng)

    def run_rollout(states: list[xeri.GameState]) -> Callable[[], None]:
        def run() -> None:
            rng = random.Random(1)
            for state in states:
                xeri.rollout(state, rng)

        return run

    def run_reference_games() -> None:
        rng = random.Random(1)
        for _ in range(n):
            reference_game(rng)

    def run_shared() -> None:
        draw = random.Random(1).random
        tot = [0] * 5
        play = fast_py.play_round  # type: ignore[union-attr]  # present: checked before
        for _ in range(n):
            play(draw, tot)

    m = max(1, n // 8)
    german = [xeri.new_game(xeri.GERMAN, rng=deal_rng) for _ in range(m)]
    times = timings(
        args.repeat,
        {
            "shared": run_shared if fast_py is not None else run_reference_games,
            "ref": run_reference,
            "ref_dealt": run_reference_games,
            "fast": run_rollout(greek),
            "public": lambda: public_rounds(xeri.GREEK, n, 2),
            "g_fast": run_rollout(german),
            "g_public": lambda: public_rounds(xeri.GERMAN, m, 3),
        },
    )
    rate = {k: (m if k.startswith("g_") else n) / min(v) for k, v in times.items()}
    shared = "shared xeri_fast.py" if fast_py is not None else "own reference (shared absent)"
    rows = [
        (f"GREEK {shared}, shuffle and deal included", rate["shared"], ""),
        (
            "GREEK rollout, from a fresh deal",
            rate["fast"],
            f"{ratio(times, 'shared', 'fast'):.2f}x the shared reference",
        ),
        (
            "GREEK public path (README loop), from new_game",
            rate["public"],
            f"{ratio(times, 'shared', 'public'):.2f}x the shared reference",
        ),
        ("GREEK reference, from a dealt position", rate["ref"], ""),
        (
            "GREEK rollout, from a dealt position",
            rate["fast"],
            f"ratio {ratio(times, 'ref', 'fast'):.2f}",
        ),
        ("GREEK reference, shuffle and deal included", rate["ref_dealt"], ""),
        (
            "GREEK public path (README loop), from new_game",
            rate["public"],
            f"ratio {ratio(times, 'ref_dealt', 'public'):.2f}",
        ),
        ("GERMAN public path (README loop), from new_game", rate["g_public"], ""),
        (
            "GERMAN rollout, from a dealt position",
            rate["g_fast"],
            f"{ratio(times, 'g_public', 'g_fast'):.1f}x public",
        ),
    ]
    for label, rate, note in rows:
        print(f"{label:60s} {rate:10,.0f} rounds/s  {note}")


if __name__ == "__main__":
    main()

"""Rollouts against a plain mutable Greek engine, measured side by side in one run.

Run: `python benchmarks/rollout.py [--rounds N] [--repeat K]`. Single core;
the contenders take turns, K times. A rate is the best of its K timings; a
ratio is the median, over the K turns, of the two runs' ratio in that turn.
A figure, not a test (machines are noisy).

Three things are timed on the same dealt positions (fresh GREEK deals made
before the clock starts):

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
import random
import statistics
import time
from collections.abc import Callable

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
    args = parser.parse_args()
    n = args.rounds
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

    m = max(1, n // 8)
    german = [xeri.new_game(xeri.GERMAN, rng=deal_rng) for _ in range(m)]
    times = timings(
        args.repeat,
        {
            "ref": run_reference,
            "ref_dealt": run_reference_games,
            "fast": run_rollout(greek),
            "public": lambda: public_rounds(xeri.GREEK, n, 2),
            "g_fast": run_rollout(german),
            "g_public": lambda: public_rounds(xeri.GERMAN, m, 3),
        },
    )
    rate = {k: (m if k.startswith("g_") else n) / min(v) for k, v in times.items()}
    rows = [
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
        print(f"{label:48s} {rate:10,.0f} rounds/s  {note}")


if __name__ == "__main__":
    main()

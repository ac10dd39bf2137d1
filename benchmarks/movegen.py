"""Legal moves on the largest tables: `len`, one index, one membership test and one `apply`.

Run: `python benchmarks/movegen.py [--games N] [--positions K]`.

Positions are reached by legal play from dealt decks:

* CASSINO, and German Xeri with `multi_capture`, where both players lay
  every card free while they may (the table grows to 40 items and more);
* generated rule sets `SumCapture(values=...)` (random values for the
  ranks, up to 40 and some ranks of several values, random options), in
  random play where players mostly lay cards free;
* Tablić's values (the Ace 1 or 11, the pictures 12 to 14), without and
  with builds, played the same way;
* the worst tables, built rather than reached by play: the 34 lowest cards
  on the table, the highest in the hands, under Tablić's values (with and
  without builds) and with pictures 11 to 13. (`multi_capture` and
  `multi_builds` need single values up to 10, K2: the rule set refuses the
  others, which no count could answer in bounded time.)

From each source the K positions with the most legal moves are kept. On
each, the figures are the time of `len(legal_moves(s))`, of one
`moves[i]` (the middle index; alone, and then after `len` of the same
sequence, the `then` column), of one `move in moves` and of one
`apply(s, move)`, each on a fresh sequence:

* *cold*: every cache of move generation emptied first (the positions'
  plans and the division tables built for group values), the worst case;
* *in play*: the positions' plans emptied, the division tables as the six
  turns before left them (they depend on the group value alone, not on the
  position), as a program playing the game sees it.

Each figure is the best of three. The process's peak memory (`maxrss`) is
printed at the end. Figures, not tests: machines are noisy.
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Callable

import attrs

import xeri
from xeri import CASSINO, GERMAN, GameState, Rank, SumCapture, Trail
from xeri._families.sums import lazy

LIMIT_MS = 50.0
MULTI = attrs.evolve(GERMAN, name="german-multi", capture=SumCapture(multi_capture=True))
TABLIC_VALUES = dict(xeri.GERMAN_VALUES) | {
    Rank.ACE: (1, 11),
    Rank.JACK: 12,
    Rank.QUEEN: 13,
    Rank.KING: 14,
}
TABLIC = attrs.evolve(
    GERMAN, name="tablic-like", capture=SumCapture(values=TABLIC_VALUES, builds=False)
)
TABLIC_BUILDS = attrs.evolve(
    GERMAN, name="tablic-builds", capture=SumCapture(values=TABLIC_VALUES, self_raise=True)
)
HIGH = attrs.evolve(
    GERMAN,
    name="high-values",
    capture=SumCapture(
        values=dict(xeri.GERMAN_VALUES) | {Rank.JACK: 11, Rank.QUEEN: 12, Rank.KING: 13}
    ),
)


def worst_table(rules: xeri.RuleSet, seed: int) -> list[tuple[GameState, int]]:
    """A position with the 34 lowest cards on the table and the highest in the hands.

    Built from a dealt state (not reached by play): the most sets of cards
    that make a sum, with every card of the hand able to take some.
    """
    state = xeri.new_game(rules, rng=random.Random(seed))
    capture = rules.capture
    assert isinstance(capture, SumCapture)
    deck = sorted(xeri.DECK, key=lambda c: (min(capture.card_values(c) or (99,)), c.index))
    low, high = deck[:34], deck[34:]
    random.Random(seed).shuffle(high)
    hands = (tuple(high[:4]), tuple(high[4:8]))
    state = attrs.evolve(state, table=tuple(low), hands=hands, stock=tuple(high[8:]))
    return [(state, len(xeri.legal_moves(state)))]


def cold() -> None:
    """Empty every cache of move generation."""
    lazy.plan.cache_clear()
    lazy._division.cache_clear()  # the benchmark measures without it too


def trailing(rules: xeri.RuleSet, seed: int, laid: float = 1.0) -> list[tuple[GameState, int]]:
    """The states of a round where players lay a card free with probability `laid`.

    Each comes with its number of legal moves.
    """
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    out = []
    while state.to_move is not None and not state.is_round_over:
        moves = xeri.legal_moves(state)
        out.append((state, len(moves)))
        free = Trail(card=state.hands[state.to_move][0])
        move = free if free in moves and rng.random() < laid else moves[rng.randrange(len(moves))]
        state = xeri.apply(state, move)
    return out


def generated(seed: int) -> xeri.RuleSet:
    """A German rule set with random values for the ranks and random options."""
    rng = random.Random(seed)
    ranks = list(Rank)
    rng.shuffle(ranks)
    valued = ranks[: rng.randrange(6, 14)]
    top = 10 if rng.random() < 0.5 else 40
    values: dict[Rank, int | tuple[int, ...]] = {rank: rng.randrange(1, top + 1) for rank in valued}
    if top > 10 and rng.random() < 0.5:  # a rank of several values (K2)
        values[valued[0]] = tuple(sorted(rng.sample(range(1, top + 1), rng.randrange(2, 4))))
    flags = {o.name: rng.random() < 0.5 for o in SumCapture.OPTIONS if type(o.default) is bool}
    flags["card_must_capture"] = False
    if not flags["builds"]:
        flags["multi_builds"] = False
    if top > 10:  # groups of one value need single values up to 10 (K2)
        flags["multi_capture"] = flags["multi_builds"] = False
    capture = SumCapture(values=values, **flags)  # type: ignore[arg-type]  # names from the table
    return attrs.evolve(GERMAN, name=f"generated-{seed}", capture=capture)


def best_of(run: Callable[[], object], reset: Callable[[], None]) -> tuple[float, object]:
    """The best time of three runs in ms, each after `reset`, and what the last returned."""
    best = float("inf")
    out: object = None
    for _ in range(3):
        reset()
        t0 = time.process_time()
        out = run()
        best = min(best, time.process_time() - t0)
    return best * 1e3, out


def measure(state: GameState, reset: Callable[[], None]) -> tuple[int, list[float]]:
    """The count of moves, and five times in ms.

    Those of `len`, one index, one index after `len` of the same sequence,
    one membership test and one apply.
    """
    t_len, count = best_of(lambda: len(xeri.legal_moves(state)), reset)
    n: int = count  # type: ignore[assignment]  # len gives an int
    t_at, move = best_of(lambda: xeri.legal_moves(state)[n // 2], reset)
    t_after = float("inf")
    for _ in range(3):  # the index alone, on a sequence already counted
        reset()
        moves = xeri.legal_moves(state)
        len(moves)
        t0 = time.process_time()
        moves[n // 2]
        t_after = min(t_after, (time.process_time() - t0) * 1e3)
    t_in, found = best_of(lambda: move in xeri.legal_moves(state), reset)
    assert found is True
    t_apply, _ = best_of(lambda: xeri.apply(state, move), reset)  # type: ignore[arg-type]
    return n, [t_len, t_at, t_after, t_in, t_apply]


def plans_only() -> None:
    """Empty the positions' plans, keep the division tables."""
    lazy.plan.cache_clear()


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="rounds played per source")
    parser.add_argument("--positions", type=int, default=3, help="positions kept per source")
    args = parser.parse_args()
    sources: list[tuple[str, list[tuple[GameState, int, list[GameState]]]]] = []
    for label, rules, games in (
        ("CASSINO", CASSINO, [trailing(CASSINO, seed) for seed in range(args.games)]),
        ("GERMAN multi_capture", MULTI, [trailing(MULTI, seed) for seed in range(args.games)]),
        (
            "generated values",
            None,
            [trailing(generated(seed), seed, laid=0.9) for seed in range(args.games * 4)],
        ),
        ("Tablic values", TABLIC, [trailing(TABLIC, seed, 0.9) for seed in range(args.games)]),
        (
            "Tablic values, builds",
            TABLIC_BUILDS,
            [trailing(TABLIC_BUILDS, seed, 0.9) for seed in range(args.games)],
        ),
        (
            "worst table",
            None,
            [worst_table(r, seed) for r in (TABLIC, TABLIC_BUILDS, HIGH) for seed in range(2)],
        ),
    ):
        del rules
        sources.append(
            (label, [(s, n, [p for p, _ in g[:i]]) for g in games for i, (s, n) in enumerate(g)])
        )
    worst = {"cold": 0.0, "in play": 0.0}
    print(
        f"{'source':30s} {'items':>5s} {'moves':>16s}  {'len':>8s} {'index':>8s} {'then':>8s}"
        f" {'in':>8s} {'apply':>8s}  (ms)"
    )
    for label, found in sources:
        found.sort(key=lambda p: (p[1], len(p[0].table)), reverse=True)  # the most moves first
        for state, _, before in found[: args.positions]:
            for kind, reset in (("cold", cold), ("in play", plans_only)):
                if kind == "in play":  # the division tables as the last turns leave them
                    cold()
                    for earlier in before[-6:]:
                        len(xeri.legal_moves(earlier))
                count, times = measure(state, reset)
                worst[kind] = max(worst[kind], *times)
                flag = "" if max(times) < LIMIT_MS else f"  over {LIMIT_MS:.0f} ms"
                print(
                    f"{label + ', ' + kind:30s} {len(state.table):5d} {count:16,d}  "
                    + " ".join(f"{t:8.2f}" for t in times)
                    + flag,
                    flush=True,
                )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    print(
        f"worst figure: cold {worst['cold']:.1f} ms, in play {worst['in play']:.1f} ms;"
        f" peak memory {peak:.0f} MB"
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()

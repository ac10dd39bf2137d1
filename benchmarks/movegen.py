"""Move generation in German Xeri: the largest legal-move lists and what they cost.

Run: `python benchmarks/movegen.py [--search ROUNDS] [--limit MOVES]`.

Every position is reached by legal play from a dealt deck: the players lay
their cards free until the table holds the cards wanted (capturing is
optional), and sometimes build. For each position it prints the number of
legal moves, the time to list them and the time of `apply` of one move (a
capture from the middle of the list, on a state whose moves were not
listed before).

* default `GERMAN`: the worst position constructed (the 34 number cards the
  mover does not hold on the table, the mover holding 9 9 10 10 10 10), and
  one with builds of both seats;
* `multi_capture=True`: tables of many small cards; the number of captures
  grows exponentially with the table, so beyond `--limit` moves the list is
  only counted (without listing it), to show how large it would be;
* default `GERMAN`: the worst found by a random search over reachable
  positions (players who trail often, so that tables grow).

Figures, not tests: machines are noisy; best of three timings.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from math import comb

import attrs

import xeri
from xeri import DECK, GERMAN, Build, Capture, Card, Combine, GameState, SumCapture, Trail

MULTI = attrs.evolve(GERMAN, name="german-multi", capture=SumCapture(multi_capture=True))
NUMBERS = [c for c in DECK if not c.rank.is_picture]
PICTURES = [c for c in DECK if c.rank.is_picture]


def of_values(values: list[int], besides: list[Card] | tuple[Card, ...] = ()) -> list[Card]:
    """Number cards of these values, not among `besides`, each value's suits in deck order."""
    free = [c for c in NUMBERS if c not in besides]
    out = []
    for v in values:
        card = next(c for c in free if c.rank == v)
        free.remove(card)
        out.append(card)
    return out


def reach(
    rules: xeri.RuleSet, table: list[Card], hand: list[Card], other: list[Card] = ()
) -> GameState:
    """The start of a deal where `table` lies loose and seat 0, to move, holds `hand`.

    `table` has 4, 16, 28 or 40 cards: the first four are dealt onto the
    table, the others are dealt to the seats and laid free, six by six.
    Seat 1 holds `other`, then what is left, pictures first.
    """
    deals = (len(table) - 4) // 12
    assert len(table) == 4 + 12 * deals
    assert len(hand) == 6
    rest = [*other] + [c for c in PICTURES + NUMBERS if c not in (*table, *hand, *other)]
    laid = table[4:]
    deck = laid[0:12] + table[:4] + laid[12:] + hand + rest
    state = xeri.new_game(rules, deck=deck, dealer=1)
    for _ in range(12 * deals):
        state = xeri.apply(state, Trail(card=state.hands[state.to_move][0]))
    assert sorted(state.table) == sorted(table)
    assert state.hands[0] == tuple(sorted(hand))
    return state


def build(state: GameState, value: int) -> GameState:
    """The mover combines or raises to `value` with its first such move."""
    combine = next(m for m in xeri.legal_moves(state) if type(m) is Combine and m.value == value)
    return xeri.apply(state, combine)


def fresh(state: GameState) -> GameState:
    """An equal state made of new tuples, so that no cache keyed on identity can answer."""
    return attrs.evolve(state, table=(*state.table,), hands=tuple((*h,) for h in state.hands))


def best_of(run: Callable[[GameState], object], state: GameState) -> tuple[float, object]:
    """The best time of three runs on fresh copies of `state`, and what the last run returned."""
    best = float("inf")
    out: object = None
    for _ in range(3):
        copy = fresh(state)
        t0 = time.perf_counter()
        out = run(copy)
        best = min(best, time.perf_counter() - t0)
    return best, out


def divides_counts(room: list[int], value: int) -> set[tuple[int, ...]]:
    """Counts by value (within `room`) of the card sets that divide into groups of `value`."""
    shapes: list[tuple[int, ...]] = []

    def parts(rest: int, largest: int, counts: list[int]) -> None:
        if not rest:
            shapes.append(tuple(counts))
            return
        for v in range(min(rest, largest), 0, -1):
            counts[v] += 1
            parts(rest - v, v, counts)
            counts[v] -= 1

    parts(value, value, [0] * 11)
    empty = (0,) * 11
    seen = {empty}
    todo = [empty]
    while todo:
        counts = todo.pop()
        for shape in shapes:
            new = tuple(a + b for a, b in zip(counts, shape, strict=True))
            if new not in seen and all(n <= r for n, r in zip(new, room, strict=True)):
                seen.add(new)
                todo.append(new)
    return seen


def count_captures(state: GameState) -> int:
    """How many captures `multi_capture` allows the mover, counted without listing them.

    Assumes the mover owns no build (so that D4 never refuses a capture).
    """
    seat = state.to_move
    room = [0] * 11
    pictures: dict[int, int] = {}
    builds: dict[int, int] = {}
    for item in state.table:
        if isinstance(item, Build):
            builds[item.value] = builds.get(item.value, 0) + 1
        elif item.rank.is_picture:
            pictures[item.rank] = pictures.get(item.rank, 0) + 1
        else:
            room[int(item.rank)] += 1
    total = 0
    for card in state.hands[seat]:
        if card.rank.is_picture:
            total += pictures.get(card.rank, 0)
            continue
        v = int(card.rank)
        sets = 0
        for counts in divides_counts([r if i <= v else 0 for i, r in enumerate(room)], v):
            ways = 1
            for n, k in zip(room, counts, strict=True):
                ways *= comb(n, k)
            sets += ways
        total += sets * 2 ** builds.get(v, 0) - 1
    return total


def report(label: str, state: GameState, limit: int) -> None:
    """Print the moves of the mover: how many, the time to list them, the time of one apply."""
    table = state.table
    small = sum(1 for t in table if isinstance(t, Card) and t.rank <= 4)
    loose = sum(1 for t in table if isinstance(t, Card))
    head = f"{label:44s} table {len(table):2d} ({loose} loose, {small} of A-4)"
    multi = state.rules.capture.multi_capture
    counted = count_captures(state) if multi else 0
    if counted > limit:
        print(f"{head}: {counted:>16,} captures (counted, not listed)")
        return
    listing, moves = best_of(xeri.legal_moves, state)
    assert isinstance(moves, tuple)
    captures = [m for m in moves if type(m) is Capture]
    owner = any(isinstance(t, Build) and t.owner == state.to_move for t in table)
    if multi and not owner:
        assert len(captures) == counted, (len(captures), counted)  # the counter is right
    move = captures[len(captures) // 2] if captures else moves[0]
    applying, _ = best_of(lambda s: xeri.apply(s, move), state)
    print(
        f"{head}: {len(moves):>9,} moves, list {listing * 1e3:9.2f} ms,"
        f" apply {applying * 1e3:8.3f} ms"
    )


def random_search(rounds: int, seed: int) -> tuple[int, GameState | None]:
    """Default GERMAN: the largest legal-move list met in random rounds of trailing players."""
    rng = random.Random(seed)
    worst, where = 0, None
    for _ in range(rounds):
        state = xeri.new_game(GERMAN, rng=rng)
        trail = rng.random()  # how often this round's players lay a card free
        while state.to_move is not None:
            moves = xeri.legal_moves(state)
            if len(moves) > worst:
                worst, where = len(moves), state
            free = [m for m in moves if type(m) is Trail]
            state = xeri.apply(state, rng.choice(free if free and rng.random() < trail else moves))
    return worst, where


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--search", type=int, default=300, help="rounds of random search")
    parser.add_argument("--limit", type=int, default=500_000, help="largest list to build")
    args = parser.parse_args()
    tens = of_values([9, 9, 10, 10, 10, 10])
    rest = [c for c in NUMBERS if c not in tens]
    report(
        "GERMAN, 34 number cards, hand 9 9 10 10 10 10",
        reach(GERMAN, rest + PICTURES[:6], tens),
        args.limit,
    )
    low = of_values([v for v in range(1, 8) for _ in range(4)])
    hand = of_values([8, 9, 9, 10, 10, 10])
    state = reach(GERMAN, low, hand, of_values([8, 8, 8, 9, 9, 10], hand))
    report("GERMAN, A-7 on the table, with two builds", build(build(state, 10), 9), args.limit)

    for values, hand in (
        ([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 4, 4], [4, 4, 5, 5, 5, 6]),
        ([1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3], [4, 5, 6, 7, 8, 10]),
    ):
        table = of_values(values) + PICTURES[:4]
        label = f"multi, 12 small cards, hand {' '.join(map(str, hand))}"
        report(label, reach(MULTI, table, of_values(hand, table)), args.limit)
    hand = of_values([5, 6, 7, 8, 9, 10])
    other = of_values([5, 6, 6, 9, 9, 10], hand)
    state = reach(MULTI, of_values([v for v in range(1, 5) for _ in range(4)]), hand, other)
    report("multi, A-4 (16 cards), hand 5-10", state, args.limit)
    report("multi, A-4, then a build of 10 each", build(build(state, 10), 10), args.limit)
    state = reach(MULTI, low, of_values([8, 9, 10, 10, 10, 10]))
    report("multi, A-7 (28 cards), hand 8 9 10 10 10 10", state, args.limit)
    tens = of_values([9, 9, 10, 10, 10, 10])
    state = reach(MULTI, [c for c in NUMBERS if c not in tens] + PICTURES[:6], tens)
    report("multi, 34 number cards, hand 9 9 10 10 10 10", state, args.limit)

    t0 = time.perf_counter()
    worst, where = random_search(args.search, seed=1)
    elapsed = time.perf_counter() - t0
    print(
        f"random search, {args.search} GERMAN rounds ({elapsed:.1f} s): worst list {worst:,} moves"
    )
    if where is not None:
        report("GERMAN, worst found by the random search", where, args.limit)


if __name__ == "__main__":
    main()

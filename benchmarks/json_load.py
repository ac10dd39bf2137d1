"""Loading JSON: speed on genuine documents, and bounded work on hostile ones.

Run: `python benchmarks/json_load.py [--small N]`. Prints, for a GREEK
state and a 20-round GREEK record, the time of `from_json` split into
reading (parsing and building the value) and checking it (replay), and of
`to_json`; then time and peak memory (tracemalloc) for hostile texts of a
few megabytes; then the slowest of N random small documents (2 KB or less:
valid documents with random changes). Figures, not tests: machines are noisy.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable

import attrs

import xeri
from xeri import from_json, to_json
from xeri._core.validate import check_state
from xeri._io.serialize import MAX_DEPTH, MAX_TEXT_LENGTH


def best_ms(f: Callable[[], object], repeat: int) -> float:
    """The best of `repeat` timings of `f`, in milliseconds."""
    f()
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - start)
    return best * 1e3


def refuse(text: str) -> None:
    """Load `text`, which must be refused."""
    try:
        from_json(text)
    except xeri.InvalidStateError:
        return
    raise AssertionError("accepted")


def long_match(rounds: int, seed: int = 1) -> tuple[xeri.GameState, xeri.GameRecord]:
    """A GREEK match of `rounds` rounds played at random, and its record."""
    rules = xeri.register(
        attrs.evolve(xeri.GREEK, name="greek-bench", match=xeri.FixedRounds(rounds=rounds)),
        replace=True,
    )
    rng = random.Random(seed)
    state, rec = xeri.record(rules, rng=rng, dealer=0)
    while not state.is_over:
        move = (
            xeri.chance_move(state, rng) if state.is_chance else rng.choice(xeri.legal_moves(state))
        )
        state, rec = xeri.apply(state, move), rec.then(move)
    return state, rec


def genuine() -> None:
    """Reading and checking times of genuine documents."""
    state = xeri.new_game(xeri.GREEK, rng=random.Random(2), dealer=0)
    for _ in range(11):
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    end, rec = long_match(20)
    for label, value, check, repeat in (
        ("GREEK state", state, check_state, 300),
        ("GREEK 20-round record", rec, xeri.replay, 10),
        ("GREEK state after 20 rounds", end, check_state, 50),
    ):
        text = to_json(value)
        total = best_ms(lambda text=text: from_json(text), repeat)
        checking = best_ms(lambda value=value, check=check: check(value), repeat)
        writing = best_ms(lambda value=value: to_json(value), repeat)
        print(
            f"{label}: {len(text)} chars; from_json {total:.2f} ms = reading "
            f"{total - checking:.2f} + checking {checking:.2f}; to_json {writing:.2f} ms"
        )


def hostile() -> None:
    """Time and peak memory for hostile texts of a few megabytes."""
    base = json.loads(to_json(xeri.new_game(xeri.GREEK, rng=random.Random(4), dealer=0)))
    bad_stock = {**base, "data": {**base["data"], "stock": [0] * 1_000_000}}
    moves = ",".join(["0"] * 1_500_000)
    cases = {
        "a million bad stock entries": json.dumps(bad_stock, separators=(",", ":")),
        "1.5 million bad record moves": (
            '{"data":{"dealer":0,"moves":[' + moves + '],"rules":"greek"},'
            '"format":"xeri","type":"record","version":2}'
        ),
        f"nested {MAX_TEXT_LENGTH // 2} levels": "[" * (MAX_TEXT_LENGTH // 2)
        + "]" * (MAX_TEXT_LENGTH // 2),
        f"nested {MAX_DEPTH} levels, {MAX_TEXT_LENGTH} chars": (
            "[" * (MAX_DEPTH - 1)
            + ",".join(["[]"] * ((MAX_TEXT_LENGTH - 2 * MAX_DEPTH) // 3))
            + "]" * (MAX_DEPTH - 1)
        ),
        "escaped quotes, unterminated": '["' + '\\"' * (MAX_TEXT_LENGTH // 2 - 2),
        "a 4-million-character card name": '{"data":"' + "x" * (MAX_TEXT_LENGTH - 60) + '"}',
        "one character over the limit": " " * (MAX_TEXT_LENGTH + 1),
    }
    for label, text in cases.items():
        start = time.perf_counter()
        refuse(text)
        seconds = time.perf_counter() - start
        tracemalloc.start()  # slows the run down: timed apart
        refuse(text)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(
            f"{label}: {len(text) / 1e6:.1f} M chars refused in {seconds:.2f} s, "
            f"peak {peak / 1e6:.0f} MB"
        )


def small_documents() -> list[str]:
    """Valid documents of 2 KB or less, of every type."""
    values: list[object] = [xeri.GREEK, xeri.GERMAN, xeri.GREEK_FOUR]
    for rules in (xeri.GREEK, xeri.GERMAN, xeri.GREEK_FOUR):
        rng = random.Random(7)
        state, rec = xeri.record(rules, rng=rng)
        for _ in range(30):
            if state.is_over:
                break
            move = (
                xeri.chance_move(state, rng)
                if state.is_chance
                else rng.choice(xeri.legal_moves(state))
            )
            state, rec = xeri.apply(state, move), rec.then(move)
            values += [state, xeri.observe(state, 0), move, rec]
    texts = [to_json(v) for v in values]
    return [t for t in texts if len(t) <= 2048]


def mutated(rng: random.Random, text: str) -> str:
    """`text` with a few random changes, at most 2 KB long."""
    doc = json.loads(text)
    awkward = [None, True, 0, -1, 2**53 - 1, 2**53, 1.5, "AS", "", [], {}, ["AS"] * 40]
    for _ in range(rng.randint(1, 4)):
        spots: list[tuple[object, object]] = []
        stack: list[object] = [doc]
        while stack:
            node = stack.pop()
            keys = (
                range(len(node))
                if isinstance(node, list)
                else node.keys()
                if isinstance(node, dict)
                else ()
            )
            for key in keys:
                spots.append((node, key))
                stack.append(node[key])  # type: ignore[index]
        if spots:
            node, key = rng.choice(spots)
            node[key] = copy.deepcopy(rng.choice(awkward))  # type: ignore[index]
    out = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    return out[:2048]


def small(count: int) -> None:
    """The slowest of `count` random small documents."""
    rng = random.Random(1)
    base = small_documents()
    timings = []
    for i in range(count):
        text = rng.choice(base) if i % 4 == 0 else mutated(rng, rng.choice(base))
        start = time.perf_counter()
        with contextlib.suppress(xeri.InvalidStateError):
            from_json(text, strict=bool(i % 2))
        timings.append((time.perf_counter() - start, len(text)))
    times = sorted(t for t, _ in timings)
    slowest, size = max(timings)
    print(
        f"{count} documents of 2 KB or less: median {statistics.median(times) * 1e3:.2f} ms, "
        f"99th percentile {times[int(len(times) * 0.99)] * 1e3:.2f} ms, "
        f"slowest {slowest * 1e3:.2f} ms ({size} chars)"
    )


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=20_000)
    args = parser.parse_args()
    genuine()
    hostile()
    small(args.small)


if __name__ == "__main__":
    main()

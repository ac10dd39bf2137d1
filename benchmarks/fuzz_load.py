"""Mutated documents fed to `from_json`: only the library's errors may escape, and how fast.

Run: `python benchmarks/fuzz_load.py [--docs N] [--seed S] [--index I]`. Genuine
documents are written with `to_json` (states of every preset and of a few
derived rule sets at several points of a match, observations, game records,
moves, rule sets), then each input is one of them mutated one to four times:
values flipped, replaced, deleted or duplicated, cards swapped, numbers
changed, values nested (sometimes thousands deep), the text truncated. Every
input is read with `from_json`; anything but a `XeriError` escaping is a bug,
listed at the end with the index that reproduces it (`--index I` shows that
input). Prints how many inputs were accepted and refused, how many refusals
came from an error nobody planned for (a message "cannot be read (...)" or
"cannot be replayed (...)"), the total time and the five slowest inputs. A
figure, not a test: machines are noisy.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections import Counter
from typing import Any

import attrs

import xeri

_MUTATIONS = ("replace", "flip", "delete", "duplicate", "swap cards", "number", "nest")
_CARDS = tuple(c.ascii for c in xeri.DECK)
_WORDS = (
    "greek",
    "german",
    "greek-four",
    "play",
    "deal",
    "redeal",
    "round over",
    "match over",
    "xeri",
    "jack xeri",
    "capture",
    "combine",
    "trail",
    "reshuffle",
    "state",
    "observation",
    "record",
    "rules",
    "move",
    "StandardScorer",
    "PileCapture",
    "SumCapture",
    "TargetScore",
    "FixedRounds",
    "10♦",
    "",
)
_NUMBERS = (0, 1, -1, 2, 3, 4, 6, 13, 26, 51, 52, 53, 151, 10**6, 2**31, 2**53 - 1, 2**53, 2**64)
_UNPLANNED = ("cannot be read (", "cannot be replayed (", "cannot check this result (")
"""Messages of refusals that caught an error nobody planned for: worth a look."""


def _derived() -> tuple[xeri.RuleSet, ...]:
    """Rule sets written by their fields (not registered), exercising the options."""
    return (
        attrs.evolve(xeri.GREEK, name="fuzz-v1", show_bottom_card=True),
        attrs.evolve(xeri.GREEK_FOUR, name="fuzz-four-v1", show_bottom_card=True),
        attrs.evolve(
            xeri.GREEK,
            name="fuzz-pisti",
            hand_size=4,
            face_down=3,
            redeal=xeri.Redeal.NEVER,
            xeri_on_first_card=False,
            xeri_on_last_card=False,
            card_points=xeri.PointsTable(
                ranks={xeri.Rank.JACK: 1, xeri.Rank.ACE: 1},
                cards={xeri.Card.parse("2C"): 2, xeri.Card.parse("10D"): 3},
            ),
        ),
        attrs.evolve(
            xeri.GERMAN,
            name="fuzz-german",
            capture=xeri.SumCapture(multi_capture=True, forced_capture=True, self_raise=True),
            majority_tie=xeri.MajorityTie.SPLIT,
        ),
    )


def _match(rules: xeri.RuleSet, seed: int) -> tuple[list[xeri.GameState], xeri.GameRecord]:
    """Every state of a random match, and its record."""
    rng = random.Random(seed)
    state, rec = xeri.record(rules, rng=rng)
    seen = [state]
    while not state.is_over:
        if state.is_chance:
            move: xeri.Move = xeri.chance_move(state, rng)
        else:
            move = rng.choice(xeri.legal_moves(state))
        state, rec = xeri.apply(state, move), rec.then(move)
        seen.append(state)
    return seen, rec


def genuine() -> list[tuple[str, str]]:
    """Genuine documents, each with a short label: `(label, text)`."""
    docs: list[tuple[str, object]] = []
    rule_sets = [xeri.find_rules(name) for name in xeri.registered()] + list(_derived())
    for rules in rule_sets:
        name = rules.name
        docs.append((f"rules {name}", rules))
        seen, rec = _match(rules, 1)
        ends = [i for i, s in enumerate(seen) if s.phase is xeri.Phase.ROUND_OVER]
        points = sorted({0, 1, 2, 9, 20, 33, *ends[:2], len(seen) - 1} & set(range(len(seen))))
        for i in points:
            state = seen[i]
            docs.append((f"state {name} @{i} ({state.phase.value})", state))
            if state.phase is not xeri.Phase.DEAL:
                seats = range(rules.seats) if i in (2, 9) else (0,)
                docs.extend(
                    (f"observation {name} @{i} seat {seat}", xeri.observe(state, seat))
                    for seat in seats
                )
        # seen[i] is reached by all the moves but the last len(seen) - 1 - i.
        first = len(rec.moves) - (len(seen) - 1 - ends[0]) if ends else len(rec.moves)
        docs.append((f"record {name} (first round)", attrs.evolve(rec, moves=rec.moves[:first])))
        docs.append((f"record {name} (a few moves)", attrs.evolve(rec, moves=rec.moves[:9])))
        kinds: dict[str, xeri.Move] = {}
        for move in rec.moves:
            kinds.setdefault(type(move).__name__, move)
        docs.extend((f"move {kind} ({name})", move) for kind, move in sorted(kinds.items()))
    greek, rec = _match(xeri.GREEK, 2)
    docs.append(("state greek, a whole match", greek[-1]))
    docs.append(("record greek, a whole match", rec))
    long = attrs.evolve(xeri.GREEK, name="fuzz-30-rounds", match=xeri.FixedRounds(rounds=30))
    seen, rec = _match(long, 3)
    docs.append(("state greek, 30 rounds", seen[-1]))
    docs.append(("record greek, 30 rounds", rec))
    redealt = xeri.new_game(xeri.GREEK, rng=random.Random(5))  # G4: a table redealt
    docs.append(("state greek, a table redealt", redealt))
    return [(label, xeri.to_json(value)) for label, value in docs]


def _places(value: object, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """Every `(container, key)` of a parsed JSON value, containers before their contents."""
    if isinstance(value, dict):
        for key, item in value.items():
            out.append((value, key))
            _places(item, out)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out.append((value, i))
            _places(item, out)
    return out


def _other_value(rng: random.Random, doc: object) -> object:
    pick = rng.randrange(6)
    if pick == 0:
        return rng.choice(_NUMBERS) * rng.choice((1, -1))
    if pick == 1:
        return rng.choice(_CARDS)
    if pick == 2:  # a draw among six
        return rng.choice(_WORDS)
    if pick == 3:  # a draw among six
        return rng.choice((None, True, False, 0.5, 1e308, -0.0, [], {}, [None]))
    if pick == 4:  # a draw among six
        return [rng.choice(_CARDS) for _ in range(rng.choice((1, 4, 6, 52, 53)))]
    places = _places(doc, [])
    container, key = rng.choice(places)
    return json.loads(json.dumps(container[key]))  # a copy of a value found elsewhere


def _mutate(
    rng: random.Random, doc: object, kind: str, nests: list[tuple[int, str]]
) -> None:  # one branch per mutation
    """Apply one mutation of `kind` in place; a deep nest is left as a marker in `nests`."""
    places = _places(doc, [])
    if not places:
        return
    container, key = rng.choice(places)
    value = container[key]
    if kind == "replace":
        container[key] = _other_value(rng, doc)
    elif kind == "flip":
        if isinstance(value, bool):
            container[key] = not value
        elif isinstance(value, (int, float)):
            container[key] = -value
        elif isinstance(value, str):
            container[key] = value[::-1] if rng.random() < 0.5 else value.swapcase()  # a coin
        elif isinstance(value, list):
            value.reverse()
    elif kind == "delete":
        del container[key]
    elif kind == "duplicate":
        if isinstance(container, list):
            container.insert(key, json.loads(json.dumps(value)))
        else:
            other = rng.choice(list(container))
            container[other] = json.loads(json.dumps(value))
    elif kind == "swap cards":
        cards = [(c, k) for c, k in places if isinstance(c[k], str) and c[k] in _CARDS]
        if len(cards) >= 2:  # a pair to swap
            (c1, k1), (c2, k2) = rng.sample(cards, 2)
            c1[k1], c2[k2] = c2[k2], c1[k1]
    elif kind == "number":
        numbers = [(c, k) for c, k in places if type(c[k]) is int]
        if numbers:
            c, k = rng.choice(numbers)
            c[k] = rng.choice(
                (c[k] + 1, c[k] - 1, c[k] * 2, c[k] + 52, -c[k] - 1, c[k] + 2**53, c[k] * 10**30)
            )
    elif kind == "nest":
        depth = rng.choice((1, 1, 2, 5, 50, 5000, 200_000))
        if depth <= 5:  # shallow: done on the value
            for _ in range(depth):
                value = [value] if rng.random() < 0.5 else {"x": value}  # a coin
            container[key] = value
        else:
            marker = f"\x00nest{len(nests)}\x00"
            nests.append((depth, json.dumps(value, ensure_ascii=False)))
            container[key] = marker


def make_input(seed: int, index: int, corpus: list[tuple[str, str]]) -> tuple[str, str, bool]:
    """Input `index` of the run: its description, its text and whether it is read strictly."""
    rng = random.Random(f"{seed}:{index}")
    label, text = rng.choice(corpus)
    doc = json.loads(text)
    nests: list[tuple[int, str]] = []
    kinds = [rng.choice(_MUTATIONS) for _ in range(rng.choice((1, 1, 2, 3, 4)))]
    for kind in kinds:
        _mutate(rng, doc, kind, nests)
    out = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    for i, (depth, inner) in enumerate(nests):
        marker = json.dumps(f"\x00nest{i}\x00")
        out = out.replace(marker, "[" * depth + inner + "]" * depth, 1)
    if rng.random() < 0.05:  # a few texts cut short
        out = out[: rng.randrange(len(out) + 1)]
        kinds.append("truncate")
    strict = rng.random() < 0.2  # mostly any layout
    return f"{label}: {', '.join(kinds)}", out, strict


def _load(text: str, *, strict: bool) -> tuple[str, str]:
    """`('accepted' | 'refused' | 'escaped', detail)` for one input."""
    try:
        xeri.from_json(text, strict=strict)
    except xeri.XeriError as exc:
        return "refused", str(exc)
    except Exception as exc:  # what the run looks for
        return "escaped", f"{type(exc).__name__}: {str(exc)[:200]}"
    return "accepted", ""


def main() -> int:
    """Run the fuzzing; the exit status is 1 if an error other than a XeriError escaped."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000, help="inputs to read")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--index", type=int, default=None, help="show input I of the run")
    args = parser.parse_args()
    t0 = time.perf_counter()
    corpus = genuine()
    print(f"{len(corpus)} genuine documents written in {time.perf_counter() - t0:.1f} s")
    if args.index is not None:
        label, text, strict = make_input(args.seed, args.index, corpus)
        print(f"input {args.index} ({label}), strict={strict}, {len(text):,} characters")
        print(text if len(text) <= 20_000 else text[:20_000] + " ...")
        print(_load(text, strict=strict))
        return 0
    outcomes: Counter[str] = Counter()
    unplanned: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    escaped: list[tuple[int, str, str]] = []
    timings: list[tuple[float, int, int, str]] = []
    total = 0.0
    for index in range(args.docs):
        label, text, strict = make_input(args.seed, index, corpus)
        start = time.perf_counter()
        outcome, detail = _load(text, strict=strict)
        spent = time.perf_counter() - start
        total += spent
        outcomes[outcome] += 1
        timings.append((spent, index, len(text), label))
        if outcome == "escaped":
            escaped.append((index, label, detail))
        elif outcome == "refused":
            for mark in _UNPLANNED:
                if mark in detail:
                    message = detail[detail.index(mark) :].split(")")[0] + ")"
                    unplanned[message] += 1
                    first_seen.setdefault(message, index)
    print(
        f"{args.docs:,} inputs (seed {args.seed}): {outcomes['accepted']:,} accepted, "
        f"{outcomes['refused']:,} refused, {outcomes['escaped']:,} escaped"
    )
    print(
        f"from_json: {total:.1f} s in all, mean {1000 * total / max(args.docs, 1):.2f} ms, "
        f"median {1000 * statistics.median(t for t, *_ in timings):.2f} ms"
        if timings
        else "no input"
    )
    if unplanned:
        print("refusals of errors nobody planned for:")
        for message, count in unplanned.most_common():
            print(f"  {count:6,}  {message}, first in #{first_seen[message]}")
    print("5 slowest inputs:")
    for spent, index, size, label in sorted(timings, reverse=True)[:5]:
        print(f"  {spent * 1000:9.1f} ms  {size:>11,} chars  #{index}  {label}")
    for index, label, detail in escaped[:10]:
        print(f"ESCAPED #{index} ({label}): {detail}")
    return 1 if escaped else 0


if __name__ == "__main__":
    sys.exit(main())

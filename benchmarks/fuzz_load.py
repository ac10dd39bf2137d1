"""Mutated documents fed to `from_json`: only the library's errors may escape, and how fast.

Run: `python benchmarks/fuzz_load.py [--docs N] [--seed S] [--index I] [--timeout T]
[--rules a,b]` (`--rules` keeps the documents of those rule sets alone).
Genuine documents are written with `to_json` (states of every preset and of a
few derived rule sets at several points of a match, observations, game
records, moves, rule sets), then each input is one of them mutated one to
four times: values flipped, replaced, deleted or duplicated, cards swapped,
numbers changed, values nested (sometimes thousands deep), the text
truncated, and the lines of an earlier round's score sheet forged with their
totals kept adding up (a category line moved to the other side, given to
both, raised to its most; sweeps recorded without their points; the phase
set to "match over"). Every input is read with `from_json`; anything but a
`XeriError` escaping is a bug, listed at the end with the index that
reproduces it (`--index I` shows that input).

Every accepted document is then scored again by code of this script alone
(`independent_problems`): each round result's sheet adds up, its card
counts, card points, majority and xeri bonus agree with each other and the
rules, every category line is what its kind allows (a sweeps line is the
sweeps times their points; most of a suit and the primiera go to one side at
most, which could win them; named cards are shared out, never given twice),
and a finished round of a state or a record is scored from its captures and
must give the result it holds. An accepted document that fails is "accepted
but wrong", a bug as much as an escape.

Prints how many inputs were accepted and refused, how many refusals came
from an error nobody planned for (a message "cannot be read (...)" or
"cannot be replayed (...)"), the accepted but wrong, the inputs slower than
`--timeout` seconds, the total time, the slowest per KB and the peak memory
(tracemalloc while reading the slowest per KB again). A figure, not a test:
machines are noisy.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import sys
import time
import tracemalloc
from collections import Counter
from typing import Any

import attrs

import xeri

_MUTATIONS = (
    "replace",
    "flip",
    "delete",
    "duplicate",
    "swap cards",
    "number",
    "nest",
    "category line",
    "category line",
    "sweeps",
)
"""The kinds of mutation, drawn uniformly: the forged score-sheet lines twice as often."""
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
    spades = xeri.MostOfSuit(suit=xeri.Suit.SPADES, points=3, tie=xeri.MajorityTie.SPLIT)
    named = xeri.NamedPoints(
        name="pictures",
        points=xeri.PointsTable(ranks={xeri.Rank.KING: 1}, cards={xeri.Card.parse("QH"): 2}),
    )
    return (
        attrs.evolve(
            xeri.SCOPA,
            name="fuzz-scopa",
            categories=(*xeri.SCOPA.categories, spades, named),
            match=xeri.TargetScore(target=31),
        ),
        attrs.evolve(
            xeri.CASSINO, name="fuzz-cassino", categories=(*xeri.CASSINO.categories, named)
        ),
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


def _results(doc: object) -> list[dict[str, Any]]:
    """The round results of a parsed state or observation document, as dicts."""
    data = doc.get("data") if isinstance(doc, dict) else None
    found = data.get("round_results") if isinstance(data, dict) else None
    if not isinstance(found, list):
        return []
    return [r for r in found if isinstance(r, dict) and isinstance(r.get("total"), list)]


def _forge_line(rng: random.Random, doc: object) -> None:
    """Forge one category line of an earlier round, its total kept adding up."""
    results = [r for r in _results(doc) if isinstance(r.get("categories"), list)]
    results = [r for r in results if r["categories"]]
    if not results:
        return
    result = rng.choice(results)
    line = rng.choice(result["categories"])
    if not (isinstance(line, list) and len(line) == 2):
        return
    row, total = line[1], result["total"]
    if not (isinstance(row, list) and row and len(row) == len(total)):
        return
    if not all(type(v) is int for v in row):
        return
    before = list(row)
    pick = rng.randrange(5)
    if pick == 0:  # the line moved to another side
        row.reverse()
    elif pick == 1:  # both sides given the best value
        row[:] = [max(row) or 1] * len(row)
    elif pick == 2:  # one side raised
        row[rng.randrange(len(row))] += rng.choice((1, 2, 5, 10))
    elif pick == 3:  # one side zeroed
        row[rng.randrange(len(row))] = 0
    else:  # another side's value copied
        row[rng.randrange(len(row))] = rng.choice(row)
    for s in range(len(row)):
        if isinstance(total[s], int) and isinstance(row[s], int):
            total[s] += row[s] - before[s]
    _maybe_over(rng, doc)


def _forge_sweeps(rng: random.Random, doc: object) -> None:
    """Record sweeps an earlier round did not score, or score sweeps it did not record."""
    results = _results(doc)
    if not results:
        return
    result = rng.choice(results)
    xeris = result.get("xeris")
    if not (isinstance(xeris, list) and xeris):
        return
    side = rng.randrange(len(xeris))
    if isinstance(xeris[side], int):
        xeris[side] += rng.choice((1, 2, 10, -1))
    _maybe_over(rng, doc)


def _maybe_over(rng: random.Random, doc: object) -> None:
    """Half the time, claim the match is over, as the forged Scopa match did."""
    data = doc.get("data") if isinstance(doc, dict) else None
    if (
        isinstance(data, dict)
        and data.get("phase") in ("round over", "play")
        and rng.random() < 0.5
    ):
        data["phase"] = "match over"
        data["to_move"] = None


def make_input(seed: int, index: int, corpus: list[tuple[str, str]]) -> tuple[str, str, bool]:
    """Input `index` of the run: its description, its text and whether it is read strictly."""
    rng = random.Random(f"{seed}:{index}")
    label, text = rng.choice(corpus)
    doc = json.loads(text)
    nests: list[tuple[int, str]] = []
    kinds = [rng.choice(_MUTATIONS) for _ in range(rng.choice((1, 1, 2, 3, 4)))]
    for kind in kinds:
        if kind == "category line":
            _forge_line(rng, doc)
        elif kind == "sweeps":
            _forge_sweeps(rng, doc)
        else:
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


def _rule_set_of(label: str) -> str:
    """The rule set a genuine document's label names: `state greek @2 ...` is greek's."""
    head = label.split(":", maxsplit=1)[0]
    if head.startswith("move "):
        return head.rsplit("(", 1)[-1].rstrip(")")
    return head.split()[1].rstrip(",")


def _load(text: str, *, strict: bool) -> tuple[str, str]:
    """`('accepted' | 'wrong' | 'refused' | 'escaped', detail)` for one input."""
    try:
        value = xeri.from_json(text, strict=strict)
    except xeri.XeriError as exc:
        return "refused", str(exc)
    except Exception as exc:  # what the run looks for
        return "escaped", f"{type(exc).__name__}: {str(exc)[:200]}"
    try:
        problems = independent_problems(value)
    except Exception as exc:  # a value the library accepted that this script cannot score
        problems = [f"cannot be scored again ({type(exc).__name__}: {exc})"]
    if problems:
        return "wrong", "; ".join(problems)[:300]
    return "accepted", ""


# --------------------------------------------------------------------------
# The independent re-scoring: written here, from the rules' data, not with the scorer.


def _card_values(table: xeri.PointsTable, deck: tuple[xeri.Card, ...]) -> dict[xeri.Card, int]:
    ranks = dict(table.ranks)
    extra = dict(table.cards)
    return {c: ranks.get(c.rank, 0) + extra.get(c, 0) for c in deck}


def _best_of(values: list[int | None], points: int, *, split: bool) -> list[int]:
    known = [v for v in values if v is not None]
    if not known:
        return [0] * len(values)
    top = max(known)
    n = values.count(top)
    share = points if n == 1 else (points // n if split else 0)
    return [share if v == top else 0 for v in values]


def rescore(
    captured: list[list[xeri.Card]], kinds: list[list[xeri.XeriKind]], rules: xeri.RuleSet
) -> dict[str, Any]:
    """A round's score sheet from the cards and the xeris of each side, from scratch."""
    values = _card_values(rules.card_points, rules.deck)
    counts = [len(cards) for cards in captured]
    sheet: dict[str, Any] = {
        "cards": counts,
        "card_points": [sum(values[c] for c in cards) for cards in captured],
        "majority": _best_of(
            list(counts), rules.majority_points, split=rules.majority_tie is xeri.MajorityTie.SPLIT
        ),
        "xeris": [len(k) for k in kinds],
        "xeri_bonus": [
            sum(
                rules.jack_xeri_points if x is xeri.XeriKind.JACK_XERI else rules.xeri_points
                for x in k
            )
            for k in kinds
        ],
        "leftover": len(rules.deck) - sum(counts),
    }
    lines = []
    suits = {c.suit for c in rules.deck}
    for category in rules.categories:
        if isinstance(category, xeri.Sweeps):
            row = [category.points * len(k) for k in kinds]
        elif isinstance(category, xeri.NamedPoints):
            named = _card_values(category.points, rules.deck)
            row = [sum(named[c] for c in cards) for cards in captured]
        elif isinstance(category, xeri.MostOfSuit):
            of_suit: list[int | None] = [
                sum(c.suit is category.suit for c in cards) for cards in captured
            ]
            row = _best_of(of_suit, category.points, split=category.tie is xeri.MajorityTie.SPLIT)
        elif isinstance(category, xeri.Primiera):
            worth = dict(category.values)
            sums: list[int | None] = []
            for cards in captured:
                best: dict[xeri.Suit, int] = {}
                for c in cards:
                    best[c.suit] = max(best.get(c.suit, -1), worth.get(c.rank, 0))
                sums.append(sum(best.values()) if set(best) >= suits else None)
            row = _best_of(sums, category.points, split=False)
        else:
            raise TypeError(f"no independent scoring of {type(category).__name__}")
        lines.append((category.name, row))
    sheet["categories"] = lines
    parts = [sheet["card_points"], sheet["majority"], sheet["xeri_bonus"]]
    parts += [row for _, row in lines]
    sheet["total"] = [sum(col) for col in zip(*parts, strict=True)]
    return sheet


def _as_sheet(result: xeri.RoundResult) -> dict[str, Any]:
    return {
        "cards": list(result.cards),
        "card_points": list(result.card_points),
        "majority": list(result.majority),
        "xeris": list(result.xeris),
        "xeri_bonus": list(result.xeri_bonus),
        "leftover": result.leftover,
        "categories": [(name, list(row)) for name, row in result.categories],
        "total": list(result.total),
    }


def _facts(result: xeri.RoundResult, rules: xeri.RuleSet) -> list[str]:
    """What every result of `rules` must satisfy, whatever the cards were (an earlier round)."""
    p: list[str] = []
    sides = rules.num_sides
    deck = rules.deck
    counts = list(result.cards)
    if sum(counts) + result.leftover != len(deck) or min(counts) < 0 or result.leftover < 0:
        p.append("the cards do not add up")
        return p
    parts = [result.card_points, result.majority, result.xeri_bonus]
    parts += [row for _, row in result.categories]
    if list(result.total) != [sum(col) for col in zip(*parts, strict=True)]:
        p.append("the total is not the sum of the lines")
    values = sorted(_card_values(rules.card_points, deck).values())
    for s in range(sides):
        n = counts[s]
        low, high = sum(values[:n]), sum(values[len(values) - n :]) if n else 0
        if not low <= result.card_points[s] <= high:
            p.append(f"side {s}: card points out of reach")
    if result.leftover == 0 and sum(result.card_points) != sum(values):
        p.append("the card points do not add up to the deck's")
    split = rules.majority_tie is xeri.MajorityTie.SPLIT
    if list(result.majority) != _best_of(list(counts), rules.majority_points, split=split):
        p.append("the majority is not the counts'")
    plays = rules.hand_size * rules.deals_per_round
    jacks = 0
    for s in range(sides):
        made, bonus = result.xeris[s], result.xeri_bonus[s]
        if made < 0 or made > plays * rules.sides.count(s) or 2 * made > counts[s]:
            p.append(f"side {s}: xeris out of reach")
            continue
        step = rules.jack_xeri_points - rules.xeri_points
        extra = bonus - made * rules.xeri_points
        options = [j for j in range(min(made, 2) + 1) if j * step == extra]
        if not options:
            p.append(f"side {s}: the xeri bonus is not its xeris'")
        else:
            jacks += min(options)
    if jacks > 2:
        p.append("more than two jack xeris")
    p.extend(_line_facts(result, rules))
    return p


def _line_facts(result: xeri.RoundResult, rules: xeri.RuleSet) -> list[str]:
    """The category lines of a result, each as its kind allows."""
    p: list[str] = []
    sides, deck, counts = rules.num_sides, rules.deck, result.cards
    suits = {c.suit for c in deck}
    for category, (name, row) in zip(rules.categories, result.categories, strict=True):
        winners = [s for s in range(sides) if row[s]]
        if isinstance(category, xeri.Sweeps):
            if list(row) != [category.points * x for x in result.xeris]:
                p.append(f"{name}: not the sweeps recorded")
        elif isinstance(category, (xeri.MostOfSuit, xeri.Primiera)):
            split = isinstance(category, xeri.MostOfSuit) and category.tie is xeri.MajorityTie.SPLIT
            need = 1 if isinstance(category, xeri.MostOfSuit) else len(suits)
            if len(winners) == 1 and row[winners[0]] != category.points:
                p.append(f"{name}: the points of the line are {category.points}")
            if len(winners) > 1 and not (
                split and all(row[s] == category.points // len(winners) for s in winners)
            ):
                p.append(f"{name}: given to {len(winners)} sides")
            if any(counts[s] < need for s in winners):
                p.append(f"{name}: won by a side without the cards")
        elif isinstance(category, xeri.NamedPoints):
            named = sorted(_card_values(category.points, deck).values())
            if sum(row) > sum(named) or (result.leftover == 0 and sum(row) != sum(named)):
                p.append(f"{name}: the named cards do not add up")
            for s in range(sides):
                n = counts[s]
                if row[s] > (sum(named[len(named) - n :]) if n else 0):
                    p.append(f"{name}: side {s} holds more than its cards are worth")
            worth = [v for v in named if v]
            if len(set(worth)) == 1 and any(row[s] % worth[0] for s in range(sides)):
                p.append(f"{name}: no set of the named cards is worth that")
    return p


def _captured(rules: xeri.RuleSet, takes: tuple[Any, ...]) -> tuple[list[Any], list[Any]]:
    captured: list[list[xeri.Card]] = [[] for _ in range(rules.num_sides)]
    kinds: list[list[xeri.XeriKind]] = [[] for _ in range(rules.num_sides)]
    for take in takes:
        side = rules.sides[take.seat]
        captured[side].extend(take.cards)
        if take.xeri is not None:
            kinds[side].append(take.xeri)
    return captured, kinds


def independent_problems(value: object) -> list[str]:
    """Why an accepted document is wrong, by the checks of the module docstring."""
    if isinstance(value, xeri.GameRecord):
        problems: list[str] = []
        states = xeri.replay(value)
        for before, after in itertools.pairwise(states):
            if len(after.round_results) > len(before.round_results):
                got = after.round_results[-1]
                want = rescore(*_captured(after.rules, after.takes), after.rules)
                if _as_sheet(got) != want:
                    problems.append(f"round {len(after.round_results)} scored wrong")
        return problems
    if not isinstance(value, (xeri.GameState, xeri.Observation)):
        return []
    rules = value.rules
    problems = []
    for i, result in enumerate(value.round_results, 1):
        problems.extend(f"round {i}: {p}" for p in _facts(result, rules))
    finished = value.phase in (xeri.Phase.ROUND_OVER, xeri.Phase.MATCH_OVER)
    if finished and isinstance(value, xeri.GameState) and value.round_results:
        want = rescore(*_captured(rules, value.takes), rules)
        if _as_sheet(value.round_results[-1]) != want:
            problems.append("the finished round is scored wrong")
    return problems


def main() -> int:  # noqa: PLR0915  # one figure after another
    """Run the fuzzing; the exit status is 1 if an input escaped, was wrong or took too long."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000, help="inputs to read")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run")
    parser.add_argument("--index", type=int, default=None, help="show input I of the run")
    parser.add_argument(
        "--timeout", type=float, default=10.0, help="seconds an input may take (default 10)"
    )
    parser.add_argument(
        "--rules", default=None, help="mutate only the documents of these rule sets (a,b,...)"
    )
    args = parser.parse_args()
    t0 = time.perf_counter()
    corpus = genuine()
    if args.rules:
        wanted = set(args.rules.split(","))
        corpus = [(label, text) for label, text in corpus if _rule_set_of(label) in wanted]
    print(f"{len(corpus)} genuine documents written in {time.perf_counter() - t0:.1f} s")
    if args.index is not None:
        label, text, strict = make_input(args.seed, args.index, corpus)
        print(f"input {args.index} ({label}), strict={strict}, {len(text):,} characters")
        print(text if len(text) <= 20_000 else text[:20_000] + " ...")
        print(_load(text, strict=strict))
        return 0
    outcomes: Counter[str] = Counter()
    by_rules: dict[str, Counter[str]] = {}
    unplanned: Counter[str] = Counter()
    first_seen: dict[str, int] = {}
    bad: list[tuple[int, str, str, str]] = []
    timings: list[tuple[float, int, int, str]] = []
    total = 0.0
    for index in range(args.docs):
        label, text, strict = make_input(args.seed, index, corpus)
        start = time.perf_counter()
        outcome, detail = _load(text, strict=strict)
        spent = time.perf_counter() - start
        total += spent
        outcomes[outcome] += 1
        by_rules.setdefault(_rule_set_of(label), Counter())[outcome] += 1
        timings.append((spent, index, len(text), label))
        if outcome in ("escaped", "wrong"):
            bad.append((index, outcome, label, detail))
        elif outcome == "refused":
            for mark in _UNPLANNED:
                if mark in detail:
                    message = detail[detail.index(mark) :].split(")")[0] + ")"
                    unplanned[message] += 1
                    first_seen.setdefault(message, index)
    slow = [t for t in timings if t[0] > args.timeout]
    accepted = outcomes["accepted"] + outcomes["wrong"]
    print(
        f"{args.docs:,} inputs (seed {args.seed}): {accepted:,} accepted"
        f" ({outcomes['wrong']:,} of them wrong by the independent re-scoring),"
        f" {outcomes['refused']:,} refused, {outcomes['escaped']:,} escaped,"
        f" {len(slow):,} over {args.timeout:g} s"
    )
    print(
        f"from_json and the re-scoring: {total:.1f} s in all, mean"
        f" {1000 * total / max(args.docs, 1):.2f} ms, median"
        f" {1000 * statistics.median(t for t, *_ in timings):.2f} ms"
        if timings
        else "no input"
    )
    print("by rule set: inputs, accepted, wrong")
    for name, counts in sorted(by_rules.items()):
        print(
            f"  {name:14} {sum(counts.values()):8,} {counts['accepted'] + counts['wrong']:8,}"
            f" {counts['wrong']:6,}"
        )
    if unplanned:
        print("refusals of errors nobody planned for:")
        for message, count in unplanned.most_common():
            print(f"  {count:6,}  {message}, first in #{first_seen[message]}")
    print("5 slowest inputs:")
    for spent, index, size, label in sorted(timings, reverse=True)[:5]:
        print(f"  {spent * 1000:9.1f} ms  {size:>11,} chars  #{index}  {label}")
    per_kb = sorted(timings, key=lambda t: t[0] / max(t[2], 1), reverse=True)[:5]
    print("5 slowest per KB (of inputs of 1 KB or more):")
    big = [t for t in timings if t[2] >= 1024]
    for spent, index, size, label in sorted(big, key=lambda t: t[0] / t[2], reverse=True)[:5]:
        print(f"  {spent * 1e6 * 1024 / size:9.1f} us/KB  {size:>11,} chars  #{index}  {label}")
    # Peak memory: the slowest per KB and the largest inputs read again under tracemalloc.
    again = {t[1] for t in per_kb} | {t[1] for t in sorted(timings, key=lambda t: -t[2])[:5]}
    peak = 0
    for index in sorted(again):
        _, text, strict = make_input(args.seed, index, corpus)
        tracemalloc.start()
        _load(text, strict=strict)
        peak = max(peak, tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    print(
        f"peak memory of one input (tracemalloc, {len(again)} worst inputs): {peak / 2**20:.1f} MiB"
    )
    for index, outcome, label, detail in bad[:10]:
        print(f"{outcome.upper()} #{index} ({label}): {detail}")
    return 1 if bad or slow else 0


if __name__ == "__main__":
    sys.exit(main())

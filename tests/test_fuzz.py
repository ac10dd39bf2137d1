"""Fuzzing the edges: whatever the text, `from_json` and `parse_move` raise only XeriError.

Over 10,000 hypothesis examples run in the suite: valid documents of every
type mutated at random (values replaced by other JSON values, huge numbers,
NaN, booleans, fields removed, added or repeated, cards duplicated or
swapped, seats moved, text cut or doubled keys), of format versions 2 and 1,
and arbitrary text. Every text that strict loading accepts must be what
`to_json` writes for its version. For a longer run see
`tests/fuzz/fuzz_json.py`.
"""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xeri
from edge_games import PISTI, VARIANTS, game, states
from xeri import InvalidStateError, XeriError, from_json, observe, to_json
from xeri._io.serialize import _text

FUZZ = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
UNEXPECTED = ("cannot be read (", "cannot be replayed (")
"""Problems reported when an error nobody planned for was caught: a bug to look at."""


@cache
def corpus() -> tuple[str, ...]:
    """Valid documents of every type, from several rule sets and phases."""
    docs: list[object] = []
    for rules in (xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN, PISTI, VARIANTS[0], VARIANTS[-1]):
        docs.append(rules)
        steps = list(game(rules, 7, rounds=1))
        for i in (0, 1, 9, 20, len(steps) - 1):
            state, move = steps[min(i, len(steps) - 1)]
            docs.append(state)
            docs.append(observe(state, 0))
            if move is not None:
                docs.append(move)
        state, rec = xeri.record(rules, rng=random.Random(1))
        for _ in range(12):
            move = xeri.legal_moves(state)[0]
            state, rec = xeri.apply(state, move), rec.then(move)
        docs.append(rec)
    pisti = next(s for s in states(PISTI, 3) if s.takes)
    docs.extend(observe(pisti, seat) for seat in range(2))
    redealt = xeri.new_game(xeri.GREEK, rng=random.Random(5))  # G4: one table redealt
    assert redealt.redealt
    docs.extend((redealt, observe(redealt, 0)))
    texts = [to_json(d) for d in docs]
    # Format version 1, which has no `redealt`, for the values it can hold.
    texts.extend(
        _text(d, 1)
        for d in docs[::3]
        if not isinstance(d, xeri.GameState | xeri.Observation) or not d.redealt
    )
    return tuple(texts)


def _keys(value: object, out: set[str]) -> set[str]:
    if isinstance(value, dict):
        out.update(value)
        for v in value.values():
            _keys(v, out)
    elif isinstance(value, list):
        for v in value:
            _keys(v, out)
    return out


@cache
def field_names() -> tuple[str, ...]:
    found: set[str] = set()
    for text in corpus():
        _keys(json.loads(text), found)
    return tuple(sorted(found))


CARD_NAMES = tuple(c.ascii for c in xeri.DECK)
WORDS = (
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
    "move",
    "rules",
    "record",
    "PileCapture",
    "SumCapture",
    "StandardScorer",
    "TargetScore",
    "FixedRounds",
    "10♦",
    "td",
    "",
)
SPECIAL_NUMBERS = (
    0,
    1,
    -1,
    2,
    3,
    4,
    51,
    52,
    53,
    2**53 - 1,
    2**53,
    -(2**53),
    10**30,
    2**63,
    10**400,
    0.5,
    1.0,
    -0.0,
    1e308,
    float("nan"),
    float("inf"),
    float("-inf"),
)


def random_value(rng: random.Random, depth: int = 0) -> object:
    """A random JSON value, leaning to the awkward: huge or non-finite numbers, booleans,
    card names and words of the format, short lists and objects."""
    kind = rng.randrange(10 if depth < 2 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return rng.random() < 0.5
    if kind == 2:
        return rng.choice(SPECIAL_NUMBERS)
    if kind == 3:
        return rng.randint(-(2**70), 2**70) if rng.random() < 0.3 else rng.randint(-3, 60)
    if kind == 4:
        return rng.choice(CARD_NAMES)
    if kind == 5:
        return rng.choice(WORDS)
    if kind == 6:
        return "".join(
            chr(rng.choice([rng.randrange(32, 127), rng.randrange(0x10000)]))
            for _ in range(rng.randrange(6))
        )
    if kind in (7, 8):
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ("card", "kind", "seat", "cards", *field_names())
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(4))}


DEEP = "@deep@"
OPS = ("replace", "delete", "insert", "duplicate", "swap", "nudge", "card", "nest")


def _paths(value: object, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(_paths(v, (*path, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(_paths(v, (*path, i)))
    return out


def _at(doc: object, path: tuple[Any, ...]) -> Any:
    for step in path:
        doc = doc[step]  # type: ignore[index]
    return doc


def mutate(rng: random.Random, doc: Any, value: object) -> Any:
    """One random change somewhere in a parsed document; `value` is a new JSON value to use."""
    paths = _paths(doc)
    path = paths[rng.randrange(len(paths))]
    op = rng.choice(OPS)
    target = _at(doc, path)
    if op == "replace" or (op == "nest" and not path):
        if not path:
            return value
        _at(doc, path[:-1])[path[-1]] = value
    elif op == "nest":  # `render` writes the marker as nested arrays, too deep to build here
        depth = rng.choice([2, 50, 900, 3000, 100_000])
        _at(doc, path[:-1])[path[-1]] = f"{DEEP}{depth}"
    elif op == "delete" and path:
        del _at(doc, path[:-1])[path[-1]]
    elif op == "insert" and isinstance(target, dict):
        target[rng.choice(field_names())] = value
    elif op == "insert" and isinstance(target, list):
        target.insert(rng.randint(0, len(target)), value)
    elif op == "duplicate" and isinstance(target, list) and target:
        target.insert(rng.randint(0, len(target)), copy.deepcopy(rng.choice(target)))
    elif op == "swap" and isinstance(target, list) and len(target) > 1:
        i, j = rng.randrange(len(target)), rng.randrange(len(target))
        target[i], target[j] = target[j], target[i]
    elif op == "nudge" and type(target) is int and path:
        _at(doc, path[:-1])[path[-1]] = target + rng.choice([-2, -1, 1, 2, 52])
    elif op == "card" and path and target in CARD_NAMES:
        _at(doc, path[:-1])[path[-1]] = rng.choice(CARD_NAMES)
    return doc


def render(rng: random.Random, doc: Any) -> str:
    """The document as text: canonical mostly, sometimes another layout or damaged."""
    style = rng.choice(["canonical"] * 6 + ["pretty", "unsorted", "cut", "dupkey"])
    if style == "pretty":
        text = json.dumps(doc, indent=1, ensure_ascii=False)
    elif style == "unsorted":
        text = json.dumps(doc)
    else:
        text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    while DEEP in text:
        start = text.index(f'"{DEEP}')
        end = text.index('"', start + 1)
        depth = int(text[start + 1 + len(DEEP) : end])
        text = text[:start] + "[" * depth + "]" * depth + text[end + 1 :]
    if style == "cut" and text:
        return text[: rng.randrange(len(text))]
    if style == "dupkey" and text.startswith("{"):
        return '{"version":1,' + text[1:]
    return text


def load(text: str, *, strict: bool) -> object:
    """`from_json(text)`, or the XeriError it raised."""
    try:
        return from_json(text, strict=strict)
    except XeriError as exc:
        return exc


def check_loading(text: str) -> None:
    """The contract of `from_json`, for both modes."""
    for strict in (True, False):
        value = load(text, strict=strict)
        if isinstance(value, XeriError):
            assert isinstance(value, InvalidStateError)
            assert value.problems
            assert all(isinstance(p, str) and p for p in value.problems)
            assert not any(u in p for p in value.problems for u in UNEXPECTED), value.problems
            continue
        out = to_json(value)
        if strict:  # the canonical text of the version read (a record: of the library it names)
            doc = json.loads(text)
            data = doc.get("data")
            named = data.get("library") if isinstance(value, xeri.GameRecord) else None
            assert _text(value, doc["version"], library=named) == text
        assert from_json(out) == value


@settings(FUZZ, max_examples=7500)
@given(st.sampled_from(range(len(corpus()))), st.integers(1, 3), st.integers(0, 2**64))
def test_fuzz_mutated_documents(index, changes, seed):
    # Hypothesis draws the document and a seed; the seed drives every choice of
    # where and how to change it (drawing each choice from hypothesis costs more
    # than the check itself).
    rng = random.Random(seed)
    doc = json.loads(corpus()[index])
    for _ in range(changes):
        doc = mutate(rng, doc, random_value(rng))
    check_loading(render(rng, doc))


@settings(FUZZ, max_examples=2500)
@given(st.text() | st.from_regex(r'\A[\[\]{}",:0-9a-zA-Z\\ .eE+-]*\Z'))
def test_fuzz_arbitrary_text(text):
    check_loading(text)


@cache
def move_states() -> tuple[xeri.GameState, ...]:
    out = []
    for rules in (xeri.GREEK, xeri.GERMAN, VARIANTS[-1]):
        out.extend(s for s in states(rules, 2, every=7) if s.to_move is not None)
    return tuple(out)


MOVE_TEXT = st.text() | st.lists(
    st.sampled_from([*CARD_NAMES, "10♦", "td", "takes", "on", "makes", "free", "+", "[", "]", "="])
    | st.integers(-5, 20).map(str),
    max_size=8,
).map(" ".join)


@settings(FUZZ, max_examples=1000)
@given(st.data(), MOVE_TEXT)
def test_fuzz_move_text(data, text):
    state = data.draw(st.sampled_from(move_states()))
    try:
        move = xeri.parse_move(state, text)
    except xeri.IllegalMoveError:
        return
    assert move in xeri.legal_moves(state)
    assert xeri.parse_move(state, str(move)) == move


def test_fuzz_record_naming_another_library_version():
    # Found by the mutation fuzz: a record keeps the library version it names,
    # and its canonical text is the one written with that version; writing the
    # record again stamps this library's version.
    text = next(t for t in corpus() if '"library":' in t)
    doc = json.loads(text)
    doc["data"]["library"] = "7D"
    changed = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    check_loading(changed)
    assert isinstance(from_json(changed), xeri.GameRecord)  # read strictly, as it names it

"""JSON from anyone: oversized, deeply nested or repetitive input is refused, with bounded work.

Each test builds a hostile text and checks that `from_json` refuses it with
an `InvalidStateError` whose problems are few and short. How long loading
takes is measured by `benchmarks/json_load.py`, not asserted here.
"""

from __future__ import annotations

import json
import random
import types

import attrs
import pytest

import xeri
from xeri import InvalidStateError, from_json, to_json
from xeri._io import serialize
from xeri._io.serialize import _MAX_PROBLEMS, MAX_DEPTH, MAX_TEXT_LENGTH
from xeri._rules import ruleset


def refused(text: str, *, strict: bool = True) -> tuple[str, ...]:
    with pytest.raises(InvalidStateError) as info:
        from_json(text, strict=strict)
    problems = info.value.problems
    assert 1 <= len(problems) <= _MAX_PROBLEMS + 1
    assert all(isinstance(p, str) and 0 < len(p) < 500 for p in problems)
    return problems


def document(kind: str, data: str, version: int = 2) -> str:
    return f'{{"data":{data},"format":"xeri","type":"{kind}","version":{version}}}'


def state_text() -> str:
    return to_json(xeri.new_game(xeri.GREEK, rng=random.Random(4), dealer=0))


# --------------------------------------------------------------------------
# Size


def test_text_longer_than_the_limit_is_refused_before_parsing(monkeypatch):
    text = state_text()
    padded = text[:-1] + " " * (MAX_TEXT_LENGTH - len(text)) + "}"
    assert len(padded) == MAX_TEXT_LENGTH
    assert from_json(padded, strict=False) == from_json(text)  # at the limit: read
    longer = text[:-1] + " " * (MAX_TEXT_LENGTH + 1 - len(text)) + "}"

    def no_parsing(*args, **kwargs):
        raise AssertionError("parsed")

    monkeypatch.setattr(serialize, "json", types.SimpleNamespace(loads=no_parsing))
    monkeypatch.setattr(serialize, "_check_shape", no_parsing)
    problems = refused(longer, strict=False)
    assert f"more than the {MAX_TEXT_LENGTH}" in problems[0]


def test_a_long_record_fits_the_limit_several_times(monkeypatch):
    # German records are the longest per round (moves are objects); a record
    # of 60 rounds, written and read back, is far below the limit, which
    # leaves room for matches of several hundred rounds. The rule set is
    # registered for this test only: the registry is restored afterwards, so
    # tests that list the registered rule sets (the CLI's) see no extra name.
    monkeypatch.setattr(ruleset, "_REGISTRY", dict(ruleset._REGISTRY))
    rules = xeri.register(
        attrs.evolve(xeri.GERMAN, name="german-long-test", match=xeri.FixedRounds(rounds=60)),
        replace=True,
    )
    rng = random.Random(11)
    state, rec = xeri.record(rules, rng=rng, dealer=0)
    while not state.is_over:
        move = (
            xeri.chance_move(state, rng) if state.is_chance else rng.choice(xeri.legal_moves(state))
        )
        state, rec = xeri.apply(state, move), rec.then(move)
    text = to_json(rec)
    assert len(text) * 8 < MAX_TEXT_LENGTH  # 480 rounds would fit
    assert from_json(text) == rec
    assert from_json(to_json(state)) == state


# --------------------------------------------------------------------------
# Many bad elements: the problem cap stops the reading


def test_a_million_bad_stock_entries_are_refused_with_one_problem():
    # The document: 2 MB, a million bad entries in the stock.
    doc = json.loads(state_text())
    doc["data"]["stock"] = [0] * 1_000_000
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    assert 2_000_000 < len(text) < MAX_TEXT_LENGTH
    problems = refused(text)
    assert problems == ("expected at most 52 cards, not 1000000 @ $.data.stock",)


def test_a_million_bad_moves_stop_the_reading_at_the_problem_cap():
    text = document(
        "record", '{"dealer":0,"moves":[' + ",".join(["0"] * 1_000_000) + '],"rules":"greek"}'
    )
    assert len(text) > 2_000_000
    problems = refused(text)
    assert len(problems) == _MAX_PROBLEMS + 1
    assert problems[0].endswith("@ $.data.moves[0]")
    assert problems[_MAX_PROBLEMS - 1].endswith(f"@ $.data.moves[{_MAX_PROBLEMS - 1}]")
    assert problems[-1] == f"reading stopped at {_MAX_PROBLEMS} problems"


def test_a_million_bad_fields_stop_at_the_cap_too():
    fields = ",".join(f'"f{i}":0' for i in range(200_000))
    problems = refused(document("record", "{" + fields + "}"), strict=False)
    assert "unexpected fields" in problems[0]
    assert len(problems) <= 3


def test_fewer_problems_than_the_cap_are_all_listed():
    text = document("record", '{"dealer":0,"moves":[' + ",".join(["0"] * 7) + '],"rules":"greek"}')
    assert len(refused(text)) == 7


# --------------------------------------------------------------------------
# Nesting


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 1000, 1_000_000])
def test_nesting_deeper_than_the_limit_is_refused(depth):
    # The document is level 1 and "data" level 2: the list starts at level 2.
    nested = "[" * (depth - 1) + "]" * (depth - 1)
    problems = refused(document("move", nested))
    assert problems == (f"the JSON text nests deeper than {MAX_DEPTH} levels",)
    zigzag = '{"a":[' * (depth // 2 + 1) + "1" + "]}" * (depth // 2 + 1)
    assert refused(zigzag) == problems
    assert refused("[" * depth) == problems  # never closed, and deep


def test_nesting_up_to_the_limit_is_parsed_and_refused_by_type():
    nested = "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    problems = refused(document("move", nested))
    assert problems == ("expected a card or a move object, not a list @ $.data",)


@pytest.mark.parametrize(
    "text", ["[" * 10, "]" * 100_000, "[{" * 5, '{"a":[[]}', "[]]", '"a"]', "[]" * 100_000 + "]"]
)
def test_brackets_that_do_not_pair_up_are_not_json(text):
    assert refused(text) == ("not JSON: its brackets [] and {} do not pair up",)


def test_brackets_and_digits_inside_strings_do_not_count():
    deep = "[" * 1000 + "]" * 1000
    problems = refused(document("move", json.dumps(deep)), strict=False)
    assert "is not a card name" in problems[0]
    digits = "1" * 50
    problems = refused(document("rules", json.dumps(digits)))
    assert "no rule set is registered" in problems[0]
    escaped = json.dumps('a"[[[' * 1000)
    assert "is not a card name" in refused(document("move", escaped))[0]


# --------------------------------------------------------------------------
# Numbers and strings


@pytest.mark.parametrize(
    "number", ["1" * 25, "-" + "9" * 4000, "1" * 1_000_000, "0." + "0" * 30 + "1", "1e" + "9" * 30]
)
def test_numbers_written_with_more_than_24_characters_are_refused_unconverted(number):
    text = state_text().replace('"dealer":0', f'"dealer":{number}')
    assert refused(text) == ("a number is written with more than 24 characters",)


@pytest.mark.parametrize("number", [2**53, -(2**53), 10**23, 1e300, 1.5, True])
def test_numbers_beyond_53_bits_or_not_integers_are_refused(number):
    doc = json.loads(state_text())
    doc["data"]["dealer"] = number
    problems = refused(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    assert problems[0].startswith("expected a seat from 0 to 7")
    assert problems[0].endswith("@ $.data.dealer")


@pytest.mark.parametrize("where", ["card", "rules", "key", "phase", "unterminated", "escapes"])
def test_long_strings_give_short_messages(where):
    long = "x" * 1_000_000
    doc = json.loads(state_text())
    if where == "card":
        doc["data"]["stock"][0] = long
    elif where == "rules":
        doc["data"]["rules"] = long
    elif where == "key":
        doc["data"][long] = 1
    elif where == "phase":
        doc["data"]["phase"] = long
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    if where == "unterminated":
        text = text[:-2] + '"' + long
    elif where == "escapes":
        text = text[:-2] + '"' + '\\"' * 1_000_000
    for strict in (True, False):
        refused(text, strict=strict)


def test_a_rule_set_by_fields_with_a_long_name_is_refused_with_a_short_message():
    data = json.loads(to_json(attrs.evolve(xeri.GREEK, name="greek-x")))["data"]
    data["name"] = "a" * 100_000
    problems = refused(document("rules", json.dumps(data)), strict=False)
    assert problems == ("expected a string of at most 64 characters @ $.data.name",)


def test_huge_counts_in_a_rule_set_are_refused_without_building_them():
    for field, value in (("seats", 10**9), ("sides", [0, 10**9])):
        data = json.loads(to_json(attrs.evolve(xeri.GREEK, name="greek-x")))["data"]
        data[field] = value
        problems = refused(document("rules", json.dumps(data)), strict=False)
        assert f"$.data.{field}" in problems[0]

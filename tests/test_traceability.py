"""Every clause of the rules has a test named by it and a row in the traceability table.

The clause ids come from `seeds/clauses.txt`; a test covers a clause when its
name starts with `test_<ID>_`. Each clause is also an anchor of the rules
pages (`[](){#rules-g7}`), which docstrings link to as `[G7][rules-g7]`.
`seeds/make_traceability.py` regenerates the table's test column; the last
test here fails while the committed table is out of date.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES_PAGES = ROOT / "docs" / "rules"
SCRIPT = ROOT / "seeds" / "make_traceability.py"

# The clause groups of the rule reference and how many clauses each has.
GROUPS = {"G": 12, "F": 8, "V": 5, "D": 9, "X": 5, "P": 5, "S": 6, "C": 7, "K": 2, "W": 4}


def _load_script():
    spec = importlib.util.spec_from_file_location("make_traceability", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


trace = _load_script()
CLAUSES = trace.read_clauses()
CLAUSE_IDS = [clause for clause, _ in CLAUSES]


def test_clause_list_has_every_group_numbered_without_gaps():
    assert len(CLAUSE_IDS) == len(set(CLAUSE_IDS)), "a clause id is listed twice"
    expected = [f"{group}{n}" for group, count in GROUPS.items() for n in range(1, count + 1)]
    assert sorted(CLAUSE_IDS) == sorted(expected)
    assert all(title for _, title in CLAUSES)


@pytest.mark.parametrize(
    ("name", "ids"),
    [
        ("test_G7_jack_xeri", ["G7"]),
        ("test_G7_G12_bonus_examples", ["G7", "G12"]),
        ("test_d4_owner_may_not_trail", ["D4"]),
        ("test_deck_has_52_cards", []),
        ("helper_G7", []),
    ],
)
def test_clause_ids_are_read_from_test_names(name, ids):
    assert trace.clause_ids_of(name) == ids


def _anchored() -> list[str]:
    """The clause ids anchored on the rules pages, upper case, in page order."""
    return [
        identifier.upper()
        for page in sorted(RULES_PAGES.glob("*.md"))
        for identifier in re.findall(
            r"\[\]\(\)\{#rules-([a-z]\d+)\}", page.read_text(encoding="utf-8")
        )
    ]


@pytest.mark.parametrize("clause", CLAUSE_IDS)
def test_clause_has_an_anchor_on_a_rules_page(clause):
    assert _anchored().count(clause) == 1, (
        f"write [](){{#rules-{clause.lower()}}} before {clause} on one page of docs/rules/"
    )


def test_rules_pages_anchor_no_unknown_clause():
    assert sorted(set(_anchored()) - set(CLAUSE_IDS)) == []


@functools.cache
def _covered() -> frozenset[str]:
    return frozenset(clause for clause, names in trace.collect_tests().items() if names)


@pytest.mark.parametrize("clause", CLAUSE_IDS)
def test_clause_has_a_test_named_by_it(clause):
    assert clause in _covered(), f"no test in tests/ is named test_{clause}_..."


def test_traceability_table_lists_every_clause_once():
    text = (ROOT / "seeds" / "traceability.md").read_text(encoding="utf-8")
    rows = re.findall(
        r"^\| \[([A-Z]\d{1,2})\]\[rules-([a-z]\d{1,2})\] \|", text, flags=re.MULTILINE
    )
    assert sorted(clause for clause, _ in rows) == sorted(CLAUSE_IDS)
    assert all(anchor == clause.lower() for clause, anchor in rows), "a row links another clause"
    expressed = trace.read_expressed()
    assert [c for c in CLAUSE_IDS if not expressed.get(c)] == [], "rows without 'expressed by'"


def test_traceability_table_is_up_to_date():
    committed = (ROOT / "seeds" / "traceability.md").read_text(encoding="utf-8")
    assert trace.generate() == committed, (
        "seeds/traceability.md is out of date: run python seeds/make_traceability.py"
    )


def test_traceability_page_lists_each_clauses_tests_under_that_clause():
    text = (ROOT / "seeds" / "traceability.md").read_text(encoding="utf-8")
    tests = trace.collect_tests()
    for clause in CLAUSE_IDS:
        anchor = f"[](){{#tests-{clause.lower()}}}"
        assert text.count(anchor) == 1, clause
        block = text.split(anchor, 1)[1].split("[](){#tests-", 1)[0]
        listed = re.findall(r"^    - `([^`]+)`$", block, flags=re.MULTILINE)
        assert listed == tests[clause], clause
        count = len(tests[clause])
        assert f"[{count}][tests-{clause.lower()}]" in text, clause

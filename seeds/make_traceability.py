"""Regenerate `seeds/traceability.md` from the clause list and the test names.

The page has one table per group of clauses (`G`, `F`, ...), one row per
clause id of `seeds/clauses.txt`, then the tests grouped by clause. The
columns of a row:

* **clause**: the id, linked to its anchor on the rules pages (`[G7][rules-g7]`);
* **tests**: generated: how many test functions under `tests/` have a name
  that starts with `test_<ID>_` (several ids may follow each other,
  `test_G7_G12_...`; case does not matter), linked to the clause's list of
  them, as `file::function`, in a block that opens on a click;
* **title**: from `seeds/clauses.txt`;
* **expressed by**: the rule-set fields or components that carry the clause,
  written by hand in `seeds/traceability.md` and kept as they are.

Run it from anywhere after adding or renaming tests:

    python seeds/make_traceability.py          # rewrite the table
    python seeds/make_traceability.py --check  # exit 1 if the table is out of date

`tests/test_traceability.py` runs the check, so a stale table fails the
test suite.

A clause of any letter is listed once `seeds/clauses.txt` has a line for
it. A new rules page that anchors clauses of its own (`[](){#rules-s1}`)
therefore needs its lines there too: until it has them, the script names
the missing lines and exits 1 without writing.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAUSES = ROOT / "seeds" / "clauses.txt"
TABLE = ROOT / "seeds" / "traceability.md"
TESTS = ROOT / "tests"
RULES_PAGES = ROOT / "docs" / "rules"

_CLAUSE_LINE = re.compile(r"([A-Z])(\d{1,2})\s+(\S.*)")
_ID_TOKEN = re.compile(r"([A-Za-z])(\d{1,2})")
# A clause row: `| [G7][rules-g7] | ...`; a bare `| G7 | ...` is read too.
_ROW = re.compile(r"^\|\s*\[?([A-Z]\d{1,2})(?:\]\[rules-[a-z]\d{1,2}\])?\s*\|(.*)\|\s*$")
_ANCHOR = re.compile(r"\[\]\(\)\{#rules-([a-z])(\d{1,2})\}")
MISSING = "*none yet*"

HEADER = """\
# Traceability: clauses, options and tests

Every clause of the rules (ids as in the project's rule reference and on the
rules pages of the documentation) mapped to what expresses it in the library
and to the tests that check it. The *expressed by* column names `RuleSet`
fields with their value in the preset concerned (the options reference of
the documentation describes each one), or the component or function that
carries the rule.

The *tests* column is generated: a test covers a clause when its name
starts with `test_<ID>_`; the number links to the list of those tests, by
clause, below the tables. After adding or renaming tests, regenerate it with
`python seeds/make_traceability.py`; the test suite fails while this page is
out of date, and while any clause has no test.
"""

GROUPS = {
    "G": "Greek Xeri",
    "F": "Four players",
    "V": "Variants of the four-player tradition",
    "D": "German Xeri",
    "X": "Every game: scoring, hidden cards, chance, illegal moves",
    "P": "Turkish Pişti",
    "S": "Scopa",
    "C": "Cassino",
}
"""The heading of each group of clauses, by its letter, in page order."""


def read_clauses(path: Path = CLAUSES) -> list[tuple[str, str]]:
    """The `(id, title)` pairs of the clause list, in file order.

    Blank lines and lines starting with `#` are skipped.

    Raises:
        ValueError: a line is neither blank, a comment nor `ID  title`.
    """
    clauses: list[tuple[str, str]] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        match = _CLAUSE_LINE.fullmatch(text)
        if match is None:
            msg = f"{path.name}:{number}: expected 'ID  title', got {text!r}"
            raise ValueError(msg)
        clauses.append((match[1] + match[2], match[3].strip()))
    return clauses


def clause_ids_of(test_name: str) -> list[str]:
    """The clause ids a test function's name starts with, upper-cased.

    `test_G7_G12_jack_xeri` gives `["G7", "G12"]`; `test_deck_order` gives `[]`.
    """
    if not test_name.startswith("test_"):
        return []
    ids: list[str] = []
    for token in test_name[len("test_") :].split("_"):
        match = _ID_TOKEN.fullmatch(token)
        if match is None:
            break
        ids.append(match[1].upper() + match[2])
    return ids


def _test_functions(tree: ast.Module) -> list[str]:
    """Names of the test functions of a module: top level and in `Test*` classes."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            names.extend(
                f"{node.name}::{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return names


def collect_tests(tests: Path = TESTS) -> dict[str, list[str]]:
    """Map each clause id to the tests named by it, as `file::function`, sorted."""
    found: dict[str, list[str]] = {}
    for path in sorted(tests.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        where = path.relative_to(tests).as_posix()
        for name in _test_functions(tree):
            for clause in clause_ids_of(name.rsplit("::", 1)[-1]):
                found.setdefault(clause, []).append(f"{where}::{name}")
    return {clause: sorted(set(names)) for clause, names in found.items()}


def read_expressed(path: Path = TABLE) -> dict[str, str]:
    """The hand-written *expressed by* cell of each clause row of the current table."""
    if not path.exists():
        return {}
    cells: dict[str, str] = {}
    where = 1  # the column of *expressed by* after the clause's, as the table's head says
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("| clause |"):
            names = [c.strip() for c in line.strip().strip("|").split("|")]
            where = names.index("expressed by") - 1
            continue
        match = _ROW.match(line)
        if match is None:
            continue
        columns = [c.strip() for c in match[2].split(" | ")]
        if len(columns) > where:
            cells[match[1]] = columns[where]
    return cells


def anchored(pages: Path = RULES_PAGES) -> dict[str, str]:
    """The clause ids anchored on the rules pages (`[](){#rules-g7}`), each with its page's name."""
    found: dict[str, str] = {}
    for page in sorted(pages.glob("*.md")):
        for match in _ANCHOR.finditer(page.read_text(encoding="utf-8")):
            found.setdefault(match[1].upper() + match[2], page.name)
    return found


def unlisted(clauses: list[tuple[str, str]], pages: dict[str, str]) -> list[tuple[str, str]]:
    """The `(id, page)` pairs of clauses anchored on a rules page but missing from the list."""
    listed = {clause for clause, _ in clauses}
    return [(clause, page) for clause, page in pages.items() if clause not in listed]


def render(
    clauses: list[tuple[str, str]], expressed: dict[str, str], tests: dict[str, list[str]]
) -> str:
    """The whole text of the traceability page: a table per group, then the tests by clause."""
    letters = list(GROUPS) + sorted({c[0] for c, _ in clauses} - set(GROUPS))
    lines = [HEADER]
    for letter in letters:
        group = [(clause, title) for clause, title in clauses if clause[0] == letter]
        if not group:
            continue
        span = f"{group[0][0]}–{group[-1][0]}" if len(group) > 1 else group[0][0]
        lines += [
            f"## {GROUPS.get(letter, letter)} ({span})",
            "",
            "| clause | tests | title | expressed by |",
            "|---|---|---|---|",
        ]
        for clause, title in group:
            anchor = clause.lower()
            count = len(tests.get(clause, []))
            cell = f"[{count}][tests-{anchor}]" if count else MISSING
            lines.append(
                f"| [{clause}][rules-{anchor}] | {cell} | {title} | {expressed.get(clause, '')} |"
            )
        lines.append("")
    lines += ["## Tests by clause", ""]
    for clause, title in clauses:
        names = tests.get(clause, [])
        if not names:
            continue
        anchor = clause.lower()
        tested = f"{len(names)} test{'s' if len(names) != 1 else ''}"
        lines += [f"[](){{#tests-{anchor}}}", "", f'??? note "{clause}: {title} ({tested})"', ""]
        lines += [f"    [{clause}][rules-{anchor}] on the rules page; its tests:", ""]
        lines += [f"    - `{name}`" for name in names]
        lines.append("")
    return "\n".join(lines).rstrip("\n") + "\n"


def generate() -> str:
    """The table as it should be now, from the clause list, the table and the tests."""
    return render(read_clauses(), read_expressed(), collect_tests())


def main(argv: list[str] | None = None) -> int:
    """Rewrite the table, or with `--check` report whether it is up to date."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the table is out of date")
    args = parser.parse_args(argv)
    missing = unlisted(read_clauses(), anchored())
    if missing:
        for clause, page in missing:
            print(
                f"{clause} is a clause of docs/rules/{page} but seeds/clauses.txt has no line "
                f"for it: add '{clause}  <short title>'",
                file=sys.stderr,
            )
        return 1
    text = generate()
    current = TABLE.read_text(encoding="utf-8") if TABLE.exists() else ""
    if args.check:
        if text != current:
            print("seeds/traceability.md is out of date: run python seeds/make_traceability.py")
            return 1
        return 0
    if text != current:
        TABLE.write_text(text, encoding="utf-8")
        print("seeds/traceability.md rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())

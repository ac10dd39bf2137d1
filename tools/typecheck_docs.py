"""Type-check the examples of the docs and the README with mypy.

Run: `python tools/typecheck_docs.py` (needs mypy 1.16 or later, from the
`dev` extra, and the extras the examples import: `pip install -e ".[dev]"`).

Every Python example of a page (doctest sessions, taking their `>>>` and
`...` lines, and plain `python` blocks) is joined in page order into one
module, since later examples use the names of earlier ones, and the pages'
modules are checked together with the project's mypy configuration
(`pyproject.toml`: its Python version and its settings for the frameworks
that ship no types), that is `--strict` except that the examples' own small
functions may go unannotated: their bodies are still checked
(`--check-untyped-defs`), with `Any` for their parameters.

Besides mypy's findings, a call of `from_json` without `expect=` is an
error: the docs load a document as the class they mean, so that the value
has that type (`xeri.from_json(text, expect=xeri.GameState)`).

Exits non-zero on any error, naming the page and its line.
"""

from __future__ import annotations

import ast
import re
import sys
import tempfile
from pathlib import Path

from mypy import api
from mypy.version import __version__ as mypy_version

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,})\s*(?P<info>[^`\s]*)[^`]*$")
LANGUAGES = frozenset({"pycon", "python", "py"})
OPTIONS = [
    # `strict = true` comes from the project's configuration; the examples
    # are prose, and may define small helpers without annotations.
    "--allow-untyped-defs",
    "--allow-incomplete-defs",
    "--allow-untyped-calls",
    "--warn-unreachable",
    "--no-incremental",
    "--hide-error-context",
    "--no-error-summary",
]
# A session reuses names (`state`, `seen`, `action`) for values of other
# types, also inside loops: mypy 2's `--allow-redefinition` allows that; in
# mypy 1 (from 1.16) it is `--allow-redefinition-new`, with local partial types.
REDEFINITION = (
    ["--allow-redefinition"]
    if int(mypy_version.split(".")[0]) >= 2
    else ["--allow-redefinition-new", "--local-partial-types"]
)
Origin = tuple[Path, list[int]]


def pages() -> list[Path]:
    """The pages whose examples are checked: the docs, then the README."""
    return [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]


def blocks(text: str) -> list[tuple[int, list[str]]]:
    """The page's Python code blocks: each block's first line number and its lines.

    A block is Python when its fence says `pycon`, `python` or `py`, or when
    it holds a `>>>` line (the doctest runner runs those whatever the fence
    says). A fence may be indented, inside a list item: its lines are taken
    without that indentation.
    """
    found: list[tuple[int, list[str]]] = []
    rows = text.split("\n")
    number = 0
    while number < len(rows):
        opening = FENCE.match(rows[number])
        number += 1
        if opening is None:
            continue
        indent, ticks = opening["indent"], opening["ticks"]
        first = number + 1
        body: list[str] = []
        while number < len(rows):
            row = rows[number]
            number += 1
            if row.strip().startswith(ticks) and not row.strip().strip("`"):
                break
            body.append(row[len(indent) :] if row.startswith(indent) else row.lstrip())
        session = any(row.startswith(">>>") for row in body)
        if opening["info"] in LANGUAGES or session:
            found.append((first, body))
    return found


def examples(page: Path) -> tuple[str, list[int]]:
    """The page's examples as one module, and for each of its lines the page's line."""
    lines: list[str] = []
    origin: list[int] = []
    for first, body in blocks(page.read_text(encoding="utf-8")):
        session = any(row.startswith(">>>") for row in body)
        for offset, row in enumerate(body):
            if session:
                if not row.startswith((">>> ", "... ")) and row not in (">>>", "..."):
                    continue  # the expected output, or prose around a session
                code = row[4:]
            else:
                code = row
            lines.append(code)
            origin.append(first + offset)
    return "\n".join(lines) + "\n", origin


def unexpected_loads(module: str) -> list[int]:
    """The module's lines that call `from_json` without `expect=`."""
    found = []
    for node in ast.walk(ast.parse(module)):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name == "from_json" and not any(k.arg == "expect" for k in node.keywords):
            found.append(node.lineno)
    return sorted(found)


def _page_order(problem: str) -> tuple[str, int]:
    """Sort findings by page, then line; mypy's other output goes last."""
    found = re.match(r"^(.*?):(\d+): ", problem)
    return (found.group(1), int(found.group(2))) if found else ("\uffff", 0)


def main() -> int:
    """Check every page; print the findings against the pages' own lines."""
    problems: list[str] = []
    where: dict[str, Origin] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for number, page in enumerate(pages()):
            module, origin = examples(page)
            if not module.strip():
                continue
            name = page.relative_to(ROOT).as_posix()
            try:
                loads = unexpected_loads(module)
            except SyntaxError as exc:
                line = origin[(exc.lineno or 1) - 1]
                problems.append(f"{name}:{line}: error: not Python: {exc.msg}")
                continue
            problems.extend(
                f"{name}:{origin[line - 1]}: error: from_json without expect=: "
                "pass the class the document holds, as expect=xeri.GameState"
                for line in loads
            )
            path = Path(tmp) / f"page_{number}.py"
            path.write_text(module, encoding="utf-8")
            where[str(path)] = (page, origin)
        out, err, status = api.run(
            [f"--config-file={ROOT / 'pyproject.toml'}", *OPTIONS, *REDEFINITION, *where]
        )
    for row in out.splitlines():
        found = re.match(r"^(.*?):(\d+): (.*)$", row)
        if found and found.group(1) in where:
            page, origin = where[found.group(1)]
            line = origin[int(found.group(2)) - 1]
            problems.append(f"{page.relative_to(ROOT).as_posix()}:{line}: {found.group(3)}")
        elif row.strip():
            problems.append(row)
    print(err, end="", file=sys.stderr)
    for problem in sorted(problems, key=_page_order):
        print(problem)
    errors = sum(": error:" in problem for problem in problems)
    if status or errors:
        print(f"{errors} error(s) in the examples of {len(where)} pages")
        return status or 1
    print(f"The examples of {len(where)} pages type-check.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

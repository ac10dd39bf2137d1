"""The documentation cannot drift from the code.

* the options page lists every field of `RuleSet` and every option of the
  built-in components, and its table of preset values, written by
  `tools/options_table.py`, is the one the six presets give and is
  evaluated against them;
* every public name of `xeri.__all__` is rendered once by an API page, from
  the facade (`::: xeri.apply`), every public subpackage has a page, and no
  page or rendered docstring names a private module;
* every page under docs/ is reachable from the navigation;
* every rule clause cited by a docstring (`[G7][rules-g7]`) has an anchor on
  a rules page, and no docstring cites the rules by a file name.

The examples of the pages themselves run as doctests (`--doctest-glob=*.md`).
"""

from __future__ import annotations

import ast
import enum
import importlib
import importlib.util
import re
from pathlib import Path

import attrs
import pytest
import yaml

import xeri
import xeri._rules.ruleset as rules_module

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
OPTIONS = (DOCS / "options.md").read_text(encoding="utf-8")
PRESETS = {
    "GREEK": xeri.GREEK,
    "GREEK_FOUR": xeri.GREEK_FOUR,
    "PISTI": xeri.PISTI,
    "GERMAN": xeri.GERMAN,
    "SCOPA": xeri.SCOPA,
    "CASSINO": xeri.CASSINO,
}

RULESET_FIELDS = [field.name for field in attrs.fields(xeri.RuleSet)]


def _table_rows(text: str) -> list[list[str]]:
    """The cells of every markdown table row of `text` (separator rows left out)."""
    rows = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith("|") or set(stripped) <= set("|-: "):
            continue
        rows.append([cell.strip() for cell in stripped.strip("|").split(" | ")])
    return rows


def _summary_table() -> tuple[list[str], dict[str, list[str]]]:
    """The header and the rows (by field name) of the options page's tables of presets, joined.

    The tables between the page's two marker comments have a row per field;
    their columns after the first are put side by side.
    """
    tool = _options_tool()
    region = OPTIONS[OPTIONS.index(tool.BEGIN) : OPTIONS.index(tool.END)]
    header = ["field"]
    by_field: dict[str, list[str]] = {}
    for block in re.findall(r"(?:^\|.*\n)+", region, flags=re.MULTILINE):
        head, *rows = _table_rows(block)
        assert head[0] == "field"
        header += head[1:]
        for row in rows:
            match = re.fullmatch(r"\[`(\w+)`\]\(#(\w+)\)", row[0])
            assert match, f"the first cell of each row links its field: {row[0]!r}"
            assert match[1] == match[2], f"{row[0]} links to another field's section"
            by_field.setdefault(match[1], [row[0]]).extend(row[1:])
    assert all(len(row) == len(header) for row in by_field.values()), "a field lacks a row"
    return header, by_field


def _code(cell: str) -> str | None:
    """The Python expression of a table cell written as `code`, else None."""
    match = re.fullmatch(r"`([^`]+)`", cell)
    return match[1] if match else None


def _evaluate(expression: str) -> object:
    namespace = {name: getattr(xeri, name) for name in xeri.__all__}
    return eval(expression, namespace)  # the cells are written as Python on purpose


def _options_tool():
    """The module `tools/options_table.py`, which writes the page's table of presets."""
    spec = importlib.util.spec_from_file_location(
        "options_table", ROOT / "tools" / "options_table.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_options_table_is_the_one_the_presets_give():
    tool = _options_tool()
    assert tool.page(OPTIONS) == OPTIONS, "the preset table is stale: run tools/options_table.py"
    assert tool.main(["--check"]) == 0


def test_options_table_has_a_column_for_every_preset():
    header, _ = _summary_table()
    presets = {name for name in xeri.__all__ if isinstance(getattr(xeri, name), xeri.RuleSet)}
    columns = {cell.strip("`") for cell in header if cell.startswith("`")}
    assert columns == presets == set(PRESETS)
    assert {rules.name for rules in PRESETS.values()} == rules_module._PRESETS


RULES_PAGES = sorted((DOCS / "rules").glob("*.md"))
COMPONENT_SECTIONS = {
    "pilecapture": "capture",
    "sumcapture": "capture",
    "pointstable": "card_points",
    "targetscore": "match",
    "fixedrounds": "match",
    "countout": "match",
}
"""The options page's sections of components, and the field each component is a value of."""


def _clause_ids(cell: str) -> set[str]:
    """The clause ids of a clauses cell: `G6, D3–D6` is G6, D3, D4, D5 and D6."""
    ids = set()
    for part in filter(None, (p.strip() for p in cell.replace("—", "").split(","))):
        first, _, last = part.partition("–")
        if last:
            ids.update(f"{first[0]}{n}" for n in range(int(first[1:]), int(last[1:]) + 1))
        else:
            ids.add(first)
    return ids


def _clauses_of_pages() -> dict[str, str]:
    """Every clause anchored on a rules page, by id, with its text."""
    clauses = {}
    for path in RULES_PAGES:
        parts = re.split(r"\[\]\(\)\{#rules-(\w+)\}", path.read_text(encoding="utf-8"))
        for anchor, text in zip(parts[1::2], parts[2::2], strict=True):
            clauses[anchor.upper()] = text.split("\n## ", 1)[0]
    return clauses


def test_options_table_cites_clauses_that_exist_and_every_clause_citing_the_field():
    header, rows = _summary_table()
    column = header.index("clauses")
    clauses = _clauses_of_pages()
    for field, row in rows.items():
        cited = _clause_ids(row[column])
        assert cited <= set(clauses), f"{field}: no such clause {sorted(cited - set(clauses))}"
        for clause, text in clauses.items():
            for section in re.findall(r"options\.md#(\w+)", text):
                if COMPONENT_SECTIONS.get(section, section) == field:
                    assert clause in cited, f"{clause} names the option {field}, not in its row"


def test_options_page_names_every_protected_preset_name():
    section = OPTIONS[OPTIONS.index("{#name}") :].split("\n### ", 1)[0]
    for name in rules_module._PRESETS:
        assert f"`{name}`" in section, f"the name section does not say {name!r} is protected"


@pytest.mark.parametrize("field", RULESET_FIELDS)
def test_options_page_lists_every_ruleset_field(field):
    _, rows = _summary_table()
    assert field in rows, f"RuleSet.{field} has no row in the options table"
    assert f"{{#{field}}}" in OPTIONS, f"RuleSet.{field} has no section on the options page"


def test_options_page_lists_no_field_that_does_not_exist():
    _, rows = _summary_table()
    assert sorted(rows) == sorted(RULESET_FIELDS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_options_table_gives_each_presets_values(preset):
    header, rows = _summary_table()
    column = header.index(f"`{preset}`")
    rules = PRESETS[preset]
    for field, row in rows.items():
        expression = _code(row[column])
        assert expression is not None, f"{preset}.{field}: write the value as `code`"
        assert _evaluate(expression) == getattr(rules, field), f"{preset}.{field}"


def test_options_table_gives_the_ruleset_defaults():
    header, rows = _summary_table()
    column = header.index("default")
    for field in attrs.fields(xeri.RuleSet):
        expression = _code(rows[field.name][column])
        if field.default is attrs.NOTHING or isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]
            assert expression is None, f"{field.name} has no plain default"
            continue
        assert expression is not None, f"default of {field.name}: write it as `code`"
        assert _evaluate(expression) == field.default, f"default of {field.name}"


COMPONENTS = [
    xeri.PileCapture,
    xeri.SumCapture,
    xeri.PointsTable,
    xeri.TargetScore,
    xeri.FixedRounds,
]


@pytest.mark.parametrize("component", COMPONENTS, ids=lambda c: c.__name__)
def test_options_page_lists_every_component_option(component):
    anchor = f"{{#{component.__name__.lower()}}}"
    assert anchor in OPTIONS, f"no section for {component.__name__}"
    section = OPTIONS[OPTIONS.index(anchor) :].split("\n### ", 1)[0]
    options = {row[0] for row in _table_rows(section)}
    for field in attrs.fields(component):
        if field.init:
            assert f"`{field.name}`" in options, f"{component.__name__}.{field.name}"


@pytest.mark.parametrize(
    "enum_class", [xeri.Redeal, xeri.MajorityTie, xeri.SharedTarget], ids=lambda e: e.__name__
)
def test_options_page_lists_every_enum_value(enum_class: type[enum.Enum]):
    for member in enum_class:
        assert f"`{enum_class.__name__}.{member.name}`" in OPTIONS


def _api_directives() -> list[tuple[str, dict[str, object]]]:
    """Every `::: identifier` of the API pages, with its options."""
    found = []
    for page in sorted((DOCS / "api").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for match in re.finditer(r"^::: (\S+)\n((?:[ \t]+\S.*\n?)*)", text, flags=re.MULTILINE):
            config = yaml.safe_load(match[2]) if match[2].strip() else None
            found.append((match[1], (config or {}).get("options", {})))
    return found


def _rendered_list() -> list[str]:
    """Every identifier the API pages render, once per rendering.

    A directive renders its identifier, plus an explicit `members` list; a
    directive of a whole public module renders the names of its `__all__`.
    """
    rendered: list[str] = []
    for identifier, options in _api_directives():
        rendered.append(identifier)
        members = options.get("members")
        if isinstance(members, list):
            rendered.extend(f"{identifier}.{member}" for member in members)
        elif members is None and identifier in _public_modules():
            module = importlib.import_module(identifier)
            rendered.extend(f"{identifier}.{name}" for name in getattr(module, "__all__", ()))
    return rendered


def _rendered() -> set[str]:
    """Every identifier the API pages render."""
    return set(_rendered_list())


def _public_modules() -> list[str]:
    """The public modules and subpackages of `xeri` (not their submodules)."""
    package = ROOT / "src" / "xeri"
    modules = [path.stem for path in package.glob("*.py")]
    modules += [path.parent.name for path in package.glob("*/__init__.py")]
    return sorted(f"xeri.{name}" for name in modules if not name.startswith("_"))


def test_every_public_name_is_rendered_once_from_the_facade():
    rendered = _rendered_list()
    counts = {name: rendered.count(f"xeri.{name}") for name in xeri.__all__}
    missing = sorted(name for name, count in counts.items() if count == 0)
    twice = sorted(name for name, count in counts.items() if count > 1)
    assert missing == [], f"add '::: xeri.<name>' to the page of its topic: {missing}"
    assert twice == [], f"rendered more than once: {twice}"


def test_the_api_reference_renders_no_private_path():
    private = sorted(
        identifier
        for identifier, _ in _api_directives()
        if any(part.startswith("_") and not part.startswith("__") for part in identifier.split("."))
    )
    assert private == [], f"render these from the facade (`::: xeri.<name>`): {private}"


def test_the_api_reference_renders_only_names_the_package_exports():
    """Each `::: xeri.X` is a name of `xeri.__all__` or of a public subpackage."""
    public = set(_public_modules()) | {f"xeri.{name}" for name in xeri.__all__}
    stray = [
        identifier
        for identifier, _ in _api_directives()
        if identifier != "xeri" and ".".join(identifier.split(".")[:2]) not in public
    ]
    assert stray == [], f"not a public name of the package: {stray}"


@pytest.mark.parametrize("module", _public_modules())
def test_every_public_module_has_an_api_page_rendering_all_its_names(module):
    rendered = _rendered()
    assert module in rendered, f"no page of docs/api/ has '::: {module}'"
    names = getattr(importlib.import_module(module), "__all__", ())
    missing = [
        name
        for name in names
        if f"{module}.{name}" not in rendered
        and not (name in xeri.__all__ and f"xeri.{name}" in rendered)
    ]
    assert missing == [], f"{module}: names of __all__ not rendered: {missing}"


# A private module path: `xeri._core`, `xeri._families.sums.rule`, ...
PRIVATE_PATH = re.compile(r"\bxeri\._[a-z]")


def test_no_docs_page_names_a_private_module():
    # The changelog page includes CHANGELOG.md, whose history names the old layout.
    pages = [page for page in sorted(DOCS.rglob("*.md")) if page.name != "changelog.md"]
    found = [
        f"{page.relative_to(ROOT)}:{number}"
        for page in pages
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if PRIVATE_PATH.search(line)
    ]
    assert found == [], "name the facade (`xeri.apply`) or a docs page: " + ", ".join(found)


def _rendered_objects() -> list[tuple[str, object]]:
    """The public objects whose docstrings the API pages render, and their members."""
    owners = [(f"xeri.{name}", getattr(xeri, name)) for name in xeri.__all__]
    objects: list[tuple[str, object]] = []
    for module_name in _public_modules():
        module = importlib.import_module(module_name)
        objects.append((module_name, module))
        owners += [(f"{module_name}.{name}", getattr(module, name)) for name in module.__all__]
    for path, value in owners:
        objects.append((path, value))
        if isinstance(value, type):
            objects += [
                (f"{path}.{name}", member)
                for name, member in vars(value).items()
                if not name.startswith("_") or name == "__init__"
            ]
    return objects


def test_no_rendered_docstring_of_the_facade_points_at_a_module_docstring():
    """The private modules' docstrings are not rendered: their prose is on the topic pages."""
    found = sorted(
        path
        for path, value in _rendered_objects()
        if not path.startswith(("xeri.bots", "xeri.envs", "xeri.testing", "xeri.cli"))
        and isinstance(getattr(value, "__doc__", None), str)
        and "module docstring" in value.__doc__
    )
    assert found == [], f"link the topic page's section instead: {found}"


def test_no_rendered_docstring_names_a_private_module():
    found = sorted(
        path
        for path, value in _rendered_objects()
        if isinstance(getattr(value, "__doc__", None), str) and PRIVATE_PATH.search(value.__doc__)
    )
    assert found == [], f"docstrings that name a private module: {found}"


def test_every_docs_page_is_in_the_navigation():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))

    def pages(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, list):
            return [p for item in node for p in pages(item)]
        if isinstance(node, dict):
            return [p for value in node.values() for p in pages(value)]
        return []

    in_nav = set(pages(config["nav"]))
    on_disk = {path.relative_to(DOCS).as_posix() for path in DOCS.rglob("*.md")}
    assert sorted(on_disk - in_nav) == [], "pages missing from the nav of mkdocs.yml"
    assert sorted(in_nav - on_disk) == [], "nav entries without a page"


# A clause anchor of the rules pages: `[](){#rules-g7}`, an mkdocs-autorefs Markdown anchor.
CLAUSE_ANCHOR = re.compile(r"\[\]\(\)\{#(rules-[a-z]\d+)\}")
# A link to a clause in a docstring: `[G7][rules-g7]` (the text may name a range, `G6–G9`).
CLAUSE_LINK = re.compile(r"\[([^\[\]]+)\]\[(rules-[^\[\]]*)\]")
SOURCES = sorted((ROOT / "src" / "xeri").rglob("*.py"))


def clause_anchors() -> dict[str, list[str]]:
    """The pages of docs/rules/ that anchor each clause identifier, by identifier."""
    anchors: dict[str, list[str]] = {}
    for page in sorted((DOCS / "rules").glob("*.md")):
        for identifier in CLAUSE_ANCHOR.findall(page.read_text(encoding="utf-8")):
            anchors.setdefault(identifier, []).append(page.name)
    return anchors


def _clause_links() -> list[tuple[str, str, str]]:
    """Every clause link of the source files: (where, text, identifier)."""
    found = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for text, identifier in CLAUSE_LINK.findall(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", text, identifier))
    return found


def test_docstring_clause_links_name_an_anchored_clause():
    anchors = clause_anchors()
    wrong = []
    for where, text, identifier in _clause_links():
        clause = identifier.removeprefix("rules-").upper()
        if identifier not in anchors:
            wrong.append(f"{where}: [{text}][{identifier}] has no anchor on a rules page")
        elif not re.match(rf"{clause}(?!\d)", text):
            wrong.append(f"{where}: [{text}][{identifier}] links to {clause}, not to {text}")
    assert not wrong, "\n".join(wrong)


def _docstrings(path: Path) -> list[tuple[int, str]]:
    """Every docstring of a module (module, class, function and attribute docstrings).

    A string written as a statement of its own is a docstring wherever it stands.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        (node.lineno, node.value.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]


def test_no_docstring_cites_the_rules_file():
    """Docstrings link a clause (`[G7][rules-g7]`), never the file of the project's spec."""
    cited = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in SOURCES
        for line, text in _docstrings(path)
        if "RULES.md" in text
    ]
    assert not cited, "write the clause as [G7][rules-g7] instead: " + ", ".join(cited)


def _hooks():
    """The site's MkDocs hooks module, `tools/docs_hooks.py`, loaded by its path."""
    spec = importlib.util.spec_from_file_location("docs_hooks", ROOT / "tools" / "docs_hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_site_registers_the_hooks_and_the_stylesheet():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert "hooks:\n  # Console examples" in config
    assert "  - tools/docs_hooks.py\n" in config
    assert "  - stylesheets/extra.css\n" in config
    assert (DOCS / "stylesheets" / "extra.css").is_file()


def test_copying_a_console_example_copies_its_code_alone():
    session = (
        ">>> import xeri\n"
        ">>> for card in xeri.DECK[:2]:\n"
        "...     print(card)\n"
        "...\n"
        "A♣\n"
        "A♦\n"
        ">>> xeri.GREEK.hand_size\n"
        "6\n"
    )
    code = _hooks().session_code(session)
    assert code == (
        "import xeri\nfor card in xeri.DECK[:2]:\n    print(card)\n\nxeri.GREEK.hand_size\n"
    )
    namespace: dict[str, object] = {}
    exec(compile(code, "<copied>", "exec"), namespace)  # what was copied runs as written
    assert _hooks().session_code("pip install .\n") is None


def test_the_copy_attribute_is_added_to_sessions_only():
    hooks = _hooks()
    page = (
        '<pre><code><span class="gp">&gt;&gt;&gt; </span>x = 1 &lt; 2\n'
        '<span class="go">True</span>\n</code></pre>'
        "<pre><code>pip install .\n</code></pre>"
    )
    out = hooks.copy_only_code(page)
    assert out.count("data-copy=") == 1
    assert '<code data-copy="x = 1 &lt; 2&#10;">' in out
    assert out.replace(' data-copy="x = 1 &lt; 2&#10;"', "") == page


def _boost(page: Path) -> float:
    """The search boost of a page's front matter (`search: boost: 2`); 1 without one."""
    text = page.read_text(encoding="utf-8")
    if not text.startswith("---\n"):
        return 1.0
    meta = yaml.safe_load(text.split("---\n", 2)[1]) or {}
    return float(meta.get("search", {}).get("boost", 1.0))


def test_search_ranks_the_rules_and_the_guides_above_the_api_reference():
    rules = [_boost(page) for page in sorted((DOCS / "rules").glob("*.md"))]
    guides = [_boost(DOCS / name) for name in ("cli.md", "tutorial.md", "custom-rules.md")]
    api = [_boost(page) for page in sorted((DOCS / "api").glob("*.md"))]
    assert min(rules + guides) > max(api)
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    search = next(p["search"] for p in config["plugins"] if isinstance(p, dict) and "search" in p)
    assert re.split(search["separator"], "Kseri, (Kseri) Kseri.") == ["Kseri", "Kseri", "Kseri", ""]

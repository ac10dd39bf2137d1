"""Write the options page's table of preset values from the presets themselves.

Run: `python tools/options_table.py` rewrites the table "The fields at a
glance" of `docs/options.md` (between its two marker comments) from the
fields of every preset; `python tools/options_table.py --check` changes
nothing and exits 1 when the page's table is not the one the presets give
(the test suite runs the same check, so the page cannot go stale).

Each cell is Python that evaluates, with the names of the `xeri` package,
to the preset's value: a
component is written as its class with the fields that differ from their
defaults (and the number a match is played to), a value equal to a named
constant of the package (`DECK`, `GREEK_POINTS`, `SCOPA_VALUES`, ...) by
that name. The clauses column is
data kept here, next to the presets' names and order.
"""

from __future__ import annotations

import enum
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import attrs

import xeri

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "options.md"

BEGIN = "<!-- The table below is written by tools/options_table.py from the presets: edit that. -->"
END = "<!-- The end of the table written by tools/options_table.py. -->"

PILE_PRESETS: tuple[tuple[str, xeri.RuleSet], ...] = (
    ("GREEK", xeri.GREEK),
    ("GREEK_FOUR", xeri.GREEK_FOUR),
    ("PISTI", xeri.PISTI),
)
"""The presets played on one pile, in the order of the first table's columns."""

OPEN_PRESETS: tuple[tuple[str, xeri.RuleSet], ...] = (
    ("GERMAN", xeri.GERMAN),
    ("SCOPA", xeri.SCOPA),
    ("CASSINO", xeri.CASSINO),
)
"""The presets played on an open table, in the order of the second table's columns."""

PRESETS = PILE_PRESETS + OPEN_PRESETS
"""Every preset: each is a column of one of the two tables."""

CONSTANTS: tuple[tuple[str, object], ...] = (
    ("DECK", xeri.DECK),
    ("ITALIAN_DECK", xeri.ITALIAN_DECK),
    ("PIQUET_DECK", xeri.PIQUET_DECK),
    ("GREEK_POINTS", xeri.GREEK_POINTS),
    ("GERMAN_POINTS", xeri.GERMAN_POINTS),
    ("PISTI_POINTS", xeri.PISTI_POINTS),
    ("GERMAN_VALUES", xeri.GERMAN_VALUES),
    ("SCOPA_VALUES", xeri.SCOPA_VALUES),
)
"""Values written by their names."""

NAMESPACE: dict[str, object] = {name: getattr(xeri, name) for name in xeri.__all__}
"""The names a cell may use: every public name of `xeri`."""

ALWAYS_WRITTEN = {"TargetScore": ("target",), "FixedRounds": ("rounds",), "CountOut": ("target",)}
"""The fields of a component written even at their defaults: the number a match is played to."""

DEFAULTS_IN_WORDS = {"sides": "one side per seat"}
"""The default of a field computed from the others, in words."""

CLAUSES = {
    "name": "—",
    "seats": "G1, F1, D1",
    "sides": "F1",
    "deck": "G1, D1, S1, C1",
    "hand_size": "G3, G8, F3, D2, P2, S2, C2",
    "table_size": "G3, F3, D2, P3, S2, C2",
    "face_down": "P3",
    "redeal": "G4, F4, V2, D2, P3, S2, C2",
    "show_bottom_card": "V1",
    "dealer_per_deal": "G2, G8",
    "xeri_on_last_card": "G7, V3, P4, S4, C5",
    "xeri_on_first_card": "P4",
    "capture": "G6, G7, D2–D6, P1, S1, S3, C1, C3, C4, K1, K2, W1–W3",
    "card_points": "G10, F7, D8, P5, S5, C6",
    "majority_points": "G10, F7, D8, P5, S5, C6",
    "majority_tie": "G10, D8, P5",
    "xeri_points": "G7, F6, D6, P4, S4, C5",
    "jack_xeri_points": "G7, V4, D6, P4, S4, C5, W3",
    "categories": "S4, S5, C5, C6, W4",
    "scorer": "G10, F7, D8",
    "match": "G11, F8, V5, D9, P5, S6, C7",
}
"""The clauses of the rules pages that each field expresses: every clause whose
options link to the field's section (or to its components' sections), and a
few more (a test holds the two together)."""


def _constant(value: object) -> str | None:
    if isinstance(value, (bool, int, str)) or value == ():
        return None
    for name, constant in CONSTANTS:
        if type(value) is type(constant) and value == constant:
            return name
    return None


def _pairs_as_dict(value: tuple[object, ...]) -> str | None:
    """`((Rank.ACE, 1), ...)` as the dict `{Rank.ACE: 1, ...}`, which the converters accept."""
    pairs = [p for p in value if type(p) is tuple and len(p) == 2]
    if not value or len(pairs) != len(value):
        return None
    keys = [key for key, _ in pairs]
    if not (all(isinstance(k, xeri.Rank) for k in keys) or all(type(k) is xeri.Card for k in keys)):
        return None
    return "{" + ", ".join(f"{render(key)}: {render(points)}" for key, points in pairs) + "}"


def render(value: object) -> str:
    """`value` as Python that evaluates to it in `NAMESPACE`, as short as the rules above allow."""
    named = _constant(value)
    if named is not None:
        return named
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    if type(value) is xeri.Card:
        return f'Card.parse("{value}")'
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, (bool, int)) or value is None:
        return repr(value)
    if type(value) is tuple:
        as_dict = _pairs_as_dict(value)
        if as_dict is not None:
            return as_dict
        inner = ", ".join(map(render, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if attrs.has(type(value)):
        return _render_attrs(value)
    raise TypeError(f"no way to write {value!r} as a cell")


def _render_attrs(value: object) -> str:
    """`Class(field=..., ...)`, with the fields whose value differs from the default only."""
    cls: Any = type(value)  # an attrs class, which the caller tested
    fields = [f for f in attrs.fields(cls) if f.init]
    required = {f.alias: getattr(value, f.name) for f in fields if f.default is attrs.NOTHING}
    try:
        plain = cls(**required)
    except Exception:  # a class that needs more: every field is written
        plain = None
    always = ALWAYS_WRITTEN.get(cls.__name__, ())
    parts = []
    for f in fields:
        mine = getattr(value, f.name)
        shown = f.alias in required or f.name in always
        if plain is not None and not shown and getattr(plain, f.name) == mine:
            continue
        parts.append(f"{f.alias}={render(mine)}")
    return f"{cls.__name__}({', '.join(parts)})"


def _default(field: attrs.Attribute[object]) -> str:
    if field.name in DEFAULTS_IN_WORDS:
        return DEFAULTS_IN_WORDS[field.name]
    if field.default is attrs.NOTHING:
        return "required"
    if isinstance(field.default, attrs.Factory):  # type: ignore[arg-type]  # attrs types it loosely
        raise TypeError(f"RuleSet.{field.name}: say its computed default in DEFAULTS_IN_WORDS")
    return f"`{render(field.default)}`"


def table() -> str:
    """The markdown of the two tables of the `RuleSet` fields, rows by field.

    The first has each field's default, the pile presets' values and the
    clauses; the second the open-table presets' values.
    """
    fields = attrs.fields(xeri.RuleSet)
    first = [_row(["field", "default", *(f"`{name}`" for name, _ in PILE_PRESETS), "clauses"])]
    second = [_row(["field", *(f"`{name}`" for name, _ in OPEN_PRESETS)])]
    first.append(_row(["---"] * (len(PILE_PRESETS) + 3)))
    second.append(_row(["---"] * (len(OPEN_PRESETS) + 1)))
    for field in fields:
        link = f"[`{field.name}`](#{field.name})"
        values = [f"`{render(getattr(rules, field.name))}`" for _, rules in PRESETS]
        first.append(_row([link, _default(field), *values[:3], CLAUSES[field.name]]))
        second.append(_row([link, *values[3:]]))
    return "\n".join(
        [
            "The presets of the Greek family, played on one pile:",
            "",
            *first,
            "",
            "The presets played on an open table:",
            "",
            *second,
        ]
    )


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def page(text: str) -> str:
    """`text`, the options page, with the generated table between its markers."""
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    return text[:start] + "\n\n" + table() + "\n\n" + text[end:]


def main(argv: Sequence[str]) -> int:
    """Rewrite the table, or with `--check` say whether it is up to date (exit 1 when not)."""
    text = PAGE.read_text(encoding="utf-8")
    wanted = page(text)
    if "--check" in argv:
        if wanted != text:
            stale = f"{PAGE.relative_to(ROOT)}: the preset table is stale"
            print(f"{stale}; run python tools/options_table.py")
            return 1
        return 0
    PAGE.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

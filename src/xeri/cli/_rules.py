"""`xeri rules`: the registered rule sets in a table, or every option of one."""

from __future__ import annotations

import textwrap
from enum import Enum
from typing import cast

import attrs

from xeri._cards import Card
from xeri._families.pile.rule import PileCapture
from xeri._families.sums.rule import SumCapture
from xeri._rules.ruleset import RuleSet, find_rules, registered
from xeri._rules.scoring import PointsTable, StandardScorer
from xeri.cli._common import _PROG, _has_teams, _match_summary, _teams

# --------------------------------------------------------------------------
# rules

_WIDTH = 80
"""The columns the listing fits in."""


def _symbol(value: object) -> str:
    """A value as the transcript and the rules listing write it."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        inner = ", ".join(map(_symbol, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Card):
        return str(value)
    if attrs.has(type(value)):
        fields = [f for f in attrs.fields(cast("type[attrs.AttrsInstance]", type(value))) if f.init]
        args = ", ".join(f"{f.name}={_symbol(getattr(value, f.name))}" for f in fields)
        return f"{type(value).__name__}({args})"
    return repr(value)


def _points_text(table: PointsTable, deck: tuple[Card, ...]) -> str:
    parts = [f"{rank.symbol} {points}" for rank, points in table.ranks]
    parts += [f"{card} +{points}" for card, points in table.cards]
    return f"{', '.join(parts) or 'none'} ({table.count(deck)} in the deck)"


def _deck_text(deck: tuple[Card, ...]) -> str:
    """A deck as its size and, when it is made of whole ranks, the ranks."""
    ranks = sorted({card.rank for card in deck})
    if len(deck) == 4 * len(ranks):  # every suit of each rank
        return f"{len(deck)} cards: {' '.join(rank.symbol for rank in ranks)}"
    return f"{len(deck)} cards: {' '.join(map(str, deck))}"


def _capture_summary(rules: RuleSet) -> str:
    capture = rules.capture
    if type(capture) is PileCapture:
        sweeper = capture.sweeper
        return f"pile, {sweeper.symbol} sweeps" if sweeper is not None else "pile, no sweeper"
    if type(capture) is SumCapture:
        options = [
            o.words
            for o in capture.OPTIONS
            if o.words is not None
            and o.differs(capture)
            and (o.needs is None or getattr(capture, o.needs))
        ]
        kind = "sums and builds" if capture.builds else "sums, no builds"
        return kind + "".join(f", {o}" for o in options)
    return type(capture).__name__


def _players_summary(rules: RuleSet) -> str:
    if _has_teams(rules):
        return f"{rules.seats} in {rules.num_sides} teams"
    return str(rules.seats)


def _rules_table() -> list[str]:
    head = ("name", "players", "hand", "capture", "match")
    rows = [head]
    for name in registered():
        rules = find_rules(name)
        rows.append(
            (
                name,
                _players_summary(rules),
                str(rules.hand_size),
                _capture_summary(rules),
                _match_summary(rules),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    # The capture column takes what 80 columns leave, its text wrapped between words.
    others = sum(widths) - widths[3] + 2 * (len(head) - 1)
    widths[3] = min(widths[3], max(len(head[3]), _WIDTH - others))
    lines = []
    for row in rows:
        parts = textwrap.wrap(row[3], widths[3], break_long_words=False) or [""]
        for i, part in enumerate(parts):
            cells = (*row[:3], part, row[4]) if i == 0 else ("", "", "", part, "")
            lines.append(
                "  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)).rstrip()
            )
    return [
        *lines,
        "",
        f"`{_PROG} rules NAME` shows every option of one.",
    ]


def _rules_lines(rules: RuleSet) -> list[str]:
    lines = [f"{rules.name}: {rules.seats} players"]
    if _has_teams(rules):
        lines[0] += f" in {rules.num_sides} teams, {_teams(rules)}"
    lines.append("")
    fields = attrs.fields(RuleSet)
    width = max(len(f.name) for f in fields) + 2
    for field in fields:
        if field.name == "name":
            continue
        value = getattr(rules, field.name)
        if field.name == "deck":
            text = _deck_text(value)
        elif field.name == "categories":
            text = ", ".join(f"{c.name} ({type(c).__name__})" for c in value) or "none"
        elif isinstance(value, PointsTable):
            text = _points_text(value, rules.deck)
        else:
            text = _symbol(value)
        lines.append(f"  {field.name:<{width}}{text}")
    lines.append("")
    lines.append(f"  {'deals a round':<{width}}{rules.deals_per_round}")
    if type(rules.scorer) is StandardScorer:
        cards, majority = rules.card_points.count(rules.deck), rules.majority_points
        lines.append(
            f"  {'points a round':<{width}}{cards + majority} ({cards} for cards, {majority} for "
            "the most cards), plus the xeris"
            + (", plus the categories" if rules.categories else "")
        )
    # A long value goes on under itself, between words, to fit 80 columns.
    indent = " " * (2 + width)
    return [
        part
        for line in lines
        for part in (
            textwrap.wrap(line, _WIDTH, subsequent_indent=indent, break_long_words=False)
            if len(line) > _WIDTH
            else [line]
        )
    ]

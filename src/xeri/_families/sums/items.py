"""The table's items sorted for move generation, shared by the sum rule and its lazy counts."""

from __future__ import annotations

from xeri._cards import Card
from xeri._table import Build, TableItem

__all__: list[str] = []

_Targets = list[tuple[int, int, int, object, TableItem]]


def _scan(
    table: tuple[TableItem, ...],
    values: dict[Card, int | None],
) -> tuple[
    list[tuple[int, int, Card]],
    list[tuple[int, Card]],
    list[tuple[int, int, tuple[int, ...], Build]],
    _Targets,
]:
    """Sort the table's items for move generation: number cards, pictures, builds, targets.

    Sort keys are built inline, in the order `item_sort_key` defines: loose
    cards by index, then builds by value, owner and cards; targets (every
    number item, for combining) by value first.
    """
    numbers: list[tuple[int, int, Card]] = []
    pictures: list[tuple[int, Card]] = []
    builds: list[tuple[int, int, tuple[int, ...], Build]] = []
    targets: _Targets = []
    for t in table:
        if type(t) is Card:
            v = values[t]
            if v is not None:
                numbers.append((v, t.index, t))
                targets.append((v, 0, t.index, 0, t))
            else:
                pictures.append((t.index, t))
        elif isinstance(t, Build):
            key = tuple(c.index for c in t.cards)
            builds.append((t.value, t.owner, key, t))
            targets.append((t.value, 1, t.owner, key, t))
    numbers.sort()
    pictures.sort()
    targets.sort()
    builds.sort()
    return numbers, pictures, builds, targets


def _multiple(build: Build, values: dict[Card, int | None]) -> bool:
    """Whether a build holds several groups of its value: its cards add up to more."""
    return sum(values[c] or 0 for c in build.cards) != build.value

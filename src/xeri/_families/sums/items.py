"""The table's items sorted for move generation, shared by the sum rule and its lazy counts."""

from __future__ import annotations

from xeri._cards import Card
from xeri._table import Build, TableItem

__all__: list[str] = []

_Targets = list[tuple[int, int, int, object, TableItem]]


def _ints(value: int | tuple[int, ...]) -> tuple[int, ...]:
    """A rank's value as the tuple of the values it may count as ([K2][rules-k2])."""
    return value if type(value) is tuple else (value,)  # type: ignore[return-value]  # an int


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


def _sumset(sums: int, values: int, limit: int) -> int:
    """The sums `s + v` for `s` in `sums` and `v` in `values` (bit sets), up to `limit`."""
    out = 0
    while values:
        low = values & -values
        out |= sums << (low.bit_length() - 1)
        values ^= low
    return out & limit


def _matched(owned: list[int], masks: list[int]) -> bool:
    """[D4][rules-d4] under several values: each build owned gets a card of its own to take it.

    `owned` lists the values of the seat's builds, `masks` the values of the
    cards it keeps, as bits; a card takes a build of any of its values. A
    matching found by augmenting paths (Kuhn's algorithm): a handful of
    builds and cards.
    """
    if not owned:
        return True
    if len(owned) > len(masks):
        return False
    holder = [-1] * len(masks)  # the build each card is given, or -1

    def give(b: int, tried: list[bool]) -> bool:
        bit = 1 << owned[b]
        for k, mask in enumerate(masks):
            if mask & bit and not tried[k]:
                tried[k] = True
                if holder[k] < 0 or give(holder[k], tried):
                    holder[k] = b
                    return True
        return False

    return all(give(b, [False] * len(masks)) for b in range(len(owned)))

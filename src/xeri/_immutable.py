"""`_Immutable`: the mixin that makes copying a frozen value return the value itself.

Every value of the library is frozen and holds only frozen values, so a
copy, shallow or deep, could never be told from the original: `copy.copy`
and `copy.deepcopy` return the object itself, at the cost of a method call
(a deep copy of a state used to walk every card, about 300 µs). The mixin
declares `__slots__ = ()`, so slotted attrs classes keep their slots.
"""

from __future__ import annotations

from typing import Any, TypeVar

import attrs

__all__: list[str] = []

_T = TypeVar("_T")


def _repr(value: object, omitted: dict[str, object]) -> str:
    """`Class(field=value, ...)` of an attrs value, without the defaults of `omitted`.

    The fields of `omitted` are those added later: left out while they hold
    their default, so that older values read as they always have.
    """
    fields = []
    for f in attrs.fields(type(value)):  # type: ignore[arg-type]  # an attrs class
        field = getattr(value, f.name)
        if not f.repr or (f.name in omitted and field == omitted[f.name]):
            continue
        fields.append(f"{f.name}={f.repr(field) if callable(f.repr) else repr(field)}")
    return f"{type(value).__name__}({', '.join(fields)})"


class _Immutable:
    """Mixin: `copy.copy` and `copy.deepcopy` return the value itself."""

    __slots__ = ()

    def __copy__(self: _T) -> _T:
        return self

    def __deepcopy__(self: _T, memo: dict[int, Any]) -> _T:
        return self

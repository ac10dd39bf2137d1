"""`_Immutable`: the mixin that makes copying a frozen value return the value itself.

Every value of the library is frozen and holds only frozen values, so a
copy, shallow or deep, could never be told from the original: `copy.copy`
and `copy.deepcopy` return the object itself, at the cost of a method call
(a deep copy of a state used to walk every card, about 300 µs). The mixin
declares `__slots__ = ()`, so slotted attrs classes keep their slots.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

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


# ---------------------------------------------------------------------------
# Fast constructors, generated from the fields (as attrs generates `__init__`)
#
# A frozen attrs class sets each field with `object.__setattr__`, about a
# tenth of a microsecond a field, and the engine makes values on every move.
# A class made quickly inherits its slots from a plain twin class (its first
# base) and adds none: the fast constructor fills a twin with ordinary
# attribute stores, then sets its `__class__` to the real class (the memory
# layout is the same). The result is an ordinary frozen value, equal to one
# from the keyword constructor. The constructor's source is written here from
# `attrs.fields`, once per class, so no hand-kept list of parameters can fall
# out of step with the class; it takes keywords only, so two fields cannot be
# swapped unnoticed. Converters and validators are skipped: only trusted
# values go through (a `Capture`'s `taken` already in its canonical order).

_P = ParamSpec("_P")
_MADE: dict[tuple[type, tuple[str, ...] | None], Callable[..., Any]] = {}


def _twin(cls: type) -> type:
    """The plain base class that holds the slots of every field of `cls`."""
    twin = cls.__bases__[0]
    names = {f.name for f in attrs.fields(cls)}
    slots = set(getattr(twin, "__slots__", ()))
    if not names <= slots or "__dict__" in dir(cls):  # pragma: no cover  # a programming error
        raise TypeError(f"{cls.__name__}'s first base must hold a slot for each of its fields")
    return twin


def _generate(cls: type, changed: tuple[str, ...] | None) -> Callable[..., Any]:
    """The source of a fast constructor of `cls`, compiled and cached; see above.

    With `changed` None, every field is a keyword (with its attrs default if it
    has one); otherwise the function takes the value to copy first, then the
    fields `changed`, in the order named (by keyword or by position).
    """
    key = (cls, changed)
    made = _MADE.get(key)
    if made is not None:
        return made
    fields = attrs.fields(cls)
    names = [f.name for f in fields]
    scope: dict[str, Any] = {"_new": object.__new__, "_Twin": _twin(cls), "_Cls": cls}
    if changed is None:
        params = []
        for f in fields:
            if f.default is attrs.NOTHING:
                params.append(f.name)
            elif isinstance(f.default, attrs.Factory):  # type: ignore[arg-type]  # attrs' own type
                raise TypeError(f"{cls.__name__}.{f.name}: a factory default is not supported")
            else:
                scope[f"_default_{f.name}"] = f.default
                params.append(f"{f.name}=_default_{f.name}")
        signature = "*, " + ", ".join(params)
        function = f"_make_{cls.__name__}"
    else:
        unknown = sorted(set(changed) - set(names))
        if unknown or len(set(changed)) != len(changed) or not changed:
            raise TypeError(f"{cls.__name__} has no fields {unknown} to change, or repeats one")
        signature = "_old, " + ", ".join(changed)
        function = f"_{cls.__name__}_with_{'_'.join(changed)}"
    twin = scope["_Twin"]
    # Calling a plain class makes an empty instance faster than `object.__new__` does.
    plain = twin.__new__ is object.__new__ and twin.__init__ is object.__init__
    empty = "_Twin()" if plain else "_new(_Twin)"
    lines = [f"def {function}({signature}):", f"    _s = {empty}"]
    for name in names:
        value = name if changed is None or name in changed else f"_old.{name}"
        lines.append(f"    _s.{name} = {value}")
    lines += ["    _s.__class__ = _Cls", "    return _s"]
    source = "\n".join(lines) + "\n"
    # The source is written above from the class's own field names, as attrs does.
    exec(compile(source, f"<fast {cls.__name__} constructor>", "exec"), scope)
    made = scope[function]
    made.__doc__ = f"A `{cls.__name__}` from trusted values, quickly (generated from its fields)."
    _MADE[key] = made
    return made  # type: ignore[no-any-return]  # a function compiled above


def _fast_maker(cls: Callable[_P, _T]) -> Callable[_P, _T]:
    """The fast keyword constructor of an attrs class made quickly (see above).

    Typed as the class's own constructor, so the type checker checks each
    keyword; the function itself is `_generate`'s.
    """
    return _generate(cls, None)  # type: ignore[arg-type]  # an attrs class, called as its type


def _fast_copier(cls: type[_T], *changed: str) -> Callable[..., _T]:
    """A fast constructor of `cls` that copies a value of it but for the fields `changed`.

    `copier(old, **{name: value for name in changed})` equals
    `attrs.evolve(old, ...)` with those fields, for trusted values. The
    engine's step from one turn to the next passes the few fields it changes
    by position, in the order named where it makes its copier: a call with
    keywords costs about 3% of the README's loop in CPython 3.11 (keyword
    arguments take the interpreter's slow path of argument binding), and a
    field passed in the wrong place breaks every game the tests replay.
    """
    return _generate(cls, changed)


def _from_values(cls: type[_T], values: tuple[Any, ...]) -> _T:
    """A value of `cls` from its fields' values in order: how a pickled fast value is rebuilt."""
    names = [f.name for f in attrs.fields(cls)]  # type: ignore[arg-type]  # an attrs class
    made: _T = _generate(cls, None)(**dict(zip(names, values, strict=True)))
    return made


# ---------------------------------------------------------------------------
# Facts computed once per value
#
# A rule set is a frozen value, so whatever the hot paths derive from it alone
# (which fast path plays it, what the round's end reads) never changes. Hashing
# a rule set walks all its fields (the deck's 52 cards among them), longer than
# most of what is derived; a cache keyed by the value's identity costs one dict
# look-up. It holds the value itself beside the fact, so that the identity
# cannot be reused by another object while the entry lives.

_K = TypeVar("_K")
_V = TypeVar("_V")


def _per_value(compute: Callable[[_K], _V], size: int = 64) -> Callable[[_K], _V]:
    """`compute(value)`, computed once per value object and kept, for frozen values only.

    Keyed by identity (equal values made separately are computed once each),
    at most `size` values at a time: past that the cache starts again empty.
    """
    cache: dict[int, tuple[_K, _V]] = {}

    def per_value(value: _K) -> _V:
        hit = cache.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        fact = compute(value)
        if len(cache) >= size:
            cache.clear()
        cache[id(value)] = (value, fact)
        return fact

    per_value.__doc__ = compute.__doc__
    per_value.__wrapped__ = compute  # type: ignore[attr-defined]  # as functools.wraps sets it
    return per_value

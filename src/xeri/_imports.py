"""`MODULE:ATTRIBUTE` names of a user's own objects (rule sets, bots), resolved once."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from xeri._errors import ArgumentError

__all__: list[str] = []


def resolve_attribute(
    spec: str, what: str, importer: Callable[[str], object] = importlib.import_module
) -> object:
    """The object `spec` (`MODULE:ATTRIBUTE`, the attribute dotted or not) names.

    Args:
        spec: the name, as a user typed it.
        what: what the object is for, in messages ("the rule set", "the bot").
        importer: imports the module (the command line's imports it from the
            current directory alone, see `xeri.cli`).

    Returns:
        The attribute.

    Raises:
        ArgumentError: `spec` is not of that form, the module cannot be
            imported (its error named in one line), or it has no such attribute.
    """
    module_name, _, path = spec.partition(":")
    if not module_name or not path:
        raise ArgumentError(f"{what} is named MODULE:ATTRIBUTE here, not {spec!r}")
    try:
        value = importer(module_name)
    except ImportError as exc:
        raise ArgumentError(f"cannot import {module_name} for {what} {spec}: {exc}") from None
    except Exception as exc:  # a user's module may fail in any way: say how, in one line
        raise ArgumentError(
            f"importing {module_name} for {what} {spec} failed: {type(exc).__name__}: {exc}"
        ) from None
    missing = object()
    for part in path.split("."):
        value = getattr(value, part, missing)
        if value is missing:
            raise ArgumentError(f"{module_name} has no attribute {path}")
    return value

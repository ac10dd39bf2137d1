"""The examples in the package's docstrings, run against the installed package.

They are collected from the imported modules (not from `src/` paths), so
the suite works the same whether the package is installed normally or in
editable mode.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import xeri

MODULES = sorted(
    name
    for _, name, _ in pkgutil.walk_packages(xeri.__path__, prefix="xeri.")
    if not name.endswith("__main__")
)
EXAMPLES = [
    example
    for name in ["xeri", *MODULES]
    for example in doctest.DocTestFinder().find(importlib.import_module(name))
    if example.examples and example.name.startswith(name)
]


def test_every_module_is_collected():
    assert {"xeri._cards", "xeri._core.engine", "xeri._rules.ruleset", "xeri._io.serialize"} <= set(
        MODULES
    )
    assert len(EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda e: e.name)
def test_docstring_example(example: doctest.DocTest) -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    lines: list[str] = []
    runner.run(example, out=lines.append)
    assert runner.failures == 0, "".join(lines)

"""The conformance harness: check that a rule set holds together, and tools to test it.

Install it with the `testing` extra. The package has a module per job:

* [`xeri.testing.harness`][xeri.testing.harness]:
  [`check_rules`][xeri.testing.check_rules] plays random full matches of
  any [`RuleSet`][xeri.RuleSet], chance included, and after every move
  checks the properties that every rule set must have (the costly ones at
  a sample of the states drawn from each match's seed). The first failure
  raises a [`ConformanceError`][xeri.testing.ConformanceError] naming the
  check and the move, and carrying a game record that replays the game up
  to it. It needs nothing beyond the core (attrs), not hypothesis.
* [`xeri.testing.strategies`][xeri.testing.strategies]: hypothesis
  strategies for your own property tests,
  [`decks`][xeri.testing.decks], [`rule_sets`][xeri.testing.rule_sets] and
  [`reachable_states`][xeri.testing.reachable_states]. Only this module
  needs hypothesis; `xeri.testing` imports it on first use of one of its
  names, and raises an `ImportError` naming the extra if hypothesis is
  missing.
* [`xeri.testing.hidden`][xeri.testing.hidden]: where the cards hidden from
  a seat lie, and states that seat cannot tell apart, read off
  [`observe`][xeri.observe].

Every public name of the three modules is importable from `xeri.testing`.

Examples:
    >>> import random, xeri
    >>> from xeri.testing import check_rules
    >>> report = check_rules(xeri.GREEK_FOUR, games=1, rng=random.Random(3))
    >>> report.games, report.rounds
    (1, 4)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from xeri.testing.harness import (
    CHECKS,
    MAX_RESHUFFLES,
    CheckReport,
    ConformanceError,
    check_rules,
    round_bound,
)
from xeri.testing.hidden import Place, card_at, hidden_places, place_cards, shuffle_hidden

if TYPE_CHECKING:
    from xeri.testing.strategies import decks, reachable_states, rule_sets

__all__ = [
    "CHECKS",
    "MAX_RESHUFFLES",
    "CheckReport",
    "ConformanceError",
    "Place",
    "card_at",
    "check_rules",
    "decks",
    "hidden_places",
    "place_cards",
    "reachable_states",
    "round_bound",
    "rule_sets",
    "shuffle_hidden",
]

_STRATEGIES = frozenset({"decks", "reachable_states", "rule_sets"})


def __getattr__(name: str) -> object:
    """Import the hypothesis strategies on first use, so the harness works without hypothesis."""
    if name in _STRATEGIES:
        strategies = importlib.import_module("xeri.testing.strategies")
        value = getattr(strategies, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

"""The counting model's prices of cards, shared by the counting bot and the playouts.

A card taken is worth its points, what the rule set's additive
[categories][xeri.Category] give for it, a fifth of a point for the majority,
and, for the comparing categories (most coins, the primiera), the mean change
of the margin when the card changes sides, estimated once per rule set.
"""

from __future__ import annotations

import random
from functools import lru_cache

from xeri._cards import Card
from xeri._families.protocol import XeriKind
from xeri._immutable import _per_value
from xeri._rules.ruleset import RuleSet

_CARD_WEIGHT = 0.2
"""What a captured card is worth to the playouts for the majority bonus, as to
[`CountingBot`][xeri.bots.CountingBot]."""


class _Prices:
    """What open-table playouts price captures with: one rule set's counting model."""

    __slots__ = ("card", "sweep", "value")

    def __init__(self, rules: RuleSet) -> None:
        additive = [c for c in rules.categories if getattr(c, "additive", False) is True]
        points = rules.card_points.points
        self.card: dict[Card, float] = {}
        """Each card's worth when taken: its points, its additive categories, the majority."""
        for card in rules.deck:
            worth = points(card) + _CARD_WEIGHT
            for category in additive:
                worth += category.award(((card,),), ((),), rules)[0]
            self.card[card] = float(worth)
        for card, extra in comparisons(rules).items():
            self.card[card] += extra
        sweep = float(rules.xeri_points)
        for category in additive:
            sweep += category.award(((),), ((XeriKind.XERI,),), rules)[0]
        self.sweep = sweep
        """What clearing the table is worth: the xeri (sweep) bonus."""
        value = getattr(rules.capture, "value", None)
        self.value: dict[Card, object] = {
            card: (value(card) if callable(value) else None) or card.rank for card in rules.deck
        }
        """Each card's value in sums, or its rank for a card without one: what answers it."""


@lru_cache(maxsize=32)
def comparisons(rules: RuleSet) -> dict[Card, float]:
    """What each card is worth on the rule set's comparing categories (most coins, primiera).

    Estimated once per rule set on fixed random halves of the deck: the mean
    change of the margin of a two-sided award when the card changes sides,
    halved (taking a card from the table rather than leaving it there).
    """
    additive = [c for c in rules.categories if getattr(c, "additive", False) is True]
    compared = [c for c in rules.categories if c not in additive]
    extra = dict.fromkeys(rules.deck, 0.0)
    if not compared or rules.num_sides != 2:  # a two-sided comparison
        return extra
    deck = list(rules.deck)
    draw = random.Random(0)
    splits = 24
    none: tuple[tuple[XeriKind, ...], ...] = ((), ())
    for _ in range(splits):
        draw.shuffle(deck)
        half = len(deck) // 2
        mine, theirs = deck[:half], deck[half:]
        for k, card in enumerate(mine):
            without = (*mine[:k], *mine[k + 1 :])
            given = (*theirs, card)
            for category in compared:
                a = category.award((tuple(mine), tuple(theirs)), none, rules)
                b = category.award((without, given), none, rules)
                extra[card] += ((a[0] - a[1]) - (b[0] - b[1])) / 2
    # Each card was on the first half in about half the splits.
    return {card: value / (splits / 2) for card, value in extra.items()}


_prices = _per_value(_Prices)
"""The prices of a rule set, computed once per rule set object: the playouts ask at
every turn, and a look-up by identity does not hash the rule set."""

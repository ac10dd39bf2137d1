"""Reachable games for the tests of the edges (observe, serialize, records, notation).

Every registered preset, plus derived rule sets that exercise the options the
edges must handle: the shown bottom card (V1), face-down cards (P3, a
Pişti-like set), German Xeri's capture options. Games are drawn with seeded
generators through the public API, chance included, so every state is
reachable.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import attrs

import xeri
from xeri import Card, GameState, Phase, Rank, Redeal, RuleSet
from xeri.testing import card_at, hidden_places

PISTI = attrs.evolve(
    xeri.GREEK,
    name="pisti-test",
    hand_size=4,
    face_down=3,
    redeal=Redeal.NEVER,
    xeri_on_first_card=False,
    xeri_on_last_card=False,
    card_points=xeri.PointsTable(
        ranks={Rank.JACK: 1, Rank.ACE: 1},
        cards={Card.parse("2C"): 2, Card.parse("10D"): 3},
    ),
)
"""Pişti-like (P1–P5): hands of 4, three face-down cards under the pile."""

VARIANTS: tuple[RuleSet, ...] = (
    attrs.evolve(xeri.GREEK, name="greek-v1-test", show_bottom_card=True),
    attrs.evolve(xeri.GREEK_FOUR, name="greek-four-v1-test", show_bottom_card=True),
    PISTI,
    attrs.evolve(
        xeri.GERMAN,
        name="german-options-test",
        show_bottom_card=True,
        capture=xeri.SumCapture(multi_capture=True, forced_capture=True, self_raise=True),
    ),
)
"""Derived rule sets, not registered: they are written to JSON by their fields."""


def presets() -> tuple[RuleSet, ...]:
    """Every registered rule set."""
    return tuple(xeri.find_rules(name) for name in xeri.registered())


def all_rules() -> tuple[RuleSet, ...]:
    """The presets and the variants."""
    return presets() + VARIANTS


def game(
    rules: RuleSet, seed: int, *, rounds: int | None = None
) -> Iterator[tuple[GameState, xeri.Move | None]]:
    """Every state of a random match, each with the move made from it (None at the end).

    Starts before the first deal; stops at the end of the match, or once
    `rounds` rounds are over.
    """
    rng = random.Random(seed)
    state = xeri.start(rules, dealer=rng.randrange(rules.seats))
    while True:
        if state.is_over or (rounds is not None and len(state.round_results) >= rounds):
            yield state, None
            return
        move: xeri.Move
        if state.is_chance:
            move = xeri.chance_move(state, rng)
        else:
            move = rng.choice(xeri.legal_moves(state))
        yield state, move
        state = xeri.apply(state, move)


def states(rules: RuleSet, seed: int, *, rounds: int | None = 1, every: int = 1) -> list[GameState]:
    """Every `every`-th state of a random game, always with the first and last."""
    out = [s for s, _ in game(rules, seed, rounds=rounds)]
    return [s for i, s in enumerate(out) if i % every == 0 or i == len(out) - 1]


def redeal_state(rules: RuleSet) -> GameState:
    """A reachable state in which the initial table must be redealt (phase REDEAL)."""
    for seed in range(10_000):
        rng = random.Random(seed)
        state = xeri.apply(xeri.start(rules), xeri.chance_move(xeri.start(rules), rng))
        if state.phase is Phase.REDEAL:
            return state
    raise AssertionError("no redeal found")  # pragma: no cover


def cards_in(value: object) -> set[Card]:
    """Every card reachable inside a value (attrs fields, tuples, builds, moves)."""
    found: set[Card] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Card):
            found.add(v)
        elif isinstance(v, tuple | list):
            stack.extend(v)
        elif isinstance(v, RuleSet):
            continue  # the points table names cards, but says nothing of the deal
        elif attrs.has(type(v)):
            stack.extend(getattr(v, f.name) for f in attrs.fields(type(v)) if f.init)
    return found


Place = tuple[str, int, int]


def hidden_cards(state: GameState, seat: int) -> set[Card]:
    """The cards hidden from `seat`."""
    return {card_at(state, p) for p in hidden_places(state, seat)}


def named_cards(text: str) -> set[Card]:
    """The cards whose names (`10♦` or `10D`) appear in a message."""
    found = set()
    for card in xeri.DECK:
        names = (str(card), card.ascii, repr(card))
        if any(_whole(text, name) for name in names):
            found.add(card)
    return found


def _whole(text: str, name: str) -> bool:
    """`name` occurs in `text` not as part of a longer token (so '2C' is not found in '12C')."""
    start = text.find(name)
    while start != -1:
        before = text[start - 1] if start else " "
        end = start + len(name)
        after = text[end] if end < len(text) else " "
        if not (before.isalnum() or after.isalnum()):
            return True
        start = text.find(name, start + 1)
    return False

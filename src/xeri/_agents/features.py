"""Observation tensors: an [`Observation`][xeri.Observation] as a flat list of floats.

[`observation_tensor`][xeri.observation_tensor] turns what one seat sees
into a list of floats of a fixed length for its rule set,
`observation_shape(rules)[0]`, for learning agents. It is plain Python (no
numpy): pass the list to `array.array("f", ...)` or to your tensor library.
Every value lies in [0, 1], and the tensor depends only on the
observation: two states that differ only in cards hidden from the seat give
the same tensor ([X2][rules-x2]).

## Seat-relative

Seats and sides are counted from the observing seat: relative seat 0 is the
observing seat, 1 the next seat in turn order, and so on; relative side 0 is
the observing seat's side, then the other sides in the order their first
seat comes after the observing one. So one network serves every seat, and
the own hand is always the first block.

## Layout

The tensor is a sequence of named blocks, in this order;
[`observation_layout`][xeri._agents.features.observation_layout] gives each block's
name and slice for a rule set. `S` is the number of seats, `N` the number
of sides. A *card plane* has 52 entries, one per card in
[`DECK`][xeri.DECK] order (`card.index`), 1.0 where the card is in the set.

Card planes (`rel.` is short for relative):

| block | size | when | what |
|---|---|---|---|
| `hand` | 52 | always | the own hand |
| `table` | 52 | always | the table cards seen: the pile, or the loose cards |
| `top` | 52 | pile | the pile's top card, the one a play matches ([G6][rules-g6]) |
| `builds` | S × 52 | open | the cards in builds, a plane per rel. owner ([D3][rules-d3]) |
| `played` | S × 52 | always | the cards each rel. seat played this round |
| `captured` | N × 52 | always | the cards each rel. side was seen to capture this round |
| `unknown` | 52 | always | the cards in other hands, the stock or face down ([P3][rules-p3]) |
| `bottom` | 52 | bottom | the bottom card shown after the cut ([V1][rules-v1]) |
| `redealt` | 52 | redeal | the cards of the tables shown and redealt ([G4][rules-g4]) |

"pile": the capture rule has the `pile` capability
([`PileCapture`][xeri.PileCapture]); "open": any other capture rule, an
open table ([`SumCapture`][xeri.SumCapture]); "bottom": `show_bottom_card`;
"redeal": a `redeal` other than `Redeal.NEVER`; "face down": `face_down` > 0.
`unknown` holds every card not in the own hand, not seen on the table and
not seen captured.

Numbers and flags:

| block | size | when | what |
|---|---|---|---|
| `to_move` | S | always | one-hot rel. seat to move (none while chance acts) |
| `dealer` | S | always | one-hot rel. seat that dealt (the current deal, under `dealer_per_deal`) |
| `last_capturer` | S | always | one-hot rel. seat that captured last ([G9][rules-g9]) |
| `phase` | 5 | always | one-hot [`Phase`][xeri.Phase], in the enum's order |
| `hand_sizes` | S | always | cards in each rel. seat's hand / `hand_size` |
| `stock` | 1 | always | cards in the stock / 52 |
| `table_count` | 1 | always | items on the table, face-down cards included / 52 |
| `lone_item` | 1 | always | 1.0 when one item lies on the table ([G7][rules-g7]) |
| `face_down` | 1 | face down | face-down cards on the table / `face_down` |
| `build_values` | S × 10 | open | 1.0 at (rel. owner, value - 1) for each build |
| `captured_counts` | N | always | cards each rel. side captured, hidden ones included / 52 |
| `xeris` | N | always | xeris each rel. side made this round / `min(26, plays)` |
| `jack_xeris` | N | always | jack xeris, likewise |
| `scores` | N | always | each rel. side's match standing, see below |
| `round_points` | N | always | each rel. side's points in the last round, see below |
| `rounds` | 1 | always | finished rounds, see below |

`plays` is the most cards a side plays in a round.

The match numbers depend on the [`MatchFormat`][xeri.MatchFormat]. Under
[`TargetScore`][xeri.TargetScore] `scores` is the match score divided by the
current target (at most 1.0) and `rounds` is `r / (r + 4)` for `r` finished
rounds; under [`FixedRounds`][xeri.FixedRounds] `scores` is the rounds won
and `rounds` the rounds played, both divided by the number of rounds; under
any other format `scores` is `s / (s + 25)` and `rounds` as for a target.
`round_points` is divided by the upper bound of
[`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds], or is
`p / (p + 25)` when the scorer has no bound.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> tensor = xeri.observation_tensor(xeri.observe(state, 1))
    >>> len(tensor) == xeri.observation_shape(xeri.GREEK)[0], sum(tensor[:52])
    (True, 6.0)
    >>> [name for name, start, stop in xeri._agents.features.observation_layout(xeri.GREEK)][:4]
    ['hand', 'table', 'top', 'played']
"""

from __future__ import annotations

import attrs

from xeri._agents.observation import Observation
from xeri._cards import DECK, Card
from xeri._core.state import Phase
from xeri._errors import ArgumentError
from xeri._families.protocol import XeriKind
from xeri._rules.match import FixedRounds, TargetScore
from xeri._rules.redeal import Redeal
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult
from xeri._table import Build

__all__ = ["observation_layout", "observation_shape", "observation_tensor"]

_CARDS = len(DECK)
_BUILD_VALUES = 10
_JACK_XERI = XeriKind.JACK_XERI
_PHASE_INDEX = {phase: i for i, phase in enumerate(Phase)}
_SQUASH = 25.0
_ROUNDS_SQUASH = 4.0


@attrs.frozen
class _Layout:
    """Where each block of a rule set's tensor starts, and what its numbers are divided by."""

    rules: RuleSet
    blocks: tuple[tuple[str, int, int], ...]
    start: dict[str, int]
    size: int
    pile: bool
    rel_sides: tuple[tuple[int, ...], ...]
    """For each observing seat, the relative number of each side."""
    xeri_cap: float
    round_cap: float | None
    template: list[float]
    """The tensor before the observation is read: 1.0 in `unknown`, 0.0 elsewhere."""
    match_cache: dict[int, tuple[tuple[RoundResult, ...], list[float]]]
    """For each observing seat, the last round results read and their match numbers."""


def _make_layout(rules: RuleSet) -> _Layout:
    seats, sides = rules.seats, rules.num_sides
    pile = rules.capture.pile
    sizes: list[tuple[str, int]] = [("hand", _CARDS), ("table", _CARDS)]
    sizes.append(("top", _CARDS) if pile else ("builds", seats * _CARDS))
    sizes += [("played", seats * _CARDS), ("captured", sides * _CARDS), ("unknown", _CARDS)]
    if rules.show_bottom_card:
        sizes.append(("bottom", _CARDS))
    if rules.redeal is not Redeal.NEVER:
        sizes.append(("redealt", _CARDS))
    sizes += [("to_move", seats), ("dealer", seats), ("last_capturer", seats)]
    sizes += [("phase", len(Phase)), ("hand_sizes", seats)]
    sizes += [("stock", 1), ("table_count", 1), ("lone_item", 1)]
    if rules.face_down:
        sizes.append(("face_down", 1))
    if not pile:
        sizes.append(("build_values", seats * _BUILD_VALUES))
    sizes += [("captured_counts", sides), ("xeris", sides), ("jack_xeris", sides)]
    sizes += [("scores", sides), ("round_points", sides), ("rounds", 1)]
    blocks = []
    at = 0
    for name, size in sizes:
        blocks.append((name, at, at + size))
        at += size
    rel_sides = []
    for me in range(seats):
        order: list[int] = []
        for k in range(seats):
            side = rules.sides[(me + k) % seats]
            if side not in order:
                order.append(side)
        rel_sides.append(tuple(order.index(side) for side in range(sides)))
    most_seats = max(map(rules.sides.count, range(sides)))
    plays = rules.hand_size * rules.deals_per_round * most_seats
    bounds = rules.round_points_bounds
    template = [0.0] * at
    start = {name: start for name, start, _ in blocks}
    for card in rules.deck:  # a card outside the rule set's deck is never unknown
        template[start["unknown"] + card.index] = 1.0
    return _Layout(
        rules=rules,
        blocks=tuple(blocks),
        start=start,
        size=at,
        pile=pile,
        rel_sides=tuple(rel_sides),
        xeri_cap=float(max(1, min(_CARDS // 2, plays))),
        round_cap=float(bounds[1]) if bounds is not None and bounds[1] > 0 else None,
        template=template,
        match_cache={},
    )


_LAYOUTS: dict[int, _Layout] = {}
"""Layouts by `id` of their rule set; each keeps its rule set alive, so the id stays its own."""


def _layout(rules: RuleSet) -> _Layout:
    layout = _LAYOUTS.get(id(rules))
    if layout is None or layout.rules is not rules:
        if not isinstance(rules, RuleSet):
            raise ArgumentError(f"a layout needs a RuleSet, not {type(rules).__name__}")
        if len(_LAYOUTS) >= 64:  # rule sets made on the fly must not pile up
            _LAYOUTS.clear()
        layout = _LAYOUTS[id(rules)] = _make_layout(rules)
    return layout


def observation_shape(rules: RuleSet) -> tuple[int]:
    """The shape of the tensors of a rule set: one dimension, the tensor's length.

    Args:
        rules: the rule set.

    Returns:
        `(length,)`; [`observation_tensor`][xeri.observation_tensor] returns
        lists of that length for every observation of the rule set.

    Raises:
        ArgumentError: `rules` is not a rule set.
    """
    return (_layout(rules).size,)


def observation_layout(rules: RuleSet) -> tuple[tuple[str, int, int], ...]:
    """The blocks of the tensors of a rule set, as the module docstring lists them.

    Args:
        rules: the rule set.

    Returns:
        `(name, start, stop)` for each block present under `rules`, in
        order: `tensor[start:stop]` is the block.

    Raises:
        ArgumentError: `rules` is not a rule set.
    """
    return _layout(rules).blocks


def observation_tensor(observation: Observation) -> list[float]:  # noqa: PLR0915  # one pass over the observation, block by block, reads best flat
    """The observation as a flat list of floats in [0, 1], seat-relative.

    The layout is in the module docstring and in
    [`observation_layout`][xeri._agents.features.observation_layout].

    Args:
        observation: what one seat sees, from [`observe`][xeri.observe].

    Returns:
        A new list of `observation_shape(observation.rules)[0]` floats.

    Raises:
        ArgumentError: `observation` is not an [`Observation`][xeri.Observation].
    """
    if type(observation) is not Observation:
        raise ArgumentError(
            f"observation_tensor needs an Observation, not {type(observation).__name__}"
        )
    rules = observation.rules
    lay = _layout(rules)
    start = lay.start
    seats = rules.seats
    sides_of = rules.sides
    me = observation.seat
    rel_side = lay.rel_sides[me]
    t = lay.template.copy()
    unknown = start["unknown"]

    at = start["hand"]
    for card in observation.hand:
        i = card.index
        t[at + i] = 1.0
        t[unknown + i] = 0.0

    table = observation.table
    at = start["table"]
    if lay.pile:
        for item in table:
            i = item.index  # type: ignore[union-attr]  # a pile holds cards only
            t[at + i] = 1.0
            t[unknown + i] = 0.0
        if table:
            t[start["top"] + table[-1].index] = 1.0  # type: ignore[union-attr]  # a card
    else:
        builds = start["builds"]
        values = start["build_values"]
        for item in table:
            if type(item) is Card:
                i = item.index
                t[at + i] = 1.0
                t[unknown + i] = 0.0
            else:
                assert isinstance(item, Build)  # for mypy: an item is a card or a build
                owner = (item.owner - me) % seats
                plane = builds + owner * _CARDS
                for card in item.cards:
                    i = card.index
                    t[plane + i] = 1.0
                    t[unknown + i] = 0.0
                if 1 <= item.value <= _BUILD_VALUES:
                    t[values + owner * _BUILD_VALUES + item.value - 1] = 1.0

    at = start["played"]
    for player, move in observation.plays:  # the seat of each play, from the round core
        card = move if type(move) is Card else move.card
        t[at + (player - me) % seats * _CARDS + card.index] = 1.0

    at = start["captured"]
    sides = rules.num_sides
    counts = [0] * sides
    xeris = [0] * sides
    jacks = [0] * sides
    for take in observation.takes:
        side = rel_side[sides_of[take.seat]]
        plane = at + side * _CARDS
        cards = take.cards
        for card in cards:
            i = card.index
            t[plane + i] = 1.0
            t[unknown + i] = 0.0
        counts[side] += len(cards) + take.hidden
        kind = take.xeri
        if kind is not None:
            xeris[side] += 1
            if kind is _JACK_XERI:
                jacks[side] += 1

    if rules.show_bottom_card and observation.bottom_card is not None:
        t[start["bottom"] + observation.bottom_card.index] = 1.0
    if rules.redeal is not Redeal.NEVER:
        at = start["redealt"]
        for shown in observation.redealt:
            for card in shown:
                t[at + card.index] = 1.0

    if observation.to_move is not None:
        t[start["to_move"] + (observation.to_move - me) % seats] = 1.0
    t[start["dealer"] + (observation.dealer - me) % seats] = 1.0
    takes = observation.takes
    if takes:
        t[start["last_capturer"] + (takes[-1].seat - me) % seats] = 1.0
    t[start["phase"] + _PHASE_INDEX[observation.phase]] = 1.0

    at = start["hand_sizes"]
    per_hand = rules.hand_size
    for k, size in enumerate(observation.hand_sizes):
        t[at + (k - me) % seats] = size / per_hand
    t[start["stock"]] = observation.stock_size / _CARDS
    on_table = observation.face_down + len(table)
    t[start["table_count"]] = on_table / _CARDS
    t[start["lone_item"]] = 1.0 if on_table == 1 else 0.0
    if rules.face_down:
        t[start["face_down"]] = observation.face_down / rules.face_down

    cap = lay.xeri_cap
    at_counts, at_xeris, at_jacks = start["captured_counts"], start["xeris"], start["jack_xeris"]
    for side in range(sides):
        t[at_counts + side] = counts[side] / _CARDS
        t[at_xeris + side] = min(1.0, xeris[side] / cap)
        t[at_jacks + side] = min(1.0, jacks[side] / cap)

    results = observation.round_results
    if results:  # else every match number is 0
        # The match numbers change only when a round ends: they are kept for
        # the round results they were read from (the state passes that tuple on).
        known = lay.match_cache.get(me)
        if known is None or known[0] is not results:
            known = lay.match_cache[me] = (results, _match_numbers(observation, lay, rel_side))
        t[start["scores"] :] = known[1]
    return t


def _match_numbers(
    observation: Observation, lay: _Layout, rel_side: tuple[int, ...]
) -> list[float]:
    """The `scores`, `round_points` and `rounds` blocks, the last of the tensor, together."""
    results = observation.round_results
    rules = lay.rules
    first = lay.start["scores"]
    t = [0.0] * (lay.size - first)
    start = {name: at - first for name, at in lay.start.items() if at >= first}
    sides = rules.num_sides
    played = len(results)
    fmt = rules.match
    at = start["scores"]
    if isinstance(fmt, FixedRounds):
        wins = FixedRounds.round_wins(results, sides)
        for side in range(sides):
            t[at + rel_side[side]] = min(1.0, wins[side] / fmt.rounds)
        t[start["rounds"]] = min(1.0, played / fmt.rounds)
    else:
        scores = observation.scores
        if isinstance(fmt, TargetScore):
            target = observation.status.target or fmt.target
            for side in range(sides):
                t[at + rel_side[side]] = min(1.0, scores[side] / target)
        else:
            for side in range(sides):
                score = max(0, scores[side])
                t[at + rel_side[side]] = score / (score + _SQUASH)
        t[start["rounds"]] = played / (played + _ROUNDS_SQUASH)
    last = results[-1].total
    at = start["round_points"]
    cap = lay.round_cap
    for side in range(sides):
        points = max(0, last[side])
        value = points / cap if cap is not None else points / (points + _SQUASH)
        t[at + rel_side[side]] = min(1.0, value)
    return t

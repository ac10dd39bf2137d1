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
[`observation_layout`][xeri.observation_layout] gives each block's
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
| `replaced` | 52 | table rule | the initial-table cards replaced at the deal ([T2][rules-t2]) |

"pile": the capture rule has the `pile` capability
([`PileCapture`][xeri.PileCapture]); "open": any other capture rule, an
open table ([`SumCapture`][xeri.SumCapture]); "bottom": `show_bottom_card`;
"redeal": a `redeal` other than `Redeal.NEVER`; "table rule": a `redeal` that is an
initial-table rule ([`TableRule`][xeri.TableRule], [T1][rules-t1]); "face down": `face_down` > 0.
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
| `build_values` | S × V | open | 1.0 at (rel. owner, value - 1) for each build |
| `captured_counts` | N | always | cards each rel. side captured, hidden ones included / 52 |
| `xeris` | N | always | xeris each rel. side made this round / `min(26, plays)` |
| `jack_xeris` | N | always | jack xeris, likewise |
| `scores` | N | always | each rel. side's match standing, see below |
| `round_points` | N | always | each rel. side's points in the last round, see below |
| `rounds` | 1 | always | finished rounds, see below |

`plays` is the most cards a side plays in a round. `V` is the largest value a
build may have: 10, or the largest value of the rule's values table when it is
larger ([K2][rules-k2]; a capture rule with a `card_values(card)` method, as
[`SumCapture`][xeri.SumCapture], says it), so every build has its place. A
build of a larger value, from a capture rule that does not say it, is refused
with an [`ArgumentError`][xeri.ArgumentError] rather than dropped.

The match numbers depend on the [`MatchFormat`][xeri.MatchFormat]. Under
[`TargetScore`][xeri.TargetScore] `scores` is the match score divided by the
current target (at most 1.0) and `rounds` is `r / (r + 4)` for `r` finished
rounds; under [`FixedRounds`][xeri.FixedRounds] `scores` is the rounds won
and `rounds` the rounds played, both divided by the number of rounds; under
any other format `scores` is `s / (s + 25)` and `rounds` as for a target.
`round_points` is divided by the upper bound of
[`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds], or is
`p / (p + 25)` when the scorer has no bound.

## Fast paths

`state_tensor(state, seat)` gives `observation_tensor(observe(state, seat))`
without making the observation: `seat_parts` reads the state into one
52-bit integer per card plane and the list of numbers that follows, keeping
the masks of the round's plays and captures from one call to the next.
[`xeri.envs.arrays`][xeri.envs.arrays] spreads the same parts into NumPy
arrays. The tests compare all of them with `observation_tensor` on every
state of random games of every preset.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> tensor = xeri.observation_tensor(xeri.observe(state, 1))
    >>> len(tensor) == xeri.observation_shape(xeri.GREEK)[0], sum(tensor[:52])
    (True, 6.0)
    >>> [name for name, start, stop in xeri.observation_layout(xeri.GREEK)][:4]
    ['hand', 'table', 'top', 'played']
"""

from __future__ import annotations

from typing import Any

import attrs

from xeri._agents.observation import Observation, _seat
from xeri._cards import DECK, Card
from xeri._core.round import leader, next_deal_dealer, play_seats
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, _show
from xeri._families.protocol import XeriKind
from xeri._rules.match import FixedRounds, TargetScore
from xeri._rules.redeal import RanksOnTable, Redeal
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult
from xeri._table import Build

__all__ = [
    "observation_layout",
    "observation_shape",
    "observation_tensor",
    "seat_parts",
    "state_tensor",
]

_CARDS = len(DECK)
_BUILD_VALUES = 10
"""The width of `build_values` per seat when no value of the rule is larger."""
_JACK_XERI = XeriKind.JACK_XERI
_PHASE_INDEX = {phase: i for i, phase in enumerate(Phase)}
_SQUASH = 25.0
_ROUNDS_SQUASH = 4.0


@attrs.define
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
    planes: int
    """How many card planes open the tensor: every block before `to_move`."""
    deck_mask: int
    """The rule set's deck as a bit mask, bit `card.index` for each card."""
    play_cache: list[object]
    """The last round history read, its dealer and the cards each absolute seat played in it."""
    take_cache: list[object]
    """The last takes read and, per absolute side, the cards, counts and xeris they hold."""
    build_width: int
    """The places of `build_values` per relative owner: the largest value a build may have."""
    fast: tuple[Any, ...] | None = None
    """What the fast path reads on every call, made on its first (see `_fast_facts`)."""


def _table_rule(rules: RuleSet) -> bool:
    """Whether the rule set's `redeal` is an initial-table rule ([T1][rules-t1])."""
    return not isinstance(rules.redeal, (Redeal, RanksOnTable)) and callable(
        getattr(rules.redeal, "action", None)
    )


def _build_width(rules: RuleSet) -> int:
    """The largest value a build of the rule set may have: at least 10 ([K2])."""
    card_values = getattr(rules.capture, "card_values", None)
    if not callable(card_values):
        return _BUILD_VALUES
    values = [v for card in rules.deck for v in card_values(card)]
    return max([_BUILD_VALUES, *(v for v in values if type(v) is int)])


def _build_place(lay: _Layout, owner: int, value: int) -> int:
    """Where a build of `value` owned by relative seat `owner` sets its 1.0 in `build_values`."""
    width = lay.build_width
    if not 1 <= value <= width:
        raise ArgumentError(
            f"a build of value {value} has no place in the tensor of rule set "
            f"{lay.rules.name!r}: its builds go up to {width}; give the capture rule a "
            "card_values(card) method that names the larger values"
        )
    return owner * width + value - 1


def _make_layout(rules: RuleSet) -> _Layout:
    seats, sides = rules.seats, rules.num_sides
    pile = rules.capture.pile
    width = 0 if pile else _build_width(rules)
    sizes: list[tuple[str, int]] = [("hand", _CARDS), ("table", _CARDS)]
    sizes.append(("top", _CARDS) if pile else ("builds", seats * _CARDS))
    sizes += [("played", seats * _CARDS), ("captured", sides * _CARDS), ("unknown", _CARDS)]
    if rules.show_bottom_card:
        sizes.append(("bottom", _CARDS))
    if rules.redeal is not Redeal.NEVER:
        sizes.append(("redealt", _CARDS))
    if _table_rule(rules):
        sizes.append(("replaced", _CARDS))
    sizes += [("to_move", seats), ("dealer", seats), ("last_capturer", seats)]
    sizes += [("phase", len(Phase)), ("hand_sizes", seats)]
    sizes += [("stock", 1), ("table_count", 1), ("lone_item", 1)]
    if rules.face_down:
        sizes.append(("face_down", 1))
    if not pile:
        sizes.append(("build_values", seats * width))
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
        planes=start["to_move"] // _CARDS,
        deck_mask=sum(1 << card.index for card in rules.deck),
        play_cache=[None, None, None],
        take_cache=[None, None, None],
        build_width=width,
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
    """The blocks of the tensors of a rule set, as [the layout][observation-tensors] lists them.

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

    The layout is under [observation tensors][observation-tensors] and in
    [`observation_layout`][xeri.observation_layout].

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
    me = _seat(observation)
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
                t[values + _build_place(lay, owner, item.value)] = 1.0

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
    if "replaced" in start:
        at = start["replaced"]
        for card in observation.replaced:
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
    observation: Observation | GameState, lay: _Layout, rel_side: tuple[int, ...]
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


# -- the fast path: a seat's tensor straight from the state, as bit masks ------------------
#
# `observation_tensor(observe(state, seat))` reads the observation item by item
# into a list of floats. The environments need the tensor of a state on every
# step, so `seat_parts` reads the state once into compact integers instead:
# one 52-bit mask per card plane (bit `card.index`), and the short list of
# numbers that follows the planes. The planes of the round's plays and
# captures grow by a card or a take per move, so the masks of the last
# history and takes read are kept and extended when the next state continues
# them (a tuple comparison of the kept prefix: equal prefixes give equal
# masks, so a stale cache can only be missed, never misread). `state_tensor`
# spreads the parts into the same list of floats as `observation_tensor`;
# `xeri.envs.arrays` spreads them into NumPy arrays with `numpy.unpackbits`.


def _play_masks(state: GameState, lay: _Layout) -> list[int]:
    """The cards each absolute seat played this round, one mask per seat."""
    rules = lay.rules
    history = state.history
    dealer = state.dealer
    seats = rules.seats
    if next_deal_dealer(rules, dealer) != dealer:  # the deal passes: the core names each seat
        masks = [0] * seats
        for player, move in zip(play_seats(rules, dealer, len(history)), history, strict=True):
            card = move if type(move) is Card else move.card
            masks[player] |= 1 << card.index
        return masks
    cache = lay.play_cache
    known = cache[0]
    if known is not None and cache[1] == dealer:
        done = len(known)  # type: ignore[arg-type]  # a tuple of moves
        if len(history) >= done and history[:done] == known:
            masks = list(cache[2])  # type: ignore[call-overload]  # a list of ints
            seat = (leader(rules, dealer) + done) % seats
            for move in history[done:]:
                card = move if type(move) is Card else move.card
                masks[seat] |= 1 << card.index
                seat = (seat + 1) % seats
            cache[0], cache[2] = history, masks
            return masks  # type: ignore[no-any-return,unused-ignore]  # a list of ints
    masks = [0] * seats
    seat = leader(rules, dealer)  # one dealer all round: play goes round from its leader
    for move in history:
        card = move if type(move) is Card else move.card
        masks[seat] |= 1 << card.index
        seat = (seat + 1) % seats
    cache[0], cache[1], cache[2] = history, dealer, masks
    return masks


def _take_facts(state: GameState, lay: _Layout) -> list[list[int]]:
    """Per absolute side: the captured cards' mask, the cards counted, xeris and jack xeris."""
    takes = state.takes
    cache = lay.take_cache
    known = cache[0]
    if known is takes:
        return cache[1]  # type: ignore[return-value]  # the lists kept
    sides_of = lay.rules.sides
    facts: list[list[int]]
    if known is not None and len(takes) >= len(known) and takes[: len(known)] == known:  # type: ignore[arg-type]  # a tuple of takes
        facts = [list(f) for f in cache[1]]  # type: ignore[attr-defined]  # lists of ints
        new = takes[len(known) :]  # type: ignore[arg-type,unused-ignore]  # a tuple of takes
    else:
        facts = [[0, 0, 0, 0] for _ in range(lay.rules.num_sides)]
        new = takes
    for take in new:
        fact = facts[sides_of[take.seat]]
        mask = 0
        for card in take.cards:
            mask |= 1 << card.index
        fact[0] |= mask
        fact[1] += len(take.cards)
        kind = take.xeri
        if kind is not None:
            fact[2] += 1
            if kind is _JACK_XERI:
                fact[3] += 1
    cache[0], cache[1], cache[2] = takes, facts, {}
    return facts


def _seat_takes(lay: _Layout, seat: int) -> tuple[list[int], list[float]]:
    """The captured planes and the count and xeri numbers of the kept takes, seat-relative."""
    seen: dict[int, tuple[list[int], list[float]]] = lay.take_cache[2]  # type: ignore[assignment]  # kept by _take_facts
    known = seen.get(seat)
    if known is None:
        facts: list[list[int]] = lay.take_cache[1]  # type: ignore[assignment]  # kept by _take_facts
        order = lay.fast[2][seat]  # type: ignore[index]  # made before the takes are read
        cap = lay.xeri_cap
        numbers = [facts[side][1] / _CARDS for side in order]
        numbers += [min(1.0, facts[side][2] / cap) for side in order]
        numbers += [min(1.0, facts[side][3] / cap) for side in order]
        known = seen[seat] = ([facts[side][0] for side in order], numbers)
    return known


def _fast_facts(lay: _Layout) -> tuple[Any, ...]:
    """What `seat_parts` reads of a layout on every call, worked out once and kept on it."""
    facts = lay.fast
    if facts is None:
        rules = lay.rules
        seats = rules.seats
        hot = [[1.0 if i == k else 0.0 for i in range(seats)] for k in range(seats)]
        hot.append([0.0] * seats)
        phases = {
            phase: [1.0 if j == i else 0.0 for j in range(len(Phase))]
            for phase, i in _PHASE_INDEX.items()
        }
        order = tuple(
            tuple(sorted(range(rules.num_sides), key=lay.rel_sides[me].__getitem__))
            for me in range(seats)
        )
        zeros = [0.0] * (lay.size - lay.start["scores"])
        facts = lay.fast = (
            tuple(hot),
            phases,
            order,
            zeros,
            rules.redeal is not Redeal.NEVER,
            rules.capture.pile,
        )
    return facts


def seat_parts(state: GameState, seat: int) -> tuple[list[int], list[float]]:  # noqa: PLR0915  # one pass, block by block, as observation_tensor
    """The tensor of `observation_tensor(observe(state, seat))`, as bit masks and numbers.

    Trusted input: the caller passes a state and one of its seats.

    Returns:
        The card planes of the tensor's first blocks (everything before
        `to_move`), each a mask with bit `card.index` set where the plane is
        1.0, and the values of every later block, in order.
    """
    rules = state.rules
    lay = _layout(rules)
    hot, phases, order, zeros, redeals, pile = lay.fast or _fast_facts(lay)
    seats = rules.seats
    table = state.table
    takes = state.takes
    down = 0
    hidden = 0
    face_down = rules.face_down
    if face_down and state.phase is not Phase.DEAL:  # what observe hides ([P3])
        if not takes:
            down = min(face_down, len(table))
            table = table[down:]
        elif takes[0].seat != seat:
            hidden = max(0, min(face_down, len(takes[0].cards) - 1))

    hand = 0
    for card in state.hands[seat]:
        hand |= 1 << card.index
    loose = 0
    if pile:
        for item in table:
            loose |= 1 << item.index  # type: ignore[union-attr]  # a pile holds cards only
        seen = hand | loose
        planes = [hand, loose, 1 << table[-1].index if table else 0]  # type: ignore[union-attr]  # a card
    else:
        built = [0] * seats
        values = [0.0] * (seats * lay.build_width)
        for item in table:
            if type(item) is Card:
                loose |= 1 << item.index
            else:
                assert isinstance(item, Build)  # for mypy: an item is a card or a build
                owner = (item.owner - seat) % seats
                for card in item.cards:
                    built[owner] |= 1 << card.index
                values[_build_place(lay, owner, item.value)] = 1.0
        seen = hand | loose
        for mask in built:
            seen |= mask
        planes = [hand, loose, *built]

    played = _play_masks(state, lay)
    planes += played[seat:] + played[:seat]

    _take_facts(state, lay)
    captured, counted = _seat_takes(lay, seat)
    if hidden:  # the first take's face-down cards, unseen by this seat
        captured = captured.copy()
        down_mask = 0
        for card in takes[0].cards[:hidden]:
            down_mask |= 1 << card.index
        captured[order[seat].index(rules.sides[takes[0].seat])] &= ~down_mask
    planes += captured
    for mask in captured:
        seen |= mask
    planes.append(lay.deck_mask & ~seen)
    if rules.show_bottom_card:
        bottom = state.bottom_card
        planes.append(0 if bottom is None else 1 << bottom.index)
    if redeals:
        shown_mask = 0
        for shown in state.redealt:
            for card in shown:
                shown_mask |= 1 << card.index
        planes.append(shown_mask)
    if "replaced" in lay.start:
        replaced_mask = 0
        for card in state.replaced:
            replaced_mask |= 1 << card.index
        planes.append(replaced_mask)

    to_move = state.to_move
    numbers = (
        hot[seats if to_move is None else (to_move - seat) % seats]
        + hot[(state.dealer - seat) % seats]
        + hot[(takes[-1].seat - seat) % seats if takes else seats]
        + phases[state.phase]
    )
    hands = state.hands
    per_hand = rules.hand_size
    for k in range(seat, seat + seats):
        numbers.append(len(hands[k % seats]) / per_hand)
    on_table = down + len(table)
    numbers += [len(state.stock) / _CARDS, on_table / _CARDS, 1.0 if on_table == 1 else 0.0]
    if face_down:
        numbers.append(down / face_down)
    if not pile:
        numbers += values
    numbers += counted
    results = state.round_results
    if results:
        known = lay.match_cache.get(seat)
        if known is None or known[0] is not results:
            known = lay.match_cache[seat] = (
                results,
                _match_numbers(state, lay, lay.rel_sides[seat]),
            )
        numbers += known[1]
    else:
        numbers += zeros
    return planes, numbers


def state_tensor(state: GameState, seat: int) -> list[float]:
    """`observation_tensor(observe(state, seat))`, read from the state's bit masks.

    Plain Python, without an observation made on the way; equal, float
    for float, to the tensor of the observation.

    Args:
        state: a state.
        seat: a seat of its rule set.

    Returns:
        A new list of `observation_shape(state.rules)[0]` floats.

    Raises:
        ArgumentError: `state` is not a state or `seat` not one of its seats.
    """
    if type(state) is not GameState:
        raise ArgumentError(f"state_tensor needs a GameState, not {type(state).__name__}")
    if type(seat) is not int or not 0 <= seat < state.rules.seats:
        raise ArgumentError(
            f"seat must be an int from 0 to {state.rules.seats - 1}, not {_show(seat)}"
        )
    planes, numbers = seat_parts(state, seat)
    t = [0.0] * (len(planes) * _CARDS)
    for k, mask in enumerate(planes):
        at = k * _CARDS
        bits = mask
        while bits:
            low = bits & -bits
            t[at + low.bit_length() - 1] = 1.0
            bits ^= low
    t += numbers
    return t

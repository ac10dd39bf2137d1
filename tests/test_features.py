"""Observation tensors (X2: nothing hidden leaks), per-seat returns and round points."""

from __future__ import annotations

import itertools
import math
import random

import attrs
import pytest

import xeri
from edge_games import PISTI, all_rules, game, states
from xeri import GERMAN, GREEK, GREEK_FOUR, Build, Card, GameState, Phase, RuleSet
from xeri._agents.features import (
    observation_layout,
    observation_shape,
    observation_tensor,
    state_tensor,
)
from xeri._rules.scoring import RoundResult
from xeri.testing import shuffle_hidden


def _block(rules: RuleSet, tensor: list[float], name: str) -> list[float]:
    for block, start, stop in observation_layout(rules):
        if block == name:
            return tensor[start:stop]
    raise KeyError(name)


def _ones(plane: list[float]) -> set[Card]:
    return {xeri.DECK[i] for i, v in enumerate(plane) if v == 1.0}


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_layout_covers_the_tensor_without_gaps(rules: RuleSet) -> None:
    layout = observation_layout(rules)
    assert layout[0][:2] == ("hand", 0)
    for (_, _, stop), (_, start, _) in itertools.pairwise(layout):
        assert stop == start
    assert layout[-1][2] == observation_shape(rules)[0] == math.prod(observation_shape(rules))
    assert len({name for name, _, _ in layout}) == len(layout)


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_X2_tensors_at_every_decision_point(rules: RuleSet) -> None:
    (size,) = observation_shape(rules)
    for seed in (1, 2):
        for state in states(rules, seed, rounds=1):
            for seat in range(rules.seats):
                seen = xeri.observe(state, seat)
                tensor = observation_tensor(seen)
                assert len(tensor) == size
                assert all(type(v) is float and 0.0 <= v <= 1.0 for v in tensor)
                # The own hand is the first block, whichever seat observes.
                assert _ones(tensor[:52]) == set(seen.hand)
                hand_sizes = _block(rules, tensor, "hand_sizes")
                assert hand_sizes[0] * rules.hand_size == len(seen.hand)


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_X2_hidden_cards_do_not_change_the_tensor(rules: RuleSet) -> None:
    rng = random.Random(11)
    for state in states(rules, 5, rounds=1, every=3):
        for seat in range(rules.seats):
            tensor = observation_tensor(xeri.observe(state, seat))
            other = shuffle_hidden(state, seat, rng)
            assert observation_tensor(xeri.observe(other, seat)) == tensor


def test_the_tensor_is_seat_relative() -> None:
    # In the four-player game seat 2 sees its partner (seat 0) as relative seat 2,
    # and its own side first.
    state = next(s for s in states(GREEK_FOUR, 3) if s.phase is Phase.PLAY and s.takes)
    for seat in range(4):
        tensor = observation_tensor(xeri.observe(state, seat))
        to_move = _block(GREEK_FOUR, tensor, "to_move")
        assert to_move.index(1.0) == (state.to_move - seat) % 4  # type: ignore[operator]  # in play
        played = _block(GREEK_FOUR, tensor, "played")
        for i, move in enumerate(state.history):
            rel = (state.dealer + 1 + i - seat) % 4
            assert played[rel * 52 + move.card.index] == 1.0, i
        assert sum(played) == len(state.history)
        captured = _block(GREEK_FOUR, tensor, "captured")
        own_side = GREEK_FOUR.sides[seat]
        assert _ones(captured[:52]) == set(state.captured[own_side])
        assert _ones(captured[52:]) == set(state.captured[1 - own_side])


def test_unknown_cards_are_the_complement_of_what_is_seen() -> None:
    for rules in (GREEK, GERMAN, PISTI):
        for state in states(rules, 8, every=7):
            seen = xeri.observe(state, 0)
            tensor = observation_tensor(seen)
            known = set(seen.hand)
            for item in seen.table:
                known |= set(item.cards) if isinstance(item, Build) else {item}
            for take in seen.takes:
                known |= set(take.cards)
            assert _ones(_block(rules, tensor, "unknown")) == set(xeri.DECK) - known


def test_D3_builds_are_encoded_by_relative_owner() -> None:
    found = False
    for state in states(GERMAN, 4, rounds=2):
        builds = [item for item in state.table if isinstance(item, Build)]
        if not builds:
            continue
        found = True
        for seat in range(2):
            tensor = observation_tensor(xeri.observe(state, seat))
            planes = _block(GERMAN, tensor, "builds")
            values = _block(GERMAN, tensor, "build_values")
            for build in builds:
                rel = (build.owner - seat) % 2
                assert all(planes[rel * 52 + c.index] == 1.0 for c in build.cards)
                assert values[rel * 10 + build.value - 1] == 1.0
            assert sum(values) == len({(b.owner, b.value) for b in builds})
    assert found


def test_G7_lone_item_flag() -> None:
    for state in states(GREEK, 6):
        tensor = observation_tensor(xeri.observe(state, 0))
        assert _block(GREEK, tensor, "lone_item") == [1.0 if len(state.table) == 1 else 0.0]


def test_tensor_refuses_anything_but_an_observation() -> None:
    state = xeri.new_game(GREEK, rng=random.Random(1))
    with pytest.raises(xeri.ArgumentError, match="needs an Observation, not GameState"):
        observation_tensor(state)  # type: ignore[arg-type]  # the wrong type on purpose


def _end(rules: RuleSet, seed: int) -> GameState:
    return [s for s, _ in game(rules, seed)][-1]


@pytest.mark.parametrize("rules", [GREEK, GERMAN], ids=lambda r: r.name)
def test_G11_returns_at_match_end(rules: RuleSet) -> None:
    end = _end(rules, 3)
    assert end.is_over
    winner = end.winner
    assert winner is not None
    assert end.returns == tuple(1.0 if s == winner else -1.0 for s in rules.sides)
    assert sum(end.returns) == 0.0
    assert xeri.observe(end, 1).returns == end.returns
    low, high = rules.returns_bounds
    assert all(low <= r <= high for r in end.returns)


@pytest.mark.parametrize("seed", [3, 5])
def test_F8_returns_partners_equal_and_zero_sum(seed: int) -> None:
    end = _end(GREEK_FOUR, seed)
    returns = end.returns
    assert end.winner is not None
    assert returns[0] == returns[2] == -returns[1] == -returns[3]
    assert returns[GREEK_FOUR.seats_of(end.winner)[0]] == 1.0
    assert sum(returns) == 0.0


def _result(total: tuple[int, int]) -> RoundResult:
    return RoundResult(
        cards=(26, 26),
        card_points=total,
        majority=(0, 0),
        xeris=(0, 0),
        xeri_bonus=(0, 0),
        total=total,
    )


def test_F8_a_drawn_match_returns_zeros() -> None:
    end = _end(GREEK_FOUR, 2)  # this seed's match is drawn
    assert end.is_over
    assert end.winner is None
    assert end.returns == (0.0, 0.0, 0.0, 0.0)
    # Two rounds won by each side, built by hand from a match that was won: drawn.
    won = _end(GREEK_FOUR, 3)
    totals = ((12, 10), (10, 12), (12, 10), (9, 13))
    drawn = attrs.evolve(won, round_results=tuple(map(_result, totals)))
    assert drawn.is_over
    assert drawn.winner is None
    assert drawn.returns == (0.0, 0.0, 0.0, 0.0)
    assert drawn.round_points == (9, 13, 9, 13)


def test_returns_are_zero_before_the_end() -> None:
    for rules in (GREEK, GREEK_FOUR, GERMAN):
        for state in states(rules, 9, rounds=1, every=5):
            assert not state.is_over
            assert state.returns == (0.0,) * rules.seats


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, GERMAN], ids=lambda r: r.name)
def test_round_points_per_seat(rules: RuleSet) -> None:
    start = xeri.new_game(rules, rng=random.Random(1))
    assert start.round_points == (0,) * rules.seats
    end = _end(rules, 4)
    last = end.round_results[-1].total
    assert end.round_points == tuple(last[side] for side in rules.sides)
    assert xeri.observe(end, 0).round_points == end.round_points
    bounds = rules.round_points_bounds
    assert bounds is not None
    for result in end.round_results:
        assert all(bounds[0] <= t <= bounds[1] for t in result.total)


def test_G10_round_points_bounds_of_the_presets() -> None:
    # Greek: 22 card points + 3 majority + 24 xeris of which 2 jack xeris (10 more each).
    assert GREEK.round_points_bounds == (0, 22 + 3 + 24 * 10 + 2 * 10)
    # German: 7 card points + 4 majority + 24 xeris; no jack xeri bonus above a xeri.
    assert GERMAN.round_points_bounds == (0, 7 + 4 + 24 * 10)
    assert GREEK.returns_bounds == (-1.0, 1.0)


def test_round_points_bounds_need_the_standard_scorer() -> None:
    @attrs.frozen
    class Flat:
        def score(self, captured, xeris, rules, *, leftover=0):  # type: ignore[no-untyped-def]  # test stub
            raise NotImplementedError

        def check(self, result, rules):  # type: ignore[no-untyped-def]  # test stub
            return []

    custom = attrs.evolve(GREEK, name="bounds-flat-test", scorer=Flat())
    assert custom.round_points_bounds is None
    tensor = observation_tensor(xeri.observe(xeri.new_game(custom, rng=random.Random(2)), 0))
    assert len(tensor) == observation_shape(custom)[0]


# -- the fast path: state_tensor reads bit masks of the state (X2 as the observation) --------


_FAST_RULES = (
    *all_rules(),
    attrs.evolve(GREEK, name="greek-per-deal-test", dealer_per_deal=True),
    attrs.evolve(GREEK_FOUR, name="greek-four-per-deal-test", dealer_per_deal=True),
)


@pytest.mark.parametrize("rules", _FAST_RULES, ids=lambda r: r.name)
def test_X2_state_tensor_equals_the_observation_tensor(rules: RuleSet) -> None:
    for seed in (3, 4):
        for state in states(rules, seed, rounds=2):
            for seat in range(rules.seats):
                assert state_tensor(state, seat) == observation_tensor(xeri.observe(state, seat))


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_X2_state_tensor_kept_masks_never_misread_out_of_order(rules: RuleSet) -> None:
    # The masks of the last history and takes read are kept; states read in
    # a shuffled order, from two games at once, must give the same tensors.
    pool = states(rules, 7, rounds=2) + states(rules, 8, rounds=1)
    random.Random(1).shuffle(pool)
    for state in pool[:300]:
        seat = len(state.history) % rules.seats
        assert state_tensor(state, seat) == observation_tensor(xeri.observe(state, seat))


def test_state_tensor_refuses_what_is_not_a_state_or_a_seat() -> None:
    state = xeri.new_game(GREEK, dealer=0, rng=random.Random(1))
    with pytest.raises(xeri.ArgumentError, match="GameState"):
        state_tensor(xeri.observe(state, 0), 0)  # type: ignore[arg-type]
    with pytest.raises(xeri.ArgumentError, match="seat must be"):
        state_tensor(state, 2)


# Values above 10 (K2): a build of value 11 to 14 has its own place in the tensor.
HIGH = attrs.evolve(
    GERMAN,
    name="german-high-values-test",
    capture=attrs.evolve(
        GERMAN.capture,
        values={
            **dict(GERMAN.capture.values),
            xeri.Rank.JACK: 11,
            xeri.Rank.QUEEN: 12,
            xeri.Rank.KING: 13,
            xeri.Rank.ACE: (1, 14),
        },
    ),
)


def test_K2_build_values_above_10_are_encoded_not_dropped() -> None:
    assert _block(GERMAN, [0.0] * observation_shape(GERMAN)[0], "build_values") == [0.0] * 20
    width = len(_block(HIGH, [0.0] * observation_shape(HIGH)[0], "build_values")) // 2
    assert width == 14  # the largest value of the table, the ace's 14
    high = 0
    for seed in range(40):
        for state in states(HIGH, seed, every=3):
            builds = [item for item in state.table if isinstance(item, Build)]
            high += sum(b.value > 10 for b in builds)
            for seat in range(2):
                tensor = observation_tensor(xeri.observe(state, seat))
                values = _block(HIGH, tensor, "build_values")
                for build in builds:
                    assert values[(build.owner - seat) % 2 * width + build.value - 1] == 1.0
                assert sum(values) == len({(b.owner, b.value) for b in builds})
                assert tensor == state_tensor(state, seat)
        if high >= 3:
            break
    assert high >= 3


class _Opaque(xeri.SumCapture):
    """A sum rule that hides its values table from the tensor (no `card_values`)."""

    card_values = None  # type: ignore[assignment]  # the tensor then assumes builds up to 10


def test_a_build_above_the_tensor_width_is_refused_not_dropped() -> None:
    rules = attrs.evolve(HIGH, name="opaque-test", capture=_Opaque(values=HIGH.capture.values))
    assert len(_block(rules, [0.0] * observation_shape(rules)[0], "build_values")) == 20
    build = Build(cards=(Card.parse("K♠"),), owner=0, value=13)
    state = attrs.evolve(states(rules, 1)[1], table=(build,))
    with pytest.raises(xeri.ArgumentError, match="a build of value 13 has no place"):
        observation_tensor(xeri.observe(state, 0))
    with pytest.raises(xeri.ArgumentError, match="a build of value 13 has no place"):
        state_tensor(state, 0)

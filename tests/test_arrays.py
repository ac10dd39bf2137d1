"""NumPy observation arrays and the tensor tracker equal the plain-Python tensors (X2)."""

from __future__ import annotations

import random

import attrs
import numpy as np
import pytest

import xeri
from edge_games import all_rules, states
from xeri import GREEK, GREEK_FOUR, RuleSet
from xeri.envs.arrays import TensorTracker, action_mask_array, observation_array

RULES = (
    *all_rules(),
    attrs.evolve(GREEK, name="greek-per-deal-test", dealer_per_deal=True),
    attrs.evolve(GREEK_FOUR, name="greek-four-per-deal-test", dealer_per_deal=True),
)


def _expected(state: xeri.GameState, seat: int) -> np.ndarray:
    return np.asarray(xeri.observation_tensor(xeri.observe(state, seat)), dtype=np.float32)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_X2_arrays_and_masks_equal_the_plain_tensors_and_masks(rules: RuleSet) -> None:
    try:  # Cassino's builds and multi_capture have no action encoding
        xeri.num_actions(rules)
        encoded = True
    except xeri.RuleSetError:
        encoded = False
    for state in states(rules, 2, rounds=2):
        for seat in range(rules.seats):
            assert np.array_equal(observation_array(state, seat), _expected(state, seat))
            if not encoded:
                continue
            mask = action_mask_array(state, seat)
            legal = xeri.legal_actions(state) if state.to_move == seat else ()
            assert set(np.flatnonzero(mask)) == set(legal)
        if encoded:
            assert bytes(action_mask_array(state).astype(np.uint8)) == xeri.action_mask(state)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_X2_the_tracker_follows_games_play_by_play_and_out_of_order(rules: RuleSet) -> None:
    tracker = TensorTracker(rules)
    rng = random.Random(4)
    pool = states(rules, 5, rounds=2)
    for state in pool:  # in order, each seat now and then
        seat = state.to_move if state.to_move is not None and rng.random() < 0.7 else 0
        assert np.array_equal(tracker.observe(state, seat), _expected(state, seat))
    rng.shuffle(pool)
    for state in pool[:150]:  # out of order: every state read whole
        seat = rng.randrange(rules.seats)
        assert np.array_equal(tracker.observe(state, seat), _expected(state, seat))


def test_the_arrays_refuse_what_is_not_a_state_or_a_seat() -> None:
    state = xeri.new_game(GREEK, dealer=0, rng=random.Random(1))
    out = np.zeros(xeri.observation_shape(GREEK), dtype=np.float32)
    assert observation_array(state, 1, out) is out
    with pytest.raises(xeri.IllegalMoveError, match="GameState"):
        observation_array(xeri.observe(state, 0), 0)  # type: ignore[arg-type]
    with pytest.raises(xeri.IllegalMoveError, match="seat must be"):
        observation_array(state, 2)
    with pytest.raises(xeri.IllegalMoveError, match="seat must be"):
        action_mask_array(state, -1)
    tracker = TensorTracker(GREEK)
    with pytest.raises(xeri.IllegalMoveError, match="seat must be"):
        tracker.observe(state, 5)
    other = xeri.new_game(GREEK_FOUR, dealer=0, rng=random.Random(1))
    with pytest.raises(xeri.IllegalMoveError, match="rule set"):
        tracker.observe(other, 0)


def _swapped(state: xeri.GameState, seat: int, at: int) -> xeri.GameState:
    """`state` with card `at` of `seat`'s hand swapped with the stock's first: another deal."""
    hands = [list(hand) for hand in state.hands]
    stock = list(state.stock)
    hands[seat][at], stock[0] = stock[0], hands[seat][at]
    return attrs.evolve(state, hands=tuple(map(tuple, hands)), stock=tuple(stock))


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR], ids=lambda r: r.name)
def test_X2_the_tracker_does_not_follow_another_deal_with_the_same_plays(rules: RuleSet) -> None:
    # Two deals that share their plays (a resampled state, another game): the
    # state after one more play of the other deal is read whole, for every seat
    # (a hand held elsewhere, the mover's other cards, the table's order).
    rng = random.Random(8)
    checked = 0
    for state in states(rules, 3, rounds=1):
        mover = state.to_move
        if state.phase is not xeri.Phase.PLAY or mover is None or len(state.stock) < 1:
            continue
        move = xeri.legal_moves(state)[rng.randrange(len(xeri.legal_moves(state)))]
        others = [
            _swapped(state, seat, at)
            for seat in range(rules.seats)
            for at in range(len(state.hands[seat]))
            if state.hands[seat][at] != move.card  # type: ignore[attr-defined]  # a pile move
        ]
        if len(state.table) > 1:  # the same table in another order
            others.append(attrs.evolve(state, table=state.table[::-1]))
        for other in others:
            after = xeri.apply(other, move)
            if after.phase is not xeri.Phase.PLAY:
                continue
            for seat in range(rules.seats):
                tracker = TensorTracker(rules)
                tracker.observe(state, seat)  # the tracker holds the first deal
                assert np.array_equal(tracker.observe(after, seat), _expected(after, seat))
                checked += 1
    assert checked > 100

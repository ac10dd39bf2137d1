"""The Gymnasium environment: one learning seat against bots (X2, G9, F8)."""

from __future__ import annotations

import numpy as np
import pytest

import xeri
from xeri import GERMAN, GREEK, GREEK_FOUR, PISTI

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils.env_checker import check_env  # noqa: E402  # after the importorskip

from xeri.envs.gymnasium import env, env_name  # noqa: E402  # after the importorskip

RULES = (GREEK, GREEK_FOUR, GERMAN, PISTI)


def _play(game, seed: int, *, legal: bool = True):
    observation, info = game.reset(seed=seed)
    rewards = []
    rng = np.random.default_rng(seed)
    while True:
        assert (observation["action_mask"] == info["action_mask"]).all()
        mask = info["action_mask"]
        action = int(rng.choice(np.flatnonzero(mask))) if legal else int(np.argmin(mask))
        observation, reward, terminated, truncated, info = game.step(action)
        rewards.append(reward)
        assert not truncated
        if terminated:
            return rewards, info


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
@pytest.mark.parametrize("episode", ["round", "match"])
def test_check_env_passes(rules, episode):
    check_env(env(rules=rules, opponents="greedy", episode=episode), skip_render_check=True)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_X2_the_observation_is_the_seats_tensor_and_the_mask_its_legal_actions(rules):
    seat = rules.seats - 1
    game = env(rules=rules, opponents="random", seat=seat, episode="match")
    observation, info = game.reset(seed=5)
    for _ in range(120):  # the tracker's plays, the deals again, the rounds' ends, a reset
        state = game.game_state
        assert state.to_move == seat
        expected = xeri.observation_tensor(xeri.observe(state, seat))
        assert (observation["observation"] == np.asarray(expected, dtype=np.float32)).all()
        assert set(np.flatnonzero(info["action_mask"])) == set(xeri.legal_actions(state))
        observation, _, terminated, _, info = game.step(
            game.action_space.sample(info["action_mask"])
        )
        if terminated:
            observation, info = game.reset()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_G9_a_round_episode_rewards_the_rounds_margin_at_its_end(rules):
    game = env(rules=rules, opponents="greedy")
    rewards, info = _play(game, 3)
    state = game.game_state
    assert state.is_round_over
    assert len(state.round_results) == 1
    total = state.round_results[-1].total
    mine = rules.sides[0]
    margin = total[mine] - max(t for s, t in enumerate(total) if s != mine)
    assert rewards[-1] == margin
    assert not any(rewards[:-1])
    assert not info["action_mask"].any()


def test_F8_a_match_episode_under_outcome_rewards_the_returns_once():
    game = env(rules=GREEK, opponents="greedy", episode="match", reward="outcome")
    rewards, _ = _play(game, 4)
    state = game.game_state
    assert state.is_over
    assert rewards[-1] == state.returns[0] != 0
    assert not any(rewards[:-1])


def test_G9_a_match_episode_under_points_rewards_every_rounds_margin():
    game = env(rules=GREEK, opponents="random", episode="match")
    rewards, _ = _play(game, 6)
    state = game.game_state
    margins = [r.total[0] - r.total[1] for r in state.round_results]
    assert sum(rewards) == sum(margins)
    assert len([r for r in rewards if r]) == len([m for m in margins if m])


def test_an_illegal_action_ends_the_episode_with_the_illegal_reward_and_keeps_the_game():
    game = env(rules=GREEK, opponents="random")
    game.reset(seed=1)
    before = game.game_state
    illegal = next(a for a in range(52) if a not in xeri.legal_actions(before))
    _observation, reward, terminated, truncated, info = game.step(illegal)
    assert terminated
    assert not truncated
    assert info["illegal_action"]
    assert reward == -(GREEK.round_points_bounds[1] + 1)
    assert game.game_state is before
    with pytest.raises(xeri.IllegalMoveError, match="episode is over"):
        game.step(illegal)
    outcome = env(rules=GREEK, reward="outcome", illegal_reward=-5.0)
    outcome.reset(seed=1)
    assert outcome.step(illegal)[1] == -5.0


def test_illegal_raise_raises_and_keeps_the_game():
    game = env(rules=GREEK, illegal="raise")
    game.reset(seed=1)
    before = game.game_state
    illegal = next(a for a in range(52) if a not in xeri.legal_actions(before))
    with pytest.raises(xeri.IllegalMoveError, match="action "):
        game.step(illegal)
    with pytest.raises(xeri.IllegalMoveError, match="an action is an int"):
        game.step("3")
    assert game.game_state is before
    game.step(np.int64(xeri.legal_actions(before)[0]))  # a NumPy integer is an action


def test_a_seed_fixes_the_episode_opponents_included():
    first = _play(env(rules=GREEK_FOUR, opponents="counting"), 9)
    again = _play(env(rules=GREEK_FOUR, opponents="counting"), 9)
    assert first[0] == again[0]


def test_opponents_may_be_bots_callables_or_one_per_seat():
    seen = []

    def first_move(observation, rng):
        seen.append(observation)
        return xeri.legal_moves(observation)[0]

    game = env(rules=GREEK_FOUR, seat=2, opponents=[first_move, xeri.bots.GreedyBot(), "random"])
    _play(game, 2)
    assert seen
    assert all(type(o) is xeri.Observation and o.seat == 0 for o in seen)


def test_bad_arguments_are_refused():
    with pytest.raises(xeri.ArgumentError, match="no bot is named"):
        env(opponents="smart")
    with pytest.raises(xeri.ArgumentError, match="3 other seats need 3"):
        env(rules=GREEK_FOUR, opponents=["random"])
    with pytest.raises(xeri.ArgumentError, match="seat must be"):
        env(seat=2)
    with pytest.raises(xeri.ArgumentError, match="episode"):
        env(episode="game")
    with pytest.raises(xeri.ArgumentError, match="not int"):
        env(opponents=3)
    with pytest.raises(xeri.RuleSetError):
        env(rules=xeri.CASSINO)
    with pytest.raises(xeri.IllegalMoveError, match="call reset"):
        env().game_state  # noqa: B018  # the property raises


def test_the_environments_are_named_with_a_version_and_registered():
    assert env_name(GREEK) == "XeriGreek-v0"
    assert env_name(GREEK_FOUR) == "XeriGreekFour-v0"
    made = gymnasium.make("xeri/XeriPisti-v0")
    assert made.unwrapped.rules == PISTI
    made.close()


def test_the_ansi_render_shows_only_the_agents_hand():
    game = env(render_mode="ansi")
    assert game.render() == "no game yet: call reset"
    game.reset(seed=2)
    text = game.render()
    state = game.game_state
    assert " ".join(map(str, state.hands[0])) in text
    assert " ".join(map(str, state.hands[1])) not in text

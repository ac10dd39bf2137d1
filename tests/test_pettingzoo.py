"""The PettingZoo adapter: PettingZoo's conformance tests, rewards, seeding, illegal moves."""

from __future__ import annotations

import functools

import attrs
import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import xeri
from xeri import GERMAN, GREEK, GREEK_FOUR, ArgumentError, IllegalMoveError, RuleSet, RuleSetError
from xeri.envs.pettingzoo import XeriEnv, env, raw_env

PRESETS = [GREEK, GREEK_FOUR, GERMAN]
EPISODES = ["match", "round"]
CASES = [(rules, episode) for rules in PRESETS for episode in EPISODES]


def _case_id(case: tuple[RuleSet, str]) -> str:
    return f"{case[0].name}-{case[1]}"


# api_test advises a Box or Discrete observation space and a bare array: a
# Dict of observation and action mask is the layout of PettingZoo's own card
# and board games, which it exempts by name.


def _play(game, seed: int, *, until_over: bool = True) -> list[tuple[str, float]]:
    """Play random masked actions; return the (agent, reward) pairs seen at termination."""
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final = []
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            final.append((agent, reward))
            game.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        game.step(int(rng.choice(legal)))
        if not until_over:
            break
    return final


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("case", CASES, ids=_case_id)
@pytest.mark.parametrize("make", [env, raw_env], ids=["env", "raw_env"])
def test_pettingzoo_api_test(case, make):
    rules, episode = case
    api_test(make(rules=rules, episode=episode), num_cycles=60)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_pettingzoo_seed_test(case):
    rules, episode = case
    seed_test(functools.partial(env, rules=rules, episode=episode), num_cycles=100)


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_pettingzoo_render_test(case, capsys):
    rules, episode = case
    render_test(functools.partial(env, rules=rules, episode=episode))
    assert rules.name in capsys.readouterr().out  # the "human" mode printed the state


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_F8_a_match_episode_rewards_the_returns_at_its_end(rules):
    game = raw_env(rules=rules, episode="match")
    final = _play(game, seed=3)
    state = game.game_state
    assert state.is_over
    returns = state.returns
    assert sorted(final) == sorted((f"player_{s}", returns[s]) for s in range(rules.seats))
    assert game.agents == []


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_G9_a_round_episode_rewards_the_margin_of_the_round(rules):
    game = raw_env(rules=rules, episode="round")
    final = dict(_play(game, seed=4))
    state = game.game_state
    assert state.is_round_over
    assert len(state.round_results) == 1
    total = state.round_results[0].total
    for seat, side in enumerate(rules.sides):
        other = max(total[s] for s in range(rules.num_sides) if s != side)
        assert final[f"player_{seat}"] == total[side] - other
    assert final["player_0"] == -final["player_1"]  # two sides: the margins add up to zero


@pytest.mark.parametrize("episode", EPISODES)
def test_partners_share_their_rewards(episode):
    game = raw_env(rules=GREEK_FOUR, episode=episode)
    final = dict(_play(game, seed=5))
    assert final["player_0"] == final["player_2"]
    assert final["player_1"] == final["player_3"]
    assert final["player_0"] == -final["player_1"]


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_X2_observations_are_the_seats_tensors_and_masks(rules):
    game = raw_env(rules=rules)
    game.reset(seed=6)
    state = game.game_state
    for seat, agent in enumerate(game.possible_agents):
        seen = game.observe(agent)
        tensor = xeri.observation_tensor(xeri.observe(state, seat))
        assert seen["observation"].dtype == np.float32
        assert seen["observation"].tolist() == pytest.approx(tensor)
        assert seen["action_mask"].dtype == np.int8
        if agent == game.agent_selection:
            assert state.to_move == seat
            assert bytes(seen["action_mask"].astype(np.uint8)) == xeri.action_mask(state)
        else:
            assert not seen["action_mask"].any()


@pytest.mark.parametrize(
    ("rules", "episode"),
    [(GREEK, "round"), (GREEK, "match"), (GREEK_FOUR, "round"), (xeri.PISTI, "round")],
    ids=lambda v: getattr(v, "name", v),
)
def test_X2_every_step_shows_each_agent_its_tensor_and_mask(rules, episode):
    # The hot path of a play, the round's last play and the deals in between:
    # every agent's observation equals the plain tensor of its seat, to the end.
    game = raw_env(rules=rules, episode=episode)
    rng = np.random.default_rng(3)
    for seed in (1, 2):
        game.reset(seed=seed)
        steps = 0
        for agent in game.agent_iter(max_iter=300):
            state = game.game_state
            for seat, other in enumerate(game.possible_agents):
                seen = game.observe(other)
                tensor = np.asarray(xeri.observation_tensor(xeri.observe(state, seat)), np.float32)
                assert np.array_equal(seen["observation"], tensor), (steps, other)
                mover = other == agent and not game.terminations[other]
                expected = xeri.action_mask(state) if mover else bytes(len(seen["action_mask"]))
                assert bytes(seen["action_mask"].astype(np.uint8)) == expected
            observation, _reward, termination, truncation, _info = game.last()
            if termination or truncation:
                game.step(None)
                continue
            game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            steps += 1
        assert steps >= 48


def test_G2_a_seed_fixes_the_deal_and_the_dealer():
    first, second = raw_env(), raw_env()
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.game_state == second.game_state
    second.reset(seed=12)
    assert first.game_state != second.game_state


def test_reset_without_a_seed_continues_the_generator():
    first, second = raw_env(), raw_env()
    first.reset(seed=11)
    second.reset(seed=11)
    first.reset()
    second.reset()
    assert first.game_state == second.game_state
    third = raw_env()
    third.reset(seed=11)
    assert third.game_state != first.game_state


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.name)
def test_X5_the_raw_env_raises_on_an_illegal_action_and_keeps_the_game(rules):
    game = raw_env(rules=rules)
    game.reset(seed=7)
    before = game.game_state
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMoveError, match=f"action {illegal} "):
        game.step(illegal)
    with pytest.raises(ArgumentError, match="an action is an int"):
        game.step(None)
    assert game.game_state is before
    assert not any(game.terminations.values())


@pytest.mark.parametrize(
    ("episode", "expected"),
    [("match", -1.0), ("round", -float(GREEK.round_points_bounds[1] + 1))],  # type: ignore[index]
)
def test_the_wrapped_env_ends_the_episode_on_an_illegal_action(episode, expected):
    game = env(rules=GREEK, episode=episode)
    game.reset(seed=8)
    offender = game.agent_selection
    observation, *_ = game.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    game.step(illegal)
    assert all(game.terminations.values())
    rewards = {}
    for agent in game.agent_iter():
        _, reward, termination, _, _ = game.last()
        assert termination
        rewards[agent] = reward
        game.step(None)
    assert rewards == {offender: expected, **{a: 0 for a in rewards if a != offender}}


def test_the_illegal_reward_can_be_chosen():
    game = env(rules=GREEK, illegal_reward=-5.0)
    game.reset(seed=9)
    offender = game.agent_selection
    observation, *_ = game.last()
    game.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))
    assert game.last()[1] == -5.0
    assert game.agent_selection == offender


def test_np_integer_actions_are_accepted():
    game = raw_env(rules=GERMAN)
    game.reset(seed=10)
    legal = np.flatnonzero(game.observe(game.agent_selection)["action_mask"])
    mover = game.agent_selection
    game.step(np.int64(legal[0]))
    assert game.agent_selection != mover


def test_spaces_are_the_same_objects_and_fit_the_action_space():
    game = raw_env(rules=GERMAN)
    agent = game.possible_agents[0]
    assert game.action_space(agent) is game.action_space(agent)
    assert game.observation_space(agent) is game.observation_space(agent)
    assert game.action_space(agent).n == xeri.num_actions(GERMAN) == 18308
    assert game.observation_space(agent)["observation"].shape == xeri.observation_shape(GERMAN)
    assert isinstance(game, XeriEnv)


def test_the_ansi_render_shows_the_state():
    game = raw_env(rules=GREEK_FOUR, render_mode="ansi")
    assert game.render() == "no game yet: call reset"
    game.reset(seed=2)
    text = game.render()
    state = game.game_state
    assert text.startswith(f"greek-four, round 1, dealer player_{state.dealer}")
    assert f"> player_{state.to_move} (side {state.to_move % 2}):" in text
    assert str(state.hands[0][0]) in text


def test_bad_arguments_are_refused():
    with pytest.raises(ArgumentError, match="episode must be"):
        raw_env(episode="game")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="render_mode must be"):
        raw_env(render_mode="rgb_array")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="needs a RuleSet"):
        raw_env(rules="greek")  # type: ignore[arg-type]


def test_D3_a_rule_set_without_an_action_encoding_is_refused():
    multi = attrs.evolve(GERMAN, name="german-multi", capture=xeri.SumCapture(multi_capture=True))
    with pytest.raises(RuleSetError, match="no action encoding"):
        env(rules=multi)


def test_the_game_state_needs_a_reset():
    with pytest.raises(IllegalMoveError, match="call reset"):
        raw_env().game_state  # noqa: B018  # the property raises

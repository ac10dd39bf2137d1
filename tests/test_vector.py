"""The vector environment: pile games on arrays, replayed through the engine move by move."""

from __future__ import annotations

import attrs
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

import xeri
from xeri import GREEK, GREEK_FOUR, PISTI, MajorityTie, Rank, RanksOnTable, Redeal
from xeri.envs.vector import XeriVector, random_policy, vector_env
from xeri.testing import rule_sets

PILE_RULES = (
    GREEK,
    GREEK_FOUR,
    PISTI,
    attrs.evolve(GREEK, name="greek-v2-v3-test", redeal=Redeal.NEVER, xeri_on_last_card=False),
    attrs.evolve(
        GREEK,
        name="greek-three-test",
        seats=3,
        sides=(0, 1, 2),
        hand_size=4,
        table_size=4,
        majority_tie=MajorityTie.SPLIT,
        jack_xeri_points=25,
    ),
    attrs.evolve(
        GREEK_FOUR,
        name="greek-four-kings-test",
        redeal=RanksOnTable(rank=Rank.KING, count=2),
        capture=xeri.PileCapture(sweeper=Rank.QUEEN),
        xeri_on_first_card=False,
    ),
    attrs.evolve(
        PISTI,
        name="pisti-lone-test",  # one table card: the first card can take it (P4)
        seats=3,
        sides=(0, 1, 2),
        hand_size=17,
        table_size=1,
        face_down=0,
    ),
    attrs.evolve(PISTI, name="pisti-small-test", deck=xeri.PIQUET_DECK, hand_size=7, table_size=4),
)


def _margins(state: xeri.GameState) -> tuple[float, ...]:
    rules = state.rules
    total = state.round_results[-1].total
    sides = range(rules.num_sides)
    margin = [total[s] - max(total[o] for o in sides if o != s) for s in sides]
    return tuple(float(margin[side]) for side in rules.sides)


def _check(games: XeriVector, states, obs, mask, to_move) -> None:
    if obs.dtype == np.uint8:
        assert (obs <= games.observation_divisors).all()
        obs = games.to_float32(obs)
    assert obs.dtype == np.float32
    assert mask.dtype == np.int8
    for row, state in enumerate(states):
        assert state.phase is xeri.Phase.PLAY
        assert to_move[row] == state.to_move
        expected = xeri.observation_tensor(xeri.observe(state, state.to_move))
        assert (obs[row] == np.asarray(expected, dtype=np.float32)).all(), row
        assert set(np.flatnonzero(mask[row])) == set(xeri.legal_actions(state))
    _check_hand_lists(games, states)


def _check_hand_lists(games: XeriVector, states) -> None:
    """The hand lists `sample_actions` reads are every seat's hand, each card at its place."""
    for row, state in enumerate(states):
        for seat in range(state.rules.seats):
            held = games._hand_n[row, seat]
            assert held == len(state.hands[seat])
            cards = games._hand_cards[row, seat, :held].tolist()
            assert sorted(cards) == sorted(card.index for card in state.hands[seat])
            assert [games._hand_at[row, card] for card in cards] == list(range(held))
            if not games._fast:  # with face-down cards the hands' bit sets are kept too
                bits = int(games._hands[row, seat])
                assert sorted(cards) == [c for c in range(52) if bits >> c & 1]


@pytest.mark.parametrize("rules", PILE_RULES, ids=lambda r: r.name)
def test_G3_G12_vector_games_replay_through_apply_move_by_move(rules):
    _replay(rules, count=24, seed=5)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(rule_sets(max_seats=4, name="vector-generated", decks=True))
def test_G3_G12_generated_pile_rule_sets_replay_through_apply(rules):
    try:
        XeriVector(rules, num_envs=1)
    except xeri.RuleSetError:
        assume(False)  # not a pile rule set the arrays play: refused, as tested below
    _replay(rules, count=6, seed=1)


@pytest.mark.parametrize("rules", PILE_RULES[:3] + PILE_RULES[5:7], ids=lambda r: r.name)
def test_G3_G12_uint8_observations_are_the_tensors_times_their_divisors(rules):
    _replay(rules, count=12, seed=8, dtype="uint8")


def test_the_divisions_of_uint8_observations_are_exact_in_float32():
    # Every integer a uint8 observation holds, over every divisor a layout
    # can have, gives in float32 the value Python's division rounds to float32.
    values = np.arange(256, dtype=np.uint8)
    for divisor in range(1, 60):
        got = np.divide(values, np.float32(divisor), dtype=np.float32)
        assert (got == np.array([v / divisor for v in range(256)], dtype=np.float32)).all()


def test_a_dtype_that_is_neither_is_refused():
    with pytest.raises(xeri.ArgumentError, match="dtype"):
        XeriVector(GREEK, num_envs=2, dtype="float16")
    games = XeriVector(GREEK, num_envs=2, seed=1, dtype="uint8")
    obs, _, _ = games.reset()
    with pytest.raises(xeri.ArgumentError, match="uint8 observations"):
        games.to_float32(obs.astype(np.float32))


def test_the_gymnasium_vector_env_in_uint8_keeps_its_observations_in_its_space():
    env = vector_env(GREEK, num_envs=8, seed=2, dtype="uint8")
    obs, _info = env.reset(seed=2)
    assert obs["observation"].dtype == np.uint8
    assert env.observation_space.contains(obs)
    for _ in range(30):
        actions = random_policy(obs["observation"], obs["action_mask"], np.random.default_rng(0))
        obs, _rewards, _terminated, _truncated, _info = env.step(actions)
        assert env.observation_space.contains(obs)


def _replay(rules, *, count: int, seed: int, dtype: str = "float32") -> None:
    games = XeriVector(rules, num_envs=count, seed=seed, record=True, dtype=dtype)
    obs, mask, to_move = games.reset()
    states = [games.state(row) for row in range(games.num_envs)]
    _check(games, states, obs, mask, to_move)
    rng = np.random.default_rng(seed)
    finished = 0
    plays = len(rules.deck) - rules.table_size
    for _ in range(plays * 2 + 7):
        actions = games.sample_actions(rng)
        assert actions.dtype == np.int64
        assert mask[np.arange(games.num_envs), actions].all()
        obs, mask, to_move, rewards, terminated = games.step(actions)
        for row in range(games.num_envs):
            state = xeri.apply(states[row], xeri.DECK[int(actions[row])])
            if terminated[row]:
                assert state.is_round_over
                assert len(state.round_results) == 1
                assert tuple(rewards[row].tolist()) == _margins(state)
                finished += 1
                state = games.state(row)
            else:
                assert not rewards[row].any()
            states[row] = state
        _check(games, states, obs, mask, to_move)
    assert finished >= games.num_envs
    row, episodes = 0, games.replay_moves(0)
    for dealer, moves, rewards in episodes:
        state = xeri.start(rules, dealer=dealer)
        for move in moves:
            state = xeri.apply(state, move)
        assert state.is_round_over
        assert _margins(state) == rewards


@pytest.mark.parametrize(
    ("rules", "why"),
    [
        (xeri.GERMAN, "pile games only"),
        (xeri.SCOPA, "pile games only"),
        (attrs.evolve(GREEK, name="greek-v1-test", show_bottom_card=True), "show_bottom_card"),
        (attrs.evolve(GREEK, name="greek-per-deal-test", dealer_per_deal=True), "dealer_per_deal"),
        (
            attrs.evolve(GREEK, name="greek-lines-test", categories=(xeri.Sweeps(points=1),)),
            "categories",
        ),
    ],
    ids=lambda v: getattr(v, "name", ""),
)
def test_unsupported_rule_sets_are_refused_with_the_reason(rules, why):
    with pytest.raises(xeri.RuleSetError, match=why):
        XeriVector(rules, num_envs=2)


def test_illegal_actions_are_refused_and_nothing_is_played():
    games = XeriVector(GREEK, num_envs=4, seed=1, record=True)
    with pytest.raises(xeri.IllegalMoveError, match="call reset"):
        games.step([0, 0, 0, 0])
    obs, mask, _ = games.reset()
    before = [games.state(row) for row in range(4)]
    actions = mask.argmax(axis=1)
    wrong = actions.copy()
    wrong[2] = int(np.flatnonzero(mask[2] == 0)[0])
    with pytest.raises(xeri.IllegalMoveError, match="of game 2 is not legal"):
        games.step(wrong)
    with pytest.raises(xeri.ArgumentError, match="4 ints"):
        games.step(actions[:3])
    with pytest.raises(xeri.ArgumentError, match="from 0 to 51"):
        games.step(actions + 60)
    assert [games.state(row) for row in range(4)] == before
    assert (games.observe() == obs).all()


def test_a_seed_fixes_the_games():
    first = XeriVector(GREEK_FOUR, num_envs=8, seed=4).reset()
    again = XeriVector(GREEK_FOUR, num_envs=8, seed=4).reset()
    assert all((a == b).all() for a, b in zip(first, again, strict=True))


def test_the_gymnasium_vector_env_plays_the_agents_seat_against_the_policy():
    env = vector_env(GREEK, num_envs=16, seed=2, seat=1)
    obs, info = env.reset(seed=2)
    assert env.observation_space["observation"].shape == (16, obs["observation"].shape[1])
    assert (obs["action_mask"] == info["action_mask"]).all()
    assert (env.games._to_move == 1).all()
    rng = np.random.default_rng(0)
    total = np.zeros(16)
    ended = 0
    for _ in range(60):
        actions = random_policy(obs["observation"], obs["action_mask"], rng)
        obs, rewards, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert (env.games._to_move == 1).all()
        assert (rewards[~terminated] == 0).all()
        total += rewards
        ended += int(terminated.sum())
    assert ended >= 16
    env.close()


def test_the_gymnasium_vector_env_refuses_bad_opponents():
    with pytest.raises(xeri.ArgumentError, match="opponents"):
        vector_env(GREEK, num_envs=2, opponents="greedy")


def test_G10_banked_margins_are_the_points_captured_so_far_and_add_up_to_the_round():
    rules = GREEK_FOUR
    games = XeriVector(rules, num_envs=6, seed=9, record=True)
    obs, mask, _ = games.reset()
    rng = np.random.default_rng(9)
    for _ in range(47):
        states = [games.state(row) for row in range(6)]
        banked = games.banked_margins()
        for row, state in enumerate(states):
            points = [0] * rules.num_sides
            for take in state.takes:
                side = rules.sides[take.seat]
                points[side] += rules.card_points.count(take.cards)
                if take.xeri is xeri.XeriKind.JACK_XERI:
                    points[side] += rules.jack_xeri_points
                elif take.xeri is not None:
                    points[side] += rules.xeri_points
            for seat in range(rules.seats):
                mine = rules.sides[seat]
                best = max(p for s, p in enumerate(points) if s != mine)
                assert banked[row, seat] == points[mine] - best
        obs, mask, _, _rewards, terminated = games.step(random_policy(obs, mask, rng))
        assert not terminated.any()


def test_the_gymnasium_vector_env_takes_an_array_policy_for_the_opponents():
    seen = []

    def first_card(observations, masks, rng):
        seen.append(observations.shape)
        return masks.argmax(axis=1)

    env = vector_env(GREEK, num_envs=8, seed=3, opponents=first_card)
    obs, _ = env.reset(seed=3)
    env.step(random_policy(obs["observation"], obs["action_mask"], np.random.default_rng(1)))
    assert seen
    assert all(shape[1] == obs["observation"].shape[1] for shape in seen)


FAST_RULES = tuple(rules for rules in PILE_RULES if not rules.face_down)


def _every_seat(games: XeriVector, states) -> None:
    """The kept tensor and mask of every seat of every game are the engine's."""
    for row, state in enumerate(states):
        for seat in range(state.rules.seats):
            kept = games._views[games._slot[row, seat], row]
            if kept.dtype == np.uint8:
                kept = games.to_float32(kept)
            expected = xeri.observation_tensor(xeri.observe(state, seat))
            assert (kept == np.asarray(expected, dtype=np.float32)).all(), (row, seat)
            hand = games._view_masks[games._slot[row, seat], row]
            assert set(np.flatnonzero(hand)) == {card.index for card in state.hands[seat]}


@pytest.mark.parametrize("dtype", ["float32", "uint8"])
@pytest.mark.parametrize("rules", FAST_RULES, ids=lambda r: r.name)
def test_G3_G12_the_kept_tensors_of_every_seat_follow_the_engine_through_round_ends(rules, dtype):
    # Every seat's tensor is written play by play, not read whole: after
    # deals, captures, round ends and auto-resets each still equals the
    # engine's tensor of that seat.
    games = XeriVector(rules, num_envs=5, seed=3, record=True, dtype=dtype)
    obs, mask, _ = games.reset()
    states = [games.state(row) for row in range(games.num_envs)]
    _every_seat(games, states)
    rng = np.random.default_rng(3)
    plays = len(rules.deck) - rules.table_size
    ended = 0
    for _ in range(plays * 2 + 3):
        actions = random_policy(obs, mask, rng)
        obs, mask, _, _, terminated = games.step(actions)
        ended += int(terminated.sum())
        states = [games.state(row) for row in range(games.num_envs)]
        _every_seat(games, states)
    assert ended >= 2 * games.num_envs


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, PILE_RULES[4]], ids=lambda r: r.name)
def test_G3_G12_games_played_apart_follow_the_engine(rules):
    # `play` on some of the games only (as the Gymnasium VectorEnv's
    # opponents do): each game's seats then move at their own pace.
    games = XeriVector(rules, num_envs=6, seed=4, record=True)
    games.reset()
    rng = np.random.default_rng(4)
    for _ in range(len(rules.deck) * 2):
        rows = np.flatnonzero(rng.random(games.num_envs) < 0.6)
        masks = games.masks()[rows]
        games.play(rows, random_policy(None, masks, rng))
        states = [games.state(row) for row in range(games.num_envs)]
        _every_seat(games, states)
        _check(games, states, games.observe(), games.masks(), games._to_move)


def test_step_returns_the_envs_own_arrays_valid_until_the_next_step():
    games = XeriVector(GREEK, num_envs=4, seed=6)
    obs, mask, _ = games.reset()
    rng = np.random.default_rng(6)
    first, first_mask = obs, mask
    kept, kept_mask = obs.copy(), mask.copy()
    obs, mask, _, _, _ = games.step(random_policy(obs, mask, rng))
    # The arrays of the reset were changed in place by the step (every
    # seat's tensor shows whose turn it is, the mover's hand lost a card);
    # the copies kept them.
    assert not (first == kept).all()
    assert not (first_mask == kept_mask).all()
    assert (kept[:, :52] == kept_mask).all()
    again = XeriVector(GREEK, num_envs=4, seed=6, copy=True)
    fresh, fresh_mask, _ = again.reset()
    assert (fresh == kept).all()
    assert (fresh_mask == kept_mask).all()
    again.step(random_policy(fresh, fresh_mask, np.random.default_rng(6)))
    assert (fresh == kept).all()  # copy=True: new arrays every time
    assert (fresh_mask == kept_mask).all()


def test_copy_must_be_a_bool():
    with pytest.raises(xeri.ArgumentError, match="copy"):
        XeriVector(GREEK, num_envs=2, copy="yes")


def test_G3_the_shuffles_give_every_order_alike():
    # The deck's order of each game: every permutation of four places comes
    # up about as often (24,000 rows, 1,000 expected each, a few sigma apart
    # at most), and every row of 52 is a permutation.
    from xeri.envs.vector import _shuffled  # noqa: PLC0415  # numpy is optional

    rng = np.random.default_rng(11)
    orders = _shuffled(rng, 24_000, 4)
    counts = np.unique(orders @ np.array([64, 16, 4, 1]), return_counts=True)[1]
    assert len(counts) == 24
    assert counts.min() > 880
    assert counts.max() < 1120
    rows = _shuffled(rng, 500, 52)
    assert (np.sort(rows, axis=1) == np.arange(52)).all()


@pytest.mark.parametrize("rules", [GREEK, PILE_RULES[4], PILE_RULES[6]], ids=lambda r: r.name)
def test_sample_actions_draws_each_legal_action_alike(rules):
    # A fixed state of each game, hands of different sizes: 20,000 draws a
    # game, every legal action drawn about 1/n of the time (within 15%: a
    # sampler stuck on one place, or twice as likely at one, fails), never
    # an illegal one.
    games = XeriVector(rules, num_envs=4, seed=12)
    games.reset()
    rng = np.random.default_rng(12)
    for played in range(4):  # game i has played i cards
        rows = np.arange(played + 1, 4)
        games.play(rows, random_policy(None, games.masks()[rows], rng))
    mask = games.masks()
    draws = np.stack([games.sample_actions(rng) for _ in range(20_000)])
    for row in range(games.num_envs):
        legal = np.flatnonzero(mask[row])
        counts = np.bincount(draws[:, row], minlength=52)
        assert set(np.flatnonzero(counts)) == set(legal.tolist())
        expected = 20_000 / len(legal)
        assert counts[legal].min() > 0.85 * expected
        assert counts[legal].max() < 1.15 * expected
    held = games._hand_n[np.arange(4), games._to_move]
    assert len(set(held.tolist())) > 1  # hands of different sizes were drawn from


def test_sample_actions_draws_from_the_environments_generator_by_default():
    first = XeriVector(GREEK_FOUR, num_envs=8, seed=13)
    again = XeriVector(GREEK_FOUR, num_envs=8, seed=13)
    with pytest.raises(xeri.IllegalMoveError, match="call reset"):
        first.sample_actions()
    first.reset()
    again.reset()
    for _ in range(60):  # through the round's end and the next deal
        actions = first.sample_actions()
        assert (actions == again.sample_actions()).all()
        assert first.masks()[np.arange(8), actions].all()
        first.step(actions)
        again.step(actions)


@pytest.mark.parametrize("rules", [GREEK_FOUR, PILE_RULES[4], PISTI], ids=lambda r: r.name)
def test_the_gymnasium_vector_envs_random_opponents_draw_from_the_hands(rules):
    # "random" opponents draw from the games' own sampler, for the games
    # where an opponent is to move (some of them at a time): every draw is
    # legal (an illegal one raises), through round ends and auto-resets.
    env = vector_env(rules, num_envs=8, seed=5, seat=rules.seats - 1)
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    ended = 0
    for _ in range(2 * len(rules.deck) // rules.seats + 2):
        actions = random_policy(obs["observation"], obs["action_mask"], rng)
        obs, _rewards, terminated, _truncated, _info = env.step(actions)
        assert (env.games._to_move == rules.seats - 1).all()
        ended += int(terminated.sum())
    assert ended >= 8

"""`rollout` plays a round to its end exactly as `legal_moves` and `apply` would.

Both paths are driven by the same choices: a random game is played through
the public engine and recorded, then `rollout` replays it from the same
state with a policy that picks the recorded move at each turn. The final
states must be equal field by field, for every preset and for generated
rule sets.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from support import assert_same_state, engine_replay, public_round, replaying
from xeri import GERMAN, GREEK, GREEK_FOUR, ArgumentError, GameState
from xeri._agents import rollouts
from xeri._core.validate import check_state
from xeri.testing import rule_sets

PRESETS = [GREEK, GREEK_FOUR, GERMAN]
VARIANTS = [
    attrs.evolve(GREEK, name="greek-v1-v3", show_bottom_card=True, xeri_on_last_card=False),
    attrs.evolve(
        GREEK,
        name="greek-three-one",
        seats=3,
        sides=(0, 1, 2),
        hand_size=17,
        table_size=1,
        xeri_on_first_card=False,
        redeal=xeri.Redeal.NEVER,
    ),
    attrs.evolve(
        GERMAN,
        name="german-all",
        capture=xeri.SumCapture(multi_capture=True, forced_capture=True, self_raise=True),
    ),
]


def started(rules: xeri.RuleSet, rng: random.Random, *, fresh: float = 0.0) -> GameState:
    """A new round, then up to 29 random plays (none with probability `fresh`), as search does."""
    state = xeri.new_game(rules, rng=rng)
    for _ in range(0 if fresh and rng.random() < fresh else rng.randrange(30)):
        if state.is_round_over:
            break
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


def assert_same_end(rules: xeri.RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    start = started(rules, rng)
    end, moves = public_round(start, random.Random(seed + 1))
    fast = xeri.rollout(start, random.Random(0), replaying(moves))
    assert_same_state(fast, end)


@pytest.mark.parametrize("rules", PRESETS + VARIANTS, ids=lambda r: r.name)
def test_X4_rollout_reaches_the_state_the_engine_reaches_with_the_same_moves(rules):
    rounds = 150 if rules.capture.pile else 40
    for seed in range(rounds):
        assert_same_end(rules, seed)


@settings(max_examples=60)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_X4_rollout_agrees_with_the_engine_on_generated_rule_sets(rules, seed):
    assert_same_end(rules, seed)


def assert_default_policy_replays(rules: xeri.RuleSet, seed: int) -> None:
    """The default policy's rollout equals the engine replaying the moves it chose."""
    rng = random.Random(seed)
    # Half the rounds from their first play (where P4's first-card rule applies).
    start = started(rules, rng, fresh=0.5)
    fast = xeri.rollout(start, rng)
    assert_same_state(fast, engine_replay(start, fast))


@pytest.mark.parametrize("rules", PRESETS + VARIANTS, ids=lambda r: r.name)
def test_X4_the_default_policy_reaches_the_state_the_engine_reaches_with_its_moves(rules):
    # The default policy has paths of its own (a pile game draws all its plays at
    # once): the engine, replaying the moves it chose, must reach the same state.
    rounds = 300 if rules.capture.pile else 40
    for seed in range(rounds):
        assert_default_policy_replays(rules, seed)


@settings(max_examples=150)
@given(rules=rule_sets(), seed=st.integers(0, 2**32 - 1))
def test_X4_the_default_policy_agrees_with_the_engine_on_generated_rule_sets(rules, seed):
    assert_default_policy_replays(rules, seed)


@pytest.mark.parametrize("rules", PRESETS + VARIANTS, ids=lambda r: r.name)
def test_X4_a_random_rollout_ends_in_a_state_the_engine_could_reach(rules):
    rng = random.Random(9)
    for _ in range(40):
        state = xeri.new_game(rules, rng=rng)
        end = xeri.rollout(state, rng)
        assert end.is_round_over
        assert end.round_results[:-1] == state.round_results
        assert check_state(end).problems == []


def test_X4_the_default_policy_plays_each_card_of_a_hand_equally_often():
    # In a pile game the default policy draws each deal's order at once; the first
    # card played must still be uniform over the leader's hand.
    state = xeri.new_game(GREEK, rng=random.Random(1))
    rng = random.Random(2)
    counts = dict.fromkeys(state.hands[state.to_move], 0)
    for _ in range(3000):
        counts[xeri.rollout(state, rng).history[0]] += 1
    expected = 3000 / len(counts)
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 30, counts


def test_X4_rollout_leaves_a_finished_round_and_refuses_what_is_not_a_round():
    rng = random.Random(3)
    end = xeri.rollout(xeri.new_game(GREEK, rng=rng), rng)
    assert xeri.rollout(end, rng) is end
    with pytest.raises(ArgumentError, match="not dealt"):
        xeri.rollout(xeri.start(GREEK), rng)
    with pytest.raises(ArgumentError, match="GameState"):
        xeri.rollout(xeri.observe(end, 0), rng)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 99, "0", None])
def test_X5_a_policy_must_return_the_index_of_a_legal_move(bad):
    state = xeri.new_game(GREEK, rng=random.Random(4))
    with pytest.raises(ArgumentError, match="policy"):
        xeri.rollout(state, random.Random(0), lambda view: bad)
    assert xeri.legal_moves(state)  # the state given is untouched


class _OwnRandom(random.Random):
    """A `random.Random` of another class: the rollout asks its `randrange`."""


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR], ids=lambda r: r.name)
def test_X4_a_plain_random_draws_the_same_rounds_as_its_randrange_would(rules):
    # With a plain random.Random the pile rollout draws its number as `randrange`
    # does, without calling it; any other generator is asked through `randrange`.
    # Both must play the same rounds from the same seed.
    rng = random.Random(11)
    for seed in range(60):
        state = started(rules, rng, fresh=0.5)
        plain = xeri.rollout(state, random.Random(seed))
        asked = xeri.rollout(state, _OwnRandom(seed))
        assert_same_state(plain, asked)


def test_X4_the_loop_a_rule_set_gets_is_worked_out_once_and_follows_its_capability():
    class Plays(xeri.PileCapture):  # overrides `play`: no fast path
        def play(self, table, hand, move, seat):  # type: ignore[no-untyped-def]
            return super().play(table, hand, move, seat)

    own = attrs.evolve(GREEK, name="own-play", capture=Plays())
    assert rollouts._route(GREEK).loop == "pile"
    assert rollouts._route(own).loop == "public"
    assert rollouts._route(GERMAN).loop == "sum"
    assert rollouts._route(GREEK) is rollouts._route(GREEK)
    state = xeri.new_game(own, rng=random.Random(2))
    end = xeri.rollout(state, random.Random(3))
    assert end.is_round_over
    assert check_state(end).problems == []


def test_X4_the_pile_layouts_kept_for_a_rule_set_start_again_when_full(monkeypatch):
    # The random pile loop keeps where each hand's cards go for each shape of state
    # (dealer, mover, sizes of table, stock and hands); past the limit it starts again.
    monkeypatch.setattr(rollouts, "_MAX_LAYOUTS", 3)
    rules = attrs.evolve(GREEK, name="greek-layouts")  # a rule set of its own: none kept yet
    layouts = rollouts._route(rules).layouts
    for seed in range(40):
        assert_default_policy_replays(rules, seed)
        assert 1 <= len(layouts) <= 3
    state = xeri.new_game(rules, rng=random.Random(1))
    assert rollouts._layout(layouts, state) is rollouts._layout(layouts, state)

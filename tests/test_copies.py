"""Cheap copies and pickling: immutable values copy as themselves and pickle round-trip."""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest

import xeri
from edge_games import all_rules, game, states
from xeri import (
    GERMAN,
    GREEK,
    GREEK_FOUR,
    Build,
    Capture,
    Card,
    Combine,
    Deal,
    FixedRounds,
    GameState,
    PointsTable,
    Reshuffle,
    RoundResult,
    RuleSet,
    StandardScorer,
    Take,
    TargetScore,
    Trail,
)
from xeri._agents.observation import ObservedTake
from xeri._rules.match import MatchStatus


def _values() -> list[object]:
    """One value of every immutable class that must copy as itself."""
    state = states(GERMAN, 2, every=9)[5]
    ended = [s for s, _ in game(GREEK, 1, rounds=1)][-1]
    seven, three, four = Card.parse("7H"), Card.parse("3C"), Card.parse("4D")
    build = Build(cards=(three, four), value=7, owner=0)
    return [
        state,
        xeri.observe(state, 1),
        ObservedTake(seat=0, cards=(seven, Card.parse("7C")), hidden=1),
        Take(seat=1, cards=(seven, Card.parse("7C"))),
        ended.round_results[0],
        ended.status,
        build,
        Capture(card=seven, taken=(build,)),
        Combine(card=three, onto=four, value=7),
        Trail(card=seven),
        Deal(deck=xeri.DECK),
        Reshuffle(stock=xeri.DECK[:10]),
        seven,
        GREEK,
        GERMAN,
        GREEK.card_points,
        StandardScorer(),
        xeri.PileCapture(),
        xeri.SumCapture(multi_capture=True),
        TargetScore(),
        FixedRounds(rounds=2),
    ]


@pytest.mark.parametrize("value", _values(), ids=lambda v: type(v).__name__)
def test_copy_and_deepcopy_return_the_value_itself(value: object) -> None:
    assert copy.copy(value) is value
    assert copy.deepcopy(value) is value
    assert copy.deepcopy([value])[0] is value  # inside a container too


def test_every_immutable_class_is_covered() -> None:
    covered = {type(v) for v in _values()}
    wanted = {
        GameState,
        xeri.Observation,
        ObservedTake,
        Take,
        RoundResult,
        MatchStatus,
        Build,
        Capture,
        Combine,
        Trail,
        Deal,
        Reshuffle,
        Card,
        RuleSet,
        PointsTable,
        StandardScorer,
        TargetScore,
        FixedRounds,
    }
    assert wanted <= covered


def test_slots_are_kept() -> None:
    # The mixin declares no slots of its own, so no instance grows a __dict__.
    for value in _values():
        assert not hasattr(value, "__dict__"), type(value).__name__


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_states_and_observations_pickle_round_trip(rules: RuleSet) -> None:
    for state in states(rules, 7, rounds=2, every=11):
        loaded = pickle.loads(pickle.dumps(state, protocol=5))
        assert loaded == state
        assert type(loaded) is GameState
        assert loaded.captured == state.captured
        assert loaded.scores == state.scores
        seat = len(state.history) % rules.seats
        seen = xeri.observe(state, seat)
        assert pickle.loads(pickle.dumps(seen, protocol=5)) == seen
        if not state.is_chance and not state.is_over:
            assert xeri.legal_moves(loaded) == xeri.legal_moves(state)


def test_a_loaded_state_plays_on_like_the_original() -> None:
    rng_a, rng_b = random.Random(3), random.Random(3)
    state = states(GREEK_FOUR, 4, every=13)[3]
    loaded = pickle.loads(pickle.dumps(state, protocol=5))
    for _ in range(10):
        if state.is_round_over:
            break
        state = xeri.apply(state, rng_a.choice(xeri.legal_moves(state)))
        loaded = xeri.apply(loaded, rng_b.choice(xeri.legal_moves(loaded)))
    assert loaded == state


def test_presets_pickle_as_their_name() -> None:
    for preset in (GREEK, GREEK_FOUR, GERMAN):
        data = pickle.dumps(preset, protocol=5)
        assert pickle.loads(data) is preset
        assert len(data) < 100


def test_a_custom_rule_set_pickles_by_its_fields() -> None:
    custom = attrs.evolve(
        GREEK,
        name="pickle-custom-test",
        card_points=PointsTable(ranks={1: 4}, cards={Card.parse("2C"): 3}),
        match=TargetScore(target=61),
    )
    loaded = pickle.loads(pickle.dumps(custom, protocol=5))
    assert loaded == custom
    assert loaded.card_points.points(Card.parse("AS")) == 4
    assert loaded.card_points.total == 19
    # A rule set named like a preset but different is not pickled as the preset.
    impostor = RuleSet.__new__(RuleSet)
    for field in attrs.fields(RuleSet):
        object.__setattr__(impostor, field.name, getattr(GREEK, field.name))
    object.__setattr__(impostor, "hand_size", 4)
    assert pickle.loads(pickle.dumps(impostor, protocol=5)).hand_size == 4

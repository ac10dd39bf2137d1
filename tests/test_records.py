"""Game records (replay every state exactly) and chance from `secrets` (clause X4)."""

from __future__ import annotations

import copy
import pickle
import random

import attrs
import pytest

import xeri
from edge_games import VARIANTS, presets
from xeri import ArgumentError, Deal, GameRecord, IllegalMoveError, Phase, Reshuffle, record, replay
from xeri._io.records import _last_state

RULES = presets() + VARIANTS


def recorded_match(rules: xeri.RuleSet, seed: int, rounds: int | None = None):
    """Play with `record` and `then`, keeping every state seen along the way."""
    rng = random.Random(seed)
    state, rec = record(rules, rng=rng)
    seen = [state]
    while not state.is_over and (rounds is None or len(state.round_results) < rounds):
        move = (
            xeri.chance_move(state, rng) if state.is_chance else rng.choice(xeri.legal_moves(state))
        )
        state, rec = xeri.apply(state, move), rec.then(move)
        seen.append(state)
    return seen, rec


@pytest.mark.parametrize("name", xeri.registered())
def test_replaying_a_recorded_match_of_every_preset_reproduces_every_state(name):
    rules = xeri.find_rules(name)
    seen, rec = recorded_match(rules, 1)
    assert seen[-1].is_over
    states = replay(rec)
    assert len(states) == len(rec.moves) + 1
    assert states[0] == xeri.start(rules, dealer=rec.dealer)
    # record() returns the state after the deal and any redeal: the tail of the replay.
    assert states[len(states) - len(seen) :] == tuple(seen)
    assert xeri.from_json(xeri.to_json(rec)) == rec


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.name)
def test_replaying_records_of_derived_rule_sets(rules):
    seen, rec = recorded_match(rules, 2, rounds=1)
    assert replay(rec)[-len(seen) :] == tuple(seen)
    assert xeri.from_json(xeri.to_json(rec)) == rec


def test_record_deals_as_new_game_does():
    for rules in RULES:
        for seed in range(5):
            state, rec = record(rules, rng=random.Random(seed))
            assert state == xeri.new_game(rules, rng=random.Random(seed))
            assert isinstance(rec.moves[0], Deal)
            assert all(isinstance(m, Reshuffle) for m in rec.moves[1:])
            assert replay(rec)[-1] == state
    deck = tuple(reversed(xeri.DECK))
    state, rec = record(xeri.GREEK_FOUR, deck=deck, dealer=2, rng=random.Random(0))
    assert rec.dealer == 2
    assert rec.moves[0] == Deal(deck=deck)
    assert state == xeri.new_game(xeri.GREEK_FOUR, deck=deck, dealer=2, rng=random.Random(0))


def test_records_are_immutable_values_extended_by_then():
    rec = GameRecord(rules=xeri.GREEK, dealer=1)
    deal = Deal(deck=xeri.DECK)
    longer = rec.then(deal)
    assert rec.moves == ()
    assert longer.moves == (deal,)
    assert longer == GameRecord(rules=xeri.GREEK, dealer=1, moves=(deal,))
    assert replay(rec) == (xeri.start(xeri.GREEK, dealer=1),)


def test_records_built_by_then_are_values_like_records_built_whole():
    _, rec = recorded_match(xeri.GREEK, 5, rounds=1)
    whole = GameRecord(rules=rec.rules, dealer=rec.dealer, moves=tuple(rec.moves))
    assert rec == whole
    assert hash(rec) == hash(whole)
    assert repr(rec) == repr(whole)
    assert pickle.loads(pickle.dumps(rec)) == whole
    assert copy.deepcopy(rec) == whole
    assert attrs.evolve(rec, dealer=1 - rec.dealer).moves == whole.moves
    assert xeri.to_json(rec) == xeri.to_json(whole)
    # Branching: two records extending the same one do not see each other's moves.
    middle = GameRecord(rules=rec.rules, dealer=rec.dealer)
    for move in rec.moves[:10]:
        middle = middle.then(move)
    left, right = middle.then(rec.moves[10]), middle.then(rec.moves[11])
    assert left.moves == rec.moves[:11]
    assert right.moves == (*rec.moves[:10], rec.moves[11])
    assert middle.moves == rec.moves[:10]
    assert middle.then(rec.moves[10]) == left


def test_a_long_record_is_built_move_by_move_without_recursion():
    # Extending a record does not copy its moves; reading them walks back without
    # recursion, and a long chain of records is freed without recursion too.
    rec = GameRecord(rules=xeri.GREEK, dealer=0)
    card = xeri.Card.parse("A♠")
    for _ in range(100_000):
        rec = rec.then(card)
    assert len(rec.moves) == 100_000
    longer = GameRecord(rules=xeri.GREEK, dealer=0)
    for _ in range(100_000):
        longer = longer.then(card)
    del longer


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_the_last_state_of_a_record_is_the_last_state_of_its_replay(rules):
    seen, rec = recorded_match(rules, 3, rounds=2)
    assert _last_state(rec) == replay(rec)[-1] == seen[-1]
    assert seen[-1].to_move is None  # a round is over: no card may be played
    with pytest.raises(IllegalMoveError, match=rf"move {len(rec.moves)} of the record"):
        _last_state(rec.then(xeri.DECK[0]))


def test_replay_names_the_move_that_is_not_legal():
    state, rec = record(xeri.GREEK, dealer=0, rng=random.Random(3))
    assert state.phase is Phase.PLAY
    stranger = next(c for c in xeri.DECK if c not in state.hands[state.to_move])
    with pytest.raises(IllegalMoveError, match=rf"move {len(rec.moves)} of the record"):
        replay(rec.then(stranger))
    with pytest.raises(ArgumentError):
        replay(GameRecord(rules=xeri.GREEK, dealer=2))


# --------------------------------------------------------------------------
# X4: chance draws from `secrets` unless a generator is passed


MODULE_FUNCTIONS = (
    "random",
    "shuffle",
    "randrange",
    "randint",
    "choice",
    "choices",
    "sample",
    "getrandbits",
    "uniform",
    "seed",
    "randbytes",
)


@pytest.fixture
def no_module_random(monkeypatch):
    """Make every module-level function of `random` fail the test if called."""

    def forbidden(*args, **kwargs):
        raise AssertionError("random's module-level functions were used without an explicit rng")

    for name in MODULE_FUNCTIONS:
        monkeypatch.setattr(random, name, forbidden)
    before = random.getstate()
    yield
    assert random.getstate() == before


@pytest.mark.usefixtures("no_module_random")
def test_x4_deals_without_an_rng_use_secrets_not_the_random_module():
    for rules in RULES:
        state = xeri.new_game(rules)
        assert state.phase is Phase.PLAY
        state, rec = record(rules)
        assert replay(rec)[-1] == state
        while not state.is_round_over:
            state = xeri.apply(state, xeri.legal_moves(state)[0])
        if not state.is_over:
            assert isinstance(xeri.chance_move(state), Deal)
        seen = xeri.observe(state, 0)
        xeri.determinize(seen)
    start = xeri.start(xeri.GREEK)
    assert isinstance(xeri.chance_move(start), Deal)


def test_the_forbidding_fixture_works(no_module_random):
    with pytest.raises(AssertionError, match="module-level"):
        random.shuffle([1, 2])

"""The option tables of the capture families, and the fast-path gate that reads them.

`SumCapture.OPTIONS` is the one list of `SumCapture`'s options. For each
option (and each pair of options) at a value other than its default:

* when the kernel claims every option of the rule (`kernel` in the table),
  `xeri.rollout` plays the round with the kernel, and the engine, replaying
  its moves from the same start, finds each legal and reaches the same
  state, field by field;
* otherwise the kernel is never reached: `rollout` plays through the
  public engine.

Widening the gate on purpose (claiming `multi_builds` in the table) makes
the replay test fail: the kernel does not play Cassino's multiple builds.
"""

# Test names carry the clause id as written in the rules (test_D3_..., test_C4_...).

from __future__ import annotations

import itertools
import json
import random

import attrs
import pytest

import xeri
from support import assert_same_state, engine_replay
from xeri import GERMAN, GREEK, PileCapture, Rank, RuleSetError, SumCapture
from xeri._agents import rollouts
from xeri._families.sums.rule import SCOPA_VALUES

OPTIONS = SumCapture.OPTIONS
NAMES = [o.name for o in OPTIONS]


def other_value(option: xeri.Option) -> object:
    """A value of the option other than its default."""
    if type(option.default) is bool:
        return not option.default
    others = {
        "total": 15,  # K1, as in Escoba: needs builds=False, so it comes in pairs alone
        "values": (*SCOPA_VALUES[:7], (Rank.JACK, 11), (Rank.QUEEN, 12), (Rank.KING, 13)),  # K2
        "sweepers": (  # W1, W2: Basra's
            xeri.Sweeper(cards=(xeri.Rank.JACK,)),
            xeri.Sweeper(cards=(xeri.Card.parse("7D"),), xeri=xeri.XeriKind.XERI, xeri_up_to=10),
        ),
        "jack_xeri_ranks": (xeri.Rank.JACK,),  # W3
    }
    return others[option.name]


def capture_with(*options: xeri.Option) -> SumCapture | None:
    """A SumCapture with these options changed, or None when they cannot go together."""
    try:
        return SumCapture(**{o.name: other_value(o) for o in options})  # type: ignore[arg-type]
    except RuleSetError:
        return None


MIXES = [
    mix
    for size in (1, 2)
    for mix in itertools.combinations(OPTIONS, size)
    if capture_with(*mix) is not None
]
IDS = ["+".join(o.name for o in mix) for mix in MIXES]


def started(rules: xeri.RuleSet, rng: random.Random) -> xeri.GameState:
    """A fresh deal, or now and then a later point of the round."""
    state = xeri.new_game(rules, rng=rng)
    for _ in range(rng.choice([0, 0, rng.randrange(30)])):
        moves = xeri.legal_moves(state)
        state = xeri.apply(state, moves[rng.randrange(len(moves))])
    return state


def test_the_table_names_every_field_of_sum_capture_once():
    fields = [f.name for f in attrs.fields(SumCapture) if f.init]
    assert sorted(NAMES) == sorted(fields)
    assert len(set(NAMES)) == len(NAMES)
    for option in OPTIONS:
        assert getattr(SumCapture(), option.name) == option.default
        assert option.doc
        assert option.since in (1, 2, 3)


def test_the_pile_table_names_every_field_of_pile_capture():
    assert [o.name for o in PileCapture.OPTIONS] == [
        f.name for f in attrs.fields(PileCapture) if f.init
    ]


@pytest.mark.parametrize("mix", MIXES, ids=IDS)
def test_D3_C4_S3_the_kernel_plays_what_it_claims_exactly_and_nothing_else(mix, monkeypatch):
    capture = capture_with(*mix)
    rules = attrs.evolve(GERMAN, name="mix", capture=capture)
    claimed = all(o.kernel for o in mix)
    assert capture.fast_path() == claimed
    calls = []
    kernel = rollouts.sum_rollout

    def spy(state, rng):
        calls.append(state)
        return kernel(state, rng)

    monkeypatch.setattr(rollouts, "sum_rollout", spy)
    for seed in range(25 if claimed else 4):
        rng = random.Random(seed)
        start = started(rules, rng)
        got = xeri.rollout(start, rng)
        assert_same_state(got, engine_replay(start, got, seed), (IDS, seed))
    assert bool(calls) == claimed  # an option the kernel does not claim never reaches it


def test_a_subclass_overriding_nothing_keeps_the_fast_path_and_one_overriding_play_loses_it():
    @attrs.frozen(kw_only=True)
    class Same(SumCapture):
        pass

    @attrs.frozen(kw_only=True)
    class Plays(SumCapture):
        def play(self, table, hand, seat, move):
            return super().play(table, hand, seat, move)

    @attrs.frozen(kw_only=True)
    class Lists(SumCapture):
        def moves(self, table, hand, seat):
            return super().moves(table, hand, seat)

    @attrs.frozen(kw_only=True)
    class Pile(PileCapture):
        def moves(self, table, hand, seat):
            return hand

    assert Same().fast_path()
    assert not Plays().fast_path()
    assert not Lists().fast_path()
    assert PileCapture().fast_path()
    assert not Pile().fast_path()


def test_D3_the_serializer_reads_the_table_a_changed_option_is_written_and_read_back():
    for mix in MIXES:
        capture = capture_with(*mix)
        rules = attrs.evolve(GERMAN, name="mix", capture=capture)
        text = xeri.to_json(rules)
        for option in mix:
            if option.since > 1:  # written only when it differs from its default
                assert option.name in text
        assert xeri.from_json(text) == rules
    document = json.loads(xeri.to_json(attrs.evolve(GERMAN, name="g")))
    written = document["data"]["capture"]["SumCapture"]
    assert sorted(written) == sorted(o.name for o in OPTIONS if o.since == 1)


def test_the_cli_names_a_changed_option_with_the_table_s_words():
    from xeri.cli._rules import _capture_summary  # noqa: PLC0415  # the CLI's own helper

    for option in OPTIONS:
        if option.words is None:
            continue
        capture = capture_with(option)
        if capture is None:
            continue
        shown = _capture_summary(attrs.evolve(GERMAN, name="g", capture=capture))
        needs = option.needs is None or getattr(capture, option.needs)
        assert (option.words in shown) == needs, (option.name, shown)
    assert _capture_summary(GREEK) == "pile, J sweeps"

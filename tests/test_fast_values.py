"""The engine's fast constructors make values equal to their keyword constructors'.

The six fast constructors (`_make_state`, `_make_take`, `_make_result`,
`_make_capture`, `_make_combine`, `_make_build`) are generated from each
class's `attrs.fields` (`xeri._immutable`) and take keywords only.

`GameState`, `Take`, `RoundResult`, `Capture`, `Combine` and `Build` inherit
their slots from a plain twin class: the engine and the rollouts fill a twin
and then give it the real class (see `xeri._core.state`). These tests pin each
twin to its class's fields, so a field added to one and not the other fails
here, and check that a value made fast is equal, hashes and pickles like one
made by the keyword constructor.
"""

from __future__ import annotations

import pickle

import attrs
import pytest

import xeri
from xeri._core.state import _make_state, _make_take, _state_copier, _StateSlots, _TakeSlots
from xeri._families.protocol import XeriKind
from xeri._immutable import _fast_maker, _per_value
from xeri._moves import _CaptureSlots, _CombineSlots, _make_capture, _make_combine
from xeri._rules.scoring import _make_result, _ResultSlots
from xeri._table import _BuildSlots, _make_build

D = xeri.DECK
BUILD = xeri.Build(cards=(D[4], D[8]), value=5, owner=1)
STATE = xeri.new_game(xeri.GREEK, deck=D, dealer=0)

PAIRS = [
    (
        xeri.Take(seat=1, cards=(D[0], D[1]), xeri=XeriKind.XERI, turn=3),
        lambda: _make_take(seat=1, cards=(D[0], D[1]), xeri=XeriKind.XERI, turn=3),
        _TakeSlots,
    ),
    (
        xeri.RoundResult(
            cards=(30, 22),
            card_points=(12, 10),
            majority=(3, 0),
            xeris=(1, 0),
            xeri_bonus=(10, 0),
            total=(25, 10),
            leftover=0,
            categories=(),
        ),
        lambda: _make_result(
            cards=(30, 22),
            card_points=(12, 10),
            majority=(3, 0),
            xeris=(1, 0),
            xeri_bonus=(10, 0),
            total=(25, 10),
            leftover=0,
            categories=(),
        ),
        _ResultSlots,
    ),
    (
        xeri.Capture(card=D[20], taken=(D[0], BUILD)),
        lambda: _make_capture(card=D[20], taken=(D[0], BUILD)),
        _CaptureSlots,
    ),
    (
        xeri.Combine(card=D[0], onto=BUILD, value=6),
        lambda: _make_combine(card=D[0], onto=BUILD, value=6),
        _CombineSlots,
    ),
    (
        xeri.Build(cards=(D[4], D[8]), value=5, owner=1),
        lambda: _make_build(cards=(D[4], D[8]), value=5, owner=1),
        _BuildSlots,
    ),
    (
        STATE,
        lambda: _make_state(
            **{f.name: getattr(STATE, f.name) for f in attrs.fields(xeri.GameState)}
        ),
        _StateSlots,
    ),
]
IDS = [type(value).__name__ for value, _, _ in PAIRS]


@pytest.mark.parametrize(("value", "make", "twin"), PAIRS, ids=IDS)
def test_the_twin_holds_exactly_the_fields_of_its_class(value, make, twin):
    cls = type(value)
    assert set(twin.__slots__) - {"__weakref__"} == {f.name for f in attrs.fields(cls)}
    assert issubclass(cls, twin)
    assert not hasattr(value, "__dict__")


@pytest.mark.parametrize(("value", "make", "twin"), PAIRS, ids=IDS)
def test_a_value_made_fast_equals_the_keyword_one(value, make, twin):
    made = make()
    assert type(made) is type(value)
    assert made == value
    assert hash(made) == hash(value)
    assert repr(made) == repr(value)
    assert pickle.loads(pickle.dumps(made)) == value
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.__setattr__(attrs.fields(type(value))[0].name, None)


@pytest.mark.parametrize(("value", "make", "twin"), PAIRS, ids=IDS)
def test_a_value_made_fast_has_each_field_of_the_keyword_one(value, make, twin):
    made = make()
    for field in attrs.fields(type(value)):
        assert getattr(made, field.name) == getattr(value, field.name), field.name
        assert type(getattr(made, field.name)) is type(getattr(value, field.name)), field.name


@pytest.mark.parametrize(("value", "make", "twin"), PAIRS, ids=IDS)
def test_the_fast_maker_takes_keywords_only_and_names_every_field(value, make, twin):
    maker = _fast_maker(type(value))
    fields = {f.name: getattr(value, f.name) for f in attrs.fields(type(value))}
    assert maker(**fields) == value
    with pytest.raises(TypeError):
        maker(*fields.values())  # positional: two fields could be swapped unnoticed
    first = next(iter(fields))
    with pytest.raises(TypeError):
        maker(**{k: v for k, v in fields.items() if k != first})  # a required field left out
    with pytest.raises(TypeError):
        maker(**fields, colour=1)  # no such field


def test_the_fast_maker_fills_the_defaults_of_the_class():
    made = _make_state(
        rules=STATE.rules,
        phase=STATE.phase,
        dealer=STATE.dealer,
        to_move=STATE.to_move,
        hands=STATE.hands,
        table=STATE.table,
        stock=STATE.stock,
        history=STATE.history,
        takes=STATE.takes,
        round_results=STATE.round_results,
    )
    assert made == attrs.evolve(STATE, bottom_card=None, redealt=(), dealing=())
    assert made.bottom_card is None
    assert made.redealt == ()
    assert made.dealing == ()


def test_a_fast_copy_equals_evolve_and_leaves_the_original_alone():
    copier = _state_copier("to_move", "hands")
    before = [getattr(STATE, f.name) for f in attrs.fields(xeri.GameState)]
    hands = ((), *STATE.hands[1:])
    made = copier(STATE, to_move=1, hands=hands)
    assert made == attrs.evolve(STATE, to_move=1, hands=hands)
    assert type(made) is xeri.GameState
    assert [getattr(STATE, f.name) for f in attrs.fields(xeri.GameState)] == before
    assert made.rules is STATE.rules
    assert made.stock is STATE.stock
    with pytest.raises(TypeError):
        copier(STATE, to_move=1)  # every changed field must be given
    assert copier(STATE, 1, hands) == made  # by position, in the order named
    with pytest.raises(TypeError):
        copier(STATE, 1, hands, STATE.table)  # a field it does not change
    with pytest.raises(TypeError):
        _state_copier("colour")


def test_the_generated_makers_are_made_once_per_class():
    assert _fast_maker(xeri.GameState) is _make_state
    assert _fast_maker(xeri.Take) is _make_take
    assert _state_copier("to_move", "hands") is _state_copier("to_move", "hands")


def test_a_fact_per_value_is_computed_once_per_object_and_the_cache_stays_bounded():
    calls: list[object] = []

    def length(value: tuple[int, ...]) -> int:
        calls.append(value)
        return len(value)

    per = _per_value(length, size=3)
    first = (1, 2)
    same = tuple(iter(first))  # equal, but another object
    assert same is not first
    assert per(first) == per(first) == 2
    assert calls == [first]
    assert per(same) == 2  # another object: computed for it
    assert len(calls) == 2
    assert calls[1] is same
    for n in range(5):  # past `size` values the cache starts again
        per((0,) * (n + 3))
    calls.clear()
    assert per(first) == 2
    assert calls == [first]


def test_a_match_not_over_is_the_status_the_keyword_constructor_makes():
    rules = xeri.GREEK
    low = xeri.RoundResult(
        cards=(26, 26), card_points=(11, 11), majority=(0, 0), xeris=(0, 0),
        xeri_bonus=(0, 0), total=(11, 11),
    )  # fmt: skip
    status = rules.match.status((low,), 2)
    assert status == xeri.MatchStatus(over=False, winner=None, target=151)
    assert xeri.FixedRounds(rounds=2).status((low,), 2) == xeri.MatchStatus(over=False, winner=None)

"""The engine's fast constructors make values equal to their keyword constructors'.

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
from xeri._core.state import _make_state, _make_take, _StateSlots, _TakeSlots
from xeri._families.protocol import XeriKind
from xeri._moves import _CaptureSlots, _CombineSlots, _make_capture, _make_combine
from xeri._rules.scoring import _make_result, _ResultSlots
from xeri._table import _BuildSlots, _make_build

D = xeri.DECK
BUILD = xeri.Build(cards=(D[4], D[8]), value=5, owner=1)
STATE = xeri.new_game(xeri.GREEK, deck=D, dealer=0)

PAIRS = [
    (
        xeri.Take(seat=1, cards=(D[0], D[1]), xeri=XeriKind.XERI, turn=3),
        lambda: _make_take(1, (D[0], D[1]), XeriKind.XERI, 3),
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
        lambda: _make_result((30, 22), (12, 10), (3, 0), (1, 0), (10, 0), (25, 10), 0, ()),
        _ResultSlots,
    ),
    (
        xeri.Capture(card=D[20], taken=(D[0], BUILD)),
        lambda: _make_capture(D[20], (D[0], BUILD)),
        _CaptureSlots,
    ),
    (
        xeri.Combine(card=D[0], onto=BUILD, value=6),
        lambda: _make_combine(D[0], BUILD, 6),
        _CombineSlots,
    ),
    (
        xeri.Build(cards=(D[4], D[8]), value=5, owner=1),
        lambda: _make_build((D[4], D[8]), 5, 1),
        _BuildSlots,
    ),
    (
        STATE,
        lambda: _make_state(*(getattr(STATE, f.name) for f in attrs.fields(xeri.GameState))),
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

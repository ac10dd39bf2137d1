"""Rule sets that cannot work are refused by name of the field; the registry of rule sets."""

from __future__ import annotations

import random

import attrs
import pytest

import xeri
import xeri._rules.ruleset as rules_module
from xeri import (
    GREEK,
    GREEK_FOUR,
    FixedRounds,
    PointsTable,
    Redeal,
    RuleSet,
    RuleSetError,
    TargetScore,
    XeriError,
)

BROKEN = [
    ("hand size 30", GREEK, {"hand_size": 30}, "hand_size 30 for 2 seats"),
    ("hand size 13 for four", GREEK_FOUR, {"hand_size": 13}, "hand_size 13 for 4 seats"),
    ("hand size 0", GREEK, {"hand_size": 0}, "hand_size must be at least 1"),
    ("negative hand size", GREEK, {"hand_size": -1}, "hand_size must be an int from 0 to 52"),
    ("float hand size", GREEK, {"hand_size": 6.0}, "hand_size must be an int"),
    ("hands not in whole deals", GREEK, {"hand_size": 5}, "hand_size 5: the 48 cards"),
    ("one seat", GREEK, {"seats": 1}, "seats must be an int from 2 to 8"),
    ("nine seats", GREEK, {"seats": 9}, "seats must be an int from 2 to 8"),
    ("seats as text", GREEK, {"seats": "2"}, "seats must be an int"),
    ("sides short of the seats", GREEK_FOUR, {"sides": (0, 1, 0)}, "sides must give each of the"),
    ("sides beyond the seats", GREEK, {"sides": (0, 1, 0)}, "sides must give each of the"),
    ("negative side", GREEK, {"sides": (0, -1)}, "sides must give each of the"),
    ("one side only", GREEK, {"sides": (0, 0)}, "sides must number at least two sides"),
    ("a gap in the sides", GREEK_FOUR, {"sides": (0, 2, 0, 2)}, "without gaps"),
    (
        "redeal without a table",
        GREEK,
        {"table_size": 0, "hand_size": 2},
        "redeal needs table_size >= 1",
    ),
    (
        "table too large to redeal surely",
        GREEK,
        {"seats": 8, "sides": (0, 1) * 4},
        "redeal: only 4 cards",
    ),
    ("negative table", GREEK, {"table_size": -1}, "table_size must be an int from 0 to 52"),
    ("all table cards face down", GREEK, {"face_down": 4}, "face_down must be less than"),
    ("negative xeri", GREEK, {"xeri_points": -10}, "xeri_points must be an int from 0 to"),
    ("negative jack xeri", GREEK, {"jack_xeri_points": -1}, "jack_xeri_points must be"),
    ("negative majority", GREEK, {"majority_points": -3}, "majority_points must be"),
    ("bottom card as int", GREEK, {"show_bottom_card": 1}, "show_bottom_card must be True"),
    ("last card as text", GREEK, {"xeri_on_last_card": "no"}, "xeri_on_last_card must be"),
    ("first card as None", GREEK, {"xeri_on_first_card": None}, "xeri_on_first_card must be"),
    ("redeal as text", GREEK, {"redeal": "never"}, "redeal must be a Redeal"),
    ("capture not a rule", GREEK, {"capture": object()}, "capture must implement CaptureRule"),
    ("scorer not a scorer", GREEK, {"scorer": object()}, "scorer must implement Scorer"),
    ("points as a dict", GREEK, {"card_points": {}}, "card_points must be a PointsTable"),
    ("tie rule as text", GREEK, {"majority_tie": "nobody"}, "majority_tie must be a MajorityTie"),
    ("match not a format", GREEK, {"match": 151}, "match must implement MatchFormat"),
    (
        "target that nothing reaches",
        GREEK,
        {"card_points": PointsTable(), "majority_points": 0},
        "match: a target score cannot be reached",
    ),
    ("name with spaces", GREEK, {"name": "Greek Rules"}, "name must be"),
    ("empty name", GREEK, {"name": ""}, "name must be"),
]


@pytest.mark.parametrize(
    ("base", "changes", "message"),
    [case[1:] for case in BROKEN],
    ids=[case[0] for case in BROKEN],
)
def test_rule_set_that_cannot_work_is_refused_naming_the_field(base, changes, message):
    changes = {"name": "broken", **changes}
    with pytest.raises(RuleSetError, match=message):
        attrs.evolve(base, **changes)


def test_every_problem_is_named_at_once():
    with pytest.raises(RuleSetError) as info:
        attrs.evolve(GREEK, name="broken", xeri_points=-1, jack_xeri_points=-2, hand_size=-3)
    text = str(info.value)
    for field in ("xeri_points", "jack_xeri_points", "hand_size"):
        assert field in text


def test_rule_set_errors_are_value_errors():
    assert issubclass(RuleSetError, XeriError)
    assert issubclass(RuleSetError, ValueError)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: TargetScore(target=0), "TargetScore.target must be an int from 1 to 1,000,000"),
        (lambda: TargetScore(target=-151), "TargetScore.target must be an int from 1"),
        (lambda: TargetScore(step=0), "TargetScore.step must be an int from 1"),
        (lambda: TargetScore(shared="raise"), "TargetScore.shared must be a SharedTarget"),
        (lambda: FixedRounds(rounds=0), "FixedRounds.rounds must be an int from 1"),
        (lambda: FixedRounds(rounds=2.5), "FixedRounds.rounds must be an int from 1"),
    ],
    ids=["target-0", "target-negative", "step-0", "shared-text", "rounds-0", "rounds-float"],
)
def test_match_format_that_cannot_work_is_refused(make, message):
    with pytest.raises(RuleSetError, match=message):
        make()


@pytest.mark.parametrize(
    "changes",
    [
        {"hand_size": 4},  # six deals of four, as in Pişti
        {"seats": 3, "sides": (0, 1, 2), "hand_size": 4},
        {"seats": 4, "sides": (0, 1, 2, 3)},  # four players, no partners
        {"redeal": Redeal.NEVER, "table_size": 0, "hand_size": 2},
        {"show_bottom_card": True, "redeal": Redeal.TOP_JACK_OR_ANY_PAIR},
        {"xeri_points": 0, "jack_xeri_points": 0, "majority_points": 0},
        {"match": TargetScore(target=1, step=1)},
        {"match": FixedRounds(rounds=1)},
    ],
)
def test_rule_sets_that_can_work_are_accepted(changes):
    rules = attrs.evolve(GREEK, name="workable", **changes)
    for field, value in changes.items():
        assert getattr(rules, field) == value
    state = xeri.new_game(rules, deck=xeri.DECK[::-1], dealer=0, rng=random.Random(0))
    assert len(state.hands) == rules.seats
    assert all(len(hand) == rules.hand_size for hand in state.hands)


def test_presets_have_the_documented_fields():
    assert (GREEK.seats, GREEK.sides, GREEK.hand_size, GREEK.table_size) == (2, (0, 1), 6, 4)
    assert GREEK.redeal is Redeal.TOP_JACK_OR_TOP_PAIR
    assert (GREEK.xeri_points, GREEK.jack_xeri_points, GREEK.majority_points) == (10, 20, 3)
    assert GREEK.deals_per_round == 4
    assert (GREEK_FOUR.seats, GREEK_FOUR.sides) == (4, (0, 1, 0, 1))
    assert GREEK_FOUR.redeal is Redeal.TOP_JACK_OR_ANY_PAIR
    assert GREEK_FOUR.deals_per_round == 2
    assert GREEK_FOUR.match == FixedRounds(rounds=4)


# --- the registry ------------------------------------------------------------------------------


@pytest.fixture
def registry(monkeypatch):
    """Register into a copy of the registry, so no other test sees these rule sets."""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))


def house(name="house-rules", **changes):
    return attrs.evolve(GREEK, name=name, **changes)


def test_presets_are_registered():
    assert xeri.find_rules("greek") is GREEK
    assert xeri.find_rules("greek-four") is GREEK_FOUR
    names = xeri.registered()
    assert {"greek", "greek-four"} <= set(names)
    assert list(names) == sorted(names)


@pytest.mark.usefixtures("registry")
def test_register_then_find():
    rules = house()
    assert "house-rules" not in xeri.registered()
    assert xeri.register(rules) is rules
    assert xeri.find_rules("house-rules") is rules
    assert "house-rules" in xeri.registered()
    assert list(xeri.registered()) == sorted(xeri.registered())
    # Registering an equal rule set again is harmless.
    assert xeri.register(house()) == rules
    assert xeri.find_rules("house-rules") == rules


@pytest.mark.usefixtures("registry")
def test_duplicate_name_is_refused_unless_replacing():
    first = xeri.register(house())
    other = house(jack_xeri_points=25)
    with pytest.raises(RuleSetError, match="another rule set is registered as 'house-rules'"):
        xeri.register(other)
    assert xeri.find_rules("house-rules") is first
    assert xeri.register(other, replace=True) is other
    assert xeri.find_rules("house-rules") is other


@pytest.mark.usefixtures("registry")
def test_registry_refuses_what_is_not_a_rule_set():
    with pytest.raises(RuleSetError, match="only a RuleSet can be registered"):
        xeri.register("greek")  # type: ignore[arg-type]
    assert isinstance(xeri.find_rules("greek"), RuleSet)


@pytest.mark.parametrize("name", ["no-such-rules", "GREEK", 7, None])
def test_unknown_name_is_refused(name):
    with pytest.raises(RuleSetError, match="no rule set is registered"):
        xeri.find_rules(name)


# --- hostile values, field by field --------------------------------------------------------------

HUGE = 10**5000  # str() refuses ints this long: a message must not try to print one


class Hostile:
    """A value whose every dunder the checks might call raises."""

    def __repr__(self):
        raise RuntimeError("repr")

    def __str__(self):
        raise RuntimeError("str")

    def __eq__(self, other):
        raise RuntimeError("eq")

    def __hash__(self):
        raise RuntimeError("hash")

    def __getattr__(self, name):
        if name.startswith("__"):  # pytest reads a few dunders to name the test case
            raise AttributeError(name)
        raise RuntimeError(name)


INTS = [True, False, 6.0, "6", None, b"6", (6,), -1, -HUGE, HUGE, 10**18, Hostile()]
HOSTILE = {
    "name": [None, 7, b"greek", "", "Greek", "g" * 65, "x" * 10**6, True, ("greek",), Hostile()],
    "seats": [*INTS, 0, 1, 9, 2**62],
    "sides": [
        None,
        5,
        "01",
        range(2),
        {0, 1},
        (0, True),
        (0, 1.0),
        (0, HUGE),
        (0, -1),
        (0, None),
        ((0,), (1,)),
        (0,) * 10**6,
        (0, 1) * 10**6,
        Hostile(),
    ],
    "hand_size": INTS,
    "table_size": INTS,
    "face_down": [v for v in INTS if v is not False],  # False is not an int here either
    "majority_points": [*INTS, 1_000_001],
    "xeri_points": [*INTS, 1_000_001],
    "jack_xeri_points": [*INTS, 1_000_001],
    "show_bottom_card": [1, 0, "yes", None, 1.0, HUGE, Hostile()],
    "xeri_on_last_card": [1, 0, "no", None, Hostile()],
    "xeri_on_first_card": [1, 0, "no", None, Hostile()],
    "redeal": ["never", None, 0, xeri.MajorityTie.NOBODY, Redeal, Hostile()],
    "majority_tie": ["nobody", None, 0, Redeal.NEVER, xeri.MajorityTie, Hostile()],
    "capture": [
        None,
        object(),
        "pile",
        xeri.PileCapture,  # the class, not an instance
        lambda table, hand, seat: hand,
        Hostile(),
    ],
    "card_points": [None, {}, GREEK.card_points.ranks, PointsTable, Hostile()],
    "scorer": [None, object(), xeri.StandardScorer, Hostile()],
    "match": [None, 151, TargetScore, Hostile()],
}
HOSTILE_CASES = [(field, value) for field, values in HOSTILE.items() for value in values]


@pytest.mark.parametrize(
    ("field", "value"),
    HOSTILE_CASES,
    ids=[f"{field}-{i}" for i, (field, _) in enumerate(HOSTILE_CASES)],
)
def test_a_hostile_field_value_is_refused_by_name_and_by_nothing_else(field, value):
    changes = {"name": "hostile", field: value}
    if field == "face_down":  # the only combination in which a face-down count can work
        changes["redeal"] = Redeal.NEVER
    with pytest.raises(RuleSetError) as info:
        attrs.evolve(GREEK, **changes)
    message = str(info.value)
    assert message.startswith((f"{field} ", f"{field}:")), message
    assert len(message) < 400, "a message must not copy a huge value"


@pytest.mark.parametrize(
    "make",
    [
        lambda v: TargetScore(target=v),
        lambda v: TargetScore(step=v),
        lambda v: FixedRounds(rounds=v),
    ],
    ids=["target", "step", "rounds"],
)
@pytest.mark.parametrize(
    "value", [*INTS, 0, 1_000_001], ids=lambda v: type(v).__name__ if v is not None else "None"
)
def test_a_hostile_match_format_value_is_refused(make, value):
    with pytest.raises(RuleSetError, match=r"must be an int from 1 to 1,000,000") as info:
        make(value)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize("shared", ["raise", None, 1, Redeal.NEVER, Hostile()])
def test_a_hostile_shared_target_is_refused(shared):
    with pytest.raises(RuleSetError, match=r"TargetScore\.shared must be a SharedTarget"):
        TargetScore(shared=shared)


def test_sides_given_as_a_list_are_kept_as_a_tuple():
    rules = attrs.evolve(GREEK_FOUR, name="listed", sides=[0, 1, 1, 0])
    assert rules.sides == (0, 1, 1, 0)
    assert type(rules.sides) is tuple
    hash(rules)

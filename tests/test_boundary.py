"""The engine trusts a rule set's custom components no further than its boundary.

A custom capture rule, scorer or match format that raises, returns what its
protocol does not allow, or plays without removing the card played stops
the game with a `RuleSetError` naming the component and the rule set (never
a raw exception, never a round without end); the messages name no card.
The registry keeps the presets, and misused entry points raise the
library's errors.
"""

from __future__ import annotations

import random
from typing import ClassVar

import attrs
import pytest

import xeri
import xeri._rules.ruleset as rules_module
from xeri import (
    DECK,
    GREEK,
    ArgumentError,
    Card,
    IllegalMoveError,
    MatchStatus,
    Redeal,
    RuleSetError,
    XeriError,
    XeriKind,
)

# Greek Xeri without redeals, so that a round from a fixed deck needs no chance move.
BASE = attrs.evolve(GREEK, name="boundary", redeal=Redeal.NEVER)
CARD_NAMES = [str(card) for card in DECK]


class SecretError(Exception):
    """An exception whose text names a card: that text must not reach the message."""

    def __init__(self) -> None:
        super().__init__("the hidden card is 10♦")


# --- capture rules -------------------------------------------------------------------------------


@attrs.frozen
class Pile:
    """A capture rule of its own class that plays as `PileCapture`; subclasses spoil one method."""

    pile: ClassVar[bool] = True

    def moves(self, table, hand, seat):
        return xeri.PileCapture().moves(table, hand, seat)

    def play(self, table, hand, seat, move):
        return xeri.PileCapture().play(table, hand, seat, move)

    def needs(self, table, move, seat):
        return xeri.NO_NEEDS

    def table_cards(self, table):
        return xeri.PileCapture().table_cards(table)


@attrs.frozen
class MovesRaise(Pile):
    def moves(self, table, hand, seat):
        raise SecretError


# Answers that a frozen component cannot hold in a field (a list is not hashable).
GARBAGE = {"list": list, "none": lambda value: None}


@attrs.frozen
class MovesGarbage(Pile):
    answer: object = None

    def moves(self, table, hand, seat):
        return GARBAGE[self.answer](hand) if self.answer in GARBAGE else self.answer


@attrs.frozen
class PlayRaises(Pile):
    exception: type[Exception] = SecretError

    def play(self, table, hand, seat, move):
        raise self.exception


@attrs.frozen
class PlayRefuses(Pile):
    def play(self, table, hand, seat, move):
        raise IllegalMoveError("this house refuses every move")


@attrs.frozen
class NeverRemoves(Pile):
    """Plays the card onto the pile but leaves it in the hand: the round would never end."""

    def play(self, table, hand, seat, move):
        _, table, taken, kind = super().play(table, hand, seat, move)
        return hand, table, taken, kind


@attrs.frozen
class RemovesAnother(Pile):
    """Removes the first card of the hand instead of the card played."""

    def play(self, table, hand, seat, move):
        _, table, taken, kind = super().play(table, hand, seat, move)
        return hand[1:], table, taken, kind


@attrs.frozen
class AcceptsAnything(Pile):
    """Takes any move, even one that is no move at all, as playing the first card."""

    def play(self, table, hand, seat, move):
        return super().play(table, hand, seat, hand[0])


@attrs.frozen
class Outcome(Pile):
    """Plays as the pile, then replaces one of the four values of the outcome."""

    index: int = 0
    value: object = None

    def play(self, table, hand, seat, move):
        outcome = list(super().play(table, hand, seat, move))
        if self.value in GARBAGE:
            outcome[self.index] = GARBAGE[self.value](outcome[self.index] or hand[:1])
        else:
            outcome[self.index] = self.value
        return tuple(outcome)


@attrs.frozen
class Returns(Pile):
    value: object = None

    def play(self, table, hand, seat, move):
        return self.value


@attrs.frozen
class TableCardsRaise(Pile):
    def table_cards(self, table):
        raise SecretError


@attrs.frozen
class TableCardsGarbage(Pile):
    def table_cards(self, table):
        return [*super().table_cards(table), *super().table_cards(table)]


# --- scorers and match formats -------------------------------------------------------------------


@attrs.frozen
class ScorerRaises:
    def score(self, captured, xeris, rules, *, leftover=0):
        raise SecretError

    def check(self, result, rules):
        return []


@attrs.frozen
class ScorerReturns:
    """Scores as the standard scorer, then changes one field, or returns `value` itself."""

    field: str = ""
    value: object = None

    def score(self, captured, xeris, rules, *, leftover=0):
        result = xeri.StandardScorer().score(captured, xeris, rules, leftover=leftover)
        if not self.field:
            return self.value
        value = getattr(result, self.field)
        value = GARBAGE[self.value](value) if self.value in GARBAGE else self.value
        return attrs.evolve(result, **{self.field: value})

    def check(self, result, rules):
        return []


@attrs.frozen
class StatusRaises:
    def status(self, results, sides):
        raise SecretError


@attrs.frozen
class StatusReturns:
    value: object = None

    def status(self, results, sides):
        return self.value


@attrs.frozen
class OneRound:
    """The smallest match format: one method, no `max_rounds`; the first round decides."""

    def status(self, results, sides):
        if not results:
            return MatchStatus(over=False, winner=None)
        return MatchStatus(over=True, winner=results[-1].winner)


def type_name(value):
    return type(value).__name__


def house(**changes):
    return attrs.evolve(BASE, **changes)


def play_round(rules):
    """Play one round from the ordered deck, always the first legal move; the states seen."""
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    states = [state]
    while state.to_move is not None:
        state = xeri.apply(state, xeri.legal_moves(state)[0])
        states.append(state)
    return states


def first_play(rules):
    """The state of the first play and its first legal move under the built-in pile rule."""
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    return state, state.hands[state.to_move][0]


def assert_names_component(error, rules, *words):
    message = str(error)
    assert f"rule set {rules.name!r}" in message
    for word in words:
        assert word in message, (word, message)
    assert not any(name in message for name in CARD_NAMES), message
    assert "hidden card" not in message


# --- a component that raises ---------------------------------------------------------------------


def test_a_capture_rule_whose_moves_raise_is_named_with_its_exception_class_only():
    rules = house(capture=MovesRaise())
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    with pytest.raises(RuleSetError) as info:
        xeri.legal_moves(state)
    assert_names_component(info.value, rules, "capture MovesRaise.moves raised SecretError")
    assert isinstance(info.value.__cause__, SecretError)
    with pytest.raises(RuleSetError, match=r"MovesRaise\.moves raised SecretError"):
        xeri.legal_moves(xeri.observe(state, state.to_move))


@pytest.mark.parametrize(
    "exception", [SecretError, KeyError, TypeError, RecursionError, ValueError]
)
def test_a_capture_rule_whose_play_raises_is_named_and_the_state_is_unchanged(exception):
    rules = house(capture=PlayRaises(exception=exception))
    state, card = first_play(rules)
    before = attrs.evolve(state)
    with pytest.raises(RuleSetError) as info:
        xeri.apply(state, card)
    assert_names_component(
        info.value, rules, f"capture PlayRaises.play raised {exception.__name__}"
    )
    assert isinstance(info.value.__cause__, exception)
    assert state == before


def test_illegal_move_error_from_a_custom_play_passes_through_unchanged():
    rules = house(capture=PlayRefuses())
    state, card = first_play(rules)
    with pytest.raises(IllegalMoveError, match=r"^this house refuses every move$") as info:
        xeri.apply(state, card)
    assert type(info.value) is IllegalMoveError


def test_table_cards_that_raise_are_named_at_the_end_of_the_round():
    rules = house(capture=TableCardsRaise())
    with pytest.raises(RuleSetError) as info:
        play_round(rules)
    assert_names_component(
        info.value, rules, "capture TableCardsRaise.table_cards raised SecretError"
    )


def test_table_cards_that_raise_are_named_when_chance_redeals():
    rules = attrs.evolve(GREEK, name="boundary-redeal", capture=TableCardsRaise())
    rng = random.Random(0)
    start = xeri.start(rules, dealer=0)
    state = start
    while state.phase is not xeri.Phase.REDEAL:  # deal until the initial table must be redealt
        state = xeri.apply(start, xeri.chance_move(start, rng))
    with pytest.raises(RuleSetError, match=r"TableCardsRaise\.table_cards raised SecretError"):
        xeri.chance_move(state, rng)
    deck_rest = xeri.Reshuffle(stock=(*state.stock, *state.table))
    with pytest.raises(RuleSetError, match=r"TableCardsRaise\.table_cards raised SecretError"):
        xeri.apply(state, deck_rest)


def test_a_scorer_that_raises_is_named():
    rules = house(scorer=ScorerRaises())
    with pytest.raises(RuleSetError) as info:
        play_round(rules)
    assert_names_component(info.value, rules, "scorer ScorerRaises.score raised SecretError")
    assert isinstance(info.value.__cause__, SecretError)


def test_a_match_format_that_raises_is_named():
    rules = house(match=StatusRaises())
    with pytest.raises(RuleSetError) as info:
        play_round(rules)
    assert_names_component(info.value, rules, "match StatusRaises.status raised SecretError")


def test_a_match_format_that_raises_is_named_by_the_state_properties_too():
    rules = house(match=StatusRaises())
    state = xeri.new_game(rules, rng=random.Random(1))
    for read in (lambda: state.status, lambda: xeri.observe(state, 0).status):
        with pytest.raises(RuleSetError) as info:
            read()
        assert_names_component(info.value, rules, "match StatusRaises.status raised SecretError")


# --- a component that returns garbage ------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "message"),
    [
        (None, "returned None, not a tuple of moves"),
        ("list", "returned a list, not a tuple"),
        ((), "returned no move for a hand that holds cards"),
        (("10♦",), "not a tuple of moves"),
        ((None,), "not a tuple of moves"),
    ],
    ids=["none", "list", "empty", "text", "tuple-of-none"],
)
def test_moves_of_the_wrong_shape_are_named(answer, message):
    rules = house(capture=MovesGarbage(answer=answer))
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    with pytest.raises(RuleSetError, match=message) as info:
        xeri.legal_moves(state)
    assert_names_component(info.value, rules, "capture MovesGarbage.moves")


@pytest.mark.parametrize(
    ("capture", "message"),
    [
        (Returns(value=None), "returned None, not four values"),
        (Returns(value=(1, 2, 3)), "returned a tuple, not four values"),
        (Returns(value=7), "returned 7, not four values"),
        (Outcome(index=0, value=None), "returned a hand of None from a hand of 6 cards"),
        (Outcome(index=0, value="list"), "returned a hand of a list from a hand of 6 cards"),
        (Outcome(index=1, value=None), "returned the table None, not a tuple of cards and builds"),
        (Outcome(index=1, value=("10♦",)), "not a tuple of cards and builds"),
        (Outcome(index=2, value=()), "returned the cards taken as a tuple, not None or a tuple"),
        (Outcome(index=2, value="list"), "returned the cards taken as a list"),
        (Outcome(index=3, value=XeriKind.XERI), "not None or the XeriKind of a capture"),
        (Outcome(index=3, value="xeri"), "returned the xeri a str"),
    ],
    ids=lambda v: None,
)
def test_a_play_outcome_of_the_wrong_shape_is_named(capture, message):
    rules = house(capture=capture)
    state, card = first_play(rules)  # the first card lands on a pile of four: nothing is taken
    with pytest.raises(RuleSetError, match=message) as info:
        xeri.apply(state, card)
    assert_names_component(info.value, rules, f"capture {type(capture).__name__}.play")


def test_a_play_that_never_removes_the_card_played_is_refused_at_once():
    rules = house(capture=NeverRemoves())
    state, card = first_play(rules)
    with pytest.raises(RuleSetError) as info:
        xeri.apply(state, card)
    assert_names_component(
        info.value,
        rules,
        "returned a hand of 6 cards from a hand of 6 cards",
        "the round could never end",
    )


def test_a_play_that_removes_another_card_is_refused():
    rules = house(capture=RemovesAnother())
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    card = state.hands[state.to_move][-1]
    with pytest.raises(RuleSetError, match="not the hand without the card played"):
        xeri.apply(state, card)


def test_a_play_that_accepts_a_card_not_in_the_hand_is_refused():
    rules = house(capture=AcceptsAnything())
    state, _ = first_play(rules)
    stranger = next(c for c in DECK if c not in state.hands[state.to_move])
    with pytest.raises(RuleSetError, match="accepted a move whose card is not in the mover's hand"):
        xeri.apply(state, stranger)


@pytest.mark.parametrize("move", [None, "10♦", 7, ("10♦",)], ids=type_name)
def test_a_move_of_no_kind_is_the_callers_error_even_when_a_custom_play_accepts_it(move):
    rules = house(capture=AcceptsAnything())
    state, _ = first_play(rules)
    with pytest.raises(IllegalMoveError, match="a player's move must be a Card, Capture"):
        xeri.apply(state, move)


def test_table_cards_of_the_wrong_shape_are_named():
    rules = house(capture=TableCardsGarbage())
    with pytest.raises(RuleSetError, match=r"TableCardsGarbage\.table_cards returned a list"):
        play_round(rules)


@pytest.mark.parametrize(
    ("scorer", "message"),
    [
        (ScorerReturns(value=None), "returned None, not a RoundResult"),
        (ScorerReturns(value=(0, 0)), "returned a tuple, not a RoundResult"),
        (ScorerReturns(field="total", value=(1, 2, 3)), "whose total is not 2 ints, one per side"),
        (ScorerReturns(field="cards", value="list"), "whose cards is not 2 ints"),
        (ScorerReturns(field="xeris", value=(0.0, 1)), "whose xeris is not 2 ints"),
        (ScorerReturns(field="leftover", value=None), "whose leftover is no int"),
    ],
    ids=lambda v: None,
)
def test_a_round_result_of_the_wrong_shape_is_named(scorer, message):
    rules = house(scorer=scorer)
    with pytest.raises(RuleSetError, match=message) as info:
        play_round(rules)
    assert_names_component(info.value, rules, "scorer ScorerReturns.score")


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "returned None, not a MatchStatus"),
        ((True, 0), "returned a tuple, not a MatchStatus"),
        (MatchStatus(over="yes", winner=None), "whose over is a str, not True or False"),
        (MatchStatus(over=True, winner=2), "the winner 2, not None or a side from 0 to 1"),
        (MatchStatus(over=True, winner=True), "the winner True"),
        (MatchStatus(over=False, winner=0), "while the match is not over"),
        (MatchStatus(over=False, winner=None, target="151"), "the target a str"),
    ],
    ids=lambda v: None,
)
def test_a_match_status_of_the_wrong_shape_is_named(value, message):
    rules = house(match=StatusReturns(value=value))
    with pytest.raises(RuleSetError, match=message) as info:
        play_round(rules)
    assert_names_component(info.value, rules, "match StatusReturns.status")


def test_well_behaved_custom_components_play_a_whole_match():
    rules = house(capture=Pile(), scorer=ScorerReturns(field="leftover", value=0), match=OneRound())
    states = play_round(rules)
    assert states[-1].is_over
    assert len(states[-1].round_results) == 1
    assert sum(states[-1].round_results[0].cards) == 52


# --- the match format needs `status` only --------------------------------------------------------


def test_a_match_format_needs_only_status():
    assert not hasattr(xeri.MatchFormat, "max_rounds")
    assert not hasattr(xeri.TargetScore(), "max_rounds")
    assert not hasattr(xeri.FixedRounds(), "max_rounds")
    assert isinstance(OneRound(), xeri.MatchFormat)
    rules = house(match=OneRound())
    final = play_round(rules)[-1]
    assert final.is_over
    assert final.winner == final.round_results[0].winner


# --- components that are not frozen, hashable protocol values ------------------------------------


@attrs.define
class MutablePile:
    """Not frozen: its fields could change under a rule set."""

    pile: ClassVar[bool] = True

    def moves(self, table, hand, seat):
        return hand

    def play(self, table, hand, seat, move):
        return xeri.PileCapture().play(table, hand, seat, move)

    def needs(self, table, move, seat):
        return xeri.NO_NEEDS

    def table_cards(self, table):
        return tuple(table)


@attrs.frozen
class ListPile(Pile):
    """Frozen, but a list field makes it unhashable."""

    notes: list = attrs.field(factory=list)


@attrs.frozen
class NoNeedsPile:
    """Frozen, but without the `needs` method of the protocol."""

    pile: ClassVar[bool] = True

    def moves(self, table, hand, seat):
        return hand

    def play(self, table, hand, seat, move):
        return xeri.PileCapture().play(table, hand, seat, move)

    def table_cards(self, table):
        return tuple(table)


@attrs.frozen
class NoPileCapability(NoNeedsPile):
    """Has every method but does not declare `pile`."""

    pile: ClassVar[object] = None

    def needs(self, table, move, seat):
        return xeri.NO_NEEDS


@attrs.frozen
class TextPileCapability(NoPileCapability):
    """Declares `pile` as text, not a bool."""

    pile: ClassVar[object] = "yes"


@attrs.frozen
class RaisingPileCapability(NoPileCapability):
    """Its `pile` property raises."""

    @property
    def pile(self):
        raise RuntimeError("pile")


@attrs.define
class MutableScorer:
    def score(self, captured, xeris, rules, *, leftover=0):
        return xeri.StandardScorer().score(captured, xeris, rules, leftover=leftover)

    def check(self, result, rules):
        return []


@attrs.frozen
class UnhashableFormat:
    targets: dict = attrs.field(factory=dict)

    def status(self, results, sides):
        return xeri.MatchStatus(over=bool(results), winner=None)


def test_a_frozen_hashable_component_that_implements_its_protocol_is_accepted():
    rules = house(capture=Pile())
    assert rules.capture == Pile()
    assert hash(rules) == hash(house(capture=Pile()))
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    assert xeri.legal_moves(state) == state.hands[1]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        pytest.param(
            "capture",
            MutablePile(),
            "capture must be an instance of a frozen attrs class",
            id="mutable capture",
        ),
        pytest.param(
            "capture",
            ListPile(),
            "capture must be hashable: hashing ListPile raised TypeError",
            id="unhashable capture",
        ),
        pytest.param(
            "capture",
            NoNeedsPile(),
            "capture must implement CaptureRule: NoNeedsPile has no needs method",
            id="capture without needs",
        ),
        pytest.param(
            "capture",
            NoPileCapability(),
            "must declare the pile capability as True or False, not None",
            id="capture without pile",
        ),
        pytest.param(
            "capture",
            TextPileCapability(),
            "must declare the pile capability as True or False, not 'yes'",
            id="pile as text",
        ),
        pytest.param(
            "capture",
            RaisingPileCapability(),
            "capture: reading the methods of RaisingPileCapability raised RuntimeError",
            id="pile raising",
        ),
        pytest.param(
            "capture",
            Pile,
            "capture must be an instance of a frozen attrs class .*, not type",
            id="capture class",
        ),
        pytest.param(
            "scorer",
            MutableScorer(),
            "scorer must be an instance of a frozen attrs class",
            id="mutable scorer",
        ),
        pytest.param(
            "scorer",
            lambda *a, **k: None,
            "scorer must implement Scorer: function has no score or check method",
            id="scorer function",
        ),
        pytest.param("match", UnhashableFormat(), "match must be hashable", id="unhashable format"),
        pytest.param(
            "card_points", {}, "card_points must be a PointsTable, not a dict", id="points dict"
        ),
    ],
)
def test_a_component_that_is_not_a_frozen_hashable_protocol_value_is_named(field, value, message):
    with pytest.raises(RuleSetError, match=message):
        house(**{field: value})


# --- the registry --------------------------------------------------------------------------------


@pytest.fixture
def registry(monkeypatch):
    """Register into a copy of the registry, so no other test sees these rule sets."""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize("preset", [xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN], ids=str)
def test_a_preset_name_is_never_given_to_another_rule_set(preset):
    other = attrs.evolve(preset, jack_xeri_points=25)
    for replace in (False, True):
        with pytest.raises(RuleSetError, match=f"{preset.name!r} is the name of a preset"):
            xeri.register(other, replace=replace)
    assert xeri.find_rules(preset.name) is preset


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize("preset", [xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN], ids=str)
def test_registering_a_preset_again_keeps_the_preset(preset):
    copy = attrs.evolve(preset)
    assert copy == preset
    assert copy is not preset
    assert xeri.register(copy) is copy
    assert xeri.find_rules(preset.name) is preset


@pytest.mark.usefixtures("registry")
def test_a_taken_name_is_refused_naming_it_and_replace_must_be_true():
    first = xeri.register(house(name="taken"))
    other = house(name="taken", xeri_points=11)
    with pytest.raises(RuleSetError, match="another rule set is registered as 'taken'"):
        xeri.register(other)
    with pytest.raises(RuleSetError, match="'taken'"):
        xeri.register(other, replace=1)  # type: ignore[arg-type]  # only True replaces
    assert xeri.find_rules("taken") is first
    assert xeri.register(other, replace=True) is other
    assert xeri.find_rules("taken") is other


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize("value", [None, "greek", GREEK.capture, 10**5000], ids=type_name)
def test_only_a_rule_set_can_be_registered(value):
    with pytest.raises(RuleSetError, match="only a RuleSet can be registered"):
        xeri.register(value)


@pytest.mark.parametrize("name", [None, 10**5000, "x" * 10**6, b"greek", ("greek",)], ids=type_name)
def test_find_rules_refuses_any_name_with_a_short_message(name):
    with pytest.raises(RuleSetError, match="no rule set is registered as") as info:
        xeri.find_rules(name)
    assert len(str(info.value)) < 300


# --- misuse of the entry points ------------------------------------------------------------------

NOT_STATES = [None, 42, "greek", GREEK, DECK, object()]


@pytest.mark.parametrize("value", NOT_STATES, ids=type_name)
def test_apply_needs_a_state(value):
    with pytest.raises(ArgumentError, match="apply needs a GameState"):
        xeri.apply(value, DECK[0])


def test_apply_refuses_an_observation():
    state = xeri.new_game(GREEK, deck=DECK, dealer=0)
    seen = xeri.observe(state, state.to_move)
    with pytest.raises(ArgumentError, match="apply needs a GameState, not an Observation"):
        xeri.apply(seen, xeri.legal_moves(seen)[0])


@pytest.mark.parametrize("value", NOT_STATES, ids=type_name)
def test_legal_moves_needs_a_state_or_an_observation(value):
    with pytest.raises(ArgumentError, match="legal_moves needs a GameState or an Observation"):
        xeri.legal_moves(value)


@pytest.mark.parametrize("value", NOT_STATES, ids=type_name)
def test_chance_move_needs_a_state(value):
    with pytest.raises(ArgumentError, match="chance_move needs a GameState"):
        xeri.chance_move(value)


@pytest.mark.parametrize("rules", [xeri.GREEK, xeri.GERMAN], ids=str)
@pytest.mark.parametrize(
    "move",
    [None, "10♦", "10D", 7, (DECK[0],), xeri.Deal(deck=DECK)],
    ids=type_name,
)
def test_X5_a_move_of_the_wrong_kind_is_refused_and_the_state_unchanged(rules, move):
    state = xeri.new_game(rules, deck=DECK, dealer=0)
    before = attrs.evolve(state)
    with pytest.raises(IllegalMoveError):
        xeri.apply(state, move)
    assert state == before


@pytest.mark.parametrize("move", [None, "deal", 7, DECK[0]], ids=type_name)
def test_a_move_of_the_wrong_kind_is_refused_while_chance_acts(move):
    state = xeri.start(GREEK, dealer=0)
    with pytest.raises(IllegalMoveError, match="is not legal now: chance must deal"):
        xeri.apply(state, move)


@pytest.mark.parametrize("seat", ["0", 0.0, None, 10**5000], ids=type_name)
def test_apply_refuses_a_seat_of_the_wrong_kind(seat):
    state = xeri.new_game(GREEK, deck=DECK, dealer=1)  # seat 0 is to move
    if seat is None:
        assert xeri.apply(state, state.hands[0][0], seat=seat).to_move == 1
        return
    message = "moved out of turn" if type(seat) is int else "seat must be an int or None"
    error = IllegalMoveError if type(seat) is int else ArgumentError  # out of turn: X5
    with pytest.raises(error, match=message) as info:
        xeri.apply(state, state.hands[0][0], seat=seat)
    assert len(str(info.value)) < 200


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: xeri.new_game("greek"), "rules must be a RuleSet, not 'greek' .*find_rules"),
        (lambda: xeri.new_game(None), "rules must be a RuleSet, not None"),
        (lambda: xeri.new_game(GREEK, deck=42), "deck must be a tuple or list of the 52 cards"),
        (lambda: xeri.new_game(GREEK, deck="A♠"), "deck must be a tuple or list"),
        (lambda: xeri.new_game(GREEK, deck=DECK[1:]), "a deal's deck must be a tuple holding"),
        (lambda: xeri.new_game(GREEK, dealer="0"), "dealer must be a seat from 0 to 1, not '0'"),
        (lambda: xeri.new_game(GREEK, dealer=10**5000), "dealer must be a seat"),
        (lambda: xeri.new_game(GREEK, rng=42), "rng must offer shuffle and randrange"),
        (lambda: xeri.new_game(GREEK, rng=random.random), "rng must offer shuffle and randrange"),
        (lambda: xeri.start(42), "rules must be a RuleSet, not 42"),
        (lambda: xeri.chance_move(xeri.start(GREEK), rng="seed"), "rng must offer shuffle"),
        (lambda: xeri.observe(xeri.new_game(GREEK), "0"), "seat must be an int"),
    ],
    ids=lambda v: None,
)
def test_misused_entry_points_raise_argument_errors(call, message):
    with pytest.raises(ArgumentError, match=message) as info:
        call()
    assert isinstance(info.value, XeriError)
    assert isinstance(info.value, ValueError)
    assert not isinstance(info.value, (IllegalMoveError, RuleSetError))


def test_a_card_is_still_a_card_after_the_boundary_checks():
    rules = house(capture=Pile())
    states = play_round(rules)
    plain = play_round(BASE)
    assert [s.table for s in states] == [s.table for s in plain]
    assert isinstance(states[1].history[0], Card)


# --- misuse of the sampling, notation and record functions --------------------------------------


@pytest.mark.parametrize(
    "call",
    [
        lambda: xeri.determinize(None),
        lambda: xeri.determinize(xeri.new_game(xeri.GREEK, rng=random.Random(1))),
        lambda: xeri.parse_move(None, "10D"),
        lambda: xeri.replay(None),
        lambda: xeri.observe(None, 0),
        lambda: xeri._agents.sampling.consistent_states(1),
    ],
    ids=[
        "determinize-none",
        "determinize-state",
        "parse-none",
        "replay-none",
        "observe-none",
        "count-int",
    ],
)
def test_sampling_notation_and_records_refuse_arguments_that_are_not_theirs(call):
    with pytest.raises(ArgumentError) as info:
        call()
    assert not isinstance(info.value, IllegalMoveError)


def test_X5_check_observation_reports_what_is_not_an_observation():
    assert xeri._agents.sampling.check_observation(None) == [  # type: ignore[arg-type]
        "an Observation is needed (see xeri.observe), not NoneType"
    ]

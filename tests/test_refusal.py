"""The harness tests refusal (X5), and accepts a jack xeri on an open table where the rule says.

* at sampled states `check_rules` submits moves of held cards that are not
  legal (items that are no capture, an item not on the table, a build the
  rules forbid, another family's move) to the capture rule's `play` and to
  `apply`: a rule that accepts one fails, naming the move it accepted, and a
  refusal that names a hidden card fails too;
* every preset and generated rule sets still pass, and the check draws from
  a generator of its own (the matches played do not change);
* on an open table a jack xeri is accepted from a rule that names its rank
  in `jack_xeri_ranks` (W3), or, for a rule of one's own, declares it as a
  `sweeper`, when it takes a lone card of that rank with another.
"""

# Test names carry the clause id of the rules pages (test_X5_...).

from __future__ import annotations

import random
from typing import ClassVar

import attrs
import hypothesis
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
import xeri._rules.ruleset as rules_module
from xeri import NO_NEEDS, Build, Capture, Card, Combine, Rank, Trail, XeriKind, item_cards
from xeri.testing import ConformanceError, check_rules, harness, rule_sets


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Rule sets registered by a test go with it."""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))


def registered(base: xeri.RuleSet, name: str, **changes: object) -> xeri.RuleSet:
    """`base` with `changes`, registered (JSON reads a rule of its own back by name)."""
    return xeri.register(attrs.evolve(base, name=name, **changes), replace=True)


def take_items(table, hand, move):
    """The outcome of `move` taking its items, legal or not: what a permissive rule returns."""
    rest = tuple(c for c in hand if c != move.card)
    left = tuple(t for t in table if t not in move.taken)
    taken = tuple(c for t in move.taken for c in item_cards(t)) + (move.card,)
    return rest, left, taken, (None if left else XeriKind.XERI)


# --------------------------------------------------------------------------
# Permissive rules


@attrs.frozen(kw_only=True)
class AcceptsAnyCapture(xeri.SumCapture):
    """German Xeri's rule, except that `play` accepts any capture of a held card."""

    def play(self, table, hand, seat, move):
        if isinstance(move, Capture) and move.card in hand:
            return take_items(table, hand, move)
        return super().play(table, hand, seat, move)


@attrs.frozen(kw_only=True)
class AcceptsAnyBuild(xeri.SumCapture):
    """German Xeri's rule, except that `play` accepts a build of any value on any item."""

    def play(self, table, hand, seat, move):
        if isinstance(move, Combine) and move.card in hand and move.onto in table:
            rest = tuple(c for c in hand if c != move.card)
            build = Build(cards=(*item_cards(move.onto), move.card), value=move.value, owner=seat)
            return rest, tuple(build if t == move.onto else t for t in table), None, None
        return super().play(table, hand, seat, move)


@attrs.frozen(kw_only=True)
class AcceptsAnyTrail(xeri.SumCapture):
    """Scopa's rule, except that `play` lays any held card free, one that must capture too."""

    def play(self, table, hand, seat, move):
        if isinstance(move, Trail) and move.card in hand:
            return tuple(c for c in hand if c != move.card), (*table, move.card), None, None
        return super().play(table, hand, seat, move)


@attrs.frozen(kw_only=True)
class PileTakenByAnyCapture(xeri.PileCapture):
    """Greek pile play, except that a `Capture` of the top card by any held card takes the pile."""

    def play(self, table, hand, seat, move):
        if isinstance(move, Capture) and move.card in hand and table:
            rest = tuple(c for c in hand if c != move.card)
            return rest, (), (*table, move.card), None
        return super().play(table, hand, seat, move)


@attrs.frozen(kw_only=True)
class PileOfItsOwnLaysTrails:
    """A pile rule of its own class: plays as `PileCapture`, and lays a `Trail`'s card on top."""

    pile: ClassVar[bool] = True
    sweeper: Rank = Rank.JACK

    def moves(self, table, hand, seat):
        return hand

    def play(self, table, hand, seat, move):
        if isinstance(move, Trail) and move.card in hand:
            return tuple(c for c in hand if c != move.card), (*table, move.card), None, None
        return xeri.PileCapture(sweeper=self.sweeper).play(table, hand, seat, move)

    def needs(self, table, move, seat):
        return NO_NEEDS

    def table_cards(self, table):
        return tuple(table)


@attrs.frozen(kw_only=True)
class CompulsionForgottenInPlay:
    """A pile must be taken by a card that can (the legal moves say so), but `play` forgets it."""

    pile: ClassVar[bool] = True
    sweeper: Rank = Rank.JACK

    def _takers(self, table):
        if not table:
            return frozenset()
        return frozenset(c for c in xeri.DECK if c.rank in (table[-1].rank, self.sweeper))

    def moves(self, table, hand, seat):
        return tuple(c for c in hand if c in self._takers(table)) or hand

    def play(self, table, hand, seat, move):
        return xeri.PileCapture(sweeper=self.sweeper).play(table, hand, seat, move)

    def needs(self, table, move, seat):
        if move in self._takers(table):
            return NO_NEEDS
        return xeri.HandNeeds(none_of=self._takers(table))

    def table_cards(self, table):
        return tuple(table)


@attrs.frozen(kw_only=True)
class RefusesWithValueError(xeri.SumCapture):
    """German Xeri's rule, but its refusals are `ValueError`s, not `IllegalMoveError`s."""

    def play(self, table, hand, seat, move):
        try:
            return super().play(table, hand, seat, move)
        except xeri.IllegalMoveError as exc:
            raise ValueError(str(exc)) from None


@attrs.frozen(kw_only=True)
class RefusesNamingTheStock(xeri.SumCapture):
    """German Xeri's rule, but a refusal names every card that is neither held nor on the table."""

    def play(self, table, hand, seat, move):
        try:
            return super().play(table, hand, seat, move)
        except xeri.IllegalMoveError as exc:
            seen = {*hand, *self.table_cards(table)}
            elsewhere = " ".join(str(c) for c in xeri.DECK if c not in seen)
            raise xeri.IllegalMoveError(f"{exc}; the cards elsewhere: {elsewhere}") from None


PERMISSIVE = {
    "any capture of a held card": (xeri.GERMAN, AcceptsAnyCapture(), Capture),
    "any capture of several groups": (
        xeri.CASSINO,
        AcceptsAnyCapture(multi_capture=True, multi_builds=True, self_raise=True),
        Capture,
    ),
    "any build": (xeri.GERMAN, AcceptsAnyBuild(), Combine),
    "any trail": (
        xeri.SCOPA,
        AcceptsAnyTrail(
            values=xeri.SCOPA_VALUES,
            builds=False,
            raises=False,
            equal_first=True,
            card_must_capture=True,
        ),
        Trail,
    ),
    "pile: any capture of the top card": (xeri.GREEK, PileTakenByAnyCapture(), Capture),
    "pile: a rule of its own laying trails": (xeri.PISTI, PileOfItsOwnLaysTrails(), Trail),
    "pile: a compulsion forgotten in play": (xeri.PISTI, CompulsionForgottenInPlay(), Card),
}


@pytest.mark.parametrize("case", sorted(PERMISSIVE))
def test_X5_a_rule_accepting_an_illegal_move_fails_naming_the_move(case):
    base, capture, kind = PERMISSIVE[case]
    rules = registered(
        base, "permissive-" + case.replace(" ", "-").replace(":", ""), capture=capture
    )
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, rng=random.Random(0))  # the default number of games
    error = caught.value
    assert error.check == "illegal move"
    move = error.move
    assert isinstance(move, kind)
    assert move.card in error.state.hands[error.state.to_move]
    assert move not in xeri.legal_moves(error.state)
    assert str(error).startswith(f"illegal move check failed at move {error.move_number} ({move})")
    assert f"the capture rule's play accepted {move}," in error.detail
    assert error.detail.endswith("here, and not it")
    # The record replays the game to the state where the rule accepted the move, and it does.
    assert xeri.replay(error.record)[-1] == error.state
    assert error.move_number == len(error.record.moves)
    outcome = capture.play(error.state.table, error.state.hands[error.state.to_move], 0, move)
    assert len(outcome) == 4


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize(
    ("base", "capture"),
    [(xeri.GERMAN, AcceptsAnyCapture()), (xeri.GREEK, PileTakenByAnyCapture())],
    ids=["sums", "pile"],
)
def test_X5_a_rule_accepting_any_capture_fails_within_the_default_games(base, capture, seed):
    rules = registered(base, "accepts-any-capture", capture=capture)
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, rng=random.Random(seed))
    assert caught.value.check == "illegal move"
    assert isinstance(caught.value.move, Capture)
    assert caught.value.move not in xeri.legal_moves(caught.value.state)


def test_X5_a_refusal_that_is_not_an_illegal_move_error_fails():
    rules = registered(xeri.GERMAN, "refuses-with-value-error", capture=RefusesWithValueError())
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, rng=random.Random(0))
    error = caught.value
    assert error.check == "illegal move"
    assert "raised ValueError" in error.detail
    assert error.detail.endswith("not IllegalMoveError")


def test_X2_X5_a_refusal_naming_a_hidden_card_fails():
    rules = registered(xeri.GERMAN, "refuses-naming-the-stock", capture=RefusesNamingTheStock())
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, rng=random.Random(0))
    error = caught.value
    assert error.check == "illegal move"
    assert "hidden from seat" in error.detail
    state = error.state
    hidden = {str(harness.card_at(state, p)) for p in harness.hidden_places(state, state.to_move)}
    named = error.detail.split("the error names ", 1)[1].split(", hidden from seat", 1)[0]
    assert set(named.split(", ")) <= hidden


@pytest.mark.parametrize("name", ["greek", "greek-four", "german", "pisti", "scopa", "cassino"])
def test_X5_every_preset_refuses_what_the_check_tries(name):
    report = check_rules(xeri.find_rules(name), games=2, rng=random.Random(f"refusal {name}"))
    assert report.complete


def test_X5_generated_rule_sets_refuse_what_the_check_tries():
    checked = []

    @settings(max_examples=30, deadline=None)
    @given(rules=rule_sets(max_seats=4), seed=st.integers(0, 2**32))
    def check(rules, seed):
        check_rules(rules, games=1, rng=random.Random(seed))
        checked.append(rules.capture.pile)

    check()
    assert len(checked) >= 25
    assert True in checked
    assert False in checked


def test_X5_the_refusal_check_changes_no_match_played(monkeypatch):
    rules = registered(xeri.GERMAN, "german-two-rounds", match=xeri.FixedRounds(rounds=2))
    with_check = check_rules(rules, games=2, rng=random.Random(3))
    monkeypatch.setattr(harness, "_check_refusal", lambda *args: None)
    assert check_rules(rules, games=2, rng=random.Random(3)) == with_check


def test_X5_the_refusal_check_tries_every_kind_of_illegal_move(monkeypatch):
    tried: dict[str, int] = {}
    honest = harness._refusal_candidates

    def counting(state, legal, rng):
        found = honest(state, legal, rng)
        for what, move in found:
            if what != "a legal move made with a card the mover does not hold":
                assert move.card in state.hands[state.to_move]
            if move not in legal:
                tried[what] = tried.get(what, 0) + 1
        return found

    monkeypatch.setattr(harness, "_refusal_candidates", counting)
    check_rules(xeri.GREEK, games=1, rng=random.Random(1))
    check_rules(xeri.GERMAN, games=3, rng=random.Random(1))
    assert set(tried) == {
        "a capture of the pile's top card by a card that does not match it",
        "a build on the pile",
        "a card laid free, not a move of a pile game",
        "a held card with table items that are not a legal capture",
        "a legal capture with one more table item",
        "a legal capture with one table item fewer",
        "another held card taking the items of a legal capture",
        "a build the rules do not allow",
        "a build of several items the rules do not allow",
        "a card laid free where the rules do not allow it",
        "a bare card, the move of a pile game",
        "a capture of a card that is not on the table (it is in the mover's hand)",
        "a capture of a card of a build, taken alone",
        "a capture of a build that is not on the table",
        "a legal move made with a card the mover does not hold",
    }


# --------------------------------------------------------------------------
# A jack xeri on an open table (D6)


@attrs.frozen(kw_only=True)
class JackXeriSums(xeri.SumCapture):
    """German Xeri's sums, and a Jack taking a lone Jack is a jack xeri (a house rule).

    The rule declares its `sweeper` rank as data, as `PileCapture` does; it
    sweeps nothing here (a Jack is a picture and takes a Jack only).
    """

    sweeper: Rank | None = Rank.JACK

    def play(self, table, hand, seat, move):
        rest, left, taken, kind = super().play(table, hand, seat, move)
        if kind is XeriKind.XERI and len(taken) == 2 and {c.rank for c in taken} == {Rank.JACK}:
            kind = XeriKind.JACK_XERI
        return rest, left, taken, kind


@attrs.frozen(kw_only=True)
class EveryXeriAJackXeri(JackXeriSums):
    """Declares the Jack as its sweeper, but makes every sweep a jack xeri."""

    def play(self, table, hand, seat, move):
        rest, left, taken, kind = super().play(table, hand, seat, move)
        return rest, left, taken, (XeriKind.JACK_XERI if kind is not None else None)


PICTURES = tuple(c for c in xeri.DECK if c.rank >= Rank.JACK)
"""Twelve cards that take only their own rank: a Jack often takes a lone Jack."""


def pictures_only(name: str, capture: xeri.CaptureRule) -> xeri.RuleSet:
    """German Xeri on the twelve pictures, an empty initial table, hands of 2, jack xeri 30."""
    return registered(
        xeri.GERMAN,
        name,
        deck=PICTURES,
        table_size=0,
        hand_size=2,
        capture=capture,
        jack_xeri_points=30,
    )


def test_D6_a_jack_xeri_on_an_open_table_is_accepted_from_a_rule_with_a_sweeper(monkeypatch):
    rules = pictures_only("pictures-jack-xeri", JackXeriSums())
    seen = []
    honest = harness._check_xeri_kind

    def spying(rules_, take, new):
        honest(rules_, take, new)
        seen.append(take.xeri)

    monkeypatch.setattr(harness, "_check_xeri_kind", spying)
    report = check_rules(rules, games=3, rng=random.Random(30))
    assert report.complete
    assert XeriKind.JACK_XERI in seen


def test_D6_the_engine_scores_a_jack_xeri_on_an_open_table():
    rules = pictures_only("pictures-jack-xeri", JackXeriSums())
    # Seat 1 leads (dealer 0) with the J♣ on the empty table; seat 0 takes it with the J♦.
    first = tuple(map(Card.parse, ["J♣", "Q♣", "J♦", "Q♦"]))
    deck = first + tuple(c for c in PICTURES if c not in first)
    state = xeri.new_game(rules, deck=deck, dealer=0)
    state = xeri.apply(state, Trail(card=Card.parse("J♣")))
    state = xeri.apply(state, Capture(card=Card.parse("J♦"), taken=(Card.parse("J♣"),)))
    assert state.takes[-1].xeri is XeriKind.JACK_XERI
    while not state.is_round_over:
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    assert state.round_results[0].xeri_bonus[0] >= 30


def test_D6_a_jack_xeri_on_an_open_table_fails_without_a_sweeper():
    rules = pictures_only("pictures-no-sweeper", JackXeriSums(sweeper=None))
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, games=3, rng=random.Random(30))
    error = caught.value
    assert error.check == "xeri"
    assert "by a rule that names no jack_xeri_ranks (W3)" in error.detail
    assert error.state.takes[-1].xeri is XeriKind.JACK_XERI


def test_D6_a_jack_xeri_on_an_open_table_must_take_a_lone_card_of_the_sweepers_rank():
    rules = pictures_only("pictures-every-jack-xeri", EveryXeriAJackXeri())
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, games=3, rng=random.Random(0))
    error = caught.value
    assert error.check == "xeri"
    assert "must take a lone card of its own rank, one of J" in error.detail
    take = error.state.takes[-1]
    assert take.xeri is XeriKind.JACK_XERI
    assert {c.rank for c in take.cards} != {Rank.JACK}


def test_X5_a_listed_move_naming_an_item_not_on_the_table_fails():
    state = xeri.new_game(xeri.GERMAN, rng=random.Random(4))
    hand = state.hands[state.to_move]
    phantom = Capture(card=hand[0], taken=(hand[1],))  # a card of the hand is not on the table
    twice = Combine(card=hand[0], onto=state.table[0], value=10, also=(state.table[0],))
    for move, why in [(phantom, f"{hand[1]} not on the table"), (twice, "twice")]:
        with pytest.raises(harness._Failure) as caught:
            harness._check_listed_items(state, (move,), random.Random(0))
        assert caught.value.check == "legal moves"
        assert caught.value.detail == f"the legal move {move} names an item {why}"
    harness._check_listed_items(state, xeri.legal_moves(state), random.Random(0))


def _accepting_any_capture(rules: xeri.RuleSet) -> xeri.RuleSet:
    """`rules` with its built-in capture rule made to accept any capture of a held card."""
    capture = rules.capture
    kind = PileTakenByAnyCapture if capture.pile else AcceptsAnyCapture
    options = {f.alias: getattr(capture, f.name) for f in attrs.fields(type(capture)) if f.init}
    return registered(rules, "accepting-any-capture", capture=kind(**options))


def test_X5_every_generated_rule_set_accepting_any_capture_fails():
    checked = []

    @settings(max_examples=25, deadline=None)
    @given(rules=rule_sets(max_seats=4), seed=st.integers(0, 2**32))
    def check(rules, seed):
        hypothesis.assume(rules.table_size >= 1)  # a capture needs something on the table
        permissive = _accepting_any_capture(rules)
        with pytest.raises(ConformanceError) as caught:
            check_rules(permissive, rng=random.Random(seed))
        assert caught.value.check == "illegal move"
        assert isinstance(caught.value.move, Capture)
        checked.append(rules.capture.pile)

    check()
    assert len(checked) >= 15

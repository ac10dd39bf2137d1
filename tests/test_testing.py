"""The conformance harness `xeri.testing` and the Pişti rule set of the docs (clauses P1–P5).

* `check_rules` passes for every registered preset, for the Pişti rule set
  built in docs/custom-rules.md, and for generated valid rule sets;
* it catches deliberately broken rule sets, and the error it raises names the
  check and carries a record that replays the game to the failure;
* rule sets that cannot work are refused with a `RuleSetError` naming the field;
* the Pişti clauses P1–P5, on the docs' rule set, with scripted decks.

Every test plays few and short matches: the file is meant to take well under
two minutes on a slow machine.
"""

# Test names carry the clause id of the rules pages (test_P3_...).

from __future__ import annotations

import doctest
import functools
import itertools
import random
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
import xeri._rules.ruleset as rules_module
from support import REST, collect, play, script_deck
from xeri import Card, Rank, RuleSetError, XeriKind
from xeri._families.protocol import NO_NEEDS
from xeri.testing import (
    CHECKS,
    CheckReport,
    ConformanceError,
    card_at,
    check_rules,
    decks,
    hidden_places,
    reachable_states,
    round_bound,
    rule_sets,
)

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "custom-rules.md"


def guide_namespace() -> dict[str, object]:
    """The names the guide defines, its examples run up to the definition of `PISTI`."""
    namespace: dict[str, object] = {}
    for example in doctest.DocTestParser().get_examples(GUIDE.read_text(encoding="utf-8")):
        if example.exc_msg is None:
            exec(compile(example.source, str(GUIDE), "single"), namespace)
        if "PISTI" in namespace:
            return namespace
    raise AssertionError("the guide defines no PISTI")


@functools.cache
def docs_pisti() -> xeri.RuleSet:
    """The `PISTI` rule set as the guide builds it."""
    rules = guide_namespace()["PISTI"]
    assert isinstance(rules, xeri.RuleSet)
    return rules


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Rule sets registered by a test (the guide's Pişti, broken ones) go with it."""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))
    xeri.register(docs_pisti(), replace=True)


def pisti_from_rules_md() -> xeri.RuleSet:
    """Pişti from clauses P1–P5 with the guide's choices, written here independently."""
    return attrs.evolve(
        xeri.GREEK,
        name="pisti",
        hand_size=4,
        face_down=3,
        redeal=xeri.Redeal.NEVER,
        xeri_on_first_card=False,
        xeri_on_last_card=False,
        card_points=xeri.PointsTable(
            ranks={Rank.JACK: 1, Rank.ACE: 1},
            cards={Card.parse("2♣"): 2, Card.parse("10♦"): 3},
        ),
        majority_points=3,
        xeri_points=10,
        jack_xeri_points=20,
        match=xeri.TargetScore(target=151),
    )


# --------------------------------------------------------------------------
# The harness passes


@pytest.mark.parametrize("name", xeri.registered())
def test_harness_passes_for_every_registered_preset(name):
    rules = xeri.find_rules(name)
    report = check_rules(rules, games=1, rng=random.Random(name))
    assert report.games == 1
    assert 1 <= report.rounds <= round_bound(rules)
    assert report.moves >= report.rounds * (len(rules.deck) - rules.table_size)


def test_pisti_of_the_guide_is_the_one_rules_md_describes_and_is_registered():
    assert docs_pisti() == pisti_from_rules_md()
    del rules_module._REGISTRY["pisti"]  # the fixture's copy of the registry
    namespace = guide_namespace()
    assert xeri.find_rules("pisti") is namespace["PISTI"]


def test_harness_passes_for_the_pisti_of_the_guide():
    report = check_rules(docs_pisti(), games=2, rng=random.Random(151))
    assert report == CheckReport(games=2, rounds=report.rounds, moves=report.moves)
    assert report.rounds >= 2


def test_harness_passes_for_at_least_50_generated_rule_sets():
    checked = []

    @settings(max_examples=60, deadline=None)
    @given(rules=rule_sets(max_seats=6), seed=st.integers(0, 2**32))
    def check(rules, seed):
        report = check_rules(rules, games=1, rng=random.Random(seed))
        assert report.rounds <= round_bound(rules)
        checked.append(rules)

    check()
    assert len(checked) >= 50


def test_harness_works_without_hypothesis():
    code = """if True:
        import random, sys
        sys.modules["hypothesis"] = None  # an import of hypothesis now fails
        import xeri
        from xeri.testing import check_rules
        print(check_rules(xeri.GREEK, games=1, rng=random.Random(4)).games)
        try:
            from xeri.testing import rule_sets
        except ImportError as exc:
            print(exc)
        print(sys.modules["hypothesis"])
    """
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False, cwd=ROOT
    )
    assert run.returncode == 0, run.stderr
    games, error, hypothesis = run.stdout.splitlines()
    assert games == "1"
    assert "hypothesis" in error
    assert "testing extra" in error
    assert hypothesis == "None"


def test_round_bound_reads_the_match_format_as_data():
    @attrs.frozen
    class FirstToFive:
        target: int = 5

        def status(self, results, sides):
            return xeri.MatchStatus(over=bool(results), winner=None)

    @attrs.frozen
    class OneRound:
        def status(self, results, sides):
            return xeri.MatchStatus(over=bool(results), winner=None)

    assert round_bound(attrs.evolve(xeri.GREEK, match=NeverOver(rounds=3))) == 3
    assert round_bound(attrs.evolve(xeri.GREEK, match=xeri.FixedRounds(rounds=7))) == 7
    # Greek base points: 22 card points and 3 for the majority, so one round reaches 5.
    assert round_bound(attrs.evolve(xeri.GREEK, match=FirstToFive())) == 20 + 10
    assert round_bound(attrs.evolve(xeri.GREEK, match=OneRound())) == 500


def test_X2_hidden_places_are_the_places_of_the_cards_an_observation_does_not_show():
    rules_drawn = st.sampled_from([docs_pisti(), xeri.GREEK, xeri.GERMAN, xeri.GREEK_FOUR])
    seen_phases = set()

    @settings(max_examples=40, deadline=None)
    @given(reachable_states(rules_drawn, max_moves=120))
    def check(state):
        for seat in range(state.rules.seats):
            places = hidden_places(state, seat)
            assert len(set(places)) == len(places)
            hidden = [card_at(state, p) for p in places]
            seen = xeri.observe(state, seat)
            shown = {*seen.hand, *state.rules.capture.table_cards(seen.table)}
            shown |= {c for take in seen.takes for c in take.cards}
            shown |= {seen.bottom_card} - {None}
            expected = set() if state.phase is xeri.Phase.DEAL else set(xeri.DECK) - shown
            assert sorted(hidden) == sorted(expected)
            seen_phases.add(state.phase)

    check()
    assert xeri.Phase.PLAY in seen_phases


def test_the_same_seed_checks_the_same_games():
    first = check_rules(xeri.GREEK_FOUR, games=1, rng=random.Random(9))
    again = check_rules(xeri.GREEK_FOUR, games=1, rng=random.Random(9))
    assert first == again


@pytest.mark.parametrize("games", [0, -1, 1.5, "2"])
def test_check_rules_refuses_a_bad_number_of_games(games):
    with pytest.raises(TypeError, match="games"):
        check_rules(xeri.GREEK, games=games)


def test_check_rules_refuses_what_is_not_a_rule_set():
    with pytest.raises(TypeError, match="RuleSet"):
        check_rules("greek")  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# The harness catches broken rule sets


@attrs.frozen(kw_only=True)
class MiscountingScorer:
    """Scores as the standard scorer, but counts one card too few for side 0."""

    def score(self, captured, xeris, rules, *, leftover=0):
        result = xeri.StandardScorer().score(captured, xeris, rules, leftover=leftover)
        return attrs.evolve(result, cards=(result.cards[0] - 1, *result.cards[1:]))

    def check(self, result, rules):
        return []


@attrs.frozen(kw_only=True)
class TotalForgetsMajority:
    """Scores as the standard scorer, but leaves the majority bonus out of the total."""

    def score(self, captured, xeris, rules, *, leftover=0):
        result = xeri.StandardScorer().score(captured, xeris, rules, leftover=leftover)
        total = tuple(t - m for t, m in zip(result.total, result.majority, strict=True))
        return attrs.evolve(result, total=total)

    def check(self, result, rules):
        return []


@attrs.frozen(kw_only=True)
class WrappedPile:
    """A pile capture of its own class whose `play` a subclass may spoil; plays as `PileCapture`."""

    pile: ClassVar[bool] = True
    sweeper: Rank = Rank.JACK

    def moves(self, table, hand, seat):
        return hand

    def play(self, table, hand, seat, move):
        return xeri.PileCapture(sweeper=self.sweeper).play(table, hand, seat, move)

    def needs(self, table, move, seat):
        return NO_NEEDS

    def table_cards(self, table):
        return tuple(table)


@attrs.frozen(kw_only=True)
class WrappedSums:
    """A capture rule of sums of its own class that a subclass may spoil; plays as `SumCapture`."""

    pile: ClassVar[bool] = False
    forced_capture: bool = False

    def _rule(self):
        return xeri.SumCapture(forced_capture=self.forced_capture)

    def moves(self, table, hand, seat):
        return self._rule().moves(table, hand, seat)

    def play(self, table, hand, seat, move):
        return self._rule().play(table, hand, seat, move)

    def needs(self, table, move, seat):
        return self._rule().needs(table, move, seat)

    def table_cards(self, table):
        return self._rule().table_cards(table)


@attrs.frozen(kw_only=True)
class LosingCapture(WrappedPile):
    """Loses the bottom card of every pile of three or more that it takes."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        if taken is not None and len(taken) >= 3:
            taken = taken[1:]
        return hand, table, taken, kind


@attrs.frozen(kw_only=True)
class UnsortedMoves(WrappedPile):
    """Lists the hand backwards."""

    def moves(self, table, hand, seat):
        return hand[::-1]


@attrs.frozen(kw_only=True)
class PlaysAnyCard(WrappedPile):
    """Accepts a card the mover does not hold, laying it on the pile."""

    def play(self, table, hand, seat, move):
        if move in hand:
            return super().play(table, hand, seat, move)
        return hand, (*table, move), None, None


@attrs.frozen(kw_only=True)
class EveryCaptureIsAXeri(xeri.PileCapture):
    """A pile capture that counts every capture as a xeri."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        return hand, table, taken, (XeriKind.XERI if taken is not None else kind)


@attrs.frozen(kw_only=True)
class PileXeriOfItsOwn(WrappedPile):
    """Not a `PileCapture`: counts every capture as a xeri, as `EveryCaptureIsAXeri`."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        return hand, table, taken, (XeriKind.XERI if taken is not None else kind)


@attrs.frozen(kw_only=True)
class SumsXeriOfItsOwn(WrappedSums):
    """Not a `SumCapture`: counts every capture as a xeri, cleared table or not."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        return hand, table, taken, (XeriKind.XERI if taken is not None else kind)


@attrs.frozen(kw_only=True)
class NeedsTooMuch(WrappedPile):
    """Says that no hand could have played anything."""

    def needs(self, table, move, seat):
        return xeri.HandNeeds(none_of=xeri.DECK)


@attrs.frozen(kw_only=True)
class NeedsForgetCompulsion(WrappedSums):
    """Compulsory capture (D5), but `needs` says any hand holding the card may play the move."""

    def needs(self, table, move, seat):
        return NO_NEEDS


_FLIPS = itertools.count()


@attrs.frozen(kw_only=True)
class Forgetful(WrappedPile):
    """Impure: every other call forgets which card was played and reports a xeri."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        if next(_FLIPS) % 2 and taken is not None:
            kind = XeriKind.XERI if kind is None else None
        return hand, table, taken, kind


@attrs.frozen(kw_only=True)
class NeverOver:
    """A match format that never ends, though its `rounds` says two."""

    rounds: int = 2

    def status(self, results, sides):
        return xeri.MatchStatus(over=False, winner=None)


GREEK, GERMAN = xeri.GREEK, xeri.GERMAN
BROKEN = {
    "miscounting scorer": ("round score", GREEK, {"scorer": MiscountingScorer()}),
    "total without majority": ("round score", GREEK, {"scorer": TotalForgetsMajority()}),
    "capture losing a card": ("conservation", GREEK, {"capture": LosingCapture()}),
    "unsorted moves": ("legal moves", GREEK, {"capture": UnsortedMoves()}),
    "card not held accepted": ("illegal move", GREEK, {"capture": PlaysAnyCard()}),
    "every capture a xeri": ("xeri", GREEK, {"capture": EveryCaptureIsAXeri()}),
    "custom pile: every capture a xeri": ("xeri", GREEK, {"capture": PileXeriOfItsOwn()}),
    "custom sums: every capture a xeri": ("xeri", GERMAN, {"capture": SumsXeriOfItsOwn()}),
    "impure capture": ("purity", GREEK, {"capture": Forgetful()}),
    "endless match": ("termination", GREEK, {"match": NeverOver()}),
    "needs refusing the real hand": ("needs", GREEK, {"capture": NeedsTooMuch()}),
    "needs forgetting compulsion": (
        "needs",
        GERMAN,
        {"capture": NeedsForgetCompulsion(forced_capture=True)},
    ),
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_harness_catches_a_broken_rule_set_and_its_record_replays_the_failure(case):
    check, base, changes = BROKEN[case]
    name = "broken-" + case.replace(" ", "-").replace(":", "")
    rules = xeri.register(attrs.evolve(base, name=name, **changes), replace=True)
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, games=3, rng=random.Random(0))
    error = caught.value
    assert isinstance(error, xeri.XeriError)
    assert error.check == check
    assert error.check in CHECKS
    assert str(error).startswith(f"{check} check failed")
    assert error.move is not None
    assert f"({error.move})" in str(error)
    record = error.record
    assert isinstance(record, xeri.GameRecord)
    assert record.rules == rules
    if case == "impure capture":
        return  # an impure rule set replays differently: that is what was caught
    states = xeri.replay(record)
    assert states[-1] == error.state
    if record.moves and record.moves[-1] is error.move:
        assert error.move_number == len(record.moves) - 1
    else:
        assert error.move_number == len(record.moves)
    _assert_failure_is_visible(case, error)


def _assert_failure_is_visible(case: str, error: ConformanceError) -> None:
    """The replayed state shows what the check complained about."""
    state = error.state
    if case == "miscounting scorer":
        result = state.round_results[-1]
        assert sum(result.cards) + result.leftover == 51
    elif case == "capture losing a card":
        cards = [c for hand in state.hands for c in hand]
        cards += [*state.table, *state.stock]
        cards += [c for take in state.takes for c in take.cards]
        assert len(cards) == 51
    elif case == "card not held accepted":
        assert error.move not in state.hands[state.to_move]
        try:
            xeri.apply(state, error.move)  # accepted: the bug
        except RuleSetError:
            # The engine saw the capture's outcome keep a card not held: not an IllegalMoveError.
            assert "RuleSetError" in error.detail
        else:
            assert error.detail.endswith("was accepted")
    elif case == "endless match":
        assert len(state.round_results) == 2
        assert not state.is_over
    elif case.startswith("needs"):
        assert error.move in xeri.legal_moves(state)
        if case == "needs refusing the real hand":
            assert "the mover's hand could not have played it" in error.detail
        else:
            assert error.detail.endswith("but needs allows it")
    elif case.startswith("custom"):
        assert state.takes[-1].xeri is XeriKind.XERI


@pytest.mark.parametrize(
    ("base", "capture"),
    [(xeri.GREEK, WrappedPile()), (xeri.GERMAN, WrappedSums(forced_capture=True))],
    ids=["pile", "sums"],
)
def test_harness_passes_for_capture_rules_of_their_own_class(base, capture):
    name = f"own-{base.name}"
    rules = xeri.register(attrs.evolve(base, name=name, capture=capture), replace=True)
    assert check_rules(rules, games=2, rng=random.Random(12)).games == 2


def test_harness_catches_an_observation_that_leaks_a_hidden_card(monkeypatch):
    import xeri.testing.harness  # noqa: PLC0415

    honest = xeri.testing.harness.observe

    def leaky(state, seat):  # shows the top card of the stock as if it were V1's bottom card
        seen = honest(state, seat)
        return attrs.evolve(seen, bottom_card=state.stock[0] if state.stock else None)

    monkeypatch.setattr(xeri.testing.harness, "observe", leaky)
    with pytest.raises(ConformanceError) as caught:
        check_rules(xeri.GREEK, games=1, rng=random.Random(0))
    assert caught.value.check == "non-interference"
    assert xeri.replay(caught.value.record)[-1] == caught.value.state


def test_P3_face_down_cards_are_refused_where_a_rule_would_reveal_them():
    # Cards taken by sums cannot lie face down: the mover's legal moves would
    # name them; and a redeal condition would read them.
    with pytest.raises(RuleSetError, match="face_down needs a pile"):
        attrs.evolve(xeri.GERMAN, name="german-face-down", face_down=3)
    with pytest.raises(RuleSetError, match=r"face_down needs redeal=Redeal.NEVER"):
        attrs.evolve(xeri.GREEK, name="greek-face-down", face_down=3)


def test_conformance_error_survives_pickling():
    import pickle  # noqa: PLC0415

    rules = xeri.register(
        attrs.evolve(xeri.GREEK, name="broken-pickled", match=NeverOver()), replace=True
    )
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, games=1, rng=random.Random(1))
    again = pickle.loads(pickle.dumps(caught.value))
    assert str(again) == str(caught.value)
    assert again.record == caught.value.record


# --------------------------------------------------------------------------
# Rule sets that cannot work are refused


@st.composite
def broken_fields(draw):
    """A valid rule set and one field changed so that it cannot work: (field, build)."""
    base = draw(rule_sets())
    field = draw(
        st.sampled_from(
            [
                "name",
                "seats",
                "sides",
                "hand_size",
                "table_size",
                "face_down",
                "majority_points",
                "xeri_points",
                "jack_xeri_points",
                "redeal",
                "show_bottom_card",
                "xeri_on_first_card",
                "capture",
                "card_points",
                "scorer",
                "match",
            ]
        )
    )
    values = {
        "name": st.sampled_from(["", "Pisti", "my rules", "x" * 65]),
        "seats": st.sampled_from([0, 1, 9, -2, 2.0]),
        "sides": st.sampled_from([(0,), (0,) * base.seats, (-1,) * base.seats]),
        "hand_size": st.sampled_from([0, -1, 53]),
        "table_size": st.sampled_from([-1, 53]),
        "face_down": st.sampled_from([-1, max(0, base.table_size)]),
        "majority_points": st.integers(max_value=-1),
        "xeri_points": st.integers(max_value=-1),
        "jack_xeri_points": st.integers(max_value=-1),
        "redeal": st.sampled_from(["never", None, 1]),
        "show_bottom_card": st.sampled_from([1, "yes", None]),
        "xeri_on_first_card": st.sampled_from([0, "no"]),
        "capture": st.sampled_from([object(), xeri.StandardScorer()]),
        "card_points": st.sampled_from([{}, None, xeri.GREEK]),
        "scorer": st.sampled_from([object(), xeri.PileCapture()]),
        "match": st.sampled_from([151, None, "target"]),
    }
    value = draw(values[field])
    if field == "face_down" and base.table_size == 0:
        value = -1
    return field, lambda: attrs.evolve(base, **{field: value})


@settings(max_examples=40, deadline=None)
@given(broken_fields())
def test_rule_set_that_cannot_work_is_refused_naming_the_field(case):
    field, build = case
    with pytest.raises(RuleSetError, match=field):
        build()


@pytest.mark.parametrize(
    ("build", "field"),
    [
        (lambda: attrs.evolve(xeri.GREEK, name="fives", hand_size=5), "hand_size"),
        (lambda: attrs.evolve(xeri.GREEK, name="big", hand_size=26, table_size=4), "hand_size"),
        (lambda: attrs.evolve(xeri.GREEK, name="bare", table_size=0, hand_size=2), "redeal"),
        (lambda: attrs.evolve(xeri.GREEK, name="down", face_down=4), "face_down"),
        (lambda: attrs.evolve(xeri.GREEK_FOUR, name="odd", sides=(0, 1, 0)), "sides"),
        (lambda: attrs.evolve(xeri.GREEK_FOUR, name="gap", sides=(0, 2, 0, 2)), "sides"),
        (lambda: xeri.TargetScore(target=0), "TargetScore.target"),
        (lambda: xeri.TargetScore(target=-151), "TargetScore.target"),
        (lambda: xeri.FixedRounds(rounds=0), "FixedRounds.rounds"),
        (
            lambda: attrs.evolve(
                xeri.GREEK, name="nil", card_points=xeri.PointsTable(), majority_points=0
            ),
            "match",
        ),
    ],
)
def test_known_impossible_rule_sets_are_refused_naming_the_field(build, field):
    with pytest.raises(RuleSetError, match=field):
        build()


# --------------------------------------------------------------------------
# The strategies


@settings(max_examples=30, deadline=None)
@given(decks())
def test_decks_are_the_52_cards_in_some_order(deck):
    assert isinstance(deck, tuple)
    assert sorted(deck) == list(xeri.DECK)


@settings(max_examples=30, deadline=None)
@given(reachable_states(rule_sets(max_seats=5), max_moves=80))
def test_reachable_states_are_states_the_engine_reached(state):
    cards = [c for hand in state.hands for c in hand]
    cards += state.rules.capture.table_cards(state.table) + state.stock
    cards += [c for take in state.takes for c in take.cards]
    assert sorted(cards) == ([] if state.phase is xeri.Phase.DEAL else list(state.rules.deck))
    assert bool(xeri.legal_moves(state)) == (state.to_move is not None)


@settings(max_examples=30, deadline=None)
@given(reachable_states(xeri.GREEK))
def test_reachable_states_of_a_preset_keep_its_rules(state):
    assert state.rules is xeri.GREEK


def test_strategy_arguments_are_checked():
    with pytest.raises(ValueError, match="max_seats"):
        rule_sets(max_seats=1)
    with pytest.raises(ValueError, match="max_moves"):
        reachable_states(xeri.GREEK, max_moves=-1)


# --------------------------------------------------------------------------
# Turkish Pişti (clauses P1–P5), on the guide's rule set. Seat 0 deals, so seat 1
# leads every deal; the initial pile is 2♦ 3♦ K♦ face down under the 4♣.

TABLE = "2♦ 3♦ K♦ 4♣"
JACKS = ("J♦", "J♣", "J♥", "J♠")  # J♦ sweeps the initial pile; J♥ takes the lone J♣


def pisti_game(*plays):
    """The round scripted by `plays` (see `support.script_deck`), dealt and not yet played."""
    rules = docs_pisti()
    deck = script_deck(TABLE.split(), plays, rules=rules, dealer=0)
    return xeri.new_game(rules, deck=deck, dealer=0), collect(deck, rules, 0)


def test_P1_jack_on_a_lone_card_is_an_ordinary_capture():
    state, _ = pisti_game("4♥", "5♠", "J♥", "J♣", "J♦", "J♠", REST)
    state = play(state, "4♥", "5♠", "J♥")
    assert state.takes[0].xeri is None  # 4♥ took the initial pile of four
    assert state.takes[-1] == xeri.Take(seat=1, cards=(Card.parse("5♠"), Card.parse("J♥")), turn=2)


def test_P2_hands_of_four_six_deals_a_round():
    rules = docs_pisti()
    state, plays = pisti_game(*JACKS, REST)
    assert [len(hand) for hand in state.hands] == [4, 4]
    assert len(state.stock) == 40
    deals = 1
    for card in plays:
        before = len(state.stock)
        state = xeri.apply(state, card)
        deals += len(state.stock) < before
    assert deals == rules.deals_per_round == 6
    assert state.is_round_over


def test_P3_face_down_cards_hidden_until_captured_then_seen_by_the_capturer_only():
    state, _ = pisti_game(*JACKS, REST)
    for seat in (0, 1):
        seen = xeri.observe(state, seat)
        assert seen.face_down == 3
        assert seen.table == (Card.parse("4♣"),)
    state = play(state, "J♦")
    assert state.to_move == 0
    capturer, other = xeri.observe(state, 1), xeri.observe(state, 0)
    assert capturer.takes[0].cards == tuple(map(Card.parse, [*TABLE.split(), "J♦"]))
    assert capturer.takes[0].hidden == 0
    assert other.takes[0].cards == (Card.parse("4♣"), Card.parse("J♦"))
    assert other.takes[0].hidden == 3
    assert other.captured_counts == capturer.captured_counts == (0, 5)


def test_P4_pisti_10_jack_pisti_20_none_with_the_last_card():
    # J♦ sweeps the initial pile; J♥ starts a new pile; J♠ takes the lone J♥:
    # a jack pişti. At the end J♣ sweeps, 5♠ is left alone, and the dealer's
    # 5♦, the round's last card, takes it without a pişti.
    state, plays = pisti_game("J♦", "J♥", "J♠", REST, "J♣", "5♠", "5♦")
    state = play(state, *plays)
    assert state.is_round_over
    kinds = [(take.turn, take.xeri) for take in state.takes if take.xeri is not None]
    assert kinds == [(2, XeriKind.JACK_XERI)]
    last = state.takes[-1]
    assert (last.turn, last.cards, last.xeri) == (47, tuple(map(Card.parse, ["5♠", "5♦"])), None)
    result = state.round_results[-1]
    assert result.xeri_bonus == (0, 20)
    # A lone card taken by its rank mid-round is a pişti worth 10.
    state, _ = pisti_game("4♥", "5♠", "5♥", "J♣", "J♦", "J♥", "J♠", REST)
    state = play(state, "4♥", "5♠", "5♥")
    assert state.takes[-1].xeri is XeriKind.XERI
    assert docs_pisti().xeri_points == 10


def test_P4_no_pisti_with_the_first_card():
    # With a four-card initial pile the first card never meets a lone card; on a
    # one-card table (three seats, hands of one) the option decides.
    rules = attrs.evolve(
        docs_pisti(),
        name="pisti-lone",
        seats=3,
        sides=(0, 1, 2),
        hand_size=1,
        table_size=1,
        face_down=0,
    )
    deck = (Card.parse("7♥"), Card.parse("8♥"), Card.parse("9♥"), Card.parse("7♣"))
    deck += tuple(c for c in xeri.DECK if c not in deck)
    state = xeri.apply(xeri.new_game(rules, deck=deck, dealer=2), Card.parse("7♥"))
    assert state.takes[-1].cards == (Card.parse("7♣"), Card.parse("7♥"))
    assert state.takes[-1].xeri is None
    allowed = attrs.evolve(rules, name="pisti-lone-first", xeri_on_first_card=True)
    state = xeri.apply(xeri.new_game(allowed, deck=deck, dealer=2), Card.parse("7♥"))
    assert state.takes[-1].xeri is XeriKind.XERI


def test_P5_scoring_jacks_aces_two_of_clubs_ten_of_diamonds_and_three_for_most_cards():
    rules = docs_pisti()
    assert rules.card_points.total == 4 + 4 + 2 + 3
    assert rules.card_points.points(Card.parse("10♦")) == 3
    assert rules.card_points.points(Card.parse("2♣")) == 2
    assert rules.card_points.points(Card.parse("J♠")) == 1
    assert rules.card_points.points(Card.parse("K♠")) == 0
    state, plays = pisti_game("J♦", "J♥", "J♠", REST, "J♣", "5♠", "5♦")
    state = play(state, *plays)
    result = state.round_results[-1]
    # Seat 1 took the initial pile with J♦ and J♥ with J♠: 7 cards, three Jacks.
    # Seat 0 took the other 45, with J♣, the Aces, 2♣ and 10♦.
    assert result.cards == (45, 7)
    assert result.card_points == (1 + 4 + 2 + 3, 3)
    assert result.majority == (3, 0)
    assert result.total == (13, 23)
    assert rules.match == xeri.TargetScore(target=151)

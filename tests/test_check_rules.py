"""`check_rules` on long runs and on the rule set's deck.

* a progress callback and a time budget, and the report saying how many
  matches were checked;
* the costly checks made at a sample of the states: the matches played do
  not depend on the sample, and a failure found there repeats with the seed;
* the harness and the strategies follow `RuleSet.deck`, smaller decks included.

Every test plays few and short matches.
"""

from __future__ import annotations

import math
import random

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
import xeri._rules.ruleset as rules_module
from xeri import ITALIAN_DECK, PIQUET_DECK, ArgumentError
from xeri.testing import (
    CheckReport,
    ConformanceError,
    check_rules,
    decks,
    harness,
    round_bound,
    rule_sets,
)


@pytest.fixture(autouse=True)
def own_registry(monkeypatch):
    """Rule sets registered by a test go with it."""
    monkeypatch.setattr(rules_module, "_REGISTRY", dict(rules_module._REGISTRY))


def short(base: xeri.RuleSet, name: str, **changes: object) -> xeri.RuleSet:
    """`base` with `changes`, two rounds a match, registered (JSON reads it back by name)."""
    rules = attrs.evolve(base, name=name, match=xeri.FixedRounds(rounds=2), **changes)
    return xeri.register(rules, replace=True)


# --------------------------------------------------------------------------
# Progress and a time budget


def test_progress_is_called_after_each_match_with_done_and_total():
    calls = []
    report = check_rules(
        xeri.GREEK_FOUR,
        games=3,
        rng=random.Random(2),
        progress=lambda done, total: calls.append((done, total)),
    )
    assert calls == [(1, 3), (2, 3), (3, 3)]
    assert report.games == report.requested == 3
    assert report.complete


def test_a_spent_budget_starts_no_more_matches_and_the_report_counts_those_checked():
    calls = []
    report = check_rules(
        xeri.GREEK_FOUR,
        games=3,
        rng=random.Random(2),
        progress=lambda done, total: calls.append((done, total)),
        max_seconds=1e-9,  # spent before the first match ends: that one is still played
    )
    assert calls == [(1, 3)]
    assert (report.games, report.requested, report.complete) == (1, 3, False)
    alone = check_rules(xeri.GREEK_FOUR, games=1, rng=random.Random(2))
    assert (report.rounds, report.moves) == (alone.rounds, alone.moves)


def test_a_budget_not_spent_plays_every_match():
    report = check_rules(xeri.GREEK_FOUR, games=2, rng=random.Random(2), max_seconds=3600)
    assert report == check_rules(xeri.GREEK_FOUR, games=2, rng=random.Random(2))
    assert report.complete


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"progress": 3}, "progress"),
        ({"progress": "print"}, "progress"),
        ({"max_seconds": 0}, "max_seconds"),
        ({"max_seconds": -1.5}, "max_seconds"),
        ({"max_seconds": math.nan}, "max_seconds"),
        ({"max_seconds": math.inf}, "max_seconds"),
        ({"max_seconds": True}, "max_seconds"),
        ({"max_seconds": "60"}, "max_seconds"),
    ],
)
def test_check_rules_refuses_a_bad_progress_or_budget_naming_it(options, named):
    with pytest.raises(ArgumentError, match=named):
        check_rules(xeri.GREEK, games=1, **options)


def test_a_report_made_without_requested_asked_for_the_games_it_played():
    report = CheckReport(games=2, rounds=8, moves=400)
    assert report.requested == 2
    assert report.complete
    assert not CheckReport(games=2, rounds=8, moves=400, requested=5).complete


# --------------------------------------------------------------------------
# The sample of states


def test_the_matches_played_do_not_depend_on_the_sample(monkeypatch):
    rules = short(xeri.GERMAN, "german-short")
    sampled = check_rules(rules, games=1, rng=random.Random(4))
    monkeypatch.setattr(harness, "_SAMPLE_ONE_IN", 1)  # every state gets every check
    assert check_rules(rules, games=1, rng=random.Random(4)) == sampled


def test_a_failure_found_at_a_sampled_state_repeats_with_the_seed(monkeypatch):
    honest = harness.observe

    def leaky(state, seat):  # shows the top card of the stock as if it were V1's bottom card
        seen = honest(state, seat)
        return attrs.evolve(seen, bottom_card=state.stock[0] if state.stock else None)

    monkeypatch.setattr(harness, "observe", leaky)
    errors = []
    for _ in range(2):
        with pytest.raises(ConformanceError) as caught:
            check_rules(xeri.GREEK, games=2, rng=random.Random(8))
        errors.append(caught.value)
    first, again = errors
    assert first.check == "non-interference"
    assert (str(first), first.move_number, first.record) == (
        str(again),
        again.move_number,
        again.record,
    )
    assert xeri.replay(first.record)[-1] == first.state


# --------------------------------------------------------------------------
# The deck


SMALL_DECKS = {
    "greek, 40 cards": (xeri.GREEK, {"deck": ITALIAN_DECK}),
    "greek, 32 cards": (xeri.GREEK, {"deck": PIQUET_DECK, "hand_size": 7}),
    "four seats, 32 cards": (xeri.GREEK_FOUR, {"deck": PIQUET_DECK, "hand_size": 1}),
    "german, 40 cards": (xeri.GERMAN, {"deck": ITALIAN_DECK}),
}


@pytest.mark.parametrize("case", sorted(SMALL_DECKS))
def test_harness_passes_for_a_smaller_deck(case):
    base, changes = SMALL_DECKS[case]
    rules = short(base, case.replace(" ", "-").replace(",", ""), **changes)
    report = check_rules(rules, games=2, rng=random.Random(6))
    assert report.games == 2
    assert report.rounds == 4
    plays = len(rules.deck) - rules.table_size
    assert report.moves >= 4 * (plays + 1)  # a deal and every card of the deck played, per round


@attrs.frozen(kw_only=True)
class LosingPile(xeri.PileCapture):
    """Loses the bottom card of every pile of three or more that it takes."""

    def play(self, table, hand, seat, move):
        hand, table, taken, kind = super().play(table, hand, seat, move)
        if taken is not None and len(taken) >= 3:
            taken = taken[1:]
        return hand, table, taken, kind


def test_conservation_counts_the_cards_of_the_rule_sets_deck():
    rules = short(xeri.GREEK, "greek-40-losing", deck=ITALIAN_DECK, capture=LosingPile())
    with pytest.raises(ConformanceError) as caught:
        check_rules(rules, games=3, rng=random.Random(0))
    error = caught.value
    assert error.check == "conservation"
    assert "39 cards in hands, table, stock and captures, not the 40 of the deck" in error.detail
    assert xeri.replay(error.record)[-1] == error.state


def test_round_bound_counts_the_points_of_the_rule_sets_deck():
    target = xeri.TargetScore(target=100)
    full = attrs.evolve(xeri.GREEK, name="greek-100", match=target)
    small = attrs.evolve(full, name="greek-100-32", deck=PIQUET_DECK, hand_size=7)
    assert small.card_points.count(PIQUET_DECK) < full.card_points.total
    for rules in (full, small):
        base = rules.card_points.count(rules.deck) + rules.majority_points
        assert round_bound(rules) == 20 + 10 * math.ceil(100 / base)


def test_rule_sets_draw_the_52_cards_and_smaller_decks_when_asked():
    sizes = set()

    @settings(max_examples=40, derandomize=True, database=None, deadline=None)
    @given(rule_sets(max_seats=8, decks=True))
    def draw(rules):
        plays = rules.deals_per_round * rules.seats * rules.hand_size
        assert plays + rules.table_size == len(rules.deck)
        sizes.add(len(rules.deck))

    draw()
    assert sizes == {52, 40, 32}


def test_rule_sets_draw_the_52_cards_by_default():
    @settings(max_examples=30, derandomize=True, database=None, deadline=None)
    @given(rule_sets(max_seats=8))
    def draw(rules):
        assert rules.deck is xeri.DECK

    draw()


def test_harness_passes_for_generated_rule_sets_with_smaller_decks():
    @settings(max_examples=12, derandomize=True, database=None, deadline=None)
    @given(rule_sets(decks=True), st.integers(0, 2**32 - 1))
    def check(rules, seed):
        report = check_rules(rules, games=1, rng=random.Random(seed))
        assert report.complete

    check()


@settings(max_examples=20, deadline=None)
@given(decks(attrs.evolve(xeri.GREEK, name="greek-40", deck=ITALIAN_DECK)), decks(PIQUET_DECK))
def test_decks_of_a_rule_set_or_of_cards_are_those_cards_in_some_order(italian, piquet):
    assert sorted(italian) == list(ITALIAN_DECK)
    assert sorted(piquet) == list(PIQUET_DECK)


@pytest.mark.parametrize("cards", ["A♣", 52, [xeri.DECK[0], "2♣"], [xeri.DECK[0]] * 2])
def test_decks_refuses_what_is_not_distinct_cards(cards):
    with pytest.raises(ValueError, match="decks"):
        decks(cards)

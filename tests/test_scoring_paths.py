"""The standard scorer's two paths give the same result.

`StandardScorer.score` takes a path of its own for two sides without
categories (every round of the two-player presets ends there, rollouts
included) and the general path otherwise (`xeri._rules.scoring`). These
tests score the same captures both ways, under rule sets that vary every
field the scoring reads, and compare the results field by field; the round's
end, which calls the scorer without the method, must give what the method
gives.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import xeri
from xeri import DECK, MajorityTie, PointsTable, Rank
from xeri._families.protocol import XeriKind
from xeri._rules.scoring import _scored, _scored_any

KINDS = (XeriKind.XERI, XeriKind.JACK_XERI)


@st.composite
def rounds(draw):
    """A two-side rule set with drawn scoring fields, and captures for it."""
    ranks = draw(st.dictionaries(st.sampled_from(list(Rank)), st.integers(0, 5), max_size=6))
    extra = draw(st.dictionaries(st.sampled_from(DECK), st.integers(0, 5), max_size=4))
    rules = attrs.evolve(
        xeri.GREEK,
        card_points=PointsTable(ranks=ranks, cards=extra),
        majority_points=draw(st.integers(0, 9)),
        majority_tie=draw(st.sampled_from(list(MajorityTie))),
        xeri_points=draw(st.integers(0, 30)),
        jack_xeri_points=draw(st.integers(0, 30)),
        match=xeri.FixedRounds(rounds=1),  # any points table, none scoring included
    )
    deck = list(draw(st.permutations(DECK)))
    cut = draw(st.integers(0, 52))
    left = draw(st.integers(0, 52 - cut))
    captured = (tuple(deck[:cut]), tuple(deck[cut : 52 - left]))
    xeris = tuple(tuple(draw(st.lists(st.sampled_from(KINDS), max_size=4))) for _ in range(2))
    return rules, captured, xeris, left


@given(rounds())
def test_the_two_side_path_scores_as_the_general_path(drawn):
    rules, captured, xeris, left = drawn
    fast = _scored(captured, xeris, rules, left, None)
    general = _scored_any(captured, xeris, rules, left, None)
    assert fast == general
    for field in attrs.fields(type(general)):
        got, want = getattr(fast, field.name), getattr(general, field.name)
        assert type(got) is type(want), field.name
        if type(want) is tuple:
            assert all(type(a) is type(b) for a, b in zip(got, want, strict=True)), field.name
    assert rules.scorer.score(captured, xeris, rules, leftover=left) == general


@pytest.mark.parametrize("tie", list(MajorityTie))
def test_an_equal_split_of_the_cards_gives_the_tie_rule_s_majority(tie):
    rules = attrs.evolve(xeri.GREEK, majority_tie=tie, majority_points=5)
    halves = (DECK[:26], DECK[26:])
    fast = _scored(halves, ((), ()), rules, 0, None)
    assert fast == _scored_any(halves, ((), ()), rules, 0, None)
    assert fast.majority == ((2, 2) if tie is MajorityTie.SPLIT else (0, 0))


@pytest.mark.parametrize("rules", [xeri.GREEK, xeri.PISTI, xeri.GREEK_FOUR, xeri.CASSINO])
def test_rollouts_end_with_the_result_the_method_gives(rules):
    rng = random.Random(5)
    for _ in range(30):
        end = xeri.rollout(xeri.new_game(rules, rng=rng), rng)
        result = end.round_results[-1]
        again = rules.scorer.score(end.captured, end.xeris, rules, leftover=result.leftover)
        assert again == result

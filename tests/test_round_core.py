"""The round core, `xeri._core.round`: the only home of the round's clauses.

Each function is checked on its clause, and against the engine: the deal
order, the dealers and the seats the core gives are those of rounds played
through `apply`.
"""

from __future__ import annotations

import itertools
import random

import attrs
import pytest

import xeri
from xeri import DECK, GERMAN, GREEK, GREEK_FOUR, PISTI, XeriKind
from xeri._core import round as core

PER_DEAL = attrs.evolve(GREEK, name="greek-per-deal-test", dealer_per_deal=True)
FOUR_PER_DEAL = attrs.evolve(GREEK_FOUR, name="greek-four-per-deal-test", dealer_per_deal=True)
ALL = [GREEK, GREEK_FOUR, GERMAN, PISTI, PER_DEAL, FOUR_PER_DEAL]


def played_round(rules: xeri.RuleSet, seed: int) -> list[xeri.GameState]:
    """Every state of one random round, from the deal to its end."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    states = [state]
    while not state.is_round_over:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        states.append(state)
    return states


def test_X3_the_blocks_go_from_the_seat_after_the_dealer_in_seat_order():
    assert core.deal_seats(GREEK, 0) == (1, 0)
    assert core.deal_seats(GREEK, 1) == (0, 1)
    assert core.deal_seats(GREEK_FOUR, 2) == (3, 0, 1, 2)
    hands, rest = core.deal_hands(GREEK_FOUR, 2, DECK)
    assert hands[3] == DECK[0:6]
    assert hands[0] == DECK[6:12]
    assert hands[2] == DECK[18:24]
    assert rest == DECK[24:]


def test_X3_each_hand_is_sorted_in_deck_order():
    deck = tuple(reversed(DECK))
    hands, _ = core.deal_hands(GREEK, 0, deck)
    assert hands[1] == tuple(sorted(deck[:6], key=lambda c: c.index))


def test_X3_a_new_game_deals_as_the_core_says():
    rules = attrs.evolve(GREEK_FOUR, name="greek-four-no-redeal-test", redeal=xeri.Redeal.NEVER)
    state = xeri.new_game(rules, deck=DECK, dealer=1)
    hands, rest = core.deal_hands(rules, 1, DECK)
    assert state.hands == hands
    assert state.table == rest[:4]
    assert state.stock == rest[4:]
    assert state.to_move == core.leader(rules, 1) == 2


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR], ids=str)
def test_G8_the_same_dealer_deals_again_without_dealer_per_deal(rules):
    for dealer in range(rules.seats):
        assert core.next_deal_dealer(rules, dealer) == dealer


@pytest.mark.parametrize("rules", [PER_DEAL, FOUR_PER_DEAL], ids=str)
def test_G8_the_next_seat_deals_under_dealer_per_deal(rules):
    for dealer in range(rules.seats):
        assert core.next_deal_dealer(rules, dealer) == (dealer + 1) % rules.seats


@pytest.mark.parametrize("rules", ALL, ids=str)
def test_G2_a_new_round_is_dealt_by_the_seat_after_the_last_deals_dealer(rules):
    end = played_round(rules, 3)[-1]
    following = xeri.apply(end, xeri.chance_move(end, random.Random(3)))
    assert following.dealer == core.next_round_dealer(rules, end.dealer)


@pytest.mark.parametrize("rules", ALL, ids=str)
@pytest.mark.parametrize("seed", [1, 2])
def test_G8_the_later_deals_are_those_the_engine_deals(rules, seed):
    states = played_round(rules, seed)
    first = states[0]
    later = len(first.stock) // (rules.seats * rules.hand_size)
    deals = core.later_deals(rules, first.dealer, later)
    dealt = [(a, b) for a, b in itertools.pairwise(states) if len(b.stock) < len(a.stock)]
    assert len(dealt) == len(deals) == later
    for (before, after), (dealer, lead, blocks, places) in zip(dealt, deals, strict=True):
        assert (after.dealer, after.to_move) == (dealer, lead)
        assert (after.hands, after.stock) == core.deal_hands(rules, dealer, before.stock)
        assert blocks == core.deal_seats(rules, dealer)
        assert places == tuple((seat - lead) % rules.seats for seat in blocks)


@pytest.mark.parametrize("rules", ALL, ids=str)
def test_G5_play_seats_are_the_seats_that_played(rules):
    states = played_round(rules, 5)
    movers = [s.to_move for s in states[:-1]]
    end = states[-1]
    assert list(core.play_seats(rules, end.dealer, len(end.history))) == movers
    assert core.round_dealer(rules, end.dealer, len(end.history)) == states[0].dealer


def test_G7_a_xeri_counts_on_any_play_of_greek():
    for turn, left in ((0, 47), (10, 20), (47, 0)):
        assert core.counted_xeri(GREEK, XeriKind.XERI, turn, left) is XeriKind.XERI
        assert core.counted_xeri(GREEK, XeriKind.JACK_XERI, turn, left) is XeriKind.JACK_XERI
    assert core.counted_xeri(GREEK, None, 5, 5) is None


def test_V3_no_xeri_on_the_rounds_last_play():
    rules = attrs.evolve(GREEK, name="greek-v3-test", xeri_on_last_card=False)
    assert core.counted_xeri(rules, XeriKind.XERI, 47, 0) is None
    assert core.counted_xeri(rules, XeriKind.XERI, 46, 1) is XeriKind.XERI
    assert core.counted_xeri(rules, XeriKind.XERI, 0, 47) is XeriKind.XERI


def test_P4_no_pisti_on_the_first_or_the_last_play():
    assert not PISTI.xeri_on_first_card
    assert not PISTI.xeri_on_last_card
    assert core.counted_xeri(PISTI, XeriKind.XERI, 0, 47) is None
    assert core.counted_xeri(PISTI, XeriKind.JACK_XERI, 47, 0) is None
    assert core.counted_xeri(PISTI, XeriKind.JACK_XERI, 1, 46) is XeriKind.JACK_XERI


@pytest.mark.parametrize("rules", ALL, ids=str)
def test_G9_D7_the_last_capturer_takes_what_is_left_and_it_is_no_xeri(rules):
    collected = 0
    for seed in range(8):
        end = played_round(rules, seed)[-1]
        captures = [t for t in end.takes if t.turn is not None]
        if end.takes and end.takes[-1].turn is None:  # the collection of what was left
            collected += 1
            last = end.takes[-1]
            assert last.xeri is None
            assert last.seat == captures[-1].seat
            assert end.table == ()
            assert end.round_results[-1].leftover == 0
        elif captures:
            assert end.table == ()  # the last play took the table
    assert collected


def test_X1_cards_nobody_captured_are_left_over_for_nobody():
    state = xeri.new_game(GREEK, deck=DECK, dealer=0, rng=random.Random(1))
    end = core.end_round(state, ((), ()), state.table, (), (), dealer=state.dealer)
    result = end.round_results[-1]
    assert result.leftover == len(state.table)
    assert result.cards == (0, 0)
    assert end.table == state.table
    assert end.phase is xeri.Phase.ROUND_OVER


def test_the_end_of_the_round_is_the_engines_from_the_same_plays():
    states = played_round(GREEK, 7)
    last_play = states[-2]
    end = states[-1]
    made = core.end_round(
        last_play,
        end.hands,
        _table_before_collection(end),
        end.history,
        tuple(t for t in end.takes if t.turn is not None),
        dealer=end.dealer,
    )
    assert made == end


def _table_before_collection(end: xeri.GameState) -> tuple[xeri.Card, ...]:
    """The table after the last play, before the last capturer takes it (G9)."""
    last = end.takes[-1] if end.takes else None
    if last is not None and last.turn is None:
        return last.cards
    return end.table  # type: ignore[return-value]  # a pile holds cards only


def test_V1_the_bottom_card_goes_to_the_last_deals_dealer():
    assert core.bottom_card_holder(GREEK, 0) == 0
    assert core.bottom_card_holder(GREEK_FOUR, 3) == 3
    rules = attrs.evolve(GREEK, name="greek-v1-test", show_bottom_card=True)
    deck = list(DECK)
    shown = core.cut_deck(rules, deck)
    assert shown is deck[-1]
    assert shown.rank is not xeri.Rank.JACK
    assert sorted(deck, key=lambda c: c.index) == list(DECK)
    assert core.cut_deck(GREEK, list(DECK)) is None


def test_deal_start_is_the_first_play_of_the_deal_under_way():
    assert core.deal_start(GREEK, 0) == 0
    assert core.deal_start(GREEK, 11) == 0
    assert core.deal_start(GREEK, 12) == 12
    assert core.deal_start(GREEK_FOUR, 30) == 24

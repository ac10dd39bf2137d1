"""Golden scenarios for four players in partnerships (clauses F1–F8).

Decks are explicit (see `support.script_deck`): the scripts name the initial
pile and the cards in the order they are played, seat after the dealer first.
"""

# Test names carry the clause id of the rules pages (test_F4_...).

from __future__ import annotations

import random

import pytest

import xeri
from support import (
    EVEN,
    JACK_XERI,
    LAST_XERI,
    LAST_XERI_TABLE,
    TABLE,
    TEN_XERI,
    TIE,
    TIE_TABLE,
    cards,
    collect,
    deal,
    finish_round,
    play,
    play_script,
    result,
    rr,
    script_deck,
    scripted,
    sweep_deck,
)
from xeri import GREEK, GREEK_FOUR, Card, Deal, Phase, Reshuffle, Take, XeriKind

FOUR = GREEK_FOUR
C = Card.parse


def totals(*per_side):
    n = len(per_side)
    return rr((0,) * n, per_side, (0,) * n, (0,) * n, (0,) * n, per_side)


# --- F1 ----------------------------------------------------------------------


def test_F1_partners_sit_opposite():
    assert FOUR.seats == 4
    assert FOUR.sides == (0, 1, 0, 1)
    assert FOUR.num_sides == 2
    assert FOUR.seats_of(0) == (0, 2)
    assert FOUR.seats_of(1) == (1, 3)


def test_F1_captures_and_xeris_count_for_the_partnership():
    _, state = scripted(TEN_XERI, rules=FOUR)
    # Seat 1 takes the initial pile, seat 2 leaves 10♦ alone, seat 3 takes it.
    state = play(state, "5♦", "10♦", "10♠")
    assert state.takes == (
        Take(seat=1, cards=cards("3♣ 4♦ 6♥ 5♠ 5♦"), xeri=None, turn=0),
        Take(seat=3, cards=cards("10♦ 10♠"), xeri=XeriKind.XERI, turn=2),
    )
    assert state.captured == ((), cards("3♣ 4♦ 6♥ 5♠ 5♦ 10♦ 10♠"))
    assert state.xeris == ((), (XeriKind.XERI,))
    assert state.side_to_move == 0
    assert result(TEN_XERI, rules=FOUR) == rr((45, 7), (19, 3), (3, 0), (0, 1), (0, 10), (22, 13))


# --- F2 ----------------------------------------------------------------------


def test_F2_first_dealer_is_drawn_with_the_generator():
    dealers = {xeri.new_game(FOUR, rng=random.Random(seed)).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


@pytest.mark.parametrize("first", [0, 3])
def test_F2_deal_passes_clockwise_each_round(first):
    state = xeri.start(FOUR, dealer=first)
    dealers = []
    for number in range(4):
        dealer = (first + number) % 4
        deck = sweep_deck(FOUR, dealer, dealer)
        state = xeri.apply(state, Deal(deck=deck))
        order = collect(deck, FOUR, dealer)
        for card in order:
            assert state.dealer == dealer
            state = play(state, card)
        dealers.append(state.dealer)
    assert dealers == [(first + i) % 4 for i in range(4)]
    assert state.is_over


# --- F3 ----------------------------------------------------------------------


def test_F3_six_to_each_seat_four_to_the_pile_twenty_four_in_stock():
    deck = deal(FOUR, dealer=2, table=cards("2♣ 3♦ 4♥ 5♠"))
    state = xeri.new_game(FOUR, deck=deck, dealer=2)
    assert state.phase is Phase.PLAY
    assert [state.hands[s] for s in (3, 0, 1, 2)] == [
        tuple(sorted(deck[i : i + 6])) for i in (0, 6, 12, 18)
    ]
    assert state.table == cards("2♣ 3♦ 4♥ 5♠")
    assert state.stock == deck[28:]
    assert len(state.stock) == 24
    assert FOUR.deals_per_round == 2


def test_F3_one_further_deal_uses_up_the_stock():
    deck, state = scripted(TEN_XERI, rules=FOUR, dealer=2)
    order = collect(deck, FOUR, 2)
    before = play(state, *order[:23])
    state = play(before, order[23])
    assert [state.hands[s] for s in (3, 0, 1, 2)] == [
        tuple(sorted(before.stock[i : i + 6])) for i in (0, 6, 12, 18)
    ]
    assert state.stock == ()
    assert state.table == before.table + (order[23],)
    state = finish_round(state, order)
    assert len(state.history) == 48


# --- F4 ----------------------------------------------------------------------


def first_deal(rules, table):
    return xeri.apply(xeri.start(rules, dealer=0), Deal(deck=deal(rules, table=cards(table))))


@pytest.mark.parametrize(
    ("table", "greek", "four"),
    [
        ("5♣ 8♦ 5♥ 7♠", Phase.PLAY, Phase.REDEAL),  # a pair, neither on top
        ("5♣ 5♥ 8♦ 7♠", Phase.PLAY, Phase.REDEAL),  # a pair at the bottom
        ("5♣ 8♦ 7♠ 5♥", Phase.PLAY, Phase.REDEAL),  # a pair with one card on top
        ("2♣ 3♦ 9♥ 9♠", Phase.REDEAL, Phase.REDEAL),  # the top two
        ("2♣ 3♦ 4♥ J♠", Phase.REDEAL, Phase.REDEAL),  # a Jack on top
        ("J♠ 3♦ 4♥ 2♣", Phase.PLAY, Phase.PLAY),  # a Jack below, all ranks differ
    ],
)
def test_F4_any_pair_or_a_top_jack_redeals(table, greek, four):
    assert first_deal(GREEK, table).phase is greek
    assert first_deal(FOUR, table).phase is four


def test_F4_redeal_repeats_until_the_pile_has_no_pair_and_no_top_jack():
    state = first_deal(FOUR, "5♣ 8♦ 5♥ 7♠")
    pool = state.table + state.stock
    hands = state.hands

    def stock(first):
        head = cards(first)
        return head + tuple(c for c in pool if c not in head)

    state = xeri.apply(state, Reshuffle(stock=stock("9♣ 8♦ 7♠ 9♥")))
    assert state.phase is Phase.REDEAL
    state = xeri.apply(state, Reshuffle(stock=stock("9♣ 8♦ 7♠ J♥")))
    assert state.phase is Phase.REDEAL
    state = xeri.apply(state, Reshuffle(stock=stock("9♣ J♥ 7♠ 8♦")))
    assert state.phase is Phase.PLAY
    assert state.table == cards("9♣ J♥ 7♠ 8♦")
    assert len(state.stock) == 24
    assert state.hands == hands
    assert state.to_move == 1


def test_F4_new_game_redeals_to_a_pile_of_four_ranks():
    for seed in range(10):
        deck = deal(FOUR, table=cards("5♣ 8♦ 5♥ 7♠"))
        state = xeri.new_game(FOUR, deck=deck, dealer=0, rng=random.Random(seed))
        assert state.phase is Phase.PLAY
        assert len({c.rank for c in state.table}) == 4
        assert state.table[-1].rank is not xeri.Rank.JACK


# --- F5 ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_F5_seat_after_the_dealer_leads_and_play_goes_clockwise(dealer):
    deck, state = scripted(TEN_XERI, rules=FOUR, dealer=dealer)
    order = collect(deck, FOUR, dealer)
    movers = []
    for card in order:
        movers.append(state.to_move)
        state = play(state, card)
    clockwise = [(dealer + 1 + i) % 4 for i in range(4)]
    assert movers == clockwise * 12
    assert state.phase is Phase.ROUND_OVER


# --- F6 ----------------------------------------------------------------------


def test_F6_jack_xeri_for_the_partnership():
    _, state = scripted(JACK_XERI, rules=FOUR)
    state = play(state, "5♦", "J♥", "J♣")
    assert state.takes[-1] == Take(seat=3, cards=cards("J♥ J♣"), xeri=XeriKind.JACK_XERI, turn=2)
    assert result(JACK_XERI, rules=FOUR) == rr((45, 7), (20, 2), (3, 0), (0, 1), (0, 20), (23, 22))


def test_F6_xeri_with_the_dealers_last_card():
    deck, state = scripted(LAST_XERI, LAST_XERI_TABLE, rules=FOUR)
    state = finish_round(state, collect(deck, FOUR))
    assert state.takes[-1] == Take(seat=0, cards=cards("9♦ 9♣"), xeri=XeriKind.XERI, turn=47)
    assert state.round_results[-1] == rr((52, 0), (22, 0), (3, 0), (1, 0), (10, 0), (35, 0))


def test_F6_last_capturer_takes_the_leftover_for_its_partnership():
    state = play_script(FOUR, sweep_deck(FOUR, 0, 3), 0)
    assert state.takes[-1] == Take(seat=3, cards=(C("K♠"),), xeri=None, turn=None)
    assert state.history[-1] == C("K♠")
    assert state.round_results[-1] == rr((0, 52), (0, 22), (0, 3), (0, 0), (0, 0), (0, 25))


def test_F6_jack_on_an_empty_pile_and_rank_captures():
    deck = deal(
        FOUR,
        hands={1: cards("7♦"), 2: cards("J♣"), 3: cards("9♠"), 0: cards("9♦")},
        table=cards("2♣ 9♥ 3♦ 7♠"),
    )
    state = xeri.new_game(FOUR, deck=deck, dealer=0)
    state = play(state, "7♦", "J♣", "9♠")
    assert state.table == cards("J♣ 9♠")
    state = play(state, "9♦")
    assert state.takes[-1] == Take(seat=0, cards=cards("J♣ 9♠ 9♦"), xeri=None, turn=3)


# --- F7 ----------------------------------------------------------------------


def test_F7_partnership_scores_25_with_three_for_more_cards():
    res = result(TEN_XERI, rules=FOUR)
    assert res.base == (22, 3)
    assert res.majority == (3, 0)
    assert sum(res.base) == 25


def test_F7_a_26_26_tie_totals_22():
    res = result(TIE, TIE_TABLE, rules=FOUR)
    assert res == rr((26, 26), (3, 19), (0, 0), (0, 0), (0, 0), (3, 19))
    assert sum(res.base) == 22


# --- F8 ----------------------------------------------------------------------


def play_rounds(rules, rounds):
    """Play scripted rounds from dealer 0; `rounds` lists (script, table) or a sweeper seat."""
    state = xeri.start(rules, dealer=0)
    for number, spec in enumerate(rounds):
        dealer = number % rules.seats
        if isinstance(spec, int):
            deck = sweep_deck(rules, dealer, spec)
        else:
            plays, table = spec
            deck = script_deck(cards(table), plays, rules=rules, dealer=dealer)
        state = xeri.apply(state, Deal(deck=deck))
        state = finish_round(state, collect(deck, rules, dealer))
    return state


def test_F8_more_rounds_won_beats_more_points():
    state = play_rounds(
        FOUR,
        [(TEN_XERI, TABLE), 1, (TEN_XERI, TABLE), (EVEN, TIE_TABLE)],
    )
    assert [r.total for r in state.round_results] == [(22, 13), (0, 25), (22, 13), (11, 11)]
    assert [r.winner for r in state.round_results] == [0, 1, 0, None]
    assert xeri.FixedRounds.round_wins(state.round_results, 2) == (2, 1)
    assert state.scores == (55, 62)
    assert state.phase is Phase.MATCH_OVER
    assert state.is_over
    assert state.winner == 0


def test_F8_equal_round_wins_draw_the_match():
    state = play_rounds(FOUR, [0, 1, 2, 3])
    assert [r.winner for r in state.round_results] == [0, 1, 0, 1]
    assert state.is_over
    assert state.phase is Phase.MATCH_OVER
    assert state.winner is None
    assert state.status.winner is None
    assert state.scores == (50, 50)


def test_F8_match_goes_on_until_the_fourth_round():
    state = xeri.start(FOUR, dealer=0)
    for number in range(4):
        deck = sweep_deck(FOUR, number, 0)
        state = xeri.apply(state, Deal(deck=deck))
        state = finish_round(state, collect(deck, FOUR, number))
        assert state.is_over is (number == 3)
        assert state.winner == (0 if number == 3 else None)
    with pytest.raises(xeri.IllegalMoveError, match="the match is over"):
        xeri.chance_move(state, random.Random(0))


@pytest.mark.parametrize(
    ("totals_", "winner"),
    [
        ([(10, 5), (5, 10), (7, 7), (3, 3)], None),
        ([(10, 5), (5, 10), (7, 7), (3, 2)], 0),
        ([(0, 1), (5, 10), (7, 7), (30, 2)], 1),
    ],
)
def test_F8_decision_counts_rounds_won_and_ignores_drawn_rounds(totals_, winner):
    results = tuple(totals(*t) for t in totals_)
    status = FOUR.match.status(results, 2)
    assert status.over
    assert status.winner == winner
    assert FOUR.match.status(results[:3], 2).over is False

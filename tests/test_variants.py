"""The optional variants V1–V5: the same decks with the option on and off.

Each test shows that what the clause names changes and nothing else does.
The two-player and the four-player presets are both run where the option
applies to them.
"""

# Test names carry the clause id of the rules pages (test_V1_...).

from __future__ import annotations

import random

import attrs
import pytest

import xeri
from support import (
    JACK_XERI,
    LAST_XERI,
    LAST_XERI_TABLE,
    REST,
    TABLE,
    TEN_XERI,
    cards,
    collect,
    deal,
    finish_round,
    play,
    play_script,
    result,
    rr,
    script_deck,
    sweep_deck,
)
from xeri import (
    GREEK,
    GREEK_FOUR,
    Deal,
    FixedRounds,
    IllegalMoveError,
    Phase,
    Redeal,
    Reshuffle,
    Take,
    TargetScore,
    XeriKind,
)

PRESETS = pytest.mark.parametrize("base", [GREEK, GREEK_FOUR], ids=["greek", "greek-four"])


def variant(base, suffix, **changes):
    return attrs.evolve(base, name=f"{base.name}-{suffix}", **changes)


def before_last(rules):
    """The seat that plays just before the dealer (dealer 0)."""
    return rules.seats - 1


def to_bottom(deck, names):
    """`deck` with the named cards moved, in this order, to the bottom."""
    moved = cards(names)
    return tuple(c for c in deck if c not in moved) + moved


# --- V1 ----------------------------------------------------------------------


@PRESETS
def test_V1_bottom_card_is_shown_and_dealt_last_to_the_dealer(base):
    on = variant(base, "v1", show_bottom_card=True)
    deck = sweep_deck(base, 0, before_last(base))
    assert deck[-1] == xeri.Card.parse("K♠")
    off_state = xeri.new_game(base, deck=deck, dealer=0)
    on_state = xeri.new_game(on, deck=deck, dealer=0)
    assert off_state.bottom_card is None
    assert on_state.bottom_card == xeri.Card.parse("K♠")
    assert on_state.stock[-1] == on_state.bottom_card
    # Nothing else differs: the same deal, the same round, the same score.
    assert attrs.evolve(on_state, rules=base, bottom_card=None) == off_state
    # The shown card stays the stock's last card until the final deal gives it to the dealer.
    king = xeri.Card.parse("K♠")
    order = collect(deck, base, 0)
    state = on_state
    while state.stock:
        assert state.stock[-1] == king
        assert state.bottom_card == king
        state = play(state, order[len(state.history)])
    assert king in state.hands[0]
    state = finish_round(state, order)
    assert state.bottom_card == king
    assert state.round_results == play_script(base, deck, 0).round_results


@PRESETS
@pytest.mark.parametrize(
    ("bottom", "shown"),
    [("9♠ J♣ J♦", "9♠"), ("9♥ J♣ J♦ J♥ J♠", "9♥"), ("9♠ 8♥ J♦", "8♥")],
)
def test_V1_jack_at_the_bottom_is_replaced_by_the_first_non_jack_above(base, bottom, shown):
    on = variant(base, "v1", show_bottom_card=True)
    deck = to_bottom(deal(base, table=cards("2♣ 3♦ 4♥ 5♠")), bottom)
    off_state = xeri.new_game(base, deck=deck, dealer=0)
    on_state = xeri.new_game(on, deck=deck, dealer=0)
    assert off_state.table == on_state.table == cards("2♣ 3♦ 4♥ 5♠")
    assert off_state.stock[-len(cards(bottom)) :] == cards(bottom)
    # The shown card goes to the bottom; the Jacks keep their order above it.
    moved = to_bottom(deck, shown)
    assert on_state.bottom_card == xeri.Card.parse(shown)
    assert on_state.stock == xeri.new_game(base, deck=moved, dealer=0).stock
    assert on_state.stock[-1] == xeri.Card.parse(shown)
    jacks = [c for c in on_state.stock if c.rank is xeri.Rank.JACK]
    assert jacks == [c for c in off_state.stock if c.rank is xeri.Rank.JACK]
    assert on_state.hands == off_state.hands
    assert attrs.evolve(on_state, rules=base, bottom_card=None) == xeri.new_game(
        base, deck=moved, dealer=0
    )


@PRESETS
def test_V1_redeal_keeps_the_bottom_card_at_the_bottom(base):
    on = variant(base, "v1", show_bottom_card=True)
    deck = deal(base, table=cards("2♣ 3♦ 4♥ J♠"))
    state = xeri.apply(xeri.start(on, dealer=0), Deal(deck=deck))
    assert state.phase is Phase.REDEAL
    bottom = state.bottom_card
    assert bottom == deck[-1]
    for seed in range(8):
        move = xeri.chance_move(state, random.Random(seed))
        assert move.stock[-1] == bottom
        after = xeri.apply(state, move)
        assert after.bottom_card == bottom
        assert after.stock[-1] == bottom
        game = xeri.new_game(on, deck=deck, dealer=0, rng=random.Random(seed))
        assert game.phase is Phase.PLAY
        assert game.stock[-1] == bottom
    # A reshuffle that moves the shown card is refused under V1 only.
    pool = state.table + state.stock
    moved = (bottom, *(c for c in pool if c != bottom))
    assert moved[:4] != state.table
    with pytest.raises(IllegalMoveError, match="bottom card"):
        xeri.apply(state, Reshuffle(stock=moved))
    off_state = xeri.apply(xeri.start(base, dealer=0), Deal(deck=deck))
    assert xeri.apply(off_state, Reshuffle(stock=moved)).stock == moved[base.table_size :]


# --- V2 ----------------------------------------------------------------------


@PRESETS
@pytest.mark.parametrize(
    "table",
    ["2♣ 3♦ 4♥ J♠", "2♣ 3♦ 9♥ 9♠", "J♣ 3♦ 4♥ J♠"],
)
def test_V2_no_redeal_for_a_top_jack_or_a_top_pair(base, table):
    on = variant(base, "v2", redeal=Redeal.NEVER)
    deck = deal(base, table=cards(table))
    off_state = xeri.apply(xeri.start(base, dealer=0), Deal(deck=deck))
    on_state = xeri.apply(xeri.start(on, dealer=0), Deal(deck=deck))
    assert off_state.phase is Phase.REDEAL
    assert on_state.phase is Phase.PLAY
    assert on_state.to_move == 1
    assert on_state.table == off_state.table == cards(table)
    assert on_state.stock == off_state.stock
    assert on_state.hands == off_state.hands


def test_V2_four_players_keep_a_pile_with_a_pair_below_the_top():
    on = variant(GREEK_FOUR, "v2", redeal=Redeal.NEVER)
    deck = deal(GREEK_FOUR, table=cards("5♣ 8♦ 5♥ 7♠"))
    assert xeri.new_game(on, deck=deck, dealer=0).table == cards("5♣ 8♦ 5♥ 7♠")
    assert xeri.apply(xeri.start(GREEK_FOUR, dealer=0), Deal(deck=deck)).phase is Phase.REDEAL


@PRESETS
def test_V2_changes_nothing_when_no_redeal_is_due(base):
    on = variant(base, "v2", redeal=Redeal.NEVER)
    deck = script_deck(cards(TABLE), TEN_XERI, rules=base)
    off_state = play_script(base, deck, 0)
    on_state = play_script(on, deck, 0)
    assert attrs.evolve(on_state, rules=base) == off_state


@PRESETS
def test_V2_jack_on_top_can_be_taken_by_a_jack_without_bonus(base):
    on = variant(base, "v2", redeal=Redeal.NEVER)
    deck = deal(on, hands={1: cards("J♦")}, table=cards("2♣ 3♦ 4♥ J♠"))
    state = play(xeri.new_game(on, deck=deck, dealer=0), "J♦")
    assert state.takes == (Take(seat=1, cards=cards("2♣ 3♦ 4♥ J♠ J♦"), xeri=None, turn=0),)


# --- V3 ----------------------------------------------------------------------


@PRESETS
def test_V3_dealers_last_card_makes_no_xeri(base):
    on = variant(base, "v3", xeri_on_last_card=False)
    deck = script_deck(cards(LAST_XERI_TABLE), LAST_XERI, rules=base)
    off_state = play_script(base, deck, 0)
    on_state = play_script(on, deck, 0)
    assert off_state.takes[-1] == Take(seat=0, cards=cards("9♦ 9♣"), xeri=XeriKind.XERI, turn=47)
    assert on_state.takes[-1] == Take(seat=0, cards=cards("9♦ 9♣"), xeri=None, turn=47)
    assert off_state.takes[:-1] == on_state.takes[:-1]
    assert off_state.round_results == (rr((52, 0), (22, 0), (3, 0), (1, 0), (10, 0), (35, 0)),)
    assert on_state.round_results == (rr((52, 0), (22, 0), (3, 0), (0, 0), (0, 0), (25, 0)),)


# The other side takes a lone 9♦ with 9♣ at play 46, one before the dealer's
# last card, then collects that last card (8♣) as leftover.
NEXT_TO_LAST_XERI = (REST, "J♣", "2♦ 3♥ 7♣", "J♦", "2♥ 3♠ 7♦", "J♥", "9♦", "9♣", "8♣")


@PRESETS
@pytest.mark.parametrize(
    ("plays", "table", "expected"),
    [
        (TEN_XERI, TABLE, rr((45, 7), (19, 3), (3, 0), (0, 1), (0, 10), (22, 13))),
        (
            NEXT_TO_LAST_XERI,
            LAST_XERI_TABLE,
            rr((0, 52), (0, 22), (0, 3), (0, 1), (0, 10), (0, 35)),
        ),
    ],
    ids=["first-deal", "next-to-last-card"],
)
def test_V3_other_xeris_still_count(base, plays, table, expected):
    on = variant(base, "v3", xeri_on_last_card=False)
    assert result(plays, table, rules=base) == expected
    assert result(plays, table, rules=on) == expected


# --- V4 ----------------------------------------------------------------------


@PRESETS
def test_V4_jack_xeri_is_worth_25(base):
    on = variant(base, "v4", jack_xeri_points=25)
    assert result(JACK_XERI, rules=base) == rr((45, 7), (20, 2), (3, 0), (0, 1), (0, 20), (23, 22))
    assert result(JACK_XERI, rules=on) == rr((45, 7), (20, 2), (3, 0), (0, 1), (0, 25), (23, 27))


@PRESETS
def test_V4_plain_xeri_stays_10(base):
    on = variant(base, "v4", jack_xeri_points=25)
    expected = rr((45, 7), (19, 3), (3, 0), (0, 1), (0, 10), (22, 13))
    assert result(TEN_XERI, rules=base) == expected
    assert result(TEN_XERI, rules=on) == expected


# --- V5 ----------------------------------------------------------------------

# Rounds 1–12 and 14–20 are sweeps by the dealer's side (25–0); round 13 is
# TEN_XERI (22 to the dealer's side, 13 to the other). After each round:
# (scores, target, over).
V5_ROUNDS = [
    ((25, 0), 151, False),
    ((25, 25), 151, False),
    ((50, 25), 151, False),
    ((50, 50), 151, False),
    ((75, 50), 151, False),
    ((75, 75), 151, False),
    ((100, 75), 151, False),
    ((100, 100), 151, False),
    ((125, 100), 151, False),
    ((125, 125), 151, False),
    ((150, 125), 151, False),
    ((150, 150), 151, False),
    ((172, 163), 251, False),
    ((172, 188), 251, False),
    ((197, 188), 251, False),
    ((197, 213), 251, False),
    ((222, 213), 251, False),
    ((222, 238), 251, False),
    ((247, 238), 251, False),
    ((247, 263), 251, True),
]


def v5_deck(rules, number):
    dealer = number % 4
    if number == 12:
        return script_deck(cards(TABLE), TEN_XERI, rules=rules, dealer=dealer)
    return sweep_deck(rules, dealer, dealer)


def test_V5_four_players_play_to_151_with_the_rising_target():
    on = variant(GREEK_FOUR, "v5", match=TargetScore(target=151, step=100))
    state = xeri.start(on, dealer=0)
    for number, (scores, target, over) in enumerate(V5_ROUNDS):
        deck = v5_deck(on, number)
        state = xeri.apply(state, Deal(deck=deck))
        assert state.dealer == number % 4
        state = finish_round(state, collect(deck, on, number % 4))
        assert state.scores == scores, number
        assert state.status.target == target, number
        assert state.is_over is over, number
    assert state.winner == 1


def test_V5_without_it_four_players_stop_after_four_rounds():
    state = xeri.start(GREEK_FOUR, dealer=0)
    for number in range(4):
        deck = v5_deck(GREEK_FOUR, number)
        state = xeri.apply(state, Deal(deck=deck))
        state = finish_round(state, collect(deck, GREEK_FOUR, number))
    assert state.scores == V5_ROUNDS[3][0]
    assert state.is_over
    assert state.winner is None
    assert state.status.target is None
    with pytest.raises(IllegalMoveError, match="the match is over"):
        xeri.apply(state, Deal(deck=v5_deck(GREEK_FOUR, 4)))


def test_V5_is_the_two_player_default():
    assert GREEK.match == TargetScore(target=151, step=100)
    assert GREEK_FOUR.match == FixedRounds(rounds=4)

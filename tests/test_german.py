"""Golden scenarios for German Xeri (RULES.md D1–D9) and its options.

Every round here is dealt from an explicit deck. `game` deals with seat 1 as
the dealer, so seat 0 gets the first block of six and moves first (X3); the
cards a test does not name follow in DECK order. Move lists are compared by
their `str()`, which names the card, what it takes or builds, and the value.
"""

# Test names carry the clause id as written in RULES.md (test_D3_...).

from __future__ import annotations

import copy
import random

import attrs
import pytest

import xeri
from xeri import (
    DECK,
    GERMAN,
    GERMAN_POINTS,
    Build,
    Capture,
    Card,
    Combine,
    GameState,
    IllegalMoveError,
    Phase,
    Rank,
    RoundResult,
    SumCapture,
    Take,
    Trail,
    XeriKind,
)

C = Card.parse

MULTI = attrs.evolve(GERMAN, name="german-multi", capture=SumCapture(multi_capture=True))
FORCED = attrs.evolve(GERMAN, name="german-forced", capture=SumCapture(forced_capture=True))
SELF_RAISE = attrs.evolve(GERMAN, name="german-self-raise", capture=SumCapture(self_raise=True))
NO_LAST_XERI = attrs.evolve(GERMAN, name="german-v3", xeri_on_last_card=False)


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(name) for name in text.split())


def deck_of(*blocks: str) -> tuple[Card, ...]:
    """The named cards first, in order, then every other card in DECK order."""
    head = tuple(c for block in blocks for c in cards(block))
    assert len(set(head)) == len(head), "a card is named twice"
    return head + tuple(c for c in DECK if c not in head)


def game(hand0: str, hand1: str, table: str, *, rules=GERMAN, stock: str = "") -> GameState:
    """A round dealt by seat 1: seat 0 holds `hand0` and moves first, seat 1 holds `hand1`."""
    return xeri.new_game(rules, deck=deck_of(hand0, hand1, table, stock), dealer=1)


def names(state: GameState) -> list[str]:
    return [str(m) for m in xeri.legal_moves(state)]


def play(state: GameState, *moves) -> GameState:
    for move in moves:
        state = xeri.apply(state, move)
    return state


def take(card: str, items) -> Capture:
    return Capture(card=C(card), taken=cards(items) if isinstance(items, str) else tuple(items))


def on(card: str, onto, value: int) -> Combine:
    return Combine(card=C(card), onto=C(onto) if isinstance(onto, str) else onto, value=value)


def free(card: str) -> Trail:
    return Trail(card=C(card))


def refused(state: GameState, move, match: str) -> None:
    """`move` is refused with a message matching `match`, and `state` is left as it was."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError, match=match):
        xeri.apply(state, move)
    assert state == snapshot


def trail_first(state: GameState) -> GameState:
    """Lay the first card of the mover's hand free."""
    return xeri.apply(state, Trail(card=state.hands[state.to_move][0]))


# --- D1: two players, 52 cards, values --------------------------------------


def test_D1_values_ace_one_numbers_as_printed_pictures_none():
    assert xeri.card_value(C("A♠")) == 1
    assert xeri.card_value(C("7♦")) == 7
    assert xeri.card_value(C("10♥")) == 10
    assert [xeri.card_value(c) for c in cards("J♣ Q♦ K♠")] == [None, None, None]
    for card in DECK:
        expected = None if card.rank.is_picture else int(card.rank)
        assert xeri.card_value(card) == expected


def test_D1_two_players_share_one_deck():
    state = game("", "", "")
    assert GERMAN.seats == 2
    assert GERMAN.num_sides == 2
    dealt = state.hands[0] + state.hands[1] + state.table + state.stock
    assert sorted(dealt) == list(DECK)
    assert (len(state.hands[0]), len(state.hands[1]), len(state.table), len(state.stock)) == (
        6,
        6,
        4,
        36,
    )


# --- D2: the deal, side by side, no redeal, refills ----------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_D2_deal_blocks_of_six_then_four_side_by_side(dealer):
    deck = tuple(reversed(DECK))
    state = xeri.new_game(GERMAN, deck=deck, dealer=dealer)
    first = 1 - dealer
    assert state.to_move == first
    assert state.hands[first] == tuple(sorted(deck[0:6]))
    assert state.hands[dealer] == tuple(sorted(deck[6:12]))
    assert state.table == deck[12:16]
    assert state.stock == deck[16:]
    assert all(type(item) is Card for item in state.table)


def test_D2_no_redeal_a_jack_on_top_and_pairs_stand():
    state = game("2♣ 3♣ 4♣ 5♣ 6♣ 7♣", "2♦ 3♦ 4♦ 5♦ 6♦ 7♦", "9♥ 9♠ J♦ J♣")
    assert state.phase is Phase.PLAY
    assert state.table == cards("9♥ 9♠ J♦ J♣")
    assert state.to_move == 0


def test_D2_every_table_card_can_be_taken_not_only_the_top():
    state = game("5♠ 9♣ 2♦ Q♥ K♦ 8♦", "A♣ A♦ A♥ A♠ 3♣ 3♦", "5♣ 9♦ 2♥ K♠")
    moves = names(state)
    assert "5♠ takes 5♣" in moves  # the first card laid, at the bottom of a pile
    assert "9♣ takes 9♦" in moves
    assert "2♦ takes 2♥" in moves
    assert "K♦ takes K♠" in moves  # the last card laid
    assert "9♣ takes 2♥+K♠" not in moves


def test_D2_both_hands_empty_six_more_each_table_stays():
    state = game("", "", "")
    initial = state.table
    stock = state.stock
    played = []
    for _ in range(12):
        assert state.to_move == len(played) % 2
        played.append(state.hands[state.to_move][0])
        state = trail_first(state)
    assert state.phase is Phase.PLAY
    assert state.to_move == 0
    assert state.hands == (tuple(sorted(stock[0:6])), tuple(sorted(stock[6:12])))
    assert state.stock == stock[12:]
    assert state.table == initial + tuple(played)


# --- D3: capture, combine, raise, trail ----------------------------------------


def test_D3_six_takes_six():
    state = game("6♠ J♥ J♠ Q♥ Q♠ K♥", "A♣ A♦ A♥ A♠ 2♣ 2♦", "6♣ 9♦ 10♥ K♣")
    assert "6♠ takes 6♣" in names(state)
    state = xeri.apply(state, take("6♠", "6♣"))
    assert state.table == cards("9♦ 10♥ K♣")
    assert state.takes == (Take(seat=0, cards=cards("6♣ 6♠"), xeri=None, turn=0),)
    assert state.hands[0] == cards("J♥ J♠ Q♥ Q♠ K♥")


def test_D3_seven_takes_three_and_four():
    state = game("7♥ J♥ J♠ Q♥ Q♠ K♥", "A♣ A♦ A♥ A♠ 2♣ 2♦", "3♦ 9♣ 4♠ K♣")
    assert [m for m in names(state) if m.startswith("7♥")] == ["7♥ takes 3♦+4♠", "7♥ free"]
    state = xeri.apply(state, take("7♥", "4♠ 3♦"))  # the order named does not matter
    assert state.table == cards("9♣ K♣")
    assert state.takes[-1].cards == cards("3♦ 4♠ 7♥")  # as they lay, the capturing card last
    assert state.takes[-1].xeri is None


def test_D3_every_group_summing_to_the_card_is_listed():
    state = game("5♦ 7♣ 9♠ J♦ Q♣ K♥", "A♦ A♥ A♠ 2♣ 2♥ 2♠", "A♣ 2♦ 3♥ 4♠")
    assert names(state) == [
        "5♦ takes A♣+4♠",
        "5♦ takes 2♦+3♥",
        "5♦ on 2♦ makes 7",
        "5♦ on 4♠ makes 9",
        "5♦ free",
        "7♣ takes A♣+2♦+4♠",
        "7♣ takes 3♥+4♠",
        "7♣ on 2♦ makes 9",
        "7♣ free",
        "9♠ takes 2♦+3♥+4♠",
        "9♠ free",
        "J♦ free",
        "Q♣ free",
        "K♥ free",
    ]


def test_D3_a_group_that_does_not_sum_is_refused():
    state = game("5♦ 7♣ 9♠ J♦ Q♣ K♥", "A♦ A♥ A♠ 2♣ 2♥ 2♠", "A♣ 2♦ 3♥ 4♠")
    refused(state, take("7♣", "2♦ 4♠"), "do not add up to 7")
    refused(state, take("5♦", "A♣ 2♦ 3♥ 4♠"), "do not add up to 5")
    refused(state, take("5♦", "5♣"), "not on the table")


def test_D3_pictures_take_only_their_own_rank_and_never_combine():
    state = game("2♥ 4♦ 5♣ 6♥ J♥ K♥", "A♣ A♦ A♥ A♠ 3♣ 3♦", "K♣ Q♦ 2♠ 4♣")
    assert names(state) == [
        "2♥ takes 2♠",
        "2♥ on 2♠ makes 4",
        "2♥ on 4♣ makes 6",
        "2♥ free",
        "4♦ takes 4♣",
        "4♦ on 2♠ makes 6",
        "4♦ free",
        "5♣ free",
        "6♥ takes 2♠+4♣",
        "6♥ free",
        "J♥ free",
        "K♥ takes K♣",
        "K♥ free",
    ]
    refused(state, take("K♥", "K♣ Q♦"), "picture takes only")
    refused(state, take("J♥", "Q♦"), "picture takes only")
    refused(state, on("2♥", "K♣", 2), "only number cards combine")
    refused(state, on("K♥", "2♠", 2), "only number cards combine")


def test_D3_five_on_three_announced_eight_by_a_player_holding_an_eight():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    assert "5♠ on 3♦ makes 8" in names(state)
    state = xeri.apply(state, on("5♠", "3♦", 8))
    build = Build(cards=cards("3♦ 5♠"), value=8, owner=0)
    assert state.table == (build, *cards("4♠ K♣ 6♣"))
    assert str(build) == "[3♦+5♠=8]"
    assert state.takes == ()
    assert state.hands[0] == cards("3♣ 7♥ 8♥ J♥ K♥")


def test_D3_five_on_three_refused_without_an_eight():
    state = game("3♣ 5♠ 7♥ 10♥ J♥ K♥", "A♦ 2♦ 4♦ 8♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    assert [m for m in names(state) if m.startswith("5♠")] == ["5♠ free"]
    refused(state, on("5♠", "3♦", 8), "holds no other card of value 8")


def test_D3_announced_value_must_be_the_sum_and_at_most_ten():
    state = game("3♣ 5♠ 7♥ 8♥ 9♥ 10♥", "A♦ 2♦ 4♦ 8♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    refused(state, on("5♠", "3♦", 9), "must be the sum, 8")
    refused(state, on("7♥", "4♠", 11), "may not exceed 10")
    refused(state, on("5♠", "6♣", 11), "may not exceed 10")
    assert not any(type(m) is Combine and m.value > 10 for m in xeri.legal_moves(state))


def test_D3_opponent_raises_eight_to_nine_with_an_ace_holding_a_nine():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    state = xeri.apply(state, on("5♠", "3♦", 8))
    eight = state.table[0]
    assert names(state) == [
        "A♦ on [3♦+5♠=8] makes 9",
        "A♦ free",
        "2♦ on [3♦+5♠=8] makes 10",
        "2♦ free",
        "4♦ takes 4♠",
        "4♦ on 6♣ makes 10",
        "4♦ free",
        "9♣ free",
        "10♠ takes 4♠+6♣",
        "10♠ free",
        "Q♠ free",
    ]
    state = xeri.apply(state, on("A♦", eight, 9))
    nine = Build(cards=cards("3♦ 5♠ A♦"), value=9, owner=1)
    assert state.table == (nine, *cards("4♠ K♣ 6♣"))
    # The builder lost the build: it may lay a free card again, and no 8 takes it now.
    moves = names(state)
    assert "8♥ free" in moves
    assert not any(m.startswith("8♥ takes") for m in moves)


def test_D3_raise_refused_without_a_card_of_the_new_value():
    # Seat 1 holds a 9 but no 10: A♦ may raise the 8 to 9, 2♦ may not raise it to 10.
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 3♠ Q♠", "3♦ 4♠ K♣ 6♣")
    state = xeri.apply(state, on("5♠", "3♦", 8))
    eight = state.table[0]
    assert [m for m in names(state) if " on [" in m] == ["A♦ on [3♦+5♠=8] makes 9"]
    refused(state, on("2♦", eight, 10), "holds no other card of value 10")
    refused(state, on("4♦", eight, 12), "may not exceed 10")


def test_D3_a_build_is_taken_only_whole_and_by_its_exact_value():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    state = play(state, on("5♠", "3♦", 8), free("Q♠"))
    eight = state.table[0]
    assert [m for m in names(state) if m.startswith("8♥")] == ["8♥ takes [3♦+5♠=8]"]
    refused(state, take("3♣", "3♦"), "not on the table")  # a card inside the build
    refused(state, take("7♥", (eight,)), "exactly its value")
    refused(state, Capture(card=C("K♥"), taken=(eight,)), "picture takes only")
    # Seat 1 may take the opponent's build too, with an 8 of its own.
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 8♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    state = xeri.apply(state, on("5♠", "3♦", 8))
    eight = state.table[0]
    assert "8♣ takes [3♦+5♠=8]" in names(state)
    state = xeri.apply(state, Capture(card=C("8♣"), taken=(eight,)))
    assert state.takes[-1] == Take(seat=1, cards=cards("3♦ 5♠ 8♣"), xeri=None, turn=1)
    assert state.table == cards("4♠ K♣ 6♣")


def test_D3_raising_ones_own_build_is_refused_by_default():
    state = game("3♣ 5♠ 8♥ 9♥ A♠ K♥", "2♦ 4♦ 6♦ J♣ J♦ Q♠", "3♦ 7♣ K♣ Q♣")
    state = play(state, on("5♠", "3♦", 8), free("J♣"))
    eight = state.table[0]
    # The owner may not lay a free card (D4), and A♠ on 7♣ would make a second 8 build.
    assert names(state) == ["8♥ takes [3♦+5♠=8]", "K♥ takes K♣"]
    refused(state, on("A♠", eight, 9), "raising one's own build is not allowed")


def test_D3_option_self_raise_lets_the_owner_raise_its_build():
    state = game("3♣ 5♠ 8♥ 9♥ A♠ K♥", "2♦ 4♦ 6♦ J♣ J♦ Q♠", "3♦ 7♣ K♣ Q♣", rules=SELF_RAISE)
    state = play(state, on("5♠", "3♦", 8), free("J♣"))
    eight = state.table[0]
    assert names(state) == ["A♠ on [3♦+5♠=8] makes 9", "8♥ takes [3♦+5♠=8]", "K♥ takes K♣"]
    state = xeri.apply(state, on("A♠", eight, 9))
    assert state.table[0] == Build(cards=cards("3♦ 5♠ A♠"), value=9, owner=0)
    assert sum(type(t) is Build for t in state.table) == 1


def test_D3_option_self_raise_still_needs_the_new_value():
    state = game("3♣ 5♠ 8♥ 10♥ A♠ K♥", "2♦ 4♦ 6♦ J♣ J♦ Q♠", "3♦ 7♣ K♣ Q♣", rules=SELF_RAISE)
    state = play(state, on("5♠", "3♦", 8), free("J♣"))
    eight = state.table[0]
    assert not any(m.startswith("A♠ on [") for m in names(state))
    refused(state, on("A♠", eight, 9), "holds no other card of value 9")


def test_D3_one_group_per_capture_by_default():
    state = game("4♥ J♥ J♠ Q♥ Q♠ K♥", "2♣ 2♦ 2♥ 2♠ 5♣ 5♦", "A♣ A♦ 3♣ 3♦")
    assert names(state) == [
        "4♥ takes A♣+3♣",
        "4♥ takes A♣+3♦",
        "4♥ takes A♦+3♣",
        "4♥ takes A♦+3♦",
        "4♥ free",
        "J♥ free",
        "J♠ free",
        "Q♥ free",
        "Q♠ free",
        "K♥ free",
    ]
    refused(state, take("4♥", "A♣ A♦ 3♣ 3♦"), "do not add up to 4")


def test_D3_option_multi_capture_lists_a_union_once_however_it_is_partitioned():
    state = game("4♥ J♥ J♠ Q♥ Q♠ K♥", "2♣ 2♦ 2♥ 2♠ 5♣ 5♦", "A♣ A♦ 3♣ 3♦", rules=MULTI)
    # {A♣+3♣, A♦+3♦} and {A♣+3♦, A♦+3♣} are the same four cards: one move.
    assert names(state) == [
        "4♥ takes A♣+A♦+3♣+3♦",
        "4♥ takes A♣+3♣",
        "4♥ takes A♣+3♦",
        "4♥ takes A♦+3♣",
        "4♥ takes A♦+3♦",
        "4♥ free",
        "J♥ free",
        "J♠ free",
        "Q♥ free",
        "Q♠ free",
        "K♥ free",
    ]
    state = xeri.apply(state, take("4♥", "3♦ A♣ 3♣ A♦"))
    assert state.table == ()
    assert state.takes[-1] == Take(
        seat=0, cards=cards("A♣ A♦ 3♣ 3♦ 4♥"), xeri=XeriKind.XERI, turn=0
    )


def test_D3_option_multi_capture_picture_still_takes_one_card():
    # Pictures have no value, so they form no groups of a value: one card each.
    state = game("4♥ 9♥ J♠ Q♥ Q♠ K♥", "2♣ 2♦ 2♥ 2♠ 5♣ 5♦", "K♣ A♦ K♦ 7♦", rules=MULTI)
    assert [m for m in names(state) if m.startswith("K♥")] == [
        "K♥ takes K♣",
        "K♥ takes K♦",
        "K♥ free",
    ]
    refused(state, take("K♥", "K♣ K♦"), "picture takes only")


def test_D3_option_multi_capture_takes_disjoint_groups_and_builds_at_once():
    state = game("3♣ 5♠ 8♥ 8♠ J♥ K♥", "2♦ 4♦ 6♦ J♣ J♦ Q♠", "3♦ 8♣ 6♥ 2♥", rules=MULTI)
    state = play(state, on("5♠", "3♦", 8), free("J♣"))
    eight = state.table[0]
    # The owner of the 8 holds two 8s: either may take any union of the three groups.
    # It may not lay a free card (D4), and 3♣ makes no build it could take.
    assert names(state) == [
        f"{eight_card} takes {taken}"
        for eight_card in ("8♥", "8♠")
        for taken in (
            "2♥+6♥",
            "2♥+6♥+8♣",
            "2♥+6♥+8♣+[3♦+5♠=8]",
            "2♥+6♥+[3♦+5♠=8]",
            "8♣",
            "8♣+[3♦+5♠=8]",
            "[3♦+5♠=8]",
        )
    ] + ["J♥ takes J♣"]
    default = game("3♣ 5♠ 8♥ 8♠ J♥ K♥", "2♦ 4♦ 6♦ J♣ J♦ Q♠", "3♦ 8♣ 6♥ 2♥")
    default = play(default, on("5♠", "3♦", 8), free("J♣"))
    assert names(default) == [
        f"{eight_card} takes {taken}"
        for eight_card in ("8♥", "8♠")
        for taken in ("2♥+6♥", "8♣", "[3♦+5♠=8]")
    ] + ["J♥ takes J♣"]
    refused(default, take("8♥", "8♣ 2♥ 6♥"), "do not add up to 8")
    state = xeri.apply(state, Capture(card=C("8♥"), taken=(eight, *cards("8♣ 2♥ 6♥"))))
    assert state.table == (C("J♣"),)
    assert state.takes[-1].cards == cards("3♦ 5♠ 8♣ 6♥ 2♥ 8♥")
    refused(
        game("7♣ J♥ J♠ Q♥ Q♠ K♥", "2♣ 2♦ 2♥ 2♠ 6♣ 6♦", "3♦ 4♦ 3♥ 5♠", rules=MULTI),
        take("7♣", "3♦ 4♦ 3♥ 5♠"),
        "do not add up to 7",
    )


# --- D4: a build owner may not lay a free card; it must keep a card per build --


def test_D4_builder_takes_other_cards_before_the_build_but_lays_no_free_card():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    state = xeri.apply(state, on("5♠", "3♦", 8))
    state = play(state, on("A♦", state.table[0], 9), free("7♥"))
    nine = Build(cards=cards("3♦ 5♠ A♦"), value=9, owner=1)
    assert state.table == (nine, *cards("4♠ K♣ 6♣ 7♥"))
    # 2♦ on 7♥ would make a second 9 with one 9 in hand; no free card at all.
    assert names(state) == [
        "4♦ takes 4♠",
        "4♦ on 6♣ makes 10",
        "9♣ takes [3♦+5♠+A♦=9]",
        "10♠ takes 4♠+6♣",
    ]
    refused(state, free("Q♠"), r"may not lay a free card .*\(D4\)")
    # The raiser takes other cards first ...
    state = play(state, take("10♠", "4♠ 6♣"), take("K♥", "K♣"))
    assert state.table == (nine, C("7♥"))
    # ... and is then left with the build to take: its only legal move.
    assert names(state) == ["9♣ takes [3♦+5♠+A♦=9]"]
    refused(state, free("2♦"), r"\(D4\)")
    state = xeri.apply(state, Capture(card=C("9♣"), taken=(nine,)))
    assert state.takes[-1] == Take(seat=1, cards=cards("3♦ 5♠ A♦ 9♣"), xeri=None, turn=5)
    # Once the build is taken, its former owner may lay free cards again.
    state = xeri.apply(state, free("3♣"))
    assert names(state) == ["2♦ free", "4♦ free", "Q♠ free"]


def test_D4_a_second_build_of_eight_needs_a_second_eight():
    state = game("5♠ 6♦ 8♥ J♥ Q♥ K♥", "A♦ 3♣ 4♦ 9♣ 10♠ Q♠", "3♦ 2♣ K♣ 9♦")
    state = play(state, on("5♠", "3♦", 8), free("Q♠"))
    assert names(state) == ["8♥ takes [3♦+5♠=8]", "Q♥ takes Q♠", "K♥ takes K♣"]
    refused(state, on("6♦", "2♣", 8), r"must keep a card of value 8 per build it owns \(D4\)")

    state = game("5♠ 6♦ 8♥ 8♠ Q♥ K♥", "A♦ 3♣ 4♦ 9♣ 10♠ Q♠", "3♦ 2♣ K♣ 9♦")
    state = play(state, on("5♠", "3♦", 8), free("Q♠"))
    assert "6♦ on 2♣ makes 8" in names(state)
    state = play(state, on("6♦", "2♣", 8), free("A♦"))
    first = Build(cards=cards("3♦ 5♠"), value=8, owner=0)
    second = Build(cards=cards("2♣ 6♦"), value=8, owner=0)
    assert state.table == (first, second, *cards("K♣ 9♦ Q♠ A♦"))
    assert names(state) == [
        "8♥ takes [2♣+6♦=8]",
        "8♥ takes [3♦+5♠=8]",
        "8♠ takes [2♣+6♦=8]",
        "8♠ takes [3♦+5♠=8]",
        "Q♥ takes Q♠",
        "K♥ takes K♣",
    ]


def test_D4_an_owner_may_not_spend_the_last_card_of_its_builds_value():
    state = game("2♥ 5♠ 8♥ J♥ Q♥ K♥", "A♦ 3♣ 4♦ 9♣ 10♠ Q♠", "3♦ 8♣ K♣ 9♦")
    assert "8♥ takes 8♣" in names(state)
    state = play(state, on("5♠", "3♦", 8), free("Q♠"))
    assert [m for m in names(state) if m.startswith("8♥")] == ["8♥ takes [3♦+5♠=8]"]
    refused(state, take("8♥", "8♣"), r"needs for one of its builds \(D4\)")


def test_D4_raising_the_opponents_build_is_bound_by_the_same_rule():
    # Seat 1 owns a 9 build and holds one 9: raising seat 0's 8 to 9 would leave it two
    # builds of 9 to take with one card, and 9♣ may not take the loose 9♦ either.
    state = game("3♣ 5♠ 8♥ J♥ Q♥ K♥", "5♦ A♦ 9♣ 2♠ Q♠ K♠", "3♦ 4♥ K♣ 9♦")
    state = play(state, on("5♠", "3♦", 8), on("5♦", "4♥", 9), take("K♥", "K♣"))
    eight = state.table[0]
    assert names(state) == ["9♣ takes [4♥+5♦=9]"]
    refused(state, on("A♦", eight, 9), r"must keep a card of value 9 per build it owns \(D4\)")
    refused(state, take("9♣", "9♦"), r"needs for one of its builds \(D4\)")
    # With a second 9 the raise is allowed, and seat 1 then owns both builds of 9.
    state = game("3♣ 5♠ 8♥ J♥ Q♥ K♥", "5♦ A♦ 9♣ 9♠ Q♠ K♠", "3♦ 4♥ K♣ 9♦")
    state = play(state, on("5♠", "3♦", 8), on("5♦", "4♥", 9), take("K♥", "K♣"))
    assert "A♦ on [3♦+5♠=8] makes 9" in names(state)
    state = xeri.apply(state, on("A♦", state.table[0], 9))
    assert state.table == (
        Build(cards=cards("3♦ 5♠ A♦"), value=9, owner=1),
        Build(cards=cards("4♥ 5♦"), value=9, owner=1),
        C("9♦"),
    )


# --- D5: capturing is optional; the forced_capture option ----------------------


def test_D5_capturing_is_optional_by_default():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣")
    assert names(state) == [
        "3♣ takes 3♦",
        "3♣ on 4♠ makes 7",
        "3♣ free",
        "5♠ on 3♦ makes 8",
        "5♠ free",
        "7♥ takes 3♦+4♠",
        "7♥ free",
        "8♥ free",
        "J♥ free",
        "K♥ takes K♣",
        "K♥ free",
    ]
    state = xeri.apply(state, free("7♥"))
    assert state.table == cards("3♦ 4♠ K♣ 6♣ 7♥")
    assert state.takes == ()


def test_D5_option_forced_capture_lists_only_captures_when_one_exists():
    state = game("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♦ 4♦ 9♣ 10♠ Q♠", "3♦ 4♠ K♣ 6♣", rules=FORCED)
    assert names(state) == ["3♣ takes 3♦", "7♥ takes 3♦+4♠", "K♥ takes K♣"]
    refused(state, free("8♥"), r"capturing is compulsory \(D5\)")
    refused(state, on("5♠", "3♦", 8), r"capturing is compulsory \(D5\)")


def test_D5_option_forced_capture_without_a_capture_allows_combine_and_free_card():
    hands = ("3♣ 5♠ 7♥ 8♥ J♥ K♥", "A♦ 2♥ 4♦ 9♣ 6♠ Q♠", "2♦ 9♠ Q♣ 10♣")
    expected = [
        "3♣ on 2♦ makes 5",
        "3♣ free",
        "5♠ on 2♦ makes 7",
        "5♠ free",
        "7♥ free",
        "8♥ free",
        "J♥ free",
        "K♥ free",
    ]
    assert names(game(*hands, rules=FORCED)) == expected
    assert names(game(*hands)) == expected


def test_D5_who_can_neither_capture_nor_combine_lays_a_free_card():
    hands = ("2♥ 3♥ 4♥ J♥ J♠ K♥", "A♦ 2♦ 4♦ 9♣ 6♠ Q♠", "Q♣ 10♣ 9♠ 8♦")
    expected = ["2♥ free", "3♥ free", "4♥ free", "J♥ free", "J♠ free", "K♥ free"]
    for rules in (GERMAN, FORCED):
        state = game(*hands, rules=rules)
        assert names(state) == expected
        state = xeri.apply(state, free("J♠"))
        assert state.table == cards("Q♣ 10♣ 9♠ 8♦ J♠")


# --- D6: a capture that clears the table is a xeri -----------------------------


def test_D6_two_loose_cards_summing_to_a_held_value_are_a_xeri_risk():
    state = game("6♠ 7♥ 2♥ 3♥ 4♥ 5♥", "9♣ 2♠ 3♠ 4♣ 5♠ Q♠", "3♦ 4♠ 6♣ 9♥")
    state = play(state, take("6♠", "6♣"), take("9♣", "9♥"))
    # Seat 1 left 3♦ and 4♠ alone; seat 0 holds a 7 and clears the table.
    assert state.table == cards("3♦ 4♠")
    assert "7♥ takes 3♦+4♠" in names(state)
    state = xeri.apply(state, take("7♥", "3♦ 4♠"))
    assert state.table == ()
    assert state.takes[-1] == Take(seat=0, cards=cards("3♦ 4♠ 7♥"), xeri=XeriKind.XERI, turn=2)
    assert state.xeris == ((XeriKind.XERI,), ())
    # On an empty table there is nothing to take or build on: free cards only.
    assert all(type(m) is Trail for m in xeri.legal_moves(state))
    while not state.is_round_over:
        state = trail_first(state)
    # Seat 0 captured last and collects the other 45 cards (D7): 50 cards in all.
    result = state.round_results[-1]
    assert result == RoundResult(
        cards=(50, 2),
        card_points=(7, 0),
        majority=(4, 0),
        xeris=(1, 0),
        xeri_bonus=(10, 0),
        total=(21, 0),
    )
    assert result.base == (11, 0)


def test_D6_taking_the_last_item_a_build_is_a_xeri():
    state = game("5♠ 8♥ 4♦ 6♦ 9♦ J♥", "4♣ 6♥ 9♠ 2♥ 2♠ Q♠", "3♦ 4♠ 6♣ 9♥")
    state = play(
        state,
        on("5♠", "3♦", 8),
        take("4♣", "4♠"),
        take("6♦", "6♣"),
        take("9♠", "9♥"),
    )
    assert [t.xeri for t in state.takes] == [None, None, None]
    eight = Build(cards=cards("3♦ 5♠"), value=8, owner=0)
    assert state.table == (eight,)
    state = xeri.apply(state, Capture(card=C("8♥"), taken=(eight,)))
    assert state.table == ()
    assert state.takes[-1] == Take(seat=0, cards=cards("3♦ 5♠ 8♥"), xeri=XeriKind.XERI, turn=4)


def _pairs_deck() -> tuple[Card, ...]:
    """A deck whose every deal holds the same ranks for both seats.

    Seat 0 (after the dealer) gets the ♣ and ♥ card of each pair, seat 1 the
    ♦ and ♠ card. The table is two Queens and two Kings, and seat 0 and
    seat 1 each hold a Queen and a King in the first deal.
    """
    ranks = [r for r in Rank if not r.is_picture or r is Rank.JACK]
    pairs = [
        p
        for r in ranks
        for p in ((C(f"{r.symbol}♣"), C(f"{r.symbol}♦")), (C(f"{r.symbol}♥"), C(f"{r.symbol}♠")))
    ]
    assert len(pairs) == 22
    blocks = [(pairs[0:4], "Q♥ K♥", "Q♠ K♠")] + [(pairs[i : i + 6], "", "") for i in (4, 10, 16)]
    deck: list[Card] = []
    for n, (group, extra0, extra1) in enumerate(blocks):
        deck += [*cards(extra0), *(a for a, _ in group)]
        deck += [*cards(extra1), *(b for _, b in group)]
        if n == 0:
            deck += cards("Q♣ K♣ Q♦ K♦")
    assert sorted(deck) == list(DECK)
    return tuple(deck)


def _play_pairs(rules) -> GameState:
    """Seat 0 takes what it can, else lays its first card; seat 1 always takes."""
    state = xeri.new_game(rules, deck=_pairs_deck(), dealer=1)
    while not state.is_round_over:
        moves = xeri.legal_moves(state)
        captures = [m for m in moves if type(m) is Capture]
        if state.to_move == 1:
            assert captures, "seat 1 always holds the partner of the card just laid"
        state = xeri.apply(state, captures[0] if captures else moves[0])
    return state


def test_D6_every_table_clearing_capture_is_a_xeri_the_last_card_included():
    state = _play_pairs(GERMAN)
    openers = [(t.seat, t.cards, t.xeri) for t in state.takes[:4]]
    assert openers == [
        (0, cards("Q♣ Q♥"), None),
        (1, cards("Q♦ Q♠"), None),
        (0, cards("K♣ K♥"), None),
        (1, cards("K♦ K♠"), XeriKind.XERI),
    ]
    # Then seat 0 lays a card on the empty table and seat 1 takes it: 22 xeris more.
    assert len(state.takes) == 26
    assert all(t.seat == 1 and t.xeri is XeriKind.XERI for t in state.takes[4:])
    jacks = [t for t in state.takes if t.cards[0].rank is Rank.JACK]
    assert [(t.cards, t.xeri) for t in jacks] == [
        (cards("J♣ J♦"), XeriKind.XERI),  # no jack bonus in German Xeri
        (cards("J♥ J♠"), XeriKind.XERI),
    ]
    assert state.takes[-1] == Take(seat=1, cards=cards("J♥ J♠"), xeri=XeriKind.XERI, turn=47)
    assert state.round_results[-1] == RoundResult(
        cards=(4, 48),
        card_points=(0, 7),
        majority=(0, 4),
        xeris=(0, 23),
        xeri_bonus=(0, 230),
        total=(0, 241),
    )


def test_D6_V3_option_no_xeri_with_the_last_card():
    state = _play_pairs(NO_LAST_XERI)
    assert state.takes[-1] == Take(seat=1, cards=cards("J♥ J♠"), xeri=None, turn=47)
    assert sum(t.xeri is XeriKind.XERI for t in state.takes) == 22
    result = state.round_results[-1]
    assert (result.xeris, result.xeri_bonus, result.total) == ((0, 22), (0, 220), (0, 231))


# --- D7: the last capturer takes the table --------------------------------------


def test_D7_last_capturer_takes_the_table_not_a_xeri():
    last0, last1 = cards("2♥ 3♥ 4♥ 5♥ 6♥ Q♥"), cards("K♠ 2♠ 3♠ 4♠ 5♠ 6♠")
    deck = tuple(c for c in DECK if c not in last0 + last1) + last0 + last1
    state = xeri.new_game(GERMAN, deck=deck, dealer=1)
    for _ in range(36):
        state = trail_first(state)
    assert state.hands == (tuple(sorted(last0)), tuple(sorted(last1)))
    assert len(state.table) == 40
    assert state.takes == ()
    state = play(
        state,
        free("2♥"),
        take("K♠", "K♣"),
        free("3♥"),
        free("2♠"),
        free("4♥"),
        free("3♠"),
        free("5♥"),
        free("4♠"),
        free("6♥"),
        free("5♠"),
        take("Q♥", "Q♣"),
    )
    assert state.takes[-1].seat == 0
    assert state.takes[-1].xeri is None
    before = state.table
    state = xeri.apply(state, free("6♠"))  # seat 1 plays the round's last card
    assert state.phase is Phase.ROUND_OVER
    assert state.table == ()
    assert len(before) + 1 == 48
    assert state.takes[-1] == Take(seat=0, cards=(*before, C("6♠")), xeri=None, turn=None)
    assert state.round_results[-1] == RoundResult(
        cards=(50, 2),
        card_points=(7, 0),
        majority=(4, 0),
        xeris=(0, 0),
        xeri_bonus=(0, 0),
        total=(11, 0),
    )


def test_D7_builds_left_on_the_table_go_whole_to_the_last_capturer():
    # Under D4 no build survives to the round's last card, so this state is made by
    # hand: seat 0 captured last, and seat 1 lays the last card beside a build.
    build = Build(cards=cards("3♦ 5♠"), value=8, owner=0)
    state = GameState(
        rules=GERMAN,
        phase=Phase.PLAY,
        dealer=1,
        to_move=1,
        hands=((), (C("9♣"),)),
        table=(build, C("4♠")),
        stock=(),
        history=(),
        takes=(Take(seat=0, cards=cards("2♣ 2♦"), xeri=None, turn=0),),
        round_results=(),
    )
    end = xeri.apply(state, free("9♣"))
    assert end.table == ()
    assert end.takes[-1] == Take(seat=0, cards=cards("3♦ 5♠ 4♠ 9♣"), xeri=None, turn=None)
    assert end.round_results[-1].cards == (6, 0)


def test_D7_X1_nobody_captured_the_cards_go_to_nobody():
    state = game("", "", "")
    while not state.is_round_over:
        state = trail_first(state)
    assert state.takes == ()
    assert len(state.table) == 52
    assert state.round_results[-1] == RoundResult(
        cards=(0, 0),
        card_points=(0, 0),
        majority=(0, 0),
        xeris=(0, 0),
        xeri_bonus=(0, 0),
        total=(0, 0),
        leftover=52,
    )


# --- D8: round scoring -----------------------------------------------------------

_ZERO = [c for c in DECK if c.rank is not Rank.ACE and c not in cards("2♣ 10♦")]


def test_D8_points_table_aces_two_of_clubs_ten_of_diamonds():
    scoring = dict.fromkeys(cards("A♣ A♦ A♥ A♠ 2♣"), 1) | {C("10♦"): 2}
    for card in DECK:
        assert GERMAN_POINTS.points(card) == scoring.get(card, 0)
    assert GERMAN.card_points is GERMAN_POINTS
    assert GERMAN_POINTS.total == 7
    assert (GERMAN.majority_points, GERMAN.xeri_points) == (4, 10)


def test_D8_four_for_more_cards_plus_card_points_plus_ten_per_xeri():
    assert len(_ZERO) == 46
    side0 = (*cards("A♣ A♦ 2♣ 10♦"), *_ZERO[:23])
    side1 = (*cards("A♥ A♠"), *_ZERO[23:])
    result = GERMAN.scorer.score((side0, side1), ((), (XeriKind.XERI, XeriKind.XERI)), GERMAN)
    assert result == RoundResult(
        cards=(27, 25),
        card_points=(5, 2),
        majority=(4, 0),
        xeris=(0, 2),
        xeri_bonus=(0, 20),
        total=(9, 22),
    )
    assert sum(result.base) == 11


def test_D8_a_26_26_tie_gives_no_majority_base_seven():
    side0 = (*cards("A♣ A♦ A♥ 2♣"), *_ZERO[:22])
    side1 = (*cards("A♠ 10♦"), *_ZERO[22:])
    result = GERMAN.scorer.score((side0, side1), ((XeriKind.XERI,), ()), GERMAN)
    assert result == RoundResult(
        cards=(26, 26),
        card_points=(4, 3),
        majority=(0, 0),
        xeris=(1, 0),
        xeri_bonus=(10, 0),
        total=(14, 3),
    )
    assert sum(result.base) == 7


# --- D9: the match to 37 -----------------------------------------------------------


def _rounds(*totals: tuple[int, int]) -> tuple[RoundResult, ...]:
    return tuple(
        RoundResult(
            cards=(26, 26),
            card_points=total,
            majority=(0, 0),
            xeris=(0, 0),
            xeri_bonus=(0, 0),
            total=total,
        )
        for total in totals
    )


def _status(*totals: tuple[int, int]) -> tuple[bool, int | None]:
    status = GERMAN.match.status(_rounds(*totals), 2)
    assert status.target == 37
    return status.over, status.winner


def test_D9_the_first_to_reach_37_wins():
    assert _status() == (False, None)
    assert _status((11, 0), (11, 0), (11, 0)) == (False, None)
    assert _status((11, 0), (11, 0), (11, 0), (4, 7)) == (True, 0)  # exactly 37
    assert _status((11, 0), (11, 0), (11, 0), (3, 8)) == (False, None)  # 36
    assert _status((20, 30), (0, 7)) == (True, 1)
    assert _status((41, 36)) == (True, 0)


def test_D9_both_reach_37_in_the_same_round_the_higher_total_wins():
    assert _status((30, 30), (10, 8)) == (True, 0)
    assert _status((30, 30), (8, 10)) == (True, 1)
    assert _status((36, 36), (11, 10)) == (True, 0)


def test_D9_equal_totals_over_37_play_another_round():
    assert _status((30, 30), (9, 9)) == (False, None)
    assert _status((30, 30), (9, 9), (0, 1)) == (True, 1)
    assert _status((30, 30), (9, 9), (5, 5)) == (False, None)
    assert _status((30, 30), (9, 9), (5, 5), (11, 0)) == (True, 0)


def test_D9_a_seeded_match_is_played_to_37():
    def match(seed: int) -> GameState:
        rng = random.Random(seed)
        state = xeri.new_game(GERMAN, rng=rng)
        while not state.is_over:
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
            else:
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        return state

    state = match(37)
    assert state == match(37)
    results = state.round_results
    winner = state.winner
    assert winner is not None
    scores = state.scores
    assert scores == tuple(sum(r.total[s] for r in results) for s in (0, 1))
    assert scores[winner] >= 37
    assert scores[winner] > scores[1 - winner]
    assert state.status.over
    for k in range(1, len(results)):
        assert not GERMAN.match.status(results[:k], 2).over
        assert max(sum(r.total[s] for r in results[:k]) for s in (0, 1)) < 37 or (
            sum(r.total[0] for r in results[:k]) == sum(r.total[1] for r in results[:k])
        )
    for r in results:
        assert sum(r.cards) + r.leftover == 52
        assert r.xeri_bonus == tuple(10 * x for x in r.xeris)
        assert r.total == tuple(b + x for b, x in zip(r.base, r.xeri_bonus, strict=True))
        if r.leftover == 0:
            assert sum(r.base) == (7 if r.cards == (26, 26) else 11)
    assert xeri.legal_moves(state) == ()
    with pytest.raises(IllegalMoveError, match="match is over"):
        xeri.apply(state, xeri.Deal(deck=DECK))

"""Cassino (clauses C1–C7 of the Cassino rules page) against the preset `xeri.CASSINO`.

Rounds are dealt from explicit decks through the public API:
`xeri.start(CASSINO, dealer=1)` and a `Deal` move. Seat 1 deals, so seat 0
gets the first block of four cards and leads, seat 1 the next four, then
four go to the table (X3); the cards a test does not name follow in `DECK`
order. Move lists are compared by their `str()`.
"""

# Test names carry the clause id (test_C4_...).

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

import attrs
import pytest

import xeri
from support import cards, check_last_collections, play_random_round, refused, two_seat_deck
from xeri import (
    CASSINO,
    DECK,
    Build,
    Capture,
    Card,
    Combine,
    CountOut,
    Deal,
    GameState,
    Phase,
    Rank,
    RoundResult,
    Suit,
    Take,
    Trail,
    XeriKind,
)
from xeri.testing import check_rules

C = Card.parse


def full_deck(*blocks: str) -> tuple[Card, ...]:
    """The named cards first, in order, then every other card of the deck in its order."""
    head = tuple(c for block in blocks for c in cards(block))
    assert len(set(head)) == len(head), "a card is named twice"
    return head + tuple(c for c in DECK if c not in head)


def dealt(deck: Iterable[Card], rules: xeri.RuleSet = CASSINO) -> GameState:
    """The state after seat 1 deals `deck`: seat 0 leads."""
    return xeri.apply(xeri.start(rules, dealer=1), Deal(deck=tuple(deck)))


def game(hand0: str, hand1: str, table: str) -> GameState:
    """A round in which seat 0 holds `hand0` and leads, seat 1 holds `hand1`."""
    assert len(hand0.split()) == len(hand1.split()) == len(table.split()) == 4
    return dealt(full_deck(hand0, hand1, table))


def names(state: GameState, card: str | None = None) -> list[str]:
    """The legal moves by their text; only those playing `card` when it is given."""
    moves = xeri.legal_moves(state)
    return [str(m) for m in moves if card is None or m.card == C(card)]


def play(state: GameState, text: str) -> GameState:
    """Apply the legal move whose text is `text`."""
    return xeri.apply(state, xeri.parse_move(state, text))


def take(card: str, items: str) -> Capture:
    return Capture(card=C(card), taken=cards(items))


def build_at(state: GameState, index: int) -> Build:
    item = state.table[index]
    assert isinstance(item, Build)
    return item


def play_match(rng: random.Random) -> GameState:
    state = xeri.new_game(CASSINO, rng=rng)
    while not state.is_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


# A whole round in which every capture is made by a card of the same rank.
# Seat 0 takes A♣ and 3♣ from the initial table and seat 1 takes 2♣ and 4♣,
# which clears it: a sweep. From then on seat 0 lays a card free on the empty
# table and seat 1 takes it with the other card of its rank: a sweep every
# time, except with the round's last card (the dealer's K♠ on the K♥).
SWEEP_TABLE = "A♣ 2♣ 3♣ 4♣"
SWEEP_PLAYS = (
    "A♦ 2♦ 3♦ 4♦"
    " A♥ A♠ 2♥ 2♠ 3♥ 3♠ 4♥ 4♠"
    " 5♣ 5♦ 5♥ 5♠ 6♣ 6♦ 6♥ 6♠ 7♣ 7♦ 7♥ 7♠ 8♣ 8♦ 8♥ 8♠ 9♣ 9♦ 9♥ 9♠"
    " 10♣ 10♦ 10♥ 10♠ J♣ J♦ J♥ J♠ Q♣ Q♦ Q♥ Q♠ K♣ K♦ K♥ K♠"
)


def sweep_round(rules: xeri.RuleSet = CASSINO) -> GameState:
    state = dealt(two_seat_deck(cards(SWEEP_PLAYS), cards(SWEEP_TABLE), DECK), rules)
    for card in cards(SWEEP_PLAYS):
        same = [t for t in state.table if isinstance(t, Card) and t.rank is card.rank]
        move = Capture(card=card, taken=tuple(same)) if same else Trail(card=card)
        assert move in xeri.legal_moves(state)
        state = xeri.apply(state, move)
    assert state.is_round_over or state.is_over
    return state


# --- C1: two players, 52 cards, values -------------------------------------------


def test_C1_two_players_52_cards_and_values():
    assert (CASSINO.seats, CASSINO.num_sides) == (2, 2)
    assert CASSINO.deck == DECK
    assert len(DECK) == len(set(DECK)) == 52
    value = CASSINO.capture.value
    for card in DECK:
        expected = None if card.rank in (Rank.JACK, Rank.QUEEN, Rank.KING) else int(card.rank)
        assert value(card) == expected, card
    assert [value(C(name)) for name in ("A♠", "2♦", "10♥", "J♣", "Q♦", "K♥")] == [
        1,
        2,
        10,
        None,
        None,
        None,
    ]
    state = game("A♣ 2♣ 3♣ 4♣", "A♦ 2♦ 3♦ 4♦", "5♣ 6♣ 7♣ 8♣")
    everything = state.hands[0] + state.hands[1] + state.table + state.stock
    assert sorted(everything) == list(DECK)


def test_C1_pictures_never_sum_or_build():
    state = game("Q♥ 10♦ 3♠ 7♦", "A♦ 8♥ Q♠ 6♣", "Q♣ Q♦ 7♥ 3♥")
    assert names(state) == [
        "3♠ takes 3♥",
        "3♠ on 7♥ makes 10",
        "3♠ free",
        "7♦ takes 7♥",
        "7♦ on 3♥ makes 10",
        "7♦ free",
        "10♦ takes 3♥+7♥",
        "10♦ free",
        "Q♥ takes Q♣",
        "Q♥ takes Q♦",
        "Q♥ free",
    ]
    refused(state, take("10♦", "Q♣"), "do not add up to 10")
    refused(state, Combine(card=C("Q♥"), onto=C("Q♣"), value=10), "only number cards combine")
    refused(state, Combine(card=C("3♠"), onto=C("Q♣"), value=10), "only number cards")
    refused(
        state,
        Combine(card=C("3♠"), onto=C("7♥"), also=cards("Q♣"), value=10),
        "only number cards and builds can be built with",
    )


# --- C2: the deal ------------------------------------------------------------------


def test_C2_four_each_four_on_the_table_six_deals():
    state = game("A♣ 2♣ 3♣ 4♣", "A♦ 2♦ 3♦ 4♦", "5♣ 6♣ 7♣ 8♣")
    assert state.dealer == 1
    assert state.to_move == 0  # the player after the dealer leads
    assert state.hands == (cards("A♣ 2♣ 3♣ 4♣"), cards("A♦ 2♦ 3♦ 4♦"))
    assert state.table == cards("5♣ 6♣ 7♣ 8♣")  # side by side, in the order laid
    assert len(state.stock) == 40
    assert CASSINO.deals_per_round == 6
    deals, plays = 1, 0
    while not state.is_round_over:
        stock = len(state.stock)
        state = xeri.apply(state, xeri.legal_moves(state)[0])
        plays += 1
        if len(state.stock) < stock:
            deals += 1
            assert stock - len(state.stock) == 8
            assert [len(hand) for hand in state.hands] == [4, 4]
            assert state.to_move == 0
    assert (deals, plays) == (6, 48)


def test_C2_no_redeal_whatever_the_table():
    assert CASSINO.redeal == xeri.Redeal.NEVER
    for table in ("J♣ J♦ J♥ J♠", "K♣ K♦ K♥ K♠", "10♣ 10♦ 10♥ 10♠", "A♣ A♦ 2♥ 7♠"):
        state = game("2♣ 3♣ 4♣ 5♣", "2♦ 3♦ 4♦ 5♦", table)
        assert state.phase is Phase.PLAY
        assert state.table == cards(table)
        assert state.to_move == 0


def test_C2_the_dealer_changes_every_round():
    rng = random.Random(5)
    state = xeri.new_game(CASSINO, rng=rng)
    dealers: dict[int, int] = {}
    while not state.is_over:
        if state.phase is Phase.PLAY:
            dealers.setdefault(len(state.round_results), state.dealer)
            assert state.dealer == dealers[len(state.round_results)]
            if not state.history:
                assert state.to_move == 1 - state.dealer
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    order = [dealers[k] for k in sorted(dealers)]
    assert len(order) >= 2
    assert all(a != b for a, b in itertools.pairwise(order))


# --- C3: capturing -----------------------------------------------------------------


def test_C3_a_number_card_takes_the_groups_the_player_chooses():
    state = game("7♦ K♣ Q♥ J♠", "A♦ 8♥ Q♠ 6♣", "3♦ 4♣ 7♠ 5♥")
    # A card of its value, a sum, or both at once; the player chooses.
    assert names(state, "7♦") == [
        "7♦ takes 3♦+4♣",
        "7♦ takes 3♦+4♣+7♠",
        "7♦ takes 7♠",
        "7♦ free",
    ]
    refused(state, take("7♦", "3♦ 4♣ 5♥"), "do not add up to 7")
    refused(state, take("7♦", "3♦ 4♣ 7♠ 5♥"), "do not add up to 7")
    after = xeri.apply(state, take("7♦", "3♦ 4♣ 7♠"))
    assert after.table == cards("5♥")
    assert after.takes[-1] == Take(seat=0, cards=cards("3♦ 4♣ 7♠ 7♦"), xeri=None, turn=0)


def test_C3_several_groups_with_builds_in_one_capture():
    state = game("3♠ 7♦ K♣ 5♦", "7♣ 8♥ Q♠ 6♣", "4♥ 5♥ 2♦ A♠")
    state = play(state, "3♠ on 4♥ makes 7")
    assert [str(t) for t in state.table] == ["[4♥+3♠=7]", "5♥", "2♦", "A♠"]
    assert names(state, "7♣") == [
        "7♣ takes 2♦+5♥",
        "7♣ takes 2♦+5♥+[4♥+3♠=7]",
        "7♣ takes [4♥+3♠=7]",
        "7♣ on A♠ makes 8",
        "7♣ free",
    ]
    after = play(state, "7♣ takes 2♦+5♥+[4♥+3♠=7]")
    assert after.table == cards("A♠")
    assert after.takes[-1] == Take(seat=1, cards=cards("4♥ 3♠ 5♥ 2♦ 7♣"), xeri=None, turn=1)
    # Leaving the A♠ out of the sum, or naming a card inside the build, is refused.
    refused(state, Capture(card=C("7♣"), taken=state.table[:4]), "do not add up to 7")
    refused(state, take("7♣", "4♥"), "not on the table")


def test_C3_a_picture_takes_one_card_of_its_rank_at_a_time():
    state = game("K♣ 9♥ A♣ 10♦", "9♦ 5♣ Q♠ 6♣", "K♦ K♥ J♥ 7♠")
    assert names(state, "K♣") == ["K♣ takes K♦", "K♣ takes K♥", "K♣ free"]
    refused(state, take("K♣", "K♦ K♥"), "one at a time")
    refused(state, take("K♣", "J♥"), "its own rank")
    after = play(state, "K♣ takes K♥")
    assert after.table == cards("K♦ J♥ 7♠")
    assert after.takes[-1].cards == cards("K♥ K♣")


def test_C3_capturing_is_optional():
    state = game("7♦ 3♣ 6♠ 9♥", "J♥ 2♥ 5♦ 8♣", "3♦ 4♣ 7♣ A♠")
    # The 7♦ and the 3♣ can capture, and may still be laid free.
    after = xeri.apply(state, Trail(card=C("7♦")))
    assert after.table == cards("3♦ 4♣ 7♣ A♠ 7♦")
    assert after.takes == ()
    after = xeri.apply(state, Trail(card=C("3♣")))
    assert after.table == cards("3♦ 4♣ 7♣ A♠ 3♣")
    assert [m for m in xeri.legal_moves(state) if isinstance(m, Trail)] == [
        Trail(card=c) for c in state.hands[0]
    ]


# --- C4: building ------------------------------------------------------------------


def test_C4_a_multi_card_build_only_when_holding_the_value():
    without = game("2♠ 7♦ K♣ 5♦", "A♦ 8♥ Q♠ 6♣", "3♦ 4♣ J♥ 7♠")
    assert names(without, "2♠") == ["2♠ on 3♦ makes 5", "2♠ free"]
    move = Combine(card=C("2♠"), onto=C("3♦"), also=cards("4♣"), value=9)
    refused(without, move, r"holds no other card of value 9 to take it \(C4\)")

    state = game("2♠ 9♥ K♣ 5♦", "A♦ 8♥ Q♠ 6♣", "3♦ 4♣ J♥ 7♠")
    assert names(state, "2♠") == [
        "2♠ on 3♦ makes 5",
        "2♠ on 3♦+4♣ makes 9",
        "2♠ on 7♠ makes 9",
        "2♠ free",
    ]
    assert move in xeri.legal_moves(state)
    assert str(move) == "2♠ on 3♦+4♣ makes 9"
    assert xeri.parse_move(state, "2♠ on 3♦+4♣ makes 9") == move
    after = xeri.apply(state, move)
    assert after.table == (Build(cards=cards("3♦ 4♣ 2♠"), value=9, owner=0), *cards("J♥ 7♠"))
    # The items must divide into groups of the value announced, at most 10.
    refused(state, attrs.evolve(move, value=8), "do not divide into groups of 8")
    refused(state, attrs.evolve(move, value=11), "from 1 to 10")
    refused(state, attrs.evolve(move, also=cards("4♣ 4♣")), "more than once")
    refused(state, attrs.evolve(move, also=cards("4♠")), "not on the table")


def test_C4_multiple_builds():
    state = game("2♠ 9♥ 9♣ 7♦", "K♦ K♠ A♣ 10♣", "3♦ 4♣ 8♥ A♥")
    assert names(state, "2♠") == [
        "2♠ on A♥+4♣ makes 7",
        "2♠ on A♥+3♦+4♣+8♥ makes 9",  # 2 + 3 + 4 and 8 + 1
        "2♠ on 3♦+4♣ makes 9",
        "2♠ free",
    ]
    assert names(state, "9♣") == ["9♣ takes A♥+8♥", "9♣ on A♥+8♥ makes 9", "9♣ free"]
    every = play(state, "2♠ on A♥+3♦+4♣+8♥ makes 9")
    assert every.table == (Build(cards=cards("3♦ 4♣ 8♥ A♥ 2♠"), value=9, owner=0),)
    # A card of the value laid on a build of it doubles the build.
    state = play(state, "2♠ on 3♦+4♣ makes 9")
    state = xeri.apply(state, Trail(card=C("K♦")))
    build = build_at(state, 0)
    assert names(state, "9♣") == [
        "9♣ takes A♥+8♥",
        "9♣ takes A♥+8♥+[3♦+4♣+2♠=9]",
        "9♣ takes [3♦+4♣+2♠=9]",
        "9♣ on A♥+8♥+[3♦+4♣+2♠=9] makes 9",
        "9♣ on [3♦+4♣+2♠=9] makes 9",
    ]
    after = xeri.apply(state, Combine(card=C("9♣"), onto=build, value=9))
    assert after.table == (
        Build(cards=cards("3♦ 4♣ 2♠ 9♣"), value=9, owner=0),
        *cards("8♥ A♥ K♦"),
    )
    # A build grouped in must already have the value announced.
    refused(
        state,
        Combine(card=C("9♣"), onto=C("A♥"), also=(build,), value=10),
        "must have that value",
    )


def test_C4_a_multiple_build_on_the_opponents_build_is_the_mover_s():
    state = game("2♠ 9♥ K♣ 5♦", "9♦ 9♣ Q♠ 6♣", "3♦ 4♣ J♥ 7♠")
    state = play(state, "2♠ on 3♦+4♣ makes 9")
    state = play(state, "9♦ on [3♦+4♣+2♠=9] makes 9")
    assert build_at(state, 0) == Build(cards=cards("3♦ 4♣ 2♠ 9♦"), value=9, owner=1)
    # Seat 0 owns no build any more: it may lay a card free again.
    assert names(state) == ["5♦ free", "9♥ takes [3♦+4♣+2♠+9♦=9]", "9♥ free", "K♣ free"]


def test_C4_a_single_build_may_be_raised_by_either_player():
    state = game("2♠ 9♥ A♦ 10♦", "A♣ 10♣ K♠ 5♣", "3♦ 4♣ J♥ 7♠")
    state = play(state, "2♠ on 3♦+4♣ makes 9")
    build = build_at(state, 0)
    # The opponent raises it with a card from the hand, holding a card of the sum.
    assert names(state, "A♣") == [
        "A♣ on [3♦+4♣+2♠=9] makes 10",
        "A♣ free",
    ]
    raised = xeri.apply(state, Combine(card=C("A♣"), onto=build, value=10))
    assert build_at(raised, 0) == Build(cards=cards("3♦ 4♣ 2♠ A♣"), value=10, owner=1)
    # Its owner may raise it too (self_raise).
    assert CASSINO.capture.self_raise
    state = xeri.apply(state, Trail(card=C("K♠")))
    assert names(state) == ["A♦ on [3♦+4♣+2♠=9] makes 10", "9♥ takes [3♦+4♣+2♠=9]"]
    raised = xeri.apply(state, Combine(card=C("A♦"), onto=build, value=10))
    assert build_at(raised, 0) == Build(cards=cards("3♦ 4♣ 2♠ A♦"), value=10, owner=0)


def test_C4_a_raise_needs_a_card_of_the_new_value():
    state = game("3♠ 7♦ 9♣ A♦", "7♣ 8♥ Q♠ 6♣", "4♥ 5♥ 2♦ A♠")
    state = play(state, "3♠ on 4♥ makes 7")
    state = xeri.apply(state, Trail(card=C("Q♠")))
    build = build_at(state, 0)
    refused(
        state,
        Combine(card=C("A♦"), onto=build, value=8),
        "holds no other card of value 8 to take it",
    )
    refused(state, Combine(card=C("A♦"), onto=build, value=9), "must have that value")


def test_C4_a_multiple_build_cannot_be_raised():
    state = game("2♠ 9♥ 9♣ A♦", "K♦ K♠ A♣ 10♣", "3♦ 4♣ 8♥ 10♥")
    state = play(state, "2♠ on 3♦+4♣ makes 9")
    assert "A♣ on [3♦+4♣+2♠=9] makes 10" in names(state)  # a single build
    state = xeri.apply(state, Trail(card=C("K♦")))
    state = play(state, "9♣ on [3♦+4♣+2♠=9] makes 9")
    build = build_at(state, 0)
    assert str(build) == "[3♦+4♣+2♠+9♣=9]"
    assert names(state, "A♣") == ["A♣ free"]
    refused(
        state,
        Combine(card=C("A♣"), onto=build, value=10),
        r"a multiple build cannot be raised \(C4\)",
    )
    # Nor by its owner, who may still add a group of its value to it.
    state = xeri.apply(state, Trail(card=C("K♠")))
    assert names(state) == [
        "A♦ on 8♥+[3♦+4♣+2♠+9♣=9] makes 9",
        "9♥ takes [3♦+4♣+2♠+9♣=9]",
    ]
    refused(state, Combine(card=C("A♦"), onto=build, value=10), "cannot be raised")


def test_C4_a_multiple_build_is_taken_whole():
    state = game("2♠ 9♥ K♣ 5♦", "9♦ 8♥ Q♠ 6♣", "3♦ 4♣ 8♣ A♥")
    state = play(state, "2♠ on A♥+3♦+4♣+8♣ makes 9")
    build = build_at(state, 0)
    assert names(state, "9♦") == ["9♦ takes [3♦+4♣+8♣+A♥+2♠=9]", "9♦ free"]
    refused(state, take("9♦", "8♣ A♥"), "not on the table")
    after = xeri.apply(state, Capture(card=C("9♦"), taken=(build,)))
    assert after.table == ()
    assert after.takes[-1] == Take(
        seat=1, cards=cards("3♦ 4♣ 8♣ A♥ 2♠ 9♦"), xeri=XeriKind.XERI, turn=1
    )


def test_C4_every_legal_move_reads_back_from_its_text():
    rng = random.Random(4)
    kinds: set[str] = set()
    for _ in range(3):
        state = xeri.new_game(CASSINO, rng=rng)
        while not state.is_round_over:
            moves = xeri.legal_moves(state)
            for move in moves:
                assert xeri.parse_move(state, str(move)) == move
                if isinstance(move, Combine):
                    kinds.add("several items" if move.also else "one item")
            state = xeri.apply(state, rng.choice(moves))
    assert kinds == {"one item", "several items"}


def test_C4_the_owner_may_not_trail_and_keeps_a_card_per_build():
    state = game("3♠ 7♦ 9♣ A♦", "7♣ 8♥ Q♠ 6♣", "4♥ 5♥ 2♦ A♠")
    state = play(state, "3♠ on 4♥ makes 7")
    state = xeri.apply(state, Trail(card=C("Q♠")))
    assert names(state) == [
        "A♦ takes A♠",
        "A♦ on A♠+5♥+[4♥+3♠=7] makes 7",
        "A♦ on A♠+2♦+5♥ makes 9",
        "7♦ takes 2♦+5♥+[4♥+3♠=7]",
        "7♦ takes [4♥+3♠=7]",
    ]
    refused(state, Trail(card=C("9♣")), r"owns a build and may not lay a free card .*\(D4\)")
    refused(state, take("7♦", "2♦ 5♥"), r"would give up the card it needs .*\(D4\)")
    # A second build of 9 needs a 9 of its own beside the 7 kept for the first.
    after = play(state, "A♦ on A♠+2♦+5♥ makes 9")
    assert [t.value for t in after.table if isinstance(t, Build)] == [7, 9]
    assert after.hands[0] == cards("7♦ 9♣")


# --- C5: sweeps --------------------------------------------------------------------


def test_C5_sweep_scores_one_not_on_last_card():
    state = sweep_round()
    sweeps = [(t.seat, t.turn) for t in state.takes if t.xeri is not None]
    assert sweeps == [(1, 3)] + [(1, turn) for turn in range(5, 47, 2)]
    assert {t.xeri for t in state.takes if t.xeri is not None} == {XeriKind.XERI}
    # The dealer's K♠, the round's last card, clears the table: no sweep.
    assert state.takes[-1] == Take(seat=1, cards=cards("K♥ K♠"), xeri=None, turn=47)
    result = state.round_results[0]
    assert result.xeris == (0, 22)
    assert result.xeri_bonus == (0, 0)  # a sweep is scored on its own line only
    assert dict(result.categories)["sweeps"] == (0, 22)
    # With the last card allowed, the same round has a 23rd sweep.
    last = attrs.evolve(CASSINO, name="cassino-last-card", xeri_on_last_card=True)
    result = sweep_round(last).round_results[0]
    assert dict(result.categories)["sweeps"] == (0, 23)
    assert result.total == (2, 32)


def test_C5_a_capture_that_leaves_a_card_is_no_sweep():
    state = game("5♦ 3♣ 6♠ 8♦", "J♥ 2♥ 4♦ 10♠", "3♦ 2♣ 7♣ A♠")
    state = play(state, "5♦ takes 2♣+3♦")
    assert state.takes[-1].xeri is None
    assert state.table == cards("7♣ A♠")
    state = xeri.apply(state, Trail(card=C("2♥")))
    state = play(state, "8♦ takes A♠+7♣")  # the 2♥ stays
    assert state.takes[-1].xeri is None
    state = play(state, "4♦ free")
    state = play(state, "6♠ takes 2♥+4♦")  # 6 = 2 + 4: the table is empty
    assert state.takes[-1].xeri is XeriKind.XERI


# --- C6: the last capture and the round's score sheet ------------------------------


def test_C6_last_capturer_takes_the_rest_not_a_sweep():
    assert check_last_collections(CASSINO, seed=8) >= 3


def _score(side0: Iterable[Card], sweeps: tuple[int, int] = (0, 0)) -> RoundResult:
    """The result of a round in which seat 0 captured `side0` and seat 1 the rest."""
    mine = tuple(side0)
    other = tuple(c for c in DECK if c not in mine)
    xeris = tuple((XeriKind.XERI,) * n for n in sweeps)
    return CASSINO.scorer.score((mine, other), xeris, CASSINO)


def test_C6_score_lines():
    spades = [c for c in DECK if c.suit is Suit.SPADES]
    clubs = [c for c in DECK if c.suit is Suit.CLUBS and c.rank is not Rank.ACE]
    # 26–26: nobody scores the cards; seat 0 has 2♠ to 8♠, the 10♦, two Aces and a sweep.
    side0 = [*spades[1:8], C("10♦"), C("A♦"), C("A♥"), *clubs, *cards("2♥ 3♥ 4♥ 5♥")]
    assert len(side0) == 26
    result = _score(side0, sweeps=(1, 2))
    assert result.cards == (26, 26)
    assert result.majority == (0, 0)
    assert result.card_points == (0, 0)  # no card is worth points by itself
    assert dict(result.categories) == {
        "most spades": (1, 0),
        "big casino": (2, 0),
        "little casino": (1, 0),
        "aces": (2, 2),
        "sweeps": (1, 2),
    }
    assert result.total == (7, 4)
    # One more card and the little casino change hands.
    result = _score([c for c in side0 if c != C("2♠")] + [C("6♥"), C("7♥")])
    assert result.cards == (27, 25)
    assert result.majority == (3, 0)
    assert dict(result.categories)["little casino"] == (0, 1)
    assert dict(result.categories)["most spades"] == (0, 1)  # 6 against 7
    # Equal spades score for nobody (possible only with cards left to nobody).
    even = CASSINO.scorer.score(
        (tuple(spades[:6]), tuple(spades[6:12])), ((), ()), CASSINO, leftover=40
    )
    assert dict(even.categories)["most spades"] == (0, 0)


def test_C6_round_lines_by_name():
    result = sweep_round().round_results[0]
    assert [name for name, _ in result.categories] == [
        "most spades",
        "big casino",
        "little casino",
        "aces",
        "sweeps",
    ]
    assert result.sheet == (
        ("card points", (0, 0)),
        ("majority", (0, 3)),
        ("xeri bonus", (0, 0)),
        ("most spades", (0, 1)),
        ("big casino", (0, 2)),
        ("little casino", (0, 1)),
        ("aces", (2, 2)),
        ("sweeps", (0, 22)),
    )
    assert result.cards == (4, 48)
    assert result.total == (2, 31)
    assert result.total == tuple(map(sum, zip(*(row for _, row in result.sheet), strict=True)))


def test_C6_a_round_is_worth_eleven_plus_sweeps():
    rng = random.Random(21)
    for _ in range(8):
        result = play_random_round(xeri.new_game(CASSINO, rng=rng), rng).round_results[0]
        lines = dict(result.categories)
        assert sum(lines["big casino"]) == 2
        assert sum(lines["little casino"]) == 1
        assert sum(lines["aces"]) == 4
        assert sum(lines["most spades"]) == 1  # 13 spades never split evenly
        rest = sum(result.total) - sum(lines["sweeps"])
        assert rest == (8 if result.cards == (26, 26) else 11)
        assert sum(lines["sweeps"]) == sum(result.xeris)


# --- C7: the game to 21, counted out -----------------------------------------------

ORDER = ("majority", "most spades", "big casino", "little casino", "aces", "sweeps")


def _round(
    *,
    majority: tuple[int, int] = (0, 0),
    spades: tuple[int, int] = (0, 0),
    big: tuple[int, int] = (0, 0),
    little: tuple[int, int] = (0, 0),
    aces: tuple[int, int] = (0, 0),
    sweeps: tuple[int, int] = (0, 0),
) -> RoundResult:
    """A hand-made result with the Cassino lines given, in their sheet order."""
    lines = (
        ("most spades", spades),
        ("big casino", big),
        ("little casino", little),
        ("aces", aces),
        ("sweeps", sweeps),
    )
    total = tuple(majority[s] + sum(points[s] for _, points in lines) for s in (0, 1))
    cards = (27, 25) if majority[0] else (25, 27) if majority[1] else (26, 26)
    return RoundResult(
        cards=cards,
        card_points=(0, 0),
        majority=majority,
        xeris=sweeps,
        xeri_bonus=(0, 0),
        total=total,
        categories=lines,
    )


def _before(score0: int, score1: int) -> RoundResult:
    """Earlier rounds, as one hand-made round worth these totals."""
    return _round(sweeps=(score0, score1))


def _status(*results: RoundResult) -> tuple[bool, int | None]:
    status = CASSINO.match.status(results, 2)
    assert status.target == 21
    return status.over, status.winner


def _final(*results: RoundResult) -> tuple[int, ...]:
    return tuple(sum(r.total[s] for r in results) for s in (0, 1))


def test_C7_the_format_is_a_count_out_to_21_in_order():
    assert CASSINO.match == CountOut(target=21, order=ORDER)
    assert _status() == (False, None)
    # Nobody at 21: the match goes on.
    assert _status(_before(10, 12), _round(majority=(3, 0), big=(0, 2), aces=(2, 2))) == (
        False,
        None,
    )


def test_C7_the_first_to_reach_21_wins_despite_a_lower_final_total():
    before = _before(18, 16)
    last = _round(majority=(3, 0), spades=(0, 1), big=(0, 2), little=(0, 1), aces=(0, 4))
    assert _status(before, last) == (True, 0)  # 21 on the cards line
    assert _final(before, last) == (21, 24)
    # Seat 1 first: the cards give seat 0 20, the spades seat 1 21.
    before = _before(17, 20)
    last = _round(majority=(3, 0), spades=(0, 1), big=(2, 0), aces=(3, 1))
    assert _status(before, last) == (True, 1)
    assert _final(before, last) == (25, 22)


def test_C7_both_reaching_21_on_the_same_line_the_higher_wins():
    # Before the Aces 20–20; the Aces take both past 21.
    lines = {"majority": (0, 3), "spades": (1, 0), "big": (2, 0), "little": (0, 1)}
    assert _status(_before(17, 16), _round(**lines, aces=(1, 3))) == (True, 1)  # 21–23
    assert _status(_before(17, 16), _round(**lines, aces=(3, 1))) == (True, 0)  # 23–21
    assert _status(_before(17, 16), _round(**lines, aces=(3, 1), sweeps=(0, 5))) == (True, 0)


def test_C7_equal_scores_keep_counting():
    lines = {"majority": (0, 3), "spades": (1, 0), "big": (2, 0), "little": (0, 1)}
    before = _before(17, 16)
    assert _status(before, _round(**lines, aces=(2, 2), sweeps=(1, 0))) == (True, 0)
    assert _status(before, _round(**lines, aces=(2, 2), sweeps=(0, 2))) == (True, 1)


def test_C7_still_equal_at_the_end_plays_another_round():
    before = _before(17, 16)
    tied = _round(majority=(0, 3), spades=(1, 0), big=(2, 0), little=(0, 1), aces=(2, 2))
    assert _final(before, tied) == (22, 22)
    assert _status(before, tied) == (False, None)
    # The next round is counted out from 22–22: its first line that differs decides.
    assert _status(before, tied, _round(majority=(3, 0), spades=(0, 1), aces=(0, 4))) == (
        True,
        0,
    )
    assert _status(before, tied, _round(spades=(0, 1), big=(2, 0))) == (True, 1)
    assert _status(before, tied, _round(aces=(2, 2))) == (False, None)


def test_C7_the_order_of_the_format_is_the_order_counted():
    # Counting the sweeps first hands the same round to seat 1.
    sweeps_first = CountOut(target=21, order=("sweeps", *ORDER[:-1]))
    before = _before(18, 16)
    last = _round(majority=(3, 0), sweeps=(0, 5))
    assert _status(before, last) == (True, 0)
    assert sweeps_first.status((before, last), 2).winner == 1
    # Lines left out of the order are counted after it, in sheet order: here
    # the Aces (19–20), then the cards (22–20) before the big casino.
    aces_first = CountOut(target=21, order=("aces",))
    before = _before(18, 19)
    last = _round(majority=(3, 0), big=(0, 2), aces=(1, 1))
    assert aces_first.status((before, last), 2) == xeri.MatchStatus(over=True, winner=0, target=21)
    big_first = CountOut(target=21, order=("big casino",))
    assert big_first.status((before, last), 2).winner == 1  # 18–21 on the big casino


def _counted_out(results: tuple[RoundResult, ...]) -> int | None:
    """The winner by C7, counted independently of `CountOut`; None while the match goes on."""
    scores = [0, 0]
    for k, result in enumerate(results):
        last = k == len(results) - 1
        if not last:
            scores = [scores[s] + result.total[s] for s in (0, 1)]
            continue
        sheet = dict(result.sheet)
        for name in (*ORDER, "card points", "xeri bonus"):
            scores = [scores[s] + sheet[name][s] for s in (0, 1)]
            if max(scores) >= 21 and scores[0] != scores[1]:
                return 0 if scores[0] > scores[1] else 1
    return None


def test_C7_played_matches_end_when_counted_out():
    rng = random.Random(11)
    for _ in range(4):
        state = play_match(rng)
        results = state.round_results
        winner = state.winner
        assert winner is not None
        assert state.scores[winner] >= 21
        assert _counted_out(results) == winner
        assert all(_counted_out(results[:k]) is None for k in range(1, len(results)))


def test_C7_a_recorded_match_won_with_the_lower_total():
    # Seeded play: seat 1 reaches 21 on the little casino, 20 to 21, before
    # seat 0's three Aces take it to 23.
    state = play_match(random.Random(22))
    assert state.scores == (23, 22)
    assert state.winner == 1
    assert _final(*state.round_results[:-1]) == (18, 16)
    assert state.round_results[-1].sheet[1:] == (
        ("majority", (0, 3)),
        ("xeri bonus", (0, 0)),
        ("most spades", (0, 1)),
        ("big casino", (2, 0)),
        ("little casino", (0, 1)),
        ("aces", (3, 1)),
        ("sweeps", (0, 0)),
    )


# --- the whole rule set --------------------------------------------------------------


def test_the_preset_is_registered_and_passes_the_harness():
    assert xeri.find_rules("cassino") is CASSINO
    report = check_rules(CASSINO, games=10, rng=random.Random(1))
    assert report.games == 10
    assert report.rounds >= 10


def test_C7_a_count_out_order_naming_no_line_of_the_sheet_is_refused():
    with pytest.raises(xeri.RuleSetError, match=r"CountOut.order names 'majorty', not a line"):
        attrs.evolve(CASSINO, name="cassino-typo", match=xeri.CountOut(order=("majorty",)))


def test_C4_cassinos_builds_have_no_integer_actions_yet():
    with pytest.raises(xeri.RuleSetError, match="has no action encoding"):
        xeri.num_actions(CASSINO)

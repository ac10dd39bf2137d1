"""Scopa (clauses S1–S6 of the Scopa rules page) against the preset `xeri.SCOPA`.

Rounds are dealt from explicit decks through the public API:
`xeri.start(SCOPA, dealer=1)` and a `Deal` move. Seat 1 deals, so seat 0 gets
the first block of three cards and leads, seat 1 the next three, then four
go to the table (X3); the cards a test does not name follow in
`ITALIAN_DECK` order. Move lists are compared by their `str()`.
"""

# Test names carry the clause id (test_S3_...).

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

import attrs
import pytest

import xeri
from support import cards, check_last_collections, play_random_round, refused, two_seat_deck
from xeri import (
    ITALIAN_DECK,
    SCOPA,
    ArgumentError,
    Capture,
    Card,
    Combine,
    Deal,
    GameState,
    IllegalMoveError,
    Phase,
    Rank,
    Reshuffle,
    RoundResult,
    Suit,
    Take,
    Trail,
    XeriKind,
)
from xeri.testing import check_rules

C = Card.parse


def italian(*blocks: str) -> tuple[Card, ...]:
    """The named cards first, in order, then every other card of the deck in its order."""
    head = tuple(c for block in blocks for c in cards(block))
    assert len(set(head)) == len(head), "a card is named twice"
    return head + tuple(c for c in ITALIAN_DECK if c not in head)


def dealt(deck: Iterable[Card], rules: xeri.RuleSet = SCOPA) -> GameState:
    """The state after seat 1 deals `deck`: seat 0 leads."""
    return xeri.apply(xeri.start(rules, dealer=1), Deal(deck=tuple(deck)))


def game(hand0: str, hand1: str, table: str, *, rules: xeri.RuleSet = SCOPA) -> GameState:
    """A round in which seat 0 holds `hand0` and leads, seat 1 holds `hand1`."""
    assert len(hand0.split()) == len(hand1.split()) == 3
    assert len(table.split()) == 4
    return dealt(italian(hand0, hand1, table), rules)


def names(state: GameState) -> list[str]:
    return [str(m) for m in xeri.legal_moves(state)]


def take(card: str, items: str) -> Capture:
    return Capture(card=C(card), taken=cards(items))


def the_move(state: GameState, card: Card) -> xeri.PlayerMove:
    """The one legal move playing `card`."""
    moves = [m for m in xeri.legal_moves(state) if m.card == card]
    assert len(moves) == 1, moves
    return moves[0]


# A whole round in which every capture is made by a card of the same rank.
# Seat 0 takes A♣ and 3♣ from the initial table and seat 1 takes 2♣ and 4♣,
# which clears it: a scopa. From then on seat 0 lays a card free on the empty
# table and seat 1 takes it with the other card of its rank: a scopa every
# time, except with the round's last card (the dealer's K♠ on the K♥).
SWEEP_TABLE = "A♣ 2♣ 3♣ 4♣"
SWEEP_PLAYS = (
    "A♦ 2♦ 3♦ 4♦"
    " A♥ A♠ 2♥ 2♠ 3♥ 3♠ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣ 6♦ 6♥ 6♠"
    " 7♣ 7♦ 7♥ 7♠ J♣ J♦ J♥ J♠ Q♣ Q♦ Q♥ Q♠ K♣ K♦ K♥ K♠"
)


def sweep_round(rules: xeri.RuleSet = SCOPA) -> GameState:
    state = dealt(two_seat_deck(cards(SWEEP_PLAYS), cards(SWEEP_TABLE), ITALIAN_DECK), rules)
    for card in cards(SWEEP_PLAYS):
        state = xeri.apply(state, the_move(state, card))
    assert state.is_round_over or state.is_over
    return state


# --- S1: two players, the 40-card deck, values ---------------------------------


def test_S1_deck_has_40_cards_and_values():
    assert (SCOPA.seats, SCOPA.num_sides) == (2, 2)
    assert SCOPA.deck == ITALIAN_DECK
    assert len(ITALIAN_DECK) == len(set(ITALIAN_DECK)) == 40
    assert {c.rank for c in ITALIAN_DECK} == {r for r in Rank if r not in (8, 9, 10)}
    assert all(sum(c.suit is suit for c in ITALIAN_DECK) == 10 for suit in Suit)
    value = SCOPA.capture.value
    expected = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "J": 8, "Q": 9, "K": 10}
    for rank, v in expected.items():
        assert [value(C(rank + s)) for s in "♣♦♥♠"] == [v] * 4
    state = game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "4♣ 5♣ 6♣ 7♣")
    everything = state.hands[0] + state.hands[1] + state.table + state.stock
    assert sorted(everything) == list(ITALIAN_DECK)


def test_S1_a_deal_of_the_52_cards_or_a_card_outside_the_deck_is_refused():
    with pytest.raises(IllegalMoveError, match="40 cards"):
        xeri.apply(xeri.start(SCOPA), Deal(deck=xeri.DECK))
    with pytest.raises(ArgumentError, match="40 cards"):
        xeri.new_game(SCOPA, deck=xeri.DECK, dealer=0)
    state = game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "4♣ 5♣ 6♣ 7♣")
    refused(state, Trail(card=C("8♣")), "not in the hand")


def test_S1_pictures_have_values_and_take_sums():
    # J 8 = 3 + 5, Q 9 = 4 + 5, K 10 = 3 + 7; no card may be laid free (S3).
    state = game("J♥ Q♦ K♣", "A♦ 2♦ 2♥", "3♦ 7♣ 4♥ 5♠")
    assert names(state) == ["J♥ takes 3♦+5♠", "Q♦ takes 4♥+5♠", "K♣ takes 3♦+7♣"]
    state = xeri.apply(state, take("K♣", "3♦ 7♣"))
    assert state.table == cards("4♥ 5♠")
    assert state.takes[-1] == Take(seat=0, cards=cards("3♦ 7♣ K♣"), xeri=None, turn=0)


# --- S2: the deal, the redeal on three Kings, the dealer ------------------------


def test_S2_three_cards_each_four_on_the_table_six_deals():
    state = game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "4♣ 5♣ 6♣ 7♣")
    assert state.dealer == 1
    assert state.to_move == 0  # the player after the dealer leads
    assert state.hands == (cards("A♣ 2♣ 3♣"), cards("A♦ 2♦ 3♦"))
    assert state.table == cards("4♣ 5♣ 6♣ 7♣")  # side by side, in the order laid
    assert len(state.stock) == 30
    assert SCOPA.deals_per_round == 6
    deals, plays = 1, 0
    while not state.is_round_over:
        stock = len(state.stock)
        state = xeri.apply(state, xeri.legal_moves(state)[0])
        plays += 1
        if len(state.stock) < stock:
            deals += 1
            assert stock - len(state.stock) == 6
            assert [len(hand) for hand in state.hands] == [3, 3]
            assert state.to_move == 0
    assert (deals, plays) == (6, 36)


def test_S2_three_kings_redeal():
    state = game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "K♣ K♦ 5♠ K♥")
    assert state.phase is Phase.REDEAL
    assert state.is_chance
    assert state.to_move is None
    # The table goes back into the stock, which is shuffled; the new table is
    # laid from its top and the hands stay as dealt.
    new_table = cards("2♥ 7♦ K♠ J♥")
    pool = [*state.stock, *cards("K♣ K♦ 5♠ K♥")]
    stock = new_table + tuple(c for c in pool if c not in new_table)
    assert sorted(stock) == sorted(pool)
    after = xeri.apply(state, Reshuffle(stock=stock))
    assert after.phase is Phase.PLAY
    assert after.table == new_table
    assert after.stock == stock[4:]
    assert after.hands == state.hands
    assert after.to_move == 0
    # Three Kings laid again are dealt again; so are four.
    again = cards("K♣ K♦ K♠ 2♥")
    stock = again + tuple(c for c in pool if c not in again)
    assert xeri.apply(state, Reshuffle(stock=stock)).phase is Phase.REDEAL
    assert game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", "K♣ K♦ K♥ K♠").phase is Phase.REDEAL


def test_S2_two_kings_or_a_pair_on_the_table_stand():
    for table in ("K♣ 5♠ K♥ 4♦", "5♠ 5♦ 4♦ J♣", "J♣ 4♦ 5♠ J♦"):
        state = game("A♣ 2♣ 3♣", "A♦ 2♦ 3♦", table)
        assert state.phase is Phase.PLAY
        assert state.table == cards(table)


def test_S2_a_seeded_deal_redeals_until_fewer_than_three_kings():
    rng = random.Random(13)
    for _ in range(30):
        state = xeri.new_game(SCOPA, rng=rng)
        assert sum(c.rank is Rank.KING for c in state.table) < 3
        assert len(state.table) == 4


def test_S2_the_dealer_changes_every_round():
    rng = random.Random(5)
    state = xeri.new_game(SCOPA, rng=rng)
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


# --- S3: capture or lay free; an equal card first; no builds ---------------------


def test_S3_equal_card_taken_before_sum():
    state = game("7♦ 3♣ 6♠", "J♥ 2♥ 5♦", "3♦ 4♣ 7♣ A♠")
    assert names(state) == ["3♣ takes 3♦", "6♠ free", "7♦ takes 7♣"]
    refused(state, take("7♦", "3♦ 4♣"), r"must be taken alone, not a sum \(S3\)")
    after = xeri.apply(state, take("7♦", "7♣"))
    assert after.table == cards("3♦ 4♣ A♠")
    # Without a 7 on the table the sums are taken; one group at a time.
    state = game("7♦ Q♣ K♣", "J♥ 2♦ 5♦", "3♦ 4♣ 2♥ 5♠")
    assert [n for n in names(state) if n.startswith("7♦")] == ["7♦ takes 2♥+5♠", "7♦ takes 3♦+4♣"]
    refused(state, take("7♦", "2♥ 5♠ 3♦ 4♣"), "do not add up to 7")


def test_S3_either_equal_card_may_be_taken_and_pictures_too():
    state = game("7♦ K♦ A♣", "J♥ 2♦ 5♦", "7♣ 7♥ 3♦ K♠")
    assert names(state) == ["A♣ free", "7♦ takes 7♣", "7♦ takes 7♥", "K♦ takes K♠"]
    refused(state, take("K♦", "3♦ 7♣"), "must be taken alone")


def test_S3_card_that_can_capture_cannot_trail():
    state = game("7♦ 3♣ 6♠", "J♥ 2♥ 5♦", "3♦ 4♣ 7♣ A♠")
    refused(state, Trail(card=C("3♣")), r"3♣ can capture, so it may not be laid free \(S3\)")
    refused(state, Trail(card=C("7♦")), "may not be laid free")
    # Another card that captures nothing may still be laid free.
    after = xeri.apply(state, Trail(card=C("6♠")))
    assert after.table == cards("3♦ 4♣ 7♣ A♠ 6♠")
    assert after.takes == ()


def test_S3_a_hand_that_cannot_capture_lays_a_card_free():
    state = game("2♦ 2♥ K♣", "J♥ 2♠ 5♦", "Q♣ Q♦ Q♥ 7♣")
    assert names(state) == ["2♦ free", "2♥ free", "K♣ free"]


def test_S3_option_forced_capture_binds_the_player():
    forced = attrs.evolve(
        SCOPA, name="scopa-forced", capture=attrs.evolve(SCOPA.capture, forced_capture=True)
    )
    state = game("7♦ 3♣ 6♠", "J♥ 2♥ 5♦", "3♦ 4♣ 7♣ A♠", rules=forced)
    assert names(state) == ["3♣ takes 3♦", "7♦ takes 7♣"]
    refused(state, Trail(card=C("6♠")), "compulsory")


def test_S3_no_builds():
    state = game("2♦ 3♥ K♣", "J♥ 2♠ 5♦", "Q♣ Q♦ 4♥ 7♣")
    assert names(state) == ["2♦ free", "3♥ free", "K♣ free"]
    refused(state, Combine(card=C("3♥"), onto=C("4♥"), value=7), "no builds")
    # Over whole random rounds, no move is a combination and no build appears.
    rng = random.Random(2)
    for _ in range(5):
        state = xeri.new_game(SCOPA, rng=rng)
        while not state.is_round_over:
            moves = xeri.legal_moves(state)
            assert all(isinstance(m, Capture | Trail) for m in moves)
            assert all(isinstance(item, Card) for item in state.table)
            state = xeri.apply(state, rng.choice(moves))


# --- S4: a sweep (scopa) is 1 point, not with the last card ----------------------


def test_S4_sweep_scores_one_not_on_last_card():
    state = sweep_round()
    sweeps = [(t.seat, t.turn) for t in state.takes if t.xeri is not None]
    assert sweeps == [(1, 3)] + [(1, turn) for turn in range(5, 35, 2)]
    assert {t.xeri for t in state.takes if t.xeri is not None} == {XeriKind.XERI}
    # The dealer's K♠, the round's last card, clears the table: no scopa.
    assert state.takes[-1] == Take(seat=1, cards=cards("K♥ K♠"), xeri=None, turn=35)
    result = state.round_results[0]
    assert result.xeris == (0, 16)
    assert result.xeri_bonus == (0, 0)  # a scopa is scored on its own line only
    assert dict(result.categories)["scope"] == (0, 16)
    # With the last card allowed, the same round has a 17th scopa.
    last = attrs.evolve(SCOPA, name="scopa-last-card", xeri_on_last_card=True)
    result = sweep_round(last).round_results[0]
    assert dict(result.categories)["scope"] == (0, 17)
    assert result.total == (0, 21)


def test_S4_a_capture_that_leaves_a_card_is_no_scopa():
    state = game("5♦ 3♣ 6♠", "J♥ 2♥ 4♦", "3♦ 2♣ 7♣ A♠")
    state = xeri.apply(state, take("5♦", "3♦ 2♣"))
    assert state.takes[-1].xeri is None
    assert state.table == cards("7♣ A♠")
    state = xeri.apply(state, take("J♥", "7♣ A♠"))  # 8 = 7 + 1: the table is empty
    assert state.takes[-1].xeri is XeriKind.XERI


# --- S5: the last capture and the round's score sheet ----------------------------


def test_S5_last_capturer_takes_the_rest_not_a_scopa():
    assert check_last_collections(SCOPA, seed=8) >= 3


def test_S5_primiera_best_card_of_each_suit_added_up():
    sevens = cards("7♣ 7♦ 7♥ 7♠")
    rest = tuple(c for c in ITALIAN_DECK if c not in sevens)
    lines = dict(SCOPA.scorer.score((sevens, rest), ((), ()), SCOPA).categories)
    assert lines["primiera"] == (1, 0)  # 84 against 6s: 72
    # Seat 0 has 7, 6, A and 5 of three suits: 63, but no spade, so no primiera;
    # seat 1's 7♠ and three 4s make 21 + 3 × 14 = 63 and take the point.
    three = tuple(c for c in ITALIAN_DECK if c.suit is not Suit.SPADES and c.rank in (1, 5, 6, 7))
    other = tuple(c for c in ITALIAN_DECK if c not in three)
    assert dict(SCOPA.scorer.score((three, other), ((), ()), SCOPA).categories)["primiera"] == (
        0,
        1,
    )
    assert xeri.Primiera().award((three, other), ((), ()), SCOPA) == (0, 1)
    # 7♣ 7♦ 6♥ 6♠ against the rest: 21 + 21 + 18 + 18 = 78 each way, nobody.
    mixed = cards("7♣ 7♦ 6♥ 6♠")
    others = tuple(c for c in ITALIAN_DECK if c not in mixed)
    assert dict(SCOPA.scorer.score((mixed, others), ((), ()), SCOPA).categories)["primiera"] == (
        0,
        0,
    )
    assert dict(xeri.PRIMIERA_VALUES) == {
        Rank.SEVEN: 21,
        Rank.SIX: 18,
        Rank.ACE: 16,
        Rank.FIVE: 15,
        Rank.FOUR: 14,
        Rank.THREE: 13,
        Rank.TWO: 12,
        Rank.JACK: 10,
        Rank.QUEEN: 10,
        Rank.KING: 10,
    }


def test_S5_most_cards_most_coins_and_settebello():
    # 20–20 and 5–5: nobody scores either; the settebello goes to whoever took the 7♦.
    clubs = tuple(c for c in ITALIAN_DECK if c.suit is Suit.CLUBS)
    half = cards("A♦ 2♦ 3♦ 4♦ 7♦ A♥ 2♥ 3♥ 4♥ 5♥")
    side0 = clubs + half
    side1 = tuple(c for c in ITALIAN_DECK if c not in side0)
    result = SCOPA.scorer.score((side0, side1), ((), ()), SCOPA)
    assert result.cards == (20, 20)
    assert result.majority == (0, 0)
    lines = dict(result.categories)
    assert lines["most coins"] == (0, 0)
    assert lines["settebello"] == (1, 0)
    # One more card and one more coin: a point each.
    moved = C("5♦")
    result = SCOPA.scorer.score(
        ((*side0, moved), tuple(c for c in side1 if c != moved)), ((), ()), SCOPA
    )
    assert result.cards == (21, 19)
    assert result.majority == (1, 0)
    assert dict(result.categories)["most coins"] == (1, 0)
    assert result.card_points == (0, 0)  # no card is worth points by itself


def test_S5_round_lines_by_name():
    result = sweep_round().round_results[0]
    assert isinstance(result, RoundResult)
    assert [name for name, _ in result.categories] == [
        "most coins",
        "settebello",
        "primiera",
        "scope",
    ]
    assert result.sheet == (
        ("card points", (0, 0)),
        ("majority", (0, 1)),
        ("xeri bonus", (0, 0)),
        ("most coins", (0, 1)),
        ("settebello", (0, 1)),
        ("primiera", (0, 1)),  # seat 0 took no heart and no spade
        ("scope", (0, 16)),
    )
    assert result.cards == (4, 36)
    assert result.total == (0, 20)
    assert result.total == tuple(map(sum, zip(*(row for _, row in result.sheet), strict=True)))


def test_S5_a_round_without_scope_is_worth_at_most_four():
    rng = random.Random(21)
    for _ in range(8):
        result = play_random_round(xeri.new_game(SCOPA, rng=rng), rng).round_results[0]
        lines = dict(result.categories)
        assert sum(lines["settebello"]) == 1
        rest = sum(result.total) - sum(lines["scope"])
        ties = (
            (sum(result.majority) == 0)
            + (sum(lines["most coins"]) == 0)
            + (sum(lines["primiera"]) == 0)
        )
        assert rest == 4 - ties


# --- S6: the game to 11 ----------------------------------------------------------


def _rounds(*totals: tuple[int, int]) -> tuple[RoundResult, ...]:
    return tuple(
        RoundResult(
            cards=(20, 20),
            card_points=(0, 0),
            majority=(0, 0),
            xeris=(0, 0),
            xeri_bonus=(0, 0),
            total=total,
        )
        for total in totals
    )


def _status(*totals: tuple[int, int]) -> tuple[bool, int | None]:
    status = SCOPA.match.status(_rounds(*totals), 2)
    assert status.target == 11
    return status.over, status.winner


def test_S6_game_to_11_the_higher_total_on_a_shared_crossing():
    assert _status() == (False, None)
    assert _status((4, 1), (3, 2), (3, 4)) == (False, None)  # 10 to 7
    assert _status((4, 1), (3, 2), (4, 4)) == (True, 0)  # 11 to 7
    assert _status((9, 9), (2, 4)) == (True, 1)  # both pass 11: 13 to 11
    assert _status((9, 9), (3, 3)) == (False, None)  # 12 to 12: another round
    assert _status((9, 9), (3, 3), (1, 2)) == (True, 1)
    assert _status((9, 9), (3, 3), (2, 2)) == (False, None)


def test_S6_a_round_past_11_ends_the_match():
    state = sweep_round()
    assert state.is_over
    assert state.scores == (0, 20)
    assert state.winner == 1


def test_S6_seeded_matches_are_played_to_11():
    rng = random.Random(11)
    for _ in range(3):
        state = xeri.new_game(SCOPA, rng=rng)
        while not state.is_over:
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
            else:
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        winner = state.winner
        assert winner is not None
        assert state.scores[winner] >= 11
        assert state.scores[winner] > state.scores[1 - winner]
        results = state.round_results
        for k in range(1, len(results)):
            scores = [sum(r.total[s] for r in results[:k]) for s in (0, 1)]
            assert max(scores) < 11 or scores[0] == scores[1]


# --- the whole rule set -----------------------------------------------------------


def test_the_preset_is_registered_and_passes_the_harness():
    assert xeri.find_rules("scopa") is SCOPA
    report = check_rules(SCOPA, games=20, rng=random.Random(1))
    assert report.games == 20
    assert report.rounds >= 20


def test_S1_scopas_integer_actions_are_numbered_by_its_values():
    # The same layout as German Xeri's, numbered for Scopa's values: a King (10)
    # may take a 6 and a 4; every legal move has its own action and comes back.
    assert xeri.num_actions(SCOPA) == 18_308
    state = game("K♣ A♠ 2♠", "4♣ 5♣ 6♣", "6♦ 4♦ 5♥ 3♥")
    take = xeri.parse_move(state, "K♣ takes 6♦+4♦")
    assert xeri.action_to_move(state, xeri.move_to_action(state, take)) == take
    rng = random.Random(5)
    for _ in range(5):
        state = xeri.new_game(SCOPA, rng=rng)
        while not state.is_round_over:
            actions = xeri.legal_actions(state)
            moves = xeri.legal_moves(state)
            assert sorted(xeri.action_to_move(state, a) for a in actions) == sorted(moves)
            state = xeri.apply(state, xeri.action_to_move(state, rng.choice(actions)))

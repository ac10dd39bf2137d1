"""Turkish Pişti (clauses P1–P5 of the Pişti rules page) against the preset `xeri.PISTI`.

Rounds are dealt from explicit decks (X3): `support.deal` lays out the first
hands and the initial pile, `support.script_deck` a whole round from the
cards in the order they are played. Seat 0 deals, so seat 1 leads every
deal; the initial pile is three cards face down under the fourth.
"""

# Test names carry the clause id (test_P3_...).

from __future__ import annotations

import doctest
import random
from pathlib import Path

import attrs
import pytest

import xeri
from support import EVEN, REST, TIE, TIE_TABLE, cards, collect, deal, play, script_deck
from xeri import PISTI, Card, GameState, Phase, Rank, Take, XeriKind
from xeri.testing import check_rules

C = Card.parse
GUIDE = Path(__file__).resolve().parent.parent / "docs" / "custom-rules.md"
TABLE = "2♦ 3♦ K♦ 4♣"  # 4♣ face up on three face-down cards


def dealt(hand1: str, hand0: str, table: str = TABLE) -> GameState:
    """Seat 0 deals: seat 1 holds `hand1` and leads, seat 0 holds `hand0`."""
    deck = deal(PISTI, dealer=0, hands={1: cards(hand1), 0: cards(hand0)}, table=cards(table))
    return xeri.new_game(PISTI, deck=deck, dealer=0)


def scripted(*plays: object, table: str = TABLE) -> tuple[GameState, tuple[Card, ...]]:
    """The round scripted by `plays` (see `support.script_deck`), dealt, and its plays."""
    deck = script_deck(cards(table), plays, rules=PISTI, dealer=0)
    return xeri.new_game(PISTI, deck=deck, dealer=0), collect(deck, PISTI, 0)


def finish(state: GameState, plays: tuple[Card, ...]) -> GameState:
    state = play(state, *plays[len(state.history) :])
    assert state.is_round_over
    return state


# --- P1: pile play as in Greek Xeri ----------------------------------------------


def test_P1_pile_play_top_rank_or_a_jack_takes_the_pile():
    assert PISTI.capture == xeri.GREEK.capture == xeri.PileCapture()
    assert (PISTI.seats, len(PISTI.deck)) == (2, 52)
    state = dealt("4♥ J♠ 9♣ Q♥", "5♥ 9♠ 8♠ 2♠")
    assert state.to_move == 1
    # The 4♥ takes the whole initial pile by its top card, face-down cards included.
    state = play(state, "4♥")
    assert state.takes[-1] == Take(seat=1, cards=(*cards(TABLE), C("4♥")), xeri=None, turn=0)
    # On the empty pile the 5♥ takes nothing; the J♠ then takes it, a lone card
    # of another rank: an ordinary capture.
    state = play(state, "5♥")
    assert state.table == (C("5♥"),)
    state = play(state, "J♠")
    assert state.takes[-1] == Take(seat=1, cards=cards("5♥ J♠"), xeri=None, turn=2)
    # Only the top card is matched: the 9♣ on the 8♠ does not take the 9♠ below.
    state = play(state, "9♠", "Q♥", "8♠", "9♣")
    assert state.table == cards("9♠ Q♥ 8♠ 9♣")
    assert len(state.takes) == 2


def test_P1_the_last_capturer_takes_the_rest_and_the_dealer_changes():
    # Seat 1's J♣ (play 44) is the round's last capture; the 5♠, 2♠ and the
    # dealer's 5♦ (play 47, on the 2♠) are left on the pile and go to seat 1.
    state, plays = scripted("J♦", "J♥", "J♠", REST, "J♣", "5♠", "2♠", "5♦")
    state = finish(state, plays)
    assert state.takes[-2].cards[-1] == C("J♣")
    assert (state.takes[-2].seat, state.takes[-2].turn) == (1, 44)
    last = state.takes[-1]
    assert (last.seat, last.turn, last.xeri) == (1, None, None)
    assert last.cards == cards("5♠ 2♠ 5♦")
    assert state.dealer == 0
    state = xeri.apply(state, xeri.chance_move(state, random.Random(1)))
    assert state.phase is Phase.PLAY
    assert (state.dealer, state.to_move) == (1, 0)


# --- P2: hands of four -------------------------------------------------------------


def test_P2_hands_of_four_six_deals_a_round():
    assert PISTI.hand_size == 4
    assert PISTI.deals_per_round == 6
    state = dealt("4♥ J♠ 9♣ Q♥", "5♥ 9♠ 8♠ 2♠")
    assert state.hands == (cards("2♠ 5♥ 8♠ 9♠"), cards("4♥ 9♣ J♠ Q♥"))
    assert len(state.stock) == 40
    deals, plays = 1, 0
    while not state.is_round_over:
        before = len(state.stock)
        state = xeri.apply(state, xeri.legal_moves(state)[0])
        plays += 1
        if len(state.stock) < before:
            deals += 1
            assert before - len(state.stock) == 8
            assert [len(hand) for hand in state.hands] == [4, 4]
            assert state.to_move == 1
    assert (deals, plays) == (6, 48)


# --- P3: three face-down cards under the first pile ---------------------------------


def test_P3_face_down_cards_hidden_until_captured_then_seen_by_the_capturer():
    assert (PISTI.table_size, PISTI.face_down) == (4, 3)
    state = dealt("4♥ J♠ 9♣ Q♥", "5♥ 9♠ 8♠ 2♠")
    assert state.table == cards(TABLE)
    for seat in (0, 1):
        seen = xeri.observe(state, seat)
        assert (seen.face_down, seen.table) == (3, (C("4♣"),))
        for hidden in cards("2♦ 3♦ K♦"):
            assert str(hidden) not in repr(seen)
    state = play(state, "4♥")
    capturer, other = xeri.observe(state, 1), xeri.observe(state, 0)
    assert capturer.takes[0].cards == (*cards(TABLE), C("4♥"))
    assert capturer.takes[0].hidden == 0
    assert other.takes[0].cards == cards("4♣ 4♥")
    assert other.takes[0].hidden == 3
    assert capturer.captured_counts == other.captured_counts == (0, 5)


def test_P3_the_initial_pile_is_never_dealt_again():
    assert PISTI.redeal is xeri.Redeal.NEVER
    for table in ("2♦ 3♦ K♦ J♣", "2♦ 3♦ 4♥ 4♣", "4♦ 4♥ 4♠ 4♣"):
        state = dealt("A♥ A♠ 9♣ Q♥", "5♥ 9♠ 8♠ 2♠", table)
        assert state.phase is Phase.PLAY
        assert state.table == cards(table)


# --- P4: the pişti -------------------------------------------------------------------


def test_P4_pisti_10_and_jack_on_jack_20():
    state = dealt("J♦ 5♠ J♠ Q♥", "5♥ 8♠ J♣ 2♠")
    state = play(state, "J♦")  # sweeps a pile of four: no pişti
    assert state.takes[-1].xeri is None
    state = play(state, "5♥", "5♠", "J♣", "J♠")
    assert [(t.turn, t.xeri) for t in state.takes] == [
        (0, None),
        (2, XeriKind.XERI),
        (4, XeriKind.JACK_XERI),
    ]
    assert (PISTI.xeri_points, PISTI.jack_xeri_points) == (10, 20)


def test_P4_no_pisti_with_the_last_card():
    # J♦ sweeps the initial pile; J♥ on the empty pile; J♠ takes it: a Jack
    # pişti. At the end J♣ sweeps, the 5♠ is left alone, and the dealer's 5♦,
    # the round's last card, takes it without a pişti.
    deck = script_deck(cards(TABLE), ("J♦", "J♥", "J♠", REST, "J♣", "5♠", "5♦"), rules=PISTI)
    plays = collect(deck, PISTI, 0)
    state = finish(xeri.new_game(PISTI, deck=deck, dealer=0), plays)
    assert [(t.turn, t.xeri) for t in state.takes if t.xeri is not None] == [
        (2, XeriKind.JACK_XERI)
    ]
    assert state.takes[-1] == Take(seat=0, cards=cards("5♠ 5♦"), xeri=None, turn=47)
    assert state.round_results[-1].xeri_bonus == (0, 20)
    # The same round with the last card allowed makes a second pişti there.
    last = attrs.evolve(PISTI, name="pisti-last-card", xeri_on_last_card=True)
    state = finish(xeri.new_game(last, deck=deck, dealer=0), plays)
    assert state.round_results[-1].xeri_bonus == (10, 20)


def test_P4_no_pisti_with_the_first_card():
    assert PISTI.xeri_on_first_card is False
    # A four-card pile never leaves the first card a lone card; on a one-card
    # table (three seats, hands of one) the flag decides.
    lone = attrs.evolve(
        PISTI, name="pisti-lone", seats=3, sides=(0, 1, 2), hand_size=1, table_size=1, face_down=0
    )
    deck = cards("7♥ 8♥ 9♥ 7♣")
    deck += tuple(c for c in xeri.DECK if c not in deck)
    state = xeri.apply(xeri.new_game(lone, deck=deck, dealer=2), C("7♥"))
    assert state.takes[-1] == Take(seat=0, cards=cards("7♣ 7♥"), xeri=None, turn=0)
    allowed = attrs.evolve(lone, name="pisti-lone-first", xeri_on_first_card=True)
    state = xeri.apply(xeri.new_game(allowed, deck=deck, dealer=2), C("7♥"))
    assert state.takes[-1].xeri is XeriKind.XERI


# --- P5: scoring and the game to 151 ---------------------------------------------------


def test_P5_points_jacks_aces_two_of_clubs_ten_of_diamonds():
    points = PISTI.card_points
    assert points == xeri.PISTI_POINTS
    for card in xeri.DECK:
        expected = {"2♣": 2, "10♦": 3}.get(str(card), int(card.rank in (Rank.JACK, Rank.ACE)))
        assert points.points(card) == expected, card
    assert points.total == 13
    assert PISTI.majority_points == 3


def test_P5_a_round_without_pisti_is_16_or_13_at_26_26():
    state, plays = scripted("J♦", "J♥", "J♠", REST, "J♣", "5♠", "5♦")
    result = finish(state, plays).round_results[-1]
    # Seat 1 took the initial pile with J♦ and J♥ with J♠: 7 cards, three Jacks.
    assert result.cards == (45, 7)
    assert result.card_points == (1 + 4 + 2 + 3, 3)
    assert result.majority == (3, 0)
    assert result.total == (13, 23)
    assert sum(result.base) == 16
    for script in (TIE, EVEN):
        state, plays = scripted(*script, table=TIE_TABLE)
        result = finish(state, plays).round_results[-1]
        assert result.cards == (26, 26)
        assert result.majority == (0, 0)
        assert sum(result.total) == 13


def test_P5_game_to_151_the_target_rises_on_a_shared_crossing():
    assert PISTI.match == xeri.TargetScore(target=151)

    def status(*totals: tuple[int, int]) -> tuple[bool, int | None, int | None]:
        results = tuple(
            xeri.RoundResult(
                cards=(26, 26),
                card_points=total,
                majority=(0, 0),
                xeris=(0, 0),
                xeri_bonus=(0, 0),
                total=total,
            )
            for total in totals
        )
        s = PISTI.match.status(results, 2)
        return s.over, s.winner, s.target

    assert status((150, 100)) == (False, None, 151)
    assert status((150, 100), (1, 0)) == (True, 0, 151)
    assert status((140, 140), (20, 30)) == (False, None, 251)
    assert status((140, 140), (20, 30), (0, 100)) == (True, 1, 251)


# --- the guide and the harness -----------------------------------------------------------


def _guide_pisti() -> xeri.RuleSet:
    """The rule set the custom rule sets guide builds, its examples run up to `PISTI`."""
    namespace: dict[str, object] = {}
    for example in doctest.DocTestParser().get_examples(GUIDE.read_text(encoding="utf-8")):
        if example.exc_msg is None:
            exec(compile(example.source, str(GUIDE), "single"), namespace)
        rules = namespace.get("PISTI")
        if isinstance(rules, xeri.RuleSet):
            return rules
    pytest.fail("the guide defines no PISTI")


def test_the_guides_rule_set_is_the_preset():
    assert _guide_pisti() == PISTI
    assert xeri.find_rules("pisti") is PISTI


def test_the_preset_passes_the_harness():
    report = check_rules(PISTI, games=20, rng=random.Random(1))
    assert report.games == 20
    assert report.rounds >= 20

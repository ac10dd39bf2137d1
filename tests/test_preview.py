"""`xeri.preview`: what a move takes and is worth, before it is made (G6, G7, G10, D3, D6, D8).

A preview must agree with what `apply` then does, on a state and on the
mover's observation, and must count face-down cards (P3) without naming them.
"""

from __future__ import annotations

import random

import attrs
import pytest

import xeri
from edge_games import PISTI, all_rules, states
from support import LAST_XERI, LAST_XERI_TABLE, TABLE, cards, collect, deal, play, script_deck
from xeri import (
    GERMAN,
    GREEK,
    ArgumentError,
    Capture,
    Card,
    IllegalMoveError,
    Trail,
    XeriKind,
    observe,
    preview,
)


def greek(hands: dict[int, str], table: str = TABLE, plays: str = "") -> xeri.GameState:
    """A Greek state dealt by dealer 0 with these hands and table, then these cards played."""
    deck = deal(GREEK, dealer=0, hands={s: cards(h) for s, h in hands.items()}, table=cards(table))
    return play(xeri.new_game(GREEK, deck=deck, dealer=0), *plays.split())


def german(hand: str, table: str, rules: xeri.RuleSet = GERMAN) -> xeri.GameState:
    """A German state dealt by dealer 0: seat 1 holds `hand` and plays first on `table`."""
    deck = deal(rules, dealer=0, hands={1: cards(hand)}, table=cards(table))
    return xeri.new_game(rules, deck=deck, dealer=0)


def capture(state: xeri.GameState, card: str, taken: str) -> Capture:
    """The legal capture playing `card` that takes `taken`."""
    move = Capture(card=Card.parse(card), taken=cards(taken))
    assert move in xeri.legal_moves(state)
    return move


# --------------------------------------------------------------------------
# Greek Xeri


def test_G6_a_card_of_the_top_rank_takes_the_whole_pile():
    state = greek({1: "5♦ J♣ 8♣"}, table="3♣ 10♦ 6♥ 5♠")
    seen = preview(state, Card.parse("5♦"))
    assert seen.move == Card.parse("5♦")
    assert seen.taken == cards("3♣ 10♦ 6♥ 5♠ 5♦")
    assert seen.xeri is None
    assert seen.points == 2  # the 10♦ (G10)
    assert (seen.count, seen.hidden) == (5, 0)


def test_G6_a_jack_sweeps_the_pile():
    state = greek({1: "5♦ J♣ 8♣"}, table="3♣ 10♦ 6♥ 5♠")
    seen = preview(state, Card.parse("J♣"))
    assert seen.taken == cards("3♣ 10♦ 6♥ 5♠ J♣")
    assert seen.xeri is None
    assert seen.points == 3  # the 10♦ and the Jack
    assert seen.count == 5


def test_G6_a_card_that_takes_nothing_is_previewed_as_taking_nothing():
    state = greek({1: "5♦ J♣ 8♣"}, table="3♣ 10♦ 6♥ 5♠")
    seen = preview(state, Card.parse("8♣"))
    assert seen == xeri.Preview(move=Card.parse("8♣"), taken=None)
    assert (seen.points, seen.count, seen.hidden, seen.xeri) == (0, 0, 0, None)


def test_G6_a_jack_on_an_empty_pile_takes_nothing():
    state = greek({0: "J♥", 1: "5♦"}, plays="5♦")
    assert state.table == ()
    seen = preview(state, Card.parse("J♥"))
    assert seen.taken is None
    assert seen.points == 0


def test_G12_a_lone_10_of_diamonds_taken_by_a_10_is_a_xeri_worth_13():
    state = greek({0: "10♦", 1: "5♦ 10♠ J♠"}, plays="5♦ 10♦")
    assert state.table == cards("10♦")
    seen = preview(state, Card.parse("10♠"))
    assert seen.taken == cards("10♦ 10♠")
    assert seen.xeri is XeriKind.XERI
    assert seen.points == 13


def test_G12_a_lone_10_of_diamonds_taken_by_a_jack_is_no_xeri():
    state = greek({0: "10♦", 1: "5♦ 10♠ J♠"}, plays="5♦ 10♦")
    seen = preview(state, Card.parse("J♠"))
    assert seen.taken == cards("10♦ J♠")
    assert seen.xeri is None
    assert seen.points == 3


def test_G7_a_jack_on_a_lone_jack_is_a_jack_xeri_worth_20():
    state = greek({0: "J♥", 1: "5♦ J♣"}, plays="5♦ J♥")
    seen = preview(state, Card.parse("J♣"))
    assert seen.taken == cards("J♥ J♣")
    assert seen.xeri is XeriKind.JACK_XERI
    assert seen.points == 22


def test_V4_the_jack_xeri_bonus_comes_from_the_rule_set():
    rules = attrs.evolve(GREEK, name="greek-v4-preview", jack_xeri_points=25)
    state = greek({0: "J♥", 1: "5♦ J♣"}, plays="5♦ J♥")
    state = attrs.evolve(state, rules=rules)
    assert preview(state, Card.parse("J♣")).points == 27


def test_V3_the_dealers_last_card_makes_no_xeri_when_the_option_is_off():
    deck = script_deck(cards(LAST_XERI_TABLE), LAST_XERI)
    plays = collect(deck)
    last = plays[-1]
    assert last == Card.parse("9♣")
    on = attrs.evolve(GREEK, name="greek-v3-preview", xeri_on_last_card=False)
    for rules, kind, points in ((GREEK, XeriKind.XERI, 10), (on, None, 0)):
        state = play(xeri.new_game(rules, deck=deck, dealer=0), *plays[:-1])
        assert state.to_move == state.dealer == 0
        assert not state.stock
        assert state.table == cards("9♦")
        for view in (state, observe(state, 0)):
            seen = preview(view, last)
            assert seen.taken == cards("9♦ 9♣")
            assert seen.xeri is kind
            assert seen.points == points
        after = xeri.apply(state, last)
        assert after.takes[-1].xeri is kind


# --------------------------------------------------------------------------
# German Xeri


def test_D3_a_sum_capture_takes_its_group_and_scores_its_cards():
    state = german("10♣ K♠ Q♦ K♦ Q♠ 8♥", "A♣ 2♦ 3♥ 4♠")
    seen = preview(state, capture(state, "8♥", "A♣ 3♥ 4♠"))
    assert seen.taken == cards("A♣ 3♥ 4♠ 8♥")
    assert seen.xeri is None
    assert seen.points == 1  # the A♣ (D8)
    assert seen.count == 4


def test_D6_a_capture_that_clears_the_table_is_a_xeri():
    state = german("10♣ K♠ Q♦ K♦ Q♠ 8♥", "A♣ 2♦ 3♥ 4♠")
    seen = preview(state, capture(state, "10♣", "A♣ 2♦ 3♥ 4♠"))
    assert seen.taken == cards("A♣ 2♦ 3♥ 4♠ 10♣")
    assert seen.xeri is XeriKind.XERI
    assert seen.points == 11  # the A♣ and the xeri (D6, D8)


def test_D8_the_10_of_diamonds_is_worth_2():
    state = german("10♣ K♠ Q♦ K♦ Q♠ 8♥", "10♦ 2♦ 3♥ 4♠")
    seen = preview(state, capture(state, "10♣", "10♦"))
    assert seen.taken == cards("10♦ 10♣")
    assert seen.points == 2


def test_D3_a_build_or_a_free_card_takes_nothing():
    state = german("10♣ K♠ Q♦ K♦ Q♠ 8♥", "A♣ 2♦ 3♥ 4♠")
    build = xeri.Combine(card=Card.parse("8♥"), onto=Card.parse("2♦"), value=10)
    assert build in xeri.legal_moves(state)
    for move in (build, Trail(card=Card.parse("K♠"))):
        seen = preview(state, move)
        assert seen.taken is None
        assert (seen.points, seen.count) == (0, 0)


def test_P4_no_xeri_on_the_first_card_when_the_option_is_off():
    rules = attrs.evolve(GERMAN, name="german-p4-preview", xeri_on_first_card=False)
    state = german("10♣ K♠ Q♦ K♦ Q♠ 8♥", "A♣ 2♦ 3♥ 4♠", rules=rules)
    assert not state.history
    move = capture(state, "10♣", "A♣ 2♦ 3♥ 4♠")
    for view in (state, observe(state, 1)):
        seen = preview(view, move)
        assert seen.taken == cards("A♣ 2♦ 3♥ 4♠ 10♣")
        assert seen.xeri is None
        assert seen.points == 1
    assert xeri.apply(state, move).takes[-1].xeri is None


# --------------------------------------------------------------------------
# Agreement with apply, on states and on observations


def _made(state: xeri.GameState, move: xeri.PlayerMove) -> xeri.Take | None:
    """The capture `move` makes when applied, or None."""
    turn = len(state.history)
    after = xeri.apply(state, move)
    made = [t for t in after.takes if t.turn == turn]
    return made[0] if made else None


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_G10_D8_a_preview_is_what_apply_takes_and_scores(rules):
    for state in states(rules, 4, rounds=1, every=2):
        if state.to_move is None:
            continue
        for move in xeri.legal_moves(state):
            seen = preview(state, move)
            take = _made(state, move)
            if take is None:
                assert seen.taken is None
                assert seen.points == 0
                continue
            assert seen.taken == take.cards
            assert seen.hidden == 0
            assert seen.xeri is take.xeri
            bonus = {None: 0, XeriKind.XERI: rules.xeri_points}
            bonus[XeriKind.JACK_XERI] = rules.jack_xeri_points
            made = ((take.xeri,) if take.xeri else (),)
            lines = sum(  # the categories known at once (Scopa, Cassino); none in Xeri
                c.award((take.cards,), made, rules)[0]
                for c in rules.categories
                if getattr(c, "additive", False)
            )
            assert seen.points == rules.card_points.count(take.cards) + bonus[take.xeri] + lines


@pytest.mark.parametrize("rules", all_rules(), ids=lambda r: r.name)
def test_X2_the_movers_observation_previews_as_the_state_does(rules):
    for state in states(rules, 5, rounds=1, every=2):
        mover = state.to_move
        if mover is None:
            continue
        seen = observe(state, mover)
        for move in xeri.legal_moves(seen):
            full, mine = preview(state, move), preview(seen, move)
            if not seen.face_down:
                assert mine == full
            else:  # P3: the face-down cards are counted, not shown
                assert mine.count == full.count
                assert mine.xeri is full.xeri


# --------------------------------------------------------------------------
# Face-down cards (P3)


def _pisti_capture(rules: xeri.RuleSet) -> tuple[xeri.GameState, Card]:
    """A round's first state with face-down cards, and a card of the mover's that takes the pile."""
    for seed in range(200):
        state = xeri.new_game(rules, dealer=0, rng=random.Random(seed))
        top = state.table[-1]
        for card in xeri.legal_moves(state):
            if card.rank is top.rank:  # type: ignore[union-attr]  # pile moves are cards
                return state, card  # type: ignore[return-value]  # a card, as above
    raise AssertionError("no capture of the initial pile found")  # pragma: no cover


def test_P3_face_down_cards_taken_are_counted_as_hidden_on_an_observation():
    state, card = _pisti_capture(PISTI)
    down, shown = state.table[:3], state.table[3:]
    seen = observe(state, state.to_move)
    assert seen.face_down == 3
    mine = preview(seen, card)
    assert mine.taken == (*shown, card)
    assert mine.hidden == 3
    assert mine.count == 5
    assert mine.points == PISTI.card_points.count(mine.taken)
    assert not set(down) & set(mine.taken)
    full = preview(state, card)
    assert full.taken == (*down, *shown, card)
    assert full.hidden == 0
    assert full.count == 5
    assert full.points == PISTI.card_points.count(full.taken)


def test_P3_a_pile_over_face_down_cards_is_no_lone_card_for_a_xeri():
    # With a xeri allowed on the first card, a card taking the one face-up
    # card over three face-down ones takes four cards: no xeri (G7), as
    # apply says. The observation must not preview one.
    rules = attrs.evolve(PISTI, name="pisti-first-xeri", xeri_on_first_card=True)
    state, card = _pisti_capture(rules)
    assert xeri.apply(state, card).takes[-1].xeri is None
    assert preview(state, card).xeri is None
    seen = preview(observe(state, state.to_move), card)
    assert seen.xeri is None
    assert seen.points == rules.card_points.count(seen.taken or ())


# --------------------------------------------------------------------------
# Errors


def test_X5_an_illegal_move_is_refused():
    state = greek({1: "5♦ J♣ 8♣"})
    not_held = next(c for c in xeri.DECK if c not in state.hands[1])
    for view in (state, observe(state, 1)):
        with pytest.raises(IllegalMoveError, match="not a legal move of seat 1"):
            preview(view, not_held)
    with pytest.raises(IllegalMoveError, match="not a legal move"):
        preview(state, Trail(card=Card.parse("5♦")))  # not a move of a pile game


def test_X2_the_observation_of_a_seat_not_to_move_is_refused():
    state = greek({0: "10♦", 1: "5♦"})
    assert state.to_move == 1
    with pytest.raises(IllegalMoveError, match="seat 0 is not to move: seat 1 is"):
        preview(observe(state, 0), Card.parse("10♦"))


def test_a_state_where_nobody_is_to_move_is_refused():
    with pytest.raises(IllegalMoveError, match="nobody is to move"):
        preview(xeri.start(GREEK), Card.parse("5♦"))


@pytest.mark.parametrize("view", [None, "greek", {"hand": ()}, GREEK])
def test_anything_but_a_state_or_an_observation_is_refused(view):
    with pytest.raises(ArgumentError, match="needs a GameState or an Observation"):
        preview(view, Card.parse("5♦"))  # type: ignore[arg-type]


def test_preview_counts_the_additive_categories_of_a_capture():
    # SCOPA scores its cards and sweeps by categories: the settebello (NamedPoints)
    # and the scope (Sweeps) are known the moment the capture is made; most coins
    # and the primiera are decided at the end of the round and not counted.
    parse = xeri.Card.parse
    top = [parse(c) for c in ("K♣", "A♠", "2♠", "4♣", "5♣", "6♣", "7♦", "A♥", "2♥", "5♥")]
    deck = tuple(top + [c for c in xeri.ITALIAN_DECK if c not in top])
    state = xeri.apply(xeri.start(xeri.SCOPA, dealer=1), xeri.Deal(deck=deck))
    take = xeri.Capture(card=parse("K♣"), taken=(parse("7♦"), parse("A♥"), parse("2♥")))
    assert take in xeri.legal_moves(state)
    seen = xeri.preview(state, take)
    assert (seen.points, seen.xeri) == (1, None)  # the settebello alone
    ace = xeri.Capture(card=parse("A♠"), taken=(parse("A♥"),))
    assert xeri.preview(state, ace).points == 0  # no settebello, no sweep

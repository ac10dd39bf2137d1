"""Properties of reachable games, checked after every move.

Decks come from `st.permutations(DECK)`, initial-pile reshuffles likewise,
and every player's move is drawn from `legal_moves`. The rule sets are the
two presets, each option of clauses V1–V5 on alone, and all of them on
together. Each round is also replayed on a small reference model of the
pile (G6, G7, G9) and scored independently (G10), so the checks do not
rest on the library's own bookkeeping.
"""

from __future__ import annotations

import copy
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

import xeri
from support import play_match, points, rr
from xeri import (
    DECK,
    GREEK,
    GREEK_FOUR,
    Card,
    Deal,
    IllegalMoveError,
    Phase,
    Rank,
    Redeal,
    Reshuffle,
    Take,
    TargetScore,
    XeriKind,
)


def _rule_sets():
    options = {
        "v1": {"show_bottom_card": True},
        "v2": {"redeal": Redeal.NEVER},
        "v3": {"xeri_on_last_card": False},
        "v4": {"jack_xeri_points": 25},
    }
    out = []
    for base in (GREEK, GREEK_FOUR):
        out.append(base)
        base_options = dict(options)
        if base is GREEK_FOUR:
            base_options["v5"] = {"match": TargetScore(target=151, step=100)}
        out.extend(
            attrs.evolve(base, name=f"{base.name}-{k}", **v) for k, v in base_options.items()
        )
        every = {k: v for change in base_options.values() for k, v in change.items()}
        out.append(attrs.evolve(base, name=f"{base.name}-all", **every))
    return out


RULE_SETS = _rule_sets()
EACH_RULE_SET = pytest.mark.parametrize("rules", RULE_SETS, ids=[r.name for r in RULE_SETS])


def slow(examples):
    """Settings for examples that play whole rounds.

    A round is some 50 moves drawn one by one, each checked several ways:
    the examples are slow by design, so the deadline and the too-slow
    health check would only add noise.
    """
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


# --- the checks made on every state ------------------------------------------------------------


def all_cards(state):
    table = state.rules.capture.table_cards(state.table)
    taken = [c for take in state.takes for c in take.cards]
    return [*(c for hand in state.hands for c in hand), *table, *state.stock, *taken]


def check_state(state):
    """Invariants that hold in every reachable state."""
    if state.phase is not Phase.DEAL:
        assert sorted(all_cards(state)) == list(DECK)
    moves = xeri.legal_moves(state)
    assert list(moves) == sorted(moves)
    assert len(set(moves)) == len(moves)
    assert (moves == ()) is (state.is_chance or state.is_over)
    assert (state.to_move is None) is (state.is_chance or state.is_over)
    if moves:
        assert moves == state.hands[state.to_move]
    assert (state.winner is not None) <= state.is_over
    bottom = state.bottom_card
    assert (bottom is not None) is (state.rules.show_bottom_card and state.phase is not Phase.DEAL)
    if bottom is not None:
        assert bottom.rank is not Rank.JACK
        if state.stock:
            assert state.stock[-1] is bottom


def refused(state, move, seat=None):
    with pytest.raises(IllegalMoveError):
        xeri.apply(state, move, seat=seat)


def try_illegal_moves(state):
    """Moves X5 refuses here: a card not held, a move out of turn, a player's move for chance."""
    n = state.rules.seats
    if state.to_move is not None:
        hand = state.hands[state.to_move]
        refused(state, next(c for c in DECK if c not in hand))
        refused(state, hand[0], seat=(state.to_move + 1) % n)
    else:
        refused(state, DECK[0])
        refused(state, DECK[0], seat=0)
    if state.is_over:
        refused(state, Deal(deck=DECK))


def step(state, move):
    """`apply`, checked: the input never changes, equal inputs give equal outputs."""
    before = copy.deepcopy(state)
    text = repr(state)
    try_illegal_moves(state)
    assert state == before
    after = xeri.apply(state, move)
    assert state == before
    assert repr(state) == text
    assert xeri.apply(before, move) == after
    check_state(after)
    return after


# --- a reference model of one round ------------------------------------------------------------


class PileModel:
    """G6, G7 and G9 written out plainly, to replay a round beside the engine."""

    def __init__(self, state):
        self.rules = state.rules
        self.pile = list(state.table)
        self.takes = []
        self.turn = 0

    def play(self, seat, card, last_card):
        rules = self.rules
        if self.pile and (card.rank is self.pile[-1].rank or card.rank is Rank.JACK):
            kind = None
            if len(self.pile) == 1 and card.rank is self.pile[0].rank:
                kind = XeriKind.JACK_XERI if card.rank is Rank.JACK else XeriKind.XERI
                if last_card and not rules.xeri_on_last_card:
                    kind = None
            self.takes.append(Take(seat=seat, cards=(*self.pile, card), xeri=kind, turn=self.turn))
            self.pile = []
        else:
            self.pile.append(card)
        self.turn += 1

    def finish(self):
        if self.pile and self.takes:
            last = self.takes[-1].seat
            self.takes.append(Take(seat=last, cards=tuple(self.pile), xeri=None, turn=None))
            self.pile = []


def expected_result(rules, takes, leftover):
    """The round's score sheet from its takes, by G10 and G7, independently of the scorer."""
    sides = rules.num_sides
    piles = [[] for _ in range(sides)]
    kinds = [[] for _ in range(sides)]
    for take in takes:
        piles[rules.sides[take.seat]].extend(take.cards)
        if take.xeri is not None:
            kinds[rules.sides[take.seat]].append(take.xeri)
    counts = tuple(len(p) for p in piles)
    leaders = [s for s in range(sides) if counts[s] == max(counts)]
    majority = tuple(3 if leaders == [s] else 0 for s in range(sides))
    card_points = tuple(points(p) for p in piles)
    bonus = tuple(
        10 * k.count(XeriKind.XERI) + rules.jack_xeri_points * k.count(XeriKind.JACK_XERI)
        for k in kinds
    )
    total = tuple(map(sum, zip(card_points, majority, bonus, strict=True)))
    return rr(counts, card_points, majority, tuple(map(len, kinds)), bonus, total, leftover)


# --- driving a game with hypothesis ------------------------------------------------------------


def deal_round(data, state):
    """Chance's moves, drawn by hypothesis: a permuted deck, then permuted reshuffles."""
    deck = tuple(data.draw(st.permutations(DECK), label="deck"))
    state = step(state, Deal(deck=deck))
    for _ in range(30):
        if state.phase is not Phase.REDEAL:
            return state
        bottom = state.bottom_card
        pool = [c for c in state.stock + state.table if c is not bottom]
        order = tuple(data.draw(st.permutations(pool), label="reshuffle"))
        state = step(state, Reshuffle(stock=order + (() if bottom is None else (bottom,))))
    reject()  # thirty bad piles in a row: a shrinking artefact, not a game
    return state


def play_round(data, state):
    """Deal and play one round, checking the engine against the model; return the end state."""
    state = deal_round(data, state)
    rules = state.rules
    model = PileModel(state)
    while state.phase is Phase.PLAY:
        seat = state.to_move
        card = data.draw(st.sampled_from(xeri.legal_moves(state)), label="move")
        state = step(state, card)
        last = not state.stock and not any(state.hands) and state.is_round_over
        model.play(seat, card, last)
        if not state.is_round_over:
            assert list(state.table) == model.pile
            assert list(state.takes) == model.takes
    model.finish()
    assert state.is_round_over
    assert list(state.takes) == model.takes
    result = state.round_results[-1]
    leftover = len(model.pile)
    assert result == expected_result(rules, state.takes, leftover)
    assert list(state.table) == model.pile
    assert sum(result.cards) + result.leftover == 52
    if state.takes:
        assert result.leftover == 0
        assert sum(result.base) == (22 if len(set(result.cards)) == 1 else 25)
    else:
        assert result.leftover == 52
        assert sum(result.base) == 0
    if rules.redeal is not Redeal.NEVER:
        assert state.takes
    return state


@EACH_RULE_SET
@slow(40)
@given(data=st.data())
def test_single_round_invariants(rules, data):
    dealer = data.draw(st.integers(0, rules.seats - 1), label="dealer")
    state = xeri.start(rules, dealer=dealer)
    check_state(state)
    state = play_round(data, state)
    assert len(state.round_results) == 1
    assert state.dealer == dealer
    # Between rounds no player may move, and a refused move changes nothing.
    before = copy.deepcopy(state)
    try_illegal_moves(state)
    assert state == before


@EACH_RULE_SET
@slow(6)
@given(data=st.data())
def test_match_scores_are_the_sums_of_round_totals(rules, data):
    state = xeri.start(rules, dealer=data.draw(st.integers(0, rules.seats - 1), label="dealer"))
    running = [0] * rules.num_sides
    for number in range(3):
        dealer_before = state.dealer
        state = play_round(data, state)
        if number:
            assert state.dealer == (dealer_before + 1) % rules.seats
        for side, points_ in enumerate(state.round_results[-1].total):
            running[side] += points_
        assert state.scores == tuple(running)
        if state.is_over:
            break


# --- whole matches -----------------------------------------------------------------------------


@EACH_RULE_SET
@slow(3)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_replays_the_same_match(rules, seed):
    first, moves, final = play_match(rules, random.Random(seed))
    assert play_match(rules, random.Random(seed)) == (first, moves, final)
    assert final.is_over
    assert final.phase is Phase.MATCH_OVER
    state = first
    for move in moves:
        state = xeri.apply(state, move)
    assert state == final
    assert final.status.over
    assert final.winner == final.status.winner
    # After the end every move is refused and the state stays as it was.
    before = copy.deepcopy(final)
    refused(final, Deal(deck=DECK))
    refused(final, Card.parse("2♣"))
    refused(final, Card.parse("2♣"), seat=0)
    with pytest.raises(IllegalMoveError):
        xeri.chance_move(final, random.Random(seed))
    assert final == before

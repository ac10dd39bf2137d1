"""`RuleSet.deck`: rule sets of 40 and 32 cards, played, dealt, saved, observed and sampled.

The engine, `chance_outcomes`, the state checks of `from_json`,
observations, `determinize`, the feature tensor and `unseen_cards` follow
the rule set's deck: no card outside it is ever dealt, offered, sampled or
counted as unknown, and a card outside it is refused wherever it comes
from.
"""

# Test names carry the clause id as written in RULES.md (test_X3_...).

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator

import attrs
import pytest

import xeri
from support import public_round, replaying
from xeri import (
    DECK,
    GREEK,
    ITALIAN_DECK,
    PIQUET_DECK,
    ArgumentError,
    Card,
    Deal,
    DealCard,
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Observation,
    Phase,
    Redeal,
    RuleSet,
    RuleSetError,
)
from xeri._agents.features import observation_layout
from xeri._core.validate import check_state
from xeri.bots.heuristic import unseen_cards

ITALIAN = attrs.evolve(GREEK, name="greek-italian-test", deck=ITALIAN_DECK)
"""Greek Xeri with the 40 cards: 12 dealt, 4 on the table, 3 deals a round."""
PIQUET = attrs.evolve(GREEK, name="greek-piquet-test", deck=PIQUET_DECK, hand_size=7)
"""Greek Xeri with the 32 cards, hands of 7: 2 deals a round, 18 cards for the redeal pool."""
PIQUET_FOUR = attrs.evolve(
    xeri.GREEK_FOUR,
    name="greek-four-piquet-test",
    deck=PIQUET_DECK,
    hand_size=7,
    redeal=Redeal.NEVER,
)
"""Four seats in partnerships with the 32 cards: one deal of 7 each."""
GERMAN_ITALIAN = attrs.evolve(xeri.GERMAN, name="german-italian-test", deck=ITALIAN_DECK)
"""German Xeri's sums with the 40 cards (the sum rollout's fast path)."""

SCOPA_BY_FIELDS = attrs.evolve(xeri.SCOPA, name="scopa-by-fields-test")
"""Scopa under another name, so that JSON writes it by its fields: an open table of 40 cards."""

SMALL = [ITALIAN, PIQUET, PIQUET_FOUR, SCOPA_BY_FIELDS]
ids = pytest.mark.parametrize("rules", SMALL, ids=lambda r: r.name)


def outside(rules: RuleSet) -> Card:
    """The first card of the 52 that is not in the rule set's deck."""
    return next(c for c in DECK if c not in rules.deck)


def index(card: Card) -> int:
    return card.index


def every_card(state: GameState) -> list[Card]:
    """The cards of hands, table, stock and this round's captures, in deck order."""
    cards = [c for hand in state.hands for c in hand]
    cards += state.rules.capture.table_cards(state.table)
    cards += state.stock
    cards += [c for take in state.takes for c in take.cards]
    return sorted(cards, key=index)


def match_states(rules: RuleSet, seed: int) -> Iterator[GameState]:
    """Every state of a whole match with random moves, from the state before the first deal."""
    rng = random.Random(seed)
    state = xeri.start(rules, dealer=rng.randrange(rules.seats))
    yield state
    while not state.is_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        yield state


def dealt_states(rules: RuleSet, seed: int, every: int = 1) -> list[GameState]:
    """Every `every`-th state of a match after the first deal."""
    return [s for s in match_states(rules, seed) if s.phase is not Phase.DEAL][::every]


def table_kept(rules: RuleSet, seed: int) -> tuple[Card, ...]:
    """A shuffle of the rule set's cards whose initial table is not redealt (the first seed up)."""
    while True:
        deck = list(rules.deck)
        random.Random(seed).shuffle(deck)
        lay = rules.seats * rules.hand_size
        if not rules.redeal.needed(tuple(deck[lay : lay + rules.table_size])):
            return tuple(deck)
        seed += 1


def same_fields(a: object, b: object) -> None:
    assert type(a) is type(b)
    for field in attrs.fields(type(a)):
        assert getattr(a, field.name) == getattr(b, field.name), field.name
    assert a == b


# --- the rule sets ----------------------------------------------------------------


def test_the_decks_of_the_library_are_sorted_subsets_of_the_52():
    assert len(ITALIAN_DECK) == 40
    assert len(PIQUET_DECK) == 32
    for deck in (ITALIAN_DECK, PIQUET_DECK):
        assert list(deck) == sorted(deck, key=index)
        assert set(deck) < set(DECK)
        assert len(set(deck)) == len(deck)
    assert {int(c.rank) for c in ITALIAN_DECK} == {1, 2, 3, 4, 5, 6, 7, 11, 12, 13}
    assert {int(c.rank) for c in PIQUET_DECK} == {1, 7, 8, 9, 10, 11, 12, 13}


@ids
def test_deals_per_round_and_bounds_follow_the_deck(rules):
    per_round = (len(rules.deck) - rules.table_size) // (rules.seats * rules.hand_size)
    assert rules.deals_per_round == per_round
    assert (ITALIAN.deals_per_round, PIQUET.deals_per_round, PIQUET_FOUR.deals_per_round) == (
        3,
        2,
        1,
    )
    low, high = rules.round_points_bounds
    assert low == 0
    assert high >= rules.card_points.count(rules.deck) + rules.majority_points
    assert high < GREEK.round_points_bounds[1]


def test_a_deck_in_any_order_or_container_is_kept_sorted_in_deck_order():
    shuffled = list(ITALIAN_DECK)
    random.Random(1).shuffle(shuffled)
    for given in (shuffled, tuple(shuffled), frozenset(shuffled), set(shuffled)):
        rules = attrs.evolve(ITALIAN, deck=given)
        assert rules.deck == ITALIAN_DECK
        assert type(rules.deck) is tuple
        assert rules == ITALIAN
    # The 52 in another order are the default deck.
    assert attrs.evolve(GREEK, name="greek", deck=list(reversed(DECK))) == GREEK
    assert "deck=ITALIAN_DECK" in repr(ITALIAN)
    assert "deck=PIQUET_DECK" in repr(PIQUET)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ((*ITALIAN_DECK, ITALIAN_DECK[0]), "deck must not name a card twice"),
        ((), "deck must hold at least one card"),
        (("AC", *ITALIAN_DECK[1:]), "deck must be a tuple of Cards"),
        ("ITALIAN", "deck must be a tuple of Cards"),
        (None, "deck must be a tuple of Cards"),
    ],
    ids=["duplicate", "empty", "a-string-card", "a-string", "none"],
)
def test_a_deck_that_is_not_distinct_cards_is_refused_naming_deck(deck, message):
    with pytest.raises(RuleSetError, match=message):
        attrs.evolve(ITALIAN, deck=deck)


@pytest.mark.parametrize(
    "deck",
    [
        ITALIAN_DECK[:39],  # 35 cards after the table: no whole deals of 6 to 2 seats
        (*ITALIAN_DECK, Card.parse("8♣")),  # 41
        DECK[:51],
        PIQUET_DECK[:31],
    ],
    ids=["39", "41", "51", "31"],
)
def test_a_deck_that_does_not_deal_into_whole_deals_is_refused_naming_deck(deck):
    with pytest.raises(RuleSetError) as caught:
        attrs.evolve(ITALIAN, deck=deck)
    assert "deck" in str(caught.value)


def test_a_deck_too_small_for_the_hands_and_table_is_refused_naming_deck():
    with pytest.raises(RuleSetError, match="need more than the 12 cards of the deck"):
        attrs.evolve(ITALIAN, deck=ITALIAN_DECK[:12], redeal=Redeal.NEVER)
    with pytest.raises(RuleSetError, match="redeal: only"):
        # 16 cards deal 6 + 6 + 4, but a redeal needs a pool of at least 17.
        attrs.evolve(ITALIAN, deck=ITALIAN_DECK[:16])
    assert attrs.evolve(ITALIAN, deck=ITALIAN_DECK[:16], redeal=Redeal.NEVER).deals_per_round == 1


# --- whole matches ----------------------------------------------------------------


@ids
def test_whole_matches_conserve_exactly_the_cards_of_the_deck(rules):
    deck = list(rules.deck)
    phases = set()
    for seed in range(3):
        rounds = 0
        for state in match_states(rules, seed):
            phases.add(state.phase)
            if state.phase is Phase.DEAL:
                assert every_card(state) == []
                continue
            assert every_card(state) == deck, state.phase
            assert len(state.stock) <= len(deck) - rules.table_size - rules.seats * rules.hand_size
            if state.is_round_over:
                rounds += 1
                result = state.round_results[-1]
                assert sum(result.cards) + result.leftover == len(deck)
                assert result.card_points == tuple(
                    rules.card_points.count(cards) for cards in state.captured
                )
                assert check_state(state).problems == []
        assert state.is_over
        assert rounds == len(state.round_results) >= 1
    expected = {Phase.DEAL, Phase.PLAY, Phase.ROUND_OVER, Phase.MATCH_OVER}
    if isinstance(rules.redeal, Redeal) and rules.redeal is not Redeal.NEVER:
        expected.add(Phase.REDEAL)  # a Jack or a pair on top is frequent: redeals were checked
    assert expected <= phases <= {*expected, Phase.REDEAL}


@ids
def test_every_state_of_a_match_passes_the_state_checks(rules):
    for state in dealt_states(rules, 7, every=3):
        assert check_state(state).problems == [], state


# --- dealing ----------------------------------------------------------------------


@ids
def test_a_deal_of_another_deck_is_refused_and_the_state_is_unchanged(rules):
    state = xeri.start(rules, dealer=0)
    before = xeri.to_json(state)
    size = len(rules.deck)
    other = outside(rules)
    for wrong in (DECK, (*rules.deck[1:], other), rules.deck[:-1], (*rules.deck, other)):
        with pytest.raises(IllegalMoveError, match=f"a deal's deck must .* each of {size} cards"):
            xeri.apply(state, Deal(deck=wrong))
        assert xeri.to_json(state) == before
    # The same at the end of a round, where the next round is dealt.
    over = next(s for s in match_states(rules, 3) if s.phase is Phase.ROUND_OVER)
    before = xeri.to_json(over)
    with pytest.raises(IllegalMoveError, match=f"each of {size} cards"):
        xeri.apply(over, Deal(deck=DECK))
    assert xeri.to_json(over) == before
    assert xeri.apply(over, Deal(deck=rules.deck)).phase in {Phase.PLAY, Phase.REDEAL}


def test_a_deal_of_40_or_32_cards_is_refused_for_the_52_card_rule_set():
    state = xeri.start(GREEK, dealer=1)
    before = xeri.to_json(state)
    for wrong in (ITALIAN_DECK, PIQUET_DECK, (*ITALIAN_DECK, *DECK[28:40])[:51]):
        with pytest.raises(IllegalMoveError, match="each of 52 cards"):
            xeri.apply(state, Deal(deck=wrong))
        assert xeri.to_json(state) == before
    with pytest.raises(ArgumentError, match=r"each of 52 cards"):
        xeri.new_game(GREEK, deck=ITALIAN_DECK, dealer=0)


@ids
def test_new_game_refuses_a_deck_that_is_not_the_rule_sets_cards(rules):
    size = len(rules.deck)
    for wrong in (DECK, (*rules.deck[1:], outside(rules))):
        with pytest.raises(ArgumentError, match=f"each of {size} cards"):
            xeri.new_game(rules, deck=wrong, dealer=0)
    with pytest.raises(ArgumentError, match=f"the {size} cards"):
        xeri.new_game(rules, deck="not a deck", dealer=0)  # type: ignore[arg-type]


@ids
@pytest.mark.parametrize("dealer", [0, 1])
def test_X3_new_game_with_the_rule_sets_cards_deals_them_in_order(rules, dealer):
    n, k, t = rules.seats, rules.hand_size, rules.table_size
    for seed in range(3):
        deck = table_kept(rules, seed)
        state = xeri.new_game(rules, deck=list(deck), dealer=dealer)
        assert state.phase is Phase.PLAY
        for block in range(n):  # a block of hand_size to each seat, the dealer's left first
            seat = (dealer + 1 + block) % n
            assert state.hands[seat] == tuple(sorted(deck[block * k : (block + 1) * k], key=index))
        assert state.table == deck[n * k : n * k + t]  # the last of them on top
        assert state.stock == deck[n * k + t :]
        assert state.to_move == (dealer + 1) % n
        assert state.redealt == ()
        # The same deck replays exactly, as a tuple or a list, through new_game or a Deal.
        again = xeri.new_game(rules, deck=deck, dealer=dealer)
        same_fields(again, state)
        dealt = xeri.apply(xeri.start(rules, dealer=dealer), Deal(deck=deck))
        same_fields(dealt, state)


@ids
def test_X3_the_same_deck_and_moves_replay_a_whole_round_exactly(rules):
    deck = table_kept(rules, 11)
    first = xeri.new_game(rules, deck=deck, dealer=0)
    rng = random.Random(5)
    moves = []
    state = first
    while not state.is_round_over:
        move = rng.choice(xeri.legal_moves(state))
        moves.append(move)
        state = xeri.apply(state, move)
    replay = xeri.new_game(rules, deck=deck, dealer=0)
    for move in moves:
        replay = xeri.apply(replay, move)
    same_fields(replay, state)
    assert sum(replay.round_results[-1].cards) + replay.round_results[-1].leftover == len(deck)


# --- chance card by card ----------------------------------------------------------


@ids
def test_X4_chance_outcomes_list_only_the_cards_of_the_deck(rules):
    state = xeri.start(rules, dealer=0)
    outcomes = xeri.chance_outcomes(state)
    assert [move.card for move, _ in outcomes] == list(rules.deck)
    assert all(p == 1 / len(rules.deck) for _, p in outcomes)
    rng = random.Random(2)
    order: list[Card] = []
    while state.is_chance and state.phase is Phase.DEAL:
        outcomes = xeri.chance_outcomes(state)
        free = [c for c in rules.deck if c not in order]
        assert [move.card for move, _ in outcomes] == free
        assert math.isclose(math.fsum(p for _, p in outcomes), 1.0)
        with pytest.raises(IllegalMoveError, match="a DealCard must name a card still to be"):
            xeri.apply(state, DealCard(card=outside(rules)))
        move, _ = outcomes[rng.randrange(len(outcomes))]
        order.append(move.card)
        state = xeri.apply(state, move)
    # The last card is forced and placed with the one before it (X4).
    assert len(order) == len(rules.deck) - 1
    order += [c for c in rules.deck if c not in order]
    # The order completed card by card deals as the whole Deal of it does.
    whole = xeri.apply(xeri.start(rules, dealer=0), Deal(deck=tuple(order)))
    same_fields(state, whole)
    if state.phase is Phase.REDEAL:  # a redeal's outcomes are the stock and the shown table
        pool = sorted((*state.stock, *state.table), key=index)  # type: ignore[arg-type]
        assert [m.card for m, _ in xeri.chance_outcomes(state)] == pool


def test_X4_chance_outcomes_of_a_redeal_are_cards_of_the_deck():
    # 7♣ on 7♦ on top: a pair on top of the Italian table is redealt (G4).
    sevens = [Card.parse("7♣"), Card.parse("7♦")]
    rest = [c for c in ITALIAN_DECK if c not in sevens]
    deck = (*rest[:14], *sevens, *rest[14:])
    state = xeri.apply(xeri.start(ITALIAN, dealer=0), Deal(deck=deck))
    assert state.phase is Phase.REDEAL
    cards = [m.card for m, _ in xeri.chance_outcomes(state)]
    assert cards == sorted((*state.stock, *state.table), key=index)  # type: ignore[arg-type]
    assert len(cards) == 40 - 12
    assert set(cards) <= set(ITALIAN_DECK)
    redealt = xeri.apply(state, xeri.chance_move(state, random.Random(0)))
    assert every_card(redealt) == list(ITALIAN_DECK)


# --- JSON ---------------------------------------------------------------------------


@ids
def test_the_rule_set_is_written_with_its_deck_and_read_back_by_fields(rules):
    text = xeri.to_json(rules)
    data = json.loads(text)["data"]
    assert data["name"] == rules.name  # not registered: written by its fields
    assert data["deck"] == [c.ascii for c in rules.deck]
    back = xeri.from_json(text, expect=RuleSet)
    same_fields(back, rules)
    assert xeri.to_json(back) == text


def test_the_52_card_deck_is_not_written():
    by_fields = attrs.evolve(GREEK, name="greek-by-fields-test")
    data = json.loads(xeri.to_json(by_fields))["data"]
    assert "deck" not in data
    assert xeri.from_json(xeri.to_json(by_fields), expect=RuleSet).deck == DECK


@ids
def test_states_and_observations_round_trip_by_fields(rules):
    for state in dealt_states(rules, 4, every=5):
        text = xeri.to_json(state)
        back = xeri.from_json(text, expect=GameState)
        same_fields(back, state)
        assert xeri.to_json(back) == text
        for seat in range(rules.seats):
            seen = xeri.observe(state, seat)
            text = xeri.to_json(seen)
            back_seen = xeri.from_json(text, expect=Observation)
            same_fields(back_seen, seen)
            assert xeri.to_json(back_seen) == text


def _edited(state: GameState, edit) -> str:
    doc = json.loads(xeri.to_json(state))
    edit(doc["data"])
    return json.dumps(doc, sort_keys=True, separators=(",", ":"))


@ids
def test_a_loaded_state_holding_a_card_outside_the_deck_is_refused(rules):
    state = xeri.new_game(rules, deck=table_kept(rules, 0), dealer=0)
    other = outside(rules)
    assert xeri.from_json(_edited(state, lambda data: None), expect=GameState) == state

    def in_hand(data: dict) -> None:
        hand = data["hands"][1]
        hand[0] = other.ascii
        hand.sort(key=lambda name: Card.parse(name).index)

    def in_stock(data: dict) -> None:
        data["stock"][-1] = other.ascii

    def on_table(data: dict) -> None:
        data["table"][0] = other.ascii

    edits = (in_hand, in_stock, on_table) if state.stock else (in_hand, on_table)
    for edit in edits:
        with pytest.raises(InvalidStateError) as caught:
            xeri.from_json(_edited(state, edit), expect=GameState)
        assert "1 card is not in the rule set's deck" in caught.value.problems
        assert other.ascii not in str(caught.value)  # no card is named


def test_a_loaded_52_card_state_does_not_load_under_a_40_card_rule_set():
    state = xeri.new_game(GREEK, rng=random.Random(1))
    doc = json.loads(xeri.to_json(state))
    doc["data"]["rules"] = json.loads(xeri.to_json(ITALIAN))["data"]
    with pytest.raises(InvalidStateError, match="cards missing: -12 of the 40"):
        xeri.from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))


# --- hidden information -------------------------------------------------------------


@ids
def test_X2_determinize_samples_only_cards_of_the_deck(rules):
    deck = list(rules.deck)
    checked = 0
    for state in dealt_states(rules, 2, every=4)[:40]:
        if state.is_chance or state.is_over:
            continue
        for seat in range(rules.seats):
            seen = xeri.observe(state, seat)
            for draw in range(3):
                sample = xeri.determinize(seen, random.Random(draw))
                assert every_card(sample) == deck
                assert xeri.observe(sample, seat) == seen
                assert check_state(sample).problems == []
                checked += 1
    assert checked > 50


@ids
def test_X2_the_unknown_plane_is_zero_outside_the_deck(rules):
    start, stop = next((a, b) for name, a, b in observation_layout(rules) if name == "unknown")
    assert stop - start == 52
    outside = [c.index for c in DECK if c not in rules.deck]
    assert len(outside) == 52 - len(rules.deck)
    for state in dealt_states(rules, 6, every=3):
        for seat in range(rules.seats):
            seen = xeri.observe(state, seat)
            plane = xeri.observation_tensor(seen)[start:stop]
            assert set(plane) <= {0.0, 1.0}
            assert all(plane[i] == 0.0 for i in outside)
            unseen = unseen_cards(seen)
            assert set(unseen) <= set(rules.deck)
            assert {i for i, x in enumerate(plane) if x == 1.0} == {c.index for c in unseen}
    # Right after a plain deal: the other hands and the stock are unknown.
    state = xeri.new_game(rules, deck=table_kept(rules, 1), dealer=0)
    seen = xeri.observe(state, 1)
    hidden = len(rules.deck) - rules.hand_size - rules.table_size
    assert len(unseen_cards(seen)) == hidden
    assert sum(xeri.observation_tensor(seen)[start:stop]) == hidden


# --- rollout ------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [*SMALL, GERMAN_ITALIAN], ids=lambda r: r.name)
def test_X4_rollout_reaches_the_state_the_engine_reaches_with_a_small_deck(rules):
    for seed in range(25):
        rng = random.Random(seed)
        start = xeri.new_game(rules, rng=rng)
        for _ in range(rng.randrange(15)):  # from a later point of the round now and then
            if start.is_round_over:
                break
            start = xeri.apply(start, rng.choice(xeri.legal_moves(start)))
        end, moves = public_round(start, random.Random(seed + 1))
        fast = xeri.rollout(start, random.Random(0), replaying(moves))
        same_fields(fast, end)
        assert every_card(fast) == list(rules.deck)


@pytest.mark.parametrize("rules", [*SMALL, GERMAN_ITALIAN], ids=lambda r: r.name)
def test_X4_a_random_rollout_deals_only_cards_of_the_deck(rules):
    rng = random.Random(8)
    for _ in range(10):
        state = xeri.new_game(rules, rng=rng)
        end = xeri.rollout(state, rng)
        assert end.is_round_over
        assert every_card(end) == list(rules.deck)
        assert check_state(end).problems == []

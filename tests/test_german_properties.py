"""Properties of reachable German Xeri rounds (RULES.md D1–D9, X5), for the preset and options.

Every example deals a shuffled deck (`st.permutations(DECK)`) and plays one
round to its end, each move drawn from `legal_moves`. The properties are
checked at every state on the way, for `GERMAN`, for each option of
`SumCapture` alone and for all of them together.
"""

# Test names carry the clause id as written in RULES.md (test_D4_...).

from __future__ import annotations

import copy
import itertools
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from support import GERMAN_VARIANTS
from xeri import (
    DECK,
    Build,
    Capture,
    Card,
    Combine,
    GameState,
    IllegalMoveError,
    Trail,
)

RULES = GERMAN_VARIANTS

every_rule_set = pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))
rounds = settings(max_examples=15, deadline=None)


def value(item: Card | Build) -> int | None:
    """D1, counted here without the library: A = 1, 2 … 10 as printed, pictures None."""
    if isinstance(item, Build):
        return item.value
    return None if item.rank.is_picture else int(item.rank)


def table_cards(state: GameState) -> list[Card]:
    return [c for item in state.table for c in (item.cards if isinstance(item, Build) else (item,))]


def builds(state: GameState) -> list[Build]:
    return [item for item in state.table if isinstance(item, Build)]


def walk(
    rules: xeri.RuleSet,
    deck: list[Card],
    data: st.DataObject,
    check: Callable[[GameState], None],
    *,
    builders: bool = False,
) -> GameState:
    """Deal `deck` and play one round with moves drawn from `legal_moves`; `check` every state.

    With `builders`, a combination (when there is one) is chosen half of the
    time, so that builds, raises and build owners are frequent.
    """
    dealer = data.draw(st.integers(0, 1), label="dealer")
    state = xeri.new_game(rules, deck=deck, dealer=dealer)
    check(state)
    while not state.is_round_over:
        moves = xeri.legal_moves(state)
        combines = [m for m in moves if type(m) is Combine]
        if builders and combines and data.draw(st.booleans(), label="build"):
            moves = tuple(combines)
        move = data.draw(st.sampled_from(moves))
        state = xeri.apply(state, move)
        check(state)
    return state


# --- conservation and scoring -----------------------------------------------


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D2_D7_the_52_cards_are_conserved(rules, deck, data):
    def check(state: GameState) -> None:
        taken = [c for take in state.takes for c in take.cards]
        held = [c for hand in state.hands for c in hand]
        everything = held + table_cards(state) + list(state.stock) + taken
        assert sorted(everything) == list(DECK)

    end = walk(rules, deck, data, check)
    result = end.round_results[-1]
    assert sum(result.cards) + result.leftover == 52
    assert end.hands == ((), ())
    assert end.stock == ()


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D8_base_points_eleven_or_seven_on_a_tie_when_all_cards_were_captured(rules, deck, data):
    end = walk(rules, deck, data, lambda state: None)
    result = end.round_results[-1]
    if result.leftover == 0:
        assert sum(result.cards) == 52
        assert sum(result.base) == (7 if result.cards == (26, 26) else 11)
    else:  # X1: nobody captured at all
        assert (result.cards, result.leftover) == ((0, 0), 52)
    assert result.xeri_bonus == tuple(10 * n for n in result.xeris)
    xeris = Counter(take.seat for take in end.takes if take.xeri is not None)
    assert result.xeris == (xeris[0], xeris[1])
    assert result.total == tuple(b + x for b, x in zip(result.base, result.xeri_bonus, strict=True))


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D6_a_capture_is_a_xeri_exactly_when_it_clears_the_table(rules, deck, data):
    previous: list[GameState] = []

    def check(state: GameState) -> None:
        if previous:
            new = state.takes[len(previous[-1].takes) :]
            captures = [take for take in new if take.turn is not None]
            if type(state.history[-1]) is Capture:
                (take,) = captures
                assert take.turn == len(state.history) - 1
                cleared = all(item in state.history[-1].taken for item in previous[-1].table)
                last = not state.stock and state.hands == ((), ())
                xeri_ = cleared and not (last and not rules.xeri_on_last_card)
                assert take.xeri is (xeri.XeriKind.XERI if xeri_ else None)
            else:
                assert captures == []
        previous.append(state)

    end = walk(rules, deck, data, check)
    collections = [take for take in end.takes if take.turn is None]
    assert all(take.xeri is None for take in collections)  # D7
    assert len(collections) <= 1


# --- D4: builds -----------------------------------------------------------------


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D4_no_build_on_the_table_at_a_fresh_deal_or_at_the_end_of_the_round(rules, deck, data):
    fresh = []

    def check(state: GameState) -> None:
        d4_holds(state)
        if all(len(hand) == 6 for hand in state.hands):
            fresh.append(len(state.stock))
            assert builds(state) == []

    end = walk(rules, deck, data, check, builders=True)
    assert fresh == [36, 24, 12, 0]
    assert builds(end) == []


def d4_holds(state: GameState) -> None:
    """For every seat and value: the builds it owns never outnumber its cards of that value."""
    for seat, hand in enumerate(state.hands):
        owned = Counter(b.value for b in builds(state) if b.owner == seat)
        held = Counter(value(c) for c in hand)
        assert all(held[v] >= n for v, n in owned.items()), (seat, owned, hand)


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D4_a_legal_move_always_exists_sorted_and_without_duplicates(rules, deck, data):
    def check(state: GameState) -> None:
        moves = xeri.legal_moves(state)
        if state.to_move is None:
            assert moves == ()
            return
        assert moves
        assert list(moves) == sorted(moves)
        assert len(set(moves)) == len(moves)
        assert all(m.card in state.hands[state.to_move] for m in moves)
        owner = any(b.owner == state.to_move for b in builds(state))
        trails = [m.card for m in moves if type(m) is Trail]
        if owner:
            assert trails == []
        elif rules.capture.forced_capture and any(type(m) is Capture for m in moves):
            assert all(type(m) is Capture for m in moves)
        else:
            assert trails == list(state.hands[state.to_move])

    walk(rules, deck, data, check, builders=True)


# --- legal_moves against an independent oracle --------------------------------


def splits(values: list[int], target: int) -> int | None:
    """How many groups of `target` the values divide into, or None if they do not."""
    if not values:
        return 0
    first, rest = values[0], values[1:]
    for k in range(len(rest) + 1):
        for group in itertools.combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in group) == target:
                left = [v for i, v in enumerate(rest) if i not in group]
                more = splits(left, target)
                if more is not None:
                    return more + 1
    return None


def is_capture_group(card: Card, items: tuple[Card | Build, ...], multi: bool) -> bool:
    """D3: whether `card` may take exactly `items` (one group, or several with multi_capture)."""
    v = value(card)
    if v is None:
        # A picture takes one loose card of its rank, even with multi_capture:
        # pictures have no value, so they never form groups of a value.
        return len(items) == 1 and isinstance(items[0], Card) and items[0].rank is card.rank
    if any(isinstance(i, Build) and i.value != v for i in items):
        return False
    loose = [value(i) for i in items if isinstance(i, Card)]
    if None in loose:
        return False
    groups = splits(sorted(loose, reverse=True), v)
    if groups is None:
        return False
    groups += sum(isinstance(i, Build) for i in items)
    return groups == 1 or (multi and groups >= 1)


def oracle(state: GameState) -> set[object] | None:
    """Every legal move by brute force over subsets, or None when the table is too large."""
    rule = state.rules.capture
    seat = state.to_move
    hand = state.hands[seat]
    table = state.table
    owned = [b for b in builds(state) if b.owner == seat]

    def keeps(owned_values: list[int], rest: tuple[Card, ...]) -> bool:
        held = Counter(value(c) for c in rest)
        return all(held[v] >= n for v, n in Counter(owned_values).items())

    captures: set[object] = set()
    others: set[object] = set()
    for i, card in enumerate(hand):
        rest = hand[:i] + hand[i + 1 :]
        v = value(card)
        if v is None:
            pool = [t for t in table if isinstance(t, Card) and t.rank is card.rank]
        else:
            pool = [t for t in table if value(t) is not None and value(t) <= v]
        if len(pool) > 12:
            return None
        for k in range(1, len(pool) + 1):
            for items in itertools.combinations(pool, k):
                if not is_capture_group(card, items, rule.multi_capture):
                    continue
                left = [b.value for b in owned if b not in items]
                if keeps(left, rest):
                    captures.add(Capture(card=card, taken=items))
        if v is not None:
            for item in table:
                t = value(item)
                if t is None or v + t > 10 or v + t not in {value(c) for c in rest}:
                    continue
                mine = isinstance(item, Build) and item.owner == seat
                if mine and not rule.self_raise:
                    continue
                left = [b.value for b in owned if b != item] + [v + t]
                if keeps(left, rest):
                    others.add(Combine(card=card, onto=item, value=v + t))
        if not owned:
            others.add(Trail(card=card))
    if rule.forced_capture and captures:
        return captures
    return captures | others


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_D3_D5_legal_moves_are_exactly_the_moves_the_rules_allow(rules, deck, data):
    compared = []

    def check(state: GameState) -> None:
        if state.to_move is None:
            return
        expected = oracle(state)
        if expected is not None:
            compared.append(len(state.table))
            assert set(xeri.legal_moves(state)) == expected

    walk(rules, deck, data, check, builders=True)
    assert compared  # the first table of four is always compared


# --- purity ------------------------------------------------------------------------


@every_rule_set
@settings(max_examples=8, deadline=None)
@given(deck=st.permutations(DECK), data=st.data())
def test_X5_apply_is_pure(rules, deck, data):
    dealer = data.draw(st.integers(0, 1), label="dealer")
    state = xeri.new_game(rules, deck=deck, dealer=dealer)
    while not state.is_round_over:
        moves = xeri.legal_moves(state)
        move = data.draw(st.sampled_from(moves))
        snapshot = copy.deepcopy(state)
        twin = copy.deepcopy(state)
        after = xeri.apply(state, move)
        assert state == snapshot  # the input is unchanged
        assert xeri.apply(state, move) == after  # equal inputs, equal outputs
        assert xeri.apply(twin, copy.deepcopy(move)) == after
        assert xeri.legal_moves(twin) == moves
        state = after


# --- illegal moves are refused and leave the state unchanged (X5) ----------------


def refused(state: GameState, move: object, match: str) -> None:
    assert move not in xeri.legal_moves(state)
    snapshot = copy.deepcopy(state)
    with pytest.raises(IllegalMoveError, match=match):
        xeri.apply(state, move)
    assert state == snapshot


def check_illegal(state: GameState, data: st.DataObject) -> int:
    """Try the illegal moves this state offers; return how many were tried."""
    seat = state.to_move
    if seat is None:
        return 0
    rule = state.rules.capture
    hand = state.hands[seat]
    tried = 0
    numbers = [c for c in hand if value(c) is not None]
    loose = [t for t in state.table if isinstance(t, Card) and value(t) is not None]
    targets = [t for t in state.table if value(t) is not None]
    owned = [b for b in builds(state) if b.owner == seat]

    # A free card by a build owner (D4).
    if owned:
        for card in hand:
            refused(state, Trail(card=card), r"may not lay a free card .*\(D4\)")
            tried += 1

    if numbers and loose:
        # A capture whose group does not add up (not even to several groups of the value).
        card = data.draw(st.sampled_from(numbers), label="capturing card")
        group = data.draw(st.sets(st.sampled_from(loose), min_size=1), label="group")
        if sum(value(c) for c in group) % value(card):
            refused(state, Capture(card=card, taken=tuple(group)), "do not add up to")
            tried += 1

    if numbers and targets:
        card = data.draw(st.sampled_from(numbers), label="building card")
        onto = data.draw(st.sampled_from(targets), label="onto")
        total = value(card) + value(onto)
        # A wrong announced value.
        refused(state, Combine(card=card, onto=onto, value=total + 1), "must be the sum")
        tried += 1
        rest = list(hand)
        rest.remove(card)
        if total > 10:
            refused(state, Combine(card=card, onto=onto, value=total), "may not exceed 10")
            tried += 1
        elif total not in {value(c) for c in rest}:
            # No other card of the announced value in hand.
            if isinstance(onto, Build) and onto.owner == seat and not rule.self_raise:
                reason = "raising one's own build"
            elif rule.forced_capture and any(type(m) is Capture for m in xeri.legal_moves(state)):
                reason = r"compulsory \(D5\)"
            else:
                reason = f"holds no other card of value {total}"
            refused(state, Combine(card=card, onto=onto, value=total), reason)
            tried += 1
    return tried


@every_rule_set
@rounds
@given(deck=st.permutations(DECK), data=st.data())
def test_X5_illegal_moves_are_refused_with_the_state_unchanged(rules, deck, data):
    tried = []
    walk(rules, deck, data, lambda state: tried.append(check_illegal(state, data)), builders=True)
    assert sum(tried) > 0

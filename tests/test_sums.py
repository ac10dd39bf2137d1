"""`SumCapture` (German Xeri, RULES.md D3–D5) checked against itself and against brute force.

* `needs` is exact: on reachable tables, for every move some hand may play,
  the move is listed for a hand holding its card if and only if the needs
  hold for that hand;
* `play` accepts exactly the moves `moves` lists (it checks the move played
  alone, without listing);
* under `multi_capture`, the captures are every set of items that divides
  into groups of the card's value, each listed once, even on tables of many
  small cards;
* no module-level value keeps a hand.
"""

# Test names carry the clause id as written in RULES.md (test_D3_...).

from __future__ import annotations

import itertools
import random
from collections import Counter

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
    SumCapture,
    Trail,
)
from xeri._families.sums import rule as sums_module

C = Card.parse

RULES = GERMAN_VARIANTS

every_rule_set = pytest.mark.parametrize("rules", list(RULES.values()), ids=list(RULES))


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(name) for name in text.split())


def value(item: Card | Build) -> int | None:
    """D1, counted here without the library: A = 1, 2 … 10 as printed, pictures None."""
    if isinstance(item, Build):
        return item.value
    return None if item.rank.is_picture else int(item.rank)


def meets_d4(table: tuple[Card | Build, ...], hand: tuple[Card, ...], seat: int) -> bool:
    """D4 for `seat` before its move: the hands a seat to move can hold."""
    owned = Counter(t.value for t in table if isinstance(t, Build) and t.owner == seat)
    held = Counter(value(c) for c in hand)
    return all(held[v] >= n for v, n in owned.items())


def random_hand(
    rng: random.Random,
    pool: list[Card],
    size: int,
    table: tuple[Card | Build, ...],
    seat: int,
    *,
    card: Card | None = None,
) -> tuple[Card, ...] | None:
    """A random hand of `size` from `pool` (with `card` in it if given) meeting D4, or None."""
    for _ in range(20):
        others = [c for c in pool if c is not card]
        hand = rng.sample(others, size - (card is not None))
        if card is not None:
            hand.append(card)
        hand.sort()
        if meets_d4(table, tuple(hand), seat):
            return tuple(hand)
    return None


def play_round(rules: xeri.RuleSet, deck: list[Card], rng: random.Random, check) -> None:
    """Deal `deck` and play one round at random, combining half of the time; `check` each turn."""
    state = xeri.new_game(rules, deck=deck, dealer=rng.randrange(2))
    while not state.is_round_over:
        check(state)
        moves = xeri.legal_moves(state)
        combines = [m for m in moves if type(m) is Combine]
        if combines and rng.random() < 0.5:
            moves = tuple(combines)
        state = xeri.apply(state, rng.choice(moves))


# --- needs is exact --------------------------------------------------------------


@every_rule_set
@settings(max_examples=6, deadline=None)
@given(deck=st.permutations(DECK), seed=st.integers(0, 2**32 - 1))
def test_D3_D5_needs_is_exact_on_reachable_tables(rules, deck, seed):
    rng = random.Random(seed)
    rule = rules.capture
    outcomes: Counter[bool] = Counter()

    def check(state: GameState) -> None:
        seat = state.to_move
        table = state.table
        real = state.hands[seat]
        pool = [c for c in DECK if c not in rule.table_cards(table)]
        hands = {real}
        for _ in range(10):
            hand = random_hand(rng, pool, len(real), table, seat)
            if hand is not None:
                hands.add(hand)
        listed = {hand: set(rule.moves(table, hand, seat)) for hand in hands}
        playable = sorted(set().union(*listed.values()))
        for move in playable:
            needs = rule.needs(table, move, seat)
            tried = [hand for hand in hands if move.card in hand]
            for _ in range(3):
                hand = random_hand(rng, pool, len(real), table, seat, card=move.card)
                if hand is not None:
                    tried.append(hand)
            for hand in tried:
                if hand not in listed:
                    listed[hand] = set(rule.moves(table, hand, seat))
                legal = move in listed[hand]
                assert legal == needs.holds(hand), (move, table, hand, needs)
                outcomes[legal] += 1

    play_round(rules, deck, rng, check)
    assert outcomes[True] > 0
    assert outcomes[False] > 0


def test_D5_needs_of_a_trail_under_forced_capture_name_every_capturing_card():
    rule = SumCapture(forced_capture=True)
    table = (*cards("3♣ 4♦ K♥"), Build(cards=cards("2♠ 6♠"), value=8, owner=1))
    needs = rule.needs(table, Trail(card=C("Q♣")), 0)
    values = {value(c) for c in needs.none_of if value(c) is not None}
    assert values == {3, 4, 7, 8}
    assert {c for c in needs.none_of if value(c) is None} == set(cards("K♣ K♦ K♥ K♠"))
    assert not needs.at_least


# --- play checks the move played, exactly as moves lists it ------------------------


def candidates(
    rng: random.Random, table: tuple[Card | Build, ...], hand: tuple[Card, ...]
) -> list[object]:
    """Moves of the cards of `hand`, legal or not: trails, combines with any value, captures."""
    out: list[object] = []
    for card in hand:
        out.append(Trail(card=card))
        for item in table:
            total = (value(card) or 0) + (value(item) or 0)
            out += [Combine(card=card, onto=item, value=v) for v in (total - 1, total)]
        for _ in range(4):
            if table:
                k = rng.randint(1, min(5, len(table)))
                out.append(Capture(card=card, taken=tuple(rng.sample(table, k))))
    return out


@every_rule_set
@settings(max_examples=5, deadline=None)
@given(deck=st.permutations(DECK), seed=st.integers(0, 2**32 - 1))
def test_X5_play_accepts_exactly_the_listed_moves(rules, deck, seed):
    rng = random.Random(seed)
    rule = rules.capture
    verdicts: Counter[bool] = Counter()

    def check(state: GameState) -> None:
        seat = state.to_move
        table = state.table
        real = state.hands[seat]
        pool = [c for c in DECK if c not in rule.table_cards(table)]
        hands = [real]
        hand = random_hand(rng, pool, len(real), table, seat)
        if hand is not None:
            hands.append(hand)
        for hand in hands:
            listed = rule.moves(table, hand, seat)
            for move in {*listed, *candidates(rng, table, hand)}:
                try:
                    rule.play(table, hand, seat, move)
                except IllegalMoveError:
                    accepted = False
                else:
                    accepted = True
                assert accepted == (move in listed), (move, table, hand)
                verdicts[accepted] += 1

    play_round(rules, deck, rng, check)
    assert verdicts[True] > 0
    assert verdicts[False] > 0


def test_X5_a_capture_naming_an_item_twice_is_refused():
    move = Capture(card=C("4♥"), taken=cards("2♦ 2♦"))
    with pytest.raises(IllegalMoveError, match="more than once"):
        SumCapture().play(cards("2♦ 3♣"), cards("4♥ 5♥"), 0, move)


# --- multi_capture against brute force ----------------------------------------------


def divides(values: list[int], target: int) -> bool:
    """Whether the values divide into groups adding up to `target` (brute force)."""
    if not values:
        return True
    first, rest = values[0], values[1:]
    for k in range(len(rest) + 1):
        for group in itertools.combinations(range(len(rest)), k):
            if first + sum(rest[i] for i in group) == target and divides(
                [v for i, v in enumerate(rest) if i not in group], target
            ):
                return True
    return False


def takeable(card: Card, table: tuple[Card | Build, ...]) -> set[tuple[Card | Build, ...]]:
    """Every non-empty set of table items a number card may take under multi_capture."""
    v = value(card)
    pool = [t for t in table if value(t) is not None and value(t) <= v]
    out = set()
    for k in range(1, len(pool) + 1):
        for items in itertools.combinations(pool, k):
            if any(isinstance(t, Build) and t.value != v for t in items):
                continue
            loose = sorted((value(t) for t in items if isinstance(t, Card)), reverse=True)
            if divides(loose, v):
                out.add(Capture(card=card, taken=items).taken)
    return out


@pytest.mark.parametrize(
    ("table", "hand"),
    [
        ("A♣ 9♣ 2♣ 8♣ 3♣ 7♣ 4♣ 6♣ 5♣ 5♦", "10♣ 10♦"),
        ("A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠", "4♣ 5♣ 6♣ 7♣ 8♣ 10♣"),
        ("A♣ A♦ 2♣ 2♦ 3♣ 3♦ 4♣ 4♦ 5♣ 6♣ K♣ J♦", "6♦ 7♣ 8♣ 9♣ 10♣ K♦"),
    ],
)
def test_D3_multi_capture_lists_every_set_that_divides_into_groups_once(table, hand):
    rule = SumCapture(multi_capture=True)
    items = cards(table)
    moves = rule.moves(items, cards(hand), 0)
    assert list(moves) == sorted(moves)
    assert len(set(moves)) == len(moves)
    for card in cards(hand):
        listed = [m.taken for m in moves if type(m) is Capture and m.card is card]
        if value(card) is None:
            assert listed == [(t,) for t in items if t.rank is card.rank]
        else:
            assert set(listed) == takeable(card, items)


def test_D3_multi_capture_k_pairs_of_the_value_give_at_least_two_to_the_k_captures():
    # Five disjoint pairs adding up to 10, and more groups across them.
    rule = SumCapture(multi_capture=True)
    moves = rule.moves(cards("A♣ 9♣ 2♣ 8♣ 3♣ 7♣ 4♣ 6♣ 5♣ 5♦"), cards("10♣"), 0)
    captures = [m for m in moves if type(m) is Capture]
    assert len(captures) >= 2**5 - 1
    assert len(captures) == len(takeable(C("10♣"), cards("A♣ 9♣ 2♣ 8♣ 3♣ 7♣ 4♣ 6♣ 5♣ 5♦")))


def test_D3_multi_capture_with_builds_takes_any_of_them_with_any_division():
    ten = Build(cards=cards("4♠ 6♠"), value=10, owner=1)
    other = Build(cards=cards("3♠ 7♠"), value=10, owner=1)
    table = (*cards("A♣ 9♣ 2♣ 8♣"), ten, other)
    moves = SumCapture(multi_capture=True).moves(table, cards("10♣"), 0)
    takes = {m.taken for m in moves if type(m) is Capture}
    # (no cards, A+9, 2+8, both pairs) x (no build, either, both), less the empty set
    assert len(takes) == 4 * 4 - 1
    assert takes == takeable(C("10♣"), table)


def test_D3_multi_capture_play_accepts_a_division_it_finds_directly():
    rule = SumCapture(multi_capture=True)
    table = cards("A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ 3♣ 3♦ 3♥ 3♠ 4♣ 4♦ 4♥")
    hand = cards("6♣ 10♣")
    taken = cards("A♣ A♦ A♥ 2♣ 2♦ 2♥ 3♣ 3♦ 3♥")  # 3+3, 3+2+A, 2+2+A+A
    move = Capture(card=C("6♣"), taken=taken)
    assert move in rule.moves(table, hand, 0)
    hand_after, left, took, xeri_kind = rule.play(table, hand, 0, move)
    assert hand_after == cards("10♣")
    assert took == (*taken, C("6♣"))
    assert left == tuple(t for t in table if t not in taken)
    assert xeri_kind is None
    for wrong in ("A♣ A♦ A♥ A♠ 3♣ 3♦ 2♣ 2♦", "4♣ 4♦ 4♥", "4♣ 4♦ 4♥ 3♣ 3♦ A♣ A♦"):
        # 14 is no multiple of 6; 12 and 18 are, but a 4 needs a 2 or two aces
        move = Capture(card=C("6♣"), taken=cards(wrong))
        assert move not in rule.moves(table, hand, 0)
        with pytest.raises(IllegalMoveError, match="do not add up to 6"):
            rule.play(table, hand, 0, move)


# --- no cache ---------------------------------------------------------------------------


def reachable(value: object, depth: int) -> list[object]:
    """Objects reachable from `value` through lists, tuples, sets and dicts, `depth` deep."""
    out = [value]
    if depth and isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            out += reachable(item, depth - 1)
    elif depth and isinstance(value, dict):
        for key, item in value.items():
            out += reachable(key, depth - 1) + reachable(item, depth - 1)
    return out


def test_no_module_level_value_keeps_a_hand():
    rule = SumCapture(multi_capture=True, forced_capture=True)
    table = cards("A♣ 2♦ 3♥ 4♠ K♣")
    hand = cards("5♣ 6♦ 10♥ K♦")  # a fresh tuple, found below by identity
    moves = rule.moves(table, hand, 0)
    rule.play(table, hand, 0, moves[0])
    rule.needs(table, moves[0], 0)
    for name, held in vars(sums_module).items():
        if not name.startswith("__"):
            assert all(obj is not hand for obj in reachable(held, 4)), name

"""The sum family's target and values: a total with the card played (K1), values above 10
and ranks of several values (K2).

Every rule here is checked three ways against each other: the readable
engine (`moves`), the check of one move (`play`, and so `apply`) and the
lazy counts (`count_moves`, `move_at`); on small tables `play` is asked
about every set of table items, so a capture it wrongly accepts is found.
"""

# Test names carry the clause id as written in the rules (test_K1_..., test_K2_...).

from __future__ import annotations

import itertools
import random

import attrs
import pytest
from hypothesis import find

import xeri
from xeri import Capture, Card, Rank, RuleSetError, SumCapture, Trail, XeriKind
from xeri._families.sums import actions as sum_actions
from xeri.testing import rule_sets

C = Card.parse

ESCOBA = SumCapture(values=xeri.SCOPA_VALUES, total=15, builds=False)
"""Escoba's capture: the cards taken and the card played make 15."""
HIGH = dict(xeri.GERMAN_VALUES) | {Rank.JACK: 11, Rank.QUEEN: 12, Rank.KING: 13}
"""Pictures worth 11 to 13: every card has a value."""
TABLIC = dict(xeri.GERMAN_VALUES) | {
    Rank.ACE: (1, 11),
    Rank.JACK: 12,
    Rank.QUEEN: 13,
    Rank.KING: 14,
}
"""Tablić's values: the Ace 1 or 11, the pictures 12 to 14."""


def cards(text: str) -> tuple[Card, ...]:
    return tuple(C(name) for name in text.split())


def shown(rule: SumCapture, table: str, hand: str) -> list[str]:
    return [str(m) for m in rule.moves(cards(table), cards(hand), 0)]


# --- K1: a total with the card played ------------------------------------------------


def test_K1_the_cards_taken_and_the_card_played_make_the_total():
    assert shown(ESCOBA, "5♣ 2♦ 3♥ K♦ 7♠", "5♦") == [
        "5♦ takes 2♦+3♥+5♣",
        "5♦ takes 3♥+7♠",
        "5♦ takes K♦",  # the King is worth 10
        "5♦ free",
    ]
    assert shown(ESCOBA, "2♣ 2♦ 4♥", "7♠ K♣") == ["7♠ takes 2♣+2♦+4♥", "7♠ free", "K♣ free"]


def test_K1_a_card_that_reaches_the_total_alone_takes_nothing_by_sum_and_a_picture_its_rank():
    rule = SumCapture(total=10, builds=False)
    assert shown(rule, "A♣ 9♦ K♠", "10♦ K♣") == ["10♦ free", "K♣ takes K♠", "K♣ free"]


def test_K1_a_capture_that_clears_the_table_is_a_xeri():
    table, hand = cards("2♣ 3♦"), cards("4♠ K♥")
    rest, left, taken, kind = ESCOBA.play(table, hand, 0, Capture(card=C("K♥"), taken=table))
    assert (rest, left, kind) == (cards("4♠"), (), XeriKind.XERI)
    assert sorted(taken, key=xeri.DECK.index) == sorted((*table, C("K♥")), key=xeri.DECK.index)


def test_K1_play_refuses_a_capture_that_does_not_make_the_total_and_apply_leaves_the_state():
    with pytest.raises(xeri.IllegalMoveError, match=r"do not make 15 with 5♦"):
        ESCOBA.play(cards("5♣ 2♦"), cards("5♦"), 0, Capture(card=C("5♦"), taken=cards("5♣")))
    rules = attrs.evolve(xeri.SCOPA, name="escoba-test", capture=ESCOBA, redeal=xeri.Redeal.NEVER)
    state = xeri.new_game(rules, rng=random.Random(4))
    before = xeri.to_json(state)
    legal = set(xeri.legal_moves(state))
    card = state.hands[state.to_move][0]
    for size in (1, 2):
        for taken in itertools.combinations(state.table, size):
            move = Capture(card=card, taken=taken)
            if move not in legal:
                with pytest.raises(xeri.IllegalMoveError):
                    xeri.apply(state, move)
    assert xeri.to_json(state) == before


def test_K1_equal_first_takes_a_single_card_that_makes_the_total_alone():
    rule = attrs.evolve(ESCOBA, equal_first=True)
    assert shown(rule, "2♣ 3♦ 5♥ K♠", "5♦") == ["5♦ takes K♠", "5♦ free"]
    with pytest.raises(xeri.IllegalMoveError, match=r"must be taken alone"):
        rule.play(
            cards("2♣ 3♦ 5♥ K♠"), cards("5♦"), 0, Capture(card=C("5♦"), taken=cards("2♣ 3♦ 5♥"))
        )


def test_K1_forced_capture_and_card_must_capture_count_captures_of_the_total():
    forced = attrs.evolve(ESCOBA, forced_capture=True)
    assert shown(forced, "K♣", "5♦ 6♥") == ["5♦ takes K♣"]
    must = attrs.evolve(ESCOBA, card_must_capture=True)
    assert shown(must, "K♣", "5♦ 6♥") == ["5♦ takes K♣", "6♥ free"]
    with pytest.raises(xeri.IllegalMoveError, match="compulsory"):
        forced.play(cards("K♣"), cards("5♦ 6♥"), 0, Trail(card=C("6♥")))


@pytest.mark.parametrize("bad", [1, 41, True, "15", 15.0])
def test_K1_a_bad_total_is_refused(bad):
    with pytest.raises(
        RuleSetError, match=r"SumCapture\.total must be None or an int from 2 to 40"
    ):
        SumCapture(total=bad, builds=False)


def test_K1_a_total_needs_no_builds_and_no_multi_capture():
    with pytest.raises(RuleSetError, match=r"SumCapture\.total: .* needs builds=False"):
        SumCapture(total=15)
    with pytest.raises(RuleSetError, match=r"needs multi_capture=False"):
        SumCapture(total=15, builds=False, multi_capture=True)


# --- K2: values above 10, ranks of several values --------------------------------------


def test_K2_pictures_above_ten_take_sums_and_builds_reach_the_largest_value():
    rule = SumCapture(values=HIGH)
    moves = shown(rule, "6♣ 7♦", "K♥ 6♠ K♣")
    assert "K♥ takes 6♣+7♦" in moves
    assert "6♠ on 7♦ makes 13" in moves  # a build of 13: the mover keeps a King
    assert rule.value(C("K♥")) == 13
    with pytest.raises(xeri.IllegalMoveError, match="may not exceed 13"):
        rule.play(
            cards("9♦"), cards("6♠ K♣"), 0, xeri.Combine(card=C("6♠"), onto=C("9♦"), value=15)
        )


def test_K2_a_rank_of_several_values_counts_as_any_of_them():
    rule = SumCapture(values=TABLIC, builds=False)
    assert shown(rule, "A♣ 2♦ 3♣ 9♥ K♠", "A♦ K♣") == [
        "A♦ takes A♣",
        "A♦ takes 2♦+9♥",  # the Ace played counts 11
        "A♦ free",
        "K♣ takes A♣+3♣",  # the Ace taken counts 11
        "K♣ takes 2♦+3♣+9♥",
        "K♣ takes K♠",
        "K♣ free",
    ]
    assert rule.value(C("A♦")) == 1  # the lowest; card_values gives them all
    assert rule.card_values(C("A♦")) == (1, 11)
    assert rule.card_values(C("K♦")) == (14,)


@pytest.mark.parametrize(
    ("values", "options", "named"),
    [
        (TABLIC, {"multi_capture": True, "builds": False}, "A=(1, 11), J=12, Q=13, K=14"),
        (HIGH, {"multi_capture": True}, "J=11, Q=12, K=13"),
        (HIGH, {"multi_builds": True}, "J=11, Q=12, K=13"),
        ({Rank.ACE: (2, 3)}, {"multi_capture": True, "builds": False}, "A=(2, 3)"),
        ({Rank.KING: 40}, {"multi_capture": True, "multi_builds": True}, "K=40"),
    ],
)
def test_K2_groups_of_one_value_need_single_values_up_to_10(values, options, named):
    # Dividing cards into groups of a value above 10, or of cards of several
    # values, has no bounded count of its moves: a table of low cards under
    # groups of 20 ran past a minute. The rule set is refused when it is made,
    # naming the options and the values, rather than stalling in play.
    grouped = " and ".join(n for n in ("multi_capture", "multi_builds") if options.get(n))
    with pytest.raises(RuleSetError, match=rf"SumCapture\.{grouped} divides cards into gr") as e:
        SumCapture(values=values, **options)
    assert str(e.value).endswith(f"not {named}")
    assert "single int from 1 to 10 (K2)" in str(e.value)
    # The same values without groups, and the same options with German values, are fine.
    plain = {k: v for k, v in options.items() if k not in ("multi_capture", "multi_builds")}
    assert SumCapture(values=values, **plain).values == SumCapture(values=values).values
    assert SumCapture(**options).multi_capture == options.get("multi_capture", False)


def test_K2_values_are_written_in_one_canonical_form():
    assert SumCapture(values={Rank.ACE: [11, 1]}, builds=False).values == ((Rank.ACE, (1, 11)),)
    assert SumCapture(values={Rank.ACE: (5,)}) == SumCapture(values={Rank.ACE: 5})
    rule = attrs.evolve(
        xeri.GERMAN, name="tablic-test", capture=SumCapture(values=TABLIC, builds=False)
    )
    text = xeri.to_json(rule)
    assert "[1,[1,11]]" in text
    assert xeri.from_json(text) == rule


ROYAL = dict(xeri.GERMAN_VALUES) | {
    Rank.ACE: (1, 14),
    Rank.JACK: 11,
    Rank.QUEEN: 12,
    Rank.KING: 13,
}
"""Royal Casino's values: the Ace 1 or 14, the pictures 11 to 13."""


def test_K2_several_values_need_single_builds_and_have_no_actions_with_builds():
    with pytest.raises(RuleSetError, match=r"A may count several values, which needs multi_b"):
        SumCapture(values=TABLIC, multi_builds=True)
    with pytest.raises(RuleSetError, match="no action encoding"):
        SumCapture(values=ROYAL).action_count()


def test_K2_a_card_of_several_values_builds_with_the_value_the_builder_announces():
    rule = SumCapture(values=ROYAL)
    moves = shown(rule, "2♣", "A♦ K♠ 3♥")
    assert "A♦ on 2♣ makes 3" in moves  # the Ace as 1: the 3 takes it
    assert "A♦ on 2♣ makes 13" not in moves  # 14 + 2 is above the largest value, 14
    assert shown(rule, "K♣", "A♦ K♠") == ["A♦ free", "K♠ takes K♣", "K♠ free"]  # no 14 kept
    assert shown(rule, "K♣", "A♦ A♠")[:2] == ["A♦ on K♣ makes 14", "A♦ free"]  # A♠ takes it
    built = rule.play(
        cards("K♣"), cards("A♦ A♠"), 0, xeri.Combine(card=C("A♦"), onto=C("K♣"), value=14)
    )
    assert built[1] == (xeri.Build(cards=cards("K♣ A♦"), value=14, owner=0),)
    with pytest.raises(xeri.IllegalMoveError, match="a value of A♦ plus one of the item's: 14, 27"):
        rule.play(
            cards("K♣"), cards("A♦ A♠"), 0, xeri.Combine(card=C("A♦"), onto=C("K♣"), value=15)
        )


def test_K2_D4_gives_each_build_a_card_of_its_own_when_cards_have_several_values():
    rule = SumCapture(values=dict(xeri.GERMAN_VALUES) | {Rank.ACE: (4, 14)})
    four = xeri.Build(cards=cards("2♣ 2♦"), value=4, owner=0)
    table = (C("9♣"), four)
    make = xeri.Combine(card=C("5♠"), onto=C("9♣"), value=14)
    # the Ace can take the 4 or a 14, not both: no build of 14 while it is the only card left
    assert make not in rule.moves(table, cards("A♦ 5♠"), 0)
    with pytest.raises(xeri.IllegalMoveError, match=r"\(D4\)"):
        rule.play(table, cards("A♦ 5♠"), 0, make)
    assert make in rule.moves(table, cards("A♦ 4♥ 5♠"), 0)  # the 4 takes the 4, the Ace the 14
    needs = rule.needs(table, make, 0)
    assert needs.at_least  # Hall's condition: a card for each build, and two for both
    assert any(n == 2 for _, n in needs.at_least)


def test_K2_the_presets_keep_their_values_and_documents():
    for rules in (xeri.GERMAN, xeri.SCOPA, xeri.CASSINO):
        assert '"total"' not in xeri.to_json(rules)
        assert rules.capture.total is None
        assert rules.capture._masks is None  # the preset's own fast path
    assert xeri.SumCapture().values == xeri.GERMAN_VALUES


RULES = {
    "escoba": ESCOBA,
    "escoba-equal": attrs.evolve(ESCOBA, equal_first=True, card_must_capture=True),
    "high": SumCapture(values=HIGH),
    "high-raise": SumCapture(values=HIGH, self_raise=True, forced_capture=True),
    "tablic": SumCapture(values=TABLIC, builds=False),
    "tablic-total": SumCapture(values=TABLIC, builds=False, total=20, forced_capture=True),
    "royal": SumCapture(values=ROYAL),
    "royal-raise": SumCapture(values=ROYAL, self_raise=True, equal_first=True, forced_capture=True),
    "royal-equal": SumCapture(values=ROYAL, self_raise=True, equal_first=True),
}


@pytest.mark.parametrize("name", sorted(RULES))
def test_K1_K2_play_accepts_exactly_the_listed_captures_and_the_counts_agree(name):
    rule = RULES[name]
    rng = random.Random(name)
    for _ in range(40):
        deck = list(xeri.DECK)
        rng.shuffle(deck)
        size = rng.randrange(0, 8)
        table = tuple(deck[:size])
        hand = tuple(sorted(deck[size : size + 3], key=xeri.DECK.index))
        if rule.builds and rng.random() < 0.7:  # a build or two on the table, of either seat
            for pair in (deck[-2:], deck[-4:-2])[: rng.randrange(1, 3)]:
                sums = [a + b for a in rule.card_values(pair[0]) for b in rule.card_values(pair[1])]
                if sums and min(sums) <= rule.card_values(C("K♣"))[-1]:
                    build = xeri.Build(cards=tuple(pair), value=min(sums), owner=rng.randrange(2))
                    table += (build,)
                    size += 1
        moves = rule.moves(table, hand, 0)
        assert list(moves) == sorted(moves, key=xeri.move_sort_key)
        assert rule.count_moves(table, hand, 0) == len(moves)
        assert [rule.move_at(table, hand, 0, i) for i in range(len(moves))] == list(moves)
        listed = set(moves)
        for card in hand:
            for k in range(1, size + 1):
                for taken in itertools.combinations(table, k):
                    move = Capture(card=card, taken=taken)
                    assert rule.has_move(table, hand, 0, move) == (move in listed), move
            for item in table if rule.builds else ():
                for value in range(1, 30):
                    move = xeri.Combine(card=card, onto=item, value=value)
                    assert rule.has_move(table, hand, 0, move) == (move in listed), move


@pytest.mark.parametrize("name", ["tablic", "escoba-equal"])
def test_K1_K2_the_action_encoding_names_every_legal_move_or_is_refused(name):
    rule = RULES[name]
    if sum_actions._action_count(rule.values, rule.total) > 32_768:
        with pytest.raises(RuleSetError, match="more than the 32,768 an action encoding holds"):
            rule.action_count()
        return
    count = rule.action_count()
    rng = random.Random(name)
    for _ in range(20):
        deck = list(xeri.DECK)
        rng.shuffle(deck)
        table, hand = tuple(deck[:6]), tuple(sorted(deck[6:9], key=xeri.DECK.index))
        for move in rule.moves(table, hand, 0):
            action = rule.action_of(move, table, 0)
            assert 0 <= action < count
            assert rule.move_of(action, table, hand, 0) == move


def test_K2_a_small_table_of_several_values_has_an_action_encoding_counted_by_sets():
    values = ((Rank.ACE, (1, 11)), (Rank.KING, 13))
    assert sum_actions._action_count(values, None) == len(sum_actions._SumTable(values).actions)
    rule = SumCapture(values=values, builds=False)
    table, hand = cards("A♣ A♦ K♠"), cards("A♥ K♣")
    for move in rule.moves(table, hand, 0):
        assert rule.move_of(rule.action_of(move, table, 0), table, hand, 0) == move


def _sum_capture(rules: xeri.RuleSet) -> SumCapture | None:
    capture = rules.capture
    return capture if isinstance(capture, SumCapture) else None


def test_K1_K2_generated_rule_sets_draw_totals_high_values_and_several_values():
    def has(test):
        return lambda rules: (c := _sum_capture(rules)) is not None and test(c)

    found = find(rule_sets(), has(lambda c: c.total is not None))
    assert found.capture.total in (11, 15)
    found = find(rule_sets(), has(lambda c: any(type(v) is tuple for _, v in c.values)))
    assert found.capture.card_values(C("A♣")) == (1, 11)
    found = find(rule_sets(), has(lambda c: c.value(C("K♣")) == 13 and c.builds))
    assert found.capture.value(C("J♣")) == 11


def test_K1_K2_a_document_with_a_bad_total_or_bad_values_is_refused_naming_the_field():
    rules = attrs.evolve(
        xeri.GERMAN, name="k-json", capture=SumCapture(values=TABLIC, builds=False)
    )
    text = xeri.to_json(rules)
    assert '"values":[[1,[1,11]]' in text
    for bad, message in (
        (text.replace('"builds":false', '"builds":false,"total":"15"'), r"SumCapture\.total"),
        (text.replace('"builds":false', '"builds":false,"total":1'), "from 2 to 40"),
        (text.replace("[1,[1,11]]", "[1,[11,11]]"), r"SumCapture\.values must be"),
        (text.replace("[1,[1,11]]", "[1,[1,41]]"), r"SumCapture\.values must be"),
        (text.replace("[1,[1,11]]", f"[1,{list(range(1, 15))}]".replace(" ", "")), "at most 13"),
        (
            text.replace('"builds":false', '"builds":true,"multi_builds":true'),
            "needs multi_builds=False",
        ),
    ):
        with pytest.raises(xeri.InvalidStateError, match=message):
            xeri.from_json(bad)

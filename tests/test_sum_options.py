"""`SumCapture`'s options for the rest of the fishing family: values, builds, raises, S3's rules.

Each option is checked on hand-made tables (the moves listed, and the
reason `play` gives for refusing a move), then over a few hundred states
reached by random play of a rule set with that option: every listed move
applies, `play` accepts exactly the listed moves of the hand held, and
`needs` says exactly which hands list a move. German Xeri's own
`SumCapture()` keeps its repr, its JSON and its action encoding.
"""

# Test names carry the clause id as written in the rules (test_D3_..., test_S3_...).

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from support import cards, replaying
from xeri import (
    DECK,
    GERMAN,
    ITALIAN_DECK,
    SCOPA,
    Build,
    Capture,
    Card,
    Combine,
    GameState,
    IllegalMoveError,
    Rank,
    RuleSetError,
    SumCapture,
    Trail,
)
from xeri._families.protocol import NO_NEEDS
from xeri._families.sums.rule import GERMAN_VALUES, SCOPA_VALUES
from xeri.testing import rule_sets

C = Card.parse
GOLDEN = Path(__file__).parent / "golden"

SCOPA_RULE = SumCapture(values=SCOPA_VALUES, builds=False, raises=False, equal_first=True)


def refusal(rule: SumCapture, table, hand, move, seat: int = 0) -> str:
    """The message with which `play` refuses `move`."""
    with pytest.raises(IllegalMoveError) as caught:
        rule.play(table, hand, seat, move)
    return str(caught.value)


# --- values (S1) ----------------------------------------------------------------------


def test_S1_scopa_values_give_pictures_a_value():
    scopa = SumCapture(values=SCOPA_VALUES)
    german = SumCapture()
    expected = {"A♠": 1, "2♣": 2, "7♦": 7, "J♥": 8, "Q♣": 9, "K♠": 10}
    for name, v in expected.items():
        assert scopa.value(C(name)) == v
    for name in ("8♣", "9♦", "10♥"):  # not in the Italian deck: no value
        assert scopa.value(C(name)) is None
    assert [german.value(C(n)) for n in ("A♠", "10♥", "J♥", "Q♣", "K♠")] == [
        1,
        10,
        None,
        None,
        None,
    ]
    assert all(german.value(c) == xeri.card_value(c) for c in DECK)
    assert (
        *((Rank(v), v) for v in range(1, 8)),
        (Rank.JACK, 8),
        (Rank.QUEEN, 9),
        (Rank.KING, 10),
    ) == SCOPA_VALUES


def test_S1_a_king_takes_a_six_and_a_four_with_scopa_values():
    rule = SumCapture(values=SCOPA_VALUES, builds=False)
    table = cards("4♦ 6♣ K♥")
    hand = cards("K♠")
    takes = {m.taken for m in rule.moves(table, hand, 0) if isinstance(m, Capture)}
    assert takes == {cards("4♦ 6♣"), cards("K♥")}
    out = rule.play(table, hand, 0, Capture(card=C("K♠"), taken=cards("4♦ 6♣")))
    assert out[:3] == ((), cards("K♥"), cards("4♦ 6♣ K♠"))
    # A Queen (9) takes 5 + 4, a Jack (8) 5 + 3; with equal_first the lone King comes first.
    assert Capture(card=C("Q♠"), taken=cards("4♦ 5♣")) in rule.moves(cards("4♦ 5♣"), cards("Q♠"), 0)
    assert Capture(card=C("J♠"), taken=cards("3♦ 5♣")) in rule.moves(cards("3♦ 5♣"), cards("J♠"), 0)
    assert [m.taken for m in SCOPA_RULE.moves(table, hand, 0) if isinstance(m, Capture)] == [
        cards("K♥")
    ]
    # German values: a King takes only a King.
    german = SumCapture()
    assert german.moves(table, hand, 0) == (
        Capture(card=C("K♠"), taken=cards("K♥")),
        Trail(card=C("K♠")),
    )
    message = refusal(german, table, hand, Capture(card=C("K♠"), taken=cards("4♦ 6♣")))
    assert "a picture takes only loose cards of its own rank, one at a time" in message


def test_S1_scopa_values_build_with_pictures_when_builds_are_allowed():
    rule = SumCapture(values=SCOPA_VALUES)
    table = cards("6♦")
    hand = cards("4♣ K♠")
    assert Combine(card=C("4♣"), onto=C("6♦"), value=10) in rule.moves(table, hand, 0)
    # A Jack (8) laid on a 2 announces 10, taken by the King.
    assert Combine(card=C("J♣"), onto=C("2♦"), value=10) in rule.moves(
        cards("2♦"), cards("J♣ K♠"), 0
    )
    assert Combine(card=C("4♣"), onto=C("6♦"), value=10) not in SumCapture().moves(table, hand, 0)


def test_S1_values_are_kept_as_sorted_pairs():
    assert SumCapture(values=dict(SCOPA_VALUES)) == SumCapture(values=SCOPA_VALUES)
    assert SumCapture(values=list(reversed(SCOPA_VALUES))).values == SCOPA_VALUES
    assert SumCapture(values=GERMAN_VALUES) == SumCapture()
    assert SumCapture(values={Rank.KING: 10}).value(C("K♣")) == 10
    assert SumCapture(values={Rank.KING: 10}).value(C("A♣")) is None  # only the Kings count


def test_S1_bad_values_are_refused_with_a_rule_set_error():
    for bad in (
        {Rank.ACE: 41},  # above MAX_VALUE (K2)
        {Rank.ACE: 0},
        {Rank.ACE: (1, 1)},  # several values must differ (K2)
        {Rank.ACE: ()},
        {Rank.ACE: (0, 11)},
        {Rank.ACE: (1, 41)},
        {Rank.ACE: (1, True)},
        ((Rank.ACE, 1), (Rank.ACE, 2)),
        ((1, 1),),
        "german",
        ((Rank.ACE, True),),
    ):
        with pytest.raises(RuleSetError, match=r"SumCapture\.values must be"):
            SumCapture(values=bad)


@pytest.mark.parametrize(
    "field", ["builds", "raises", "equal_first", "card_must_capture", "multi_capture"]
)
def test_the_options_must_be_booleans(field):
    with pytest.raises(RuleSetError, match=f"SumCapture.{field} must be True or False"):
        SumCapture(**{field: 1})


# --- builds and raises (D3) ------------------------------------------------------------


def test_D3_without_builds_there_is_no_combine():
    rule = SumCapture(builds=False)
    table = cards("3♦ 9♣")
    hand = cards("A♥ 2♣ 5♠")
    moves = rule.moves(table, hand, 0)
    assert moves == (Trail(card=C("A♥")), Trail(card=C("2♣")), Trail(card=C("5♠")))
    with_builds = SumCapture().moves(table, hand, 0)
    assert Combine(card=C("2♣"), onto=C("3♦"), value=5) in with_builds
    message = refusal(rule, table, hand, Combine(card=C("2♣"), onto=C("3♦"), value=5))
    assert "this game has no builds: a card captures or is laid free" in message


def test_D3_without_raises_a_build_is_not_combined_onto_but_a_loose_card_is():
    rule = SumCapture(raises=False)
    build = Build(cards=cards("2♣ 3♦"), value=5, owner=1)
    table = (build, C("4♥"))
    hand = cards("2♥ 6♣ 7♠")
    moves = rule.moves(table, hand, 0)
    raise_ = Combine(card=C("2♥"), onto=build, value=7)
    build_on_loose = Combine(card=C("2♥"), onto=C("4♥"), value=6)
    assert raise_ not in moves
    assert build_on_loose in moves
    assert not [m for m in moves if isinstance(m, Combine) and isinstance(m.onto, Build)]
    assert raise_ in SumCapture().moves(table, hand, 0)  # allowed by default
    assert "this game does not allow raising a build" in refusal(rule, table, hand, raise_)
    new_hand, new_table, taken, _ = rule.play(table, hand, 0, build_on_loose)
    assert (new_hand, taken) == (cards("6♣ 7♠"), None)
    assert new_table == (build, Build(cards=cards("4♥ 2♥"), value=6, owner=0))
    # Nor may the owner raise its own build, even with self_raise.
    own = SumCapture(raises=False, self_raise=True)
    mine = Build(cards=cards("2♣ 3♦"), value=5, owner=0)
    assert "does not allow raising" in refusal(
        own, (mine,), cards("2♥ 5♠ 7♠"), Combine(card=C("2♥"), onto=mine, value=7)
    )


# --- S3: an equal card first, a card that can capture must ----------------------------


def test_S3_equal_first_a_card_of_equal_value_on_the_table_is_taken_alone():
    rule = SumCapture(equal_first=True)
    table = cards("3♣ 4♦ 7♥")
    hand = cards("7♠")
    captures = [m for m in rule.moves(table, hand, 0) if isinstance(m, Capture)]
    assert captures == [Capture(card=C("7♠"), taken=cards("7♥"))]
    total = Capture(card=C("7♠"), taken=cards("3♣ 4♦"))
    assert total in SumCapture().moves(table, hand, 0)
    message = refusal(rule, table, hand, total)
    assert "a card of value 7 lies on the table, so it must be taken alone, not a sum (S3)" in (
        message
    )
    # With no card of its value on the table, a card takes a sum as before.
    assert Capture(card=C("7♠"), taken=cards("3♣ 4♦")) in rule.moves(cards("3♣ 4♦ 9♥"), hand, 0)
    # Two equal cards: either one, alone.
    two = [m for m in rule.moves(cards("3♣ 4♦ 7♥ 7♦"), hand, 0) if isinstance(m, Capture)]
    assert [m.taken for m in two] == [cards("7♦"), cards("7♥")]


def test_S3_equal_first_leaves_a_build_of_the_value_takeable_alone():
    rule = SumCapture(equal_first=True)
    build = Build(cards=cards("2♣ 5♦"), value=7, owner=1)
    table = (C("3♣"), C("4♦"), C("7♥"), build)
    captures = [m.taken for m in rule.moves(table, cards("7♠"), 0) if isinstance(m, Capture)]
    assert captures == [cards("7♥"), (build,)]


def test_S3_card_must_capture_a_card_that_can_capture_is_not_laid_free():
    rule = SumCapture(builds=False, card_must_capture=True)
    table = cards("5♣")
    hand = cards("5♦ 9♠")
    assert rule.moves(table, hand, 0) == (
        Capture(card=C("5♦"), taken=cards("5♣")),
        Trail(card=C("9♠")),
    )
    assert "5♦ can capture, so it may not be laid free (S3)" in refusal(
        rule, table, hand, Trail(card=C("5♦"))
    )
    assert rule.play(table, hand, 0, Trail(card=C("9♠")))[1] == cards("5♣ 9♠")
    # Without the option both may be laid free.
    assert Trail(card=C("5♦")) in SumCapture(builds=False).moves(table, hand, 0)
    # On an empty table every card is laid free.
    assert rule.moves((), hand, 0) == (Trail(card=C("5♦")), Trail(card=C("9♠")))
    # A card that can take by a sum must too.
    assert rule.moves(cards("2♣ 3♦"), cards("5♦"), 0) == (
        Capture(card=C("5♦"), taken=cards("2♣ 3♦")),
    )


def test_S3_card_must_capture_needs_builds_off():
    with pytest.raises(RuleSetError, match="card_must_capture needs builds=False"):
        SumCapture(card_must_capture=True)
    with pytest.raises(RuleSetError, match="card_must_capture needs builds=False"):
        SumCapture(card_must_capture=True, builds=True, raises=False)


def test_S3_the_scopa_preset_combines_the_options():
    rule = SCOPA.capture
    assert rule == SumCapture(
        values=SCOPA_VALUES, builds=False, raises=False, equal_first=True, card_must_capture=True
    )
    # A King: takes the lone King alone, though 6 + 4 also add up to 10; the 2 is laid free.
    table = cards("4♦ 6♣ K♥")
    hand = cards("2♠ K♠")
    assert rule.moves(table, hand, 0) == (
        Trail(card=C("2♠")),
        Capture(card=C("K♠"), taken=cards("K♥")),
    )


# --- the action encoding ----------------------------------------------------------------


@pytest.mark.parametrize(
    "capture",
    [
        SumCapture(values=SCOPA_VALUES),
        SumCapture(builds=False),
        SumCapture(raises=False),
        SumCapture(equal_first=True),
        SumCapture(builds=False, card_must_capture=True),
    ],
    ids=["values", "builds", "raises", "equal-first", "card-must-capture"],
)
def test_the_action_encoding_numbers_the_moves_of_every_option_but_multi_builds(capture):
    # Values renumber the table; the other options only narrow the legal moves.
    rules = attrs.evolve(GERMAN, name="german-option-test", capture=capture)
    assert xeri.num_actions(rules) == 18_308
    rng = random.Random(0)
    state = xeri.new_game(rules, rng=rng)
    while not state.is_round_over:
        actions = xeri.legal_actions(state)
        moves = xeri.legal_moves(state)
        assert sorted(xeri.action_to_move(state, a) for a in actions) == sorted(moves)
        state = xeri.apply(state, xeri.action_to_move(state, rng.choice(actions)))


def test_the_action_encoding_refuses_multi_builds():
    multi = SumCapture(multi_builds=True)
    rules = attrs.evolve(GERMAN, name="german-multi-builds-test", capture=multi)
    with pytest.raises(RuleSetError, match=r"multi_builds=True\) has no action encoding"):
        xeri.num_actions(rules)


def test_german_values_keep_their_action_encoding_with_any_deck():
    assert xeri.num_actions(GERMAN) == 18_308
    small = attrs.evolve(GERMAN, name="german-italian-option-test", deck=ITALIAN_DECK)
    assert xeri.num_actions(small) == 18_308
    state = xeri.new_game(small, rng=random.Random(1))
    assert len(xeri.legal_actions(state)) == len(xeri.legal_moves(state))


# --- German Xeri unchanged --------------------------------------------------------------


def test_D3_german_sum_capture_is_written_as_before():
    assert GERMAN.capture == SumCapture()
    data = json.loads(xeri.to_json(attrs.evolve(GERMAN, name="german-fields-test")))["data"]
    assert data["capture"] == {
        "SumCapture": {"forced_capture": False, "multi_capture": False, "self_raise": False}
    }
    assert "deck" not in data
    assert "categories" not in data


def test_D3_german_sum_capture_reads_as_before():
    assert (
        repr(SumCapture())
        == "SumCapture(multi_capture=False, forced_capture=False, self_raise=False)"
    )
    assert repr(SumCapture(self_raise=True)) == (
        "SumCapture(multi_capture=False, forced_capture=False, self_raise=True)"
    )


@pytest.mark.parametrize("name", ["state-german-build", "observation-german", "rules-german"])
def test_D3_the_german_golden_files_still_load_and_write_as_committed(name):
    for path in (GOLDEN / f"{name}.json", GOLDEN / "v2" / f"{name}.json"):
        text = path.read_text(encoding="utf-8").strip()
        value = xeri.from_json(text)
        rules = value if isinstance(value, xeri.RuleSet) else value.rules
        assert rules is GERMAN
        assert rules.capture == SumCapture()
    v2 = (GOLDEN / "v2" / f"{name}.json").read_text(encoding="utf-8").strip()
    assert xeri.to_json(xeri.from_json(v2)) == v2


def test_D3_a_non_german_option_is_written_by_fields_and_read_back():
    rules = attrs.evolve(
        GERMAN, name="german-options-test", capture=SumCapture(raises=False, equal_first=True)
    )
    text = xeri.to_json(rules)
    assert json.loads(text)["data"]["capture"] == {
        "SumCapture": {
            "equal_first": True,
            "forced_capture": False,
            "multi_capture": False,
            "raises": False,
            "self_raise": False,
        }
    }
    assert xeri.from_json(text, expect=xeri.RuleSet) == rules
    scopa = attrs.evolve(SCOPA, name="scopa-fields-test")
    capture = json.loads(xeri.to_json(scopa))["data"]["capture"]["SumCapture"]
    assert capture["values"] == [[r.value, v] for r, v in SCOPA_VALUES]
    assert (capture["builds"], capture["card_must_capture"]) == (False, True)
    back = xeri.from_json(xeri.to_json(scopa), expect=xeri.RuleSet)
    assert back.capture == SCOPA.capture
    assert back.capture.value(C("K♠")) == 10


# --- properties over reachable states ----------------------------------------------------

OPTIONS = {
    "scopa-values": attrs.evolve(
        GERMAN,
        name="german-scopa-values-test",
        deck=ITALIAN_DECK,
        capture=SumCapture(values=SCOPA_VALUES),
    ),
    "no-builds": attrs.evolve(
        GERMAN, name="german-no-builds-test", capture=SumCapture(builds=False)
    ),
    "no-raises": attrs.evolve(
        GERMAN, name="german-no-raises-test", capture=SumCapture(raises=False)
    ),
    "equal-first": attrs.evolve(
        GERMAN, name="german-equal-first-test", capture=SumCapture(equal_first=True)
    ),
    "card-must-capture": attrs.evolve(
        GERMAN,
        name="german-must-capture-test",
        capture=SumCapture(builds=False, card_must_capture=True),
    ),
    "scopa": SCOPA,
}
STATES = 200
"""States checked per rule set."""


def values_of(rule: SumCapture, item: Card | Build) -> int | None:
    return item.value if isinstance(item, Build) else rule.value(item)


def meets_d4(rule: SumCapture, table, hand: tuple[Card, ...], seat: int) -> bool:
    """D4 for `seat` before its move: the hands a seat to move can hold."""
    owned = Counter(t.value for t in table if isinstance(t, Build) and t.owner == seat)
    held = Counter(rule.value(c) for c in hand)
    return all(held[v] >= n for v, n in owned.items())


def random_hand(rng, rule, pool, table, seat, *, size, card=None):
    """A random hand of `size` from `pool` (with `card` in it if given) meeting D4, or None."""
    for _ in range(20):
        others = [c for c in pool if c is not card]
        hand = rng.sample(others, size - (card is not None))
        if card is not None:
            hand.append(card)
        hand.sort(key=lambda c: c.index)
        if meets_d4(rule, table, tuple(hand), seat):
            return tuple(hand)
    return None


def candidates(rule: SumCapture, table, hand: tuple[Card, ...]) -> list[object]:
    """Moves of the cards of `hand`, legal or not: trails, every combine, single captures."""
    out: list[object] = []
    for card in hand:
        out.append(Trail(card=card))
        for item in table:
            out.append(Capture(card=card, taken=(item,)))
            a, b = rule.value(card), values_of(rule, item)
            if a is not None and b is not None:
                out.append(Combine(card=card, onto=item, value=a + b))
    return out


def reachable(rules: xeri.RuleSet, count: int):
    """`count` states with a seat to move, from seeded random play, combining half the time."""
    rng = random.Random(rules.name)
    found = 0
    while True:
        state = xeri.new_game(rules, rng=rng)
        while not state.is_round_over:
            yield state, rng
            found += 1
            if found == count:
                return
            moves = xeri.legal_moves(state)
            combines = [m for m in moves if isinstance(m, Combine)]
            if combines and rng.random() < 0.5:
                moves = tuple(combines)
            state = xeri.apply(state, rng.choice(moves))


def check_state_moves(state: GameState, rng: random.Random, seen: Counter[str]) -> None:
    """Every listed move applies; play and needs agree with moves for the hands held."""
    rules = state.rules
    rule: SumCapture = rules.capture
    seat = state.to_move
    table = state.table
    real = state.hands[seat]
    listed_real = rule.moves(table, real, seat)
    assert listed_real == xeri.legal_moves(state)
    assert list(listed_real) == sorted(set(listed_real))
    for move in listed_real:
        after = xeri.apply(state, move)
        if after.stock == state.stock and not after.is_round_over:  # no new deal
            assert after.hands[seat] == tuple(c for c in real if c != move.card)
        assert move.card not in after.hands[seat]
        seen["applied"] += 1
    # play accepts exactly the listed moves of the hand held.
    for move in {*listed_real, *candidates(rule, table, real)}:
        try:
            rule.play(table, real, seat, move)
        except IllegalMoveError:
            accepted = False
        else:
            accepted = True
        assert accepted == (move in listed_real), (move, table, real)
        seen[f"play {accepted}"] += 1
    # needs: a hand holding the card lists the move exactly when the needs hold.
    pool = [c for c in rules.deck if c not in rule.table_cards(table)]
    hands = {real}
    for _ in range(2):
        hand = random_hand(rng, rule, pool, table, seat, size=len(real))
        if hand is not None:
            hands.add(hand)
    listed = {hand: set(rule.moves(table, hand, seat)) for hand in hands}
    for move in sorted(set().union(*listed.values())):
        needs = rule.needs(table, move, seat)
        if not rule.builds:
            assert needs == NO_NEEDS
        assert needs.holds(real) == (move in listed[real]) or move.card not in real
        tried = [hand for hand in hands if move.card in hand]
        hand = random_hand(rng, rule, pool, table, seat, size=len(real), card=move.card)
        if hand is not None:
            tried.append(hand)
        for hand in tried:
            if hand not in listed:
                listed[hand] = set(rule.moves(table, hand, seat))
            assert (move in listed[hand]) == needs.holds(hand), (move, table, hand, needs)
            seen[f"needs {move in listed[hand]}"] += 1


def check_option(rules: xeri.RuleSet, check) -> Counter[str]:
    seen: Counter[str] = Counter()
    for state, rng in reachable(rules, STATES):
        check_state_moves(state, rng, seen)
        check(state, xeri.legal_moves(state), seen)
        seen["states"] += 1
    assert seen["states"] == STATES
    # Without builds a move's legality depends on the card and the table alone (D4 has
    # nothing to ask of the rest of the hand): every hand holding the card lists it.
    needs_false = rules.capture.builds
    for key in ("applied", "play True", "play False", "needs True", "needs False"):
        assert (seen[key] > 0) == (key != "needs False" or needs_false), (key, seen)
    return seen


def test_S1_scopa_values_properties_on_reachable_states():
    rule = OPTIONS["scopa-values"].capture

    def check(state: GameState, moves, seen: Counter[str]) -> None:
        for move in moves:
            if isinstance(move, Capture) and move.card.rank.is_picture:
                seen["picture sums"] += len(move.taken) > 1
                assert sum(values_of(rule, t) for t in move.taken) == rule.value(move.card)
            if isinstance(move, Combine) and move.card.rank.is_picture:
                seen["picture builds"] += 1

    seen = check_option(OPTIONS["scopa-values"], check)
    assert seen["picture sums"] > 0
    assert seen["picture builds"] > 0


def test_D3_no_builds_properties_on_reachable_states():
    def check(state: GameState, moves, seen: Counter[str]) -> None:
        assert not [m for m in moves if isinstance(m, Combine)]
        assert not [t for t in state.table if isinstance(t, Build)]

    check_option(OPTIONS["no-builds"], check)


def test_D3_no_raises_properties_on_reachable_states():
    def check(state: GameState, moves, seen: Counter[str]) -> None:
        assert not [m for m in moves if isinstance(m, Combine) and isinstance(m.onto, Build)]
        builds = [t for t in state.table if isinstance(t, Build)]
        assert all(len(b.cards) == 2 for b in builds)  # never raised
        seen["builds"] += len(builds)

    seen = check_option(OPTIONS["no-raises"], check)
    assert seen["builds"] > 0


def test_S3_equal_first_properties_on_reachable_states():
    rule = OPTIONS["equal-first"].capture

    def check(state: GameState, moves, seen: Counter[str]) -> None:
        loose = {rule.value(t) for t in state.table if isinstance(t, Card)}
        for move in moves:
            if isinstance(move, Capture) and rule.value(move.card) in loose:
                assert len(move.taken) == 1, move
                seen["equal first"] += 1

    seen = check_option(OPTIONS["equal-first"], check)
    assert seen["equal first"] > 0


def test_S3_card_must_capture_properties_on_reachable_states():
    def check(state: GameState, moves, seen: Counter[str]) -> None:
        captures = {m.card for m in moves if isinstance(m, Capture)}
        trails = {m.card for m in moves if isinstance(m, Trail)}
        hand = set(state.hands[state.to_move])
        assert trails == hand - captures  # exactly the cards that cannot capture trail
        seen["both"] += bool(captures and trails)

    seen = check_option(OPTIONS["card-must-capture"], check)
    assert seen["both"] > 0


def test_S3_scopa_properties_on_reachable_states():
    rule = SCOPA.capture

    def check(state: GameState, moves, seen: Counter[str]) -> None:
        assert not [m for m in moves if isinstance(m, Combine)]
        loose = {rule.value(t) for t in state.table}
        captures = {m.card for m in moves if isinstance(m, Capture)}
        assert {m.card for m in moves if isinstance(m, Trail)} == set(
            state.hands[state.to_move]
        ) - captures
        for move in moves:
            if isinstance(move, Capture) and rule.value(move.card) in loose:
                assert len(move.taken) == 1
        seen["sweeps"] += sum(
            1 for m in moves if isinstance(m, Capture) and len(m.taken) == len(state.table)
        )

    seen = check_option(SCOPA, check)
    assert seen["sweeps"] > 0


# --- rollout ---------------------------------------------------------------------------


@pytest.mark.parametrize("rules", list(OPTIONS.values()), ids=list(OPTIONS))
def test_X4_rollout_with_an_option_reaches_the_state_the_engine_reaches(rules):
    for seed in range(8):
        rng = random.Random(seed)
        start = xeri.new_game(rules, rng=rng)
        for _ in range(rng.randrange(10)):  # from a later point of the round now and then
            if start.is_round_over:
                break
            start = xeri.apply(start, rng.choice(xeri.legal_moves(start)))
        state, moves = start, []
        while not state.is_round_over:
            move = rng.choice(xeri.legal_moves(state))
            moves.append(move)
            state = xeri.apply(state, move)
        fast = xeri.rollout(start, random.Random(0), replaying(moves))
        assert fast == state
        assert fast.round_results == state.round_results


# --------------------------------------------------------------------------
# The moves listed are the values their public constructors make


def check_moves_as_constructed(rules: xeri.RuleSet, seed: int) -> None:
    """Random play of `rules`, mostly laying free; each listed move equals its constructor's."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    for _ in range(60):
        if state.is_round_over:
            break
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        moves = xeri.legal_moves(state)
        listed = tuple(moves) if len(moves) <= 2_000 else [moves[rng.randrange(len(moves))]]
        for move in listed:
            if type(move) is Capture:
                made = Capture(card=move.card, taken=move.taken)
            elif type(move) is Combine:
                made = Combine(card=move.card, onto=move.onto, value=move.value, also=move.also)
            else:
                continue
            assert made == move
            assert hash(made) == hash(move)
        # Mostly laid free, so that the table grows and builds stay on it.
        trails = [m for m in listed if type(m) is Trail]
        pick = trails if trails and rng.random() < 0.7 else list(listed)
        state = xeri.apply(state, pick[rng.randrange(len(pick))])


# Values that fall in deck order (an Ace of 9, a Nine of 1): captures are re-sorted.
FALLING = attrs.evolve(
    GERMAN,
    name="falling-values",
    capture=SumCapture(values=dict(GERMAN_VALUES) | {Rank.ACE: 9, Rank.NINE: 1}, self_raise=True),
)


@pytest.mark.parametrize("rules", [GERMAN, SCOPA, xeri.CASSINO, FALLING], ids=lambda r: r.name)
def test_D3_every_listed_move_equals_the_move_its_constructor_makes(rules):
    # The readable engine makes its moves with the fast constructors (no converter): each
    # must equal, and hash as, the move `Capture(...)`/`Combine(...)` makes of its parts,
    # with the items taken or grouped in their canonical order.
    for seed in range(6):
        check_moves_as_constructed(rules, seed)


@settings(max_examples=30, deadline=None)
@given(
    rules=rule_sets(decks=True, sweeps=True).filter(lambda r: not r.capture.pile),
    seed=st.integers(0, 2**32),
)
def test_D3_generated_sum_rules_list_the_moves_their_constructors_make(rules, seed):
    check_moves_as_constructed(rules, seed)

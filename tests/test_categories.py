"""Named scoring categories: the built-ins, the standard scorer's sheet and checks, custom ones.

A rule set's `categories` are score-sheet lines beyond card points,
majority and xeri bonus. Each built-in category is checked against counts
made here by hand; the `StandardScorer` adds them to the total in the rule
set's order, `check` refuses results that no round gives, and a category
written outside the library plays, scores, checks and saves like the
built-ins.
"""

# Test names carry the clause id as written in the rules (test_S5_...).

from __future__ import annotations

import json
import random

import attrs
import pytest

import xeri
from support import cards
from xeri import (
    DECK,
    GREEK,
    GREEK_FOUR,
    ITALIAN_DECK,
    SCOPA,
    Card,
    Category,
    GameState,
    InvalidStateError,
    MajorityTie,
    MostOfSuit,
    NamedPoints,
    PointsTable,
    Primiera,
    Rank,
    RoundResult,
    RuleSet,
    RuleSetError,
    Suit,
    Sweeps,
    XeriKind,
)
from xeri._core.validate import check_state

C = Card.parse
NONE = ((), ())
"""No xeri for either of two sides."""


def of_suit(suit: Suit, deck: tuple[Card, ...] = DECK) -> tuple[Card, ...]:
    return tuple(c for c in deck if c.suit is suit)


# --- the built-in categories ---------------------------------------------------------


def test_S5_named_points_award_the_points_of_the_cards_each_side_took():
    big = NamedPoints(name="big casino", points=PointsTable(cards={C("10♦"): 2}))
    little = NamedPoints(
        name="little casino", points=PointsTable(ranks={Rank.ACE: 1}, cards={C("2♠"): 1})
    )
    took = (cards("10♦ A♣ A♦ 2♠"), cards("A♥ 2♣ 10♠"))
    assert big.award(took, NONE, GREEK) == (2, 0)
    assert little.award(took, NONE, GREEK) == (3, 1)
    assert big.award(NONE, NONE, GREEK) == (0, 0)
    # The bound is the points of the rule set's deck.
    assert big.most(GREEK) == 2
    assert little.most(GREEK) == 5
    small = attrs.evolve(GREEK, name="greek-italian-cat-test", deck=ITALIAN_DECK)
    tens = NamedPoints(name="tens", points=PointsTable(ranks={Rank.TEN: 1}))
    assert tens.most(GREEK) == 4
    assert tens.most(small) == 0  # the Italian deck has no tens


def test_S5_most_of_suit_goes_to_the_side_with_strictly_the_most():
    spades = MostOfSuit(suit=Suit.SPADES)
    assert spades.name == "most spades"
    assert MostOfSuit(suit=Suit.DIAMONDS).name == "most diamonds"
    assert MostOfSuit(suit=Suit.DIAMONDS, name="most coins").name == "most coins"
    assert spades.points == 1
    assert spades.tie is MajorityTie.NOBODY
    seven, six = of_suit(Suit.SPADES)[:7], of_suit(Suit.SPADES)[7:]
    assert spades.award((seven, six), NONE, GREEK) == (1, 0)
    assert spades.award((six, seven), NONE, GREEK) == (0, 1)
    # Other suits do not count; a side without a spade can still lose to one spade.
    assert spades.award((of_suit(Suit.HEARTS), cards("2♠")), NONE, GREEK) == (0, 1)
    assert spades.award(NONE, NONE, GREEK) == (0, 0)  # a 0-0 tie: nobody
    assert spades.most(GREEK) == 1
    assert MostOfSuit(suit=Suit.CLUBS, points=7).most(GREEK) == 7


def test_most_of_suit_ties_score_nobody_or_a_split_rounded_down():
    hearts = of_suit(Suit.HEARTS)
    tied = (hearts[:6], hearts[6:12])
    assert MostOfSuit(suit=Suit.HEARTS, points=3).award(tied, NONE, GREEK) == (0, 0)
    split = MostOfSuit(suit=Suit.HEARTS, points=3, tie=MajorityTie.SPLIT)
    assert split.award(tied, NONE, GREEK) == (1, 1)  # 3 // 2
    assert split.award((hearts[:7], hearts[7:]), NONE, GREEK) == (3, 0)  # no tie: all of it
    three = (hearts[:4], hearts[4:8], hearts[8:12])
    assert split.award(three, ((), (), ()), GREEK) == (1, 1, 1)
    assert MostOfSuit(suit=Suit.HEARTS, points=2, tie=MajorityTie.SPLIT).award(
        three, ((), (), ()), GREEK
    ) == (0, 0, 0)  # 2 // 3
    # Two of three sides tied for the most: they split, the third gets nothing.
    two = (hearts[:5], hearts[5:10], hearts[10:])
    assert split.award(two, ((), (), ()), GREEK) == (1, 1, 0)


def test_S5_primiera_adds_each_sides_best_card_of_every_suit():
    sevens = tuple(c for c in ITALIAN_DECK if c.rank == 7)
    others = tuple(c for c in ITALIAN_DECK if c.rank != 7)
    primiera = Primiera()
    assert primiera.name == "primiera"
    assert primiera.award((sevens, others), NONE, SCOPA) == (1, 0)  # 84 against 4 sixes, 72
    assert primiera.award((others, sevens), NONE, SCOPA) == (0, 1)
    # The best card of each suit, by primiera value, added up.
    one = cards("7♣ 2♣ 6♦ A♥ 5♠ K♠")  # 21 + 18 + 16 + 15 = 70
    two = cards("6♣ 7♦ 2♥ 4♠ Q♠ 3♣")  # 18 + 21 + 12 + 14 = 65
    assert primiera.award((one, two), NONE, SCOPA) == (1, 0)
    assert Primiera(points=3).award((two, one), NONE, SCOPA) == (0, 3)


def test_S5_primiera_a_side_missing_a_suit_has_none_and_equal_sums_score_nobody():
    primiera = Primiera()
    no_spades = cards("7♣ 7♦ 7♥ 6♣ 6♦")
    few = cards("2♣ 2♦ 2♥ 2♠")
    assert primiera.award((no_spades, few), NONE, SCOPA) == (0, 1)  # 48 beats no primiera
    assert primiera.award((no_spades, cards("7♠")), NONE, SCOPA) == (0, 0)  # neither has one
    assert primiera.award(NONE, NONE, SCOPA) == (0, 0)
    mirrored = (cards("7♣ 6♦ A♥ 5♠"), cards("7♦ 6♣ A♠ 5♥"))  # 70 each
    assert primiera.award(mirrored, NONE, SCOPA) == (0, 0)


def test_S5_primiera_needs_only_the_suits_of_the_deck_and_reads_its_values():
    red = tuple(c for c in DECK if c.suit in (Suit.HEARTS, Suit.DIAMONDS))
    rules = attrs.evolve(
        GREEK, name="greek-red-test", deck=red, hand_size=11, redeal=xeri.Redeal.NEVER
    )
    primiera = Primiera()
    # Hearts and diamonds are every suit of this deck.
    assert primiera.award((cards("7♥ 7♦"), cards("A♥ 6♦")), NONE, rules) == (1, 0)
    assert primiera.award((cards("7♥"), cards("A♥ 2♦")), NONE, rules) == (0, 1)
    # Ranks without a value count 0; a dict is accepted and kept sorted.
    tens = Primiera(values={Rank.TEN: 5, Rank.ACE: 1})
    assert tens.values == ((Rank.ACE, 1), (Rank.TEN, 5))
    assert tens.award((cards("10♥ 2♦"), cards("A♥ A♦")), NONE, rules) == (1, 0)  # 5 + 0 > 1 + 1
    assert tens.award((cards("2♥ 2♦"), cards("A♥ A♦")), NONE, rules) == (0, 1)  # 0 + 0 < 1 + 1
    assert tens.award((cards("2♥ 3♦"), cards("4♥ 5♦")), NONE, rules) == (0, 0)  # 0 each
    assert Primiera().most(SCOPA) == 1


def test_S4_sweeps_count_the_xeris_of_each_side():
    sweeps = Sweeps(name="scope", points=2)
    made = ((XeriKind.XERI, XeriKind.JACK_XERI), (XeriKind.XERI,))
    assert sweeps.award(NONE, made, GREEK) == (4, 2)
    assert Sweeps().name == "sweeps"
    assert Sweeps().award(NONE, NONE, GREEK) == (0, 0)
    # At most one a play and two cards each: 24 plays a seat in Greek Xeri, 18 in Scopa.
    assert Sweeps().most(GREEK) == 24
    assert Sweeps(points=2).most(SCOPA) == 36
    assert Sweeps().most(GREEK_FOUR) == 24  # a side of two seats plays 24 cards
    one_deal = attrs.evolve(GREEK, name="greek-x-test", hand_size=24, redeal=xeri.Redeal.NEVER)
    assert Sweeps().most(one_deal) == 24
    three = attrs.evolve(
        GREEK, name="greek-y-test", seats=3, sides=(0, 1, 2), hand_size=16, redeal=xeri.Redeal.NEVER
    )
    assert Sweeps().most(three) == 16


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: MostOfSuit(suit=2), "MostOfSuit.suit must be a Suit"),
        (lambda: MostOfSuit(suit=Suit.CLUBS, points=-1), "MostOfSuit.points must be an int"),
        (lambda: MostOfSuit(suit=Suit.CLUBS, points=True), "MostOfSuit.points must be an int"),
        (lambda: MostOfSuit(suit=Suit.CLUBS, tie="split"), "MostOfSuit.tie must be a MajorityTie"),
        (lambda: MostOfSuit(suit=Suit.CLUBS, name=""), "MostOfSuit.name must be a printable"),
        (lambda: NamedPoints(name="x", points={C("2♣"): 1}), "NamedPoints.points must be a"),
        (lambda: NamedPoints(name="a\nb", points=PointsTable()), "NamedPoints.name must be"),
        (lambda: NamedPoints(name="x" * 65, points=PointsTable()), "NamedPoints.name must be"),
        (lambda: Primiera(points=1_000_001), "Primiera.points must be an int"),
        (lambda: Primiera(values=((Rank.ACE, 1), (Rank.ACE, 2))), "names a rank twice"),
        (lambda: Primiera(values=((1, 16),)), "Primiera.values must be"),
        (lambda: Primiera(values=((Rank.ACE, 1001),)), "Primiera.values must be"),
        (lambda: Primiera(name=3), "Primiera.name must be"),
        (lambda: Sweeps(points=-2), "Sweeps.points must be an int"),
        (lambda: Sweeps(name=None), "Sweeps.name must be"),
    ],
)
def test_a_built_in_category_refuses_bad_fields(make, message):
    with pytest.raises(RuleSetError, match=message):
        make()


def test_the_built_ins_implement_the_protocol():
    for category in SCOPA.categories:
        assert isinstance(category, Category)
    assert [c.name for c in SCOPA.categories] == ["most coins", "settebello", "primiera", "scope"]


# --- the standard scorer -----------------------------------------------------------


def scopa_round() -> RoundResult:
    """Side 0 took A to 5 (five coins, no 7), side 1 the rest with the settebello; 2 sweeps to 0."""
    low, high = ITALIAN_DECK[:20], ITALIAN_DECK[20:]
    return SCOPA.scorer.score((low, high), ((XeriKind.XERI, XeriKind.XERI), ()), SCOPA)


def test_S5_the_standard_scorer_adds_the_categories_to_the_total():
    result = scopa_round()
    assert result.categories == (
        ("most coins", (0, 0)),  # five diamonds each
        ("settebello", (0, 1)),
        ("primiera", (0, 1)),  # 4 fives, 60, against 4 sevens, 84
        ("scope", (2, 0)),
    )
    assert (result.cards, result.card_points, result.majority) == ((20, 20), (0, 0), (0, 0))
    assert result.xeris == (2, 0)
    assert result.xeri_bonus == (0, 0)  # Scopa scores its sweeps as a category
    assert result.total == (2, 2)
    assert SCOPA.scorer.check(result, SCOPA) == []
    # With the 6♣ too, side 0 has the most cards (21 to 19) and a primiera of 63 to 84.
    more = SCOPA.scorer.score((ITALIAN_DECK[:21], ITALIAN_DECK[21:]), NONE, SCOPA)
    assert more.majority == (1, 0)
    assert more.categories == (
        ("most coins", (0, 0)),
        ("settebello", (0, 1)),
        ("primiera", (0, 1)),
        ("scope", (0, 0)),
    )
    assert more.total == (1, 2)


def test_the_sheet_lists_the_fixed_lines_then_the_categories_in_the_rule_sets_order():
    result = scopa_round()
    assert [name for name, _ in result.sheet] == [
        "card points",
        "majority",
        "xeri bonus",
        "most coins",
        "settebello",
        "primiera",
        "scope",
    ]
    assert result.sheet[:3] == (
        ("card points", result.card_points),
        ("majority", result.majority),
        ("xeri bonus", result.xeri_bonus),
    )
    assert result.sheet[3:] == result.categories
    for side in (0, 1):
        assert sum(points[side] for _, points in result.sheet) == result.total[side]
    reordered = attrs.evolve(SCOPA, name="scopa-reordered-test", categories=SCOPA.categories[::-1])
    again = reordered.scorer.score((ITALIAN_DECK[:20], ITALIAN_DECK[20:]), NONE, reordered)
    assert [name for name, _ in again.sheet[3:]] == [
        "scope",
        "primiera",
        "settebello",
        "most coins",
    ]


def test_a_result_without_categories_reads_as_it_always_has():
    result = GREEK.scorer.score((DECK[:26], DECK[26:]), NONE, GREEK)
    assert result.categories == ()
    assert [name for name, _ in result.sheet] == ["card points", "majority", "xeri bonus"]
    assert repr(result) == (
        "RoundResult(cards=(26, 26), card_points=(5, 17), majority=(0, 0), xeris=(0, 0), "
        "xeri_bonus=(0, 0), total=(5, 17), leftover=0)"
    )
    assert "categories" not in repr(result)
    assert "categories=(('most coins', (0, 0)), " in repr(scopa_round())
    # Nor is an empty categories field written to JSON.
    state = xeri.new_game(GREEK, rng=random.Random(2))
    while not state.is_round_over:
        state = xeri.apply(state, xeri.legal_moves(state)[0])
    data = json.loads(xeri.to_json(state))["data"]
    assert "categories" not in data["round_results"][0]
    assert "categories" not in json.loads(xeri.to_json(attrs.evolve(GREEK, name="g-test")))["data"]


def test_check_refuses_wrong_names_too_many_points_and_bad_totals():
    result = scopa_round()
    check = SCOPA.scorer.check
    lines = result.categories
    renamed = attrs.evolve(result, categories=(("most cups", lines[0][1]), *lines[1:]))
    assert check(renamed, SCOPA) == ["categories: the line 'most cups' must be 'most coins'"]
    swapped = attrs.evolve(result, categories=(lines[1], lines[0], *lines[2:]))
    assert check(swapped, SCOPA) == [
        "categories: the line 'settebello' must be 'most coins'",
        "categories: the line 'most coins' must be 'settebello'",
    ]
    too_many = attrs.evolve(
        result, categories=(*lines[:3], ("scope", (19, 0))), total=(19, 2)
    )  # 18 plays a round: at most 18 sweeps
    assert check(too_many, SCOPA) == ["categories: 'scope' gives from 0 to 18 points a side"]
    settebello = attrs.evolve(
        result, categories=(lines[0], ("settebello", (0, 2)), *lines[2:]), total=(2, 3)
    )
    assert check(settebello, SCOPA) == ["categories: 'settebello' gives from 0 to 1 points a side"]
    negative = attrs.evolve(result, categories=(*lines[:3], ("scope", (-1, 0))), total=(-1, 2))
    assert check(negative, SCOPA) == ["categories: 'scope' gives from 0 to 18 points a side"]
    total = attrs.evolve(result, total=(3, 2))
    assert check(total, SCOPA) == [
        "a total must be card points + majority + xeri bonus + the categories"
    ]
    missing = attrs.evolve(result, categories=lines[:3], total=(0, 2))
    lines_wanted = "['most coins', 'settebello', 'primiera', 'scope']"
    assert check(missing, SCOPA) == [
        f"categories must be one (name, points) line for each of {lines_wanted}"
    ]
    short_row = attrs.evolve(result, categories=(*lines[:3], ("scope", (2,))))
    assert check(short_row, SCOPA) == [
        "categories: 'scope' must give an int to each of the 2 sides"
    ]
    # A rule set without categories accepts no category line.
    greek = GREEK.scorer.score((DECK[:26], DECK[26:]), NONE, GREEK)
    extra = attrs.evolve(greek, categories=(("scope", (0, 0)),))
    assert GREEK.scorer.check(extra, GREEK) == [
        "categories must be one (name, points) line for each of []"
    ]
    assert GREEK.scorer.check(attrs.evolve(greek, total=(6, 17)), GREEK) == [
        "a total must be card points + majority + xeri bonus"
    ]


def test_a_loaded_result_with_forged_category_points_is_refused():
    state = xeri.new_game(SCOPA, rng=random.Random(4))
    rng = random.Random(5)
    while not state.is_round_over:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    doc = json.loads(xeri.to_json(state))
    assert [line[0] for line in doc["data"]["round_results"][0]["categories"]] == [
        "most coins",
        "settebello",
        "primiera",
        "scope",
    ]
    assert xeri.from_json(xeri.to_json(state), expect=GameState) == state
    doc["data"]["round_results"][0]["categories"][1][1] = [5, 0]
    with pytest.raises(InvalidStateError) as caught:
        xeri.from_json(json.dumps(doc, sort_keys=True, separators=(",", ":")))
    assert any("settebello" in problem for problem in caught.value.problems)


def test_round_points_bounds_include_the_most_of_every_category():
    # SCOPA: no card points, majority 1, no xeri bonus; 1 + 1 + 1 + 18 from the categories.
    assert SCOPA.round_points_bounds == (0, 1 + 1 + 1 + 1 + 18)
    plain = attrs.evolve(
        SCOPA, name="scopa-plain-test", categories=(), card_points=xeri.GREEK_POINTS
    )
    assert plain.round_points_bounds == (0, xeri.GREEK_POINTS.count(ITALIAN_DECK) + 1)
    extra = attrs.evolve(
        GREEK,
        name="greek-extra-test",
        categories=(MostOfSuit(suit=Suit.SPADES, points=5), Sweeps(points=2)),
    )
    low, high = extra.round_points_bounds
    assert (low, high) == (0, GREEK.round_points_bounds[1] + 5 + 2 * 24)


def test_a_category_whose_bound_fails_adds_nothing_to_the_bounds():
    rules = attrs.evolve(GREEK, name="greek-bad-most-test", categories=(FailingMost(),))
    assert rules.round_points_bounds == GREEK.round_points_bounds


# --- the rule set's field -----------------------------------------------------------


def test_a_list_of_categories_becomes_a_tuple():
    rules = attrs.evolve(GREEK, name="greek-list-test", categories=[Sweeps(), Primiera()])
    assert rules.categories == (Sweeps(), Primiera())


@pytest.mark.parametrize(
    ("categories", "message"),
    [
        ((Sweeps(), Sweeps(points=2)), r"categories\[1\]: two categories are named 'sweeps'"),
        (
            (MostOfSuit(suit=Suit.SPADES), MostOfSuit(suit=Suit.CLUBS, name="most spades")),
            r"categories\[1\]: two categories are named 'most spades'",
        ),
        ((Sweeps(name="total"),), r"categories\[0\]: 'total' names a line every score sheet has"),
        ((Sweeps(name="majority"),), "'majority' names a line every score sheet has"),
        ((Sweeps(name="card points"),), "'card points' names a line every score sheet has"),
        ((Sweeps(name="xeri bonus"),), "'xeri bonus' names a line every score sheet has"),
        ((object(),), r"categories\[0\] must implement Category: object has no award or most"),
        ({Sweeps()}, "categories must be a tuple of Category values"),
        (Sweeps(), "categories must be a tuple of Category values"),
    ],
    ids=[
        "duplicate",
        "duplicate-default-name",
        "total",
        "majority",
        "card-points",
        "xeri-bonus",
        "object",
        "set",
        "bare",
    ],
)
def test_the_rule_set_refuses_bad_categories(categories, message):
    with pytest.raises(RuleSetError, match=message):
        attrs.evolve(GREEK, name="greek-bad-test", categories=categories)


def test_the_rule_set_refuses_categories_that_are_not_frozen_hashable_values():
    with pytest.raises(RuleSetError, match=r"categories\[0\] must be an instance of a frozen"):
        attrs.evolve(GREEK, name="greek-bad-test", categories=(Mutable(),))
    with pytest.raises(RuleSetError, match=r"categories\[0\] must be hashable"):
        attrs.evolve(GREEK, name="greek-bad-test", categories=(Unhashable(ranks=[1]),))
    with pytest.raises(RuleSetError, match=r"categories\[1\] must have a name, a non-empty str"):
        attrs.evolve(GREEK, name="greek-bad-test", categories=(Sweeps(), Nameless()))


# --- a category from outside the library ---------------------------------------------


@attrs.frozen(kw_only=True)
class RankCount:
    """Points for each card of a rank a side took: a custom category."""

    rank: Rank
    points: int = 1
    name: str = "aces"

    def award(self, captured, xeris, rules) -> tuple[int, ...]:
        return tuple(self.points * sum(c.rank is self.rank for c in side) for side in captured)

    def most(self, rules) -> int:
        return self.points * sum(c.rank is self.rank for c in rules.deck)


@attrs.frozen
class FailingMost:
    name: str = "failing"

    def award(self, captured, xeris, rules) -> tuple[int, ...]:
        return (0,) * len(captured)

    def most(self, rules) -> int:
        raise ZeroDivisionError


@attrs.define
class Mutable:
    name: str = "mutable"

    def award(self, captured, xeris, rules) -> tuple[int, ...]:
        return (0,) * len(captured)

    def most(self, rules) -> int:
        return 0


@attrs.frozen(kw_only=True)
class Unhashable:
    ranks: list[int]
    name: str = "unhashable"

    def award(self, captured, xeris, rules) -> tuple[int, ...]:
        return (0,) * len(captured)

    def most(self, rules) -> int:
        return 0


@attrs.frozen
class Nameless:
    def award(self, captured, xeris, rules) -> tuple[int, ...]:
        return (0,) * len(captured)

    def most(self, rules) -> int:
        return 0


ACES = attrs.evolve(
    GREEK,
    name="greek-aces-test",
    categories=(RankCount(rank=Rank.ACE, points=2), MostOfSuit(suit=Suit.HEARTS, points=3)),
)


def test_a_custom_category_scores_every_round_of_a_match():
    assert isinstance(ACES.categories[0], Category)
    assert ACES.round_points_bounds == (0, GREEK.round_points_bounds[1] + 8 + 3)
    rng = random.Random(6)
    state = xeri.new_game(ACES, rng=rng)
    rounds = 0
    while not state.is_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        if state.is_round_over:
            rounds += 1
            result = state.round_results[-1]
            aces = tuple(2 * sum(c.rank is Rank.ACE for c in side) for side in state.captured)
            hearts = [sum(c.suit is Suit.HEARTS for c in side) for side in state.captured]
            most = tuple(3 if h == max(hearts) and hearts.count(h) == 1 else 0 for h in hearts)
            assert result.categories == (("aces", aces), ("most hearts", most))
            assert sum(aces) == 8
            plain = GREEK.scorer.score(state.captured, state.xeris, GREEK)
            assert result.total == tuple(
                p + a + m for p, a, m in zip(plain.total, aces, most, strict=True)
            )
            assert ACES.scorer.check(result, ACES) == []
            assert check_state(state).problems == []
    assert rounds == len(state.round_results) >= 2
    assert state.scores == tuple(
        sum(r.total[side] for r in state.round_results) for side in range(2)
    )


def test_a_custom_category_is_saved_and_loaded_once_its_rule_set_is_registered(monkeypatch):
    text = xeri.to_json(ACES)
    data = json.loads(text)["data"]
    assert data["categories"] == [
        {f"{__name__}.RankCount": {"name": "aces", "points": 2, "rank": 1}},
        {"MostOfSuit": {"name": "most hearts", "points": 3, "suit": 2, "tie": "nobody"}},
    ]
    with pytest.raises(InvalidStateError, match="unknown component class"):
        xeri.from_json(text)
    monkeypatch.setitem(xeri._rules.ruleset._REGISTRY, ACES.name, ACES)
    assert json.loads(xeri.to_json(ACES))["data"] == ACES.name  # registered: by name
    back = xeri.from_json(text, expect=RuleSet, strict=False)
    assert back == ACES
    assert type(back.categories[0]) is RankCount
    assert back.categories[0].rank is Rank.ACE
    # A finished round of it: the result keeps its category lines through JSON.
    rng = random.Random(7)
    state = xeri.new_game(ACES, rng=rng)
    while not state.is_round_over:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    saved = xeri.to_json(state)
    loaded = xeri.from_json(saved, expect=GameState)
    assert loaded == state
    assert loaded.round_results[0].categories == state.round_results[0].categories
    assert xeri.to_json(loaded) == saved


def test_the_built_in_categories_are_written_by_fields_and_read_back():
    rules = attrs.evolve(
        SCOPA,
        name="scopa-by-fields-test",
        categories=(
            *SCOPA.categories,
            MostOfSuit(suit=Suit.SPADES, points=2, tie=MajorityTie.SPLIT),
            Primiera(name="primiera two", values={Rank.SEVEN: 3}),
        ),
    )
    text = xeri.to_json(rules)
    data = json.loads(text)["data"]
    assert data["categories"][0] == {
        "MostOfSuit": {"name": "most coins", "points": 1, "suit": 1, "tie": "nobody"}
    }
    assert data["categories"][1] == {
        "NamedPoints": {"name": "settebello", "points": {"cards": [["7D", 1]], "ranks": []}}
    }
    assert data["categories"][3] == {"Sweeps": {"name": "scope", "points": 1}}
    assert data["categories"][5] == {
        "Primiera": {"name": "primiera two", "points": 1, "values": [[7, 3]]}
    }
    back = xeri.from_json(text, expect=RuleSet)
    assert back == rules
    assert back.categories == rules.categories
    assert xeri.to_json(back) == text

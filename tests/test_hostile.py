"""Hostile documents: forged round results and points tables (clauses G7, G10, G11, X1).

A saved match keeps its earlier rounds only as their results, so a document
can claim any score sheet for them. Every finished round must be a result
the rule set's scorer could have produced; these tests forge genuine
documents written by `to_json` and check that `from_json` refuses them, and
that `check_state` refuses the same states built in Python.
"""

from __future__ import annotations

import json

import attrs
import pytest

import xeri
from edge_games import VARIANTS, game, presets
from xeri import GameState, InvalidStateError, MajorityTie, Phase, PointsTable, Rank, RuleSetError
from xeri._core.validate import check_state
from xeri._rules.scoring import RoundResult, StandardScorer

SCORER = StandardScorer()


def finished_match(rules: xeri.RuleSet, seed: int) -> GameState:
    """The last state of a random match."""
    *_, (state, _) = game(rules, seed)
    assert state.phase is Phase.MATCH_OVER
    return state


def first_round_over(rules: xeri.RuleSet, seed: int) -> GameState:
    """The state right after the first round of a random match is scored."""
    *_, (state, _) = game(rules, seed, rounds=1)
    assert state.phase is Phase.ROUND_OVER
    return state


def close_to_winning() -> tuple[GameState, int]:
    """A Greek round just scored, and a side that 124 more points would make the winner."""
    for seed in range(100):
        for state, _ in game(xeri.GREEK, seed):
            if state.phase is not Phase.ROUND_OVER:
                continue
            behind = min(range(2), key=lambda side: state.scores[side])
            if state.scores[behind] + 124 >= 151 > state.scores[1 - behind]:
                return state, behind
    raise AssertionError("no such state")  # pragma: no cover


def document(state: GameState) -> dict:
    """The JSON document of a state, parsed: edit it, then `load` it."""
    return json.loads(xeri.to_json(state))


def load(doc: dict) -> object:
    """Read an edited document (any layout, whatever version `to_json` writes)."""
    return xeri.from_json(json.dumps(doc), strict=False)


def forged(state: GameState, index: int, **changes: object) -> tuple[dict, GameState]:
    """A document and a state whose round `index` (from 0) has the fields changed."""
    doc = document(state)
    doc["data"]["round_results"][index].update(
        {k: list(v) if isinstance(v, tuple) else v for k, v in changes.items()}
    )
    results = list(state.round_results)
    results[index] = attrs.evolve(results[index], **changes)
    return doc, attrs.evolve(state, round_results=tuple(results))


def refusal(doc: dict, state: GameState) -> str:
    """The problems `from_json` and `check_state` find, which must agree on the round."""
    with pytest.raises(InvalidStateError) as info:
        load(doc)
    problems = check_state(state).problems
    assert problems, "check_state accepts the forged state"
    loaded = "; ".join(info.value.problems)
    for problem in problems:
        assert problem in loaded
    return loaded


# --------------------------------------------------------------------------
# A forged match


def test_G11_a_forged_round_that_claims_the_match_is_refused():
    # A genuine document after a round, with a round of 124 points for the side
    # behind inserted first (26-26 cards): the document then claims the win.
    state, behind = close_to_winning()
    points = tuple(124 if side == behind else 0 for side in range(2))
    fake = RoundResult(
        cards=(26, 26),
        card_points=points,
        majority=(0, 0),
        xeris=(0, 0),
        xeri_bonus=(0, 0),
        total=points,
    )
    doc = document(state)
    doc["data"]["round_results"].insert(
        0, {k: list(v) if isinstance(v, tuple) else v for k, v in attrs.asdict(fake).items()}
    )
    doc["data"]["phase"] = Phase.MATCH_OVER.value
    with pytest.raises(InvalidStateError, match=r"round 1: side \d: 26 cards are worth 0 to 22"):
        load(doc)
    lie = attrs.evolve(state, phase=Phase.MATCH_OVER, round_results=(fake, *state.round_results))
    assert xeri.GREEK.match.status(lie.round_results, 2).winner == behind
    assert any("26 cards are worth 0 to 22 points, not 124" in p for p in check_state(lie).problems)
    # Apart from the scorer's check, the forgery is consistent: every other check passes.
    assert all(p.startswith("round 1: ") for p in check_state(lie).problems)


def test_G10_negative_card_points_are_refused():
    state = finished_match(xeri.GREEK, 1)
    r = state.round_results[0]
    points = (-3, r.card_points[1] + r.card_points[0] + 3)
    total = tuple(p + m + x for p, m, x in zip(points, r.majority, r.xeri_bonus, strict=True))
    problems = refusal(*forged(state, 0, card_points=points, total=total))
    assert "round 1: side 0: " in problems
    assert "not -3" in problems


def test_G10_the_majority_given_to_the_side_with_fewer_cards_is_refused():
    state = finished_match(xeri.GREEK, 2)
    r = next(r for r in state.round_results if r.cards[0] != r.cards[1])
    index = state.round_results.index(r)
    swapped = r.majority[::-1]
    total = tuple(p + m + x for p, m, x in zip(r.card_points, swapped, r.xeri_bonus, strict=True))
    problems = refusal(*forged(state, index, majority=swapped, total=total))
    assert f"round {index + 1}: the majority bonus for {r.cards} cards is {r.majority}" in problems


def test_G7_a_xeri_bonus_without_a_xeri_is_refused():
    state = finished_match(xeri.GREEK, 3)
    index, r = next((i, r) for i, r in enumerate(state.round_results) if r.xeris[0] == 0)
    total = (r.total[0] + 10, r.total[1])
    problems = refusal(*forged(state, index, xeri_bonus=(10, r.xeri_bonus[1]), total=total))
    assert f"round {index + 1}: side 0: 0 xeris are worth 0 points, not 10" in problems


def test_G10_totals_that_do_not_add_up_are_refused():
    state = finished_match(xeri.GREEK, 4)
    r = state.round_results[0]
    total = (r.total[0] + 1, r.total[1] - 1)
    problems = refusal(*forged(state, 0, total=total))
    assert "round 1: a total must be card points + majority + xeri bonus" in problems
    assert problems.count("a total must be") == 1  # said once, not by both checks


def test_G10_card_counts_that_do_not_make_the_deck_are_refused():
    state = finished_match(xeri.GREEK, 6)
    r = state.round_results[0]
    problems = refusal(*forged(state, 0, cards=(r.cards[0] + 1, r.cards[1])))
    assert "round 1: the cards captured and left over must add up to 52" in problems


@pytest.mark.parametrize("rules", presets() + VARIANTS, ids=lambda r: r.name)
def test_a_genuine_finished_match_is_accepted(rules):
    state = finished_match(rules, 7)
    assert xeri.from_json(xeri.to_json(state)) == state
    assert load(document(state)) == state
    assert check_state(state).problems == []


@pytest.mark.parametrize("rules", presets() + VARIANTS, ids=lambda r: r.name)
def test_the_standard_scorer_accepts_every_result_it_gives(rules):
    for seed in range(6):
        state = finished_match(rules, 100 + seed)
        for result in state.round_results:
            assert SCORER.check(result, rules) == []


# --------------------------------------------------------------------------
# StandardScorer.check, one rule at a time


def result(**fields: object) -> RoundResult:
    """A Greek round's result: 26-26 cards, 11-11 points, no xeri; fields changed."""
    base = {
        "cards": (26, 26),
        "card_points": (11, 11),
        "majority": (0, 0),
        "xeris": (0, 0),
        "xeri_bonus": (0, 0),
    }
    base.update(fields)
    parts = (base["card_points"], base["majority"], base["xeri_bonus"])
    base.setdefault("total", tuple(map(sum, zip(*parts, strict=True))))
    return RoundResult(**base)  # type: ignore[arg-type]


def test_G10_the_check_is_exact_for_the_standard_scorer_on_a_tie():
    assert SCORER.check(result(), xeri.GREEK) == []
    assert SCORER.check(result(card_points=(0, 22)), xeri.GREEK) == []
    assert SCORER.check(result(card_points=(12, 11)), xeri.GREEK) == [
        "the card points must add up to the 22 points of the deck when no card is left over, not 23"
    ]
    split = attrs.evolve(xeri.GREEK, name="split", majority_tie=MajorityTie.SPLIT)
    assert SCORER.check(result(majority=(1, 1)), split) == []
    assert SCORER.check(result(majority=(1, 1)), xeri.GREEK) == [
        "the majority bonus for (26, 26) cards is (0, 0), not (1, 1)"
    ]


def test_G10_card_points_lie_within_what_the_cards_captured_can_be_worth():
    # Two cards are worth at most 3 in Greek Xeri (the 10♦ and one more counting card).
    few = {"cards": (2, 50), "majority": (0, 3)}
    assert SCORER.check(result(card_points=(3, 19), **few), xeri.GREEK) == []
    # ... and 50 cards at least 19 of the 22 points.
    assert SCORER.check(result(card_points=(4, 18), **few), xeri.GREEK) == [
        "side 0: 2 cards are worth 0 to 3 points, not 4",
        "side 1: 50 cards are worth 19 to 22 points, not 18",
    ]


def test_X1_cards_left_over_bound_the_card_points():
    nobody = {"cards": (0, 0), "card_points": (0, 0), "leftover": 52}
    assert SCORER.check(result(**nobody), xeri.GREEK) == []
    assert "side 1: 0 cards are worth 0 to 0 points, not 1" in SCORER.check(
        result(**{**nobody, "card_points": (0, 1)}), xeri.GREEK
    )
    # Two cards left over: the captures are worth 22 less 0 to 3 points.
    some = {"cards": (25, 25), "leftover": 2}
    assert SCORER.check(result(card_points=(10, 9), **some), xeri.GREEK) == []
    assert SCORER.check(result(card_points=(9, 9), **some), xeri.GREEK) == [
        "with 2 cards left over the card points add up to 19 to 22, not 18"
    ]


def test_G7_xeri_bonuses_are_xeris_and_at_most_two_jack_xeris():
    def check(xeris, bonus, rules=xeri.GREEK):
        return SCORER.check(result(xeris=xeris, xeri_bonus=bonus), rules)

    assert check((1, 0), (10, 0)) == []
    assert check((1, 0), (20, 0)) == []  # a jack xeri
    assert check((3, 0), (50, 0)) == []  # two jack xeris and a xeri
    assert check((3, 0), (60, 0)) == ["side 0: 3 xeris are worth 30 or 40 or 50 points, not 60"]
    assert check((1, 1), (20, 20)) == []
    assert check((2, 1), (40, 20)) == [
        "the bonuses need more than two jack xeris, and four Jacks make at most two"
    ]
    assert check((0, 0), (-10, 0)) == ["side 0: 0 xeris are worth 0 points, not -10"]
    v4 = attrs.evolve(xeri.GREEK, name="v4", jack_xeri_points=25)
    assert check((2, 0), (35, 0), v4) == []
    # German Xeri has no jack bonus (D6): any xeri is worth 10.
    german = result(card_points=(3, 4), xeris=(2, 1), xeri_bonus=(20, 10))
    assert SCORER.check(german, xeri.GERMAN) == []


def test_G7_xeris_are_bounded_by_the_plays_and_the_cards_captured():
    assert SCORER.check(result(xeris=(25, 0), xeri_bonus=(250, 0)), xeri.GREEK) == [
        "side 0 plays 24 cards a round: it cannot make 25 xeris"
    ]
    assert SCORER.check(
        result(
            cards=(3, 49), majority=(0, 3), card_points=(2, 20), xeris=(2, 0), xeri_bonus=(20, 0)
        ),
        xeri.GREEK,
    ) == ["side 0 made 2 xeris, which take at least 4 cards, but captured 3"]
    # In the four-player game each partner plays 12 cards a round (F3).
    most = result(cards=(48, 4), card_points=(20, 2), majority=(3, 0), xeris=(24, 0))
    assert (
        SCORER.check(attrs.evolve(most, xeri_bonus=(240, 0), total=(263, 2)), xeri.GREEK_FOUR) == []
    )


def test_the_check_names_rows_of_the_wrong_shape_and_type():
    assert SCORER.check(result(cards=(26, 26, 0)), xeri.GREEK) == [
        "cards: every score is an int, one per side (2)"
    ]
    assert SCORER.check(result(total=(11.0, 11)), xeri.GREEK) == [
        "total: every score is an int, one per side (2)"
    ]
    huge = 10**400
    problems = SCORER.check(result(card_points=(huge, 22 - huge)), xeri.GREEK)
    assert problems == [
        "side 0: 26 cards are worth 0 to 22 points, not an int too large to show",
        "side 1: 26 cards are worth 0 to 22 points, not an int too large to show",
    ]


@attrs.frozen
class BrokenCheckScorer:
    """Scores as the standard scorer; its check fails."""

    def score(self, captured, xeris, rules, *, leftover=0):
        return StandardScorer().score(captured, xeris, rules, leftover=leftover)

    def check(self, result, rules):
        raise ZeroDivisionError


@attrs.frozen
class NoCheckScorer:
    """Scores as the standard scorer; it has no check."""

    def score(self, captured, xeris, rules, *, leftover=0):
        return StandardScorer().score(captured, xeris, rules, leftover=leftover)


def test_a_scorer_whose_check_fails_refuses_the_state_without_raising():
    rules = attrs.evolve(xeri.GREEK, name="broken-check", scorer=BrokenCheckScorer())
    state = first_round_over(rules, 1)
    assert check_state(state).problems == [
        "round 1: the scorer cannot check this result (ZeroDivisionError)"
    ]


def test_a_scorer_without_check_is_refused_when_the_rule_set_is_built():
    with pytest.raises(xeri.RuleSetError, match="scorer"):
        attrs.evolve(xeri.GREEK, name="no-check", scorer=NoCheckScorer())


# --------------------------------------------------------------------------
# Points tables


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"cards": {"AS": 5}}, r"PointsTable.cards: 'AS' is not a Card"),
        ({"cards": {xeri.Card.parse("AS"): 1.5}}, r"points of A♠ must be an int .* not 1.5"),
        ({"cards": {xeri.Card.parse("AS"): True}}, r"points of A♠ must be an int .* not True"),
        ({"cards": {xeri.Card.parse("AS"): -1}}, r"points of A♠ must be an int from 0"),
        ({"ranks": {14: 1}}, r"PointsTable.ranks: 14 is not a Rank"),
        ({"ranks": {0: 1}}, r"PointsTable.ranks: 0 is not a Rank"),
        ({"ranks": {True: 1}}, r"PointsTable.ranks: True is not a Rank"),
        ({"ranks": {"A": 1}}, r"PointsTable.ranks: 'A' is not a Rank"),
        ({"ranks": [(Rank.ACE, 1), (1, 2)]}, r"PointsTable.ranks names ACE twice"),
        ({"ranks": [(Rank.ACE, 1, 2)]}, r"PointsTable.ranks holds a tuple, not a \(key, points\)"),
        ({"ranks": "A1"}, r"PointsTable.ranks must be a dict or \(key, points\) pairs"),
        ({"ranks": 5}, r"PointsTable.ranks must be a dict or \(key, points\) pairs, not 5"),
        ({"ranks": {Rank.ACE: 2**53}}, r"points of ACE must be an int from 0 to 2\*\*53 - 1"),
        ({"ranks": {Rank.ACE: 2**52}}, r"the deck is worth \d+ points, more than 2\*\*53 - 1"),
    ],
)
def test_G10_points_tables_that_cannot_work_are_refused_naming_the_field(fields, message):
    with pytest.raises(RuleSetError, match=message):
        PointsTable(**fields)


def test_G10_points_tables_accept_ranks_as_ints_and_pairs():
    table = PointsTable(ranks=[(1, 1), (Rank.KING, 2)], cards=[(xeri.Card.parse("2C"), 1)])
    assert table.ranks == ((Rank.ACE, 1), (Rank.KING, 2))
    assert table.total == 13
    assert table == PointsTable(ranks={Rank.KING: 2, Rank.ACE: 1}, cards={xeri.Card.parse("2C"): 1})


def test_G10_a_rule_set_document_with_a_bad_points_table_is_refused():
    doc = json.loads(xeri.to_json(attrs.evolve(xeri.GREEK, name="house")))
    doc["data"]["card_points"]["ranks"][0][1] = -1
    with pytest.raises(
        InvalidStateError, match=r"PointsTable\.ranks: the points of ACE must be an int"
    ):
        load(doc)

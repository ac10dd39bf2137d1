"""Initial-table rules (T1-T3): keep, redeal, replace named cards, award the table.

An initial-table rule sits in the rule set's `redeal` field and answers a
`TableAction` about the face-up cards of the table as dealt. The presets
keep their redeal rules; these tests check each answer, what every seat
sees of it, that `determinize` and the validator model it exactly, that the
serializer carries it, and that the engine, the fast paths and the harness
agree on generated rule sets that use it.
"""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import xeri
from support import assert_same_state, cards, deal, public_round, replaying
from xeri import Card, Rank, RuleSetError, TableAction
from xeri._core.validate import check_state
from xeri.testing import check_rules, rule_sets, shuffle_hidden

PISTI_REPLACE = attrs.evolve(xeri.PISTI, name="pisti-replace", redeal=xeri.ReplaceRanks())
ESCOBA = attrs.evolve(xeri.SCOPA, name="escoba-deal", redeal=xeri.AwardSums())
GREEK_REPLACE = attrs.evolve(
    xeri.GREEK,
    name="greek-replace-any",
    redeal=xeri.ReplaceRanks(ranks=(Rank.JACK, Rank.QUEEN), top_only=False),
)
C = Card.parse


def italian_deck(top: str) -> tuple[Card, ...]:
    """The 40 Italian cards with `top` (names) first, the rest in deck order."""
    first = cards(top)
    return (*first, *(c for c in xeri.ITALIAN_DECK if c not in first))


def fresh(rules: xeri.RuleSet, seeds: range, want) -> list[xeri.GameState]:  # a predicate
    """The first deals of `rules` over `seeds` for which `want(state)` holds."""
    return [s for s in (xeri.new_game(rules, rng=random.Random(k)) for k in seeds) if want(s)]


# ---------------------------------------------------------------------------
# T1: the answers


def test_T1_the_presets_keep_their_redeal_rules_and_answer_through_them():
    for rules in (xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN, xeri.PISTI, xeri.SCOPA, xeri.CASSINO):
        assert isinstance(rules.redeal, (xeri.Redeal, xeri.RanksOnTable))
        assert not isinstance(rules.redeal, xeri.TableRule)
        state = xeri.new_game(rules, rng=random.Random(3))
        assert state.replaced == ()
        assert all(take.turn != -1 for take in state.takes)


def test_T1_the_named_constructors_and_their_checks():
    assert TableAction.keep().kind == "keep"
    assert TableAction.redeal().kind == "redeal"
    assert TableAction.replace([C("JS")]) == TableAction(kind="replace", cards=(C("JS"),))
    award = TableAction.award(1, sweep=True, groups=[[C("5S")], [C("7H")]])
    assert (award.seat_offset, award.sweep, award.groups) == (1, True, ((C("5S"),), (C("7H"),)))
    for call in (
        lambda: TableAction.replace(5),  # type: ignore[arg-type]
        lambda: TableAction.award(groups=5),  # type: ignore[arg-type]
        lambda: TableAction.award(groups=[5]),  # type: ignore[list-item]
    ):
        with pytest.raises(RuleSetError, match="must be a tuple or list"):
            call()
    for bad in (
        {"kind": "shuffle"},
        {"kind": "replace"},
        {"kind": "replace", "cards": (C("JS"), C("JS"))},
        {"kind": "award", "seat_offset": 8},
        {"kind": "award", "groups": ((),)},
        {"kind": "award", "sweep": 1},
    ):
        with pytest.raises(RuleSetError):
            TableAction(**bad)  # type: ignore[arg-type]


@attrs.frozen
class KingRedeals:
    """Redeal a table with a King on top, else keep it: a `TableRule` of its own."""

    def action(self, cards: tuple[Card, ...]) -> TableAction:
        if cards and cards[-1].rank is Rank.KING:
            return TableAction.redeal()
        return TableAction.keep()


def test_T1_a_table_rule_that_redeals_plays_as_a_redeal_condition():
    rules = attrs.evolve(xeri.GREEK, name="greek-king-redeal", redeal=KingRedeals())
    deck = deal(rules, table=["5C", "6D", "7H", "KS"])
    state = xeri.apply(xeri.start(rules, dealer=0), xeri.Deal(deck=deck))
    assert state.phase is xeri.Phase.REDEAL
    again = xeri.new_game(rules, deck=deck, dealer=0, rng=random.Random(1))
    assert again.redealt[0] == cards("5C 6D 7H KS")
    assert again.table[-1].rank is not Rank.KING  # type: ignore[union-attr]
    assert check_state(again).problems == []


@attrs.frozen
class Garbage:
    def action(self, cards: tuple[Card, ...]) -> object:
        return "keep"


@attrs.frozen
class Broken:
    def action(self, cards: tuple[Card, ...]) -> TableAction:
        raise ValueError(str(cards))  # its message would name the cards


@attrs.frozen
class RedealsAll:
    def action(self, cards: tuple[Card, ...]) -> TableAction:
        return TableAction.redeal()


@attrs.frozen
class AwardsAll:
    def action(self, cards: tuple[Card, ...]) -> TableAction:
        return TableAction.award()


@attrs.frozen
class ReplacesHidden:
    def action(self, cards: tuple[Card, ...]) -> TableAction:
        return (
            TableAction.replace([Card.parse("AS")])
            if Card.parse("AS") not in cards
            else (TableAction.keep())
        )


def test_T1_a_failing_or_impossible_answer_is_a_rule_set_error_naming_the_component():
    garbage = attrs.evolve(xeri.GREEK, name="garbage", redeal=Garbage())
    with pytest.raises(
        RuleSetError, match=r"its redeal Garbage\.action returned a str, not a TableAction"
    ):
        xeri.new_game(garbage, rng=random.Random(1))
    broken = attrs.evolve(xeri.GREEK, name="broken", redeal=Broken())
    with pytest.raises(RuleSetError, match=r"Broken\.action raised ValueError$"):
        xeri.new_game(broken, rng=random.Random(1))
    # Face-down cards are never read, so neither redealt nor awarded (they would show).
    for rule in (RedealsAll(), AwardsAll()):
        hidden = attrs.evolve(xeri.PISTI, name="pisti-hidden", redeal=rule)
        with pytest.raises(RuleSetError, match="a table with face-down cards"):
            xeri.new_game(hidden, rng=random.Random(1))
    # A card to replace must lie face up on the table.
    hidden = attrs.evolve(xeri.PISTI, name="pisti-odd", redeal=ReplacesHidden())
    with pytest.raises(RuleSetError, match="not face up on the table"):
        xeri.new_game(hidden, rng=random.Random(1))


def test_T1_the_rule_sees_only_the_face_up_cards():
    seen: list[tuple[Card, ...]] = []

    @attrs.frozen
    class Spy:
        def action(self, cards: tuple[Card, ...]) -> TableAction:
            seen.append(cards)
            return TableAction.keep()

    rules = attrs.evolve(xeri.PISTI, name="pisti-spy", redeal=Spy())
    xeri.new_game(rules, deck=deal(rules, table=["2C", "3D", "4H", "5S"]), dealer=0)
    assert seen == [(C("5S"),)]


def test_T1_rule_set_checks_face_down_and_the_shown_bottom_card():
    attrs.evolve(xeri.PISTI, name="pisti-ok", redeal=xeri.ReplaceRanks())  # face_down allowed
    with pytest.raises(RuleSetError, match=r"face_down needs redeal=Redeal\.NEVER or an initial"):
        attrs.evolve(xeri.PISTI, name="pisti-bad", redeal=xeri.Redeal.TOP_JACK_OR_TOP_PAIR)
    with pytest.raises(RuleSetError, match="show_bottom_card cannot be combined"):
        attrs.evolve(xeri.GREEK, name="greek-v1", show_bottom_card=True, redeal=xeri.ReplaceRanks())
    attrs.evolve(xeri.GREEK, name="greek-v1-award", show_bottom_card=True, redeal=xeri.AwardSums())
    with pytest.raises(RuleSetError, match=r"ReplaceRanks\.ranks"):
        xeri.ReplaceRanks(ranks=())
    with pytest.raises(RuleSetError, match=r"AwardSums\.values"):
        xeri.AwardSums(total=15, values=((Rank.KING, 0),))


# ---------------------------------------------------------------------------
# T2: replacing named cards


def test_T2_pisti_jack_turned_up_goes_face_up_under_the_stock_and_to_the_dealer_last():
    deck = deal(PISTI_REPLACE, table=["2C", "3D", "4H", "JS"], stock=["9D"])
    state = xeri.new_game(PISTI_REPLACE, deck=deck, dealer=0)
    assert state.table == cards("2C 3D 4H 9D")
    assert state.replaced == (C("JS"),)
    assert state.stock[-1] == C("JS")
    assert len(state.stock) == 40
    for seat in (0, 1, None):
        seen = xeri.observe(state, seat)
        assert seen.replaced == (C("JS"),)
        assert seen.table == (C("9D"),)
        assert seen.face_down == 3
    # Play to the last deal: the dealer (seat 0) gets the Jack in its last hand.
    rng = random.Random(2)
    while state.stock:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    assert C("JS") in state.hands[0]
    assert check_state(state).problems == []


def test_T2_a_card_turned_up_in_place_of_a_named_one_is_replaced_in_turn():
    deck = deal(PISTI_REPLACE, table=["2C", "3D", "4H", "JS"], stock=["JD", "JC", "6H"])
    state = xeri.new_game(PISTI_REPLACE, deck=deck, dealer=0)
    assert state.table[-1] == C("6H")
    assert state.replaced == cards("JS JD JC")
    assert state.stock[-3:] == cards("JS JD JC")  # the last replaced lowest
    assert check_state(state).problems == []


def test_T2_every_face_up_card_of_the_named_ranks_is_replaced_in_place():
    deck = deal(GREEK_REPLACE, table=["QC", "3D", "JH", "5S"], stock=["8D", "9D"])
    state = xeri.new_game(GREEK_REPLACE, deck=deck, dealer=0)
    assert state.table == cards("8D 3D 9D 5S")
    assert state.replaced == cards("QC JH")


def test_T2_with_no_fresh_card_left_the_table_stands():
    one_deal = attrs.evolve(
        xeri.GREEK, name="greek-one-deal", hand_size=24, redeal=xeri.ReplaceRanks()
    )
    state = xeri.new_game(one_deal, deck=deal(one_deal, table=["2C", "3D", "4H", "JS"]), dealer=0)
    assert state.stock == ()
    assert state.table[-1] == C("JS")
    assert state.replaced == ()
    assert check_state(state).problems == []


def test_T2_determinize_puts_each_replaced_card_exactly_where_it_lies():
    rng = random.Random(4)
    checked = 0
    for dealt in fresh(GREEK_REPLACE, range(60), lambda s: len(s.replaced) >= 1)[:12]:
        state = dealt
        while state.to_move is not None:
            seen = xeri.observe(state, state.to_move)
            sample = xeri.determinize(seen, rng)
            assert xeri.observe(sample, state.to_move) == seen
            for card in state.replaced:
                if card in state.stock:
                    assert sample.stock.index(card) == state.stock.index(card)
                for seat, hand in enumerate(state.hands):
                    assert (card in hand) == (card in sample.hands[seat])
            checked += 1
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    assert checked > 400


def test_T2_the_validator_refuses_a_replaced_card_out_of_its_place():
    state = fresh(PISTI_REPLACE, range(200), lambda s: len(s.replaced) == 1)[0]
    assert check_state(state).problems == []
    stock = (state.stock[-1], *state.stock[:-1])  # the Jack moved to the top of the stock
    assert check_state(attrs.evolve(state, stock=stock)).problems
    # Without the record the same cards are a deal that replaced nothing: reachable too.
    assert check_state(attrs.evolve(state, replaced=())).problems == []
    # A replaced card that could not have been replaced: the Jack still on top.
    table = (*state.table[:-1], state.stock[-1])
    forged = attrs.evolve(state, table=table, stock=(*state.stock[:-1], state.table[-1]))
    assert check_state(forged).problems


def test_T2_an_observation_with_a_replaced_card_out_of_place_is_refused():
    state = fresh(PISTI_REPLACE, range(200), lambda s: len(s.replaced) == 1)[0]
    seen = xeri.observe(state, 1)
    forged = attrs.evolve(seen, replaced=(seen.hand[0],))
    assert xeri.check_observation(forged)


# ---------------------------------------------------------------------------
# T3: awarding the table


def test_T3_escoba_dealer_takes_a_table_of_15_as_an_escoba():
    # Seat 1 gets 3, seat 0 (the dealer) 3, then the table: 7 + 5 + 2 + Ace = 15.
    deck = italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH")
    state = xeri.new_game(ESCOBA, deck=deck, dealer=0)
    assert state.table == ()
    (take,) = state.takes
    assert (take.seat, take.cards, take.xeri, take.turn) == (
        0,
        cards("7H 5D 2S AH"),
        xeri.XeriKind.XERI,
        -1,
    )
    assert state.last_capturer == 0
    assert state.xeris == ((xeri.XeriKind.XERI,), ())
    for seat in (0, 1, None):
        assert xeri.observe(state, seat).takes[0].cards == cards("7H 5D 2S AH")
    assert check_state(state).problems == []
    end, _ = public_round(state, random.Random(1))
    assert end.round_results[-1].xeris[0] >= 1


def test_T3_two_groups_of_15_are_two_escobas():
    # King 10 + 5, Jack 8 + 7: 30 in two groups of 15.
    deck = italian_deck("2C 3C 4C 5C 6C 7C  KH 5D JS 7H")
    state = xeri.new_game(ESCOBA, deck=deck, dealer=0)
    assert [t.cards for t in state.takes] == [cards("KH 5D"), cards("JS 7H")]
    assert all(t.xeri is xeri.XeriKind.XERI for t in state.takes)
    assert check_state(state).problems == []
    # 30 that does not split into two 15s stands: King 10 + King 10 + 6 + 4.
    kept = xeri.new_game(ESCOBA, deck=italian_deck("2C 3C 4C 5C 6C 7C  KH KD 6S 4H"), dealer=0)
    assert kept.takes == ()
    assert len(kept.table) == 4


def test_T3_the_table_may_go_to_another_seat_without_a_sweep():
    rules = attrs.evolve(
        ESCOBA, name="escoba-to-the-leader", redeal=xeri.AwardSums(seat_offset=1, sweep=False)
    )
    state = xeri.new_game(rules, deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"), dealer=0)
    assert [(t.seat, t.xeri) for t in state.takes] == [(1, None)]
    assert check_state(state).problems == []


def test_T3_the_validator_refuses_a_forged_award():
    state = xeri.new_game(ESCOBA, deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"), dealer=0)
    take = state.takes[0]
    assert check_state(attrs.evolve(state, takes=(attrs.evolve(take, seat=1),))).problems
    assert check_state(attrs.evolve(state, takes=(attrs.evolve(take, xeri=None),))).problems
    kept = xeri.new_game(ESCOBA, deck=italian_deck("2C 3C 4C 5C 6C 7C  KH KD 6S 4H"), dealer=0)
    forged = attrs.evolve(
        kept, table=(), takes=(xeri.Take(seat=0, cards=cards("KH KD 6S 4H"), turn=-1),)
    )
    assert check_state(forged).problems


# ---------------------------------------------------------------------------
# The serializer


def test_T1_rule_sets_with_table_rules_and_their_states_round_trip_through_json():
    for rules in (PISTI_REPLACE, ESCOBA, GREEK_REPLACE):
        assert xeri.from_json(xeri.to_json(rules)) == rules
    state = fresh(PISTI_REPLACE, range(200), lambda s: s.replaced)[0]
    text = xeri.to_json(state)
    names = ",".join(f'"{card.ascii}"' for card in state.replaced)
    assert f'"replaced":[{names}]' in text
    assert xeri.from_json(text) == state
    seen = xeri.observe(state, 0)
    assert xeri.from_json(xeri.to_json(seen)) == seen
    award = xeri.new_game(ESCOBA, deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"), dealer=0)
    assert '"turn":-1' in xeri.to_json(award)
    assert xeri.from_json(xeri.to_json(award)) == award
    # A state of a preset is written as before: no `replaced` key.
    assert '"replaced"' not in xeri.to_json(xeri.new_game(xeri.GREEK, rng=random.Random(1)))
    # A version 1 document has no `replaced`.
    old = text.replace('"redealt":[],', "").replace('"version":2', '"version":1')
    assert '"replaced"' in old
    with pytest.raises(xeri.InvalidStateError, match="replaced"):
        xeri.from_json(old)


# ---------------------------------------------------------------------------
# Properties over generated rule sets that use the initial-table rules


def _positions(rules: xeri.RuleSet, seed: int, rounds: int = 1) -> list[xeri.GameState]:
    rng = random.Random(seed)
    out = []
    state = xeri.new_game(rules, rng=rng)
    for _ in range(rounds):
        while not state.is_round_over:
            out.append(state)
            if state.is_chance:
                state = xeri.apply(state, xeri.chance_move(state, rng))
            else:
                state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        out.append(state)
        if state.is_over:
            break
        state = xeri.apply(state, xeri.chance_move(state, rng))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(table_rules=True), seed=st.integers(0, 2**32 - 1))
def test_T1_observations_recall_and_validation_hold_on_generated_table_rules(rules, seed):
    rng = random.Random(seed)
    low, high = rules.round_points_bounds or (0, 0)
    for i, state in enumerate(_positions(rules, seed, rounds=2)):
        for result in state.round_results:  # score bounds, awarded sweeps counted (T3)
            assert all(low <= total <= high for total in result.total)
        if i % 5 and not state.is_round_over:
            continue
        assert check_state(state).problems == [], state
        for seat in range(rules.seats):
            seen = xeri.observe(state, seat)
            assert xeri.observe(shuffle_hidden(state, seat, rng), seat) == seen  # non-interference
            if not state.dealing:
                sample = xeri.determinize(seen, rng)
                assert xeri.observe(sample, seat) == seen  # perfect recall
                assert check_state(sample).problems == []


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(table_rules=True), seed=st.integers(0, 2**32 - 1))
def test_T1_rollout_agrees_with_the_engine_on_generated_table_rules(rules, seed):
    rng = random.Random(seed)
    start = xeri.new_game(rules, rng=rng)
    end, moves = public_round(start, random.Random(seed + 1))
    assert_same_state(xeri.rollout(start, random.Random(0), replaying(moves)), end)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=rule_sets(table_rules=True), seed=st.integers(0, 2**16))
def test_T1_generated_table_rules_pass_the_harness(rules, seed):
    assert check_rules(rules, games=1, rng=random.Random(seed)).games == 1


def test_T1_T2_T3_the_harness_accepts_the_published_rules():
    for rules in (PISTI_REPLACE, ESCOBA, GREEK_REPLACE):
        assert check_rules(rules, games=3, rng=random.Random(5)).games == 3


@attrs.frozen
class Flaky:
    """A table rule that is not pure: it replaces the top card one time in two."""

    def action(self, cards: tuple[Card, ...]) -> TableAction:
        if cards and cards[-1] not in _FLIPPED and random.random() < 0.5:  # impure on purpose
            _FLIPPED.add(cards[-1])
            return TableAction.replace(cards[-1:])
        return TableAction.keep()


_FLIPPED: set[Card] = set()


def _first_failure(rules: xeri.RuleSet) -> xeri.testing.ConformanceError | None:
    """The harness's failure over a few seeds, or None."""
    for k in range(5):
        _FLIPPED.clear()
        try:
            check_rules(rules, games=2, rng=random.Random(k))
        except xeri.testing.ConformanceError as exc:
            return exc
    return None


def test_T1_the_harness_catches_a_table_rule_that_is_not_pure(monkeypatch):
    rules = attrs.evolve(xeri.GREEK, name="greek-flaky-table", redeal=Flaky())
    monkeypatch.setitem(xeri._rules.ruleset._REGISTRY, rules.name, rules)  # its JSON loads
    random.seed(3)
    failure = _first_failure(rules)
    assert failure is not None
    assert failure.check in {"apply", "purity"}


def test_T1_the_harness_still_catches_a_wrong_deal(monkeypatch):
    real = xeri._core.engine.deal_hands

    def swapped(rules, dealer, cards):  # the engine's signature
        hands, rest = real(rules, dealer, cards)
        return hands[::-1], rest  # each seat gets the other's block

    monkeypatch.setattr(xeri._core.engine, "deal_hands", swapped)
    with pytest.raises(xeri.testing.ConformanceError, match=r"its block of cards \(X3\)"):
        check_rules(xeri.GREEK, games=1, rng=random.Random(1))


def test_T1_the_harness_catches_a_table_laid_against_the_rule(monkeypatch):
    real = xeri._core.round.table_answer

    def kept(rules, dealer, table, stock):  # the core's signature
        answer = real(rules, dealer, table, stock)
        return (False, table, stock, (), ()) if answer[4] else answer  # no award

    monkeypatch.setattr(xeri._core.round, "table_answer", kept)
    rules = attrs.evolve(xeri.GREEK, name="greek-award-all", redeal=AwardsAll())
    monkeypatch.setitem(xeri._rules.ruleset._REGISTRY, rules.name, rules)  # its JSON loads
    with pytest.raises(xeri.testing.ConformanceError, match=r"laid as the deal order"):
        check_rules(rules, games=1, rng=random.Random(1))


def test_T1_the_vector_env_and_the_action_arrays_refuse_a_table_rule():
    pytest.importorskip("numpy")
    from xeri.envs.vector import _refusal  # noqa: PLC0415  # numpy is optional

    assert _refusal(PISTI_REPLACE) == "does not play the redeal rule ReplaceRanks"


def test_T2_T3_the_client_view_shows_the_replaced_cards_and_the_awarded_captures():
    jsonschema = pytest.importorskip("jsonschema")
    schema = xeri.client_view_schema()
    replaced = fresh(PISTI_REPLACE, range(200), lambda s: s.replaced)[0]
    award = xeri.new_game(ESCOBA, deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"), dealer=0)
    for state in (replaced, award):
        for seat in (0, 1, None):
            view = xeri.client_view(state, seat)
            jsonschema.validate(view, schema)
            assert xeri.client_view_json(state, seat) == xeri.encode_view(view)
    assert xeri.client_view(replaced, 1)["replaced"] == [c.ascii for c in replaced.replaced]
    assert xeri.client_view(award, None)["takes"] == [[0, -1, 4, "xeri"]]
    preset = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    assert xeri.client_view(preset, 0)["replaced"] == []
    assert '"replaced"' not in xeri.client_view_json(preset, 0)  # a key at its default is left out


def test_T2_the_observation_tensor_has_a_plane_of_the_replaced_cards():
    from xeri._agents.features import seat_parts  # noqa: PLC0415  # the fast path

    state = fresh(PISTI_REPLACE, range(200), lambda s: len(s.replaced) == 2)[0]
    blocks = {name: start for name, start, _ in xeri.observation_layout(PISTI_REPLACE)}
    assert "replaced" not in {name for name, _, _ in xeri.observation_layout(xeri.PISTI)}
    at = blocks["replaced"]
    tensor = xeri.observation_tensor(xeri.observe(state, 1))
    assert [i for i in range(52) if tensor[at + i] == 1.0] == sorted(
        c.index for c in state.replaced
    )
    masks, _ = seat_parts(state, 1)
    assert masks[at // 52] == sum(1 << c.index for c in state.replaced)


def test_T2_T3_the_terminal_transcript_tells_what_the_rule_did_at_the_deal():
    from xeri.cli._show import _step_lines  # noqa: PLC0415  # the terminal's transcript

    before = xeri.start(ESCOBA, dealer=0)
    deal_move = xeri.Deal(deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"))
    lines = _step_lines(before, deal_move, xeri.apply(before, deal_move), 1, 1)
    assert "  Player 1 takes 7♥ 5♦ 2♠ A♥  ** XERI **" in lines
    before = xeri.start(PISTI_REPLACE, dealer=0)
    deal_move = xeri.Deal(deck=deal(PISTI_REPLACE, table=["2C", "3D", "4H", "JS"], stock=["9D"]))
    lines = _step_lines(before, deal_move, xeri.apply(before, deal_move), 1, 1)
    assert "  replaced, face up under the stock: J♠" in lines


def test_T3_an_awarded_sweep_has_no_card_played_for_sweep_points():
    # The award's last card (A♥) was taken, not played: `played` gives it nothing.
    points = xeri.SweepPoints(
        each=1,
        played=xeri.PointsTable(ranks={Rank.ACE: 5}),
        taken=xeri.PointsTable(ranks={Rank.ACE: 2}),
    )
    rules = attrs.evolve(ESCOBA, name="escoba-sweep-points", categories=(points,))
    state = xeri.new_game(rules, deck=italian_deck("2C 3C 4C 5C 6C 7C  7H 5D 2S AH"), dealer=0)
    captured = tuple(tuple(c for t in state.takes if t.seat == s for c in t.cards) for s in (0, 1))
    assert points.award(captured, state.xeris, rules, takes=state.takes) == (1 + 2, 0)
    assert points.most(rules) >= 1 + 5 + 2
    end, _ = public_round(state, random.Random(3))
    assert check_state(end).problems == []

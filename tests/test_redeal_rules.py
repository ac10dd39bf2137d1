"""Redeal rules as components: `RanksOnTable`, custom `RedealRule`s, the enum, and JSON.

The engine asks `rules.redeal.needed(table)` of every initial table it
lays, and redeals exactly when the rule says so; `new_game` gives up with
a `RuleSetError` on a rule that keeps asking for a redeal.
"""

# Test names carry the clause id as written in the rules (test_G4_..., test_S2_...).

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
    Deal,
    GameState,
    InvalidStateError,
    Phase,
    Rank,
    RanksOnTable,
    Redeal,
    RedealRule,
    RuleSet,
    RuleSetError,
    Suit,
)
from xeri._core.validate import check_state

C = Card.parse


# --- RanksOnTable -------------------------------------------------------------------


def test_S2_ranks_on_table_counts_the_cards_of_its_rank_anywhere_on_the_table():
    kings = RanksOnTable(rank=Rank.KING, count=3)
    assert kings.needed(cards("K♣ K♦ 5♠ K♥"))
    assert kings.needed(cards("K♣ K♦ K♠ K♥"))
    assert kings.needed(cards("K♣ K♦ K♥"))
    assert not kings.needed(cards("K♣ 5♦ 5♠ K♥"))  # two Kings
    assert not kings.needed(cards("Q♣ Q♦ Q♠ J♥"))  # other ranks do not count
    assert not kings.needed(())
    for order in ("K♣ 5♠ K♦ K♥", "5♠ K♣ K♦ K♥", "K♣ K♦ K♥ 5♠"):  # order does not matter
        assert kings.needed(cards(order))
    one_ace = RanksOnTable(rank=Rank.ACE, count=1)
    assert one_ace.needed(cards("2♣ 3♣ A♠"))
    assert not one_ace.needed(cards("2♣ 3♣ 4♠"))
    assert RanksOnTable(rank=Rank(7), count=4).needed(cards("7♣ 7♦ 7♥ 7♠ 2♣"))
    assert not RanksOnTable(rank=Rank(7), count=4).needed(cards("7♣ 7♦ 7♥ 2♣"))
    assert isinstance(kings, RedealRule)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"rank": 13, "count": 3}, "RanksOnTable.rank must be a Rank, not 13"),
        ({"rank": "K", "count": 3}, "RanksOnTable.rank must be a Rank"),
        ({"rank": Rank.KING, "count": 0}, "RanksOnTable.count must be an int from 1 to 4, not 0"),
        ({"rank": Rank.KING, "count": 5}, "RanksOnTable.count must be an int from 1 to 4, not 5"),
        ({"rank": Rank.KING, "count": True}, "RanksOnTable.count must be an int from 1 to 4"),
        ({"rank": Rank.KING, "count": 3.0}, "RanksOnTable.count must be an int from 1 to 4"),
    ],
)
def test_S2_ranks_on_table_refuses_bad_fields(fields, message):
    with pytest.raises(RuleSetError, match=message):
        RanksOnTable(**fields)


def test_ranks_on_table_is_a_frozen_hashable_value():
    kings = RanksOnTable(rank=Rank.KING, count=3)
    assert kings == RanksOnTable(rank=Rank.KING, count=3)
    assert kings != RanksOnTable(rank=Rank.KING, count=2)
    assert hash(kings) == hash(RanksOnTable(rank=Rank.KING, count=3))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        kings.count = 2  # type: ignore[misc]
    assert repr(kings) == "RanksOnTable(rank=<Rank.KING: 13>, count=3)"


def test_S2_scopa_redeals_three_kings_on_the_initial_table():
    assert SCOPA.redeal == RanksOnTable(rank=Rank.KING, count=3)

    def dealt(table: str) -> GameState:
        laid = cards(table)
        rest = [c for c in ITALIAN_DECK if c not in laid]
        # 3 cards to each hand, then the table, the last card on top.
        return xeri.apply(xeri.start(SCOPA, dealer=0), Deal(deck=(*rest[:6], *laid, *rest[6:])))

    for table in ("Q♠ K♣ K♦ K♥", "K♣ K♦ K♥ Q♠", "K♣ K♦ K♥ K♠"):
        state = dealt(table)
        assert state.table == cards(table)
        assert state.phase is Phase.REDEAL
        assert state.is_chance
    for table in ("Q♠ K♣ K♦ 2♣", "K♣ 7♦ 7♥ 7♠"):  # two Kings, or a pair on top, stand
        state = dealt(table)
        assert state.table == cards(table)
        assert state.phase is Phase.PLAY


# --- the rule in the engine ---------------------------------------------------------


@attrs.frozen
class RedOnTop:
    """Redeal when the top card is red: half of all tables, so redeals are frequent."""

    def needed(self, cards: tuple[Card, ...]) -> bool:
        return bool(cards) and cards[-1].suit in (Suit.HEARTS, Suit.DIAMONDS)


@attrs.frozen
class Always:
    def needed(self, cards: tuple[Card, ...]) -> bool:
        return True


@attrs.frozen(kw_only=True)
class SumAbove:
    """Redeal when the table's ranks add up to more than `limit`: a rule with a field."""

    limit: int = 30

    def needed(self, cards: tuple[Card, ...]) -> bool:
        return sum(int(c.rank) for c in cards) > self.limit


RED = attrs.evolve(GREEK, name="greek-red-top-test", redeal=RedOnTop())
SUM = attrs.evolve(GREEK_FOUR, name="greek-four-sum-test", redeal=SumAbove(limit=25))


@pytest.mark.parametrize("rules", [RED, SUM], ids=lambda r: r.name)
def test_G4_new_game_redeals_exactly_when_a_custom_rule_says_so(rules):
    rule = rules.redeal
    redeals = 0
    for seed in range(40):
        state = xeri.new_game(rules, rng=random.Random(seed))
        assert state.phase is Phase.PLAY
        assert not rule.needed(state.table)
        for shown in state.redealt:  # every table shown and dealt again needed it
            assert len(shown) == rules.table_size
            assert rule.needed(shown)
        redeals += len(state.redealt)
        assert check_state(state).problems == []
        # new_game is: draw the dealer, deal, then reshuffle while the rule asks, all with rng.
        rng = random.Random(seed)
        step = xeri.start(rules, dealer=rng.randrange(rules.seats))
        step = xeri.apply(step, xeri.chance_move(step, rng))
        shown = []
        while step.phase is Phase.REDEAL:
            assert rule.needed(step.table)
            shown.append(step.table)
            step = xeri.apply(step, xeri.chance_move(step, rng))
        assert not rule.needed(step.table)
        assert step == state
        assert tuple(shown) == state.redealt
    assert redeals >= 20  # the rule fired often


def test_G4_a_deal_is_redealt_exactly_when_the_rule_holds_for_its_table():
    rng = random.Random(3)
    phases = set()
    for _ in range(60):
        deck = list(DECK)
        rng.shuffle(deck)
        state = xeri.apply(xeri.start(RED, dealer=1), Deal(deck=tuple(deck)))
        table = tuple(deck[12:16])
        assert state.table == table
        assert (state.phase is Phase.REDEAL) == (table[-1].suit in (Suit.HEARTS, Suit.DIAMONDS))
        phases.add(state.phase)
    assert phases == {Phase.REDEAL, Phase.PLAY}


def test_G4_a_rule_that_always_redeals_makes_new_game_give_up():
    rules = attrs.evolve(GREEK, name="greek-always-test", redeal=Always())
    with pytest.raises(RuleSetError, match="more than 1,000 redeals") as caught:
        xeri.new_game(rules, rng=random.Random(0))
    assert "greek-always-test" in str(caught.value)
    # The engine itself keeps the redeal pending: chance must reshuffle again.
    state = xeri.apply(xeri.start(rules, dealer=0), Deal(deck=DECK))
    assert state.phase is Phase.REDEAL
    again = xeri.apply(state, xeri.chance_move(state, random.Random(1)))
    assert again.phase is Phase.REDEAL
    assert again.redealt == (DECK[12:16],)


def test_the_enum_members_are_redeal_rules():
    for member in Redeal:
        assert isinstance(member, RedealRule)
    top = cards("3♣ 4♦ 6♥ 5♠")
    assert not Redeal.TOP_JACK_OR_TOP_PAIR.needed(top)
    assert Redeal.TOP_JACK_OR_TOP_PAIR.needed(cards("3♣ 4♦ 5♥ 5♠"))
    assert not Redeal.TOP_JACK_OR_TOP_PAIR.needed(cards("3♣ 3♦ 5♥ 6♠"))
    assert Redeal.TOP_JACK_OR_ANY_PAIR.needed(cards("3♣ 3♦ 5♥ 6♠"))
    assert Redeal.TOP_JACK_OR_ANY_PAIR.needed(cards("3♣ 4♦ 5♥ J♠"))
    assert not Redeal.NEVER.needed(cards("J♣ J♦ J♥ J♠"))


# --- validation in the rule set -----------------------------------------------------


@attrs.define
class MutableRule:
    def needed(self, cards: tuple[Card, ...]) -> bool:
        return False


@attrs.frozen
class ListRule:
    ranks: list[int] = attrs.field(factory=list)

    def needed(self, cards: tuple[Card, ...]) -> bool:
        return False


class PlainRule:
    def needed(self, cards: tuple[Card, ...]) -> bool:
        return False


@pytest.mark.parametrize(
    ("redeal", "message"),
    [
        ("never", "redeal must be a Redeal or implement RedealRule: str has no needed method"),
        (None, "redeal must be a Redeal or implement RedealRule: NoneType has no needed method"),
        (object(), "redeal must be a Redeal or implement RedealRule: object has no needed"),
        (MutableRule(), "redeal must be an instance of a frozen attrs class"),
        (PlainRule(), "redeal must be an instance of a frozen attrs class"),
        (ListRule(), "redeal must be hashable"),
    ],
    ids=["str", "none", "object", "mutable", "plain", "list"],
)
def test_a_redeal_that_is_not_a_frozen_rule_is_refused(redeal, message):
    with pytest.raises(RuleSetError, match=message):
        attrs.evolve(GREEK, name="greek-bad-redeal-test", redeal=redeal)


def test_a_custom_redeal_rule_cannot_read_face_down_cards():
    with pytest.raises(RuleSetError, match=r"face_down needs redeal=Redeal.NEVER"):
        attrs.evolve(xeri.PISTI, name="pisti-redeal-test", redeal=RedOnTop())
    with pytest.raises(RuleSetError, match=r"face_down needs redeal=Redeal.NEVER"):
        attrs.evolve(
            xeri.PISTI, name="pisti-redeal-test", redeal=RanksOnTable(rank=Rank.KING, count=3)
        )


def test_a_custom_redeal_rule_is_kept_as_given():
    assert RED.redeal == RedOnTop()
    assert SUM.redeal.limit == 25
    assert attrs.evolve(RED, redeal=Redeal.TOP_JACK_OR_TOP_PAIR) != RED
    assert hash(RED) == hash(attrs.evolve(RED, redeal=RedOnTop()))


# --- JSON ---------------------------------------------------------------------------


def test_S2_a_rule_set_with_ranks_on_table_round_trips_by_fields():
    rules = attrs.evolve(
        GREEK, name="greek-kings-test", redeal=RanksOnTable(rank=Rank.KING, count=2)
    )
    text = xeri.to_json(rules)
    data = json.loads(text)["data"]
    assert data["redeal"] == {"RanksOnTable": {"count": 2, "rank": 13}}
    back = xeri.from_json(text, expect=RuleSet)
    assert back == rules
    assert type(back.redeal) is RanksOnTable
    assert back.redeal.rank is Rank.KING
    assert xeri.to_json(back) == text
    scopa = attrs.evolve(SCOPA, name="scopa-by-fields-test")
    assert json.loads(xeri.to_json(scopa))["data"]["redeal"] == {
        "RanksOnTable": {"count": 3, "rank": 13}
    }
    assert xeri.from_json(xeri.to_json(scopa), expect=RuleSet) == scopa
    assert json.loads(xeri.to_json(SCOPA))["data"] == "scopa"  # a preset: by its name


def test_the_enum_redeal_of_the_presets_is_still_written_as_a_string():
    for preset, written in (
        (GREEK, "top jack or top pair"),
        (GREEK_FOUR, "top jack or any pair"),
        (xeri.GERMAN, "never"),
    ):
        by_fields = attrs.evolve(preset, name=f"{preset.name}-fields-test")
        text = xeri.to_json(by_fields)
        assert json.loads(text)["data"]["redeal"] == written
        back = xeri.from_json(text, expect=RuleSet)
        assert back.redeal is preset.redeal
        assert back == by_fields


def test_S2_states_redealt_under_ranks_on_table_round_trip():
    rules = attrs.evolve(
        GREEK, name="greek-one-ace-test", redeal=RanksOnTable(rank=Rank.ACE, count=1)
    )
    found = 0
    for seed in range(40):
        state = xeri.new_game(rules, rng=random.Random(seed))
        if not state.redealt:
            continue
        found += 1
        assert all(any(c.rank is Rank.ACE for c in shown) for shown in state.redealt)
        assert not any(c.rank is Rank.ACE for c in state.table)
        text = xeri.to_json(state)
        assert xeri.from_json(text, expect=GameState) == state
        for seat in (0, 1):
            seen = xeri.observe(state, seat)
            assert seen.redealt == state.redealt
            assert xeri.from_json(xeri.to_json(seen)) == seen
    assert found >= 5


def test_a_custom_redeal_rule_loads_once_its_rule_set_is_registered(monkeypatch):
    text = xeri.to_json(SUM)
    assert json.loads(text)["data"]["redeal"] == {f"{__name__}.SumAbove": {"limit": 25}}
    with pytest.raises(InvalidStateError, match="unknown component class"):
        xeri.from_json(text)
    monkeypatch.setitem(xeri._rules.ruleset._REGISTRY, SUM.name, SUM)
    back = xeri.from_json(text, expect=RuleSet, strict=False)
    assert back == SUM
    assert type(back.redeal) is SumAbove
    state = xeri.new_game(SUM, rng=random.Random(4))
    assert xeri.from_json(xeri.to_json(state), expect=GameState) == state

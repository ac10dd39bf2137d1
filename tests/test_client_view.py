"""Client views (X2, P3): the schema, the compact text, ply, plays, legal moves, spectators."""

from __future__ import annotations

import json
import random
import re

import jsonschema
import pytest

import xeri
from edge_games import PISTI, all_rules, hidden_cards, named_cards, states
from xeri import (
    ArgumentError,
    IllegalMoveError,
    Phase,
    SumCapture,
    client_view,
    client_view_json,
    decode_view,
    encode_view,
    observe,
)
from xeri._core import legal
from xeri._io import view as view_module
from xeri.testing import card_at, hidden_places, place_cards, shuffle_hidden

VALIDATOR = jsonschema.Draft202012Validator(xeri.client_view_schema())
RULES = all_rules()
IDS = [r.name for r in RULES]


SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def text_of(ascii_: str) -> str:
    """A move's text from its ASCII notation, by the rule the client view page gives."""
    text = re.sub(r"(10|[2-9AJQK])([CDHS])", lambda m: m[1] + SUITS[m[2]], ascii_)
    text = text.replace(" x ", " takes ").replace(" = ", " makes ")
    return f"{text[6:]} free" if text.startswith("trail ") else text


def seats_and_spectator(rules: xeri.RuleSet) -> list[int | None]:
    return [None, *range(rules.seats)]


def spectator_shuffle(state: xeri.GameState, rng: random.Random) -> xeri.GameState:
    """The state with every card no seat sees for sure shuffled: each hand, stock, face-down."""
    places = sorted({p for s in range(state.rules.seats) for p in hidden_places(state, s)})
    cards = [card_at(state, p) for p in places]
    rng.shuffle(cards)
    return place_cards(state, list(zip(places, cards, strict=True)))


def test_schema_file_ships_in_the_package():
    schema = xeri.client_view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["view"]["const"] == view_module.VIEW_VERSION


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_X2_every_view_meets_the_schema_and_its_text_is_its_compact_encoding(rules):
    defaults = {
        k: p["default"]
        for k, p in xeri.client_view_schema()["properties"].items()
        if "default" in p
    }
    for state in states(rules, 3, rounds=2, every=3):
        for seat in seats_and_spectator(rules):
            view = client_view(state, seat)
            assert list(view) == list(xeri.client_view_schema()["properties"])
            VALIDATOR.validate(view)
            text = client_view_json(state, seat)
            sent = json.loads(text)
            VALIDATOR.validate(sent)
            # One source: the text is the dict's encoding, and reads back to it.
            assert text == encode_view(view) == encode_view(sent)
            assert text == json.dumps(sent, ensure_ascii=False, separators=(",", ":"))
            assert decode_view(text) == view
            # The text leaves out exactly the keys at their default.
            for key, value in view.items():
                if key in ("captured", "scores"):
                    assert (key in sent) == any(value)
                elif key in defaults:
                    assert (key in sent) == (value != defaults[key] or type(value) is bool)
                else:
                    assert sent[key] == value


def test_a_view_of_the_first_play_leaves_out_what_is_at_its_default():
    state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(2))
    sent = json.loads(client_view_json(state, 1))
    assert sorted(sent) == sorted(
        [
            "view",
            "rules",
            "pile",
            "seat",
            "ply",
            "dealer",
            "to_move",
            "sides",
            "hand",
            "hand_sizes",
            "table",
            "stock_size",
            "target",
            "moves",
        ]
    )
    assert "seat" not in json.loads(client_view_json(state, None))
    assert "moves" not in json.loads(client_view_json(state, 0))


@pytest.mark.parametrize("rules", [xeri.GREEK, xeri.GREEK_FOUR, xeri.PISTI], ids=str)
def test_a_pile_games_view_is_no_larger_than_its_observations_json(rules):
    for seed in range(4):
        for state in states(rules, seed, rounds=2):
            for seat in seats_and_spectator(rules):
                view = client_view_json(state, seat).encode("utf-8")
                assert len(view) <= len(xeri.to_json(observe(state, seat)).encode("utf-8"))


def test_decode_view_refuses_what_is_not_a_view():
    text = client_view_json(xeri.new_game(xeri.GREEK, rng=random.Random(1)), 0)
    for bad in (
        "[",
        "[]",
        '{"view": 1}',
        text.replace('"dealer"', '"deeler"'),
        text.replace('"dealer":', '"x":').replace(',"x":0', "").replace(',"x":1', ""),
    ):
        with pytest.raises(ArgumentError):
            decode_view(bad)
    assert decode_view(json.loads(text)) == decode_view(text)
    with pytest.raises(ArgumentError, match="JSON-ready"):
        decode_view({**json.loads(text), "hand": [object()]})
    with pytest.raises(ArgumentError, match="str or a dict"):
        decode_view(b"{}")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        encode_view({"view": 1})


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_ply_counts_every_player_move_of_the_match(rules):
    rng = random.Random(7)
    state = xeri.new_game(rules, rng=rng)
    ply = 0
    while not state.is_over and len(state.round_results) < 3:
        assert client_view(state, None)["ply"] == ply
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
            ply += 1
    assert client_view(state, 0)["ply"] == ply


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_G5_plays_name_the_seat_of_each_play_as_the_observation_does(rules):
    for state in states(rules, 5, rounds=2, every=5):
        view = client_view(state, None)
        seen = observe(state, None)
        pairs = [(int(s), m) for s, m in zip(view["play_seats"], view["plays"], strict=True)]
        assert pairs == [(s, m.ascii) for s, m in seen.plays]
        # The last play is the last of plays; what it took, the last take if made by it.
        took = [t for t in view["takes"] if t[1] is not None and t[1] == len(view["plays"]) - 1]
        last_take = [t for t in seen.takes if t.turn is not None and t.turn == len(seen.plays) - 1]
        assert [t[2:] for t in took] == [
            [len(t.cards) + t.hidden, *([] if t.xeri is None else [t.xeri.value])]
            for t in last_take
        ]
        assert view["captured"] == list(seen.captured_counts)
        assert view["scores"] == list(state.scores)
        assert (view["phase"] == "match over") == state.status.over
        assert view["winner"] == state.status.winner
        assert view["target"] == state.status.target


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_legal_moves_in_the_view_are_the_seats_with_what_they_take(rules):
    for state in states(rules, 11, every=4):
        for seat in seats_and_spectator(rules):
            view = client_view(state, seat)
            if seat is None or state.to_move != seat:
                assert view["moves"] == []
                continue
            moves = xeri.legal_moves(state)
            assert len(view["moves"]) == len(moves)
            for entry, move in zip(view["moves"], moves, strict=True):
                ascii_, takes, kind = (entry, 0, None) if type(entry) is str else (*entry, None)[:3]
                assert xeri.parse_move(state, ascii_) == move
                assert text_of(ascii_) == str(move)
                seen = xeri.preview(state, move)
                assert takes == seen.count
                assert kind == (None if seen.xeri is None else seen.xeri.value)


def test_very_many_legal_moves_are_counted_per_card(monkeypatch):
    state = xeri.new_game(xeri.GERMAN, dealer=0, rng=random.Random(1))
    monkeypatch.setattr(view_module, "MAX_LISTED_MOVES", 1)
    view = client_view(state, 1)
    moves = xeri.legal_moves(state)
    assert view["moves"] == []
    per_card = {m.card.ascii: sum(1 for n in moves if n.card is m.card) for m in moves}
    assert dict(view["move_cards"]) == per_card
    assert sum(n for _, n in view["move_cards"]) == len(moves)
    VALIDATOR.validate(view)
    assert client_view_json(state, 1) == encode_view(view)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_X2_views_do_not_change_with_the_cards_a_seat_cannot_see(rules):
    rng = random.Random(2)
    for state in states(rules, 13, every=3):
        for seat in range(rules.seats):
            other = shuffle_hidden(state, seat, rng)
            assert client_view_json(other, seat) == client_view_json(state, seat)
        other = spectator_shuffle(state, rng)
        assert client_view_json(other, None) == client_view_json(state, None)
        assert observe(other, None) == observe(state, None)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_X2_no_view_names_a_hidden_card(rules):
    for state in states(rules, 17, every=2):
        # A spectator sees no card that some seat cannot see (the shown bottom card excepted).
        hidden_from_some = set().union(*(hidden_cards(state, s) for s in range(rules.seats)))
        hidden_from_some.discard(state.bottom_card)
        for seat in seats_and_spectator(rules):
            hidden = hidden_from_some if seat is None else hidden_cards(state, seat)
            # Redealt tables were shown to all (G4): their cards are named, not placed.
            hidden = hidden - {c for shown in state.redealt for c in shown}
            view = json.loads(client_view_json(state, seat))
            view["rules"] = None  # a rule set written in full names cards in its points table
            assert not named_cards(json.dumps(view, ensure_ascii=False)) & hidden


def test_P3_a_spectator_never_sees_a_face_down_card():
    rng = random.Random(4)
    state = xeri.new_game(PISTI, rng=rng)
    down = set(state.table[: PISTI.face_down])
    while not state.is_round_over:
        seen = observe(state, None)
        assert seen.hand == ()
        assert seen.seat is None
        if seen.takes:
            assert seen.takes[0].hidden == min(PISTI.face_down, len(state.takes[0].cards) - 1)
        assert not named_cards(client_view_json(state, None)) & down
        assert not named_cards(xeri.to_json(seen)) & down
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))


def test_a_spectators_observation_reads_back_and_has_no_moves():
    state = xeri.new_game(PISTI, rng=random.Random(9))
    seen = observe(state, None)
    assert xeri.from_json(xeri.to_json(seen)) == seen
    assert xeri.legal_moves(seen) == ()
    with pytest.raises(IllegalMoveError, match="spectator"):
        xeri.observation_tensor(seen)


def test_bad_arguments_are_refused():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    for seat in (2, -1, True, "0"):
        with pytest.raises(IllegalMoveError, match="seat must be"):
            client_view(state, seat)  # type: ignore[arg-type]
        with pytest.raises(IllegalMoveError, match="seat must be"):
            client_view_json(state, seat)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="GameState"):
        client_view(observe(state, 0), 0)  # type: ignore[arg-type]


def test_views_are_new_values_and_leave_the_state_alone():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    before = xeri.to_json(state)
    view = client_view(state, 0)
    view["hand"].clear()
    view["sides"].append(5)
    view["rules"] = "other"
    assert client_view(state, 0)["hand"]
    assert client_view(state, 0)["sides"] == [0, 1]
    assert client_view_json(state, 0).startswith('{"view":2,"rules":"greek","pile":true,"seat":0,')
    assert xeri.to_json(state) == before


def test_round_over_and_match_over_views():
    rng = random.Random(3)
    state = xeri.new_game(xeri.GREEK, rng=rng)
    while state.phase is not Phase.ROUND_OVER:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    view = client_view(state, 0)
    assert view["phase"] == "round over"
    assert view["ply"] == 48
    sheet = xeri.to_data(state)["data"]["round_results"][0]
    fields = ["cards", "card_points", "majority", "xeris", "xeri_bonus", "total", "leftover"]
    assert view["round_results"] == [[sheet[f] for f in fields] + [[]]]
    assert view["scores"] == list(state.scores)


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_client_moves_are_the_listed_moves_of_one_card_with_their_indexes(rules):
    for state in states(rules, 19, every=5):
        for seat in range(rules.seats):
            view = client_view(state, seat)
            moves = xeri.legal_moves(state)
            for card in state.hands[seat]:
                asked = xeri.client_moves(state, seat, card.ascii)
                listed = [
                    [i, entry] for i, entry in enumerate(view["moves"]) if moves[i].card is card
                ]
                assert asked == {"card": card.ascii, "count": len(listed), "moves": listed}
                if seat != state.to_move:
                    assert asked["moves"] == []
                    assert asked["count"] == 0


def test_client_moves_serve_a_view_that_counts_its_moves_per_card(monkeypatch):
    state = xeri.new_game(xeri.GERMAN, dealer=0, rng=random.Random(1))
    listed = client_view(state, 1)["moves"]
    monkeypatch.setattr(view_module, "MAX_LISTED_MOVES", 1)
    counted = client_view(state, 1)
    start = 0
    for card, count in counted["move_cards"]:  # the first of each card's moves: the cap is 1
        asked = xeri.client_moves(state, 1, card)
        assert asked == {"card": card, "count": count, "moves": [[start, listed[start]]]}
        start += count
    assert start == len(listed)


def test_client_moves_refuse_bad_arguments():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    with pytest.raises(ArgumentError, match="not a card name"):
        xeri.client_moves(state, 0, "11Z")
    with pytest.raises(IllegalMoveError, match="seat must be"):
        xeri.client_moves(state, None, "2C")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="GameState"):
        xeri.client_moves(observe(state, 0), 0, "2C")  # type: ignore[arg-type]


def _expected_last(state: xeri.GameState) -> list[object] | None:
    """The round's last play as the client view page describes `last`, from the true state."""
    if not state.history:
        return None
    turn = len(state.history) - 1
    seat = observe(state, None).plays[turn][0]
    for i, take in enumerate(state.takes):
        if take.turn == turn:
            hidden = 0
            if state.rules.face_down and i == 0:  # P3: the face-down cards lay first
                hidden = min(state.rules.face_down, len(take.cards) - 1)
            out = [seat, len(take.cards), [c.ascii for c in take.cards[hidden:]]]
            return out if take.xeri is None else [*out, take.xeri.value]
    return [seat]


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_G5_last_names_the_last_play_s_seat_what_it_took_and_its_xeri(rules):
    kinds = set()
    for state in states(rules, 23, rounds=2):
        expected = _expected_last(state)
        for seat in seats_and_spectator(rules):
            last = client_view(state, seat)["last"]
            assert last == expected
            if last is not None:
                assert int(client_view(state, seat)["play_seats"][-1]) == last[0]
        if expected is not None:
            kinds.add(len(expected))
    assert 1 in kinds
    assert 3 in kinds or 4 in kinds
    assert client_view(xeri.new_game(rules, rng=random.Random(1)), None)["last"] is None


def test_P3_last_counts_the_face_down_cards_it_took_and_never_names_them():
    found = 0
    for seed in range(40):
        rng = random.Random(seed)
        state = xeri.new_game(PISTI, rng=rng)
        down = [c.ascii for c in state.table[: PISTI.face_down]]
        while not state.takes:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        if len(state.takes[0].cards) <= PISTI.face_down:
            continue
        found += 1
        taker = state.takes[0].seat
        for seat in seats_and_spectator(PISTI):  # the seat that took them too
            seat_, took, cards, *_ = client_view(state, seat)["last"]
            assert seat_ == taker
            assert took == len(state.takes[0].cards) == len(cards) + PISTI.face_down
            assert not set(cards) & set(down)
    assert found


def _trailed(rules: xeri.RuleSet, seed: int, at_least: int) -> list[xeri.GameState]:
    """States of a round where both players lay every card free while they may."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    found = []
    while state.to_move is not None and not state.is_round_over:
        moves = xeri.legal_moves(state)
        if len(moves) >= at_least:
            found.append(state)
        free = xeri.Trail(card=state.hands[state.to_move][0])
        state = xeri.apply(state, free if free in moves else moves[0])
    return found


@pytest.fixture(scope="module")
def huge() -> xeri.GameState:
    """A CASSINO state where both players trailed: a full hand, over a billion legal moves."""
    states_ = _trailed(xeri.CASSINO, 1, 10**9)
    state = max(states_, key=lambda s: (len(s.hands[s.to_move]), len(xeri.legal_moves(s))))
    assert len(state.hands[state.to_move]) == 4  # CASSINO deals four
    return state


@pytest.fixture
def counted_moves(monkeypatch):
    """Count the moves made by index; refuse listing the moves of a large table."""
    made = [0]
    move_at = SumCapture.move_at

    def counting(self, table, hand, seat, index):
        made[0] += 1
        return move_at(self, table, hand, seat, index)

    def refused(self, table, hand, seat):
        raise AssertionError("the moves of a large table were listed")

    original = SumCapture.moves

    def moves(self, table, hand, seat):
        if len(table) > 16:  # the lazy sequences' small tables are listed
            refused(self, table, hand, seat)
        return original(self, table, hand, seat)

    monkeypatch.setattr(SumCapture, "move_at", counting)
    monkeypatch.setattr(SumCapture, "moves", moves)
    return made


def _check_counts(state: xeri.GameState, pairs: list[tuple[str, int]]) -> None:
    """Each card's count against the index boundaries of the sorted moves."""
    moves = xeri.legal_moves(state)
    assert sum(n for _, n in pairs) == len(moves)
    start = 0
    for name, count in pairs:
        card = xeri.Card.parse(name)
        assert count > 0
        assert moves[start].card is card
        assert start == 0 or moves[start - 1].card is not card
        assert moves[start + count - 1].card is card
        start += count
    assert [c for c, _ in pairs] == sorted(
        {c for c, _ in pairs}, key=lambda c: xeri.Card.parse(c).index
    )


@pytest.mark.parametrize("by_rule", [True, False], ids=["by rule", "by bisection"])
def test_a_view_of_billions_of_moves_counts_them_per_card_making_few(
    huge, counted_moves, monkeypatch, by_rule
):
    if not by_rule:  # a rule without count_by_card: bisection over the indices
        monkeypatch.setattr(legal, "_by_card", lambda cls: False)
    seat = huge.to_move
    hand = huge.hands[seat]
    view = client_view(huge, seat)
    assert view["moves"] == []
    assert len(view["move_cards"]) > 1
    VALIDATOR.validate(view)
    bound = len(hand) * (2 + len(xeri.legal_moves(huge)).bit_length())  # a bisection per card
    assert counted_moves[0] <= (0 if by_rule else bound)
    made = counted_moves[0]
    for card, count in view["move_cards"]:
        asked = xeri.client_moves(huge, seat, card)
        assert asked["card"] == card
        assert asked["count"] == count
        assert len(asked["moves"]) == min(count, view_module.MAX_LISTED_MOVES)
        first = asked["moves"][0][0]
        assert [i for i, _ in asked["moves"]] == list(range(first, first + len(asked["moves"])))
        for i, entry in asked["moves"][:3]:
            ascii_ = entry if type(entry) is str else entry[0]
            assert xeri.parse_move(huge, ascii_) == xeri.legal_moves(huge)[i]
    listed = sum(min(n, view_module.MAX_LISTED_MOVES) for _, n in view["move_cards"])
    per_call = 0 if by_rule else bound
    # the listed moves, a few checks each, and the counting of each call
    assert counted_moves[0] - made <= listed + 6 * len(hand) + len(hand) * per_call
    monkeypatch.undo()
    _check_counts(huge, [tuple(p) for p in view["move_cards"]])

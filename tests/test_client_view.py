"""Client views (X2, P3): the schema, the fast text, ply, plays, legal moves, spectators."""

from __future__ import annotations

import json
import random

import jsonschema
import pytest

import xeri
from edge_games import PISTI, all_rules, hidden_cards, named_cards, states
from xeri import IllegalMoveError, Phase, client_view, client_view_json, encode_view, observe
from xeri._io import view as view_module
from xeri.testing import card_at, hidden_places, place_cards, shuffle_hidden

VALIDATOR = jsonschema.Draft202012Validator(xeri.client_view_schema())
RULES = all_rules()
IDS = [r.name for r in RULES]


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
def test_X2_every_view_meets_the_schema_and_the_fast_text_is_the_same(rules):
    for state in states(rules, 3, rounds=2, every=3):
        for seat in seats_and_spectator(rules):
            view = client_view(state, seat)
            VALIDATOR.validate(view)
            text = client_view_json(state, seat)
            assert text == encode_view(view)
            assert json.loads(text) == view


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
        assert [tuple(p) for p in view["plays"]] == [(s, m.ascii) for s, m in seen.plays]
        if seen.plays:
            seat, move = seen.plays[-1]
            assert view["last"]["seat"] == seat
            assert view["last"]["move"] == move.ascii
            assert view["last"]["text"] == str(move)
        else:
            assert view["last"] is None
        assert view["captured"] == list(seen.captured_counts)
        assert view["scores"] == list(state.scores)
        assert view["status"]["over"] == state.status.over


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_legal_moves_in_the_view_are_the_seats_with_what_they_take(rules):
    for state in states(rules, 11, every=4):
        for seat in seats_and_spectator(rules):
            view = client_view(state, seat)
            if seat is None or state.to_move != seat:
                assert view["moves"] == []
                assert view["move_count"] == 0
                continue
            moves = xeri.legal_moves(state)
            assert view["move_count"] == len(moves)
            for (index, ascii_, text, takes, kind), move in zip(view["moves"], moves, strict=True):
                assert moves[index] is move
                assert xeri.parse_move(state, ascii_) == move
                assert text == str(move)
                seen = xeri.preview(state, move)
                assert takes == seen.count
                assert kind == (None if seen.xeri is None else seen.xeri.value)


def test_very_many_legal_moves_are_counted_per_card(monkeypatch):
    state = xeri.new_game(xeri.GERMAN, dealer=0, rng=random.Random(1))
    monkeypatch.setattr(view_module, "MAX_LISTED_MOVES", 1)
    view = client_view(state, 1)
    moves = xeri.legal_moves(state)
    assert view["moves"] == []
    assert view["move_count"] == len(moves)
    per_card = {m.card.ascii: sum(1 for n in moves if n.card is m.card) for m in moves}
    assert dict(view["move_cards"]) == per_card
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
    view["status"]["over"] = True
    assert client_view(state, 0)["hand"]
    assert client_view(state, 0)["status"]["over"] is False
    assert xeri.to_json(state) == before


def test_round_over_and_match_over_views():
    rng = random.Random(3)
    state = xeri.new_game(xeri.GREEK, rng=rng)
    while state.phase is not Phase.ROUND_OVER:
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    view = client_view(state, 0)
    assert view["round"] == 1
    assert view["ply"] == 48
    assert view["round_results"] == [xeri.to_data(state)["data"]["round_results"][0]]
    assert view["scores"] == list(state.scores)

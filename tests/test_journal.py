"""to_data / from_data, the ASCII notation of moves, and the append-only journal."""

from __future__ import annotations

import json
import random

import attrs
import pytest

import xeri
from edge_games import VARIANTS, all_rules, game
from xeri import InvalidStateError, from_data, journal_header, journal_row, load_journal, to_data

RULES = all_rules()
IDS = [r.name for r in RULES]


def values(rules: xeri.RuleSet) -> list[object]:
    out: list[object] = [rules]
    moves = []
    for state, move in game(rules, 3, rounds=1):
        if len(out) < 12:
            out.extend([state, xeri.observe(state, 0), xeri.observe(state, None)])
        if move is not None:
            moves.append(move)
    out.extend(moves[:30])
    out.append(xeri.GameRecord(rules=rules, dealer=game_dealer(rules), moves=tuple(moves[:20])))
    return out


def game_dealer(rules: xeri.RuleSet) -> int:
    return next(game(rules, 3))[0].dealer


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_to_data_is_what_to_json_encodes_and_from_data_reads_it_back(rules):
    for value in values(rules):
        data = to_data(value)
        assert json.dumps(data, sort_keys=True, separators=(",", ":")) == xeri.to_json(value)
        assert from_data(data) == value
        assert from_data(json.loads(json.dumps(data)), type(value)) == value


def test_from_data_checks_as_from_json_does():
    state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(1))
    data = to_data(state)
    bad = json.loads(json.dumps(data))
    bad["data"]["stock"][0] = bad["data"]["stock"][1]
    with pytest.raises(InvalidStateError) as err:
        from_data(bad)
    assert err.value.problems == xeri_problems(json.dumps(bad, sort_keys=True))
    with pytest.raises(InvalidStateError, match="not a RuleSet"):
        from_data(data, xeri.RuleSet)


def xeri_problems(text: str) -> list[str]:
    with pytest.raises(InvalidStateError) as err:
        xeri.from_json(text, strict=False)
    return err.value.problems


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ((1, 2), "tuple"),
        ({"data": 1.5, "format": "xeri", "type": "move", "version": 2}, "float"),
        ({1: 2}, "not a string"),
        ([[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]], "deeper"),
        ("x" * (xeri._io.serialize.MAX_TEXT_LENGTH + 1), "larger"),
        (None, "object"),
        ({"data": "2C", "format": "xeri", "type": "move", "version": 2, "x": 1}, "unexpected"),
    ],
)
def test_from_data_refuses_what_no_json_text_decodes_to(data, message):
    with pytest.raises(InvalidStateError, match=message):
        from_data(data)


def test_from_data_survives_a_cycle():
    loop: dict[str, object] = {"format": "xeri", "type": "move", "version": 2}
    loop["data"] = loop
    with pytest.raises(InvalidStateError, match="deeper"):
        from_data(loop)


def test_from_data_strict_wants_the_canonical_data():
    data = to_data(xeri.Card.parse("10D"))
    data["data"] = "TD"
    with pytest.raises(InvalidStateError, match="strict=False"):
        from_data(data)
    assert from_data(data, strict=False) == xeri.Card.parse("10D")


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_every_legal_move_reads_back_from_its_ascii_notation(rules):
    for state, _ in game(rules, 5, rounds=1):
        for move in xeri.legal_moves(state):
            assert move.ascii.isascii()
            assert xeri.parse_move(state, move.ascii) == move
            assert xeri.parse_move(state, f"  {move.ascii.lower()} ") == move


def test_ascii_notation_examples():
    c = xeri.Card.parse
    build = xeri.Build(cards=(c("3D"), c("5S")), value=8, owner=0)
    assert xeri.Capture(card=c("7C"), taken=(c("4S"), c("3D"))).ascii == "7C x 3D+4S"
    assert xeri.Capture(card=c("8H"), taken=(build,)).ascii == "8H x [3D+5S=8]"
    combine = xeri.Combine(card=c("2S"), onto=c("3D"), value=9, also=(c("4C"),))
    assert combine.ascii == "2S on 3D+4C = 9"
    assert xeri.Trail(card=c("5H")).ascii == "trail 5H"
    assert build.ascii == "[3D+5S=8]"


def test_parse_move_reads_mixed_notation():
    state = xeri.new_game(xeri.GERMAN, dealer=0, rng=random.Random(2))
    for move in xeri.legal_moves(state):
        if isinstance(move, xeri.Trail):
            assert xeri.parse_move(state, f"{move.card} free") == move
            assert xeri.parse_move(state, f"TRAIL {move.card}") == move
        if isinstance(move, xeri.Capture):
            assert xeri.parse_move(state, str(move).replace("takes", "x")) == move
        if isinstance(move, xeri.Combine):
            assert xeri.parse_move(state, str(move).replace("makes", "=")) == move
    with pytest.raises(xeri.IllegalMoveError, match="does not spell"):
        xeri.parse_move(state, "trail")


def journal_of(rules: xeri.RuleSet, seed: int) -> tuple[dict, list[dict], list[xeri.GameState]]:
    it = game(rules, seed, rounds=2)
    first, move = next(it)
    header = journal_header(rules, dealer=first.dealer, seats=["human"] * rules.seats)
    rows, after = [], []
    state = first
    while move is not None:
        rows.append(journal_row(len(rows), move, seat=state.to_move))
        state, move = next(it)
        after.append(state)
    return header, rows, after


@pytest.mark.parametrize("rules", RULES, ids=IDS)
def test_a_journal_resumes_the_game_after_any_row(rules):
    header, rows, after = journal_of(rules, 8)
    header = json.loads(json.dumps(header))
    rows = [json.loads(json.dumps(r)) for r in rows]
    for n in (0, 1, len(rows) // 2, len(rows) - 1):
        record, state = load_journal(header, rows[: n + 1])
        assert state == after[n]
        assert xeri.replay(record)[-1] == state


def test_a_preset_is_pinned_by_its_fingerprint():
    header, rows, _ = journal_of(xeri.GREEK, 1)
    assert header["rules"] == "greek"
    assert header["fingerprint"] == xeri.rules_fingerprint(xeri.GREEK)
    assert header["library"] == xeri.__version__
    header["fingerprint"] = "0" * 64
    with pytest.raises(InvalidStateError, match="fingerprint"):
        load_journal(header, rows)


def test_a_custom_rule_set_is_written_in_full():
    rules = VARIANTS[0]
    header, rows, after = journal_of(rules, 2)
    assert isinstance(header["rules"], dict)
    assert load_journal(header, rows)[1] == after[-1]
    other = attrs.evolve(rules, xeri_points=11)
    assert xeri.rules_fingerprint(other) != xeri.rules_fingerprint(rules)


def test_a_journal_with_a_bad_row_is_refused_naming_the_row():
    header, rows, _ = journal_of(xeri.GREEK, 4)
    swapped = [dict(r) for r in rows]
    swapped[3], swapped[4] = dict(rows[4], n=3), dict(rows[3], n=4)
    with pytest.raises(InvalidStateError, match=r"row [34]"):
        load_journal(header, swapped)
    with pytest.raises(InvalidStateError, match="row 2: its n"):
        load_journal(header, rows[:2] + rows[3:])
    wrong_seat = [dict(r) for r in rows]
    wrong_seat[1]["seat"] = 1 - (wrong_seat[1]["seat"] or 0)
    with pytest.raises(InvalidStateError, match="row 1"):
        load_journal(header, wrong_seat)
    with pytest.raises(InvalidStateError, match="keys"):
        load_journal({**header, "more": 1}, rows)
    with pytest.raises(InvalidStateError, match="row 0"):
        load_journal(header, [{"n": 0, "seat": None, "move": "2C"}])

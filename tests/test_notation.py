"""Move notation: `parse_move` is the inverse of `str(move)` and refuses everything else."""

from __future__ import annotations

import random

import pytest

import xeri
from edge_games import VARIANTS, game, named_cards, presets
from xeri import (
    Build,
    Capture,
    Card,
    Combine,
    IllegalMoveError,
    Trail,
    observe,
    parse_move,
)

RULES = presets() + VARIANTS


def ascii_text(move: xeri.PlayerMove) -> str:
    """The notation with ASCII card names, lower case, and spaces around every part."""
    text = str(move)
    for card in xeri.DECK:
        text = text.replace(str(card), f" {card.ascii.lower()} ")
    return text.replace("+", " + ").replace("=", " = ").replace("[", " [ ").upper()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_parse_move_inverts_str_for_every_legal_move_at_every_step(rules):
    checked = 0
    for state, _ in game(rules, 4, rounds=1):
        moves = xeri.legal_moves(state)
        seen = observe(state, state.to_move) if state.to_move is not None else None
        for move in moves:
            assert parse_move(state, str(move)) == move
            assert parse_move(state, ascii_text(move)) == move
            assert parse_move(state, f"  {str(move).lower()}\t") == move
            if seen is not None:
                assert parse_move(seen, str(move), seat=state.to_move) == move
            checked += 1
    assert checked > 40


def test_ten_spellings_and_item_order():
    table = (Card.parse("3D"), Card.parse("4S"), Card.parse("10H"))
    build = Build(cards=(Card.parse("2C"), Card.parse("5H")), value=7, owner=1)
    hand = (Card.parse("7C"), Card.parse("10D"))
    rules = xeri.GERMAN
    state = xeri.GameState(
        rules=rules,
        phase=xeri.Phase.PLAY,
        dealer=1,
        to_move=0,
        hands=(hand, (Card.parse("KS"),)),
        table=(*table, build),
        stock=(),
        history=(),
        takes=(),
        round_results=(),
    )
    three_four = Capture(card=Card.parse("7C"), taken=table[:2])
    assert three_four in xeri.legal_moves(state)
    for text in ("7♣ takes 3♦+4♠", "7c takes 4s+3d", "7C TAKES 3D + 4S", "7♧ takes 4♤+3♢"):
        assert parse_move(state, text) == three_four
    the_build = Capture(card=Card.parse("7C"), taken=(build,))
    for text in ("7C takes [2C+5H=7]", "7c takes [ 5h + 2c = 7 ]"):
        assert parse_move(state, text) == the_build
    tens = Capture(card=Card.parse("10D"), taken=(Card.parse("10H"),))
    for text in ("10♦ takes 10♥", "TD takes TH", "td takes 10h", "10D takes TH"):
        assert parse_move(state, text) == tens


def _refusal(state, text, **kw) -> str:
    with pytest.raises(IllegalMoveError) as info:
        parse_move(state, text, **kw)
    return str(info.value)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "takes",
        "7",
        "1C",
        "11H",
        "10X",
        "7C 8C",
        "7C takes",
        "7C takes 3D+",
        "7C takes 3D+3D",
        "7C on 3D",
        "7C on 3D makes",
        "7C on 3D makes 99999",
        "7C on 3D makes 1" + "0" * 5000,
        "7C takes [3D=3",
        "7C takes [3D+3D=6]",
        "7C free free",
        "7C 🂡",
        "7C\x00",
        "x" * 10_000,
        "[[[[[[[[[[",
        "7C takes " + "+".join(["3D"] * 500),
    ],
)
def test_text_that_spells_no_move_is_refused_without_naming_a_card(text):
    state = next(s for s, _ in game(xeri.GERMAN, 1, rounds=1) if s.to_move is not None)
    message = _refusal(state, text)
    assert not named_cards(message)


def test_moves_that_are_not_legal_are_refused_without_naming_a_card():
    state = next(s for s, _ in game(xeri.GREEK, 5, rounds=1) if s.to_move is not None)
    hand = state.hands[state.to_move]
    other = next(c for c in xeri.DECK if c not in hand)
    for text in (
        str(other),
        f"{hand[0]} free",
        f"{hand[0]} takes {other}",
        f"{hand[0]} on 3D makes 8",
    ):
        assert not named_cards(_refusal(state, text))
    assert "does not hold" in _refusal(state, str(other))
    german = next(s for s, _ in game(xeri.GERMAN, 5, rounds=1) if s.to_move is not None)
    card = german.hands[german.to_move][0]
    assert "whole move" in _refusal(german, str(card))


def test_refused_when_nobody_or_somebody_else_is_to_move():
    start = xeri.start(xeri.GREEK)
    assert "no seat is to move" in _refusal(start, "AS")
    state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(1))
    move = xeri.legal_moves(state)[0]
    assert "out of turn" in _refusal(state, str(move), seat=0)
    assert parse_move(state, str(move), seat=1) == move
    assert "not the observing seat" in _refusal(observe(state, 0), str(move))


def test_non_text_is_refused():
    state = xeri.new_game(xeri.GREEK, rng=random.Random(1))
    for value in (None, 7, b"AS", ["AS"], Card.parse("AS")):
        with pytest.raises(IllegalMoveError):
            parse_move(state, value)  # type: ignore[arg-type]


def test_combine_and_trail_notation():
    state = next(
        s
        for s, _ in game(xeri.GERMAN, 2, rounds=1)
        if any(isinstance(m, Combine) for m in xeri.legal_moves(s))
    )
    for move in xeri.legal_moves(state):
        if isinstance(move, Combine | Trail):
            assert parse_move(state, str(move)) == move
            assert " on " in str(move) or str(move).endswith(" free")

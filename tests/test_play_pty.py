"""`xeri play` end to end in a real pseudo-terminal, driven by pexpect.

A whole round against the greedy bot played by keystrokes, a bad answer
answered with a message and a new prompt, the transcript never showing a
card hidden from the player ([X2][rules-x2]), and the ways out: the end of
the round, Ctrl-D and Ctrl-C, none with a traceback.
"""

from __future__ import annotations

import os
import random
import re
import sys

import pexpect

import xeri
from xeri.bots import GreedyBot

PROMPT = r"your move \[1-\d+, or help\]> "
"""The prompt of `xeri play`, as a regular expression."""

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
"""A card as the game writes it."""

SEED = 3


def spawn(*extra: str, rules: str = "greek", columns: int = 200) -> pexpect.spawn:
    """`python -m xeri play --fast` against the greedy bot, one round, in a terminal.

    `--fast`: no pause before the bots' plays (a terminal would have them).
    """
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "1", "NO_COLOR": "1"}
    argv = ["-m", "xeri", "play", "--rules", rules, "--against", "greedy", "--fast"]
    argv += ["--seed", str(SEED), "--round", "--color", "never", *extra]
    return pexpect.spawn(
        sys.executable, argv, encoding="utf-8", timeout=20, env=env, dimensions=(50, columns)
    )


def hidden_at_each_turn() -> list[set[str]]:
    """At each of Player 1's turns when every answer is 1: the cards hidden from Player 1
    (Player 2's hand and the stock), replaying the same seed here."""
    chance = random.Random(SEED)  # `xeri play --seed` deals as `random.Random(seed)`
    state, _ = xeri.record(xeri.GREEK, rng=chance)
    hidden = []
    while not state.is_round_over:
        if state.is_chance:
            move = xeri.chance_move(state, chance)
        elif state.to_move == 0:
            hidden.append({str(card) for card in (*state.hands[1], *state.stock)})
            move = xeri.legal_moves(state)[0]
        else:  # the greedy bot draws nothing from its generator
            move = GreedyBot().choose(xeri.observe(state, 1), random.Random(0))
        state = xeri.apply(state, move)
    return hidden


def test_X2_a_whole_round_by_keystrokes_never_shows_a_hidden_card():
    hidden = hidden_at_each_turn()
    answers = ["foo", *["1"] * len(hidden)]  # "foo" first, answered at the first turn
    prompted = [0, *range(len(hidden))]
    child = spawn()
    pieces = []  # the output up to each prompt, the prompt included; then the rest
    for answer in answers:
        child.expect(PROMPT)
        pieces.append(child.before + child.after)
        child.sendline(answer)
    child.expect(pexpect.EOF)
    pieces.append(child.before)
    child.close()
    assert child.exitstatus == 0
    pieces = [piece.replace("\r\n", "\n") for piece in pieces]
    assert pieces[1] == (
        "foo\n  that is neither a move nor a command: type a move's number or a card (J♥, JH)\n"
        + re.search(PROMPT, pieces[1])[0]
    )
    for piece, turn in zip(pieces, prompted, strict=False):
        shown = set(CARD.findall(piece.replace("(J♥, JH)", "")))  # the message's example
        assert not shown & hidden[turn], f"turn {turn}: {shown & hidden[turn]} shown"
    assert len(pieces) == len(prompted) + 1
    assert pieces[-1].startswith("1\n  You play ")
    assert "Round 1 over." in pieces[-1]
    assert pieces[-1].endswith("That was the one round asked for (--round).\n")
    whole = "".join(pieces)
    assert whole.count("  You play ") == len(hidden)
    assert "Player 1 plays" not in whole
    assert "  You hold " in pieces[0]
    assert "Player 2 holds 6 cards" in pieces[0]
    assert not re.search(r"Player 2 holds .*[♠♥♦♣]", whole)
    assert "Traceback" not in whole


def test_a_round_of_the_four_player_game_fits_80_columns():
    child = spawn("--seat", "1", rules="greek-four", columns=80)
    lines = []
    while True:
        index = child.expect([PROMPT, pexpect.EOF])
        lines += child.before.replace("\r\n", "\n").splitlines()
        if index == 1:
            break
        child.sendline("1")
    child.close()
    assert child.exitstatus == 0
    assert "Round 1 over." in lines
    assert "  match score: Team A 0, Team B 0 (one round, --round)" in lines
    too_wide = [line for line in lines if len(line) > 80]
    assert too_wide == []


def test_ctrl_d_at_the_prompt_quits_cleanly():
    child = spawn()
    child.expect(PROMPT)
    child.sendeof()
    child.expect("Goodbye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Traceback" not in (child.before or "")


def test_ctrl_c_at_the_prompt_stops_without_a_traceback():
    child = spawn()
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")


def test_on_a_terminal_the_cards_are_in_colour_by_default():
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    argv = ["-m", "xeri", "play", "--against", "greedy", "--seed", str(SEED), "--round"]
    child = pexpect.spawn(
        sys.executable, argv, encoding="utf-8", timeout=20, env=env, dimensions=(50, 200)
    )
    child.expect(PROMPT)
    shown = child.before
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert re.search(r"\x1b\[[0-9;]*m(?:10|[2-9AJQK])[♥♦]\x1b\[0m", shown)


def test_ctrl_c_stops_a_simulation_in_worker_processes_without_a_traceback():
    argv = ["-m", "xeri", "simulate", "greek", "pimc", "counting", "--deals", "5000"]
    argv += ["--workers", "2", "--progress", "lines"]
    child = pexpect.spawn(sys.executable, argv, encoding="utf-8", timeout=30)
    child.expect(pexpect.TIMEOUT, timeout=2)  # let the workers start and play
    child.sendintr()
    child.expect(pexpect.EOF)  # the workers are stopped too: nothing waits for them
    child.close()
    assert child.exitstatus == 130
    assert "Traceback" not in (child.before or "")

"""The command line, driven through `main(argv)` with injected input and output.

`xeri demo`, `xeri rules` and `xeri replay`: what they print, that a seat's
view of a replay never shows a card hidden from that seat ([X2][rules-x2]),
and that every error is one line on the error stream, exit status 2.
"""

from __future__ import annotations

import io
import random
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import xeri
from xeri import rules as rules_module
from xeri.cli import main, play_demo

CARD = re.compile(r"(?:10|[2-9AJQK])[♠♥♦♣]")
"""A card as the transcripts write it."""

PISTI_LIKE = attrs.evolve(
    xeri.GREEK,
    name="cli-test-face-down",
    hand_size=4,
    face_down=3,
    redeal=xeri.Redeal.NEVER,
    show_bottom_card=True,
    xeri_on_first_card=False,
)
"""Face-down table cards ([P3][rules-p3]) and a shown bottom card ([V1][rules-v1])."""


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def cards_in(text: str) -> set[str]:
    return set(CARD.findall(text))


def played_record(rules: xeri.RuleSet, seed: int, moves: int | None = None) -> xeri.GameRecord:
    """A match between random players, cut after `moves` moves (whole when None)."""
    rng = random.Random(seed)
    state, rec = xeri.record(rules, rng=rng)
    while not state.is_over and (moves is None or len(rec.moves) < moves):
        if state.is_chance:
            move = xeri.chance_move(state, rng)
        else:
            move = rng.choice(xeri.legal_moves(state))
        state, rec = xeri.apply(state, move), rec.then(move)
    return rec


def save(tmp_path, rec: xeri.GameRecord, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(xeri.to_json(rec), encoding="utf-8")
    return str(path)


# --------------------------------------------------------------------------
# demo


def test_demo_numbers_players_from_one_and_shows_the_cards_each_capture_takes():
    code, out, err = run("demo", "--rules", "greek", "--seed", "7")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "A match of greek: 2 players."
    assert "Round 1: Player 1 deals." in lines
    assert not re.search(r"\bP[0-9]\b", out)
    # The first play of the seeded match: the Jack sweeps the four table cards.
    assert re.fullmatch(r"  Player 2 plays J♥ +takes 5♠ 3♣ J♣ K♥ \(5 cards\)", lines[6])
    assert "takes Q♦ (2 cards)  ** XERI **" in out
    captures = [line for line in lines if " takes " in line and "(last capture)" not in line]
    assert len(captures) > 20
    for line in captures:
        taken, count = re.search(r"takes (.*) \((\d+) cards\)", line).groups()
        assert len(CARD.findall(taken)) + 1 == int(count), line  # the played card is the +1
    assert lines[-1] == "Player 2 wins the match after 11 rounds, 150 to 152."


def test_demo_is_the_same_match_for_the_same_seed():
    assert run("demo", "--seed", "11") == run("demo", "--rules", "greek", "--seed", "11")
    assert run("demo", "--seed", "11")[1] != run("demo", "--seed", "12")[1]


def test_demo_of_the_four_player_game_names_the_teams():
    code, out, _ = run("demo", "--rules", "greek-four", "--seed", "3")
    assert code == 0
    assert out.splitlines()[0] == (
        "A match of greek-four: 4 players in 2 teams, "
        "Team A = Players 1 and 3, Team B = Players 2 and 4."
    )
    assert re.search(r"^ +Team A +Team B$", out, flags=re.MULTILINE)
    assert "Player 4 holds" in out
    assert out.splitlines()[-1].startswith("The match is drawn after 4 rounds, rounds won 2 to 2")


def test_demo_of_german_xeri_shows_the_table_after_each_play():
    code, out, _ = run("demo", "--rules", "german", "--seed", "7")
    assert code == 0
    plays = [line for line in out.splitlines() if " plays " in line]
    assert all("table: " in line for line in plays)
    assert any(re.search(r"plays \S+ on \S+ makes \d+", line) for line in plays)


def test_play_demo_takes_a_function_that_picks_the_moves():
    seen: list[xeri.GameState] = []

    def first(state: xeri.GameState, rng: random.Random) -> xeri.PlayerMove:
        seen.append(state)
        return xeri.legal_moves(state)[0]

    out = io.StringIO()
    final = play_demo(xeri.GREEK, seed=5, out=out, choose=first)
    assert final.is_over
    assert len(seen) == out.getvalue().count(" plays ")


def test_demo_with_an_unknown_rule_set_is_an_error_without_a_traceback():
    code, out, err = run("demo", "--rules", "nope")
    assert (code, out) == (2, "")
    assert err == "error: no rule set is registered as 'nope'; known: german, greek, greek-four\n"


# --------------------------------------------------------------------------
# rules


def test_rules_lists_every_registered_rule_set_with_its_main_options(monkeypatch):
    monkeypatch.setitem(rules_module._REGISTRY, PISTI_LIKE.name, PISTI_LIKE)
    code, out, _ = run("rules")
    assert code == 0
    table, footer = out.split("\n\n")
    assert footer == "`xeri rules NAME` shows every option of one.\n"
    rows = {line.split()[0]: line for line in table.splitlines()[1:]}
    assert sorted(rows) == sorted(xeri.registered())
    assert out.splitlines()[0].split() == ["name", "players", "hand", "capture", "match"]
    assert re.fullmatch(r"greek +2 +6 +pile, J sweeps +first to 151", rows["greek"])
    assert re.fullmatch(
        r"greek-four +4 in 2 teams +6 +pile, J sweeps +4 rounds, most won", rows["greek-four"]
    )
    assert re.fullmatch(r"german +2 +6 +sums and builds +first to 37", rows["german"])
    assert re.fullmatch(
        r"cli-test-face-down +2 +4 +pile, J sweeps +first to 151", rows[PISTI_LIKE.name]
    )


@pytest.mark.parametrize("name", ["greek", "greek-four", "german"])
def test_rules_name_shows_every_option_of_the_rule_set(name):
    code, out, _ = run("rules", name)
    assert code == 0
    rules = xeri.find_rules(name)
    options = {}
    for line in out.splitlines()[1:]:
        if line.strip():
            key, _, value = line.strip().partition("  ")
            options[key] = value.strip()
    for field in attrs.fields(xeri.RuleSet):
        if field.name != "name":
            assert field.name in options, field.name
    assert options["seats"] == str(rules.seats)
    assert options["hand_size"] == str(rules.hand_size)
    assert options["redeal"] == f"Redeal.{rules.redeal.name}"
    assert options["deals a round"] == str(rules.deals_per_round)
    assert options["card_points"].endswith(f"({rules.card_points.total} in the deck)")


def test_rules_name_writes_components_with_their_fields():
    _, greek, _ = run("rules", "greek")
    assert "  capture             PileCapture(sweeper=Rank.JACK)\n" in greek
    assert "TargetScore(target=151, step=100, shared=SharedTarget.RAISE_TARGET)" in greek
    assert "A 1, 10 1, J 1, Q 1, K 1, 2♣ +1, 10♦ +1 (22 in the deck)" in greek
    assert "points a round      25 (22 for cards, 3 for the most cards)" in greek
    _, four, _ = run("rules", "greek-four")
    assert four.splitlines()[0] == (
        "greek-four: 4 players in 2 teams, Team A = Players 1 and 3, Team B = Players 2 and 4"
    )
    assert "FixedRounds(rounds=4)" in four


def test_rules_of_an_unknown_name_is_an_error():
    code, out, err = run("rules", "nope")
    assert (code, out) == (2, "")
    assert err.startswith("error: no rule set is registered as 'nope'")


# --------------------------------------------------------------------------
# replay: every card open


@pytest.mark.parametrize("name", ["greek", "greek-four", "german"])
def test_replay_shows_every_hand_at_every_deal_and_the_match_result(tmp_path, name):
    rec = played_record(xeri.find_rules(name), seed=1)
    code, out, err = run("replay", save(tmp_path, rec))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].endswith("Every card open.")
    holds = [line for line in lines if " holds " in line]
    states = xeri.replay(rec)
    expected = []
    for before, move, after in zip(states, rec.moves, states[1:], strict=False):
        new_round = isinstance(move, xeri.Deal)
        new_deal = len(after.stock) < len(before.stock) and after.phase is xeri.Phase.PLAY
        if new_round or (new_deal and not isinstance(move, xeri.Reshuffle)):
            expected += [
                f"  Player {seat + 1} holds {' '.join(map(str, hand))}"
                for seat, hand in enumerate(after.hands)
            ]
    assert holds == expected
    final = states[-1]
    assert out.count(" plays ") == sum(
        not isinstance(m, (xeri.Deal, xeri.Reshuffle)) for m in rec.moves
    )
    assert f"Round {len(final.round_results)} over." in lines
    assert "wins the match" in lines[-1] or "drawn" in lines[-1]


def test_replay_of_a_record_cut_short_says_where_it_ends(tmp_path):
    rec = played_record(xeri.GREEK, seed=2, moves=9)
    code, out, _ = run("replay", save(tmp_path, rec))
    assert code == 0
    last = xeri.replay(rec)[-1]
    assert out.splitlines()[-1] == (
        f"The record ends here, in round 1, Player {last.to_move + 1} to play."
    )
    full = played_record(xeri.GREEK, seed=2)
    states = xeri.replay(full)
    end = next(i for i, state in enumerate(states) if state.phase is xeri.Phase.ROUND_OVER)
    first_round = xeri.GameRecord(rules=full.rules, dealer=full.dealer, moves=full.moves[:end])
    _, out, _ = run("replay", save(tmp_path, first_round, "round.json"))
    assert out.splitlines()[-1] == "The record ends here, after round 1."


def test_replay_of_the_demo_match_is_the_demo_transcript(tmp_path):
    # The demo deals with `record` and plays with a generator of its own: the same match
    # replayed from its record prints the same lines after the title.
    rng = random.Random(7)
    players = random.Random(rng.random())
    _, rec = xeri.record(xeri.GREEK, rng=rng)
    state = xeri.replay(rec)[-1]
    while not state.is_over:
        move = (
            xeri.chance_move(state, rng)
            if state.is_chance
            else players.choice(xeri.legal_moves(state))
        )
        state, rec = xeri.apply(state, move), rec.then(move)
    _, demo, _ = run("demo", "--seed", "7")
    _, replayed, _ = run("replay", save(tmp_path, rec))
    assert replayed.splitlines()[1:] == demo.splitlines()[1:]


# --------------------------------------------------------------------------
# replay: one seat's view


def hidden_cards(state: xeri.GameState, seat: int) -> set[str]:
    """The cards of the current round that `seat` has not seen: other hands, the stock,
    face-down cards, except the cards shown and dealt again and the shown bottom card."""
    obs = xeri.observe(state, seat)
    hidden = {c for s, hand in enumerate(state.hands) if s != seat for c in hand}
    hidden |= set(state.stock)
    hidden |= set(state.table[: obs.face_down])
    if obs.takes and obs.takes[0].hidden:
        hidden |= set(state.takes[0].cards[: obs.takes[0].hidden])
    hidden -= {c for table in state.redealt for c in table}
    hidden.discard(state.bottom_card)
    return {str(c) for c in hidden}


def current_round(text: str) -> str:
    """The transcript from the last round's deal on."""
    starts = [m.start() for m in re.finditer(r"^Round \d+: ", text, flags=re.MULTILINE)]
    return text[starts[-1] :] if starts else text


@pytest.mark.parametrize(
    "rules", [xeri.GREEK, xeri.GREEK_FOUR, xeri.GERMAN, PISTI_LIKE], ids=lambda r: r.name
)
def test_X2_a_seats_replay_never_shows_a_card_hidden_from_it(tmp_path, rules):
    full = played_record(rules, seed=3)
    cuts = sorted({*range(2, len(full.moves), max(1, len(full.moves) // 12)), len(full.moves)})
    checked = 0
    for cut in cuts:
        rec = xeri.GameRecord(rules=rules, dealer=full.dealer, moves=full.moves[:cut])
        path = save(tmp_path, rec)
        last = xeri.replay(rec)[-1]
        for seat in range(rules.seats):
            code, out, err = run("replay", path, "--seat", str(seat + 1))
            assert (code, err) == (0, "")
            leaked = hidden_cards(last, seat) & cards_in(current_round(out))
            assert not leaked, f"cut {cut}, Player {seat + 1} saw {leaked}"
            checked += 1
    assert checked >= 12 * rules.seats


def test_X2_a_seats_view_shows_its_own_hand_and_only_the_size_of_the_others(tmp_path):
    rec = played_record(xeri.GREEK_FOUR, seed=4)
    code, out, _ = run("replay", save(tmp_path, rec), "--seat", "2")
    assert code == 0
    assert out.splitlines()[0].endswith("As Player 2 saw it: other hands and the stock hidden.")
    holds = [line for line in out.splitlines() if " holds " in line]
    assert {line for line in holds if not line.startswith("  Player 2 ")} == {
        f"  Player {s} holds 6 cards" for s in (1, 3, 4)
    }
    own = [line for line in holds if line.startswith("  Player 2 ")]
    states = xeri.replay(rec)
    dealt = [
        after
        for move, after in zip(rec.moves, states[1:], strict=False)
        if isinstance(move, xeri.Deal)
    ]
    assert len(own) == 2 * len(dealt)  # two deals a round in the four-player game
    for line in own:
        assert len(cards_in(line)) == 6
    for after in dealt:
        assert f"  Player 2 holds {' '.join(map(str, after.hands[1]))}" in own
    stock_lines = [line for line in out.splitlines() if "stock" in line]
    assert stock_lines
    assert not [line for line in stock_lines if cards_in(line.split("stock")[-1])]


def test_P3_face_down_cards_are_counted_in_a_seats_view_and_shown_when_open(tmp_path):
    rec = played_record(PISTI_LIKE, seed=3, moves=3)
    path = save(tmp_path, rec)
    state = xeri.replay(rec)[-1]
    down = {str(c) for c in state.table[:3]} - {str(state.bottom_card)}
    _, seat_view, _ = run("replay", path, "--seat", "1")
    assert "table: 3 face down " in seat_view
    assert not down & cards_in(seat_view)
    _, open_view, _ = run("replay", path)
    assert down <= cards_in(open_view)
    assert f"bottom card shown: {state.bottom_card}" in seat_view


def test_replay_step_waits_for_enter_before_each_play(tmp_path):
    rec = played_record(xeri.GREEK, seed=2, moves=12)
    path = save(tmp_path, rec)
    code, out, _ = run("replay", path, "--step", stdin="\n\nq\n")
    assert code == 0
    assert out.count("[Enter: next play, q: quit]") == 3
    assert out.count(" plays ") == 2
    assert out.splitlines()[-1] == "Replay stopped."
    _, at_end_of_input, _ = run("replay", path, "--step", stdin="\n")
    assert at_end_of_input.count(" plays ") == 1
    _, whole, _ = run("replay", path, "--step", stdin="\n" * 20)
    _, plain, _ = run("replay", path)
    assert whole.replace("  [Enter: next play, q: quit] \n", "") == plain


# --------------------------------------------------------------------------
# replay: errors


def test_replay_of_a_missing_file_is_an_error(tmp_path):
    code, out, err = run("replay", str(tmp_path / "none.json"))
    assert (code, out) == (2, "")
    assert err == f"error: no such file: {tmp_path / 'none.json'}\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "xeri"', "not JSON"),
        (b"\xff\xfe\x00garbage", "it is not UTF-8 text"),
        (b"[]", "the text must hold an object"),
    ],
    ids=["not-json", "not-utf8", "not-a-document"],
)
def test_replay_of_a_bad_file_is_an_error_without_a_traceback(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, err = run("replay", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("error: ")
    assert err.count("\n") == 1
    assert message in err
    assert "Traceback" not in err


def test_replay_of_a_directory_or_of_a_state_is_an_error(tmp_path):
    code, _, err = run("replay", str(tmp_path))
    assert code == 2
    assert err == f"error: {tmp_path} is a directory, not a game record\n"
    path = tmp_path / "state.json"
    path.write_text(xeri.to_json(xeri.new_game(xeri.GREEK, rng=random.Random(1))))
    code, _, err = run("replay", str(path))
    assert code == 2
    assert "holds a state, not a GameRecord" in err


def tampered(tmp_path) -> tuple[str, str]:
    """A record whose second move is a card the player does not hold; and that card."""
    rec = played_record(xeri.GREEK, seed=2, moves=6)
    state = xeri.replay(rec)[1]
    other = state.hands[1 - state.to_move][0]
    bad = xeri.GameRecord(rules=rec.rules, dealer=rec.dealer, moves=(rec.moves[0], other))
    path = tmp_path / "tampered.json"
    path.write_text(xeri.to_json(bad), encoding="utf-8")
    return str(path), str(other)


def test_replay_of_a_record_that_does_not_replay_names_the_move(tmp_path):
    path, card = tampered(tmp_path)
    code, _, err = run("replay", path)
    assert code == 2
    assert f"move 1 of the record: {card} is not in the hand" in err


def test_X2_a_seats_view_of_a_bad_record_does_not_name_its_cards(tmp_path):
    path, _ = tampered(tmp_path)
    code, out, err = run("replay", path, "--seat", "1")
    assert (code, out) == (2, "")
    assert "run without --seat to see them" in err
    assert not cards_in(err)


def test_replay_seat_out_of_range_is_an_error(tmp_path):
    path = save(tmp_path, played_record(xeri.GREEK, seed=2, moves=4))
    for seat in ("0", "3"):
        code, out, err = run("replay", path, "--seat", seat)
        assert (code, out) == (2, "")
        assert err == f"error: --seat must be from 1 to 2 for greek, not {seat}\n"


# --------------------------------------------------------------------------
# main


def test_main_without_a_command_prints_the_usage_and_fails():
    code, out, err = run()
    assert (code, out) == (2, "")
    assert err.startswith("usage: xeri ")
    assert "required: COMMAND" in err


def test_main_help_lists_the_commands_and_succeeds():
    code, out, err = run("--help")
    assert (code, err) == (0, "")
    for command in ("demo", "rules", "replay"):
        assert command in out


def test_python_dash_m_xeri_is_the_same_program():
    result = subprocess.run(
        [sys.executable, "-m", "xeri", "rules"],
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
        timeout=60,
    )
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == run("rules")[1]


# --------------------------------------------------------------------------
# The command line page


def text_blocks(page: str) -> list[str]:
    return re.findall(r"^```text\n(.*?)^```$", page, flags=re.MULTILINE | re.DOTALL)


def test_the_command_line_page_shows_what_the_commands_print():
    page = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    demo, rules_list, rules_greek = text_blocks(page)
    assert rules_list == run("rules")[1]
    assert rules_greek == run("rules", "greek")[1]
    printed = iter(run("demo", "--rules", "greek", "--seed", "7")[1].splitlines())
    for line in demo.splitlines():
        if line != "  ...":
            assert line in printed, line  # in order: `in` consumes the iterator up to it

"""The command line, driven through `main(argv)` with injected input and output.

`xeri demo`, `xeri rules` and `xeri replay`: what they print, that a seat's
view of a replay never shows a card hidden from that seat ([X2][rules-x2]),
and that every error is one line on the error stream, exit status 2.
"""

from __future__ import annotations

import importlib
import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import xeri
from xeri._rules import ruleset as rules_module
from xeri.bots import CountingBot, GreedyBot, RandomBot
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
    assert lines[1] == "Bots: Player 1 counting, Player 2 greedy."
    assert "Round 1: Player 1 deals." in lines
    assert not re.search(r"\bP[0-9]\b", out)
    # The first play of the seeded match: the Jack sweeps the four table cards.
    assert re.fullmatch(r"  Player 2 plays J♥ +takes 5♠ 3♣ J♣ K♥ \(4 cards\)", lines[7])
    assert "takes 3♥ (1 card)  ** XERI **" in out
    assert all(len(line) <= 80 for line in lines)  # long captures go on over two lines
    lines = unwrap(out).splitlines()
    captures = [line for line in lines if " takes " in line and "(last capture)" not in line]
    assert len(captures) > 20
    for line in captures:
        taken, count = re.search(r"takes (.*) \((\d+) cards?\)", line).groups()
        assert len(CARD.findall(taken)) == int(count), line  # the count is of the cards named
    assert lines[-1] == "Player 1 wins the match after 6 rounds, 162 to 88."


def test_demo_plays_the_bots_asked_for():
    code, out, _ = run("demo", "--bots", "random,pimc:3", "--seed", "2")
    assert code == 0
    assert out.splitlines()[1] == "Bots: Player 1 random, Player 2 pimc (3 samples)."
    assert out == run("demo", "--bots", "random,pimc:3", "--seed", "2")[1]
    code, out, err = run("demo", "--bots", "counting")
    assert (code, out) == (2, "")
    assert err == (
        "error: play_demo needs one bot per side: greek has 2 sides, 1 bots were given\n"
    )
    code, _, err = run("demo", "--bots", "counting,nobody")
    assert code == 2
    assert err.startswith("error: no bot is called 'nobody'; known: random, greedy, counting")


def test_demo_is_the_same_match_for_the_same_seed():
    assert run("demo", "--seed", "11") == run("demo", "--rules", "greek", "--seed", "11")
    assert run("demo", "--seed", "11")[1] != run("demo", "--seed", "12")[1]


def test_demo_of_the_four_player_game_names_the_teams():
    code, out, _ = run("demo", "--rules", "greek-four", "--seed", "3")
    assert code == 0
    out = unwrap(out)
    assert out.splitlines()[0] == (
        "A match of greek-four: 4 players in 2 teams, "
        "Team A = Players 1 and 3, Team B = Players 2 and 4."
    )
    assert re.search(r"^ +Team A +Team B$", out, flags=re.MULTILINE)
    assert out.splitlines()[1] == (
        "Bots: Team A (Players 1 and 3) counting, Team B (Players 2 and 4) greedy."
    )
    assert "Player 4 holds" in out
    assert out.splitlines()[-1] == (
        "Team A (Players 1 and 3) wins the match after 4 rounds, rounds won 4 to 0, "
        "points 153 to 57."
    )


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
    with pytest.raises(xeri.XeriError, match="choose or bots, not both"):
        play_demo(xeri.GREEK, seed=5, out=out, choose=first, bots=[GreedyBot(), GreedyBot()])


def test_play_demo_gives_each_bot_only_its_seats_view():
    @attrs.frozen
    class Spy:
        seen: list = attrs.field(factory=list)

        def choose(self, observation, rng):
            self.seen.append(observation)
            return xeri.legal_moves(observation)[0]

    spies = (Spy(), Spy())
    play_demo(xeri.GREEK_FOUR, seed=1, out=io.StringIO(), bots=spies)
    for side, spy in enumerate(spies):
        assert spy.seen
        assert all(type(obs) is xeri.Observation for obs in spy.seen)
        assert {xeri.GREEK_FOUR.sides[obs.seat] for obs in spy.seen} == {side}


def test_demo_with_an_unknown_rule_set_is_an_error_without_a_traceback():
    code, out, err = run("demo", "--rules", "nope")
    assert (code, out) == (2, "")
    known = "cassino, german, greek, greek-four, pisti, scopa"
    assert err == f"error: no rule set is registered as 'nope'; known: {known}\n"


# --------------------------------------------------------------------------
# rules


def test_rules_lists_every_registered_rule_set_with_its_main_options(monkeypatch):
    monkeypatch.setitem(rules_module._REGISTRY, PISTI_LIKE.name, PISTI_LIKE)
    code, out, _ = run("rules")
    assert code == 0
    table, footer = out.split("\n\n")
    assert footer == "`xeri rules NAME` shows every option of one.\n"
    assert all(len(line) <= 80 for line in out.splitlines())
    # A long capture summary goes on in its column, on rows of their own: join it again.
    head, *lines = table.splitlines()
    start, stop = head.index("capture"), head.index("match")
    rows: dict[str, str] = {}
    captures: dict[str, list[str]] = {}
    for line in lines:
        if not line.startswith(" "):
            name = line.split()[0]
            rows[name] = line
        captures.setdefault(name, []).append(line[start:stop].strip())
    rows = {
        name: f"{line[:start]}{' '.join(captures[name])}  {line[stop:]}"
        for name, line in rows.items()
    }
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
    out = unwrap_options(out)
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


def unwrap_options(text):
    """`xeri rules NAME` with each value that goes on under itself joined again."""
    return re.sub(r"\n {22}(?=\S)", " ", text)


def test_rules_name_writes_components_with_their_fields():
    _, greek, _ = run("rules", "greek")
    assert all(len(line) <= 80 for line in greek.splitlines())
    greek = unwrap_options(greek)
    assert "  capture             PileCapture(sweeper=Rank.JACK)\n" in greek
    assert "TargetScore(target=151, step=100, shared=SharedTarget.RAISE_TARGET)" in greek
    assert "A 1, 10 1, J 1, Q 1, K 1, 2♣ +1, 10♦ +1 (22 in the deck)" in greek
    assert "points a round      25 (22 for cards, 3 for the most cards)" in greek
    _, four, _ = run("rules", "greek-four")
    four = unwrap_options(four)
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
    assert all(len(line) <= 80 for line in out.splitlines())
    out = unwrap(out)
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
    # replayed from its record prints the same lines after the title and the bots' names.
    rng = random.Random(7)
    players = random.Random(rng.random())
    bots = (CountingBot(), GreedyBot())
    _, rec = xeri.record(xeri.GREEK, rng=rng)
    state = xeri.replay(rec)[-1]
    while not state.is_over:
        if state.is_chance:
            move = xeri.chance_move(state, rng)
        else:
            seat = state.to_move
            move = bots[xeri.GREEK.sides[seat]].choose(xeri.observe(state, seat), players)
        state, rec = xeri.apply(state, move), rec.then(move)
    _, demo, _ = run("demo", "--seed", "7")
    _, replayed, _ = run("replay", save(tmp_path, rec))
    assert replayed.splitlines()[1:] == demo.splitlines()[2:]


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
    out = unwrap(out)
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
# play

PROMPT = re.compile(r"your move \[1-\d+, or help\]> ")
"""The prompt of `xeri play`."""

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
"""A terminal control sequence."""


def human_turns(rules, seed, seat, *, one_round=True):
    """The states at which `seat` is prompted in `xeri play --seed SEED --against greedy`
    when every answer is 1 (the first legal move), and the final state.

    The deal is `random.Random(seed)`'s, as the demo's; the greedy bot draws nothing.
    """
    chance = random.Random(seed)
    state, _ = xeri.record(rules, rng=chance)
    bot = GreedyBot()
    turns = []
    while not (state.is_over or (one_round and state.is_round_over)):
        if state.is_chance:
            move = xeri.chance_move(state, chance)
        elif state.to_move == seat:
            turns.append(state)
            move = xeri.legal_moves(state)[0]
        else:
            move = bot.choose(xeri.observe(state, state.to_move), random.Random(0))
        state = xeri.apply(state, move)
    return turns, state


def play(*argv, answers=(), seed=3):
    return run(
        "play",
        "--against",
        "greedy",
        "--seed",
        str(seed),
        *argv,
        stdin="".join(f"{answer}\n" for answer in answers),
    )


def assert_never_shows_a_hidden_card(out, turns, seat, prompted):
    """At each prompt, the text printed since the previous prompt shows no card hidden from
    the seat at that moment (other hands, the stock, face-down cards), and its own hand."""
    pieces = PROMPT.split(out)
    assert len(pieces) == len(prompted) + 1
    rules = turns[0].rules
    examples = set(help_lines(rules.name)) | {NOT_A_MOVE[rules.capture.pile]}
    for piece, turn in zip(pieces, prompted, strict=False):
        state = turns[turn]
        # The help and the refusal of a text that is no move write example moves.
        shown = "\n".join(line for line in piece.splitlines() if line not in examples)
        leaked = hidden_cards(state, seat) & cards_in(current_round(shown))
        assert not leaked, f"turn {turn}: {leaked} shown"
    for turn in sorted(set(prompted)):
        hand = " ".join(map(str, turns[turn].hands[seat]))
        assert f"  your hand: {hand}\n" in pieces[prompted.index(turn)]


NOT_A_MOVE = {
    True: "  that is neither a move nor a command: type a move's number or a card (J♥, JH)",
    False: "  that is neither a move nor a command: type a move's number or the move as listed",
}
"""The answer to a text that is neither a move nor a command, by the capture rule's `pile`."""


def help_lines(rules_name):
    """The lines that `help` prints in `xeri play`."""
    _, out, _ = run("play", "--rules", rules_name, stdin="help\n")
    return PROMPT.split(out)[1].splitlines()[1:]


BAD = ("foo", "99", "", "help", "hint")
"""Answers that are not moves, given at the first prompt."""


@pytest.mark.parametrize(
    ("name", "seat", "seed"),
    [("greek", 1, 3), ("greek-four", 2, 5), ("german", 2, 4), (PISTI_LIKE.name, 1, 6)],
)
def test_X2_play_a_whole_round_by_numbers_never_showing_a_hidden_card(
    monkeypatch, name, seat, seed
):
    monkeypatch.setitem(rules_module._REGISTRY, PISTI_LIKE.name, PISTI_LIKE)
    rules = xeri.find_rules(name)
    turns, final = human_turns(rules, seed, seat - 1)
    answers = [*BAD, *["1"] * len(turns)]
    code, out, err = play(
        "--rules", name, "--seat", str(seat), "--round", answers=answers, seed=seed
    )
    assert (code, err) == (0, "")
    prompted = [0] * len(BAD) + list(range(len(turns)))
    assert_never_shows_a_hidden_card(out, turns, seat - 1, prompted)
    lines = out.splitlines()
    assert unwrap(out).splitlines()[0] == f"A round of {_header_tail(rules)}"
    assert all(len(line) <= 80 for line in lines)
    assert "Round 1 over." in lines
    assert lines[-1] == "That was the one round asked for (--round)."
    total = final.round_results[0].total
    assert re.search(r"^  round total +" + " +".join(map(str, total)) + "$", out, re.MULTILINE)
    assert out.count("  You play ") == len(turns)
    assert f"Player {seat} plays" not in out
    assert "(one round, --round)" in out


def unwrap(text):
    """`text` with the lines wrapped to fit 80 columns joined again.

    A wrapped line goes on indented 4 columns further than it began: 4 or 6.
    """
    return re.sub(r"\n(?: {4}| {6})(?=\S)", " ", text)


def _header_tail(rules):
    text = f"{rules.name}: {rules.seats} players"
    if rules.num_sides != rules.seats:
        text += " in 2 teams, Team A = Players 1 and 3, Team B = Players 2 and 4"
    return text + "."


def test_play_answers_bad_input_with_one_line_and_a_new_prompt():
    turns, _ = human_turns(xeri.GREEK, 3, 0)
    moves = xeri.legal_moves(turns[0])
    _, out, _ = play("--round", answers=[*BAD, "0", "quit"])
    pieces = PROMPT.split(out)
    assert pieces[1:] == [
        f"foo\n{NOT_A_MOVE[True]}\n",
        f"99\n  there is no move 99: choose 1 to {len(moves)}\n",
        f"\n  type a move's number, 1 to {len(moves)}, or help\n",
        pieces[4],
        pieces[5],
        f"0\n  there is no move 0: choose 1 to {len(moves)}\n",
        "quit\nGoodbye.\n",
    ]
    help_text = pieces[4]
    for command in ("a number", "a move", "hint", "save FILE", "help", "quit"):
        assert f"\n  {command} " in help_text
    assert "it holds every hand and the order of the stock" in help_text
    assert all(len(line) <= 80 for line in help_text.splitlines())
    hint = re.fullmatch(r"hint\n  hint: (\d+)\. (\S+)(?:   -> .*)?   \(ismcts\)\n", pieces[5])
    assert hint, pieces[5]
    assert str(moves[int(hint[1]) - 1]) == hint[2]


def test_play_reads_a_move_in_the_notation_and_refuses_a_card_not_held():
    turns, _ = human_turns(xeri.GREEK, 3, 0)
    state = turns[0]
    last = xeri.legal_moves(state)[-1]
    other = state.hands[1][0]
    _, out, _ = play("--round", answers=[other.ascii, f" {last.ascii.lower()} ", "quit"])
    pieces = PROMPT.split(out)
    assert pieces[1] == f"{other.ascii}\n  you do not hold that card\n"
    assert pieces[2].startswith(f" {last.ascii.lower()} \n  You play {last} ")


def test_play_german_refuses_a_card_alone_that_must_be_written_whole():
    rules = xeri.GERMAN
    for seed in range(20):
        turns, _ = human_turns(rules, seed, 0)
        state = turns[0]
        moves = xeri.legal_moves(state)
        alone = next((m.card for m in moves if sum(n.card is m.card for n in moves) > 1), None)
        if alone is not None:
            break
    _, out, _ = play("--rules", "german", "--round", answers=[alone.ascii, "quit"], seed=seed)
    message = PROMPT.split(out)[1].splitlines()[1]
    assert message.startswith("  you may not play that card alone; write the whole move")


def test_play_a_whole_match_against_greedy():
    turns, final = human_turns(xeri.GREEK, 2, 0, one_round=False)
    assert final.is_over
    assert len(final.round_results) > 1
    code, out, err = play(answers=["1"] * len(turns), seed=2)
    assert (code, err) == (0, "")
    assert_never_shows_a_hidden_card(out, turns, 0, list(range(len(turns))))
    assert out.splitlines()[0] == "A match of greek: 2 players."
    assert out.count("Your turn.") == len(turns)
    assert re.search(r"^ +You +Player 2$", out, flags=re.MULTILINE)  # the score sheet's head
    assert "Round 1: You deal." in out or "Round 1: Player 2 deals." in out
    winner = {0: "You win", 1: "Player 2 wins", None: "The match is drawn"}[final.winner]
    assert out.splitlines()[-3].startswith(winner)
    verdict = {0: "you win!", 1: "Player 2 wins.", None: "a draw."}[final.winner]
    assert out.splitlines()[-1] == f"*** The match is over: {verdict} ***"
    assert f"Round {len(final.round_results)} over." in out


def test_play_save_writes_the_game_record_so_far(tmp_path):
    turns, _ = human_turns(xeri.GREEK, 3, 0)
    path = tmp_path / "game.json"
    answers = ["1", "save", f"save {tmp_path}", f"save {path}", "quit"]
    code, out, _ = play("--round", answers=answers)
    assert code == 0
    pieces = PROMPT.split(out)
    assert pieces[2] == "save\n  save needs a file name: save game.json\n"
    assert unwrap(pieces[3]).startswith(f"save {tmp_path}\n  cannot write {tmp_path}: ")
    assert unwrap(pieces[4]) == (
        f"save {path}\n  saved the game so far to {path} (every card in it: replay it afterwards)\n"
    )
    rec = xeri.from_json(path.read_text(encoding="utf-8"), expect=xeri.GameRecord)
    assert xeri.replay(rec)[-1] == turns[1]
    assert run("replay", str(path), "--seat", "1")[0] == 0


def test_play_quits_on_quit_and_at_the_end_of_input_without_a_traceback():
    code, out, err = play(answers=["quit"])
    assert (code, err) == (0, "")
    assert out.endswith("> quit\nGoodbye.\n")
    code, out, err = play(answers=[])
    assert (code, err) == (0, "")
    assert out.endswith("> \nGoodbye.\n")


def test_play_interrupted_exits_with_130():
    class Interrupted(io.StringIO):
        def readline(self, *args):
            raise KeyboardInterrupt

    out, err = io.StringIO(), io.StringIO()
    code = main(["play", "--seed", "1"], stdin=Interrupted(), stdout=out, stderr=err)
    assert (code, err.getvalue()) == (130, "\n")
    assert "Traceback" not in out.getvalue()


def test_play_in_colour_draws_hearts_and_diamonds_red_and_is_otherwise_the_plain_text():
    answers = ["1"] * 6 + ["hint", "quit"]
    _, plain, _ = play("--color", "never", answers=answers)
    _, auto, _ = play(answers=answers)  # not a terminal: plain
    _, colour, _ = play("--color", "always", answers=answers)
    assert not ANSI.search(plain)
    assert not ANSI.search(auto)
    assert "\x1b[1;31m" in colour
    hearts = re.findall(r"\x1b\[[0-9;]*m((?:10|[2-9AJQK])[♥♦♠♣])\x1b\[0m", colour)
    assert hearts
    assert re.search(r"\x1b\[1;31m(?:10|[2-9AJQK])[♥♦]\x1b\[0m", colour)
    assert not re.search(r"\x1b\[1;31m(?:10|[2-9AJQK])[♠♣]\x1b\[0m", colour)
    strip = ANSI.sub("", colour)
    # The hint may differ between runs (the search bot thinks against the clock).
    assert re.sub(r"hint: .*", "", strip) == re.sub(r"hint: .*", "", plain)


def test_play_without_rich_is_plain_text_whatever_the_colour_option(monkeypatch):
    for module in ("rich", "rich.console", "rich.text"):
        monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
    code, out, err = play("--color", "always", answers=["1", "quit"])
    assert (code, err) == (0, "")
    assert out == play("--color", "never", answers=["1", "quit"])[1]


def test_play_options_that_do_not_fit_are_errors():
    code, out, err = play("--seat", "3")
    assert (code, out) == (2, "")
    assert err == "error: --seat must be from 1 to 2 for greek, not 3\n"
    code, _, err = run("play", "--against", "clever")
    assert code == 2
    assert err.startswith("error: no bot is called 'clever'")
    code, _, err = run("play", "--against", "greedy:5")
    assert err == "error: the greedy bot takes no budget: write greedy, not 'greedy:5'\n"
    code, _, err = run("play", "--against", "pimc:0")
    assert err == "error: the budget of pimc must be a positive number, not '0'\n"
    code, _, err = run("play", "--match", "--round")
    assert code == 2
    assert "not allowed with argument" in err


@pytest.mark.parametrize(
    ("against", "shown"),
    [
        ("random", "the random bot"),
        ("counting", "the counting bot"),
        ("pimc:5", "the pimc bot (5 samples)"),
        ("ismcts", "the ismcts bot (its default budget, at most 0.1 s of CPU time a move)"),
        ("ismcts:30", "the ismcts bot (30 iterations)"),
        ("hard", "the pimc bot (its default budget, at most 0.1 s of CPU time a move)"),
        ("EASY", "the greedy bot"),
    ],
)
def test_play_against_every_kind_of_bot(against, shown):
    code, out, _ = run("play", "--against", against, "--seed", "1", stdin="1\n1\n1\nquit\n")
    assert code == 0
    assert unwrap(out).splitlines()[1] == f"You are Player 1; Player 2 is {shown}."
    assert out.count("  You play ") == 3


def test_play_four_players_with_bots_as_partner_and_opponents():
    code, out, _ = run(
        "play", "--rules", "greek-four", "--seat", "4", "--seed", "1", "--level", "medium", stdin=""
    )
    assert code == 0
    assert unwrap(out).splitlines()[1] == (
        "You are Player 4, in Team B with Player 2; Player 1, Player 2 and Player 3 are "
        "counting bots."
    )


def test_play_is_against_the_strongest_level_by_default():
    code, out, _ = run("play", "--seed", "1", stdin="")
    assert code == 0
    assert unwrap(out).splitlines()[1] == (
        "You are Player 1; Player 2 is the ismcts bot"
        " (its default budget, at most 0.1 s of CPU time a move)."
    )


def test_play_takes_against_or_level_not_both():
    code, out, err = run("play", "--against", "random", "--level", "easy", stdin="")
    assert (code, out) == (2, "")
    assert err == "error: give --against or --level, not both\n"
    code, _, err = run("play", "--level", "impossible", stdin="")
    assert code == 2
    assert "invalid choice: 'impossible'" in err


HOUSE = """\
import attrs
import xeri

HOUSE = attrs.evolve(xeri.GREEK, name="house", hand_size=4)
NOT_RULES = 42
"""


def test_rules_module_attribute_loads_a_custom_rule_set(tmp_path, monkeypatch):
    (tmp_path / "house_rules_for_cli.py").write_text(HOUSE, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "house_rules_for_cli", raising=False)
    try:
        code, out, err = play("--rules", "house_rules_for_cli:HOUSE", answers=["1", "quit"])
        assert (code, err) == (0, "")
        assert out.splitlines()[0] == "A match of house: 2 players."
        assert "  your hand: " in out
        assert len(cards_in(re.search(r"your hand: (.*)", out)[1])) == 4
        code, out, _ = run(
            "simulate",
            "house_rules_for_cli:HOUSE",
            "greedy",
            "random",
            "--deals",
            "3",
            "--seed",
            "1",
            "--progress",
            "none",
        )
        assert code == 0
        assert "over 3 deals" in out
        for spec, message in [
            (
                "house_rules_for_cli:NOT_RULES",
                "house_rules_for_cli:NOT_RULES is a int, not a RuleSet",
            ),
            ("house_rules_for_cli:MISSING", "house_rules_for_cli has no attribute MISSING"),
            ("no_such_module_here:X", "cannot import no_such_module_here for the rule set"),
            ("house_rules_for_cli:", "a rule set is a registered name or MODULE:ATTRIBUTE"),
        ]:
            code, _, err = run("play", "--rules", spec)
            assert code == 2
            assert err.startswith(f"error: {message}"), err
    finally:
        sys.modules.pop("house_rules_for_cli", None)
    assert str(tmp_path) not in sys.path


def test_G9_german_shows_the_table_the_last_play_left_before_the_last_capturer_takes_it():
    _, out, _ = run("demo", "--rules", "german", "--seed", "7")
    lines = unwrap(out).splitlines()
    ends = [i for i, line in enumerate(lines) if "takes the cards left on the table:" in line]
    assert ends
    for i in ends:
        left = (
            lines[i].split("takes the cards left on the table: ")[1].removesuffix(" (last capture)")
        )
        assert lines[i - 1].endswith(f"table: {left}"), (lines[i - 1], lines[i])


def test_G9_a_pile_games_last_play_shows_the_pile_it_left():
    _, out, _ = run("demo", "--rules", "greek", "--seed", "7")
    lines = unwrap(out).splitlines()
    ends = [i for i, line in enumerate(lines) if "takes the cards left on the table:" in line]
    for i in ends:
        left = lines[i].split(": ")[1].removesuffix(" (last capture)").split()
        if " takes " not in lines[i - 1]:  # a capture by the last card leaves a pile too
            assert lines[i - 1].endswith(f"pile {len(left)}, top {left[-1]}"), lines[i - 1]


def test_play_four_players_shows_the_rounds_won_that_decide_the_match():
    _, out, _ = run(
        "play", "--rules", "greek-four", "--seed", "1", "--against", "greedy", stdin="quit\n"
    )
    assert "  rounds won: Team A 0, Team B 0 (4 rounds, most won)\n" in out
    assert "  points: Team A 0, Team B 0\n" in out
    assert "match score" not in out
    _, out, _ = run("play", "--seed", "1", stdin="quit\n")
    assert "  match score: You 0, Player 2 0 (playing to 151)\n" in out
    assert "rounds won" not in out


class Paused:
    """A stand-in for the game's `time.sleep`: the pauses asked for, without waiting."""

    def __init__(self):
        self.pauses = []

    def __call__(self, seconds):
        self.pauses.append(seconds)


def test_play_on_a_terminal_the_bots_pause_and_a_score_sheet_waits_for_enter(monkeypatch):
    _play = importlib.import_module("xeri.cli._play")  # `xeri.cli._play` is also a function

    monkeypatch.setattr(_play, "_isatty", lambda stream: True)
    paused = Paused()
    monkeypatch.setattr(_play, "_sleep", paused)
    turns, final = human_turns(xeri.GREEK, 2, 0, one_round=False)
    rounds = len(final.round_results)
    # A move for each turn; an Enter after each score sheet but the last.
    answers, done = [], 0
    for state in [*turns[1:], None]:
        answers.append("1")
        finished = len(state.round_results) if state is not None else rounds - 1
        while done < finished:
            answers.append("")
            done += 1
    code, out, err = play(answers=answers, seed=2)
    assert (code, err) == (0, "")
    assert out.count("[Enter: next round, q: quit]") == rounds - 1
    assert out.count("Player 2 plays ") == len(paused.pauses) > 0
    assert all(0 <= pause <= 0.8 for pause in paused.pauses)
    assert out.splitlines()[-1].startswith("*** The match is over: ")

    fast = Paused()
    monkeypatch.setattr(_play, "_sleep", fast)
    code, quick, _ = play("--fast", answers=["1"] * len(turns), seed=2)
    assert code == 0
    assert fast.pauses == []
    assert "[Enter: next round" not in quick


def test_play_quits_at_the_pause_after_a_score_sheet(monkeypatch):
    _play = importlib.import_module("xeri.cli._play")  # `xeri.cli._play` is also a function

    monkeypatch.setattr(_play, "_isatty", lambda stream: True)
    monkeypatch.setattr(_play, "_sleep", Paused())
    turns, _ = human_turns(xeri.GREEK, 2, 0, one_round=False)
    first_round = [s for s in turns if not s.round_results]
    code, out, _ = play(answers=[*["1"] * len(first_round), "q"], seed=2)
    assert code == 0
    assert out.endswith("[Enter: next round, q: quit] q\nGoodbye.\n")


HOUSE_REGISTERED = """\
import attrs
import xeri

HOUSE = xeri.register(attrs.evolve(xeri.GREEK, name="greek-house-cli", hand_size=4))
"""


def test_play_load_continues_a_saved_game_and_replay_rules_reads_a_custom_one(
    tmp_path, monkeypatch
):
    (tmp_path / "house_registered_for_cli.py").write_text(HOUSE_REGISTERED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "house_registered_for_cli", raising=False)
    spec = "house_registered_for_cli:HOUSE"
    path = tmp_path / "game.json"
    try:
        code, out, err = play("--rules", spec, answers=["1", f"save {path}", "quit"])
        assert (code, err) == (0, "")
        assert f"  to replay or continue it, pass --rules {spec}\n" in out
        saved = xeri.from_json(path.read_text(encoding="utf-8"), expect=xeri.GameRecord)
        before = xeri.replay(saved)[-1]
        # A fresh process knows no rule set of that name: the record writes its rules in
        # full (made of the library's components here), so it loads alone.
        del rules_module._REGISTRY["greek-house-cli"]  # not monkeypatch: it would restore it
        sys.modules.pop("house_registered_for_cli", None)
        code, alone, err = run("replay", str(path))
        assert (code, err) == (0, "")
        assert alone.startswith("A match of greek-house-cli: 2 players. Every card open.")
        # A legacy record names its rules alone: without the module it does not load.
        legacy = tmp_path / "legacy.json"
        doc = json.loads(xeri.to_json(saved))
        doc["data"]["rules"] = "greek-house-cli"
        del doc["data"]["fingerprint"], doc["data"]["library"]
        legacy.write_text(json.dumps(doc), encoding="utf-8")
        code, _, err = run("replay", str(legacy))
        assert code == 2
        assert "no rule set is registered as 'greek-house-cli'" in err
        assert "--rules MODULE:ATTRIBUTE" in err
        code, shown, err = run("replay", str(path), "--rules", spec)
        assert (code, err) == (0, "")
        assert shown.startswith("A match of greek-house-cli: 2 players. Every card open.")
        # Continued: the same state, the same prompt, and the game goes on from there.
        del rules_module._REGISTRY["greek-house-cli"]  # not monkeypatch: it would restore it
        sys.modules.pop("house_registered_for_cli", None)
        code, out, err = run(
            "play",
            "--load",
            str(path),
            "--rules",
            spec,
            "--against",
            "greedy",
            stdin="1\nquit\n",
        )
        assert (code, err) == (0, "")
        moves = len(saved.moves)
        assert f"Continuing a saved game: 0 rounds played, {moves} moves." in out
        hand = " ".join(map(str, before.hands[0]))
        assert out.count("Your turn.") == 2
        assert f"  your hand: {hand}\n" in PROMPT.split(out)[0]
        assert out.count("  You play ") == 2  # the move saved, shown again, and one more
    finally:
        sys.modules.pop("house_registered_for_cli", None)
        rules_module._REGISTRY.pop("greek-house-cli", None)


def test_play_load_of_a_finished_game_or_a_bad_file_says_so(tmp_path):
    rec = played_record(xeri.GREEK, 3)
    path = save(tmp_path, rec)
    code, out, err = run("play", "--load", path)
    assert (code, err) == (0, "")
    assert out.splitlines()[-1] == "That game is over: there is nothing left to play."
    code, out, err = run("play", "--load", str(tmp_path / "missing.json"))
    assert (code, out) == (2, "")
    assert err.startswith("error: no such file: ")


# --------------------------------------------------------------------------
# simulate


def test_simulate_prints_the_table_with_the_interval_and_progress_lines():
    code, out, err = run(
        "simulate",
        "greek",
        "counting",
        "greedy",
        "--deals",
        "10",
        "--seed",
        "1",
        "--progress",
        "lines",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == [
        "bot",
        "points/round",
        "round",
        "wins",
        "match",
        "wins",
        "decisions/s",
    ]
    assert lines[1].startswith("counting ")
    assert lines[2].startswith("greedy ")
    assert re.fullmatch(r"difference \(bot 1 - bot 2\): [+-]\d+\.\d{3} points/round,", lines[3])
    assert re.fullmatch(r"  95% interval \[[+-]\d+\.\d{3}, [+-]\d+\.\d{3}\]", lines[4])
    assert lines[5] == "  over 10 deals (20 rounds, duplicate; seed 1)"
    assert len(lines) == 6
    assert all(len(line) <= 80 for line in lines)  # a terminal of 80 columns breaks no row
    assert err.splitlines() == [f"{n}/10 deals" for n in range(1, 11)]
    _, auto_out, auto_err = run(
        "simulate", "greek", "counting", "greedy", "--deals", "10", "--seed", "1"
    )
    assert auto_err == err  # not a terminal: lines
    assert re.sub(r" +[\d.]+\n", "\n", auto_out) == re.sub(r" +[\d.]+\n", "\n", out)


def test_simulate_json_is_the_result_alone():
    code, out, err = run(
        "simulate",
        "greek",
        "greedy",
        "random",
        "--deals",
        "4",
        "--seed",
        "5",
        "--json",
        "--progress",
        "none",
    )
    assert (code, err) == (0, "")
    data = json.loads(out)
    expected = xeri.simulate(xeri.GREEK, (GreedyBot(), RandomBot()), deals=4, seed=5).to_dict()
    del data["seconds"], expected["seconds"]
    assert data == expected
    code, out, _ = run(
        "simulate",
        "greek-four",
        "pimc:2",
        "random",
        "--deals",
        "1",
        "--json",
        "--matches",
        "--no-duplicate",
        "--progress",
        "none",
    )
    data = json.loads(out)
    assert data["interval"] == [None, None]  # one deal has no interval; JSON has no infinity
    assert (data["matches"], data["duplicate"], data["games"]) == (True, False, 1)
    assert data["bots"][0] == (
        "PIMCBot(samples=2, seconds=None, cpu_seconds=None, truncate=None, endgame=True,"
        " infer=None)"
    )


def test_simulate_in_worker_processes_gives_the_same_result():
    argv = ["simulate", "greek", "counting", "greedy", "--deals", "6", "--seed", "3", "--json"]
    one = json.loads(run(*argv, "--progress", "none")[1])
    code, out, err = run(*argv, "--workers", "2", "--progress", "lines")
    assert code == 0
    two = json.loads(out)
    del one["seconds"], two["seconds"]
    assert one == two
    assert err.splitlines()[-1] == "6/6 deals"


def test_simulate_progress_bar_is_drawn_with_rich():
    code, out, _ = run(
        "simulate",
        "greek",
        "greedy",
        "random",
        "--deals",
        "8",
        "--seed",
        "1",
        "--progress",
        "bar",
    )
    assert code == 0
    assert "\x1b[" in out  # the bar's drawing, then the table
    assert ANSI.sub("", out).splitlines()[-5].startswith("greedy ")
    assert "over 8 deals" in out.splitlines()[-1]


def test_simulate_help_writes_the_percent_sign_once():
    code, out, _ = run("simulate", "--help")
    assert code == 0
    assert "95% interval" in " ".join(out.split())
    assert "%%" not in out


def test_simulate_errors_are_one_line():
    code, out, err = run("simulate", "greek", "counting")
    assert (code, out) == (2, "")
    assert err == "error: simulate needs one bot per side: greek has 2 sides, 1 bots were given\n"
    code, _, err = run("simulate", "greek", "counting", "greedy", "--deals", "0")
    assert code == 2
    assert "argument --deals: must be a positive number, not '0'" in err
    code, _, err = run("simulate", "nope", "counting", "greedy")
    assert err.startswith("error: no rule set is registered as 'nope'")


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
    for command in ("play", "simulate", "demo", "rules", "replay"):
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


def in_order(expected: str, printed: str) -> None:
    """Every line of `expected` but `  ...` is a line of `printed`, in the same order."""
    lines = iter(printed.splitlines())
    for line in expected.splitlines():
        if line != "  ...":
            assert line in lines, line  # in order: `in` consumes the iterator up to it


def test_the_command_line_page_shows_what_the_commands_print():
    page = (Path(__file__).resolve().parent.parent / "docs" / "cli.md").read_text(encoding="utf-8")
    demo, play_block, simulate_block, rules_list, rules_greek = text_blocks(page)
    assert rules_list == run("rules")[1]
    assert rules_greek == run("rules", "greek")[1]
    in_order(demo, run("demo", "--rules", "greek", "--seed", "7")[1])
    _, played, _ = run(
        "play",
        "--rules",
        "greek",
        "--against",
        "counting",
        "--seed",
        "9",
        stdin="kh\nfoo\nquit\n",
    )
    assert played.endswith(play_block)
    assert "`xeri play --rules greek --against counting --seed 9`, answering `kh`" in page
    _, simulated, _ = run(
        "simulate",
        "greek",
        "counting",
        "greedy",
        "--deals",
        "50",
        "--seed",
        "1",
        "--progress",
        "none",
    )
    # The last column, the bots' speed, varies from run to run.
    speed = re.compile(r" +[0-9.]+$", flags=re.MULTILINE)
    assert speed.sub("", simulated) == speed.sub("", simulate_block)
    assert "xeri simulate greek counting greedy --deals 50 --seed 1\n" in page

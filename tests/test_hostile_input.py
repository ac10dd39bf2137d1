"""The third round of hostile input (issue 22): each test is written as the attack was.

Forged finished matches (category lines that the round's own facts deny), a
pickle handed to OpenSpiel, a module planted in the working directory, a
preset's name on other rules, a bot that raises or never answers in
`simulate`, a table of values whose action table took gigabytes, long
records, terminal escapes in file names, PettingZoo's dead steps and seeds.
"""

from __future__ import annotations

import base64
import importlib
import io
import json
import multiprocessing
import os
import pickle
import random
import subprocess
import sys
import time
import tracemalloc
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import attrs
import numpy as np
import pyspiel
import pytest

import xeri
import xeri.envs.openspiel  # registers python_xeri
from xeri import InvalidStateError, Phase
from xeri._families.sums import actions as sum_actions
from xeri._rules import match as match_module
from xeri.bots import GreedyBot, RandomBot
from xeri.cli import main
from xeri.envs.pettingzoo import raw_env

ROOT = Path(__file__).resolve().parent.parent


# --------------------------------------------------------------------------
# helpers


def finished_round(rules: xeri.RuleSet, seed: int) -> xeri.GameState:
    """A genuine state at the end of a match's first round, random players."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    while not state.is_round_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


def with_earlier_round(state: xeri.GameState, earlier: xeri.RoundResult) -> xeri.GameState:
    """`state` with `earlier` as a round before its own, the phase as the match then stands."""
    results = (earlier, *state.round_results)
    status = state.rules.match.status(results, state.rules.num_sides)
    phase = Phase.MATCH_OVER if status.over else Phase.ROUND_OVER
    return attrs.evolve(state, round_results=results, phase=phase)


def forged_line(result: xeri.RoundResult, name: str, row: tuple[int, ...]) -> xeri.RoundResult:
    """`result` with the category `name` set to `row`, the totals made to add up again."""
    lines = dict(result.categories)
    old = lines[name]
    lines[name] = row
    total = tuple(t - o + n for t, o, n in zip(result.total, old, row, strict=True))
    categories = tuple((n, lines[n]) for n, _ in result.categories)
    return attrs.evolve(result, categories=categories, total=total)


def refusal(text: str, **options: bool) -> str:
    with pytest.raises(InvalidStateError) as caught:
        xeri.from_json(text, **options)
    return str(caught.value)


def run(*argv: str, stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


# --------------------------------------------------------------------------
# 1. Forged finished matches


def test_forged_scopa_match_won_by_scope_without_sweeps_is_refused():
    state = finished_round(xeri.SCOPA, 3)
    genuine = state.round_results[-1]
    assert dict(genuine.categories)["scope"] == (0, 0) == genuine.xeris
    forged = with_earlier_round(state, forged_line(genuine, "scope", (10, 0)))
    assert forged.phase is Phase.MATCH_OVER  # what the attack claimed: a match won by side 0
    message = refusal(xeri.to_json(forged))
    assert "round 1: categories: 'scope' is 1 a sweep: (0, 0) for the sweeps (0, 0)" in message
    # The same earlier round, honest, loads: the refusal is the forged line's.
    honest = with_earlier_round(state, genuine)
    assert xeri.from_json(xeri.to_json(honest)) == honest


def test_forged_cassino_sweeps_without_sweeps_are_refused():
    state = finished_round(xeri.CASSINO, 5)
    genuine = state.round_results[-1]
    forged = with_earlier_round(state, forged_line(genuine, "sweeps", (7, genuine.xeris[1])))
    assert "'sweeps' is 1 a sweep" in refusal(xeri.to_json(forged))


@pytest.mark.parametrize(
    ("rules", "name"),
    [
        (xeri.SCOPA, "most coins"),
        (xeri.SCOPA, "primiera"),
        (xeri.SCOPA, "settebello"),
        (xeri.CASSINO, "most spades"),
        (xeri.CASSINO, "big casino"),
        (xeri.CASSINO, "little casino"),
    ],
)
def test_one_side_category_lines_given_to_both_sides_are_refused(rules, name):
    state = finished_round(rules, 7)
    genuine = state.round_results[-1]
    most = max(dict(genuine.categories)[name])
    points = most or 1
    forged = forged_line(genuine, name, (points, points))
    problems = rules.scorer.check(forged, rules)
    assert any(name in p for p in problems), problems
    assert name in refusal(xeri.to_json(with_earlier_round(state, forged)))


def test_named_points_split_that_no_cards_give_is_refused():
    # Cassino's aces: four cards of one point; a side with 2 cards cannot hold 3 of them.
    state = finished_round(xeri.CASSINO, 11)
    genuine = state.round_results[-1]
    few = attrs.evolve(genuine, cards=(2, genuine.cards[0] + genuine.cards[1] - 2))
    problems = xeri.CASSINO.scorer.check(forged_line(few, "aces", (3, 1)), xeri.CASSINO)
    assert "categories: no split of the cards gives 'aces' (3, 1)" in problems


def test_every_genuine_result_passes_the_category_checks():
    for rules in (xeri.SCOPA, xeri.CASSINO):
        for seed in range(12):
            result = finished_round(rules, seed).round_results[-1]
            assert rules.scorer.check(result, rules) == []


def test_require_record_refuses_earlier_rounds_a_state_cannot_prove():
    state = finished_round(xeri.SCOPA, 3)
    two_rounds = with_earlier_round(state, state.round_results[-1])
    text = xeri.to_json(two_rounds)
    assert xeri.from_json(text) == two_rounds  # consistent, so loaded by default
    assert "1 earlier round known only by their results" in refusal(text, require_record=True)
    # The current round is replayed: a state of the first round is proven whole.
    assert xeri.from_json(xeri.to_json(state), require_record=True) == state
    rng = random.Random(4)
    now, rec = xeri.record(xeri.GREEK, rng=rng)
    while len(now.round_results) < 2:
        move = xeri.chance_move(now, rng) if now.is_chance else rng.choice(xeri.legal_moves(now))
        now, rec = xeri.apply(now, move), rec.then(move)
    assert xeri.from_json(xeri.to_json(rec), require_record=True) == rec  # a record proves all


# --------------------------------------------------------------------------
# 2. OpenSpiel without pickle


class _Planted:
    """A pickle that would create a file when loaded."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "pwned"))


def test_openspiel_crafted_pickle_string_is_refused_and_never_runs(tmp_path):
    game = pyspiel.load_game("python_xeri")
    marker = tmp_path / "marker"
    payload = base64.b64encode(pickle.dumps({"_state": _Planted(marker)})).decode()
    crafted = f"history=\nmove_number=0\n__dict__={payload}"
    with pytest.raises(InvalidStateError, match="not a serialized python_xeri state"):
        game.deserialize_state(crafted)
    assert not marker.exists()


def _openspiel_state(game, seed: int, actions: int):
    rng = random.Random(seed)
    state = game.new_initial_state()
    for _ in range(actions):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("rules", ["greek", "german"])
def test_openspiel_serialize_is_the_json_game_record_and_reads_back(rules):
    game = pyspiel.load_game("python_xeri", {"rules": rules, "episode": "match"})
    assert game.new_initial_state().serialize() == ""
    assert game.deserialize_state("").history() == []
    state = _openspiel_state(game, 1, 140)
    text = state.serialize()
    record = xeri.from_json(text, xeri.GameRecord)
    assert record.rules is xeri.find_rules(rules)
    again = game.deserialize_state(text)
    assert again.history() == state.history()
    assert again.game_state == state.game_state
    assert str(again) == str(state)


def test_openspiel_tampered_and_foreign_strings_are_refused():
    game = pyspiel.load_game("python_xeri")
    text = _openspiel_state(game, 2, 60).serialize()
    doc = json.loads(text)
    doc["data"]["moves"][5], doc["data"]["moves"][6] = "AS", "AS"  # a card dealt twice
    with pytest.raises(InvalidStateError, match="not a serialized python_xeri state"):
        game.deserialize_state(json.dumps(doc))
    german = pyspiel.load_game("python_xeri", {"rules": "german"})
    with pytest.raises(InvalidStateError, match="not of this game's 'german'"):
        german.deserialize_state(text)
    rec = xeri.record(xeri.GREEK, rng=random.Random(1))[1]  # a whole-deck Deal
    with pytest.raises(InvalidStateError, match="deals card by card"):
        game.deserialize_state(xeri.to_json(rec))
    one_round = pyspiel.load_game("python_xeri", {"episode": "round"})
    longer = _openspiel_state(pyspiel.load_game("python_xeri", {"episode": "match"}), 3, 160)
    assert len(longer.game_state.round_results) >= 1
    with pytest.raises(InvalidStateError, match="after the episode ends"):
        one_round.deserialize_state(longer.serialize())


@pytest.mark.parametrize("action", [-2, -52, 52, 10**6, True, 1.0])
def test_openspiel_out_of_range_chance_actions_are_refused(action):
    state = pyspiel.load_game("python_xeri").new_initial_state()
    state.apply_action(0)  # the first dealer
    with pytest.raises(xeri.IllegalMoveError):
        state.apply_action(action)
    assert state.game_state.dealing == ()


@pytest.mark.parametrize("action", [5, 10**6, True])
def test_openspiel_out_of_range_dealer_and_player_actions_are_refused(action):
    game = pyspiel.load_game("python_xeri")
    with pytest.raises(xeri.IllegalMoveError):
        game.new_initial_state().apply_action(action)  # seats 0 and 1 only
    state = _openspiel_state(game, 4, 60)
    assert not state.is_chance_node()
    if action is not True:
        action += 52
    with pytest.raises(xeri.IllegalMoveError):
        state.apply_action(action)


# --------------------------------------------------------------------------
# 3. The CLI never imports from the working directory

PLANTED = """\
import pathlib
pathlib.Path(__file__).with_name("MARKER").write_text("ran")
raise ImportError("a planted module")
"""


def _xeri_here(cwd: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    return subprocess.run(
        [sys.executable, "-m", "xeri", *argv],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )


def test_planted_rich_in_the_working_directory_never_runs(tmp_path):
    (tmp_path / "rich.py").write_text(PLANTED, encoding="utf-8")
    sim = _xeri_here(tmp_path, "simulate", "greek", "greedy", "random", "--deals", "2",
                     "--seed", "1", "--progress", "bar")  # fmt: skip
    assert sim.returncode == 0, sim.stderr
    assert "over 2 deals" in sim.stdout
    game = _xeri_here(tmp_path, "play", "--color", "always", "--seed", "1", stdin="quit\n")
    assert game.returncode == 0, game.stderr
    assert not (tmp_path / "MARKER").exists()


HOUSE = """\
import attrs
import xeri

HOUSE = attrs.evolve(xeri.GREEK, name="house-of-the-cwd", hand_size=4)
"""


def test_the_rules_module_alone_is_imported_from_the_working_directory(tmp_path):
    (tmp_path / "house_cwd.py").write_text(HOUSE, encoding="utf-8")
    (tmp_path / "rich.py").write_text(PLANTED, encoding="utf-8")
    done = _xeri_here(tmp_path, "simulate", "house_cwd:HOUSE", "greedy", "random", "--deals",
                      "4", "--seed", "1", "--workers", "2", "--progress", "bar")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "over 4 deals" in done.stdout
    assert not (tmp_path / "MARKER").exists()


def test_the_cli_gives_sys_path_back_as_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", ["", str(tmp_path), *sys.path])
    before = list(sys.path)
    seen: list[list[str]] = []
    real = xeri.cli._run

    def spy(args, io_):
        seen.append(list(sys.path))
        return real(args, io_)

    monkeypatch.setattr(xeri.cli, "_run", spy)
    assert run("rules")[0] == 0
    assert "" not in seen[0]
    assert str(tmp_path) not in seen[0]
    assert sys.path == before


def test_terminal_escapes_in_a_file_name_are_shown_escaped(tmp_path):
    name = str(tmp_path / "\x1b[2J\x1b]0;owned\x07game.json")
    code, out, err = run("replay", name)
    assert code == 2
    assert "\x1b" not in err + out
    assert "\x07" not in err
    assert "\\x1b[2J\\x1b]0;owned\\x07game.json" in err


def test_save_refuses_to_overwrite_an_existing_file_unless_forced(tmp_path):
    path = tmp_path / "keep.json"
    path.write_text("precious", encoding="utf-8")
    answers = [f"save {path}", f"save --force {path}", "quit"]
    code, out, _ = run("play", "--against", "greedy", "--seed", "3", "--round",
                       stdin="".join(f"{a}\n" for a in answers))  # fmt: skip
    assert code == 0
    words = " ".join(out.split())  # the lines are wrapped to the terminal's width
    assert f"{path} exists: type save --force {path} to replace it" in words
    assert f"saved the game so far to {path}" in words
    assert isinstance(xeri.from_json(path.read_text(encoding="utf-8")), xeri.GameRecord)


# --------------------------------------------------------------------------
# 4. Presets pinned


def _record_under(rules: xeri.RuleSet, moves: int = 30) -> xeri.GameRecord:
    """A record of the first `moves` moves of a Greek round, said to be under `rules`."""
    rng = random.Random(8)
    state, rec = xeri.record(xeri.GREEK, rng=rng)
    while len(rec.moves) < moves:
        move = rng.choice(xeri.legal_moves(state))
        state, rec = xeri.apply(state, move), rec.then(move)
    return attrs.evolve(rec, rules=rules)


def test_preset_named_rule_set_with_other_fields_is_refused(tmp_path):
    one_round = attrs.evolve(xeri.GREEK, match=xeri.FixedRounds(rounds=1))
    assert one_round.name == "greek"
    text = xeri.to_json(_record_under(one_round))
    message = refusal(text)
    assert "named 'greek', as a registered rule set is, but has another fingerprint" in message
    assert "differs in match" in message
    assert xeri.from_json(text, written_rules=True).rules == one_round
    # The same in a state document and a rules document.
    assert "differs in match" in refusal(xeri.to_json(one_round))
    path = tmp_path / "forged.json"
    path.write_text(text, encoding="utf-8")
    code, out, err = run("replay", str(path))
    assert code == 2
    assert "differs in match" in err
    assert "wins after 1 round" not in out
    code, out, _ = run("replay", str(path), "--written-rules")
    assert code == 0


def test_records_carry_the_library_version_and_the_rules_fingerprint():
    rec = _record_under(xeri.GREEK)
    data = json.loads(xeri.to_json(rec))["data"]
    assert data["library"] == xeri.__version__
    assert data["fingerprint"] == xeri.rules_fingerprint(xeri.GREEK)
    assert data["rules"]["name"] == "greek"  # the rules written in full
    assert xeri.from_json(xeri.to_json(rec)) == rec
    assert xeri.rules_fingerprint(xeri.GREEK) != xeri.rules_fingerprint(xeri.PISTI)
    # to_data gives the same document, and from_data reads it with the same checks.
    assert xeri.to_data(rec)["data"] == data
    assert xeri.from_data(xeri.to_data(rec)) == rec


def test_a_record_whose_fingerprint_does_not_match_is_refused():
    rec = _record_under(xeri.GREEK)
    doc = json.loads(xeri.to_json(rec))
    doc["data"]["fingerprint"] = xeri.rules_fingerprint(xeri.PISTI)
    message = refusal(json.dumps(doc), strict=False)
    assert "the fingerprint does not match the rule set written in the record" in message
    # A record naming its rules, written when the preset was another: told apart.
    doc["data"]["rules"] = "greek"
    message = refusal(json.dumps(doc), strict=False)
    assert "played under another rule set named 'greek'" in message
    # Records written before fingerprints still load, in strict mode too.
    del doc["data"]["fingerprint"], doc["data"]["library"]
    old = json.dumps(doc, sort_keys=True, separators=(",", ":"))
    assert xeri.from_json(old) == rec


# --------------------------------------------------------------------------
# 5. simulate bounded


@attrs.frozen
class RaisingBot:
    """Raises RuntimeError on its fourth decision of a deal."""

    def choose(self, observation, rng):
        if len(observation.history) >= 6:
            raise RuntimeError("a bug of the bot's own")
        return RandomBot().choose(observation, rng)


@attrs.frozen
class SilentBot:
    """Never answers."""

    def choose(self, observation, rng):
        time.sleep(3600)


@attrs.frozen
class CheatingBot:
    """Plays a card it does not hold."""

    def choose(self, observation, rng):
        held = set(observation.hand)
        return next(c for c in xeri.DECK if c not in held)


def test_a_bot_raising_runtime_error_in_a_process_pool_stops_simulate():
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=2, mp_context=context) as pool,
        pytest.raises(xeri.BotError) as caught,
    ):
        xeri.simulate(xeri.GREEK, (RaisingBot(), GreedyBot()), deals=10**12,
                          seed=1, executor=pool)  # fmt: skip
    error = caught.value
    assert isinstance(error.__cause__, RuntimeError)
    assert str(error.__cause__) == "a bug of the bot's own"
    # The first failure to come back: the first deal of one of the chunks sent (64 deals each).
    assert error.bot == 0
    assert error.deal % 64 == 0
    assert error.deal < 4 * 64
    assert f"in deal {error.deal}, playing seat {error.seat}" in str(error)
    assert str(error).startswith("bot 0 (RaisingBot()) raised RuntimeError")


def test_a_bot_raising_in_this_process_stops_simulate_with_the_same_error():
    with pytest.raises(xeri.BotError) as caught:
        xeri.simulate(xeri.GREEK, (GreedyBot(), RaisingBot()), deals=10**12, seed=1)
    assert caught.value.bot == 1
    assert isinstance(caught.value.__cause__, RuntimeError)


def test_a_cheating_bot_stops_simulate_with_the_engines_refusal_as_cause():
    with pytest.raises(xeri.BotError, match="chose a move that is not legal") as caught:
        xeri.simulate(xeri.GREEK, (CheatingBot(), GreedyBot()), deals=3, seed=1)
    assert isinstance(caught.value.__cause__, xeri.IllegalMoveError)


def test_a_bot_that_never_answers_is_stopped_by_the_time_limit_in_processes():
    context = multiprocessing.get_context("spawn")
    with (
        ProcessPoolExecutor(max_workers=2, mp_context=context) as pool,
        pytest.raises(xeri.BotError, match=r"did not choose within 0\.2 s"),
    ):
        xeri.simulate(xeri.GREEK, (SilentBot(), GreedyBot()), deals=2, seed=1,
                          executor=pool, decision_seconds=0.2)  # fmt: skip


def test_the_time_limit_interrupts_a_silent_bot_in_the_main_thread():
    with pytest.raises(xeri.BotError, match="did not choose within"):
        xeri.simulate(xeri.GREEK, (GreedyBot(), SilentBot()), deals=1, seed=1,
                      decision_seconds=0.1)  # fmt: skip


@pytest.mark.parametrize("seconds", [0, -1, float("nan"), float("inf"), "1", True])
def test_a_time_limit_that_is_no_number_of_seconds_is_refused(seconds):
    with pytest.raises(xeri.RuleSetError, match="decision_seconds"):
        xeri.simulate(xeri.GREEK, (GreedyBot(), GreedyBot()), deals=1, decision_seconds=seconds)


def test_simulate_with_a_huge_number_of_deals_makes_no_chunk_list():
    tracemalloc.start()
    try:
        with pytest.raises(xeri.BotError):
            xeri.simulate(xeri.GREEK, (RaisingBot(), GreedyBot()), deals=10**15, seed=2)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * 2**20


def test_simulate_gives_the_same_result_in_processes_as_here():
    bots = (GreedyBot(), RandomBot())
    here = xeri.simulate(xeri.GREEK, bots, deals=9, seed=5, chunk_size=2)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=2, mp_context=context) as pool:
        there = xeri.simulate(xeri.GREEK, bots, deals=9, seed=5, chunk_size=1, executor=pool)
    assert here == there


# --------------------------------------------------------------------------
# 6. Caches bounded


def test_a_values_table_that_once_took_gigabytes_is_refused_before_it_is_built():
    # Ones everywhere and a King of 10: every King takes any ten of the 48 ones, and the
    # action table would list billions of captures (random tables of the attack: 74-128 MB).
    values = {**dict.fromkeys(xeri.Rank, 1), xeri.Rank.KING: 10}
    rules = attrs.evolve(xeri.GERMAN, name="ones-and-ten", capture=xeri.SumCapture(values=values))
    tracemalloc.start()
    try:
        with pytest.raises(xeri.RuleSetError, match="more than the 32,768 an action encoding"):
            xeri.num_actions(rules)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20 * 2**20
    # The game itself plays without the encoding.
    state = xeri.new_game(rules, rng=random.Random(1))
    assert xeri.legal_moves(state)
    assert sum_actions._sum_table.cache_info().maxsize == 8


# --------------------------------------------------------------------------
# 7. Smaller fixes


class _Counted:
    """A round result that counts how often its total is read."""

    reads = 0

    def __init__(self, total: tuple[int, ...]) -> None:
        self._total = total
        self.winner = 0 if total[0] > total[1] else 1

    @property
    def total(self) -> tuple[int, ...]:
        _Counted.reads += 1
        return self._total


def test_a_long_match_adds_up_each_round_once():
    results = tuple(_Counted((1, 2)) for _ in range(3000))
    _Counted.reads = 0
    for n in range(2, len(results) + 1):
        match_module.TargetScore(target=10**6).status(results[:n], 2)
    assert _Counted.reads == len(results)  # each round's total read once, not n * n / 2
    assert match_module._running(results, 2) == ((3000, 6000), (0, 3000))


def test_pettingzoo_dead_steps_bools_and_seeds():
    env = raw_env(episode="round")
    env.reset(seed=np.int64(3))
    first = env.observe(env.agent_selection)["observation"]
    env.reset(seed=3)
    assert (env.observe(env.agent_selection)["observation"] == first).all()
    for seed in (float("nan"), float("inf"), 1.5, True, "3"):
        with pytest.raises(xeri.IllegalMoveError, match="a seed is an int"):
            env.reset(seed=seed)
    env.reset(seed=1)
    with pytest.raises(xeri.IllegalMoveError, match="not the bool True"):
        env.step(True)
    while not all(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
    with pytest.raises(xeri.IllegalMoveError, match="its only step is step"):
        env.step(0)
    while env.agents:
        env.step(None)
    env.step(None)  # after every dead step: nothing, as PettingZoo's wrapper does
    assert env.agents == []


def test_most_of_a_suit_won_by_a_side_too_small_to_hold_it_is_refused():
    # One card against 51, none left over: the other side holds at least 12 spades.
    state = finished_round(xeri.CASSINO, 7)
    genuine = state.round_results[-1]
    forged = forged_line(attrs.evolve(genuine, cards=(1, 51), leftover=0), "most spades", (1, 0))
    problems = xeri.CASSINO.scorer.check(forged, xeri.CASSINO)
    assert (
        "categories: no share of the 13 spades among cards (1, 51) gives 'most spades' (1, 0)"
        in (problems)
    )


def test_simulate_workers_are_capped_at_the_machines_cores(monkeypatch):
    command = importlib.import_module("xeri.cli._simulate")  # the package shadows the name
    asked: list[int] = []
    real = command.ProcessPoolExecutor

    def pool(*, max_workers: int, **kwargs: object) -> ProcessPoolExecutor:
        asked.append(max_workers)
        return real(max_workers=max_workers, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(command, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(command.os, "cpu_count", lambda: 2)
    code, out, _ = run("simulate", "greek", "greedy", "random", "--deals", "4", "--seed", "1",
                       "--workers", "32", "--progress", "none")  # fmt: skip
    assert code == 0
    assert asked == [2]
    assert "over 4 deals" in out

"""`xeri serve` over real sockets on 127.0.0.1: play, refusals, limits, leaks, restarts, kill -9."""

from __future__ import annotations

import asyncio
import io
import json
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import attrs
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import xeri
from edge_games import hidden_cards, named_cards
from serving import Server, running
from xeri.cli import main
from xeri.server._bots import BotPool, BotProcessError
from xeri.session import Session, run_bot

PRESETS = sorted(xeri.registered())


def views(ws: Any, until: Any, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Read messages until a view meets `until`; every view read is appended to `seen`."""
    while True:
        msg = json.loads(ws.recv(timeout=30))
        if msg["type"] != "view":
            continue
        view = xeri.decode_view(msg["view"])  # the keys at their default put back
        if seen is not None:
            seen.append(view)
        if until(view):
            return view


def play_until(
    ws: Any,
    seat: int,
    stop: Any,
    rng: random.Random,
    seen: list[dict] | None = None,
    *,
    first: dict | None = None,
) -> dict:
    """Play random legal moves for `seat` until `stop(view)`; the last view.

    `first` is a view already read, to act on before reading more.
    """
    while True:
        ready = first is not None and (stop(first) or (first["to_move"] == seat and first["moves"]))
        view = (
            first
            if ready
            else views(ws, lambda v: stop(v) or (v["to_move"] == seat and v["moves"]), seen)
        )
        first = None
        if stop(view):
            return view
        ws.send(
            json.dumps(
                {"type": "move", "move": rng.randrange(len(view["moves"])), "ply": view["ply"]}
            )
        )


def round_over(view: dict) -> bool:
    return bool(view["round_results"]) or view["phase"] in ("round over", "match over")


def journal_states(db: Path, game: str) -> dict[int, xeri.GameState]:
    """The state at each ply of a game, from its rows in the database."""
    with sqlite3.connect(db) as con:
        header = json.loads(
            con.execute("SELECT header FROM games WHERE id=?", (game,)).fetchone()[0]
        )
        rows = [
            json.loads(r)
            for (r,) in con.execute("SELECT row FROM rows WHERE game=? ORDER BY n", (game,))
        ]
    by_ply: dict[int, xeri.GameState] = {}
    for n in range(len(rows) + 1):
        _, state = xeri.load_journal(header, rows[:n])
        ply = xeri.client_view(state, None)["ply"]
        by_ply[ply] = state  # the last state of each ply: after its chance moves
    return by_ply


def test_a_whole_greek_round_against_the_counting_bot(tmp_path):
    db = tmp_path / "games.db"
    with running(db) as server:
        made = server.new_game("greek", ["human", "counting"])
        token = made["links"]["0"].split("t=")[1]
        with connect(server.ws_url(made["links"]["0"])) as ws:
            hello = json.loads(ws.recv(timeout=30))
            assert hello == {"type": "hello", "seat": 0, "seats": ["human", "counting"]}
            last = play_until(ws, 0, round_over, random.Random(1))
        assert last["ply"] == 48
    data = db.read_bytes()
    assert token.encode() not in data  # only its hash is stored
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM rows").fetchone()[0] >= 49


def test_a_seat_asks_for_the_moves_of_one_card(tmp_path):
    with running(tmp_path / "g.db") as server:
        made = server.new_game("german", ["human", "human"])
        url0, url1 = server.ws_url(made["links"]["0"]), server.ws_url(made["links"]["1"])
        with (
            connect(url0) as ws0,
            connect(url1) as ws1,
            connect(server.ws_url(made["watch"])) as spy,
        ):
            v0, v1 = views(ws0, lambda v: True), views(ws1, lambda v: True)
            view, ws = (v0, ws0) if v0["to_move"] == 0 else (v1, ws1)
            for card in view["hand"]:
                ws.send(json.dumps({"type": "moves", "card": card}))
                answer = json.loads(ws.recv(timeout=10))
                assert answer["type"] == "moves"
                assert answer["ply"] == view["ply"]
                assert answer["card"] == card
                assert answer["count"] == len(answer["moves"])  # all listed: a German hand
                notation = [m if type(m) is str else m[0] for m in view["moves"]]
                assert [i for i, _ in answer["moves"]] == [
                    i for i, n in enumerate(notation) if card in n.replace("trail ", "").split()[:1]
                ]
                assert [m for _, m in answer["moves"]] == [
                    view["moves"][i] for i, _ in answer["moves"]
                ]
            ws.send(json.dumps({"type": "moves", "card": "XX"}))
            assert json.loads(ws.recv(timeout=10))["type"] == "error"
            views(spy, lambda v: True)
            spy.send(json.dumps({"type": "moves", "card": view["hand"][0]}))
            assert json.loads(spy.recv(timeout=10))["type"] == "error"


def test_refusals_and_bad_links(tmp_path):
    with running(tmp_path / "g.db") as server:
        made = server.new_game("greek", ["human", "human"])
        url0, url1 = server.ws_url(made["links"]["0"]), server.ws_url(made["links"]["1"])
        with connect(url0) as ws0, connect(url1) as ws1:
            v0 = views(ws0, lambda v: True)
            v1 = views(ws1, lambda v: True)
            mover, other = (ws0, ws1) if v0["to_move"] == 0 else (ws1, ws0)
            other.send(json.dumps({"type": "move", "move": 0, "ply": v0["ply"]}))
            refused = json.loads(other.recv(timeout=10))
            assert refused["type"] == "refused"
            assert refused["code"] == "out of turn"
            mover.send(json.dumps({"type": "move", "move": 0, "ply": 7}))
            assert json.loads(mover.recv(timeout=10))["code"] == "stale"
            mover.send("not json")
            assert json.loads(mover.recv(timeout=10))["type"] == "error"
            assert v1["seat"] == 1
        bad = made["links"]["0"][:-3] + "xyz"
        with connect(server.ws_url(bad)) as ws, pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4403
        with (
            connect(f"ws://127.0.0.1:{server.port}/ws?g=nope") as ws,
            pytest.raises(ConnectionClosed) as closed,
        ):
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == 4404


def read_until_closed(ws: Any) -> int:
    """Read until the server closes the socket; the code it closed with."""
    with pytest.raises(ConnectionClosed) as closed:
        read_forever(ws)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def read_forever(ws: Any) -> None:
    while True:
        ws.recv(timeout=10)


def test_floods_and_large_frames_close_the_socket_with_a_clear_code(tmp_path):
    with running(tmp_path / "g.db") as server:
        made = server.new_game("greek", ["human", "human"])
        with connect(server.ws_url(made["links"]["0"])) as ws:
            ws.send("x" * 5000)
            assert read_until_closed(ws) == 1009
        with connect(server.ws_url(made["links"]["1"])) as ws:
            for _ in range(200):
                ws.send('{"type":"view"}')
            assert read_until_closed(ws) == 1008


@pytest.mark.parametrize("rules", PRESETS)
def test_X2_no_message_of_a_bot_filled_game_names_a_hidden_card(tmp_path, rules):
    """Every message to the player and to a spectator, checked against the true state."""
    db = tmp_path / "g.db"
    seats = xeri.find_rules(rules).seats
    games = []
    with running(db) as server:
        for g in range(2):
            made = server.new_game(rules, ["human"] + ["counting"] * (seats - 1))
            mine: list[dict] = []
            watched: list[dict] = []
            with (
                connect(server.ws_url(made["links"]["0"])) as ws,
                connect(server.ws_url(made["watch"])) as spy,
            ):
                last = play_until(ws, 0, round_over, random.Random(g), mine)
                views(spy, lambda v, ply=last["ply"]: v["ply"] >= ply, watched)
            games.append((made["game"], mine, watched))
    checked = 0
    for game, mine, watched in games:
        states = journal_states(db, game)
        for seat, seen in ((0, mine), (None, watched)):
            for view in seen:
                state = states[view["ply"]]
                if seat is None:
                    hidden = set().union(*(hidden_cards(state, s) for s in range(seats)))
                    hidden.discard(state.bottom_card)
                else:
                    hidden = hidden_cards(state, seat)
                # Redealt tables were shown to all (G4): their cards are named, not placed.
                hidden -= {c for shown in state.redealt for c in shown}
                text = json.dumps(dict(view, rules=None), ensure_ascii=False)
                assert not named_cards(text) & hidden
                checked += 1
    assert checked > 40


def test_a_restart_resumes_every_unfinished_game(tmp_path):
    db = tmp_path / "g.db"
    server = Server(db)
    server.start()
    try:
        made = server.new_game("german", ["human", "counting"])
        with connect(server.ws_url(made["links"]["0"])) as ws:
            before = play_until(ws, 0, lambda v: v["ply"] >= 10, random.Random(3))
        server.stop()
        server.start()
        with connect(server.ws_url(made["links"]["0"])) as ws:
            after = views(ws, lambda v: True)
        assert after["ply"] >= before["ply"]
        assert after["plays"][: len(before["plays"])] == before["plays"]
    finally:
        server.stop()


def gone(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return True
    return state == "Z"  # ended, and not yet reaped by anyone


@pytest.mark.parametrize("sync", ["normal", "full"])
def test_kill_9_mid_play_loses_no_move_a_client_saw(tmp_path, sync):
    db = tmp_path / "g.db"
    server = Server(db, extra=["--sync", sync])
    server.start()
    bots: list[int] = []
    rng = random.Random(5)
    try:
        made = server.new_game("greek", ["human", "counting"])
        link = made["links"]["0"]
        seen: dict | None = None
        for crash in range(4):
            with connect(server.ws_url(link)) as ws:
                view = views(ws, lambda v: True)
                if seen is not None:  # nothing the client saw before the crash is lost
                    assert view["ply"] >= seen["ply"]
                    if view["round_results"] == seen["round_results"]:
                        assert view["plays"][: len(seen["plays"])] == seen["plays"]
                target = view["ply"] + 5 + crash
                try:
                    seen = play_until(ws, 0, lambda v, t=target: v["ply"] >= t, rng, first=view)
                    # Send one more move and kill at once: it may or may not be stored,
                    # but what the client saw must be.
                    if seen["to_move"] == 0 and seen["moves"]:
                        ws.send(json.dumps({"type": "move", "move": 0, "ply": seen["ply"]}))
                finally:
                    bots.extend(server.children())
                    server.kill()
            server.start()
        with connect(server.ws_url(link)) as ws:
            final = views(ws, lambda v: True)
            assert seen is not None
            assert final["ply"] >= seen["ply"]
            play_until(ws, 0, lambda v: v["ply"] >= final["ply"] + 3, rng, first=final)  # goes on
    finally:
        server.stop()
    # A killed server leaves no bot process behind: each ends when its pipe closes.
    assert bots
    deadline = time.monotonic() + 20
    while not all(gone(pid) for pid in bots) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert all(gone(pid) for pid in bots)


def test_bot_processes_answer_tell_failures_and_are_started_again():
    async def go() -> None:
        pool = BotPool(1)
        session, _ = Session.new(xeri.GREEK, ("counting", "counting"), seed="b", dealer=0)
        task = session.bot_task()
        assert task is not None
        try:
            assert await pool.run(task) == run_bot(task)
            with pytest.raises(BotProcessError, match="KeyError"):
                await pool.run(attrs.evolve(task, kind="no such bot"))
            first = pool._procs[0]
            first.proc.kill()
            await first.reader  # its pipe closed
            with pytest.raises(BotProcessError, match="ended"):
                first.run(task)
            assert await pool.run(task) == run_bot(task)  # in a new process
            assert pool._procs[0] is not first
        finally:
            await pool.close()

    asyncio.run(go())


def test_serve_refuses_bad_options_with_a_one_line_error():
    err = io.StringIO()
    assert main(["serve", "--workers", "0"], stdout=io.StringIO(), stderr=err) == 2
    assert err.getvalue() == "error: --workers must be at least 1\n"
    out = io.StringIO()
    assert main(["serve", "--help"], stdout=out, stderr=io.StringIO()) == 0
    assert "--sync" in out.getvalue()


def test_a_turn_timer_has_the_bot_move_for_an_absent_player(tmp_path):
    with running(tmp_path / "g.db", extra=["--turn-seconds", "0.5"]) as server:
        made = server.new_game("greek", ["human", "human"])
        with connect(server.ws_url(made["links"]["0"])) as ws:
            first = views(ws, lambda v: True)
            assert first["ply"] == 0
            # Nobody moves: after half a second a bot moves for the seat to move, and so on.
            later = views(ws, lambda v: v["ply"] >= 2)
            assert later["phase"] != "match over"


def refused_with(url: str) -> int | None:
    """The close code if the server closes a new connection at once, else None."""
    with connect(url) as ws:
        try:
            ws.recv(timeout=5)
        except ConnectionClosed:
            return ws.close_code
    return None


def test_finished_and_abandoned_games_are_evicted(tmp_path):
    db = tmp_path / "g.db"
    server = Server(db, extra=["--evict-after", "0.3"])
    server.start()
    try:
        made = server.new_game("greek", ["human", "counting"])
        with connect(server.ws_url(made["links"]["0"])) as ws:
            views(ws, lambda v: True)
        for _ in range(30):
            time.sleep(1.0)  # a probe connects, which touches the game: wait past 0.3 s
            if refused_with(server.ws_url(made["links"]["0"])) == 4404:
                break
        else:
            raise AssertionError("the abandoned game was never evicted")
        server.stop()
        server.start()  # an evicted game is not loaded again
        with connect(server.ws_url(made["links"]["0"])) as ws:
            assert read_until_closed(ws) == 4404
    finally:
        server.stop()

"""The Starlette application of `xeri serve`: HTTP for the page and new games, a websocket each.

See [`xeri.server`][xeri.server] for what it does; this module is how.
Every game lives in memory as a [`Session`][xeri.session.Session] in a
`_Room` with its connections. A move is handled under the room's lock:
the session answers, the rows are committed (on the event loop with
`sync="normal"`, by the store's own thread with `"full"`), and only then
are the views sent. Bots run in processes of their own
(`BotPool`, or an executor given in the settings).
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import time
from collections.abc import AsyncIterator
from concurrent.futures import Executor, ThreadPoolExecutor
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

import xeri
from xeri.server._bots import BotPool, BotProcessError
from xeri.server._store import Store, token_hash
from xeri.session import SEAT_KINDS, BotTask, Refusal, Session, Update, run_bot

__all__ = ["ServerConfig", "create_app"]

MAX_FRAME = 2048
"""The largest message a client may send, in bytes; a larger one closes the socket (1009)."""
CLOSE_TOO_BIG = 1009
CLOSE_POLICY = 1008
CLOSE_NO_GAME = 4404
CLOSE_BAD_TOKEN = 4403


class ServerConfig:
    """The server's settings (see `xeri serve --help`)."""

    def __init__(
        self,
        *,
        db: str,
        workers: int = 1,
        turn_seconds: float | None = None,
        bot_delay: float = 0.4,
        evict_after: float = 3600.0,
        rate: float = 30.0,
        burst: int = 60,
        max_games: int = 10_000,
        sync: str = "normal",
        pool: Executor | None = None,
    ) -> None:
        self.db = db
        self.workers = workers
        self.turn_seconds = turn_seconds
        self.bot_delay = bot_delay
        self.evict_after = evict_after
        self.rate = rate
        self.burst = burst
        self.max_games = max_games
        self.sync = sync
        self.pool = pool


class _Room:
    """One game: its session, its sockets per seat (None: spectators) and its lock."""

    def __init__(
        self, game: str, session: Session, tokens: list[str | None], turn: float | None
    ) -> None:
        self.game = game
        self.session = session
        self.tokens = tokens  # SHA-256 of each seat's token, None for a bot's seat
        self.turn = turn
        self.sockets: dict[int | None, set[WebSocket]] = {}
        self.lock = asyncio.Lock()
        self.touched = time.monotonic()
        self.timer: asyncio.Task[None] | None = None
        self.deadline: float | None = None  # when the turn timer runs out, in Unix seconds
        self.bots: asyncio.Task[None] | None = None


class _Server:
    def __init__(self, config: ServerConfig) -> None:
        self.config = config
        self.rooms: dict[str, _Room] = {}
        self.store: Store | None = None
        self.db = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xeri-db")
        self.checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="xeri-wal")
        self.pool: Executor | None = config.pool  # bots there, if given; else in `bots`
        self.bots = BotPool(config.workers)
        self.sweeper: asyncio.Task[None] | None = None
        self.checkpointer: asyncio.Task[None] | None = None
        # The group commit: moves waiting for the next transaction, and its writer.
        self.waiting: list[tuple[str, tuple[dict[str, Any], ...], bool, asyncio.Future[None]]] = []
        self.wake = asyncio.Event()
        self.writer: asyncio.Task[None] | None = None
        self.inline = config.sync == "normal"
        self.flushing = False
        self.page = (resources.files("xeri.server") / "page.html").read_text("utf-8")

    # -- storage: on the event loop with sync="normal", else on a thread of its own --

    def _store(self) -> Store:
        if self.store is None:
            raise RuntimeError("the server has not started")
        return self.store

    async def _db(self, fn: Any, *args: Any, **kw: Any) -> Any:  # noqa: ANN401  # any store call
        if self.inline:  # a commit without fsync takes tens of microseconds: no hand-off
            return fn(*args, **kw)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.db, lambda: fn(*args, **kw))

    async def _append(self, game: str, rows: tuple[dict[str, Any], ...], *, over: bool) -> None:
        """Commit a move's rows; returns once they are committed (with others' in one commit).

        With `sync="normal"` the moves handled in one turn of the event loop are
        committed together at its end, on the loop; with `"full"` the writer
        commits, on the store's thread, what came in while the last `fsync` ran.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self.waiting.append((game, rows, over, future))
        if not self.inline:
            self.wake.set()
        elif not self.flushing:
            self.flushing = True
            loop.call_soon(self._flush)
        await future

    def _flush(self) -> None:
        """Commit every move waiting, on the loop, then wake their movers."""
        self.flushing = False
        batch, self.waiting = self.waiting, []
        try:
            self._store().append_many([(g, r, o) for g, r, o, _ in batch])
        except Exception as exc:  # told to every mover of the batch
            self._settle(batch, exc)
        else:
            self._settle(batch, None)

    @staticmethod
    def _settle(
        batch: list[tuple[str, tuple[dict[str, Any], ...], bool, asyncio.Future[None]]],
        error: BaseException | None,
    ) -> None:
        for *_, future in batch:
            if not future.done():
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

    async def _write(self) -> None:
        """The writer: commit everything waiting in one transaction, then wake the movers."""
        while True:
            await self.wake.wait()
            self.wake.clear()
            batch, self.waiting = self.waiting, []
            if not batch:
                continue
            try:
                await self._db(self._store().append_many, [(g, r, o) for g, r, o, _ in batch])
            except Exception as exc:  # told to every mover of the batch
                self._settle(batch, exc)
            else:
                self._settle(batch, None)

    async def start(self) -> None:
        self.store = await self._db(Store, self.config.db, sync=self.config.sync)
        if not self.inline:
            self.writer = asyncio.create_task(self._write())
        for game, header, tokens, options in await self._db(self.store.live):
            rows = await self._db(self.store.rows, game)
            session = Session.resume(header, rows)
            room = _Room(game, session, tokens, options.get("turn"))
            self.rooms[game] = room
            pending = session.pending()  # a crash between a move and its deal
            if pending is not None:
                await self._db(self.store.append, game, pending.rows, over=session.is_over)
            self._after_move(room)
        self.sweeper = asyncio.create_task(self._sweep())
        self.checkpointer = asyncio.create_task(self._checkpoints())

    async def stop(self) -> None:
        for task in (self.sweeper, self.writer, self.checkpointer):
            if task is not None:
                task.cancel()
        for room in self.rooms.values():
            for task in (room.timer, room.bots):
                if task is not None:
                    task.cancel()
        await self.bots.close()
        self.checkpoints.shutdown(wait=True)
        if self.store is not None:
            await self._db(self.store.close)
        self.db.shutdown(wait=True)

    # -- HTTP --

    async def index(self, request: Request) -> Response:
        return HTMLResponse(
            self.page,
            headers={
                "Content-Security-Policy": "default-src 'self'; style-src 'unsafe-inline';"
                " script-src 'unsafe-inline'; connect-src 'self'",
                "X-Content-Type-Options": "nosniff",
                "Referrer-Policy": "no-referrer",
                "Cache-Control": "no-store",
            },
        )

    async def presets(self, request: Request) -> Response:
        return JSONResponse(
            {
                "rules": [
                    {"name": n, "seats": xeri.find_rules(n).seats} for n in xeri.registered()
                ],
                "seats": list(SEAT_KINDS),
            }
        )

    async def create(self, request: Request) -> Response:
        body = await request.body()
        if len(body) > MAX_FRAME:
            return JSONResponse({"error": "the request is too large"}, status_code=413)
        try:
            spec = json.loads(body)
            rules = xeri.find_rules(spec["rules"])
            seats = [str(s) for s in spec["seats"]]
            turn = spec.get("turn")
            if turn is not None and (type(turn) not in (int, float) or not 1 <= turn <= 86400):
                raise ValueError("turn must be from 1 to 86400 seconds")
        except (ValueError, KeyError, TypeError, xeri.XeriError) as exc:
            return JSONResponse({"error": f"a game needs rules and seats: {exc}"}, status_code=400)
        if len(self.rooms) >= self.config.max_games:
            return JSONResponse({"error": "the server holds too many games"}, status_code=503)
        if turn is None:
            turn = self.config.turn_seconds
        try:
            session, first = Session.new(rules, seats)
        except xeri.XeriError as exc:
            return JSONResponse({"error": str(exc)}, status_code=400)
        game = secrets.token_urlsafe(9)
        tokens = [secrets.token_urlsafe(18) if k in ("human", "empty") else None for k in seats]
        await self._db(
            self._store().create, game, session.header, tokens, first.rows, {"turn": turn}
        )
        room = _Room(game, session, [None if t is None else token_hash(t) for t in tokens], turn)
        self.rooms[game] = room
        self._after_move(room)
        links = {str(s): f"/#g={game}&s={s}&t={t}" for s, t in enumerate(tokens) if t is not None}
        return JSONResponse({"game": game, "links": links, "watch": f"/#g={game}"})

    # -- websockets --

    async def socket(self, ws: WebSocket) -> None:
        params = ws.query_params
        room = self.rooms.get(params.get("g", ""))
        await ws.accept()
        if room is None:
            await ws.close(CLOSE_NO_GAME, "no such game")
            return
        seat: int | None = None
        if "s" in params:
            try:
                seat = int(params["s"])
                expected = room.tokens[seat]
            except (ValueError, IndexError):
                expected = None
            if expected is None or not hmac.compare_digest(
                expected, token_hash(params.get("t", ""))
            ):
                await ws.close(CLOSE_BAD_TOKEN, "the seat's link is not valid")
                return
        room.sockets.setdefault(seat, set()).add(ws)
        room.touched = time.monotonic()
        try:
            await self._send(ws, {"type": "hello", "seat": seat, "seats": list(room.session.seats)})
            await self._send_text(ws, self._view_message(room, seat))
            tokens = float(self.config.burst)
            last = time.monotonic()
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                if data is None:
                    data = (message.get("bytes") or b"").decode("utf-8", "replace")
                if len(data.encode("utf-8")) > MAX_FRAME:
                    await ws.close(CLOSE_TOO_BIG, "message too large")
                    break
                now = time.monotonic()
                tokens = min(float(self.config.burst), tokens + (now - last) * self.config.rate)
                last = now
                if tokens < 1:
                    await ws.close(CLOSE_POLICY, "too many messages")
                    break
                tokens -= 1
                await self._message(room, seat, ws, data)
        except WebSocketDisconnect:
            pass
        finally:
            room.sockets.get(seat, set()).discard(ws)
            room.touched = time.monotonic()

    async def _message(self, room: _Room, seat: int | None, ws: WebSocket, data: str) -> None:
        try:
            msg = json.loads(data)
            kind = msg["type"]
        except (ValueError, KeyError, TypeError):
            await self._send(
                ws, {"type": "error", "message": "a message is a JSON object with a type"}
            )
            return
        if kind == "view":
            await self._send_text(ws, self._view_message(room, seat))
            return
        if kind == "moves":  # a view that counts its moves per card: those of one card
            await self._moves(room, seat, ws, msg.get("card"))
            return
        if kind != "move":
            await self._send(ws, {"type": "error", "message": f"unknown message type {kind!r}"})
            return
        if seat is None:
            await self._send(
                ws, {"type": "refused", "code": "spectator", "message": "spectators do not move"}
            )
            return
        move = msg.get("move")
        ply = msg.get("ply")
        async with room.lock:
            answer = room.session.submit(seat, move, ply)  # submit checks both
            if isinstance(answer, Refusal):
                await self._send(
                    ws, {"type": "refused", "code": answer.code, "message": answer.message}
                )
                return
            await self._commit(room, answer)
        self._after_move(room)

    async def _moves(self, room: _Room, seat: int | None, ws: WebSocket, card: object) -> None:
        if seat is None or type(card) is not str:
            await self._send(
                ws, {"type": "error", "message": "a seat asks for moves with a card's name"}
            )
            return
        try:  # at most MAX_LISTED_MOVES of them, and their count: never all of billions
            moves = xeri.client_moves(room.session.state, seat, card)
        except xeri.XeriError as exc:  # the client's own text, said back
            await self._send(ws, {"type": "error", "message": str(exc)})
            return
        await self._send(ws, {"type": "moves", "ply": room.session.ply, **moves})

    async def _commit(self, room: _Room, update: Update) -> None:
        """Store the rows, then tell every client: under the room's lock."""
        await self._append(room.game, update.rows, over=room.session.is_over)
        room.touched = time.monotonic()
        await self._broadcast(room)

    async def _broadcast(self, room: _Room) -> None:
        sends: list[Any] = []
        for seat, sockets in list(room.sockets.items()):
            if not sockets:
                continue
            text = self._view_message(room, seat)
            sends.extend(self._send_text(ws, text) for ws in list(sockets))
        if len(sends) == 1:  # the most common room: one player against bots
            await sends[0]
        elif sends:
            await asyncio.gather(*sends, return_exceptions=True)

    def _view_message(self, room: _Room, seat: int | None) -> str:
        view = xeri.client_view_json(room.session.state, seat)
        deadline = "null" if room.deadline is None else f"{room.deadline:.3f}"
        return f'{{"type":"view","deadline":{deadline},"view":{view}}}'

    async def _send(self, ws: WebSocket, msg: dict[str, Any]) -> None:
        await self._send_text(ws, json.dumps(msg, ensure_ascii=False, separators=(",", ":")))

    async def _send_text(self, ws: WebSocket, text: str) -> None:
        if ws.client_state is WebSocketState.CONNECTED:
            with contextlib.suppress(Exception):  # a client gone mid-send is a client gone
                await ws.send_text(text)

    # -- bots and timers --

    def _after_move(self, room: _Room) -> None:
        """Start the bots if one is to move, else the turn timer of a human seat."""
        session = room.session
        if room.timer is not None:
            room.timer.cancel()
            room.timer = None
        room.deadline = None
        if session.is_over:
            return
        if session.bot_task() is not None:
            if room.bots is None or room.bots.done():
                room.bots = asyncio.create_task(self._bots(room))
        elif room.turn is not None:
            room.deadline = time.time() + float(room.turn)
            room.timer = asyncio.create_task(self._timer(room, session.ply, float(room.turn)))

    async def _run_bot(self, task: BotTask) -> int:
        """A bot's decision, made in another process: never on the event loop."""
        if self.pool is not None:
            return await asyncio.get_running_loop().run_in_executor(self.pool, run_bot, task)
        return await self.bots.run(task)

    async def _bots(self, room: _Room) -> None:
        while True:
            task: BotTask | None = room.session.bot_task()
            if task is None:
                break
            if self.config.bot_delay:
                await asyncio.sleep(self.config.bot_delay)
            try:
                index = await self._run_bot(task)
            except BotProcessError:  # its process ended: a new one is started for the retry
                await asyncio.sleep(1.0)
                continue
            async with room.lock:
                answer = room.session.bot_move(task, index)
                if isinstance(answer, Refusal):
                    continue
                await self._commit(room, answer)
        self._after_move(room)

    async def _timer(self, room: _Room, ply: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        session = room.session
        seat = session.to_move
        if session.ply != ply or seat is None:
            return
        task = BotTask(
            kind="counting",
            observation=xeri.observe(session.state, seat),
            seed=f"timeout:{ply}",
            ply=ply,
            seat=seat,
        )
        try:
            index = await self._run_bot(task)
        except BotProcessError:  # the player may still move (its process is started again)
            room.timer = None
            return
        async with room.lock:
            answer = session.bot_move(task, index)
            if isinstance(answer, Update):
                await self._commit(room, answer)
        room.timer = None
        self._after_move(room)

    async def _checkpoints(self) -> None:
        """Copy the WAL into the database every second, on a thread of its own."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(1.0)
            with contextlib.suppress(Exception):  # sqlite3 busy: the next one will do
                await loop.run_in_executor(self.checkpoints, self._store().checkpoint)

    async def _sweep(self) -> None:
        """Evict games over, or without a client, for longer than `evict_after` seconds."""
        every = max(0.05, min(60.0, self.config.evict_after / 4))
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            for game, room in list(self.rooms.items()):
                idle = now - room.touched
                nobody = not any(room.sockets.values())
                waiting_for_people = room.session.bot_task() is None
                if (
                    idle > self.config.evict_after
                    and nobody
                    and (room.session.is_over or waiting_for_people)
                ):
                    for task in (room.timer, room.bots):
                        if task is not None:
                            task.cancel()
                    del self.rooms[game]
                    await self._db(self._store().evict, game)


def create_app(config: ServerConfig) -> Starlette:
    """The ASGI application: the page at `/`, `POST /api/games`, the websocket at `/ws`."""
    server = _Server(config)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = Starlette(
        routes=[
            Route("/", server.index),
            Route("/api/presets", server.presets),
            Route("/api/games", server.create, methods=["POST"]),
            WebSocketRoute("/ws", server.socket),
        ],
        lifespan=lifespan,
    )
    app.state.xeri = server
    return app

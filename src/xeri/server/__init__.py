"""`xeri serve`: play in the browser, against bots or people, over one websocket per client.

Install it with the `server` extra (`pip install "xeri[server]"`: Starlette,
uvicorn and websockets; storage is the standard library's `sqlite3`), then
run `xeri serve --db games.db --host 127.0.0.1 --port 8000` and open the
page. The docs' "Serve a game" page says what it stores, its security model
and how to put it behind a reverse proxy.

* `GET /` is the page: one static HTML file with its script and style
  inline, shipped in the package (no build step, no CDN).
* `POST /api/games` with `{"rules": "greek", "seats": ["human", "counting"]}`
  (and optionally `"turn": seconds`) makes a game and answers a link per
  human seat, each with a secret token (the database keeps only its
  SHA-256), and a link to watch.
* `/ws?g=GAME&s=SEAT&t=TOKEN` is a seat's websocket, `/ws?g=GAME` a
  spectator's. On (re)connect the server sends `{"type": "hello"}` then a
  full `{"type": "view", "view": ...}` ([`client_view`][xeri.client_view]);
  a client sends `{"type": "move", "move": TEXT_OR_INDEX, "ply": PLY}` and
  gets the next view, or `{"type": "refused", "code": ..., "message": ...}`.

Every move's rows are committed to SQLite before any client is told;
bots run in processes of their own, never on the event loop; a restart resumes
every unfinished game from the database.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.applications import Starlette

__all__ = ["create_app", "serve"]

_NEEDS = 'xeri serve needs the server extra: pip install "xeri[server]"'


def create_app(db: str, **options: Any) -> Starlette:  # noqa: ANN401  # the settings of ServerConfig
    """The ASGI application, for uvicorn or any ASGI server (one process: games live in memory).

    Args:
        db: the SQLite file (made if missing).
        **options: `workers` (bot processes, 1), `turn_seconds` (None: no timer),
            `bot_delay` (seconds before a bot moves, 0.4), `evict_after` (seconds a
            finished or abandoned game stays in memory, 3600), `rate` and `burst`
            (messages per second a connection may send, 30 and 60), `max_games`,
            `sync` (`"normal"`, the default: every commit is in the operating
            system's hands before clients are told, safe from a killed server but
            not from a power loss; `"full"`: on disk, an `fsync` per commit).

    Returns:
        The Starlette application.

    Raises:
        ImportError: the server extra is not installed.
    """
    try:
        from xeri.server._app import ServerConfig  # noqa: PLC0415  # the optional extra
        from xeri.server._app import create_app as make  # noqa: PLC0415  # the optional extra
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        raise ImportError(_NEEDS) from exc
    return make(ServerConfig(db=db, **options))


def serve(db: str, *, host: str = "127.0.0.1", port: int = 8000, **options: Any) -> None:  # noqa: ANN401  # as create_app
    """Run the server until interrupted (uvicorn, websockets, frame size capped).

    Args:
        db: the SQLite file.
        host: the address to listen on (the loopback by default: put a reverse
            proxy with TLS in front to serve others).
        port: the port.
        **options: as [`create_app`][xeri.server.create_app].

    Raises:
        ImportError: the server extra is not installed.
    """
    try:
        import uvicorn  # noqa: PLC0415  # the optional extra

        from xeri.server._app import MAX_FRAME  # noqa: PLC0415  # the optional extra
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        raise ImportError(_NEEDS) from exc
    uvicorn.run(
        create_app(db, **options),
        host=host,
        port=port,
        ws="websockets-sansio",
        ws_max_size=MAX_FRAME,
        # Views are compact JSON of a few hundred bytes: compressing each one cost a busy
        # server a tenth of its time on the event loop, and a zlib state per connection.
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
    )

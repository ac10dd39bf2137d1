"""`xeri serve`: run the browser game server (the `server` extra)."""

from __future__ import annotations

import argparse

from xeri._errors import XeriError
from xeri.cli._common import _Io

__all__ = ["_add_serve", "_serve"]


def _add_serve(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser(
        "serve",
        help="serve games in the browser (needs the server extra)",
        description="Serve games in the browser over websockets, stored in a SQLite file. "
        "Needs the server extra: pip install 'xeri[server]'.",
    )
    serve.add_argument("--db", default="games.db", help="the SQLite file (default games.db)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--workers", type=int, default=1, help="bot processes (default 1)")
    serve.add_argument(
        "--turn-seconds",
        type=float,
        default=None,
        help="a bot moves for a player who takes longer (default: no timer)",
    )
    serve.add_argument(
        "--bot-delay", type=float, default=0.4, help="seconds before a bot moves (default 0.4)"
    )
    serve.add_argument(
        "--sync",
        choices=("full", "normal"),
        default="normal",
        help="normal: each commit is in the system's hands before clients are told, safe from "
        "a killed server, not from a power loss (default); full: on disk, an fsync each",
    )
    serve.add_argument(
        "--evict-after",
        type=float,
        default=3600.0,
        help="seconds a finished or abandoned game stays loaded (default 3600)",
    )


def _serve(args: argparse.Namespace, io: _Io) -> int:
    try:
        from xeri.server import serve  # noqa: PLC0415  # the optional extra, on use
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        raise XeriError(str(exc)) from None
    if args.workers < 1:
        raise XeriError("--workers must be at least 1")
    io.say(f"xeri serve: http://{args.host}:{args.port}/ (games in {args.db}); Ctrl-C stops")
    try:
        serve(
            args.db,
            host=args.host,
            port=args.port,
            workers=args.workers,
            turn_seconds=args.turn_seconds,
            bot_delay=args.bot_delay,
            evict_after=args.evict_after,
            sync=args.sync,
        )
    except ImportError as exc:  # pragma: no cover - the extra is installed in the tests
        raise XeriError(str(exc)) from None
    return 0

"""The server's storage: one SQLite file, the standard library's `sqlite3`, no ORM.

Three tables: `games` (the journal header, its seats' invite tokens as
SHA-256 hashes, timestamps and whether the game is over or evicted), and
`rows` (one journal row per move, keyed by game and place). Every method
runs in one transaction that is committed before it returns: the server
tells clients about a move only after `append` returned. The file is in WAL
mode. With `sync="normal"` (`synchronous=NORMAL`, the server's default) a
commit is written into the WAL without an `fsync`: it is then in the operating
system's hands, so a committed row survives the process being killed (SIGKILL
included), not the machine losing power. With `sync="full"` every commit is
also on disk (an `fsync` each) and survives a power loss too.

A `Store` is used from one thread at a time (the server uses it on its event
loop with `"normal"`, whose commits take tens of microseconds, and on a thread
of its own with `"full"`), and checkpoints from a connection of their own.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Sequence
from typing import Any

__all__ = ["Store", "token_hash"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    header TEXT NOT NULL,
    tokens TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    evicted INTEGER NOT NULL DEFAULT 0,
    options TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS rows (
    game TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,
    row TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
"""


def token_hash(token: str) -> str:
    """The SHA-256 (hex) of an invite token: all the database keeps of it."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class Store:
    """The games and their rows in one SQLite file."""

    def __init__(self, path: str, *, sync: str = "normal") -> None:
        if sync not in ("full", "normal"):
            raise ValueError(f"sync must be 'full' or 'normal', not {sync!r}")
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        # full: every commit is on disk (fsync) before clients are told, and survives a power
        # loss; normal: in WAL mode a commit survives the process being killed, not a power loss.
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        # The WAL is copied into the database by `checkpoint`, from another thread and
        # connection, so that a slow disk does not hold up the commits of moves.
        self._db.execute("PRAGMA wal_autocheckpoint=0")
        self._path = path
        self._checkpointer: sqlite3.Connection | None = None
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        """Close the file (after a last checkpoint)."""
        self.checkpoint()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self._db.close()

    def checkpoint(self) -> None:
        """Copy the committed WAL into the database; commits go on meanwhile (WAL mode)."""
        if self._checkpointer is None:
            self._checkpointer = sqlite3.connect(
                self._path, isolation_level=None, check_same_thread=False
            )
        self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def create(
        self,
        game: str,
        header: dict[str, Any],
        tokens: Sequence[str | None],
        rows: Sequence[dict[str, Any]],
        options: dict[str, Any],
    ) -> None:
        """A new game with its first rows, in one transaction. Tokens are stored hashed."""
        now = time.time()
        hashes = [None if t is None else token_hash(t) for t in tokens]
        with self._transaction() as db:
            db.execute(
                "INSERT INTO games (id, header, tokens, created, updated, options)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (game, json.dumps(header), json.dumps(hashes), now, now, json.dumps(options)),
            )
            db.executemany(
                "INSERT INTO rows (game, n, row) VALUES (?, ?, ?)",
                [(game, r["n"], json.dumps(r, separators=(",", ":"))) for r in rows],
            )

    def append(self, game: str, rows: Sequence[dict[str, Any]], *, over: bool) -> None:
        """Append a move's rows, committed before this returns."""
        self.append_many([(game, rows, over)])

    def append_many(self, moves: Sequence[tuple[str, Sequence[dict[str, Any]], bool]]) -> None:
        """Append the rows of several games' moves in one transaction (a group commit).

        One `fsync` for them all: with `synchronous=FULL` a commit costs a few
        milliseconds whatever it holds, so a busy server commits what came in
        while the last commit was written.
        """
        now = time.time()
        with self._transaction() as db:
            db.executemany(
                "INSERT INTO rows (game, n, row) VALUES (?, ?, ?)",
                [
                    (game, r["n"], json.dumps(r, separators=(",", ":")))
                    for game, rows, _ in moves
                    for r in rows
                ],
            )
            db.executemany(
                "UPDATE games SET updated = ?, over = ? WHERE id = ?",
                [(now, int(over), game) for game, _, over in moves],
            )

    def evict(self, game: str) -> None:
        """Mark a game evicted: a restart does not load it again (its rows stay)."""
        with self._transaction() as db:
            db.execute("UPDATE games SET evicted = 1 WHERE id = ?", (game,))

    def live(self) -> list[tuple[str, dict[str, Any], list[str | None], dict[str, Any]]]:
        """Every game not evicted: id, header, token hashes and options."""
        cur = self._db.execute(
            "SELECT id, header, tokens, options FROM games WHERE evicted = 0 ORDER BY created"
        )
        return [(g, json.loads(h), json.loads(t), json.loads(o)) for g, h, t, o in cur]

    def rows(self, game: str) -> list[dict[str, Any]]:
        """A game's rows in order."""
        cur = self._db.execute("SELECT row FROM rows WHERE game = ? ORDER BY n", (game,))
        return [json.loads(r) for (r,) in cur]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """`BEGIN IMMEDIATE` ... `COMMIT` (or `ROLLBACK` on an error)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> sqlite3.Connection:
        self._db.execute("BEGIN IMMEDIATE")
        return self._db

    def __exit__(self, kind: object, value: object, trace: object) -> None:
        self._db.execute("COMMIT" if kind is None else "ROLLBACK")

"""Run `xeri serve` in a child process on 127.0.0.1 for the server and browser tests."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

SRC = str(Path(__file__).resolve().parent.parent / "src")
LISTED = (
    "import sys; from xeri._io import view; view.MAX_LISTED_MOVES = {}; "
    "from xeri.cli import main; sys.exit(main(sys.argv[1:]))"
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A `xeri serve` child process; `start`, `kill` (SIGKILL) and `stop` (SIGTERM)."""

    def __init__(self, db: Path, *, extra: Sequence[str] = (), listed: int | None = None) -> None:
        self.db = db
        self.listed = listed  # the most moves a view lists, if not the library's
        self.port = free_port()
        self.extra = list(extra)
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
        log = self.db.with_suffix(".log")
        with log.open("ab") as err:
            start = ["-m", "xeri"]
            if self.listed is not None:  # views that count their moves per card
                start = ["-c", LISTED.format(self.listed)]
            self.proc = subprocess.Popen(
                [sys.executable, *start, "serve", "--db", str(self.db)]
                + ["--port", str(self.port), "--bot-delay", "0"]
                + self.extra,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"xeri serve ended: {log.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/api/presets", timeout=1).read()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("xeri serve did not start in 60 seconds")

    def children(self) -> list[int]:
        """The live child processes of the server (its bot processes)."""
        assert self.proc is not None
        try:
            text = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def new_game(self, rules: str, seats: Sequence[str], **more: Any) -> dict[str, Any]:
        body = json.dumps({"rules": rules, "seats": list(seats), **more}).encode()
        req = urllib.request.Request(
            self.url + "/api/games",
            data=body,
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        return json.loads(urllib.request.urlopen(req, timeout=10).read())  # type: ignore[no-any-return]

    def ws_url(self, link: str) -> str:
        q = parse_qs(link.split("#", 1)[1])
        url = f"ws://127.0.0.1:{self.port}/ws?g={q['g'][0]}"
        if "s" in q:
            url += f"&s={q['s'][0]}&t={q['t'][0]}"
        return url


@contextmanager
def running(db: Path, *, extra: Sequence[str] = (), listed: int | None = None) -> Iterator[Server]:
    server = Server(db, extra=extra, listed=listed)
    server.start()
    try:
        yield server
    finally:
        server.stop()

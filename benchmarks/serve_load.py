"""Load on `xeri serve`: many concurrent games of one human-like client against the counting bot.

Run: `python benchmarks/serve_load.py [--games 1000] [--seconds 40] [--think 8]` (about
a minute and a half with these defaults).

Starts `xeri serve` in a child process on 127.0.0.1 (a fresh SQLite file in a
temporary folder, one bot process), makes `--games` GREEK games of a human
seat against the counting bot, and opens one websocket per game from this
process (connecting them all at once is a storm the first seconds absorb:
`--warmup` seconds of play are not measured; at their end this process's
objects are frozen for its garbage collector, whose full collections over a
thousand clients would otherwise pause it for a tenth of a second and more).
Each client waits a human's think time (uniform from half to one and a half
times `--think` seconds) before each of its moves. The latency of a move is
the time from sending it to receiving the view that shows it played (the
rows committed first). The run stops by itself after `--seconds` of play,
stops the server and prints: the load average of the machine before and
after (on a shared machine the tail of the latency is mostly the wait for a
core), games held (connected and playing at the end), moves measured, p50
and p99 latency, the server's CPU per move (its own process and its bot
process, both moves counted: the human's and the bot's), the share of one
core each process used while playing, the clients' own full garbage
collections, and the server's memory per game (resident memory with the
games, less before them). `--profile FILE` runs the server under cProfile;
`--core N` pins it to one core.
Loopback only; nothing leaves the machine. Figures, not tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

SRC = str(Path(__file__).resolve().parent.parent / "src")
PROFILED = """
import cProfile, signal, sys
from xeri.cli import main
profile = cProfile.Profile()
def stop(*_):
    profile.disable()
    profile.dump_stats(sys.argv[1])
    sys.exit(0)
signal.signal(signal.SIGTERM, stop)  # uvicorn raises the SIGTERM again once it has stopped
profile.enable()
main(sys.argv[2:])
stop()
"""


class Pauses:
    """The collections of the cyclic garbage collector in this process, and how long each took.

    The clients' own pauses delay the views they read: they are counted apart,
    so that a long one is not taken for the server's.
    """

    def __init__(self) -> None:
        self.started = 0.0
        self.full: list[tuple[float, float]] = []  # (when, seconds) of each full collection
        gc.callbacks.append(self._callback)

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
        elif info["generation"] == 2:
            self.full.append((time.monotonic(), time.perf_counter() - self.started))


def free_port() -> int:
    """A free TCP port of the loopback."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process and its finished children, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(f) for f in fields[11:15]) / ticks


def rss_bytes(pid: int) -> int:
    """Resident memory of a process."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def children(pid: int) -> list[int]:
    """The live child processes of a process."""
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def tree_cpu(pid: int) -> float:
    """CPU seconds of a process and its live children (the bot pool)."""
    total = cpu_seconds(pid)
    for child in children(pid):
        with contextlib.suppress(OSError):  # a child that just ended
            total += cpu_seconds(child)
    return total


def create(url: str) -> str:
    """A new GREEK game against the counting bot; the human seat's websocket query."""
    body = json.dumps({"rules": "greek", "seats": ["human", "counting"]}).encode()
    req = urllib.request.Request(
        url + "/api/games", data=body, headers={"Content-Type": "application/json"}
    )
    made = json.loads(urllib.request.urlopen(req, timeout=30).read())
    return str(made["links"]["0"].split("#", 1)[1])


async def client(
    ws_url: str,
    *,
    think: float,
    stop_at: float,
    latencies: list[float],
    held: list[int],
    answered: list[int],
    seed: int,
    measure_from: float,
) -> None:
    """One human-like player: think, move, wait for the view that shows the move."""
    rng = random.Random(seed)
    async with connect(ws_url, max_size=2**20, open_timeout=60) as ws:
        sent_at: float | None = None
        sent_ply = -1
        playing = True
        while time.monotonic() < stop_at:
            try:
                raw = await asyncio.wait_for(
                    ws.recv(), timeout=max(0.1, stop_at - time.monotonic())
                )
            except TimeoutError:
                break
            msg = json.loads(raw)
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if sent_at is not None and view["ply"] > sent_ply:
                answered.append(1)
                if sent_at >= measure_from:
                    latencies.append(time.monotonic() - sent_at)
                sent_at = None
            # The view's JSON leaves out the keys at their default (xeri.decode_view).
            if view.get("phase") == "match over":
                playing = False
                break
            if view.get("to_move") == 0 and view.get("moves") and sent_at is None:
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
                if time.monotonic() >= stop_at:
                    break
                sent_ply = view["ply"]
                sent_at = time.monotonic()
                move = rng.randrange(len(view["moves"]))
                await ws.send(json.dumps({"type": "move", "move": move, "ply": sent_ply}))
        if playing:
            held.append(1)


async def run(
    port: int, links: list[str], think: float, seconds: float, warmup: float
) -> tuple[list[float], int, int]:
    """Connect every client, play; the latencies, the games held, the human moves made."""
    latencies: list[float] = []
    held: list[int] = []
    answered: list[int] = []
    start = time.monotonic()
    stop_at = start + warmup + seconds
    tasks = [
        client(
            f"ws://127.0.0.1:{port}/ws?{link}",
            think=think,
            stop_at=stop_at,
            latencies=latencies,
            held=held,
            answered=answered,
            seed=i,
            measure_from=start + warmup,
        )
        for i, link in enumerate(links)
    ]

    async def settle() -> None:
        # Every client is connected by the end of the warm-up: its objects are kept for
        # good, so that the clients' later full collections are short (they are pauses
        # of this process, not of the server, but they would delay the views read).
        await asyncio.sleep(warmup * 0.9)
        gc.collect()
        gc.freeze()

    await asyncio.gather(settle(), *tasks, return_exceptions=True)
    gc.unfreeze()
    return latencies, len(held), len(answered)


def main() -> None:
    """Start the server, load it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="concurrent games (1000)")
    parser.add_argument("--seconds", type=float, default=40.0, help="seconds of play (40)")
    parser.add_argument("--think", type=float, default=8.0, help="mean think time, s (8)")
    parser.add_argument(
        "--warmup", type=float, default=10.0, help="seconds of play not measured, first (10)"
    )
    parser.add_argument("--sync", default="normal", choices=("full", "normal"), help="as serve's")
    parser.add_argument(
        "--core",
        type=int,
        default=None,
        help="pin the server and its bot process to this one core (default: not pinned)",
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="run the server under cProfile and write its stats here"
    )
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="xeri-load-"))
    port = free_port()
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with (folder / "serve.log").open("wb") as log:
        serve = ["serve", "--db", str(folder / "games.db"), "--port", str(port)]
        serve += ["--bot-delay", "0", "--workers", "1", "--sync", args.sync]
        command = [sys.executable, "-m", "xeri", *serve]
        if args.profile:
            command = [sys.executable, "-c", PROFILED, str(Path(args.profile).resolve()), *serve]
        server = subprocess.Popen(
            command,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
    url = f"http://127.0.0.1:{port}"
    if args.core is not None:  # the bot process, started later, inherits it
        os.sched_setaffinity(server.pid, {args.core})
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(url + "/api/presets", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        time.sleep(1.0)  # the bot process has started
        rss_before = rss_bytes(server.pid)
        links = [create(url) for _ in range(args.games)]
        load_before = os.getloadavg()[0]
        cpu_before, own_before = tree_cpu(server.pid), cpu_seconds(server.pid)
        wall_start, mine = time.monotonic(), time.process_time()
        pauses = Pauses()
        latencies, held, made = asyncio.run(run(port, links, args.think, args.seconds, args.warmup))
        cpu = tree_cpu(server.pid) - cpu_before
        own = cpu_seconds(server.pid) - own_before
        wall = time.monotonic() - wall_start
        mine = time.process_time() - mine
        gc.callbacks.remove(pauses._callback)
        rss_after = rss_bytes(server.pid)
        load_after = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(folder, ignore_errors=True)
    report(
        args,
        latencies,
        held=held,
        made=made,
        cpu=cpu,
        own=own / wall,
        bots=(cpu - own) / wall,
        clients=mine / wall,
        memory=(rss_after - rss_before) / args.games,
        load=(load_before, load_after),
        pauses=[d for t, d in pauses.full if t >= wall_start + args.warmup],
    )


def report(
    args: argparse.Namespace,
    latencies: list[float],
    *,
    held: int,
    made: int,
    cpu: float,
    own: float,
    bots: float,
    clients: float,
    memory: float,
    load: tuple[float, float],
    pauses: list[float],
) -> None:
    """Print the figures of a run."""
    if not latencies:
        print("no move was measured")
        return
    latencies.sort()

    def p(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1e3

    moves = 2 * made  # each human move is answered by a bot move
    pinned = "not pinned" if args.core is None else f"pinned to core {args.core}"
    print(
        f"sync={args.sync}, think {args.think} s, {args.warmup:.0f} s of warm-up not measured,"
        f" server {pinned}"
    )
    print(f"load average of the machine: {load[0]:.1f} before, {load[1]:.1f} after")
    print(f"games: {args.games} made, {held} held to the end of {args.seconds:.0f} s of play")
    print(f"moves measured: {len(latencies)} human moves (of {made} made, warm-up included)")
    print(f"latency: p50 {p(0.50):.1f} ms, p99 {p(0.99):.1f} ms, max {latencies[-1] * 1e3:.1f} ms")
    print(f"  mean {statistics.mean(latencies) * 1e3:.1f} ms")
    print(
        f"server CPU per move: {cpu / moves * 1e3:.2f} ms (server and bot process, {moves} moves)"
    )
    print(
        f"share of one core while playing: server process {own:.0%}, bot process {bots:.0%},"
        f" the clients (this process) {clients:.0%}"
    )
    longest = f", the longest {max(pauses) * 1e3:.0f} ms" if pauses else ""
    print(f"the clients' full garbage collections while measured: {len(pauses)}{longest}")
    print(f"memory per game: {memory / 1024:.1f} KiB")


if __name__ == "__main__":
    main()

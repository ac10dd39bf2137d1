"""The bots' processes of `xeri serve`: each reads tasks on its stdin, writes moves on its stdout.

A bot's decision is made in another process, never on the event loop: the
server writes each [`BotTask`][xeri.session.BotTask], pickled and
length-prefixed, into a worker's stdin, and the worker answers one line per
task, `"<id> <index>"` (or `"<id> !<error>"`). The server reads the
answers from the pipe on the event loop itself: no thread of the server
takes part (the standard library's process pool uses two, whose hand-offs
of the interpreter lock cost a busy server more than the bots' pickles). A
worker ends when its stdin closes, so a killed server leaves none behind.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pickle
import sys
from pathlib import Path

from xeri import XeriError
from xeri.session import BotTask, run_bot

__all__ = ["BotPool", "BotProcessError"]

_HEAD = 4  # the length of a task's pickle, big-endian


class BotProcessError(XeriError):
    """A bot's process failed a task, or ended before answering it."""


class _Worker:
    """One process and the tasks it was given that it has not answered yet."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.pending: dict[int, asyncio.Future[int]] = {}
        self.ids = itertools.count()
        self.reader = asyncio.create_task(self._read())

    @property
    def alive(self) -> bool:
        return not self.reader.done()

    def run(self, task: BotTask) -> asyncio.Future[int]:
        if not self.alive:
            raise BotProcessError("the bot process ended")
        n = next(self.ids)
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.pending[n] = future
        data = pickle.dumps((n, task), protocol=pickle.HIGHEST_PROTOCOL)
        stdin = self.proc.stdin
        if stdin is None:  # pragma: no cover - made with a pipe
            raise BotProcessError("the bot process has no input")
        stdin.write(len(data).to_bytes(_HEAD, "big") + data)
        return future

    async def _read(self) -> None:
        stdout = self.proc.stdout
        try:
            if stdout is None:  # pragma: no cover - made with a pipe
                return
            while True:
                line = await stdout.readline()
                if not line:
                    return
                n, answer = line.decode("utf-8").rstrip("\n").split(" ", 1)
                future = self.pending.pop(int(n), None)
                if future is None or future.done():
                    continue
                if answer.startswith("!"):
                    future.set_exception(BotProcessError(answer[1:]))
                else:
                    future.set_result(int(answer))
        finally:
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(BotProcessError("the bot process ended"))
            self.pending.clear()

    async def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 5)
        except TimeoutError:  # pragma: no cover - a bot stuck in a decision
            with contextlib.suppress(ProcessLookupError):
                self.proc.kill()
        self.reader.cancel()


class BotPool:
    """`workers` bot processes, started when first needed; a task goes to the least busy."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._procs: list[_Worker] = []
        self._starting: asyncio.Lock | None = None

    async def run(self, task: BotTask) -> int:
        """The index of the move the task's bot chooses, made in a bot process."""
        worker = await self._worker()
        return await worker.run(task)

    async def _worker(self) -> _Worker:
        self._procs = [w for w in self._procs if w.alive]  # a dead one is replaced
        if len(self._procs) < self.workers:
            if self._starting is None:
                self._starting = asyncio.Lock()
            async with self._starting:
                if len(self._procs) < self.workers:
                    self._procs.append(_Worker(await _spawn()))
        return min(self._procs, key=lambda w: len(w.pending))

    async def close(self) -> None:
        """End every process (each finishes the task it is on)."""
        procs, self._procs = self._procs, []
        for worker in procs:
            await worker.close()


async def _spawn() -> asyncio.subprocess.Process:
    # The child imports this very package: the folder it was imported from comes first.
    here = str(Path(__file__).resolve().parent.parent.parent)
    path = os.pathsep.join([here, *filter(None, [os.environ.get("PYTHONPATH")])])
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "xeri.server._bots",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env=dict(os.environ, PYTHONPATH=path),
    )


def _main() -> None:
    """A bot process: answer every task read on stdin until it closes."""
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)  # a bot that prints writes on stderr, never into the answers
    sys.stdout = sys.stderr
    tasks = sys.stdin.buffer
    while True:
        head = tasks.read(_HEAD)
        if len(head) < _HEAD:
            return
        # Pickles from the server that started this process, and from nobody else.
        n, task = pickle.loads(tasks.read(int.from_bytes(head, "big")))
        try:
            answer = str(run_bot(task))
        except Exception as exc:  # told to the server, which goes on
            answer = "!" + f"{type(exc).__name__}: {exc}".replace("\n", " ")
        answers.write(f"{n} {answer}\n")
        answers.flush()


if __name__ == "__main__":
    _main()

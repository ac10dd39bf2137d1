"""A game table without I/O: one match, its seats and its journal, for servers to wrap.

A [`Session`][xeri.session.Session] holds one match and answers what a
server is asked: a seat submits a move (by its text or its index in the
view, with the view's `ply`), a bot's turn comes, a player's clock runs out.
Each answer is an [`Update`][xeri.session.Update]: the journal rows to
append ([`journal_row`][xeri.journal_row]), then the views to send
([`client_view`][xeri.client_view]), one per seat and one for spectators;
or a [`Refusal`][xeri.session.Refusal] naming what was wrong, which changes
nothing. The session does no I/O, keeps no clock and starts no thread:
store the rows first, then send the views, and a crash loses nothing a
client has seen. [`Session.resume`][xeri.session.Session.resume] makes the
same session again from the header and the rows, and it goes on exactly as
the first would have: chance and the bots draw from generators seeded by a
secret in the header and the move's place, never from the clock.

Seats are `"human"` (a person, or a program of yours, submits its moves),
`"empty"` (a human seat nobody has taken yet) or a bot kind of
[`BOT_KINDS`][xeri.session.BOT_KINDS]. Search bots take tens of
milliseconds a move: a server with an event loop should run them elsewhere,
with [`Session.bot_task`][xeri.session.Session.bot_task] and
[`run_bot`][xeri.session.run_bot] in a process pool, and hand the move back
to [`Session.bot_move`][xeri.session.Session.bot_move].

Examples:
    >>> import xeri
    >>> from xeri.session import Session
    >>> session, first = Session.new(xeri.GREEK, ("human", "counting"), seed="s1", dealer=1)
    >>> {row["seat"] for row in first.rows}  # the deal (and any redeal): chance's
    {None}
    >>> view = session.view(0)
    >>> update = session.submit(0, 0, view["ply"])  # the first of view["moves"]
    >>> [row["seat"] for row in update.rows], session.ply
    ([0], 1)
    >>> bot = session.bot_turn()
    >>> [row["seat"] for row in bot.rows], session.ply
    ([1], 2)
    >>> session.submit(0, 0, ply=1).code
    'stale'
    >>> again = Session.resume(session.header, first.rows + update.rows + bot.rows)
    >>> again.view(0) == session.view(0)
    True
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

import attrs

from xeri import (
    GameState,
    IllegalMoveError,
    InvalidStateError,
    Move,
    Observation,
    PlayerMove,
    RuleSet,
    XeriError,
    apply,
    chance_move,
    client_view,
    journal_header,
    journal_row,
    legal_moves,
    load_journal,
    observe,
    parse_move,
    start,
)
from xeri.bots import Bot, registry

__all__ = [
    "BOT_KINDS",
    "FALLBACK",
    "SEAT_KINDS",
    "BotTask",
    "Refusal",
    "Session",
    "Update",
    "run_bot",
]

BOT_KINDS: Final[Mapping[str, Bot]] = {kind.name: kind.make() for kind in registry()}
"""The bots a seat may be, by name, as the bot registry names its kinds
([`registry`][xeri.bots.registry]): `"counting"` is strong and fast, the search
bots (`"pimc"`, `"ismcts"`, at their defaults) stronger and slower."""
SEAT_KINDS: Final = ("human", "empty", *BOT_KINDS)
"""Every kind of seat: a person, a seat nobody has taken, or a bot."""
FALLBACK: Final = "counting"
"""The bot that moves for a human seat whose time ran out
([`Session.timeout`][xeri.session.Session.timeout])."""


class Update:
    """What happened: rows to store, then views to send, in that order.

    The views are made when first read (a server that writes its own text,
    with [`client_view_json`][xeri.client_view_json], never pays for them).
    Two updates are equal when their rows, `ply` and views are.
    """

    __slots__ = ("_state", "_views", "ply", "rows")

    def __init__(self, *, rows: tuple[dict[str, Any], ...], ply: int, state: GameState) -> None:
        self.rows = rows
        """The journal rows of the moves made, in order (chance's deals included): append them."""
        self.ply = ply
        """The session's `ply` after the moves: the player moves of the match so far."""
        self._state = state
        self._views: tuple[tuple[int | None, dict[str, Any]], ...] | None = None

    @property
    def views(self) -> tuple[tuple[int | None, dict[str, Any]], ...]:
        """`(seat, view)` for every seat, then `(None, view)` for spectators, after the moves."""
        if self._views is None:
            state = self._state
            seats: list[int | None] = [*range(state.rules.seats), None]
            self._views = tuple((s, client_view(state, s)) for s in seats)
        return self._views

    def view(self, seat: int | None) -> dict[str, Any]:
        """The view for one seat, or for spectators (None).

        Raises:
            IllegalMoveError: `seat` is not None nor a seat of the match.
        """
        return client_view(self._state, seat)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Update):
            return NotImplemented
        return (self.rows, self.ply, self.views) == (other.rows, other.ply, other.views)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and mutable inside

    def __repr__(self) -> str:
        return f"Update(rows={self.rows!r}, ply={self.ply!r})"


@attrs.frozen(kw_only=True)
class Refusal:
    """A submission refused: nothing changed. `code` says why, `message` says it in words."""

    code: str
    """`"not a seat"`, `"out of turn"`, `"stale"` (a `ply` other than the session's),
    `"illegal"` (not a legal move, or not a move) or `"over"` (the match is over)."""
    message: str
    """What was wrong; it never names a card the seat cannot see."""


@attrs.frozen(kw_only=True)
class BotTask:
    """A bot's decision, picklable for a process pool ([`run_bot`][xeri.session.run_bot])."""

    kind: str
    """The bot's kind, a key of `BOT_KINDS`."""
    observation: Observation = attrs.field(repr=False)
    """What the bot's seat sees (an [`Observation`][xeri.Observation]): nothing more."""
    seed: str = attrs.field(repr=False)
    """The seed of the bot's generator for this decision."""
    ply: int
    """The session's `ply` when the task was made: a move for another `ply` is refused."""
    seat: int
    """The seat the bot plays."""


def run_bot(task: BotTask) -> int:
    """Make a bot's decision: the index of its move among the seat's legal moves.

    A plain function of a picklable task, to run in another process.

    Args:
        task: from [`Session.bot_task`][xeri.session.Session.bot_task].

    Returns:
        The index of the move in `legal_moves(task.observation)`.
    """
    bot = BOT_KINDS[task.kind]
    move = bot.choose(task.observation, random.Random(task.seed))
    return legal_moves(task.observation).index(move)


class Session:
    """One match at a table: its state, seats, journal header and `ply`.

    Make one with [`new`][xeri.session.Session.new] or
    [`resume`][xeri.session.Session.resume]. Not safe to share between
    threads without a lock; every method is quick but the bots' (see the
    [`xeri.session`][xeri.session] page).
    """

    __slots__ = ("_header", "_ply", "_rows", "_seats", "_seed", "_state")

    def __init__(
        self, header: dict[str, Any], state: GameState, rows: int, ply: int, seed: str
    ) -> None:
        self._header = header
        self._state = state
        self._rows = rows
        self._ply = ply
        self._seed = seed
        self._seats: tuple[str, ...] = tuple(header["seats"])

    # -- making one --

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        seats: Sequence[str],
        *,
        seed: str | None = None,
        dealer: int | None = None,
    ) -> tuple[Session, Update]:
        """A new match, dealt: the session and the first update (the deal's rows, the views).

        Args:
            rules: the rule set.
            seats: one kind per seat, from `SEAT_KINDS`.
            seed: the secret that seeds chance and the bots (kept in the header's
                `extra`); a fresh random one by default. Anyone who knows it can
                work out every deal: keep the header as secret as the deal rows.
            dealer: the first dealer; drawn from the seed by default.

        Returns:
            The session, and the update of the first deal.

        Raises:
            InvalidStateError: a seat kind is unknown, or there is not one per seat.
        """
        if not isinstance(rules, RuleSet):
            raise InvalidStateError(f"a rule set is needed, not {type(rules).__name__}")
        kinds = tuple(seats)
        if len(kinds) != rules.seats or not all(k in SEAT_KINDS for k in kinds):
            raise InvalidStateError(
                f"seats must be {rules.seats} kinds among {', '.join(SEAT_KINDS)}"
            )
        if seed is None:
            seed = secrets.token_hex(16)
        if type(seed) is not str or not 1 <= len(seed) <= 128:
            raise InvalidStateError("seed must be a string of 1 to 128 characters")
        if dealer is None:
            dealer = random.Random(f"{seed}:dealer").randrange(rules.seats)
        header = journal_header(rules, dealer=dealer, seats=kinds, extra={"seed": seed})
        session = cls(header, start(rules, dealer=dealer), 0, 0, seed)
        rows = session._chance()
        return session, session._update(rows)

    @classmethod
    def resume(cls, header: Mapping[str, Any], rows: Iterable[Mapping[str, Any]]) -> Session:
        """The session a header and its rows were written by, where the rows end.

        If a crash came between a move's rows, the chance rows that should follow
        the last one are made again, exactly as they were: call
        [`pending`][xeri.session.Session.pending] and store what it returns.

        Args:
            header: the session's `header`.
            rows: every row its updates gave, in order.

        Returns:
            The session, equal in every answer to the one that wrote the rows.

        Raises:
            InvalidStateError: the journal does not load (see
                [`load_journal`][xeri.load_journal]), or its seats or seed are not a session's.
        """
        rows = list(rows)
        record, state = load_journal(header, rows)
        kinds = header["seats"]
        extra = header["extra"]
        if not all(k in SEAT_KINDS for k in kinds):
            raise InvalidStateError(f"the header's seats must be among {', '.join(SEAT_KINDS)}")
        if "seed" not in extra:
            raise InvalidStateError("the header's extra has no seed: not a session's journal")
        ply = sum(1 for row in rows if row["seat"] is not None)
        return cls(dict(header), state, len(record.moves), ply, extra["seed"])

    def pending(self) -> Update | None:
        """Make the chance moves due now, if any (after a resume cut short); else None."""
        if not self._state.is_chance:
            return None
        return self._update(self._chance())

    # -- what it holds --

    @property
    def header(self) -> dict[str, Any]:
        """The journal header: store it once, before any row. Secret: it holds the seed."""
        return dict(self._header)

    @property
    def state(self) -> GameState:
        """The whole state, every hidden card included: never send it to a client."""
        return self._state

    @property
    def ply(self) -> int:
        """The player moves of the match so far; a submission must give it."""
        return self._ply

    @property
    def rows(self) -> int:
        """How many journal rows the session has given so far."""
        return self._rows

    @property
    def seats(self) -> tuple[str, ...]:
        """The kind of each seat."""
        return self._seats

    @property
    def to_move(self) -> int | None:
        """The seat to move, or None once the match is over."""
        return self._state.to_move

    @property
    def is_over(self) -> bool:
        """Whether the match is over."""
        return self._state.is_over

    def view(self, seat: int | None) -> dict[str, Any]:
        """The client view of a seat, or of a spectator (None): what to send on (re)connect.

        Raises:
            IllegalMoveError: `seat` is not None nor a seat.
        """
        return client_view(self._state, seat)

    # -- what it is asked --

    def submit(self, seat: int, move: str | int, ply: int) -> Update | Refusal:
        """A seat's move, by its text (either notation) or its index in the view's `moves`.

        Args:
            seat: the seat that sent it.
            move: the move's text, or its index among the seat's legal moves.
            ply: the `ply` of the view the move was chosen from.

        Returns:
            The update, or a refusal (out of turn, stale, illegal, over) that changes nothing.
        """
        state = self._state
        if type(seat) is not int or not 0 <= seat < state.rules.seats:
            return Refusal(code="not a seat", message="the seat is not a seat of the match")
        if state.is_over:
            return Refusal(code="over", message="the match is over")
        if type(ply) is not int or ply != self._ply:
            return Refusal(
                code="stale",
                message=f"the move was made for ply {ply!r}, and the game is at ply {self._ply}",
            )
        if seat != state.to_move:
            return Refusal(
                code="out of turn", message=f"seat {state.to_move} is to move, not seat {seat}"
            )
        chosen = self._choose(seat, move)
        if isinstance(chosen, Refusal):
            return chosen
        return self._play(chosen)

    def bot_task(self) -> BotTask | None:
        """The decision a bot must make now, or None when no bot is to move."""
        seat = self._state.to_move
        if seat is None or self._seats[seat] not in BOT_KINDS:
            return None
        return self._task(seat, self._seats[seat])

    def bot_move(self, task: BotTask, index: int) -> Update | Refusal:
        """Play the move [`run_bot`][xeri.session.run_bot] chose for a task.

        Refused as stale if the session moved on since the task was made.
        """
        if task.ply != self._ply or task.seat != self._state.to_move:
            return Refusal(code="stale", message="the game moved on since the bot was asked")
        return self.submit(task.seat, index, task.ply)

    def bot_turn(self) -> Update | None:
        """If a bot is to move, its move (made here, in this thread); else None."""
        task = self.bot_task()
        if task is None:
            return None
        answer = self.bot_move(task, run_bot(task))
        if isinstance(answer, Refusal):  # pragma: no cover - a bot's move is legal, made now
            raise IllegalMoveError(f"the bot's move was refused: {answer.message}")
        return answer

    def timeout(self, seat: int) -> Update | Refusal:
        """The seat's time ran out: the fallback bot ([`FALLBACK`][xeri.session.FALLBACK]) moves.

        Refused (out of turn) unless the seat is to move.
        """
        state = self._state
        if state.is_over:
            return Refusal(code="over", message="the match is over")
        if seat != state.to_move or type(seat) is not int:
            return Refusal(code="out of turn", message=f"seat {seat!r} is not to move")
        task = self._task(seat, FALLBACK)
        return self.submit(seat, run_bot(task), self._ply)

    # -- inside --

    def _task(self, seat: int, kind: str) -> BotTask:
        return BotTask(
            kind=kind,
            observation=observe(self._state, seat),
            seed=f"{self._seed}:bot:{self._ply}",
            ply=self._ply,
            seat=seat,
        )

    def _choose(self, seat: int, move: object) -> PlayerMove | Refusal:
        state = self._state
        if type(move) is int:
            moves = legal_moves(state)
            if not 0 <= move < len(moves):
                return Refusal(
                    code="illegal", message=f"the move index must be from 0 to {len(moves) - 1}"
                )
            return moves[move]
        if type(move) is not str:
            return Refusal(code="illegal", message="a move is its text or its index")
        try:
            return parse_move(state, move, seat=seat)
        except IllegalMoveError as exc:
            return Refusal(code="illegal", message=str(exc))

    def _play(self, move: PlayerMove) -> Update:
        state = self._state
        seat = state.to_move
        self._state = apply(state, move)
        rows = [journal_row(self._rows, move, seat=seat)]
        self._rows += 1
        self._ply += 1
        rows.extend(self._chance())
        return self._update(rows)

    def _chance(self) -> list[dict[str, Any]]:
        """The chance moves due now (a deal, its redeals), each drawn from its row's seed."""
        rows = []
        while self._state.is_chance:
            rng = random.Random(f"{self._seed}:chance:{self._rows}")
            move: Move = chance_move(self._state, rng)
            try:
                self._state = apply(self._state, move)
            except XeriError as exc:  # pragma: no cover - chance_move's moves are legal
                raise InvalidStateError(f"chance's move failed: {exc}") from exc
            rows.append(journal_row(self._rows, move, seat=None))
            self._rows += 1
        return rows

    def _update(self, rows: list[dict[str, Any]]) -> Update:
        return Update(rows=tuple(rows), ply=self._ply, state=self._state)

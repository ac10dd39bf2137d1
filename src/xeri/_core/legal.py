"""The legal moves of a position as a lazy, countable sequence: [`LegalMoves`][xeri.LegalMoves]."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any, SupportsIndex, overload

from xeri._cards import Card
from xeri._core.boundary import _moves
from xeri._errors import RuleSetError
from xeri._moves import PlayerMove
from xeri._table import TableItem

if TYPE_CHECKING:
    from xeri._rules.ruleset import RuleSet

__all__ = ["LegalMoves"]


def _definer(cls: Any, name: str) -> Any:  # noqa: ANN401  # a class, or None
    """The class of `cls`'s MRO that defines `name`, or None."""
    return next((c for c in cls.__mro__ if name in c.__dict__), None)


@cache
def _lazy(cls: type) -> tuple[bool, bool]:
    """Whether a capture rule's class counts and indexes, and tests membership, by itself.

    The optional methods count only when they are defined by the class that
    defines `moves` (and, for `has_move`, `play`) or by a subclass of it: a
    subclass that overrides `moves` alone is listed, as any custom rule.
    """

    def fits(name: str, *deps: str) -> bool:
        owner = _definer(cls, name)
        if owner is None or not callable(owner.__dict__[name]):
            return False
        return all((d := _definer(cls, dep)) is not None and issubclass(owner, d) for dep in deps)

    return fits("count_moves", "moves") and fits("move_at", "moves"), fits(
        "has_move", "moves", "play"
    )


@cache
def _by_card(cls: type) -> bool:
    """Whether a capture rule's class counts its moves per card by itself (`count_by_card`).

    Only when the class that defines it also defines, or inherits from the
    definer of, `moves`, `count_moves` and `move_at`, as for the other
    optional methods.
    """
    owner = _definer(cls, "count_by_card")
    if owner is None or not callable(owner.__dict__["count_by_card"]) or not _lazy(cls)[0]:
        return False
    return all(
        (d := _definer(cls, dep)) is not None and issubclass(owner, d)
        for dep in ("moves", "count_moves", "move_at")
    )


class LegalMoves(tuple[PlayerMove, ...]):
    """The legal moves of the seat to move, as [`legal_moves`][xeri.legal_moves] gives them.

    A read-only sequence in the order of
    [`move_sort_key`][xeri.move_sort_key] (by card, then kind, then
    what the move takes or builds) that lists nothing until asked, in the
    manner of python-chess's `LegalMoveGenerator`:

    * `len(moves)` counts them; `moves[i]` (negative indices too) gives one;
      for the built-in capture rules both cost time polynomial in the size of
      the table, whatever the options, however many moves there are;
    * `move in moves` checks one move the way [`apply`][xeri.apply] does,
      without listing the others;
    * iterating (or `tuple(moves)`) lists them all, as a sorted tuple without
      duplicates; a slice gives a tuple;
    * it is a `tuple` and equals the tuple of the same moves, so code written
      for the tuples `legal_moves` used to return keeps working. Comparing,
      hashing or pickling a sequence not yet listed lists it.

    On a small table (up to 10 items, 16 for a `SumCapture` without
    `multi_capture` and `multi_builds`), and for a custom rule that only
    lists, the moves are listed at once and the sequence is their tuple;
    otherwise they are counted and indexed by the capture rule's optional
    `count_moves`, `move_at` and `has_move` (see
    [`CaptureRule`][xeri.CaptureRule]). In a game of the built-in
    [`PileCapture`][xeri.PileCapture], `legal_moves` gives the mover's hand
    itself, a plain tuple: every card of it is a move. The repr shows the count, never a
    card: the moves are the mover's own, but a repr may end up in a log.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GERMAN, rng=random.Random(3))
        >>> moves = xeri.legal_moves(state)
        >>> moves
        <LegalMoves: 12 moves>
        >>> moves[0] in moves, moves[-1] == tuple(moves)[-1], moves == tuple(moves)
        (True, True, True)
    """

    __slots__ = ()

    def __repr__(self) -> str:
        """`<LegalMoves: N moves>`: a count, never a card."""
        n = len(self)
        return f"<LegalMoves: {n:,} move{'' if n == 1 else 's'}>"

    def __setattr__(self, name: str, value: object) -> None:
        """Refused: the sequence is read-only."""
        raise AttributeError(f"LegalMoves is read-only: cannot set {name}")

    def count_by_card(self) -> tuple[tuple[Card, int], ...]:
        """How many moves play each card: `(card, count)` pairs in the order of the moves.

        The moves sort by card first, so each card's moves are the indices
        from the sum of the counts before it on. Found without listing the
        moves: by the capture rule's optional `count_by_card` when it has
        one (the built-in [`SumCapture`][xeri.SumCapture] does), else by
        bisection over the indices (a few `moves[i]` per card). Only the
        cards that have a move are named; the counts add up to `len(moves)`.

        Returns:
            A new tuple of `(card, count)` pairs, cards in deck order.

        Examples:
            >>> import random, xeri
            >>> state = xeri.new_game(xeri.CASSINO, rng=random.Random(3))
            >>> moves = xeri.legal_moves(state)
            >>> counts = moves.count_by_card()
            >>> sum(n for _, n in counts) == len(moves), counts[0][0] == moves[0].card
            (True, True)
        """
        out: list[tuple[Card, int]] = []
        for move in tuple.__iter__(self):
            card = move.card
            if out and out[-1][0] is card:
                out[-1] = (card, out[-1][1] + 1)
            else:
                out.append((card, 1))
        return tuple(out)


class _Lazy(LegalMoves):
    """The moves of a position counted and indexed by the capture rule, listed only if asked.

    The tuple itself is empty: every operation goes through the methods below.
    """

    _rules: RuleSet
    _table: tuple[TableItem, ...]
    _hand: tuple[Card, ...]
    _seat: int
    _listed: tuple[PlayerMove, ...] | None
    _count: int | None
    _state: bool
    """Whether the position is a state's, where a hand always has a move; a
    position a bot weighs (a reply with one card of a hand) may have none."""

    def __new__(
        cls,
        rules: RuleSet,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int,
        *,
        state: bool = True,
    ) -> _Lazy:
        """Made by [`legal_moves`][xeri.legal_moves]."""
        self = super().__new__(cls)
        put = object.__setattr__
        put(self, "_rules", rules)
        put(self, "_table", table)
        put(self, "_hand", hand)
        put(self, "_seat", seat)
        put(self, "_listed", None)
        put(self, "_count", None)
        put(self, "_state", state)
        return self

    def __reduce__(self) -> tuple[object, ...]:
        """Pickled as the plain sequence of its moves."""
        return (LegalMoves, (self._list(),))

    def _list(self) -> tuple[PlayerMove, ...]:
        listed = self._listed
        if listed is None:
            listed = _moves(self._rules, self._table, self._hand, self._seat)
            object.__setattr__(self, "_listed", listed)
        return listed

    def _call(self, name: str, *args: object) -> object:
        """A lazy method of the capture rule, its failure named as the engine names it."""
        rules = self._rules
        method = getattr(rules.capture, name)
        try:
            return method(self._table, self._hand, self._seat, *args)
        except IndexError:
            raise
        except Exception as exc:
            raise RuleSetError(
                f"{rules.name}: the capture rule's {name} raised {type(exc).__name__}"
            ) from exc

    def __len__(self) -> int:
        """The number of legal moves, counted without listing them."""
        listed = self._listed
        if listed is not None:
            return len(listed)
        count = self._count
        if count is None:
            got = self._call("count_moves")
            if type(got) is not int or got < 0 or (not got and self._hand and self._state):
                raise RuleSetError(
                    f"{self._rules.name}: the capture rule's count_moves returned "
                    f"{got!r}, not a number of moves"
                )
            count = got
            object.__setattr__(self, "_count", count)
        return count

    @overload
    def __getitem__(self, index: SupportsIndex) -> PlayerMove: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[PlayerMove, ...]: ...

    def __getitem__(self, index: SupportsIndex | slice) -> PlayerMove | tuple[PlayerMove, ...]:
        """The move of an index in the sorted order (negative from the end); a slice as a tuple.

        Raises:
            IndexError: the index is out of range.
            TypeError: the index is neither an int nor a slice.
        """
        listed = self._listed
        if listed is not None:
            return listed[index]
        n = len(self)
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(n)))
        try:
            i = index.__index__()
        except AttributeError:
            raise TypeError(
                f"LegalMoves indices must be integers or slices, not {type(index).__name__}"
            ) from None
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("LegalMoves index out of range")
        return self._call("move_at", i)  # type: ignore[return-value]  # a move

    def __contains__(self, move: object) -> bool:
        """Whether `move` is legal, checked as `apply` checks it when the rule can."""
        listed = self._listed
        if listed is not None:
            return move in listed
        if _lazy(self._rules.capture.__class__)[1]:
            return bool(self._call("has_move", move))
        return move in self._list()

    def count_by_card(self) -> tuple[tuple[Card, int], ...]:
        """How many moves play each card, by the rule or by bisection (see the base class)."""
        listed = self._listed
        if listed is not None:
            return _listed(listed).count_by_card()
        n = len(self)
        if _by_card(self._rules.capture.__class__):
            got = self._call("count_by_card")
            if not (
                type(got) is tuple
                and all(
                    type(pair) is tuple
                    and len(pair) == 2
                    and type(pair[0]) is Card
                    and type(pair[1]) is int
                    and pair[1] > 0
                    for pair in got
                )
                and sum(pair[1] for pair in got) == n
            ):
                raise RuleSetError(
                    f"{self._rules.name}: the capture rule's count_by_card returned "
                    f"{type(got).__name__}, not the (card, count) pairs of the moves"
                )
            return got
        out: list[tuple[Card, int]] = []
        start = 0
        while start < n:  # the moves sort by card first: each card's moves are a run
            card = self[start].card
            lo, hi = start + 1, n
            while lo < hi:  # the first index past the run of `card`
                mid = (lo + hi) // 2
                if self[mid].card.index > card.index:
                    hi = mid
                else:
                    lo = mid + 1
            out.append((card, lo - start))
            start = lo
        return tuple(out)

    def __iter__(self) -> Iterator[PlayerMove]:
        """The moves in order (listed once, then kept)."""
        return iter(self._list())

    def __reversed__(self) -> Iterator[PlayerMove]:
        """The moves from the last."""
        return reversed(self._list())

    def __bool__(self) -> bool:
        """True: a hand that holds a card always has a move."""
        return bool(self._hand) or bool(len(self))

    def __eq__(self, other: object) -> bool:
        """Equal to a tuple of the same moves in the same order."""
        if other is self:
            return True
        if not isinstance(other, tuple):
            return NotImplemented
        if len(self) != len(other):
            return False
        return self._list() == tuple(other)

    def __ne__(self, other: object) -> bool:
        """The opposite of `==`."""
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self) -> int:
        """The hash of the tuple of the moves (which lists them)."""
        return hash(self._list())

    def __lt__(self, other: Any) -> bool:  # noqa: ANN401  # as a tuple compares
        """As the tuples compare."""
        return bool(self._list() < tuple(other))

    def __le__(self, other: Any) -> bool:  # noqa: ANN401  # as a tuple compares
        """As the tuples compare."""
        return bool(self._list() <= tuple(other))

    def __gt__(self, other: Any) -> bool:  # noqa: ANN401  # as a tuple compares
        """As the tuples compare."""
        return bool(self._list() > tuple(other))

    def __ge__(self, other: Any) -> bool:  # noqa: ANN401  # as a tuple compares
        """As the tuples compare."""
        return bool(self._list() >= tuple(other))

    def __add__(self, other: Any) -> Any:  # noqa: ANN401  # as a tuple adds
        """The moves, then `other`'s items, as a tuple."""
        return self._list() + tuple(other)

    def __mul__(self, times: SupportsIndex) -> tuple[PlayerMove, ...]:
        """The moves repeated, as a tuple."""
        return self._list() * times

    def count(self, value: object) -> int:
        """How many times `value` is a legal move: 0 or 1."""
        return 1 if value in self else 0

    def index(self, value: object, start: SupportsIndex = 0, stop: SupportsIndex = 2**62) -> int:
        """The index of a legal move (listing them).

        Raises:
            ValueError: `value` is not among the moves.
        """
        return self._list().index(value, start, stop)  # type: ignore[arg-type,unused-ignore]  # a move


def checks_lazily(moves: object) -> bool:
    """Whether `move in moves` checks one move without listing the others (a lazy sequence).

    True for a sequence counted by a rule that also checks a move by itself
    (`has_move`, as the built-in rules do); False for a listed sequence, a
    plain tuple, or a rule whose membership would list.
    """
    if not isinstance(moves, _Lazy) or moves._listed is not None:
        return False
    return _lazy(moves._rules.capture.__class__)[1]


def _listed(moves: tuple[PlayerMove, ...]) -> LegalMoves:
    """Moves already known, as the sequence (a tuple copy: no method of Python in the way)."""
    return tuple.__new__(LegalMoves, moves)


def _counted(
    rules: RuleSet,
    table: tuple[TableItem, ...],
    hand: tuple[Card, ...],
    seat: int,
    *,
    state: bool = True,
) -> LegalMoves:
    """The moves of a rule that counts and indexes them by itself, listed only if asked.

    `state` False: the position is not a state's (a reply a bot weighs), and
    may have no move at all (an owner of a build holding one card that
    neither takes nor builds, [D4][rules-d4]).
    """
    return _Lazy(rules, table, hand, seat, state=state)

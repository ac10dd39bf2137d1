"""The legal moves of a position as a lazy, countable sequence: [`LegalMoves`][xeri.LegalMoves]."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, overload

from xeri._cards import Card
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


class LegalMoves(Sequence[PlayerMove]):
    """The legal moves of the seat to move, as [`legal_moves`][xeri.legal_moves] gives them.

    A read-only sequence in the order of
    [`move_sort_key`][xeri._moves.move_sort_key] (by card, then kind, then
    what the move takes or builds) that lists nothing until asked, in the
    manner of python-chess's `LegalMoveGenerator`:

    * `len(moves)` counts them; `moves[i]` (negative indices too) gives one;
      for the built-in capture rules both cost time polynomial in the size of
      the table, whatever the options, however many moves there are;
    * `move in moves` checks one move the way [`apply`][xeri.apply] does,
      without listing the others;
    * iterating (or `tuple(moves)`) lists them all, as a sorted tuple without
      duplicates; a slice gives a tuple;
    * `moves == other` holds when `other` is a tuple or a `LegalMoves` of the
      same moves in the same order, so code that compared the tuples
      `legal_moves` used to return keeps working. It lists both sides (unless
      their lengths differ). Not hashable.

    A capture rule that implements only `moves` is listed on first use, once.
    The repr shows the count and the seat, never a card: the moves are the
    mover's own, but a repr may end up in a log.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GERMAN, rng=random.Random(3))
        >>> moves = xeri.legal_moves(state)
        >>> moves
        <LegalMoves: 12 moves of seat 0>
        >>> moves[0] in moves, moves[-1] == tuple(moves)[-1], moves == tuple(moves)
        (True, True, True)
    """

    __slots__ = ("_count", "_hand", "_listed", "_rules", "_seat", "_table")

    _rules: RuleSet | None
    _table: tuple[TableItem, ...]
    _hand: tuple[Card, ...]
    _seat: int | None
    _listed: tuple[PlayerMove, ...] | None
    _count: int | None

    def __init__(
        self,
        rules: RuleSet | None,
        table: tuple[TableItem, ...],
        hand: tuple[Card, ...],
        seat: int | None,
        *,
        listed: tuple[PlayerMove, ...] | None = None,
    ) -> None:
        """Made by [`legal_moves`][xeri.legal_moves]; `listed` gives moves already known."""
        put = object.__setattr__
        put(self, "_rules", rules)
        put(self, "_table", table)
        put(self, "_hand", hand)
        put(self, "_seat", seat)
        put(self, "_listed", listed if rules is not None else ())
        put(self, "_count", None)

    def __setattr__(self, name: str, value: object) -> None:
        """Refused: the sequence is read-only."""
        raise AttributeError(f"LegalMoves is read-only: cannot set {name}")

    __hash__ = None  # type: ignore[assignment]  # equal to tuples, so not hashable

    @property
    def seat(self) -> int | None:
        """The seat whose moves these are, or None when no seat is to move."""
        return self._seat

    def _capture(self) -> Any:  # noqa: ANN401  # any capture rule, custom ones included
        assert self._rules is not None  # only called before listing
        return self._rules.capture

    def _list(self) -> tuple[PlayerMove, ...]:
        listed = self._listed
        if listed is None:
            from xeri._core.engine import _moves  # noqa: PLC0415  # the engine imports this module

            assert self._rules is not None  # listed is () without rules
            listed = _moves(self._rules, self._table, self._hand, self._seat)  # type: ignore[arg-type]  # a seat when rules are set
            object.__setattr__(self, "_listed", listed)
        return listed

    def _call(self, name: str, *args: object) -> object:
        """A lazy method of a custom capture rule, its failure named as the engine names it."""
        rules = self._rules
        assert rules is not None  # only while not listed
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
        """The number of legal moves, counted without listing them when the rule can."""
        listed = self._listed
        if listed is not None:
            return len(listed)
        count = self._count
        if count is None:
            if _lazy(self._capture().__class__)[0]:
                got = self._call("count_moves")
                if type(got) is not int or got < 0 or (not got and self._hand):
                    assert self._rules is not None
                    raise RuleSetError(
                        f"{self._rules.name}: the capture rule's count_moves returned "
                        f"{got!r}, not a number of moves"
                    )
                count = got
            else:
                count = len(self._list())
            object.__setattr__(self, "_count", count)
        return count

    @overload
    def __getitem__(self, index: int) -> PlayerMove: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[PlayerMove, ...]: ...

    def __getitem__(self, index: int | slice) -> PlayerMove | tuple[PlayerMove, ...]:
        """The move of an index in the sorted order (negative from the end); a slice as a tuple.

        Raises:
            IndexError: the index is out of range.
            TypeError: the index is neither an int nor a slice.
        """
        listed = self._listed
        if listed is not None:
            return listed[index]
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        if type(index) is not int:
            if not hasattr(index, "__index__"):
                raise TypeError(
                    f"LegalMoves indices must be integers or slices, not {type(index).__name__}"
                )
            index = index.__index__()
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("LegalMoves index out of range")
        if self._listed is not None:  # listed while counting
            return self._listed[index]
        if not _lazy(self._capture().__class__)[0]:
            return self._list()[index]
        return self._call("move_at", index)  # type: ignore[return-value]  # a move

    def __contains__(self, move: object) -> bool:
        """Whether `move` is legal, checked as `apply` checks it when the rule can."""
        listed = self._listed
        if listed is not None:
            return move in listed
        if _lazy(self._capture().__class__)[1]:
            return bool(self._call("has_move", move))
        return move in self._list()

    def __iter__(self) -> Iterator[PlayerMove]:
        """The moves in order (listed once, then kept)."""
        return iter(self._list())

    def __reversed__(self) -> Iterator[PlayerMove]:
        """The moves from the last."""
        return reversed(self._list())

    def __eq__(self, other: object) -> bool:
        """Equal to a tuple or a `LegalMoves` of the same moves in the same order."""
        if isinstance(other, LegalMoves):
            if other is self:
                return True
        elif not isinstance(other, tuple):
            return NotImplemented
        if len(self) != len(other):
            return False
        return self._list() == tuple(other)

    def __ne__(self, other: object) -> bool:
        """The opposite of `==`."""
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __bool__(self) -> bool:
        """True when there is a move: while the mover holds a card."""
        listed = self._listed
        if listed is not None:
            return bool(listed)
        return bool(self._hand) or bool(len(self))

    def __repr__(self) -> str:
        """`<LegalMoves: N moves of seat S>`: a count, never a card."""
        if self._seat is None:
            return "<LegalMoves: no moves, no seat to move>"
        n = len(self)
        return f"<LegalMoves: {n:,} move{'' if n == 1 else 's'} of seat {self._seat}>"

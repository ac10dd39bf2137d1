"""Counting and unranking sets of table items without listing them.

A family of sets is described by an automaton over the items of a
*universe* sorted in the order moves sort by (`item_sort_key`): each item
has a *letter*; reading the items of a set in order from a start state
through `step` ends in a state that `accept` says is a member or not. The
number of members that extend a prefix depends only on the state the
prefix reaches and the position after it, so one memo gives:

* the number of members, `count()`;
* the member of a given rank in lexicographic order (a set before its
  extensions), `at(rank)`, with one count per item tried at each depth.

The cost is the number of `(position, state)` pairs reached, not the number
of members: the capture rules keep their states small (a sum up to ten, or
the set of ways the cards so far divide into groups, see
`xeri._families.sums.lazy`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence

__all__ = ["DEAD", "LexSets"]

DEAD: Hashable = None
"""The state from which no set is a member, whatever follows."""

if sys.getrecursionlimit() < 1000:  # pragma: no cover  # the universe is at most 52 deep
    sys.setrecursionlimit(1000)


class LexSets:
    """The members of a family of item sets, counted and unranked through an automaton."""

    __slots__ = ("_accept", "_letters", "_memo", "_start", "_step", "_steps", "items")

    def __init__(
        self,
        items: Sequence[object],
        letters: Sequence[Hashable],
        start: Hashable,
        step: Callable[[Hashable, Hashable, int], Hashable],
        accept: Callable[[Hashable], bool],
    ) -> None:
        self.items = tuple(items)
        """The universe, sorted."""
        self._letters = tuple(letters)
        self._start = start
        self._step = step  # (state, letter, position after the item) -> state or DEAD
        self._accept = accept
        self._memo: dict[tuple[int, Hashable], int] = {}
        self._steps: dict[tuple[Hashable, int], Hashable] = {}

    def _next(self, state: Hashable, pos: int) -> Hashable:
        key = (state, pos)
        got = self._steps.get(key, self)
        if got is self:
            got = self._steps[key] = self._step(state, self._letters[pos], pos + 1)
        return got

    def _completions(self, pos: int, state: Hashable) -> int:
        """How many sets T of the items from `pos` on take `state` to a member."""
        if state is DEAD:
            return 0
        key = (pos, state)
        memo = self._memo
        got = memo.get(key)
        if got is None:
            if pos == len(self._letters):
                got = 1 if self._accept(state) else 0
            else:
                got = self._completions(pos + 1, state) + self._completions(
                    pos + 1, self._next(state, pos)
                )
            memo[key] = got
        return got

    def count(self) -> int:
        """The number of members."""
        return self._completions(0, self._start)

    def at(self, rank: int) -> tuple[object, ...]:
        """The member of rank `rank` (0 first) in lexicographic order, as sorted items.

        Raises:
            IndexError: `rank` is not below `count()`.
        """
        if not 0 <= rank < self.count():
            raise IndexError(rank)
        chosen: list[object] = []
        state = self._start
        pos = 0
        n = len(self._letters)
        while True:
            if self._accept(state):
                if rank == 0:
                    return tuple(chosen)
                rank -= 1
            for e in range(pos, n):
                nxt = self._next(state, e)
                c = self._completions(e + 1, nxt)
                if rank < c:
                    chosen.append(self.items[e])
                    state, pos = nxt, e + 1
                    break
                rank -= c
            else:  # pragma: no cover  # the counts say a member lies ahead
                raise AssertionError("the counts of a family of sets disagree")

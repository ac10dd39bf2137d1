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
from math import comb

__all__ = ["DEAD", "DownSets", "LexSets"]

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


class DownSets:
    """The same as `LexSets` for an automaton that reads a set's items from the last.

    Some families have far fewer states when the items are read from the
    largest (the groups of a sum, see `xeri._families.sums.lazy`). Items
    with equal letters next to each other form a *block*: the automaton
    reads the chosen items of a block as a count, `step(state, letter, j)`
    being the state after the `j`-th of them. The count is one pass over
    the blocks from the last, keeping the states reached by the subsets of
    the blocks above each one, with their numbers. A member of a given rank
    in lexicographic order is found by deciding each item in order from the
    first: the members whose items below position `k` are the chosen ones
    number the sum, over the states reached above, of whether reading the
    chosen items after that state ends in a member, which is kept per
    block and state.

    The empty set is never a member.
    """

    __slots__ = ("_accept", "_blocks", "_chains", "_start", "_step", "_tops", "_total", "items")

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
        self._start = start
        self._step = step  # (state, letter, how many of the block read) -> state or DEAD
        self._accept = accept
        blocks: list[tuple[int, int, Hashable]] = []  # (first position, size, letter)
        for k, letter in enumerate(letters):
            if blocks and blocks[-1][2] == letter:
                first, size, _ = blocks[-1]
                blocks[-1] = (first, size + 1, letter)
            else:
                blocks.append((k, 1, letter))
        self._blocks = blocks
        self._chains: list[dict[Hashable, list[Hashable]]] = [{} for _ in blocks]
        tops: list[dict[Hashable, int]] = [{}] * (len(blocks) + 1)
        tops[len(blocks)] = {start: 1}
        for b in range(len(blocks) - 1, -1, -1):
            size = blocks[b][1]
            binomials = [comb(size, d) for d in range(size + 1)]
            here: dict[Hashable, int] = {}
            get = here.get
            chain_of = self._chain
            for state, ways in tops[b + 1].items():
                for new, times in zip(chain_of(b, state), binomials, strict=False):
                    here[new] = get(new, 0) + ways * times
            tops[b] = here
        self._tops = tops  # tops[b]: the states after the subsets of the blocks from b on
        total = sum(ways for state, ways in tops[0].items() if accept(state))
        self._total = total - (1 if accept(start) else 0)

    def _chain(self, b: int, state: Hashable) -> list[Hashable]:
        """The states after reading 0, 1, ... items of block `b` after `state`, until DEAD."""
        chains = self._chains[b]
        got = chains.get(state)
        if got is None:
            _, size, letter = self._blocks[b]
            got = [state]
            for j in range(1, size + 1):
                state = self._step(state, letter, j)
                if state is DEAD:
                    break
                got.append(state)
            chains[got[0]] = got
        return got

    def count(self) -> int:
        """The number of members."""
        return self._total

    def at(self, rank: int) -> tuple[object, ...]:
        """The member of rank `rank` (0 first) in lexicographic order, as sorted items.

        Raises:
            IndexError: `rank` is not below `count()`.
        """
        if not 0 <= rank < self._total:
            raise IndexError(rank)
        accept, blocks, tops = self._accept, self._blocks, self._tops
        chosen: list[int] = []
        counts: list[int] = []  # the items chosen in each block passed
        memo: list[dict[Hashable, bool]] = []

        def ends(b: int, state: Hashable) -> bool:
            """Whether reading the chosen items of the blocks below `b` after `state` accepts."""
            if state is DEAD:
                return False
            if b == 0:
                return accept(state)
            table = memo[b - 1]
            got = table.get(state)
            if got is None:
                chain = self._chain(b - 1, state)
                c = counts[b - 1]
                got = table[state] = c < len(chain) and ends(b - 1, chain[c])
            return got

        start = self._start
        pending = False  # whether the chosen items alone are yet to be counted
        for b, (first, size, _) in enumerate(blocks):
            memo.append({})
            # For the states above the block: which counts of the block's items then end
            # in a member, given the items chosen below; states alike are added up.
            patterns: dict[tuple[bool, ...], int] = {}
            for state, ways in tops[b + 1].items():
                chain = self._chain(b, state)
                key = tuple(ends(b, after) for after in chain)
                patterns[key] = patterns.get(key, 0) + ways
            alone = self._chain(b, start)
            c = 0
            for k in range(first, first + size):
                if pending:  # the chosen items alone come before any set that extends them
                    pending = False
                    if c < len(alone) and ends(b, alone[c]):
                        if rank == 0:
                            return tuple(self.items[i] for i in chosen)
                        rank -= 1
                after = first + size - k - 1  # items of the block after k
                with_k = 0
                for key, ways in patterns.items():
                    for d in range(min(after, len(key) - c - 2) + 1):
                        if key[c + 1 + d]:
                            with_k += ways * comb(after, d)
                if rank < with_k:
                    chosen.append(k)
                    c += 1
                    pending = True
                else:
                    rank -= with_k
            counts.append(c)
        if pending and rank == 0 and ends(len(blocks), start):
            return tuple(self.items[i] for i in chosen)
        raise AssertionError("the counts of a family of sets disagree")  # pragma: no cover

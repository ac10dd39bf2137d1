"""Counting and unranking sets of table items without listing them.

A family of sets is described by an automaton; its members are found in
lexicographic order of their items (sorted as moves sort them,
`item_sort_key`), a set before its extensions. Two kinds:

* `LexSets` reads the items of a set in order from a start state through
  `step` to a state that `accept` says is a member or not. The number of
  members that extend a prefix depends only on the state the prefix
  reaches and the position after it, so one memo gives `count()` and
  `at(rank)`, with one count per item tried at each depth. The cost is the
  number of `(position, state)` pairs reached (a sum up to ten, say).
* `ClassSets` is for families where items of one class (the cards of one
  value) are interchangeable: the automaton reads how many items of each
  class a set holds, the classes in an order of its own, and is minimised
  once built. Its cost is the number of states it reaches, whatever the
  items' order (see `xeri._families.sums.lazy` for the groups of a sum).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from math import comb

__all__ = ["DEAD", "ClassSets", "LexSets"]

DEAD: Hashable = None
"""The state from which no set is a member, whatever follows."""

if sys.getrecursionlimit() < 1000:  # pragma: no cover  # the universe is at most 52 deep
    sys.setrecursionlimit(1000)


class LexSets:
    """The members of a family of item sets, counted and unranked through an automaton."""

    __slots__ = ("_accept", "_counts", "_letters", "_start", "_step", "_steps", "items")

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
        self._counts: list[dict[Hashable, int]] = []
        """By position `p`, each state reached there and how many sets T of the items from
        `p` on take it to a member; filled on first use."""
        self._steps: list[dict[Hashable, Hashable]] = []
        """By position `p`, each state reached there and the state after taking item `p`."""

    def _levels(self) -> list[dict[Hashable, int]]:
        """`_counts`, worked out level by level: forward the states, back their counts.

        The states reached at position `p` are those of `p - 1` (its item left
        out) and their steps (taken); the counts go back from the last level,
        where a state counts 1 when it is a member. No recursion, one step per
        reachable `(position, state)`.
        """
        counts = self._counts
        if counts or self._start is DEAD:
            return counts
        step, letters = self._step, self._letters
        n = len(letters)
        levels: list[list[Hashable]] = [[self._start]]
        steps: list[dict[Hashable, Hashable]] = []
        for p in range(n):
            letter = letters[p]
            row: dict[Hashable, Hashable] = {}
            after: dict[Hashable, None] = {}
            for state in levels[p]:
                after[state] = None
                got = row[state] = step(state, letter, p + 1)
                if got is not DEAD:
                    after[got] = None
            steps.append(row)
            levels.append(list(after))
        accept = self._accept
        below = {state: (1 if accept(state) else 0) for state in levels[n]}
        counts = [below]
        for p in range(n - 1, -1, -1):
            row = steps[p]
            here: dict[Hashable, int] = {}
            for state in levels[p]:
                got = row[state]
                here[state] = below[state] + (below[got] if got is not DEAD else 0)
            counts.append(here)
            below = here
        counts.reverse()
        self._steps = steps
        self._counts = counts
        return counts

    def count(self) -> int:
        """The number of members."""
        counts = self._levels()
        return counts[0][self._start] if counts else 0

    def members(self) -> list[tuple[object, ...]]:
        """Every member in lexicographic order, as `at(0)`, `at(1)`, ... give them.

        Listed in one walk that only enters prefixes some member extends: the
        cost is the number of members times the number of items.
        """
        out: list[tuple[object, ...]] = []
        if not self.count():
            return out
        counts, steps = self._counts, self._steps
        chosen: list[object] = []
        items = self.items
        n = len(self._letters)
        accept = self._accept

        def walk(pos: int, state: Hashable) -> None:
            if accept(state):
                out.append(tuple(chosen))
            for e in range(pos, n):
                nxt = steps[e][state]
                if nxt is not DEAD and counts[e + 1][nxt]:
                    chosen.append(items[e])
                    walk(e + 1, nxt)
                    chosen.pop()

        walk(0, self._start)
        return out

    def at(self, rank: int) -> tuple[object, ...]:
        """The member of rank `rank` (0 first) in lexicographic order, as sorted items.

        Raises:
            IndexError: `rank` is not below `count()`.
        """
        if not 0 <= rank < self.count():
            raise IndexError(rank)
        counts, steps = self._counts, self._steps
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
                nxt = steps[e][state]
                c = counts[e + 1][nxt] if nxt is not DEAD else 0
                if rank < c:
                    chosen.append(self.items[e])
                    state, pos = nxt, e + 1
                    break
                rank -= c
            else:  # pragma: no cover  # the counts say a member lies ahead
                raise AssertionError("the counts of a family of sets disagree")


class ClassSets:
    """Sets of items that a predicate on how many items of each *class* they hold decides.

    Items of one class are interchangeable: whether a set is a member
    depends only on its count of items of each class. A layered automaton
    reads the classes one at a time, in an `order` of its choosing (not the
    items' order): `successors(state, c, m)` are the states after the set's
    `0, 1, ..., m` items of class `c` (each maybe DEAD), and `accept(state)`
    says, after the last class, whether the set is a member. The automaton is explored once and
    minimised (states with the same future merged, level by level from the
    last), then:

    * `count()` is one pass over it, each count `x` of a class of `m`
      items weighing `comb(m, x)`;
    * `at(rank)` decides the items in their own order: the members that
      hold exactly the chosen items before item `e` and hold `e` number a
      pass with the count of each class fixed below by the items chosen
      and free up to the items after `e`. The passes from the first level
      down to a class and from the last level up to it are kept, so
      deciding the items of one class in a row costs one level each.

    The empty set is never a member.
    """

    __slots__ = ("_classes", "_level", "_rows", "_sizes", "_start", "_total", "items")

    def __init__(  # noqa: PLR0917  # the automaton's parts
        self,
        items: Sequence[object],
        classes: Sequence[int],
        order: Sequence[int],
        start: Hashable,
        successors: Callable[[Hashable, int, int], Sequence[Hashable]],
        accept: Callable[[Hashable], bool],
    ) -> None:
        self.items = tuple(items)
        """The universe, sorted."""
        if not order:
            raise ValueError("a family of sets reads at least one class")
        self._classes = tuple(classes)  # the class of each item
        self._level = {c: level for level, c in enumerate(order)}
        sizes = [0] * len(order)
        for c in classes:
            sizes[self._level[c]] += 1
        self._sizes = sizes
        self._rows, self._start = _minimise(_explore(start, order, sizes, successors, accept))
        total = self._through([tuple(comb(m, x) for x in range(m + 1)) for m in sizes])
        state = self._start
        for rows in self._rows:  # the empty set: no item of any class
            if state < 0:
                break
            state = rows[state][0]
        self._total = total - (1 if state == 0 else 0)

    def _forward(self, level: int, alpha: list[int], weights: tuple[int, ...]) -> list[int]:
        """The weighted states of the next level, from those of `level`."""
        rows = self._rows[level]
        size = len(self._rows[level + 1]) if level + 1 < len(self._rows) else 1
        out = [0] * size
        for s, a in enumerate(alpha):
            if a:
                for t, w in zip(rows[s], weights, strict=True):
                    if t >= 0 and w:
                        out[t] += a * w
        return out

    def _backward(self, level: int, beta: list[int], weights: tuple[int, ...]) -> list[int]:
        """The weighted completions of the states of `level`, from those of the next."""
        out = []
        for row in self._rows[level]:
            got = 0
            for t, w in zip(row, weights, strict=True):
                if t >= 0 and w:
                    got += w * beta[t]
            out.append(got)
        return out

    def _through(self, weights: list[tuple[int, ...]]) -> int:
        """The weighted number of members, with `weights[level][x]` for `x` items of the class."""
        if self._start < 0:
            return 0
        alpha = [0] * len(self._rows[0])
        alpha[self._start] = 1
        for level in range(len(self._rows)):
            alpha = self._forward(level, alpha, weights[level])
        return alpha[0]

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
        walk = _Walk(self)
        chosen: list[int] = []
        pos = 0
        classes, level_of = self._classes, self._level
        while True:
            if chosen and walk.member():
                if rank == 0:
                    return tuple(self.items[i] for i in chosen)
                rank -= 1
            for e in range(pos, len(classes)):
                level = level_of[classes[e]]
                walk.decide(level, take=False)  # e is no longer free: chosen now, or passed over
                count = walk.with_one(level)
                if rank < count:
                    chosen.append(e)
                    walk.decide(level, take=True)
                    pos = e + 1
                    break
                rank -= count
            else:  # pragma: no cover  # the counts say a member lies ahead
                raise AssertionError("the counts of a family of sets disagree")


def _explore(
    start: Hashable,
    order: Sequence[int],
    sizes: list[int],
    successors: Callable[[Hashable, int, int], Sequence[Hashable]],
    accept: Callable[[Hashable], bool],
) -> list[list[list[int]]]:
    """The states reached level by level: for each, its successors' indices (-1 for DEAD).

    The last level's states are their verdicts: 0 a member, -1 not.
    """
    last = len(order) - 1
    layer: list[Hashable] = [start]
    explored: list[list[list[int]]] = []
    for level, c in enumerate(order):
        index: dict[Hashable, int] = {}
        following: list[Hashable] = []
        rows: list[list[int]] = []
        for state in layer:
            row: list[int] = []
            for new in successors(state, c, sizes[level]):
                if new is DEAD:
                    row.append(-1)
                    continue
                i = index.get(new)
                if i is None:
                    if level == last:
                        i = index[new] = 0 if accept(new) else -1
                    else:
                        i = index[new] = len(following)
                        following.append(new)
                row.append(i)
            rows.append(row)
        explored.append(rows)
        layer = following
    return explored


def _minimise(explored: list[list[list[int]]]) -> tuple[list[list[tuple[int, ...]]], int]:
    """The same automaton with the states of the same future merged, and its start (-1 dead).

    From the last level: a state is the row of the merged states after it.
    """
    minimal: list[list[tuple[int, ...]]] = [[] for _ in explored]
    names: list[int] = [0]  # the last level's verdicts are already merged
    for level in range(len(explored) - 1, -1, -1):
        seen: dict[tuple[int, ...], int] = {}
        kept: list[tuple[int, ...]] = []
        renamed: list[int] = []
        for row in explored[level]:
            key = tuple(names[t] if t >= 0 else -1 for t in row)
            if max(key) < 0:
                renamed.append(-1)
                continue
            i = seen.get(key)
            if i is None:
                i = seen[key] = len(kept)
                kept.append(key)
            renamed.append(i)
        minimal[level] = kept
        names = renamed
    return minimal, names[0]


class _Walk:
    """The passes of `ClassSets.at` over its automaton, kept while the items are decided.

    For each class, `fixed` items chosen and `free` not yet decided: `x`
    items of the class weigh `comb(free, x - fixed)`. `alphas[k]` are the
    weighted states reaching level `k`, `betas[k]` the weighted completions
    from it; a change of one class's weights drops those that depend on it.
    """

    __slots__ = ("_alphas", "_betas", "_fixed", "_free", "_sets", "_weights")

    def __init__(self, sets: ClassSets) -> None:
        self._sets = sets
        depth = len(sets._rows)
        self._fixed = [0] * depth
        self._free = list(sets._sizes)
        self._weights = [self._of(level, 0, self._free[level]) for level in range(depth)]
        start = [0] * len(sets._rows[0])
        start[sets._start] = 1
        self._alphas = [start]
        self._betas: dict[int, list[int]] = {depth: [1]}

    def _of(self, level: int, low: int, room: int) -> tuple[int, ...]:
        return tuple(
            comb(room, x - low) if low <= x <= low + room else 0
            for x in range(self._sets._sizes[level] + 1)
        )

    def decide(self, level: int, *, take: bool) -> None:
        """One item of the class of `level` no longer free: chosen if `take`, else passed over."""
        if take:
            self._fixed[level] += 1
        else:
            self._free[level] -= 1
        self._weights[level] = self._of(level, self._fixed[level], self._free[level])
        del self._alphas[level + 1 :]
        for lower in [k for k in self._betas if k <= level]:
            del self._betas[lower]

    def _alpha(self, level: int) -> list[int]:
        alphas = self._alphas
        while len(alphas) <= level:
            k = len(alphas) - 1
            alphas.append(self._sets._forward(k, alphas[k], self._weights[k]))
        return alphas[level]

    def _beta(self, level: int) -> list[int]:
        got = self._betas.get(level)
        if got is None:
            got = self._sets._backward(level, self._beta(level + 1), self._weights[level])
            self._betas[level] = got
        return got

    def with_one(self, level: int) -> int:
        """The members that hold the chosen items, one more item of the class, and free ones."""
        rows = self._sets._rows[level]
        after = self._beta(level + 1)
        weights = self._of(level, self._fixed[level] + 1, self._free[level])
        count = 0
        for s, ways in enumerate(self._alpha(level)):
            if ways:
                got = 0
                for t, w in zip(rows[s], weights, strict=True):
                    if t >= 0 and w:
                        got += w * after[t]
                count += ways * got
        return count

    def member(self) -> bool:
        """Whether the chosen items alone are a member."""
        sets = self._sets
        state = sets._start
        for level, rows in enumerate(sets._rows):
            state = rows[state][self._fixed[level]]
            if state < 0:
                return False
        return True

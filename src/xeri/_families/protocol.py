"""How a played card takes cards: the [`CaptureRule`][xeri.CaptureRule] protocol.

A capture rule is one of the few behaviours that truly differ between the
families of the game. It sees plain values (the table, the mover's hand and
seat, the move) and never a whole game state. The built-ins are
[`PileCapture`][xeri.PileCapture] (Greek family: one pile, the top card
matches, a Jack sweeps; in `xeri._families.pile.rule`) and [`SumCapture`][xeri.SumCapture]
(German Xeri: sums, builds and raises; in `xeri._families.sums.rule`).

This module also holds the values a capture rule hands back to the engine:
[`PlayOutcome`][xeri.PlayOutcome], [`XeriKind`][xeri.XeriKind] and
[`HandNeeds`][xeri.HandNeeds].
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import NamedTuple, Protocol, TypeAlias, runtime_checkable

import attrs

from xeri._cards import Card
from xeri._moves import PlayerMove
from xeri._table import TableItem

__all__ = ["NO_NEEDS", "CaptureRule", "HandNeeds", "OutcomeTuple", "PlayOutcome", "XeriKind"]


class XeriKind(Enum):
    """The kinds of xeri a capture can be."""

    XERI = "xeri"
    """A lone card taken by its own rank ([G7][rules-g7]), or a capture that
    clears the table ([D6][rules-d6]); a sweeper's sweep when its
    [`Sweeper`][xeri.Sweeper] says so ([W2][rules-w2])."""
    JACK_XERI = "jack xeri"
    """A lone Jack taken by a Jack ([G7][rules-g7]): worth `jack_xeri_points`. On an
    open table, a lone card taken by its own rank where the rule names that rank in
    [`jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks] ([W3][rules-w3]), or a
    sweeper's sweep of that kind ([W2][rules-w2])."""


class PlayOutcome(NamedTuple):
    """What a play does, as [`CaptureRule.play`][xeri.CaptureRule.play] returns it.

    A named tuple, so a rule may also return a plain 4-tuple in this order
    (the built-in rules do: a plain tuple is cheaper to make on the hot path).
    """

    hand: tuple[Card, ...]
    """The mover's hand without the card played, still sorted in deck order."""
    table: tuple[TableItem, ...]
    """The new table: items not touched keep their place, new items come last."""
    taken: tuple[Card, ...] | None
    """The cards taken, in the order they lay, the capturing card last; None if nothing was."""
    xeri: XeriKind | None
    """The kind of xeri the capture is, or None (always None when nothing was taken)."""


OutcomeTuple: TypeAlias = (
    "tuple[tuple[Card, ...], tuple[TableItem, ...], tuple[Card, ...] | None, XeriKind | None]"
)
"""What [`CaptureRule.play`][xeri.CaptureRule.play] returns: a
[`PlayOutcome`][xeri.PlayOutcome], or a plain tuple of the same four values."""


def _frozen_cards(value: Iterable[Card]) -> frozenset[Card]:
    return frozenset(value)


def _requirements(value: object) -> tuple[tuple[frozenset[Card], int], ...]:
    pairs = (
        (frozenset(cards), count)
        for cards, count in value  # type: ignore[attr-defined]  # pairs of (cards, count)
    )
    return tuple(sorted(pairs, key=lambda p: (sorted(c.index for c in p[0]), p[1])))


@attrs.frozen(kw_only=True)
class HandNeeds:
    """What a legal play says about the hand it was played from, beyond holding the card.

    Search bots sample the cards a player cannot see
    ([`determinize`][xeri.determinize]); an opponent's past plays narrow
    down what that opponent can hold. A capture rule states it exactly with
    [`CaptureRule.needs`][xeri.CaptureRule.needs]: a hand that holds the
    card played, and that the seat could hold at that point of the round,
    may play the move if and only if it holds none of `none_of` and, for
    every `(cards, count)` of `at_least`, at least `count` of those cards
    (the card played included when it is among them).

    Examples:
        >>> from xeri import DECK, Card, HandNeeds
        >>> sevens = frozenset(c for c in DECK if c.rank == 7)
        >>> needs = HandNeeds(at_least=[(sevens, 2)])
        >>> needs.holds({Card.parse("7C"), Card.parse("7D"), Card.parse("3C")})
        True
    """

    none_of: frozenset[Card] = attrs.field(default=frozenset(), converter=_frozen_cards)
    """Cards the hand cannot have held (with a compulsory capture: every card that could
    have captured)."""
    at_least: tuple[tuple[frozenset[Card], int], ...] = attrs.field(
        default=(), converter=_requirements
    )
    """`(cards, count)` pairs: the hand held at least `count` of `cards` (a card of the
    value of a build it made, say)."""

    def holds(self, hand: frozenset[Card] | set[Card] | tuple[Card, ...]) -> bool:
        """Whether a hand meets these needs.

        Args:
            hand: the cards held when the move was played, the card played included.

        Returns:
            True when the hand holds none of `none_of` and enough of each `at_least` group.
        """
        cards = set(hand)
        if not self.none_of.isdisjoint(cards):
            return False
        return all(len(group & cards) >= count for group, count in self.at_least)


NO_NEEDS = HandNeeds()
"""The needs of a move that any hand holding its card may play."""


@runtime_checkable
class CaptureRule(Protocol):
    """How cards are played and captured.

    Implementations must be frozen attrs classes (so rule sets stay
    comparable, hashable and serialisable), pure, and list moves sorted.
    Besides the methods, a rule declares one capability as a class
    attribute, which the engine, the harness and tools read instead of
    testing for a class:

    * `pile`: True when the table is one pile of which only the top card
      is ever matched, so the cards under it never change which moves are
      legal or what they take (face-down cards may lie there,
      [P3][rules-p3]); the xeri of a pile rule takes a lone card
      of the same rank. False for an open table whose every item can be
      taken, where a xeri clears the table.

    Optional methods, which the engine uses when the class that defines
    them defines `moves` too (a subclass that overrides `moves` alone is
    listed instead), so that [`legal_moves`][xeri.legal_moves] answers
    without listing:

    * `count_moves(table, hand, seat) -> int`: `len(moves(table, hand, seat))`;
    * `move_at(table, hand, seat, index) -> PlayerMove`: `moves(...)[index]`
      for `0 <= index < count_moves(...)`, raising `IndexError` otherwise;
    * `has_move(table, hand, seat, move) -> bool`: `move in moves(...)`
      (used only when the class defines `play` too; the built-in rules
      check the move as `play` does).
    * `count_by_card(table, hand, seat) -> tuple[tuple[Card, int], ...]`:
      `(card, count)` for each card that has a move, in the order of the
      moves, the counts adding up to `count_moves(...)` (used by
      [`LegalMoves.count_by_card`][xeri.LegalMoves.count_by_card] when the
      class defines `count_moves` and `move_at` too; without it the counts
      are found by bisection over `move_at`).

    A rule without them keeps working: its moves are listed by `moves`
    when `legal_moves` is called. The built-in rules have the first three,
    [`SumCapture`][xeri.SumCapture] all four, which it answers in time
    polynomial in the table, whatever the options. A rule may also declare `fast_path()`,
    whether [`rollout`][xeri.rollout] may use its family's fast kernel.

    See the [custom rule sets guide](../custom-rules.md) for a worked example.
    """

    @property
    def pile(self) -> bool:
        """True for one pile matched at its top; False for an open table."""
        ...

    def moves(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
    ) -> tuple[PlayerMove, ...]:
        """Every legal move of a seat, sorted, without duplicates.

        Must not be empty while the hand holds a card.

        Args:
            table: the table items, in the order the rule keeps them.
            hand: the mover's hand, sorted in deck order.
            seat: the mover's seat.

        Returns:
            The legal moves; each plays exactly one card of `hand`.
        """
        ...

    def play(
        self, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int, move: object
    ) -> OutcomeTuple:
        """Check one move and apply it.

        Only the move given needs checking: the engine does not list the
        legal moves first, so this is where an illegal move is refused.

        Args:
            table: the table items before the move.
            hand: the mover's hand before the move.
            seat: the mover's seat.
            move: the move submitted, not yet known to be legal.

        Returns:
            The outcome, a [`PlayOutcome`][xeri.PlayOutcome] or a plain tuple
            in its order: the hand without the card played, the new table,
            the cards taken and the kind of xeri.

        Raises:
            IllegalMoveError: the move is not legal here; the message names why
                and never names a card the mover cannot see.
        """
        ...

    def needs(self, table: tuple[TableItem, ...], move: PlayerMove, seat: int) -> HandNeeds:
        """What a hand must have held for `move` to be legal on `table` (see `HandNeeds`).

        Args:
            table: the table before the move.
            move: a move that was legal for some hand holding its card.
            seat: the mover's seat.

        Returns:
            The needs, exactly: `move in moves(table, hand, seat)` if and only
            if `needs(...).holds(hand)`, for every hand holding the card played
            that the seat could hold there (with the round's plays so far legal
            for it: under [D4][rules-d4], say, a seat always holds a card of the
            value of each build it owns).
            Return [`NO_NEEDS`][xeri.NO_NEEDS] when the card alone decides.
        """
        ...

    def table_cards(self, table: tuple[TableItem, ...]) -> tuple[Card, ...]:
        """Every card on the table, builds flattened, in the order they lie.

        Args:
            table: the table items.

        Returns:
            The cards, for conservation checks and the last capture
            ([G9][rules-g9], [D7][rules-d7]).
        """
        ...

"""The [`GameState`][xeri.GameState]: the whole match as one immutable value.

States are made by [`new_game`][xeri.new_game] and [`apply`][xeri.apply]
(and by loading, which validates them). Derived facts (scores, captured
cards, the winner) are properties computed from the fields, so a state can
never disagree with itself. A [`Take`][xeri.Take] records one capture of the
current round.

## How the engine makes states quickly

A frozen attrs class sets each field with `object.__setattr__`, which
costs about a tenth of a microsecond per field, and the engine makes a
state on every move. So the fields of `GameState` are declared as slots of
a plain class, `_StateSlots`, that `GameState` inherits without adding any.
`_make_state` fills a `_StateSlots` with ordinary attribute stores and then
sets its `__class__` to `GameState` (the memory layout is the same), which
gives an ordinary frozen state, equal to one from the keyword constructor,
in about a quarter of the time. It is generated from the class's fields
(`xeri._immutable`) and takes keywords only; `_state_copier` generates one
that copies a state but for the fields it names, the engine's step from one
turn to the next. Only the engine uses them, with trusted values.
[`Take`][xeri.Take] is made the same way by `_make_take`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import Enum
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Protocol

import attrs

from xeri._cards import Card
from xeri._families.protocol import XeriKind
from xeri._immutable import _fast_copier, _fast_maker, _from_values, _Immutable
from xeri._moves import PlayerMove
from xeri._rules.match import MatchStatus, _checked_status
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult
from xeri._table import TableItem

__all__ = ["GameState", "MatchFacts", "Phase", "Take"]


class Phase(Enum):
    """What happens next in a match."""

    DEAL = "deal"
    """Chance deals the first round (a [`Deal`][xeri.Deal])."""
    REDEAL = "redeal"
    """Chance redeals the initial table: a [`Reshuffle`][xeri.Reshuffle] ([G4][rules-g4]).

    The condition is the rule set's; [F4][rules-f4] is the four-player one.
    """
    PLAY = "play"
    """The seat `to_move` plays a card."""
    ROUND_OVER = "round over"
    """A round has just been scored; chance deals the next one."""
    MATCH_OVER = "match over"
    """The match is decided; no move is legal."""


# Module constants: read on every step of a game loop, they skip the enum
# class's attribute lookup and the hashing of a set test.
_PLAY = Phase.PLAY
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER


class MatchFacts:
    """Facts derived from the rules, the phase, the finished rounds and the round's captures.

    Shared by [`GameState`][xeri.GameState] and
    [`Observation`][xeri.Observation], which hold the same public fields.
    """

    __slots__ = ()

    if TYPE_CHECKING:  # the fields the subclasses hold, read-only here

        @property
        def rules(self) -> RuleSet:
            """The rule set."""

        @property
        def phase(self) -> Phase:
            """What happens next."""

        @property
        def round_results(self) -> tuple[RoundResult, ...]:
            """One result per finished round."""

        @property
        def takes(self) -> Sequence[_TakeLike]:
            """The captures of the current round."""

    @property
    def is_chance(self) -> bool:
        """True when chance must act: [`chance_move`][xeri.chance_move] draws its move.

        Card by card, [`chance_outcomes`][xeri.chance_outcomes] lists the
        possible next cards; the state stays a chance state until the pending
        order is complete.
        """
        phase = self.phase  # chance acts in every phase but play and the end of the match
        return phase is not _PLAY and phase is not _MATCH_OVER

    @property
    def is_round_over(self) -> bool:
        """True between a round's last card and the next deal, and after the match."""
        phase = self.phase
        return phase is _ROUND_OVER or phase is _MATCH_OVER

    @property
    def is_over(self) -> bool:
        """True when the match is decided."""
        return self.phase is _MATCH_OVER

    @property
    def status(self) -> MatchStatus:
        """Where the match stands: over or not, the winner, the current target.

        Raises:
            RuleSetError: a custom match format raised or answered garbage.
        """
        return _checked_status(self.rules, self.round_results)

    @property
    def winner(self) -> int | None:
        """The winning side once the match is over; None before, and for a drawn match."""
        return self.status.winner if self.phase is Phase.MATCH_OVER else None

    @property
    def scores(self) -> tuple[int, ...]:
        """Match totals per side: the sum of the finished rounds' totals."""
        sides = self.rules.num_sides
        return tuple(sum(r.total[s] for r in self.round_results) for s in range(sides))

    @property
    def returns(self) -> tuple[float, ...]:
        """What a learning agent maximises, one float per seat: the match's outcome.

        Once the match is over, +1.0 for every seat of the winning side and
        -1.0 for every other seat; 0.0 for every seat on a drawn match
        ([F8][rules-f8]) and while the match is not over. Partners get the
        same value; with two sides the values add up to zero. The bounds are
        [`RuleSet.returns_bounds`][xeri.RuleSet.returns_bounds].

        Examples:
            >>> import random, xeri
            >>> xeri.new_game(xeri.GREEK_FOUR, rng=random.Random(1)).returns
            (0.0, 0.0, 0.0, 0.0)
        """
        rules = self.rules
        winner = self.winner if self.phase is _MATCH_OVER else None
        if winner is None:
            return (0.0,) * rules.seats
        return tuple(1.0 if side == winner else -1.0 for side in rules.sides)

    @property
    def round_points(self) -> tuple[int, ...]:
        """Each seat's points in the last finished round: its side's round total.

        Partners get the same value. All zeros before the first round ends;
        during a round, still the previous round's. The bounds are
        [`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds].
        """
        results = self.round_results
        rules = self.rules
        if not results:
            return (0,) * rules.seats
        total = results[-1].total
        return tuple(total[side] for side in rules.sides)

    @property
    def last_result(self) -> RoundResult | None:
        """The result of the last finished round, or None before the first one ends."""
        return self.round_results[-1] if self.round_results else None

    @property
    def xeris(self) -> tuple[tuple[XeriKind, ...], ...]:
        """The xeris each side has made in the current round."""
        sides = self.rules.sides
        made: list[list[XeriKind]] = [[] for _ in range(self.rules.num_sides)]
        for take in self.takes:
            if take.xeri is not None:
                made[sides[take.seat]].append(take.xeri)
        return tuple(map(tuple, made))

    @property
    def last_capturer(self) -> int | None:
        """The seat that captured last in the current round, or None."""
        return self.takes[-1].seat if self.takes else None


class _TakeLike(Protocol):
    """A capture as the derived facts read it: `Take` or an observed take."""

    @property
    def seat(self) -> int:
        """The seat that captured."""
        ...

    @property
    def xeri(self) -> XeriKind | None:
        """The kind of xeri, or None."""
        ...


class _TakeSlots(_Immutable):
    """The slots of `Take`, in a plain class, for `_make_take` (see the module docstring)."""

    __slots__ = ("__weakref__", "cards", "seat", "turn", "xeri")


@attrs.frozen(kw_only=True, weakref_slot=False)
class Take(_TakeSlots):
    """One capture in the current round: who took which cards, and whether it was a xeri."""

    seat: int
    """The seat that captured."""
    cards: tuple[Card, ...]
    """The cards taken, the capturing card included, in the order they lay, capturing card last."""
    xeri: XeriKind | None = None
    """The kind of xeri this capture was, or None for an ordinary capture."""
    turn: int | None = None
    """The index of the play in the round's history, None for the last capturer's
    collection of the cards left on the table at the end of the round
    ([G9][rules-g9], [D7][rules-d7]), or -1 for an initial table awarded at the
    deal ([T3][rules-t3])."""


class _StateSlots(MatchFacts, _Immutable):
    """The slots of `GameState`, in a plain class: see the module docstring."""

    __slots__ = (
        "__weakref__",
        "bottom_card",
        "dealer",
        "dealing",
        "hands",
        "history",
        "phase",
        "redealt",
        "replaced",
        "round_results",
        "rules",
        "stock",
        "table",
        "takes",
        "to_move",
    )


@attrs.frozen(kw_only=True, weakref_slot=False)
class GameState(_StateSlots):
    """The whole match: rules, the current round and the finished rounds.

    Make states with [`new_game`][xeri.new_game] and
    [`apply`][xeri.apply]; never change one (it is frozen), and never build
    one by hand except from trusted data: the constructor does not validate.
    Load outside data with [`from_json`][xeri.from_json], which does.
    """

    rules: RuleSet
    """The rule set of the match."""
    phase: Phase
    """What happens next."""
    dealer: int
    """The seat that dealt the current round; with `dealer_per_deal`, the current deal."""
    to_move: int | None
    """The seat to play, or None while chance acts or after the match."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, sorted in deck order."""
    table: tuple[TableItem, ...]
    """The table: the pile bottom to top (Greek family), or the items in the order laid."""
    stock: tuple[Card, ...]
    """The undealt cards, top (next dealt) first."""
    history: tuple[PlayerMove, ...]
    """The moves played in the current round, in order (public, [X2][rules-x2])."""
    takes: tuple[Take, ...]
    """The captures of the current round, in order, the last capturer's collection included."""
    round_results: tuple[RoundResult, ...]
    """One result per finished round."""
    bottom_card: Card | None = None
    """The bottom card shown after the cut under [V1][rules-v1], public all round, or None."""
    redealt: tuple[tuple[Card, ...], ...] = ()
    """The initial tables shown and then redealt in the current round, in order
    ([G4][rules-g4], [F4][rules-f4]): public, and none of their cards can be in a hand
    dealt before the redeal ([X2][rules-x2])."""
    dealing: tuple[Card, ...] = ()
    """While chance deals card by card ([`DealCard`][xeri.DealCard]): the cards of the
    pending deal or redeal order chosen so far, first card first; empty otherwise.
    Hidden from every seat until the order is complete (see [`chance_move`][xeri.chance_move])."""
    replaced: tuple[Card, ...] = ()
    """The initial-table cards an initial-table rule replaced at the deal ([T2][rules-t2]),
    in the order replaced: each was put face up under the stock, so the last lies at the
    bottom and they are dealt last. Public all round."""

    @property
    def captured(self) -> tuple[tuple[Card, ...], ...]:
        """The cards each side has captured in the current round, in the order taken."""
        sides = self.rules.sides
        piles: list[list[Card]] = [[] for _ in range(self.rules.num_sides)]
        for take in self.takes:
            piles[sides[take.seat]].extend(take.cards)
        return tuple(map(tuple, piles))

    @property
    def side_to_move(self) -> int | None:
        """The side of the seat to move, or None."""
        return None if self.to_move is None else self.rules.sides[self.to_move]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its field values in order, without their names, and loaded
        # by the engine's fast path: a pickle is trusted data (it can run any code).
        return (_from_values, (GameState, _FIELD_VALUES(self)))


_make_take = _fast_maker(Take)
"""`Take(...)` from trusted values, quickly: generated from its fields (`xeri._immutable`)."""
_make_state = _fast_maker(GameState)
"""`GameState(...)` from trusted values, quickly: generated from its fields (`xeri._immutable`)."""


_FIELD_VALUES = attrgetter(*(f.name for f in attrs.fields(GameState)))


def _state_copier(*changed: str) -> Callable[..., GameState]:
    """A fast copy of a trusted state but for the fields `changed`, given as keywords."""
    return _fast_copier(GameState, *changed)

"""The [`GameState`][xeri.GameState]: the whole match as one immutable value.

States are made by [`new_game`][xeri.new_game] and [`apply`][xeri.apply]
(and by loading, which validates them). Derived facts (scores, captured
cards, the winner) are properties computed from the fields, so a state can
never disagree with itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Protocol

import attrs

from xeri._fast import make_builder
from xeri.cards import Card
from xeri.match import MatchStatus
from xeri.moves import PlayerMove
from xeri.rules import RuleSet
from xeri.scoring import RoundResult, Take, TakeSlots, XeriKind
from xeri.table import TableItem

__all__ = ["GameState", "MatchFacts", "Phase"]


class Phase(Enum):
    """What happens next in a match."""

    DEAL = "deal"
    """Chance deals the first round (a [`Deal`][xeri.Deal])."""
    REDEAL = "redeal"
    """Chance redeals the initial table (a [`Reshuffle`][xeri.Reshuffle], G4, F4)."""
    PLAY = "play"
    """The seat `to_move` plays a card."""
    ROUND_OVER = "round over"
    """A round has just been scored; chance deals the next one."""
    MATCH_OVER = "match over"
    """The match is decided; no move is legal."""


_CHANCE = frozenset({Phase.DEAL, Phase.REDEAL, Phase.ROUND_OVER})


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
        """True when chance must act: call [`chance_move`][xeri.chance_move]."""
        return self.phase in _CHANCE

    @property
    def is_round_over(self) -> bool:
        """True between a round's last card and the next deal, and after the match."""
        return self.phase is Phase.ROUND_OVER or self.phase is Phase.MATCH_OVER

    @property
    def is_over(self) -> bool:
        """True when the match is decided."""
        return self.phase is Phase.MATCH_OVER

    @property
    def status(self) -> MatchStatus:
        """Where the match stands: over or not, the winner, the current target."""
        return self.rules.match.status(self.round_results, self.rules.num_sides)

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


class _StateSlots(MatchFacts):
    """The slots of `GameState`, in a plain class: see `xeri._fast`."""

    __slots__ = (
        "__weakref__",
        "bottom_card",
        "dealer",
        "hands",
        "history",
        "phase",
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
    """The seat that dealt the current round."""
    to_move: int | None
    """The seat to play, or None while chance acts or after the match."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hand, sorted in deck order."""
    table: tuple[TableItem, ...]
    """The table: the pile bottom to top (Greek family), or the items in the order laid."""
    stock: tuple[Card, ...]
    """The undealt cards, top (next dealt) first."""
    history: tuple[PlayerMove, ...]
    """The moves played in the current round, in order (public, X2)."""
    takes: tuple[Take, ...]
    """The captures of the current round, in order, the last capturer's collection included."""
    round_results: tuple[RoundResult, ...]
    """One result per finished round."""
    bottom_card: Card | None = None
    """The bottom card shown after the cut under V1, public all round; None otherwise."""

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


build_state = make_builder(GameState, _StateSlots)
"""`build_state(rules, phase, dealer, to_move, hands, table, stock, history, takes,
round_results, bottom_card)`: the engine's fast, positional, unvalidated constructor."""

build_take = make_builder(Take, TakeSlots)
"""`build_take(seat, cards, xeri, turn)`: the engine's fast constructor of a `Take`."""

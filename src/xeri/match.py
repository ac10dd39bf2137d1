"""How a match is won: the [`MatchFormat`][xeri.MatchFormat] protocol and its built-ins.

The format is asked after every finished round, from the round results
alone; a match is never decided in the middle of a round.
"""

from __future__ import annotations

from enum import Enum
from typing import Protocol, runtime_checkable

import attrs

from xeri.errors import RuleSetError
from xeri.scoring import RoundResult

__all__ = ["FixedRounds", "MatchFormat", "MatchStatus", "SharedTarget", "TargetScore"]


@attrs.frozen(kw_only=True)
class MatchStatus:
    """Where a match stands after its finished rounds."""

    over: bool
    """True when the match is decided."""
    winner: int | None
    """The winning side, or None (match not over, or drawn)."""
    target: int | None = None
    """The score to reach now, for target formats (it rises under G11)."""


@runtime_checkable
class MatchFormat(Protocol):
    """Decides a match from its finished rounds. Implementations are frozen attrs classes."""

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Where a match stands after its finished rounds.

        Args:
            results: one result per finished round, in order.
            sides: the number of sides.

        Returns:
            Whether the match is over, its winner, and the current target.
        """
        ...

    def max_rounds(self, min_points_per_round: int) -> int | None:
        """An upper bound on the number of rounds of a match, or None if there is none.

        Args:
            min_points_per_round: the fewest points any round gives to some side.
        """
        ...


class SharedTarget(Enum):
    """What happens when several sides reach the target in the same round."""

    RAISE_TARGET = "raise target"
    """The target rises by `step` while two or more sides are at or above it (G11)."""
    HIGHER_TOTAL = "higher total"
    """The higher total wins; equal totals play another round (D9)."""


def _positive(name: str, value: object) -> None:
    if type(value) is not int or value <= 0:
        raise RuleSetError(f"{name} must be a positive int, not {value!r}")


@attrs.frozen(kw_only=True)
class TargetScore:
    """Scores accumulate over rounds; the first side at or above `target` wins (G11, V5, D9)."""

    target: int = 151
    """The score to reach."""
    step: int = 100
    """How much the target rises when several sides reach it together (with RAISE_TARGET)."""
    shared: SharedTarget = SharedTarget.RAISE_TARGET
    """What happens when several sides reach the target in the same round."""

    def __attrs_post_init__(self) -> None:
        _positive("TargetScore.target", self.target)
        _positive("TargetScore.step", self.step)
        if not isinstance(self.shared, SharedTarget):
            raise RuleSetError(f"TargetScore.shared must be a SharedTarget, not {self.shared!r}")

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Apply G11's rising target, or D9's higher total, to the accumulated scores."""
        scores = [sum(r.total[s] for r in results) for s in range(sides)]
        target = self.target
        reached = [s for s in range(sides) if scores[s] >= target]
        if self.shared is SharedTarget.RAISE_TARGET:
            if len(reached) > 1:
                # Raise by whole steps until at most one side is at or above the target,
                # that is until it passes the second best score (no loop: scores may be big).
                second = sorted((scores[s] for s in reached), reverse=True)[1]
                target += ((second - target) // self.step + 1) * self.step
                reached = [s for s in reached if scores[s] >= target]
            if len(reached) == 1:
                return MatchStatus(over=True, winner=reached[0], target=target)
            return MatchStatus(over=False, winner=None, target=target)
        if not reached:
            return MatchStatus(over=False, winner=None, target=target)
        best = max(scores[s] for s in reached)
        leaders = [s for s in reached if scores[s] == best]
        if len(leaders) == 1:
            return MatchStatus(over=True, winner=leaders[0], target=target)
        return MatchStatus(over=False, winner=None, target=target)

    def max_rounds(self, min_points_per_round: int) -> int | None:
        """Without a bound on scores the rising target can always be re-shared: no bound."""
        return None


@attrs.frozen(kw_only=True)
class FixedRounds:
    """A number of rounds agreed in advance; the side that won most rounds wins (F8).

    A round is won by the side with strictly the most points in it; a tie in
    rounds won is a drawn match (`winner` None).
    """

    rounds: int = 4
    """How many rounds are played."""

    def __attrs_post_init__(self) -> None:
        _positive("FixedRounds.rounds", self.rounds)

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Over after `rounds` rounds; the winner has strictly the most round wins."""
        if len(results) < self.rounds:
            return MatchStatus(over=False, winner=None)
        wins = self.round_wins(results, sides)
        best = max(wins)
        leaders = [s for s in range(sides) if wins[s] == best]
        return MatchStatus(over=True, winner=leaders[0] if len(leaders) == 1 else None)

    @staticmethod
    def round_wins(results: tuple[RoundResult, ...], sides: int) -> tuple[int, ...]:
        """How many rounds each side won."""
        winners = [r.winner for r in results]
        return tuple(winners.count(s) for s in range(sides))

    def max_rounds(self, min_points_per_round: int) -> int | None:
        """Exactly `rounds`."""
        return self.rounds

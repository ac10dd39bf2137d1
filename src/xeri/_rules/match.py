"""How a match is won: the [`MatchFormat`][xeri.MatchFormat] protocol and its built-ins.

The format is asked after every finished round, from the round results
alone; a match is never decided in the middle of a round. A format of your
own needs that one method, `status`, in a frozen attrs class.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import attrs

from xeri._errors import RuleSetError, _int_in, _show
from xeri._immutable import _Immutable
from xeri._rules.scoring import RoundResult

if TYPE_CHECKING:
    from xeri._rules.ruleset import RuleSet

__all__ = ["CountOut", "FixedRounds", "MatchFormat", "MatchStatus", "SharedTarget", "TargetScore"]


@attrs.frozen(kw_only=True)
class MatchStatus(_Immutable):
    """Where a match stands after its finished rounds.

    What [`MatchFormat.status`][xeri.MatchFormat.status] returns: the engine
    refuses anything else, or a `winner` that is not a side of the match or
    is given while the match is not over, with a
    [`RuleSetError`][xeri.RuleSetError].
    """

    over: bool
    """True when the match is decided."""
    winner: int | None
    """The winning side, or None (match not over, or drawn)."""
    target: int | None = None
    """The score to reach now, for target formats (it rises under [G11][rules-g11])."""


@runtime_checkable
class MatchFormat(Protocol):
    """Decides a match from its finished rounds.

    One method is all a format needs. Implementations must be frozen attrs
    classes with hashable fields (a rule set refuses any other value), and
    pure: [`apply`][xeri.apply] asks `status` after every round, and a
    format that raises or returns anything but a
    [`MatchStatus`][xeri.MatchStatus] stops the game with a
    [`RuleSetError`][xeri.RuleSetError] naming it.
    """

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Where a match stands after its finished rounds.

        Args:
            results: one result per finished round, in order.
            sides: the number of sides.

        Returns:
            Whether the match is over, its winner, and the current target.
        """
        ...


@lru_cache(maxsize=64)
def _going_on(target: int | None) -> MatchStatus:
    """`MatchStatus(over=False, winner=None, target=target)`, one value per target.

    The answer after most rounds, made once: a status is a frozen value, and
    the round's end asks for one after every round (a rollout ends in one).
    """
    return MatchStatus(over=False, winner=None, target=target)


class SharedTarget(Enum):
    """What happens when several sides reach the target in the same round."""

    RAISE_TARGET = "raise target"
    """The target rises by `step` while two or more sides are at or above it ([G11][rules-g11])."""
    HIGHER_TOTAL = "higher total"
    """The higher total wins; equal totals play another round ([D9][rules-d9])."""


_LIMIT = 1_000_000


def _positive(name: str, value: object) -> None:
    if not _int_in(value, 1, _LIMIT):
        raise RuleSetError(f"{name} must be an int from 1 to {_LIMIT:,}, not {_show(value)}")


@attrs.frozen(kw_only=True)
class TargetScore(_Immutable):
    """Scores accumulate over rounds; the first side at or above `target` wins.

    The rules of [G11][rules-g11], [V5][rules-v5] and [D9][rules-d9].
    """

    target: int = 151
    """The score to reach, from 1 to 1,000,000."""
    step: int = 100
    """How much the target rises when several sides reach it together (with RAISE_TARGET),
    from 1 to 1,000,000."""
    shared: SharedTarget = SharedTarget.RAISE_TARGET
    """What happens when several sides reach the target in the same round."""

    def __attrs_post_init__(self) -> None:
        _positive("TargetScore.target", self.target)
        _positive("TargetScore.step", self.step)
        if not isinstance(self.shared, SharedTarget):
            raise RuleSetError(
                f"TargetScore.shared must be a SharedTarget, not {_show(self.shared)}"
            )

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Apply the rising target of [G11][rules-g11], or the higher total of [D9][rules-d9].

        The scores are those accumulated over the finished rounds.
        """
        # One round, as after every first round, needs no sums; and no side at the
        # target, as after most rounds, needs no list of those that are.
        scores = results[0].total if len(results) == 1 else _running(results, sides)[0]
        target = self.target
        if not scores or max(scores) < target:  # `max` without its keyword: a faster call
            return _going_on(target)
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


def _names(value: object) -> object:
    # A list becomes a tuple; anything else is kept as given, for the checks to name.
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen(kw_only=True)
class CountOut(_Immutable):
    """Scores accumulate; the round that reaches `target` is counted out line by line.

    Cassino's rule ([C7][rules-c7]): the lines of the last round's
    [score sheet][xeri.RoundResult.sheet] are added to the scores one at a
    time, those named in `order` first and in that order, then the others
    in sheet order; the first side at or above `target` wins. When several
    sides reach it on the same line the higher score wins; equal scores go
    on counting, and if the sheet ends with them still equal another round
    is played.

    Examples:
        >>> import xeri
        >>> xeri.CASSINO.match.target, xeri.CASSINO.match.order[:2]
        (21, ('majority', 'most spades'))
    """

    target: int = 21
    """The score to reach, from 1 to 1,000,000."""
    order: tuple[str, ...] = attrs.field(default=(), converter=_names)
    """The names of the sheet's lines counted first, in this order."""

    def __attrs_post_init__(self) -> None:
        _positive("CountOut.target", self.target)
        if not (
            type(self.order) is tuple
            and all(type(n) is str for n in self.order)
            and len(set(self.order)) == len(self.order)
        ):
            raise RuleSetError("CountOut.order must be a tuple of distinct line names (str)")

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Count the last round out in `order` ([C7][rules-c7]); see the class docstring."""
        target = self.target
        if not results:
            return MatchStatus(over=False, winner=None, target=target)
        scores = list(_running(results[:-1], sides)[0])
        sheet = dict(results[-1].sheet)
        names = [n for n in self.order if n in sheet]
        names += [n for n in sheet if n not in self.order]
        for name in names:
            for side, points in enumerate(sheet[name]):
                scores[side] += points
            reached = [s for s in range(sides) if scores[s] >= target]
            if reached:
                best = max(scores[s] for s in reached)
                leaders = [s for s in reached if scores[s] == best]
                if len(leaders) == 1:
                    return MatchStatus(over=True, winner=leaders[0], target=target)
        return MatchStatus(over=False, winner=None, target=target)


@attrs.frozen(kw_only=True)
class FixedRounds(_Immutable):
    """A number of rounds agreed in advance; the side that won most rounds wins ([F8][rules-f8]).

    A round is won by the side with strictly the most points in it; a tie in
    rounds won is a drawn match (`winner` None).
    """

    rounds: int = 4
    """How many rounds are played, from 1 to 1,000,000."""

    def __attrs_post_init__(self) -> None:
        _positive("FixedRounds.rounds", self.rounds)

    def status(self, results: tuple[RoundResult, ...], sides: int) -> MatchStatus:
        """Over after `rounds` rounds; the winner has strictly the most round wins."""
        if len(results) < self.rounds:
            return _going_on(None)
        wins = self.round_wins(results, sides)
        best = max(wins)
        leaders = [s for s in range(sides) if wins[s] == best]
        return MatchStatus(over=True, winner=leaders[0] if len(leaders) == 1 else None)

    @staticmethod
    def round_wins(results: tuple[RoundResult, ...], sides: int) -> tuple[int, ...]:
        """How many rounds each side won."""
        return _running(results, sides)[1]


_Running = tuple[tuple[RoundResult, ...], int, tuple[int, ...], tuple[int, ...]]
_last_running: _Running = ((), 0, (), ())
"""The results last summed by `_running`, their number of sides, totals and round wins."""


def _running(
    results: tuple[RoundResult, ...], sides: int
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Each side's points over `results` and the rounds it won, as running totals.

    The engine asks a match's format after every round with the results so
    far, one more each time: summing them all again would make a match of r
    rounds cost r * r / 2 additions (a long record loaded 51 times slower for
    10 times the rounds). The sums of the results of the last call are kept,
    and a call whose results extend them adds only the new rounds. One entry,
    replaced as a whole, so threads never see half of one.
    """
    global _last_running  # noqa: PLW0603  # the one-entry memo described above
    done, n, totals, wins = _last_running
    k = len(done)
    if not (n == sides and k <= len(results) and results[:k] == done):
        k, totals, wins = 0, (0,) * sides, (0,) * sides
    if k < len(results):
        points, won = list(totals), list(wins)
        for r in results[k:]:
            for s, t in enumerate(r.total):
                points[s] += t
            winner = r.winner
            if winner is not None:
                won[winner] += 1
        totals, wins = tuple(points), tuple(won)
        _last_running = (results, sides, totals, wins)
    return totals, wins


_TRUSTED_FORMATS = frozenset({TargetScore, FixedRounds})
"""The built-in formats, exactly these classes: their answers are not checked."""


def _checked_status(
    rules: RuleSet, results: tuple[RoundResult, ...], sides: int = 0
) -> MatchStatus:
    """`rules.match.status(results, ...)`, with a custom format trusted no further.

    A format that raises, or answers something other than a sensible
    [`MatchStatus`][xeri.MatchStatus], is reported as a
    [`RuleSetError`][xeri.RuleSetError] naming it and the rule set, its
    exception as the cause (the engine's boundary, see `xeri._core.engine`).

    Args:
        rules: the rule set.
        results: the finished rounds' results.
        sides: `rules.num_sides` when the caller has it at hand (the round's
            end, once per round), else 0 for this function to read it.

    Returns:
        The format's answer.

    Raises:
        RuleSetError: the format raised or answered garbage.
    """
    match = rules.match
    n = sides or rules.num_sides
    try:
        status = match.status(results, n)
    except Exception as exc:
        raise _status_failed(rules, f"raised {type(exc).__name__}") from exc
    if match.__class__ in _TRUSTED_FORMATS:
        return status
    if not isinstance(status, MatchStatus):
        raise _status_failed(rules, f"returned {_show(status, text=False)}, not a MatchStatus")
    over, winner, target = status.over, status.winner, status.target
    if type(over) is not bool:
        problem = (
            f"returned a MatchStatus whose over is {_show(over, text=False)}, not True or False"
        )
    elif winner is not None and not (over and type(winner) is int and 0 <= winner < n):
        problem = (
            f"returned the winner {_show(winner, text=False)}, not None or a side from 0 to {n - 1}"
        )
        problem += " of a match that is over" if over else ", while the match is not over"
    elif target is not None and type(target) is not int:
        problem = f"returned the target {_show(target, text=False)}, not None or an int"
    else:
        return status
    raise _status_failed(rules, problem)


def _status_failed(rules: RuleSet, problem: str) -> RuleSetError:
    kind = type(rules.match).__name__
    return RuleSetError(f"rule set {rules.name!r}: its match {kind}.status {problem}")

"""The library's exceptions.

Every error the library raises on purpose is a [`XeriError`][xeri.XeriError],
and every one of those is also a `ValueError`, so callers that already catch
`ValueError` keep working. Messages name what was wrong and never reveal a
card that is hidden from the caller (another hand, the stock order).
"""

from __future__ import annotations

__all__ = [
    "IllegalMoveError",
    "InvalidStateError",
    "NotationError",
    "RuleSetError",
    "XeriError",
]


class XeriError(ValueError):
    """Base class of every error raised by `xeri` on purpose."""


class IllegalMoveError(XeriError):
    """A move that the rules do not allow in the given state (RULES.md X5).

    The state the move was applied to is left unchanged.
    """


class RuleSetError(XeriError):
    """A rule set that cannot work, refused when it is built.

    The message names the field at fault and why.
    """


class InvalidStateError(XeriError):
    """Data from outside (JSON, a record, a hand-built state) that is not a possible game.

    Attributes:
        problems: every problem found, one sentence each.
    """

    def __init__(self, problems: str | list[str] | tuple[str, ...]) -> None:
        if isinstance(problems, str):
            problems = (problems,)
        self.problems: tuple[str, ...] = tuple(problems)
        super().__init__("; ".join(self.problems))


class NotationError(XeriError):
    """Text that does not spell a card, a move or a rule set name."""

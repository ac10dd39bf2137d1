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

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        _public(cls)


def _public(cls: type) -> None:
    """Show an error class of this module under the facade's name, `xeri.IllegalMoveError`.

    Tracebacks and reprs name a class by its module; this module is private,
    and every error class it defines is imported from `xeri` (pickling finds
    it there too). Subclasses defined elsewhere keep their own module.
    """
    if cls.__module__ == __name__:
        cls.__module__ = "xeri"


_public(XeriError)


class IllegalMoveError(XeriError):
    """A move that the rules do not allow in the given state ([X5][rules-x5]).

    The state the move was applied to is left unchanged.
    """


class RuleSetError(XeriError):
    """A rule set that cannot work.

    Raised when the rule set is built, naming the field at fault and why; by
    [`register`][xeri.register] for a name already taken; and during play
    when one of its components (the capture rule, the scorer, the match
    format) raises or returns what its protocol does not allow. The message
    then names the component and the rule set, and the component's own
    exception is chained as the cause, shown by its class only.
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


class BotError(XeriError):
    """A bot failed in [`simulate`][xeri.simulate]: it raised, did not answer in time, or cheated.

    The message names the bot, the deal and the seat; the bot's own
    exception (or the engine's refusal of its move) is chained as the
    cause, also when the deal was played in another process.

    Attributes:
        bot: the bot's index in the `bots` given to `simulate`.
        deal: the index of the deal being played.
        seat: the seat the bot was playing.
        error: the bot's exception (the cause), or None.
    """

    def __init__(
        self,
        message: str,
        *,
        bot: int,
        deal: int,
        seat: int,
        error: BaseException | None = None,
    ) -> None:
        super().__init__(message)
        self.bot = bot
        self.deal = deal
        self.seat = seat
        self.error = error

    def __reduce__(self) -> tuple[object, ...]:
        # Sent back from a worker process with the bot's exception, which `concurrent.futures`
        # would otherwise replace by the remote traceback; one that cannot be pickled is sent
        # as a RuntimeError naming its class and message.
        import pickle  # noqa: PLC0415  # only when an error crosses processes

        error = self.error
        try:
            pickle.dumps(error)
        except Exception:  # any exception may be unpicklable, in any way
            error = RuntimeError(f"{type(error).__name__}: {error}")
        return (_bot_error, (str(self), self.bot, self.deal, self.seat, error))


def _bot_error(
    message: str, bot: int, deal: int, seat: int, error: BaseException | None
) -> BotError:
    """A `BotError` unpickled, its cause set again."""
    exc = BotError(message, bot=bot, deal=deal, seat=seat, error=error)
    exc.__cause__ = error
    return exc


_SHORT = 40
_SMALL = 10**12


def _int_in(value: object, low: int, high: int) -> bool:
    """Whether `value` is a plain int (not a bool) from `low` to `high`."""
    return type(value) is int and isinstance(value, int) and low <= value <= high


def _show(value: object, *, text: bool = True) -> str:
    """A short description of a value received from outside, for an error message.

    Never calls the value's own `__repr__` (which may fail or be huge) except
    for the plain types whose repr is known to be short and safe. With
    `text=False` a string is described by its type only, for values that a
    component returned and that could name a hidden card.
    """
    kind = type(value)
    if value is None or kind is bool or kind is float:
        return repr(value)
    if kind is int and isinstance(value, int):
        return repr(value) if -_SMALL < value < _SMALL else "an int too large to show"
    if kind is str and isinstance(value, str) and text:
        if len(value) <= _SHORT:
            return repr(value)
        return f"{value[:_SHORT]!r}... ({len(value)} characters)"
    name = kind.__name__
    return f"{'an' if name[:1] in 'AEIOUaeiou' else 'a'} {name}"

"""One registry of the shipped bots, their difficulty levels, and bots of your own.

Every place that names a bot reads this registry: the command line
(`xeri play --against`, `--level`, `xeri simulate`, `xeri demo`,
`xeri rate`), the benchmarks and the docs. A *kind* is one of the shipped
bot classes under a short name; a *level* is a difficulty mapped to a kind,
weakest first, as the ladder of the strategy page measures them:

| level | kind | bot |
|---|---|---|
| `easy` | `greedy` | [`GreedyBot`][xeri.bots.GreedyBot] |
| `medium` | `counting` | [`CountingBot`][xeri.bots.CountingBot] |
| `hard` | `pimc` | [`PIMCBot`][xeri.bots.PIMCBot] |
| `expert` | `ismcts` | [`ISMCTSBot`][xeri.bots.ISMCTSBot] |

[`make`][xeri.bots.make] builds one by either name, keywords passed to the
class; the search bots left at their defaults are at their strongest
measured form within about 0.1 s a decision.

A bot is anything with a `choose(observation, rng)` method
([`Bot`][xeri.bots.Bot]). A plain function `observation, rng -> move` is a
bot too once wrapped in [`FunctionBot`][xeri.bots.FunctionBot]; every place
that takes a bot wraps one with [`as_bot`][xeri.bots.as_bot], which refuses
anything else with an error that says how to wrap it.

Examples:
    >>> import random, xeri
    >>> from xeri.bots import make, FunctionBot
    >>> type(make("medium")).__name__
    'CountingBot'
    >>> make("pimc", samples=8).samples
    8
    >>> def first(observation, rng):
    ...     return xeri.legal_moves(observation)[0]
    >>> result = xeri.simulate(xeri.GREEK, (first, make("random")), deals=2, seed=1)
    >>> result.bots[0]
    'FunctionBot(function=first)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from xeri._agents.observation import Observation
from xeri._core.engine import RandomSource, legal_moves
from xeri._errors import ArgumentError, IllegalMoveError
from xeri._immutable import _Immutable
from xeri._imports import resolve_attribute
from xeri._moves import PlayerMove
from xeri.bots.base import Bot, RandomBot, moves_to_choose
from xeri.bots.heuristic import CountingBot, GreedyBot
from xeri.bots.search import ISMCTSBot, PIMCBot

__all__ = [
    "LEVELS",
    "BotKind",
    "FunctionBot",
    "as_bot",
    "bot_name",
    "load_bot",
    "make",
    "registry",
]


@attrs.frozen(kw_only=True)
class BotKind(_Immutable):
    """One shipped kind of bot: its name, its class and what it does."""

    name: str
    """The short name (`"counting"`), as the command line writes it."""
    cls: type[Any]
    """The bot's class; `cls()` is the kind at its defaults."""
    summary: str
    """What the bot does, in a few words."""
    budget: str | None = None
    """The keyword of its fixed count of work (`"samples"`, `"iterations"`), for a search bot."""

    def make(self, **settings: Any) -> Bot:  # noqa: ANN401  # each class checks its own keywords
        """The bot with `settings` passed to its class.

        Args:
            **settings: keywords of the class (`samples=`, `seconds=`...).

        Returns:
            The bot.

        Raises:
            XeriError: a keyword the class does not take.
        """
        try:
            bot: Bot = self.cls(**settings)
        except TypeError as exc:
            raise ArgumentError(
                f"the {self.name} bot does not take these settings: {exc}"
            ) from None
        return bot


_KINDS = (
    BotKind(name="random", cls=RandomBot, summary="a uniformly random legal move"),
    BotKind(name="greedy", cls=GreedyBot, summary="the most points now"),
    BotKind(
        name="counting",
        cls=CountingBot,
        summary="counts the cards seen and weighs the reply it leaves",
    ),
    BotKind(
        name="pimc",
        cls=PIMCBot,
        summary="samples the hidden cards and plays each move out",
        budget="samples",
    ),
    BotKind(
        name="ismcts",
        cls=ISMCTSBot,
        summary="information-set Monte Carlo tree search",
        budget="iterations",
    ),
)

LEVELS: tuple[tuple[str, str], ...] = (
    ("easy", "greedy"),
    ("medium", "counting"),
    ("hard", "pimc"),
    ("expert", "ismcts"),
)
"""The difficulty levels, weakest first, each with the kind it plays."""


def registry() -> tuple[BotKind, ...]:
    """Every shipped kind of bot, weakest first.

    Returns:
        The kinds: random, greedy, counting, pimc, ismcts.
    """
    return _KINDS


def _kind(name: str) -> BotKind:
    if type(name) is not str:
        raise ArgumentError(f"a bot's name is a str, not {type(name).__name__}")
    key = name.strip().lower()
    key = dict(LEVELS).get(key, key)
    for kind in _KINDS:
        if kind.name == key:
            return kind
    known = ", ".join(kind.name for kind in _KINDS)
    levels = ", ".join(level for level, _ in LEVELS)
    raise ArgumentError(f"no bot is called {name!r}; known: {known}; levels: {levels}")


def make(name: str, /, **settings: Any) -> Bot:  # noqa: ANN401  # passed on to the class
    """A shipped bot by the name of its kind or of its level.

    Args:
        name: a kind (`"random"`, `"greedy"`, `"counting"`, `"pimc"`,
            `"ismcts"`) or a level (`"easy"`, `"medium"`, `"hard"`,
            `"expert"`), in any case.
        **settings: keywords of the bot's class, each changing one setting
            (`samples=40`, `seconds=0.5`).

    Returns:
        The bot.

    Raises:
        XeriError: no kind or level has that name, or the class does not
            take a keyword.
    """
    return _kind(name).make(**settings)


def bot_name(bot: object) -> str:
    """The registry's name of a bot's kind (`"pimc"`), or its class's name for another bot.

    Args:
        bot: any bot.

    Returns:
        The name.
    """
    for kind in _KINDS:
        if type(bot) is kind.cls:
            return kind.name
    return type(bot).__name__


@attrs.frozen(kw_only=True)
class FunctionBot(_Immutable):
    """A plain function `function(observation, rng) -> move` as a [`Bot`][xeri.bots.Bot].

    The function is given what [`Bot.choose`][xeri.bots.Bot.choose] is given
    and must return one of the observing seat's legal moves; a bot that
    returns anything else is refused at once, naming the function. A
    function defined at the top level of a module pickles, so the bot can
    be sent to the worker processes of [`simulate`][xeri.simulate].
    """

    function: Callable[[Observation, RandomSource], PlayerMove]
    """The function that chooses."""

    def __attrs_post_init__(self) -> None:
        if not callable(self.function):
            raise ArgumentError(
                f"FunctionBot needs a function (observation, rng) -> move,"
                f" not {type(self.function).__name__}"
            )

    def __repr__(self) -> str:
        name = getattr(self.function, "__qualname__", None) or repr(self.function)
        return f"FunctionBot(function={name})"

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The function's move, checked; see [`Bot.choose`][xeri.bots.Bot.choose].

        Raises:
            IllegalMoveError: the function returned no legal move.
        """
        moves_to_choose(observation)
        move = self.function(observation, rng)
        if move not in legal_moves(observation):
            raise IllegalMoveError(f"{self!r} returned {move!r}, which is not a legal move")
        return move


def as_bot(value: object) -> Bot:
    """A bot from a bot, or from a plain function wrapped in [`FunctionBot`][xeri.bots.FunctionBot].

    Args:
        value: an object with a `choose(observation, rng)` method, or a
            function `(observation, rng) -> move`.

    Returns:
        `value` itself when it is a bot, else the function wrapped.

    Raises:
        XeriError: `value` is neither; the message says how to make one.
    """
    if isinstance(value, type):
        raise ArgumentError(
            f"{value.__name__} is a class, not a bot: pass an instance, {value.__name__}()"
        )
    if isinstance(value, Bot):
        return value
    if callable(value):
        return FunctionBot(function=value)
    raise ArgumentError(
        f"a {type(value).__name__} is not a bot: a bot has a method"
        " choose(observation, rng) -> move, or is a function (observation, rng) -> move"
        " (wrapped as xeri.bots.FunctionBot(function=...))"
    )


def load_bot(spec: str) -> Bot:
    """The bot named by `MODULE:ATTRIBUTE`, imported as the command line does.

    The attribute may be a bot, a bot class taking no arguments (an
    instance is made), or a function `(observation, rng) -> move`.

    Args:
        spec: `MODULE:ATTRIBUTE`, the attribute possibly dotted.

    Returns:
        The bot.

    Raises:
        XeriError: the module cannot be imported, has no such attribute, or
            the attribute is not a bot.
    """
    module_name, _, path = spec.partition(":")
    if not module_name or not path:
        raise ArgumentError(f"a bot of your own is named MODULE:ATTRIBUTE, not {spec!r}")
    value = resolve_attribute(spec, "the bot")
    if isinstance(value, type) and callable(getattr(value, "choose", None)):
        try:
            value = value()
        except Exception as exc:  # a user's class may fail in any way: say how, in one line
            raise ArgumentError(f"{spec}() failed: {type(exc).__name__}: {exc}") from None
    return as_bot(value)

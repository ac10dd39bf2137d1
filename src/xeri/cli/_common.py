"""Shared by the commands: names of seats and sides, rule sets and bots by name, colours, streams.

How people are numbered (Player 1 is seat 0), a rule set or a bot named on the
command line, a rule set's match condition in a few words, the optional rich
console and the streams a command reads and writes. It imports nothing else of
`xeri.cli`: every other module of the package imports from it.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import sys
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, TextIO

import attrs

from xeri._errors import XeriError
from xeri._imports import resolve_attribute
from xeri._rules.match import CountOut, FixedRounds, TargetScore
from xeri._rules.ruleset import RuleSet, find_rules
from xeri.bots import LEVELS, Bot, ISMCTSBot, PIMCBot, bot_name, load_bot, make, registry

if TYPE_CHECKING:  # rich is optional (the `cli` extra): imported where it is used
    from rich.console import Console


# --------------------------------------------------------------------------
# Names

_PROG = "xeri"


def _seat_name(seat: int) -> str:
    """A seat as people count it: seat 0 is Player 1."""
    return f"Player {seat + 1}"


def _team_letter(side: int) -> str:
    return chr(ord("A") + side)


def _has_teams(rules: RuleSet) -> bool:
    return rules.num_sides != rules.seats


def _side_name(rules: RuleSet, side: int) -> str:
    """A side: the player, or `Team A` when some side has several players."""
    if not _has_teams(rules):
        return _seat_name(rules.seats_of(side)[0])
    return f"Team {_team_letter(side)}"


def _players_of(rules: RuleSet, side: int) -> str:
    seats = [str(s + 1) for s in rules.seats_of(side)]
    if len(seats) == 1:
        return f"Player {seats[0]}"
    return f"Players {', '.join(seats[:-1])} and {seats[-1]}"


def _teams(rules: RuleSet) -> str:
    """`Team A = Players 1 and 3, Team B = Players 2 and 4`."""
    return ", ".join(
        f"{_side_name(rules, side)} = {_players_of(rules, side)}" for side in range(rules.num_sides)
    )


def _cards(cards: Sequence[object]) -> str:
    return " ".join(map(str, cards)) or "-"


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _match_summary(rules: RuleSet) -> str:
    match = rules.match
    if type(match) is TargetScore:
        return f"first to {match.target}"
    if type(match) is FixedRounds:
        return f"{_count(match.rounds, 'round')}, most won"
    if type(match) is CountOut:
        return f"first to {match.target}, counted out"
    return type(match).__name__


# --------------------------------------------------------------------------
# Rule sets and bots by name


def _rules_module(name: str) -> str | None:
    """The module a `--rules MODULE:ATTRIBUTE` names, or None for a registered name."""
    module_name, colon, _ = name.partition(":")
    return module_name if colon and module_name else None


def _import_here(module_name: str, here: str | None = None) -> object:
    """Import `module_name`, looking in the directory `here` (the current one) first.

    A scoped import: the directory is put first on `sys.path` for this one
    import, and `sys.path` is given back exactly as it was afterwards, so
    no later import of the command (rich, say) can come from the current
    directory. Worker processes of `simulate` import the module the same
    way before their first deal (see `xeri.cli._simulate`).
    """
    if here is None:
        try:
            here = os.getcwd()
        except OSError:  # the directory was removed under us: the module is looked up elsewhere
            return importlib.import_module(module_name)
    saved = list(sys.path)
    sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    finally:
        sys.path[:] = saved


@contextlib.contextmanager
def _working_directory_off_path() -> Iterator[None]:
    """The current directory off `sys.path` while a command runs; given back afterwards.

    `python -m xeri` (and `python -c`, and an empty entry of `PYTHONPATH`)
    put the current directory first on `sys.path`, so a module planted there
    (a `rich.py`) would be imported in place of the real one by the first
    lazy import. The command line removes those entries before any such
    import; only the module a `--rules MODULE:ATTRIBUTE` names is then
    looked for in the current directory (`_import_here`). Python itself
    has imported `xeri` and its dependencies before this runs: `python -P
    -m xeri` (or the installed `xeri` command) keeps the directory out of
    those too.
    """
    try:
        here = os.path.realpath(os.getcwd())
    except OSError:
        here = None
    saved = list(sys.path)
    sys.path[:] = [
        entry
        for entry in saved
        if entry not in ("", ".") and (here is None or os.path.realpath(entry) != here)
    ]
    try:
        yield
    finally:
        sys.path[:] = saved


def _load_rules(name: str) -> RuleSet:
    """A registered rule set, or `MODULE:ATTRIBUTE` imported (the current directory first)."""
    if ":" not in name:
        return find_rules(name)
    module_name, _, path = name.partition(":")
    if not module_name or not path:
        raise XeriError(f"a rule set is a registered name or MODULE:ATTRIBUTE, not {name!r}")
    value = resolve_attribute(name, "the rule set", _import_here)
    if not isinstance(value, RuleSet):
        raise XeriError(f"{name} is a {type(value).__name__}, not a RuleSet")
    return value


_BOT_NAMES = tuple(kind.name for kind in registry())
"""The bots the command line knows, weakest first: the registry's kinds."""

_LEVEL_NAMES = tuple(level for level, _ in LEVELS)
"""The difficulty levels, weakest first."""

_BOTS_HELP = (
    f"{', '.join(_BOT_NAMES)} (pimc:N and ismcts:N fix the budget),"
    f" a level ({', '.join(_LEVEL_NAMES)}), or MODULE:ATTRIBUTE for your own"
)
"""How the command line's help names a bot."""


def _bot(spec: str) -> Bot:
    """The bot named `spec`: a kind or level, `pimc:N`, `ismcts:N`, or `MODULE:ATTRIBUTE`.

    The search bots keep their fixed counts and their deadline of CPU time
    per move, so they play the same moves for the same seed on any machine
    not slower than the reference. A bot of one's own (`MODULE:ATTRIBUTE`)
    is imported from the current directory too.
    """
    text = spec.strip()
    name, colon, count_text = text.lower().partition(":")
    known = {kind.name: kind for kind in registry()}
    kind = known.get(dict(LEVELS).get(name, name))
    if colon and kind is None:
        module_name = text.partition(":")[0]
        if module_name:
            with contextlib.suppress(Exception):  # load_bot says what went wrong
                _import_here(module_name)
        return load_bot(text)
    if kind is None:
        return make(text)  # raises, naming the kinds and levels
    settings: dict[str, object] = {}
    if colon:
        if kind.budget is None:
            raise XeriError(f"the {kind.name} bot takes no budget: write {name}, not {spec!r}")
        if not count_text.isdigit() or int(count_text) < 1:
            raise XeriError(
                f"the budget of {kind.name} must be a positive number, not {count_text!r}"
            )
        settings[kind.budget] = int(count_text)
    return kind.make(**settings)


def _bot_name(bot: Bot) -> str:
    """A bot as the command line names it: `counting`, `pimc (60 samples)`."""
    name = bot_name(bot)
    if isinstance(bot, PIMCBot):
        count, what = bot.samples, "sample"
    elif isinstance(bot, ISMCTSBot):
        count, what = bot.iterations, "iteration"
    else:
        return name
    budget = "its default budget" if count is None else _count(count, what)
    deadline = bot.cpu_deadline()
    if deadline is not None:
        budget += f", at most {deadline:g} s of CPU time a move"
    if bot.seconds is not None:
        budget += f", at most {bot.seconds:g} s on the clock a move"
    return f"{name} ({budget})"


# --------------------------------------------------------------------------
# Colours: cards in suit colours through rich, when it is there and wanted

_CARD_PATTERN = r"(?:10|[2-9AJQK])"


_RED_CARD = re.compile(_CARD_PATTERN + "[♥♦]")


_BLACK_CARD = re.compile(_CARD_PATTERN + "[♠♣]")


_TOP_CARD = re.compile(r"(?<=top )" + _CARD_PATTERN + "[♠♥♦♣]")


def _isatty(stream: object) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty()) if callable(isatty) else False
    except (OSError, ValueError):  # a closed or detached stream
        return False


def _console(stream: TextIO, color: str) -> Console | None:
    """A rich console writing to `stream`, or None for plain text.

    `color` is `always`, `never` or `auto` (colours when `stream` is a
    terminal). Without rich installed the text is plain whatever `color` says:
    colours are decoration.
    """
    if color == "never" or (color == "auto" and not _isatty(stream)):
        return None
    try:
        from rich.console import Console  # noqa: PLC0415  # optional: the `cli` extra
    except ImportError:
        return None
    forced = color == "always"
    return Console(
        file=stream,
        force_terminal=True if forced else None,
        color_system="standard" if forced else "auto",
        highlight=False,
        markup=False,
        emoji=False,
        soft_wrap=True,
    )


def _shown(text: str) -> str:
    """Text from outside (a file name, a rule set's name, what was typed) safe for a terminal.

    Every character that is not printable (escape sequences, carriage
    returns, bidirectional overrides) is written as its Python escape
    (an escape character as backslash, x, 1, b), so nothing from a file
    or the keyboard can move the cursor, recolour the screen or hide text.
    Line breaks are kept.
    """
    if text.isprintable():
        return text
    return "\n".join(
        "".join(c if c.isprintable() else repr(c)[1:-1] for c in line) for line in text.split("\n")
    )


@attrs.frozen(kw_only=True)
class _Screen:
    """Where `xeri play` writes: lines with the cards in suit colours, or plain text."""

    stream: TextIO
    console: Console | None

    def say(self, line: str = "") -> None:
        line = _shown(line)
        if self.console is None:
            print(line, file=self.stream)
            return
        from rich.text import Text  # noqa: PLC0415  # there when the console is

        text = Text(line)
        text.highlight_regex(_RED_CARD, "bold red")
        text.highlight_regex(_BLACK_CARD, "bold")
        text.highlight_regex(_TOP_CARD, "reverse")
        self.console.print(text)


# --------------------------------------------------------------------------
# Streams


@attrs.frozen(kw_only=True)
class _Io:
    """The streams a command reads and writes: the process's, or a test's."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    def say(self, line: str = "") -> None:
        print(_shown(line), file=self.stdout)

    def ask(self, prompt: str) -> str | None:
        """A line typed after `prompt`, without its end; None at the end of the input."""
        self.stdout.write(prompt)
        self.stdout.flush()
        answer = self.stdin.readline()
        if not answer:
            return None
        if not _isatty(self.stdin):  # a terminal echoes what was typed; a pipe does not
            self.say(answer.rstrip("\r\n"))
        return answer.rstrip("\r\n")

    def wait(self) -> bool:
        """Wait for Enter; False when the reader quits (`q`, `quit` or the end of input)."""
        self.stdout.write("  [Enter: next play, q: quit] ")
        self.stdout.flush()
        answer = self.stdin.readline()
        if not self.stdin.isatty():  # a terminal echoes the reader's Enter; a pipe does not
            self.say()
        return bool(answer) and answer.strip().lower() not in ("q", "quit")

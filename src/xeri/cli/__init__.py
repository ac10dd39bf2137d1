"""The command line: `xeri play`, `simulate`, `demo`, `rate`, `rules`, `replay`, `serve`.

The installed `xeri` command and `python -m xeri` are the same program.

* `xeri play --rules greek` plays a game in the terminal against the
  strongest bots (`--level easy|medium|hard|expert` picks a difficulty,
  `--against BOT` a bot): one person against bots, shown only what that person's seat may
  see ([X2][rules-x2]). The legal moves are numbered; a move is chosen by its
  number or written in the move notation ([`parse_move`][xeri.parse_move]);
  `hint`, `save FILE`, `help` and `quit` (or Ctrl-D) are understood at
  every prompt. On a terminal the bots take a moment over each play and
  each round's score sheet waits for Enter, unless `--fast`; `--load FILE`
  continues a saved game.
* `xeri simulate greek counting greedy --deals 200 --workers 2` plays bots
  against each other with [`simulate`][xeri.simulate] and prints the result
  with the 95% interval of the difference (`--json` for the data).
* `xeri demo --rules greek --seed 7` plays a whole match between two bots
  (counting against greedy by default) and prints it: every deal with the
  hands, every play with the cards each capture takes, and a score sheet
  per round. With `--seed` the match replays exactly; without it the
  shuffles come from the operating system's secure source.
* `xeri rate MODULE:ATTRIBUTE --rules scopa` rates a bot of one's own
  against the shipped bots ([`rate_bot`][xeri.bots.rate_bot]): each pair
  over the same duplicate deals, Bradley-Terry ratings with 95% intervals.
* `xeri rules` lists the registered rule sets; `xeri rules NAME` shows
  every option of one.
* `xeri replay FILE` prints a game record saved with
  [`to_json`][xeri.to_json], all cards open, or as one player saw it
  (`--seat N`: that player's own hand, never another hand or the stock);
  `--step` waits for Enter between plays, and `--rules MODULE:ATTRIBUTE`
  imports the rule set of a record made with a rule set of your own.
  `xeri play --load FILE` continues a saved game.
* `xeri serve --db games.db --host 127.0.0.1 --port 8000` serves games in
  the browser ([`xeri.server`][xeri.server], the `server` extra).

A rule set is named by its registered name, or as `MODULE:ATTRIBUTE` for a
[`RuleSet`][xeri.RuleSet] of a module importable from the current
directory. Bots are named as the registry of [`xeri.bots`][xeri.bots] names
them: the kinds `random`, `greedy`, `counting`, `pimc` and `ismcts`, or the
levels `easy`, `medium`, `hard` and `expert`; `pimc:N` and `ismcts:N` fix
the search bots' samples or iterations, and `MODULE:ATTRIBUTE` names a bot
of one's own (a bot, a bot class, or a function `(observation, rng) -> move`).

Players are numbered as people count them, Player 1 to Player n (seat 0 is
Player 1). Errors are printed as one line, `error: ...`, with exit status 2.
Colours come from the optional `rich` package (`pip install "xeri[cli]"`);
without it everything is plain text.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Sequence
from typing import TextIO

from xeri._errors import XeriError
from xeri._rules.ruleset import registered
from xeri.bots.league import LADDER
from xeri.cli._common import (
    _BOTS_HELP,
    _LEVEL_NAMES,
    _PROG,
    _bot,
    _Io,
    _load_rules,
    _shown,
    _working_directory_off_path,
)
from xeri.cli._demo import play_demo
from xeri.cli._play import _play
from xeri.cli._rate import _rate
from xeri.cli._replay import _replay
from xeri.cli._rules import _rules_lines, _rules_table
from xeri.cli._serve import _add_serve, _serve
from xeri.cli._simulate import _simulate

# The package, imports flowing one way (each module imports only those above it):
# `_common` (names, rule sets and bots by name, colours, streams), `_show` (what a
# transcript shows of a state), one module per command (`_demo`, `_play`,
# `_simulate`, `_rules`, `_replay`), and here the parser, the dispatch and `main`.
__all__ = ["main", "play_demo"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Xeri (Kseri), the Greek fishing card game, and its relatives.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_help = f"rule set: {', '.join(registered())}, or MODULE:ATTRIBUTE"
    bots_help = _BOTS_HELP
    play = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play against bots in the terminal, seeing only what your seat may see.",
        epilog="At the prompt: a move's number or the move itself, hint, save FILE, help, quit.",
    )
    # No default here: with --load the record names the rule set (greek otherwise).
    play.add_argument("--rules", default=None, help=f"{rules_help} (default greek)")
    play.add_argument(
        "--against",
        default=None,
        metavar="BOT",
        help=f"the bots, partners included: {bots_help} (default: the {_LEVEL_NAMES[-1]} level)",
    )
    play.add_argument(
        "--level",
        default=None,
        choices=_LEVEL_NAMES,
        help=f"the bots' difficulty, weakest first (default {_LEVEL_NAMES[-1]})",
    )
    play.add_argument(
        "--seat", type=int, default=1, metavar="N", help="your seat, from 1 (default 1)"
    )
    play.add_argument(
        "--seed", type=int, default=None, help="the same deal and bot draws for the same number"
    )
    length = play.add_mutually_exclusive_group()
    length.add_argument(
        "--match", dest="one_round", action="store_false", help="play a whole match (default)"
    )
    length.add_argument("--round", dest="one_round", action="store_true", help="play one round")
    play.set_defaults(one_round=False)
    play.add_argument(
        "--load",
        metavar="FILE",
        default=None,
        help="continue a game saved with `save FILE` (its rule set; --rules to import "
        "a module's first)",
    )
    play.add_argument(
        "--fast",
        action="store_true",
        help="no pauses: the bots play at once and the score sheets do not wait for Enter",
    )
    play.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="cards in suit colours: auto (on a terminal, with rich installed), always, never",
    )
    sim = sub.add_parser(
        "simulate",
        help="play bots against each other and print the result",
        description="Play bots against each other over duplicate deals and print the mean "
        "points per round and the 95% interval of the difference.",
    )
    sim.add_argument("rules", metavar="RULES", help=rules_help)
    sim.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help=f"one bot per side: {bots_help}",
    )
    sim.add_argument("--deals", type=_positive, default=100, help="deals to play (default 100)")
    sim.add_argument(
        "--workers",
        type=_positive,
        default=1,
        help="processes to play in (default 1; at most the machine's cores)",
    )
    sim.add_argument(
        "--decision-seconds",
        type=_seconds,
        default=None,
        metavar="S",
        help="stop with an error when a bot takes longer than S seconds to choose a move",
    )
    sim.add_argument("--seed", type=int, default=None, help="the same result for the same number")
    sim.add_argument("--matches", action="store_true", help="a whole match from each deal")
    sim.add_argument(
        "--no-duplicate", action="store_true", help="play each deal once, not once per seating"
    )
    sim.add_argument("--json", action="store_true", help="print the result as JSON")
    sim.add_argument(
        "--progress",
        choices=("auto", "bar", "lines", "none"),
        default="auto",
        help="auto: a bar on a terminal (with rich installed), else lines on the error stream",
    )
    demo = sub.add_parser(
        "demo",
        help="play a match between two bots and print it",
        description="Play a whole match between two bots and print it with every card open.",
    )
    demo.add_argument("--rules", default="greek", help=f"{rules_help} (default greek)")
    demo.add_argument(
        "--bots",
        default="counting,greedy",
        help=f"one bot per side, comma-separated: {bots_help} (default counting,greedy)",
    )
    demo.add_argument("--seed", type=int, default=None, help="replay a match exactly")
    rate = sub.add_parser(
        "rate",
        help="rate a bot of your own against the shipped bots",
        description="Play a bot of your own against the shipped ladder over duplicate deals "
        "and print its Bradley-Terry rating with a 95%% interval.",
    )
    rate.add_argument(
        "bot",
        metavar="BOT",
        help="MODULE:ATTRIBUTE (a bot, a bot class or a function (observation, rng) -> move),"
        " or any bot name",
    )
    rate.add_argument("--rules", default="greek", help=f"{rules_help} (default greek)")
    rate.add_argument(
        "--deals", type=_positive, default=10, help="deals against each bot (default 10)"
    )
    rate.add_argument(
        "--ladder",
        default=",".join(LADDER),
        help=f"the shipped bots to play, weakest first (default {','.join(LADDER)})",
    )
    rate.add_argument("--seed", type=int, default=2026, help="the deals (default 2026)")
    rules = sub.add_parser(
        "rules",
        help="list the rule sets, or show one in full",
        description="List the registered rule sets, or show every option of one.",
    )
    rules.add_argument("name", nargs="?", default=None, help="a rule set to show in full")
    rep = sub.add_parser(
        "replay",
        help="print a saved game record",
        description="Print a game record saved with xeri.to_json, every card open or as "
        "one player saw it.",
    )
    rep.add_argument("file", help="the record, a JSON file")
    rep.add_argument(
        "--seat",
        type=int,
        default=None,
        metavar="N",
        help="show only what Player N saw (1 for the first player): never another hand or "
        "the stock",
    )
    rep.add_argument("--step", action="store_true", help="wait for Enter before each play")
    rep.add_argument(
        "--written-rules",
        action="store_true",
        help="replay under the rule set written in the record even when the registered rule set"
        " of that name differs from it (by default such a record is refused)",
    )
    rep.add_argument(
        "--rules",
        default=None,
        metavar="MODULE:ATTRIBUTE",
        help="import the rule set of a module first, for a record of a rule set of your own",
    )
    _add_serve(sub)
    return parser


def _positive(text: str) -> int:
    """An argument that must be a positive int."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}")
    return value


def _seconds(text: str) -> float:
    """An argument that must be a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text!r}")
    return value


def _run(args: argparse.Namespace, io: _Io) -> int:
    if args.command == "play":
        return _play(args, io)
    if args.command == "simulate":
        return _simulate(args, io)
    if args.command == "demo":
        rules = _load_rules(args.rules)
        bots = [_bot(spec) for spec in args.bots.split(",")]
        play_demo(rules, seed=args.seed, out=io.stdout, bots=bots)
        return 0
    if args.command == "rate":
        return _rate(args, io)
    if args.command == "rules":
        lines = _rules_table() if args.name is None else _rules_lines(_load_rules(args.name))
        for line in lines:
            io.say(line)
        return 0
    if args.command == "replay":
        return _replay(
            args.file,
            seat=args.seat,
            step=args.step,
            io=io,
            rules=args.rules,
            written_rules=args.written_rules,
        )
    if args.command == "serve":
        return _serve(args, io)
    raise AssertionError(args.command)  # pragma: no cover  # argparse allows only the above


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line and return its exit status.

    Args:
        argv: the arguments after the program's name; `sys.argv[1:]` when None.
        stdin: where input is read (`play`, `replay --step`); standard input when None.
        stdout: where output goes; standard output when None.
        stderr: where errors and usage messages go; standard error when None.

    Returns:
        0 on success, 2 for a usage error or a [`XeriError`][xeri.XeriError]
        (printed as one line, `error: ...`), 130 when interrupted.
    """
    io = _Io(
        stdin=sys.stdin if stdin is None else stdin,
        stdout=sys.stdout if stdout is None else stdout,
        stderr=sys.stderr if stderr is None else stderr,
    )
    try:
        with contextlib.redirect_stdout(io.stdout), contextlib.redirect_stderr(io.stderr):
            args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, or a usage error already printed by argparse
        code = exc.code
        return code if isinstance(code, int) else 0 if code is None else 2
    try:
        with _working_directory_off_path():
            return _run(args, io)
    except BrokenPipeError:  # the reader (`| head`) stopped listening: not an error
        with contextlib.suppress(OSError):
            io.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(file=io.stderr)
        return 130
    except XeriError as error:
        print(f"error: {_shown(str(error))}", file=io.stderr)
        return 2

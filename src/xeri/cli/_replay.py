"""`xeri replay`: a saved game record, every card open or as one seat saw it.

In one seat's view the record's problems are not shown, since they can name
any card; `--step` waits for Enter between plays.
"""

from __future__ import annotations

from xeri._core.engine import apply, start
from xeri._core.state import Phase
from xeri._errors import InvalidStateError, XeriError
from xeri._io.records import GameRecord
from xeri._io.serialize import MAX_TEXT_LENGTH, from_json
from xeri.cli._common import _count, _Io, _load_rules, _seat_name
from xeri.cli._show import _header, _step_lines, _wrapped

# --------------------------------------------------------------------------
# replay


def _read_record(path: str, *, written_rules: bool = False) -> GameRecord:
    """The game record saved in a file; every problem as a XeriError."""
    try:
        with open(path, encoding="utf-8") as file:
            text = file.read(MAX_TEXT_LENGTH + 1)
    except FileNotFoundError:
        raise XeriError(f"no such file: {path}") from None
    except IsADirectoryError:
        raise XeriError(f"{path} is a directory, not a game record") from None
    except UnicodeDecodeError:
        raise InvalidStateError(f"{path} is not a game record: it is not UTF-8 text") from None
    except OSError as exc:
        raise XeriError(f"cannot read {path}: {exc.strerror or type(exc).__name__}") from None
    try:
        return from_json(text, expect=GameRecord, strict=False, written_rules=written_rules)
    except InvalidStateError as exc:
        first, *rest = exc.problems
        if any("no rule set is registered as" in problem for problem in exc.problems):
            rest.append(
                "a record of a rule set of your own replays with --rules MODULE:ATTRIBUTE, "
                "the module that makes and registers it"
            )
        raise InvalidStateError([f"{path}: {first}", *rest]) from None


def _replay(
    path: str,
    *,
    seat: int | None,
    step: bool,
    io: _Io,
    rules: str | None = None,
    written_rules: bool = False,
) -> int:
    if rules is not None:  # imported first: the module registers the rule set the record names
        _load_rules(rules)
    try:
        game = _read_record(path, written_rules=written_rules)
    except InvalidStateError as exc:
        if seat is None:
            raise
        # The problems of a record can name any card: in one seat's view they are not shown.
        raise InvalidStateError(
            f"{path} is not a game record that replays ({_count(len(exc.problems), 'problem')}, "
            "not shown in one seat's view: run without --seat to see them)"
        ) from None
    played = game.rules
    view = None
    if seat is not None:
        if not 1 <= seat <= played.seats:
            raise XeriError(
                f"--seat must be from 1 to {played.seats} for {played.name}, not {seat}"
            )
        view = seat - 1
    title = _header(played)
    if view is None:
        title += " Every card open."
    else:
        title += f" As {_seat_name(view)} saw it: other hands and the stock hidden."
    for line in _wrapped(title):
        io.say(line)
    # One state at a time: `from_json` has replayed the record already, and keeping every
    # state of a long match (as `replay` does) would cost memory for nothing.
    last = start(played, dealer=game.dealer)
    for move in game.moves:
        if step and not last.is_chance and not io.wait():
            io.say("Replay stopped.")
            return 0
        after = apply(last, move)
        for line in _step_lines(last, move, after, view):
            io.say(line)
        last = after
    if last.phase is Phase.ROUND_OVER:
        io.say(f"The record ends here, after round {len(last.round_results)}.")
    elif not last.is_over:
        where = f"in round {len(last.round_results) + 1}"
        if last.to_move is not None:
            where += f", {_seat_name(last.to_move)} to play"
        io.say(f"The record ends here, {where}.")
    return 0

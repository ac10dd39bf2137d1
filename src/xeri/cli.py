"""The command line: `xeri demo`, `xeri rules` and `xeri replay`.

The installed `xeri` command and `python -m xeri` are the same program.

* `xeri demo --rules greek --seed 7` plays a whole match between two
  players who pick random legal moves and prints it: every deal with the
  hands, every play with the cards each capture takes, and a score sheet
  per round. With `--seed` the match replays exactly; without it the
  shuffles come from the operating system's secure source.
* `xeri rules` lists the registered rule sets; `xeri rules NAME` shows
  every option of one.
* `xeri replay FILE` prints a game record saved with
  [`to_json`][xeri.to_json], all cards open, or as one player saw it
  (`--seat N`: that player's own hand, never another hand or the stock);
  `--step` waits for Enter between plays.

Players are numbered as people count them, Player 1 to Player n (seat 0 is
Player 1). Errors are printed as one line, `error: ...`, with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import random
import sys
from collections.abc import Callable, Sequence
from enum import Enum
from typing import TextIO, cast

import attrs

from xeri.capture import XeriKind
from xeri.cards import Card
from xeri.engine import apply, chance_move, legal_moves, start
from xeri.errors import InvalidStateError, XeriError
from xeri.match import FixedRounds, TargetScore
from xeri.moves import Move, PlayerMove
from xeri.observe import Observation, ObservedTake, observe
from xeri.pile import PileCapture
from xeri.records import GameRecord, record, replay
from xeri.rules import RuleSet, find_rules, registered
from xeri.scoring import PointsTable, StandardScorer
from xeri.serialize import MAX_TEXT_LENGTH, from_json
from xeri.state import GameState, Phase
from xeri.sums import SumCapture
from xeri.table import TableItem

__all__ = ["main", "play_demo"]

_PROG = "xeri"


# --------------------------------------------------------------------------
# Names


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


# --------------------------------------------------------------------------
# What a transcript shows of a state: everything, or one seat's view


@attrs.frozen(kw_only=True)
class _Seen:
    """What a transcript may show of one state: every card, or what one seat sees.

    A seat's view is made from [`observe`][xeri.observe] alone, so that it
    cannot show another hand, the stock or a face-down card.
    """

    facts: GameState | Observation
    """The public facts: phase, dealer, seat to move, round results, scores."""
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's hand, or None where it is hidden."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    face_down: int
    """Face-down table cards not shown."""
    table: tuple[TableItem, ...]
    """The table items shown, in table order."""
    stock_size: int
    """How many cards the stock holds."""
    takes: tuple[ObservedTake, ...]
    """The round's captures as shown."""


def _seen(state: GameState, view: int | None) -> _Seen:
    if view is None:
        return _Seen(
            facts=state,
            hands=state.hands,
            hand_sizes=tuple(map(len, state.hands)),
            face_down=0,
            table=state.table,
            stock_size=len(state.stock),
            takes=tuple(
                ObservedTake(seat=t.seat, cards=t.cards, xeri=t.xeri, turn=t.turn)
                for t in state.takes
            ),
        )
    obs = observe(state, view)
    return _Seen(
        facts=obs,
        hands=tuple(obs.hand if s == view else None for s in range(obs.rules.seats)),
        hand_sizes=obs.hand_sizes,
        face_down=obs.face_down,
        table=obs.table,
        stock_size=obs.stock_size,
        takes=obs.takes,
    )


def _hand_lines(seen: _Seen) -> list[str]:
    lines = []
    for seat, hand in enumerate(seen.hands):
        held = _cards(hand) if hand is not None else _count(seen.hand_sizes[seat], "card")
        lines.append(f"  {_seat_name(seat)} holds {held}")
    return lines


def _table_text(seen: _Seen) -> str:
    shown = _cards(seen.table) if seen.table or not seen.face_down else ""
    if seen.face_down:
        down = f"{seen.face_down} face down"
        return f"{down} {shown}" if shown else down
    return shown


def _round_no(seen: _Seen) -> int:
    """The number of the current round, counting from 1."""
    return len(seen.facts.round_results) + 1


def _deal_lines(after: _Seen) -> list[str]:
    facts = after.facts
    lines = ["", f"Round {_round_no(after)}: {_seat_name(facts.dealer)} deals."]
    lines += _hand_lines(after)
    lines.append(f"  table: {_table_text(after)}   stock: {after.stock_size}")
    if facts.bottom_card is not None:
        lines.append(f"  bottom card shown: {facts.bottom_card}")
    return lines


def _take_text(take: ObservedTake) -> str:
    """The cards a capture takes besides the card played, and how many in all."""
    taken = _cards(take.cards[:-1]) if len(take.cards) > 1 else ""
    if take.hidden:
        down = f"{take.hidden} face down"
        taken = f"{down} {taken}" if taken else down
    text = f"takes {taken} ({take.count} cards)"
    if take.xeri is XeriKind.XERI:
        text += "  ** XERI **"
    elif take.xeri is XeriKind.JACK_XERI:
        text += "  ** JACK XERI **"
    return text


def _play_lines(before: _Seen, after: _Seen, seat: int, move: object) -> list[str]:
    """The lines of one play: the card, what it takes, the table, a new deal, a round's end."""
    rules = after.facts.rules
    new = after.takes[len(before.takes) :]  # a round's captures are cleared only by a deal
    capture = next((t for t in new if t.turn is not None), None)
    if capture is not None:
        what = f"plays {capture.cards[-1]}"
        note = _take_text(capture)
    else:
        what = f"plays {move}"
        note = ""
    if rules.capture.pile:
        if capture is None and (after.table or after.face_down):
            top = f", top {after.table[-1]}" if after.table else ""
            note = f"pile {after.face_down + len(after.table)}{top}"
    else:
        note = f"{note}   table: {_table_text(after)}" if note else f"table: {_table_text(after)}"
    lines = [f"  {_seat_name(seat)} {what:<22}  {note}".rstrip()]
    for take in new:
        if take.turn is None:
            left = _cards(take.cards) if not take.hidden else f"{take.count} cards"
            lines.append(
                f"  {_seat_name(take.seat)} takes the cards left on the table: {left} "
                "(last capture)"
            )
    if after.stock_size < before.stock_size and after.facts.phase is Phase.PLAY:
        lines.append(
            f"  -- new deal: {rules.hand_size} cards each, {after.stock_size} left in stock --"
        )
        shown = zip(_hand_lines(after), after.hands, strict=True)
        lines += [line for line, hand in shown if hand is not None]
    if after.facts.is_round_over:
        lines.append(f"Round {len(after.facts.round_results)} over.")
        lines += _score_sheet(after.facts)
        if after.facts.is_over:
            lines.append(_match_result(after.facts))
    return lines


def _score_sheet(facts: GameState | Observation) -> list[str]:
    rules = facts.rules
    results = facts.round_results
    result = results[-1]
    names = [_side_name(rules, s) for s in range(rules.num_sides)]
    width = max(map(len, names)) + 2
    head = "".rjust(14) + "".join(name.rjust(width) for name in names)
    rows: list[tuple[str, tuple[int, ...]]] = [
        ("cards", result.cards),
        ("card points", result.card_points),
        ("majority", result.majority),
        ("xeris", result.xeris),
        ("xeri bonus", result.xeri_bonus),
        ("round total", result.total),
        ("match score", facts.scores),
    ]
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins):
        rows.append(("rounds won", round_wins(results, rules.num_sides)))
    return [head] + [
        f"  {label:<12}" + "".join(str(v).rjust(width) for v in values) for label, values in rows
    ]


def _match_result(facts: GameState | Observation) -> str:
    rules = facts.rules
    rounds = _count(len(facts.round_results), "round")
    scores = " to ".join(map(str, facts.scores))
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins):
        won = round_wins(facts.round_results, rules.num_sides)
        scores = f"rounds won {' to '.join(map(str, won))}, points {scores}"
    winner = facts.winner
    if winner is None:
        return f"The match is drawn after {rounds}, {scores}."
    who = _side_name(rules, winner)
    if _has_teams(rules):
        who += f" ({_players_of(rules, winner)})"
    return f"{who} wins the match after {rounds}, {scores}."


def _header(rules: RuleSet) -> str:
    text = f"A match of {rules.name}: {rules.seats} players"
    if _has_teams(rules):
        text += f" in {rules.num_sides} teams, {_teams(rules)}"
    return text + "."


def _step_lines(before: GameState, move: Move, after: GameState, view: int | None) -> list[str]:
    """The transcript of one move, every card shown or only what `view` sees.

    Chance's moves are told by what they change in public: a deal completed (a
    new round's phase) or a table dealt again; a card of an order dealt card
    by card that does not complete it changes nothing public and prints nothing.
    """
    seat = before.to_move
    if seat is None:  # chance: a deal, a redeal of the table, or one card of either
        phase = before.phase
        if phase is Phase.REDEAL:
            if after.phase is Phase.PLAY or len(after.redealt) > len(before.redealt):
                return [f"  the table is dealt again: {_table_text(_seen(after, view))}"]
        elif after.phase is not phase:
            return _deal_lines(_seen(after, view))
        return []
    return _play_lines(_seen(before, view), _seen(after, view), seat, move)


# --------------------------------------------------------------------------
# demo


def play_demo(
    rules: RuleSet,
    *,
    seed: int | None = None,
    out: TextIO | None = None,
    choose: Callable[[GameState, random.Random], PlayerMove] | None = None,
) -> GameState:
    """Play a whole match and print its transcript, every card open, to `out`.

    The transcript shows each deal with every hand, each play with the cards
    a capture takes (xeris marked), and a score sheet per round. Players
    are numbered from 1.

    Args:
        rules: the rule set to play.
        seed: seeds the shuffles and the players' choices; None draws from the
            operating system's secure source.
        out: where the transcript goes (standard output by default).
        choose: picks a move in a state, given a generator of its own
            (defaults to a uniformly random legal move).

    Returns:
        The final state.
    """
    stream = sys.stdout if out is None else out
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    players = random.Random(rng.random())

    def pick(state: GameState) -> PlayerMove:
        if choose is not None:
            return choose(state, players)
        return players.choice(legal_moves(state))

    def say(lines: list[str]) -> None:
        for line in lines:
            print(line, file=stream)

    state, game = record(rules, rng=rng)
    say([_header(rules)])
    states = replay(game)  # the deal, and the table dealt again if it had to be
    for before, dealt, after in zip(states, game.moves, states[1:], strict=False):
        say(_step_lines(before, dealt, after, None))
    while not state.is_over:
        move: Move = chance_move(state, rng) if state.is_chance else pick(state)
        after = apply(state, move)
        say(_step_lines(state, move, after, None))
        state = after
    return state


# --------------------------------------------------------------------------
# rules


def _symbol(value: object) -> str:
    """A value as the transcript and the rules listing write it."""
    if isinstance(value, Enum):
        return f"{type(value).__name__}.{value.name}"
    if isinstance(value, tuple):
        inner = ", ".join(map(_symbol, value))
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Card):
        return str(value)
    if attrs.has(type(value)):
        fields = [f for f in attrs.fields(cast("type[attrs.AttrsInstance]", type(value))) if f.init]
        args = ", ".join(f"{f.name}={_symbol(getattr(value, f.name))}" for f in fields)
        return f"{type(value).__name__}({args})"
    return repr(value)


def _points_text(table: PointsTable) -> str:
    parts = [f"{rank.symbol} {points}" for rank, points in table.ranks]
    parts += [f"{card} +{points}" for card, points in table.cards]
    return f"{', '.join(parts) or 'none'} ({table.total} in the deck)"


def _capture_summary(rules: RuleSet) -> str:
    capture = rules.capture
    if type(capture) is PileCapture:
        sweeper = capture.sweeper
        return f"pile, {sweeper.symbol} sweeps" if sweeper is not None else "pile, no sweeper"
    if type(capture) is SumCapture:
        options = [
            name.replace("_", " ")
            for name in ("multi_capture", "forced_capture", "self_raise")
            if getattr(capture, name)
        ]
        return "sums and builds" + "".join(f", {o}" for o in options)
    return type(capture).__name__


def _match_summary(rules: RuleSet) -> str:
    match = rules.match
    if type(match) is TargetScore:
        return f"first to {match.target}"
    if type(match) is FixedRounds:
        return f"{_count(match.rounds, 'round')}, most won"
    return type(match).__name__


def _players_summary(rules: RuleSet) -> str:
    if _has_teams(rules):
        return f"{rules.seats} in {rules.num_sides} teams"
    return str(rules.seats)


def _rules_table() -> list[str]:
    head = ("name", "players", "hand", "capture", "match")
    rows = [head]
    for name in registered():
        rules = find_rules(name)
        rows.append(
            (
                name,
                _players_summary(rules),
                str(rules.hand_size),
                _capture_summary(rules),
                _match_summary(rules),
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(head))]
    lines = [
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    ]
    return [
        *lines,
        "",
        f"`{_PROG} rules NAME` shows every option of one.",
    ]


def _rules_lines(rules: RuleSet) -> list[str]:
    lines = [f"{rules.name}: {rules.seats} players"]
    if _has_teams(rules):
        lines[0] += f" in {rules.num_sides} teams, {_teams(rules)}"
    lines.append("")
    fields = attrs.fields(RuleSet)
    width = max(len(f.name) for f in fields) + 2
    for field in fields:
        if field.name == "name":
            continue
        value = getattr(rules, field.name)
        text = _points_text(value) if isinstance(value, PointsTable) else _symbol(value)
        lines.append(f"  {field.name:<{width}}{text}")
    lines.append("")
    lines.append(f"  {'deals a round':<{width}}{rules.deals_per_round}")
    if type(rules.scorer) is StandardScorer:
        cards, majority = rules.card_points.total, rules.majority_points
        lines.append(
            f"  {'points a round':<{width}}{cards + majority} ({cards} for cards, {majority} for "
            "the most cards), plus the xeris"
        )
    return lines


# --------------------------------------------------------------------------
# replay


def _read_record(path: str) -> GameRecord:
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
        return from_json(text, expect=GameRecord, strict=False)
    except InvalidStateError as exc:
        first, *rest = exc.problems
        raise InvalidStateError([f"{path}: {first}", *rest]) from None


def _replay(path: str, *, seat: int | None, step: bool, io: _Io) -> int:
    try:
        game = _read_record(path)
    except InvalidStateError as exc:
        if seat is None:
            raise
        # The problems of a record can name any card: in one seat's view they are not shown.
        raise InvalidStateError(
            f"{path} is not a game record that replays ({_count(len(exc.problems), 'problem')}, "
            "not shown in one seat's view: run without --seat to see them)"
        ) from None
    rules = game.rules
    view = None
    if seat is not None:
        if not 1 <= seat <= rules.seats:
            raise XeriError(f"--seat must be from 1 to {rules.seats} for {rules.name}, not {seat}")
        view = seat - 1
    title = _header(rules)
    if view is None:
        io.say(f"{title} Every card open.")
    else:
        io.say(f"{title} As {_seat_name(view)} saw it: other hands and the stock hidden.")
    # One state at a time: `from_json` has replayed the record already, and keeping every
    # state of a long match (as `replay` does) would cost memory for nothing.
    last = start(rules, dealer=game.dealer)
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


# --------------------------------------------------------------------------
# main


@attrs.frozen(kw_only=True)
class _Io:
    """The streams a command reads and writes: the process's, or a test's."""

    stdin: TextIO
    stdout: TextIO
    stderr: TextIO

    def say(self, line: str = "") -> None:
        print(line, file=self.stdout)

    def wait(self) -> bool:
        """Wait for Enter; False when the reader quits (`q`, `quit` or the end of input)."""
        self.stdout.write("  [Enter: next play, q: quit] ")
        self.stdout.flush()
        answer = self.stdin.readline()
        if not self.stdin.isatty():  # a terminal echoes the reader's Enter; a pipe does not
            self.say()
        return bool(answer) and answer.strip().lower() not in ("q", "quit")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Xeri (Kseri), the Greek fishing card game, and its relatives.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = sub.add_parser(
        "demo",
        help="play a match between random players and print it",
        description="Play a whole match between two players who pick random legal moves, "
        "and print it with every card open.",
    )
    demo.add_argument("--rules", default="greek", help=f"rule set ({', '.join(registered())})")
    demo.add_argument("--seed", type=int, default=None, help="replay a match exactly")
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
    return parser


def _run(args: argparse.Namespace, io: _Io) -> int:
    if args.command == "demo":
        play_demo(find_rules(args.rules), seed=args.seed, out=io.stdout)
        return 0
    if args.command == "rules":
        lines = _rules_table() if args.name is None else _rules_lines(find_rules(args.name))
        for line in lines:
            io.say(line)
        return 0
    if args.command == "replay":
        return _replay(args.file, seat=args.seat, step=args.step, io=io)
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
        stdin: where input is read (`replay --step`); standard input when None.
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
        return _run(args, io)
    except BrokenPipeError:  # the reader (`| head`) stopped listening: not an error
        with contextlib.suppress(OSError):
            io.stderr.close()
        return 0
    except KeyboardInterrupt:
        print(file=io.stderr)
        return 130
    except XeriError as error:
        print(f"error: {error}", file=io.stderr)
        return 2

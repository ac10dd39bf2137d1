"""`xeri play`: one person against bots in the terminal.

The person is shown only what their seat may see ([X2][rules-x2]): the status
and the numbered legal moves are made from their observation alone; moves are
typed by number or in the move notation, with `hint`, `save FILE`, `help` and
`quit` understood at every prompt.

On a terminal the game keeps a player's pace: the bots wait a moment before
they play and each round's score sheet waits for Enter (`--fast` plays at
once); lines are wrapped to fit 80 columns. `--load FILE` continues a game
saved with `save FILE`.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import time
from collections.abc import Callable, Sequence

from xeri._agents.observation import Observation, _seat, observe
from xeri._agents.previews import preview
from xeri._core.engine import apply, chance_move, legal_moves
from xeri._errors import IllegalMoveError, XeriError
from xeri._families.protocol import XeriKind
from xeri._io.notation import parse_move
from xeri._io.records import GameRecord, record, replay
from xeri._io.serialize import to_json
from xeri._moves import Deal, Move, PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri.bots import LEVELS, Bot
from xeri.cli._common import (
    _bot,
    _bot_name,
    _cards,
    _console,
    _count,
    _has_teams,
    _Io,
    _isatty,
    _load_rules,
    _match_summary,
    _Screen,
    _seat_name,
    _side_name,
)
from xeri.cli._replay import _read_record
from xeri.cli._show import _header, _players_label, _side_label, _step_lines, _wrapped

# --------------------------------------------------------------------------
# play

_STRONGEST = LEVELS[-1][0]
"""The level `xeri play` plays by default and whose bot gives the hints."""


def _opponent(args: argparse.Namespace) -> str:
    """The bot `xeri play` plays against: `--against`, `--level`, or the strongest level."""
    against, level = args.against, args.level
    if against is not None and level is not None:
        raise XeriError("give --against or --level, not both")
    return against or level or _STRONGEST


_BOT_PAUSE = 0.8
"""How long a bot takes over a move on a terminal, thinking included, unless `--fast`."""

_sleep: Callable[[float], None] = time.sleep
"""How the game waits (a test replaces it to count the pauses without waiting)."""


_HELP = """\
At the prompt, type:
  a number      the move of that number in the list
  a move        as the list writes it: a card such as J♥ (or JH, jh, 10h, th){more}
  hint          what a search bot, {hinter}, would play here
  save FILE     save the game so far as a game record (JSON): `xeri replay FILE`
                shows it, `xeri play --load FILE` continues it. The record is of
                the whole game: it holds every hand and the order of the stock,
                so it shows you more than the game does. An existing file is
                kept: save --force FILE replaces it
  help          this text
  quit          leave the game (Ctrl-D too)"""


_MORE_NOTATION = """;
                captures as '7♣ takes 3♦+4♠', builds as '5♠ on 3♦ makes 8',
                a card laid down as '5♠ free'"""


def _parse_refusal(message: str, rules: RuleSet) -> str:
    """A refusal of [`parse_move`][xeri.parse_move] told to the person at the keyboard.

    Its messages never name a card; here the seat becomes `you`.
    """
    if message.startswith("the text does not spell a move"):
        if rules.capture.pile:
            return "that is neither a move nor a command: type a move's number or a card (J♥, JH)"
        return "that is neither a move nor a command: type a move's number or the move as listed"
    message = re.sub(
        r"^seat \d+ does not hold the card the text plays", "you do not hold that card", message
    )
    message = re.sub(r"^seat \d+ may not", "you may not", message)
    message = re.sub(r"^seat \d+ moved out of turn.*", "it is not your turn", message)
    return re.sub(r"of seat \d+", "of yours", message)


_MENU = 60
"""The most legal moves the game shows as a numbered menu; above, it asks for the move's text."""


def _move_lines(obs: Observation, moves: Sequence[PlayerMove]) -> list[str]:
    """The legal moves numbered from 1, with what each takes."""
    width = len(str(len(moves)))
    texts = [str(move) for move in moves]
    pad = max(map(len, texts))
    lines = []
    for number, (move, text) in enumerate(zip(moves, texts, strict=True), start=1):
        lines.append(f"  {number:>{width}}. {text:<{pad}}{_gain(obs, move)}".rstrip())
    return lines


def _gain(obs: Observation, move: PlayerMove) -> str:
    """What a move takes, as its preview from the mover's observation tells it."""
    seen = preview(obs, move)
    if seen.taken is None:
        return ""
    text = f"   -> {_count(seen.count, 'card')}, {_count(seen.points, 'point')}"
    if seen.xeri is XeriKind.XERI:
        text += ", XERI"
    elif seen.xeri is XeriKind.JACK_XERI:
        text += ", JACK XERI"
    return text


def _status_lines(obs: Observation, *, one_round: bool = False) -> list[str]:
    """What the person sees at their turn, made from their observation alone ([X2][rules-x2])."""
    rules = obs.rules
    me = _seat(obs)
    round_no = len(obs.round_results) + 1
    lines = ["", f"Your turn.  Round {round_no}, stock {obs.stock_size}."]
    if rules.capture.pile:
        size = obs.face_down + len(obs.table)
        if not size:
            pile = "empty"
        else:
            pile = _count(size, "card")
            if obs.face_down:
                pile += f" ({obs.face_down} face down)"
            if obs.table:
                pile += f", top {obs.table[-1]}"
        lines.append(f"  pile: {pile}")
    else:
        shown = _cards(obs.table) if obs.table else ""
        down = f"{obs.face_down} face down" if obs.face_down else ""
        lines.append(f"  table: {' '.join(filter(None, (down, shown))) or 'empty'}")
    if obs.bottom_card is not None:
        lines.append(f"  bottom card shown: {obs.bottom_card}")
    others = []
    for seat, size in enumerate(obs.hand_sizes):
        if seat != me:
            partner = " (partner)" if rules.sides[seat] == rules.sides[me] else ""
            others.append(f"{_seat_name(seat)}{partner} {_count(size, 'card')}")
    lines.append(f"  hands: {', '.join(others)}")
    captured = obs.captured_counts
    xeris = [0] * rules.num_sides
    for take in obs.takes:
        if take.xeri is not None:
            xeris[rules.sides[take.seat]] += 1
    parts = []
    for side in range(rules.num_sides):
        part = f"{_side_label(rules, side, me)} {_count(captured[side], 'card')}"
        if xeris[side]:
            part += f" ({_count(xeris[side], 'xeri')})"
        parts.append(part)
    lines.append(f"  captured this round: {', '.join(parts)}")
    lines += _standing_lines(obs, one_round=one_round)
    lines.append(f"  your hand: {_cards(obs.hand)}")
    return lines


def _standing_lines(obs: Observation, *, one_round: bool) -> list[str]:
    """The match so far: the points, and the rounds won when those decide the match."""
    rules, me = obs.rules, obs.seat
    lines: list[str] = []
    scores = ", ".join(
        f"{_side_label(rules, side, me)} {score}" for side, score in enumerate(obs.scores)
    )
    target = obs.status.target
    if one_round:
        goal = "one round, --round"
    elif target is not None:
        goal = f"playing to {target}"
    else:
        goal = _match_summary(rules)
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins) and not one_round:  # the match is decided by rounds won
        won = round_wins(obs.round_results, rules.num_sides)
        wins = ", ".join(f"{_side_label(rules, s, me)} {n}" for s, n in enumerate(won))
        lines.append(f"  rounds won: {wins} ({goal})")
        lines.append(f"  points: {scores}")
    else:
        lines.append(f"  match score: {scores} ({goal})")
    return lines


class _Game:
    """One game of `xeri play`: the state and its record, the bots, the screen."""

    def __init__(
        self,
        *,
        rules: RuleSet,
        human: int,
        bot: Bot,
        seed: int | None,
        screen: _Screen,
        io: _Io,
        one_round: bool,
        fast: bool = False,
        saved: GameRecord | None = None,
        rules_spec: str | None = None,
    ) -> None:
        self.rules = rules
        self.human = human
        self.bot = bot
        self.hinter = _bot(_STRONGEST)
        self.hinter_name = _bot_name(self.hinter).partition(" ")[0]
        self.screen = screen
        self.io = io
        self.one_round = one_round
        # Pauses are for a person watching a terminal: none in a pipe or with --fast.
        watching = not fast and _isatty(io.stdout)
        self.bot_pause = _BOT_PAUSE if watching else 0.0
        self.wait_after_round = watching and _isatty(io.stdin)
        self.rules_spec = rules_spec if rules_spec is not None and ":" in rules_spec else None
        self.loaded = saved is not None
        if seed is None:
            self.chance: random.Random = random.SystemRandom()
            self.bots_rng: random.Random = random.SystemRandom()
            self.hints_rng: random.Random = random.SystemRandom()
        else:  # the deal as `demo` and `random.Random(seed)` make it; the bots' draws apart
            self.chance = random.Random(seed)
            self.bots_rng = random.Random(f"xeri.play/{seed}/bots")
            self.hints_rng = random.Random(f"xeri.play/{seed}/hints")
        if saved is None:
            self.state, self.game = record(rules, rng=self.chance)
        else:
            self.game = saved
            self.state = replay(saved)[-1]

    def say(self, lines: Sequence[str]) -> None:
        for line in lines:
            for part in _wrapped(line):
                self.screen.say(part)

    def intro(self) -> None:
        rules, me = self.rules, self.human
        who = f"You are {_seat_name(me)}"
        if _has_teams(rules):
            side = rules.sides[me]
            partners = [s for s in rules.seats_of(side) if s != me]
            who += f", in {_side_name(rules, side)}"
            if partners:
                who += " with " + " and ".join(map(_seat_name, partners))
        others = [s for s in range(rules.seats) if s != me]
        bots = (
            " and ".join(map(_seat_name, others))
            if len(others) <= 2
            else (", ".join(map(_seat_name, others[:-1])) + f" and {_seat_name(others[-1])}")
        )
        kind, _, budget = _bot_name(self.bot).partition(" ")
        what = f"the {kind} bot" if len(others) == 1 else f"{kind} bots"
        if budget:
            what += f" {budget}"
        title = _header(rules)
        if self.one_round:
            title = title.replace("A match of", "A round of", 1)
        self.say([title, f"{who}; {bots} {'is' if len(others) == 1 else 'are'} {what}."])
        self.say(["Type the number of a move to play it; help lists the other commands."])

    def done(self) -> bool:
        state = self.state
        return state.is_over or (self.one_round and state.is_round_over)

    def play(self) -> int:
        """Play until the end (0), or until the person quits (0 too)."""
        self.intro()
        states = replay(self.game)  # the deal, and the table dealt again if it had to be
        moves = self.game.moves
        first = 0
        if self.loaded:
            # The current round from its deal on, as this seat saw it.
            first = max((i for i, m in enumerate(moves) if isinstance(m, Deal)), default=0)
            rounds = len(self.state.round_results)
            self.say(
                [f"Continuing a saved game: {_count(rounds, 'round')} played, {len(moves)} moves."]
            )
        for before, made, after in zip(
            states[first:], moves[first:], states[first + 1 :], strict=False
        ):
            self.say(_step_lines(before, made, after, self.human, self.human))
        if self.state.is_over:
            self.say(["That game is over: there is nothing left to play."])
            return 0
        while not self.done():
            state = self.state
            seat = state.to_move
            move: Move
            if seat is None:
                move = chance_move(state, self.chance)
            elif seat == self.human:
                asked = self.ask(observe(state, seat))
                if asked is None:
                    self.screen.say("Goodbye.")
                    return 0
                move = asked
            else:
                began = time.monotonic()
                move = self.bot.choose(observe(state, seat), self.bots_rng)
                if self.bot_pause:  # a moment to follow the game: the bot's thinking counts
                    _sleep(max(0.0, self.bot_pause - (time.monotonic() - began)))
            after = apply(state, move)
            self.game = self.game.then(move)
            self.say(_step_lines(state, move, after, self.human, self.human))
            self.state = after
            if after.is_round_over and not self.done() and not self.next_round():
                self.screen.say("Goodbye.")
                return 0
        if self.state.is_over:
            self.say(["", f"*** {self.verdict()} ***"])
        else:
            self.screen.say("That was the one round asked for (--round).")
        return 0

    def next_round(self) -> bool:
        """After a round's score sheet, wait for Enter on a terminal; False to quit."""
        if not self.wait_after_round:
            return True
        answer = self.io.ask("  [Enter: next round, q: quit] ")
        return answer is not None and answer.strip().lower() not in ("q", "quit")

    def verdict(self) -> str:
        """The end of the match in a few words, for the person: won, lost or drawn."""
        rules, winner = self.rules, self.state.winner
        if winner is None:
            return "The match is over: a draw."
        if winner == rules.sides[self.human]:
            if _has_teams(rules):
                players = _players_label(rules, winner, self.human)
                return f"The match is over: your team wins ({players})."
            return "The match is over: you win!"
        return f"The match is over: {_side_label(rules, winner, self.human)} wins."

    def ask(self, obs: Observation) -> PlayerMove | None:
        """The person's move, or None when they quit; other commands are answered here."""
        moves = legal_moves(obs)
        self.say(_status_lines(obs, one_round=self.one_round))
        menu = len(moves) <= _MENU
        if menu:
            self.say(_move_lines(obs, moves))
            prompt = f"your move [1-{len(moves)}, or help]> "
        else:  # counted, never listed
            self.say(
                [
                    (
                        f"  {len(moves):,} legal moves: too many for a menu of {_MENU}, so type "
                        "the move itself,"
                    ),
                    "  as '7C takes 3D+4S', '5S on 3D makes 8' or '5S free' (help shows how)",
                ]
            )
            prompt = "your move [a move, or help]> "
        while True:
            line = self.io.ask(prompt)
            if line is None:
                self.screen.say()
                return None
            text = line.strip()
            word, _, rest = text.partition(" ")
            command = word.lower()
            if not text:
                self.say(
                    [f"  type a move's number, 1 to {len(moves)}, or help"]
                    if menu
                    else ["  type a move, such as '5S free', or help"]
                )
            elif command in ("quit", "exit", "q"):
                return None
            elif command in ("help", "?"):
                more = "" if self.rules.capture.pile else _MORE_NOTATION
                self.say(_HELP.format(more=more, hinter=_bot_name(self.hinter)).splitlines())
            elif command == "hint":
                move = self.hinter.choose(obs, self.hints_rng)
                shown = f"{moves.index(move) + 1}. " if menu else ""  # a menu lists few
                self.say([f"  hint: {shown}{move}{_gain(obs, move)}   ({self.hinter_name})"])
            elif command == "save":
                self.save(rest.strip())
            elif text.isascii() and text.isdigit() and not menu:
                self.say([f"  no menu for {len(moves):,} moves: type the move, such as '5S free'"])
            elif text.isascii() and text.isdigit():
                number = int(text)
                if 1 <= number <= len(moves):
                    return moves[number - 1]
                self.say([f"  there is no move {number}: choose 1 to {len(moves)}"])
            else:
                try:
                    return parse_move(obs, text)
                except IllegalMoveError as exc:
                    self.say([f"  {_parse_refusal(str(exc), self.rules)}"])

    def save(self, path: str) -> None:
        """`save FILE`: a new file only; `save --force FILE` replaces an existing one."""
        force = path == "--force" or path.startswith("--force ")
        if force:
            path = path.removeprefix("--force").strip()
        if not path:
            self.say(["  save needs a file name: save game.json"])
            return
        try:
            text = to_json(self.game)
        except XeriError as exc:  # a custom rule set that JSON cannot hold
            self.say([f"  cannot save this game: {exc}"])
            return
        try:
            # "x" creates the file, refusing one that exists, in one step (no race).
            with open(path, "w" if force else "x", encoding="utf-8") as file:
                file.write(text)
        except FileExistsError:
            if os.path.isdir(path):
                self.say([f"  cannot write {path}: it is a directory"])
            else:
                self.say([f"  {path} exists: type save --force {path} to replace it"])
            return
        except OSError as exc:
            self.say([f"  cannot write {path}: {exc.strerror or type(exc).__name__}"])
            return
        self.say([f"  saved the game so far to {path} (every card in it: replay it afterwards)"])
        if self.rules_spec is not None:  # the record names the rule set, not its module
            self.say([f"  to replay or continue it, pass --rules {self.rules_spec}"])


def _play(args: argparse.Namespace, io: _Io) -> int:
    load = getattr(args, "load", None)
    spec = args.rules
    saved: GameRecord | None = None
    if load is None:
        rules = _load_rules(spec or "greek")
    else:
        if spec is not None:  # a rule set of a module: import it before the record names it
            _load_rules(spec)
        saved = _read_record(load)
        rules = saved.rules
    if not 1 <= args.seat <= rules.seats:
        raise XeriError(f"--seat must be from 1 to {rules.seats} for {rules.name}, not {args.seat}")
    game = _Game(
        rules=rules,
        human=args.seat - 1,
        bot=_bot(_opponent(args)),
        seed=args.seed,
        screen=_Screen(stream=io.stdout, console=_console(io.stdout, args.color)),
        io=io,
        one_round=args.one_round,
        fast=getattr(args, "fast", False),
        saved=saved,
        rules_spec=spec,
    )
    return game.play()

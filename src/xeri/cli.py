"""The command line: `xeri play`, `xeri simulate`, `xeri demo`, `xeri rules`, `xeri replay`.

The installed `xeri` command and `python -m xeri` are the same program.

* `xeri play --rules greek --against counting` plays a game in the
  terminal: one person against bots, shown only what that person's seat may
  see ([X2][rules-x2]). The legal moves are numbered; a move is chosen by its
  number or written in the move notation ([`parse_move`][xeri.parse_move]);
  `hint`, `save FILE`, `help` and `quit` (or Ctrl-D) are understood at
  every prompt.
* `xeri simulate greek counting greedy --deals 200 --workers 2` plays bots
  against each other with [`simulate`][xeri.simulate] and prints the result
  with the 95% interval of the difference (`--json` for the data).
* `xeri demo --rules greek --seed 7` plays a whole match between two bots
  (counting against greedy by default) and prints it: every deal with the
  hands, every play with the cards each capture takes, and a score sheet
  per round. With `--seed` the match replays exactly; without it the
  shuffles come from the operating system's secure source.
* `xeri rules` lists the registered rule sets; `xeri rules NAME` shows
  every option of one.
* `xeri replay FILE` prints a game record saved with
  [`to_json`][xeri.to_json], all cards open, or as one player saw it
  (`--seat N`: that player's own hand, never another hand or the stock);
  `--step` waits for Enter between plays.

A rule set is named by its registered name, or as `MODULE:ATTRIBUTE` for a
[`RuleSet`][xeri.RuleSet] of a module importable from the current
directory. Bots are named `random`, `greedy`, `counting`, `pimc` and
`ismcts` ([`xeri.bots`][xeri.bots]); `pimc:N` and `ismcts:N` set the search
bots' samples or iterations.

Players are numbered as people count them, Player 1 to Player n (seat 0 is
Player 1). Errors are printed as one line, `error: ...`, with exit status 2.
Colours come from the optional `rich` package (`pip install "xeri[cli]"`);
without it everything is plain text.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import math
import multiprocessing
import os
import random
import re
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from enum import Enum
from typing import TYPE_CHECKING, TextIO, cast

import attrs

from xeri.bots import Bot, CountingBot, GreedyBot, ISMCTSBot, PIMCBot, RandomBot
from xeri.capture import XeriKind
from xeri.cards import Card
from xeri.engine import apply, chance_move, legal_moves, start
from xeri.errors import IllegalMoveError, InvalidStateError, XeriError
from xeri.match import FixedRounds, TargetScore
from xeri.moves import Move, PlayerMove
from xeri.notation import parse_move
from xeri.observe import Observation, ObservedTake, observe
from xeri.pile import PileCapture
from xeri.preview import preview
from xeri.records import GameRecord, record, replay
from xeri.rules import RuleSet, find_rules, registered
from xeri.scoring import PointsTable, StandardScorer
from xeri.serialize import MAX_TEXT_LENGTH, from_json, to_json
from xeri.simulation import simulate
from xeri.state import GameState, Phase
from xeri.sums import SumCapture
from xeri.table import TableItem

if TYPE_CHECKING:  # rich is optional (the `cli` extra): imported where it is used
    from rich.console import Console

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
# Rule sets and bots by name


def _load_rules(name: str) -> RuleSet:
    """A registered rule set, or `MODULE:ATTRIBUTE` imported (from the current directory too)."""
    if ":" not in name:
        return find_rules(name)
    module_name, _, path = name.partition(":")
    if not module_name or not path:
        raise XeriError(f"a rule set is a registered name or MODULE:ATTRIBUTE, not {name!r}")
    try:
        value: object = importlib.import_module(module_name)
    except ImportError as exc:
        raise XeriError(f"cannot import {module_name} for the rule set {name}: {exc}") from None
    except Exception as exc:  # a user's module may fail in any way: say how, in one line
        raise XeriError(
            f"importing {module_name} for the rule set {name} failed: {type(exc).__name__}: {exc}"
        ) from None
    missing = object()
    for part in path.split("."):
        value = getattr(value, part, missing)
        if value is missing:
            raise XeriError(f"{module_name} has no attribute {path}")
    if not isinstance(value, RuleSet):
        raise XeriError(f"{name} is a {type(value).__name__}, not a RuleSet")
    return value


@contextlib.contextmanager
def _importable_here() -> Iterator[None]:
    """The current directory on `sys.path` while a command runs, as `python -m` has it.

    So that `--rules MODULE:ATTRIBUTE` finds a module of the current directory
    from the installed `xeri` command too, and worker processes started by
    `simulate` find it as well.
    """
    try:
        here = os.getcwd()
    except OSError:  # the directory was removed under us: nothing to add
        yield
        return
    if "" in sys.path or here in sys.path:
        yield
        return
    sys.path.insert(0, here)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(here)


_BOT_NAMES = ("random", "greedy", "counting", "pimc", "ismcts")
"""The bots the command line knows, weakest first."""

_SEARCH_BUDGETS = {True: (100, 400), False: (12, 150)}
"""PIMC samples and IS-MCTS iterations, by the capture rule's `pile`: about
0.1 s a decision on one core (an open table has many more moves per card)."""

_THINK_SECONDS = 0.2
"""How long a search bot may think per move in `xeri play`, at most."""


def _bot(spec: str, rules: RuleSet, *, seconds: float | None = None) -> Bot:
    """The bot named `spec` (`pimc:N` and `ismcts:N` set the budget) for `rules`.

    `seconds` caps a search bot's time per move; without it the search bots
    play the same moves for the same seed on any machine.
    """
    name, colon, count_text = spec.strip().lower().partition(":")
    known = "random, greedy, counting, pimc[:SAMPLES], ismcts[:ITERATIONS]"
    if name not in _BOT_NAMES:
        raise XeriError(f"no bot is called {spec!r}; known: {known}")
    searches = name in ("pimc", "ismcts")
    if colon and not searches:
        raise XeriError(f"the {name} bot takes no budget: write {name}, not {spec!r}")
    samples, iterations = _SEARCH_BUDGETS[rules.capture.pile]
    if colon:
        if not count_text.isdigit() or int(count_text) < 1:
            raise XeriError(f"the budget of {name} must be a positive number, not {count_text!r}")
        samples = iterations = int(count_text)
    if name == "random":
        return RandomBot()
    if name == "greedy":
        return GreedyBot()
    if name == "counting":
        return CountingBot()
    if name == "pimc":
        return PIMCBot(samples=samples, seconds=seconds)
    return ISMCTSBot(iterations=iterations, seconds=seconds)


def _bot_name(bot: Bot) -> str:
    """A bot as the command line names it: `counting`, `pimc (60 samples)`."""
    if isinstance(bot, PIMCBot):
        budget = _count(bot.samples, "sample")
    elif isinstance(bot, ISMCTSBot):
        budget = _count(bot.iterations, "iteration")
    else:
        return type(bot).__name__.removesuffix("Bot").lower()
    name = "pimc" if isinstance(bot, PIMCBot) else "ismcts"
    if bot.seconds is not None:
        budget += f", at most {bot.seconds:g} s a move"
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


@attrs.frozen(kw_only=True)
class _Screen:
    """Where `xeri play` writes: lines with the cards in suit colours, or plain text."""

    stream: TextIO
    console: Console | None

    def say(self, line: str = "") -> None:
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
    bots: Sequence[Bot] | None = None,
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
        choose: picks a move in a state, given a generator of its own.
        bots: one bot per side ([`xeri.bots`][xeri.bots]), each given only
            what its seat sees; the transcript names them. Give `bots` or
            `choose`, not both; with neither, the players pick uniformly
            random legal moves.

    Returns:
        The final state.

    Raises:
        XeriError: both `choose` and `bots` were given, or not one bot per side.
    """
    if choose is not None and bots is not None:
        raise XeriError("play_demo takes choose or bots, not both")
    if bots is not None and len(bots) != rules.num_sides:
        raise XeriError(
            f"play_demo needs one bot per side: {rules.name} has {rules.num_sides} sides,"
            f" {len(bots)} bots were given"
        )
    stream = sys.stdout if out is None else out
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    players = random.Random(rng.random())

    def pick(state: GameState) -> PlayerMove:
        if choose is not None:
            return choose(state, players)
        seat = state.to_move
        if bots is not None and seat is not None:
            return bots[rules.sides[seat]].choose(observe(state, seat), players)
        return players.choice(legal_moves(state))

    def say(lines: list[str]) -> None:
        for line in lines:
            print(line, file=stream)

    state, game = record(rules, rng=rng)
    say([_header(rules)])
    if bots is not None:
        say([_seating(rules, bots)])
    states = replay(game)  # the deal, and the table dealt again if it had to be
    for before, dealt, after in zip(states, game.moves, states[1:], strict=False):
        say(_step_lines(before, dealt, after, None))
    while not state.is_over:
        move: Move = chance_move(state, rng) if state.is_chance else pick(state)
        after = apply(state, move)
        say(_step_lines(state, move, after, None))
        state = after
    return state


def _seating(rules: RuleSet, bots: Sequence[Bot]) -> str:
    """Who plays each side: `Bots: Player 1 counting, Player 2 greedy.`."""
    parts = []
    for side, bot in enumerate(bots):
        who = _side_name(rules, side)
        if _has_teams(rules):
            who += f" ({_players_of(rules, side)})"
        parts.append(f"{who} {_bot_name(bot)}")
    return f"Bots: {', '.join(parts)}."


# --------------------------------------------------------------------------
# play

_HELP = """\
At the prompt, type:
  a number      the move of that number in the list
  a move        as the list writes it: a card such as J♥ (or JH, jh, 10h, th){more}
  hint          what a search bot, {hinter}, would play here
  save FILE     save the game so far as a game record (JSON) to replay later with
                `xeri replay FILE`. The record is of the whole game: it holds every
                hand and the order of the stock, so it shows you more than the game does
  help          this text
  quit          leave the game (Ctrl-D too)"""

_MORE_NOTATION = """;
                captures as '7♣ takes 3♦+4♠', builds as '5♠ on 3♦ makes 8', a card laid
                down as '5♠ free'"""


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


def _status_lines(obs: Observation) -> list[str]:
    """What the person sees at their turn, made from their observation alone ([X2][rules-x2])."""
    rules = obs.rules
    me = obs.seat
    round_no = len(obs.round_results) + 1
    lines = ["", f"Your turn, {_seat_name(me)}.  Round {round_no}, stock {obs.stock_size}."]
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
        part = f"{_side_name(rules, side)} {_count(captured[side], 'card')}"
        if xeris[side]:
            part += f" ({_count(xeris[side], 'xeri')})"
        parts.append(part)
    lines.append(f"  captured this round: {', '.join(parts)}")
    scores = ", ".join(
        f"{_side_name(rules, side)} {score}" for side, score in enumerate(obs.scores)
    )
    target = obs.status.target
    goal = f"playing to {target}" if target is not None else _match_summary(rules)
    lines.append(f"  match score: {scores} ({goal})")
    lines.append(f"  your hand: {_cards(obs.hand)}")
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
    ) -> None:
        self.rules = rules
        self.human = human
        self.bot = bot
        self.hinter = _bot("pimc", rules, seconds=_THINK_SECONDS)
        self.hinter_name = _bot_name(self.hinter).partition(" ")[0]
        self.screen = screen
        self.io = io
        self.one_round = one_round
        if seed is None:
            self.chance: random.Random = random.SystemRandom()
            self.bots_rng: random.Random = random.SystemRandom()
            self.hints_rng: random.Random = random.SystemRandom()
        else:  # the deal as `demo` and `random.Random(seed)` make it; the bots' draws apart
            self.chance = random.Random(seed)
            self.bots_rng = random.Random(f"xeri.play/{seed}/bots")
            self.hints_rng = random.Random(f"xeri.play/{seed}/hints")
        self.state, self.game = record(rules, rng=self.chance)

    def say(self, lines: Sequence[str]) -> None:
        for line in lines:
            self.screen.say(line)

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
        for before, dealt, after in zip(states, self.game.moves, states[1:], strict=False):
            self.say(_step_lines(before, dealt, after, self.human))
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
                move = self.bot.choose(observe(state, seat), self.bots_rng)
            after = apply(state, move)
            self.game = self.game.then(move)
            self.say(_step_lines(state, move, after, self.human))
            self.state = after
        if not self.state.is_over:
            self.screen.say("That was the one round asked for (--round).")
        return 0

    def ask(self, obs: Observation) -> PlayerMove | None:
        """The person's move, or None when they quit; other commands are answered here."""
        moves = legal_moves(obs)
        self.say(_status_lines(obs))
        self.say(_move_lines(obs, moves))
        prompt = f"your move [1-{len(moves)}, or help]> "
        while True:
            line = self.io.ask(prompt)
            if line is None:
                self.screen.say()
                return None
            text = line.strip()
            word, _, rest = text.partition(" ")
            command = word.lower()
            if not text:
                self.say([f"  type a move's number, 1 to {len(moves)}, or help"])
            elif command in ("quit", "exit", "q"):
                return None
            elif command in ("help", "?"):
                more = "" if self.rules.capture.pile else _MORE_NOTATION
                self.say(_HELP.format(more=more, hinter=_bot_name(self.hinter)).splitlines())
            elif command == "hint":
                move = self.hinter.choose(obs, self.hints_rng)
                number = moves.index(move) + 1
                self.say([f"  hint: {number}. {move}{_gain(obs, move)}   ({self.hinter_name})"])
            elif command == "save":
                self.save(rest.strip())
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
        if not path:
            self.say(["  save needs a file name: save game.json"])
            return
        try:
            text = to_json(self.game)
        except XeriError as exc:  # a custom rule set that JSON cannot hold
            self.say([f"  cannot save this game: {exc}"])
            return
        try:
            with open(path, "w", encoding="utf-8") as file:
                file.write(text)
        except OSError as exc:
            self.say([f"  cannot write {path}: {exc.strerror or type(exc).__name__}"])
            return
        self.say([f"  saved the game so far to {path} (every card in it: replay it afterwards)"])


def _play(args: argparse.Namespace, io: _Io) -> int:
    rules = _load_rules(args.rules)
    if not 1 <= args.seat <= rules.seats:
        raise XeriError(f"--seat must be from 1 to {rules.seats} for {rules.name}, not {args.seat}")
    game = _Game(
        rules=rules,
        human=args.seat - 1,
        bot=_bot(args.against, rules, seconds=_THINK_SECONDS),
        seed=args.seed,
        screen=_Screen(stream=io.stdout, console=_console(io.stdout, args.color)),
        io=io,
        one_round=args.one_round,
    )
    return game.play()


# --------------------------------------------------------------------------
# simulate


@contextlib.contextmanager
def _progress(mode: str, io: _Io) -> Iterator[Callable[[int, int], None]]:
    """A progress callback for [`simulate`][xeri.simulate]: a bar, lines, or nothing.

    `auto` is a bar (rich) when standard output is a terminal and rich is
    installed, else lines; `bar` forces the bar (lines without rich); `lines`
    prints `done/total deals` on the error stream at each tenth; `none`
    prints nothing.
    """
    if mode in ("auto", "bar"):
        console = _console(io.stdout, "always" if mode == "bar" else "auto")
        if console is not None:
            from rich.progress import (  # noqa: PLC0415  # optional: the `cli` extra
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            with Progress(
                TextColumn("deals"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TextColumn("left"),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            ) as bar:
                task = bar.add_task("deals", total=None)

                def update(done: int, total: int) -> None:
                    bar.update(task, completed=done, total=total)

                yield update
            return
    if mode == "none":
        yield lambda done, total: None
        return
    shown = [0]

    def line(done: int, total: int) -> None:
        tenth = done * 10 // total
        if tenth > shown[0]:
            shown[0] = tenth
            print(f"{done}/{total} deals", file=io.stderr, flush=True)

    yield line


def _finite(value: object) -> object:
    """JSON-ready data with infinite and NaN numbers written as null (JSON has none)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def _stop(pool: ProcessPoolExecutor) -> None:
    """Stop a pool's workers now, whatever they are playing."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14 and later
    if callable(terminate):
        terminate()
        return
    # Before 3.14: the pool's own record of its processes (which `shutdown` clears).
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()


def _simulate(args: argparse.Namespace, io: _Io) -> int:
    rules = _load_rules(args.rules)
    bots = [_bot(spec, rules) for spec in args.bots]
    pool: ProcessPoolExecutor | None = None
    if args.workers > 1:
        # Fresh interpreters, not forks: safe whatever threads this process runs. The
        # workers leave Ctrl-C to this process, which stops them.
        pool = ProcessPoolExecutor(
            max_workers=args.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=signal.signal,
            initargs=(signal.SIGINT, signal.SIG_IGN),
        )
    executor: Executor | None = pool
    try:
        with _progress(args.progress, io) as report:
            result = simulate(
                rules,
                bots,
                deals=args.deals,
                duplicate=not args.no_duplicate,
                matches=args.matches,
                seed=args.seed,
                executor=executor,
                progress=report,
            )
    except BaseException:  # interrupted, or a bot failed: stop the deals still playing
        if pool is not None:
            _stop(pool)
        raise
    if pool is not None:
        pool.shutdown()
    if args.json:
        io.say(json.dumps(_finite(result.to_dict())))
    else:
        io.say(result.table())
    return 0


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=_PROG,
        description="Xeri (Kseri), the Greek fishing card game, and its relatives.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    rules_help = f"rule set: {', '.join(registered())}, or MODULE:ATTRIBUTE"
    bots_help = ", ".join(_BOT_NAMES)
    play = sub.add_parser(
        "play",
        help="play against bots in the terminal",
        description="Play against bots in the terminal, seeing only what your seat may see.",
        epilog="At the prompt: a move's number or the move itself, hint, save FILE, help, quit.",
    )
    play.add_argument("--rules", default="greek", help=f"{rules_help} (default greek)")
    play.add_argument(
        "--against",
        default="counting",
        metavar="BOT",
        help=f"the bots' kind, partners included: {bots_help} (default counting)",
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
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="cards in suit colours: auto (on a terminal, with rich installed), always, never",
    )
    sim = sub.add_parser(
        "simulate",
        help="play bots against each other and print the result",
        description="Play bots against each other over duplicate deals and print the mean "
        "points per round and the 95%% interval of the difference.",
    )
    sim.add_argument("rules", metavar="RULES", help=rules_help)
    sim.add_argument(
        "bots",
        nargs="+",
        metavar="BOT",
        help=f"one bot per side: {bots_help}; pimc:N and ismcts:N set the budget",
    )
    sim.add_argument("--deals", type=_positive, default=100, help="deals to play (default 100)")
    sim.add_argument(
        "--workers", type=_positive, default=1, help="processes to play in (default 1)"
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


def _positive(text: str) -> int:
    """An argument that must be a positive int."""
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive number, not {text!r}")
    return value


def _run(args: argparse.Namespace, io: _Io) -> int:
    if args.command == "play":
        return _play(args, io)
    if args.command == "simulate":
        return _simulate(args, io)
    if args.command == "demo":
        rules = _load_rules(args.rules)
        bots = [_bot(spec, rules) for spec in args.bots.split(",")]
        play_demo(rules, seed=args.seed, out=io.stdout, bots=bots)
        return 0
    if args.command == "rules":
        lines = _rules_table() if args.name is None else _rules_lines(_load_rules(args.name))
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
        with _importable_here():
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

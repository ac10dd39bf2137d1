"""`xeri demo`: a whole match between bots, printed with every card open.

[`play_demo`][xeri.cli.play_demo] is public, re-exported by `xeri.cli`; it
prints the transcript that `xeri.cli._show` writes.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from xeri._agents.observation import observe
from xeri._core.engine import apply, chance_move, legal_moves
from xeri._core.state import GameState
from xeri._errors import XeriError
from xeri._io.records import record, replay
from xeri._moves import Move, PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri.bots import Bot
from xeri.cli._common import _bot_name, _has_teams, _players_of, _side_name
from xeri.cli._show import _header, _step_lines, _wrapped

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
    say(_wrapped(_header(rules)))
    if bots is not None:
        say(_wrapped(_seating(rules, bots)))
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

"""The bot protocol, [`Bot`][xeri.bots.Bot], and [`RandomBot`][xeri.bots.RandomBot].

A bot is handed an [`Observation`][xeri.Observation], never a
[`GameState`][xeri.GameState]: it cannot see another hand or the stock
because its input holds none ([X2][rules-x2]). Everything a bot remembers
of the round is in the observation's public history, so `choose` alone
plays at full strength; bots keep no state between calls.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import attrs

from xeri._agents.observation import Observation
from xeri._core.engine import RandomSource, legal_moves
from xeri._errors import IllegalMoveError
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove

__all__ = ["Bot", "RandomBot", "moves_to_choose"]


@runtime_checkable
class Bot(Protocol):
    """A player: picks a legal move from what its seat sees.

    Implementations should be frozen attrs classes (so they can be compared,
    pickled and sent to other processes by [`simulate`][xeri.simulate]) and
    must draw every random choice from `rng`, so that a seeded simulation
    replays exactly.
    """

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The move to play.

        Args:
            observation: what the seat to move sees; its seat is to move.
            rng: the generator for every random choice the bot makes.

        Returns:
            One of `legal_moves(observation)`.
        """
        ...


def moves_to_choose(observation: Observation) -> tuple[PlayerMove, ...]:
    """The legal moves of the observing seat, refusing an observation where it is not to move.

    Args:
        observation: what a seat sees.

    Returns:
        Its legal moves, never empty: as [`legal_moves`][xeri.legal_moves] gives them (a
        lazy [`LegalMoves`][xeri.LegalMoves] on a large table), so that a bot drawing one
        (`moves[rng.randrange(len(moves))]`) lists none.

    Raises:
        IllegalMoveError: `observation` is not an observation, or its seat is
            not to move.
    """
    if type(observation) is not Observation:
        raise IllegalMoveError(f"a bot needs an Observation, not {type(observation).__name__}")
    moves = legal_moves(observation)
    if not moves:
        raise IllegalMoveError(f"seat {observation.seat} is not to move")
    return moves


@attrs.frozen(kw_only=True)
class RandomBot(_Immutable):
    """Plays a legal move chosen uniformly at random."""

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """A uniformly random legal move; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        moves = moves_to_choose(observation)
        return moves[rng.randrange(len(moves))]

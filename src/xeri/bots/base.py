"""The bot protocol, [`Bot`][xeri.bots.Bot], and [`RandomBot`][xeri.bots.RandomBot].

A bot is handed an [`Observation`][xeri.Observation], never a
[`GameState`][xeri.GameState]: it cannot see another hand or the stock
because its input holds none ([X2][rules-x2]). Everything a bot remembers
of the round is in the observation's public history, so `choose` alone
plays at full strength; bots keep no state between calls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import attrs

from xeri._agents.observation import Observation
from xeri._cards import Card
from xeri._core.engine import RandomSource, legal_moves
from xeri._core.legal import LegalMoves, checks_lazily
from xeri._errors import ArgumentError
from xeri._immutable import _Immutable
from xeri._moves import Capture, PlayerMove, Trail, move_sort_key
from xeri._table import TableItem

__all__ = ["CANDIDATES", "SAMPLED", "Bot", "RandomBot", "candidates", "moves_to_choose"]

CANDIDATES = 1_000
"""Above this many legal moves a bot scores the bounded [`candidates`][xeri.bots.candidates]."""

SAMPLED = 64
"""How many moves drawn by index that set holds."""


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
        ArgumentError: `observation` is not an observation, or its seat is
            not to move.
    """
    if type(observation) is not Observation:
        raise ArgumentError(f"a bot needs an Observation, not {type(observation).__name__}")
    moves = legal_moves(observation)
    if not moves:
        raise ArgumentError(f"seat {observation.seat} is not to move: a bot has no move to choose")
    return moves


def candidates(
    moves: Sequence[PlayerMove],
    rng: RandomSource,
    *,
    hand: Sequence[Card],
    table: Sequence[TableItem],
    cap: int = CANDIDATES,
    sample: int = SAMPLED,
) -> Sequence[PlayerMove]:
    """The moves a bot scores: all of them up to `cap`, a bounded set of them above.

    In a sum game the legal moves can be astronomical (CASSINO with both
    players laying every card free reaches billions), so a bot that scores
    every move would never answer. Up to `cap` moves, `moves` itself is
    returned, and the bot plays as it always has. Above, the set holds:

    * every trail (a card laid free) of `hand`;
    * every capture that takes a single item of `table`;
    * `sample` moves drawn by index with `rng`, `moves[rng.randrange(len(moves))]`;

    found with `move in moves` and `moves[i]`, which list nothing, and given
    in the order of `moves` ([`move_sort_key`][xeri.move_sort_key]), without
    duplicates: at most `len(hand) * (len(table) + 1) + sample` moves.

    Args:
        moves: the legal moves, as [`legal_moves`][xeri.legal_moves] gives them.
        rng: the generator the sample is drawn from (untouched up to `cap`).
        hand: the mover's hand.
        table: the table the moves are played on.
        cap: the most moves returned as they are.
        sample: how many moves to draw by index above `cap`.

    Returns:
        `moves`, or the bounded set as a tuple.
    """
    n = len(moves)
    if n <= cap:
        return moves
    found: set[PlayerMove] = set()
    # A lazy sequence checks a move without listing; a listed one is looked up in a set. A
    # custom rule that counts its moves but would list them to check one gives the sample only.
    lazy = checks_lazily(moves)
    if lazy or type(moves) is LegalMoves or not isinstance(moves, LegalMoves):
        lookup: Sequence[PlayerMove] | frozenset[PlayerMove] = moves if lazy else frozenset(moves)
        for card in hand:
            tried: list[PlayerMove] = [Trail(card=card)]
            tried += [Capture(card=card, taken=(item,)) for item in table]
            found.update(move for move in tried if move in lookup)
    picks: set[int] = set()
    while len(picks) < min(sample, n):
        picks.add(rng.randrange(n))
    found.update(moves[i] for i in sorted(picks))
    return tuple(sorted(found, key=move_sort_key))


@attrs.frozen(kw_only=True)
class RandomBot(_Immutable):
    """Plays a legal move chosen uniformly at random."""

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """A uniformly random legal move; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        moves = moves_to_choose(observation)
        return moves[rng.randrange(len(moves))]

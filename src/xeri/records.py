"""Game records: a match as its rule set, first dealer and moves, chance's included.

A [`GameRecord`][xeri.GameRecord] holds everything needed to play a game
again exactly: the rule set, the first dealer, and every move in order,
each [`Deal`][xeri.Deal] and [`Reshuffle`][xeri.Reshuffle] among the
players' moves. [`replay`][xeri.replay] gives back every state of the game.
Records are small immutable values; save one with
[`to_json`][xeri.to_json] to file a bug report or keep a regression
fixture.

To record while playing, start with [`record`][xeri.record] (it deals like
[`new_game`][xeri.new_game] and returns the state and the record so far)
and keep the state and the record side by side with
[`GameRecord.then`][xeri.GameRecord.then]:

Examples:
    >>> import random, xeri
    >>> rng = random.Random(4)
    >>> state, rec = xeri.record(xeri.GREEK, rng=rng)
    >>> while not state.is_round_over:
    ...     move = xeri.legal_moves(state)[0]
    ...     state, rec = xeri.apply(state, move), rec.then(move)
    >>> xeri.replay(rec)[-1] == state
    True
    >>> type(rec.moves[0]).__name__
    'Deal'
"""

from __future__ import annotations

import secrets

import attrs

from xeri.cards import Card
from xeri.engine import RandomSource, apply, chance_move, start
from xeri.errors import IllegalMoveError
from xeri.moves import Capture, Combine, Deal, Move, Reshuffle, Trail
from xeri.rules import GREEK, RuleSet
from xeri.state import GameState, Phase
from xeri.table import Build

__all__ = ["GameRecord", "record", "replay"]

# The names below are used in the annotations of the classes, which cattrs
# resolves at run time (see xeri.serialize).
_ANNOTATION_NAMES = (Build, Capture, Card, Combine, Deal, Reshuffle, Trail)

_SYSTEM_RANDOM = secrets.SystemRandom()


@attrs.frozen(kw_only=True)
class GameRecord:
    """A game as its rule set, first dealer and every move, chance's included, in order.

    [`replay`][xeri.replay] plays it again. Extend a record with
    [`then`][xeri.GameRecord.then]; a record may stop anywhere in a match.
    """

    rules: RuleSet
    """The rule set of the match."""
    dealer: int
    """The first dealer's seat."""
    moves: tuple[Move, ...] = ()
    """Every move from the first deal on, in order: chance's deals and reshuffles and the
    players' moves."""

    def then(self, move: Move) -> GameRecord:
        """This record with `move` appended; the record itself is unchanged.

        The move is not checked here; [`replay`][xeri.replay] checks every move.
        """
        return GameRecord(rules=self.rules, dealer=self.dealer, moves=(*self.moves, move))


def record(
    rules: RuleSet = GREEK,
    *,
    deck: tuple[Card, ...] | list[Card] | None = None,
    dealer: int | None = None,
    rng: RandomSource | None = None,
) -> tuple[GameState, GameRecord]:
    """Deal the first round as [`new_game`][xeri.new_game] does, and start its record.

    With the same arguments (and a generator in the same state) the state is
    the one `new_game` returns.

    Args:
        rules: the rule set ([`GREEK`][xeri.GREEK] by default).
        deck: the first round's deck, top card first; drawn with `rng` when None.
        dealer: the first dealer's seat; drawn with `rng` when None.
        rng: the generator for every draw; defaults to `secrets.SystemRandom()`.

    Returns:
        The state after the deal (and any redeal of the initial table), and the
        record of the game so far: the deal and the reshuffles.

    Raises:
        IllegalMoveError: `deck` is not the 52 cards, or `dealer` is not a seat.
    """
    if rng is None:
        rng = _SYSTEM_RANDOM
    if dealer is None:
        dealer = rng.randrange(rules.seats) if isinstance(rules, RuleSet) else 0
    state = start(rules, dealer=dealer)
    rec = GameRecord(rules=rules, dealer=dealer)
    move: Move = chance_move(state, rng) if deck is None else Deal(deck=tuple(deck))
    state, rec = apply(state, move), rec.then(move)
    while state.phase is Phase.REDEAL:
        move = chance_move(state, rng)
        state, rec = apply(state, move), rec.then(move)
    return state, rec


def replay(game: GameRecord) -> tuple[GameState, ...]:
    """Every state of a recorded game: the state before the first deal, then one per move.

    Args:
        game: the record.

    Returns:
        `len(game.moves) + 1` states; the last is where the record ends.

    Raises:
        IllegalMoveError: the first dealer is not a seat, or a move is not
            legal where it is applied (the message says which move).
    """
    state = start(game.rules, dealer=game.dealer)
    states = [state]
    for i, move in enumerate(game.moves):
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {i} of the record: {exc}") from None
        states.append(state)
    return tuple(states)

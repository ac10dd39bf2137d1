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
from typing import TYPE_CHECKING

import attrs

from xeri._cards import Card
from xeri._core.engine import RandomSource, apply, chance_move, start
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, IllegalMoveError
from xeri._moves import Deal, Move
from xeri._rules.ruleset import GREEK, RuleSet

__all__ = ["GameRecord", "record", "replay"]

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
    # A record made by `then` leaves `moves` unset and links to the record it extends;
    # the tuple is built on first use (see `then`). Neither link counts in eq, hash or repr.
    _parent: GameRecord | None = attrs.field(default=None, init=False, repr=False, eq=False)
    _last: Move | None = attrs.field(default=None, init=False, repr=False, eq=False)

    def then(self, move: Move) -> GameRecord:
        """This record with `move` appended; the record itself is unchanged.

        The move is not checked here; [`replay`][xeri.replay] checks every move.
        Extending costs the same whatever the record's length: the new record's
        `moves` is built when first read, so a game of n moves recorded move by
        move costs time and memory in proportion to n (reading `moves` after
        every move costs n each time).
        """
        new: GameRecord = object.__new__(GameRecord)
        _set(new, "rules", self.rules)
        _set(new, "dealer", self.dealer)
        _set(new, "_parent", self)
        _set(new, "_last", move)
        return new

    if not TYPE_CHECKING:  # for mypy `moves` is a plain field

        def __getattr__(self, name: str) -> object:
            # Called only for a slot never set: the `moves` of a record made by `then`.
            if name != "moves":
                raise AttributeError(name)
            return _moves(self)


_set = object.__setattr__
"""Sets a slot of a frozen record being made or completed."""


def _moves(game: GameRecord) -> tuple[Move, ...]:
    """Build the `moves` of a record made by `then`, walking back to a record that has them."""
    tail: list[Move] = []
    node = game
    # A record still linked has no `moves` yet; `moves` is set before the link is cut.
    while node._parent is not None:
        tail.append(node._last)  # type: ignore[arg-type]  # set by `then` with the link
        node = node._parent
    done = node.moves
    tail.reverse()
    moves = (*done, *tail)
    _set(game, "moves", moves)
    _set(game, "_parent", None)  # the earlier records may now be freed
    return moves


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
        ArgumentError: `rules` is not a rule set, or `dealer` is not a seat.
        IllegalMoveError: `deck` is not the rule set's cards.
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

    Replaying takes time in proportion to the moves. The states share every
    part that a move leaves unchanged, but each holds the results of the
    rounds before it, so a match of r rounds keeps about r * r / 2 results
    alive in all (10,000 rounds: some 400 MB).

    Args:
        game: the record.

    Returns:
        `len(game.moves) + 1` states; the last is where the record ends.

    Raises:
        ArgumentError: `game` is not a record, or its first dealer is not a seat.
        IllegalMoveError: a move is not legal where it is applied (the message
            says which move).
    """
    states: list[GameState] = []
    _play(game, states)
    return tuple(states)


def _play(game: GameRecord, states: list[GameState] | None = None) -> GameState:
    """Apply every move of `game`, appending each state to `states` if given; the last state."""
    if not isinstance(game, GameRecord):
        raise ArgumentError(f"a GameRecord is needed, not {type(game).__name__}")
    state = start(game.rules, dealer=game.dealer)
    keep = None if states is None else states.append
    if keep is not None:
        keep(state)
    for i, move in enumerate(game.moves):
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"move {i} of the record: {exc}") from None
        if keep is not None:
            keep(state)
    return state


def _last_state(game: GameRecord) -> GameState:
    """The state where a record ends, in time linear in its moves and memory for one state.

    [`replay`][xeri.replay] keeps every state, each with the results of the
    rounds before it; checking that a long record replays needs only this.

    Raises:
        IllegalMoveError: as [`replay`][xeri.replay].
    """
    return _play(game)

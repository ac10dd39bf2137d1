"""What a move would take, before it is made: [`preview`][xeri.preview].

Greedy players, hints and user interfaces want to know what a move takes
and what it is worth without applying it and without computing the capture
by hand. [`preview`][xeri.preview] asks the rule set's capture rule, exactly
as [`apply`][xeri.apply] does, and prices the cards with the rule set's
points table and xeri bonuses ([G10][rules-g10], [D8][rules-d8]).

Given an [`Observation`][xeri.Observation], face-down cards ([P3][rules-p3])
are not known: a capture that takes them counts only the cards the seat can
see, and `hidden` says how many more it takes.
"""

from __future__ import annotations

import attrs

from xeri._agents.observation import Observation
from xeri._cards import Card
from xeri._core.round import counted_xeri
from xeri._core.state import GameState
from xeri._errors import ArgumentError, IllegalMoveError
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove

__all__ = ["Preview", "preview"]


@attrs.frozen(kw_only=True)
class Preview(_Immutable):
    """What one move takes and what that is worth now.

    `points` are the card points of the cards taken plus the xeri bonus,
    plus what the rule set's additive [categories][xeri.Category] give for
    this capture (a settebello, a sweep); the majority bonus and the other
    categories are decided only at the end of the round and are not
    included.
    """

    move: PlayerMove
    """The move previewed."""
    taken: tuple[Card, ...] | None
    """The cards the move takes that the mover can see, the card played last;
    None when it takes nothing."""
    hidden: int = 0
    """How many face-down cards the move takes besides `taken` ([P3][rules-p3])."""
    xeri: XeriKind | None = None
    """The kind of xeri the move makes, or None."""
    points: int = 0
    """The card points of `taken` plus the xeri bonus and the additive categories."""

    @property
    def count(self) -> int:
        """How many cards the move takes, seen or not (0 when it takes nothing)."""
        return 0 if self.taken is None else len(self.taken) + self.hidden


def preview(view: GameState | Observation, move: PlayerMove) -> Preview:
    """What `move` would take if the seat to move made it now.

    Args:
        view: a state, or the observation of the seat to move.
        move: one of the legal moves of the seat to move.

    Returns:
        The cards taken, the xeri it makes (with the same exceptions as
        [`apply`][xeri.apply]: [X3][rules-x3] and [V3][rules-v3] options) and
        their points.

    Raises:
        ArgumentError: `view` is neither a state nor an observation.
        IllegalMoveError: nobody is to move in `view`, the observing seat is
            not to move, or `move` is not legal.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(3))
        >>> best = max(xeri.legal_moves(state), key=lambda m: xeri.preview(state, m).points)
        >>> xeri.preview(state, best).points >= 0
        True
    """
    if type(view) is GameState:
        mover = view.to_move
        hand = view.hands[mover] if mover is not None else ()
        held = sum(map(len, view.hands))
        stock = len(view.stock)
        face_down = 0
    elif type(view) is Observation:
        mover = view.to_move
        if mover is not None and mover != view.seat:
            raise IllegalMoveError(f"seat {view.seat} is not to move: seat {mover} is")
        hand = view.hand
        held = sum(view.hand_sizes)
        stock = view.stock_size
        face_down = view.face_down
    else:
        raise ArgumentError(
            f"preview needs a GameState or an Observation, not {type(view).__name__}"
        )
    if mover is None:
        raise IllegalMoveError("nobody is to move: chance acts or the match is over")
    rules = view.rules
    # The capture rule's `play` checks the one move, as `apply` relies on: a
    # greedy player previewing every move must not list them all each time.
    try:
        _, _, taken, xeri = rules.capture.play(view.table, hand, mover, move)
    except IllegalMoveError as exc:
        raise IllegalMoveError(f"{move} is not a legal move of seat {mover}: {exc}") from None
    if taken is None:
        return Preview(move=move, taken=None)
    taken = tuple(taken)
    # The round core: no xeri on the round's first or last play where the rules say so.
    xeri = counted_xeri(rules, xeri, len(view.history), stock + held - 1)
    # A pile capture takes the whole pile, face-down cards included (P3); a
    # pile over face-down cards is never a lone card, so it makes no xeri.
    hidden = face_down if rules.capture.pile and not view.takes else 0
    if hidden:
        xeri = None
    bonus = 0
    if xeri is XeriKind.JACK_XERI:
        bonus = rules.jack_xeri_points
    elif xeri is not None:
        bonus = rules.xeri_points
    for category in rules.categories:
        if getattr(category, "additive", False) is True:  # the optional capability
            bonus += category.award((taken,), ((xeri,) if xeri else (),), rules)[0]
    return Preview(
        move=move,
        taken=taken,
        hidden=hidden,
        xeri=xeri,
        points=rules.card_points.count(taken) + bonus,
    )

"""What one seat may see ([X2][rules-x2], [P3][rules-p3]).

[`observe`][xeri.observe] turns a [`GameState`][xeri.GameState] into the
[`Observation`][xeri.Observation] of one seat: its own hand and everything
public, with every other hand and the stock reduced to a number of cards.
Bots and clients should be given observations, never states.
[`legal_moves`][xeri.legal_moves] accepts an observation of the seat to
move. [`determinize`][xeri.determinize] (in `xeri._agents.sampling`) goes the other
way: it draws a full state, uniformly among the states that this seat
would see the same way, for search bots that sample the cards they cannot see.

An observation has perfect recall of the round: besides the table and
the plays, it keeps the initial tables that were shown and then redealt
(`redealt`), whose cards cannot be in a hand dealt before the redeal, and
the initial-table cards replaced at the deal (`replaced`, [T2][rules-t2]),
which lie face up at the bottom of the stock until the last deals give them
to known seats. An initial table awarded at the deal ([T3][rules-t3]) lay
face up, so every seat sees its captures (turn -1).

While chance deals card by card ([`DealCard`][xeri.DealCard]), the pending
order ([`GameState.dealing`][xeri.GameState.dealing]) is hidden from every
seat: the observation is the one of the state before its first card.

Face-down cards (`RuleSet.face_down`, [P3][rules-p3]) are the first cards of the
round's initial table. They stay hidden from every seat while they lie on
the table; the round's first capture takes them (in a pile game it takes
the whole pile), and then only the capturing seat sees them: the others see
that capture as its visible cards plus a number of hidden ones.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> seen = xeri.observe(state, 1)
    >>> seen.hand == state.hands[1], seen.hand_sizes, seen.stock_size
    (True, (6, 6), 36)
    >>> xeri.legal_moves(seen) == xeri.legal_moves(state)
    True
    >>> xeri.observe(xeri.determinize(seen, random.Random(1)), 1) == seen
    True
"""

from __future__ import annotations

import attrs

from xeri._cards import Card
from xeri._core.round import play_seats
from xeri._core.state import GameState, MatchFacts, Phase
from xeri._errors import ArgumentError, IllegalMoveError, _show
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult
from xeri._table import TableItem

__all__ = ["Observation", "ObservedTake", "observe"]


@attrs.frozen(kw_only=True)
class ObservedTake(_Immutable):
    """One capture of the current round, as one seat saw it.

    Every card of a capture lay face up, except face-down cards ([P3][rules-p3]): those
    are shown only to the capturing seat, and the other seats see how many
    there were.
    """

    seat: int
    """The seat that captured."""
    cards: tuple[Card, ...]
    """The cards taken that this seat saw, in the order they lay, the capturing card last."""
    hidden: int = 0
    """How many face-down cards the capture took that this seat did not see; they lay first."""
    xeri: XeriKind | None = None
    """The kind of xeri the capture was, or None."""
    turn: int | None = None
    """The index of the play in the round's history, or None for the last capturer's
    collection of the table at the end of the round."""

    @property
    def count(self) -> int:
        """How many cards the capture took, seen or not."""
        return len(self.cards) + self.hidden


@attrs.frozen(kw_only=True)
class Observation(MatchFacts, _Immutable):
    """Everything one seat may know about a match ([X2][rules-x2]), and nothing else.

    Made by [`observe`][xeri.observe]. Another seat's hand and the stock are
    only counted; face-down table cards ([P3][rules-p3]) are counted until they are
    captured. Everything else of the state is public and copied as it is.
    """

    rules: RuleSet
    """The rule set of the match."""
    seat: int | None
    """The seat whose view this is, or None for a spectator's (seat-less) view."""
    phase: Phase
    """What happens next."""
    dealer: int
    """The seat that dealt the current round; with
    [`dealer_per_deal`][xeri.RuleSet.dealer_per_deal], the current deal."""
    to_move: int | None
    """The seat to play, or None while chance acts or after the match."""
    hand: tuple[Card, ...]
    """This seat's own hand, sorted in deck order; empty for a spectator."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds, this seat included."""
    face_down: int
    """How many face-down cards lie first on the table (under the pile), unseen ([P3][rules-p3])."""
    table: tuple[TableItem, ...]
    """The table items this seat sees, in table order, after the face-down cards."""
    stock_size: int
    """How many cards the stock holds."""
    history: tuple[PlayerMove, ...]
    """The plays of the current round, in order: every played card is seen by all."""
    takes: tuple[ObservedTake, ...]
    """The captures of the current round, in order, as this seat saw them."""
    round_results: tuple[RoundResult, ...]
    """The results of the finished rounds."""
    bottom_card: Card | None = None
    """The bottom card shown after the cut under [V1][rules-v1], public all round, or None."""
    redealt: tuple[tuple[Card, ...], ...] = ()
    """The initial tables shown and then redealt in the current round, in order
    ([G4][rules-g4], [F4][rules-f4], [X2][rules-x2])."""
    replaced: tuple[Card, ...] = ()
    """The initial-table cards replaced at the deal, in the order replaced
    ([T2][rules-t2]): each was put face up under the stock, so they lie at its
    bottom, the last lowest, and go to known seats in the round's last deals."""

    @property
    def plays(self) -> tuple[tuple[int, PlayerMove], ...]:
        """The round's plays as `(seat, move)` pairs: the seat after the dealer leads each deal.

        With [`dealer_per_deal`][xeri.RuleSet.dealer_per_deal] each deal has its own
        dealer, the seat after the one before ([G8][rules-g8]).
        """
        history = self.history
        seats = play_seats(self.rules, self.dealer, len(history))
        return tuple(zip(seats, history, strict=True))

    @property
    def captured_counts(self) -> tuple[int, ...]:
        """How many cards each side has captured in the current round."""
        sides = self.rules.sides
        counts = [0] * self.rules.num_sides
        for take in self.takes:
            counts[sides[take.seat]] += take.count
        return tuple(counts)


def _seat(observation: Observation) -> int:
    """The observing seat of a seat's observation; a spectator's has none.

    Raises:
        IllegalMoveError: the observation is a spectator's.
    """
    seat = observation.seat
    if seat is None:
        raise IllegalMoveError("a spectator's observation has no seat: it cannot move")
    return seat


def observe(state: GameState, seat: int | None) -> Observation:
    """What `seat` may see of `state` ([X2][rules-x2]), or a spectator when `seat` is None.

    A spectator sees what is public: no hand (`hand` is empty, every seat is
    counted in `hand_sizes`), the stock counted, and face-down cards
    ([P3][rules-p3]) never, not even once captured.

    Args:
        state: the state.
        seat: the seat whose view is wanted, or None for the public view.

    Returns:
        The observation; equal for any two states that differ only in the
        cards hidden from `seat` (other hands, stock order, face-down cards).

    Raises:
        ArgumentError: `state` is not a state, or `seat` is not None nor a seat of its
            rule set.
    """
    if type(state) is not GameState:
        raise ArgumentError(f"observe needs a GameState, not {type(state).__name__}")
    rules = state.rules
    if seat is not None and (type(seat) is not int or not 0 <= seat < rules.seats):
        raise ArgumentError(f"seat must be an int from 0 to {rules.seats - 1}, not {_show(seat)}")
    table = state.table
    takes = state.takes
    down = 0
    hidden = 0
    face_down = rules.face_down
    if face_down and state.phase is not Phase.DEAL:
        if not takes:
            down = min(face_down, len(table))
            table = table[down:]
        elif takes[0].seat != seat:
            hidden = max(0, min(face_down, len(takes[0].cards) - 1))
    seen = tuple(
        ObservedTake(
            seat=t.seat,
            cards=t.cards[hidden:] if i == 0 else t.cards,
            hidden=hidden if i == 0 else 0,
            xeri=t.xeri,
            turn=t.turn,
        )
        for i, t in enumerate(takes)
    )
    return Observation(
        rules=rules,
        seat=seat,
        phase=state.phase,
        dealer=state.dealer,
        to_move=state.to_move,
        hand=() if seat is None else state.hands[seat],
        hand_sizes=tuple(map(len, state.hands)),
        face_down=down,
        table=table,
        stock_size=len(state.stock),
        history=state.history,
        takes=seen,
        round_results=state.round_results,
        bottom_card=state.bottom_card,
        redealt=state.redealt,
        replaced=state.replaced,
    )

"""The transition function: `new_game`, `legal_moves`, `apply` and `chance_move`.

This is the only module that makes new states. `apply` is pure: it never
changes the state it is given, equal inputs give equal outputs, and a move
that is not legal raises [`IllegalMoveError`][xeri.IllegalMoveError] with
the state untouched.
"""

from __future__ import annotations

import secrets
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol

from xeri.capture import XeriKind
from xeri.cards import DECK, Card, Rank
from xeri.errors import IllegalMoveError
from xeri.moves import ChanceMove, Deal, Move, PlayerMove, Reshuffle
from xeri.rules import GREEK, RuleSet
from xeri.scoring import RoundResult
from xeri.state import GameState, Phase, Take, _make_state
from xeri.table import TableItem

if TYPE_CHECKING:
    from xeri.observe import Observation

__all__ = ["RandomSource", "apply", "chance_move", "legal_moves", "new_game", "start"]

_INDEX = attrgetter("index")
_DECK_SET = frozenset(DECK)
_PLAY = Phase.PLAY
_SYSTEM_RANDOM = secrets.SystemRandom()


class RandomSource(Protocol):
    """What a random generator must offer, as `random.Random` and `secrets.SystemRandom` do."""

    def shuffle(self, x: list[Card], /) -> None:
        """Shuffle a list in place."""
        ...

    def randrange(self, stop: int, /) -> int:
        """A random int from 0 to `stop` - 1."""
        ...


def start(rules: RuleSet = GREEK, *, dealer: int = 0) -> GameState:
    """The state before the first deal: chance must deal (a [`Deal`][xeri.Deal] move).

    Use it to replay a recorded game; to play, [`new_game`][xeri.new_game] is shorter.

    Args:
        rules: the rule set ([`GREEK`][xeri.GREEK] by default).
        dealer: the first dealer's seat.

    Returns:
        A state in phase `DEAL`, with empty hands, table and stock.

    Raises:
        IllegalMoveError: `dealer` is not a seat of the rule set.
    """
    if not isinstance(rules, RuleSet):
        raise IllegalMoveError(f"rules must be a RuleSet, not {type(rules).__name__}")
    if type(dealer) is not int or not 0 <= dealer < rules.seats:
        raise IllegalMoveError(f"dealer must be a seat from 0 to {rules.seats - 1}, not {dealer!r}")
    empty = ((),) * rules.seats
    return _make_state(rules, Phase.DEAL, dealer, None, empty, (), (), (), (), (), None, ())


def new_game(
    rules: RuleSet = GREEK,
    *,
    deck: tuple[Card, ...] | list[Card] | None = None,
    dealer: int | None = None,
    rng: RandomSource | None = None,
) -> GameState:
    """Deal the first round of a match.

    Args:
        rules: the rule set ([`GREEK`][xeri.GREEK] by default).
        deck: the first round's deck, top card first, to replay a real deal
            (dealt as RULES.md X3 says); drawn with `rng` when None.
        dealer: the first dealer's seat; drawn with `rng` when None (G2).
        rng: the generator for every draw: the deck, the dealer and any
            initial-pile redeal. Defaults to `secrets.SystemRandom()`; pass a
            seeded `random.Random` to replay a game.

    Returns:
        The state after the deal and any redeal of the initial table.

    Raises:
        IllegalMoveError: `deck` is not the 52 cards, or `dealer` is not a seat.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(7))
        >>> len(state.hands[0]), len(state.table), len(state.stock)
        (6, 4, 36)
    """
    if rng is None:
        rng = _SYSTEM_RANDOM
    if dealer is None:
        dealer = rng.randrange(rules.seats) if isinstance(rules, RuleSet) else 0
    state = start(rules, dealer=dealer)
    move = chance_move(state, rng) if deck is None else Deal(deck=tuple(deck))
    state = apply(state, move)
    while state.phase is Phase.REDEAL:
        state = apply(state, chance_move(state, rng))
    return state


def legal_moves(state: GameState | Observation) -> tuple[PlayerMove, ...]:
    """Every legal move of the seat to move, sorted, without duplicates.

    Empty exactly when chance must act or the match is over. Given an
    [`Observation`][xeri.Observation], the moves of the observing seat when
    it is to move (the same as for the state), and none otherwise.

    Args:
        state: a state, or one seat's observation of it.

    Returns:
        The moves, in the order of [`move_sort_key`][xeri.moves.move_sort_key]:
        by card, then kind, then what they take. In the Greek family they are
        the cards of the mover's hand.
    """
    seat = state.to_move
    if seat is None:
        return ()
    if type(state) is GameState:
        return state.rules.capture.moves(state.table, state.hands[seat], seat)
    # An Observation: its table leaves out face-down cards, which in a pile
    # game never change the moves (P3); only the observing seat's moves are known.
    observation: Observation = state  # type: ignore[assignment]  # not a GameState
    if seat != observation.seat:
        return ()
    return observation.rules.capture.moves(observation.table, observation.hand, seat)


def chance_move(state: GameState, rng: RandomSource | None = None) -> ChanceMove:
    """Draw chance's move: a new round's deck, or an initial-pile reshuffle (X4).

    Args:
        state: a state where `state.is_chance` is true.
        rng: the generator; defaults to `secrets.SystemRandom()`.

    Returns:
        A [`Deal`][xeri.Deal] (a shuffled deck) in the phases `DEAL` and
        `ROUND_OVER`, a [`Reshuffle`][xeri.Reshuffle] in `REDEAL`.

    Raises:
        IllegalMoveError: chance does not act in this state.
    """
    if rng is None:
        rng = _SYSTEM_RANDOM
    phase = state.phase
    if phase is Phase.DEAL or phase is Phase.ROUND_OVER:
        deck = list(DECK)
        rng.shuffle(deck)
        return Deal(deck=tuple(deck))
    if phase is Phase.REDEAL:
        pool = list(state.stock) + list(state.rules.capture.table_cards(state.table))
        bottom = state.bottom_card
        if bottom is not None:
            pool.remove(bottom)
        rng.shuffle(pool)
        if bottom is not None:
            pool.append(bottom)
        return Reshuffle(stock=tuple(pool))
    raise IllegalMoveError(f"chance does not act now: {_waiting_for(state)}")


def _waiting_for(state: GameState) -> str:
    if state.phase is Phase.MATCH_OVER:
        return "the match is over"
    return f"seat {state.to_move} is to move"


def apply(state: GameState, move: Move, *, seat: int | None = None) -> GameState:
    """The state after `move`; `state` itself is never changed.

    Args:
        state: the state to move from.
        move: a player's move (for the seat to move) or chance's move.
        seat: the seat submitting the move, if known; a move from any other
            seat than the one to move is refused as out of turn.

    Returns:
        The next state: the same phase with the next seat to move, a new
        deal, the end of the round with its result, or the end of the match.

    Raises:
        IllegalMoveError: the move is not legal here (X5); the message names why.
    """
    mover = state.to_move
    if mover is None:
        if seat is not None:
            raise IllegalMoveError(f"seat {seat} moved out of turn: {_chance_or_over(state)}")
        return _apply_chance(state, move)
    if seat is not None and seat != mover:
        raise IllegalMoveError(f"seat {seat} moved out of turn: seat {mover} is to move")
    rules = state.rules
    hands = state.hands
    hand, table, taken, xeri = rules.capture.play(state.table, hands[mover], mover, move)
    seats = list(hands)
    seats[mover] = hand
    hands = tuple(seats)
    history = state.history
    takes = state.takes
    stock = state.stock
    dealer = state.dealer
    # Every play removes one card and play starts after the dealer, so the
    # dealer plays the last card of every deal: the hands are all empty
    # exactly when the dealer's is.
    if taken is not None:
        if xeri is not None and (
            (not rules.xeri_on_first_card and not history)
            or (not rules.xeri_on_last_card and not stock and not hand and mover == dealer)
        ):
            xeri = None
        takes = takes + (Take(seat=mover, cards=taken, xeri=xeri, turn=len(history)),)
    history = history + (move,)  # type: ignore[operator]  # play() accepted it: a PlayerMove
    if hand or mover != dealer:
        nxt = mover + 1
        if nxt == rules.seats:
            nxt = 0
        return _make_state(
            rules,
            _PLAY,
            dealer,
            nxt,
            hands,
            table,
            stock,
            history,
            takes,
            state.round_results,
            state.bottom_card,
            state.redealt,
        )
    if stock:
        hands, stock = _deal_hands(rules, dealer, stock)
        return _make_state(
            rules,
            _PLAY,
            dealer,
            (dealer + 1) % rules.seats,
            hands,
            table,
            stock,
            history,
            takes,
            state.round_results,
            state.bottom_card,
            state.redealt,
        )
    return _end_round(state, hands, table, history, takes)


def _chance_or_over(state: GameState) -> str:
    if state.phase is Phase.MATCH_OVER:
        return "the match is over"
    return "no seat is to move, chance must act"


def _deal_hands(
    rules: RuleSet, dealer: int, cards: tuple[Card, ...]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal `hand_size` cards to each seat from the top, the seat after the dealer first (X3)."""
    n = rules.seats
    k = rules.hand_size
    hands: list[tuple[Card, ...]] = [()] * n
    for i in range(n):
        hands[(dealer + 1 + i) % n] = tuple(sorted(cards[i * k : (i + 1) * k], key=_INDEX))
    return tuple(hands), cards[n * k :]


def _end_round(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...],
    table: tuple[TableItem, ...],
    history: tuple[PlayerMove, ...],
    takes: tuple[Take, ...],
) -> GameState:
    """Give the table to the last capturer (G9, D7; X1 if none) and score the round."""
    rules = state.rules
    left = rules.capture.table_cards(table)
    leftover = 0
    if left and takes:
        takes = (*takes, Take(seat=takes[-1].seat, cards=left, xeri=None, turn=None))
        table = ()
    else:
        leftover = len(left)
    sides = rules.sides
    piles: list[list[Card]] = [[] for _ in range(rules.num_sides)]
    made: list[list[XeriKind]] = [[] for _ in range(rules.num_sides)]
    for take in takes:
        piles[sides[take.seat]].extend(take.cards)
        if take.xeri is not None:
            made[sides[take.seat]].append(take.xeri)
    result = rules.scorer.score(
        tuple(map(tuple, piles)), tuple(map(tuple, made)), rules, leftover=leftover
    )
    results = (*state.round_results, result)
    over = rules.match.status(results, rules.num_sides).over
    return _make_state(
        rules,
        Phase.MATCH_OVER if over else Phase.ROUND_OVER,
        state.dealer,
        None,
        hands,
        table,
        (),
        history,
        takes,
        results,
        state.bottom_card,
        state.redealt,
    )


def _check_cards(cards: object, expected: frozenset[Card], what: str) -> tuple[Card, ...]:
    """`cards` if it is a tuple holding exactly the `expected` cards, each once."""
    try:
        ok = isinstance(cards, tuple) and len(cards) == len(expected) == len(frozenset(cards))
        ok = ok and expected.issuperset(cards)  # type: ignore[arg-type]  # a tuple by the test above
    except TypeError:  # an unhashable item
        ok = False
    if not ok:
        raise IllegalMoveError(f"{what} must be a tuple holding each of {len(expected)} cards once")
    return cards  # type: ignore[return-value]  # checked above


def _apply_chance(state: GameState, move: object) -> GameState:
    phase = state.phase
    rules = state.rules
    if phase is Phase.MATCH_OVER:
        raise IllegalMoveError(f"{move} after the end: the match is over")
    if isinstance(move, Deal):
        if phase is Phase.REDEAL:
            raise IllegalMoveError("the initial table must be redealt with a Reshuffle, not a Deal")
        deck = list(_check_cards(move.deck, _DECK_SET, "a deal's deck"))
        dealer = state.dealer if phase is Phase.DEAL else (state.dealer + 1) % rules.seats
        bottom = None
        if rules.show_bottom_card:
            if deck[-1].rank is Rank.JACK:
                # V1: the first non-Jack from the bottom up goes to the bottom.
                j = max(i for i, c in enumerate(deck) if c.rank is not Rank.JACK)
                deck.append(deck.pop(j))
            bottom = deck[-1]
        hands, rest = _deal_hands(rules, dealer, tuple(deck))
        return _lay_table(rules, dealer, hands, rest, state.round_results, bottom, ())
    if isinstance(move, Reshuffle):
        if phase is not Phase.REDEAL:
            raise IllegalMoveError("a Reshuffle is only legal while the initial table is redealt")
        pool = frozenset(state.stock + rules.capture.table_cards(state.table))
        stock = _check_cards(move.stock, pool, "a reshuffle's stock")
        if state.bottom_card is not None and stock[-1] is not state.bottom_card:
            raise IllegalMoveError("a reshuffle must keep the shown bottom card at the bottom (V1)")
        shown = rules.capture.table_cards(state.table)
        return _lay_table(
            rules,
            state.dealer,
            state.hands,
            stock,
            state.round_results,
            state.bottom_card,
            (*state.redealt, shown),
        )
    kind = "a player's move" if hasattr(move, "card") else f"{type(move).__name__!s}"
    raise IllegalMoveError(f"{kind} is not legal now: chance must {_chance_task(phase)}")


def _chance_task(phase: Phase) -> str:
    return "redeal the initial table" if phase is Phase.REDEAL else "deal the next round"


def _lay_table(  # noqa: PLR0917  # internal, called positionally from two places
    rules: RuleSet,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    cards: tuple[Card, ...],
    results: tuple[RoundResult, ...],
    bottom: Card | None,
    redealt: tuple[tuple[Card, ...], ...],
) -> GameState:
    """Lay the initial table from the top of `cards`, the last on top, and check the redeal rule."""
    t = rules.table_size
    table, stock = cards[:t], cards[t:]
    if rules.redeal.needed(table):
        return _make_state(
            rules, Phase.REDEAL, dealer, None, hands, table, stock, (), (), results, bottom, redealt
        )
    first = (dealer + 1) % rules.seats
    return _make_state(
        rules, _PLAY, dealer, first, hands, table, stock, (), (), results, bottom, redealt
    )

"""The transition function: `new_game`, `legal_moves`, `apply` and `chance_move`.

This is the only module that makes new states. `apply` is pure: it never
changes the state it is given, equal inputs give equal outputs, and a move
that is not legal raises [`IllegalMoveError`][xeri.IllegalMoveError] with
the state untouched.

## The boundary with the rule set's components

The engine calls the components of the rule set (the capture rule, the
scorer, the match format) and trusts the built-in ones. A custom component
is trusted no further: if it raises (anything but the `IllegalMoveError` by
which `play` refuses a move), or returns what its protocol does not allow,
the engine raises a [`RuleSetError`][xeri.RuleSetError] naming the
component and the rule set, with the component's exception as the cause.
The message gives that exception's class only, since its text could name a
hidden card. What is checked is the shape of each answer, and a play that
does not remove exactly the card played from the hand (the round would
never end); whether the answers are *right* (cards conserved, scores that
add up, sorted moves) is for the conformance harness,
[`check_rules`][xeri.testing.check_rules].
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from operator import attrgetter
from random import Random
from typing import TYPE_CHECKING, Protocol

from xeri._cards import DECK, Card
from xeri._core.boundary import _PLAYER_MOVES, _TRUSTED_CAPTURES, _failed, _moves, _table_cards
from xeri._core.legal import LegalMoves, _counted, _listed
from xeri._core.legal import _lazy as _lazy_methods
from xeri._core.round import (
    counted_xeri,
    cut_deck,
    deal_hands,
    end_round,
    lay_table,
    leader,
    next_deal_dealer,
    next_round_dealer,
)
from xeri._core.state import GameState, Phase, _make_state, _make_take, _state_copier
from xeri._errors import ArgumentError, IllegalMoveError, RuleSetError, XeriError, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._families.sums.rule import SumCapture
from xeri._moves import (
    ChanceMove,
    Deal,
    DealCard,
    Move,
    PlayerMove,
    Reshuffle,
)
from xeri._rules.ruleset import GREEK, RuleSet
from xeri._table import Build, TableItem

if TYPE_CHECKING:
    from xeri._agents.observation import Observation

__all__ = ["RandomSource", "apply", "chance_move", "legal_moves", "new_game", "start"]

_INDEX = attrgetter("index")
_DECK_SET = frozenset(DECK)


_MAX_REDEALS = 1000
"""How many redeals in a row `new_game` makes before it gives up on a redeal rule."""


@lru_cache(maxsize=64)
def _deck_set(deck: tuple[Card, ...]) -> frozenset[Card]:
    """The cards of a rule set's deck, as a set (the 52 cards' set is shared)."""
    return _DECK_SET if deck is DECK else frozenset(deck)


_PLAY = Phase.PLAY
_SYSTEM_RANDOM = secrets.SystemRandom()
# The built-in components, exactly these classes (a subclass may override anything):
# their answers are not checked. On the hot path `apply` and `legal_moves` test
# `capture.__class__ is PileCapture` only, and leave the other rules to a helper.
# `PileCapture.moves` returns the hand: it is called without a `try`.
_TABLE_ITEMS = frozenset({Card, Build})


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
        ArgumentError: `rules` is not a rule set, or `dealer` is not one of its seats.
    """
    if not isinstance(rules, RuleSet):
        hint = " (find_rules gives a rule set by its name)" if type(rules) is str else ""
        raise ArgumentError(f"rules must be a RuleSet, not {_show(rules)}{hint}")
    if type(dealer) is not int or not 0 <= dealer < rules.seats:
        raise ArgumentError(
            f"dealer must be a seat from 0 to {rules.seats - 1}, not {_show(dealer)}"
        )
    return _make_state(
        rules=rules,
        phase=Phase.DEAL,
        dealer=dealer,
        to_move=None,
        hands=((),) * rules.seats,
        table=(),
        stock=(),
        history=(),
        takes=(),
        round_results=(),
    )


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
            (dealt as [X3][rules-x3] says); drawn with `rng` when None.
        dealer: the first dealer's seat; drawn with `rng` when None ([G2][rules-g2]).
        rng: the generator for every draw: the deck, the dealer and any
            initial-pile redeal. Defaults to `secrets.SystemRandom()`; pass a
            seeded `random.Random` to replay a game.

    Returns:
        The state after the deal and any redeal of the initial table.

    Raises:
        ArgumentError: `rules` is not a rule set, `deck` is not the rule set's cards,
            `dealer` is not a seat, or `rng` is not a random generator.
        RuleSetError: a component of the rule set failed (see
            [the boundary][component-boundary]), or the redeal rule asked for
            more than 1,000 redeals in a row.

    Examples:
        >>> import random, xeri
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(7))
        >>> len(state.hands[0]), len(state.table), len(state.stock)
        (6, 4, 36)
    """
    rng = _random_source(rng)
    if dealer is None:
        dealer = rng.randrange(rules.seats) if isinstance(rules, RuleSet) else 0
    state = start(rules, dealer=dealer)
    if deck is None:
        move: ChanceMove = chance_move(state, rng)
    elif isinstance(deck, (tuple, list)):
        move = Deal(
            deck=_check_cards(tuple(deck), _deck_set(rules.deck), "a deal's deck", ArgumentError)
        )
    else:
        raise ArgumentError(
            f"deck must be a tuple or list of the {len(rules.deck)} cards, not {_show(deck)}"
        )
    state = apply(state, move)
    redeals = 0
    while state.phase is Phase.REDEAL:
        redeals += 1
        if redeals > _MAX_REDEALS:
            raise RuleSetError(
                f"{rules.name}: the redeal rule asked for more than {_MAX_REDEALS:,} redeals "
                "of the initial table in a row; a table it accepts must be likely"
            )
        state = apply(state, chance_move(state, rng))
    return state


def legal_moves(state: GameState | Observation) -> tuple[PlayerMove, ...]:
    """Every legal move of the seat to move: a lazy, sorted sequence without duplicates.

    Empty exactly when chance must act or the match is over. Given an
    [`Observation`][xeri.Observation], the moves of the observing seat when
    it is to move (the same as for the state), and none otherwise.

    Nothing is listed until asked: `len(moves)`, `moves[i]` and `move in
    moves` count, unrank and check without listing the others (for the
    built-in capture rules in time polynomial in the table, whatever the
    options); iterating or `tuple(moves)` lists them all. See
    [`LegalMoves`][xeri.LegalMoves], a `tuple` subclass: the moves are a
    `LegalMoves`, except in a game of the built-in
    [`PileCapture`][xeri.PileCapture], where they are the mover's hand itself
    (every card of it is a move), the fastest answer.

    Args:
        state: a state, or one seat's observation of it.

    Returns:
        The moves, in the order of [`move_sort_key`][xeri.move_sort_key]:
        by card, then kind, then what they take: a `LegalMoves`, or the
        mover's hand in a `PileCapture` game.

    Raises:
        ArgumentError: `state` is neither a state nor an observation.
        RuleSetError: the capture rule's `moves` (or `count_moves`, `move_at`,
            `has_move`) failed when the sequence was used (see [the
            boundary][component-boundary]).
    """
    if type(state) is GameState:
        seat = state.to_move
        if seat is None:
            return _NO_MOVES
        rules = state.rules
        hand = state.hands[seat]
        if rules.capture.__class__ is PileCapture:  # the hot path: built in, cannot fail
            return hand  # PileCapture.moves: the hand itself, a tuple
        return _sequence(rules, state.table, hand, seat)
    # An Observation: its table leaves out face-down cards, which in a pile
    # game never change the moves (P3); only the observing seat's moves are known.
    observation: Observation = state  # type: ignore[assignment]  # not a GameState
    try:
        seat, observer = observation.to_move, observation.seat
        rules, hand, table = observation.rules, observation.hand, observation.table
    except AttributeError:
        raise _not_a_state("legal_moves", state, observation=True) from None
    if seat is None or seat != observer:
        return _NO_MOVES
    return _sequence(rules, table, hand, seat)


def _sequence(
    rules: RuleSet,
    table: tuple[TableItem, ...],
    hand: tuple[Card, ...],
    seat: int,
    *,
    state: bool = True,
) -> tuple[PlayerMove, ...]:
    """The moves, counted lazily on a large table, or listed now.

    A rule that counts and indexes by itself (`count_moves`, `move_at`) is
    asked only when the table holds more than `_SMALL_TABLE` items: below
    that the list is short and listing it is quicker than counting. A rule
    that only lists is listed now, which keeps its failure where it always
    was: at the call of `legal_moves`. `state` False: not a state's position
    (see `_counted`), which may have no move.
    """
    capture = rules.capture
    small = _SMALL_TABLE
    if capture.__class__ is SumCapture and not (capture.multi_capture or capture.multi_builds):
        small = _SMALL_SUMS  # one group a capture: the lists grow slowly with the table
    if len(table) > small and _counts(capture.__class__):
        return _counted(rules, table, hand, seat, state=state)
    return _new_tuple(LegalMoves, _moves(rules, table, hand, seat))


def moves_on(
    rules: RuleSet, table: tuple[TableItem, ...], hand: tuple[Card, ...], seat: int
) -> tuple[PlayerMove, ...]:
    """The moves of `hand` on `table` for `seat`, as [`legal_moves`][xeri.legal_moves] gives them.

    For a position that is not a state (a reply a bot weighs): lazy on a large
    table, and possibly empty (one card of a hand may have no move, [D4][rules-d4]).
    """
    if rules.capture.__class__ is PileCapture:
        return hand
    return _sequence(rules, table, hand, seat, state=False)


_SMALL_TABLE = 10
"""Up to this many table items, `legal_moves` lists the moves at once (at most a few thousand)."""
_SMALL_SUMS = 16
"""The same for a `SumCapture` where a card takes one group and builds on one item."""
_new_tuple = tuple.__new__

_NO_MOVES = _listed(())
"""The moves when no seat (or not the observing seat) is to move."""


def _counts(cls: type) -> bool:
    """Whether a capture rule's class counts and indexes its moves by itself."""
    return _lazy_methods(cls)[0]


"""The moves when no seat (or not the observing seat) is to move."""


def chance_move(state: GameState, rng: RandomSource | None = None) -> ChanceMove:
    """Draw chance's move: a new round's deck, or an initial-pile reshuffle ([X4][rules-x4]).

    Always a whole order. In the middle of a card-by-card deal
    ([`DealCard`][xeri.DealCard]) it completes the pending order: the cards
    already placed come first, the others follow in random order.

    Args:
        state: a state where `state.is_chance` is true.
        rng: the generator; defaults to `secrets.SystemRandom()`.

    Returns:
        A [`Deal`][xeri.Deal] (a shuffled deck) in the phases `DEAL` and
        `ROUND_OVER`, a [`Reshuffle`][xeri.Reshuffle] in `REDEAL`.

    Raises:
        ArgumentError: `state` is not a state, or `rng` is not a random generator.
        IllegalMoveError: chance does not act in `state`.
    """
    if not isinstance(state, GameState):
        raise _not_a_state("chance_move", state)
    rng = _random_source(rng)
    phase = state.phase
    placed = state.dealing
    if placed:  # complete the pending order: the same distribution as card by card
        free, pinned = _pending(state)
        rest = list(free)
        _shuffle(rng, rest)
        order = (*placed, *rest) if pinned is None else (*placed, *rest, pinned)
        return Reshuffle(stock=order) if phase is Phase.REDEAL else Deal(deck=order)
    if phase is Phase.DEAL or phase is Phase.ROUND_OVER:
        deck = list(state.rules.deck)
        _shuffle(rng, deck)
        return Deal(deck=tuple(deck))
    if phase is Phase.REDEAL:
        pool = list(state.stock) + list(_table_cards(state.rules, state.table))
        bottom = state.bottom_card
        if bottom is not None:
            pool.remove(bottom)
        _shuffle(rng, pool)
        if bottom is not None:
            pool.append(bottom)
        return Reshuffle(stock=tuple(pool))
    raise IllegalMoveError(f"chance does not act now: {_waiting_for(state)}")


def _pending(state: GameState) -> tuple[tuple[Card, ...], Card | None]:
    """The cards of the chance order still to place, in deck order, and the pinned card.

    The order is a new round's deck (phases `DEAL` and `ROUND_OVER`: the rule
    set's cards) or a redeal's stock (`REDEAL`: the stock and the shown table).
    Under [V1][rules-v1] a redeal keeps the shown bottom card last: it is
    pinned, never among the free cards.

    Raises:
        IllegalMoveError: chance does not act in `state`.
    """
    phase = state.phase
    if phase is Phase.DEAL or phase is Phase.ROUND_OVER:
        pool: tuple[Card, ...] = state.rules.deck
        pinned = None
    elif phase is Phase.REDEAL:
        pool = tuple(sorted(state.stock + _table_cards(state.rules, state.table), key=_INDEX))
        pinned = state.bottom_card
    else:
        raise IllegalMoveError(f"chance does not act now: {_waiting_for(state)}")
    placed = state.dealing
    if placed:
        taken = frozenset(placed)
        free = tuple(c for c in pool if c not in taken and c is not pinned)
    else:
        free = pool if pinned is None else tuple(c for c in pool if c is not pinned)
    return free, pinned


def _random_source(rng: object) -> RandomSource:
    """`rng`, or the system generator for None; anything without the methods is refused."""
    if rng is None:
        return _SYSTEM_RANDOM
    if not (callable(getattr(rng, "shuffle", None)) and callable(getattr(rng, "randrange", None))):
        raise ArgumentError(
            f"rng must offer shuffle and randrange, as random.Random does, not {_show(rng)}"
        )
    return rng  # type: ignore[return-value]  # it has both methods


def _shuffle(rng: RandomSource, cards: list[Card]) -> None:
    """`rng.shuffle(cards)`; for a plain `random.Random`, its own algorithm in this loop.

    `random.Random.shuffle` swaps each place, from the last, with one drawn
    below it by `getrandbits` (again until below the bound). Done here, it
    draws the same numbers and gives the same order without one call per
    card: about half the instructions of a deal's shuffle.
    """
    if type(rng) is not Random:
        rng.shuffle(cards)
        return
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _not_a_state(function: str, value: object, *, observation: bool = False) -> ArgumentError:
    """The error for a value given where a state was needed."""
    wanted = "a GameState or an Observation" if observation else "a GameState"
    return ArgumentError(f"{function} needs {wanted}, not {_show(value)}")


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
        IllegalMoveError: the move is not legal here ([X5][rules-x5]); the message
            names why.
        ArgumentError: `state` is not a state, or `seat` is neither an int nor None.
        RuleSetError: a component of the rule set failed (see [the boundary][component-boundary]).
    """
    try:
        mover = state.to_move
        hands = state.hands
    except AttributeError:
        raise _not_a_state("apply", state) from None
    if mover is None:
        if seat is not None:
            raise _out_of_turn(seat, _chance_or_over(state))
        return _apply_chance(state, move)
    if seat is not None and (seat != mover or seat.__class__ is not int):
        raise _out_of_turn(seat, f"seat {mover} is to move")
    rules = state.rules
    capture = rules.capture
    played = hands[mover]
    try:
        outcome = capture.play(state.table, played, mover, move)
    except IllegalMoveError:
        raise
    except Exception as exc:
        raise _play_failed(rules, move, f"raised {type(exc).__name__}") from exc
    try:
        hand, table, taken, xeri = outcome
    except Exception:  # anything but four values
        raise _play_failed(
            rules, move, f"returned {_show(outcome, text=False)}, not four values"
        ) from None
    if capture.__class__ is not PileCapture:  # the hot path: one identity test
        problem = _bad_play(capture, played, move, hand, table, taken, xeri)
        if problem:
            raise _play_failed(rules, move, problem)
    seats = list(hands)
    seats[mover] = hand
    hands = tuple(seats)
    history = state.history
    takes = state.takes
    stock = state.stock
    dealer = state.dealer
    # Every play removes one card and play starts after the dealer, so the
    # dealer plays the last card of every deal: the hands are all empty
    # exactly when the dealer's is. With `dealer_per_deal` the dealer is
    # the current deal's, so this holds for every deal.
    if taken is not None:
        if xeri is not None:  # the round core: no xeri on the first or last play (V3, P4)
            xeri = counted_xeri(rules, xeri, len(history), len(stock) + sum(map(len, hands)))
        takes = (*takes, _make_take(seat=mover, cards=taken, xeri=xeri, turn=len(history)))
    history = history + (move,)  # type: ignore[operator]  # play() accepted it: a PlayerMove
    if hand or mover != dealer:
        nxt = mover + 1
        if nxt == rules.seats:
            nxt = 0
        return _next_turn(state, nxt, hands, table, history, takes)  # in _next_turn's order
    if stock:  # G8: the next deal, by the dealer the round core names
        dealer = next_deal_dealer(rules, dealer)
        hands, stock = deal_hands(rules, dealer, stock)
        lead = leader(rules, dealer)
        return _next_deal(state, dealer, lead, hands, table, stock, history, takes)  # its order
    return end_round(state, hands, table, history, takes, dealer=dealer)


_next_turn = _state_copier("to_move", "hands", "table", "history", "takes")
"""The state after a play within a deal: a copy but for these fields, in this order."""
_next_deal = _state_copier("dealer", "to_move", "hands", "table", "stock", "history", "takes")
"""The state after a deal's last play when the stock deals again: these fields, in order."""


def _play_failed(rules: RuleSet, move: object, problem: str) -> XeriError:
    """The error for a failed `capture.play`: the caller's, when the move is not a move at all."""
    if move.__class__ not in _PLAYER_MOVES:
        return IllegalMoveError(
            f"a player's move must be a Card, Capture, Combine or Trail, not {_show(move)}"
        )
    return _failed(rules, "capture", "play", problem)


def _bad_play(  # noqa: PLR0917  # internal, called once with the outcome's four values
    capture: object,
    played: tuple[Card, ...],
    move: object,
    hand: object,
    table: object,
    taken: object,
    xeri: object,
) -> str | None:
    """What is wrong with the outcome of a custom `capture.play`, or None.

    Only the shape and the hand are checked here; see the module docstring.
    The built-in rules are not checked.
    """
    if capture.__class__ in _TRUSTED_CAPTURES:
        return None
    card = move if move.__class__ is Card else getattr(move, "card", None)
    if card.__class__ is not Card or card not in played:
        return "accepted a move whose card is not in the mover's hand"
    if type(hand) is not tuple or len(hand) != len(played) - 1:
        size = f"{len(hand)} cards" if type(hand) is tuple else _show(hand, text=False)
        return (
            f"returned a hand of {size} from a hand of {len(played)} cards: a play must "
            "remove exactly the card played, or the round could never end"
        )
    i = played.index(card)
    if hand != played[:i] + played[i + 1 :]:
        return "returned a hand that is not the hand without the card played, in its order"
    if type(table) is not tuple or not all(item.__class__ in _TABLE_ITEMS for item in table):
        return f"returned the table {_show(table, text=False)}, not a tuple of cards and builds"
    if taken is not None and not (
        type(taken) is tuple and taken and all(c.__class__ is Card for c in taken)
    ):
        return (
            f"returned the cards taken as {_show(taken, text=False)}, not None or a tuple of cards"
        )
    if xeri is not None and (taken is None or xeri.__class__ is not XeriKind):
        return f"returned the xeri {_show(xeri, text=False)}, not None or the XeriKind of a capture"
    return None


def _out_of_turn(seat: object, why: str) -> XeriError:
    if seat.__class__ is not int:
        return ArgumentError(f"seat must be an int or None, not {_show(seat)}")
    return IllegalMoveError(f"seat {_show(seat)} moved out of turn: {why}")


def _chance_or_over(state: GameState) -> str:
    if state.phase is Phase.MATCH_OVER:
        return "the match is over"
    return "no seat is to move, chance must act"


def _check_cards(
    cards: object,
    expected: frozenset[Card],
    what: str,
    error: type[XeriError] = IllegalMoveError,
) -> tuple[Card, ...]:
    """`cards` if it is a tuple holding exactly the `expected` cards, each once, else `error`."""
    try:
        ok = isinstance(cards, tuple) and len(cards) == len(expected) == len(frozenset(cards))
        ok = ok and expected.issuperset(cards)  # type: ignore[arg-type]  # a tuple by the test above
    except TypeError:  # an unhashable item
        ok = False
    if not ok:
        raise error(f"{what} must be a tuple holding each of {len(expected)} cards once")
    return cards  # type: ignore[return-value]  # checked above


def _apply_chance(state: GameState, move: object) -> GameState:
    phase = state.phase
    rules = state.rules
    if phase is Phase.MATCH_OVER:
        raise IllegalMoveError(f"{_describe(move)} after the end: the match is over")
    if isinstance(move, DealCard):
        return _deal_card(state, move.card)
    placed = state.dealing
    if isinstance(move, Deal):
        if phase is Phase.REDEAL:
            raise IllegalMoveError("the initial table must be redealt with a Reshuffle, not a Deal")
        deck = list(_check_cards(move.deck, _deck_set(rules.deck), "a deal's deck"))
        if placed and tuple(deck[: len(placed)]) != placed:
            raise _not_continued("a deal's deck", len(placed))
        # A new round is dealt by the seat after the dealer of the last deal (G2, F2).
        dealer = state.dealer if phase is Phase.DEAL else next_round_dealer(rules, state.dealer)
        bottom = cut_deck(rules, deck)  # V1
        hands, rest = deal_hands(rules, dealer, tuple(deck))
        return lay_table(rules, dealer, hands, rest, state.round_results, bottom, ())
    if isinstance(move, Reshuffle):
        if phase is not Phase.REDEAL:
            raise IllegalMoveError("a Reshuffle is only legal while the initial table is redealt")
        shown = _table_cards(rules, state.table)
        pool = frozenset(state.stock + shown)
        stock = _check_cards(move.stock, pool, "a reshuffle's stock")
        if state.bottom_card is not None and stock[-1] is not state.bottom_card:
            raise IllegalMoveError("a reshuffle must keep the shown bottom card at the bottom (V1)")
        if placed and stock[: len(placed)] != placed:
            raise _not_continued("a reshuffle's stock", len(placed))
        return lay_table(
            rules,
            state.dealer,
            state.hands,
            stock,
            state.round_results,
            state.bottom_card,
            (*state.redealt, shown),
        )
    raise IllegalMoveError(f"{_describe(move)} is not legal now: chance must {_chance_task(phase)}")


def _not_continued(what: str, placed: int) -> IllegalMoveError:
    """The error for a whole order that does not begin with the cards dealt one by one."""
    return IllegalMoveError(
        f"{what} must begin with the {placed} cards already dealt one by one (DealCard)"
    )


def _deal_card(state: GameState, card: Card) -> GameState:
    """Place the next card of the pending order; apply the whole order once it is complete.

    The last free card is forced, so it is placed together with the one
    before it (and a pinned [V1][rules-v1] bottom card after it). The pool is
    that of `_pending`, tested without building it: this runs 51 times a deal.
    """
    placed = state.dealing
    phase = state.phase
    if phase is Phase.REDEAL:
        pinned = state.bottom_card
        stock, table = state.stock, state.table  # a table to redeal holds loose cards
        free = len(stock) + len(table) - len(placed) - (pinned is not None)
        in_pool = card in {*stock, *table}  # sets: `in` on a tuple of cards compares slowly
    elif phase is Phase.DEAL or phase is Phase.ROUND_OVER:
        pinned = None
        deck = state.rules.deck
        free = len(deck) - len(placed)
        in_pool = deck is DECK or card in _deck_set(deck)
    else:
        raise IllegalMoveError(f"chance does not act now: {_waiting_for(state)}")
    if (
        card.__class__ is not Card
        or card in set(placed)
        or not in_pool
        or (card is pinned and free)  # a pinned card comes only when it is all that is left
    ):
        raise IllegalMoveError(
            "a DealCard must name a card still to be placed in the pending order"
            " (chance_outcomes lists them)"
        )
    if card is not pinned:
        placed = (*placed, card)
        free -= 1
    pending = _with_dealing(state, dealing=placed)
    if free > 1:
        return pending
    rest, _ = _pending(pending)
    order = (*placed, *rest) if pinned is None else (*placed, *rest, pinned)
    whole = Reshuffle(stock=order) if phase is Phase.REDEAL else Deal(deck=order)
    return _apply_chance(state, whole)


_with_dealing = _state_copier("dealing")
"""A state with another pending chance order, made quickly."""


def _describe(move: object) -> str:
    """A move in an error message: by kind only, so that no card is named."""
    if move.__class__ in _PLAYER_MOVES:
        return "a player's move"
    if move.__class__ is Deal:
        return "a deal"
    if move.__class__ is Reshuffle:
        return "a reshuffle"
    if move.__class__ is DealCard:
        return "a dealt card"
    return _show(move)


def _chance_task(phase: Phase) -> str:
    return "redeal the initial table" if phase is Phase.REDEAL else "deal the next round"

"""The conformance harness: [`check_rules`][xeri.testing.check_rules] and its checks.

Run it on any [`RuleSet`][xeri.RuleSet], a preset or your own: it plays
random full matches, chance included, and after every move checks the
properties that every rule set must have, the costly ones at a reproducible
sample of the states (see [`check_rules`][xeri.testing.check_rules]). It
deals and counts the rule set's [`deck`][xeri.RuleSet.deck], and reads a
rule set's components through their protocols and the capabilities they
declare (such as [`CaptureRule.pile`][xeri.CaptureRule.pile]), never by
their class, so a component of your own is checked as strictly as a
built-in one. It needs
cattrs (the `testing` or `json` extra) for its JSON round trips, and not
hypothesis.
"""

from __future__ import annotations

import math
import random
import re
import time
from collections.abc import Callable, Sequence
from operator import attrgetter
from typing import Any

import attrs

from xeri._agents.observation import Observation, observe
from xeri._cards import DECK, Card
from xeri._core.engine import apply, chance_move, legal_moves, start
from xeri._core.state import GameState, Phase, Take
from xeri._core.validate import check_state
from xeri._errors import ArgumentError, IllegalMoveError, XeriError, _show
from xeri._families.protocol import HandNeeds, XeriKind
from xeri._io.records import GameRecord
from xeri._io.serialize import Loadable, from_json, to_json
from xeri._moves import Capture, Combine, Deal, Move, PlayerMove, Reshuffle, Trail, move_sort_key
from xeri._rules.match import FixedRounds, TargetScore
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import MajorityTie, RoundResult, StandardScorer
from xeri._table import Build, TableItem, item_cards, item_sort_key
from xeri.testing.hidden import Place, card_at, hidden_places, place_cards, shuffle_hidden

__all__ = [
    "CHECKS",
    "MAX_RESHUFFLES",
    "CheckReport",
    "ConformanceError",
    "check_rules",
    "round_bound",
]

CHECKS: tuple[str, ...] = (
    "apply",
    "conservation",
    "legal moves",
    "illegal move",
    "purity",
    "termination",
    "xeri",
    "round score",
    "match score",
    "json round trip",
    "non-interference",
    "needs",
)
"""The names of the checks [`check_rules`][xeri.testing.check_rules] makes, as
[`ConformanceError.check`][xeri.testing.ConformanceError] gives them."""

MAX_RESHUFFLES = 10_000
"""The most initial-table redeals allowed in one round before the harness calls the
rule set non-terminating. A rule set validated by [`RuleSet`][xeri.RuleSet] needs a
handful on average; a strict redeal condition on a large table can need hundreds."""

_CHANCE_PHASES = frozenset({Phase.DEAL, Phase.REDEAL, Phase.ROUND_OVER})

_ROUND_CAP = 500
"""Rounds allowed in a match whose format has neither a `rounds` nor a `target`."""

_SAMPLE_ONE_IN = 32
"""The costly checks look at about one state in this many (see `_sampled`)."""

_NEEDS_HANDS = 3
"""Random hands tried per card the mover may play, at a decision point the needs check looks at."""


class ConformanceError(XeriError):
    """A rule set broke one of the properties [`check_rules`][xeri.testing.check_rules] checks.

    Attributes:
        check: the name of the failed check, one of [`CHECKS`][xeri.testing.CHECKS].
        detail: what was wrong, in a sentence.
        move: the move concerned: the last move of `record` when the check
            looked at the state it made ("after move n"), or a move not in
            `record` when `apply` or the capture rule mishandled it there
            ("at move n": a legal move that failed, an illegal one that was
            accepted, or a listed move naming an item not on the table);
            None when the state before the first deal failed.
        move_number: the index of `move` in the game's moves, chance's included.
        state: the state the failure was found in, as `record` replays it.
        record: a [`GameRecord`][xeri.GameRecord] of the game from its start to
            `state`: `xeri.replay(record)[-1] == state`.

    Examples:
        >>> import random, attrs, xeri
        >>> from xeri.testing import ConformanceError, check_rules
        >>> @attrs.frozen
        ... class NoMajority:  # a scorer whose total forgets the majority bonus
        ...     def score(self, captured, xeris, rules, *, leftover=0):
        ...         result = xeri.StandardScorer().score(captured, xeris, rules, leftover=leftover)
        ...         return attrs.evolve(result, total=tuple(
        ...             c + x for c, x in zip(result.card_points, result.xeri_bonus)))
        ...     def check(self, result, rules):  # it cannot tell what it could produce
        ...         return []
        >>> rules = xeri.register(attrs.evolve(xeri.GREEK, name="no-majority", scorer=NoMajority()))
        >>> try:
        ...     check_rules(rules, rng=random.Random(0))
        ... except ConformanceError as exc:
        ...     error = exc
        >>> error.check, error.move_number, xeri.replay(error.record)[-1] == error.state
        ('round score', 48, True)
    """

    def __init__(
        self,
        check: str,
        detail: str,
        *,
        move: Move | None,
        move_number: int,
        state: GameState,
        record: GameRecord,
    ) -> None:
        self.check = check
        self.detail = detail
        self.move = move
        self.move_number = move_number
        self.state = state
        self.record = record
        if move is None:
            where = "before the first move"
        elif move_number < len(record.moves):
            where = f"after move {move_number} ({move})"
        else:
            where = f"at move {move_number} ({move})"
        super().__init__(f"{check} check failed {where}: {detail}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (
            _rebuild_error,
            (self.check, self.detail, self.move, self.move_number, self.state, self.record),
        )


def _rebuild_error(  # noqa: PLR0917  # the positional form pickle needs
    check: str,
    detail: str,
    move: Move | None,
    move_number: int,
    state: GameState,
    record: GameRecord,
) -> ConformanceError:
    return ConformanceError(
        check, detail, move=move, move_number=move_number, state=state, record=record
    )


@attrs.frozen(kw_only=True)
class CheckReport:
    """What [`check_rules`][xeri.testing.check_rules] played: every check passed on all of it.

    With a time budget (`max_seconds`) fewer matches may have been played
    than asked for: `games` counts those checked, `requested` those asked
    for, and `complete` says whether they are the same.

    Examples:
        >>> from xeri.testing import CheckReport
        >>> CheckReport(games=3, rounds=12, moves=600).complete
        True
        >>> CheckReport(games=2, rounds=8, moves=400, requested=300).complete
        False
    """

    games: int
    """Matches played to their end and checked."""
    rounds: int
    """Rounds played, over all matches."""
    moves: int
    """Moves applied and checked, chance's included."""
    requested: int = attrs.field(default=attrs.Factory(lambda self: self.games, takes_self=True))
    """Matches asked for (the `games` argument); more than `games` when the time
    budget ran out first. Defaults to `games`."""

    @property
    def complete(self) -> bool:
        """True when every match asked for was played and checked."""
        return self.games >= self.requested


class _Failure(Exception):  # noqa: N818  # internal signal, turned into a ConformanceError
    """A failed check inside one game; `check_rules` adds the state and the record."""

    def __init__(self, check: str, detail: str, move: Move | None = None) -> None:
        super().__init__(detail)
        self.check = check
        self.detail = detail
        self.move = move


def _fail(check: str, detail: str, move: Move | None = None) -> _Failure:
    return _Failure(check, detail, move)


# --------------------------------------------------------------------------
# Bounds


def _plays_per_round(rules: RuleSet) -> int:
    """Every card not laid on the initial table is played once ([G8][rules-g8], [F3][rules-f3])."""
    return len(rules.deck) - rules.table_size


def round_bound(rules: RuleSet) -> int:
    """The most rounds a match of `rules` may take before the harness calls it endless.

    The bound is read from the match format's data, whatever its class: a
    format with a positive int `rounds` (as [`FixedRounds`][xeri.FixedRounds])
    takes at most that many. One with a positive int `target` (as
    [`TargetScore`][xeri.TargetScore]) is bounded generously: 20 rounds plus
    10 times the rounds needed to reach the target if every round's base
    points (the points of the rule set's [`deck`][xeri.RuleSet.deck] and the
    majority bonus) went to one side. Any other format gets 500 rounds.

    Args:
        rules: the rule set.

    Returns:
        The number of rounds after which a match that is not over fails the
        termination check.

    Examples:
        >>> import xeri
        >>> from xeri.testing import round_bound
        >>> round_bound(xeri.GREEK_FOUR), round_bound(xeri.GREEK)
        (4, 90)
    """
    match = rules.match
    rounds = getattr(match, "rounds", None)
    if type(rounds) is int and rounds > 0:
        return rounds
    target = getattr(match, "target", None)
    if type(target) is int and target > 0:
        base = rules.card_points.count(rules.deck) + rules.majority_points
        return 20 + 10 * math.ceil(target / max(1, base))
    return _ROUND_CAP


# --------------------------------------------------------------------------
# Independent recounts


def _all_cards(state: GameState) -> list[Card]:
    cards: list[Card] = []
    for hand in state.hands:
        cards.extend(hand)
    cards.extend(state.rules.capture.table_cards(state.table))
    cards.extend(state.stock)
    for take in state.takes:
        cards.extend(take.cards)
    return cards


def _check_conservation(state: GameState, facts: _Facts) -> None:
    cards = _all_cards(state)
    if state.phase is Phase.DEAL:
        if cards:
            raise _fail("conservation", f"{len(cards)} cards are in play before the first deal")
        return
    in_play = set(cards)
    deck = facts.cards
    if len(cards) != len(deck) or in_play != deck:
        counts: dict[Card, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        twice = sorted(c for c, n in counts.items() if n > 1)
        missing = sorted(deck - in_play)
        foreign = sorted(in_play - deck)
        raise _fail(
            "conservation",
            f"{len(cards)} cards in hands, table, stock and captures, not the "
            f"{len(deck)} of the deck; missing {_names(missing)}, more than once "
            f"{_names(twice)}, not in the deck {_names(foreign)}",
        )
    for seat, hand in enumerate(state.hands):
        indexes = list(map(_INDEX, hand))
        if indexes != sorted(indexes):
            raise _fail("conservation", f"the hand of seat {seat} is not sorted: {_names(hand)}")
    if state.bottom_card is not None and state.bottom_card not in in_play:
        raise _fail("conservation", f"the shown bottom card {state.bottom_card} is not in play")


_INDEX = attrgetter("index")
_STATE_FIELDS = attrgetter(*(f.name for f in attrs.fields(GameState)))


def _copy(state: GameState) -> GameState:
    """An equal state that is another object, built as pickle rebuilds one.

    `copy.deepcopy` gives back the state itself: values are immutable.
    """
    rebuild, fields = state.__reduce__()[:2]
    copied: GameState = rebuild(*fields)
    return copied


def _same(state: GameState, other: GameState) -> bool:
    """`state == other`, faster: fields that are the same object are not compared further."""
    return bool(_STATE_FIELDS(state) == _STATE_FIELDS(other))


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(map(str, cards)) or "none"


_LISTED = 2_000
"""Up to this many legal moves the harness lists them all and checks the list; above, it
checks a sample of indices, so that no position makes it list millions of moves."""


def _check_legal_moves(state: GameState) -> tuple[PlayerMove, ...]:
    moves = legal_moves(state)
    if not isinstance(moves, tuple):  # a LegalMoves, or a pile game's hand
        raise _fail("legal moves", f"legal_moves returned a {type(moves).__name__}, not a tuple")
    seat = state.to_move
    acts = state.phase is Phase.PLAY
    if acts != (seat is not None):
        raise _fail("legal moves", f"phase {state.phase.value} with seat to move {seat}")
    if state.is_chance != (state.phase in _CHANCE_PHASES):
        raise _fail("legal moves", f"phase {state.phase.value}: is_chance is {state.is_chance}")
    if state.is_over != (state.phase is Phase.MATCH_OVER):
        raise _fail("legal moves", f"phase {state.phase.value}: is_over is {state.is_over}")
    if bool(moves) != acts:
        raise _fail(
            "legal moves",
            f"{len(moves)} legal moves in phase {state.phase.value} "
            f"(non-empty exactly when a seat is to move)",
        )
    if not moves:
        return moves
    count = len(moves)  # counted, by the rule's count_moves when it has one
    rng = random.Random(len(state.history))  # the game's own draws stay as they are
    if count <= _LISTED:
        listed = tuple(legal_moves(state))
        if len(listed) != count:
            raise _fail("legal moves", f"len(legal_moves) is {count}, but {len(listed)} are listed")
        for i in rng.sample(range(count), min(count, 8)):
            if moves[i] != listed[i]:
                raise _fail("legal moves", f"legal_moves[{i}] is {moves[i]}, listed {listed[i]}")
        shown = listed
    else:  # a sample of indices, in order, and each move found in the sequence
        at = sorted({0, count - 1, *rng.sample(range(count), 30)})
        shown = tuple(moves[i] for i in at)
        for move in shown:
            if move not in moves:
                raise _fail("legal moves", f"{move} is listed, but `in` says it is not legal")
    try:
        keys = [move_sort_key(m) for m in shown]
    except (KeyError, AttributeError, TypeError):
        raise _fail("legal moves", f"a legal move is not a player's move: {shown}") from None
    if keys != sorted(keys):
        raise _fail("legal moves", f"not sorted: {', '.join(map(str, shown))}")
    if len(set(shown)) != len(shown):
        raise _fail("legal moves", f"a move is listed twice: {', '.join(map(str, shown))}")
    hand = state.hands[seat]  # type: ignore[index]  # a seat is to move
    for move in shown:
        if move.card not in hand:
            raise _fail("legal moves", f"{move} plays {move.card}, not in the mover's hand")
    return moves


def _same_moves(one: tuple[PlayerMove, ...], other: tuple[PlayerMove, ...]) -> bool:
    """Whether two sequences of legal moves agree: all of them when few, else a sample."""
    count = len(one)
    if count != len(other):
        return False
    if count <= _LISTED:
        return tuple(one) == tuple(other)
    rng = random.Random(count)
    return all(one[i] == other[i] for i in {0, count - 1, *rng.sample(range(count), 30)})


def _other_card(state: GameState, rng: random.Random) -> Card:
    """A card of the deck that the seat to move does not hold."""
    hand = set(state.hands[state.to_move])  # type: ignore[index]  # a seat is to move
    deck = state.rules.deck
    start_at = rng.randrange(len(deck))
    for i in range(len(deck)):
        card = deck[(start_at + i) % len(deck)]
        if card not in hand:
            return card
    raise AssertionError("a hand of the whole deck")  # pragma: no cover  # validation forbids it


def _with_card(move: PlayerMove, card: Card) -> PlayerMove:
    if isinstance(move, Card):
        return card
    return attrs.evolve(move, card=card)


def _check_illegal(
    state: GameState,
    moves: Sequence[PlayerMove],
    snapshot: GameState,
    rng: random.Random,
    facts: _Facts,
    *,
    every: bool,
) -> None:
    """A card not held, a move out of turn, a chance move: refused, state unchanged.

    Without `every`, only the first attempt: a card not held, a player's
    move while chance acts, or a deal after the end.
    """
    deck = facts.deck
    outside = facts.outside
    attempts: list[tuple[str, Move, int | None]] = []
    if moves:
        bad = _with_card(moves[rng.randrange(len(moves))], _other_card(state, rng))
        attempts.append(("a card not in the mover's hand", bad, None))
        if outside:
            bad = _with_card(moves[-1], outside[rng.randrange(len(outside))])
            attempts.append(("a card outside the rule set's deck", bad, None))
        other = (state.to_move + 1) % state.rules.seats  # type: ignore[operator]  # a seat moves
        attempts.append((f"a move submitted by seat {other} out of turn", moves[0], other))
        attempts.append(("a deal while a seat is to move", Deal(deck=deck), None))
    elif state.phase is Phase.MATCH_OVER:
        attempts.append(("a deal after the end of the match", Deal(deck=deck), None))
    else:
        card = deck[rng.randrange(len(deck))]
        attempts.append(("a player's move while chance acts", card, None))
        if outside and state.phase is not Phase.REDEAL:
            attempts.append(("a deal of the 52 cards, not the deck's", Deal(deck=DECK), None))
    for what, move, seat in attempts if every else attempts[:1]:
        try:
            apply(state, move, seat=seat)
        except IllegalMoveError:
            pass
        except Exception as exc:  # any other error is the failure reported
            raise _fail(
                "illegal move",
                f"{what} raised {type(exc).__name__}: {exc}, not IllegalMoveError",
                move,
            ) from exc
        else:
            raise _fail("illegal move", f"{what} was accepted", move)
        if not _same(state, snapshot):
            raise _fail("illegal move", f"refusing {what} changed the state", move)


# --------------------------------------------------------------------------
# Refusal: moves of held cards that are not legal ([X5][rules-x5])

_LISTED_SAMPLE = 8
"""Legal moves drawn by index at a sampled state: looked up on the table, and
searched for a capture to vary into near misses."""

_CARD_NAME = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♣♦♥♠]")
"""A card's name as `str(card)` writes it, inside an error message."""


def _refusal_candidates(
    state: GameState, legal: Sequence[PlayerMove], rng: random.Random
) -> list[tuple[str, PlayerMove]]:
    """Moves the mover may try that may not be legal here, with what each one is.

    Each is built from the mover's hand, the table and the deck, and does
    not depend on the rule under test; whether it is legal is decided by the
    caller against the legal moves: those of `_pile_candidates` or
    `_open_candidates`, then, in both families, a legal move made with a
    card not held and an item that is not on the table (another card of the
    hand, a card of a build taken alone, a build of another value).
    """
    hand = state.hands[state.to_move]  # type: ignore[index]  # a seat is to move
    table = state.table
    if state.rules.capture.pile:
        found = _pile_candidates(state, legal, rng)
    else:
        found = _open_candidates(state, legal, rng)
    card = _held(hand, rng)
    others = [c for c in hand if c != card]
    if others:
        found.append(
            (
                "a capture of a card that is not on the table (it is in the mover's hand)",
                Capture(card=card, taken=(others[rng.randrange(len(others))],)),
            )
        )
    if legal:
        bad = _with_card(legal[rng.randrange(len(legal))], _other_card(state, rng))
        found.append(("a legal move made with a card the mover does not hold", bad))
    builds = [t for t in table if isinstance(t, Build)]
    if builds:
        build = builds[rng.randrange(len(builds))]
        inner = build.cards[rng.randrange(len(build.cards))]
        found.append(
            (
                "a capture of a card of a build, taken alone",
                Capture(card=_held(hand, rng), taken=(inner,)),
            )
        )
        changed = attrs.evolve(build, value=build.value % 10 + 1)
        found.append(
            (
                "a capture of a build that is not on the table",
                Capture(card=_held(hand, rng), taken=(changed,)),
            )
        )
    return found


def _held(hand: tuple[Card, ...], rng: random.Random) -> Card:
    """A card of the hand, at random."""
    return hand[rng.randrange(len(hand))]


def _pile_candidates(
    state: GameState, legal: Sequence[PlayerMove], rng: random.Random
) -> list[tuple[str, PlayerMove]]:
    """In a pile game the legal moves are cards: other families' moves, and cards left out.

    A `Capture` naming the top card (by a card that neither matches it nor
    is of the rule's `sweeper` rank, where the hand has one), a `Combine`
    on it and a `Trail`; and a held card the legal moves leave out (a
    compulsory capture's), if there is one.
    """
    hand = state.hands[state.to_move]  # type: ignore[index]  # a seat is to move
    table = state.table
    found: list[tuple[str, PlayerMove]] = []
    if table:
        top = table[-1]
        takers = {top.rank if isinstance(top, Card) else None}
        takers.add(getattr(state.rules.capture, "sweeper", None))
        unmatched = [c for c in hand if c.rank not in takers]
        card = unmatched[rng.randrange(len(unmatched))] if unmatched else _held(hand, rng)
        found.append(
            (
                "a capture of the pile's top card by a card that does not match it",
                Capture(card=card, taken=(top,)),
            )
        )
        value = 1 + rng.randrange(10)
        found.append(("a build on the pile", Combine(card=_held(hand, rng), onto=top, value=value)))
    found.append(("a card laid free, not a move of a pile game", Trail(card=_held(hand, rng))))
    unlisted = [c for c in hand if c not in legal]
    if unlisted:
        card = unlisted[rng.randrange(len(unlisted))]
        found.append(("a held card that the legal moves do not list", card))
    return found


def _open_candidates(
    state: GameState, legal: Sequence[PlayerMove], rng: random.Random
) -> list[tuple[str, PlayerMove]]:
    """On an open table: captures that may not add up, builds, trails and a pile game's move.

    Random sets of table items; a legal capture with an item more, one
    fewer, or another card (`_near_misses`); a build of a random value on
    one item, and on two; a trail; the bare card.
    """
    hand = state.hands[state.to_move]  # type: ignore[index]  # a seat is to move
    table = state.table
    found: list[tuple[str, PlayerMove]] = []
    for _ in range(2):
        if table:
            size = 1 + rng.randrange(min(len(table), 4))
            taken = tuple(rng.sample(table, size))
            found.append(
                (
                    "a held card with table items that are not a legal capture",
                    Capture(card=_held(hand, rng), taken=taken),
                )
            )
    found.extend(_near_misses(state, legal, rng))
    if table:
        onto = table[rng.randrange(len(table))]
        value = 1 + rng.randrange(10)
        found.append(
            (
                "a build the rules do not allow",
                Combine(card=_held(hand, rng), onto=onto, value=value),
            )
        )
    if len(table) > 1:
        # Several items in one build, named in their order, the first as `onto` (C4).
        first, *also = sorted(rng.sample(table, 2), key=item_sort_key)
        value = 1 + rng.randrange(10)
        several = Combine(card=_held(hand, rng), onto=first, value=value, also=tuple(also))
        found.append(("a build of several items the rules do not allow", several))
    found.append(("a card laid free where the rules do not allow it", Trail(card=_held(hand, rng))))
    found.append(("a bare card, the move of a pile game", _held(hand, rng)))
    return found


def _near_misses(
    state: GameState, legal: Sequence[PlayerMove], rng: random.Random
) -> list[tuple[str, PlayerMove]]:
    """A legal capture with one more table item, one fewer, or made by another held card."""
    table = state.table
    hand = state.hands[state.to_move]  # type: ignore[index]  # a seat is to move
    # A few legal moves drawn by index (the list is never walked whole): the first capture.
    drawn = (legal[rng.randrange(len(legal))] for _ in range(_LISTED_SAMPLE))
    move = next((m for m in drawn if isinstance(m, Capture)), None)
    if move is None:
        return []
    found: list[tuple[str, PlayerMove]] = []
    rest = [t for t in table if t not in move.taken]
    if rest:
        more = (*move.taken, rest[rng.randrange(len(rest))])
        found.append(
            ("a legal capture with one more table item", Capture(card=move.card, taken=more))
        )
    if len(move.taken) > 1:
        drop = rng.randrange(len(move.taken))
        fewer = move.taken[:drop] + move.taken[drop + 1 :]
        found.append(
            ("a legal capture with one table item fewer", Capture(card=move.card, taken=fewer))
        )
    others = [c for c in hand if c != move.card]
    if others:
        other = others[rng.randrange(len(others))]
        found.append(
            (
                "another held card taking the items of a legal capture",
                Capture(card=other, taken=move.taken),
            )
        )
    return found


def _check_refusal(
    state: GameState,
    legal: Sequence[PlayerMove],
    snapshot: GameState,
    rng: random.Random,
) -> None:
    """Moves of held cards that are not legal: refused by the rule and by `apply` ([X5][rules-x5]).

    At a state where a seat is to move, the moves of `_refusal_candidates`
    (a dozen at most) that `legal` does not list are submitted to the
    capture rule's `play` and to `apply`: each must raise `IllegalMoveError`,
    whose message names no card hidden from the mover, and leave the state
    equal to `snapshot`. A move is illegal here because the legal moves do not
    list it, whatever the rule's `play` makes of it: a rule whose `play`
    accepts more than its `moves` list fails, naming the move it accepted.
    """
    rules = state.rules
    seat: int = state.to_move  # type: ignore[assignment]  # a seat is to move
    hand = state.hands[seat]
    _check_listed_items(state, legal, rng)
    for what, move in _refusal_candidates(state, legal, rng):
        if move in legal:
            continue
        for who in ("the capture rule's play", "apply"):
            try:
                if who == "apply":
                    apply(state, move, seat=seat)
                else:
                    rules.capture.play(state.table, hand, seat, move)
            except IllegalMoveError as exc:
                _check_no_leak(state, seat, move, f"{who} refusing {what}", str(exc))
            except Exception as exc:  # any other error is the failure reported
                raise _fail(
                    "illegal move",
                    f"{who} raised {type(exc).__name__}: {exc} on {what}, not IllegalMoveError",
                    move,
                ) from exc
            else:
                count = "1 move" if len(legal) == 1 else f"{len(legal)} moves"
                raise _fail(
                    "illegal move",
                    f"{who} accepted {move}, {what}: legal_moves lists {count} here, and not it",
                    move,
                )
            if not _same(state, snapshot):
                raise _fail("illegal move", f"{who} refusing {what} changed the state", move)


def _check_listed_items(state: GameState, legal: Sequence[PlayerMove], rng: random.Random) -> None:
    """Listed moves take and build on items that are on the table, each once.

    Whatever the rule, a move cannot take or build on what is not there; a
    few listed moves, drawn by index, are looked up on the table.
    """
    table = state.table
    for _ in range(min(_LISTED_SAMPLE, len(legal))):
        move = legal[rng.randrange(len(legal))]
        if isinstance(move, Capture):
            items: tuple[TableItem, ...] = move.taken
        elif isinstance(move, Combine):
            items = (move.onto, *move.also)
        else:
            continue
        missing = [item for item in items if item not in table]
        if missing or len(set(items)) != len(items):
            what = f"{', '.join(map(str, missing))} not on the table" if missing else "twice"
            raise _fail("legal moves", f"the legal move {move} names an item {what}", move)


def _check_no_leak(state: GameState, seat: int, move: PlayerMove, what: str, message: str) -> None:
    """An error message shown to `seat` names no card hidden from it ([X2][rules-x2]).

    The cards of the move submitted may be named (the mover knows them), and
    so may those of the initial tables shown and redealt.
    """
    named = set(_CARD_NAME.findall(message))
    if not named:
        return
    hidden = {str(card_at(state, place)) for place in hidden_places(state, seat)}
    known = {str(c) for c in _move_cards(move)}
    known.update(str(c) for table in state.redealt for c in table)
    leaked = sorted(named & hidden - known)
    if leaked:
        raise _fail(
            "illegal move",
            f"{what}, the error names {', '.join(leaked)}, hidden from seat {seat}: {message}",
            move,
        )


def _move_cards(move: PlayerMove) -> list[Card]:
    """The cards a player's move names: the card played and the items it takes or builds on."""
    if isinstance(move, Card):
        return [move]
    items: list[TableItem] = []
    if isinstance(move, Capture):
        items.extend(move.taken)
    elif isinstance(move, Combine):
        items.extend((move.onto, *move.also))
    cards = [move.card]
    for item in items:
        cards.extend(item_cards(item))
    return cards


def _expected_result(state: GameState) -> tuple[list[list[Card]], list[list[XeriKind]], int]:
    """The cards and xeris of each side from the takes, and the leftover count ([X1][rules-x1])."""
    rules = state.rules
    piles: list[list[Card]] = [[] for _ in range(rules.num_sides)]
    made: list[list[XeriKind]] = [[] for _ in range(rules.num_sides)]
    for take in state.takes:
        side = rules.sides[take.seat]
        piles[side].extend(take.cards)
        if take.xeri is not None:
            made[side].append(take.xeri)
    leftover = len(rules.deck) - sum(map(len, piles))
    return piles, made, leftover


def _recount(state: GameState) -> RoundResult:
    """The standard scoring, counted here from the takes and the rule set's data alone."""
    rules = state.rules
    piles, made, leftover = _expected_result(state)
    by_rank = dict(rules.card_points.ranks)
    extra = dict(rules.card_points.cards)
    card_points = [sum(by_rank.get(c.rank, 0) + extra.get(c, 0) for c in pile) for pile in piles]
    counts = [len(p) for p in piles]
    most = max(counts)
    leaders = counts.count(most)
    majority = []
    for n in counts:
        if n != most:
            majority.append(0)
        elif leaders == 1:
            majority.append(rules.majority_points)
        elif rules.majority_tie is MajorityTie.SPLIT:
            majority.append(rules.majority_points // leaders)
        else:
            majority.append(0)
    bonus = [
        sum(rules.jack_xeri_points if k is XeriKind.JACK_XERI else rules.xeri_points for k in ks)
        for ks in made
    ]
    total = [c + m + b for c, m, b in zip(card_points, majority, bonus, strict=True)]
    # A category is a component: its points are read through its protocol.
    captured, xeris = tuple(map(tuple, piles)), tuple(map(tuple, made))
    # A category that reads the round's captures is given them (W4), as the scorer does.
    takes = state.takes
    lines = tuple(
        (
            c.name,
            c.award(captured, xeris, rules, takes=takes)  # type: ignore[call-arg]  # its needs_takes capability
            if getattr(c, "needs_takes", False) is True
            else c.award(captured, xeris, rules),
        )
        for c in rules.categories
    )
    for _, points in lines:
        total = [t + p for t, p in zip(total, points, strict=True)]
    return RoundResult(
        cards=tuple(counts),
        card_points=tuple(card_points),
        majority=tuple(majority),
        xeris=tuple(len(ks) for ks in made),
        xeri_bonus=tuple(bonus),
        total=tuple(total),
        leftover=leftover,
        categories=lines,
    )


def _check_round_score(state: GameState) -> None:
    rules = state.rules
    result = state.round_results[-1]
    sides = rules.num_sides
    for field in ("cards", "card_points", "majority", "xeris", "xeri_bonus", "total"):
        value = getattr(result, field)
        if not isinstance(value, tuple) or len(value) != sides:
            raise _fail("round score", f"{field} must hold one number per side: {value!r}")
    if state.table and state.takes:
        raise _fail("round score", "cards are left on the table after somebody captured (G9)")
    expected = _recount(state)
    if isinstance(rules.scorer, StandardScorer):
        if result != expected:
            raise _fail("round score", f"scored {result}, the recount gives {expected}")
        return
    # A scorer of your own may score differently, but not count differently.
    for field in ("cards", "xeris", "leftover"):
        if getattr(result, field) != getattr(expected, field):
            got, want = getattr(result, field), getattr(expected, field)
            raise _fail("round score", f"{field} is {got}, the recount gives {want}")
    parts = tuple(map(sum, zip(*(points for _, points in result.sheet), strict=True)))
    if result.total != parts:
        lines = " + ".join(name for name, _ in result.sheet)
        raise _fail("round score", f"total {result.total} is not {lines} = {parts}")
    piles, made, leftover = _expected_result(state)
    captured, xeris = tuple(map(tuple, piles)), tuple(map(tuple, made))
    if getattr(rules.scorer, "needs_takes", False) is True:  # the captures, as W4 says
        again = rules.scorer.score(captured, xeris, rules, leftover=leftover, takes=state.takes)  # type: ignore[call-arg]  # its needs_takes capability
    else:
        again = rules.scorer.score(captured, xeris, rules, leftover=leftover)
    if again != result:
        raise _fail("round score", f"the scorer gives {again} for the same captures, not {result}")


def _check_xeris(prev: GameState, new: GameState, move: Move, plays: int) -> None:
    """The takes of a play: the old ones kept, at most one new; the xeri options honoured."""
    rules = new.rules
    if new.takes[: len(prev.takes)] != prev.takes:
        raise _fail("xeri", "a play changed the captures made before it")
    fresh = new.takes[len(prev.takes) :]
    turn = len(prev.history)
    last_play = turn == plays - 1
    for take in fresh:
        if not isinstance(take, Take):
            raise _fail("xeri", f"a capture is recorded as {type(take).__name__}, not a Take")
        if take.turn is None:
            if not last_play or take is not fresh[-1]:
                raise _fail("xeri", "the leftover cards were collected before the last play")
            if take.xeri is not None:
                raise _fail("xeri", "collecting the leftover cards counted as a xeri (G9)")
            continue
        if take.turn != turn or take.seat != prev.to_move:
            raise _fail("xeri", f"capture recorded for turn {take.turn} by seat {take.seat}")
        if take.cards[-1] is not move.card:  # type: ignore[union-attr]  # a player's move
            raise _fail("xeri", f"the capture does not end with the card played: {take.cards}")
        if take.xeri is None:
            continue
        if turn == 0 and not rules.xeri_on_first_card:
            raise _fail("xeri", "a xeri with the round's first card (xeri_on_first_card=False)")
        if last_play and not rules.xeri_on_last_card:
            raise _fail("xeri", "a xeri with the round's last card (xeri_on_last_card=False)")
        _check_xeri_kind(rules, take, new)
    if len([t for t in fresh if t.turn is not None]) > 1:
        raise _fail("xeri", "one play recorded as several captures")


def _check_xeri_kind(rules: RuleSet, take: Take, new: GameState) -> None:
    """A xeri as the capture rule's capabilities define it, whatever its class.

    With `pile` as in [G7][rules-g7], on an open table as in [D6][rules-d6].
    """
    capture = rules.capture
    kind = take.xeri
    if not isinstance(kind, XeriKind):
        raise _fail("xeri", f"a capture's xeri is {kind!r}, not an XeriKind or None")
    if capture.pile:
        # One pile: a xeri takes a lone card with one of its rank; a jack xeri
        # is that with the rule's sweeper rank, read as data if it has one.
        pair = take.cards
        if len(pair) != 2 or pair[0].rank != pair[1].rank:
            raise _fail(
                "xeri", f"a xeri must take a lone card of the same rank: {_names(pair)} (G7)"
            )
        sweeper = getattr(capture, "sweeper", None)
        jack = sweeper is not None and pair[0].rank == sweeper
        if (kind is XeriKind.JACK_XERI) != jack:
            raise _fail("xeri", f"a {kind.value} made with {_names(pair)} (sweeper {sweeper!r})")
    else:
        # An open table: a xeri is a capture that clears it; a jack xeri, one
        # that takes a lone card of its own rank, of a rank the rule names as
        # data: `jack_xeri_ranks` (W3), or else a `sweeper` rank of its own;
        # or the sweep of a card that the rule's `sweepers` give that kind (W2).
        if new.table:
            raise _fail("xeri", "a xeri that did not clear the table (D6)")
        if kind is XeriKind.JACK_XERI and not _jack_sweep(capture, take.cards[-1]):
            ranks = _jack_xeri_ranks(capture)
            pair = take.cards
            if not ranks:
                raise _fail(
                    "xeri",
                    f"a jack xeri on an open table with {_names(pair)}, by a rule that names no "
                    "jack_xeri_ranks (W3)",
                )
            if len(pair) != 2 or pair[0].rank != pair[1].rank or pair[1].rank not in ranks:
                raise _fail(
                    "xeri",
                    f"a jack xeri on an open table must take a lone card of its own rank, one "
                    f"of {' '.join(getattr(r, 'symbol', str(r)) for r in ranks)}: {_names(pair)}"
                    " (W3)",
                )


def _jack_sweep(capture: object, card: Card) -> bool:
    """Whether the rule's `sweepers`, read as data, make `card`'s sweeps jack xeris (W2)."""
    sweepers = getattr(capture, "sweepers", ())
    if not isinstance(sweepers, tuple):
        return False
    return any(
        getattr(s, "xeri", None) is XeriKind.JACK_XERI and card in getattr(s, "cards", ())
        for s in sweepers
    )


def _jack_xeri_ranks(capture: object) -> tuple[object, ...]:
    """The ranks of an open table's jack xeris, as the rule says them as data (W3).

    `jack_xeri_ranks` ([`SumCapture.jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks]),
    or for a rule of one's own without it, a `sweeper` rank it declares.
    """
    ranks = getattr(capture, "jack_xeri_ranks", None)
    if isinstance(ranks, tuple) and ranks:
        return ranks
    sweeper = getattr(capture, "sweeper", None)
    return () if sweeper is None else (sweeper,)


def _check_step(prev: GameState, new: GameState, move: Move, game: _Game) -> None:
    """The checks that compare a state with the one before it."""
    if new.rules is not prev.rules and new.rules != prev.rules:
        raise _fail("apply", "the rule set changed during the match")
    _check_dealer(prev, new)
    if prev.phase is Phase.PLAY:
        _check_play(prev, new, move, game)
    elif isinstance(move, Reshuffle):
        game.reshuffles += 1
        if game.reshuffles > MAX_RESHUFFLES:
            raise _fail(
                "termination", f"more than {MAX_RESHUFFLES} redeals of the initial table in a round"
            )
    elif isinstance(move, Deal):
        game.plays_this_round = 0
        game.reshuffles = 0
        if new.round_results != prev.round_results:
            raise _fail("match score", "dealing a round changed the results")
        if new.phase not in (Phase.PLAY, Phase.REDEAL):
            raise _fail("apply", f"after a deal the phase is {new.phase.value}")
    if new.phase is not prev.phase or new.round_results is not prev.round_results:
        _check_match(new, game)  # the match's status depends on nothing else


def _check_dealer(prev: GameState, new: GameState) -> None:
    """Who deals and who leads: the deal passes as [G2][rules-g2] and `dealer_per_deal` say.

    A new round is dealt by the seat after the dealer of the last deal (the
    first round by the first dealer); a deal within the round by the same
    dealer ([G8][rules-g8]), or by the next seat under `dealer_per_deal`; the
    seat after the dealer leads each deal ([G5][rules-g5]), and play goes on
    in seat order.
    """
    n = new.rules.seats
    dealer = prev.dealer
    if prev.phase is Phase.ROUND_OVER and new.phase is not Phase.ROUND_OVER:
        dealer = (dealer + 1) % n  # a new round
    elif prev.phase is Phase.PLAY and new.phase is Phase.PLAY and len(new.stock) < len(prev.stock):
        dealer = (dealer + 1) % n if new.rules.dealer_per_deal else dealer  # the next deal
    if new.dealer != dealer:
        raise _fail("apply", f"seat {new.dealer} deals, not seat {dealer} (G2, G8)")
    if new.phase is not Phase.PLAY:
        return
    if prev.phase is Phase.PLAY and len(new.stock) == len(prev.stock):
        seat = (prev.to_move + 1) % n  # type: ignore[operator]  # a seat was to move
    else:
        seat = (dealer + 1) % n
    if new.to_move != seat:
        raise _fail("apply", f"seat {new.to_move} is to move, not seat {seat} (G5, G8)")


def _check_play(prev: GameState, new: GameState, move: Move, game: _Game) -> None:
    """A player's move: history, captures and xeris, the round's length and its score."""
    rules = new.rules
    plays = game.facts.plays
    if new.phase is Phase.PLAY and len(new.round_results) != len(prev.round_results):
        raise _fail("match score", "a round was scored in the middle of play")
    history = new.history
    if history[:-1] != prev.history or history[-1] != move:
        raise _fail("apply", "the round's history is not the old history and the move")
    _check_xeris(prev, new, move, plays)
    game.plays_this_round += 1
    if game.plays_this_round > plays:
        raise _fail(
            "termination",
            f"more than {plays} plays in a round ({len(rules.deck)} cards less "
            f"{rules.table_size} on the table)",
        )
    if new.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        return
    if game.plays_this_round != plays:
        raise _fail(
            "termination", f"the round ended after {game.plays_this_round} plays, not {plays}"
        )
    results = new.round_results
    if results[:-1] != prev.round_results or len(results) != len(prev.round_results) + 1:
        raise _fail("match score", "ending a round changed the earlier rounds' results")
    _check_round_score(new)
    for side, points in enumerate(results[-1].total):
        game.totals[side] += points
    game.rounds += 1
    bound = game.facts.rounds
    if game.rounds >= bound and new.phase is not Phase.MATCH_OVER:
        raise _fail("termination", f"the match is not over after {bound} rounds")


def _check_match(new: GameState, game: _Game) -> None:
    """Match scores are the sum of the round totals; the match ends when its format says."""
    rules = new.rules
    if list(new.scores) != game.totals:
        raise _fail(
            "match score",
            f"match scores {new.scores}, the sum of the round totals is {tuple(game.totals)}",
        )
    status = new.status
    if status.over != (new.phase is Phase.MATCH_OVER):
        raise _fail(
            "match score", f"phase {new.phase.value} but the match format says over={status.over}"
        )
    if isinstance(rules.match, FixedRounds) and new.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        over = len(new.round_results) >= rules.match.rounds
        if over != (new.phase is Phase.MATCH_OVER):
            raise _fail(
                "match score", f"{len(new.round_results)} of {rules.match.rounds} rounds played"
            )
    winner = status.winner
    if new.phase is Phase.MATCH_OVER and winner is not None and status.target is not None:
        scores = new.scores
        # A winner has reached the target; under `TargetScore` it also has the most points
        # (a count-out, `CountOut`, may end with the other side ahead: C7).
        top = isinstance(rules.match, TargetScore) and scores[winner] < max(scores)
        if scores[winner] < status.target or top:
            raise _fail(
                "match score",
                f"side {winner} wins with the scores {scores}, the target {status.target}",
            )


# --------------------------------------------------------------------------
# Edges: JSON and observations (xeri._io.serialize, xeri.observe)


def _check_json(value: Loadable, what: str) -> Loadable:
    """`value` written with `to_json` and read back with `from_json`: it must come back equal.

    Returns:
        The value read back.
    """
    try:
        back: Loadable = from_json(to_json(value), type(value))
    except Exception as exc:  # any error is the failure reported
        raise _fail("json round trip", f"{what}: {type(exc).__name__}: {exc}") from exc
    if back != value:
        raise _fail("json round trip", f"{what} came back different: {back!r}")
    return back


def _check_shown(state: GameState, seat: int, seen: Observation) -> None:
    """The observation shows the end of the table and of each capture, and counts the rest.

    [`hidden_places`][xeri.testing.hidden_places] relies on it: whatever an
    observation leaves out in front of what it shows is hidden from the seat.
    """
    if not isinstance(seen, Observation):
        raise _fail("non-interference", f"observe returned a {type(seen).__name__}")
    table = state.table
    down = len(table) - len(seen.table)
    if down < 0 or table[down:] != seen.table or seen.face_down != down:
        raise _fail(
            "non-interference",
            f"seat {seat}'s observation shows {len(seen.table)} table items and "
            f"{seen.face_down} face down, not the last items of the state's {len(table)}",
        )
    if len(seen.takes) != len(state.takes):
        raise _fail("non-interference", f"seat {seat}'s observation counts the captures wrong")
    for n, (take, shown) in enumerate(zip(state.takes, seen.takes, strict=True)):
        hidden = len(take.cards) - len(shown.cards)
        if hidden < 0 or take.cards[hidden:] != shown.cards or shown.hidden != hidden:
            raise _fail(
                "non-interference",
                f"seat {seat}'s observation of capture {n} shows {len(shown.cards)} cards "
                f"and {shown.hidden} hidden, not the last cards of the {len(take.cards)} taken",
            )


def _check_observations(
    state: GameState, legal: tuple[PlayerMove, ...], rng: random.Random
) -> None:
    for seat in range(state.rules.seats):
        try:
            seen = observe(state, seat)
        except Exception as exc:  # any error is the failure reported
            raise _fail("non-interference", f"observe(state, {seat}) raised {exc!r}") from exc
        _check_shown(state, seat, seen)
        if seat == state.to_move and not _same_moves(legal_moves(seen), legal):
            raise _fail(
                "non-interference",
                f"seat {seat}'s legal moves depend on cards it cannot see: "
                "legal_moves of its observation differ from those of the state",
            )
        if len(hidden_places(state, seat)) < 2:
            continue
        if observe(shuffle_hidden(state, seat, rng), seat) != seen:
            raise _fail(
                "non-interference",
                f"seat {seat}'s observation changes when the cards hidden from it are shuffled",
            )


# --------------------------------------------------------------------------
# The capture rule's needs (xeri._families.protocol.HandNeeds)


def _needs_of(rules: RuleSet, state: GameState, move: PlayerMove, seat: int) -> HandNeeds:
    try:
        needs = rules.capture.needs(state.table, move, seat)
    except Exception as exc:  # any error is the failure reported
        raise _fail(
            "needs", f"needs(table, {move}, {seat}) raised {type(exc).__name__}: {exc}", move
        ) from exc
    if not isinstance(needs, HandNeeds):
        raise _fail("needs", f"needs returned a {type(needs).__name__}, not a HandNeeds", move)
    return needs


def _could_hold(state: GameState, seat: int, hand: tuple[Card, ...], places: list[Place]) -> bool:
    """Whether the seat could hold `hand` here: the round's plays so far were legal with it.

    The cards of `hand` that the seat does not hold trade places with those
    it does not keep, and the library's own state validation replays the
    round. A hand ruled out by earlier plays (say, one without a card of
    the value of a build the seat owns, [D4][rules-d4]) is not one the seat
    could have, and `needs` need not be exact for it.
    """
    real = state.hands[seat]
    kept = set(hand)
    leaving = [c for c in real if c not in kept]
    # Each card coming into the hand leaves its place to a card going out.
    swaps = [(p, leaving.pop()) for p in places[len(real) :] if card_at(state, p) in kept]
    swaps += [(("hand", seat, i), c) for i, c in enumerate(hand)]
    return not check_state(place_cards(state, swaps)).problems


def _unmet(needs: HandNeeds, hand: tuple[Card, ...]) -> str:
    """What of `needs` a hand lacks, in words."""
    held = set(hand)
    banned = sorted(needs.none_of & held)
    if banned:
        return f"the hand must hold none of {_names(banned)}"
    for group, count in needs.at_least:
        if len(group & held) < count:
            return f"the hand must hold {count} of {_names(sorted(group))}"
    return "the hand meets them"


def _check_needs(state: GameState, legal: tuple[PlayerMove, ...], rng: random.Random) -> None:
    """`needs` is exact: it holds for the real hand, and for other hands iff the move is listed.

    The other hands have the mover's hand size and hold a card the mover may
    play; the rest is drawn from the mover's hand and the cards hidden from
    it. A disagreement counts only if the seat could hold the hand
    (`_could_hold`): hands the other seats cannot rule out. That costs a
    replay of the round, so it is asked only of a hand that disagrees.
    """
    rules = state.rules
    seat: int = state.to_move  # type: ignore[assignment]  # a seat is to move
    hand = state.hands[seat]
    needs: dict[PlayerMove, HandNeeds] = {}
    for move in legal:
        needs[move] = found = _needs_of(rules, state, move, seat)
        if not found.holds(hand):
            raise _fail(
                "needs",
                f"{move} is legal, but needs says the mover's hand could not have played it: "
                f"{_unmet(found, hand)}",
                move,
            )
    places: list[Place] = [("hand", seat, i) for i in range(len(hand))]
    places += hidden_places(state, seat)
    pool = sorted(card_at(state, p) for p in places)
    for card in sorted({m.card for m in legal}):
        rest = [c for c in pool if c != card]
        for _ in range(_NEEDS_HANDS):
            other = tuple(sorted([card, *rng.sample(rest, min(len(hand) - 1, len(rest)))]))
            failure = _needs_disagree(state, legal, needs, other)
            if failure is not None and _could_hold(state, seat, other, places):
                raise failure


def _needs_disagree(
    state: GameState,
    legal: tuple[PlayerMove, ...],
    needs: dict[PlayerMove, HandNeeds],
    other: tuple[Card, ...],
) -> _Failure | None:
    """Where `needs` and `moves` disagree for another hand of the mover, if they do."""
    rules = state.rules
    seat: int = state.to_move  # type: ignore[assignment]  # a seat is to move
    try:
        listed = rules.capture.moves(state.table, other, seat)
    except Exception as exc:  # any error is the failure reported
        failure = _fail(
            "needs", f"moves with the hand {_names(other)} raised {type(exc).__name__}: {exc}"
        )
        failure.__cause__ = exc
        return failure
    for move in dict.fromkeys([*listed, *(m for m in legal if m.card in other)]):
        if move not in needs:
            try:
                needs[move] = _needs_of(rules, state, move, seat)
            except _Failure as failure:
                return failure
        if needs[move].holds(other) != (move in listed):
            says = f"forbids it ({_unmet(needs[move], other)})" if move in listed else "allows it"
            return _fail(
                "needs",
                f"moves {'lists' if move in listed else 'does not list'} {move} for the "
                f"hand {_names(other)}, but needs {says}",
                move,
            )
    return None


# --------------------------------------------------------------------------
# Records (xeri._io.records)


def _record(rules: RuleSet, dealer: int, moves: list[Move]) -> GameRecord:
    return GameRecord(rules=rules, dealer=dealer, moves=tuple(moves))


# --------------------------------------------------------------------------
# The harness


@attrs.frozen(kw_only=True)
class _Facts:
    """What the harness works out once per rule set rather than at every move."""

    deck: tuple[Card, ...]
    """The rule set's deck."""
    cards: frozenset[Card]
    """The same cards, as a set."""
    outside: tuple[Card, ...]
    """The cards of the 52 that the deck leaves out."""
    plays: int
    """Plays in a round."""
    rounds: int
    """The most rounds a match may take (`round_bound`)."""
    moves_read: set[Move] = attrs.Factory(set)
    """The players' moves that made the JSON round trip."""


def _facts(rules: RuleSet) -> _Facts:
    cards = frozenset(rules.deck)
    return _Facts(
        deck=rules.deck,
        cards=cards,
        outside=tuple(c for c in DECK if c not in cards),
        plays=_plays_per_round(rules),
        rounds=round_bound(rules),
    )


@attrs.define
class _Game:
    """One match being checked: where it stands and its counters."""

    rules: RuleSet
    facts: _Facts
    rng: random.Random
    """Draws the moves of the match, and nothing else."""
    checks: random.Random
    """Draws the sampled states, the illegal moves tried and the shuffles of hidden cards."""
    needs_rng: random.Random
    """Draws the hands of the needs check."""
    refusal_rng: random.Random
    """Draws the illegal moves of held cards that the refusal check tries."""
    dealer: int
    state: GameState
    totals: list[int]
    moves: list[Move] = attrs.Factory(list)
    move: Move | None = None
    rounds: int = 0
    plays_this_round: int = 0
    reshuffles: int = 0


def _check_state(state: GameState, game: _Game, *, sampled: bool) -> tuple[PlayerMove, ...]:
    """The checks of one state on its own; returns its legal moves."""
    _check_conservation(state, game.facts)
    moves = _check_legal_moves(state)
    if sampled:
        _check_observations(state, moves, game.checks)
        if moves and len(moves) <= _LISTED:  # needs are checked move by move
            _check_needs(state, tuple(moves), game.needs_rng)
    return moves


def _sampled(state: GameState, checks: random.Random) -> bool:
    """Whether a state gets the costly checks.

    Always where no seat is to move in the match's first round (before the
    deal, at a redeal, at the round's end) and at the end of the match;
    elsewhere at random, about one state in `_SAMPLE_ONE_IN`.
    """
    phase = state.phase
    if phase is not Phase.PLAY:
        done = len(state.round_results)
        if phase is Phase.MATCH_OVER or done == 0 or (done == 1 and phase is Phase.ROUND_OVER):
            return True
    return checks.randrange(_SAMPLE_ONE_IN) == 0


def _check_move_json(move: Move, facts: _Facts) -> None:
    """A move's JSON round trip; a player's move once per run (it does not depend on the state)."""
    if isinstance(move, (Deal, Reshuffle)):
        _check_json(move, "the move")
    elif move not in facts.moves_read:
        _check_json(move, "the move")
        facts.moves_read.add(move)


def _play_one(game: _Game) -> None:
    """Play and check one match to its end."""
    rng, checks = game.rng, game.checks
    state = game.state
    _check_json(game.rules, "the rule set")
    sampled = _sampled(state, checks)
    legal = _check_state(state, game, sampled=sampled)
    while not state.is_over:
        copied = _copy(state)
        if sampled:
            restored = _check_json(state, "the state")
        _check_illegal(state, legal, copied, checks, game.facts, every=sampled)
        if legal and (sampled or game.plays_this_round == 0):  # and each round's first play
            _check_refusal(state, legal, copied, game.refusal_rng)
        move: Move = (
            chance_move(state, rng) if state.is_chance else legal[rng.randrange(len(legal))]
        )
        game.move = move
        _check_move_json(move, game.facts)
        try:
            new = apply(state, move)
        except Exception as exc:  # any error is the failure reported
            raise _fail("apply", f"the move raised {type(exc).__name__}: {exc}") from exc
        # The copy shares the state's fields; the state read back from JSON shares nothing.
        if not _same(state, copied) or (sampled and state != restored):
            raise _fail("purity", "apply changed the state it was given")
        equal: GameState = restored if sampled else copied  # type: ignore[assignment]  # from JSON
        try:
            again = apply(equal, move)
        except Exception as exc:  # any error is the failure reported
            raise _fail(
                "purity", f"the same move applied to an equal state raised {type(exc).__name__}"
            ) from exc
        if not _same(again, new):
            raise _fail("purity", "the same move applied to an equal state gave another state")
        game.moves.append(move)
        game.state = new
        _check_step(state, new, move, game)
        state = new
        sampled = _sampled(state, checks)
        legal = _check_state(state, game, sampled=sampled)
    _check_json(state, "the state")
    _check_illegal(state, legal, _copy(state), checks, game.facts, every=True)


def check_rules(
    rules: RuleSet,
    *,
    games: int = 3,
    rng: random.Random | None = None,
    progress: Callable[[int, int], object] | None = None,
    max_seconds: float | None = None,
) -> CheckReport:
    """Play `games` random matches of `rules` and check every move; raise on the first failure.

    Every move is drawn at random from [`legal_moves`][xeri.legal_moves] or,
    where chance acts, from [`chance_move`][xeri.chance_move] with `rng`.
    The harness checks:

    * **apply**: the move drawn (a legal move, or chance's) is accepted; the
      rule set never changes; a play extends the round's history by itself;
      the deal passes as [G2][rules-g2] and
      [`dealer_per_deal`][xeri.RuleSet.dealer_per_deal] say (each round to
      the next seat; each deal within a round by the same dealer, or the
      next seat under the option), and the seat after the dealer leads each
      deal, play going on in seat order;
    * **conservation**: hands, table, stock and captures hold the cards of
      the rule set's [`deck`][xeri.RuleSet.deck], each once and no other;
      hands are sorted;
    * **legal moves**: sorted, without duplicates, every one playing a card
      of the mover's hand, and non-empty exactly when a seat is to move;
    * **illegal move**: a card not held (and, with a deck smaller than the
      52, one outside the deck), a move out of turn and a chance move at a
      player's turn (or the reverse, and a deal of cards other than the
      deck's) raise [`IllegalMoveError`][xeri.IllegalMoveError] and leave
      the state equal to a copy taken before. So do moves of the mover's own
      cards that `legal_moves` does not list ([X5][rules-x5]), submitted both
      to the capture rule's `play` and to [`apply`][xeri.apply]: a held card
      with table items that are no legal capture (random sets of items, and
      a legal capture with an item more, one fewer, or another card), an
      item not on the table (a card of the hand, a card of a build taken
      alone, a build of another value), a build of a random value, a trail
      where the rule lists none, and another family's move (a `Capture`,
      `Combine` or `Trail` in a pile game, a capture of the top card by a
      card that does not match it among them; the bare card on an open
      table). The refusal's message must name no card hidden from the mover
      ([X2][rules-x2]); a rule whose `play` accepts one of these fails,
      naming the move it accepted. And a few of the legal moves, drawn at
      random, take and build on items that are on the table, each once;
    * **purity**: `apply` leaves its input equal to a copy, and gives an
      equal result for an equal input;
    * **termination**: a round is exactly the deck's size minus
      `table_size` plays, at most [`MAX_RESHUFFLES`][xeri.testing.MAX_RESHUFFLES]
      redeals, and a match at most the rounds of
      [`round_bound`][xeri.testing.round_bound];
    * **xeri**: captures are recorded for the mover and turn, end with the
      card played, and no xeri is made where the rule set forbids it (first
      or last card, the leftover collection); read from the capture rule's
      capability [`pile`][xeri.CaptureRule.pile], whatever its class: with
      one pile a xeri takes a lone card of the same rank, and it is a jack
      xeri exactly when both are of the rule's `sweeper` rank (a rule
      without a `sweeper` makes none); on an open table a xeri clears the
      table, and a jack xeri is one that takes a lone card of its own rank,
      of a rank the rule names in `jack_xeri_ranks` (or, for a rule of one's
      own without that field, its `sweeper` rank), or the sweep of a card
      whose [`Sweeper`][xeri.Sweeper] among the rule's `sweepers` has that
      kind ([G7][rules-g7], [D6][rules-d6], [W2][rules-w2], [W3][rules-w3]);
    * **round score**: with the [`StandardScorer`][xeri.StandardScorer] the
      round result equals a recount from the captures and the rule set's data
      (points table, majority and its tie rule, xeri bonuses, leftover, and
      the points each of its [`categories`][xeri.RuleSet.categories] awards).
      A scorer of your own must agree with the recount on cards, xeris and
      leftover, make its total the sum of its score sheet's lines, and be
      deterministic;
    * **match score**: match scores are the sum of the round totals, earlier
      rounds' results never change, and the match ends exactly when its
      format says so;
    * **json round trip**: the rule set, the moves and the states come back
      equal from [`to_json`][xeri.to_json] and [`from_json`][xeri.from_json];
    * **non-interference**: every observation shows the end of the table and
      of each capture and counts the cards in front of it; the seat to move
      has the same legal moves from its observation as from the state; and
      shuffling the cards hidden from a seat (other hands, the stock,
      face-down cards under a pile or taken by another seat) among the
      places hidden from it leaves [`observe`][xeri.observe] for that seat
      unchanged ([X2][rules-x2], [P3][rules-p3]);
    * **needs**: the capture rule's [`needs`][xeri.CaptureRule.needs] is
      exact for every legal move: it holds for the mover's hand, and for
      random hands of the same size holding the move's card (drawn from the
      mover's hand and the cards hidden from it) it holds exactly when
      `moves` lists the move for that hand, unless the round's plays so far
      rule that hand out.

    Most of this is checked at every state and move: apply, conservation,
    legal moves, termination, xeri, round score and match score (the last
    whenever the phase or the results change: nothing else moves them);
    purity against an equal copy sharing the state's fields; one illegal
    move (a card the mover does not hold; a player's move where chance
    acts; a deal after the end); and the JSON round trip of every deal and
    reshuffle, of the rule set once per match, and of each player's move
    the first time the run plays it (its JSON does not depend on the
    state). What costs a replay of the round or a reading of the whole
    state is checked at a sample of the states:

    * the state's JSON round trip, and purity against the state read back,
      which shares nothing with it: `apply` must leave the state equal to
      it and give an equal result from it;
    * the other illegal moves, and the moves of held cards that are not
      legal (a dozen at most, drawn by a generator of their own; these also
      before the first play of every round);
    * non-interference;
    * needs, with three random hands per card the mover may play.

    The sample holds the state before the first deal, every state of the
    match's first round where no seat is to move (its redeals and its end),
    the end of the match, and about one state in 32 of the others, drawn
    at random: thousands of states in a run of a few hundred matches. Its
    draws, the illegal moves tried, the shuffles and the hands come from
    generators of their own, seeded from each match's seed: the matches
    played do not depend on them, and the same `rng` seed repeats the same
    run, failures included.

    Args:
        rules: the rule set to check. [`register`][xeri.register] a rule set
            with components of your own first: JSON reads back only the
            library's component classes and those of registered rule sets.
        games: how many matches to play.
        rng: the generator for every random choice; a seeded `random.Random`
            repeats a run. Defaults to a fresh, randomly seeded one.
        progress: called with (matches done, `games`) after each match, as
            [`simulate`][xeri.simulate] reports its deals.
        max_seconds: a time budget: no match is started once this many
            seconds have passed since the call (the first one always is;
            the match under way is played to its end). The report's `games`
            says how many were checked, and `requested` how many were asked
            for. None (the default) plays them all.

    Returns:
        A [`CheckReport`][xeri.testing.CheckReport] counting what was played.

    Raises:
        ConformanceError: a check failed; it names the check and the move and
            carries a record that replays the game up to the failure.
        TypeError: `rules` is not a RuleSet or `games` is not a positive int.
        ArgumentError: `progress` is not callable, or `max_seconds` is not a
            positive number.

    Examples:
        >>> import random, xeri
        >>> from xeri.testing import check_rules
        >>> seen = []
        >>> report = check_rules(
        ...     xeri.GREEK_FOUR, games=2, rng=random.Random(3),
        ...     progress=lambda done, total: seen.append((done, total)),
        ...     max_seconds=600,
        ... )
        >>> seen, report.games, report.requested, report.complete
        ([(1, 2), (2, 2)], 2, 2, True)
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    if type(games) is not int or games < 1:
        raise TypeError(f"games must be a positive int, not {games!r}")
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress must be a callable or None, not {_show(progress)}")
    if max_seconds is not None and not (
        type(max_seconds) in (int, float) and 0 < max_seconds < math.inf
    ):
        raise ArgumentError(
            f"max_seconds must be a positive number or None, not {_show(max_seconds)}"
        )
    if rng is None:
        rng = random.Random()
    facts = _facts(rules)
    began = time.perf_counter()
    played = rounds = moves = 0
    while played < games:
        if played and max_seconds is not None and time.perf_counter() - began >= max_seconds:
            break
        seed = rng.getrandbits(64)
        game_rng = random.Random(seed)
        dealer = game_rng.randrange(rules.seats)
        game = _Game(
            rules=rules,
            facts=facts,
            rng=game_rng,
            # Generators of their own, so that the games played do not depend on them.
            checks=random.Random(f"checks {seed}"),
            needs_rng=random.Random(f"needs {seed}"),
            refusal_rng=random.Random(f"refusal {seed}"),
            dealer=dealer,
            state=start(rules, dealer=dealer),
            totals=[0] * rules.num_sides,
        )
        try:
            _play_one(game)
        except _Failure as failure:
            move = failure.move if failure.move is not None else game.move
            applied = bool(game.moves) and move is game.moves[-1]
            raise ConformanceError(
                failure.check,
                failure.detail,
                move=move,
                move_number=len(game.moves) - applied,
                state=game.state,
                record=_record(rules, dealer, game.moves),
            ) from failure
        played += 1
        rounds += game.rounds
        moves += len(game.moves)
        if progress is not None:
            progress(played, games)
    return CheckReport(games=played, rounds=rounds, moves=moves, requested=games)

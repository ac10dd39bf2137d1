"""The conformance harness: [`check_rules`][xeri.testing.check_rules] and its checks.

Run it on any [`RuleSet`][xeri.RuleSet], a preset or your own: it plays
random full matches, chance included, and after every move checks the
properties that every rule set must have. It reads a rule set's components
through their protocols and the capabilities they declare (such as
[`CaptureRule.pile`][xeri.CaptureRule.pile]), never by their class, so a
component of your own is checked as strictly as a built-in one. It needs
cattrs (the `testing` or `json` extra) for its JSON round trips, and not
hypothesis.
"""

from __future__ import annotations

import copy
import math
import random
from typing import Any

import attrs

from xeri._validate import check_state
from xeri.capture import HandNeeds, XeriKind
from xeri.cards import DECK, Card
from xeri.engine import apply, chance_move, legal_moves, start
from xeri.errors import IllegalMoveError, XeriError
from xeri.match import FixedRounds
from xeri.moves import Deal, Move, PlayerMove, Reshuffle, move_sort_key
from xeri.observe import Observation, observe
from xeri.records import GameRecord
from xeri.rules import RuleSet
from xeri.scoring import MajorityTie, RoundResult, StandardScorer
from xeri.serialize import Loadable, from_json, to_json
from xeri.state import GameState, Phase, Take
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

_NEEDS_ONE_IN = 4
"""The needs check looks at about one decision point in this many."""

_NEEDS_HANDS = 3
"""Random hands tried per card the mover may play, at a decision point the needs check looks at."""


class ConformanceError(XeriError):
    """A rule set broke one of the properties [`check_rules`][xeri.testing.check_rules] checks.

    Attributes:
        check: the name of the failed check, one of [`CHECKS`][xeri.testing.CHECKS].
        detail: what was wrong, in a sentence.
        move: the move concerned: the last move of `record` when the check
            looked at the state it made ("after move n"), or a move not in
            `record` when `apply` mishandled it there ("at move n": a legal
            move that failed, or an illegal one that was accepted); None when
            the state before the first deal failed.
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
    """What [`check_rules`][xeri.testing.check_rules] played: every check passed on all of it."""

    games: int
    """Matches played to their end."""
    rounds: int
    """Rounds played, over all matches."""
    moves: int
    """Moves applied and checked, chance's included."""


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
    return 52 - rules.table_size


def round_bound(rules: RuleSet) -> int:
    """The most rounds a match of `rules` may take before the harness calls it endless.

    The bound is read from the match format's data, whatever its class: a
    format with a positive int `rounds` (as [`FixedRounds`][xeri.FixedRounds])
    takes at most that many. One with a positive int `target` (as
    [`TargetScore`][xeri.TargetScore]) is bounded generously: 20 rounds plus
    10 times the rounds needed to reach the target if every round's base
    points (the points table and the majority bonus) went to one side. Any
    other format gets 500 rounds.

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
        base = rules.card_points.total + rules.majority_points
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


def _check_conservation(state: GameState) -> None:
    cards = _all_cards(state)
    if state.phase is Phase.DEAL:
        if cards:
            raise _fail("conservation", f"{len(cards)} cards are in play before the first deal")
        return
    if len(cards) != 52 or set(cards) != set(DECK):
        counts: dict[Card, int] = {}
        for c in cards:
            counts[c] = counts.get(c, 0) + 1
        twice = sorted(c for c, n in counts.items() if n > 1)
        missing = sorted(set(DECK) - set(cards))
        raise _fail(
            "conservation",
            f"{len(cards)} cards in hands, table, stock and captures, not the 52; "
            f"missing {_names(missing)}, more than once {_names(twice)}",
        )
    for seat, hand in enumerate(state.hands):
        if list(hand) != sorted(hand):
            raise _fail("conservation", f"the hand of seat {seat} is not sorted: {_names(hand)}")
    if state.bottom_card is not None and state.bottom_card not in cards:
        raise _fail("conservation", f"the shown bottom card {state.bottom_card} is not in play")


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(map(str, cards)) or "none"


def _check_legal_moves(state: GameState) -> tuple[PlayerMove, ...]:
    moves = legal_moves(state)
    if not isinstance(moves, tuple):
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
    try:
        keys = [move_sort_key(m) for m in moves]
    except (KeyError, AttributeError, TypeError):
        raise _fail("legal moves", f"a legal move is not a player's move: {moves}") from None
    if keys != sorted(keys):
        raise _fail("legal moves", f"not sorted: {', '.join(map(str, moves))}")
    if len(set(moves)) != len(moves):
        raise _fail("legal moves", f"a move is listed twice: {', '.join(map(str, moves))}")
    hand = state.hands[seat]  # type: ignore[index]  # a seat is to move
    for move in moves:
        if move.card not in hand:
            raise _fail("legal moves", f"{move} plays {move.card}, not in the mover's hand")
    return moves


def _other_card(state: GameState, rng: random.Random) -> Card:
    """A card the seat to move does not hold."""
    hand = set(state.hands[state.to_move])  # type: ignore[index]  # a seat is to move
    start_at = rng.randrange(52)
    for i in range(52):
        card = DECK[(start_at + i) % 52]
        if card not in hand:
            return card
    raise AssertionError("a hand of 52 cards")  # pragma: no cover  # validation forbids it


def _with_card(move: PlayerMove, card: Card) -> PlayerMove:
    if isinstance(move, Card):
        return card
    return attrs.evolve(move, card=card)


def _check_illegal(
    state: GameState, moves: tuple[PlayerMove, ...], snapshot: GameState, rng: random.Random
) -> None:
    """A card not held, a move out of turn, a chance move: refused, state unchanged."""
    attempts: list[tuple[str, Move, int | None]] = []
    if moves:
        bad = _with_card(moves[rng.randrange(len(moves))], _other_card(state, rng))
        attempts.append(("a card not in the mover's hand", bad, None))
        other = (state.to_move + 1) % state.rules.seats  # type: ignore[operator]  # a seat moves
        attempts.append((f"a move submitted by seat {other} out of turn", moves[0], other))
        attempts.append(("a deal while a seat is to move", Deal(deck=DECK), None))
    elif state.phase is Phase.MATCH_OVER:
        attempts.append(("a deal after the end of the match", Deal(deck=DECK), None))
    else:
        attempts.append(("a player's move while chance acts", DECK[rng.randrange(52)], None))
    for what, move, seat in attempts:
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
        if state != snapshot:
            raise _fail("illegal move", f"refusing {what} changed the state", move)


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
    leftover = 52 - sum(map(len, piles))
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
    return RoundResult(
        cards=tuple(counts),
        card_points=tuple(card_points),
        majority=tuple(majority),
        xeris=tuple(len(ks) for ks in made),
        xeri_bonus=tuple(bonus),
        total=tuple(c + m + b for c, m, b in zip(card_points, majority, bonus, strict=True)),
        leftover=leftover,
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
    parts = tuple(
        map(sum, zip(result.card_points, result.majority, result.xeri_bonus, strict=True))
    )
    if result.total != parts:
        raise _fail(
            "round score",
            f"total {result.total} is not card points + majority + xeri bonus = {parts}",
        )
    piles, made, leftover = _expected_result(state)
    again = rules.scorer.score(
        tuple(map(tuple, piles)), tuple(map(tuple, made)), rules, leftover=leftover
    )
    if again != result:
        raise _fail("round score", f"the scorer gives {again} for the same captures, not {result}")


def _check_xeris(prev: GameState, new: GameState, move: Move) -> None:
    """The takes of a play: the old ones kept, at most one new; the xeri options honoured."""
    rules = new.rules
    if new.takes[: len(prev.takes)] != prev.takes:
        raise _fail("xeri", "a play changed the captures made before it")
    fresh = new.takes[len(prev.takes) :]
    turn = len(prev.history)
    last_play = turn == _plays_per_round(rules) - 1
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
        # An open table: a xeri is a capture that clears it.
        if new.table:
            raise _fail("xeri", "a xeri that did not clear the table (D6)")
        if kind is not XeriKind.XERI:
            raise _fail("xeri", f"a {kind.value} on an open table (D6)")


def _check_step(prev: GameState, new: GameState, move: Move, game: _Game) -> None:
    """The checks that compare a state with the one before it."""
    if new.rules != prev.rules:
        raise _fail("apply", "the rule set changed during the match")
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
    _check_match(new, game)


def _check_play(prev: GameState, new: GameState, move: Move, game: _Game) -> None:
    """A player's move: history, captures and xeris, the round's length and its score."""
    rules = new.rules
    plays = _plays_per_round(rules)
    if new.phase is Phase.PLAY and len(new.round_results) != len(prev.round_results):
        raise _fail("match score", "a round was scored in the middle of play")
    history = new.history
    if history[:-1] != prev.history or history[-1] != move:
        raise _fail("apply", "the round's history is not the old history and the move")
    _check_xeris(prev, new, move)
    game.plays_this_round += 1
    if game.plays_this_round > plays:
        raise _fail(
            "termination",
            f"more than {plays} plays in a round (52 cards less {rules.table_size} on the table)",
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
    bound = round_bound(rules)
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
        if scores[winner] < status.target or scores[winner] < max(scores):
            raise _fail(
                "match score",
                f"side {winner} wins with the scores {scores}, the target {status.target}",
            )


# --------------------------------------------------------------------------
# Edges: JSON and observations (xeri.serialize, xeri.observe)


def _check_json(value: Loadable, what: str) -> Loadable:
    """`value` written with `to_json` and read back with `from_json`: it must come back equal."""
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


def _check_observations(state: GameState, rng: random.Random) -> None:
    for seat in range(state.rules.seats):
        try:
            seen = observe(state, seat)
        except Exception as exc:  # any error is the failure reported
            raise _fail("non-interference", f"observe(state, {seat}) raised {exc!r}") from exc
        _check_shown(state, seat, seen)
        if seat == state.to_move and legal_moves(seen) != legal_moves(state):
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
# The capture rule's needs (xeri.capture.HandNeeds)


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
    it, and a hand is kept only if the seat could hold it (`_could_hold`):
    hands the other seats cannot rule out.
    """
    rules = state.rules
    capture = rules.capture
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
            if not _could_hold(state, seat, other, places):
                continue
            try:
                listed = capture.moves(state.table, other, seat)
            except Exception as exc:  # any error is the failure reported
                raise _fail(
                    "needs",
                    f"moves with the hand {_names(other)} raised {type(exc).__name__}: {exc}",
                ) from exc
            for move in dict.fromkeys([*listed, *(m for m in legal if m.card in other)]):
                if move not in needs:
                    needs[move] = _needs_of(rules, state, move, seat)
                if needs[move].holds(other) != (move in listed):
                    if move in listed:
                        says = f"forbids it ({_unmet(needs[move], other)})"
                    else:
                        says = "allows it"
                    raise _fail(
                        "needs",
                        f"moves {'lists' if move in listed else 'does not list'} {move} for the "
                        f"hand {_names(other)}, but needs {says}",
                        move,
                    )


# --------------------------------------------------------------------------
# Records (xeri.records)


def _record(rules: RuleSet, dealer: int, moves: list[Move]) -> GameRecord:
    return GameRecord(rules=rules, dealer=dealer, moves=tuple(moves))


# --------------------------------------------------------------------------
# The harness


@attrs.define
class _Game:
    """One match being checked: where it stands and its counters."""

    rules: RuleSet
    rng: random.Random
    needs_rng: random.Random
    dealer: int
    state: GameState
    totals: list[int]
    moves: list[Move] = attrs.Factory(list)
    move: Move | None = None
    rounds: int = 0
    plays_this_round: int = 0
    reshuffles: int = 0


def _check_state(state: GameState, rng: random.Random) -> tuple[PlayerMove, ...]:
    """The checks of one state on its own; returns its legal moves."""
    _check_conservation(state)
    moves = _check_legal_moves(state)
    _check_observations(state, rng)
    return moves


def _play_one(game: _Game) -> None:
    """Play and check one match to its end."""
    rng = game.rng
    state = game.state
    _check_json(game.rules, "the rule set")
    legal = _check_state(state, rng)
    while not state.is_over:
        restored = _check_json(state, "the state")
        snapshot = copy.deepcopy(state)
        _check_illegal(state, legal, snapshot, rng)
        move: Move = (
            chance_move(state, rng) if state.is_chance else legal[rng.randrange(len(legal))]
        )
        game.move = move
        _check_json(move, "the move")
        try:
            new = apply(state, move)
        except Exception as exc:  # any error is the failure reported
            raise _fail("apply", f"the move raised {type(exc).__name__}: {exc}") from exc
        if state != snapshot:
            raise _fail("purity", "apply changed the state it was given")
        if apply(restored, move) != new:  # type: ignore[arg-type]  # a state read back from JSON
            raise _fail("purity", "the same move applied to an equal state gave another state")
        game.moves.append(move)
        game.state = new
        _check_step(state, new, move, game)
        state = new
        legal = _check_state(state, rng)
        if legal and game.needs_rng.randrange(_NEEDS_ONE_IN) == 0:
            _check_needs(state, legal, game.needs_rng)
    _check_illegal(state, legal, copy.deepcopy(state), rng)


def check_rules(
    rules: RuleSet,
    *,
    games: int = 3,
    rng: random.Random | None = None,
) -> CheckReport:
    """Play `games` random matches of `rules` and check every move; raise on the first failure.

    Every move is drawn at random from [`legal_moves`][xeri.legal_moves] or,
    where chance acts, from [`chance_move`][xeri.chance_move] with `rng`.
    Before and after every move the harness checks:

    * **apply**: the move drawn (a legal move, or chance's) is accepted; the
      rule set never changes; a play extends the round's history by itself;
    * **conservation**: hands, table, stock and captures hold the 52 cards,
      each once; hands are sorted;
    * **legal moves**: sorted, without duplicates, every one playing a card
      of the mover's hand, and non-empty exactly when a seat is to move;
    * **illegal move**: a card not held, a move out of turn and a chance move
      at a player's turn (or the reverse) raise
      [`IllegalMoveError`][xeri.IllegalMoveError] and leave the state equal
      to a copy taken before;
    * **purity**: `apply` leaves its input equal to a copy, and gives an
      equal result for an equal input;
    * **termination**: a round is exactly 52 minus `table_size` plays, at
      most [`MAX_RESHUFFLES`][xeri.testing.MAX_RESHUFFLES] redeals, and a
      match at most the rounds of [`round_bound`][xeri.testing.round_bound];
    * **xeri**: captures are recorded for the mover and turn, end with the
      card played, and no xeri is made where the rule set forbids it (first
      or last card, the leftover collection); read from the capture rule's
      capability [`pile`][xeri.CaptureRule.pile], whatever its class: with
      one pile a xeri takes a lone card of the same rank, and it is a jack
      xeri exactly when both are of the rule's `sweeper` rank (a rule
      without a `sweeper` makes none); on an open table a xeri clears the
      table ([G7][rules-g7], [D6][rules-d6]);
    * **round score**: with the [`StandardScorer`][xeri.StandardScorer] the
      round result equals a recount from the captures and the rule set's data
      (points table, majority and its tie rule, xeri bonuses, leftover). A
      scorer of your own must agree with the recount on cards, xeris and
      leftover, make its total the sum of its parts, and be deterministic;
    * **match score**: match scores are the sum of the round totals, earlier
      rounds' results never change, and the match ends exactly when its
      format says so;
    * **json round trip**: the rule set, every state and every move come back
      equal from [`to_json`][xeri.to_json] and [`from_json`][xeri.from_json];
    * **non-interference**: shuffling the cards hidden from a seat (other
      hands, the stock, face-down cards under a pile or taken by another
      seat) among the places hidden from it leaves
      [`observe`][xeri.observe] for that seat unchanged ([X2][rules-x2],
      [P3][rules-p3]), and the seat to move has the same legal moves from its
      observation as from the state; every observation shows the end of the
      table and of each capture and counts the cards in front of it;
    * **needs**: at about one decision point in four, the capture rule's
      [`needs`][xeri.CaptureRule.needs] is exact for every legal move: it
      holds for the mover's hand, and for random hands of the same size
      holding the move's card (drawn from the mover's hand and the cards
      hidden from it, and kept when the round's plays so far are legal with
      them) it holds exactly when `moves` lists the move for that hand.
      These draws use a generator of their own, seeded from `rng`, so the
      games played are the same with or without them.

    Args:
        rules: the rule set to check. [`register`][xeri.register] a rule set
            with components of your own first: JSON reads back only the
            library's component classes and those of registered rule sets.
        games: how many matches to play.
        rng: the generator for every random choice; a seeded `random.Random`
            repeats a run. Defaults to a fresh, randomly seeded one.

    Returns:
        A [`CheckReport`][xeri.testing.CheckReport] counting what was played.

    Raises:
        ConformanceError: a check failed; it names the check and the move and
            carries a record that replays the game up to the failure.
        TypeError: `rules` is not a RuleSet or `games` is not a positive int.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet, not {type(rules).__name__}")
    if type(games) is not int or games < 1:
        raise TypeError(f"games must be a positive int, not {games!r}")
    if rng is None:
        rng = random.Random()
    rounds = moves = 0
    for _ in range(games):
        seed = rng.getrandbits(64)
        game_rng = random.Random(seed)
        dealer = game_rng.randrange(rules.seats)
        game = _Game(
            rules=rules,
            rng=game_rng,
            # Its own generator, so that the games played do not depend on it.
            needs_rng=random.Random(f"needs {seed}"),
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
        rounds += game.rounds
        moves += len(game.moves)
    return CheckReport(games=games, rounds=rounds, moves=moves)

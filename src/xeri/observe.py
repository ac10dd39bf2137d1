"""What one seat may see (RULES.md X2, P3), and full states sampled from it.

[`observe`][xeri.observe] turns a [`GameState`][xeri.GameState] into the
[`Observation`][xeri.Observation] of one seat: its own hand and everything
public, with every other hand and the stock reduced to a number of cards.
Bots and clients should be given observations, never states.
[`legal_moves`][xeri.legal_moves] accepts an observation of the seat to
move. [`determinize`][xeri.determinize] goes the other way: it draws a full
state, uniformly among the reachable states that this seat would see the
same way, for search bots that sample the cards they cannot see.

Face-down cards (`RuleSet.face_down`, P3) are the first cards of the
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

import secrets
from collections.abc import Callable

import attrs

from xeri._validate import FACE_DOWN, Verdict, check_state
from xeri.cards import DECK, Card
from xeri.engine import RandomSource
from xeri.errors import IllegalMoveError, InvalidStateError
from xeri.moves import Capture, Combine, PlayerMove, Trail
from xeri.rules import RuleSet
from xeri.scoring import RoundResult, Take, XeriKind
from xeri.state import GameState, MatchFacts, Phase
from xeri.table import Build, TableItem, item_cards

__all__ = ["Observation", "ObservedTake", "determinize", "observe"]

# The names below are used in the annotations of the classes, which cattrs
# resolves at run time (see xeri.serialize).
_ANNOTATION_NAMES = (Build, Capture, Combine, Trail)

_SYSTEM_RANDOM = secrets.SystemRandom()
_TRIES = 10_000
"""How many samples `determinize` draws before it gives up."""
_RESTART = 50
"""How many steps the walk of `sample_state(uniform=False)` takes before starting afresh."""
_PROBES = 40
"""How many swaps the walk tries for one that makes a refused play legal."""
_MIX = 300
"""How many swaps `determinize` tries when it falls back to a Markov chain."""


@attrs.frozen(kw_only=True)
class ObservedTake:
    """One capture of the current round, as one seat saw it.

    Every card of a capture lay face up, except face-down cards (P3): those
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
class Observation(MatchFacts):
    """Everything one seat may know about a match (RULES.md X2), and nothing else.

    Made by [`observe`][xeri.observe]. Another seat's hand and the stock are
    only counted; face-down table cards (P3) are counted until they are
    captured. Everything else of the state is public and copied as it is.
    """

    rules: RuleSet
    """The rule set of the match."""
    seat: int
    """The seat whose view this is."""
    phase: Phase
    """What happens next."""
    dealer: int
    """The seat that dealt the current round."""
    to_move: int | None
    """The seat to play, or None while chance acts or after the match."""
    hand: tuple[Card, ...]
    """This seat's own hand, sorted in deck order."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds, this seat included."""
    face_down: int
    """How many face-down cards lie first on the table (under the pile), unseen (P3)."""
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
    """The bottom card shown after the cut under V1, public all round; None otherwise."""

    @property
    def plays(self) -> tuple[tuple[int, PlayerMove], ...]:
        """The round's plays as `(seat, move)` pairs: the seat after the dealer leads each deal."""
        n = self.rules.seats
        first = self.dealer + 1
        return tuple(((first + i) % n, move) for i, move in enumerate(self.history))

    @property
    def captured_counts(self) -> tuple[int, ...]:
        """How many cards each side has captured in the current round."""
        sides = self.rules.sides
        counts = [0] * self.rules.num_sides
        for take in self.takes:
            counts[sides[take.seat]] += take.count
        return tuple(counts)


def observe(state: GameState, seat: int) -> Observation:
    """What `seat` may see of `state` (RULES.md X2).

    Args:
        state: the state.
        seat: the seat whose view is wanted.

    Returns:
        The observation; equal for any two states that differ only in the
        cards hidden from `seat` (other hands, stock order, face-down cards).

    Raises:
        IllegalMoveError: `seat` is not a seat of the rule set.
    """
    rules = state.rules
    if type(seat) is not int or not 0 <= seat < rules.seats:
        raise IllegalMoveError(f"seat must be an int from 0 to {rules.seats - 1}, not {seat!r}")
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
        hand=state.hands[seat],
        hand_sizes=tuple(map(len, state.hands)),
        face_down=down,
        table=table,
        stock_size=len(state.stock),
        history=state.history,
        takes=seen,
        round_results=state.round_results,
        bottom_card=state.bottom_card,
    )


def observed_moves(observation: Observation) -> tuple[PlayerMove, ...]:
    """The legal moves of the observing seat if it is to move, else none (for `legal_moves`).

    Face-down cards are left out of the table the capture rule sees; in a
    pile game the moves do not depend on them.
    """
    seat = observation.seat
    if observation.to_move != seat:
        return ()
    return observation.rules.capture.moves(observation.table, observation.hand, seat)


def determinize(observation: Observation, rng: RandomSource | None = None) -> GameState:
    """A full state drawn uniformly among those that `observation`'s seat would see as it.

    The cards the seat cannot see are dealt at random into the places it
    cannot see (other hands, the stock, face-down cards), and the deal is
    drawn again until the state is one the game could have reached (every
    past play legal with the hand it was made from, no initial table that
    had to be redealt), so every consistent state is equally likely.
    `observe(result, observation.seat) == observation`.

    Past plays can leave very few possible hands (forced capture with big
    hands, say). If 10,000 draws find no consistent state, a consistent
    state is searched for and then mixed by random swaps of unseen cards
    that keep it consistent: a Markov chain whose draws are close to
    uniform, not exactly so.

    Args:
        observation: what a seat sees.
        rng: the generator; defaults to `secrets.SystemRandom()`. Pass a
            seeded `random.Random` for repeatable samples.

    Returns:
        A reachable state consistent with the observation.

    Raises:
        InvalidStateError: no state is consistent with the observation (it was
            not made by [`observe`][xeri.observe], or was changed since).
    """
    rng = _SYSTEM_RANDOM if rng is None else rng
    sampler = _Sampler(observation)
    found = sampler.draw(rng, _TRIES)
    if isinstance(found, GameState):
        return found
    if found.blame is not None:
        start = sampler.walk(rng, _TRIES)
        if not isinstance(start, Verdict):
            return sampler.mix(start, rng, _MIX)
    raise sampler.error(found)


def sample_state(observation: Observation, rng: RandomSource, tries: int) -> GameState:
    """Some state consistent with `observation`, searched for in at most `tries` steps.

    For loading, which must only know that one exists: see `_Sampler.walk`.

    Raises:
        InvalidStateError: none was found.
    """
    sampler = _Sampler(observation)
    found = sampler.walk(rng, tries)
    if isinstance(found, Verdict):
        raise sampler.error(found)
    return sampler.build(found)


class _Sampler:
    """Deals the cards one seat cannot see into the places it cannot see."""

    def __init__(self, observation: Observation) -> None:
        self.observation = observation
        self.pool, self.places, self.build = _plan(observation)

    def check(self, cards: list[Card]) -> Verdict | GameState:
        """The state `cards` deals if it is consistent with the observation, else the verdict."""
        state = self.build(cards)
        seat = self.observation.seat
        verdict = check_state(state, seat)
        if verdict.problems:
            return verdict
        if observe(state, seat) != self.observation:
            return Verdict(["observe() of a state that fits it gives another observation"])
        return state

    def error(self, verdict: Verdict) -> InvalidStateError:
        """The error saying that no state fits, and why the last one tried did not."""
        return InvalidStateError(
            [f"no game state is consistent with this observation: {p}" for p in verdict.problems]
        )

    def draw(self, rng: RandomSource, tries: int) -> GameState | Verdict:
        """Rejection sampling: uniform over the consistent states; the last verdict if none."""
        cards = list(self.pool)
        verdict = Verdict([])
        for _ in range(tries if len(cards) > 1 else 1):
            rng.shuffle(cards)
            found = self.check(cards)
            if isinstance(found, GameState):
                return found
            verdict = found
            if verdict.blame is None or not self.places.get(verdict.blame):
                break  # no other deal of the unseen cards can help
        return verdict

    def walk(self, rng: RandomSource, tries: int) -> list[Card] | Verdict:
        """A consistent deal of the unseen cards, searched for by a focused random walk.

        As WalkSAT does: when a deal fails because of one seat's unseen hand (a
        past play it could not have made with it) or of the face-down cards,
        one of those cards is swapped with another unseen card, preferring
        swaps that make the refused play legal; now and then the walk starts
        afresh. Far faster than `draw` when past plays leave few possible
        hands; not uniform.
        """
        cards = list(self.pool)
        rng.shuffle(cards)
        verdict = Verdict([])
        for step in range(1, (tries if len(cards) > 1 else 1) + 1):
            found = self.check(cards)
            if isinstance(found, GameState):
                return cards
            verdict = found
            if verdict.blame is None or not self.places.get(verdict.blame):
                break
            if step % _RESTART == 0:
                rng.shuffle(cards)
            else:
                i, j = _swap(verdict, self.places, cards, self.observation.history, rng)
                cards[i], cards[j] = cards[j], cards[i]
        return verdict

    def mix(self, cards: list[Card], rng: RandomSource, steps: int) -> GameState:
        """A state after `steps` random swaps of unseen cards from a consistent deal.

        Each swap is kept if the deal stays consistent: a Markov chain whose
        stationary law is uniform over the consistent deals.
        """
        state = self.check(cards)
        if not isinstance(state, GameState):  # the walk found it consistent
            raise self.error(state)
        for _ in range(steps):
            i, j = rng.randrange(len(cards)), rng.randrange(len(cards))
            cards[i], cards[j] = cards[j], cards[i]
            found = self.check(cards)
            if isinstance(found, GameState):
                state = found
            else:
                cards[i], cards[j] = cards[j], cards[i]
        return state


def _swap(
    verdict: Verdict,
    places: dict[int, range],
    cards: list[Card],
    history: tuple[PlayerMove, ...],
    rng: RandomSource,
) -> tuple[int, int]:
    """Two positions of the unseen cards to swap: one in the place blamed, one anywhere else.

    When a seat's play was refused, swaps that make that play legal are
    looked for first (the capture rule's moves in the state it was refused in).
    """
    size = len(cards)
    at_fault = places.get(verdict.blame) if verdict.blame is not None else None
    if not at_fault or size < 2:
        return (0, 0)
    if len(at_fault) == size:  # every unseen card is at fault: their order is
        return (at_fault[rng.randrange(size)], rng.randrange(size))

    def draw() -> tuple[int, int]:
        i = at_fault[rng.randrange(len(at_fault))]
        return (i, _nth_outside(rng.randrange(size - len(at_fault)), at_fault))

    before = verdict.before
    if before is None or verdict.blame is None or verdict.blame < 0:
        return draw()
    seat = verdict.blame
    move = history[verdict.play]
    hand = before.hands[seat]
    capture = before.rules.capture
    for _ in range(_PROBES):
        i, j = draw()
        if cards[i] not in hand:
            continue
        new = tuple(sorted(cards[j] if c is cards[i] else c for c in hand))
        if move in capture.moves(before.table, new, seat):
            return (i, j)
    return draw()


def _nth_outside(n: int, inside: range) -> int:
    """The `n`-th index (from 0) that is not in the range `inside`."""
    return n if n < inside.start else n + len(inside)


def _count_problems(obs: Observation) -> list[str]:
    """What is wrong with an observation's seats and counts, whatever the cards."""
    n = obs.rules.seats
    p: list[str] = []
    if not 0 <= obs.seat < n:
        p.append(f"seat {obs.seat} is not a seat (0 to {n - 1})")
    if not 0 <= obs.dealer < n:
        p.append(f"dealer {obs.dealer} is not a seat (0 to {n - 1})")
    if len(obs.hand_sizes) != n or min(obs.hand_sizes, default=0) < 0:
        p.append(f"hand_sizes must give a count >= 0 for each of the {n} seats")
    elif 0 <= obs.seat < n and obs.hand_sizes[obs.seat] != len(obs.hand):
        p.append("the seat's own hand size must be the length of its hand")
    if obs.stock_size < 0:
        p.append("stock_size cannot be negative")
    if not 0 <= obs.face_down <= obs.rules.face_down:
        p.append(f"face_down must be from 0 to the rule set's {obs.rules.face_down}")
    for i, take in enumerate(obs.takes):
        if not 0 <= take.seat < n or take.hidden < 0 or take.hidden > obs.rules.face_down:
            p.append(f"capture {i}: bad seat or number of hidden cards")
    return p


def _plan(
    observation: Observation,
) -> tuple[list[Card], dict[int, range], Callable[[list[Card]], GameState]]:
    """The unseen cards, where things lie in a list of them, and a function dealing one.

    The function deals a list of the unseen cards, in any order, into the
    unseen places; the ranges say where in that list each other seat's unseen
    hand, and the face-down cards (`FACE_DOWN`), are taken from.

    Raises:
        InvalidStateError: the observation's counts cannot describe a state.
    """
    obs = observation
    rules = obs.rules
    n = rules.seats
    p = _count_problems(obs)
    seen: list[Card] = list(obs.hand)
    for item in obs.table:
        seen.extend(item_cards(item))
    for take in obs.takes:
        seen.extend(take.cards)
    seen_set = frozenset(seen)
    if len(seen_set) != len(seen):
        p.append("a card is seen in two places")
    if p:
        raise InvalidStateError(p)
    bottom = obs.bottom_card
    bottom_in = _bottom_place(obs, seen_set)
    fixed = (bottom,) if bottom is not None and bottom_in is not None else ()
    others = [s for s in range(n) if s != obs.seat]
    places = (
        sum(obs.hand_sizes[s] for s in others)
        + obs.stock_size
        + obs.face_down
        + sum(t.hidden for t in obs.takes)
        - (bottom_in is not None)
    )
    if obs.phase is Phase.DEAL:
        pool: list[Card] = []
        if seen or places:
            raise InvalidStateError("before the first deal nobody holds a card")
    else:
        pool = [c for c in DECK if c not in seen_set and c is not bottom]
        if len(pool) != places:
            raise InvalidStateError(
                f"the observation does not account for the 52 cards: {len(pool)} unseen cards"
                f" for {places} unseen places"
            )

    def build(cards: list[Card]) -> GameState:
        at = 0

        def take(k: int) -> tuple[Card, ...]:
            nonlocal at
            at += k
            return tuple(cards[at - k : at])

        hands: list[tuple[Card, ...]] = []
        for s in range(n):
            if s == obs.seat:
                hands.append(obs.hand)
            elif bottom_in == "dealer" and s == obs.dealer:
                hands.append(tuple(sorted(take(obs.hand_sizes[s] - 1) + fixed)))
            else:
                hands.append(tuple(sorted(take(obs.hand_sizes[s]))))
        table = take(obs.face_down) + obs.table
        takes = tuple(
            Take(seat=t.seat, cards=take(t.hidden) + t.cards, xeri=t.xeri, turn=t.turn)
            for t in obs.takes
        )
        stock = take(obs.stock_size - 1) + fixed if bottom_in == "stock" else take(obs.stock_size)
        return GameState(
            rules=rules,
            phase=obs.phase,
            dealer=obs.dealer,
            to_move=obs.to_move,
            hands=tuple(hands),
            table=table,
            stock=stock,
            history=obs.history,
            takes=takes,
            round_results=obs.round_results,
            bottom_card=bottom,
        )

    return pool, _places(obs, others, bottom_in), build


def _bottom_place(obs: Observation, seen: frozenset[Card]) -> str | None:
    """Where the V1 bottom card must lie when it is not seen: "stock" or "dealer"."""
    if obs.bottom_card is None or obs.bottom_card in seen:
        return None
    if obs.stock_size:
        return "stock"
    if obs.dealer != obs.seat and obs.hand_sizes[obs.dealer]:
        return "dealer"
    raise InvalidStateError("the bottom card (V1) is not where it must be")


def _places(obs: Observation, others: list[int], bottom_in: str | None) -> dict[int, range]:
    """Where each other seat's unseen cards, and the face-down ones, lie in a list dealt."""
    where: dict[int, range] = {}
    at = 0
    for s in others:
        size = obs.hand_sizes[s] - (bottom_in == "dealer" and s == obs.dealer)
        where[s] = range(at, at + size)
        at += size
    where[FACE_DOWN] = range(at, at + obs.face_down + sum(t.hidden for t in obs.takes))
    return where

"""Full states drawn from one seat's observation: [`determinize`][xeri.determinize].

A search bot sees an [`Observation`][xeri.Observation] and needs whole
states to search. The cards it cannot see lie in places it cannot see:
the other hands, the stock, face-down table cards ([P3][rules-p3]) and the
face-down cards another seat captured. Not every deal of them into those
places is possible: what the seat remembers rules some out
([X2][rules-x2]):

* a card shown on an initial table that was redealt ([G4][rules-g4],
  [F4][rules-f4]) went back into the stock, so it is in no hand dealt
  before the redeal;
* every play of the current deal was legal with the hand it was made
  from, which is the mover's hand now plus the cards it played since.
  The capture rule says exactly what a play needs of that hand
  ([`CaptureRule.needs`][xeri.CaptureRule.needs]): cards it cannot have held
  (with a compulsory capture, every card that could have captured) and
  cards it must have held (one of the value of a build it made).

The sampler turns these into counting: the unseen cards fall into a few
classes (cards that the same needs speak of), and the number of ways to
fill every other hand is a sum over how many cards of each class each hand
gets, a product of binomial coefficients. Drawing the class counts with
those weights and then the cards within each class uniformly gives every
consistent state exactly the same chance, with no rejection and no search.
The stock order and the face-down cards are unconstrained: they are
shuffled.

Uniform is exactly the chance of each state after a fair shuffle, with
one small exception: under [V1][rules-v1], when the bottom card after the
cut was a Jack, the first card above it that is not a Jack was moved to the
bottom, which makes decks with Jacks lying just above the shown bottom card
a little more likely than others. The sampler does not weigh that.

The same counting decides whether an observation is possible at all
([`check_observation`][xeri.check_observation]), which loading uses.
"""

from __future__ import annotations

import random
import secrets
from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from math import comb

from xeri._agents.observation import Observation, observe
from xeri._cards import Card
from xeri._core.engine import RandomSource, _shuffle
from xeri._core.round import deal_seats, deal_start
from xeri._core.state import GameState, Phase, Take
from xeri._core.validate import check_state
from xeri._errors import ArgumentError, InvalidStateError, XeriError
from xeri._families.protocol import CaptureRule, HandNeeds
from xeri._moves import PlayerMove
from xeri._table import TableItem, item_cards

__all__ = ["check_observation", "consistent_states", "determinize"]

_SYSTEM_RANDOM = secrets.SystemRandom()


def determinize(observation: Observation, rng: RandomSource | None = None) -> GameState:
    """A full state drawn uniformly among those that `observation`'s seat would see as it.

    Every state the game could be in, given all the seat has seen this round
    (hands, plays, redealt tables, the shown bottom card), is equally likely;
    `observe(result, observation.seat) == observation`. See the module
    docstring for how. A deal pending card by card ([`DealCard`][xeri.DealCard])
    is hidden from the observation, so the state drawn has none: it is the
    state before the deal's first card.

    Args:
        observation: what a seat sees.
        rng: the generator; defaults to `secrets.SystemRandom()`. Pass a
            seeded `random.Random` for repeatable samples.

    Returns:
        A state consistent with the observation.

    Raises:
        InvalidStateError: no state is consistent with the observation (it was
            not made by [`observe`][xeri.observe], or was changed since).
        ArgumentError: `observation` is not an `Observation`.
    """
    rng = _SYSTEM_RANDOM if rng is None else rng
    plan = _Plan(observation)
    if not plan.total:
        raise InvalidStateError(plan.why_none())
    state = plan.draw(rng)
    problems = _public_problems(state, observation)
    if problems:
        raise InvalidStateError(problems)
    return state


def consistent_states(observation: Observation) -> int:
    """How many full states are consistent with an observation.

    Two states count as different when any hidden card lies elsewhere,
    stock order included.

    Args:
        observation: what a seat sees.

    Returns:
        The number of states [`determinize`][xeri.determinize] draws from
        (0 when the observation is impossible).

    Raises:
        InvalidStateError: the observation's counts cannot describe a state.
        ArgumentError: `observation` is not an `Observation`.
    """
    plan = _Plan(observation)
    return plan.total * plan.rest_orders


def check_observation(observation: Observation) -> list[str]:
    """Every reason why no game state gives `observation`; empty when one does.

    Deterministic: the counting described under
    [sampling the hidden cards][sampling-hidden-cards] says whether the
    hidden cards can be placed at all; if they can, one placement is built
    and checked like a loaded state (its round replayed from the start).
    Since a capture rule's needs are exact, that one placement stands for
    all of them: whether it fits depends only on what the seat sees.

    Args:
        observation: an observation whose fields have the right types.

    Returns:
        The problems found, one sentence each.
    """
    try:
        plan = _Plan(observation)
    except InvalidStateError as exc:
        return list(exc.problems)
    except ArgumentError as exc:
        return [str(exc)]
    if not plan.total:
        return [plan.why_none()]
    return _public_problems(plan.draw(random.Random(0)), observation)


def _public_problems(state: GameState, observation: Observation) -> list[str]:
    """The problems of a state drawn for `observation`: with exact needs, of every such state."""
    problems = check_state(state).problems
    if not problems and observe(state, observation.seat) != observation:
        problems = ["the observation is not what its seat would see of any state"]
    return [f"no game state is consistent with this observation: {p}" for p in problems]


# --------------------------------------------------------------------------
# The plan: unseen cards, their places, and what each hidden hand must meet


class _Hand:
    """What one other seat's hidden hand must meet: size, forbidden cards, lower bounds."""

    __slots__ = ("fixed", "forbidden", "needs", "seat", "size")

    def __init__(self, seat: int, size: int, fixed: tuple[Card, ...]) -> None:
        self.seat = seat
        self.size = size  # hidden cards to draw, the fixed ones not counted
        self.fixed = fixed  # cards known to be in this hand though unseen (the V1 bottom card)
        self.forbidden: set[Card] = set()
        self.needs: list[tuple[frozenset[Card], int]] = []


class _Plan:
    """The unseen cards, the places they go, and the counting that draws them."""

    def __init__(self, observation: Observation) -> None:
        if type(observation) is not Observation:
            raise ArgumentError(
                f"an Observation is needed (see xeri.observe), not {type(observation).__name__}"
            )
        obs = observation
        self.obs = obs
        rules = obs.rules
        n = rules.seats
        problems = _count_problems(obs)
        seen: list[Card] = list(obs.hand)
        for item in obs.table:
            seen.extend(item_cards(item))
        for take in obs.takes:
            seen.extend(take.cards)
        seen_set = frozenset(seen)
        if len(seen_set) != len(seen):
            problems.append("a card is seen in two places")
        if problems:
            raise InvalidStateError(problems)
        self.pinned = _pinned_places(obs, seen_set)
        pinned = frozenset(card for card, _, _ in self.pinned)
        gone = pinned.union(obs.replaced)  # cards shown at the deal, seen or pinned
        if obs.bottom_card is not None:
            gone |= {obs.bottom_card}
        others = [s for s in range(n) if s != obs.seat]
        hidden_taken = sum(t.hidden for t in obs.takes)
        places = (
            sum(obs.hand_sizes[s] for s in others)
            + obs.stock_size
            + obs.face_down
            + hidden_taken
            - len(self.pinned)
        )
        if obs.phase is Phase.DEAL:
            if seen or places:
                raise InvalidStateError("before the first deal nobody holds a card")
            pool: list[Card] = []
        else:
            deck = obs.rules.deck
            pool = [c for c in deck if c not in seen_set and c not in gone]
            if len(pool) != places:
                raise InvalidStateError(
                    f"the observation does not account for the {len(deck)} cards of the deck:"
                    f" {len(pool)} unseen"
                    f" cards for {places} unseen places"
                )
        self.pool = pool
        self.hands: list[_Hand] = []
        for s in others:
            fixed = tuple(card for card, place, _ in self.pinned if place == s)
            self.hands.append(_Hand(s, obs.hand_sizes[s] - len(fixed), fixed))
        self.impossible: list[str] = []
        self._add_redeal_needs()
        self._add_play_needs()
        self._counted()

    def _counted(self) -> None:
        """Group the unseen cards by the hands' needs and count the states (the last step)."""
        self._classify()
        self.rest = len(self.pool) - sum(h.size for h in self.hands)
        self.rest_orders = _factorial(self.rest)
        self.total = 0 if self.impossible else self._count(0, tuple(len(a) for a in self.atoms))

    def avoiding(self, avoid: Mapping[int, frozenset[Card]]) -> _Plan:
        """This plan with, per other seat, cards its hand is taken not to hold (see `_Belief`).

        The cards are forbidden to that hand like the cards a play rules out,
        beyond what the rules require: a belief, not a fact. What the
        observation gave is read once, by this plan; the new one only counts
        again.
        """
        plan = _Plan.__new__(_Plan)
        plan.obs, plan.pinned, plan.pool = self.obs, self.pinned, self.pool
        plan.impossible = list(self.impossible)
        pool = frozenset(self.pool)
        plan.hands = []
        for hand in self.hands:
            copy = _Hand(hand.seat, hand.size, hand.fixed)
            copy.forbidden = hand.forbidden | (avoid.get(hand.seat, frozenset()) & pool)
            copy.needs = list(hand.needs)
            plan.hands.append(copy)
        plan._counted()
        return plan

    # -- what the seat remembers -------------------------------------------

    def _current_deal_start(self) -> int | None:
        """The index in the history where the current deal's plays begin, or None."""
        obs = self.obs
        if obs.phase is Phase.REDEAL:
            return 0
        if obs.phase is not Phase.PLAY:
            return None
        return deal_start(obs.rules, len(obs.history))

    def _add_redeal_needs(self) -> None:
        """Cards of redealt tables are in no hand dealt before the redeal ([X2][rules-x2])."""
        start = self._current_deal_start()
        if start != 0 or not self.obs.redealt:
            return
        shown = {c for table in self.obs.redealt for c in table}
        for hand in self.hands:
            hand.forbidden |= shown
            if shown.intersection(hand.fixed):
                self.impossible.append("a card of a redealt table is in a hand dealt before it")

    def _add_play_needs(self) -> None:
        """Each play of the current deal by another seat was legal with its hand then."""
        start = self._current_deal_start()
        obs = self.obs
        if start is None or start >= len(obs.history):
            return
        by_seat = {hand.seat: hand for hand in self.hands}
        pool = frozenset(self.pool)
        for i, (seat, move, table) in enumerate(self._tables()):
            if i < start or seat not in by_seat:
                continue
            needs = _needs(obs.rules.capture, table, move, seat, i)
            if not needs.none_of and not needs.at_least:
                continue
            hand = by_seat[seat]
            later = {m.card for s, m in obs.plays[i:] if s == seat}
            known = later.union(hand.fixed)
            if not needs.none_of.isdisjoint(known):
                self.impossible.append(f"play {i} of the round ({move}) was not legal (X5)")
                continue
            hand.forbidden |= needs.none_of & pool
            for group, count in needs.at_least:
                missing = count - len(group & known)
                if missing > 0:
                    hand.needs.append((group & pool, missing))

    def declined(self, sweep_pile: int) -> dict[int, frozenset[Card]]:
        """The unseen cards each other seat declined to capture with in the current deal.

        A pile game only ([G6][rules-g6]): when a seat laid a card that took
        nothing on a pile whose top card was of rank r, it held no card of
        rank r then, if it takes whenever it can; it has been dealt nothing
        since (the deal is the current one), so it holds none now. Likewise
        it held no sweeper when it laid on a pile of `sweep_pile` or more
        visible cards. A rank the seat has since played, or is known to
        hold, shows that it does decline: that rank is left out. Public
        information only: the plays of the current deal and the table.

        Returns:
            For each other seat with any, the unseen cards it is taken not to hold.
        """
        start = self._current_deal_start()
        obs = self.obs
        capture = obs.rules.capture
        if start is None or start >= len(obs.history) or not capture.pile:
            return {}
        sweeper = getattr(capture, "sweeper", None)
        ranks: dict[int, set[object]] = {hand.seat: set() for hand in self.hands}
        fixed = {hand.seat: hand.fixed for hand in self.hands}
        plays = obs.plays
        for i, (seat, move, table) in enumerate(self._tables()):
            if i < start or seat not in ranks or not table:
                continue
            top = getattr(table[-1], "rank", None)
            card = move.card
            if top is None or card.rank is top or card.rank is sweeper:
                continue  # a capture (or a rule this reading does not know)
            shown = {m.card.rank for s, m in plays[i:] if s == seat}
            shown.update(c.rank for c in fixed[seat])
            out = {top}
            if sweeper is not None and len(table) >= sweep_pile:
                out.add(sweeper)
            ranks[seat] |= out - shown
        pool = self.pool
        return {
            seat: frozenset(c for c in pool if c.rank in out) for seat, out in ranks.items() if out
        }

    def _tables(self) -> Iterator[tuple[int, PlayerMove, tuple[TableItem, ...]]]:
        """Each play of the round with its seat and the table it was played on.

        The table is rebuilt from the public plays: each is replayed with a
        witness hand, the card played plus cards meeting the play's needs,
        which the rule must accept when its needs are exact. Face-down cards
        are left out: they lie only under a pile, where they change nothing.
        """
        obs = self.obs
        capture = obs.rules.capture
        table = _initial_table(obs)
        for i, (seat, move) in enumerate(obs.plays):
            yield seat, move, table
            witness = _witness(move.card, _needs(capture, table, move, seat, i))
            try:
                table = tuple(capture.play(table, witness, seat, move)[1])
            except XeriError as exc:
                raise InvalidStateError(
                    f"play {i} of the round ({move}) is not legal on the table it was played on:"
                    f" {exc}"
                ) from None
            except Exception as exc:  # data from outside may break a rule's code
                raise _unreadable(i, move, exc) from None

    # -- counting ------------------------------------------------------------

    def _classify(self) -> None:
        """Group the unseen cards by what the hands' needs say of them."""
        signatures: dict[tuple[object, ...], list[Card]] = {}
        for card in self.pool:
            key: list[object] = []
            for hand in self.hands:
                key.append(card in hand.forbidden)
                key.extend(card in group for group, _ in hand.needs)
            signatures.setdefault(tuple(key), []).append(card)
        self.atoms = [signatures[k] for k in sorted(signatures, key=lambda k: signatures[k][0])]
        # For each hand: which atoms it may draw from, and per need the atoms inside the group.
        self.allowed: list[list[int]] = []
        self.need_atoms: list[list[tuple[frozenset[int], int]]] = []
        for hand in self.hands:
            self.allowed.append(
                [a for a, cards in enumerate(self.atoms) if cards[0] not in hand.forbidden]
            )
            self.need_atoms.append(
                [
                    (frozenset(a for a, cards in enumerate(self.atoms) if cards[0] in group), m)
                    for group, m in hand.needs
                ]
            )
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        self._choices: dict[
            tuple[int, tuple[int, ...]],
            tuple[list[int], list[tuple[tuple[int, ...], tuple[int, ...]]]],
        ] = {}

    def _splits(self, j: int, avail: tuple[int, ...]) -> Iterator[tuple[tuple[int, ...], int]]:
        """Every way hand `j` can take cards from the atoms, with its number of card choices."""
        allowed = self.allowed[j]
        size = self.hands[j].size
        needs = self.need_atoms[j]
        counts = [0] * len(avail)

        def fill(k: int, left: int, ways: int) -> Iterator[tuple[tuple[int, ...], int]]:
            if k == len(allowed):
                if left == 0 and all(sum(counts[a] for a in g) >= m for g, m in needs):
                    yield tuple(counts), ways
                return
            a = allowed[k]
            top = min(left, avail[a])
            if k == len(allowed) - 1:
                if left > top:
                    return
                choices: Sequence[int] = (left,)
            else:
                choices = range(top + 1)
            for c in choices:
                counts[a] = c
                yield from fill(k + 1, left - c, ways * comb(avail[a], c))
            counts[a] = 0

        if not allowed:
            if size == 0 and not needs:
                yield tuple(counts), 1
            return
        yield from fill(0, size, 1)

    def _count(self, j: int, avail: tuple[int, ...]) -> int:
        """How many ways hands `j`, `j + 1`, … can be filled from `avail` cards per atom."""
        if j == len(self.hands):
            return 1
        key = (j, avail)
        known = self._memo.get(key)
        if known is None:
            known = 0
            for counts, ways in self._splits(j, avail):
                rest = tuple(x - c for x, c in zip(avail, counts, strict=True))
                known += ways * self._count(j + 1, rest)
            self._memo[key] = known
        return known

    def _split_choices(
        self, j: int, avail: tuple[int, ...]
    ) -> tuple[list[int], list[tuple[tuple[int, ...], tuple[int, ...]]]]:
        """Hand `j`'s splits of `avail` with what each leaves, and their weights' running sums.

        A draw picks a number below `_count(j, avail)` and takes the first split
        whose running sum exceeds it: every state equally likely. Worked out once
        per `(j, avail)`, as the counts are: the draws of one plan meet the same
        ones again and again.
        """
        key = (j, avail)
        known = self._choices.get(key)
        if known is None:
            bounds: list[int] = []
            splits: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
            total = 0
            for counts, ways in self._splits(j, avail):
                rest = tuple(x - c for x, c in zip(avail, counts, strict=True))
                weight = ways * self._count(j + 1, rest)
                if weight:
                    total += weight
                    bounds.append(total)
                    splits.append((counts, rest))
            known = self._choices[key] = (bounds, splits)
        return known

    def why_none(self) -> str:
        """Why no state fits, in a sentence that names no hidden card."""
        if self.impossible:
            return f"no game state is consistent with this observation: {self.impossible[0]}"
        return (
            "no game state is consistent with this observation: the unseen cards cannot fill"
            " the other hands as the plays seen require"
        )

    # -- drawing -------------------------------------------------------------

    def draw(self, rng: RandomSource) -> GameState:
        """One consistent state, every one equally likely."""
        avail = tuple(len(a) for a in self.atoms)
        left = [list(cards) for cards in self.atoms]
        for cards in left:
            _shuffle(rng, cards)
        hands: dict[int, tuple[Card, ...]] = {}
        for j, hand in enumerate(self.hands):
            pick = rng.randrange(self._count(j, avail))
            bounds, splits = self._split_choices(j, avail)
            counts, rest = splits[bisect_right(bounds, pick)]
            chosen: list[Card] = list(hand.fixed)
            for a, c in enumerate(counts):
                if c:
                    chosen.extend(left[a][-c:])
                    del left[a][-c:]
            hands[hand.seat] = tuple(sorted(chosen))
            avail = rest
        rest_cards = [c for cards in left for c in cards]
        _shuffle(rng, rest_cards)
        return self._build(hands, rest_cards)

    def _build(self, hands: dict[int, tuple[Card, ...]], rest: list[Card]) -> GameState:
        obs = self.obs
        at = 0

        def take(k: int) -> tuple[Card, ...]:
            nonlocal at
            at += k
            return tuple(rest[at - k : at])

        table = take(obs.face_down) + obs.table
        takes = tuple(
            Take(seat=t.seat, cards=take(t.hidden) + t.cards, xeri=t.xeri, turn=t.turn)
            for t in obs.takes
        )
        low = sorted((e, card) for card, place, e in self.pinned if place == "stock")
        stock = (*take(obs.stock_size - len(low)), *(card for _, card in reversed(low)))
        all_hands = tuple(obs.hand if s == obs.seat else hands[s] for s in range(obs.rules.seats))
        return GameState(
            rules=obs.rules,
            phase=obs.phase,
            dealer=obs.dealer,
            to_move=obs.to_move,
            hands=all_hands,
            table=table,
            stock=stock,
            history=obs.history,
            takes=takes,
            round_results=obs.round_results,
            bottom_card=obs.bottom_card,
            redealt=obs.redealt,
            replaced=obs.replaced,
        )


class _Belief:
    """A search bot's belief about the hidden cards: who declined what, held softly.

    The uniform draw of `_Plan` gives every consistent state the same chance.
    The belief also reads the declined captures of the current deal
    (`_Plan.declined`): a seat that laid a card on a pile whose top it could
    have taken most likely could not. States where every such reading holds
    are drawn uniformly, each `_SLIP[1]` times as likely as a state where
    one fails (the plain plan holds both kinds): a draw comes from the plain
    plan with probability n / (n + (`_SLIP[1]` - 1) k), n and k counting the
    plain and the kept states, and from the kept ones otherwise; from the
    plain plan alone when no state keeps the reading. `kept` is None when
    nothing was declined. `slipped` counts the plain draws, for tests.
    """

    __slots__ = ("kept", "plain", "slipped", "weights")

    def __init__(self, plan: _Plan, *, infer: bool, sweep_pile: int = 3) -> None:
        self.plain = plan
        self.kept: _Plan | None = None
        self.weights = (1, 0)
        self.slipped = 0
        if not infer:
            return
        avoid = plan.declined(sweep_pile)
        if not avoid:
            return
        kept = plan.avoiding(avoid)
        if not kept.total:
            return
        self.kept = kept
        self.weights = (plan.total, kept.total * (_SLIP[1] - _SLIP[0]) // _SLIP[0])

    def draw(self, rng: RandomSource) -> GameState:
        """One state drawn by the belief (see the class)."""
        kept = self.kept
        if kept is None:
            return self.plain.draw(rng)
        plain, weight = self.weights
        if rng.randrange(plain + weight) < plain:
            self.slipped += 1
            return self.plain.draw(rng)
        return kept.draw(rng)


_SLIP = (1, 20)
"""How much less likely a state is where a seat declined a capture it held:
1 in 20, against a state where it held nothing to take."""


# --------------------------------------------------------------------------
# Helpers


def _factorial(n: int) -> int:
    out = 1
    for k in range(2, n + 1):
        out *= k
    return out


def _needs(
    capture: CaptureRule, table: tuple[TableItem, ...], move: PlayerMove, seat: int, i: int
) -> HandNeeds:
    """The needs of play `i`; a table no rule could have made is refused, not raised through."""
    try:
        return capture.needs(table, move, seat)
    except Exception as exc:  # data from outside may break a rule's code
        raise _unreadable(i, move, exc) from None


def _unreadable(i: int, move: PlayerMove, exc: Exception) -> InvalidStateError:
    return InvalidStateError(
        f"play {i} of the round ({move}) cannot be checked on the table it was played on"
        f" ({type(exc).__name__})"
    )


def _witness(card: Card, needs: HandNeeds) -> tuple[Card, ...]:
    """A hand holding `card` that meets `needs`, for replaying a public play."""
    hand = {card}
    for group, count in needs.at_least:
        have = len(group & hand)
        for extra in sorted(group - hand - needs.none_of):
            if have >= count:
                break
            hand.add(extra)
            have += 1
    return tuple(sorted(hand))


def _initial_table(obs: Observation) -> tuple[TableItem, ...]:
    """The round's initial table as far as the seat saw it (face-down cards left out).

    The initial cards are those taken or still on the table that nobody
    played; captures and the table keep them in dealing order.
    """
    played = {move.card for move in obs.history}
    cards: list[Card] = []
    for take in obs.takes:
        if take.turn == -1:  # an initial table awarded at the deal (T3): off the table
            continue
        cards.extend(c for c in take.cards if c not in played)
    for item in obs.table:
        cards.extend(c for c in item_cards(item) if c not in played)
    return tuple(cards)


def _count_problems(obs: Observation) -> list[str]:
    """What is wrong with an observation's seats and counts, whatever the cards."""
    n = obs.rules.seats
    p: list[str] = []
    seat = obs.seat
    if seat is not None and not 0 <= seat < n:
        p.append(f"seat {seat} is not a seat (0 to {n - 1})")
    if not 0 <= obs.dealer < n:
        p.append(f"dealer {obs.dealer} is not a seat (0 to {n - 1})")
    if len(obs.hand_sizes) != n or min(obs.hand_sizes, default=0) < 0:
        p.append(f"hand_sizes must give a count >= 0 for each of the {n} seats")
    elif seat is None and obs.hand:
        p.append("a spectator's observation holds no hand")
    elif seat is not None and 0 <= seat < n and obs.hand_sizes[seat] != len(obs.hand):
        p.append("the seat's own hand size must be the length of its hand")
    elif max(obs.hand_sizes, default=0) > obs.rules.hand_size:
        p.append(f"no hand holds more than {obs.rules.hand_size} cards")
    if not 0 <= obs.stock_size <= len(obs.rules.deck):
        p.append(f"stock_size must be from 0 to {len(obs.rules.deck)}")
    if not 0 <= obs.face_down <= obs.rules.face_down:
        p.append(f"face_down must be from 0 to the rule set's {obs.rules.face_down}")
    for i, take in enumerate(obs.takes):
        if not 0 <= take.seat < n or take.hidden < 0 or take.hidden > obs.rules.face_down:
            p.append(f"capture {i}: bad seat or number of hidden cards")
    return p


def _pinned_places(obs: Observation, seen: frozenset[Card]) -> list[tuple[Card, object, int]]:
    """The unseen cards whose place is known, each with that place and its depth.

    These are the [V1][rules-v1] bottom card and the initial-table cards
    replaced at the deal ([T2][rules-t2]), which lie face up at the bottom
    of the stock, the last replaced lowest. A card `e` places above the
    bottom is still in the stock while the stock holds more than `e` cards;
    otherwise it was dealt in the current deal to a seat the deal order
    names ([X3][rules-x3]), which holds it until it plays it.

    Returns:
        `(card, place, e)` for each: the place is `"stock"` or a seat.
    """
    low = [*obs.replaced]
    if obs.bottom_card is not None:
        low.append(obs.bottom_card)
    rules = obs.rules
    per_deal = rules.seats * rules.hand_size
    out: list[tuple[Card, object, int]] = []
    for e, card in enumerate(reversed(low)):
        if card in seen:
            continue
        if obs.stock_size > e:
            out.append((card, "stock", e))
            continue
        j = obs.stock_size + per_deal - 1 - e  # its place among the current deal's cards
        if obs.phase is Phase.PLAY and j >= 0:
            holder = deal_seats(rules, obs.dealer)[j // rules.hand_size]
            if holder != obs.seat and obs.hand_sizes[holder]:
                out.append((card, holder, e))
                continue
        if card is obs.bottom_card:
            raise InvalidStateError("the bottom card (V1) is not where it must be")
        raise InvalidStateError("a replaced initial-table card (T2) is not where it must be")
    return out

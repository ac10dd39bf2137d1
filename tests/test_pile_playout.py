"""The search bots' counting pile playout policy makes exactly the choices of its first form.

The policy (`xeri.bots.search._FairPile`) was made cheaper: its chances
worked out once per rule set, its counts kept as it plays, its random start
drawn as `randrange` draws it. `ReferencePile` below is the policy as first
written, kept verbatim; every test here plays both on the same views and
rounds, from the same seeds, and asks for the same choice at every turn
(G6, G7, F1: the pile, the xeri, the partner).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import xeri
from xeri import GREEK, GREEK_FOUR, PIQUET_DECK, PISTI, Card, GameState, PileCapture, Rank, RuleSet
from xeri._agents.rollouts import RolloutView
from xeri.bots import ISMCTSBot, PIMCBot
from xeri.bots import search as search_module
from xeri.bots.search import _FairPile, _policy_for
from xeri.testing import rule_sets


class ReferencePile:
    """The counting pile policy as first written, kept verbatim as the reference.

    Its own description follows: a pile-game playout policy that plays on
    what its mover could know.

    [`playout_policy`][xeri.bots.playout_policy] reads every hand of the
    sampled state, so in its playouts nobody ever lays a card the next seat
    can take: a game without xeris, unlike the one the bots play. This
    policy counts instead, as a player does: the cards of each rank that the
    mover has not seen (not in its hand, not played) could be in the next
    hand, and a card is laid by the chance that the next seat, an opponent,
    holds one of its rank, weighted by what that take would win. The cards
    played are the state's at `start` and then every card this policy plays.
    """

    __slots__ = ("gone", "helpers", "left", "randrange", "sweeper", "totals", "xeri")

    def __init__(self, rules: RuleSet, randrange: Callable[[int], int]) -> None:
        self.randrange = randrange
        self.sweeper = getattr(rules.capture, "sweeper", None)
        totals = [0] * 16
        for card in rules.deck:
            totals[card.rank] += 1
        self.totals = totals
        self.gone = list(totals)
        self.left = 0
        self.xeri = float(rules.xeri_points)
        self.helpers = reference_helpers(rules)

    def start(self, state: GameState) -> None:
        """Count the cards out of play, seen by all, in `state`: taken or on the pile."""
        gone = [0] * 16
        out = 0
        for take in state.takes:
            for card in take.cards:
                gone[card.rank] += 1
            out += len(take.cards)
        pile: Sequence[Card] = state.table  # type: ignore[assignment]  # a pile holds cards
        for card in pile:
            gone[card.rank] += 1
        self.gone = gone
        self.left = len(state.rules.deck) - out - len(pile)

    def __call__(self, view: RolloutView) -> int:
        moves: Sequence[Card] = view.moves  # type: ignore[assignment]  # pile moves are cards
        i = self._choice(view, moves)
        card = moves[i]
        self.gone[card.rank] += 1
        self.left -= 1
        return i

    def _choice(self, view: RolloutView, moves: Sequence[Card]) -> int:
        n = len(moves)
        if n == 1:
            return 0
        table: Sequence[Card] = view.table  # type: ignore[assignment]  # a pile holds cards
        sweeper = self.sweeper
        if table:
            top = table[-1].rank
            for i, card in enumerate(moves):
                if card.rank is top:
                    return i
            if len(table) >= 2:  # a pile of two is worth the sweeper
                for i, card in enumerate(moves):
                    if card.rank is sweeper:
                        return i
        hands = view.hands
        seats = len(hands)
        seat = view.seat
        sides, worth = self.helpers
        side = sides[seat]
        nxt = (seat + 1) % seats
        opponent = sides[nxt] != side
        h = len(hands[nxt])
        unseen = self.left - n  # cards the mover has not seen: other hands, stock
        held = [0] * 16
        for card in moves:
            held[card.rank] += 1
        totals, gone = self.totals, self.gone
        pile = 0.0
        for card in table:
            pile += worth[card]
        stake = pile + 0.2 * (len(table) + 1) + (self.xeri if not table else 0.0)
        start = self.randrange(n)
        best, best_cost = start, math.inf
        for k in range(n):
            i = (start + k) % n
            card = moves[i]
            rank = card.rank
            if rank is sweeper:
                cost = 50.0
            else:
                u = totals[rank] - gone[rank] - held[rank]
                miss = 1.0
                if u > 0 and unseen > 0:
                    for j in range(min(h, unseen)):
                        miss *= max(0.0, (unseen - u - j) / (unseen - j))
                chance = 1.0 - miss
                cost = worth[card] + (stake + worth[card]) * (chance if opponent else -0.5 * chance)
            if cost < best_cost:
                best, best_cost = i, cost
        return best


def reference_helpers(rules: RuleSet) -> tuple[tuple[int, ...], dict[Card, float]]:
    """The sides of the seats and each card's points, as floats."""
    points = rules.card_points.points
    return rules.sides, {card: float(points(card)) for card in rules.deck}


CUSTOM = (
    attrs.evolve(GREEK, name="no-sweeper", capture=PileCapture(sweeper=None)),
    attrs.evolve(GREEK, name="king-sweeper", capture=PileCapture(sweeper=Rank.KING), xeri_points=3),
    attrs.evolve(GREEK, name="piquet", deck=PIQUET_DECK, hand_size=7),
    # Partners side by side: the next seat is a partner every other turn (F1).
    attrs.evolve(GREEK_FOUR, name="partners-in-pairs", sides=(0, 0, 1, 1)),
)
RULES = (GREEK, GREEK_FOUR, PISTI, *CUSTOM)


class Recording:
    """A policy that asks `policy` and records each index it gives."""

    def __init__(self, policy: Callable[[RolloutView], int]) -> None:
        self.policy = policy
        self.picks: list[int] = []

    def start(self, state: GameState) -> None:
        self.policy.start(state)  # type: ignore[attr-defined]  # both pile policies count

    def __call__(self, view: RolloutView) -> int:
        index = self.policy(view)
        self.picks.append(index)
        return index


class RandrangeOnly:
    """A random source with `randrange` alone: the policy must call it, not read bits."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randrange(self, n: int) -> int:
        return self._rng.randrange(n)


def random_state(rules: RuleSet, seed: int) -> GameState:
    """A state at a random point of a random round of `rules`, a seat to move."""
    rng = random.Random(seed)
    state = xeri.new_game(rules, rng=rng)
    for _ in range(rng.randrange(len(rules.deck))):
        if state.is_round_over:
            break
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    if state.is_round_over:
        return xeri.new_game(rules, rng=rng)
    return state


def both_rollouts(state: GameState, make_rng: Callable[[], object]) -> tuple[list[int], list[int]]:
    """The picks of the policy and of the reference over one rollout each, from equal generators."""
    new = Recording(_FairPile(state.rules, make_rng()))  # type: ignore[arg-type]  # a random source
    old = Recording(ReferencePile(state.rules, make_rng().randrange))  # type: ignore[attr-defined]
    ends = []
    for policy in (new, old):
        policy.start(state)
        ends.append(xeri.rollout(state, random.Random(0), policy))
    assert ends[0] == ends[1]
    return new.picks, old.picks


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_G6_the_pile_playout_plays_every_rollout_as_its_first_form(rules):
    for seed in range(40):
        state = random_state(rules, seed)
        new, old = both_rollouts(state, lambda seed=seed: random.Random(seed))
        assert new == old
        assert len(new) == len(xeri.rollout(state, random.Random(0)).history) - len(state.history)


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR], ids=lambda r: r.name)
def test_the_pile_playout_draws_through_randrange_from_any_random_source(rules):
    for seed in range(20):
        state = random_state(rules, seed)
        new, old = both_rollouts(state, lambda seed=seed: RandrangeOnly(seed))
        assert new == old


def view_of(state: GameState) -> RolloutView:
    view = RolloutView(state.rules)
    view.seat = state.to_move  # type: ignore[assignment]  # a seat is to move
    view.moves = xeri.legal_moves(state)
    view.table, view.hands, view.stock = state.table, state.hands, len(state.stock)
    view.plays = len(state.history)
    return view


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_G7_the_pile_playout_picks_as_its_first_form_on_random_views(rules):
    for seed in range(150):
        state = random_state(rules, 1000 + seed)
        new = _policy_for(rules, random.Random(seed))
        old = ReferencePile(rules, random.Random(seed).randrange)
        new.start(state)  # type: ignore[attr-defined]  # the pile policy counts from a state
        old.start(state)
        assert new(view_of(state)) == old(view_of(state))


def test_the_pile_playout_picks_as_its_first_form_without_a_start():
    # Never told what is out of play, both count every card as seen.
    for seed in range(30):
        state = random_state(GREEK, 2000 + seed)
        new = _FairPile(GREEK, random.Random(seed))
        old = ReferencePile(GREEK, random.Random(seed).randrange)
        assert [new(view_of(state)) for _ in range(3)] == [old(view_of(state)) for _ in range(3)]


@settings(max_examples=40, deadline=None)
@given(rules=rule_sets(decks=True).filter(lambda r: r.capture.pile), seed=st.integers(0, 2**32))
def test_the_pile_playout_plays_generated_rule_sets_as_its_first_form(rules, seed):
    state = random_state(rules, seed)
    new, old = both_rollouts(state, lambda: random.Random(seed))
    assert new == old


@pytest.mark.parametrize("rules", [GREEK, GREEK_FOUR, PISTI], ids=lambda r: r.name)
@pytest.mark.parametrize(
    "bot",
    [PIMCBot(samples=6, endgame=False), ISMCTSBot(iterations=6, endgame=False)],
    ids=["pimc", "ismcts"],
)
def test_the_search_bots_choose_as_with_the_first_form_of_the_pile_playout(rules, bot, monkeypatch):
    seen = [xeri.observe(s, s.to_move) for s in (random_state(rules, 3000 + k) for k in range(6))]
    new = [bot.choose(observation, random.Random(k)) for k, observation in enumerate(seen)]

    def reference_for(rules: RuleSet, rng: random.Random) -> ReferencePile:
        return ReferencePile(rules, rng.randrange)

    monkeypatch.setattr(search_module, "_policy_for", reference_for)
    old = [bot.choose(observation, random.Random(k)) for k, observation in enumerate(seen)]
    assert new == old

"""Bots that look one play ahead: [`GreedyBot`][xeri.bots.GreedyBot] and the counting bot.

Both price moves with [`preview`][xeri.preview], which asks the rule set's
own capture rule, so they play any rule set, custom ones included. The
counting bot also reads two capability attributes when a rule set has
them: `pile` of the capture rule, and its `sweeper` rank.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import comb

import attrs

from xeri._agents.observation import Observation, _seat
from xeri._agents.previews import preview
from xeri._cards import Card
from xeri._core.engine import RandomSource, moves_on
from xeri._families.protocol import XeriKind
from xeri._immutable import _Immutable
from xeri._moves import PlayerMove
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem, item_cards
from xeri.bots._prices import _prices, comparisons
from xeri.bots.base import CANDIDATES, candidates, moves_to_choose

__all__ = ["CountingBot", "GreedyBot", "unseen_cards"]


@attrs.frozen(kw_only=True)
class GreedyBot(_Immutable):
    """Plays the move that wins the most points now, xeri bonuses included.

    Ties are broken, in order, by: more cards taken; then the card played
    worth fewer points ([G10][rules-g10], [D8][rules-d8]); then the first
    move in the order of [`legal_moves`][xeri.legal_moves]. The bot is
    deterministic: it draws from `rng` only when there are more than
    [`CANDIDATES`][xeri.bots.CANDIDATES] legal moves, to sample the
    [`candidates`][xeri.bots.candidates] it scores then.
    """

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The greediest move; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        moves = _scored(moves_to_choose(observation), observation, rng)
        points = observation.rules.card_points.points
        best = moves[0]
        best_key: tuple[int, int, int] | None = None
        for move in moves:
            seen = preview(observation, move)
            key = (seen.points, seen.count, -points(move.card))
            if best_key is None or key > best_key:
                best, best_key = move, key
        return best


def unseen_cards(observation: Observation) -> tuple[Card, ...]:
    """The cards of the deck whose place the observing seat does not know.

    Every card that is not in its hand, not on the table as it sees it and
    not among the cards taken or played this round ([X2][rules-x2]). They
    are in the other hands, in the stock or face down.

    Args:
        observation: what a seat sees.

    Returns:
        The cards, in deck order.
    """
    known: set[Card] = set(observation.hand)
    known.update(move.card for move in observation.history)
    for take in observation.takes:
        known.update(take.cards)
    for item in observation.table:
        known.update(item_cards(item))
    return tuple(card for card in observation.rules.deck if card not in known)


@attrs.frozen(kw_only=True)
class CountingBot(_Immutable):
    """A heuristic player that counts the cards seen.

    Each move is scored as what it wins now minus what the next seat can
    expect to win in reply:

    * **now**: its points (xeri bonuses included) plus `card_weight` per
      card taken, for the majority ([G10][rules-g10], [D8][rules-d8]);
    * **the reply**: the next seat's best capture on the table the move
      leaves, for each rank it may hold, weighted by the chance that its
      best card is of that rank. The chance comes from counting: the cards
      not yet seen are equally likely to be anywhere unseen, so a rank whose
      four cards are gone cannot answer a lone card, and leaving a xeri
      chance costs in proportion to the cards that could still take it;
    * **the sweeper** (the Jack of the Greek family, when the capture rule
      has a `sweeper`): sweeping a pile of fewer than `sweep_at` cards costs
      `sweeper_value`, so Jacks are kept for large piles;
    * **builds** (German Xeri, [D3][rules-d3]–[D5][rules-d5]): a move that
      leaves a build of this side on the table also counts the build's
      cards and points, which its owner expects to take next turn unless the
      reply takes them (the reply is counted above), so builds are made,
      raised and defended on their value;
    * **comparing categories** (Scopa's most coins and primiera, Cassino's
      most spades): each card taken also counts what it is worth to the
      comparison, the mean change of the margin when the card changes
      sides, estimated once per rule set (nothing for the Greek family,
      which has none).

    Ties keep the first move in the order of [`legal_moves`][xeri.legal_moves].
    Above [`CANDIDATES`][xeri.bots.CANDIDATES] legal moves the bot scores
    the [`candidates`][xeri.bots.candidates] only, drawn with `rng` (it
    never draws otherwise), and prices the reply once, on the table as it
    is; a reply of more than that many moves is priced on its candidates
    too (sampled with a generator seeded by their number).
    """

    card_weight: float = 0.2
    """Points a captured card is worth for the majority bonus."""
    sweeper_value: float = 2.5
    """What holding the sweeper is worth: the cost of sweeping a small pile with it."""
    sweep_at: int = 4
    """Piles of at least this many cards are worth the sweeper."""

    def choose(self, observation: Observation, rng: RandomSource) -> PlayerMove:
        """The move with the best count; see [`Bot.choose`][xeri.bots.Bot.choose]."""
        legal = moves_to_choose(observation)
        if len(legal) == 1:
            return legal[0]
        moves = _scored(legal, observation, rng)
        rules = observation.rules
        seat = _seat(observation)
        nxt = (seat + 1) % rules.seats
        threat = _Threat.of(observation, nxt)
        sweeper = getattr(rules.capture, "sweeper", None)
        side = rules.sides[seat]
        once = None  # above the cap, the reply priced on the table as it is
        if moves is not legal:
            once = threat.expected(observation.table, self.card_weight)
        best = moves[0]
        best_value = float("-inf")
        for move in moves:
            value = self._value(observation, move, threat, sweeper, side, once)
            if value > best_value:
                best, best_value = move, value
        return best

    def _value(  # noqa: PLR0917  # internal, one call site
        self,
        observation: Observation,
        move: PlayerMove,
        threat: _Threat,
        sweeper: object,
        side: int,
        once: float | None,
    ) -> float:
        rules = observation.rules
        seen = preview(observation, move)
        value = seen.points + self.card_weight * seen.count
        if threat.extra and seen.taken is not None:
            value += sum(threat.extra[c] for c in seen.taken)
        card = move.card
        if (
            sweeper is not None
            and card.rank is sweeper
            and seen.taken is not None
            and seen.xeri is None
            and seen.count < self.sweep_at
            and not _matches_top(observation.table, card)
        ):
            value -= self.sweeper_value
        _, table, _, _ = rules.capture.play(
            observation.table, observation.hand, _seat(observation), move
        )
        if not rules.capture.pile:
            value += self._builds(rules, table, side)
        sign = 1.0 if rules.sides[threat.seat] == side else -1.0
        reply = threat.expected(table, self.card_weight) if once is None else once
        return value + sign * reply

    def _builds(self, rules: RuleSet, table: tuple[TableItem, ...], side: int) -> float:
        worth = 0.0
        for item in table:
            owner = getattr(item, "owner", None)
            if owner is not None and rules.sides[owner] == side:
                cards = item_cards(item)
                worth += rules.card_points.count(cards) + self.card_weight * len(cards)
        return worth


def _scored(
    moves: Sequence[PlayerMove], observation: Observation, rng: RandomSource
) -> Sequence[PlayerMove]:
    """The moves a heuristic bot scores: all, or the bounded candidates above the cap."""
    return candidates(moves, rng, hand=observation.hand, table=observation.table)


_REPLY_SAMPLE = 8
"""How many replies drawn by index price a reply of more than `CANDIDATES` moves."""


_SMALL = 10
"""Up to this many table items the replies are listed by the capture rule, as they always were."""


def _replies(
    rules: RuleSet, table: tuple[TableItem, ...], card: Card, seat: int
) -> Sequence[PlayerMove]:
    """The moves of `card` alone on `table`, or their candidates when there are very many."""
    capture = rules.capture
    if capture.pile or len(table) <= _SMALL:
        return capture.moves(table, (card,), seat)
    moves = moves_on(rules, table, (card,), seat)
    if len(moves) <= CANDIDATES:
        return moves
    return candidates(
        moves, random.Random(len(moves)), hand=(card,), table=table, sample=_REPLY_SAMPLE
    )


def _extra(rules: RuleSet) -> dict[Card, float]:
    """The comparing categories' worth of each card, or an empty table when there are none."""
    if all(getattr(c, "additive", False) is True for c in rules.categories):
        return {}
    return comparisons(rules)


def _matches_top(table: tuple[TableItem, ...], card: Card) -> bool:
    """Whether `card` takes the top of a pile by its rank rather than by sweeping."""
    if not table:
        return False
    top = table[-1]
    return isinstance(top, Card) and top.rank is card.rank


@attrs.frozen
class _Threat:
    """The next seat's possible replies, counted from the unseen cards."""

    seat: int
    rules: RuleSet
    hand_size: int
    pool: int
    by_rank: tuple[tuple[Card, int], ...]
    """For each rank still unseen: one unseen card of it and how many are unseen."""
    extra: dict[Card, float]
    """What each card is worth to the comparing categories; empty when there are none."""
    sweep: float
    """What a xeri (a sweep) is worth: its bonus and what additive categories give for it."""

    @classmethod
    def of(cls, observation: Observation, seat: int) -> _Threat:
        unseen = unseen_cards(observation)
        counts: dict[object, list[Card]] = {}
        for card in unseen:
            counts.setdefault(card.rank, []).append(card)
        return cls(
            seat,
            observation.rules,
            observation.hand_sizes[seat],
            len(unseen),
            tuple((cards[0], len(cards)) for cards in counts.values()),
            _extra(observation.rules),
            _prices(observation.rules).sweep,
        )

    def expected(self, table: tuple[TableItem, ...], card_weight: float) -> float:
        """The expected value of the next seat's best reply on `table`."""
        hand, pool = self.hand_size, self.pool
        if not hand or not pool or not table:
            return 0.0
        rules = self.rules
        capture = rules.capture
        gains: list[tuple[float, int]] = []
        for card, count in self.by_rank:
            best = 0.0
            for reply in _replies(rules, table, card, self.seat):
                _, _, taken, xeri = capture.play(table, (card,), self.seat, reply)
                if taken is None:
                    continue
                gain = rules.card_points.count(taken) + card_weight * len(taken)
                if self.extra:
                    gain += sum(self.extra[c] for c in taken)
                if xeri is XeriKind.JACK_XERI:
                    gain += rules.jack_xeri_points
                elif xeri is not None:
                    gain += self.sweep
                best = max(best, gain)
            if best > 0:
                gains.append((best, count))
        gains.sort(reverse=True)
        # E[max] = sum of gain_i * P(holds rank i and none of the better ranks).
        total = comb(pool, hand)
        expected = 0.0
        excluded = 0
        none_before = 1.0
        for gain, count in gains:
            excluded += count
            none_after = comb(pool - excluded, hand) / total if pool - excluded >= hand else 0.0
            expected += gain * (none_before - none_after)
            none_before = none_after
        return expected

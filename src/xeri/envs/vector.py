"""Many rounds of a pile game played at once on NumPy arrays, for fast reinforcement learning.

Needs the `vector` extra (`pip install "xeri[vector]"`: NumPy and
Gymnasium; [`XeriVector`][xeri.envs.vector.XeriVector] needs NumPy only).
Importing this module without NumPy raises an `ImportError` naming the extra.

[`XeriVector`][xeri.envs.vector.XeriVector] holds `num_envs` games of a
pile rule set (the Greek family: [`GREEK`][xeri.GREEK],
[`GREEK_FOUR`][xeri.GREEK_FOUR], [`PISTI`][xeri.PISTI] and rule sets made
from them) and steps them all with one array of actions: the rules run on
arrays, one NumPy operation for every game, not one engine per game. It is
the self-play form: each game's seat to move acts, whichever it is.
[`XeriVectorEnv`][xeri.envs.vector.XeriVectorEnv] is a Gymnasium
`VectorEnv` of one learning seat against an array policy.

**Faithful to the engine.** A game here is a game of
[`apply`][xeri.apply]: the same deals ([G3][rules-g3], the order of
[X3][rules-x3]), redeals of the initial table ([G4][rules-g4],
[F4][rules-f4]), captures and xeris, the last card's and the first card's
xeri options ([G7][rules-g7], [P4][rules-p4], [V3][rules-v3]), later deals
by the same dealer, the seat after it leading ([G8][rules-g8]), the cards
left to the last capturer ([G9][rules-g9]), face-down cards
([P3][rules-p3]) and the round's score ([G10][rules-g10]). The tests replay
vectorised games move by move through `apply` and compare every state,
observation and reward. With `record=True` the environment keeps what a
replay needs: [`replay_moves`][xeri.envs.vector.XeriVector.replay_moves].

**Supported rule sets.** A [`PileCapture`][xeri.PileCapture] (any
sweeper), any seats and sides, any deck, hand and table size, `face_down`,
the redeal rules [`Redeal`][xeri.Redeal] and
[`RanksOnTable`][xeri.RanksOnTable], the xeri options, the
[`StandardScorer`][xeri.StandardScorer] with any points table, majority
bonus and tie rule and xeri bonuses. Refused with a
[`RuleSetError`][xeri.RuleSetError] naming the reason: other capture rules,
`show_bottom_card` ([V1][rules-v1]), `dealer_per_deal`, scoring
categories and other scorers.

**Episodes.** An episode is the first round of a new match, the dealer
drawn at random ([G2][rules-g2]), as the `episode="round"` environments
of PettingZoo and Gymnasium: the match numbers of the observation are all 0.
When a round ends its game is dealt again in the same step (auto-reset):
the row's `terminated` is True, its reward is the round's, and its
observation is the first of the next episode.

**Arrays.** Observations are the
[`observation_tensor`][xeri.observation_tensor] of the seat to move,
`float32`, one row per game, equal to the engine's; masks are `int8`, one
row of `num_actions(rules)` (52) per game, 1 at the cards in the mover's
hand. Rewards are `float32`, one row of a reward per seat: at the end of a
round each seat's side's round total minus the best total among the other
sides, 0 before.

Examples:
    >>> import numpy as np
    >>> import xeri
    >>> from xeri.envs.vector import XeriVector
    >>> games = XeriVector(xeri.GREEK, num_envs=64, seed=1)
    >>> obs, mask, to_move = games.reset()
    >>> rng = np.random.default_rng(1)
    >>> ended = 0
    >>> for _ in range(48):
    ...     actions = (rng.random(mask.shape) * mask).argmax(axis=1)
    ...     obs, mask, to_move, rewards, terminated = games.step(actions)
    ...     ended += int(terminated.sum())
    >>> obs.shape, ended
    ((64, 495), 64)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xeri._agents.actions import num_actions
from xeri._agents.features import _layout, observation_shape
from xeri._cards import DECK, Card, Rank
from xeri._core.engine import start
from xeri._core.state import GameState, Phase
from xeri._errors import IllegalMoveError, RuleSetError
from xeri._families.pile.rule import PileCapture
from xeri._moves import Deal, Move, Reshuffle
from xeri._rules.redeal import RanksOnTable, Redeal
from xeri._rules.ruleset import GREEK, RuleSet
from xeri._rules.scoring import MajorityTie, StandardScorer

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        'xeri.envs.vector needs the vector extra: pip install "xeri[vector]"'
    ) from exc

__all__ = ["ArrayPolicy", "XeriVector", "XeriVectorEnv", "random_policy", "vector_env"]

ArrayPolicy = Callable[
    [npt.NDArray[np.float32], npt.NDArray[np.int8], np.random.Generator], npt.NDArray[np.int64]
]
"""A policy on arrays: `(observations, masks, rng) -> actions`, one row per game."""

_CARDS = 52
_RANK = np.array([card.rank.value for card in DECK], dtype=np.int64)
_JACK = Rank.JACK.value
_PLAY_PHASE = list(Phase).index(Phase.PLAY)


def _refusal(rules: RuleSet) -> str | None:
    """Why the arrays cannot play `rules`, or None."""
    if not isinstance(rules, RuleSet):
        return f"needs a RuleSet, not {type(rules).__name__}"
    if rules.capture.__class__ is not PileCapture:
        return f"plays pile games only (PileCapture), not {type(rules.capture).__name__}"
    if rules.show_bottom_card:
        return "does not play show_bottom_card (V1)"
    if rules.dealer_per_deal:
        return "does not play dealer_per_deal"
    if type(rules.scorer) is not StandardScorer or rules.categories:
        return "scores with the StandardScorer and no categories only"
    redeal = rules.redeal
    if not isinstance(redeal, (Redeal, RanksOnTable)):
        return f"does not play the redeal rule {type(redeal).__name__}"
    return None


def random_policy(
    observations: npt.NDArray[np.float32], masks: npt.NDArray[np.int8], rng: np.random.Generator
) -> npt.NDArray[np.int64]:
    """A uniformly random legal action per row: the argmax of uniform noise on the mask.

    Args:
        observations: one observation per row (unused).
        masks: one action mask per row, each with a legal action.
        rng: the generator.

    Returns:
        One legal action per row.
    """
    return (rng.random(masks.shape) * (masks + 1e-9)).argmax(axis=1)  # type: ignore[no-any-return]  # an int64 array


class XeriVector:
    """`num_envs` rounds of a pile game stepped together: the self-play form.

    See the module docstring. Every method takes and returns arrays with
    one row per game.

    Attributes:
        rules: the rule set.
        num_envs: how many games are played at once.
        num_actions: the size of the action space (52).
        observation_size: the length of an observation.
    """

    def __init__(  # noqa: PLR0915  # one array per part of the game, made in one place
        self,
        rules: RuleSet = GREEK,
        num_envs: int = 1024,
        *,
        seed: int | None = None,
        record: bool = False,
    ) -> None:
        """Make the games; `reset` deals them.

        Args:
            rules: a pile rule set the arrays play (see the module docstring).
            num_envs: how many games, at least 1.
            seed: seeds the generator of every deal and redeal.
            record: keep each game's chance moves and plays, for
                [`replay_moves`][xeri.envs.vector.XeriVector.replay_moves].

        Raises:
            RuleSetError: the arrays do not play `rules`; the message says why.
            IllegalMoveError: `num_envs` is not a positive int.
        """
        problem = _refusal(rules)
        if problem is not None:
            raise RuleSetError(f"the vector environment {problem}")
        if type(num_envs) is not int or num_envs < 1:
            raise IllegalMoveError(f"num_envs must be a positive int, not {num_envs!r}")
        self.rules = rules
        self.num_envs = num_envs
        self.num_actions = num_actions(rules)
        self.observation_size = observation_shape(rules)[0]
        self._rng = np.random.default_rng(seed)
        self._record = record
        self._log: list[list[Move]] = [[] for _ in range(num_envs)]
        self._finished: list[list[tuple[int, list[Move], tuple[float, ...]]]] = [
            [] for _ in range(num_envs)
        ]
        seats = rules.seats
        sides = rules.num_sides
        self._seats = seats
        self._sides = sides
        self._side_of = np.array(rules.sides, dtype=np.int64)
        lay = _layout(rules)
        self._lay = lay
        self._order = np.array(
            [sorted(range(sides), key=lay.rel_sides[me].__getitem__) for me in range(seats)],
            dtype=np.int64,
        )
        self._deck = np.array([card.index for card in rules.deck], dtype=np.int64)
        self._deck_plane = np.zeros(_CARDS, dtype=bool)
        self._deck_plane[self._deck] = True
        self._points = np.array([rules.card_points.points(card) for card in DECK], dtype=np.int64)
        sweeper = rules.capture.sweeper  # type: ignore[attr-defined]  # a PileCapture
        self._sweeper = -1 if sweeper is None else sweeper.value
        self._xeri_cap = lay.xeri_cap
        self._ready = False
        b = num_envs
        self._hands = np.zeros((b, seats, _CARDS), dtype=bool)
        self._hand_n = np.zeros((b, seats), dtype=np.int64)
        self._pile = np.zeros((b, _CARDS), dtype=bool)
        self._pile_n = np.zeros(b, dtype=np.int64)
        self._pile_pts = np.zeros(b, dtype=np.int64)
        self._top = np.full(b, -1, dtype=np.int64)
        self._down = np.zeros((b, _CARDS), dtype=bool)
        self._down_owner = np.full(b, -1, dtype=np.int64)
        self._order_dealt = np.zeros((b, len(self._deck)), dtype=np.int64)
        self._pos = np.zeros(b, dtype=np.int64)
        self._played = np.zeros((b, seats, _CARDS), dtype=bool)
        self._captured = np.zeros((b, sides, _CARDS), dtype=bool)
        self._cap_n = np.zeros((b, sides), dtype=np.int64)
        self._cap_pts = np.zeros((b, sides), dtype=np.int64)
        self._xeris = np.zeros((b, sides), dtype=np.int64)
        self._jacks = np.zeros((b, sides), dtype=np.int64)
        self._last = np.full(b, -1, dtype=np.int64)
        self._dealer = np.zeros(b, dtype=np.int64)
        self._to_move = np.zeros(b, dtype=np.int64)
        self._turn = np.zeros(b, dtype=np.int64)
        self._redealt = np.zeros((b, _CARDS), dtype=bool)
        # Every seat's observation of every game, kept play by play (without
        # face-down cards, whose captures each seat sees its own way).
        self._follow = not rules.face_down
        size = self.observation_size
        self._views = np.zeros((b, seats, size) if self._follow else (0, seats, size), np.float32)
        self._rel_side = np.array(
            [[lay.rel_sides[me][side] for side in range(sides)] for me in range(seats)],
            dtype=np.int64,
        )

    # -- dealing -------------------------------------------------------------------------

    def _deal_rounds(self, rows: npt.NDArray[np.int64]) -> None:  # noqa: PLR0915  # every part of a new round, in the engine's order
        """Deal a new match's first round to the games `rows`: dealer, deal, redeals."""
        rules = self.rules
        rng = self._rng
        m = len(rows)
        seats = self._seats
        k = rules.hand_size
        t = rules.table_size
        dealer = rng.integers(seats, size=m)
        order = self._deck[np.argsort(rng.random((m, len(self._deck))), axis=1)]
        if self._record:
            for i, row in enumerate(rows.tolist()):
                self._log[row] = [Deal(deck=tuple(DECK[c] for c in order[i].tolist()))]
        first = seats * k
        redealt = np.zeros((m, _CARDS), dtype=bool)
        while True:  # G4, F4: the table is dealt again until it may stand
            again = self._redeal_needed(order[:, first : first + t])
            if not again.any():
                break
            idx = np.flatnonzero(again)
            shown = order[idx, first : first + t]
            redealt[idx[:, None], shown] = True
            rest = order[idx, first:]
            order[idx, first:] = np.take_along_axis(
                rest, np.argsort(rng.random(rest.shape), axis=1), axis=1
            )
            if self._record:
                for i in idx.tolist():
                    stock = tuple(DECK[c] for c in order[i, first:].tolist())
                    self._log[rows[i]].append(Reshuffle(stock=stock))
        self._order_dealt[rows] = order
        self._dealer[rows] = dealer
        self._redealt[rows] = redealt
        self._hands[rows] = False
        self._played[rows] = False
        self._captured[rows] = False
        self._cap_n[rows] = 0
        self._cap_pts[rows] = 0
        self._xeris[rows] = 0
        self._jacks[rows] = 0
        self._last[rows] = -1
        self._turn[rows] = 0
        self._deal_hands(rows, dealer, np.zeros(m, dtype=np.int64))
        table = order[:, first : first + t]
        pile = np.zeros((m, _CARDS), dtype=bool)
        np.put_along_axis(pile, table, values=True, axis=1)
        self._pile[rows] = pile
        self._pile_n[rows] = t
        self._pile_pts[rows] = self._points[table].sum(axis=1)
        self._top[rows] = table[:, -1] if t else -1
        down = np.zeros((m, _CARDS), dtype=bool)
        if rules.face_down:
            np.put_along_axis(down, table[:, : rules.face_down], values=True, axis=1)
        self._down[rows] = down
        self._down_owner[rows] = -1
        self._pos[rows] = first + t
        if self._follow:
            self._rebuild(rows)

    def _redeal_needed(self, table: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Whether each initial table (one row of card indices, the top last) is dealt again."""
        redeal = self.rules.redeal
        ranks = _RANK[table]
        m, t = ranks.shape
        if redeal is Redeal.NEVER or t == 0:
            return np.zeros(m, dtype=bool)
        if isinstance(redeal, RanksOnTable):
            return (ranks == redeal.rank.value).sum(axis=1) >= redeal.count  # type: ignore[no-any-return]  # a bool array
        needed = ranks[:, -1] == _JACK
        if redeal is Redeal.TOP_JACK_OR_TOP_PAIR:
            if t >= 2:
                needed |= ranks[:, -1] == ranks[:, -2]
            return needed  # type: ignore[no-any-return]  # a bool array
        ordered = np.sort(ranks, axis=1)
        return needed | (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)  # type: ignore[no-any-return]  # a bool array

    def _deal_hands(
        self, rows: npt.NDArray[np.int64], dealer: npt.NDArray[np.int64], at: npt.NDArray[np.int64]
    ) -> None:
        """Deal `hand_size` cards to each seat from position `at` of the order, after the dealer."""
        seats = self._seats
        k = self.rules.hand_size
        order = self._order_dealt[rows]
        for i in range(seats):
            seat = (dealer + 1 + i) % seats
            cards = np.take_along_axis(order, at[:, None] + i * k + np.arange(k), axis=1)
            plane = np.zeros((len(rows), _CARDS), dtype=bool)
            np.put_along_axis(plane, cards, values=True, axis=1)
            self._hands[rows, seat] = plane
            self._hand_n[rows, seat] = k
        self._to_move[rows] = (dealer + 1) % seats

    # -- the public steps ----------------------------------------------------------------

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Deal a new match's first round in every game.

        Args:
            seed: reseeds the generator; None continues it.

        Returns:
            `(observations, masks, to_move)`: the observation and the action
            mask of each game's seat to move, and that seat.
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        rows = np.arange(self.num_envs)
        self._deal_rounds(rows)
        self._ready = True
        return self._seen(rows), self.masks(), self._to_move.copy()

    def masks(self) -> npt.NDArray[np.int8]:
        """The action mask of each game's seat to move: 1 at the cards of its hand.

        Returns:
            An `int8` array of shape `(num_envs, num_actions)`.
        """
        rows = np.arange(self.num_envs)
        return self._hands[rows, self._to_move].astype(np.int8)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        npt.NDArray[np.float32],
        npt.NDArray[np.int8],
        npt.NDArray[np.int64],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
    ]:
        """Play one action in every game, by its seat to move.

        Args:
            actions: one legal action per game (an integer array or sequence).

        Returns:
            `(observations, masks, to_move, rewards, terminated)`: rewards
            has one row of `seats` rewards per game; a terminated game has
            been dealt again and its row shows the next episode.

        Raises:
            IllegalMoveError: `reset` has not been called, the actions are not
                one int per game, or an action is illegal (nothing is played then).
        """
        rows = np.arange(self.num_envs)
        rewards, ended = self.play(rows, actions)
        return self._seen(rows), self.masks(), self._to_move.copy(), rewards, ended

    def play(
        self, rows: npt.NDArray[np.int64], actions: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play one action in each of the games `rows`, by its seat to move; no observation.

        Args:
            rows: the games, distinct indices.
            actions: one legal action per row.

        Returns:
            `(rewards, terminated)` of those games, as `step` gives them.

        Raises:
            IllegalMoveError: as for `step`.
        """
        if not self._ready:
            raise IllegalMoveError("the games are not dealt yet: call reset first")
        try:
            cards = np.asarray(actions)
            ok = cards.dtype.kind in "iu" and cards.shape == rows.shape
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise IllegalMoveError(f"actions must be {len(rows)} ints, one per game")
        cards = cards.astype(np.int64)
        if ((cards < 0) | (cards >= _CARDS)).any():
            raise IllegalMoveError(f"an action is an int from 0 to {_CARDS - 1}")
        seat = self._to_move[rows]
        if not self._hands[rows, seat, cards].all():
            bad = int(np.flatnonzero(~self._hands[rows, seat, cards])[0])
            raise IllegalMoveError(
                f"action {int(cards[bad])} of game {int(rows[bad])} is not legal: "
                "the card is not in the hand of the seat to move"
            )
        if self._record:
            for row, card in zip(rows.tolist(), cards.tolist(), strict=True):
                self._log[row].append(DECK[card])
        return self._play(rows, seat, cards)

    def _play(  # noqa: PLR0915  # the clauses in the order the engine applies them reads best flat
        self, rows: npt.NDArray[np.int64], seat: npt.NDArray[np.int64], cards: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """The rules of G5-G9 on arrays: play each card, capture, deal again or end the round."""
        rules = self.rules
        self._hands[rows, seat, cards] = False
        hand_left = self._hand_n[rows, seat] - 1
        self._hand_n[rows, seat] = hand_left
        self._played[rows, seat, cards] = True
        rank = _RANK[cards]
        pile_n = self._pile_n[rows]
        top = self._top[rows]
        nonempty = pile_n > 0
        same = nonempty & (rank == _RANK[top])
        take = same | (nonempty & (rank == self._sweeper))
        xeri = same & (pile_n == 1)
        dealer = self._dealer[rows]
        turn = self._turn[rows]
        stock_n = len(self._deck) - self._pos[rows]
        if not rules.xeri_on_first_card:
            xeri &= turn > 0
        if not rules.xeri_on_last_card:
            xeri &= ~((stock_n == 0) & (hand_left == 0) & (seat == dealer))
        jack = xeri & (rank == self._sweeper)
        side = self._side_of[seat]
        points = self._points[cards]
        taken: tuple[npt.NDArray[np.intp], ...] = ()
        if take.any():
            t_rows = rows[take]
            t_side = side[take]
            # (capture, card) of each card taken off the pile
            taken = np.nonzero(self._pile[t_rows])
            self._captured[t_rows, t_side] |= self._pile[t_rows]
            self._captured[t_rows, t_side, cards[take]] = True
            self._pile[t_rows] = False
            self._cap_n[t_rows, t_side] += pile_n[take] + 1
            self._cap_pts[t_rows, t_side] += self._pile_pts[rows][take] + points[take]
            self._xeris[t_rows, t_side] += xeri[take]
            self._jacks[t_rows, t_side] += jack[take]
            self._last[t_rows] = seat[take]
            if rules.face_down:
                first = self._down_owner[t_rows] < 0
                self._down_owner[t_rows[first]] = seat[take][first]
        lay = rows[~take]
        self._pile[lay, cards[~take]] = True
        new_pile_n = np.where(take, 0, pile_n + 1)
        self._pile_n[rows] = new_pile_n
        self._pile_pts[rows] = np.where(take, 0, self._pile_pts[rows] + points)
        self._top[rows] = np.where(take, -1, cards)
        self._turn[rows] = turn + 1
        self._to_move[rows] = (seat + 1) % self._seats
        if self._follow:
            self._follow_play(rows, seat, cards, take, top, hand_left, new_pile_n, taken)
        rewards = np.zeros((len(rows), self._seats), dtype=np.float32)
        ended = np.zeros(len(rows), dtype=bool)
        dealt_out = (hand_left == 0) & (seat == dealer)
        if dealt_out.any():
            again = dealt_out & (stock_n > 0)
            if again.any():  # G8: the same dealer deals again, the seat after it leads
                a_rows = rows[again]
                self._deal_hands(a_rows, dealer[again], self._pos[a_rows])
                self._pos[a_rows] += self._seats * rules.hand_size
                if self._follow:
                    self._follow_deal(a_rows)
            over = dealt_out & (stock_n == 0)
            if over.any():
                o_rows = rows[over]
                margins = self._score(o_rows)
                rewards[over] = margins
                ended[over] = True
                if self._record:
                    for i, row in enumerate(o_rows.tolist()):
                        self._finished[row].append(
                            (int(self._dealer[row]), self._log[row], tuple(margins[i].tolist()))
                        )
                self._deal_rounds(o_rows)
        return rewards, ended

    def _follow_play(  # noqa: PLR0915, PLR0917  # internal: the play's arrays, block by block
        self,
        rows: npt.NDArray[np.int64],
        seat: npt.NDArray[np.int64],
        cards: npt.NDArray[np.int64],
        take: npt.NDArray[np.bool_],
        top: npt.NDArray[np.int64],
        hand_left: npt.NDArray[np.int64],
        pile_n: npt.NDArray[np.int64],
        taken: tuple[npt.NDArray[np.intp], ...],
    ) -> None:
        """Change in every seat's kept observation what one play changed ([G5]-[G7]).

        `taken` holds, for the captures, the index of each capture (among
        the plays that take) and of each card it took off the pile.

        The changes are gathered as flat indices into the views, in three
        writes: the entries set to 0, those set to 1, the others' values.
        """
        flat = self._views.reshape(-1)
        start = self._lay.start
        seats = self._seats
        size = self.observation_size
        following = (seat + 1) % seats
        zeros = [(rows * seats + seat) * size + cards]  # the card leaves the mover's hand
        ones = []
        at_values = []
        values = []
        per_hand = self.rules.hand_size
        table_count = pile_n / _CARDS
        lone = (pile_n == 1).astype(np.float64)
        had = top >= 0
        laid = ~take
        if take.any():
            t_rows = rows[take]
            t_seat = seat[take]
            t_side = self._side_of[t_seat]
            t_cards = cards[take]
            which, pile_cards = taken
            cap = self._xeri_cap
            counts = self._cap_n[t_rows, t_side] / _CARDS
            xeris = np.minimum(1.0, self._xeris[t_rows, t_side] / cap)
            jacks = np.minimum(1.0, self._jacks[t_rows, t_side] / cap)
        for me in range(seats):
            base = (rows * seats + me) * size
            rel = (seat - me) % seats
            ones.append(base + start["played"] + rel * _CARDS + cards)
            ones.append(base + start["to_move"] + (following - me) % seats)
            zeros.append(base + start["to_move"] + rel)
            zeros.append(base + start["unknown"] + cards)
            at_values += [
                base + start["hand_sizes"] + rel,
                base + start["table_count"],
                base + start["lone_item"],
            ]
            values += [hand_left / per_hand, table_count, lone]
            zeros.append((base + start["top"] + top)[had])
            ones.append((base + start["table"] + cards)[laid])
            ones.append((base + start["top"] + cards)[laid])
            if take.any():
                t_base = base[take]
                zeros.append(t_base[which] + start["table"] + pile_cards)  # the pile leaves
                last = start["last_capturer"]
                zeros.append((t_base[:, None] + last + np.arange(seats)).reshape(-1))
                ones.append(t_base + last + (t_seat - me) % seats)
                rel_side = self._rel_side[me][t_side]
                at = t_base + start["captured"] + rel_side * _CARDS
                ones.append(at[which] + pile_cards)  # ... into the capturing side's plane
                ones.append(at + t_cards)
                at_values += [
                    t_base + start["captured_counts"] + rel_side,
                    t_base + start["xeris"] + rel_side,
                    t_base + start["jack_xeris"] + rel_side,
                ]
                values += [counts, xeris, jacks]
        flat[np.concatenate(zeros)] = 0.0
        flat[np.concatenate(ones)] = 1.0
        flat[np.concatenate(at_values)] = np.concatenate(values)

    def _follow_deal(self, rows: npt.NDArray[np.int64]) -> None:
        """Change in every seat's kept observation what a deal of new hands changed ([G8])."""
        views = self._views
        start = self._lay.start
        seats = self._seats
        unknown = start["unknown"]
        for me in range(seats):
            hand = self._hands[rows, me]
            views[rows, me, :_CARDS] = hand
            # The new cards are no longer unknown to the seat holding them.
            views[rows, me, unknown : unknown + _CARDS] *= ~hand
        at = start["hand_sizes"]
        views[rows, :, at : at + seats] = self._hand_n[rows][:, None, :] / self.rules.hand_size
        stock = (len(self._deck) - self._pos[rows]) / _CARDS
        views[rows, :, start["stock"]] = stock[:, None]

    def _score(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """G9 and G10: the last capturer takes the pile, then each seat's margin of the round."""
        rules = self.rules
        last = self._last[rows]
        has = last >= 0
        side = self._side_of[np.maximum(last, 0)]
        cap_n = self._cap_n[rows].copy()
        cap_pts = self._cap_pts[rows].copy()
        ar = np.arange(len(rows))
        cap_n[ar[has], side[has]] += self._pile_n[rows][has]
        cap_pts[ar[has], side[has]] += self._pile_pts[rows][has]
        most = cap_n.max(axis=1, keepdims=True)
        leaders = cap_n == most
        tied = leaders.sum(axis=1, keepdims=True)
        bonus = rules.majority_points
        if rules.majority_tie is MajorityTie.SPLIT:
            majority = np.where(leaders, bonus // tied, 0)
        else:
            majority = np.where(leaders & (tied == 1), bonus, 0)
        xeris = self._xeris[rows]
        jacks = self._jacks[rows]
        total = cap_pts + majority + xeris * rules.xeri_points
        total += jacks * (rules.jack_xeri_points - rules.xeri_points)
        return self._margins(total)

    def banked_margins(self) -> npt.NDArray[np.float32]:
        """Each seat's margin so far in the current round: points captured and xeri bonuses.

        For reward shaping: a round's reward (its margin, at the end) is this
        margin at any point plus what the rest of the round adds (the rest of
        the captures, the cards left to the last capturer and the majority
        bonus), so the difference between two moments is a reward that adds
        up to the round's.

        Returns:
            A `float32` array of shape `(num_envs, seats)`: for each seat its
            side's card points and xeri bonuses so far minus the best of the
            other sides'.
        """
        rules = self.rules
        total = self._cap_pts + self._xeris * rules.xeri_points
        total = total + self._jacks * (rules.jack_xeri_points - rules.xeri_points)
        return self._margins(total)

    def _margins(self, total: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Each seat's side's total minus the best total of the other sides."""
        best_other = np.empty_like(total)
        for s in range(self._sides):
            best_other[:, s] = np.delete(total, s, axis=1).max(axis=1)
        return (total - best_other)[:, self._side_of].astype(np.float32)

    # -- observations ----------------------------------------------------------------------

    def observe(self, rows: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.float32]:
        """The observation of the seat to move in the games `rows` (all games by default).

        Args:
            rows: the games; None for all of them.

        Returns:
            A `float32` array, one observation tensor per row.
        """
        if rows is None:
            rows = np.arange(self.num_envs)
        return self._seen(rows)

    def _seen(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """The observations of the seats to move in the games `rows`: kept, or read whole."""
        if self._follow:
            return self._views[rows, self._to_move[rows]]
        return self._observe(rows)

    def _rebuild(self, rows: npt.NDArray[np.int64]) -> None:
        """Read every seat's observation of the games `rows` whole into the kept views."""
        for seat in range(self._seats):
            self._views[rows, seat] = self._observe(rows, np.full(len(rows), seat))

    def _observe(  # noqa: PLR0915  # block by block, as observation_tensor
        self, rows: npt.NDArray[np.int64], me: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.float32]:
        """Each game's `observation_tensor(observe(state, me))`, read whole, for the games `rows`.

        `me` defaults to each game's seat to move.
        """
        rules = self.rules
        lay = self._lay
        start = lay.start
        m = len(rows)
        seats = self._seats
        if me is None:
            me = self._to_move[rows]
        ar = np.arange(m)
        out = np.zeros((m, self.observation_size), dtype=np.float32)
        hand = self._hands[rows, me]
        pile = self._pile[rows]
        top = self._top[rows]
        unseen_down = self._down[rows] & (self._down_owner[rows] < 0)[:, None]
        table = pile & ~unseen_down
        rel = (me[:, None] + np.arange(seats)) % seats
        out[:, 0:_CARDS] = hand
        out[:, _CARDS : 2 * _CARDS] = table
        at = start["top"]
        shown_top = (top >= 0) & table[ar, np.maximum(top, 0)]
        out[ar[shown_top], at + top[shown_top]] = 1.0
        at = start["played"]
        played = self._played[rows[:, None], rel]
        out[:, at : at + seats * _CARDS] = played.reshape(m, -1)
        sides = self._order[me]
        captured = self._captured[rows[:, None], sides]
        if rules.face_down:
            owner = self._down_owner[rows]
            hide = (owner >= 0) & (owner != me)
            captured[hide] &= ~self._down[rows][hide][:, None, :]
        at = start["captured"]
        out[:, at : at + self._sides * _CARDS] = captured.reshape(m, -1)
        seen = hand | table | captured.any(axis=1)
        out[:, start["unknown"] : start["unknown"] + _CARDS] = self._deck_plane & ~seen
        if "redealt" in start:
            out[:, start["redealt"] : start["redealt"] + _CARDS] = self._redealt[rows]
        out[ar, start["to_move"] + (self._to_move[rows] - me) % seats] = 1.0
        out[ar, start["dealer"] + (self._dealer[rows] - me) % seats] = 1.0
        last = self._last[rows]
        has = last >= 0
        out[ar[has], start["last_capturer"] + ((last - me) % seats)[has]] = 1.0
        out[:, start["phase"] + _PLAY_PHASE] = 1.0
        hand_n = self._hand_n[rows[:, None], rel]
        at = start["hand_sizes"]
        out[:, at : at + seats] = hand_n / rules.hand_size
        stock_n = len(self._deck) - self._pos[rows]
        out[:, start["stock"]] = stock_n / _CARDS
        pile_n = self._pile_n[rows]
        out[:, start["table_count"]] = pile_n / _CARDS
        out[:, start["lone_item"]] = pile_n == 1
        if rules.face_down:
            out[:, start["face_down"]] = unseen_down.any(axis=1) * 1.0
        n = self._sides
        cap = self._xeri_cap
        at = start["captured_counts"]
        out[:, at : at + n] = self._cap_n[rows[:, None], sides] / _CARDS
        at = start["xeris"]
        out[:, at : at + n] = np.minimum(1.0, self._xeris[rows[:, None], sides] / cap)
        at = start["jack_xeris"]
        out[:, at : at + n] = np.minimum(1.0, self._jacks[rows[:, None], sides] / cap)
        return out

    # -- replays -----------------------------------------------------------------------------

    def replay_moves(self, row: int) -> list[tuple[int, list[Move], tuple[float, ...]]]:
        """The finished episodes of one game, for a replay through [`apply`][xeri.apply].

        Needs `record=True`.

        Args:
            row: the game.

        Returns:
            For each finished episode: the dealer, the moves from
            `start(rules, dealer=dealer)` (the `Deal`, any `Reshuffle`, then
            the plays), and the rewards the episode gave each seat.

        Raises:
            IllegalMoveError: the games were made without `record=True`.
        """
        if not self._record:
            raise IllegalMoveError("replay_moves needs a vector made with record=True")
        return list(self._finished[row])

    def state(self, row: int) -> GameState:
        """The engine state of one game, rebuilt by replaying its moves (needs `record=True`).

        Args:
            row: the game.

        Returns:
            The state that `apply` reaches with the game's moves of the
            current episode.

        Raises:
            IllegalMoveError: the games were made without `record=True`.
        """
        if not self._record:
            raise IllegalMoveError("state needs a vector made with record=True")
        from xeri._core.engine import apply  # noqa: PLC0415  # a test helper's import, kept local

        state = start(self.rules, dealer=int(self._dealer[row]))
        for move in self._log[row]:
            state = apply(state, move)
        return state


def _card(index: int) -> Card:
    return DECK[index]


def vector_env(
    rules: RuleSet = GREEK,
    num_envs: int = 1024,
    *,
    opponents: str | ArrayPolicy = "random",
    seat: int = 0,
    seed: int | None = None,
) -> XeriVectorEnv:
    """A Gymnasium `VectorEnv` of one learning seat against an array policy.

    Args:
        rules: a pile rule set the arrays play.
        num_envs: how many games.
        opponents: `"random"` or an [`ArrayPolicy`][xeri.envs.vector.ArrayPolicy],
            playing every other seat.
        seat: the agent's seat.
        seed: the generator's seed (also `reset(seed=...)`).

    Returns:
        A new [`XeriVectorEnv`][xeri.envs.vector.XeriVectorEnv].

    Raises:
        RuleSetError: the arrays do not play `rules`.
        IllegalMoveError: an argument is not one of its values.
    """
    return XeriVectorEnv(rules, num_envs, opponents=opponents, seat=seat, seed=seed)


try:
    import gymnasium
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
except ImportError:  # pragma: no cover - the tests run with the extra installed
    gymnasium = None  # type: ignore[assignment]  # XeriVectorEnv then refuses to be made

    class VectorEnv:  # type: ignore[no-redef]  # a stand-in naming the missing extra
        """Stands in for Gymnasium's `VectorEnv` when Gymnasium is not installed."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:  # noqa: ANN401  # refused
            raise ImportError(
                'XeriVectorEnv needs Gymnasium, in the vector extra: pip install "xeri[vector]"'
            )


class XeriVectorEnv(VectorEnv):  # type: ignore[misc,unused-ignore]  # typed only in recent gymnasium releases
    """One learning seat in `num_envs` games against an array policy, as a Gymnasium `VectorEnv`.

    Observations are dicts of `observation` (`float32`, `(num_envs, size)`)
    and `action_mask` (`int8`, `(num_envs, 52)`), the mask also in
    `info["action_mask"]`; actions a `MultiDiscrete` of one card per game;
    the reward of a game is its round's margin for the agent's side at the
    end of the round, 0 before. Episodes end by termination, never by
    truncation. Auto-reset is Gymnasium's `SAME_STEP` mode: the row of a
    game whose round has ended shows the next round already, and
    `info["final_obs"]` is not given (a round's end is scored, there is
    nothing to bootstrap from). An illegal action raises
    [`IllegalMoveError`][xeri.IllegalMoveError] and plays nothing: read the
    mask. Made by [`vector_env`][xeri.envs.vector.vector_env].

    Attributes:
        games: the [`XeriVector`][xeri.envs.vector.XeriVector] played.
        seat: the agent's seat.
    """

    def __init__(
        self,
        rules: RuleSet = GREEK,
        num_envs: int = 1024,
        *,
        opponents: str | ArrayPolicy = "random",
        seat: int = 0,
        seed: int | None = None,
    ) -> None:
        if gymnasium is None:  # pragma: no cover - the tests run with the extra installed
            raise ImportError(
                'XeriVectorEnv needs Gymnasium, in the vector extra: pip install "xeri[vector]"'
            )
        self.games = XeriVector(rules, num_envs, seed=seed)
        if type(seat) is not int or not 0 <= seat < rules.seats:
            raise IllegalMoveError(f"seat must be an int from 0 to {rules.seats - 1}, not {seat!r}")
        if opponents == "random":
            opponents = random_policy
        if not callable(opponents):
            raise IllegalMoveError(
                f"opponents must be 'random' or a callable (observations, masks, rng) -> "
                f"actions, not {opponents!r}"
            )
        self._policy: ArrayPolicy = opponents
        self.seat = seat
        self.num_envs = num_envs
        actions = self.games.num_actions
        size = self.games.observation_size
        from xeri.envs.gymnasium import env_name  # noqa: PLC0415  # one naming rule for both

        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "name": env_name(rules)}
        self.single_observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (num_envs, size), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (num_envs, actions), dtype=np.int8),
            }
        )
        self.action_space = spaces.MultiDiscrete([actions] * num_envs)
        self._opponent_rng = np.random.default_rng(seed)

    def _to_agent(self, rewards: npt.NDArray[np.float32], ended: npt.NDArray[np.bool_]) -> None:
        """Let the opponents play until the agent is to move in every game, adding up rewards."""
        games = self.games
        while True:
            rows = np.flatnonzero(games._to_move != self.seat)
            if not len(rows):
                return
            observations = games._seen(rows)
            masks = games._hands[rows, games._to_move[rows]].astype(np.int8)
            actions = np.asarray(self._policy(observations, masks, self._opponent_rng))
            more, done = games.play(rows, actions)
            rewards[rows] += more[:, self.seat]
            ended[rows] |= done

    def _obs(self) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        games = self.games
        masks = games.masks()
        obs: dict[str, npt.NDArray[Any]] = {"observation": games.observe(), "action_mask": masks}
        return obs, {"action_mask": masks}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        """Deal every game anew and play the opponents up to the agent's first turn.

        Args:
            seed: reseeds the games' and the opponents' generators.
            options: accepted for the Gymnasium API, and ignored.

        Returns:
            The observations and the info (`action_mask`).
        """
        if seed is not None:
            self._opponent_rng = np.random.default_rng([seed, 1])
        self.games.reset(seed)
        rewards = np.zeros(self.num_envs, dtype=np.float32)
        self._to_agent(rewards, np.zeros(self.num_envs, dtype=bool))
        return self._obs()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        dict[str, npt.NDArray[Any]],
        npt.NDArray[np.float32],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """Play the agent's card in every game, then the opponents up to its next turn.

        Args:
            actions: one legal action per game.

        Returns:
            `(observations, rewards, terminated, truncated, info)`.

        Raises:
            IllegalMoveError: an action is illegal; nothing is played.
        """
        rows = np.arange(self.num_envs)
        more, ended = self.games.play(rows, actions)
        rewards = more[:, self.seat].copy()
        self._to_agent(rewards, ended)
        obs, info = self._obs()
        return obs, rewards, ended, np.zeros(self.num_envs, dtype=bool), info

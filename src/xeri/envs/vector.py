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
`float32`, one row per game, equal to the engine's. With `dtype="uint8"`
they are the same tensors in a quarter of the memory, for the speed of a
large batch: every entry of the tensor is an integer (a card, a one-hot
entry, a count of cards or of xeris) divided by its column's divisor
([`observation_divisors`][xeri.envs.vector.XeriVector.observation_divisors]:
1, 52, `hand_size` or the xeri cap), and the `uint8` observation holds the
integer; [`to_float32`][xeri.envs.vector.XeriVector.to_float32] (or
dividing by the divisors in `float32` on the learner's device) gives the
`float32` tensor exactly. Masks are `int8`, one
row of `num_actions(rules)` (52) per game, 1 at the cards in the mover's
hand. Rewards are `float32`, one row of a reward per seat: at the end of a
round each seat's side's round total minus the best total among the other
sides, 0 before.
[`sample_actions`][xeri.envs.vector.XeriVector.sample_actions] draws a
uniformly random legal action per game (a card of the mover's hand) from
hand lists the environment keeps, without reading the masks.

**The environment's own arrays.** Without face-down cards the environment
keeps the tensor and the mask of every seat of every game and writes into
them what each play changes (a few entries a game); while every game steps
together, the tensors of the seats to move are one of those arrays, and
`reset` and `step` return it, and the masks' array, themselves, not a copy.
They are valid until the next `step` or `reset`, which change them in place:
keep a copy (`observations.copy()`) of what you store across steps, or make
the environment with `copy=True` to get new arrays every time (a copy of
each array a step). `to_move`, `rewards` and `terminated` are always new
arrays, and so is what [`observe`][xeri.envs.vector.XeriVector.observe] and
[`masks`][xeri.envs.vector.XeriVector.masks] return. The kept tensors take
`seats * num_envs * observation_size` entries of the observations' dtype
(about 1 MB for 1,024 GREEK games in `uint8`, 4 MB in `float32`).

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
from xeri._core.round import counted_xeri
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, IllegalMoveError, RuleSetError, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
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
_BIT = np.left_shift(np.uint64(1), np.arange(_CARDS, dtype=np.uint64))
"""The bit of each card index: a set of cards is one `uint64`, bit `card.index` for each card."""
_NONE = np.uint64(0)
_ALL = ~np.uint64(0)
_DTYPES = ("float32", "uint8")


def _bits(cards: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """The set of the cards of each row (card indices) as one `uint64` per row."""
    if cards.shape[1] == 0:
        return np.zeros(len(cards), dtype=np.uint64)
    bits = _BIT[cards[:, 0]]
    for k in range(1, cards.shape[1]):  # column by column: a reduce along short rows is slower
        bits |= _BIT[cards[:, k]]
    return bits  # type: ignore[no-any-return]  # a uint64 array


def _shuffled(rng: np.random.Generator, rows: int, size: int) -> npt.NDArray[np.int64]:
    """A uniformly random order of `range(size)` (at most 64) for each of `rows` rows.

    Each place gets a random double, whose bits, as a `uint64`, sort as the
    double does; the lowest six bits are replaced by the place, and sorting
    the rows' integers (quicker than an argsort) gives the places in the
    order of their doubles. Two doubles that differ only in the bits
    replaced (about once in 10**11 rows of 52) keep their places' order.
    """
    keys = rng.random((rows, size)).view(np.uint64)
    keys &= ~np.uint64(63)
    keys |= np.arange(size, dtype=np.uint64)
    keys.sort(axis=1)
    keys &= np.uint64(63)
    return keys.astype(np.int64)


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
        dtype: str = "float32",
        copy: bool = False,
    ) -> None:
        """Make the games; `reset` deals them.

        Args:
            rules: a pile rule set the arrays play (see the module docstring).
            num_envs: how many games, at least 1.
            seed: seeds the generator of every deal and redeal.
            record: keep each game's chance moves and plays, for
                [`replay_moves`][xeri.envs.vector.XeriVector.replay_moves].
            dtype: `"float32"`, the observation tensors themselves, or
                `"uint8"`, the same tensors in a quarter of the memory: each
                entry the integer that, divided by its column's
                [`observation_divisors`][xeri.envs.vector.XeriVector.observation_divisors]
                in `float32`, gives the tensor's value exactly
                ([`to_float32`][xeri.envs.vector.XeriVector.to_float32]).
            copy: False (the default): `reset` and `step` may return the
                environment's own observation and mask arrays, valid until
                the next `step` or `reset` changes them in place; True: a new
                copy every time (see "The environment's own arrays" in the
                module docstring).

        Raises:
            RuleSetError: the arrays do not play `rules`; the message says why.
            ArgumentError: `num_envs` is not a positive int, `dtype` not one
                of the two, or `copy` not a bool.
        """
        problem = _refusal(rules)
        if problem is not None:
            raise RuleSetError(f"the vector environment {problem}")
        if type(num_envs) is not int or num_envs < 1:
            raise ArgumentError(f"num_envs must be a positive int, not {_show(num_envs)}")
        if dtype not in _DTYPES:
            raise ArgumentError(f"dtype must be 'float32' or 'uint8', not {_show(dtype)}")
        if type(copy) is not bool:
            raise ArgumentError(f"copy must be a bool, not {_show(copy)}")
        self.observation_dtype: np.dtype[Any] = np.dtype(dtype)
        self._compact = dtype == "uint8"
        self._copy = copy
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
        self._deck_bits = np.bitwise_or.reduce(_BIT[self._deck])
        self._points = np.array([rules.card_points.points(card) for card in DECK], dtype=np.int64)
        sweeper = rules.capture.sweeper  # type: ignore[attr-defined]  # a PileCapture
        self._sweeper = -1 if sweeper is None else sweeper.value
        self._xeri_cap = lay.xeri_cap
        self._ready = False
        b = num_envs
        # Every set of cards is one uint64 a game (bit `card.index` for each
        # card), the columns of one array: every hand, the pile, every seat's
        # plays, every side's captures and the redealt cards. A play changes
        # a few integers; `_observe` reads an observation from them whole.
        at_played = seats + 1
        at_captured = at_played + seats
        self._at_played = at_played
        self._at_captured = at_captured
        self._sets = np.zeros((b, at_captured + sides + 1), dtype=np.uint64)
        self._hands = self._sets[:, :seats]
        self._pile = self._sets[:, seats]
        self._played = self._sets[:, at_played:at_captured]
        self._captured = self._sets[:, at_captured : at_captured + sides]
        self._redealt = self._sets[:, at_captured + sides]
        self._hand_n = np.zeros((b, seats), dtype=np.int64)
        # Each hand also as a list of card indices, its first `_hand_n` entries
        # (a play moves the hand's last card into the played card's place), and
        # each card's place in its list: `sample_actions` reads one entry.
        # `int8` (a card index or a place, below 52): a play reads and writes
        # four entries of these, and small arrays keep the step quick.
        k = rules.hand_size
        self._hand_cards = np.zeros((b, seats, k), dtype=np.int8)
        self._hand_at = np.zeros((b, _CARDS), dtype=np.int8)
        self._hand_places = np.tile(np.arange(k, dtype=np.int8), seats)
        self._card_base = np.arange(b) * _CARDS
        self._pile_n = np.zeros(b, dtype=np.int64)
        self._pile_pts = np.zeros(b, dtype=np.int64)
        self._top = np.full(b, -1, dtype=np.int64)
        self._down = np.zeros(b, dtype=np.uint64)
        self._down_owner = np.full(b, -1, dtype=np.int64)
        self._order_dealt = np.zeros((b, len(self._deck)), dtype=np.int64)
        self._pos = np.zeros(b, dtype=np.int64)
        self._cap_n = np.zeros((b, sides), dtype=np.int64)
        self._cap_pts = np.zeros((b, sides), dtype=np.int64)
        self._xeris = np.zeros((b, sides), dtype=np.int64)
        self._jacks = np.zeros((b, sides), dtype=np.int64)
        self._last = np.full(b, -1, dtype=np.int64)
        self._dealer = np.zeros(b, dtype=np.int64)
        self._to_move = np.zeros(b, dtype=np.int64)
        self._turn = np.zeros(b, dtype=np.int64)
        self._seat_range = np.arange(seats)
        self._next_seat = (self._seat_range + 1) % seats
        self._all_rows = np.arange(num_envs)
        self._planes = lay.planes
        self._has_redealt = "redealt" in lay.start
        self._set_width = self._sets.shape[1]
        self._cut = lay.planes * _CARDS  # where the card planes end and the numbers begin
        self._set_base = np.arange(b) * self._set_width
        self._flat_seats = np.arange(b) * seats
        divisors = np.ones(self.observation_size, dtype=np.float32)
        for name in ("stock", "table_count", "captured_counts"):
            divisors[lay.start[name] : lay.start[name] + (sides if name[0] == "c" else 1)] = _CARDS
        at = lay.start["hand_sizes"]
        divisors[at : at + seats] = rules.hand_size
        for name in ("xeris", "jack_xeris"):
            divisors[lay.start[name] : lay.start[name] + sides] = lay.xeri_cap
        self._divisors: npt.NDArray[np.float32] = divisors
        # Whether a xeri counts on each play of the round, as the round core decides (G7, V3, P4).
        plays = rules.seats * rules.hand_size * rules.deals_per_round
        counts = [
            counted_xeri(rules, XeriKind.XERI, turn, plays - 1 - turn) for turn in range(plays)
        ]
        self._xeri_counts = np.array([kind is not None for kind in counts], dtype=bool)
        self._every_xeri_counts = bool(self._xeri_counts.all())
        # Without face-down cards every seat's tensor is kept and followed
        # entry by entry ([`_views`]); with them it is read whole each time.
        self._fast = not rules.face_down
        if self._fast:
            self._make_views()

    def _make_views(self) -> None:  # noqa: PLR0915  # the tables of every entry a play writes
        """The kept tensors of every seat of every game, and the tables that say what a play writes.

        `_views[j, game]` is the tensor of one seat of the game, in the
        observations' dtype (`uint8`: each entry times its column's
        divisor), `_view_masks[j, game]` that seat's mask (its hand). Which
        seat's tensor buffer `j` keeps is `_slot`'s choice, made when the
        game is dealt: while the games step together the seat to move of
        every game has its tensor in buffer `_phase`, so that `step` returns
        that buffer itself, and a play, which moves every game's turn to the
        next seat, moves `_phase` to the next buffer. The buffer of a seat's
        tensor holds the seat that is `(j - phase) % seats` seats after the
        mover, so that what a play writes in it is known from the phase and
        the mover alone: the tables below, one row of flat indices per
        (phase, buffer).
        """
        b = self.num_envs
        k = self._seats
        size = self.observation_size
        start = self._lay.start
        dtype = self.observation_dtype
        self._views = np.zeros((k, b, size), dtype=dtype)
        self._view_masks = np.zeros((k, b, self.num_actions), dtype=np.int8)
        self._flat_views = self._views.reshape(-1)
        self._flat_masks = self._view_masks.reshape(-1)
        self._slot = np.zeros((b, k), dtype=np.int64)  # the buffer of each seat's tensor
        self._phase = 0
        self._aligned = False
        self._pile_cards = np.zeros((b, _CARDS), dtype=np.int64)  # the pile's cards, bottom first
        self._pile_base = np.arange(b) * _CARDS
        self._card_range = np.arange(_CARDS)
        self._row_base = np.arange(b) * size
        self._mask_base = np.arange(b) * self.num_actions
        self._mask_starts = np.arange(k) * (b * self.num_actions)
        self._mask_at = self._mask_starts[:, None] + self._mask_base  # each buffer's masks, flat
        # The values of the numbers, by the integer counted: the tensor's
        # float32 value (as `observation_tensor` divides), or the integer.
        counted = np.arange(_CARDS + 1)
        hand_size = self.rules.hand_size
        cap = int(self._xeri_cap)
        if self._compact:
            self._by_hand = np.minimum(counted, 255).astype(np.uint8)
            self._by_cards = self._by_hand
            self._by_xeris = np.minimum(counted, cap).astype(np.uint8)
        else:
            self._by_hand = np.array([n / hand_size for n in counted.tolist()], dtype=np.float32)
            self._by_cards = np.array([n / _CARDS for n in counted.tolist()], dtype=np.float32)
            self._by_xeris = np.array([min(1.0, n / cap) for n in counted.tolist()], dtype=dtype)
        # A round just dealt, as every seat sees it but for the cards and the seats' one-hots.
        fresh = np.zeros(size, dtype=np.uint8)
        fresh[start["phase"] + _PLAY_PHASE] = 1
        fresh[start["hand_sizes"] : start["hand_sizes"] + k] = self.rules.hand_size
        table = self.rules.table_size
        fresh[start["stock"]] = len(self._deck) - k * self.rules.hand_size - table
        fresh[start["table_count"]] = table
        fresh[start["lone_item"]] = table == 1
        fresh[start["unknown"] + self._deck] = 1
        self._fresh = fresh if self._compact else np.divide(fresh, self._divisors, dtype=dtype)
        seat = np.arange(k)
        buffer_start = seat * (b * size)
        r = (seat[:, None] - seat[None, :]) % k  # r[phase, j]: the mover counted from j's seat
        full = np.zeros((k, k), dtype=np.int64)
        self._mover_at = r  # the mover's place in each buffer's tensor, by phase
        # What a play writes in buffer j at each phase, plus the card's
        # index: out of the hand (the mover's buffer) or of the unknown cards
        # (the others), into the mover's plays, the table's top and the table
        # (both 0 when it takes); then, plus the old top card's entry, a 0.
        own = np.where(r == 0, start["hand"], start["unknown"])
        cards = np.stack(
            [own, start["played"] + _CARDS * r, full + start["top"], full + start["table"], full],
            axis=-1,
        )
        self._card_cols = cards + buffer_start[None, :, None]  # (phase, j, 5)
        # Entries by column then game: numpy's loops run along the games.
        self._card_at = np.zeros((5, b), dtype=np.int64)
        self._card_vals = np.zeros((k, 5, b), dtype=dtype)  # the same in every buffer
        self._card_vals[:, 1] = 1
        # The numbers a play changes: the one-hot of the seat to move (old 0,
        # new 1), the mover's hand size, the table's count and whether it is
        # one card. Games stepped together write them as columns; these
        # tables are for games played apart.
        numbers = np.stack(
            [
                start["to_move"] + r,
                start["to_move"] + (r + 1) % k,
                start["hand_sizes"] + r,
                full + start["table_count"],
                full + start["lone_item"],
            ],
            axis=-1,
        )
        self._number_cols = numbers + buffer_start[None, :, None]  # (phase, j, 5)
        self._number_vals = np.zeros((k, 5, b), dtype=dtype)
        self._number_vals[:, 1] = 1
        # What a capture by seat p writes in buffer j at each phase: its
        # side's captured plane (plus the cards' indices), then the last
        # capturer's one-hot and the side's captured count, xeris and jack xeris.
        slot = np.argsort(self._order, axis=1)  # slot[v, side]: the side counted from seat v
        capture_cols = np.zeros((k, k, k), dtype=np.int64)  # (phase, p, j)
        take_cols = np.zeros((k, k, k, k + 3), dtype=np.int64)  # (phase, p, j, entry)
        for phase in range(k):
            for p in range(k):
                for j in range(k):
                    viewer = (p + j - phase) % k
                    mine = int(slot[viewer, self._side_of[p]])
                    capture_cols[phase, p, j] = buffer_start[j] + start["captured"] + _CARDS * mine
                    take_cols[phase, p, j] = buffer_start[j] + np.array(
                        [start["last_capturer"] + s for s in range(k)]
                        + [
                            start[name] + mine
                            for name in ("captured_counts", "xeris", "jack_xeris")
                        ]
                    )
        self._capture_cols = capture_cols
        self._take_cols = take_cols
        # With sides that go round with the seats (every preset), a side's
        # blocks in buffer j at a phase are the same whoever takes: the
        # captures of games stepped together are then slices of the buffers.
        self._uniform_sides = bool((take_cols == take_cols[:, :1]).all())
        self._take_one_hot = np.eye(k, dtype=dtype)[r]  # (phase, j, seats)

    # -- dealing -------------------------------------------------------------------------

    def _deal_rounds(self, rows: npt.NDArray[np.int64]) -> None:
        """Deal a new match's first round to the games `rows`: dealer, deal, redeals."""
        rules = self.rules
        rng = self._rng
        m = len(rows)
        seats = self._seats
        k = rules.hand_size
        t = rules.table_size
        dealer = rng.integers(seats, size=m)
        order = self._deck[_shuffled(rng, m, len(self._deck))]
        if self._record:
            for i, row in enumerate(rows.tolist()):
                self._log[row] = [Deal(deck=tuple(DECK[c] for c in order[i].tolist()))]
        first = seats * k
        redealt = np.zeros(m, dtype=np.uint64)
        while True:  # G4, F4: the table is dealt again until it may stand
            again = self._redeal_needed(order[:, first : first + t])
            if not again.any():
                break
            idx = np.flatnonzero(again)
            shown = order[idx, first : first + t]
            redealt[idx] |= _bits(shown)
            rest = order[idx, first:]
            order[idx, first:] = np.take_along_axis(rest, _shuffled(rng, *rest.shape), axis=1)
            if self._record:
                for i in idx.tolist():
                    stock = tuple(DECK[c] for c in order[i, first:].tolist())
                    self._log[rows[i]].append(Reshuffle(stock=stock))
        sel = slice(None) if rows is self._all_rows else rows
        self._order_dealt[sel] = order
        self._dealer[sel] = dealer
        self._redealt[sel] = redealt
        self._hands[sel] = _NONE
        self._played[sel] = _NONE
        self._captured[sel] = _NONE
        self._cap_n[sel] = 0
        self._cap_pts[sel] = 0
        self._xeris[sel] = 0
        self._jacks[sel] = 0
        self._last[sel] = -1
        self._turn[sel] = 0
        self._deal_hands(rows, dealer, np.zeros(m, dtype=np.int64))
        table = order[:, first : first + t]
        self._pile[sel] = _bits(table)
        self._pile_n[sel] = t
        self._pile_pts[sel] = self._points[table].sum(axis=1)
        self._top[sel] = table[:, -1] if t else -1
        self._down[sel] = _bits(table[:, : rules.face_down])
        self._down_owner[sel] = -1
        self._pos[sel] = first + t
        if self._fast:
            self._pile_cards[sel, :t] = table
            self._place_views(rows)

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
        self,
        rows: npt.NDArray[np.int64],
        dealer: npt.NDArray[np.int64],
        at: npt.NDArray[np.int64],
        *,
        sets: bool = True,
    ) -> npt.NDArray[np.int64]:
        """Deal `hand_size` cards to each seat from position `at` of the order, after the dealer.

        Returns each game's cards dealt, in the order of the deal. `sets`:
        write the hands' sets too (a later deal without face-down cards
        writes the kept tensors instead, [`_deal_views`]).
        """
        seats = self._seats
        k = self.rules.hand_size
        m = len(rows)
        dealt = self._order_dealt.reshape(-1)[
            (rows * len(self._deck) + at)[:, None] + np.arange(seats * k)
        ]
        if sets:
            cards = _BIT[dealt].reshape(m, seats, k)  # chunk i: the i-th seat after the dealer
            hands = cards[:, :, 0].copy()
            for i in range(1, k):  # column by column: a reduce along short rows is slower
                hands |= cards[:, :, i]
            self._hands[rows[:, None], (dealer[:, None] + 1 + self._seat_range) % seats] = hands
        sel = slice(None) if rows is self._all_rows else rows
        chunks = (dealer[:, None] + 1 + self._seat_range) % seats
        self._hand_cards[rows[:, None], chunks] = dealt.reshape(m, seats, k)
        card_base = self._card_base if rows is self._all_rows else rows * _CARDS
        self._hand_at.reshape(-1)[card_base[:, None] + dealt] = self._hand_places
        self._hand_n[sel] = k
        self._to_move[sel] = self._next_seat[dealer]
        return dealt  # type: ignore[no-any-return]  # an int64 array

    def _place_views(self, rows: npt.NDArray[np.int64]) -> None:
        """Choose the buffers of the games `rows` just dealt and write their seats' tensors whole.

        The seat to move gets buffer `_phase`, the next seat the next buffer,
        and so on (see [`_make_views`]).
        """
        k = self._seats
        b = self.num_envs
        m = len(rows)
        start = self._lay.start
        sel = slice(None) if rows is self._all_rows else rows
        off = (self._to_move[sel] - self._phase) % k
        slot = (self._seat_range - off[:, None]) % k
        self._slot[sel] = slot
        views = self._views
        views[:, sel] = self._fresh
        # The table and the redealt cards, then each seat's hand and unknown cards.
        sets = np.empty((m, 2 + 2 * k), dtype=np.uint64)
        pile = self._pile[sel]
        hands = self._hands[sel]
        sets[:, 0] = pile
        sets[:, 1] = self._redealt[sel]
        sets[:, 2 : 2 + k] = hands
        sets[:, 2 + k :] = self._deck_bits & ~pile[:, None] & ~hands
        little = sets.astype("<u8", copy=False).view(np.uint8)  # bit `card.index` of byte order
        bits = np.unpackbits(little.reshape(-1), bitorder="little").reshape(m, 2 + 2 * k, 64)
        bits = bits[:, :, :_CARDS]
        table = start["table"]
        views[:, sel, table : table + _CARDS] = bits[:, 0]
        if self._has_redealt:
            views[:, sel, start["redealt"] : start["redealt"] + _CARDS] = bits[:, 1]
        hand = start["hand"]
        unknown = start["unknown"]
        for seat in range(k):
            at = slot[:, seat]
            views[at, rows, hand : hand + _CARDS] = bits[:, 2 + seat]
            views[at, rows, unknown : unknown + _CARDS] = bits[:, 2 + k + seat]
            self._view_masks[at, rows] = bits[:, 2 + seat]
        base = slot * (b * self.observation_size) + self._row_base[sel][:, None]
        flat = self._flat_views
        flat[base + start["to_move"] + (self._to_move[sel][:, None] - self._seat_range) % k] = 1
        flat[base + start["dealer"] + (self._dealer[sel][:, None] - self._seat_range) % k] = 1
        if self.rules.table_size:
            flat[base + start["top"] + self._top[sel][:, None]] = 1

    def _deal_views(
        self,
        rows: npt.NDArray[np.int64],
        dealer: npt.NDArray[np.int64],
        dealt: npt.NDArray[np.int64],
    ) -> None:
        """Write a later deal (G8) into the kept tensors and masks: hands, their sizes, stock.

        `dealt` is each game's cards dealt, in the order of the deal.
        """
        k = self._seats
        b = self.num_envs
        hand_size = self.rules.hand_size
        start = self._lay.start
        m = len(rows)
        chunks = (dealer[:, None] + 1 + self._seat_range) % k  # the seat of each hand dealt
        j = np.take_along_axis(self._slot[rows], chunks, axis=1)  # its tensor's buffer
        cards = dealt.reshape(m, k, hand_size)
        mine = (j * (b * self.observation_size) + self._row_base[rows][:, None])[:, :, None]
        mine = mine + cards
        flat = self._flat_views
        flat[mine + start["hand"]] = 1
        flat[mine + start["unknown"]] = 0  # the seat knows its own cards
        masks = (j * (b * self.num_actions) + self._mask_base[rows][:, None])[:, :, None]
        self._flat_masks[masks + cards] = 1
        sel = slice(None) if rows is self._all_rows else rows
        views = self._views
        views[:, sel, start["hand_sizes"] : start["hand_sizes"] + k] = self._by_hand[hand_size]
        views[:, sel, start["stock"]] = self._by_cards[len(self._deck) - self._pos[sel]]

    # -- the public steps ----------------------------------------------------------------

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8], npt.NDArray[np.int64]]:
        """Deal a new match's first round in every game.

        Args:
            seed: reseeds the generator; None continues it.

        Returns:
            `(observations, masks, to_move)`: the observation and the action
            mask of each game's seat to move, and that seat (the first two
            valid until the next `step` or `reset`, as `step` says).
        """
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        rows = self._all_rows
        self._phase = 0
        self._aligned = True
        self._deal_rounds(rows)
        self._ready = True
        return (*self._seen_masks(rows), self._to_move.copy())

    def masks(self) -> npt.NDArray[np.int8]:
        """The action mask of each game's seat to move: 1 at the cards of its hand.

        Returns:
            An `int8` array of shape `(num_envs, num_actions)`.
        """
        return self._masks(self._all_rows)

    def sample_actions(self, rng: np.random.Generator | None = None) -> npt.NDArray[np.int64]:
        """A uniformly random legal action of each game's seat to move: a card of its hand.

        Each game's action is drawn uniformly among the cards the seat to move
        holds, its legal actions (as Gymnasium's `action_space.sample(mask)`
        draws among a mask's actions), from the environment's list of each
        hand: one random double and one entry read a game, no mask scanned
        (the place in the hand is the integer part of the double times the
        hand's size, so each card's chance is 1/n to within 2**-53). Only
        the mover's own hand is read.

        Args:
            rng: the generator to draw from; None (the default): the
                environment's own, the one its deals draw from.

        Returns:
            One action per game, an `int64` array of shape `(num_envs,)`,
            legal for `step`.

        Raises:
            IllegalMoveError: `reset` has not been called.
        """
        if not self._ready:
            raise IllegalMoveError("the games are not dealt yet: call reset first")
        return self._sample(self._all_rows, self._rng if rng is None else rng)

    def _sample(
        self, rows: npt.NDArray[np.int64], rng: np.random.Generator
    ) -> npt.NDArray[np.int64]:
        """A uniformly random card of the hand of the seat to move in each of the games `rows`."""
        if rows is self._all_rows:
            at = self._flat_seats + self._to_move
        else:
            at = rows * self._seats + self._to_move[rows]
        held = self._hand_n.reshape(-1)[at]
        # u < 1 and `held` an int (at most 52): u * held rounds to below `held`,
        # and its integer part is one of the hand's places.
        u = rng.random(len(rows))
        u *= held
        place = u.astype(np.int64)
        place += at * self.rules.hand_size
        return self._hand_cards.reshape(-1)[place].astype(np.int64)

    def _masks(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        """The action masks of the seats to move in the games `rows` (a new array)."""
        if self._fast:
            return np.array(self._seen_masks(rows)[1])
        if rows is self._all_rows:
            hands = np.take_along_axis(self._hands, self._to_move[:, None], axis=1)
        else:
            hands = self._hands[rows, self._to_move[rows]]
        little = hands.astype("<u8", copy=False).view(np.uint8)  # bit `card.index` of byte order
        bits = np.unpackbits(little.reshape(len(rows), 8), axis=1, bitorder="little")
        return bits[:, : self.num_actions].astype(np.int8)

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
            been dealt again and its row shows the next episode. The
            observations and masks may be the environment's own arrays,
            valid until the next `step` or `reset` (see "The environment's
            own arrays" in the module docstring; `copy=True` copies them).

        Raises:
            IllegalMoveError: `reset` has not been called, or an action is illegal
                (nothing is played then).
            ArgumentError: the actions are not one int per game from 0 to 51.
        """
        rows = self._all_rows
        rewards, ended = self.play(rows, actions)
        obs, masks = self._seen_masks(rows)
        return obs, masks, self._to_move.copy(), rewards, ended

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
            raise ArgumentError(f"actions must be {len(rows)} ints, one per game")
        cards = cards.astype(np.int64, copy=False)
        if cards.view(np.uint64).max(initial=0) >= _CARDS:  # a negative int is a large uint64
            raise ArgumentError(f"an action is an int from 0 to {_CARDS - 1}")
        every = rows is self._all_rows
        seat = self._to_move.copy() if every else self._to_move[rows]
        phase: int | npt.NDArray[np.int64] = 0
        mask_at = cards
        if self._fast:  # the mover's kept mask says what it holds
            if every and self._aligned:
                phase = self._phase
                mask_at = self._mask_at[phase] + cards
            else:
                phase = self._slot[rows, seat]
                mask_at = self._mask_starts[phase] + self._mask_base[rows] + cards
            held = self._flat_masks[mask_at]
        else:
            at_hand = (self._set_base if every else rows * self._set_width) + seat
            held = self._sets.reshape(-1)[at_hand] & _BIT[cards]
        if not held.all():
            bad = int(np.flatnonzero(held == 0)[0])
            raise IllegalMoveError(
                f"action {int(cards[bad])} of game {int(rows[bad])} is not legal: "
                "the card is not in the hand of the seat to move"
            )
        if self._record:
            for row, card in zip(rows.tolist(), cards.tolist(), strict=True):
                self._log[row].append(DECK[card])
        return self._play(rows, seat, cards, phase, mask_at)

    def _play(  # noqa: PLR0915  # the clauses in the order the engine applies them reads best flat
        self,
        rows: npt.NDArray[np.int64],
        seat: npt.NDArray[np.int64],
        cards: npt.NDArray[np.int64],
        phase: int | npt.NDArray[np.int64],
        mask_at: npt.NDArray[np.int64],
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """The rules of G5-G9 on arrays: play each card, capture, deal again or end the round.

        `phase` is the buffer of each mover's kept tensor (see `_make_views`),
        `mask_at` where the card is in its kept mask, flat.
        With face-down cards the sets of cards are kept for `_observe`;
        without, the kept tensors follow the play and the sets are the deal's.
        """
        rules = self.rules
        seats = self._seats
        fast = self._fast
        # All the games: slices read and write in place, without gathering copies.
        every = rows is self._all_rows
        sel: npt.NDArray[np.int64] | slice = slice(None) if every else rows
        if not fast:
            bit = _BIT[cards]
            sets = self._sets.reshape(-1)
            at_hand = (self._set_base if every else rows * self._set_width) + seat
            sets[at_hand] &= ~bit
            sets[at_hand + self._at_played] |= bit  # the seat's plays, `_played`
        at_n = (self._flat_seats if every else rows * seats) + seat
        hand_n = self._hand_n.reshape(-1)
        hand_left = hand_n[at_n] - 1
        hand_n[at_n] = hand_left
        # The hand's list: its last card takes the played card's place.
        card_base = self._card_base if every else rows * _CARDS
        hand_at = self._hand_at.reshape(-1)
        place = hand_at[card_base + cards]
        at_list = at_n * rules.hand_size
        hand_cards = self._hand_cards.reshape(-1)
        moved = hand_cards[at_list + hand_left]
        hand_cards[at_list + place] = moved
        hand_at[card_base + moved] = place
        rank = _RANK[cards]
        pile_n = self._pile_n[sel]  # all games: a view, read before it is written
        top = self._top[sel]
        nonempty = pile_n > 0
        same = rank == _RANK[top]
        same &= nonempty
        take = rank == self._sweeper
        take &= nonempty
        take |= same
        dealer = self._dealer[sel]
        points = self._points[cards]
        if fast:  # the card joins the pile's list; the old top's entry, for the kept tensors
            at_pile = (self._pile_base if every else rows * _CARDS) + pile_n
            self._pile_cards.reshape(-1)[at_pile] = cards
            start = self._lay.start
            old_top = np.where(top >= 0, top + start["top"], cards + start["hand"])
        taken = np.flatnonzero(take)
        t_rows: npt.NDArray[np.int64] | None = None
        if len(taken):
            t_rows = taken if every else rows[taken]
            t_seat = seat[taken]
            t_side = self._side_of[t_seat]
            t_pile_n = pile_n[taken]
            # The side's entries in the flat (game, side) arrays.
            at_side = t_rows * self._sides + t_side
            if not fast:
                at_cap = t_rows * self._set_width + (self._at_captured + t_side)
                sets[at_cap] |= self._pile[t_rows] | bit[taken]
            self._cap_n.reshape(-1)[at_side] += t_pile_n + 1
            self._cap_pts.reshape(-1)[at_side] += self._pile_pts[t_rows] + points[taken]
            xeri = same[taken] & (t_pile_n == 1)
            if not self._every_xeri_counts:  # the round core's decision for each play (G7, V3, P4)
                xeri &= self._xeri_counts[self._turn[t_rows]]
            if xeri.any():
                self._xeris.reshape(-1)[at_side] += xeri
                jack = xeri & (rank[taken] == self._sweeper)
                self._jacks.reshape(-1)[at_side] += jack
            self._last[t_rows] = t_seat
            if rules.face_down:
                first = self._down_owner[t_rows] < 0
                self._down_owner[t_rows[first]] = t_seat[first]
        keep = ~take
        if not fast:
            pile = self._pile
            pile[sel] = np.where(take, _NONE, pile[sel] | bit)
        new_pile_n = pile_n + 1
        new_pile_n *= keep
        self._pile_n[sel] = new_pile_n
        self._pile_pts[sel] = np.where(take, 0, self._pile_pts[sel] + points)
        self._top[sel] = np.where(take, -1, cards)
        if not self._every_xeri_counts:  # the plays of the round, for the round core's decision
            self._turn[sel] += 1
        self._to_move[sel] = self._next_seat[seat]
        if fast:
            self._follow(rows, phase, cards, hand_left, new_pile_n, keep, old_top)
            self._flat_masks[mask_at] = 0
            if t_rows is not None:
                t_phase = phase if isinstance(phase, int) else phase[taken]
                self._follow_capture(t_rows, t_phase, t_seat, t_side, t_pile_n, cards[taken])
            if isinstance(phase, int):
                self._phase = (phase + 1) % seats  # every seat to move is one seat on
            else:
                self._aligned = False
        rewards = np.zeros((len(rows), seats), dtype=np.float32)
        ended = np.zeros(len(rows), dtype=bool)
        if not hand_left.all():  # a hand is empty: has the dealer played its last card?
            self._deal_or_end(rows, sel, seat, dealer, hand_left, rewards, ended)
        return rewards, ended

    def _deal_or_end(  # noqa: PLR0917  # internal: the play's arrays
        self,
        rows: npt.NDArray[np.int64],
        sel: npt.NDArray[np.int64] | slice,
        seat: npt.NDArray[np.int64],
        dealer: npt.NDArray[np.int64],
        hand_left: npt.NDArray[np.int64],
        rewards: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
    ) -> None:
        """G8-G10 for the games whose dealer has just played its last card: deal again or score."""
        rules = self.rules
        seats = self._seats
        dealt_out = hand_left == 0
        dealt_out &= seat == dealer
        if dealt_out.any():
            stock_n = len(self._deck) - self._pos[sel]
            again = dealt_out & (stock_n > 0)
            if again.any():  # G8: the same dealer deals again, the seat after it leads
                a_rows = rows if rows is self._all_rows and again.all() else rows[again]
                at = self._pos[a_rows]
                dealt = self._deal_hands(a_rows, dealer[again], at, sets=not self._fast)
                self._pos[a_rows] = at + seats * rules.hand_size
                if self._fast:
                    self._deal_views(a_rows, dealer[again], dealt)
            over = dealt_out & (stock_n == 0)
            if over.any():
                o_rows = rows if rows is self._all_rows and over.all() else rows[over]
                margins = self._score(o_rows)
                rewards[over] = margins
                ended[over] = True
                if self._record:
                    for i, row in enumerate(o_rows.tolist()):
                        self._finished[row].append(
                            (int(self._dealer[row]), self._log[row], tuple(margins[i].tolist()))
                        )
                self._deal_rounds(o_rows)

    def _follow(  # noqa: PLR0917  # internal: the play's arrays
        self,
        rows: npt.NDArray[np.int64],
        phase: int | npt.NDArray[np.int64],
        cards: npt.NDArray[np.int64],
        hand_left: npt.NDArray[np.int64],
        pile_n: npt.NDArray[np.int64],
        keep: npt.NDArray[np.bool_],
        old_top: npt.NDArray[np.int64],
    ) -> None:
        """Write one play into the kept tensors of every seat (`_play` writes the mask).

        `phase` is the buffer of the mover's tensor: one for all the games
        stepped together (the numbers are then columns of the buffers), else
        one per game.
        """
        m = len(rows)
        every = rows is self._all_rows
        row_base = self._row_base if every else self._row_base[rows]
        at = self._card_at[:, :m]
        at[:4] = row_base + cards
        at[4] = row_base + old_top
        values = self._card_vals[:, :, :m]
        values[:, 2:4] = keep  # the top and the table, unless it takes
        flat = self._flat_views
        start = self._lay.start
        if isinstance(phase, int):
            flat[self._card_cols[phase][:, :, None] + at] = values
            views = self._views
            to_move = start["to_move"]
            hand_sizes = start["hand_sizes"]
            by_hand = self._by_hand[hand_left]
            after = self._take_one_hot[(phase + 1) % self._seats]  # the next mover, from j
            for j, mover in enumerate(self._mover_at[phase].tolist()):
                views[j, :, to_move : to_move + self._seats] = after[j]
                views[j, :, hand_sizes + mover] = by_hand
            views[:, :, start["table_count"]] = self._by_cards[pile_n]
            views[:, :, start["lone_item"]] = pile_n == 1
        else:
            flat[np.transpose(self._card_cols[phase], (1, 2, 0)) + at] = values
            numbers = self._number_vals[:, :, :m]
            numbers[:, 2] = self._by_hand[hand_left]
            numbers[:, 3] = self._by_cards[pile_n]
            numbers[:, 4] = pile_n == 1
            flat[np.transpose(self._number_cols[phase], (1, 2, 0)) + row_base] = numbers

    def _follow_capture(  # noqa: PLR0917  # internal: the capture's arrays
        self,
        rows: npt.NDArray[np.int64],
        phase: int | npt.NDArray[np.int64],
        seat: npt.NDArray[np.int64],
        side: npt.NDArray[np.int64],
        pile_n: npt.NDArray[np.int64],
        cards: npt.NDArray[np.int64],
    ) -> None:
        """Write the captures of the games `rows` into their kept tensors.

        `phase` as for `_follow`; `pile_n` is the count of the pile taken
        (the card played not included), `cards` the card played.
        """
        k = self._seats
        flat = self._flat_views
        if isinstance(phase, int) and self._uniform_sides:
            self._follow_captures_together(rows, phase, seat, side, cards)
            return
        length = int(pile_n.max()) + 1
        taken = self._pile_cards[rows, :length]  # the pile, then the card played
        taken = np.where(self._card_range[:length] > pile_n[:, None], cards[:, None], taken)
        table = self._lay.start["table"]
        self._views[:, rows, table : table + _CARDS] = 0
        row_base = self._row_base[rows]
        planes = self._capture_cols[phase, seat] + row_base[:, None]
        flat[planes[:, :, None] + taken[:, None, :]] = 1
        idx = self._take_cols[phase, seat] + row_base[:, None, None]
        values = np.empty(idx.shape, dtype=self.observation_dtype)
        values[:, :, :k] = self._take_one_hot[phase]
        values[:, :, k] = self._by_cards[self._cap_n[rows, side]][:, None]
        values[:, :, k + 1] = self._by_xeris[self._xeris[rows, side]][:, None]
        values[:, :, k + 2] = self._by_xeris[self._jacks[rows, side]][:, None]
        flat[idx] = values

    def _follow_captures_together(
        self,
        rows: npt.NDArray[np.int64],
        phase: int,
        seat: npt.NDArray[np.int64],
        side: npt.NDArray[np.int64],
        cards: npt.NDArray[np.int64],
    ) -> None:
        """`_follow_capture` for games stepped together, with sides that go round with the seats.

        The table plane (the pile, every card face up) is added to the
        side's captured plane, then cleared; the card played and the
        numbers are written as columns of each buffer.
        """
        k = self._seats
        views = self._views
        start = self._lay.start
        table = start["table"]
        size = self.observation_size
        buffers = self.num_envs * size
        cols = self._take_cols[phase, 0]  # (buffer, entry): the same for every seat that takes
        planes = self._capture_cols[phase, 0]
        pile = views[0, rows, table : table + _CARDS]  # the same in every buffer
        for j in range(k):
            at = int(planes[j]) - j * buffers
            views[j, rows, at : at + _CARDS] += pile
        views[:, rows, table : table + _CARDS] = 0
        self._flat_views[planes[:, None] + (self._row_base[rows] + cards)] = 1
        last = start["last_capturer"]
        views[:, rows, last : last + k] = self._take_one_hot[phase][:, None, :]
        at_side = rows * self._sides + side
        counts = self._by_cards[self._cap_n.reshape(-1)[at_side]]
        xeris = self._by_xeris[self._xeris.reshape(-1)[at_side]]
        jacks = self._by_xeris[self._jacks.reshape(-1)[at_side]]
        for j in range(k):
            at = cols[j, k:] - j * buffers
            views[j, rows, at[0]] = counts
            views[j, rows, at[1]] = xeris
            views[j, rows, at[2]] = jacks

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

    def observe(self, rows: npt.NDArray[np.int64] | None = None) -> npt.NDArray[Any]:
        """The observation of the seat to move in the games `rows` (all games by default).

        Args:
            rows: the games; None for all of them.

        Returns:
            A new array of the env's `observation_dtype`, one observation per row.
        """
        if rows is None:
            rows = self._all_rows
        return np.array(self._seen(rows))

    @property
    def observation_divisors(self) -> npt.NDArray[np.float32]:
        """What each column of a `uint8` observation is divided by to give the tensor's value.

        1 for the card planes and the one-hot blocks, 52 for the counts of
        cards (stock, table, captured), `hand_size` for the hand sizes, the
        layout's cap for the xeri counts. A new `float32` array of
        `observation_size` entries.
        """
        return self._divisors.copy()  # type: ignore[no-any-return]  # a float32 array

    def to_float32(self, observations: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The observation tensors of `uint8` observations: each column divided by its divisor.

        The division is done in `float32`, and gives the values of
        [`observation_tensor`][xeri.observation_tensor] exactly (the tests
        compare them).

        Args:
            observations: `uint8` observations of this env, one per row (or one alone).

        Returns:
            A new `float32` array of the same shape.

        Raises:
            ArgumentError: the array is not `uint8` or its rows not `observation_size` long.
        """
        array = np.asarray(observations)
        if array.dtype != np.uint8 or array.shape[-1:] != (self.observation_size,):
            raise ArgumentError(
                f"to_float32 takes uint8 observations of {self.observation_size} entries a row,"
                f" not a {array.dtype} array of shape {array.shape}"
            )
        return np.divide(array, self._divisors, dtype=np.float32)  # type: ignore[no-any-return]  # a float32 array

    def _seen(self, rows: npt.NDArray[np.int64]) -> npt.NDArray[Any]:
        """The observations of the seats to move in the games `rows`: two gathers, or read whole."""
        return self._seen_masks(rows)[0]

    def _seen_masks(
        self, rows: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.int8]]:
        """The observations (in the env's dtype) and the action masks of the movers in `rows`.

        All the games stepped together: the kept buffer itself (a copy with
        `copy=True`); otherwise a gather of each game's mover's buffer, or,
        with face-down cards, the tensors read whole.
        """
        if not self._fast:
            seen = self._observe(rows)
            if self._compact:
                seen = np.rint(seen * self._divisors).astype(np.uint8)
            return seen, self._masks(rows)
        if rows is self._all_rows and self._aligned:
            seen, masks = self._views[self._phase], self._view_masks[self._phase]
            if self._copy:
                return seen.copy(), masks.copy()
            return seen, masks
        slot = self._slot[rows, self._to_move[rows]]
        return self._views[slot, rows], self._view_masks[slot, rows]

    def _spread(
        self, planes: npt.NDArray[np.uint64], out: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.uint8]:
        """Write the card planes (one `uint64` each, one row per game) into the tensors `out`.

        Returns the planes' bits, shape `(games, planes, 64)`.
        """
        m, count = planes.shape
        little = planes.astype("<u8", copy=False).view(np.uint8)  # bit `card.index` of byte order
        bits = np.unpackbits(little, axis=1, bitorder="little").reshape(m, count, 64)
        out[:, : count * _CARDS].reshape(m, count, _CARDS)[...] = bits[:, :, :_CARDS]
        return bits

    def _observe(  # noqa: PLR0915  # block by block, as observation_tensor
        self, rows: npt.NDArray[np.int64], me: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.float32]:
        """Each game's `observation_tensor(observe(state, me))`, for the games `rows`, read whole.

        With face-down cards only, where the sets of cards are kept (without
        them the kept tensors are followed instead). `me` defaults to each
        game's seat to move. The card planes are made as one `uint64` each,
        in the tensor's order, and spread out at once.
        """
        rules = self.rules
        start = self._lay.start
        m = len(rows)
        seats = self._seats
        sides = self._sides
        every = rows is self._all_rows
        sel: npt.NDArray[np.int64] | slice = slice(None) if every else rows
        to_move = self._to_move[sel]
        if me is None:
            me = to_move
        ar = np.arange(m)
        rel = (me[:, None] + self._seat_range) % seats  # (games, seats): seats counted from me
        side_order = self._order[me]  # (games, sides): sides counted from me
        planes = np.empty((m, self._planes), dtype=np.uint64)
        hand = np.take_along_axis(self._hands[sel], me[:, None], axis=1)[:, 0]
        table = self._pile[sel]
        if rules.face_down:
            down = self._down[sel]
            owner = self._down_owner[sel]
            unseen_down = np.where(owner < 0, down, _NONE)
            table = table & ~unseen_down
        top = self._top[sel]
        top_bit = np.where(top >= 0, _BIT[np.maximum(top, 0)], _NONE) & table
        captured = np.take_along_axis(self._captured[sel], side_order, axis=1)
        if rules.face_down:
            hide = (owner >= 0) & (owner != me)
            captured &= np.where(hide, ~down, _ALL)[:, None]
        planes[:, 0] = hand
        planes[:, 1] = table
        planes[:, 2] = top_bit
        at = 3
        planes[:, at : at + seats] = np.take_along_axis(self._played[sel], rel, axis=1)
        at += seats
        planes[:, at : at + sides] = captured
        at += sides
        seen = hand | table | np.bitwise_or.reduce(captured, axis=1)
        planes[:, at] = self._deck_bits & ~seen
        if self._has_redealt:
            planes[:, at + 1] = self._redealt[sel]
        cut = self._cut
        out = np.empty((m, self.observation_size), dtype=np.float32)
        self._spread(planes, out)
        out[:, cut:] = 0.0
        out[ar, start["to_move"] + (to_move - me) % seats] = 1.0
        out[ar, start["dealer"] + (self._dealer[sel] - me) % seats] = 1.0
        last = self._last[sel]
        has = last >= 0
        out[ar[has], start["last_capturer"] + ((last - me) % seats)[has]] = 1.0
        out[:, start["phase"] + _PLAY_PHASE] = 1.0
        at = start["hand_sizes"]
        out[:, at : at + seats] = (
            np.take_along_axis(self._hand_n[sel], rel, axis=1) / rules.hand_size
        )
        out[:, start["stock"]] = (len(self._deck) - self._pos[sel]) / _CARDS
        pile_n = self._pile_n[sel]
        out[:, start["table_count"]] = pile_n / _CARDS
        out[:, start["lone_item"]] = pile_n == 1
        if rules.face_down:
            out[:, start["face_down"]] = unseen_down != 0
        cap = self._xeri_cap
        at = start["captured_counts"]
        out[:, at : at + sides] = np.take_along_axis(self._cap_n[sel], side_order, axis=1) / _CARDS
        at = start["xeris"]
        xeris = np.take_along_axis(self._xeris[sel], side_order, axis=1)
        out[:, at : at + sides] = np.minimum(1.0, xeris / cap)
        at = start["jack_xeris"]
        jacks = np.take_along_axis(self._jacks[sel], side_order, axis=1)
        out[:, at : at + sides] = np.minimum(1.0, jacks / cap)
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
    dtype: str = "float32",
) -> XeriVectorEnv:
    """A Gymnasium `VectorEnv` of one learning seat against an array policy.

    Args:
        rules: a pile rule set the arrays play.
        num_envs: how many games.
        opponents: `"random"` (a uniformly random card of the hand, from
            the games' own sampler, as
            [`sample_actions`][xeri.envs.vector.XeriVector.sample_actions]
            draws, with the opponents' generator) or an
            [`ArrayPolicy`][xeri.envs.vector.ArrayPolicy], playing every other seat.
        seat: the agent's seat.
        seed: the generator's seed (also `reset(seed=...)`).
        dtype: the observations' dtype, `"float32"` or `"uint8"` (see
            [`XeriVector`][xeri.envs.vector.XeriVector]); the opponents'
            policy sees the same.

    Returns:
        A new [`XeriVectorEnv`][xeri.envs.vector.XeriVectorEnv].

    Raises:
        RuleSetError: the arrays do not play `rules`.
        ArgumentError: an argument is not one of its values.
    """
    return XeriVectorEnv(rules, num_envs, opponents=opponents, seat=seat, seed=seed, dtype=dtype)


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

    Observations are dicts of `observation` (`float32`, `(num_envs, size)`;
    `uint8` with `dtype="uint8"`) and `action_mask` (`int8`, `(num_envs, 52)`), the mask also in
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
        dtype: str = "float32",
    ) -> None:
        if gymnasium is None:  # pragma: no cover - the tests run with the extra installed
            raise ImportError(
                'XeriVectorEnv needs Gymnasium, in the vector extra: pip install "xeri[vector]"'
            )
        self.games = XeriVector(rules, num_envs, seed=seed, dtype=dtype, copy=True)
        if type(seat) is not int or not 0 <= seat < rules.seats:
            raise ArgumentError(
                f"seat must be an int from 0 to {rules.seats - 1}, not {_show(seat)}"
            )
        self._sampled = opponents == "random"
        if self._sampled:
            opponents = random_policy
        if not callable(opponents):
            raise ArgumentError(
                f"opponents must be 'random' or a callable (observations, masks, rng) -> "
                f"actions, not {_show(opponents)}"
            )
        self._policy: ArrayPolicy = opponents
        self.seat = seat
        self.num_envs = num_envs
        actions = self.games.num_actions
        size = self.games.observation_size
        from xeri.envs.gymnasium import env_name  # noqa: PLC0415  # one naming rule for both

        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "name": env_name(rules)}
        single: spaces.Box[Any]
        batch: spaces.Box[Any]
        if dtype == "uint8":  # each column up to its divisor
            high = self.games.observation_divisors.astype(np.uint8)
            single = spaces.Box(np.zeros_like(high), high, dtype=np.uint8)
            batch = spaces.Box(
                np.zeros((num_envs, size), np.uint8), np.tile(high, (num_envs, 1)), dtype=np.uint8
            )
        else:
            single = spaces.Box(0.0, 1.0, (size,), dtype=np.float32)
            batch = spaces.Box(0.0, 1.0, (num_envs, size), dtype=np.float32)
        self.single_observation_space = spaces.Dict(
            {"observation": single, "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8)}
        )
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict(
            {
                "observation": batch,
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
            if self._sampled:  # "random": the games' own sampler, no observation needed
                actions = games._sample(rows, self._opponent_rng)
            else:
                observations, masks = games._seen_masks(rows)
                actions = np.asarray(self._policy(observations, masks, self._opponent_rng))
            more, done = games.play(rows, actions)
            rewards[rows] += more[:, self.seat]
            ended[rows] |= done

    def _obs(self) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
        observations, masks = self.games._seen_masks(self.games._all_rows)
        obs: dict[str, npt.NDArray[Any]] = {"observation": observations, "action_mask": masks}
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
        rows = self.games._all_rows
        more, ended = self.games.play(rows, actions)
        rewards = more[:, self.seat].copy()
        self._to_agent(rewards, ended)
        obs, info = self._obs()
        return obs, rewards, ended, np.zeros(self.num_envs, dtype=bool), info

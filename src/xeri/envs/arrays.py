"""Observation tensors and action masks as NumPy arrays, straight from a state.

Needs the `numpy` extra (`pip install "xeri[numpy]"`); importing this module
without NumPy raises an `ImportError` naming the extra. The environments
build every observation with it.

[`observation_array`][xeri.envs.arrays.observation_array] is
`numpy.asarray(observation_tensor(observe(state, seat)), dtype=numpy.float32)`,
value for value, in a few microseconds: the state is read once into one
52-bit integer per card plane (kept and extended from move to move while a
round goes on) and the planes are spread with `numpy.unpackbits`. The plain
Python [`observation_tensor`][xeri.observation_tensor] stays the reference,
and the tests compare the two on every state of random games of every preset.
[`action_mask_array`][xeri.envs.arrays.action_mask_array] is the
[`action_mask`][xeri.action_mask] of a seat as an `int8` array.

Examples:
    >>> import random, numpy, xeri
    >>> from xeri.envs.arrays import observation_array
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(5))
    >>> tensor = observation_array(state, 1)
    >>> tensor.dtype, tensor.shape == xeri.observation_shape(xeri.GREEK)
    (dtype('float32'), True)
    >>> expected = xeri.observation_tensor(xeri.observe(state, 1))
    >>> bool((tensor == numpy.asarray(expected, dtype=numpy.float32)).all())
    True
"""

from __future__ import annotations

from typing import Any

from xeri._agents.actions import action_mask, num_actions
from xeri._agents.features import _PHASE_INDEX, _Layout, _layout, _match_numbers, seat_parts
from xeri._core.state import GameState, Phase, Take
from xeri._errors import IllegalMoveError
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._rules.ruleset import RuleSet

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError('xeri.envs.arrays needs the numpy extra: pip install "xeri[numpy]"') from exc

__all__ = ["TensorTracker", "action_mask_array", "observation_array"]

_CARDS = 52
_ENDED = (Phase.ROUND_OVER, Phase.MATCH_OVER)
_BITS = np.dtype("<u8")  # little-endian: bit `card.index` of a plane is its byte's bit


def _one_play_after(prev: GameState, state: GameState) -> bool:
    """True when `state` is the state after one play of `prev`, not of another deal.

    The caller checked that the plays of `state` are those of `prev` and one
    more. Two deals can share their plays (a resampled state, another game
    of the rule set): what the tracker keeps of `prev` (every hand, the
    table's order, the captures, the redealt tables, the results) must be
    what `state` was one play before, or the state is read whole. Identical
    parts (the engine keeps what a play does not change) compare at once.
    """
    if state.dealer != prev.dealer:
        return False
    takes, before = state.takes, prev.takes
    if takes is not before and takes[: len(before)] != before:
        return False
    if state.redealt is not prev.redealt and state.redealt != prev.redealt:
        return False
    if state.bottom_card != prev.bottom_card:
        return False
    mover: int = prev.to_move  # type: ignore[assignment]  # a play: a seat was to move
    card = state.history[-1]
    cards = prev.hands[mover]
    if card not in cards:
        return False
    if len(takes) == len(before) and state.table[:-1] != prev.table:
        return False  # the card laid on another table
    stock = state.stock
    if len(stock) != len(prev.stock):  # G8: every hand dealt again, read from `state`
        return True
    if stock is not prev.stock and stock != prev.stock:
        return False
    after = state.hands
    at = cards.index(card)
    if after[mover] != cards[:at] + cards[at + 1 :]:  # the engine keeps a hand's order
        return False
    for seat, hand in enumerate(prev.hands):
        if seat != mover and after[seat] is not hand and after[seat] != hand:
            return False
    return True


def _check(state: object, seat: object, function: str) -> GameState:
    if type(state) is not GameState:
        raise IllegalMoveError(f"{function} needs a GameState, not {type(state).__name__}")
    seats = state.rules.seats
    if type(seat) is not int or not 0 <= seat < seats:
        raise IllegalMoveError(f"seat must be an int from 0 to {seats - 1}, not {seat!r}")
    return state


def observation_array(
    state: GameState, seat: int, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """The observation tensor of a seat as a `float32` array, built from the state.

    Args:
        state: a state.
        seat: the observing seat.
        out: an array of shape `observation_shape(state.rules)` and dtype
            `float32` to fill (a row of a batch, say); None for a new one.

    Returns:
        `out`, or a new array: equal to the seat's
        [`observation_tensor`][xeri.observation_tensor], hiding what it hides
        ([X2][rules-x2]).

    Raises:
        IllegalMoveError: `state` is not a state, or `seat` not one of its seats.
    """
    _check(state, seat, "observation_array")
    return _fill(state, seat, out)


def _fill(
    state: GameState, seat: int, out: npt.NDArray[np.float32] | None = None
) -> npt.NDArray[np.float32]:
    """`observation_array` without the checks, for the environments' trusted calls."""
    planes, numbers = seat_parts(state, seat)
    cut = len(planes) * _CARDS
    if out is None:
        out = np.empty(cut + len(numbers), dtype=np.float32)
    bits = np.unpackbits(np.array(planes, dtype=_BITS).view(np.uint8), bitorder="little")
    out[:cut] = bits.reshape(len(planes), 64)[:, :_CARDS].reshape(-1)
    out[cut:] = numbers
    return out


def action_mask_array(state: GameState, seat: int | None = None) -> npt.NDArray[np.int8]:
    """The legal actions of the seat to move as an `int8` array: 1 where legal, else 0.

    Args:
        state: a state.
        seat: the seat asking; all 0 when it is not the seat to move. None
            for the seat to move, whichever it is.

    Returns:
        A new array of `num_actions(state.rules)` entries, equal to
        [`action_mask`][xeri.action_mask] for the seat to move.

    Raises:
        IllegalMoveError: `state` is not a state, or `seat` not one of its seats.
        RuleSetError: the capture rule has no action encoding.
    """
    if seat is not None:
        _check(state, seat, "action_mask_array")
    elif type(state) is not GameState:
        raise IllegalMoveError(f"action_mask_array needs a GameState, not {type(state).__name__}")
    return _mask(state, seat)


def _mask(state: GameState, seat: int | None) -> npt.NDArray[np.int8]:
    """`action_mask_array` without the checks."""
    mover = state.to_move
    rules = state.rules
    if mover is None or (seat is not None and seat != mover):
        return np.zeros(num_actions(rules), dtype=np.int8)
    if rules.capture.__class__ is PileCapture:  # a pile game's legal moves: the hand's cards
        mask = np.zeros(_CARDS, dtype=np.int8)
        mask[[card.index for card in state.hands[mover]]] = 1
        return mask
    return np.frombuffer(action_mask(state), dtype=np.int8).copy()  # type: ignore[no-any-return,unused-ignore]  # an int8 array


class TensorTracker:
    """The observation tensors of every seat of one game, kept up to date from move to move.

    An environment that shows each state of a game to a seat in turn can ask
    the tracker instead of [`observation_array`][xeri.envs.arrays.observation_array]:
    the tracker keeps one array of everything the tensors of the seats are
    made of (every hand's plane, the table, the plays, the captures, the
    numbers, each seat's blocks as they stand for seat 0, and each seat's
    unknown cards) and, when the state it is given is the state after one
    play of the last one (of the same deal: a state of another deal with the
    same plays, such as a resampled one, has other hands and is read whole),
    it changes only what the play changed; a seat's
    tensor is then one gather of that array (the seat's hand and unknown
    cards, its seats and sides counted from it). Any other state is read
    whole. The tensors are equal to
    [`observation_array`][xeri.envs.arrays.observation_array]'s, as the
    tests check on every state of random games.

    The plays are followed for pile rule sets ([`PileCapture`][xeri.PileCapture])
    without face-down cards and without `dealer_per_deal`; for any other rule
    set (whose tensors have blocks that depend on the seat: builds, captures
    of face-down cards) each tensor is read whole for its seat.

    Args:
        rules: the rule set of the game.

    Examples:
        >>> import random, xeri
        >>> from xeri.envs.arrays import TensorTracker, observation_array
        >>> tracker = TensorTracker(xeri.GREEK)
        >>> state = xeri.new_game(xeri.GREEK, rng=random.Random(2))
        >>> for _ in range(5):
        ...     seat = state.to_move
        ...     assert (tracker.observe(state, seat) == observation_array(state, seat)).all()
        ...     state = xeri.apply(state, xeri.legal_moves(state)[0])
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        lay = _layout(rules)
        self._lay = lay
        seats = rules.seats
        sides = rules.num_sides
        self._follow = (
            rules.capture.__class__ is PileCapture
            and not rules.face_down
            and not rules.dealer_per_deal
        )
        size = lay.size
        self._size = size
        start = lay.start
        self._start = start
        self._seats = seats
        # Absolute sides, in the order seat 0 counts them.
        order0 = sorted(range(sides), key=lay.rel_sides[0].__getitem__)
        self._side_slot = {side: order0.index(side) for side in range(sides)}
        # Seat 0's tensor (its unknown block: the cards unknown to all but their
        # holder), the other seats' hands, then each seat's unknown cards.
        mine_at = size + (seats - 1) * _CARDS
        self._unknown_of = [mine_at + seat * _CARDS for seat in range(seats)]
        self._array = np.zeros(mine_at + seats * _CARDS, dtype=np.float32)
        gathers = []
        seat_blocks = ("to_move", "dealer", "last_capturer", "hand_sizes")
        side_blocks = ("captured_counts", "xeris", "jack_xeris", "scores", "round_points")
        for me in range(seats):
            index = np.arange(size)
            rel_to_abs = [(me + k) % seats for k in range(seats)]
            mine = sorted(range(sides), key=lay.rel_sides[me].__getitem__)
            side_to_slot = [self._side_slot[side] for side in mine]
            if me:
                index[0:_CARDS] = size + (me - 1) * _CARDS + np.arange(_CARDS)
            at = start["unknown"]
            index[at : at + _CARDS] = self._unknown_of[me] + np.arange(_CARDS)
            at = start["played"]
            for k, seat in enumerate(rel_to_abs):
                index[at + k * _CARDS : at + (k + 1) * _CARDS] = (
                    at + seat * _CARDS + np.arange(_CARDS)
                )
            at = start["captured"]
            for r, slot in enumerate(side_to_slot):
                index[at + r * _CARDS : at + (r + 1) * _CARDS] = (
                    at + slot * _CARDS + np.arange(_CARDS)
                )
            for name in seat_blocks:
                at = start[name]
                index[at : at + seats] = at + np.array(rel_to_abs)
            for name in side_blocks:
                at = start[name]
                index[at : at + sides] = at + np.array(side_to_slot)
            gathers.append(index)
        self._gathers = gathers
        self._unknown = start["unknown"]
        self._state: GameState | None = None
        self._counts = [0] * sides
        self._xeris = [0] * sides
        self._jacks = [0] * sides
        self._cap = lay.xeri_cap
        self._offsets = (
            start["played"],
            self._unknown,
            [self._hand_at(seat) for seat in range(seats)],
            start["table"],
            start.get("top", 0),  # a pile layout's; the others are not followed
            start["to_move"],
        )
        self._plan_writes(lay)

    def _plan_writes(self, lay: _Layout) -> None:
        """The places and values a play writes, read once from the layout."""
        start = lay.start
        seats = self._seats
        self._deck_unknown = np.asarray(
            lay.template[start["unknown"] : start["unknown"] + _CARDS], dtype=np.float32
        )
        self._play_phase = list(Phase).index(Phase.PLAY)
        # Each seat's hand as an `int8` row: the action mask of a pile game's mover.
        self._hands8 = np.zeros((seats, _CARDS), dtype=np.int8)
        # memoryviews write one item faster than NumPy's indexing; typed Any
        # (typeshed's memoryview takes ints only, these are int8 and float32).
        self._h8: list[Any] = [memoryview(row) for row in self._hands8]  # type: ignore[arg-type]  # an ndarray is a buffer
        # The offsets of one play's writes, read once.
        self._mv: Any = memoryview(self._array)  # type: ignore[arg-type]  # a float32 buffer: `mv[i] = 1.0` is the fastest write
        self._played_at = [start["played"] + seat * _CARDS for seat in range(seats)]
        self._unknown_all = (self._unknown, *self._unknown_of)
        self._to_move_at = start["to_move"]
        self._hand_size_at = [start["hand_sizes"] + seat for seat in range(seats)]
        self._hand_fraction = [n / self.rules.hand_size for n in range(self.rules.hand_size + 1)]
        self._table_count_at = start["table_count"]
        self._lone_at = start["lone_item"]
        # What a play writes, in one tuple (`_play` unpacks it).
        table_fraction = [n / _CARDS for n in range(_CARDS + 1)]
        self._writes: tuple[Any, ...] = (
            self._mv,
            self._played_at,
            self._unknown_all,
            self._offsets[2],
            self._hand_size_at,
            self._hand_fraction,
            start["table"],
            start.get("top", 0),
            self._table_count_at,
            table_fraction,
            self._lone_at,
            self._to_move_at,
            self._h8,
        )

    def observe(self, state: GameState, seat: int) -> npt.NDArray[np.float32]:
        """The observation tensor of `seat` in `state`: a new `float32` array.

        Args:
            state: a state of the tracker's rule set.
            seat: the observing seat.

        Returns:
            `observation_array(state, seat)`.

        Raises:
            IllegalMoveError: `state` is not a state of the rule set, or
                `seat` not one of its seats.
        """
        if not self._follow:  # seat-dependent blocks: read for the seat
            _check(state, seat, "TensorTracker.observe")
            if state.rules != self.rules:
                raise IllegalMoveError("the state is not of the tracker's rule set")
            return _fill(state, seat)
        if state is not self._state:
            if type(state) is not GameState or state.rules is not self.rules:
                _check(state, seat, "TensorTracker.observe")
                if state.rules != self.rules:
                    raise IllegalMoveError("the state is not of the tracker's rule set")
            self._advance(state)
        if type(seat) is not int or not 0 <= seat < self._seats:
            _check(state, seat, "TensorTracker.observe")
        return self._array[self._gathers[seat]]

    def _played(self, prev: GameState, state: GameState) -> None:
        """Follow `state`, trusted to be `apply(prev, play)` (the environments' own steps)."""
        if prev is self._state and self._follow and prev.phase is Phase.PLAY:
            if state.phase is Phase.PLAY and state.round_results is prev.round_results:
                self._state = state
                self._play(prev, state)
            elif state.phase in _ENDED and len(state.round_results) == len(prev.round_results) + 1:
                self._state = state
                self._play(prev, state)
                self._ended(state)

    def _advance(self, state: GameState) -> None:
        prev = self._state
        self._state = state
        if (
            prev is not None
            and self._follow
            and prev.phase is Phase.PLAY
            and len(state.history) == len(prev.history) + 1
            and state.history[:-1] == prev.history
            and _one_play_after(prev, state)
        ):
            if state.phase is Phase.PLAY and state.round_results == prev.round_results:
                self._play(prev, state)
                return
            if state.phase in _ENDED and state.round_results[:-1] == prev.round_results:
                self._play(prev, state)  # the round's last play, and G9's take of the rest
                self._ended(state)
                return
        if self._follow and not state.history and not state.round_results:
            self._read_deal(state)  # a round just dealt: its few cards written
        else:
            self._read(state)

    def _ended(self, state: GameState) -> None:
        """After the round's last play (`_play` wrote it, and G9's take): phase, match numbers."""
        mv = self._mv
        at = self._start["phase"]
        mv[at + self._play_phase] = 0.0
        mv[at + _PHASE_INDEX[state.phase]] = 1.0
        lay = self._lay
        self._array[self._start["scores"] : self._size] = _match_numbers(
            state, lay, lay.rel_sides[0]
        )

    def _read(self, state: GameState) -> None:
        """Read the whole state: seat 0's tensor, the other hands, the kept numbers."""
        a = self._array
        _fill(state, 0, a[: self._size])
        u = self._unknown
        a[u : u + _CARDS] += a[:_CARDS]  # the cards unknown to all but their holder
        size = self._size
        a[size:] = 0.0
        for seat in range(1, self._seats):
            hand = [card.index for card in state.hands[seat]]
            a[size + (seat - 1) * _CARDS + np.array(hand, dtype=np.intp)] = 1.0
        self._unknown_planes()
        self._hand_rows(state)
        counts = [0] * len(self._counts)
        xeris = [0] * len(self._counts)
        jacks = [0] * len(self._counts)
        slot = self._side_slot
        sides = self.rules.sides
        for take in state.takes:
            k = slot[sides[take.seat]]
            counts[k] += len(take.cards)
            if take.xeri is not None:
                xeris[k] += 1
                jacks[k] += take.xeri is XeriKind.JACK_XERI
        self._counts, self._xeris, self._jacks = counts, xeris, jacks

    def _read_deal(self, state: GameState) -> None:
        """Read a state of the first round of a match before its first play: `_read`, quicker.

        Before the first play and without earlier rounds, the tensors hold the
        hands, the table and its top card, the redealt cards, the unknown
        cards (the deck's but the table's, then each seat's hand taken out)
        and the numbers of the deal.
        """
        if state.phase is not Phase.PLAY or state.takes or self.rules.show_bottom_card:
            self._read(state)
            return
        a = self._array
        mv = self._mv
        start = self._start
        rules = self.rules
        a.fill(0.0)
        u = self._unknown
        a[u : u + _CARDS] = self._deck_unknown
        for seat, hand in enumerate(state.hands):
            at = self._hand_at(seat)
            for card in hand:
                mv[at + card.index] = 1.0
        table = state.table
        at = start["table"]
        for item in table:
            i = item.index  # type: ignore[union-attr]  # a pile holds cards
            mv[at + i] = 1.0
            mv[u + i] = 0.0
        if table:
            mv[start["top"] + table[-1].index] = 1.0  # type: ignore[union-attr]  # a card
        if "redealt" in start:
            at = start["redealt"]
            for shown in state.redealt:
                for card in shown:
                    mv[at + card.index] = 1.0
        self._unknown_planes()
        self._hand_rows(state)
        if state.to_move is not None:
            mv[start["to_move"] + state.to_move] = 1.0
        mv[start["dealer"] + state.dealer] = 1.0
        mv[start["phase"] + self._play_phase] = 1.0
        per_hand = rules.hand_size
        for seat, hand in enumerate(state.hands):
            mv[self._hand_size_at[seat]] = len(hand) / per_hand
        mv[start["stock"]] = len(state.stock) / _CARDS
        mv[self._table_count_at] = len(table) / _CARDS
        mv[self._lone_at] = 1.0 if len(table) == 1 else 0.0
        sides = len(self._counts)
        self._counts, self._xeris, self._jacks = [0] * sides, [0] * sides, [0] * sides

    def _hand_rows(self, state: GameState) -> None:
        """Each seat's `int8` hand row, from the state's hands."""
        rows = self._hands8
        rows.fill(0)
        for seat, hand in enumerate(state.hands):
            row = self._h8[seat]
            for card in hand:
                row[card.index] = 1

    def _unknown_planes(self) -> None:
        """Each seat's unknown cards: those unknown to all but their holder, less its hand."""
        a = self._array
        u = self._unknown
        for seat, at in enumerate(self._unknown_of):
            hand = self._hand_at(seat)
            a[at : at + _CARDS] = a[u : u + _CARDS] - a[hand : hand + _CARDS]

    def _hand_at(self, seat: int) -> int:
        return 0 if seat == 0 else self._size + (seat - 1) * _CARDS

    def _play(self, prev: GameState, state: GameState) -> None:
        """Change what one play of a pile game changed ([G5]-[G8]), block by block."""
        (
            mv,
            played_at,
            unknown_all,
            hand_at,
            hand_size_at,
            hand_fraction,
            o_table,
            o_top,
            o_count,
            table_fraction,
            lone_at,
            to_move_at,
            h8,
        ) = self._writes
        mover: int = prev.to_move  # type: ignore[assignment]  # a play: a seat was to move
        card: int = state.history[-1].index  # type: ignore[union-attr]  # a pile game's move is a card
        mv[played_at[mover] + card] = 1.0
        for at in unknown_all:
            mv[at + card] = 0.0
        if len(state.stock) != len(prev.stock):  # G8: every hand is dealt again
            self._dealt_again(state)
        else:
            mv[hand_at[mover] + card] = 0.0
            h8[mover][card] = 0
            mv[hand_size_at[mover]] = hand_fraction[len(state.hands[mover])]
        table = prev.table
        if table:
            mv[o_top + table[-1].index] = 0.0  # type: ignore[union-attr]  # a pile holds cards
        if len(state.takes) == len(prev.takes):  # the card is laid on the pile
            mv[o_table + card] = 1.0
            mv[o_top + card] = 1.0
        else:  # the pile is taken
            self._take(state.takes[-1])
        on_table = len(state.table)
        mv[o_count] = table_fraction[on_table]
        mv[lone_at] = 1.0 if on_table == 1 else 0.0
        mv[to_move_at + mover] = 0.0
        following = state.to_move
        if following is not None:
            mv[to_move_at + following] = 1.0

    def _dealt_again(self, state: GameState) -> None:
        """G8: every hand dealt again, the stock smaller."""
        a = self._array
        mv = self._mv
        start = self._start
        per_hand = self.rules.hand_size
        for seat, hand in enumerate(state.hands):
            at = self._hand_at(seat)
            a[at : at + _CARDS] = 0.0
            for c in hand:
                mv[at + c.index] = 1.0
            mv[start["hand_sizes"] + seat] = len(hand) / per_hand
        mv[start["stock"]] = len(state.stock) / _CARDS
        self._unknown_planes()
        self._hand_rows(state)

    def _take(self, take: Take) -> None:
        """Change what a capture changed: the pile to the side's plane, its numbers."""
        a = self._array
        start = self._start
        table = start["table"]
        a[table : table + _CARDS] = 0.0
        k = self._side_slot[self.rules.sides[take.seat]]
        at = start["captured"] + k * _CARDS
        for c in take.cards:
            a[at + c.index] = 1.0
        self._counts[k] += len(take.cards)
        a[start["captured_counts"] + k] = self._counts[k] / _CARDS
        if take.xeri is not None:
            self._xeris[k] += 1
            a[start["xeris"] + k] = min(1.0, self._xeris[k] / self._cap)
            if take.xeri is XeriKind.JACK_XERI:
                self._jacks[k] += 1
                a[start["jack_xeris"] + k] = min(1.0, self._jacks[k] / self._cap)
        last = start["last_capturer"]
        a[last : last + self._seats] = 0.0
        a[last + take.seat] = 1.0

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

from xeri._agents.actions import action_mask, num_actions
from xeri._agents.features import seat_parts
from xeri._core.state import GameState
from xeri._errors import IllegalMoveError
from xeri._families.pile.rule import PileCapture

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError('xeri.envs.arrays needs the numpy extra: pip install "xeri[numpy]"') from exc

__all__ = ["action_mask_array", "observation_array"]

_CARDS = 52
_BITS = np.dtype("<u8")  # little-endian: bit `card.index` of a plane is its byte's bit


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

"""Moves as text: [`parse_move`][xeri.parse_move] reads what `str(move)` writes.

`str()` of a move is its notation:

| move | text |
| --- | --- |
| a card played onto the pile (Greek family) | `10♦` |
| [`Capture`][xeri.Capture] | `7♣ takes 3♦+4♠`, `8♥ takes [3♦+5♠=8]` |
| [`Combine`][xeri.Combine] | `5♠ on 3♦ makes 8`, `2♠ on 3♦+4♣ makes 9` ([C4][rules-c4]) |
| [`Trail`][xeri.Trail] | `5♠ free` |

Every move also has an ASCII notation, its `ascii` property, which JSON
messages and the [client view][xeri.client_view] use:

| move | ASCII |
| --- | --- |
| a card played onto the pile | `10D` |
| [`Capture`][xeri.Capture] | `7C x 3D+4S`, `8H x [3D+5S=8]` |
| [`Combine`][xeri.Combine] | `5S on 3D = 8`, `2S on 3D+4C = 9` |
| [`Trail`][xeri.Trail] | `trail 5S` |

`parse_move` reads both notations, and mixes of them: the ASCII card names
(`10D`, `TD`, `10d`), the suit symbols, `takes` or `x`, `makes` or `=`,
`<card> free` or `trail <card>`, any case, spaces anywhere between the parts
(but around `x`), and the items taken or built on in any order.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(3))
    >>> all(xeri.parse_move(state, str(m)) is m for m in xeri.legal_moves(state))
    True
    >>> move = xeri.legal_moves(state)[0]
    >>> xeri.parse_move(state, f" {move.ascii.lower()} ") is move
    True
    >>> all(xeri.parse_move(state, m.ascii) is m for m in xeri.legal_moves(state))
    True
    >>> xeri.parse_move(state, f"{move} takes 3D")
    Traceback (most recent call last):
    ...
    xeri.IllegalMoveError: the text names no legal move of seat 1 with that card
"""

from __future__ import annotations

import re

from xeri._agents.observation import Observation
from xeri._cards import Card
from xeri._core.engine import legal_moves
from xeri._core.state import GameState
from xeri._errors import IllegalMoveError, NotationError
from xeri._moves import TRAILS, Capture, Combine, PlayerMove
from xeri._table import TableItem, item_sort_key

__all__ = ["parse_move"]

_SUIT_LETTERS = str.maketrans(
    {"♣": "C", "♧": "C", "♦": "D", "♢": "D", "♥": "H", "♡": "H", "♠": "S", "♤": "S", "\ufe0f": ""}
)
_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<card>(?:10|[2-9AJQKT])[CDHS])(?![A-Z0-9])"
    r"|(?P<number>[0-9]{1,3})(?![A-Z0-9])"
    r"|(?P<word>TAKES|ON|MAKES|FREE|TRAIL|X)(?![A-Z0-9])"
    r"|(?P<mark>[+\[\]=])"
    r")"
)
_MAX_TEXT = 400
_SHAPES = (
    "'<card>', '<card> x <item>+<item>', '<card> on <item> = <value>' or"
    " 'trail <card>', a card being its rank and suit, an item a card or '[<card>+<card>=<value>]'"
)

_ItemKey = Card | tuple[frozenset[Card], int]
_MoveKey = tuple[object, ...]


class _Unreadable(Exception):  # noqa: N818  # internal signal, turned into IllegalMoveError
    """The text does not follow the notation."""


def parse_move(state: GameState | Observation, text: str, *, seat: int | None = None) -> PlayerMove:
    """The legal move of the seat to move that `text` names (the inverse of `str(move)`).

    Args:
        state: the state, or an observation of the seat to move.
        text: the move's notation; see [notation][move-notation] for the forms read.
        seat: the seat that sent the text, if known: text from any other seat
            than the one to move is refused as out of turn before it is read,
            as [`apply`][xeri.apply] does.

    Returns:
        The move, one of [`legal_moves(state)`][xeri.legal_moves]:
        `parse_move(state, str(move)) == move` for every legal move. It is
        checked as [`apply`][xeri.apply] checks a move, without listing the others.

    Raises:
        IllegalMoveError: the text does not spell a move, or names no legal
            move of the seat to move. The message never names a card.
    """
    if not isinstance(state, (GameState, Observation)):
        raise IllegalMoveError(
            f"parse_move needs a GameState or an Observation, not {type(state).__name__}"
        )
    mover = state.to_move
    if mover is None:
        raise IllegalMoveError("no seat is to move: chance acts or the match is over")
    if seat is not None and seat != mover:
        raise IllegalMoveError(f"seat {seat} moved out of turn: seat {mover} is to move")
    if isinstance(state, Observation) and state.seat != mover:
        raise IllegalMoveError(f"seat {mover} is to move, not the observing seat {state.seat}")
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise IllegalMoveError(f"a move is a text of at most {_MAX_TEXT} characters")
    try:
        key = _read(text)
    except (_Unreadable, NotationError):
        raise IllegalMoveError(f"the text does not spell a move; write it as {_SHAPES}") from None
    moves = legal_moves(state)
    move = _move_of(key, state.table)
    if move is not None and move in moves:  # checked as apply checks it: nothing is listed
        return move
    card = key[1]
    hand = state.hand if isinstance(state, Observation) else state.hands[mover]
    if card not in hand:
        raise IllegalMoveError(f"seat {mover} does not hold the card the text plays")
    if not _plays(moves, card):  # type: ignore[arg-type,unused-ignore]  # the card of a key
        raise IllegalMoveError(f"seat {mover} may not play that card now")
    raise IllegalMoveError(
        f"seat {mover} may not play that card alone; write the whole move, as {_SHAPES}"
        if key[0] == "play"
        else f"the text names no legal move of seat {mover} with that card"
    )


def _move_of(key: _MoveKey, table: tuple[TableItem, ...]) -> PlayerMove | None:
    """The move a key names on `table`, its items found there; None if one is not there."""
    kind, card = key[0], key[1]
    if type(card) is not Card:  # pragma: no cover  # every key names its card
        return None
    if kind == "play":
        return card
    if kind == "free":
        return TRAILS[card]
    found: list[TableItem] = []
    for wanted in key[2]:  # type: ignore[attr-defined]  # the items of a key
        item = next((t for t in table if _item_key(t) == wanted), None)
        if item is None:
            return None
        found.append(item)
    if kind == "takes":
        return Capture(card=card, taken=tuple(found))
    first, *rest = sorted(found, key=item_sort_key)
    value = key[3]
    if type(value) is not int:  # pragma: no cover  # read as a number
        return None
    return Combine(card=card, onto=first, value=value, also=tuple(rest))


def _plays(moves: tuple[PlayerMove, ...], card: Card) -> bool:
    """Whether some legal move plays `card`: a search on the moves, sorted by card first."""
    lo, hi = 0, len(moves)
    while lo < hi:
        mid = (lo + hi) // 2
        if moves[mid].card.index < card.index:
            lo = mid + 1
        else:
            hi = mid
    if lo == len(moves):
        return False
    return moves[lo].card is card


def _item_key(item: TableItem) -> _ItemKey:
    if isinstance(item, Card):
        return item
    return (frozenset(item.cards), item.value)


def _tokens(text: str) -> list[tuple[str, str]]:
    norm = text.translate(_SUIT_LETTERS).upper().rstrip()
    out: list[tuple[str, str]] = []
    at = 0
    while at < len(norm):
        match = _TOKEN.match(norm, at)
        if match is None or match.end() == at:
            raise _Unreadable
        kind = match.lastgroup or ""  # every alternative is a named group
        out.append((kind, match.group(kind)))
        at = match.end()
    return out


def _read(text: str) -> _MoveKey:  # noqa: PLR0915  # one small parser, its helpers inline
    tokens = _tokens(text)
    at = 0

    def peek() -> tuple[str, str]:
        return tokens[at] if at < len(tokens) else ("end", "")

    def take(kind: str, value: str | None = None) -> str:
        nonlocal at
        got_kind, got = peek()
        if got_kind != kind or (value is not None and got != value):
            raise _Unreadable
        at += 1
        return got

    def card() -> Card:
        return Card.parse(take("card"))

    def number() -> int:
        return int(take("number"))

    def item() -> _ItemKey:
        if peek() == ("mark", "["):
            take("mark", "[")
            cards = [card()]
            while peek() == ("mark", "+"):
                take("mark", "+")
                cards.append(card())
            take("mark", "=")
            value = number()
            take("mark", "]")
            if len(set(cards)) != len(cards):
                raise _Unreadable
            return (frozenset(cards), value)
        return card()

    def items() -> frozenset[_ItemKey]:
        found = [item()]
        while peek() == ("mark", "+"):
            take("mark", "+")
            found.append(item())
        if len(set(found)) != len(found):
            raise _Unreadable
        return frozenset(found)

    if peek() == ("word", "TRAIL"):
        take("word")
        key: _MoveKey = ("free", card())
        if at != len(tokens):
            raise _Unreadable
        return key
    played = card()
    word = peek()
    if word == ("end", ""):
        key = ("play", played)
    elif word in (("word", "TAKES"), ("word", "X")):
        take("word")
        key = ("takes", played, items())
    elif word == ("word", "ON"):
        take("word")
        onto = items()
        if peek() == ("mark", "="):
            take("mark", "=")
        else:
            take("word", "MAKES")
        key = ("on", played, onto, number())
    elif word == ("word", "FREE"):
        take("word")
        key = ("free", played)
    else:
        raise _Unreadable
    if at != len(tokens):
        raise _Unreadable
    return key

"""An append-only record of a match: a header, then one row per move.

A [`GameRecord`][xeri.GameRecord] is one document, rewritten whole when a
move is added. A server that stores a game move by move wants to append one
small row instead: [`journal_header`][xeri.journal_header] is written once,
when the game is made, and [`journal_row`][xeri.journal_row] once per move,
chance's deals and reshuffles included. [`load_journal`][xeri.load_journal]
reads the header and the rows back, checks them as
[`from_json`][xeri.from_json] checks a record, and resumes the game: it
gives the record and the state where the rows end.

Header and rows are JSON-ready dicts (store each as a line of JSON, or as a
row of a database table):

* the header: `format` (`"xeri-journal"`), `version` (1), `library` (the
  version of xeri that wrote it), `rules` (a registered preset by name,
  any other rule set in full, as [`to_data`][xeri.to_data] writes it),
  `fingerprint` (a SHA-256 of the rule set's fields in full: a preset whose
  rules changed in a later release is refused instead of replayed wrongly),
  `dealer` (the first dealer), `seats` (one short label per seat, such as
  `"human"` or `"bot:counting"`) and `extra` (a dict of strings for the
  application, empty by default);
* a row: `n` (its place, from 0), `seat` (the seat that moved, None for
  chance) and `move` (the move's `data` as `to_data` writes it).

## What is secret

While the match is on, the rows of chance moves are secret: a
[`Deal`][xeri.Deal] holds the order of the whole deck (every hand, the
stock) and a [`Reshuffle`][xeri.Reshuffle] the order of the stock. Never
send them to a client; send views ([`client_view`][xeri.client_view]).
The players' rows are public (every played card is seen by all,
[X2][rules-x2]). Once the match is over, the whole journal may be
published. Anything an application keeps in `extra` (a seed, say) is its
own to guard.

Examples:
    >>> import random, xeri
    >>> rng = random.Random(3)
    >>> state, rec = xeri.record(xeri.GREEK, rng=rng)
    >>> header = xeri.journal_header(xeri.GREEK, dealer=rec.dealer)
    >>> rows = [xeri.journal_row(n, move, seat=None) for n, move in enumerate(rec.moves)]
    >>> move = xeri.legal_moves(state)[0]
    >>> rows.append(xeri.journal_row(len(rows), move, seat=state.to_move))
    >>> loaded, resumed = xeri.load_journal(header, rows)
    >>> resumed == xeri.apply(state, move), loaded.moves[-1] == move
    (True, True)
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, Final

from xeri._core.engine import apply, start
from xeri._core.state import GameState
from xeri._errors import InvalidStateError, XeriError
from xeri._io.records import GameRecord
from xeri._io.serialize import FORMAT, FORMAT_VERSION, _out, _rules_fields, _rules_out, from_data
from xeri._moves import Move
from xeri._rules.ruleset import RuleSet

__all__ = [
    "JOURNAL_FORMAT",
    "JOURNAL_VERSION",
    "journal_header",
    "journal_row",
    "load_journal",
    "rules_fingerprint",
]

JOURNAL_FORMAT: Final = "xeri-journal"
"""The value of a journal header's `"format"` key."""
JOURNAL_VERSION: Final = 1
"""The version of the journal layout that `journal_header` writes."""

_HEADER_KEYS = frozenset(
    ("format", "version", "library", "rules", "fingerprint", "dealer", "seats", "extra")
)
_ROW_KEYS = frozenset(("n", "seat", "move"))
_MAX_LABEL = 64
_MAX_EXTRA = 32


def rules_fingerprint(rules: RuleSet) -> str:
    """A SHA-256 (hex) of a rule set's fields in full: equal rule sets, equal fingerprints.

    Args:
        rules: the rule set.

    Returns:
        64 hex digits.

    Raises:
        InvalidStateError: the rule set holds a component JSON cannot write.
    """
    if not isinstance(rules, RuleSet):
        raise InvalidStateError(f"a rule set is needed, not {type(rules).__name__}")
    text = json.dumps(_rules_fields(rules), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def journal_header(
    rules: RuleSet,
    *,
    dealer: int,
    seats: Iterable[str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """The first thing a journal holds: the rule set, the first dealer and the seats.

    Args:
        rules: the rule set of the match.
        dealer: the first dealer's seat (the record's `dealer`).
        seats: a short label per seat (at most 64 characters each); `"seat 0"`,
            `"seat 1"`, ... by default.
        extra: strings the application keeps with the game (at most 32 keys).

    Returns:
        A new JSON-ready dict, as [the journal format][journal-format] describes.

    Raises:
        InvalidStateError: a value is not of the kind described.
    """
    from xeri import __version__  # noqa: PLC0415  # the facade imports this module first

    if not isinstance(rules, RuleSet):
        raise InvalidStateError(f"a rule set is needed, not {type(rules).__name__}")
    if type(dealer) is not int or not 0 <= dealer < rules.seats:
        raise InvalidStateError(f"dealer must be a seat from 0 to {rules.seats - 1}")
    labels = [f"seat {s}" for s in range(rules.seats)] if seats is None else list(seats)
    header = {
        "format": JOURNAL_FORMAT,
        "version": JOURNAL_VERSION,
        "library": __version__,
        "rules": _rules_out(rules),
        "fingerprint": rules_fingerprint(rules),
        "dealer": dealer,
        "seats": labels,
        "extra": dict(extra or {}),
    }
    problems = _header_shape(header, rules.seats)
    if problems:
        raise InvalidStateError(problems)
    return header


def journal_row(n: int, move: Move, *, seat: int | None) -> dict[str, Any]:
    """One row of a journal: the `n`-th move of the match (from 0), chance's included.

    Args:
        n: the row's place, counting every row after the header from 0.
        move: the move, a player's or chance's.
        seat: the seat that made it, or None for chance.

    Returns:
        A new JSON-ready dict `{"n", "seat", "move"}`.

    Raises:
        InvalidStateError: `move` is not a move, or `n` or `seat` is not an int.
    """
    if type(n) is not int or n < 0:
        raise InvalidStateError(f"n must be an int >= 0, not {n!r}")
    if seat is not None and type(seat) is not int:
        raise InvalidStateError(f"seat must be an int or None, not {type(seat).__name__}")
    from xeri._io.serialize import _TYPE_OF_CLASS  # noqa: PLC0415  # one table, kept there

    if _TYPE_OF_CLASS.get(type(move)) != "move":
        raise InvalidStateError(f"a journal row holds a move, not a {type(move).__name__}")
    return {"n": n, "seat": seat, "move": _out(move)}


def load_journal(
    header: Mapping[str, Any], rows: Iterable[Mapping[str, Any]]
) -> tuple[GameRecord, GameState]:
    """Read a journal back, check it, and resume the game where its rows end.

    Args:
        header: the header, as [`journal_header`][xeri.journal_header] wrote it
            (decoded from JSON).
        rows: the rows in order, as [`journal_row`][xeri.journal_row] wrote them.

    Returns:
        The game record of every row, and the state after the last row.

    Raises:
        InvalidStateError: the header is not one, its rule set is not readable
            or no longer has its fingerprint, a row is out of place or does not
            hold a move, or a move is not legal where it is applied (the error
            names the row); nothing else is raised, whatever the input.
    """
    if not isinstance(header, Mapping):
        raise InvalidStateError("a journal header is an object")
    header = dict(header)
    keys = set(header)
    if keys != _HEADER_KEYS:
        missing = sorted(_HEADER_KEYS - keys)
        extra = sorted(k for k in keys - _HEADER_KEYS if isinstance(k, str))[:5]
        raise InvalidStateError(
            f"a journal header has the keys {', '.join(sorted(_HEADER_KEYS))}"
            + (f"; missing: {', '.join(missing)}" if missing else "")
            + (f"; unexpected: {', '.join(map(repr, extra))}" if extra else "")
        )
    if header["format"] != JOURNAL_FORMAT or header["version"] != JOURNAL_VERSION:
        raise InvalidStateError(
            f"not a journal of format {JOURNAL_FORMAT!r} version {JOURNAL_VERSION}"
        )
    rules = from_data(
        {"data": header["rules"], "format": FORMAT, "type": "rules", "version": FORMAT_VERSION},
        RuleSet,
        strict=False,
    )
    if header["fingerprint"] != rules_fingerprint(rules):
        raise InvalidStateError(
            "the rule set's fingerprint differs from the journal's: its rules changed since the"
            " game was recorded"
        )
    problems = _header_shape(header, rules.seats)
    if problems:
        raise InvalidStateError(problems)
    dealer: int = header["dealer"]
    state = start(rules, dealer=dealer)
    moves: list[Move] = []
    for n, row in enumerate(rows):
        if not isinstance(row, Mapping) or set(row) != _ROW_KEYS:
            raise InvalidStateError(f"row {n}: a row is an object with the keys move, n, seat")
        if type(row["n"]) is not int or row["n"] != n:
            raise InvalidStateError(f"row {n}: its n must be {n}, the row's place")
        seat = row["seat"]
        if seat != state.to_move or (seat is not None and type(seat) is not int):
            who = "chance" if state.to_move is None else f"seat {state.to_move}"
            raise InvalidStateError(f"row {n}: {who} moves here, not the seat the row names")
        move = from_data(
            {"data": row["move"], "format": FORMAT, "type": "move", "version": FORMAT_VERSION}
        )
        try:
            state = apply(state, move)  # type: ignore[arg-type]  # the document held a move
        except XeriError as exc:
            raise InvalidStateError(f"row {n}: {exc}") from None
        moves.append(move)  # type: ignore[arg-type]  # the document held a move
    return GameRecord(rules=rules, dealer=dealer, moves=tuple(moves)), state


def _header_shape(header: Mapping[str, Any], seats: int) -> list[str]:
    problems = []
    if type(header["library"]) is not str or len(header["library"]) > _MAX_LABEL:
        problems.append("library must be a version string")
    dealer = header["dealer"]
    if type(dealer) is not int or not 0 <= dealer < seats:
        problems.append(f"dealer must be a seat from 0 to {seats - 1}")
    labels = header["seats"]
    if (
        type(labels) is not list
        or len(labels) != seats
        or not all(type(x) is str and len(x) <= _MAX_LABEL for x in labels)
    ):
        problems.append(
            f"seats must be a list of {seats} labels of at most {_MAX_LABEL} characters"
        )
    extra = header["extra"]
    if (
        type(extra) is not dict
        or len(extra) > _MAX_EXTRA
        or not all(
            type(k) is str and type(v) is str and len(k) <= _MAX_LABEL and len(v) <= 1024
            for k, v in extra.items()
        )
    ):
        problems.append(f"extra must map at most {_MAX_EXTRA} short strings to strings")
    return problems

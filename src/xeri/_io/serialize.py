"""JSON at the edges: states, observations, moves, rule sets and game records.

[`to_json`][xeri.to_json] writes one value as a JSON document;
[`from_json`][xeri.from_json] reads one back and checks it completely.
Both need nothing beyond the library's own dependency (attrs): reading is
done by a small explicit reader of this format, not by a general
structuring library.

## The format

A document is an object with four keys:

* `"format"`: always `"xeri"`;
* `"version"`: the format version, [`FORMAT_VERSION`][xeri.FORMAT_VERSION] (2);
* `"type"`: `"state"`, `"observation"`, `"move"`, `"rules"` or `"record"`;
* `"data"`: the value.

Inside `data`, attrs values are objects with one key per field, named as
the field. A card is its ASCII name (`"10D"`, `"AS"`); a pile game's move
is that card. The other moves are objects tagged by `"kind"`: `"capture"`,
`"combine"`, `"trail"`, `"deal"`, `"reshuffle"` and `"deal card"`. A table item is a card
or a build object (`cards`, `owner`, `value`). Enumerations are their values
(`"play"`, `"raise target"`; ranks are numbers 1 to 13). A rule set equal to
the one registered under its name is that name (`"greek"`); any other is an
object of all its fields, and each component (`capture`, `scorer`, `match`)
is an object with one key, the component's class name (`"PileCapture"`;
classes from outside the library by module and name), holding its fields.
Only component classes of registered rule sets and of the library are read
back: register a custom rule set before loading games that use it. The
fields of a component from outside the library are read by their
annotations, which must name, at run time, ints, bools, strings, None,
enumerations, cards, tuples of those, or attrs classes made of them.

A record writes its rule set in full, whatever its name, with two more
keys: `"fingerprint"`, the [`rules_fingerprint`][xeri.rules_fingerprint] of that
rule set (the SHA-256 of its fields in full), and `"library"`, the version of
the library that wrote it. A rule set written in full under the name of a
registered rule set must equal it, in any document: otherwise the document
is refused, naming the fields that differ, unless `from_json` is told
`written_rules=True`. A record's fingerprint must be that of the rules it
writes. Records written before they carried these keys (their rules by name
when registered) still load, strict mode too, under the registered rules.

Version 2 added `redealt` to states and observations: the initial tables
shown and then redealt in the current round ([G4][rules-g4],
[F4][rules-f4]), each a list of cards, oldest first. Documents of version 1
(written before it) still load, in strict mode too, with `redealt` empty;
a version 1 state or observation must not have the key.

A state in the middle of a card-by-card deal ([`DealCard`][xeri.DealCard],
see [chance card by card][chance-card-by-card]) has the key `dealing`, the cards of the
pending order placed so far. It is written only when that list is not
empty, so every other state is written exactly as before (the version
stays 2); a version 1 state must not have it.

A state or observation of a round in which an initial-table rule replaced
cards ([T2][rules-t2]) has the key `replaced`, those cards in the order
replaced; it too is written only when not empty (the version stays 2), and
a version 1 document must not have it. A capture of a table awarded at the
deal ([T3][rules-t3]) has the turn -1. A rule set's `redeal` may be an
initial-table rule, written as a component like any other
(`{"ReplaceRanks": {...}}`); documents written before these rules load
unchanged.

`to_json` writes the one canonical text of a value: keys sorted, no
spaces, ASCII only, integers within ±(2**53 - 1) so that any JSON reader
gets them exactly. By default `from_json` accepts only that text (for a
version 1 document, the text version 1 had; for a record, with the library
version it names, or as records were written before they had one), so
`to_json(from_json(text)) == text` for every version 2 text it accepts but
records written by another version of the library;
pass `strict=False` to accept any layout, key order, spelling of cards and
fields left at their defaults.

## Limits

`from_json` is meant for text from anyone, so its work is bounded by the
length of the text:

* the text may hold at most [`MAX_TEXT_LENGTH`][xeri.MAX_TEXT_LENGTH]
  characters (4 MiB; a record of 500 rounds of German Xeri, the most
  verbose game, is about 1.1 million): longer text is refused before any
  parsing;
* arrays and objects may nest at most [`MAX_DEPTH`][xeri.MAX_DEPTH]
  levels (16, the document itself being level 1; the library's documents
  use at most 7), checked by a linear scan before the text is parsed;
* a number may be written with at most 24 characters (any integer that
  the format allows has at most 16 digits);
* a list of cards holds at most 52, a list of seats or sides at most 8
  entries, and a name at most 64 characters;
* problems are collected up to 100; reading stops at the hundredth.

So time and memory are linear in the length of the text, whatever it is.

## Validation

Loading never trusts the text. Types are checked exactly (`true` is not a
number, `1.0` is not an int, no NaN, no repeated key, no missing or extra
field), then the value: a state must be one the engine could reach (the 52
cards each once, hand and stock sizes for the phase, the seat to move, the
round's plays replayed to the same state, scores consistent with the round
results); an observation must be one that [`observe`][xeri.observe] gives
for some such state; a record must replay; a move must name each card once.
The results of earlier rounds, all that a state keeps of them, are checked
line by line against what each result itself records and what the rules
allow: the sheet adds up, the cards number the deck, card points are what
that many cards can be worth, the majority goes as the counts say, the xeri
bonus is that of the xeris, and every category line is what its kind allows
([`Category`][xeri.Category]: a sweeps line is the sweeps recorded times
their points, most of a suit and the primiera go to one side at most, and
only to a side that captured the cards to win them, named cards are never
given to two sides). That is what a state can prove; only a record proves
that the rounds were played (see `require_record` of
[`from_json`][xeri.from_json]).
Every problem found is listed in one
[`InvalidStateError`][xeri.InvalidStateError], each with the place in the
document where it was found (`@ $.data.stock[3]`); whatever the input,
`from_json` raises no other error.

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(2))
    >>> text = xeri.to_json(state)
    >>> text.startswith('{"data":{"bottom_card":null,"dealer":0,"hands":[["')
    True
    >>> xeri.from_json(text) == state
    True
    >>> xeri.to_json(xeri.GREEK)
    '{"data":"greek","format":"xeri","type":"rules","version":2}'
    >>> xeri.to_json(state.hands[1][0])
    '{"data":"2C","format":"xeri","type":"move","version":2}'
    >>> redealt = xeri.new_game(xeri.GREEK, rng=random.Random(5))
    >>> [" ".join(map(str, table)) for table in redealt.redealt]
    ['J♥ 9♣ 8♣ 8♠']
    >>> '"redealt":[["JH","9C","8C","8S"]]' in xeri.to_json(xeri.observe(redealt, 0))
    True
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from functools import cache
from typing import Any, Final, TypeAlias, TypeVar, cast, overload

import attrs

from xeri._agents.observation import Observation, ObservedTake
from xeri._agents.sampling import check_observation
from xeri._cards import DECK, Card, Rank
from xeri._core.state import GameState, Phase, Take
from xeri._core.validate import check_state
from xeri._errors import InvalidStateError, XeriError
from xeri._families.pile.rule import PILE_OPTIONS, PileCapture
from xeri._families.protocol import CaptureRule, XeriKind
from xeri._families.sums.rule import SUM_OPTIONS, SumCapture
from xeri._io.records import GameRecord, _last_state
from xeri._moves import Capture, Combine, Deal, DealCard, Reshuffle, Trail
from xeri._rules.categories import (
    Category,
    MostOfSuit,
    NamedPoints,
    Primiera,
    SweepPoints,
    Sweeps,
)
from xeri._rules.match import CountOut, FixedRounds, MatchFormat, SharedTarget, TargetScore
from xeri._rules.redeal import (
    AwardSums,
    RanksOnTable,
    Redeal,
    RedealRule,
    ReplaceRanks,
)
from xeri._rules.ruleset import RuleSet, find_rules, registered
from xeri._rules.scoring import MajorityTie, PointsTable, RoundResult, Scorer, StandardScorer
from xeri._table import Build, TableItem, item_cards

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "MAX_DEPTH",
    "MAX_TEXT_LENGTH",
    "Loadable",
    "from_data",
    "from_json",
    "to_data",
    "to_json",
]

FORMAT: Final = "xeri"
"""The value of a document's `"format"` key."""
FORMAT_VERSION: Final = 2
"""The version of the format that `to_json` writes. Version 1 stays readable."""
MAX_TEXT_LENGTH: Final = 4 * 1024 * 1024
"""The longest text `from_json` reads, in characters (4 MiB); longer text is refused unread."""
MAX_DEPTH: Final = 16
"""How deeply arrays and objects may nest in a document, the document itself being level 1."""

Loadable: TypeAlias = (
    GameState
    | Observation
    | RuleSet
    | GameRecord
    | Card
    | Capture
    | Combine
    | Trail
    | Deal
    | Reshuffle
    | DealCard
)
"""Everything `to_json` writes and `from_json` reads."""

_T = TypeVar("_T")
_MAX_INT = 2**53 - 1
_MAX_NUMBER = 24  # characters of a number: 2**53 has 16 digits
_MAX_PROBLEMS = 100
_MAX_MESSAGE = 300
_MAX_SEATS = 8  # RuleSet's own bound
_MAX_NAME = 64  # RuleSet's own bound on names
_VERSIONS = (1, 2)
_FINGERPRINTS = 64
"""Rule sets whose fingerprint is kept, most recently used first (a bounded cache)."""
_MOVE_KINDS: dict[type[Any], str] = {
    Capture: "capture",
    Combine: "combine",
    Trail: "trail",
    Deal: "deal",
    Reshuffle: "reshuffle",
    DealCard: "deal card",
}
_TYPE_OF_CLASS: dict[type[Any], str] = {
    GameState: "state",
    Observation: "observation",
    RuleSet: "rules",
    GameRecord: "record",
    **dict.fromkeys((Card, *_MOVE_KINDS), "move"),
}
_COMPONENT_FIELDS = ("capture", "scorer", "match")
_NEW_FIELDS: dict[type[Any], dict[str, object]] = {
    RuleSet: {"deck": DECK, "categories": (), "dealer_per_deal": False},
    RoundResult: {"categories": ()},
    Combine: {"also": ()},
    SumCapture: {o.name: o.default for o in SUM_OPTIONS if o.since > 1},
    PileCapture: {o.name: o.default for o in PILE_OPTIONS if o.since > 1},
}
"""Fields that came after format version 2 began: written only when they differ from the
default, so that every document written before them is written again byte for byte."""
_CARD_NAMES: dict[Card, str] = {card: card.ascii for card in DECK}
_CARDS_BY_NAME: dict[str, Card] = {card.ascii: card for card in DECK}


class _RepeatedKeyError(ValueError):
    """A JSON object that names a key twice."""


# --------------------------------------------------------------------------
# Writing


def to_json(obj: object) -> str:
    """The canonical JSON text of a state, observation, move, rule set or game record.

    Args:
        obj: the value to write.

    Returns:
        One line of ASCII JSON, keys sorted, no spaces ([the JSON format][json-format]
        describes it).

    Raises:
        InvalidStateError: `obj` is none of the types above, or holds a
            component that is not an attrs class or a value JSON cannot hold.
    """
    return _text(obj, FORMAT_VERSION)


def to_data(obj: object) -> dict[str, Any]:
    """The JSON-ready document of a value: what [`to_json`][xeri.to_json] encodes.

    A server that puts a value inside its own message uses this rather than
    decoding `to_json`'s text again: `json.dumps(to_data(x), sort_keys=True,
    separators=(",", ":"))` is `to_json(x)`.

    Args:
        obj: a state, observation, move, rule set or game record.

    Returns:
        A new dict of dicts, lists, strings, ints, bools and None, with the
        keys `data`, `format`, `type` and `version` ([the JSON format][json-format]
        describes it); nothing in it is shared with another call.

    Raises:
        InvalidStateError: as `to_json`.

    Examples:
        >>> import xeri
        >>> xeri.to_data(xeri.Card.parse("10D"))
        {'data': '10D', 'format': 'xeri', 'type': 'move', 'version': 2}
        >>> xeri.from_data(xeri.to_data(xeri.GREEK)) == xeri.GREEK
        True
    """
    return _document(obj, FORMAT_VERSION)


def _document(
    obj: object, version: int, *, library: str | None = None, legacy: bool = False
) -> dict[str, Any]:
    """The document of `obj` in a format `version`.

    A record is written with its rule set in full, the fingerprint of that
    rule set and `library` (this library's version by default); `legacy`
    writes it as records were written before they carried these.
    """
    kind = _TYPE_OF_CLASS.get(type(obj))
    if kind is None:
        raise InvalidStateError(f"to_json cannot write a {type(obj).__name__}")
    data = _out(obj)
    if kind == "record" and not legacy:
        rules = cast("GameRecord", obj).rules
        data["rules"] = _rules_fields(rules)
        data["fingerprint"] = _fingerprint(rules)
        data["library"] = _library() if library is None else library
    if kind == "state" and not data["dealing"]:
        del data["dealing"]  # written only in the middle of a card-by-card deal
    if kind in ("state", "observation") and (version == 1 or not data["replaced"]):
        del data["replaced"]  # written only when an initial-table rule replaced cards (T2)
    if version == 1 and kind in ("state", "observation"):
        del data["redealt"]  # the field came with version 2; version 1 texts lack it
    return {"data": data, "format": FORMAT, "type": kind, "version": version}


def _text(obj: object, version: int, *, library: str | None = None, legacy: bool = False) -> str:
    return json.dumps(
        _document(obj, version, library=library, legacy=legacy),
        ensure_ascii=True,
        sort_keys=True,
        separators=(",", ":"),
        allow_nan=False,
    )


def _out(value: object) -> Any:  # noqa: ANN401  # a JSON value: None, bool, int, str, list or dict
    """The JSON value of a value: by its type at run time, so no annotation is read."""
    cls = type(value)
    if cls is int or cls is str or cls is bool or value is None:
        return value
    if isinstance(value, Card):
        return _CARD_NAMES[value]
    if isinstance(value, tuple):
        return [_out(v) for v in value]
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, RuleSet):
        return _rules_out(value)
    if not attrs.has(cls):
        raise InvalidStateError(f"to_json cannot write a {cls.__name__}")
    fields = {name: _out(getattr(value, name)) for name in _init_fields(cls)}
    for name, default in _NEW_FIELDS.get(cls, {}).items():
        if getattr(value, name) == default:
            del fields[name]
    kind = _MOVE_KINDS.get(cls)
    if kind is not None:
        fields["kind"] = kind
    return fields


@cache
def _init_fields(cls: type[Any]) -> tuple[str, ...]:
    return tuple(f.name for f in attrs.fields(cls) if f.init)


def _library() -> str:
    """This library's version, as records carry it."""
    from xeri import __version__  # noqa: PLC0415  # the package imports this module

    return __version__


def _fingerprint(rules: RuleSet) -> str:
    """The fingerprint a record carries: [`rules_fingerprint`][xeri.rules_fingerprint], cached.

    The SHA-256 of the rule set's fields in full, written as canonical JSON
    (fields that came after format version 2 began count only when they
    differ from their defaults, so a fingerprint stays the same as the
    library gains options). Kept for the last `_FINGERPRINTS` rule sets.
    """
    try:
        return _cached_fingerprint(rules)
    except TypeError:  # a component of one's own that cannot be hashed: computed each time
        return _fingerprint_of(rules)


@functools.lru_cache(maxsize=_FINGERPRINTS)
def _cached_fingerprint(rules: RuleSet) -> str:
    return _fingerprint_of(rules)


def _fingerprint_of(rules: RuleSet) -> str:
    text = json.dumps(_rules_fields(rules), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _rules_out(rules: RuleSet) -> object:
    if rules.name in registered() and find_rules(rules.name) == rules:
        return rules.name
    return _rules_fields(rules)


def _rules_fields(rules: RuleSet) -> dict[str, object]:
    """A rule set written in full, by its fields, even when it is registered."""
    fields: dict[str, object] = {}
    new = _NEW_FIELDS[RuleSet]
    for name in _init_fields(RuleSet):
        value = getattr(rules, name)
        if name in new and value == new[name]:
            continue
        if name == "categories":
            fields[name] = [_component_out(category) for category in value]
        elif name in _COMPONENT_FIELDS or (name == "redeal" and not isinstance(value, Redeal)):
            fields[name] = _component_out(value)
        else:
            fields[name] = _out(value)
    return fields


def _component_out(value: object) -> object:
    cls = type(value)
    if not attrs.has(cls):
        raise InvalidStateError(f"a rule component must be an attrs class, not {cls.__name__}")
    return {_component_name(cls): _out(value)}


def _component_name(cls: type[Any]) -> str:
    if cls.__module__.split(".")[0] == "xeri":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


# --------------------------------------------------------------------------
# Reading: the text


@overload
def from_json(
    text: str,
    expect: type[_T],
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> _T: ...


@overload
def from_json(
    text: str,
    expect: None = None,
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> Loadable: ...


def from_json(
    text: str,
    expect: type[Any] | None = None,
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> Any:
    """Read and check a document written by [`to_json`][xeri.to_json].

    What a document proves: a game record proves the whole match, every
    round replayed from the deal; a state or an observation proves its
    current round (replayed from its public history), but the earlier
    rounds of a match survive in it only as their results, which are
    checked against each other and against the rules (see the module
    docstring) yet could have been made up. Pass `require_record=True`
    where a state must not claim rounds it cannot prove (a finished match
    reported by a client, say): then only a record carries earlier rounds.

    Args:
        text: the JSON text, at most
            [`MAX_TEXT_LENGTH`][xeri.MAX_TEXT_LENGTH] characters.
        expect: the class the document must hold (`GameState`, `Observation`,
            `RuleSet`, `GameRecord` or a move class), or None for any.
        strict: accept only the canonical text `to_json` writes (the default;
            for a version 1 document, the text version 1 had; for a record,
            with the library version it names); False accepts any layout of
            the same data.
        require_record: refuse a state or observation that holds results of
            earlier rounds: only a record proves them.
        written_rules: load a rule set written in full under the name of a
            registered rule set even when it differs from that rule set (or,
            in a record, when the fingerprint of the registered one differs
            from the record's), under the rules written in the document. By
            default such a document is refused, the message naming the fields
            that differ: a saved game must not replay under other rules
            without a word.

    Returns:
        The value, checked as [the JSON format][json-format] says.

    Raises:
        InvalidStateError: the text is not such a document, is too long or
            nested too deeply, or the value is not possible; `problems` lists
            the problems found (at most 100). No other error is raised,
            whatever `text` is, in time and memory linear in its length.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"from_json reads a str, not {type(text).__name__}")
    if expect is not None and (not isinstance(expect, type) or expect not in _TYPE_OF_CLASS):
        raise InvalidStateError(f"from_json cannot read a {getattr(expect, '__name__', expect)}")
    if len(text) > MAX_TEXT_LENGTH:
        raise InvalidStateError(
            f"the text has {len(text)} characters, more than the {MAX_TEXT_LENGTH} "
            "that from_json reads"
        )
    _check_shape(text)
    try:
        doc = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_no_constant,
            parse_int=_parse_int,
            parse_float=_parse_float,
        )
    except _RepeatedKeyError as exc:
        raise InvalidStateError(str(exc)) from None
    except _LongNumberError:
        raise InvalidStateError(
            f"a number is written with more than {_MAX_NUMBER} characters"
        ) from None
    except RecursionError:  # _check_shape bounds the depth; kept as a last guard
        raise InvalidStateError("the JSON text is nested too deeply") from None
    except ValueError as exc:
        raise InvalidStateError(f"not JSON: {_short(str(exc), 120)}") from None
    return _read_checked(
        doc,
        expect,
        _Problems(written_rules=written_rules is True),
        require_record=require_record is True,
        canonical=(lambda value, version, found: _canonical(value, version, found) == text)
        if strict
        else None,
        refusal="the text is not the canonical form that to_json writes (sorted keys, no spaces,"
        " every field, cards as '10D', registered rule sets by name); pass strict=False"
        " to accept it",
    )


@overload
def from_data(
    data: object,
    expect: type[_T],
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> _T: ...


@overload
def from_data(
    data: object,
    expect: None = None,
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> Loadable: ...


def from_data(
    data: object,
    expect: type[Any] | None = None,
    *,
    strict: bool = True,
    require_record: bool = False,
    written_rules: bool = False,
) -> Any:
    """Read and check a document as [`to_data`][xeri.to_data] gives it (the reverse).

    The checks are those of [`from_json`][xeri.from_json], on the decoded
    value: a server that decoded a message itself passes the part that
    holds the document.

    Args:
        data: the document: dicts with string keys, lists, strings, ints,
            bools and None, at most [`MAX_DEPTH`][xeri.MAX_DEPTH]
            levels deep and no larger than what `from_json` reads.
        expect: the class the document must hold, or None for any.
        strict: accept only what `to_data` gives (the default: every field,
            cards as `"10D"`, registered rule sets by name); False accepts
            any spelling `from_json(..., strict=False)` accepts.
        require_record: as for [`from_json`][xeri.from_json]: refuse a state
            or observation that holds results of earlier rounds.
        written_rules: as for `from_json`: load a rule set written in full
            under a registered name even when it differs from that one.

    Returns:
        The value, checked as [the JSON format][json-format] says.

    Raises:
        InvalidStateError: the data is not such a document, or the value is
            not possible; no other error is raised, whatever `data` is.
    """
    if expect is not None and (not isinstance(expect, type) or expect not in _TYPE_OF_CLASS):
        raise InvalidStateError(f"from_data cannot read a {getattr(expect, '__name__', expect)}")
    _check_data(data)
    return _read_checked(
        data,
        expect,
        _Problems(written_rules=written_rules is True),
        require_record=require_record is True,
        canonical=(lambda value, version, found: _canonical_document(value, version, found) == data)
        if strict
        else None,
        refusal="the data is not what to_data gives (every field, cards as '10D', registered"
        " rule sets by name); pass strict=False to accept it",
    )


def _read_checked(
    doc: object,
    expect: type | None,
    found: _Problems,
    *,
    require_record: bool,
    canonical: Callable[[Loadable, int, _Problems], bool] | None,
    refusal: str,
) -> Loadable:
    """The value of a parsed document, checked; what `from_json` and `from_data` share.

    `canonical`, when given, says whether the input is the canonical form of
    the value read; `refusal` is the message when it is not. Nothing but
    `InvalidStateError` escapes.
    """
    try:
        value, version = _read_document(doc, expect, found)
        if require_record and isinstance(value, (GameState, Observation)):
            _require_record(value)
        if canonical is not None and not canonical(value, version, found):
            raise InvalidStateError(refusal)
    except InvalidStateError:
        raise
    except XeriError as exc:
        raise InvalidStateError(_short_message(str(exc))) from None
    except RecursionError:
        raise InvalidStateError("the data is nested too deeply") from None
    except Exception as exc:  # the promise: nothing but XeriError escapes
        raise InvalidStateError(f"the data cannot be read ({type(exc).__name__})") from None
    return value


_JSON_SCALARS = (str, int, bool, type(None))


def _check_data(data: object) -> None:
    """Refuse what no JSON text could decode to, too deep or too large, in time linear in its size.

    A walk with an explicit stack, so a cycle or deep nesting ends at `MAX_DEPTH`.
    """
    budget = MAX_TEXT_LENGTH  # every node and every character of a string costs one
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        cls = type(value)
        budget -= 1
        if cls is str:
            budget -= len(value)  # type: ignore[arg-type]  # a str, tested above
        elif cls is dict or cls is list:
            if depth > MAX_DEPTH:
                raise InvalidStateError(f"the data nests deeper than {MAX_DEPTH} levels")
            if cls is dict:
                items = value.items()  # type: ignore[attr-defined]  # a dict, tested above
                for key, item in items:
                    if type(key) is not str:
                        raise InvalidStateError("the data has an object key that is not a string")
                    budget -= len(key)
                    stack.append((item, depth + 1))
            else:
                stack.extend((item, depth + 1) for item in value)  # type: ignore[attr-defined]  # a list
        elif cls not in _JSON_SCALARS:
            raise InvalidStateError(f"the data holds a {cls.__name__}: the format has none")
        if budget < 0:
            raise InvalidStateError(
                f"the data is larger than the {MAX_TEXT_LENGTH} characters that from_json reads"
            )


_STRING = re.compile(r'"[^"]*"?')
"""A JSON string once its escaped backslashes and quotes are gone (an unterminated one runs
to the end): a repeat of one character class, which the regex engine scans without
backtracking, so the scan is linear in time and memory."""
_BRACKETS = str.maketrans(
    {chr(i): None for i in range(128) if chr(i) not in "[]{}"} | {"{": "[", "}": "]"}
)


def _check_shape(text: str) -> None:
    """Refuse nesting too deep, in linear time, before parsing.

    Outside the strings, the brackets of valid JSON pair up; removing every
    adjacent pair removes one level of nesting, so what is left after
    `MAX_DEPTH` rounds is nesting deeper than that, or brackets that do not
    pair up (which is not JSON either).
    """
    bare = _STRING.sub("", text.replace("\\\\", "").replace('\\"', ""))
    if not bare.isascii():
        raise InvalidStateError("not JSON: a character outside the strings is not ASCII")
    brackets = bare.translate(_BRACKETS)
    too_deep = f"the JSON text nests deeper than {MAX_DEPTH} levels"
    if "[" * (MAX_DEPTH + 1) in brackets:
        raise InvalidStateError(too_deep)
    for _ in range(MAX_DEPTH):
        fewer = brackets.replace("[]", "")
        if len(fewer) == len(brackets):
            break
        brackets = fewer
    if not brackets:
        return
    if "[]" in brackets:
        raise InvalidStateError(too_deep)
    raise InvalidStateError("not JSON: its brackets [] and {} do not pair up")


class _LongNumberError(ValueError):
    """A number written with too many characters."""


def _parse_int(token: str) -> int:
    if len(token) > _MAX_NUMBER:
        raise _LongNumberError
    return int(token)


def _parse_float(token: str) -> float:
    if len(token) > _MAX_NUMBER:
        raise _LongNumberError
    return float(token)


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]  # add() is None: a set-building test
        raise _RepeatedKeyError(f"a JSON object names the key {_short(twice)} twice")
    return obj


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a number that JSON allows")


def _short(value: object, limit: int = 40) -> str:
    """A short description of a value from outside, safe to put in a message."""
    if isinstance(value, str):
        text = repr(value)
        return text if len(text) <= limit else text[: limit - 4] + "...'"
    if value is None or type(value) in (bool, float):
        return repr(value)
    if type(value) is int:
        return repr(value) if abs(value) <= _MAX_INT else "a huge integer"
    if type(value) is list:
        return "a list"
    if type(value) is dict:
        return "an object"
    return f"a {type(value).__name__}"


def _short_message(message: str) -> str:
    """A message from another part of the library, cut if a value from outside made it long."""
    return message if len(message) <= _MAX_MESSAGE else message[: _MAX_MESSAGE - 3] + "..."


# --------------------------------------------------------------------------
# Reading: the document


def _canonical(value: Loadable, version: int, found: _Problems) -> str:
    """The canonical text of a value read: a record's as it was written, old or new."""
    if isinstance(value, GameRecord):
        if found.library is None:
            return _text(value, version, legacy=True)
        return _text(value, version, library=found.library)
    return _text(value, version)


def _canonical_document(value: Loadable, version: int, found: _Problems) -> dict[str, Any]:
    """`_canonical`, as the document `to_data` gives."""
    if isinstance(value, GameRecord):
        if found.library is None:
            return _document(value, version, legacy=True)
        return _document(value, version, library=found.library)
    return _document(value, version)


def _require_record(value: GameState | Observation) -> None:
    """Refuse earlier rounds known only by their results (see `require_record`)."""
    results = value.round_results
    unproven = len(results) - (value.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER))
    if unproven > 0:
        raise InvalidStateError(
            f"the {_TYPE_OF_CLASS[type(value)]} holds {unproven} earlier"
            f" round{'s' if unproven > 1 else ''} known only by their results, which only a"
            " game record proves (require_record=True)"
        )


def _read_document(doc: object, expect: type[Any] | None, found: _Problems) -> tuple[Loadable, int]:
    if type(doc) is not dict:
        raise InvalidStateError(
            "the text must hold an object with keys data, format, type, version"
        )
    problems = []
    keys = {"data", "format", "type", "version"}
    missing = sorted(keys - doc.keys())
    extra = [k for k in doc if k not in keys][:5]
    if missing:
        problems.append(f"missing keys: {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected keys: {', '.join(_short(k) for k in extra)}")
    if "format" in doc and doc["format"] != FORMAT:
        problems.append(f"format must be {FORMAT!r}, not {_short(doc['format'])}")
    version = doc.get("version")
    if "version" in doc and (type(version) is not int or version not in _VERSIONS):
        problems.append(
            f"unsupported format version {_short(version)} (this reads versions 1 and 2)"
        )
    kind = doc.get("type")
    readers = _DOCUMENTS.get(kind) if type(kind) is str else None
    if "type" in doc and readers is None:
        problems.append(f"type must be one of {', '.join(_DOCUMENTS)}, not {_short(kind)}")
    if problems or readers is None or type(version) is not int:
        raise InvalidStateError(problems)
    if expect is not None and _TYPE_OF_CLASS[expect] != kind:
        raise InvalidStateError(f"the text holds a {kind}, not a {expect.__name__}")
    try:
        value = cast("Loadable", readers[version](doc["data"], "$.data", found))
    except _TooManyError:
        found.problems.append(f"reading stopped at {_MAX_PROBLEMS} problems")
    if found.problems:
        raise InvalidStateError(found.problems)
    if expect is not None and type(value) is not expect:
        raise InvalidStateError(f"the text holds a {type(value).__name__}, not a {expect.__name__}")
    problems = _value_problems(value)
    if problems:
        raise InvalidStateError([_short_message(p) for p in problems[:_MAX_PROBLEMS]])
    return value, version


# --------------------------------------------------------------------------
# Checks of the values read


def _value_problems(value: Loadable) -> list[str]:
    if isinstance(value, GameState):
        return check_state(value).problems
    if isinstance(value, Observation):
        return check_observation(value)
    if isinstance(value, GameRecord):
        try:
            _last_state(value)
        except XeriError as exc:
            return [f"the record does not replay: {exc}"]
        return []
    if isinstance(value, RuleSet):
        return []
    return _move_problems(value)


def _move_problems(
    move: Card | Capture | Combine | Trail | Deal | Reshuffle | DealCard,
) -> list[str]:
    if isinstance(move, DealCard):
        return []
    if isinstance(move, Deal):
        if len(move.deck) < 2 or len(set(move.deck)) != len(move.deck):  # two seats
            # A rule set's deck may be smaller than the 52: applying the deal checks its cards.
            # Every rule set deals at least one card to each of at least two seats.
            return ["a deal's deck must hold each of its cards once, two cards at least"]
        return []
    if isinstance(move, Reshuffle):
        if len(set(move.stock)) != len(move.stock):
            return ["a reshuffle's stock holds a card twice"]
        return []
    items: tuple[TableItem, ...] = ()
    if isinstance(move, Capture):
        items = move.taken
    elif isinstance(move, Combine):
        items = (move.onto, *move.also)
    p = [
        "a build must hold cards, a value and an owner seat >= 0"
        for item in items
        if isinstance(item, Build) and (not item.cards or item.owner < 0)
    ]
    used = [move.card] + [c for item in items for c in item_cards(item)]
    if len(set(used)) != len(used):
        p.append("a move names a card twice")
    if isinstance(move, Capture) and not move.taken:
        p.append("a capture takes at least one item")
    return p


# --------------------------------------------------------------------------
# The readers
#
# A reader takes a parsed JSON value, its path and the problems found so
# far. It returns the value it read, or `_BAD` after adding a problem; a
# reader of a container builds its value only when no element added one.
# Paths are nested pairs `(parent, key)`, turned into text only for a
# problem. When the hundredth problem is added, `_TooManyError` ends the
# reading at once: no element beyond it is looked at.


class _TooManyError(Exception):
    """The problem cap is reached: stop reading."""


class _Bad:
    """The type of `_BAD`, the result of a reader that found a problem."""

    __slots__ = ()


_BAD: Final = _Bad()
_Path: TypeAlias = "tuple[Any, Any] | str"


def _where(path: _Path) -> str:
    keys: list[str] = []
    while type(path) is tuple:
        path, key = path
        keys.append(f"[{key}]" if type(key) is int else f".{key}")
    return str(path) + "".join(reversed(keys))


class _Problems:
    """The problems found while reading, up to the cap, and how the document is read."""

    __slots__ = ("library", "problems", "written_rules")

    def __init__(self, *, written_rules: bool = False) -> None:
        self.problems: list[str] = []
        self.written_rules = written_rules
        """Whether a rule set written in full may differ from the registered one of its name."""
        self.library: str | None = None
        """The library version a record names (None: a record written before records had it)."""

    def add(self, path: _Path, message: str) -> _Bad:
        self.problems.append(f"{_short_message(message)} @ {_where(path)}")
        if len(self.problems) >= _MAX_PROBLEMS:
            raise _TooManyError
        return _BAD


_Reader: TypeAlias = Callable[[object, _Path, _Problems], object]


def _integer(lo: int = -_MAX_INT, hi: int = _MAX_INT, what: str = "an integer") -> _Reader:
    expected = (
        "an integer within +-(2**53 - 1)"
        if (lo, hi) == (-_MAX_INT, _MAX_INT)
        else f"{what} from {lo} to {hi}"
    )

    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is int and lo <= value <= hi:
            return value
        return p.add(path, f"expected {expected}, not {_short(value)}")

    return read


_int = _integer()
_seat = _integer(0, _MAX_SEATS - 1, "a seat")
_count = _integer(0, 52, "a number of cards")


def _bool(value: object, path: _Path, p: _Problems) -> object:
    if type(value) is bool:
        return value
    return p.add(path, f"expected true or false, not {_short(value)}")


def _string(limit: int | None = None) -> _Reader:
    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is not str:
            return p.add(path, f"expected a string, not {_short(value)}")
        if limit is not None and len(value) > limit:
            return p.add(path, f"expected a string of at most {limit} characters")
        return value

    return read


def _none(value: object, path: _Path, p: _Problems) -> object:
    return None if value is None else p.add(path, f"expected null, not {_short(value)}")


def _enum(cls: type[Enum]) -> _Reader:
    by_value = {member.value: member for member in cls}
    kinds = {type(v) for v in by_value}
    allowed = ", ".join(repr(v) for v in by_value)

    def read(value: object, path: _Path, p: _Problems) -> object:
        member = by_value.get(value) if type(value) in kinds else None
        if member is not None:
            return member
        return p.add(path, f"expected one of {allowed}, not {_short(value)}")

    return read


def _card(value: object, path: _Path, p: _Problems) -> object:
    if type(value) is not str:
        return p.add(path, f"expected a card name such as '10D', not {_short(value)}")
    card = _CARDS_BY_NAME.get(value)
    if card is not None:
        return card
    try:
        return Card.parse(value)  # other spellings, for strict=False
    except XeriError as exc:
        return p.add(path, str(exc))


def _optional(reader: _Reader) -> _Reader:
    def read(value: object, path: _Path, p: _Problems) -> object:
        return None if value is None else reader(value, path, p)

    return read


def _tuple(item: _Reader, limit: int | None = None, what: str = "entries") -> _Reader:
    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is not list:
            return p.add(path, f"expected a list, not {_short(value)}")
        if limit is not None and len(value) > limit:
            return p.add(path, f"expected at most {limit} {what}, not {len(value)}")
        before = len(p.problems)
        out = [item(v, (path, i), p) for i, v in enumerate(value)]
        return tuple(out) if len(p.problems) == before else _BAD

    return read


def _ints(limit: int) -> _Reader:
    slow = _tuple(_int, limit)

    def read(value: object, path: _Path, p: _Problems) -> object:
        if (
            type(value) is list
            and len(value) <= limit
            and all(type(v) is int and -_MAX_INT <= v <= _MAX_INT for v in value)
        ):
            return tuple(value)
        return slow(value, path, p)

    return read


def _cards(limit: int = 52) -> _Reader:
    slow = _tuple(_card, limit, "cards")

    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is list and len(value) <= limit:
            try:
                return tuple(map(_CARDS_BY_NAME.__getitem__, value))
            except (KeyError, TypeError):  # not all canonical names: read one by one
                pass
        return slow(value, path, p)

    return read


def _pair(first: _Reader, second: _Reader) -> _Reader:
    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is not list or len(value) != 2:
            return p.add(path, f"expected a list of 2, not {_short(value)}")
        before = len(p.problems)
        out = (first(value[0], (path, 0), p), second(value[1], (path, 1), p))
        return out if len(p.problems) == before else _BAD

    return read


_REQUIRED: Final = True
_DEFAULT: Final = False


def _object(
    what: str,
    fields: Mapping[str, tuple[_Reader, bool]],
    build: Callable[..., Any],
    *,
    tag: str | None = None,
) -> _Reader:
    """A reader of an object with these fields (reader, required), built by `build(**fields)`.

    A `tag` is the value of a `"kind"` key the object must have, which is
    not passed on.
    """
    keys = sorted(fields)
    allowed = set(fields) | ({"kind"} if tag is not None else set())

    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is not dict:
            return p.add(path, f"expected an object ({what}), not {_short(value)}")
        before = len(p.problems)
        if not value.keys() <= allowed:
            extra = [k for k in value if k not in allowed][:5]
            p.add(path, f"unexpected fields: {', '.join(_short(k) for k in extra)}")
        if tag is not None and value.get("kind") != tag:
            p.add((path, "kind"), f"a {what} must have the kind {tag!r}")
        args: dict[str, Any] = {}
        for key in keys:
            if key in value:
                args[key] = fields[key][0](value[key], (path, key), p)
            elif fields[key][1]:
                p.add((path, key), "required field missing")
        if len(p.problems) != before:
            return _BAD
        try:
            return build(**args)
        except XeriError as exc:
            return p.add(path, str(exc))

    return read


_result = _object(
    "a round result",
    {
        name: (_ints(_MAX_SEATS), _REQUIRED)
        for name in ("cards", "card_points", "majority", "xeris", "xeri_bonus", "total")
    }
    | {
        "leftover": (_count, _DEFAULT),
        "categories": (_tuple(_pair(_string(64), _ints(_MAX_SEATS)), 16, "lines"), _DEFAULT),
    },
    RoundResult,
)
_build = _object(
    "a build",
    {"cards": (_cards(), _REQUIRED), "owner": (_seat, _REQUIRED), "value": (_int, _REQUIRED)},
    Build,
)


def _item(value: object, path: _Path, p: _Problems) -> object:
    if type(value) is str:
        return _card(value, path, p)
    if type(value) is dict:
        return _build(value, path, p)
    return p.add(path, f"expected a card or a build, not {_short(value)}")


_TAGGED: dict[str, _Reader] = {
    "capture": _object(
        "capture move",
        {"card": (_card, _REQUIRED), "taken": (_tuple(_item, 52, "items"), _REQUIRED)},
        Capture,
        tag="capture",
    ),
    "combine": _object(
        "combine move",
        {
            "card": (_card, _REQUIRED),
            "onto": (_item, _REQUIRED),
            "value": (_int, _REQUIRED),
            "also": (_tuple(_item, 52, "items"), _DEFAULT),
        },
        Combine,
        tag="combine",
    ),
    "trail": _object("trail move", {"card": (_card, _REQUIRED)}, Trail, tag="trail"),
    "deal": _object("deal move", {"deck": (_cards(), _REQUIRED)}, Deal, tag="deal"),
    "reshuffle": _object(
        "reshuffle move", {"stock": (_cards(), _REQUIRED)}, Reshuffle, tag="reshuffle"
    ),
    "deal card": _object("deal card move", {"card": (_card, _REQUIRED)}, DealCard, tag="deal card"),
}


def _move_reader(kinds: tuple[str, ...]) -> _Reader:
    names = ", ".join(repr(k) for k in kinds)

    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is str:
            return _card(value, path, p)
        if type(value) is dict:
            kind = value.get("kind")
            if type(kind) is str and kind in kinds:
                return _TAGGED[kind](value, path, p)
            return p.add((path, "kind"), f"expected a move kind {names}, not {_short(kind)}")
        return p.add(path, f"expected a card or a move object, not {_short(value)}")

    return read


_player_move = _move_reader(("capture", "combine", "trail"))
_any_move = _move_reader(tuple(_TAGGED))


def _component(proto: type[Any], also: Callable[[object], bool] | None = None) -> _Reader:
    def read(value: object, path: _Path, p: _Problems) -> object:
        if type(value) is not dict or len(value) != 1:
            return p.add(
                path,
                "expected a component: an object with one key, its class name, such as "
                '{"PileCapture": {...}}',
            )
        [(name, body)] = value.items()
        reader = _component_readers().get(name)
        if reader is None:
            return p.add(
                path, f"unknown component class {_short(name)}: register a rule set that uses it"
            )
        component = reader(body, (path, name), p)
        if component is _BAD:
            return _BAD
        if not isinstance(component, proto) and not (also is not None and also(component)):
            return p.add(path, f"{name} is not a {proto.__name__}")
        return component

    return read


_ANNOTATED_OPTIONS = frozenset({"sweepers", "jack_xeri_ranks"})
"""The options of `SumCapture` read by their fields' annotations (tuples of values)."""


def _by_annotation(cls: type[Any], name: str) -> _Reader:
    """A reader of the field `name` of a library class, by its annotation, made on first use."""

    def read(value: object, path: _Path, p: _Problems) -> object:
        field = next(f for f in _field_types(cls) if f.name == name)
        return _reader_for(_field_types(cls)[field])(value, path, p)

    return read


def _rank_value(value: object, path: _Path, p: _Problems) -> object:
    """A rank's value in sums: an int, or a list of ints (several values, K2)."""
    if type(value) is list:
        return _tuple(_int, 13, "values")(value, path, p)
    return _int(value, path, p)


def _sum_option(default: object) -> _Reader:
    """The reader of a `SumCapture` option, by the type of its default (see `SUM_OPTIONS`)."""
    if type(default) is bool:
        return _bool
    if default is None:  # an int when set: the total (K1)
        return _optional(_int)
    return _tuple(_pair(_enum(Rank), _rank_value), 13, "values")  # the values


_BUILT_IN_COMPONENTS: dict[type[Any], _Reader] = {
    PileCapture: _object(
        "PileCapture",
        {o.name: (_optional(_enum(Rank)), _DEFAULT) for o in PILE_OPTIONS},  # every one a Rank
        PileCapture,
    ),
    SumCapture: _object(
        "SumCapture",
        {
            o.name: (
                _by_annotation(SumCapture, o.name)  # the sweepers and jack xeri ranks (W1-W3)
                if o.name in _ANNOTATED_OPTIONS
                else _sum_option(o.default),
                _DEFAULT,
            )
            for o in SUM_OPTIONS
        },
        SumCapture,
    ),
    StandardScorer: _object("StandardScorer", {}, StandardScorer),
    TargetScore: _object(
        "TargetScore",
        {
            "target": (_int, _DEFAULT),
            "step": (_int, _DEFAULT),
            "shared": (_enum(SharedTarget), _DEFAULT),
        },
        TargetScore,
    ),
    FixedRounds: _object("FixedRounds", {"rounds": (_int, _DEFAULT)}, FixedRounds),
}


_LIBRARY_COMPONENTS = (
    CountOut,
    RanksOnTable,
    ReplaceRanks,
    AwardSums,
    NamedPoints,
    MostOfSuit,
    Primiera,
    Sweeps,
    SweepPoints,
)
"""The library's components read by their fields' annotations, as outside ones are."""


def _redeal(value: object, path: _Path, p: _Problems) -> object:
    """A redeal rule: a `Redeal` member by its value, or a component (an initial-table rule too)."""
    if type(value) is str:
        return _enum(Redeal)(value, path, p)
    return _component(RedealRule, also=_answers_action)(value, path, p)


def _answers_action(component: object) -> bool:
    """Whether a component is an initial-table rule: it has an `action` method ([T1][rules-t1])."""
    return callable(getattr(component, "action", None))


def _component_readers() -> dict[str, _Reader]:
    """The component classes that may be read: the library's and those of registered rule sets."""
    readers = {_component_name(cls): r for cls, r in _BUILT_IN_COMPONENTS.items()}
    for library_class in _LIBRARY_COMPONENTS:
        readers[_component_name(library_class)] = _attrs_reader(library_class)
    for name in registered():
        rules = find_rules(name)
        parts = [getattr(rules, field) for field in _COMPONENT_FIELDS]
        parts += [rules.redeal, *rules.categories]
        for cls in map(type, parts):
            if cls not in _BUILT_IN_COMPONENTS and attrs.has(cls):
                readers[_component_name(cls)] = _attrs_reader(cls)
    return readers


@cache
def _attrs_reader(cls: type[Any]) -> _Reader:
    """A reader of a component class from outside the library, by its fields' annotations."""
    try:
        fields = {
            f.name: (_reader_for(t), f.default is attrs.NOTHING)
            for f, t in _field_types(cls).items()
        }
    except Exception:  # a foreign class's annotations may fail in any way
        reason = f"the fields of {cls.__qualname__} cannot be read: annotate them with types"

        def refuse(value: object, path: _Path, p: _Problems) -> object:
            return p.add(path, reason)

        return refuse
    aliases = {f.name: f.alias for f in attrs.fields(cls)}
    return _object(
        cls.__qualname__, fields, lambda **kw: cls(**{aliases[k]: v for k, v in kw.items()})
    )


def _field_types(cls: type[Any]) -> dict[attrs.Attribute[Any], object]:
    """The types of the fields of an attrs class, each evaluated where it was written."""
    by_name = {f.name: f for f in attrs.fields(cls) if f.init}
    out: dict[attrs.Attribute[Any], object] = {}
    for klass in reversed(cls.__mro__):
        notes = {k: v for k, v in vars(klass).get("__annotations__", {}).items() if k in by_name}
        module = sys.modules.get(klass.__module__)
        if notes and module is not None:
            hints = typing.get_type_hints(
                types.SimpleNamespace(__annotations__=notes), vars(module)
            )
            out.update({by_name[k]: t for k, t in hints.items()})
    if len(out) != len(by_name):
        raise TypeError(f"{cls.__name__} has fields without annotations")
    return out


def _reader_for(t: object) -> _Reader:
    """The reader of a value of type `t`, for the fields of outside components."""
    simple: dict[object, _Reader] = {
        int: _int,
        bool: _bool,
        str: _string(),
        type(None): _none,
        None: _none,
        Card: _card,
    }
    if t in simple:
        return simple[t]
    if isinstance(t, type) and issubclass(t, Enum):
        return _enum(t)
    args = typing.get_args(t)
    if typing.get_origin(t) is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple(_reader_for(args[0]))
        if len(args) == 2:
            return _pair(_reader_for(args[0]), _reader_for(args[1]))
    if typing.get_origin(t) is typing.Union or isinstance(t, types.UnionType):
        others = [a for a in args if a is not type(None)]
        if len(others) == 1 and len(args) == 2:
            return _optional(_reader_for(others[0]))
        if set(args) == {Card, Build}:
            return _item
    if isinstance(t, type) and attrs.has(t):
        return _attrs_reader(t)
    raise TypeError(f"no JSON reader for {t!r}")


_points = _object(
    "a points table",
    {
        "ranks": (_tuple(_pair(_enum(Rank), _int), 13, "ranks"), _DEFAULT),
        "cards": (_tuple(_pair(_card, _int), 52, "cards"), _DEFAULT),
    },
    PointsTable,
)
_rules_by_fields = _object(
    "a rule set",
    {
        "name": (_string(_MAX_NAME), _REQUIRED),
        "seats": (_integer(0, _MAX_SEATS, "a number of seats"), _DEFAULT),
        "sides": (_tuple(_integer(0, _MAX_SEATS - 1, "a side"), _MAX_SEATS, "seats"), _DEFAULT),
        "hand_size": (_int, _DEFAULT),
        "table_size": (_int, _DEFAULT),
        "face_down": (_int, _DEFAULT),
        "deck": (_cards(), _DEFAULT),
        "redeal": (_redeal, _DEFAULT),
        "categories": (_tuple(_component(Category), 16, "categories"), _DEFAULT),
        "show_bottom_card": (_bool, _DEFAULT),
        "xeri_on_last_card": (_bool, _DEFAULT),
        "xeri_on_first_card": (_bool, _DEFAULT),
        "dealer_per_deal": (_bool, _DEFAULT),
        "capture": (_component(CaptureRule), _DEFAULT),
        "card_points": (_points, _DEFAULT),
        "majority_points": (_int, _DEFAULT),
        "majority_tie": (_enum(MajorityTie), _DEFAULT),
        "xeri_points": (_int, _DEFAULT),
        "jack_xeri_points": (_int, _DEFAULT),
        "scorer": (_component(Scorer), _DEFAULT),
        "match": (_component(MatchFormat), _DEFAULT),
    },
    RuleSet,
)


def _rules(value: object, path: _Path, p: _Problems) -> object:
    if type(value) is str:
        try:
            return find_rules(value)
        except XeriError as exc:
            return p.add(path, str(exc))
    rules = _rules_by_fields(value, path, p)
    if not isinstance(rules, RuleSet) or rules.name not in registered():
        return rules
    known = find_rules(rules.name)
    if known == rules:
        return known
    if p.written_rules:
        return rules
    return p.add(
        path,
        f"the rule set is named {rules.name!r}, as a registered rule set is, but has another"
        f" fingerprint: it differs in {_differing(rules, known)}; pass written_rules=True to"
        " load it under the rules written here",
    )


def _differing(rules: RuleSet, known: RuleSet) -> str:
    """The fields in which two rule sets differ, named."""
    names = [n for n in _init_fields(RuleSet) if getattr(rules, n) != getattr(known, n)]
    return ", ".join(names) or "a field"


_FINGERPRINT = re.compile(r"[0-9a-f]{64}")


def _record_reader(value: object, path: _Path, p: _Problems) -> object:
    """A record: its moves, dealer and rules, and (since records carry them) its fingerprint.

    A record written with a fingerprint must have the fingerprint of the
    rule set it writes; that rule set must be the registered one of its
    name, unless `written_rules` (see [`from_json`][xeri.from_json]).
    """
    if type(value) is not dict or ("fingerprint" not in value and "library" not in value):
        return _record(value, path, p)
    fields = dict(value)
    library = _string(_MAX_NAME)(fields.pop("library", None), (path, "library"), p)
    mark = fields.pop("fingerprint", None)
    if not (type(mark) is str and _FINGERPRINT.fullmatch(mark)):
        p.add((path, "fingerprint"), "a record's fingerprint is 64 lower-case hex digits")
        mark = None
    if type(library) is str:
        p.library = library
    game = _record(fields, path, p)
    if not isinstance(game, GameRecord) or mark is None:
        return _BAD
    rules = game.rules
    written = _short(library)
    if type(fields.get("rules")) is str:  # the rules by name: the registered ones
        if _fingerprint(rules) != mark:
            return p.add(
                (path, "rules"),
                f"the record was played under another rule set named {rules.name!r}"
                f" (written by xeri {written}): the registered one has another fingerprint, and"
                " the record names its rules without writing them",
            )
        return game
    if _fingerprint(rules) != mark:
        return p.add(
            (path, "fingerprint"),
            "the fingerprint does not match the rule set written in the record",
        )
    return game


_xeri = (_optional(_enum(XeriKind)), _DEFAULT)
_turn = (_optional(_integer(-1, 52, "a turn (-1 for an award at the deal)")), _DEFAULT)
_take = _object(
    "a capture",
    {"seat": (_seat, _REQUIRED), "cards": (_cards(), _REQUIRED), "xeri": _xeri, "turn": _turn},
    Take,
)
_observed_take = _object(
    "a capture",
    {
        "seat": (_seat, _REQUIRED),
        "cards": (_cards(), _REQUIRED),
        "hidden": (_count, _DEFAULT),
        "xeri": _xeri,
        "turn": _turn,
    },
    ObservedTake,
)
_MATCH_FIELDS: dict[str, tuple[_Reader, bool]] = {
    "rules": (_rules, _REQUIRED),
    "phase": (_enum(Phase), _REQUIRED),
    "dealer": (_seat, _REQUIRED),
    "to_move": (_optional(_seat), _REQUIRED),
    "table": (_tuple(_item, 52, "items"), _REQUIRED),
    "history": (_tuple(_player_move, 52, "plays"), _REQUIRED),
    "round_results": (_tuple(_result), _REQUIRED),
    "bottom_card": (_optional(_card), _DEFAULT),
    "redealt": (_tuple(_cards()), _DEFAULT),
    "replaced": (_cards(), _DEFAULT),
}
_STATE_FIELDS = _MATCH_FIELDS | {
    "hands": (_tuple(_cards(), _MAX_SEATS, "hands"), _REQUIRED),
    "stock": (_cards(), _REQUIRED),
    "takes": (_tuple(_take, 52, "captures"), _REQUIRED),
    "dealing": (_cards(), _DEFAULT),
}
_OBSERVATION_FIELDS = _MATCH_FIELDS | {
    "seat": (_optional(_seat), _REQUIRED),  # None: a spectator's observation
    "hand": (_cards(), _REQUIRED),
    "hand_sizes": (_tuple(_count, _MAX_SEATS, "seats"), _REQUIRED),
    "face_down": (_count, _REQUIRED),
    "stock_size": (_count, _REQUIRED),
    "takes": (_tuple(_observed_take, 52, "captures"), _REQUIRED),
}


def _version_1(fields: dict[str, tuple[_Reader, bool]]) -> dict[str, tuple[_Reader, bool]]:
    """The fields of version 1, before `redealt` (and `dealing`, `replaced`) came."""
    return {k: v for k, v in fields.items() if k not in ("redealt", "dealing", "replaced")}


_record = _object(
    "a game record",
    {
        "rules": (_rules, _REQUIRED),
        "dealer": (_seat, _REQUIRED),
        "moves": (_tuple(_any_move), _DEFAULT),
    },
    GameRecord,
)
_DOCUMENTS: dict[str, dict[int, _Reader]] = {
    "state": {
        1: _object("a state", _version_1(_STATE_FIELDS), GameState),
        2: _object("a state", _STATE_FIELDS, GameState),
    },
    "observation": {
        1: _object("an observation", _version_1(_OBSERVATION_FIELDS), Observation),
        2: _object("an observation", _OBSERVATION_FIELDS, Observation),
    },
    "move": dict.fromkeys(_VERSIONS, _any_move),
    "rules": dict.fromkeys(_VERSIONS, _rules),
    "record": dict.fromkeys(_VERSIONS, _record_reader),
}
"""The reader of each document type, by format version."""

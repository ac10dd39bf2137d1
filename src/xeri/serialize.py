"""JSON at the edges: states, observations, moves, rule sets and game records.

[`to_json`][xeri.to_json] writes one value as a JSON document;
[`from_json`][xeri.from_json] reads one back and checks it completely.
Structuring is done by [cattrs](https://catt.rs) (the `json` extra:
`pip install xeri[json]`); it is imported on first use, so the rest of the
library does not need it.

## The format

A document is an object with four keys:

* `"format"`: always `"xeri"`;
* `"version"`: the format version, [`FORMAT_VERSION`][xeri.serialize.FORMAT_VERSION] (1);
* `"type"`: `"state"`, `"observation"`, `"move"`, `"rules"` or `"record"`;
* `"data"`: the value.

Inside `data`, attrs values are objects with one key per field, named as
the field. A card is its ASCII name (`"10D"`, `"AS"`); a pile game's move
is that card. The other moves are objects tagged by `"kind"`: `"capture"`,
`"combine"`, `"trail"`, `"deal"` and `"reshuffle"`. A table item is a card
or a build object (`cards`, `owner`, `value`). Enumerations are their values
(`"play"`, `"raise target"`; ranks are numbers 1 to 13). A rule set equal to
the one registered under its name is that name (`"greek"`); any other is an
object of all its fields, and each component (`capture`, `scorer`, `match`)
is an object with one key, the component's class name (`"PileCapture"`;
classes from outside the library by module and name), holding its fields.
Only component classes of registered rule sets and of the library are read
back: register a custom rule set before loading games that use it.

`to_json` writes the one canonical text of a value: keys sorted, no
spaces, ASCII only, integers within ±(2**53 - 1) so that any JSON reader
gets them exactly. By default `from_json` accepts only that text, so
`to_json(from_json(text)) == text` for every text it accepts; pass
`strict=False` to accept any layout, key order, spelling of cards and
fields left at their defaults.

## Validation

Loading never trusts the text. Types are checked exactly (`true` is not a
number, `1.0` is not an int, no NaN, no repeated key, no missing or extra
field), then the value: a state must be one the engine could reach (the 52
cards each once, hand and stock sizes for the phase, the seat to move, the
round's plays replayed to the same state, scores consistent with the round
results); an observation must be one that [`observe`][xeri.observe] gives
for some such state; a record must replay. Every problem found is listed in
one [`InvalidStateError`][xeri.InvalidStateError]; whatever the input,
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
    '{"data":"greek","format":"xeri","type":"rules","version":1}'
    >>> xeri.to_json(state.hands[1][0])
    '{"data":"2C","format":"xeri","type":"move","version":1}'
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from enum import Enum, IntEnum
from functools import cache
from typing import (
    TYPE_CHECKING,
    Any,
    TypeAlias,
    TypeVar,
    Union,
    cast,
    get_args,
    get_origin,
    overload,
)

import attrs

from xeri import capture as _capture_module
from xeri import cards as _cards_module
from xeri import match as _match_module
from xeri import moves as _moves_module
from xeri import rules as _rules_module
from xeri import scoring as _scoring_module
from xeri import state as _state_module
from xeri import table as _table_module
from xeri._validate import check_state
from xeri.capture import CaptureRule
from xeri.cards import Card
from xeri.errors import InvalidStateError, XeriError
from xeri.match import FixedRounds, MatchFormat, TargetScore
from xeri.moves import Capture, Combine, Deal, Reshuffle, Trail
from xeri.observe import Observation, ObservedTake
from xeri.pile import PileCapture
from xeri.records import GameRecord, replay
from xeri.rules import RuleSet, find_rules, registered
from xeri.sample import check_observation
from xeri.scoring import Scorer, StandardScorer
from xeri.state import GameState
from xeri.sums import SumCapture
from xeri.table import Build, TableItem, item_cards

if TYPE_CHECKING:
    import cattrs

__all__ = ["FORMAT", "FORMAT_VERSION", "Loadable", "from_json", "to_json"]

FORMAT = "xeri"
"""The value of a document's `"format"` key."""
FORMAT_VERSION = 1
"""The version of the format that `to_json` writes. Older versions stay readable."""

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
)
"""Everything `to_json` writes and `from_json` reads."""

_T = TypeVar("_T")
_MAX_INT = 2**53 - 1
_MAX_PROBLEMS = 100
_MAX_SEATS = 8  # RuleSet's own bound
_MOVE_KINDS: dict[str, type[Any]] = {
    "capture": Capture,
    "combine": Combine,
    "trail": Trail,
    "deal": Deal,
    "reshuffle": Reshuffle,
}
_MOVE_CLASSES: frozenset[type[Any]] = frozenset({Card, *_MOVE_KINDS.values()})
_DOCUMENT_TYPES: dict[str, object] = {
    "state": GameState,
    "observation": Observation,
    "rules": RuleSet,
    "record": GameRecord,
    "move": Card | Capture | Combine | Trail | Deal | Reshuffle,
}
_TYPE_OF_CLASS: dict[type[Any], str] = {
    GameState: "state",
    Observation: "observation",
    RuleSet: "rules",
    GameRecord: "record",
    **dict.fromkeys(_MOVE_CLASSES, "move"),
}
_BUILT_IN_COMPONENTS: tuple[type[Any], ...] = (
    PileCapture,
    SumCapture,
    StandardScorer,
    TargetScore,
    FixedRounds,
)
_PROTOCOLS: tuple[type[Any], ...] = (CaptureRule, Scorer, MatchFormat)


class _BadValueError(XeriError):
    """A value of the wrong type or out of range, inside `from_json`."""


class _RepeatedKeyError(ValueError):
    """A JSON object that names a key twice."""


# --------------------------------------------------------------------------
# Writing


def to_json(obj: object) -> str:
    """The canonical JSON text of a state, observation, move, rule set or game record.

    Args:
        obj: the value to write.

    Returns:
        One line of ASCII JSON, keys sorted, no spaces (the module docstring
        describes the format).

    Raises:
        InvalidStateError: `obj` is none of the types above, or holds a
            component that is not an attrs class.
    """
    kind = _TYPE_OF_CLASS.get(type(obj))
    if kind is None:
        raise InvalidStateError(f"to_json cannot write a {type(obj).__name__}")
    data = _converter().unstructure(obj, type(obj))
    return _dump({"data": data, "format": FORMAT, "type": kind, "version": FORMAT_VERSION})


def _dump(doc: object) -> str:
    return json.dumps(
        doc, ensure_ascii=True, sort_keys=True, separators=(",", ":"), allow_nan=False
    )


# --------------------------------------------------------------------------
# Reading


@overload
def from_json(text: str, expect: type[_T], *, strict: bool = True) -> _T: ...


@overload
def from_json(text: str, expect: None = None, *, strict: bool = True) -> Loadable: ...


def from_json(text: str, expect: type[Any] | None = None, *, strict: bool = True) -> Any:
    """Read and check a document written by [`to_json`][xeri.to_json].

    Args:
        text: the JSON text.
        expect: the class the document must hold (`GameState`, `Observation`,
            `RuleSet`, `GameRecord` or a move class), or None for any.
        strict: accept only the canonical text `to_json` writes (the default);
            False accepts any layout of the same data.

    Returns:
        The value, checked as the module docstring says.

    Raises:
        InvalidStateError: the text is not such a document, or the value is not
            possible; `problems` lists every problem found. No other error is
            raised, whatever `text` is.
    """
    if not isinstance(text, str):
        raise InvalidStateError(f"from_json reads a str, not {type(text).__name__}")
    if expect is not None and (not isinstance(expect, type) or expect not in _TYPE_OF_CLASS):
        raise InvalidStateError(f"from_json cannot read a {getattr(expect, '__name__', expect)}")
    try:
        doc = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except _RepeatedKeyError as exc:
        raise InvalidStateError(str(exc)) from None
    except RecursionError:
        raise InvalidStateError("the JSON text is nested too deeply") from None
    except ValueError as exc:
        raise InvalidStateError(f"not JSON: {_short(str(exc), 120)}") from None
    try:
        value = _read_document(doc, expect)
        if strict and to_json(value) != text:
            raise InvalidStateError(
                "the text is not the canonical form that to_json writes (sorted keys, no spaces,"
                " every field, cards as '10D', registered rule sets by name); pass strict=False"
                " to accept it"
            )
    except InvalidStateError:
        raise
    except XeriError as exc:
        raise InvalidStateError(str(exc)) from None
    except RecursionError:
        raise InvalidStateError("the data is nested too deeply") from None
    except Exception as exc:  # the promise: nothing but XeriError escapes
        raise InvalidStateError(f"the data cannot be read ({type(exc).__name__})") from None
    return value


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
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


def _read_document(doc: object, expect: type[Any] | None) -> Loadable:
    if type(doc) is not dict:
        raise InvalidStateError(
            "the text must hold an object with keys data, format, type, version"
        )
    problems = []
    keys = {"data", "format", "type", "version"}
    missing = sorted(keys - doc.keys())
    extra = sorted(doc.keys() - keys)
    if missing:
        problems.append(f"missing keys: {', '.join(missing)}")
    if extra:
        problems.append(f"unexpected keys: {', '.join(_short(k) for k in extra[:5])}")
    if "format" in doc and doc["format"] != FORMAT:
        problems.append(f"format must be {FORMAT!r}, not {_short(doc['format'])}")
    version = doc.get("version")
    if "version" in doc and (type(version) is not int or version != FORMAT_VERSION):
        problems.append(
            f"unsupported format version {_short(version)} (this reads {FORMAT_VERSION})"
        )
    kind = doc.get("type")
    if "type" in doc and (type(kind) is not str or kind not in _DOCUMENT_TYPES):
        problems.append(f"type must be one of {', '.join(_DOCUMENT_TYPES)}, not {_short(kind)}")
    if problems:
        raise InvalidStateError(problems)
    kind = cast("str", kind)  # checked above
    if expect is not None and _TYPE_OF_CLASS[expect] != kind:
        raise InvalidStateError(f"the text holds a {kind}, not a {expect.__name__}")
    value = cast("Loadable", _structure(doc["data"], _DOCUMENT_TYPES[kind]))
    if expect is not None and type(value) is not expect:
        raise InvalidStateError(f"the text holds a {type(value).__name__}, not a {expect.__name__}")
    problems = _value_problems(value)
    if problems:
        raise InvalidStateError(problems[:_MAX_PROBLEMS])
    return value


def _structure(data: object, target: object) -> object:
    import cattrs  # noqa: PLC0415  # optional dependency, loaded on first use

    try:
        return _converter().structure(data, cast("Any", target))  # a class or a union
    except (cattrs.ClassValidationError, cattrs.IterableValidationError) as exc:
        problems = cattrs.transform_error(exc, path="$.data", format_exception=_format_error)
        raise InvalidStateError(_capped(problems)) from None


def _capped(problems: list[str]) -> list[str]:
    if len(problems) <= _MAX_PROBLEMS:
        return problems
    return [*problems[:_MAX_PROBLEMS], f"... and {len(problems) - _MAX_PROBLEMS} more problems"]


def _format_error(exc: BaseException, type_: type[Any] | None) -> str:
    import cattrs  # noqa: PLC0415  # optional dependency, loaded on first use

    if isinstance(exc, XeriError):
        return str(exc)
    if isinstance(exc, KeyError):
        return "required field missing"
    if isinstance(exc, cattrs.ForbiddenExtraKeysError):
        return f"unexpected fields: {', '.join(_short(k) for k in sorted(exc.extra_fields)[:5])}"
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    return f"cannot be read ({type(exc).__name__})"


# --------------------------------------------------------------------------
# Checks of the values read


def _value_problems(value: Loadable) -> list[str]:
    if isinstance(value, GameState):
        return check_state(value).problems
    if isinstance(value, Observation):
        return check_observation(value)
    if isinstance(value, GameRecord):
        try:
            replay(value)
        except XeriError as exc:
            return [f"the record does not replay: {exc}"]
        return []
    if isinstance(value, RuleSet):
        return []
    return _move_problems(value)


def _move_problems(move: Card | Capture | Combine | Trail | Deal | Reshuffle) -> list[str]:
    if isinstance(move, Deal):
        if len(move.deck) != 52 or len(set(move.deck)) != 52:
            return ["a deal's deck must hold each of the 52 cards once"]
        return []
    if isinstance(move, Reshuffle):
        if len(set(move.stock)) != len(move.stock):
            return ["a reshuffle's stock holds a card twice"]
        return []
    items: tuple[TableItem, ...] = ()
    if isinstance(move, Capture):
        items = move.taken
    elif isinstance(move, Combine):
        items = (move.onto,)
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
# The converter


def _component_name(cls: type[Any]) -> str:
    if cls.__module__.split(".")[0] == "xeri":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def _component_classes() -> dict[str, type[Any]]:
    """The component classes that may be read: the library's and those of registered rule sets."""
    _resolve(RuleSet)
    classes = set(_BUILT_IN_COMPONENTS)
    for name in registered():
        rules = find_rules(name)
        classes.update(
            type(getattr(rules, f.name)) for f in attrs.fields(RuleSet) if f.type in _PROTOCOLS
        )
    return {_component_name(cls): cls for cls in classes if attrs.has(cls)}


def _resolve(cls: type[Any]) -> None:
    """Turn the string annotations of an attrs class into types, as cattrs needs them."""
    if getattr(cls, "__attrs_types_resolved__", False) is cls:
        return
    namespace: dict[str, Any] = {}
    from xeri import observe as _observe_module  # noqa: PLC0415  # a sibling, imported above
    from xeri import records as _records_module  # noqa: PLC0415  # a sibling, imported above

    for module in (
        _cards_module,
        _table_module,
        _moves_module,
        _capture_module,
        _scoring_module,
        _match_module,
        _rules_module,
        _state_module,
        _observe_module,
        _records_module,
    ):
        namespace.update(vars(module))
    own = sys.modules.get(cls.__module__)
    if own is not None:
        namespace.update(vars(own))
    attrs.resolve_types(cls, globalns=namespace)


def _is_union(t: object) -> bool:
    return get_origin(t) is Union or isinstance(t, types.UnionType)


def _is_enum(t: object) -> bool:
    return isinstance(t, type) and issubclass(t, Enum)


def _is_tuple(t: object) -> bool:
    return get_origin(t) is tuple


def _is_attrs(t: object) -> bool:
    return isinstance(t, type) and attrs.has(t)


@cache
def _enum_values(cls: type[Enum]) -> dict[object, Enum]:
    return {member.value: member for member in cls}


def _is_type(expected: object) -> Callable[[object], bool]:
    return lambda t: t is expected


def _check_seat_counts(fields: dict[str, Any]) -> None:
    """Refuse seat and side numbers far out of range before `RuleSet` sees them.

    `RuleSet` builds `range(seats)` for its default sides, and a list up to
    the largest side number while checking them, before it refuses numbers
    that are too big: a seat count or side number of 10**9 from outside
    would make it allocate gigabytes.
    """
    seats = fields.get("seats")
    if type(seats) is int and not 0 <= seats <= _MAX_SEATS:
        raise _BadValueError(f"seats must be from 2 to {_MAX_SEATS}, not {_short(seats)}")
    sides = fields.get("sides")
    if type(sides) is list and any(type(s) is int and not 0 <= s < _MAX_SEATS for s in sides):
        raise _BadValueError(f"a side number must be from 0 to {_MAX_SEATS - 1}")


def _expect_dict(value: object, what: str) -> dict[str, Any]:
    if type(value) is not dict:
        raise _BadValueError(f"expected an object ({what}), not {_short(value)}")
    return value


@cache
def _converter() -> cattrs.Converter:  # noqa: PLR0915  # one place that sets up every hook
    import cattrs  # noqa: PLC0415  # optional dependency, loaded on first use
    from cattrs.gen import make_dict_structure_fn, make_dict_unstructure_fn  # noqa: PLC0415

    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)

    # attrs classes: objects with exactly their fields.
    def attrs_structure(cls: type[Any]) -> Callable[[object, object], object]:
        _resolve(cls)
        inner = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True)

        def hook(value: object, _: object) -> object:
            return inner(_expect_dict(value, cls.__name__), cls)

        return hook

    def attrs_unstructure(cls: type[Any]) -> Callable[[Any], Any]:
        _resolve(cls)
        return make_dict_unstructure_fn(cls, conv)

    conv.register_structure_hook_factory(_is_attrs, attrs_structure)
    conv.register_unstructure_hook_factory(_is_attrs, attrs_unstructure)

    # Scalars, exactly.
    def int_hook(value: object, _: object) -> int:
        if type(value) is not int or abs(value) > _MAX_INT:
            raise _BadValueError(f"expected an integer within +-(2**53 - 1), not {_short(value)}")
        return value

    def bool_hook(value: object, _: object) -> bool:
        if type(value) is not bool:
            raise _BadValueError(f"expected true or false, not {_short(value)}")
        return value

    def str_hook(value: object, _: object) -> str:
        if type(value) is not str:
            raise _BadValueError(f"expected a string, not {_short(value)}")
        return value

    conv.register_structure_hook(int, int_hook)
    conv.register_structure_hook(bool, bool_hook)
    conv.register_structure_hook(str, str_hook)

    def enum_hook(value: object, cls: type[Enum]) -> Enum:
        by_value = _enum_values(cls)
        if type(value) not in {type(v) for v in by_value} or value not in by_value:
            allowed = ", ".join(repr(v) for v in by_value)
            raise _BadValueError(f"expected one of {allowed}, not {_short(value)}")
        return by_value[value]

    # By class, as for int: IntEnum is listed so that Rank (an int too) gets this hook.
    conv.register_structure_hook(Enum, enum_hook)
    conv.register_structure_hook(IntEnum, enum_hook)
    conv.register_unstructure_hook_factory(_is_enum, lambda _: lambda member: member.value)

    # Tuples: JSON arrays only (not strings or objects), every element checked.
    def tuple_structure(t: object) -> Callable[[object, object], tuple[Any, ...]]:
        args = get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            element = conv.get_structure_hook(args[0])

            def homogeneous(value: object, _: object) -> tuple[Any, ...]:
                if type(value) is not list:
                    raise _BadValueError(f"expected a list, not {_short(value)}")
                return _structure_items(value, [(element, args[0])] * len(value), t)

            return homogeneous
        hooks = [(conv.get_structure_hook(a), a) for a in args]

        def heterogeneous(value: object, _: object) -> tuple[Any, ...]:
            if type(value) is not list or len(value) != len(hooks):
                raise _BadValueError(f"expected a list of {len(hooks)}, not {_short(value)}")
            return _structure_items(value, hooks, t)

        return heterogeneous

    def tuple_unstructure(t: object) -> Callable[[tuple[Any, ...]], list[Any]]:
        args = get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            element = conv.get_unstructure_hook(args[0])
            return lambda value: [element(v) for v in value]
        hooks = [conv.get_unstructure_hook(a) for a in args]
        return lambda value: [h(v) for h, v in zip(hooks, value, strict=True)]

    conv.register_structure_hook_factory(_is_tuple, tuple_structure)
    conv.register_unstructure_hook_factory(_is_tuple, tuple_unstructure)

    # Cards: their ASCII names.
    def card_structure(value: object, _: object) -> Card:
        if type(value) is not str:
            raise _BadValueError(f"expected a card name such as '10D', not {_short(value)}")
        return Card.parse(value)

    conv.register_structure_hook(Card, card_structure)
    conv.register_unstructure_hook(Card, lambda card: card.ascii)

    # Unions of moves and of table items: told apart by their JSON shape.
    def union_structure(t: object) -> Callable[[object, object], object]:
        members = set(get_args(t))
        card_hook = conv.get_structure_hook(Card)
        build_hook = conv.get_structure_hook(Build) if Build in members else None

        def hook(value: object, _: object) -> object:
            if type(value) is str and Card in members:
                return card_hook(value, Card)
            if type(value) is dict:
                if build_hook is not None:
                    return build_hook(value, Build)
                kind = value.get("kind")
                cls = _MOVE_KINDS.get(kind) if type(kind) is str else None
                if cls is not None and cls in members:
                    return conv.structure(value, cls)
            names = " or ".join(sorted(m.__name__ for m in members))
            raise _BadValueError(f"expected a {names}, not {_short(value)}")

        return hook

    def is_item_or_move_union(t: object) -> bool:
        if not _is_union(t):
            return False
        members = set(get_args(t))
        return members == {Card, Build} or (len(members) > 1 and members <= _MOVE_CLASSES)

    conv.register_structure_hook_factory(is_item_or_move_union, union_structure)
    conv.register_unstructure_hook_factory(
        is_item_or_move_union, lambda _: lambda value: conv.unstructure(value, type(value))
    )

    # Moves other than a card: objects tagged by "kind".
    def tagged(cls: type[Any], kind: str) -> None:
        _resolve(cls)
        structure = make_dict_structure_fn(cls, conv, _cattrs_forbid_extra_keys=True)
        unstructure = make_dict_unstructure_fn(cls, conv)

        def structure_hook(value: object, _: object) -> object:
            fields = dict(_expect_dict(value, f"a {kind} move"))
            if fields.pop("kind", None) != kind:
                raise _BadValueError(f'a {kind} move must have "kind": {kind!r}')
            return structure(fields, cls)

        conv.register_structure_hook(cls, structure_hook)
        conv.register_unstructure_hook(cls, lambda move: {"kind": kind, **unstructure(move)})

    for kind, cls in _MOVE_KINDS.items():
        tagged(cls, kind)

    # Components (capture rule, scorer, match format): {"ClassName": {fields}}.
    def component_hook(value: object, proto: object) -> object:
        fields = _expect_dict(value, 'a component such as {"PileCapture": {...}}')
        if len(fields) != 1:
            raise _BadValueError("a component is an object with one key, its class name")
        [(name, body)] = fields.items()
        cls = _component_classes().get(name)
        if cls is None:
            raise _BadValueError(
                f"unknown component class {_short(name)}: register a rule set that uses it"
            )
        component = conv.structure(body, cls)
        if not isinstance(component, proto):  # type: ignore[arg-type]  # a runtime Protocol
            raise _BadValueError(f"{name} is not a {getattr(proto, '__name__', proto)}")
        return component

    def component_out(component: object) -> object:
        cls = type(component)
        if not attrs.has(cls):
            raise InvalidStateError(f"a rule component must be an attrs class, not {cls.__name__}")
        return {_component_name(cls): conv.unstructure(component, cls)}

    for proto in _PROTOCOLS:
        conv.register_structure_hook_func(_is_type(proto), component_hook)
        conv.register_unstructure_hook_func(_is_type(proto), component_out)

    # Rule sets: a registered one by name, any other by its fields.
    _resolve(RuleSet)
    rules_structure = make_dict_structure_fn(RuleSet, conv, _cattrs_forbid_extra_keys=True)
    rules_unstructure = make_dict_unstructure_fn(RuleSet, conv)

    def rules_hook(value: object, _: object) -> RuleSet:
        if type(value) is str:
            return find_rules(value)
        fields = _expect_dict(value, "a rule set")
        _check_seat_counts(fields)
        return rules_structure(fields, RuleSet)

    def rules_out(rules: RuleSet) -> object:
        if rules.name in registered() and find_rules(rules.name) == rules:
            return rules.name
        return rules_unstructure(rules)

    conv.register_structure_hook(RuleSet, rules_hook)
    conv.register_unstructure_hook(RuleSet, rules_out)

    for cls in (GameState, Observation, ObservedTake, GameRecord):
        _resolve(cls)
    return conv


def _structure_items(
    values: list[Any], hooks: list[tuple[Callable[[Any, Any], Any], object]], t: object
) -> tuple[Any, ...]:
    """Structure each element with its hook, collecting every failure as cattrs does."""
    import cattrs  # noqa: PLC0415  # optional dependency, loaded on first use

    out: list[Any] = []
    errors: list[Exception] = []
    for i, (value, (hook, type_)) in enumerate(zip(values, hooks, strict=True)):
        try:
            out.append(hook(value, type_))
        except Exception as exc:  # noqa: PERF203  # each failure is collected, as cattrs does
            exc.__notes__ = [  # type: ignore[attr-defined]  # 3.11 adds it; cattrs reads it on 3.10
                *getattr(exc, "__notes__", []),
                cattrs.IterableValidationNote(f"Structuring {t} @ index {i}", i, type_),
            ]
            errors.append(exc)
    if errors:
        raise cattrs.IterableValidationError(f"While structuring {t!r}", errors, t)  # type: ignore[arg-type]  # a type form
    return tuple(out)

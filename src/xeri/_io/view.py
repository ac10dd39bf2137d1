"""What a client is sent: [`client_view`][xeri.client_view], one JSON-ready dict per seat.

A game server sends each seat's client a view after every move, and a
spectator's view to those who watch. The view holds what the seat's
[`Observation`][xeri.Observation] holds, and what a client would otherwise
have to work out from the rules: the scores and the match status, the
captured counts, the sides, who made each play of the round, what each
capture took, the last play with the cards it took and its xeri, the move
counter `ply`, and the legal moves of the seat to move with what each
takes (counted per card when they are too many to list: never listed).
It is one versioned dict of lists, strings, ints, bools and None,
described by the JSON Schema shipped with the package
([`client_view_schema`][xeri.client_view_schema]).

A view shows nothing its seat may not see ([X2][rules-x2], [P3][rules-p3]):
it is made from what the seat's observation holds (the spectator's, for
`seat=None`, which sees no hand and no face-down card at all), so two states
that the seat cannot tell apart give the same view.

One builder makes every view, and one table of fields (`_FIELDS`: each key
in order with its default) says how it is written: the JSON text
([`client_view_json`][xeri.client_view_json], [`encode_view`][xeri.encode_view])
leaves out every key at its default, and [`client_view`][xeri.client_view]
and [`decode_view`][xeri.decode_view] put them back. The docs' client view
page describes each key; moves are written in their ASCII notation
(`7C x 3D+4S`, see [`parse_move`][xeri.parse_move]).

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(2))
    >>> view = xeri.client_view(state, 1)
    >>> view["seat"], view["ply"], view["to_move"], len(view["moves"]), len(view["hand"])
    (1, 0, 1, 6, 6)
    >>> view["moves"][0] == state.hands[1][0].ascii
    True
    >>> text = xeri.client_view_json(state, 1)
    >>> '"takes"' in text, xeri.decode_view(text) == view  # left out at its default
    (False, True)
    >>> spectator = xeri.client_view(state, None)
    >>> spectator["hand"], spectator["moves"], spectator["hand_sizes"]
    ([], [], [6, 6])
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from importlib import resources
from typing import Any, Final

from xeri._cards import DECK, Card
from xeri._core.engine import legal_moves
from xeri._core.legal import LegalMoves
from xeri._core.legal import _listed as _listed_moves
from xeri._core.round import counted_xeri, round_play_seats
from xeri._core.round import round_dealer as _round_dealer
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, IllegalMoveError, NotationError
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._families.sums.rule import SumCapture
from xeri._io.serialize import _out, _rules_out
from xeri._moves import Capture, PlayerMove
from xeri._rules.match import _checked_status
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult
from xeri._table import item_cards

__all__ = [
    "MAX_LISTED_MOVES",
    "VIEW_VERSION",
    "client_moves",
    "client_view",
    "client_view_json",
    "client_view_schema",
    "decode_view",
    "encode_view",
]

VIEW_VERSION: Final = 2
"""The version of the client view's layout, its `"view"` key."""
MAX_LISTED_MOVES: Final = 100
"""The most legal moves a view lists one by one; with more it counts them per card."""

_REQUIRED: Final = object()
"""A key written in every view."""
_ZEROS: Final = object()
"""The default of a list with one 0 per side."""

_FIELDS: Final[tuple[tuple[str, object], ...]] = (
    ("view", _REQUIRED),
    ("rules", _REQUIRED),
    ("pile", _REQUIRED),
    ("seat", None),
    ("ply", _REQUIRED),
    ("phase", "play"),
    ("dealer", _REQUIRED),
    ("to_move", None),
    ("sides", _REQUIRED),
    ("hand", []),
    ("hand_sizes", _REQUIRED),
    ("face_down", 0),
    ("table", []),
    ("stock_size", _REQUIRED),
    ("bottom_card", None),
    ("redealt", []),
    ("replaced", []),
    ("plays", []),
    ("play_seats", ""),
    ("takes", []),
    ("last", None),
    ("captured", _ZEROS),
    ("scores", _ZEROS),
    ("round_results", []),
    ("winner", None),
    ("target", None),
    ("moves", []),
    ("move_cards", []),
)
"""Every key of a view in order, with its default: the JSON text leaves out a key at its default."""
_SHARED: Final = frozenset({"rules", "sides", "scores", "round_results"})
"""The keys whose values the builder shares with its cache: copied for `client_view`'s dict."""

_ASCII: dict[Card, str] = {card: card.ascii for card in DECK}
_XERI: dict[XeriKind | None, str | None] = {None: None, **{k: k.value for k in XeriKind}}
_PLAY = Phase.PLAY
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False
)


def _encoded_by_c() -> Callable[[object], str] | None:
    """The C encoder of the `json` module made once, when there is one (CPython).

    `JSONEncoder.encode` makes a new one on every call, which costs a view
    a fifth of its time. It writes what `_ENCODER.encode` writes.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # pragma: no cover - CPython has it
        return None
    sort_keys = skip_keys = allow_nan = False  # keys in their order; a view has no float
    encoder = make(
        None,  # no check for cycles: a view is a tree of lists and dicts
        _ENCODER.default,
        json.encoder.encode_basestring,  # ensure_ascii off
        None,
        ":",
        ",",
        sort_keys,
        skip_keys,
        allow_nan,
    )
    join = "".join
    return lambda value: join(encoder(value, 0))


_encode: Callable[[object], str] = _encoded_by_c() or _ENCODER.encode


def client_view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The view of `state` to send to `seat`'s client, or to a spectator when `seat` is None.

    Args:
        state: the state of the match.
        seat: the seat the view is for, or None for the public view.

    Returns:
        A new dict, JSON-ready, with every key of the layout (those at their
        default included) in order; equal for any two states that `seat`
        cannot tell apart.

    Raises:
        IllegalMoveError: `state` is not a state, or `seat` is not None nor a seat.
    """
    view = _full(_build(state, seat))
    for key in _SHARED:  # fresh values: changing the dict never changes the cache
        value = view[key]
        if type(value) is not str:
            view[key] = json.loads(_encode(value))
    return view


def client_view_json(state: GameState, seat: int | None) -> str:
    """The compact JSON text of the view: what a server sends after every move.

    The same view as [`client_view`][xeri.client_view], encoded as
    [`encode_view`][xeri.encode_view] does (keys at their default left out),
    made without the full dict.

    Args:
        state: the state of the match.
        seat: the seat the view is for, or None for the public view.

    Returns:
        One line of JSON, equal to `encode_view(client_view(state, seat))`.

    Raises:
        IllegalMoveError: as [`client_view`][xeri.client_view].
    """
    return _encode(_build(state, seat))


def client_moves(state: GameState, seat: int, card: str) -> dict[str, Any]:
    """The legal moves of `seat` that play `card`, for a view that counts its moves per card.

    A view lists at most `MAX_LISTED_MOVES` moves; with more it gives
    `move_cards`, and a client asks for the moves of the card its player
    picked. A card may still have very many (billions, on a Cassino table
    where both players trailed): the answer lists at most `MAX_LISTED_MOVES`
    of them, the first by index, and says how many there are. Nothing is
    listed but those: the counts come from
    [`LegalMoves.count_by_card`][xeri.LegalMoves.count_by_card].

    Args:
        state: the state of the match.
        seat: the seat the moves are for.
        card: the card's ASCII name (or any name [`Card.parse`][xeri.Card.parse] reads).

    Returns:
        A new dict `{"card": name, "count": n, "moves": [[index, move], ...]}`:
        the card's ASCII name, how many legal moves play it (0 when `seat`
        is not to move or cannot play it), and the first of them, at most
        `MAX_LISTED_MOVES`, each with its index among the seat's legal moves
        (what the client sends) and the move as a view's `moves` writes it.
        The card's moves have `count` consecutive indexes from the first
        listed one; a move not listed is sent as its ASCII notation (see
        [`parse_move`][xeri.parse_move]).

    Raises:
        IllegalMoveError: `state` is not a state, or `seat` is not a seat.
        ArgumentError: `card` names no card.
    """
    if type(state) is not GameState:
        raise IllegalMoveError(f"client_moves needs a GameState, not {type(state).__name__}")
    if type(seat) is not int or not 0 <= seat < state.rules.seats:
        raise IllegalMoveError(
            f"seat must be an int from 0 to {state.rules.seats - 1}, not {seat!r}"
        )
    try:
        chosen = Card.parse(card)
    except NotationError as exc:
        raise ArgumentError(str(exc)) from None
    if state.to_move != seat:
        return {"card": chosen.ascii, "count": 0, "moves": []}
    moves = legal_moves(state)  # the seat's own hand and the public table only
    start = 0
    for c, n in _count_by_card(moves):
        if c is chosen:
            shown = range(start, start + min(n, MAX_LISTED_MOVES))  # the first, by index
            listed = _listed(state, seat, tuple(moves[i] for i in shown))
            return {
                "card": chosen.ascii,
                "count": n,
                "moves": [[i, move] for i, move in zip(shown, listed, strict=True)],
            }
        start += n
    return {"card": chosen.ascii, "count": 0, "moves": []}


def encode_view(view: dict[str, Any]) -> str:
    """The compact JSON text of a client view: keys at their default left out, no spaces.

    The keys come in the layout's order, `ensure_ascii` off; the docs' client
    view page lists each key's default ([`decode_view`][xeri.decode_view]
    puts them back).

    Args:
        view: a view from [`client_view`][xeri.client_view] (or one without
            some of its keys at their default).

    Returns:
        One line of JSON, as [`client_view_json`][xeri.client_view_json] writes it.

    Raises:
        ArgumentError: `view` is not a view of this layout's version.
    """
    _check(view)
    return _encode(
        {k: view[k] for k, default in _FIELDS if k in view and not _at(default, view[k])}
    )


def decode_view(view: str | dict[str, Any]) -> dict[str, Any]:
    """The full view from its JSON text: every key left out put back at its default.

    For a client written in Python: `decode_view(client_view_json(state, seat))`
    equals `client_view(state, seat)`. The keys are checked to be the layout's,
    not each value (the JSON Schema does that).

    Args:
        view: a view's JSON text, as [`client_view_json`][xeri.client_view_json]
            writes it, or the dict `json.loads` made of it (inside a server's
            message, say).

    Returns:
        A new dict with every key of the layout, in order.

    Raises:
        ArgumentError: `view` is not (the JSON of) a view of this layout's version.
    """
    if type(view) is str:
        try:
            view = json.loads(view)
        except ValueError as exc:
            raise ArgumentError(f"the view is not JSON: {exc}") from None
    elif type(view) is dict:
        try:
            view = json.loads(_encode(view))  # a copy, of JSON values only
        except (TypeError, ValueError) as exc:
            raise ArgumentError(f"the view is not JSON-ready: {exc}") from None
    else:
        raise ArgumentError(f"decode_view needs a str or a dict, not {type(view).__name__}")
    _check(view)
    return _full(view)  # type: ignore[arg-type]  # checked: a dict


def _check(view: object) -> None:
    if type(view) is not dict or view.get("view") != VIEW_VERSION:
        raise ArgumentError(f"a client view is a dict with 'view': {VIEW_VERSION}")
    unknown = sorted(set(view) - _KEYS)
    if unknown:
        raise ArgumentError(f"a client view has no key {unknown[0]!r}")
    missing = [k for k, d in _FIELDS if d is _REQUIRED and k not in view]
    if missing:
        raise ArgumentError(f"a client view needs the key {missing[0]!r}")
    sides = view["sides"]
    if type(sides) is not list or not sides or not all(type(s) is int for s in sides):
        raise ArgumentError("a client view's 'sides' is a list of ints")


_KEYS: Final = frozenset(k for k, _ in _FIELDS)


def _at(default: object, value: object) -> bool:
    """Whether `value` is the default `default` of its key (so the JSON text leaves it out)."""
    if default is _REQUIRED:
        return False
    if default is None:
        return value is None
    if default is _ZEROS:
        return type(value) is list and not any(value)
    return type(value) is type(default) and value == default


def _full(view: dict[str, Any]) -> dict[str, Any]:
    """Every key in order, those left out at their default (new lists)."""
    sides = view["sides"]
    out: dict[str, Any] = {}
    for key, default in _FIELDS:
        if key in view:
            out[key] = view[key]
        elif default is _ZEROS:
            out[key] = [0] * (max(sides) + 1)
        elif type(default) is list:
            out[key] = []
        else:
            out[key] = default
    return out


def _build(state: GameState, seat: int | None) -> dict[str, Any]:  # noqa: PLR0915  # one test per key of the layout reads best flat
    """The view with its keys at their default left out, sharing the cached parts.

    The only builder of views: `client_view` fills it in, `client_view_json`
    encodes it. What observe() hides is read off the state directly (the hot
    path of a server): other hands and the stock are counted, the pending
    order of a card-by-card deal is not in the state's hands yet, and
    face-down cards are counted, never named. The views' tests check that
    equal observations give equal views.
    """
    if type(state) is not GameState:
        raise IllegalMoveError(f"client_view needs a GameState, not {type(state).__name__}")
    rules = state.rules
    if seat is not None and (type(seat) is not int or not 0 <= seat < rules.seats):
        raise IllegalMoveError(f"seat must be an int from 0 to {rules.seats - 1}, not {seat!r}")
    phase = state.phase
    table = state.table
    takes = state.takes
    history = state.history
    down = 0
    if rules.face_down and phase is not Phase.DEAL and not takes:
        down = min(rules.face_down, len(table))
        table = table[down:]
    facts = _facts(rules, state.round_results)
    over = phase is _ROUND_OVER or phase is _MATCH_OVER
    plays = len(history)
    asc = _ASCII
    view: dict[str, Any] = {"view": VIEW_VERSION, "rules": facts.rules_out, "pile": facts.pile}
    if seat is not None:
        view["seat"] = seat
    # Every round plays the whole deck but the initial table; a finished round is
    # counted by its result, and its history stays until the next deal.
    view["ply"] = facts.finished * facts.per_round + (0 if over else plays)
    if phase is not _PLAY:
        view["phase"] = phase.value
    view["dealer"] = state.dealer
    to_move = state.to_move
    if to_move is not None:
        view["to_move"] = to_move
    view["sides"] = facts.sides
    if seat is not None and state.hands[seat]:
        view["hand"] = [asc[c] for c in state.hands[seat]]
    view["hand_sizes"] = [len(h) for h in state.hands]
    if down:
        view["face_down"] = down
    if table:
        view["table"] = [asc[i] if i.__class__ is Card else _out(i) for i in table]
    view["stock_size"] = len(state.stock)
    if state.bottom_card is not None:
        view["bottom_card"] = asc[state.bottom_card]
    if state.redealt:
        view["redealt"] = [[asc[c] for c in shown] for shown in state.redealt]
    if state.replaced:  # the initial-table cards put face up under the stock (T2)
        view["replaced"] = [asc[c] for c in state.replaced]
    if plays:
        view["plays"] = [asc[m] if m.__class__ is Card else m.ascii for m in history]
        view["play_seats"] = facts.play_seats(state.dealer, plays)
    captured = [0] * facts.num_sides
    if takes:
        sides = facts.sides
        out = []
        for t in takes:
            n = len(t.cards)
            captured[sides[t.seat]] += n
            out.append([t.seat, t.turn, n] if t.xeri is None else [t.seat, t.turn, n, t.xeri.value])
        view["takes"] = out
    if plays:
        view["last"] = _last(state, facts, plays - 1)
    if any(captured):
        view["captured"] = captured
    if facts.finished:
        if any(facts.scores):
            view["scores"] = facts.scores
        view["round_results"] = facts.results
    if facts.winner is not None:
        view["winner"] = facts.winner
    if facts.target is not None:
        view["target"] = facts.target
    if seat is not None and to_move == seat:
        moves = legal_moves(state)  # the seat's own hand and the public table only
        if len(moves) <= MAX_LISTED_MOVES:
            if moves:
                view["moves"] = _listed(state, seat, moves)
        else:  # counted per card, never listed: there may be billions
            view["move_cards"] = [[asc[c], n] for c, n in _count_by_card(moves)]
    return view


def _count_by_card(moves: tuple[PlayerMove, ...]) -> tuple[tuple[Card, int], ...]:
    """`(card, count)` for each card with a move, in move order, without listing a lazy sequence."""
    if isinstance(moves, LegalMoves):
        return moves.count_by_card()
    return _listed_moves(moves).count_by_card()  # a pile game's hand: a short tuple


def _last(state: GameState, facts: _Facts, turn: int) -> list[Any]:
    """The round's last play: `[seat]`, or `[seat, took, cards]` (then the xeri) if it took.

    The move is the last of `plays`. `took` counts the cards the play
    captured, the card played included; `cards` names those of them that
    lay face up, in the order they lay: face-down cards ([P3][rules-p3]),
    taken by the round's first capture, are counted and never named, not
    even to the seat that took them. The xeri kind comes fourth when the
    capture was one, as in `takes`.
    """
    seat = facts.play_seats(state.dealer, turn + 1)[turn]
    takes = state.takes
    for i in range(len(takes) - 1, -1, -1):
        take = takes[i]
        if take.turn is None:  # the sweep at the round's end: not a play
            continue
        if take.turn != turn:
            break
        cards = take.cards
        face_down = state.rules.face_down
        if face_down and i == 0:
            cards = cards[max(0, min(face_down, len(cards) - 1)) :]
        out = [int(seat), len(take.cards), [_ASCII[c] for c in cards]]
        if take.xeri is not None:
            out.append(take.xeri.value)
        return out
    return [int(seat)]


class _Facts:
    """What a view needs that changes only with the finished rounds: made once per round."""

    __slots__ = (
        "finished",
        "num_sides",
        "per_round",
        "pile",
        "results",
        "results_of",
        "rules",
        "rules_out",
        "scores",
        "seats",
        "sides",
        "target",
        "winner",
    )

    def __init__(self, rules: RuleSet, results: tuple[RoundResult, ...]) -> None:
        self.rules = rules
        self.results_of = results
        self.rules_out = _rules_out(rules)
        self.pile = bool(rules.capture.pile)
        self.sides = list(rules.sides)
        self.num_sides = rules.num_sides
        self.finished = len(results)
        self.per_round = len(rules.deck) - rules.table_size
        self.scores = [sum(r.total[s] for r in results) for s in range(self.num_sides)]
        self.results = [_result_row(r) for r in results]
        status = _checked_status(rules, results)
        self.winner = status.winner
        self.target = status.target
        self.seats: dict[int, str] = {}

    def play_seats(self, dealer: int, plays: int) -> str:
        """The seats of a round's first `plays` plays, a digit each (as `Observation.plays`)."""
        rules = self.rules
        first = _round_dealer(rules, dealer, plays)
        seats = self.seats.get(first)
        if seats is None:
            seats = self.seats[first] = "".join(map(str, round_play_seats(rules, first)))
        return seats[:plays]


def _result_row(result: RoundResult) -> list[Any]:
    """A finished round's score sheet as a row: its fields in order, as the schema lists them."""
    return [
        list(result.cards),
        list(result.card_points),
        list(result.majority),
        list(result.xeris),
        list(result.xeri_bonus),
        list(result.total),
        result.leftover,
        [[name, list(points)] for name, points in result.categories],
    ]


_FACTS: dict[tuple[int, int], _Facts] = {}
_MAX_FACTS = 4096


def _facts(rules: RuleSet, results: tuple[RoundResult, ...]) -> _Facts:
    """The facts of a match's finished rounds, cached by the identity of the results' tuple.

    States of one round share that tuple (the engine passes it on), so a server
    holding many games makes each game's facts once per round. The entry keeps
    the tuple alive, so its id cannot be taken by another while it is cached.
    """
    key = (id(rules), id(results))
    facts = _FACTS.get(key)
    if facts is None or facts.results_of is not results or facts.rules is not rules:
        if len(_FACTS) >= _MAX_FACTS:
            _FACTS.clear()
        facts = _FACTS[key] = _Facts(rules, results)
    return facts


def client_view_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of [`client_view`][xeri.client_view]'s dicts.

    It ships in the package as `xeri/schemas/client_view.json`.

    Returns:
        The schema, a new dict on every call.
    """
    return json.loads(_schema_text())  # type: ignore[no-any-return]  # a JSON object


@cache
def _schema_text() -> str:
    return (resources.files("xeri") / "schemas" / "client_view.json").read_text("utf-8")


def _listed(state: GameState, mover: int, moves: tuple[PlayerMove, ...]) -> list[Any]:  # noqa: PLR0915  # each family's rule inline
    """Each legal move of `mover`, with what it takes as `preview` tells.

    A move is its ASCII notation, or, when it takes cards, `[notation, cards
    taken]`, with the xeri it makes, if any, third.
    """
    rules = state.rules
    capture = rules.capture
    table = state.table  # face-down cards included: they are counted, never named
    turn = len(state.history)
    plays_left = len(state.stock) + sum(map(len, state.hands)) - 1  # after the mover's play
    out: list[Any] = []
    asc = _ASCII
    if capture.__class__ is PileCapture:  # the hot path, the rule of G6 and G7 inline
        sweeper = capture.sweeper
        top = table[-1] if table else None
        taken = len(table) + 1
        for card in moves:
            name = asc[card]  # type: ignore[index]  # a pile game's moves are cards
            if top is None:
                out.append(name)
                continue
            rank = card.rank  # type: ignore[union-attr]  # a pile game's moves are cards
            if rank is top.rank:  # type: ignore[union-attr]  # a pile holds cards only
                kind = None
                if taken == 2:
                    kind = XeriKind.JACK_XERI if rank is sweeper else XeriKind.XERI
                    kind = counted_xeri(rules, kind, turn, plays_left)
                out.append([name, taken] if kind is None else [name, taken, kind.value])
            elif rank is sweeper:
                out.append([name, taken])
            else:
                out.append(name)
        return out
    hand = state.hands[mover]
    if (  # the library's rule, its outcome read off the move, where a sweep is a xeri (D6)
        capture.__class__ is SumCapture and not capture.sweepers and not capture.jack_xeri_ranks
    ):
        items = len(table)
        for move in moves:
            if isinstance(move, Capture):
                count = 1 + sum(len(item_cards(t)) for t in move.taken)
                if len(move.taken) == items:  # D6: the capture clears the table
                    sweep = counted_xeri(rules, XeriKind.XERI, turn, plays_left)
                    if sweep is not None:
                        out.append([move.ascii, count, sweep.value])
                        continue
                out.append([move.ascii, count])
            else:
                out.append(_move_ascii(move))
        return out
    for move in moves:
        try:
            _, _, took, kind = capture.play(table, hand, mover, move)
        except IllegalMoveError:  # a legal move: the rule accepts it; kept as a guard
            out.append(_move_ascii(move))  # keeps the indexes of the moves after it
            continue
        kind = counted_xeri(rules, kind, turn, plays_left)
        name = _move_ascii(move)
        if not took:
            out.append(name)
        else:
            out.append([name, len(took)] if kind is None else [name, len(took), kind.value])
    return out


def _move_ascii(move: PlayerMove) -> str:
    if type(move) is Card:
        return _ASCII[move]
    return move.ascii

"""What a client is sent: [`client_view`][xeri.client_view], one JSON-ready dict per seat.

A game server sends each seat's client a view after every move, and a
spectator's view to those who watch. The view holds what the seat's
[`Observation`][xeri.Observation] holds, and what a client would otherwise
have to work out from the rules: the scores and the match status, the
captured counts, the sides, who made each play of the round, the last play
and what it took, the move counter `ply`, and the legal moves of the seat
to move with what each takes. It is one versioned dict of lists, strings,
ints, bools and None, described by the JSON Schema shipped with the package
([`client_view_schema`][xeri.client_view_schema]).

A view shows nothing its seat may not see ([X2][rules-x2], [P3][rules-p3]):
it is made from the seat's observation of the state (the spectator's, for
`seat=None`, which sees no hand and no face-down card at all), so two states
that the seat cannot tell apart give the same view.

The fields, in order: `view` (the layout's version, 1), `rules`, `pile` (one pile, or an open
table), `seat`
(None for a spectator), `ply` (the player moves of the match so far: a client
sends it back with its move, and a move for an older `ply` is stale),
`round`, `phase`, `dealer`, `to_move`, `sides`, `hand`, `hand_sizes`,
`face_down`, `table`, `stock_size`, `bottom_card`, `redealt`, `plays` (each
`[seat, move]`), `takes` (each `[seat, turn, count, xeri]`), `captured`,
`scores`, `round_results`, `status` (`over`, `winner`, `target`), `last`
(the last play: `seat`, `move`, `text`, `takes`, `xeri`), `move_count`,
`moves` (each `[index, ascii, text, takes, xeri]`) and `move_cards`. The
docs' client view page describes each one; moves are written in their ASCII
notation (`7C x 3D+4S`, see [`parse_move`][xeri.parse_move]).

Examples:
    >>> import random, xeri
    >>> state = xeri.new_game(xeri.GREEK, dealer=0, rng=random.Random(2))
    >>> view = xeri.client_view(state, 1)
    >>> view["seat"], view["ply"], view["to_move"], view["move_count"], len(view["hand"])
    (1, 0, 1, 6, 6)
    >>> view["moves"][0][:3] == [0, state.hands[1][0].ascii, str(state.hands[1][0])]
    True
    >>> spectator = xeri.client_view(state, None)
    >>> spectator["hand"], spectator["moves"], spectator["hand_sizes"]
    ([], [], [6, 6])
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Final

from xeri._cards import DECK, Card
from xeri._core.engine import legal_moves
from xeri._core.round import counted_xeri, round_play_seats
from xeri._core.round import round_dealer as _round_dealer
from xeri._core.state import GameState, Phase
from xeri._errors import IllegalMoveError
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
    "client_view",
    "client_view_json",
    "client_view_schema",
    "encode_view",
]

VIEW_VERSION: Final = 1
"""The version of the client view's layout, its `"view"` key."""
MAX_LISTED_MOVES: Final = 100
"""The most legal moves a view lists one by one; with more it counts them per card."""

_ASCII: dict[Card, str] = {card: card.ascii for card in DECK}
_TEXT: dict[Card, str] = {card: str(card) for card in DECK}
_XERI: dict[XeriKind | None, str | None] = {None: None, **{k: k.value for k in XeriKind}}
_COUNTED = _XERI
_KINDS: dict[str, XeriKind] = {k.value: k for k in XeriKind}
_ROUND_OVER = Phase.ROUND_OVER
_MATCH_OVER = Phase.MATCH_OVER
_encode = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode


def client_view(state: GameState, seat: int | None) -> dict[str, Any]:  # noqa: PLR0915  # one statement per part of the view reads best flat
    """The view of `state` to send to `seat`'s client, or to a spectator when `seat` is None.

    Args:
        state: the state of the match.
        seat: the seat the view is for, or None for the public view.

    Returns:
        A new dict, JSON-ready, as the module docstring describes; equal for
        any two states that `seat` cannot tell apart.

    Raises:
        IllegalMoveError: `state` is not a state, or `seat` is not None nor a seat.
    """
    if type(state) is not GameState:
        raise IllegalMoveError(f"client_view needs a GameState, not {type(state).__name__}")
    rules = state.rules
    if seat is not None and (type(seat) is not int or not 0 <= seat < rules.seats):
        raise IllegalMoveError(f"seat must be an int from 0 to {rules.seats - 1}, not {seat!r}")
    # What observe() hides, read off the state directly (the hot path of a server):
    # other hands and the stock are counted, the pending order of a card-by-card deal
    # is not in the state's hands yet, and face-down cards are counted, never named.
    # The views' tests check that equal observations give equal views.
    phase = state.phase
    table = state.table
    takes = state.takes
    history = state.history
    down = 0
    if rules.face_down and phase is not Phase.DEAL and not takes:
        down = min(rules.face_down, len(table))
        table = table[down:]
    facts = _facts(rules, state.round_results)
    sides = facts.sides
    captured = [0] * facts.num_sides
    takes_out = []
    for t in takes:
        n = len(t.cards)
        captured[sides[t.seat]] += n
        takes_out.append([t.seat, t.turn, n, _XERI[t.xeri]])
    plays = len(history)
    seats = facts.seats_of_plays(state.dealer, plays)
    asc = _ASCII
    plays_out = [
        [s, asc[m] if m.__class__ is Card else m.ascii]
        for s, m in zip(seats, history, strict=False)
    ]
    last = None
    if plays:
        move = history[-1]
        took = 0
        xeri = None
        turn = plays - 1
        for t in reversed(takes):
            if t.turn == turn:
                took = len(t.cards)
                xeri = _XERI[t.xeri]
                break
            if t.turn is not None:
                break
        last = {
            "seat": seats[turn],
            "move": _move_ascii(move),
            "text": _move_text(move),
            "takes": took,
            "xeri": xeri,
        }
    moves_out: list[list[Any]] = []
    move_cards: list[list[Any]] = []
    count = 0
    to_move = state.to_move
    if seat is not None and to_move == seat:
        moves = legal_moves(state)  # the seat's own hand and the public table only
        count = len(moves)
        if count <= MAX_LISTED_MOVES:
            moves_out = _listed(state, seat, moves)
        else:
            per_card: dict[Card, int] = {}
            for m in moves:
                per_card[m.card] = per_card.get(m.card, 0) + 1
            move_cards = [[_ASCII[c], n] for c, n in per_card.items()]
    over = phase is _ROUND_OVER or phase is _MATCH_OVER
    bottom = state.bottom_card
    return {
        "view": VIEW_VERSION,
        "rules": facts.rules_out,
        "pile": facts.pile,
        "seat": seat,
        # Every round plays the whole deck but the initial table; a finished round is
        # counted by its result, and its history stays until the next deal.
        "ply": facts.finished * facts.per_round + (0 if over else plays),
        "round": facts.finished + (0 if over else 1),
        "phase": phase.value,
        "dealer": state.dealer,
        "to_move": to_move,
        "sides": list(sides),
        "hand": [] if seat is None else [_ASCII[c] for c in state.hands[seat]],
        "hand_sizes": [len(h) for h in state.hands],
        "face_down": down,
        "table": [_ASCII[i] if type(i) is Card else _out(i) for i in table],
        "stock_size": len(state.stock),
        "bottom_card": None if bottom is None else _ASCII[bottom],
        "redealt": [[_ASCII[c] for c in shown] for shown in state.redealt],
        "plays": plays_out,
        "takes": takes_out,
        "captured": captured,
        "scores": list(facts.scores),
        "round_results": json.loads(facts.results_text),
        "status": dict(facts.status),
        "last": last,
        "move_count": count,
        "moves": moves_out,
        "move_cards": move_cards,
    }


class _Facts:
    """What a view needs that changes only with the finished rounds: made once per round."""

    __slots__ = (
        "finished",
        "num_sides",
        "per_round",
        "pile",
        "pile_text",
        "results",
        "results_text",
        "rules",
        "rules_out",
        "rules_text",
        "scores",
        "scores_text",
        "seats",
        "sides",
        "sides_text",
        "status",
        "status_text",
    )

    def __init__(self, rules: RuleSet, results: tuple[RoundResult, ...]) -> None:
        self.rules = rules
        self.results = results
        self.rules_out = _rules_out(rules)
        self.pile = bool(rules.capture.pile)
        self.pile_text = "true" if self.pile else "false"
        self.sides = rules.sides
        self.num_sides = rules.num_sides
        self.finished = len(results)
        self.per_round = len(rules.deck) - rules.table_size
        self.scores = tuple(sum(r.total[s] for r in results) for s in range(self.num_sides))
        self.results_text = _encode([_out(r) for r in results])
        status = _checked_status(rules, results)
        self.status = {"over": status.over, "winner": status.winner, "target": status.target}
        self.rules_text = _encode(self.rules_out)
        self.sides_text = _encode(list(self.sides))
        self.scores_text = _encode(list(self.scores))
        self.status_text = _encode(self.status)
        self.seats: dict[int, tuple[int, ...]] = {}

    def seats_of_plays(self, dealer: int, plays: int) -> tuple[int, ...]:
        """The seat of each play of a round (as `Observation.plays`), `plays` of them at least."""
        if not plays:
            return ()
        rules = self.rules
        first = _round_dealer(rules, dealer, plays)
        seats = self.seats.get(first)
        if seats is None:
            seats = self.seats[first] = round_play_seats(rules, first)
        return seats


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
    if facts is None or facts.results is not results or facts.rules is not rules:
        if len(_FACTS) >= _MAX_FACTS:
            _FACTS.clear()
        facts = _FACTS[key] = _Facts(rules, results)
    return facts


def encode_view(view: dict[str, Any]) -> str:
    """The compact JSON text of a client view: `ensure_ascii` off, no spaces, keys in order.

    Args:
        view: a view from [`client_view`][xeri.client_view], or any JSON-ready dict.

    Returns:
        One line of JSON; [`client_view_json`][xeri.client_view_json] gives the
        same text for a state directly, faster.
    """
    return _encode(view)


def client_view_json(state: GameState, seat: int | None) -> str:  # noqa: PLR0915  # as client_view
    """`encode_view(client_view(state, seat))`, written straight from the state, faster.

    What a server sends after every move: the text is made from cached pieces
    (cards, plays, the facts of the finished rounds) without building the dict.

    Args:
        state: the state of the match.
        seat: the seat the view is for, or None for the public view.

    Returns:
        The same text as `encode_view(client_view(state, seat))`.

    Raises:
        IllegalMoveError: as [`client_view`][xeri.client_view].
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
    sides = facts.sides
    captured = [0] * facts.num_sides
    takes_out = []
    for t in takes:
        n = len(t.cards)
        captured[sides[t.seat]] += n
        takes_out.append(f"[{t.seat},{_NUM[t.turn]},{n},{_XERI_TEXT[t.xeri]}]")
    plays = len(history)
    q = _QUOTED
    last = "null"
    if plays:
        seats = facts.seats_of_plays(state.dealer, plays)
        pairs = _PAIR_TEXT
        plays_out = ",".join(
            [
                pairs[s][m] if m.__class__ is Card else _encode([s, m.ascii])
                for s, m in zip(seats, history, strict=False)
            ]
        )
        move = history[-1]
        took = 0
        xeri = "null"
        turn = plays - 1
        for t in reversed(takes):
            if t.turn == turn:
                took = len(t.cards)
                xeri = _XERI_TEXT[t.xeri]
                break
            if t.turn is not None:
                break
        if move.__class__ is Card:
            move_text = f'{q[move]},"text":{_QUOTED_TEXT[move]}'
        else:
            move_text = f'{_encode(move.ascii)},"text":{_encode(str(move))}'
        last = f'{{"seat":{seats[turn]},"move":{move_text},"takes":{took},"xeri":{xeri}}}'
    else:
        plays_out = ""
    moves_out = ""
    move_cards = ""
    count = 0
    to_move = state.to_move
    if seat is not None and to_move == seat:
        moves = legal_moves(state)
        count = len(moves)
        if count <= MAX_LISTED_MOVES:
            qa, qt, xt = _QUOTED_ASCII, _QUOTED_TEXTS, _XERI_TEXT2
            moves_out = ",".join(
                [
                    f"[{i},{qa.get(a) or _encode(a)},{qt.get(t) or _encode(t)},{n},{xt[x]}]"
                    for i, a, t, n, x in _listed(state, seat, moves)
                ]
            )
        else:
            per_card: dict[Card, int] = {}
            for m in moves:
                per_card[m.card] = per_card.get(m.card, 0) + 1
            move_cards = ",".join([f"[{q[c]},{n}]" for c, n in per_card.items()])
    over = phase is _ROUND_OVER or phase is _MATCH_OVER
    bottom = state.bottom_card
    hand = "" if seat is None else ",".join([q[c] for c in state.hands[seat]])
    table_out = ",".join([q[i] if i.__class__ is Card else _encode(_out(i)) for i in table])
    redealt = ",".join(["[" + ",".join([q[c] for c in shown]) + "]" for shown in state.redealt])
    return (
        f'{{"view":{VIEW_VERSION},"rules":{facts.rules_text},"pile":{facts.pile_text},'
        f'"seat":{_NUM[seat]},'
        f'"ply":{facts.finished * facts.per_round + (0 if over else plays)},'
        f'"round":{facts.finished + (0 if over else 1)},"phase":{_PHASE_TEXT[phase]},'
        f'"dealer":{state.dealer},"to_move":{_NUM[to_move]},"sides":{facts.sides_text},'
        f'"hand":[{hand}],"hand_sizes":[{",".join([str(len(h)) for h in state.hands])}],'
        f'"face_down":{down},"table":[{table_out}],"stock_size":{len(state.stock)},'
        f'"bottom_card":{"null" if bottom is None else q[bottom]},"redealt":[{redealt}],'
        f'"plays":[{plays_out}],"takes":[{",".join(takes_out)}],'
        f'"captured":[{",".join(map(str, captured))}],"scores":{facts.scores_text},'
        f'"round_results":{facts.results_text},"status":{facts.status_text},"last":{last},'
        f'"move_count":{count},"moves":[{moves_out}],"move_cards":[{move_cards}]}}'
    )


class _Numbers(dict[object, str]):
    """`str` of an int, "null" for None: JSON of a seat, a turn, or nothing."""

    def __missing__(self, key: object) -> str:
        return "null" if key is None else str(key)


_NUM = _Numbers()
_QUOTED: dict[Card, str] = {card: f'"{card.ascii}"' for card in DECK}
_QUOTED_ASCII: dict[str, str] = {card.ascii: f'"{card.ascii}"' for card in DECK}
_QUOTED_TEXTS: dict[str, str] = {str(card): _encode(str(card)) for card in DECK}
_QUOTED_TEXT: dict[Card, str] = {card: _encode(str(card)) for card in DECK}
_PAIR_TEXT: tuple[dict[Card, str], ...] = tuple(
    {card: f'[{seat},"{card.ascii}"]' for card in DECK} for seat in range(8)
)
_XERI_TEXT: dict[XeriKind | None, str] = {None: "null", **{k: f'"{k.value}"' for k in XeriKind}}
_XERI_TEXT2: dict[str | None, str] = {None: "null", **{k.value: f'"{k.value}"' for k in XeriKind}}
_PHASE_TEXT: dict[Phase, str] = {p: _encode(p.value) for p in Phase}


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


def _move_ascii(move: PlayerMove) -> str:
    if type(move) is Card:
        return _ASCII[move]
    return move.ascii


def _move_text(move: PlayerMove) -> str:
    if type(move) is Card:
        return _TEXT[move]
    return str(move)


def _listed(state: GameState, mover: int, moves: tuple[PlayerMove, ...]) -> list[list[Any]]:
    """`[index, ascii, text, takes, xeri]` for each legal move of `mover`, as `preview` tells."""
    rules = state.rules
    capture = rules.capture
    table = state.table  # face-down cards included: they are counted, never named
    turn = len(state.history)
    plays_left = len(state.stock) + sum(map(len, state.hands)) - 1  # after the mover's play
    out: list[list[Any]] = []
    if capture.__class__ is PileCapture:  # the hot path, the rule of G6 and G7 inline
        sweeper = capture.sweeper
        top = table[-1] if table else None
        pile = len(table)
        for i, card in enumerate(moves):
            takes = 0
            xeri = None
            if top is not None:
                rank = card.rank  # type: ignore[union-attr]  # a pile game's moves are cards
                if rank is top.rank:  # type: ignore[union-attr]  # a pile holds cards only
                    takes = pile + 1
                    if pile == 1:
                        xeri = "jack xeri" if rank is sweeper else "xeri"
                elif rank is sweeper:
                    takes = pile + 1
            if xeri is not None:
                xeri = _COUNTED[counted_xeri(rules, _KINDS[xeri], turn, plays_left)]
            out.append([i, _ASCII[card], _TEXT[card], takes, xeri])  # type: ignore[index]  # a card
        return out
    hand = state.hands[mover]
    if (  # the library's rule, its outcome read off the move, where a sweep is a xeri (D6)
        capture.__class__ is SumCapture and not capture.sweepers and not capture.jack_xeri_ranks
    ):
        items = len(table)
        for i, move in enumerate(moves):
            count = 0
            sweep = None
            if isinstance(move, Capture):
                count = 1 + sum(len(item_cards(t)) for t in move.taken)
                if len(move.taken) == items:  # D6: the capture clears the table
                    sweep = _COUNTED[counted_xeri(rules, XeriKind.XERI, turn, plays_left)]
            out.append([i, _move_ascii(move), _move_text(move), count, sweep])
        return out
    for i, move in enumerate(moves):
        try:
            _, _, taken, kind = capture.play(table, hand, mover, move)
        except IllegalMoveError:  # a legal move: the rule accepts it; kept as a guard
            continue
        kind = counted_xeri(rules, kind, turn, plays_left)
        n = 0 if taken is None else len(taken)
        out.append([i, _move_ascii(move), _move_text(move), n, _XERI[kind]])
    return out

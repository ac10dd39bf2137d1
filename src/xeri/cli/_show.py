"""What a transcript shows of a state: every card, or one seat's view.

The lines of a deal, a play, a round's score sheet and a match's result, made
from the whole state (every card open) or from one seat's observation alone
([X2][rules-x2]), for `xeri demo`, `xeri play` and `xeri replay`.
"""

from __future__ import annotations

import textwrap

import attrs

from xeri._agents.observation import Observation, ObservedTake, observe
from xeri._cards import Card
from xeri._core.state import GameState, Phase
from xeri._families.protocol import XeriKind
from xeri._moves import Move
from xeri._rules.ruleset import RuleSet
from xeri._table import TableItem
from xeri.cli._common import _cards, _count, _has_teams, _players_of, _seat_name, _side_name, _teams

_WIDTH = 80
"""The columns the transcripts are written in: longer lines are wrapped between words."""


def _wrapped(line: str) -> list[str]:
    """A line cut between words to fit `_WIDTH` columns, continued further indented."""
    if len(line) <= _WIDTH:
        return [line]
    indent = " " * (len(line) - len(line.lstrip(" ")) + 4)
    return textwrap.wrap(
        line, width=_WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


# --------------------------------------------------------------------------
# Names: "You" for the person at the keyboard in `xeri play`


def _who(seat: int, you: int | None) -> str:
    """A seat as the transcript names it: `You` for the person playing, else `Player 2`."""
    return "You" if seat == you else _seat_name(seat)


def _does(seat: int, you: int | None, verb: str) -> str:
    """`Player 2 plays`, or `You play` for the person playing (`verb` in the third person)."""
    if seat != you:
        return f"{_seat_name(seat)} {verb}"
    return f"You {verb.removesuffix('s')}"


def _side_label(rules: RuleSet, side: int, you: int | None) -> str:
    """A side: `You` or `Player 2` in a game without teams, else `Team A`."""
    if _has_teams(rules) or you is None or rules.sides[you] != side:
        return _side_name(rules, side)
    return "You"


def _players_label(rules: RuleSet, side: int, you: int | None) -> str:
    """The players of a side: `Players 1 and 3`, or `You and Player 3`."""
    seats = rules.seats_of(side)
    if you is None or you not in seats:
        return _players_of(rules, side)
    others = [_seat_name(s) for s in seats if s != you]
    return " and ".join(["You", *others])


# --------------------------------------------------------------------------
# What a transcript shows of a state: everything, or one seat's view


@attrs.frozen(kw_only=True)
class _Seen:
    """What a transcript may show of one state: every card, or what one seat sees.

    A seat's view is made from [`observe`][xeri.observe] alone, so that it
    cannot show another hand, the stock or a face-down card.
    """

    facts: GameState | Observation
    """The public facts: phase, dealer, seat to move, round results, scores."""
    hands: tuple[tuple[Card, ...] | None, ...]
    """Each seat's hand, or None where it is hidden."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds."""
    face_down: int
    """Face-down table cards not shown."""
    table: tuple[TableItem, ...]
    """The table items shown, in table order."""
    stock_size: int
    """How many cards the stock holds."""
    takes: tuple[ObservedTake, ...]
    """The round's captures as shown."""
    you: int | None = None
    """The seat of the person playing (`xeri play`), named `You`; None in a transcript."""


def _seen(state: GameState, view: int | None, you: int | None = None) -> _Seen:
    if view is None:
        return _Seen(
            facts=state,
            hands=state.hands,
            hand_sizes=tuple(map(len, state.hands)),
            face_down=0,
            table=state.table,
            stock_size=len(state.stock),
            takes=tuple(
                ObservedTake(seat=t.seat, cards=t.cards, xeri=t.xeri, turn=t.turn)
                for t in state.takes
            ),
            you=you,
        )
    obs = observe(state, view)
    return _Seen(
        facts=obs,
        hands=tuple(obs.hand if s == view else None for s in range(obs.rules.seats)),
        hand_sizes=obs.hand_sizes,
        face_down=obs.face_down,
        table=obs.table,
        stock_size=obs.stock_size,
        takes=obs.takes,
        you=you,
    )


def _hand_lines(seen: _Seen) -> list[str]:
    lines = []
    for seat, hand in enumerate(seen.hands):
        held = _cards(hand) if hand is not None else _count(seen.hand_sizes[seat], "card")
        lines.append(f"  {_does(seat, seen.you, 'holds')} {held}")
    return lines


def _table_text(seen: _Seen) -> str:
    shown = _cards(seen.table) if seen.table or not seen.face_down else ""
    if seen.face_down:
        down = f"{seen.face_down} face down"
        return f"{down} {shown}" if shown else down
    return shown


def _round_no(seen: _Seen) -> int:
    """The number of the current round, counting from 1."""
    return len(seen.facts.round_results) + 1


def _deal_lines(after: _Seen) -> list[str]:
    facts = after.facts
    lines = ["", f"Round {_round_no(after)}: {_does(facts.dealer, after.you, 'deals')}."]
    lines += _hand_lines(after)
    lines.append(f"  table: {_table_text(after)}   stock: {after.stock_size}")
    if facts.bottom_card is not None:
        lines.append(f"  bottom card shown: {facts.bottom_card}")
    return lines + _initial_table_lines(after)


def _initial_table_lines(after: _Seen) -> list[str]:
    """What an initial-table rule did at the deal: cards replaced (T2), the table awarded (T3)."""
    lines = []
    if after.facts.replaced:
        lines.append(f"  replaced, face up under the stock: {_cards(after.facts.replaced)}")
    for take in after.takes:
        if take.turn == -1:
            sweep = "  ** XERI **" if take.xeri is not None else ""
            lines.append(f"  {_does(take.seat, after.you, 'takes')} {_cards(take.cards)}{sweep}")
    return lines


def _take_text(take: ObservedTake) -> str:
    """The cards a capture takes besides the card played, and how many: those named."""
    taken = _cards(take.cards[:-1]) if len(take.cards) > 1 else ""
    if take.hidden:
        down = f"{take.hidden} face down"
        taken = f"{down} {taken}" if taken else down
    text = f"takes {taken} ({_count(take.count - 1, 'card')})"
    if take.xeri is XeriKind.XERI:
        text += "  ** XERI **"
    elif take.xeri is XeriKind.JACK_XERI:
        text += "  ** JACK XERI **"
    return text


def _play_lines(before: _Seen, after: _Seen, seat: int, move: object) -> list[str]:
    """The lines of one play: the card, what it takes, the table, a new deal, a round's end."""
    rules = after.facts.rules
    you = after.you
    new = after.takes[len(before.takes) :]  # a round's captures are cleared only by a deal
    capture = next((t for t in new if t.turn is not None), None)
    leftover = next((t for t in new if t.turn is None), None)
    # The table as the play left it: at a round's end, before the last capturer
    # takes what is left ([G9][rules-g9]), those cards are the table.
    table = after if leftover is None else _left_on_table(after, leftover)
    if capture is not None:
        what = f"plays {capture.cards[-1]}"
        note = _take_text(capture)
    else:
        what = f"plays {move}"
        note = ""
    if rules.capture.pile:
        if capture is None and (table.table or table.face_down):
            top = f", top {table.table[-1]}" if table.table else ""
            note = f"pile {table.face_down + len(table.table)}{top}"
    else:
        note = f"{note}   table: {_table_text(table)}" if note else f"table: {_table_text(table)}"
    if seat == you:
        what = what.replace("plays", "play", 1)
    head = f"{_who(seat, you)} {what}"  # as wide as `Player 2 ` and a play padded to 22
    lines = [f"  {head:<31}  {note}".rstrip()]
    if leftover is not None:
        left = _cards(leftover.cards) if not leftover.hidden else f"{leftover.count} cards"
        lines.append(
            f"  {_does(leftover.seat, you, 'takes')} the cards left on the table: {left} "
            "(last capture)"
        )
    if after.stock_size < before.stock_size and after.facts.phase is Phase.PLAY:
        lines.append(
            f"  -- new deal: {rules.hand_size} cards each, {after.stock_size} left in stock --"
        )
        shown = zip(_hand_lines(after), after.hands, strict=True)
        lines += [line for line, hand in shown if hand is not None]
    if after.facts.is_round_over:
        lines.append(f"Round {len(after.facts.round_results)} over.")
        lines += _score_sheet(after.facts, you)
        if after.facts.is_over:
            lines.append(_match_result(after.facts, you))
    return lines


def _left_on_table(after: _Seen, leftover: ObservedTake) -> _Seen:
    """What `after` showed of the table before the cards left on it were taken."""
    return attrs.evolve(after, table=leftover.cards, face_down=leftover.hidden)


def _score_sheet(facts: GameState | Observation, you: int | None = None) -> list[str]:
    rules = facts.rules
    results = facts.round_results
    result = results[-1]
    names = [_side_label(rules, s, you) for s in range(rules.num_sides)]
    width = max(map(len, names)) + 2
    label = max([12, *(len(name) for name, _ in result.categories)])
    head = "".rjust(label + 2) + "".join(name.rjust(width) for name in names)
    rows: list[tuple[str, tuple[int, ...]]] = [
        ("cards", result.cards),
        ("card points", result.card_points),
        ("majority", result.majority),
        ("xeris", result.xeris),
        ("xeri bonus", result.xeri_bonus),
        *result.categories,  # the rule set's named lines: most coins, primiera, ...
        ("round total", result.total),
        ("match score", facts.scores),
    ]
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins):
        rows.append(("rounds won", round_wins(results, rules.num_sides)))
    return [head] + [
        f"  {name:<{label}}" + "".join(str(v).rjust(width) for v in values) for name, values in rows
    ]


def _match_result(facts: GameState | Observation, you: int | None = None) -> str:
    rules = facts.rules
    rounds = _count(len(facts.round_results), "round")
    scores = " to ".join(map(str, facts.scores))
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins):
        won = round_wins(facts.round_results, rules.num_sides)
        scores = f"rounds won {' to '.join(map(str, won))}, points {scores}"
    winner = facts.winner
    if winner is None:
        return f"The match is drawn after {rounds}, {scores}."
    who = _side_label(rules, winner, you)
    if _has_teams(rules):
        who += f" ({_players_label(rules, winner, you)})"
    wins = "win" if who == "You" else "wins"
    return f"{who} {wins} the match after {rounds}, {scores}."


def _header(rules: RuleSet) -> str:
    text = f"A match of {rules.name}: {rules.seats} players"
    if _has_teams(rules):
        text += f" in {rules.num_sides} teams, {_teams(rules)}"
    return text + "."


def _step_lines(
    before: GameState, move: Move, after: GameState, view: int | None, you: int | None = None
) -> list[str]:
    """The transcript of one move, every card shown or only what `view` sees.

    `you` is the seat of the person playing, named `You` (`xeri play`). Lines
    longer than 80 columns are wrapped between words.

    Chance's moves are told by what they change in public: a deal completed (a
    new round's phase) or a table dealt again; a card of an order dealt card
    by card that does not complete it changes nothing public and prints nothing.
    """
    return [part for line in _lines(before, move, after, view, you) for part in _wrapped(line)]


def _lines(
    before: GameState, move: Move, after: GameState, view: int | None, you: int | None
) -> list[str]:
    seat = before.to_move
    if seat is None:  # chance: a deal, a redeal of the table, or one card of either
        phase = before.phase
        if phase is Phase.REDEAL:
            if after.phase is Phase.PLAY or len(after.redealt) > len(before.redealt):
                seen = _seen(after, view, you)
                return [
                    f"  the table is dealt again: {_table_text(seen)}",
                    *_initial_table_lines(seen),
                ]
        elif after.phase is not phase:
            return _deal_lines(_seen(after, view, you))
        return []
    return _play_lines(_seen(before, view, you), _seen(after, view, you), seat, move)

"""The command line: `python -m xeri demo --rules greek --seed 7`.

`demo` plays a full match between random players and prints a transcript:
each deal, each play (captures and xeris marked) and a score sheet per
round. With `--seed` the match replays exactly; without it the shuffles
come from the operating system's secure source.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from xeri.capture import XeriKind
from xeri.engine import apply, chance_move, legal_moves, new_game
from xeri.errors import XeriError
from xeri.moves import Deal, PlayerMove, Reshuffle
from xeri.rules import RuleSet, find_rules, registered
from xeri.scoring import RoundResult
from xeri.state import GameState, Phase

__all__ = ["main", "play_demo"]


def _seat_name(rules: RuleSet, seat: int) -> str:
    if rules.num_sides == rules.seats:
        return f"P{seat}"
    return f"P{seat}/{'AB'[rules.sides[seat]] if rules.num_sides <= 2 else rules.sides[seat]}"


def _side_name(rules: RuleSet, side: int) -> str:
    seats = rules.seats_of(side)
    if len(seats) == 1:
        return f"P{seats[0]}"
    return "+".join(f"P{s}" for s in seats)


def _cards(cards: Sequence[object]) -> str:
    return " ".join(map(str, cards)) or "-"


def _score_sheet(
    rules: RuleSet, results: tuple[RoundResult, ...], scores: tuple[int, ...]
) -> list[str]:
    result = results[-1]
    width = max(len(_side_name(rules, s)) for s in range(rules.num_sides)) + 2
    head = "".rjust(14) + "".join(_side_name(rules, s).rjust(width) for s in range(rules.num_sides))
    rows = [
        ("cards", result.cards),
        ("card points", result.card_points),
        ("majority", result.majority),
        ("xeris", result.xeris),
        ("xeri bonus", result.xeri_bonus),
        ("round total", result.total),
        ("match score", scores),
    ]
    round_wins = getattr(rules.match, "round_wins", None)
    if callable(round_wins):
        rows.append(("rounds won", round_wins(results, rules.num_sides)))
    return [head] + [
        f"  {label:<12}" + "".join(str(v).rjust(width) for v in values) for label, values in rows
    ]


def play_demo(
    rules: RuleSet,
    *,
    seed: int | None = None,
    out: TextIO = sys.stdout,
    choose: Callable[[GameState, random.Random], PlayerMove] | None = None,
) -> GameState:
    """Play a match between uniformly random players and print its transcript to `out`.

    Args:
        rules: the rule set to play.
        seed: seeds the shuffles and the players' choices; None draws from `secrets`.
        out: where the transcript goes.
        choose: picks a move from a state (defaults to a uniformly random legal move).

    Returns:
        The final state.
    """
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    players = random.Random(rng.random())

    def pick(state: GameState) -> PlayerMove:
        if choose is not None:
            return choose(state, players)
        return players.choice(legal_moves(state))

    def say(line: str = "") -> None:
        print(line, file=out)

    state = new_game(rules, rng=rng)
    say(f"Match of {rules.name!r}: {rules.seats} players, {rules.num_sides} sides.")
    round_no = 1
    _announce_round(state, round_no, say)
    seen_stock = len(state.stock)
    while not state.is_over:
        if state.is_chance:
            move = chance_move(state, rng)
            state = apply(state, move)
            if isinstance(move, Deal):
                round_no += 1
                _announce_round(state, round_no, say)
            elif isinstance(move, Reshuffle):
                say(f"  initial table redealt: {_cards(state.table)}")
            seen_stock = len(state.stock)
            continue
        seat = state.to_move
        assert seat is not None
        played = pick(state)
        before = state
        state = apply(state, played)
        say(_describe_play(before, state, seat, played))
        if len(state.stock) < seen_stock and state.phase is Phase.PLAY:
            say(f"  -- new deal: {rules.hand_size} cards each, {len(state.stock)} left in stock --")
            seen_stock = len(state.stock)
        if state.is_round_over:
            say(f"Round {round_no} over.")
            for line in _score_sheet(rules, state.round_results, state.scores):
                say(line)
    winner = state.winner
    if winner is None:
        say(f"Match drawn after {len(state.round_results)} rounds, scores {state.scores}.")
    else:
        say(
            f"{_side_name(rules, winner)} wins the match after {len(state.round_results)} rounds, "
            f"scores {state.scores}."
        )
    return state


def _describe_play(before: GameState, after: GameState, seat: int, move: object) -> str:
    rules = after.rules
    note = ""
    for take in after.takes[len(before.takes) :]:
        if take.turn is None:
            who = _seat_name(rules, take.seat)
            note += f"\n  {who} takes the {len(take.cards)} cards left on the table (last capture)"
            continue
        note = f"  captures {len(take.cards)}"
        if take.xeri is XeriKind.XERI:
            note += "  ** XERI **"
        elif take.xeri is XeriKind.JACK_XERI:
            note += "  ** JACK XERI **"
    if rules.capture.pile:
        top = f"  [pile {len(after.table)}, top {after.table[-1]}]" if after.table else ""
    else:
        top = f"  table: {_cards(after.table)}"
    return f"  {_seat_name(rules, seat):>6} plays {move!s:<22}{note}{top}"


def _announce_round(state: GameState, round_no: int, say: Callable[[str], None]) -> None:
    rules = state.rules
    say("")
    say(f"Round {round_no}: {_seat_name(rules, state.dealer)} deals.")
    for seat, hand in enumerate(state.hands):
        say(f"  {_seat_name(rules, seat):>6} holds {_cards(hand)}")
    say(f"  table: {_cards(state.table)}   stock: {len(state.stock)}")
    if state.bottom_card is not None:
        say(f"  bottom card shown: {state.bottom_card}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m xeri", description="Xeri rules engine.")
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="play a match between random players and print it")
    demo.add_argument("--rules", default="greek", help=f"rule set ({', '.join(registered())})")
    demo.add_argument("--seed", type=int, default=None, help="replay a match exactly")
    sub.add_parser("rules", help="list the registered rule sets")
    args = parser.parse_args(argv)
    try:
        if args.command == "rules":
            for name in registered():
                print(name)
            return 0
        play_demo(find_rules(args.rules), seed=args.seed)
    except BrokenPipeError:  # the reader (`| head`) stopped listening: not an error
        sys.stderr.close()
    except XeriError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0

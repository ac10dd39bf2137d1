"""Whether a [`GameState`][xeri.GameState] is one the engine could have reached.

Used when a state comes from outside ([`from_json`][xeri.from_json]) and
when [`determinize`][xeri.determinize] samples hidden cards. The checks are
generic over rule sets: after the counting checks (52 cards, hand and stock
sizes for the phase, seats, scores), the current round is rebuilt from its
public history and replayed through [`apply`][xeri.apply]; the replay must
give back the state exactly. Earlier rounds survive only as their results,
which must be results the rule set's scorer could have produced
([`Scorer.check`][xeri.Scorer.check]).

A state in the middle of a card-by-card deal ([`DealCard`][xeri.DealCard])
is checked as the state before its first card, and its pending order as the
cards chance could have placed so far.

Rebuilding a round needs the order of the initial table. Capture rules keep
the items they do not touch in place, lay new items after the old ones and
list a capture's cards in table order; so the initial cards still on the
table keep their dealing order, and so do the initial cards inside each
capture. The initial table is rebuilt as the initial cards in the order they
appear in the captures and then on the table, which gives back the same
round for the pile (Greek family) and the row (German Xeri).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

import attrs

from xeri._cards import DECK, Card, Rank
from xeri._core.engine import apply
from xeri._core.round import (
    bottom_card_holder,
    deal_dealers,
    deal_seats,
    play_seats,
    round_dealer,
    table_answer,
    unreplace,
)
from xeri._core.state import GameState, Phase
from xeri._errors import XeriError
from xeri._rules.redeal import RanksOnTable, Redeal, redeals
from xeri._rules.ruleset import RuleSet
from xeri._rules.scoring import RoundResult, _total_rule
from xeri._table import Build, item_cards

__all__ = ["Verdict", "check_state", "names"]


@lru_cache(maxsize=64)
def _deck_set(deck: tuple[Card, ...]) -> frozenset[Card]:
    """The cards of a rule set's deck, as a set."""
    return frozenset(deck)


class Verdict(NamedTuple):
    """What `check_state` found."""

    problems: list[str]
    """Every problem found; empty for a reachable state."""


def names(cards: object) -> str:
    """The cards' short names, joined by spaces (for messages about public cards only)."""
    return " ".join(map(str, cards))  # type: ignore[call-overload]  # an iterable of cards


def check_state(state: GameState) -> Verdict:
    """Every problem found in `state`.

    Args:
        state: a state whose fields have the right types (as loading or
            sampling makes them); their values are what is checked.

    Returns:
        The verdict.
    """
    placed = state.dealing
    if placed:  # a pending card-by-card order: check the state before its first card
        verdict = check_state(attrs.evolve(state, dealing=()))
        if verdict.problems:
            return verdict
        return Verdict(_dealing_problems(state))
    problems = _counting_problems(state)
    if problems:
        return Verdict(problems)
    if state.phase is Phase.REDEAL and not redeals(state.rules.redeal, state.table):  # type: ignore[arg-type]  # loose cards, checked above
        return Verdict(["the phase is 'redeal' but the initial table does not need a redeal"])
    if state.phase in (Phase.DEAL, Phase.REDEAL):
        return Verdict([])
    return _replay_problems(state)


def _counting_problems(state: GameState) -> list[str]:  # noqa: PLR0915  # one check after another
    rules = state.rules
    n, h, ts = rules.seats, rules.hand_size, rules.table_size
    cards = len(rules.deck)
    per_deal = n * h
    deals = rules.deals_per_round
    phase = state.phase
    p: list[str] = []
    if not 0 <= state.dealer < n:
        p.append(f"dealer {state.dealer} is not a seat (0 to {n - 1})")
    if state.to_move is not None and not 0 <= state.to_move < n:
        p.append(f"to_move {state.to_move} is not a seat (0 to {n - 1})")
    if len(state.hands) != n:
        p.append(f"hands must hold one hand per seat ({n}), not {len(state.hands)}")
    p.extend(
        f"hand {s} must be sorted in deck order without repeats"
        for s, hand in enumerate(state.hands)
        if any(a.index >= b.index for a, b in pairwise(hand))
    )
    counts: Counter[Card] = Counter()
    for hand in state.hands:
        counts.update(hand)
    for item in state.table:
        if isinstance(item, Build):
            if not 0 <= item.owner < n:
                p.append(f"a build's owner {item.owner} is not a seat (0 to {n - 1})")
            if not item.cards:
                p.append("a build holds no card")
        counts.update(item_cards(item))
    counts.update(state.stock)
    history = state.history
    for i, take in enumerate(state.takes):
        if not 0 <= take.seat < n:
            p.append(f"capture {i}: seat {take.seat} is not a seat (0 to {n - 1})")
        if not take.cards:
            p.append(f"capture {i} takes no card")
        if take.turn == -1:  # an initial table awarded at the deal (T3)
            if any(t.turn != -1 for t in state.takes[:i]):
                p.append(f"capture {i}: an award at the deal (turn -1) comes before the plays")
        elif take.turn is not None and not 0 <= take.turn < len(history):
            p.append(f"capture {i}: turn {take.turn} is not a play of this round")
        counts.update(take.cards)
    twice = sorted(c for c, k in counts.items() if k > 1)
    if twice:
        p.append(f"cards present more than once: {names(twice)}")
    if phase is Phase.DEAL:
        if counts or history or state.takes:
            p.append("before the first deal no card is dealt and nothing is played")
        if state.round_results:
            p.append("the phase 'deal' comes only before the first round")
    elif len(counts) != cards:
        p.append(f"cards missing: {cards - len(counts)} of the {cards}")
    if rules.deck is not DECK:
        outside = sum(c not in _deck_set(rules.deck) for c in counts)
        if outside:
            p.append(
                f"{outside} card{'s are' if outside > 1 else ' is'} not in the rule set's deck"
            )
    played = [move.card for move in history]
    if len(set(played)) != len(played):
        p.append("a card is played twice in the round's history")
    elsewhere = set(played).intersection(state.stock, *state.hands)
    if elsewhere:
        p.append(
            f"cards played this round are still in a hand or the stock: {names(sorted(elsewhere))}"
        )
    p.extend(_result_problems(state))
    sizes = [len(hand) for hand in state.hands]
    stock = len(state.stock)
    if phase is Phase.REDEAL:
        if history or state.takes:
            p.append("the initial table is redealt before anyone plays")
        if sizes != [h] * n or len(state.table) != ts or stock != cards - per_deal - ts:
            p.append(f"while the initial table is redealt, hands hold {h}, the table {ts}")
        elif not all(type(c) is Card for c in state.table):
            p.append("the initial table holds loose cards only")
    elif phase is Phase.PLAY:
        plays = len(history)
        if plays >= per_deal * deals:
            p.append(f"the round has {plays} plays: it is over after {per_deal * deals}")
        else:
            current, done = divmod(plays, per_deal)
            want = [h - _plays_of(s, state.dealer, n, done) for s in range(n)]
            if len(sizes) == n and sizes != want:
                p.append(f"after {plays} plays the hands must hold {want} cards, not {sizes}")
            if stock != cards - ts - per_deal * (current + 1):
                p.append(
                    f"after {plays} plays the stock must hold "
                    f"{cards - ts - per_deal * (current + 1)}"
                )
            if state.to_move != (state.dealer + 1 + done) % n:
                p.append(f"after {plays} plays seat {(state.dealer + 1 + done) % n} is to move")
    elif phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        if len(history) != per_deal * deals:
            p.append(f"a finished round has {per_deal * deals} plays, not {len(history)}")
        if any(sizes) or stock:
            p.append("after a round the hands and the stock are empty")
        if not state.round_results:
            p.append("a finished round has a result")
    if phase is not Phase.PLAY and state.to_move is not None:
        p.append(f"no seat is to move in the phase {phase.value!r}")
    p.extend(_bottom_problems(state))
    p.extend(_redealt_problems(state))
    p.extend(_replaced_problems(state))
    if not p:
        status = rules.match.status(state.round_results, rules.num_sides)
        if status.over != (phase is Phase.MATCH_OVER):
            p.append(
                "the match is over after these rounds"
                if status.over
                else "the phase is 'match over' but the match is not decided"
            )
    return p


def _dealing_problems(state: GameState) -> list[str]:
    """The pending card-by-card order of a state that is otherwise reachable.

    See [chance card by card][chance-card-by-card]: distinct cards of the order's pool (the
    deck, or the stock and the shown table of a redeal), never a pinned
    [V1][rules-v1] bottom card, and at least two free cards left to place.
    Messages name no card: the pending order is hidden.
    """
    phase = state.phase
    if phase not in (Phase.DEAL, Phase.ROUND_OVER, Phase.REDEAL):
        return [f"cards are dealt one by one only while chance deals, not in phase {phase.value!r}"]
    placed = state.dealing
    if not all(type(c) is Card for c in placed):
        return ["the cards dealt one by one must be cards"]
    if len(set(placed)) != len(placed):
        return ["a card is dealt twice in the pending order"]
    pinned = None
    if phase is Phase.REDEAL:
        pool = set(state.stock).union(*map(item_cards, state.table))
        pinned = state.bottom_card
        where = "the stock and the shown table"
    else:
        pool = set(state.rules.deck)
        where = "the deck"
    if not pool.issuperset(placed):
        return [f"the cards dealt one by one must come from {where}"]
    if pinned is not None and pinned in placed:
        return ["the shown bottom card (V1) is dealt last, not one by one"]
    free = len(pool) - len(placed) - (pinned is not None)
    if free < 2:  # the last free card completes the order with the one before
        return ["the pending order is complete: it would have been dealt"]
    return []


def _plays_of(seat: int, dealer: int, n: int, done: int) -> int:
    """How many of a deal's first `done` plays `seat` makes (the seat after the dealer leads)."""
    offset = (seat - dealer - 1) % n
    return (done - offset + n - 1) // n if done > offset else 0


def _result_problems(state: GameState) -> list[str]:
    """The finished rounds' results: what every scorer must get right, then the scorer's check."""
    rules = state.rules
    sides = rules.num_sides
    p: list[str] = []
    for i, r in enumerate(state.round_results, 1):
        rows = (r.cards, r.card_points, r.majority, r.xeris, r.xeri_bonus, r.total)
        if any(len(row) != sides for row in rows):
            p.append(f"round {i}: every score needs one entry per side ({sides})")
            continue
        found: list[str] = []
        if min(*r.cards, *r.xeris, r.leftover) < 0:
            found.append("counts of cards and xeris cannot be negative")
        if sum(r.cards) + r.leftover != len(rules.deck):
            found.append(f"the cards captured and left over must add up to {len(rules.deck)}")
        lines = r.categories if type(r.categories) is tuple else ()
        points = [row for _, row in lines if type(row) is tuple and len(row) == sides]
        totals = tuple(map(sum, zip(r.card_points, r.majority, r.xeri_bonus, *points, strict=True)))
        if r.total != totals:
            found.append(_total_rule(rules))
        found.extend(problem for problem in _scorer_problems(r, rules) if problem not in found)
        p.extend(f"round {i}: {problem}" for problem in found)
    return p


def _scorer_problems(result: RoundResult, rules: RuleSet) -> list[str]:
    """The scorer's own check of a result (a scorer of one's own may fail on data from outside)."""
    kind = type(rules.scorer).__name__
    try:
        check = getattr(rules.scorer, "check", None)
        if not callable(check):
            return [f"the scorer {kind} has no check method (see Scorer.check)"]
        problems = check(result, rules)
    except Exception as exc:  # data from outside may break a rule's code
        return [f"the scorer cannot check this result ({type(exc).__name__})"]
    if not isinstance(problems, list) or not all(isinstance(x, str) for x in problems):
        return ["the scorer's check does not return a list of messages"]
    return problems


def _redealt_problems(state: GameState) -> list[str]:
    """The redealt initial tables: each one must have needed its redeal.

    See [G4][rules-g4], [F4][rules-f4] and [X2][rules-x2].
    """
    rules = state.rules
    if not state.redealt:
        return []
    if state.phase is Phase.DEAL:
        return ["before the first deal no table has been redealt"]
    p: list[str] = []
    for i, table in enumerate(state.redealt):
        if len(table) != rules.table_size or len(set(table)) != len(table):
            p.append(f"redealt table {i} must hold {rules.table_size} different cards")
        elif not redeals(rules.redeal, table):
            p.append(f"redealt table {i} did not need a redeal")
        if state.bottom_card is not None and state.bottom_card in table:
            p.append(f"redealt table {i} holds the shown bottom card (V1)")
    # The first deal's hands were dealt before any redeal: its plays and, while it
    # lasts, the hands themselves hold no card of a redealt table.
    per_deal = rules.seats * rules.hand_size
    first: set[Card] = {move.card for move in state.history[:per_deal]}
    if state.phase is Phase.REDEAL or len(state.history) < per_deal:
        first.update(*state.hands)
    if first.intersection(*state.redealt):
        p.append("a card of a redealt table was in a hand dealt before the redeal (X2)")
    return p


_YES_NO = frozenset({Redeal, RanksOnTable})
"""The built-in redeal rules' classes: they answer yes or no and never fail."""


def _replaced_problems(state: GameState) -> list[str]:
    """The cards replaced at the deal ([T2][rules-t2]): distinct, and only by a rule that can."""
    replaced = state.replaced
    if not replaced:
        return []
    rules = state.rules
    if state.phase is Phase.DEAL or state.phase is Phase.REDEAL:
        return ["no card is replaced before the initial table stands"]
    if rules.redeal.__class__ in _YES_NO or not callable(getattr(rules.redeal, "action", None)):
        return ["only an initial-table rule (TableRule) replaces cards (T2)"]
    if len(set(replaced)) != len(replaced):
        return ["a card is replaced twice"]
    if (
        state.stock
        and len(state.stock) >= len(replaced)
        and (state.stock[-len(replaced) :] != replaced)
    ):
        return ["the replaced cards (T2) lie at the bottom of the stock, in order"]
    return []


def _bottom_problems(state: GameState) -> list[str]:
    rules = state.rules
    bottom = state.bottom_card
    if not rules.show_bottom_card or state.phase is Phase.DEAL:
        if bottom is not None:
            return ["no bottom card is shown (V1 is off, or nothing is dealt yet)"]
        return []
    if bottom is None:
        return ["under V1 the bottom card is shown all round"]
    if bottom.rank is Rank.JACK:
        return ["under V1 the shown bottom card is never a Jack"]
    n, h, ts = rules.seats, rules.hand_size, rules.table_size
    if len(rules.deck) - n * h - ts == 0:
        return []  # the last card dealt lies on the initial table
    if state.stock:
        if state.stock[-1] is not bottom:
            return ["under V1 the shown bottom card is the last card of the stock"]
        return []
    dealer = state.dealer
    if not 0 <= dealer < n:
        return []  # a dealer that is no seat is reported on its own
    last = (rules.deals_per_round - 1) * n * h
    holder = bottom_card_holder(rules, dealer)  # the last deal's dealer (X3)
    seats = play_seats(rules, dealer, len(state.history))
    dealers = {
        m.card for s, m in zip(seats[last:], state.history[last:], strict=True) if s == holder
    }
    held = state.hands[holder] if holder < len(state.hands) else ()
    if bottom not in held and bottom not in dealers:
        return ["under V1 the shown bottom card is dealt to the dealer in the last deal"]
    return []


def _initial_table(
    state: GameState, stands: Callable[[tuple[Card, ...]], bool]
) -> tuple[Card, ...]:
    """The round's initial table, rebuilt from the captures and the table (module docstring).

    The initial cards inside each capture, and those still on the table, keep
    their dealing order; how these runs interleaved is lost, and no later
    state depends on it except the initial-table rule, which looks at the
    order. So the runs are laid one after the other, and if the rule would not
    have let that table stand (`stands`), the other interleavings of the runs
    are tried in turn: the real table is among them. A table awarded at the
    deal ([T3][rules-t3]) is not on the table when play begins: its captures
    (turn -1) are left out.
    """
    gone = {move.card for move in state.history}
    gone.update(state.stock, *state.hands)
    runs = [[c for c in take.cards if c not in gone] for take in state.takes if take.turn != -1]
    runs.append([c for item in state.table for c in item_cards(item) if c not in gone])
    runs = [run for run in runs if run]
    table = tuple(c for run in runs for c in run)
    if stands(table) or len(runs) < 2 or len(table) > _MAX_INTERLEAVED:
        return table
    for candidate in _interleavings(runs):
        if stands(candidate):
            return candidate
    return table


def _stands(
    state: GameState, first: int, stock: tuple[Card, ...]
) -> Callable[[tuple[Card, ...]], bool]:
    """Whether the initial-table rule lets a table laid for play stand ([T1][rules-t1]).

    With no replacement and no award, the rule keeps it as dealt; after
    replacements ([T2][rules-t2]) some table as dealt leads to it
    (`unreplace`); after an award ([T3][rules-t3]) the table is empty.
    """
    rules = state.rules
    awarded = tuple(t for t in state.takes if t.turn == -1)
    replaced = state.replaced

    def stands(table: tuple[Card, ...]) -> bool:
        if awarded:
            return not table
        if replaced:
            return unreplace(rules, first, table, stock, replaced) is not None
        if rules.redeal.__class__ in _YES_NO:
            return not rules.redeal.needed(table)
        try:
            again = table_answer(rules, first, table, stock)
        except XeriError:
            return False
        return again == (False, table, stock, (), ())

    return stands


def _award_problems(state: GameState, first: int, stock: tuple[Card, ...]) -> list[str]:
    """The captures of an award at the deal must be the rule's answer to some table as dealt."""
    awarded = [list(t.cards) for t in state.takes if t.turn == -1]
    if not awarded:
        return []
    rules = state.rules
    if sum(map(len, awarded)) != rules.table_size or len(awarded) > _MAX_INTERLEAVED:
        return ["the captures awarded at the deal (T3) must hold the initial table"]
    want = tuple(t for t in state.takes if t.turn == -1)
    for candidate in _interleavings(awarded):
        try:
            again = table_answer(rules, first, candidate, stock)
        except XeriError:
            continue
        if again == (False, (), stock, (), want):
            return []
    return ["the initial-table rule awards no table as dealt this way (T3)"]


_MAX_INTERLEAVED = 8
"""Initial tables up to this size are searched over every interleaving of their runs."""


def _interleavings(runs: list[list[Card]]) -> Iterator[tuple[Card, ...]]:
    """Every merge of the runs that keeps the order inside each run."""
    if not runs:
        yield ()
        return
    for i, run in enumerate(runs):
        rest = [*runs[:i], run[1:], *runs[i + 1 :]] if len(run) > 1 else runs[:i] + runs[i + 1 :]
        for tail in _interleavings(rest):
            yield (run[0], *tail)


def _first_lay(
    state: GameState,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """The round as it stood before its first play: hands, initial table and stock.

    Rebuilt from the plays (phase `PLAY`, or a finished round): each deal's
    hands are the cards each seat played from it (and holds now), in deck
    order; the later deals' cards lie on the stock in the order they are
    dealt ([X3][rules-x3]), each deal from the seat after its own dealer
    (the same dealer all round, or the next seat each deal under
    `dealer_per_deal`), above the cards still in it; the initial table
    is `_initial_table`.
    """
    rules = state.rules
    n, h = rules.seats, rules.hand_size
    per_deal = n * h
    history = state.history
    first = round_dealer(rules, state.dealer, len(history))
    playing = state.phase is Phase.PLAY
    current = len(history) // per_deal
    dealt = current + 1 if playing else current
    # The seats of each deal in dealing order, its dealer's seat last (X3), each
    # deal by the dealer the round core names (G8).
    orders = [deal_seats(rules, dealer) for dealer in deal_dealers(rules, first, dealt)]
    blocks: list[list[list[Card]]] = [[[] for _ in range(n)] for _ in range(dealt)]
    for i, move in enumerate(history):
        deal, pos = divmod(i, per_deal)
        blocks[deal][orders[deal][pos % n]].append(move.card)
    if playing:
        for seat in range(n):
            blocks[current][seat].extend(state.hands[seat])
    hands = tuple(tuple(sorted(block)) for block in blocks[0])
    stock = tuple(
        c
        for deal, block in enumerate(blocks[1:], 1)
        for s in orders[deal]
        for c in sorted(block[s])
    )
    full = _arranged(stock + state.stock, state.replaced, h)
    return hands, _initial_table(state, _stands(state, first, full)), full


def _arranged(stock: tuple[Card, ...], low: tuple[Card, ...], h: int) -> tuple[Card, ...]:
    """`stock` with the cards `low` moved to its bottom, in order, within their blocks.

    A stock rebuilt from the plays holds each block of `h` cards in deck
    order, so the cards replaced at the deal ([T2][rules-t2]), which lay at
    the bottom, are put back in their places inside the blocks they were
    dealt in. A card outside its block is left where it is (and the replay
    then finds the state wrong).
    """
    if not low:
        return stock
    out = list(stock)
    last = len(out) - 1
    blocks: dict[int, list[Card]] = {}
    for e, card in enumerate(reversed(low)):  # `e` places above the bottom
        blocks.setdefault((last - e) // h, []).insert(0, card)
    for b, wanted in blocks.items():
        block = out[b * h : (b + 1) * h]
        if not set(wanted) <= set(block):
            return stock
        out[b * h : (b + 1) * h] = [*(c for c in block if c not in wanted), *wanted]
    return tuple(out)


def _dealt(
    state: GameState,
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], tuple[Card, ...]]:
    """The round as dealt, before the initial-table rule acted: hands, table and stock.

    From `_first_lay`: the replacements are undone (`unreplace`,
    [T2][rules-t2]) and an awarded table ([T3][rules-t3]) laid back in the
    order the rule awards it. Phase `PLAY` or a finished round.
    """
    hands, table, stock = _first_lay(state)
    rules = state.rules
    first = round_dealer(rules, state.dealer, len(state.history))
    if state.replaced:
        dealt = unreplace(rules, first, table, stock, state.replaced)
        if dealt is not None:
            table, stock = dealt
    awarded = [list(t.cards) for t in state.takes if t.turn == -1]
    if awarded and len(awarded) <= _MAX_INTERLEAVED:
        want = tuple(t for t in state.takes if t.turn == -1)
        for candidate in _interleavings(awarded):
            try:
                again = table_answer(rules, first, candidate, stock)
            except XeriError:
                continue
            if again == (False, (), stock, (), want):
                return hands, candidate, stock
    return hands, table, stock


def _replay_problems(state: GameState) -> Verdict:
    rules = state.rules
    history = state.history
    playing = state.phase is Phase.PLAY
    hands, table, stock = _first_lay(state)
    first = round_dealer(rules, state.dealer, len(history))
    if not _stands(state, first, stock)(table):
        if state.replaced:
            return Verdict(["no initial table as dealt gives these replaced cards (T2)"])
        if any(t.turn == -1 for t in state.takes):
            return Verdict(["an initial table awarded at the deal leaves no card on it (T3)"])
        return Verdict(["the initial table would have been dealt again"])
    award = _award_problems(state, first, stock)
    if award:
        return Verdict(award)
    results = state.round_results if playing else state.round_results[:-1]
    replay = GameState(
        rules=rules,
        phase=Phase.PLAY,
        dealer=first,
        to_move=(first + 1) % rules.seats,
        hands=hands,
        table=table,
        stock=stock,
        history=(),
        takes=tuple(t for t in state.takes if t.turn == -1),
        round_results=results,
        bottom_card=state.bottom_card,
        redealt=state.redealt,
        replaced=state.replaced,
    )
    i = 0
    try:
        for i, move in enumerate(history):  # noqa: B007  # `i` names the failing play below
            replay = apply(replay, move)
    except XeriError as exc:
        return Verdict([f"play {i} of the round ({history[i]}) is not legal: {exc}"])
    except Exception as exc:  # data from outside may break a rule's code
        return Verdict([f"play {i} of the round cannot be replayed ({type(exc).__name__})"])
    if replay != state:
        wrong = [
            f.name
            for f in attrs.fields(GameState)
            if getattr(replay, f.name) != getattr(state, f.name)
        ]
        problem = f"the round's plays do not lead to this state: {', '.join(wrong)} differ"
        return Verdict([problem])
    return Verdict([])

"""Helpers for the rule tests: decks laid out per clause X3 and scripted play.

Every round of the Greek family is 48 plays after a table of 4. A *script*
names the table and the cards in the order they are played; `script_deck`
turns it into the 52-card deck (top first) that deals those cards so that
each play comes from the hand of the seat whose turn it is.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Iterable, Sequence

import attrs
import pytest

import xeri
from xeri import DECK, Card, GameState, Rank, RuleSet

__all__ = [
    "EIGHT_XERI",
    "EVEN",
    "JACK_XERI",
    "LAST_XERI",
    "LAST_XERI_TABLE",
    "REST",
    "TABLE",
    "TEN_BY_JACK",
    "TEN_XERI",
    "TIE",
    "TIE_TABLE",
    "cards",
    "collect",
    "deal",
    "fill_deck",
    "finish_round",
    "play",
    "play_match",
    "play_random_round",
    "play_script",
    "points",
    "quiet",
    "result",
    "rr",
    "script_deck",
    "scripted",
    "seat_of_play",
    "sweep_deck",
    "turns_of",
]

REST = ...
"""In a script, stands for every card not named elsewhere, played without a capture."""


# Scripts of whole rounds, relative to the dealer. Every odd-numbered play
# (0-based) is the dealer's in the two-player game and the dealer's side's
# in the four-player game, so each script means the same for both: "the
# dealer" below is the dealer's side, "the other side" the players after it.
#
# The non-dealer takes the initial pile with 5♦ (five cards, no points), the
# dealer leaves 10♦ alone on the empty pile and the non-dealer takes it with
# 10♠: a xeri. The dealer then sweeps everything else with the four Jacks.
TABLE = "3♣ 4♦ 6♥ 5♠"
TEN_XERI = ("5♦", "10♦", "10♠", REST, "J♣", "2♦", "J♦", "2♥", "J♥", "2♠", "J♠")
# The same, but the non-dealer takes the lone 10♦ with J♠.
TEN_BY_JACK = ("5♦", "10♦", "J♠", REST, "J♣", "2♦", "J♦", "2♥", "J♥")
# The dealer leaves J♥ alone; the non-dealer takes it with J♣: a jack xeri.
JACK_XERI = ("5♦", "J♥", "J♣", REST, "J♦", "2♦", "J♠")
# A plain xeri with cards worth nothing: 8♠ on a lone 8♥.
EIGHT_XERI = ("5♦", "8♥", "8♠", REST, "J♣", "2♦", "J♦", "2♥", "J♥", "2♠", "J♠")
# The dealer's side sweeps with Jacks at plays 37, 41 and 45; the next seat
# leaves 9♦ alone and the dealer takes it with the round's very last card.
LAST_XERI_TABLE = "J♠ 4♦ 6♥ 5♠"
LAST_XERI = (REST, "J♣", "2♦ 3♥ 7♣", "J♦", "2♥ 3♠ 7♦", "J♥", "9♦", "9♣")
# The dealer's side takes 26 cards (3 points) with J♣ at play 21; the other
# side takes the other 26 (19 points) with J♦ and J♠ and, as last capturer,
# the dealer's 10♦ left alone on the pile: 26–26, base 22.
TIE_TABLE = "J♥ 2♣ 3♣ 4♣"
TIE = (
    "2♦ 2♥ 2♠ 3♦ 3♥ 3♠ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣ 6♦ 6♥ 6♠ 7♣ 7♦ 7♥ 7♠",
    "J♣",
    "A♣ A♦ A♥ A♠ K♣ K♦ K♥ K♠ Q♣ Q♦ Q♥ Q♠ 10♥ 10♠ 9♦ 9♥ 9♠ 8♦ 8♥ 8♠",
    "J♦",
    "10♣ 9♣ 8♣",
    "J♠",
    "10♦",
)
# As TIE, but each side's 26 cards are worth 11 points: a drawn round.
EVEN = (
    "A♣ A♦ A♥ A♠ K♣ K♦ K♥ K♠ 2♦ 2♥ 2♠ 3♦ 3♥ 3♠ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠",
    "J♣",
    "Q♣ Q♦ Q♥ Q♠ 10♣ 10♥ 10♠ 6♣ 6♦ 6♥ 6♠ 7♣ 7♦ 7♥ 7♠ 8♣ 8♦ 8♥ 9♣ 9♦",
    "J♦",
    "8♠ 9♥ 9♠",
    "J♠",
    "10♦",
)


def cards(text: str) -> tuple[Card, ...]:
    """Cards from space-separated names: `cards("10♦ J♠")`."""
    return tuple(Card.parse(name) for name in text.split())


def _as_card(card: Card | str) -> Card:
    return Card.parse(card) if isinstance(card, str) else card


def fill_deck(slots: Sequence[Card | str | None]) -> tuple[Card, ...]:
    """A 52-card deck with the given cards at their positions, the rest in DECK order.

    `slots` lists positions from the top; `None` (and every position past the
    end of `slots`) is filled with the unnamed cards in DECK order.
    """
    named = [None if s is None else _as_card(s) for s in slots]
    if len(named) > 52:
        raise ValueError("a deck has 52 cards")
    used = [c for c in named if c is not None]
    if len(set(used)) != len(used):
        raise ValueError(f"a card is named twice: {sorted(c for c in used if used.count(c) > 1)}")
    rest = iter([c for c in DECK if c not in set(used)])
    named += [None] * (52 - len(named))
    return tuple(next(rest) if c is None else c for c in named)


def deal(
    rules: RuleSet = xeri.GREEK,
    *,
    dealer: int = 0,
    hands: dict[int, Iterable[Card | str]] | None = None,
    table: Iterable[Card | str] = (),
    stock: Iterable[Card | str] = (),
) -> tuple[Card, ...]:
    """The deck that deals these first hands, table and stock prefix (clause X3).

    `hands` maps a seat to the first cards of its hand; `table` is bottom
    first, its last card on top; `stock` is the top of the stock. Every
    position left open is filled with the remaining cards in DECK order.
    """
    n, k, t = rules.seats, rules.hand_size, rules.table_size
    slots: list[Card | str | None] = [None] * 52
    for seat, hand in (hands or {}).items():
        block = ((seat - dealer - 1) % n) * k
        given = list(hand)
        if len(given) > k:
            raise ValueError(f"seat {seat} gets {k} cards, not {len(given)}")
        slots[block : block + len(given)] = given
    given = list(table)
    if len(given) > t:
        raise ValueError(f"the table holds {t} cards")
    slots[n * k : n * k + len(given)] = given
    given = list(stock)
    slots[n * k + t : n * k + t + len(given)] = given
    return fill_deck(slots)


def seat_of_play(rules: RuleSet, dealer: int, turn: int) -> int:
    """The seat that makes play number `turn` (0-based) of a round: after the dealer, clockwise."""
    return (dealer + 1 + turn) % rules.seats


def turns_of(rules: RuleSet, dealer: int, seat: int) -> tuple[int, ...]:
    """The play numbers (0-based) of a round that `seat` makes."""
    plays = 52 - rules.table_size
    return tuple(j for j in range(plays) if seat_of_play(rules, dealer, j) == seat)


def quiet(
    pool: Iterable[Card], *, before: Rank | None = None, after: Rank | None = None
) -> tuple[Card, ...]:
    """An order of `pool` in which no card has the rank of the card played just before it.

    `before` is the rank on top of the pile before the first card (None: the
    pile is empty or the top does not matter); `after` is a rank the last
    card must not have (the next card played). Jacks are refused: a Jack
    takes any pile. Cards of a rank are used in DECK order.
    """
    cards_ = sorted(pool)
    if any(c.rank is Rank.JACK for c in cards_):
        raise ValueError("a Jack captures every non-empty pile: name it in the script")
    counts = Counter(c.rank for c in cards_)
    dead: set[tuple[Rank | None, tuple[int, ...]]] = set()

    def search(prev: Rank | None, left: int) -> list[Rank] | None:
        if left == 0:
            return [] if prev is None or prev is not after else None
        key = (prev, tuple(counts[r] for r in Rank))
        if key in dead:
            return None
        options = sorted(
            (r for r in counts if counts[r] and r is not prev), key=lambda r: (-counts[r], r)
        )
        for r in options:
            counts[r] -= 1
            rest = search(r, left - 1)
            counts[r] += 1
            if rest is not None:
                return [r, *rest]
        dead.add(key)
        return None

    ranks = search(before, len(cards_))
    if ranks is None:
        raise ValueError("these cards cannot be played without a capture")
    by_rank: dict[Rank, list[Card]] = {}
    for c in cards_:
        by_rank.setdefault(c.rank, []).append(c)
    return tuple(by_rank[r].pop(0) for r in ranks)


def script_deck(
    table: Iterable[Card | str],
    plays: Sequence[object],
    *,
    rules: RuleSet = xeri.GREEK,
    dealer: int = 0,
) -> tuple[Card, ...]:
    """The deck that deals `table` and lets the round be played as `plays` says.

    `plays` is a sequence of items, in the order they are played:

    * a `Card` or card name: that card is played by the seat whose turn it is;
    * a string with spaces, a tuple, list or set of cards: these cards, played
      in an order that captures nothing (see `quiet`);
    * `REST` (at most once): every card not named elsewhere, played likewise.

    The result is checked: 48 plays, each card once.
    """
    table_ = [_as_card(c) for c in table]
    items: list[Card | list[Card] | None] = []
    for item in plays:
        if item is REST:
            items.append(None)
        elif isinstance(item, Card):
            items.append(item)
        elif isinstance(item, str):
            group = cards(item)
            items.append(group[0] if len(group) == 1 else list(group))
        else:
            items.append([_as_card(c) for c in item])  # type: ignore[attr-defined]
    named = list(table_)
    for item in items:
        if isinstance(item, Card):
            named.append(item)
        elif item is not None:
            named.extend(item)
    if len(set(named)) != len(named):
        raise ValueError("a card is named twice in the script")
    rest = [c for c in DECK if c not in set(named)]
    if rest and None not in items:
        raise ValueError(f"the script leaves out {len(rest)} cards and has no REST")
    order: list[Card] = []
    top: Rank | None = table_[-1].rank if table_ else None
    for i, item in enumerate(items):
        if isinstance(item, Card):
            order.append(item)
            top = item.rank
            continue
        group = rest if item is None else item
        nxt = items[i + 1] if i + 1 < len(items) else None
        after = nxt.rank if isinstance(nxt, Card) and nxt.rank is not Rank.JACK else None
        placed = quiet(group, before=top, after=after)
        order.extend(placed)
        if placed:
            top = placed[-1].rank
    if len(order) != 52 - rules.table_size:
        raise ValueError(f"the script plays {len(order)} cards, not {52 - rules.table_size}")
    n, k = rules.seats, rules.hand_size
    per_deal = n * k
    blocks: list[Card] = []
    for d in range(len(order) // per_deal):
        deal_plays = order[d * per_deal : (d + 1) * per_deal]
        for i in range(n):
            seat = (dealer + 1 + i) % n
            blocks.extend(
                c for j, c in enumerate(deal_plays) if seat_of_play(rules, dealer, j) == seat
            )
        if d == 0:
            blocks.extend(table_)
    assert sorted(blocks) == list(DECK)
    return tuple(blocks)


def _round_robin(pool: Iterable[Card]) -> list[Card]:
    """The cards dealt out rank by rank (A 2 3 … K, A 2 3 …): any run of it is quiet."""
    by_rank: dict[Rank, list[Card]] = {}
    for c in sorted(pool):
        by_rank.setdefault(c.rank, []).append(c)
    out: list[Card] = []
    while any(by_rank.values()):
        out.extend(by_rank[r].pop(0) for r in sorted(by_rank) if by_rank[r])
    return out


def sweep_deck(rules: RuleSet, dealer: int, sweeper: int) -> tuple[Card, ...]:
    """A round in which `sweeper` makes every capture, with Jacks at its last three turns.

    The fourth Jack lies at the bottom of the table, whose ranks all differ
    and whose top is no Jack, so no preset redeals it. The sweeper's side
    ends with all 52 cards (22 card points + 3 for more cards = 25); the
    other side with none. When the sweeper is not the dealer, the cards
    played after its last Jack are left over and collected by it (G9).
    """
    table = cards("J♣ 2♣ 3♦ 4♥")
    filler = iter(_round_robin(c for c in DECK if c.rank is not Rank.JACK and c not in table))
    jacks = dict(zip(turns_of(rules, dealer, sweeper)[-3:], cards("J♦ J♥ J♠"), strict=True))
    plays: list[object] = []
    run: list[Card] = []
    for turn in range(52 - rules.table_size):
        if turn in jacks:
            plays += [run, jacks[turn]]
            run = []
        else:
            run.append(next(filler))
    plays.append(run)
    return script_deck(table, plays, rules=rules, dealer=dealer)


def play(state: GameState, *moves: Card | str) -> GameState:
    """Play the cards in order, each by the seat whose turn it is."""
    for move in moves:
        state = xeri.apply(state, _as_card(move))
    return state


def finish_round(state: GameState, plays: Sequence[Card]) -> GameState:
    """Play the rest of a scripted round: the plays not yet made, from `len(state.history)` on."""
    state = play(state, *plays[len(state.history) :])
    assert state.is_round_over, state.phase
    return state


def collect(deck: Sequence[Card], rules: RuleSet = xeri.GREEK, dealer: int = 0) -> tuple[Card, ...]:
    """The cards of a scripted deck in the order they are played (the inverse of `script_deck`)."""
    n, k, t = rules.seats, rules.hand_size, rules.table_size
    per_deal = n * k
    rest = list(deck[:per_deal]) + list(deck[per_deal + t :])
    order: list[Card] = []
    for d in range(len(rest) // per_deal):
        blocks = rest[d * per_deal : (d + 1) * per_deal]
        hands = {(dealer + 1 + i) % n: list(blocks[i * k : (i + 1) * k]) for i in range(n)}
        order.extend(hands[seat_of_play(rules, dealer, j)].pop(0) for j in range(per_deal))
    return tuple(order)


def play_script(rules: RuleSet, deck: Sequence[Card], dealer: int = 0) -> GameState:
    """Deal `deck` and play the round it scripts to its end."""
    state = xeri.new_game(rules, deck=deck, dealer=dealer)
    return finish_round(state, collect(deck, rules, dealer))


def play_random_round(state: GameState, rng: random.Random) -> GameState:
    """Play the current round (or, from the end of one, the next) to its end with `rng`.

    Chance draws with `rng` and each player picks a random legal move.
    """
    if state.is_chance:
        state = xeri.apply(state, xeri.chance_move(state, rng))
    while not state.is_round_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
        else:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
    return state


def play_match(rules: RuleSet, rng: random.Random) -> tuple[GameState, list[object], GameState]:
    """A whole match drawn from `rng`: the state before the first deal, every move, the end.

    The first dealer, every shuffle and every player's choice come from
    `rng`; the moves list holds chance's moves too, so applying it to the
    first state replays the match.
    """
    first = xeri.start(rules, dealer=rng.randrange(rules.seats))
    state = first
    moves: list[object] = []
    while not state.is_over:
        move = (
            xeri.chance_move(state, rng) if state.is_chance else rng.choice(xeri.legal_moves(state))
        )
        moves.append(move)
        state = xeri.apply(state, move)  # type: ignore[arg-type]
    return first, moves, state


def points(pile: Iterable[Card]) -> int:
    """The Greek card points of a pile, counted here independently of the library (G10)."""
    total = 0
    for c in pile:
        if c.rank in (Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN):
            total += 1
        if c in (Card.parse("10♦"), Card.parse("2♣")):
            total += 1
    return total


def scripted(plays, table="3♣ 4♦ 6♥ 5♠", *, rules=xeri.GREEK, dealer=0):
    """The deck of a script (table bottom first, default `3♣ 4♦ 6♥ 5♠`) and the state it deals."""
    deck = script_deck(cards(table), plays, rules=rules, dealer=dealer)
    return deck, xeri.new_game(rules, deck=deck, dealer=dealer)


def result(plays, table="3♣ 4♦ 6♥ 5♠", *, rules=xeri.GREEK, dealer=0):
    """The result of a scripted round, played to its end."""
    deck = script_deck(cards(table), plays, rules=rules, dealer=dealer)
    state = play_script(rules, deck, dealer)
    assert state.is_round_over
    return state.round_results[-1]


def rr(cards_, card_points, majority, xeris, xeri_bonus, total, leftover=0):  # noqa: PLR0917  # a score sheet reads best as one row
    """A round's score sheet, one tuple per field, as a single row."""
    return xeri.RoundResult(
        cards=cards_,
        card_points=card_points,
        majority=majority,
        xeris=xeris,
        xeri_bonus=xeri_bonus,
        total=total,
        leftover=leftover,
    )


GERMAN_VARIANTS: dict[str, xeri.RuleSet] = {
    "german": xeri.GERMAN,
    "multi_capture": attrs.evolve(
        xeri.GERMAN, name="german-multi", capture=xeri.SumCapture(multi_capture=True)
    ),
    "forced_capture": attrs.evolve(
        xeri.GERMAN, name="german-forced", capture=xeri.SumCapture(forced_capture=True)
    ),
    "self_raise": attrs.evolve(
        xeri.GERMAN, name="german-self-raise", capture=xeri.SumCapture(self_raise=True)
    ),
    "all_options": attrs.evolve(
        xeri.GERMAN,
        name="german-all",
        capture=xeri.SumCapture(multi_capture=True, forced_capture=True, self_raise=True),
    ),
}
"""German Xeri and its variants: each option of SumCapture alone, then all of them (D3-D5)."""


def public_round(state: GameState, rng: random.Random) -> tuple[GameState, list[xeri.PlayerMove]]:
    """Play the round through the public engine; return its end and the moves chosen."""
    moves: list[xeri.PlayerMove] = []
    while not state.is_round_over:
        if state.is_chance:
            state = xeri.apply(state, xeri.chance_move(state, rng))
            continue
        move = rng.choice(xeri.legal_moves(state))
        moves.append(move)
        state = xeri.apply(state, move)
    return state, moves


def assert_same_state(got: GameState, want: GameState, context: object = None) -> None:
    """`got == want`, checked field by field first so that a failure names the field."""
    for field in attrs.fields(GameState):
        assert getattr(got, field.name) == getattr(want, field.name), (context, field.name)
    assert got == want, context
    assert hash(got) == hash(want), context


def engine_replay(start: GameState, end: GameState, context: object = None) -> GameState:
    """The engine's state after replaying, from `start`, the moves `end`'s history adds.

    Each move must be legal where it is played, and `end`'s history must begin with
    `start`'s: `end` is a rollout of `start`'s round.
    """
    assert end.history[: len(start.history)] == start.history, context
    state = start
    for move in end.history[len(start.history) :]:
        assert move in xeri.legal_moves(state), (context, move)
        state = xeri.apply(state, move)
    return state


def replaying(moves: list[xeri.PlayerMove]) -> xeri.Policy:
    """A rollout policy that plays the recorded moves, checking its view on the way."""
    script = iter(moves)

    def policy(view: xeri.RolloutView) -> int:
        move = next(script)
        assert move in view.moves
        assert list(view.moves) == sorted(view.moves)
        return list(view.moves).index(move)

    return policy


def refused(state: GameState, move: object, match: str) -> None:
    """`move` is refused with a message matching `match`, and `state` is left as it was."""
    snapshot = copy.deepcopy(state)
    with pytest.raises(xeri.IllegalMoveError, match=match):
        xeri.apply(state, move)
    assert state == snapshot


def two_seat_deck(
    plays: Sequence[Card], table: Sequence[Card], deck: Sequence[Card]
) -> tuple[Card, ...]:
    """The deck that deals `plays` to two seats in six deals, seat 1 dealing.

    Seat 0 plays the even plays and seat 1 the odd ones, so each deal gives
    each seat `len(plays) // 12` cards; `table` is laid after the first deal
    (X3). The result holds exactly the cards of `deck`.
    """
    hand = len(plays) // 12  # six deals of two hands
    out: list[Card] = []
    for d in range(6):
        block = list(plays[2 * hand * d : 2 * hand * (d + 1)])
        out += block[0::2] + block[1::2]
        if d == 0:
            out += table
    assert sorted(out) == sorted(deck)
    return tuple(out)


def check_last_collections(rules: RuleSet, seed: int, rounds: int = 10) -> int:
    """Play `rounds` random first rounds; check what the round's last play leaves (G9, D7).

    The cards left on the open table after the last card go to the last side
    that captured, in the order they lay, without a xeri; the table ends
    empty and the result accounts for the rule set's deck. Returns how many
    rounds ended with such a collection.
    """
    rng = random.Random(seed)
    collected = 0
    plays = len(rules.deck) - rules.table_size
    for _ in range(rounds):
        state = xeri.new_game(rules, rng=rng)
        while len(state.history) < plays - 1:
            state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        before = state
        state = xeri.apply(state, rng.choice(xeri.legal_moves(state)))
        assert state.is_round_over
        last = state.takes[-1]
        if last.turn is None:  # the rest of the table was collected
            collected += 1
            played = state.history[-1]
            if isinstance(played, xeri.Trail):
                left = (*before.table, played.card)
            else:
                assert isinstance(played, xeri.Capture)
                left = tuple(c for c in before.table if c not in played.taken)
            assert last.cards == left  # loose cards only: no build outlives the round
            assert last.xeri is None
            assert last.seat == [t.seat for t in state.takes[:-1]][-1]
        assert state.table == ()
        result = state.round_results[0]
        assert sum(result.cards) + result.leftover == len(rules.deck)
    return collected

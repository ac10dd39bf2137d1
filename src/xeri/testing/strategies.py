"""Hypothesis strategies for property tests of the engine and of rule sets.

This module needs hypothesis (the `testing` extra); the rest of
[`xeri.testing`][xeri.testing] does not. Its names are also importable from
`xeri.testing`, which loads this module on first use.

Examples:
    >>> import xeri
    >>> from hypothesis import given, settings
    >>> from xeri.testing import rule_sets
    >>> @settings(max_examples=10)
    ... @given(rule_sets(max_seats=3))
    ... def test_sides_cover_the_seats(rules):
    ...     assert len(rules.sides) == rules.seats
    >>> test_sides_cover_the_seats()
"""

from __future__ import annotations

from collections.abc import Iterable

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover  # the extra is installed with the tests
    raise ImportError(
        "xeri.testing.strategies needs hypothesis: install the testing extra, xeri[testing]"
    ) from exc

from xeri._cards import DECK, ITALIAN_DECK, PIQUET_DECK, Card, Rank
from xeri._core.engine import apply, legal_moves, start
from xeri._core.state import GameState, Phase
from xeri._errors import RuleSetError
from xeri._families.options import Option
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._families.sums.rule import GERMAN_VALUES, SCOPA_VALUES, SumCapture
from xeri._families.sweepers import Sweeper
from xeri._moves import Deal, Move, Reshuffle
from xeri._rules.categories import SweepPoints
from xeri._rules.match import FixedRounds, SharedTarget, TargetScore
from xeri._rules.ruleset import GERMAN_POINTS, GREEK_POINTS, Redeal, RuleSet
from xeri._rules.scoring import MajorityTie, PointsTable

__all__ = ["decks", "reachable_states", "rule_sets"]


def decks(of: RuleSet | Iterable[Card] | None = None) -> st.SearchStrategy[tuple[Card, ...]]:
    """Decks for [`new_game`][xeri.new_game] and [`Deal`][xeri.Deal]: the cards in any order.

    Hypothesis shrinks a deck towards [`DECK`][xeri.DECK] order.

    Args:
        of: the cards: a rule set (its [`deck`][xeri.RuleSet.deck]), or
            distinct cards such as [`ITALIAN_DECK`][xeri.ITALIAN_DECK]. None
            (the default) is the 52 cards of [`DECK`][xeri.DECK].

    Raises:
        ValueError: `of` is not a rule set nor distinct cards.

    Examples:
        >>> import xeri
        >>> from hypothesis import given
        >>> from xeri.testing import decks
        >>> @given(decks())
        ... def test_deal_uses_every_card(deck):
        ...     state = xeri.new_game(xeri.GERMAN, deck=deck, dealer=0)
        ...     assert len(state.hands[0]) + len(state.table) + len(state.stock) == 46
        >>> test_deal_uses_every_card()
        >>> @given(decks(xeri.PIQUET_DECK))
        ... def test_a_piquet_deck_has_no_six(deck):
        ...     assert len(deck) == 32 and all(card.rank not in range(2, 7) for card in deck)
        >>> test_a_piquet_deck_has_no_six()
    """
    if of is None:
        cards: tuple[Card, ...] = DECK
    elif isinstance(of, RuleSet):
        cards = of.deck
    else:
        cards = _cards(of)
    return st.permutations(cards).map(tuple)


def _cards(of: object) -> tuple[Card, ...]:
    """Distinct cards, in deck order, or a ValueError."""
    if isinstance(of, (str, bytes)) or not isinstance(of, Iterable):
        raise ValueError(f"decks takes a RuleSet or cards, not {type(of).__name__}")
    cards = tuple(of)
    if not all(isinstance(c, Card) for c in cards):
        raise ValueError("decks takes a RuleSet or cards: every item must be a Card")
    if len(set(cards)) != len(cards):
        raise ValueError("decks takes distinct cards: a card is named twice")
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index


def _sides(seats: int) -> list[tuple[int, ...]]:
    """Every way the strategy seats its sides: each seat alone, or partners in turn."""
    options = [tuple(range(seats))]
    options.extend(tuple(s % n for s in range(seats)) for n in range(2, seats) if seats % n == 0)
    return options


def _deals(seats: int, redeal: Redeal, *, bottom: bool, deck: int) -> list[tuple[int, int]]:
    """Every (table_size, hand_size), 0 to 8 table cards, that deals `deck` cards in whole deals."""
    pairs = []
    for table in range(9):
        if redeal is not Redeal.NEVER and not 1 <= table <= (
            8 if redeal is Redeal.TOP_JACK_OR_TOP_PAIR else 5
        ):
            continue
        for hand in range(1, deck // 2 + 1):
            cards = seats * hand
            if table + cards > deck or (deck - table) % cards:
                continue
            if redeal is not Redeal.NEVER and deck - cards - bottom < 4 * table + 1:
                continue
            pairs.append((table, hand))
    return pairs


@st.composite
def _points_tables(draw: st.DrawFn, deck: tuple[Card, ...]) -> PointsTable:
    preset = draw(st.sampled_from([GREEK_POINTS, GERMAN_POINTS, None]))
    if preset is not None:
        return preset
    ranks = draw(st.dictionaries(st.sampled_from(list(Rank)), st.integers(0, 3), max_size=5))
    cards = draw(st.dictionaries(st.sampled_from(deck), st.integers(0, 3), max_size=3))
    return PointsTable(ranks=ranks, cards=cards)


_ALL_DECKS = (DECK, DECK, ITALIAN_DECK, PIQUET_DECK)
"""The decks `rule_sets(decks=True)` draws from: the 52 cards about half the time."""
"""The decks `rule_sets` draws from: the 52 cards half the time (the first, to shrink to)."""


_SUM_VALUES = (
    GERMAN_VALUES,
    GERMAN_VALUES,
    SCOPA_VALUES,
    (*GERMAN_VALUES, (Rank.JACK, 11), (Rank.QUEEN, 12), (Rank.KING, 13)),  # above 10 (K2)
    ((Rank.ACE, (1, 11)), *GERMAN_VALUES[1:]),  # an Ace of two values (K2)
)
"""The values `rule_sets` draws for the sum family: German Xeri's half the time (the first)."""


def _sum_capture(options: dict[str, object]) -> SumCapture:
    """A `SumCapture` of the options drawn, those that do not fit the others set back.

    An option whose `needs` is off goes back to its default; then, while the
    rule set refuses the mix, the options drawn are set back one at a time,
    the last of the table first.
    """
    table = SumCapture.OPTIONS
    for option in table:
        if (
            option.needs is not None
            and option.name in options
            and not options.get(option.needs, True)
        ):
            options[option.name] = option.default
    resets: list[Option | None] = [None, *reversed(table)]
    for o in resets:
        if o is not None and o.name in options:
            options[o.name] = o.default
        try:
            return SumCapture(**options)  # type: ignore[arg-type]  # names from the table
        except RuleSetError:
            continue
    return SumCapture()  # not reached: every option at its default is valid


_KINDS = (None, XeriKind.XERI, XeriKind.JACK_XERI)


@st.composite
def _sweepers(draw: st.DrawFn, deck: tuple[Card, ...]) -> tuple[Sweeper, ...]:
    """None to three sweepers: Basra's Jacks and 7♦ first (to shrink to), or drawn cards."""
    basra = (
        Sweeper(cards=(Rank.JACK,)),
        Sweeper(cards=(Card.parse("7♦"),), xeri=XeriKind.XERI, xeri_up_to=10),
    )
    if draw(st.booleans()):
        return basra
    cards = draw(st.lists(st.sampled_from(deck), unique=True, max_size=6))
    out = []
    for i in range(0, len(cards), 2):
        up_to = draw(st.one_of(st.none(), st.integers(0, 30)))
        out.append(
            Sweeper(cards=cards[i : i + 2], xeri=draw(st.sampled_from(_KINDS)), xeri_up_to=up_to)
        )
    return tuple(out)


@st.composite
def _sweep_points(draw: st.DrawFn, deck: tuple[Card, ...]) -> SweepPoints:
    kinds = draw(st.sampled_from([(XeriKind.XERI, XeriKind.JACK_XERI), (XeriKind.XERI,)]))
    return SweepPoints(
        each=draw(st.integers(0, 3)),
        played=draw(_points_tables(deck)),
        taken=draw(_points_tables(deck)),
        kinds=kinds,
    )


@st.composite
def _rule_sets(draw: st.DrawFn, max_seats: int, name: str, *, decks: bool, sweeps: bool) -> RuleSet:
    seats = draw(st.integers(2, max_seats))
    sides = draw(st.sampled_from(_sides(seats)))
    pile = False if sweeps else draw(st.booleans())
    capture: PileCapture | SumCapture
    if pile:
        capture = PileCapture(
            sweeper=draw(st.sampled_from([Rank.JACK, Rank.JACK, None, Rank.KING]))
        )
    else:
        options: dict[str, object] = {
            o.name: draw(st.booleans()) for o in SumCapture.OPTIONS if type(o.default) is bool
        }
        options["values"] = draw(st.sampled_from(_SUM_VALUES))
        options["total"] = draw(st.sampled_from([None, None, 11, 15]))
        if sweeps:  # W1-W3: the sweepers and the ranks of the jack xeris
            options["sweepers"] = draw(_sweepers(DECK))
            options["jack_xeri_ranks"] = tuple(
                draw(st.lists(st.sampled_from(list(Rank)), unique=True, max_size=3))
            )
        capture = _sum_capture(options)
    deck = draw(st.sampled_from(_ALL_DECKS)) if decks else DECK
    bottom = draw(st.booleans())
    redeal = draw(st.sampled_from(list(Redeal)))
    deals = _deals(seats, redeal, bottom=bottom, deck=len(deck))
    if not deals:  # a small deck for many seats cannot be redealt: play without redeals
        redeal = Redeal.NEVER
        deals = _deals(seats, redeal, bottom=bottom, deck=len(deck))
    table_size, hand_size = draw(st.sampled_from(deals))
    hideable = pile and table_size > 1 and redeal is Redeal.NEVER
    face_down = draw(st.integers(0, table_size - 1)) if hideable else 0
    points = draw(_points_tables(deck))
    majority = draw(st.integers(0, 5))
    base = points.count(deck) + majority
    match: FixedRounds | TargetScore
    if base == 0 or draw(st.booleans()):
        match = FixedRounds(rounds=draw(st.integers(1, 2)))
    else:
        short = max(1, 2 * base // len(set(sides)))
        match = TargetScore(
            target=draw(st.integers(1, short)),
            step=draw(st.integers(1, short)),
            shared=draw(st.sampled_from(list(SharedTarget))),
        )
    return RuleSet(
        name=name,
        seats=seats,
        sides=sides,
        deck=deck,
        hand_size=hand_size,
        table_size=table_size,
        face_down=face_down,
        redeal=redeal,
        show_bottom_card=bottom,
        xeri_on_last_card=draw(st.booleans()),
        xeri_on_first_card=draw(st.booleans()),
        capture=capture,
        card_points=points,
        majority_points=majority,
        majority_tie=draw(st.sampled_from(list(MajorityTie))),
        xeri_points=draw(st.integers(0, 20)),
        jack_xeri_points=draw(st.integers(0, 30)),
        categories=(draw(_sweep_points(deck)),) if sweeps and draw(st.booleans()) else (),
        match=match,
        dealer_per_deal=draw(st.booleans()),
    )


def rule_sets(
    *, max_seats: int = 4, name: str = "generated", decks: bool = False, sweeps: bool = False
) -> st.SearchStrategy[RuleSet]:
    """Valid rule sets, drawn over every option, with short matches.

    The draws cover: 2 to `max_seats` seats, each seat its own side or
    partners in turn (`(0, 1, 0, 1)`); the 52 cards, or with `decks=True`
    also [`ITALIAN_DECK`][xeri.ITALIAN_DECK] or
    [`PIQUET_DECK`][xeri.PIQUET_DECK] (about half the draws); the pile family
    ([`PileCapture`][xeri.PileCapture] with the Jack, the King or no sweeper)
    or the sum family ([`SumCapture`][xeri.SumCapture] with each of its
    options: German Xeri's or Scopa's values, pictures worth 11 to 13 or an
    Ace worth 1 or 11 ([K2][rules-k2]), a `total` of 11 or 15 ([K1][rules-k1]));
    a table of 0 to 8 cards and a hand size that deal the deck in
    whole deals; face-down table cards (pile family); every
    [`Redeal`][xeri.Redeal] condition (on tables small enough to be redealt
    quickly, from a deck large enough); the shown bottom card
    ([V1][rules-v1]); xeri on the first and last cards; a dealer for the
    round or for each deal (`dealer_per_deal`); a points table
    (Greek, German or random), majority points and tie rule, xeri and jack
    xeri bonuses; and a short match: one or two
    [`FixedRounds`][xeri.FixedRounds], or a [`TargetScore`][xeri.TargetScore]
    reached in a round or two of base points.

    Args:
        max_seats: the most seats drawn, 2 to 8.
        name: the name of every rule set drawn.
        decks: also draw the 40- and 32-card decks ([`RuleSet.deck`][xeri.RuleSet.deck]);
            off by default, so that tests written for the 52 cards keep holding.
        sweeps: draw the sum family only, with sweepers
            ([`SumCapture.sweepers`][xeri.SumCapture.sweepers]: Basra's Jacks and 7♦,
            or drawn cards with drawn kinds and bounds), ranks of jack xeris
            ([`SumCapture.jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks]) and, half
            the time, a [`SweepPoints`][xeri.SweepPoints] category
            ([W1][rules-w1]-[W4][rules-w4]); off by default, so that the draws of
            the other tests stay the same.

    Examples:
        >>> from hypothesis import given, settings
        >>> from xeri.testing import rule_sets
        >>> @settings(max_examples=20)
        ... @given(rule_sets(decks=True))
        ... def test_a_round_deals_the_deck(rules):
        ...     plays = rules.deals_per_round * rules.seats * rules.hand_size
        ...     assert plays + rules.table_size == len(rules.deck)
        >>> test_a_round_deals_the_deck()
    """
    if type(max_seats) is not int or not 2 <= max_seats <= 8:
        raise ValueError(f"max_seats must be an int from 2 to 8, not {max_seats!r}")
    if type(decks) is not bool:
        raise ValueError(f"decks must be True or False, not {decks!r}")
    if type(sweeps) is not bool:
        raise ValueError(f"sweeps must be True or False, not {sweeps!r}")
    return _rule_sets(max_seats, name, decks=decks, sweeps=sweeps)


def _chance_moves(state: GameState) -> st.SearchStrategy[Move]:
    if state.phase is not Phase.REDEAL:
        return decks(state.rules).map(lambda deck: Deal(deck=deck))
    pool = [*state.stock, *state.rules.capture.table_cards(state.table)]
    bottom = state.bottom_card
    if bottom is not None:
        pool.remove(bottom)
    return st.permutations(pool).map(
        lambda order: Reshuffle(stock=(*order, bottom) if bottom is not None else tuple(order))
    )


def reachable_states(
    rules: RuleSet | st.SearchStrategy[RuleSet],
    *,
    max_moves: int = 150,
) -> st.SearchStrategy[GameState]:
    """States reached from the start of a match by legal moves, chance's included.

    The dealer, every deck and reshuffle, and every player's move are drawn
    by hypothesis, so a failing example shrinks to a short game.

    Args:
        rules: a rule set, or a strategy of them (as [`rule_sets`][xeri.testing.rule_sets]).
        max_moves: the most moves made from the state before the first deal
            (a Greek round is 1 deal and 48 plays).

    Examples:
        >>> import xeri
        >>> from hypothesis import given, settings
        >>> from xeri.testing import reachable_states
        >>> @settings(max_examples=20)
        ... @given(reachable_states(xeri.GREEK))
        ... def test_the_dealer_plays_last(state):
        ...     dealer = len(state.hands[state.dealer])
        ...     assert all(dealer >= len(hand) for hand in state.hands)
        >>> test_the_dealer_plays_last()
    """
    if type(max_moves) is not int or max_moves < 0:
        raise ValueError(f"max_moves must be an int >= 0, not {max_moves!r}")
    source = rules if isinstance(rules, st.SearchStrategy) else st.just(rules)

    @st.composite
    def states(draw: st.DrawFn) -> GameState:
        r = draw(source)
        state = start(r, dealer=draw(st.integers(0, r.seats - 1)))
        for _ in range(draw(st.integers(0, max_moves))):
            if state.is_over or (state.phase is Phase.ROUND_OVER and draw(st.booleans())):
                break  # a finished round is worth looking at too
            if state.is_chance:
                move = draw(_chance_moves(state))
            else:
                moves = legal_moves(state)
                move = moves[draw(st.integers(0, len(moves) - 1))]
            state = apply(state, move)
        return state

    return states()

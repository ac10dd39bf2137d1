"""The round's clauses, in one place: the deal and its order, the xeri exceptions, the end.

Every path that plays a round calls these functions and restates none of
them: [`apply`][xeri.apply] and the chance moves of the engine, the fast
paths of [`rollout`][xeri.rollout] (the pile loops and the sum kernel, which
keep their inner loops inlined and call here at each deal, at each capture
that could be a xeri, and at the round's end), [`preview`][xeri.preview],
[`determinize`][xeri.determinize], the validator, the observation and the
card-by-card chance.

* **The deal** ([X3][rules-x3]): the top of the deck first, a block of
  `hand_size` cards to each seat, from the seat after the dealer in seat
  order (`deal_seats`, `deal_hands`), then the initial table, its last card
  on top (`lay_table`); under [V1][rules-v1] the bottom card is shown first
  (`cut_deck`). The rule set's `redeal` component then answers about the
  table ([T1][rules-t1], `table_answer`): keep it, redeal it, replace named
  cards from the stock ([T2][rules-t2]) or award it as captures
  ([T3][rules-t3]); `unreplace` undoes the replacements for the validator.
  The fast paths of `rollout` start after the deal and deal the later
  blocks only, so they play every initial-table rule as the engine does.
  Each deal is led by the seat after its dealer ([G5][rules-g5],
  `leader`). When the hands are empty and the stock is not, the same
  dealer deals again ([G8][rules-g8]), or the next seat under
  [`dealer_per_deal`][xeri.RuleSet.dealer_per_deal] (`next_deal_dealer`); a
  new round is dealt by the seat after the dealer of the last deal
  ([G2][rules-g2], [F2][rules-f2], `next_round_dealer`).
* **The xeri exceptions** ([G7][rules-g7], [V3][rules-v3], [P4][rules-p4]):
  the capture rule says whether a capture is a xeri by its shape; the rule
  set's `xeri_on_first_card` and `xeri_on_last_card` take it away on the
  round's first or last play (`counted_xeri`). This module is the only one
  of the engine side that reads those two fields.
* **The end of the round** ([G9][rules-g9], [D7][rules-d7], [X1][rules-x1]):
  the last capturer takes what is left on the table, not as a xeri; if
  nobody captured, the cards go to nobody. Then the scorer scores the round
  and the match format says whether the match is over (`end_round`).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache, lru_cache
from operator import attrgetter

from xeri._cards import Card, Rank
from xeri._core.boundary import _failed, _table_cards
from xeri._core.state import GameState, Phase, Take, _make_state, _make_take
from xeri._errors import RuleSetError, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._immutable import _per_value
from xeri._moves import PlayerMove
from xeri._rules.match import _checked_status
from xeri._rules.redeal import RanksOnTable, Redeal, TableAction, table_action
from xeri._rules.ruleset import _MAX_SEATS, RuleSet
from xeri._rules.scoring import RoundResult, StandardScorer, _scored
from xeri._table import TableItem

__all__: list[str] = []

_INDEX = attrgetter("index")
_RESULT_FIELDS = ("cards", "card_points", "majority", "xeris", "xeri_bonus", "total")


# ---------------------------------------------------------------------------
# The deal and its order


def leader(rules: RuleSet, dealer: int) -> int:
    """The seat that leads a deal: the one after its dealer ([G5][rules-g5], [F5][rules-f5])."""
    return dealer + 1 if dealer + 1 < rules.seats else 0


def next_deal_dealer(rules: RuleSet, dealer: int) -> int:
    """The dealer of the round's next deal: the same seat, or the next under `dealer_per_deal`.

    [G8][rules-g8]: when the hands are empty and the stock is not, the stock deals again.
    """
    if rules.dealer_per_deal:
        return dealer + 1 if dealer + 1 < rules.seats else 0
    return dealer


def next_round_dealer(rules: RuleSet, dealer: int) -> int:
    """The dealer of a new round: the seat after the dealer of the last deal ([G2][rules-g2])."""
    return (dealer + 1) % rules.seats


_SEAT_ORDERS = tuple(
    tuple(tuple((dealer + 1 + i) % n for i in range(n)) for dealer in range(n))
    for n in range(_MAX_SEATS + 1)
)
"""`_SEAT_ORDERS[seats][dealer]`: the seats from the one after `dealer` round the table."""


def deal_seats(rules: RuleSet, dealer: int) -> tuple[int, ...]:
    """The seats that get the blocks of `hand_size` cards from the top, in order ([X3][rules-x3]).

    Block `i` is `cards[i * hand_size : (i + 1) * hand_size]`; the dealer's comes last.
    """
    return _SEAT_ORDERS[rules.seats][dealer]


Deal = tuple[int, int, tuple[int, ...], tuple[int, ...]]
"""One deal of `later_deals`: its dealer, its leader, the seats of its blocks, their places."""


def later_deals(rules: RuleSet, dealer: int, deals: int) -> tuple[Deal, ...]:
    """The round's next `deals` deals after the one `dealer` dealt, for the fast paths.

    Returns:
        For each deal in order: its dealer ([G8][rules-g8]), the seat that
        leads it ([G5][rules-g5]), the seats that get its blocks of cards
        from the top of the stock ([X3][rules-x3]), and for each block the
        place its seat plays in after the leader (0 for the leader).
    """
    return _later_deals(rules.seats, rules.dealer_per_deal, dealer, deals)


@cache
def _later_deals(seats: int, per_deal: bool, dealer: int, deals: int) -> tuple[Deal, ...]:  # noqa: FBT001  # a cache key
    """`later_deals` from the only fields it depends on: computed once for each."""
    plan = []
    for _ in range(deals):
        if per_deal:  # G8 and `dealer_per_deal`, as `next_deal_dealer` says
            dealer = (dealer + 1) % seats
        blocks = _SEAT_ORDERS[seats][dealer]
        lead = blocks[0]  # the seat after the dealer, dealt first
        plan.append((dealer, lead, blocks, tuple((s - lead) % seats for s in blocks)))
    return tuple(plan)


def deal_hands(
    rules: RuleSet, dealer: int, cards: tuple[Card, ...]
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Deal a block of `hand_size` cards to each seat from the top of `cards` ([X3][rules-x3]).

    Returns:
        The hands by seat, each sorted in deck order, and the cards left below.
    """
    k = rules.hand_size
    hands: list[tuple[Card, ...]] = [()] * rules.seats
    for i, seat in enumerate(deal_seats(rules, dealer)):
        hands[seat] = tuple(sorted(cards[i * k : (i + 1) * k], key=_INDEX))
    return tuple(hands), cards[rules.seats * k :]


def cut_deck(rules: RuleSet, deck: list[Card]) -> Card | None:
    """Show the bottom card after the cut ([V1][rules-v1]): the card shown, or None.

    Under `show_bottom_card`, a Jack at the bottom is replaced by the first
    non-Jack from the bottom up, which goes to the bottom (`deck` is changed
    in place).
    """
    if not rules.show_bottom_card:
        return None
    if deck[-1].rank is Rank.JACK:
        j = max(i for i, c in enumerate(deck) if c.rank is not Rank.JACK)
        deck.append(deck.pop(j))
    return deck[-1]


def lay_table(  # noqa: PLR0917  # internal, called positionally from two places
    rules: RuleSet,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    cards: tuple[Card, ...],
    results: tuple[RoundResult, ...],
    bottom: Card | None,
    redealt: tuple[tuple[Card, ...], ...],
) -> GameState:
    """Lay the initial table from the top of `cards`, the last on top ([X3][rules-x3]).

    Then the rule set's `redeal` component answers ([T1][rules-t1]): the state
    is in phase `REDEAL` when the table must be dealt again ([G4][rules-g4],
    [F4][rules-f4]), else in phase `PLAY` with the seat after the dealer to
    move, after any replacement of named cards ([T2][rules-t2]) or award of
    the table ([T3][rules-t3]) (`table_answer`).
    """
    t = rules.table_size
    table, stock = cards[:t], cards[t:]
    rule = rules.redeal
    if rule.__class__ in _YES_NO:  # the built-in redeal rules: yes or no, the hot path
        redeal = rule.needed(table)
        replaced: tuple[Card, ...] = ()
        takes: tuple[Take, ...] = ()
    else:
        redeal, table, stock, replaced, takes = table_answer(rules, dealer, table, stock)
    return _make_state(
        rules=rules,
        phase=Phase.REDEAL if redeal else Phase.PLAY,
        dealer=dealer,
        to_move=None if redeal else leader(rules, dealer),
        hands=hands,
        table=table,
        stock=stock,
        history=(),
        takes=takes,
        round_results=results,
        bottom_card=bottom,
        redealt=redealt,
        replaced=replaced,
    )


_YES_NO = frozenset({Redeal, RanksOnTable})
"""The built-in redeal rules' classes: they answer yes or no and never fail."""
_MAX_REPLACED = 52
"""At most this many replacements at one deal (each replaced card is put back once)."""


def table_answer(
    rules: RuleSet, dealer: int, table: tuple[Card, ...], stock: tuple[Card, ...]
) -> tuple[bool, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...], tuple[Take, ...]]:
    """What the initial-table rule does with a table as dealt ([T1][rules-t1]).

    The rule sees the face-up cards only. A replacement ([T2][rules-t2])
    takes each named card off the table, puts it face up under the stock
    (the last replaced lies at the bottom) and lays the top card of the
    stock in its place; the rule is then asked again, and may only keep the
    table or replace more. An award ([T3][rules-t3]) gives the table to the
    seat `seat_offset` after the dealer as one capture per group (turn -1),
    each a xeri when `sweep` says so; the table is then empty.

    Returns:
        Whether to redeal, the table, the stock, the cards replaced, the
        captures of the award.

    Raises:
        RuleSetError: the rule failed or answered what cannot be done.
    """
    down = rules.face_down
    replaced: list[Card] = []
    while True:
        action = _asked(rules, table[down:])
        kind = action.kind
        if kind != "replace":
            break
        for card in action.cards:
            if card not in table[down:]:
                raise _failed(
                    rules, "redeal", "action", "named a card to replace not face up on the table"
                )
            if not stock or stock[0] in replaced or len(replaced) >= _MAX_REPLACED:
                return False, table, stock, tuple(replaced), ()  # no fresh card: it stands
            i = table.index(card)
            table = (*table[:i], stock[0], *table[i + 1 :])
            stock = (*stock[1:], card)
            replaced.append(card)
    if replaced and rules.show_bottom_card:
        raise _failed(rules, "redeal", "action", "replaced a card under a shown bottom card (V1)")
    if replaced and kind != "keep":
        raise _failed(
            rules, "redeal", "action", f"answered {kind} after a replacement: only keep or replace"
        )
    if kind == "keep":
        return False, table, stock, tuple(replaced), ()
    if down and table:
        raise _failed(
            rules, "redeal", "action", f"answered {kind} for a table with face-down cards"
        )
    if kind == "redeal":
        return True, table, stock, (), ()
    groups = action.groups or (table,)
    if sorted(c for g in groups for c in g) != sorted(table) or any(
        g != tuple(c for c in table if c in g) for g in groups
    ):
        raise _failed(
            rules, "redeal", "action", "awarded groups that do not split the table in table order"
        )
    seat = (dealer + action.seat_offset) % rules.seats
    xeri = XeriKind.XERI if action.sweep else None
    takes = tuple(_make_take(seat=seat, cards=g, xeri=xeri, turn=-1) for g in groups)
    return False, (), stock, (), takes


def _asked(rules: RuleSet, cards: tuple[Card, ...]) -> TableAction:
    """The initial-table rule's answer about the face-up `cards`, its shape checked."""
    try:
        action = table_action(rules.redeal, cards)
    except Exception as exc:
        raise _failed(rules, "redeal", _method(rules), f"raised {type(exc).__name__}") from exc
    if action.__class__ is not TableAction:
        problem = f"returned {_show(action, text=False)}, not a TableAction"
        raise _failed(rules, "redeal", "action", problem)
    return action


def _method(rules: RuleSet) -> str:
    """The method of the `redeal` component that answers: `action`, or a `RedealRule`'s `needed`."""
    return "action" if callable(getattr(rules.redeal, "action", None)) else "needed"


def unreplace(
    rules: RuleSet,
    dealer: int,
    table: tuple[Card, ...],
    stock: tuple[Card, ...],
    replaced: tuple[Card, ...],
) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The table and stock as dealt, before the replacements that made `table` and `stock`.

    `stock` is the whole stock after the replacements (the replaced cards at
    its bottom). The places the replacing cards took are tried in turn and
    the rule's own answers replayed ([T2][rules-t2]); None when no table as
    dealt gives these.
    """
    k = len(replaced)
    if not k:
        return table, stock
    if stock[len(stock) - k :] != replaced:
        return None
    rest = stock[: len(stock) - k]
    down = rules.face_down
    places = range(down, len(table))

    def back(i: int, now: tuple[Card, ...], drawn: list[Card]) -> Iterator[tuple[Card, ...]]:
        if i < 0:
            yield now
            return
        for p in places:
            drawn.append(now[p])
            yield from back(i - 1, (*now[:p], replaced[i], *now[p + 1 :]), drawn)
            drawn.pop()

    drawn: list[Card] = []
    for first in back(k - 1, table, drawn):
        top = tuple(reversed(drawn))
        dealt = (*top, *rest)
        try:
            again = table_answer(rules, dealer, first, dealt)
        except RuleSetError:
            continue
        if again[1:4] == (table, stock, replaced) and not again[0]:
            return first, dealt
    return None


def deal_start(rules: RuleSet, plays: int) -> int:
    """The index in a round's history of the first play of the deal under way.

    Every deal gives `hand_size` cards to each seat, so deal `d` begins at
    play `d * seats * hand_size`.
    """
    per_deal = rules.seats * rules.hand_size
    return plays // per_deal * per_deal


def round_dealer(rules: RuleSet, dealer: int, plays: int) -> int:
    """The dealer of a round's first deal, from the dealer of the deal under way.

    `dealer` is a state's: the dealer of the current deal, or of the round's
    last deal once it is over; `plays` is how many plays the round has had.
    Without `dealer_per_deal` the dealer deals the whole round ([G2][rules-g2]).
    """
    if not rules.dealer_per_deal:
        return dealer
    deal = min(plays // (rules.seats * rules.hand_size), rules.deals_per_round - 1)
    return (dealer - deal) % rules.seats


def deal_dealers(rules: RuleSet, first: int, deals: int) -> tuple[int, ...]:
    """The dealers of a round's first `deals` deals, the first dealt by `first` ([G8][rules-g8])."""
    dealers = [first]
    for _ in range(deals - 1):
        dealers.append(next_deal_dealer(rules, dealers[-1]))  # each from the last
    return tuple(dealers[:deals])


def play_seats(rules: RuleSet, dealer: int, plays: int) -> tuple[int, ...]:
    """The seat that made each of a round's first `plays` plays.

    `dealer` as for `round_dealer`. Each deal is led by the seat after its
    dealer, and play goes round in seat order ([G5][rules-g5], [G8][rules-g8]).
    """
    return _seats_from(rules, round_dealer(rules, dealer, plays), plays)


@lru_cache(maxsize=256)
def round_play_seats(rules: RuleSet, first: int) -> tuple[int, ...]:
    """The seat of every play of a round whose first deal `first` deals.

    Each deal is led by the seat after its dealer ([G5][rules-g5], [G8][rules-g8]).

    Cached (at most 256 rule sets and dealers): a round's seats depend on nothing else.
    """
    return _seats_from(rules, first, len(rules.deck) - rules.table_size)


def _seats_from(rules: RuleSet, first: int, plays: int) -> tuple[int, ...]:
    """The seats of `plays` plays from the first deal of a round `first` deals."""
    n = rules.seats
    per_deal = n * rules.hand_size
    dealers = deal_dealers(rules, first, plays // per_deal + 1)
    return tuple([(dealers[i // per_deal] + 1 + i % per_deal) % n for i in range(plays)])


def bottom_card_holder(rules: RuleSet, dealer: int) -> int:
    """The seat dealt the deck's bottom card: the last block of the last deal, its dealer's.

    `dealer` is the dealer of the round's last deal ([X3][rules-x3], [V1][rules-v1]).
    """
    return deal_seats(rules, dealer)[-1]


# ---------------------------------------------------------------------------
# The xeri exceptions


def counted_xeri(
    rules: RuleSet, xeri: XeriKind | None, turn: int, plays_left: int
) -> XeriKind | None:
    """The xeri a capture counts as, given the one its capture rule says it makes.

    [G7][rules-g7] counts a xeri made with any card, the round's last
    included; [V3][rules-v3] (`xeri_on_last_card=False`) takes it away from
    the round's last play, and [P4][rules-p4] (`xeri_on_first_card=False`)
    from its first too.

    Args:
        rules: the rule set.
        xeri: what the capture rule said the capture is (None: no xeri).
        turn: the index of the play in the round's history (0: its first play).
        plays_left: how many plays the round has after this one (0: its last).

    Returns:
        `xeri`, or None when the rule set counts no xeri on that play.
    """
    if xeri is None:
        return None
    if (turn == 0 and not rules.xeri_on_first_card) or (
        plays_left == 0 and not rules.xeri_on_last_card
    ):
        return None
    return xeri


# ---------------------------------------------------------------------------
# The end of the round


class _RoundEnd:
    """What `end_round` reads from a rule set, worked out once per rule set (`_round_end`)."""

    __slots__ = ("cards_only", "empty", "num_sides", "sides")

    def __init__(self, rules: RuleSet) -> None:
        # A pile holds cards only (the built-in pile rule, exactly): the table is its cards.
        self.cards_only: bool = rules.capture.__class__ is PileCapture
        self.sides: tuple[int, ...] = rules.sides
        """The side of each seat."""
        self.num_sides: int = rules.num_sides
        """How many sides play."""
        self.empty: tuple[tuple[()], ...] = ((),) * self.num_sides
        """One empty tuple per side, mapped to new lists at each round's end."""


_round_end = _per_value(_RoundEnd)


def end_round(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...],
    table: tuple[TableItem, ...],
    history: tuple[PlayerMove, ...],
    takes: tuple[Take, ...],
    *,
    dealer: int,
) -> GameState:
    """The scored state after a round's last play.

    The last capturer takes the table ([G9][rules-g9], [D7][rules-d7]), not
    as a xeri; if nobody captured, the cards are left over for nobody
    ([X1][rules-x1]). The scorer scores the round, and the match format says
    whether the match is over. `state` gives the rules, the results of the
    rounds before and what the round keeps all through (the bottom card, the
    redealt tables); `dealer` is the dealer of the round's last deal: the
    next round is dealt by the seat after it.
    """
    rules = state.rules
    plan = _round_end(rules)
    left = table if plan.cards_only else _table_cards(rules, table)
    leftover = 0
    if left and takes:
        takes = (*takes, _make_take(seat=takes[-1].seat, cards=left, xeri=None, turn=None))  # type: ignore[arg-type]  # cards, as above
        table = ()
    else:
        leftover = len(left)
    sides = plan.sides
    piles: list[list[Card]] = [*map(list, plan.empty)]  # one empty list per side, made in C
    made: list[list[XeriKind]] | None = None  # made at the first xeri: most rounds have none
    for take in takes:
        side = sides[take.seat]
        piles[side].extend(take.cards)
        if take.xeri is not None:
            if made is None:
                made = [*map(list, plan.empty)]
            made[side].append(take.xeri)
    xeris = plan.empty if made is None else tuple(map(tuple, made))
    result = _score(rules, tuple(map(tuple, piles)), xeris, leftover, takes)
    results = (*state.round_results, result)
    over = _checked_status(rules, results, plan.num_sides).over
    return _make_state(
        rules=rules,
        phase=Phase.MATCH_OVER if over else Phase.ROUND_OVER,
        dealer=dealer,
        to_move=None,
        hands=hands,
        table=table,
        stock=(),
        history=history,
        takes=takes,
        round_results=results,
        bottom_card=state.bottom_card,
        redealt=state.redealt,
        replaced=state.replaced,
    )


def _score(
    rules: RuleSet,
    piles: tuple[tuple[Card, ...], ...],
    made: tuple[tuple[XeriKind, ...], ...],
    leftover: int,
    takes: tuple[Take, ...],
) -> RoundResult:
    """`rules.scorer.score(...)`, with a custom scorer's answer checked for its shape.

    The round's captures go to the standard scorer (for its categories) and to a
    scorer that declares `needs_takes` ([W4][rules-w4]); no other scorer is given them.
    """
    scorer = rules.scorer
    try:
        if scorer.__class__ is StandardScorer:  # its method, without the call's keywords
            return _scored(piles, made, rules, leftover, takes)
        if getattr(scorer, "needs_takes", False) is True:
            result = scorer.score(piles, made, rules, leftover=leftover, takes=takes)  # type: ignore[call-arg]  # a scorer declaring needs_takes
        else:
            result = scorer.score(piles, made, rules, leftover=leftover)
    except Exception as exc:
        raise _failed(rules, "scorer", "score", f"raised {type(exc).__name__}") from exc
    if not isinstance(result, RoundResult):
        raise _failed(
            rules, "scorer", "score", f"returned {_show(result, text=False)}, not a RoundResult"
        )
    n = rules.num_sides
    for field in _RESULT_FIELDS:
        value = getattr(result, field)
        if not (type(value) is tuple and len(value) == n and all(type(v) is int for v in value)):
            problem = f"returned a RoundResult whose {field} is not {n} ints, one per side"
            raise _failed(rules, "scorer", "score", problem)
    if type(result.leftover) is not int:
        raise _failed(rules, "scorer", "score", "returned a RoundResult whose leftover is no int")
    return result

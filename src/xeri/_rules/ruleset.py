"""The [`RuleSet`][xeri.RuleSet]: every rule of a game as data, its presets and an open registry.

A rule set is a frozen, keyword-only value. Derive a house rule from a
preset with `attrs.evolve`, give it its own `name`, and
[`register`][xeri.register] it so that saved games can name it:

    >>> import attrs, xeri
    >>> quick = attrs.evolve(xeri.GREEK, name="greek-quick", match=xeri.TargetScore(target=51))
    >>> quick.match.target, quick.hand_size
    (51, 6)

A rule set that cannot work is refused when it is built, with a
[`RuleSetError`][xeri.RuleSetError] naming the field; so is a second,
different rule set under a name already registered, and the names of the
presets are never given to another rule set.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from xeri._cards import DECK, ITALIAN_DECK, PIQUET_DECK, Card, Rank
from xeri._errors import RuleSetError, _int_in, _show
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import CaptureRule
from xeri._families.sums.rule import SumCapture
from xeri._immutable import _Immutable, _repr
from xeri._rules.categories import Category
from xeri._rules.match import CountOut, FixedRounds, MatchFormat, SharedTarget, TargetScore
from xeri._rules.redeal import Redeal, RedealRule
from xeri._rules.scoring import (
    MajorityTie,
    PointsTable,
    Scorer,
    StandardScorer,
    _most_jack_xeris,
)

__all__ = [
    "GERMAN",
    "GERMAN_POINTS",
    "GREEK",
    "GREEK_FOUR",
    "GREEK_POINTS",
    "Redeal",
    "RuleSet",
    "find_rules",
    "register",
    "registered",
]


GREEK_POINTS = PointsTable(
    ranks={Rank.ACE: 1, Rank.KING: 1, Rank.QUEEN: 1, Rank.JACK: 1, Rank.TEN: 1},
    cards={Card.parse("10♦"): 1, Card.parse("2♣"): 1},
)
"""The Greek points table ([G10][rules-g10]): 1 for each A K Q J 10, one more for the 10♦,
1 for the 2♣."""

_MAX_SEATS = 8
_MAX_POINTS = 1_000_000
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")
_PRESETS = frozenset({"greek", "greek-four", "german", "pisti", "scopa", "cassino"})
"""The names of the presets (the last three registered by `xeri._rules.fishing`): never given to
another rule set."""


@attrs.frozen
class _FrozenProbe:
    """A frozen attrs class: every frozen attrs class shares its `__setattr__`."""


_FROZEN_SETATTR = _FrozenProbe.__setattr__


def _to_tuple(value: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    # A list becomes a tuple; anything else is kept as given, for the checks to name.
    if isinstance(value, (list, tuple)) and type(value) is not tuple:
        return tuple(value)
    return value


def _to_deck(value: object) -> object:
    # Cards in any order become a tuple sorted in deck order, the library's own
    # tuple for its decks (so that `deck is DECK` tells the 52 cheaply); anything
    # else is kept as given, for the checks to name.
    if isinstance(value, (list, tuple, frozenset, set)) and all(isinstance(c, Card) for c in value):
        cards = tuple(sorted(value, key=_card_index))
        return _KNOWN_DECKS.get(cards, cards)
    return value


def _to_categories(value: tuple[Category, ...] | list[Category]) -> tuple[Category, ...]:
    # A list becomes a tuple; anything else is kept as given, for the checks to name.
    if isinstance(value, list):
        return tuple(value)
    return value


def _deck_repr(deck: tuple[Card, ...]) -> str:
    """The library's decks by their names, so that a rule set's repr stays short."""
    names = {DECK: "DECK", ITALIAN_DECK: "ITALIAN_DECK", PIQUET_DECK: "PIQUET_DECK"}
    return names.get(deck) or repr(deck)


_KNOWN_DECKS = {deck: deck for deck in (DECK, ITALIAN_DECK, PIQUET_DECK)}


def _card_index(card: Card) -> int:
    return card.index


def _default_sides(rules: RuleSet) -> tuple[int, ...]:
    seats = rules.seats
    # A bad seat count is reported by the checks; no huge default is built for it.
    return tuple(range(seats)) if _int_in(seats, 1, _MAX_SEATS) else ()


@attrs.frozen(kw_only=True, repr=False)
class RuleSet(_Immutable):
    """Every rule of a game, as data plus a few components.

    Build one from a preset with `attrs.evolve(GREEK, name=..., ...)`. Every
    field is checked when the rule set is built, its type and range first,
    then the fields together; a value of the wrong type, out of range, or a
    combination that cannot be played raises
    [`RuleSetError`][xeri.RuleSetError] naming the field. The components
    must be frozen attrs values with hashable fields, so that a rule set
    is a value: comparable, hashable and saved by name and fields.
    """

    name: str
    """The rule set's name in the registry and in saved games: lower case, digits, `-_.`."""
    seats: int = 2
    """How many players sit at the table, from 2 to 8 ([G1][rules-g1], [F1][rules-f1])."""
    sides: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_default_sides, takes_self=True), converter=_to_tuple
    )
    """The side of each seat, sides numbered from 0: `(0, 1, 0, 1)` seats partners
    opposite ([F1][rules-f1]). Defaults to one side per seat."""
    deck: tuple[Card, ...] = attrs.field(default=DECK, converter=_to_deck, repr=_deck_repr)
    """The cards in play, sorted in [`DECK`][xeri.DECK] order: the 52 by default,
    [`ITALIAN_DECK`][xeri.ITALIAN_DECK] (40) for Scopa, [`PIQUET_DECK`][xeri.PIQUET_DECK]
    (32), or any set of distinct cards (given in any order) that deals into whole
    deals. A new round shuffles these cards, and only these."""
    hand_size: int = 6
    """Cards dealt to each player per deal, at least 1 ([G3][rules-g3], [P2][rules-p2])."""
    table_size: int = 4
    """Cards dealt face up to the table at the start of a round ([G3][rules-g3], [D2][rules-d2])."""
    face_down: int = 0
    """How many of the first table cards are dealt face down, hidden until captured
    ([P3][rules-p3]). Needs a pile (`PileCapture`) and `redeal=Redeal.NEVER`, so that no
    rule reads them."""
    redeal: RedealRule = Redeal.TOP_JACK_OR_TOP_PAIR
    """When the initial table is dealt again ([G4][rules-g4], [F4][rules-f4];
    `Redeal.NEVER` is [V2][rules-v2]): a [`Redeal`][xeri.Redeal] member,
    [`RanksOnTable`][xeri.RanksOnTable], or any frozen, hashable attrs value
    that implements [`RedealRule`][xeri.RedealRule]."""
    show_bottom_card: bool = False
    """[V1][rules-v1]: after the cut the bottom card is shown to all; a Jack there is
    replaced by the first non-Jack above it. The card is public all round and is dealt last."""
    dealer_per_deal: bool = False
    """Whether the deal passes to the next seat after every deal of `hand_size` cards,
    rather than after every round ([G2][rules-g2]). When every hand is empty and the
    stock is not ([G8][rules-g8]), the seat after the dealer deals the next hands, in
    the order of [X3][rules-x3], and the seat after it leads;
    [`GameState.dealer`][xeri.GameState.dealer] is the dealer of the current deal, who
    still plays its last card. The next round is dealt by the seat after the dealer of
    the round's last deal. Off in every preset."""
    xeri_on_last_card: bool = True
    """Whether the round's very last card can make a xeri ([G7][rules-g7];
    False is [V3][rules-v3])."""
    xeri_on_first_card: bool = True
    """Whether the round's very first card can make a xeri (False for Pişti, [P4][rules-p4])."""
    capture: CaptureRule = PileCapture()
    """How a played card takes cards: [`PileCapture`][xeri.PileCapture] or
    [`SumCapture`][xeri.SumCapture], or any frozen, hashable attrs value that
    implements [`CaptureRule`][xeri.CaptureRule], its `pile` capability included."""
    card_points: PointsTable = GREEK_POINTS
    """Points per captured card ([G10][rules-g10], [D8][rules-d8], [P5][rules-p5])."""
    majority_points: int = 3
    """Bonus for capturing the most cards (3 in [G10][rules-g10], 4 in [D8][rules-d8]);
    each bonus is an int from 0 to 1,000,000."""
    majority_tie: MajorityTie = MajorityTie.NOBODY
    """Who gets the majority bonus on a tie for most cards."""
    xeri_points: int = 10
    """Bonus for a xeri ([G7][rules-g7], [D6][rules-d6])."""
    jack_xeri_points: int = 20
    """Bonus for a Jack taking a lone Jack ([G7][rules-g7]; 25 is [V4][rules-v4])."""
    categories: tuple[Category, ...] = attrs.field(default=(), converter=_to_categories)
    """Named scoring lines beyond card points, majority and xeri bonus, in the order
    score sheets show them: [`NamedPoints`][xeri.NamedPoints],
    [`MostOfSuit`][xeri.MostOfSuit], [`Primiera`][xeri.Primiera],
    [`Sweeps`][xeri.Sweeps], [`SweepPoints`][xeri.SweepPoints] or any frozen,
    hashable attrs value that implements
    [`Category`][xeri.Category]. The [`StandardScorer`][xeri.StandardScorer]
    adds their points to the total and keeps them by name in
    [`RoundResult.categories`][xeri.RoundResult.categories]."""
    scorer: Scorer = StandardScorer()
    """Turns captures into round results; the standard one reads the fields above.
    Any frozen, hashable attrs value that implements [`Scorer`][xeri.Scorer]."""
    match: MatchFormat = TargetScore()
    """How the match is won: [`TargetScore`][xeri.TargetScore] ([G11][rules-g11],
    [V5][rules-v5], [D9][rules-d9]), [`FixedRounds`][xeri.FixedRounds] ([F8][rules-f8]),
    or any frozen, hashable attrs value
    that implements [`MatchFormat`][xeri.MatchFormat]."""

    def __attrs_post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise RuleSetError("; ".join(problems))

    def __reduce__(self) -> tuple[Any, ...]:
        # A preset pickles as its name: the presets are never replaced in the
        # registry, so the name gives the same value back in any process.
        # Any other rule set pickles as its fields, and is checked again when loaded.
        name = self.name
        if name in _PRESETS and _REGISTRY.get(name) == self:
            return (find_rules, (name,))
        return (_rules_from_fields, (attrs.asdict(self, recurse=False),))

    def __repr__(self) -> str:
        # The fields added after the first presets are shown only when they are set.
        return _repr(self, {"deck": DECK, "categories": (), "dealer_per_deal": False})

    @property
    def num_sides(self) -> int:
        """How many sides play: players in the two-player games, partnerships in the four."""
        return max(self.sides) + 1

    @property
    def deals_per_round(self) -> int:
        """How many deals of `hand_size` cards to each seat use up the deck.

        4 in [G8][rules-g8].
        """
        return (len(self.deck) - self.table_size) // (self.seats * self.hand_size)

    @property
    def returns_bounds(self) -> tuple[float, float]:
        """The least and greatest value of [`returns`][xeri.MatchFacts.returns]: -1.0 and 1.0."""
        return (-1.0, 1.0)

    @property
    def round_points_bounds(self) -> tuple[int, int] | None:
        """Bounds on a side's points in one round, or None when they cannot be derived.

        The bounds of [`round_points`][xeri.MatchFacts.round_points] and of
        every entry of [`RoundResult.total`][xeri.RoundResult.total]. With the
        [`StandardScorer`][xeri.StandardScorer] a side scores at least 0 and
        at most the points of the whole deck, plus the majority bonus, plus
        its most xeri bonus: a xeri takes at least two cards and is made by a
        play, so a side makes at most `min(26, its plays in a round)` xeris
        ([G7][rules-g7], [D6][rules-d6]); with the built-in capture rules
        at most two of them are jack xeris (four cards of the sweeper's rank
        make two; [`SumCapture`][xeri.SumCapture] makes two for each of its
        [`jack_xeri_ranks`][xeri.SumCapture.jack_xeri_ranks]), with another
        capture rule any of them may be. The upper bound is sound, not tight:
        no round reaches it. Another scorer can score anything: then None.

        Examples:
            >>> import xeri
            >>> xeri.GREEK.round_points_bounds, xeri.GERMAN.round_points_bounds
            ((0, 285), (0, 251))
        """
        if type(self.scorer) is not StandardScorer:
            return None
        plays = self.hand_size * self.deals_per_round * max(map(self.sides.count, set(self.sides)))
        xeris = min(len(self.deck) // 2, plays)
        jacks = _most_jack_xeris(self) if type(self.capture) in (PileCapture, SumCapture) else xeris
        extra = max(0, self.jack_xeri_points - self.xeri_points)
        most = xeris * self.xeri_points + min(xeris, jacks) * extra
        lines = _lines_most(self)
        return (0, self.card_points.count(self.deck) + self.majority_points + most + lines)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that play for a side.

        Args:
            side: a side number, from 0 to `num_sides - 1`.

        Returns:
            The seats of that side, in seat order.
        """
        return tuple(s for s, side_ in enumerate(self.sides) if side_ == side)


def _rules_from_fields(fields: dict[str, Any]) -> RuleSet:
    """A rule set from its fields, checked: what an unpickled custom `RuleSet` is made by."""
    return RuleSet(**fields)


def _problems(r: RuleSet) -> list[str]:
    """Every problem of a rule set: first each field alone, then the fields together."""
    p = _field_problems(r)
    return p or _combination_problems(r)


def _field_problems(r: RuleSet) -> list[str]:  # one check per field reads best flat
    p: list[str] = []
    name = r.name
    if not (type(name) is str and isinstance(name, str) and _NAME.fullmatch(name)):
        p.append(f"name must be 1-64 lower-case letters, digits or -_. , not {_show(name)}")
    seats = r.seats
    if not _int_in(seats, 2, _MAX_SEATS):
        p.append(f"seats must be an int from 2 to {_MAX_SEATS}, not {_show(seats)}")
    else:
        p.extend(_sides_problems(r.sides, seats))
    for field, high in (
        ("hand_size", 52),
        ("table_size", 52),
        ("face_down", 52),
        ("majority_points", _MAX_POINTS),
        ("xeri_points", _MAX_POINTS),
        ("jack_xeri_points", _MAX_POINTS),
    ):
        value = getattr(r, field)
        if not _int_in(value, 0, high):
            p.append(f"{field} must be an int from 0 to {high:,}, not {_show(value)}")
    p.extend(
        f"{field} must be True or False, not {_show(getattr(r, field))}"
        for field in (
            "show_bottom_card",
            "dealer_per_deal",
            "xeri_on_last_card",
            "xeri_on_first_card",
        )
        if type(getattr(r, field)) is not bool
    )
    p.extend(_deck_problems(r.deck))
    if not isinstance(r.redeal, Redeal):
        p.extend(
            problem.replace("redeal must implement", "redeal must be a Redeal or implement", 1)
            for problem in _component_problems("redeal", r.redeal, "RedealRule", ("needed",))
        )
    p.extend(_categories_problems(r.categories))
    if not isinstance(r.majority_tie, MajorityTie):
        p.append(f"majority_tie must be a MajorityTie, not {_show(r.majority_tie)}")
    if not isinstance(r.card_points, PointsTable):
        p.append(f"card_points must be a PointsTable, not {_show(r.card_points)}")
    else:
        p.extend(_value_problems("card_points", r.card_points))
    for field, protocol, methods in _PROTOCOLS:
        p.extend(_component_problems(field, getattr(r, field), protocol, methods))
    return p


def _deck_problems(deck: object) -> list[str]:
    if not (type(deck) is tuple and all(isinstance(c, Card) for c in deck)):
        return [f"deck must be a tuple of Cards, not {_show(deck)}"]
    if len(set(deck)) != len(deck):
        return ["deck must not name a card twice"]
    if not deck:
        return ["deck must hold at least one card"]
    return []


_PROTOCOLS = (
    ("capture", "CaptureRule", ("moves", "play", "needs", "table_cards")),
    ("scorer", "Scorer", ("score", "check")),
    ("match", "MatchFormat", ("status",)),
)


def _lines_most(r: RuleSet) -> int:
    """The most points a side gets from the categories, 0 if one of them cannot say."""
    try:
        return sum(c.most(r) for c in r.categories)
    except Exception:  # a category's own bound failed: nothing is claimed for it
        return 0


_RESERVED = frozenset({"card points", "majority", "xeri bonus", "total"})


def _categories_problems(categories: object) -> list[str]:
    if type(categories) is not tuple:
        return [f"categories must be a tuple of Category values, not {_show(categories)}"]
    p: list[str] = []
    names: list[object] = []
    for i, category in enumerate(categories):
        found = _component_problems(f"categories[{i}]", category, "Category", ("award", "most"))
        name = None if found else getattr(category, "name", None)
        if not found and not (type(name) is str and name):
            found = [f"categories[{i}] must have a name, a non-empty str"]
        elif name in _RESERVED:
            found = [f"categories[{i}]: {name!r} names a line every score sheet has"]
        elif name in names:
            found = [f"categories[{i}]: two categories are named {name!r}"]
        names.append(name)
        p.extend(found)
    return p


def _sides_problems(sides: object, seats: int) -> list[str]:
    if not (
        type(sides) is tuple
        and isinstance(sides, tuple)
        and len(sides) == seats
        and all(_int_in(s, 0, seats - 1) for s in sides)
    ):
        shown = _show(sides)
        if type(sides) is tuple and isinstance(sides, tuple) and len(sides) <= seats:
            shown = f"({', '.join(map(_show, sides))}{',' * (len(sides) == 1)})"
        return [
            f"sides must give each of the {seats} seats a side from 0 to {seats - 1}, not {shown}"
        ]
    if sorted(set(sides)) != list(range(max(sides) + 1)) or max(sides) < 1:
        return [f"sides must number at least two sides 0, 1, ... without gaps, not {sides}"]
    return []


def _component_problems(
    field: str, value: object, protocol: str, methods: tuple[str, ...]
) -> list[str]:
    """A component must have the protocol's methods (and capabilities) and be a frozen value."""
    kind = type(value).__name__
    try:  # a hostile `__getattr__` or property may raise anything
        missing = [m for m in methods if not callable(getattr(value, m, None))]
        pile = getattr(value, "pile", None) if field == "capture" else False
    except Exception as exc:  # reported as the component's problem
        return [f"{field}: reading the methods of {kind} raised {type(exc).__name__}"]
    if missing:
        return [f"{field} must implement {protocol}: {kind} has no {' or '.join(missing)} method"]
    if type(pile) is not bool:
        return [
            (
                f"{field} must implement {protocol}: {kind} must declare the pile capability "
                f"as True or False, not {_show(pile)}"
            )
        ]
    return _value_problems(field, value)


def _value_problems(field: str, value: object) -> list[str]:
    """A component must be a frozen attrs value and hashable, as the rule set is."""
    kind = type(value)
    try:
        frozen = attrs.has(kind) and kind.__setattr__ is _FROZEN_SETATTR
    except Exception:  # a hostile class: not an attrs class
        frozen = False
    if not frozen:
        return [
            (
                f"{field} must be an instance of a frozen attrs class (@attrs.frozen), "
                f"not {kind.__name__}: rule sets are compared, hashed and saved as values"
            )
        ]
    try:
        hash(value)
    except Exception as exc:  # reported as the component's problem
        return [
            (
                f"{field} must be hashable: hashing {kind.__name__} raised "
                f"{type(exc).__name__} (keep tuples, not lists, dicts or sets, in its fields)"
            )
        ]
    return []


def _combination_problems(r: RuleSet) -> list[str]:
    """The fields together; every field has its type and range here."""
    p: list[str] = []
    cards = len(r.deck)
    if r.hand_size < 1:
        p.append("hand_size must be at least 1")
    elif r.table_size + r.seats * r.hand_size > cards:
        p.append(
            f"hand_size {r.hand_size} for {r.seats} seats and table_size {r.table_size} "
            f"need more than the {cards} cards of the deck"
        )
    elif (cards - r.table_size) % (r.seats * r.hand_size):
        of_deck = "" if r.deck is DECK else " of the deck"
        p.append(
            f"hand_size {r.hand_size}: the {cards - r.table_size} cards{of_deck} left after the "
            f"table do not divide into whole deals of {r.hand_size} to {r.seats} seats"
        )
    if r.face_down and r.face_down >= r.table_size:
        p.append(f"face_down must be less than table_size ({r.table_size}): the top card is shown")
    if r.face_down and not r.capture.pile:
        p.append(
            "face_down needs a pile capture rule (capture.pile): on an open table every "
            "card can be taken, so a face-down card would be named by the legal moves"
        )
    if r.face_down and r.redeal is not Redeal.NEVER:
        p.append(
            "face_down needs redeal=Redeal.NEVER: a redeal condition would read "
            "the face-down cards and reveal them"
        )
    if isinstance(r.redeal, Redeal) and r.redeal is not Redeal.NEVER and not p:
        pool = cards - r.seats * r.hand_size - int(r.show_bottom_card)
        if r.table_size == 0:
            p.append("redeal needs table_size >= 1: there is no initial table to redeal")
        elif pool < 4 * r.table_size + 1:
            p.append(
                f"redeal: only {pool} cards can reach the initial table, too few to be sure "
                f"a table of {r.table_size} without a Jack on top or a pair can be dealt"
            )
    if isinstance(r.match, CountOut):
        lines = {*_RESERVED, *(c.name for c in r.categories)} - {"total"}
        unknown = [name for name in r.match.order if name not in lines]
        if unknown:
            p.append(
                f"match: CountOut.order names {', '.join(map(repr, unknown))}, not a line of "
                f"the score sheet ({', '.join(sorted(lines))})"
            )
    if (
        isinstance(r.match, TargetScore)
        and r.card_points.count(r.deck) + r.majority_points == 0
        and not _lines_most(r)
    ):
        p.append("match: a target score cannot be reached when no card and no majority scores")
    return p


GREEK = RuleSet(name="greek")
"""Greek Xeri for two players ([G1][rules-g1]–[G12][rules-g12]): one pile, 25 points a round,
match to 151."""

GREEK_FOUR = RuleSet(
    name="greek-four",
    seats=4,
    sides=(0, 1, 0, 1),
    redeal=Redeal.TOP_JACK_OR_ANY_PAIR,
    match=FixedRounds(rounds=4),
)
"""Four players in two partnerships, partners opposite ([F1][rules-f1]–[F8][rules-f8]): four rounds,
won by round count."""

GERMAN_POINTS = PointsTable(
    ranks={Rank.ACE: 1},
    cards={Card.parse("2♣"): 1, Card.parse("10♦"): 2},
)
"""The German points table ([D8][rules-d8]): 1 for each Ace, 1 for the 2♣, 2 for the 10♦."""

GERMAN = RuleSet(
    name="german",
    redeal=Redeal.NEVER,
    capture=SumCapture(),
    card_points=GERMAN_POINTS,
    majority_points=4,
    jack_xeri_points=10,
    match=TargetScore(target=37, shared=SharedTarget.HIGHER_TOTAL),
)
"""German Xeri for two players ([D1][rules-d1]–[D9][rules-d9]): cards side by side, captures by sum,
builds and raises, 11 points a round plus xeris, match to 37."""

_REGISTRY: dict[str, RuleSet] = {}


def register(rules: RuleSet, *, replace: bool = False) -> RuleSet:
    """Make `rules` findable by its name, for [`find_rules`][xeri.find_rules] and saved games.

    Registering a rule set equal to the one already registered under its
    name changes nothing. A different rule set needs a name of its own: a
    saved game names its rules, and must not load under others.

    Args:
        rules: the rule set.
        replace: replace a different rule set registered under the same
            name, for instance while a house rule is being worked out. The
            six presets (`"greek"`, `"greek-four"`, `"german"`, `"pisti"`,
            `"scopa"`, `"cassino"`) are never replaced.

    Returns:
        The rule set, so that `MY_RULES = register(RuleSet(...))` reads well.

    Raises:
        RuleSetError: `rules` is not a rule set; or another rule set is already
            registered under its name, and it is a preset or `replace` is False.
    """
    if not isinstance(rules, RuleSet):
        raise RuleSetError(f"only a RuleSet can be registered, not {_show(rules)}")
    name = rules.name
    known = _REGISTRY.get(name)
    if known is None:
        _REGISTRY[name] = rules
    elif known != rules:
        if name in _PRESETS:
            raise RuleSetError(
                f"{name!r} is the name of a preset and cannot be given to another rule set; "
                "give yours its own name"
            )
        if replace is not True:
            raise RuleSetError(
                f"another rule set is registered as {name!r}; "
                "give yours its own name, or pass replace=True to replace it"
            )
        _REGISTRY[name] = rules
    return rules


def find_rules(name: str) -> RuleSet:
    """The rule set registered under a name.

    Args:
        name: the name of a preset (`"greek"`, `"greek-four"`, `"german"`,
            `"pisti"`, `"scopa"`, `"cassino"`) or one given to
            [`register`][xeri.register].

    Returns:
        The registered rule set.

    Raises:
        RuleSetError: no rule set has that name.
    """
    rules = _REGISTRY.get(name) if type(name) is str else None
    if rules is None:
        raise RuleSetError(
            f"no rule set is registered as {_show(name)}; known: {', '.join(registered())}"
        )
    return rules


def registered() -> tuple[str, ...]:
    """The names of every registered rule set, sorted."""
    return tuple(sorted(_REGISTRY))


register(GREEK)
register(GREEK_FOUR)
register(GERMAN)

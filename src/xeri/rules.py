"""The [`RuleSet`][xeri.RuleSet]: every rule of a game as data, its presets and an open registry.

A rule set is a frozen, keyword-only value. Derive a house rule from a
preset with `attrs.evolve`, give it its own `name`, and
[`register`][xeri.register] it so that saved games can name it:

    >>> import attrs, xeri
    >>> quick = attrs.evolve(xeri.GREEK, name="greek-quick", match=xeri.TargetScore(target=51))
    >>> quick.match.target, quick.hand_size
    (51, 6)

A rule set that cannot work is refused when it is built, with a
[`RuleSetError`][xeri.RuleSetError] naming the field.
"""

from __future__ import annotations

import re
from enum import Enum

import attrs

from xeri.capture import CaptureRule
from xeri.cards import Card, Rank
from xeri.errors import RuleSetError
from xeri.match import FixedRounds, MatchFormat, SharedTarget, TargetScore
from xeri.pile import PileCapture
from xeri.scoring import MajorityTie, PointsTable, Scorer, StandardScorer
from xeri.sums import SumCapture

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


class Redeal(Enum):
    """When the initial table is put back into the stock and dealt again (G4, F4, V2)."""

    NEVER = "never"
    """No redeal: any initial table stands (V2, D2)."""
    TOP_JACK_OR_TOP_PAIR = "top jack or top pair"
    """The top card is a Jack, or the top two cards have equal rank (G4)."""
    TOP_JACK_OR_ANY_PAIR = "top jack or any pair"
    """The top card is a Jack, or any two of the table cards have equal rank (F4)."""

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether a table dealt as `cards` must be redealt.

        Args:
            cards: the initial table in the order dealt, the last card on top.

        Returns:
            True when the condition of this member holds.
        """
        if self is Redeal.NEVER or not cards:
            return False
        if cards[-1].rank is Rank.JACK:
            return True
        if self is Redeal.TOP_JACK_OR_TOP_PAIR:
            return len(cards) >= 2 and cards[-1].rank is cards[-2].rank
        return len({c.rank for c in cards}) < len(cards)


GREEK_POINTS = PointsTable(
    ranks={Rank.ACE: 1, Rank.KING: 1, Rank.QUEEN: 1, Rank.JACK: 1, Rank.TEN: 1},
    cards={Card.parse("10♦"): 1, Card.parse("2♣"): 1},
)
"""The Greek points table (G10): 1 for each A K Q J 10, one more for the 10♦, 1 for the 2♣."""

_MAX_SEATS = 8
_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,63}")


def _to_tuple(value: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    return tuple(value)


def _default_sides(rules: RuleSet) -> tuple[int, ...]:
    seats = rules.seats
    # A bad seat count is reported by the checks; no huge default is built for it.
    return tuple(range(seats)) if type(seats) is int and 0 < seats <= _MAX_SEATS else ()


@attrs.frozen(kw_only=True)
class RuleSet:
    """Every rule of a game, as data plus a few components.

    Build one from a preset with `attrs.evolve(GREEK, name=..., ...)`. Every
    field is checked when the rule set is built; a combination that cannot
    be played raises [`RuleSetError`][xeri.RuleSetError] naming the field.
    """

    name: str
    """The rule set's name in the registry and in saved games: lower case, digits, `-_.`."""
    seats: int = 2
    """How many players sit at the table (G1, F1)."""
    sides: tuple[int, ...] = attrs.field(
        default=attrs.Factory(_default_sides, takes_self=True), converter=_to_tuple
    )
    """The side of each seat, sides numbered from 0: `(0, 1, 0, 1)` seats partners
    opposite (F1). Defaults to one side per seat."""
    hand_size: int = 6
    """Cards dealt to each player per deal (G3, P2)."""
    table_size: int = 4
    """Cards dealt face up to the table at the start of a round (G3, D2)."""
    face_down: int = 0
    """How many of the first table cards are dealt face down, hidden until captured (P3).
    Needs a pile (`PileCapture`) and `redeal=Redeal.NEVER`, so that no rule reads them."""
    redeal: Redeal = Redeal.TOP_JACK_OR_TOP_PAIR
    """When the initial table is dealt again (G4, F4; `Redeal.NEVER` is V2)."""
    show_bottom_card: bool = False
    """V1: after the cut the bottom card is shown to all; a Jack there is replaced by the
    first non-Jack above it. The card is public all round and is dealt last."""
    xeri_on_last_card: bool = True
    """Whether the round's very last card can make a xeri (G7; False is V3)."""
    xeri_on_first_card: bool = True
    """Whether the round's very first card can make a xeri (False for Pişti, P4)."""
    capture: CaptureRule = PileCapture()
    """How a played card takes cards: [`PileCapture`][xeri.PileCapture] or
    [`SumCapture`][xeri.SumCapture]."""
    card_points: PointsTable = GREEK_POINTS
    """Points per captured card (G10, D8, P5)."""
    majority_points: int = 3
    """Bonus for capturing the most cards (3 in G10, 4 in D8)."""
    majority_tie: MajorityTie = MajorityTie.NOBODY
    """Who gets the majority bonus on a tie for most cards."""
    xeri_points: int = 10
    """Bonus for a xeri (G7, D6)."""
    jack_xeri_points: int = 20
    """Bonus for a Jack taking a lone Jack (G7; 25 is V4)."""
    scorer: Scorer = StandardScorer()
    """Turns captures into round results; the standard one reads the fields above."""
    match: MatchFormat = TargetScore()
    """How the match is won: [`TargetScore`][xeri.TargetScore] (G11, V5, D9) or
    [`FixedRounds`][xeri.FixedRounds] (F8)."""

    def __attrs_post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise RuleSetError("; ".join(problems))

    @property
    def num_sides(self) -> int:
        """How many sides play: players in the two-player games, partnerships in the four."""
        return max(self.sides) + 1

    @property
    def deals_per_round(self) -> int:
        """How many deals of `hand_size` cards to each seat use up the deck (4 in G8)."""
        return (52 - self.table_size) // (self.seats * self.hand_size)

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that play for a side.

        Args:
            side: a side number, from 0 to `num_sides - 1`.

        Returns:
            The seats of that side, in seat order.
        """
        return tuple(s for s, side_ in enumerate(self.sides) if side_ == side)


def _is_int(value: object) -> bool:
    return type(value) is int


def _problems(r: RuleSet) -> list[str]:  # one check per field reads best flat
    p: list[str] = []
    if not isinstance(r.name, str) or not _NAME.fullmatch(r.name):
        p.append(f"name must be 1-64 lower-case letters, digits or -_. , not {r.name!r}")
    if not _is_int(r.seats) or not 2 <= r.seats <= _MAX_SEATS:
        p.append(f"seats must be an int from 2 to {_MAX_SEATS}, not {str(r.seats)[:20]}")
        return p
    if len(r.sides) != r.seats or not all(_is_int(s) and 0 <= s < r.seats for s in r.sides):
        p.append(f"sides must give each of the {r.seats} seats a side from 0 to {r.seats - 1}")
    elif sorted(set(r.sides)) != list(range(max(r.sides) + 1)) or max(r.sides) < 1:
        p.append(f"sides must number at least two sides 0, 1, ... without gaps, not {r.sides}")
    for field in ("hand_size", "table_size", "face_down", "majority_points"):
        value = getattr(r, field)
        if not _is_int(value) or value < 0:
            p.append(f"{field} must be an int >= 0, not {value!r}")
    for field in ("xeri_points", "jack_xeri_points"):
        value = getattr(r, field)
        if not _is_int(value) or value < 0:
            p.append(f"{field} must be an int >= 0, not {value!r}")
    p.extend(
        f"{field} must be True or False, not {getattr(r, field)!r}"
        for field in ("show_bottom_card", "xeri_on_last_card", "xeri_on_first_card")
        if type(getattr(r, field)) is not bool
    )
    if p:
        return p
    if r.hand_size < 1:
        p.append("hand_size must be at least 1")
    elif r.table_size + r.seats * r.hand_size > 52:
        p.append(
            f"hand_size {r.hand_size} for {r.seats} seats and table_size {r.table_size} "
            "need more than the 52 cards"
        )
    elif (52 - r.table_size) % (r.seats * r.hand_size):
        p.append(
            f"hand_size {r.hand_size}: the {52 - r.table_size} cards left after the table "
            f"do not divide into whole deals of {r.hand_size} to {r.seats} seats"
        )
    if r.face_down and r.face_down >= r.table_size:
        p.append(f"face_down must be less than table_size ({r.table_size}): the top card is shown")
    if r.face_down and not getattr(r.capture, "pile", False):
        p.append(
            "face_down needs a pile capture rule (capture.pile): on an open table every "
            "card can be taken, so a face-down card would be named by the legal moves"
        )
    if r.face_down and r.redeal is not Redeal.NEVER:
        p.append(
            "face_down needs redeal=Redeal.NEVER: a redeal condition would read "
            "the face-down cards and reveal them"
        )
    if not isinstance(r.redeal, Redeal):
        p.append(f"redeal must be a Redeal, not {r.redeal!r}")
    elif r.redeal is not Redeal.NEVER and not p:
        pool = 52 - r.seats * r.hand_size - int(r.show_bottom_card)
        if r.table_size == 0:
            p.append("redeal needs table_size >= 1: there is no initial table to redeal")
        elif pool < 4 * r.table_size + 1:
            p.append(
                f"redeal: only {pool} cards can reach the initial table, too few to be sure "
                f"a table of {r.table_size} without a Jack on top or a pair can be dealt"
            )
    if not isinstance(r.capture, CaptureRule):
        p.append(f"capture must implement CaptureRule, not {type(r.capture).__name__}")
    if not isinstance(r.card_points, PointsTable):
        p.append(f"card_points must be a PointsTable, not {type(r.card_points).__name__}")
    if not isinstance(r.majority_tie, MajorityTie):
        p.append(f"majority_tie must be a MajorityTie, not {r.majority_tie!r}")
    if not isinstance(r.scorer, Scorer):
        p.append(f"scorer must implement Scorer, not {type(r.scorer).__name__}")
    if not isinstance(r.match, MatchFormat):
        p.append(f"match must implement MatchFormat, not {type(r.match).__name__}")
    elif (
        isinstance(r.match, TargetScore)
        and isinstance(r.card_points, PointsTable)
        and r.card_points.total + r.majority_points == 0
    ):
        p.append("match: a target score cannot be reached when no card and no majority scores")
    return p


GREEK = RuleSet(name="greek")
"""Greek Xeri for two players (RULES.md G1–G12): one pile, 25 points a round, match to 151."""

GREEK_FOUR = RuleSet(
    name="greek-four",
    seats=4,
    sides=(0, 1, 0, 1),
    redeal=Redeal.TOP_JACK_OR_ANY_PAIR,
    match=FixedRounds(rounds=4),
)
"""Four players in two partnerships, partners opposite (RULES.md F1–F8): four rounds,
won by round count."""

GERMAN_POINTS = PointsTable(
    ranks={Rank.ACE: 1},
    cards={Card.parse("2♣"): 1, Card.parse("10♦"): 2},
)
"""The German points table (D8): 1 for each Ace, 1 for the 2♣, 2 for the 10♦."""

GERMAN = RuleSet(
    name="german",
    redeal=Redeal.NEVER,
    capture=SumCapture(),
    card_points=GERMAN_POINTS,
    majority_points=4,
    jack_xeri_points=10,
    match=TargetScore(target=37, shared=SharedTarget.HIGHER_TOTAL),
)
"""German Xeri for two players (RULES.md D1–D9): cards side by side, captures by sum,
builds and raises, 11 points a round plus xeris, match to 37."""

_REGISTRY: dict[str, RuleSet] = {}


def register(rules: RuleSet, *, replace: bool = False) -> RuleSet:
    """Make `rules` findable by its name, for [`find_rules`][xeri.find_rules] and saved games.

    Args:
        rules: the rule set.
        replace: allow replacing a different rule set registered under the same name.

    Returns:
        The rule set, so that `MY_RULES = register(RuleSet(...))` reads well.

    Raises:
        RuleSetError: another rule set already has that name and `replace` is False.
    """
    if not isinstance(rules, RuleSet):
        raise RuleSetError(f"only a RuleSet can be registered, not {type(rules).__name__}")
    known = _REGISTRY.get(rules.name)
    if known is not None and known != rules and not replace:
        raise RuleSetError(
            f"another rule set is registered as {rules.name!r}; "
            "give yours its own name or pass replace=True"
        )
    _REGISTRY[rules.name] = rules
    return rules


def find_rules(name: str) -> RuleSet:
    """The rule set registered under a name.

    Args:
        name: `"greek"`, `"greek-four"`, `"german"`, or a name given to
            [`register`][xeri.register].

    Returns:
        The registered rule set.

    Raises:
        RuleSetError: no rule set has that name.
    """
    rules = _REGISTRY.get(name) if isinstance(name, str) else None
    if rules is None:
        raise RuleSetError(
            f"no rule set is registered as {str(name)[:40]!r}; known: {', '.join(registered())}"
        )
    return rules


def registered() -> tuple[str, ...]:
    """The names of every registered rule set, sorted."""
    return tuple(sorted(_REGISTRY))


register(GREEK)
register(GREEK_FOUR)
register(GERMAN)

"""What happens to the initial table at the deal: the rule set's `redeal` component.

A redeal rule ([`RedealRule`][xeri.RedealRule]) looks at the initial table
as dealt and says whether it must be put back into the stock and dealt
again ([G4][rules-g4], [F4][rules-f4]). An initial-table rule
([`TableRule`][xeri.TableRule], [T1][rules-t1]) answers with a
[`TableAction`][xeri.TableAction] instead: keep the table, redeal it,
replace named cards one by one from the stock ([T2][rules-t2]), or award the
table to a seat as a capture ([T3][rules-t3]).
[`ReplaceRanks`][xeri.ReplaceRanks] and [`AwardSums`][xeri.AwardSums] are the
published cases (Pişti's Jack turned up, Escoba's dealer taking a table of 15).
The [`Redeal`][xeri.Redeal] members are the Greek family's conditions;
[`RanksOnTable`][xeri.RanksOnTable] is Scopa's (three or more Kings); any
frozen, hashable attrs value with a `needed` method is a rule of its own:

    >>> import attrs, xeri
    >>> @attrs.frozen
    ... class TwoAces:
    ...     def needed(self, cards: tuple[xeri.Card, ...]) -> bool:
    ...         return sum(card.rank == xeri.Rank.ACE for card in cards) >= 2
    >>> aces = attrs.evolve(xeri.GREEK, name="greek-two-aces", redeal=TwoAces())
    >>> aces.redeal.needed(tuple(map(xeri.Card.parse, ["AC", "AD", "5S", "7H"])))
    True
"""

from __future__ import annotations

from enum import Enum
from itertools import combinations
from typing import Any, Protocol, runtime_checkable

import attrs

from xeri._cards import Card, Rank
from xeri._errors import RuleSetError, _int_in, _show
from xeri._families.sums.rule import SCOPA_VALUES
from xeri._immutable import _Immutable

__all__ = [
    "AwardSums",
    "RanksOnTable",
    "Redeal",
    "RedealRule",
    "ReplaceRanks",
    "TableAction",
    "TableRule",
]


@runtime_checkable
class RedealRule(Protocol):
    """Whether an initial table must be dealt again.

    Implementations must be frozen attrs classes (so rule sets stay
    comparable and serialisable) and pure. A rule that always asks for a
    redeal cannot be played: [`new_game`][xeri.new_game] gives up after
    1,000 redeals in a row with a [`RuleSetError`][xeri.RuleSetError].
    A redeal rule reads every initial table card, so it cannot be combined
    with face-down table cards ([P3][rules-p3]).
    """

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether a table dealt as `cards` must be redealt.

        Args:
            cards: the initial table in the order dealt, the last card on top.

        Returns:
            True to put the table back into the stock and deal it again.
        """
        ...


class Redeal(Enum):
    """When the initial table is put back into the stock and dealt again.

    The rules of [G4][rules-g4], [F4][rules-f4] and [V2][rules-v2].
    """

    NEVER = "never"
    """No redeal: any initial table stands ([V2][rules-v2], [D2][rules-d2])."""
    TOP_JACK_OR_TOP_PAIR = "top jack or top pair"
    """The top card is a Jack, or the top two cards have equal rank ([G4][rules-g4])."""
    TOP_JACK_OR_ANY_PAIR = "top jack or any pair"
    """The top card is a Jack, or any two of the table cards have equal rank ([F4][rules-f4])."""

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


@attrs.frozen(kw_only=True)
class RanksOnTable(_Immutable):
    """Redeal when `count` or more cards of `rank` lie on the initial table.

    Scopa's rule ([S2][rules-s2]): three or four Kings on the table are dealt again.

    Examples:
        >>> import xeri
        >>> kings = xeri.RanksOnTable(rank=xeri.Rank.KING, count=3)
        >>> table = tuple(map(xeri.Card.parse, ["KC", "KD", "5S", "KH"]))
        >>> kings.needed(table), kings.needed(table[:3])
        (True, False)
    """

    rank: Rank
    """The rank counted."""
    count: int
    """How many cards of the rank make a redeal, from 1 to 4."""

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.rank, Rank):
            raise RuleSetError(f"RanksOnTable.rank must be a Rank, not {_show(self.rank)}")
        if not _int_in(self.count, 1, 4):
            raise RuleSetError(
                f"RanksOnTable.count must be an int from 1 to 4, not {_show(self.count)}"
            )

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Whether `count` or more of the table cards have the rank."""
        rank = self.rank
        return sum(card.rank is rank for card in cards) >= self.count


# ---------------------------------------------------------------------------
# Initial-table rules: keep, redeal, replace named cards, award the table


_KINDS = ("keep", "redeal", "replace", "award")


@attrs.frozen(kw_only=True)
class TableAction(_Immutable):
    """What an initial-table rule does with the table as dealt ([T1][rules-t1]).

    Made by its named constructors: [`keep`][xeri.TableAction.keep],
    [`redeal`][xeri.TableAction.redeal], [`replace`][xeri.TableAction.replace]
    and [`award`][xeri.TableAction.award].

    Examples:
        >>> import xeri
        >>> xeri.TableAction.keep()
        TableAction(kind='keep', cards=(), seat_offset=0, groups=(), sweep=False)
        >>> xeri.TableAction.replace([xeri.Card.parse("JS")]).cards
        (Card.parse('J♠'),)
    """

    kind: str
    """`"keep"`, `"redeal"`, `"replace"` or `"award"`."""
    cards: tuple[Card, ...] = ()
    """For `"replace"`: the face-up table cards to replace, in the order replaced."""
    seat_offset: int = 0
    """For `"award"`: the seat that takes the table, counted from the dealer (0: the dealer)."""
    groups: tuple[tuple[Card, ...], ...] = ()
    """For `"award"`: the captures the table is taken as, each a group of its cards in
    table order; together they hold the whole table (empty: one capture of all of it)."""
    sweep: bool = False
    """For `"award"`: whether each capture of the award counts as a sweep (a xeri)."""

    def __attrs_post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise RuleSetError(
                f"TableAction.kind must be one of {', '.join(_KINDS)}, not {_show(self.kind)}"
            )
        if type(self.cards) is not tuple or not all(type(c) is Card for c in self.cards):
            raise RuleSetError(
                f"TableAction.cards must be a tuple of cards, not {_show(self.cards)}"
            )
        if self.kind == "replace" and (not self.cards or len(set(self.cards)) != len(self.cards)):
            raise RuleSetError("TableAction.replace needs one card or more, each named once")
        if not _int_in(self.seat_offset, 0, 7):
            raise RuleSetError(
                f"TableAction.seat_offset must be an int from 0 to 7, not {_show(self.seat_offset)}"
            )
        if type(self.groups) is not tuple or not all(
            type(g) is tuple and g and all(type(c) is Card for c in g) for g in self.groups
        ):
            raise RuleSetError(
                f"TableAction.groups must be a tuple of non-empty tuples of cards, "
                f"not {_show(self.groups)}"
            )
        if type(self.sweep) is not bool:
            raise RuleSetError(f"TableAction.sweep must be True or False, not {_show(self.sweep)}")

    @classmethod
    def keep(cls) -> TableAction:
        """The table stands as dealt; play begins."""
        return _KEEP

    @classmethod
    def redeal(cls) -> TableAction:
        """The table goes back into the stock and is dealt again ([G4][rules-g4])."""
        return _REDEAL

    @classmethod
    def replace(cls, cards: tuple[Card, ...] | list[Card]) -> TableAction:
        """Replace these face-up table cards one by one from the stock ([T2][rules-t2]).

        Args:
            cards: the cards to replace, in order; each must lie face up on the table.
        """
        return cls(kind="replace", cards=_tuple_of(cards, "TableAction.replace's cards"))

    @classmethod
    def award(
        cls,
        seat_offset: int = 0,
        *,
        sweep: bool = False,
        groups: tuple[tuple[Card, ...], ...] | None = None,
    ) -> TableAction:
        """Give the table to a seat as captures before the first play ([T3][rules-t3]).

        Args:
            seat_offset: the seat that takes it, from the dealer: 0 the dealer,
                1 the seat after, and so on (modulo the number of seats).
            sweep: whether each capture counts as a sweep (a xeri).
            groups: the captures, each a group of table cards; None for one
                capture of the whole table. Two groups that are sweeps are two
                sweeps.
        """
        return cls(
            kind="award",
            seat_offset=seat_offset,
            sweep=sweep,
            groups=()
            if groups is None
            else tuple(
                _tuple_of(g, "a group of TableAction.award")
                for g in _tuple_of(groups, "TableAction.award's groups", "groups of cards")
            ),
        )


def _tuple_of(value: object, what: str, of: str = "cards") -> tuple[Any, ...]:
    """`value` as a tuple: a tuple or list is expected (its items are checked by `TableAction`)."""
    if not isinstance(value, (tuple, list)):
        raise RuleSetError(f"{what} must be a tuple or list of {of}, not {_show(value)}")
    return tuple(value)


_KEEP = TableAction(kind="keep")
_REDEAL = TableAction(kind="redeal")


@runtime_checkable
class TableRule(RedealRule, Protocol):
    """An initial-table rule: what happens to the initial table at the deal ([T1][rules-t1]).

    The rule set's `redeal` field holds either a [`RedealRule`][xeri.RedealRule]
    (yes or no to a redeal) or a rule of this kind. Implementations must be
    frozen attrs classes and pure. The rule is given only the face-up cards
    of the table (those after the `face_down` ones), so it never reads a
    hidden card; it cannot redeal or award a table that has face-down cards
    (that would show them), and [`new_game`][xeri.new_game] and
    [`apply`][xeri.apply] refuse such an answer with a
    [`RuleSetError`][xeri.RuleSetError]. After a replacement the rule is
    asked again about the new table, and may then only keep it or replace
    more cards.

    A table rule is a redeal rule too: its `needed(cards)` says whether
    `action(cards)` redeals, so code written for redeal rules keeps working
    (the built-in rules define it; the engine asks `action` only).
    """

    def action(self, cards: tuple[Card, ...]) -> TableAction:
        """What to do with the table's face-up cards `cards`, the last on top.

        Args:
            cards: the face-up cards of the initial table in the order dealt.

        Returns:
            The [`TableAction`][xeri.TableAction].
        """
        ...


def table_action(rule: object, cards: tuple[Card, ...]) -> TableAction:
    """The answer of a rule set's `redeal` component: a `TableRule`'s, or a `RedealRule`'s."""
    action = getattr(rule, "action", None)
    if action is not None:
        return action(cards)  # type: ignore[no-any-return]  # checked by the round core
    return _REDEAL if rule.needed(cards) else _KEEP  # type: ignore[attr-defined]  # a RedealRule


def redeals(rule: object, cards: tuple[Card, ...]) -> bool:
    """Whether the rule redeals a table whose face-up cards are `cards`.

    A rule that fails answers no here: its failure is reported where it plays.
    """
    try:
        return table_action(rule, cards).kind == "redeal"
    except Exception:  # a rule's own failure is reported where it plays, not here
        return False


def _ranks(value: object) -> tuple[Rank, ...]:
    """A tuple of ranks from any iterable of ranks (a set is sorted), unchecked otherwise."""
    if isinstance(value, (set, frozenset)):
        return tuple(sorted(value, key=lambda r: r.value))
    return tuple(value) if isinstance(value, (list, tuple)) else value  # type: ignore[return-value]  # refused below


@attrs.frozen(kw_only=True)
class ReplaceRanks(_Immutable):
    """Replace a face-up initial card of the named ranks from the stock ([T2][rules-t2]).

    Pişti's published rule: a Jack turned face up on the initial pile is put
    face up at the bottom of the stock (so the dealer gets it in the round's
    last deal) and the next card of the stock is turned up in its place;
    repeated while the new card is one of the ranks too.

    Examples:
        >>> import xeri
        >>> rule = xeri.ReplaceRanks(ranks=(xeri.Rank.JACK,))
        >>> rule.action(tuple(map(xeri.Card.parse, ["5C", "JD"]))).cards
        (Card.parse('J♦'),)
        >>> rule.action(tuple(map(xeri.Card.parse, ["JC", "5D"]))).kind
        'keep'
    """

    ranks: tuple[Rank, ...] = attrs.field(default=(Rank.JACK,), converter=_ranks)
    """The ranks replaced."""
    top_only: bool = True
    """Whether only the top card is looked at (True), or every face-up card (False)."""

    def __attrs_post_init__(self) -> None:
        if (
            type(self.ranks) is not tuple
            or not self.ranks
            or not all(isinstance(r, Rank) for r in self.ranks)
            or len(set(self.ranks)) != len(self.ranks)
        ):
            raise RuleSetError(
                f"ReplaceRanks.ranks must be one Rank or more, each once, not {_show(self.ranks)}"
            )
        if type(self.top_only) is not bool:
            raise RuleSetError(
                f"ReplaceRanks.top_only must be True or False, not {_show(self.top_only)}"
            )

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Never: this rule keeps or replaces, it does not redeal."""
        return False

    def action(self, cards: tuple[Card, ...]) -> TableAction:
        """Replace the named cards among `cards` (the top one only under `top_only`)."""
        ranks = self.ranks
        look = cards[-1:] if self.top_only else cards
        named = tuple(c for c in look if c.rank in ranks)
        return TableAction(kind="replace", cards=named) if named else _KEEP


@attrs.frozen(kw_only=True)
class AwardSums(_Immutable):
    """Award an initial table that splits into groups each worth `total` ([T3][rules-t3]).

    Escoba's rule: when the four cards dealt face up add up to 15, the dealer
    takes them as an escoba (a sweep); when they make two groups of 15 (30
    in all), two escobas.

    Examples:
        >>> import xeri
        >>> rule = xeri.AwardSums(total=15)
        >>> table = tuple(map(xeri.Card.parse, ["7C", "KD", "5S", "JH"]))
        >>> action = rule.action(table)
        >>> action.kind, len(action.groups), action.sweep
        ('award', 2, True)
        >>> rule.action(table[:3]).kind
        'keep'
    """

    total: int = 15
    """The value each group must add up to."""
    values: tuple[tuple[Rank, int], ...] = SCOPA_VALUES
    """The value of each rank, as (Rank, value) pairs (Scopa's and Escoba's by default:
    Ace 1, 2 to 7 as printed, Jack 8, Queen 9, King 10); a rank left out has none."""
    seat_offset: int = 0
    """The seat that takes the table, counted from the dealer (0: the dealer)."""
    sweep: bool = True
    """Whether each group counts as a sweep."""

    def __attrs_post_init__(self) -> None:
        if not _int_in(self.total, 1, 520):
            raise RuleSetError(
                f"AwardSums.total must be an int from 1 to 520, not {_show(self.total)}"
            )
        pairs = self.values
        if (
            type(pairs) is not tuple
            or not all(
                type(p) is tuple
                and len(p) == 2
                and isinstance(p[0], Rank)
                and _int_in(p[1], 1, 520)
                for p in pairs
            )
            or len({p[0] for p in pairs}) != len(pairs)
        ):
            raise RuleSetError(
                "AwardSums.values must be (Rank, value) pairs, each rank once, each value "
                f"from 1 to 520, not {_show(pairs)}"
            )
        if not _int_in(self.seat_offset, 0, 7):
            raise RuleSetError(
                f"AwardSums.seat_offset must be an int from 0 to 7, not {_show(self.seat_offset)}"
            )
        if type(self.sweep) is not bool:
            raise RuleSetError(f"AwardSums.sweep must be True or False, not {_show(self.sweep)}")

    def needed(self, cards: tuple[Card, ...]) -> bool:
        """Never: this rule keeps or awards, it does not redeal."""
        return False

    def action(self, cards: tuple[Card, ...]) -> TableAction:
        """Award the table when it splits into groups of `total`, else keep it."""
        value = dict(self.values)
        worth = [value.get(c.rank) for c in cards]
        total = self.total
        if not cards or None in worth or sum(worth) % total:  # type: ignore[arg-type]  # no None
            return _KEEP
        groups = _split(tuple(cards), tuple(worth), total)  # type: ignore[arg-type]  # no None
        if groups is None:
            return _KEEP
        return TableAction(
            kind="award", seat_offset=self.seat_offset, groups=groups, sweep=self.sweep
        )


def _split(
    cards: tuple[Card, ...], worth: tuple[int, ...], total: int
) -> tuple[tuple[Card, ...], ...] | None:
    """The cards split into groups each worth `total`, each in table order, or None.

    The group of the first card is the first subset (in the order of
    `itertools.combinations` over the later cards) after which the rest splits too.
    """
    if not cards:
        return ()
    rest = range(1, len(cards))
    for size in range(len(cards)):
        for chosen in combinations(rest, size):
            if worth[0] + sum(worth[i] for i in chosen) != total:
                continue
            picked = {0, *chosen}
            left = [i for i in range(len(cards)) if i not in picked]
            tail = _split(tuple(cards[i] for i in left), tuple(worth[i] for i in left), total)
            if tail is not None:
                return (tuple(cards[i] for i in sorted(picked)), *tail)
    return None

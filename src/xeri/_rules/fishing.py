"""The rest of the fishing family as presets: Turkish Pişti, Italian Scopa and English Cassino.

Each preset here is built only from the public extension points, as a
user's own rule set would be: fields of [`RuleSet`][xeri.RuleSet], the
built-in components and their options. Nothing in the engine knows these
games. Their rules, clause by clause, are on the rules pages of the docs
(`P1`–`P5` for Pişti, `S1`–`S6` for Scopa, `C1`–`C7` for Cassino), with the choices made where
published rules differ.

    >>> import xeri
    >>> xeri.find_rules("scopa") is xeri.SCOPA, len(xeri.SCOPA.deck), xeri.SCOPA.deals_per_round
    (True, 40, 6)
"""

from __future__ import annotations

from xeri._cards import ITALIAN_DECK, Card, Rank, Suit
from xeri._families.sums.rule import SCOPA_VALUES, SumCapture
from xeri._rules.categories import MostOfSuit, NamedPoints, Primiera, Sweeps
from xeri._rules.match import CountOut, SharedTarget, TargetScore
from xeri._rules.redeal import RanksOnTable, Redeal
from xeri._rules.ruleset import RuleSet, register
from xeri._rules.scoring import PointsTable

__all__ = ["CASSINO", "PISTI", "PISTI_POINTS", "SCOPA"]

PISTI_POINTS = PointsTable(
    ranks={Rank.JACK: 1, Rank.ACE: 1},
    cards={Card.parse("2♣"): 2, Card.parse("10♦"): 3},
)
"""The Pişti points table ([P5][rules-p5]): each Jack and Ace 1, the 2♣ 2, the 10♦ 3."""

PISTI = register(
    RuleSet(
        name="pisti",
        hand_size=4,
        face_down=3,
        redeal=Redeal.NEVER,
        xeri_on_first_card=False,
        xeri_on_last_card=False,
        card_points=PISTI_POINTS,
        majority_points=3,
        xeri_points=10,
        jack_xeri_points=20,
        match=TargetScore(target=151),
    )
)
"""Turkish Pişti for two players ([P1][rules-p1]–[P5][rules-p5]): hands of 4, three cards
face down under the first pile, a pişti worth 10 (a Jack on a Jack 20), 16 points a round,
game to 151. The rule set the [custom rule sets guide](../custom-rules.md) builds."""

SCOPA = register(
    RuleSet(
        name="scopa",
        deck=ITALIAN_DECK,
        hand_size=3,
        table_size=4,
        redeal=RanksOnTable(rank=Rank.KING, count=3),
        xeri_on_last_card=False,
        capture=SumCapture(
            values=SCOPA_VALUES,
            builds=False,
            raises=False,
            equal_first=True,
            card_must_capture=True,
        ),
        card_points=PointsTable(),
        majority_points=1,
        xeri_points=0,
        jack_xeri_points=0,
        categories=(
            MostOfSuit(suit=Suit.DIAMONDS, name="most coins"),
            NamedPoints(name="settebello", points=PointsTable(cards={Card.parse("7♦"): 1})),
            Primiera(),
            Sweeps(name="scope"),
        ),
        match=TargetScore(target=11, shared=SharedTarget.HIGHER_TOTAL),
    )
)
"""Italian Scopa for two players ([S1][rules-s1]–[S6][rules-s6]): the 40-card deck, three
cards each and four on the table, a card takes an equal card before any sum, a card that
can capture must, no builds; a sweep (*scopa*) 1 point; most cards, most coins (♦), the
settebello (7♦) and the primiera 1 each; game to 11."""

CASSINO = register(
    RuleSet(
        name="cassino",
        hand_size=4,
        table_size=4,
        redeal=Redeal.NEVER,
        xeri_on_last_card=False,
        capture=SumCapture(multi_capture=True, multi_builds=True, self_raise=True),
        card_points=PointsTable(),
        majority_points=3,
        xeri_points=0,
        jack_xeri_points=0,
        categories=(
            MostOfSuit(suit=Suit.SPADES),
            NamedPoints(name="big casino", points=PointsTable(cards={Card.parse("10♦"): 2})),
            NamedPoints(name="little casino", points=PointsTable(cards={Card.parse("2♠"): 1})),
            NamedPoints(name="aces", points=PointsTable(ranks={Rank.ACE: 1})),
            Sweeps(),
        ),
        match=CountOut(
            target=21,
            order=("majority", "most spades", "big casino", "little casino", "aces", "sweeps"),
        ),
    )
)
"""Classic English Cassino for two players ([C1][rules-c1]–[C7][rules-c7]): four cards each
and four on the table, a card takes by rank or by sum, several groups at once, builds,
multi-card and multiple builds; most cards 3, most spades 1, the big casino (10♦) 2, the
little casino (2♠) 1, each Ace 1, each sweep 1; game to 21, counted out in that order."""

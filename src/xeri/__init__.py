"""xeri: the rules of Xeri (Kseri), the Greek fishing card game, and its relatives.

Immutable states, a pure [`apply`][xeri.apply], and rule sets as data.

Examples:
    >>> import random, xeri
    >>> rng = random.Random(1)
    >>> state = xeri.new_game(xeri.GREEK, rng=rng)
    >>> while not state.is_round_over:
    ...     state = xeri.apply(state, xeri.legal_moves(state)[0])
    >>> sum(state.round_results[0].base) in (22, 25)
    True
"""

from xeri.actions import (
    ActionEncoding,
    action_mask,
    action_to_move,
    legal_actions,
    move_to_action,
    num_actions,
)
from xeri.capture import CaptureRule, HandNeeds, PlayOutcome, XeriKind
from xeri.cards import DECK, ITALIAN_DECK, PIQUET_DECK, Card, Rank, Suit
from xeri.categories import PRIMIERA_VALUES, Category, MostOfSuit, NamedPoints, Primiera, Sweeps
from xeri.chance import chance_outcomes
from xeri.engine import RandomSource, apply, chance_move, legal_moves, new_game, start
from xeri.errors import (
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    RuleSetError,
    XeriError,
)
from xeri.family import CASSINO, PISTI, PISTI_POINTS, SCOPA
from xeri.features import observation_shape, observation_tensor
from xeri.match import CountOut, FixedRounds, MatchFormat, MatchStatus, SharedTarget, TargetScore
from xeri.moves import (
    Capture,
    ChanceMove,
    Combine,
    Deal,
    DealCard,
    Move,
    PlayerMove,
    Reshuffle,
    Trail,
)
from xeri.notation import parse_move
from xeri.observe import Observation, ObservedTake, observe
from xeri.pile import PileCapture
from xeri.preview import Preview, preview
from xeri.records import GameRecord, record, replay
from xeri.redeal import RanksOnTable, RedealRule
from xeri.rollout import Policy, RolloutView, rollout
from xeri.rules import (
    GERMAN,
    GERMAN_POINTS,
    GREEK,
    GREEK_FOUR,
    GREEK_POINTS,
    Redeal,
    RuleSet,
    find_rules,
    register,
    registered,
)
from xeri.sample import determinize
from xeri.scoring import MajorityTie, PointsTable, RoundResult, Scorer, StandardScorer
from xeri.serialize import from_json, to_json
from xeri.simulation import SimulationResult, simulate
from xeri.state import GameState, MatchFacts, Phase, Take
from xeri.sums import SumCapture, card_value
from xeri.table import Build, TableItem

__version__ = "0.1.0"
"""The version of the library."""

__all__ = [
    "CASSINO",
    "DECK",
    "GERMAN",
    "GERMAN_POINTS",
    "GREEK",
    "GREEK_FOUR",
    "GREEK_POINTS",
    "ITALIAN_DECK",
    "PIQUET_DECK",
    "PISTI",
    "PISTI_POINTS",
    "PRIMIERA_VALUES",
    "SCOPA",
    "ActionEncoding",
    "Build",
    "Capture",
    "CaptureRule",
    "Card",
    "Category",
    "ChanceMove",
    "Combine",
    "CountOut",
    "Deal",
    "DealCard",
    "FixedRounds",
    "GameRecord",
    "GameState",
    "HandNeeds",
    "IllegalMoveError",
    "InvalidStateError",
    "MajorityTie",
    "MatchFacts",
    "MatchFormat",
    "MatchStatus",
    "MostOfSuit",
    "Move",
    "NamedPoints",
    "NotationError",
    "Observation",
    "ObservedTake",
    "Phase",
    "PileCapture",
    "PlayOutcome",
    "PlayerMove",
    "PointsTable",
    "Policy",
    "Preview",
    "Primiera",
    "RandomSource",
    "Rank",
    "RanksOnTable",
    "Redeal",
    "RedealRule",
    "Reshuffle",
    "RolloutView",
    "RoundResult",
    "RuleSet",
    "RuleSetError",
    "Scorer",
    "SharedTarget",
    "SimulationResult",
    "StandardScorer",
    "Suit",
    "SumCapture",
    "Sweeps",
    "TableItem",
    "Take",
    "TargetScore",
    "Trail",
    "XeriError",
    "XeriKind",
    "__version__",
    "action_mask",
    "action_to_move",
    "apply",
    "card_value",
    "chance_move",
    "chance_outcomes",
    "determinize",
    "find_rules",
    "from_json",
    "legal_actions",
    "legal_moves",
    "move_to_action",
    "new_game",
    "num_actions",
    "observation_shape",
    "observation_tensor",
    "observe",
    "parse_move",
    "preview",
    "record",
    "register",
    "registered",
    "replay",
    "rollout",
    "simulate",
    "start",
    "to_json",
]

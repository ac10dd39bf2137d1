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

from xeri._agents.actions import (
    ActionEncoding,
    action_mask,
    action_to_move,
    factored,
    legal_actions,
    move_to_action,
    num_actions,
    num_targets,
)
from xeri._agents.features import observation_layout, observation_shape, observation_tensor
from xeri._agents.observation import Observation, ObservedTake, observe
from xeri._agents.previews import Preview, preview
from xeri._agents.rollouts import Policy, RolloutView, rollout
from xeri._agents.sampling import check_observation, consistent_states, determinize
from xeri._cards import DECK, ITALIAN_DECK, PIQUET_DECK, Card, Rank, Suit
from xeri._core.chance import chance_outcomes
from xeri._core.engine import RandomSource, apply, chance_move, legal_moves, new_game, start
from xeri._core.legal import LegalMoves
from xeri._core.state import GameState, MatchFacts, Phase, Take
from xeri._errors import (
    ArgumentError,
    BotError,
    IllegalMoveError,
    InvalidStateError,
    NotationError,
    RuleSetError,
    XeriError,
)
from xeri._families.options import Option
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import (
    NO_NEEDS,
    CaptureRule,
    HandNeeds,
    OutcomeTuple,
    PlayOutcome,
    XeriKind,
)
from xeri._families.sums.rule import (
    GERMAN_VALUES,
    MAX_VALUE,
    SCOPA_VALUES,
    SumCapture,
    card_value,
)
from xeri._families.sweepers import Sweeper
from xeri._io.journal import (
    JOURNAL_FORMAT,
    JOURNAL_VERSION,
    journal_header,
    journal_row,
    load_journal,
    rules_fingerprint,
)
from xeri._io.notation import parse_move
from xeri._io.records import GameRecord, record, replay
from xeri._io.serialize import (
    FORMAT_VERSION,
    MAX_DEPTH,
    MAX_TEXT_LENGTH,
    from_data,
    from_json,
    to_data,
    to_json,
)
from xeri._io.view import (
    MAX_LISTED_MOVES,
    VIEW_VERSION,
    client_moves,
    client_view,
    client_view_json,
    client_view_schema,
    decode_view,
    encode_view,
)
from xeri._moves import (
    Capture,
    ChanceMove,
    Combine,
    Deal,
    DealCard,
    Move,
    PlayerMove,
    Reshuffle,
    Trail,
    move_sort_key,
)
from xeri._rules.categories import (
    PRIMIERA_VALUES,
    Category,
    MostOfSuit,
    NamedPoints,
    Primiera,
    SweepPoints,
    Sweeps,
)
from xeri._rules.fishing import CASSINO, PISTI, PISTI_POINTS, SCOPA
from xeri._rules.match import (
    CountOut,
    FixedRounds,
    MatchFormat,
    MatchStatus,
    SharedTarget,
    TargetScore,
)
from xeri._rules.redeal import RanksOnTable, RedealRule
from xeri._rules.ruleset import (
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
from xeri._rules.scoring import MajorityTie, PointsTable, RoundResult, Scorer, StandardScorer
from xeri._simulation import SimulationResult, simulate
from xeri._table import Build, TableItem, item_cards, item_sort_key

__version__ = "0.1.0"
"""The version of the library."""

__all__ = [
    "CASSINO",
    "DECK",
    "FORMAT_VERSION",
    "GERMAN",
    "GERMAN_POINTS",
    "GERMAN_VALUES",
    "GREEK",
    "GREEK_FOUR",
    "GREEK_POINTS",
    "ITALIAN_DECK",
    "JOURNAL_FORMAT",
    "JOURNAL_VERSION",
    "MAX_DEPTH",
    "MAX_LISTED_MOVES",
    "MAX_TEXT_LENGTH",
    "MAX_VALUE",
    "NO_NEEDS",
    "PIQUET_DECK",
    "PISTI",
    "PISTI_POINTS",
    "PRIMIERA_VALUES",
    "SCOPA",
    "SCOPA_VALUES",
    "VIEW_VERSION",
    "ActionEncoding",
    "ArgumentError",
    "BotError",
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
    "LegalMoves",
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
    "Option",
    "OutcomeTuple",
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
    "SweepPoints",
    "Sweeper",
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
    "check_observation",
    "client_moves",
    "client_view",
    "client_view_json",
    "client_view_schema",
    "consistent_states",
    "decode_view",
    "determinize",
    "encode_view",
    "factored",
    "find_rules",
    "from_data",
    "from_json",
    "item_cards",
    "item_sort_key",
    "journal_header",
    "journal_row",
    "legal_actions",
    "legal_moves",
    "load_journal",
    "move_sort_key",
    "move_to_action",
    "new_game",
    "num_actions",
    "num_targets",
    "observation_layout",
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
    "rules_fingerprint",
    "simulate",
    "start",
    "to_data",
    "to_json",
]

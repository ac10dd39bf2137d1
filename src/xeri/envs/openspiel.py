"""Xeri as an OpenSpiel game, for search and game-theoretic algorithms.

Needs the `openspiel` extra (`pip install "xeri[openspiel]"`: OpenSpiel and
NumPy); importing this module without them raises an `ImportError` naming
the extra. Importing it registers the Python game `python_xeri`, which
`pyspiel.load_game` then makes like any other game:

```python
import pyspiel
import xeri.envs.openspiel  # registers python_xeri

game = pyspiel.load_game("python_xeri", {"rules": "german", "episode": "round"})
```

**Parameters.**

- `rules` (default `"greek"`): the name of a registered rule set, as
  [`find_rules`][xeri.find_rules] knows it: `"greek"`, `"greek-four"`,
  `"german"`, or the name of one of your own, registered (with
  [`register`][xeri.register]) before the game is loaded. Its capture rule
  needs an action encoding (see [`num_actions`][xeri.num_actions]).
- `episode` (default `"round"`): `"round"` plays the first round of a
  match, `"match"` a whole match ([F8][rules-f8]).
- `max_rounds` (default 100): a match episode ends after this many rounds
  even if the match is not decided, as a draw (every return 0). A match
  under [`TargetScore`][xeri.TargetScore] has no fixed length (tied sides
  play on, [G11][rules-g11], [D9][rules-d9]), and OpenSpiel needs a bound on
  the length of a game; no preset comes near 100 rounds.

**Players and chance.** One player per seat, player `i` playing seat `i`;
the player to act is the seat to move. Chance acts first, drawing the first
dealer uniformly ([G2][rules-g2]; the action is the dealer's seat), then
deals every round card by card through [`chance_outcomes`][xeri.chance_outcomes]:
a chance action is a card's index in [`DECK`][xeri.DECK], so
`max_chance_outcomes()` is 52 and a chance node has at most 52 outcomes,
each equally likely. A deal takes 51 chance actions (the last card is
forced), a redeal of the initial table ([G4][rules-g4], [F4][rules-f4]) one
fewer than the cards it reshuffles. The states are those of the whole-deck
[`Deal`][xeri.Deal], with the same distribution ([chance card by card][chance-card-by-card]).

**Actions.** A player's actions are the integer actions of
[integer actions][integer-actions]: `num_distinct_actions()` is
[`num_actions`][xeri.num_actions] (52 in pile games, 18,308 in German
Xeri), and the legal ones are [`legal_actions`][xeri.legal_actions].

**Utilities.** Partners share their returns; rewards come at the end only.

- `episode="round"`: each seat's side's round total minus the best total
  among the other sides, in points (as the PettingZoo environment's round
  reward); bounded by [`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds],
  so a rule set whose scorer gives no bound needs `episode="match"`.
- `episode="match"`: [`returns`][xeri.MatchFacts.returns], +1 to every seat
  of the winning side, -1 to the others, 0 to all on a draw.

With two sides the game is zero-sum; with more, general-sum.

**Bounds.** `max_game_length()` is the players' actions of an episode
(a round's plays, times the rounds of a match episode), exact. Chance's
actions are bounded by
[`max_chance_nodes_in_history`][xeri.envs.openspiel.XeriGame.max_chance_nodes_in_history]
(and `max_history_length()` is the sum of the two): the first dealer, then
per round 51 cards dealt and, for each redeal of the initial table, one
action fewer than the cards it reshuffles. The redeal loop of
[G4][rules-g4] and [F4][rules-f4] has no end that is certain, so the bound
allows in every round the redeals that a round exceeds with probability
below 1e-12: 15 for GREEK (a redeal has a chance of at most 0.177), 130 for
GREEK_FOUR (at most 0.81, by the union bound over the pairs of its table);
under `Redeal.NEVER` (GERMAN, Pişti) the bound is exact. A GREEK round
episode without a redeal takes 52 chance actions (the dealer and 51
cards), each redeal 39 more; the bound is 637.

**Information.** The game has imperfect information. The information state
of a player is its seat's [`Observation`][xeri.Observation] ([X2][rules-x2]):
as a string, every field of it (and, in the middle of a deal, how many
cards have been dealt; never which). Observers come in two kinds:

- `perfect_recall=False` (`observation_tensor`): the
  [`observation_tensor`][xeri.observation_tensor], of the length
  [`observation_shape`][xeri.observation_shape] gives, one named block per
  block of [`observation_layout`][xeri.observation_layout];
- `perfect_recall=True` (`information_state_tensor`): that tensor followed
  by the ordered history of what the seat saw in the round, the blocks of
  [`recall_layout`][xeri.envs.openspiel.recall_layout]: each play's action
  in order, where each card lies on the table and in each capture, each
  capture's kind, each redealt table in turn, how many cards of a pending
  deal are placed, and the results of the earlier rounds. Distinct
  information states of a player give distinct tensors (the tests compare
  thousands of pairs), except in a round redealt more often than the
  bounds above allow, whose last tables are not all kept.

Called from Python, `state.information_state_tensor(player)` and
`state.observation_tensor(player)` are the state's own methods and return
the values that OpenSpiel's C++ call gives (the tests compare them on every
decision of random games and of branches), without its copy of each named
block. In a pile game without face-down cards, once one of them is asked
for in a round, the state keeps every player's information-state tensor as
a list and each play writes its own entries into them: the card played,
the table, the capture and its side's counts, the hand sizes, the order
blocks, and after a new deal ([G8][rules-g8]) the player's own new hand,
never another's. A call returns a copy of the list (the observation tensor
is its first part); `clone()` and `child()` share the lists until either
state plays, which then copies them. In other games, and in a state that
keeps nothing, the game's observer is filled and read out as one list. The
observer's `set_from` (what OpenSpiel's C++ calls use) follows the game
play by play (a [`TensorTracker`][xeri.envs.arrays.TensorTracker]) and
copies the recall blocks the state keeps. While a deck is dealt (or a table
redealt) card by card, the state keeps the cards left, which
`chance_outcomes` lists, and the cards dealt, placed in the engine's
pending order only when the game state is asked for; when the last free
card of a deck is forced, the round is dealt by one [`Deal`][xeri.Deal] of
the whole order, which is how the engine completes it.

An observation keeps the whole current round (perfect recall within it)
and, of the earlier rounds of a match, their results, which is all that the
rest of the match depends on; the information state is the same.
[`XeriObserver`][xeri.envs.openspiel.XeriObserver] is also made for public
observations (`PrivateInfoType.NONE`): without the own hand, whose cards
are then counted among the unknown ones.

**Serialization.** `state.serialize()` is the library's own JSON, the
[game record][xeri.GameRecord] of the state's history, and
`game.deserialize_state(text)` reads it with [`from_json`][xeri.from_json],
checked like any document, then applies its moves as actions: a tampered or
foreign string raises [`InvalidStateError`][xeri.InvalidStateError] and
never runs code. Every action is range-checked: a player's outside
`num_distinct_actions()`, a chance action that is not a card's index (or a
seat, for the first dealer), a bool or a float given to `apply_action` raise
[`IllegalMoveError`][xeri.IllegalMoveError]. OpenSpiel's own C++ functions
`pyspiel.serialize_game_and_state` and `pyspiel.deserialize_game_and_state`
do not call these methods: for every Python game they write and read a
pickle of the state's attributes, which runs code when read. Give them only
strings you wrote yourself.

**Resampling.**
[`resample_from_infostate`][xeri.envs.openspiel.XeriState.resample_from_infostate]
draws, with [`determinize`][xeri.determinize], a state the player could not
tell from this one, uniformly, with a history of actions that leads to it,
as OpenSpiel's Python `ISMCTSBot` asks.
[`seeded_resampler`][xeri.envs.openspiel.seeded_resampler] makes the bot's
draws replay for a seed, and
[`EvaluationBot`][xeri.envs.openspiel.EvaluationBot] lets OpenSpiel's
`evaluate_bots` play its bots (which cannot `restart_at` a state).

Examples:
    >>> import pyspiel
    >>> import xeri.envs.openspiel
    >>> game = pyspiel.load_game("python_xeri", {"rules": "greek"})
    >>> game.num_distinct_actions(), game.max_chance_outcomes(), game.num_players()
    (52, 52, 2)
    >>> state = game.new_initial_state()
    >>> state.is_chance_node(), len(state.chance_outcomes())  # the first dealer
    (True, 2)
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from operator import itemgetter
from typing import Any

import attrs

from xeri._agents.actions import action_to_move, legal_actions, move_to_action, num_actions
from xeri._agents.features import _layout, observation_layout, observation_shape
from xeri._agents.observation import Observation, ObservedTake, observe
from xeri._agents.sampling import determinize
from xeri._cards import DECK, Card, Rank
from xeri._core.chance import _round_moves, chance_outcomes
from xeri._core.engine import _with_dealing, apply, start
from xeri._core.state import GameState, Phase, Take
from xeri._errors import (
    ArgumentError,
    IllegalMoveError,
    InvalidStateError,
    RuleSetError,
    XeriError,
    _show,
)
from xeri._families.pile.rule import PileCapture
from xeri._families.protocol import XeriKind
from xeri._io.records import GameRecord
from xeri._io.serialize import from_json, to_json
from xeri._moves import Capture, Combine, Deal, DealCard, Move, PlayerMove, Reshuffle, Trail
from xeri._rules.match import FixedRounds
from xeri._rules.redeal import RanksOnTable, Redeal
from xeri._rules.ruleset import RuleSet, find_rules
from xeri._rules.scoring import RoundResult
from xeri._table import Build, TableItem

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel

    from xeri.envs.arrays import TensorTracker
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        'xeri.envs.openspiel needs the openspiel extra: pip install "xeri[openspiel]"'
    ) from exc

__all__ = [
    "GAME_NAME",
    "EvaluationBot",
    "XeriGame",
    "XeriObserver",
    "XeriState",
    "recall_layout",
    "seeded_resampler",
]

GAME_NAME = "python_xeri"
"""The short name under which the game is registered with OpenSpiel."""

_PARAMETERS: dict[str, str | int] = {"rules": "greek", "episode": "round", "max_rounds": 100}
_EPISODES = ("round", "match")
_MAX_SEATS = 8
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEALING = (Phase.DEAL, Phase.ROUND_OVER)
_ORDERS = (*_DEALING, Phase.REDEAL)  # a deck dealt, or a table redealt, card by card
_DEAL_CARDS = tuple(DealCard(card=card) for card in DECK)
_CARDS = len(DECK)
_APPLY_ACTION = pyspiel.State.apply_action  # OpenSpiel's own: the history, then `_apply_action`
_OUTCOMES: list[list[tuple[int, float]]] = [[]] + [
    [(card, 1.0 / n) for card in range(len(DECK))] for n in range(1, len(DECK) + 1)
]
"""`_OUTCOMES[n][card]`: the chance outcome of a card when `n` cards are left."""


def _game_type(utility: Any) -> Any:  # noqa: ANN401  # pyspiel ships no type information
    return pyspiel.GameType(
        short_name=GAME_NAME,
        long_name="Xeri (Python)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_SEATS,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMETERS,
    )


class XeriGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game `python_xeri`: its parameters and its bounds (see the module docstring).

    Made by `pyspiel.load_game("python_xeri", {...})`, or directly with the
    same parameters.

    Attributes:
        rules: the rule set played.
        episode: `"round"` or `"match"`.
        max_rounds: the most rounds of a match episode.
    """

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        """Check the parameters and work out the game's bounds.

        Args:
            params: `rules`, `episode` and `max_rounds`, each optional.

        Raises:
            RuleSetError: no rule set is registered under `rules`, it has no
                action encoding, or a round episode's scorer gives no bounds.
            ArgumentError: `episode` or `max_rounds` is not a possible value,
                or a parameter is unknown.
        """
        values = {**_PARAMETERS, **(params or {})}
        unknown = sorted(set(values) - set(_PARAMETERS))
        if unknown:
            raise ArgumentError(
                f"{GAME_NAME} has the parameters rules, episode and max_rounds, not {unknown}"
            )
        rules = find_rules(values["rules"])
        episode = values["episode"]
        if episode not in _EPISODES:
            raise ArgumentError(f"episode must be 'round' or 'match', not {_show(episode)}")
        max_rounds = values["max_rounds"]
        if type(max_rounds) is not int or max_rounds < 1:
            raise ArgumentError(f"max_rounds must be an int of at least 1, not {_show(max_rounds)}")
        actions = num_actions(rules)  # refuses a rule set without an action encoding
        if callable(getattr(rules.redeal, "action", None)):
            raise RuleSetError(
                f"rule set {rules.name!r}: the OpenSpiel adapter does not play an initial-table"
                f" rule ({type(rules.redeal).__name__}, T1): its chance nodes and information"
                " states are those of a redeal"
            )
        two_sides = rules.num_sides == 2
        if episode == "round":
            bounds = rules.round_points_bounds
            if bounds is None:
                raise RuleSetError(
                    f"rule set {rules.name!r}: its scorer gives no bounds on round points,"
                    " which a round episode needs; use episode='match'"
                )
            most = float(bounds[1] - bounds[0])
            low, high, rounds = -most, most, 1
        else:
            low, high = rules.returns_bounds
            rounds = max_rounds
            if isinstance(rules.match, FixedRounds):
                rounds = min(rounds, rules.match.rounds)
        plays = rules.seats * rules.hand_size * rules.deals_per_round
        self._chance_nodes = 1 + rounds * _round_chance_nodes(rules)
        self._rounds = rounds
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=max(len(DECK), rules.seats),
            num_players=rules.seats,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if two_sides else None,
            max_game_length=plays * rounds,
        )
        utility = pyspiel.GameType.Utility
        game_type = _game_type(utility.ZERO_SUM if two_sides else utility.GENERAL_SUM)
        super().__init__(game_type, info, dict(values))
        self.rules: RuleSet = rules
        self.episode: str = episode
        self.max_rounds: int = max_rounds
        observer_rounds = 1 if episode == "round" else rounds
        # What the game's states share: its observers, where a play writes.
        self._link = _Link(rules, observer_rounds)
        self._recall_at = self._link.recall_at
        self._observers: dict[bool, XeriObserver] = self._link.observers

    def _observer(self, recall: bool) -> XeriObserver:  # noqa: FBT001  # internal, a cache key
        """The game's own observer of a player's information state (or observation), kept."""
        observer = self._observers.get(recall)
        if observer is None:
            kind = pyspiel.IIGObservationType(perfect_recall=recall)
            observer = self._observers[recall] = self.make_py_observer(kind)
        return observer

    def max_chance_nodes_in_history(self) -> int:
        """A bound on the chance actions of an episode, exceeded with probability below 1e-12.

        The first dealer, then per round the deal (51 actions) and the
        redeals of its initial table, each one action fewer than the cards it
        reshuffles. The redeal rule repeats until the table may stand, so no
        number of redeals is certain: the bound allows, in every round, the
        number of redeals that a round exceeds with probability below 1e-12
        (see `_redeals_allowed`). Under `Redeal.NEVER` it is exact.
        `max_history_length()` is this bound plus `max_game_length()`.

        Returns:
            The bound.
        """
        return self._chance_nodes

    def new_initial_state(self) -> XeriState:
        """The state before anything happens: chance draws the first dealer.

        Returns:
            A new [`XeriState`][xeri.envs.openspiel.XeriState].
        """
        return XeriState(self)

    def make_py_observer(
        self,
        iig_obs_type: Any = None,  # noqa: ANN401  # a pyspiel.IIGObservationType, untyped
        params: Mapping[str, Any] | None = None,
    ) -> XeriObserver:
        """An observer, as OpenSpiel asks a Python game for one.

        Args:
            iig_obs_type: a `pyspiel.IIGObservationType`, or None for the
                default (a player's own observation).
            params: observer parameters: none are taken.

        Returns:
            A new [`XeriObserver`][xeri.envs.openspiel.XeriObserver].
        """
        if isinstance(iig_obs_type, Mapping):  # OpenSpiel passes the parameters alone
            iig_obs_type, params = None, iig_obs_type
        rounds = 1 if self.episode == "round" else self._rounds
        return XeriObserver(self.rules, iig_obs_type, params, rounds=rounds)

    def deserialize_state(self, text: str) -> XeriState:
        """The state that [`XeriState.serialize`][xeri.envs.openspiel.XeriState.serialize] wrote.

        The text is read by [`from_json`][xeri.from_json] as a game record and
        checked like any document (the record replays under this game's rule
        set), then its moves are applied one by one as this game's actions;
        nothing in it is ever executed. The empty string is the initial state.

        Args:
            text: the serialized state.

        Returns:
            A new state with the same history.

        Raises:
            InvalidStateError: the text is not a record of this game that
                replays: another rule set, moves OpenSpiel does not make
                (whole-deck deals), moves after the episode's end, or any
                problem `from_json` finds.
        """
        return _deserialized(self, text)


_UNLIKELY = 1e-12
"""The chance of more redeals in a round than the history bounds allow, at most."""


def _redeal_chance(rules: RuleSet) -> float:
    """An upper bound on the chance that a freshly dealt initial table is dealt again.

    The table is drawn from the `n` cards left after the hands; `m` is the
    most cards of one rank and `j` the Jacks in the deck. For the built-in
    rules, by the union bound: a Jack on top `j / n`, the top two of a rank
    `(m - 1) / (n - 1)`, a pair anywhere `C(t, 2) (m - 1) / (n - 1)`,
    `count` cards of a rank `C(t, count) (m - 1) ... / ((n - 1) ...)` times
    `m / n`. Another redeal rule: 1 (no bound).
    """
    redeal = rules.redeal
    if redeal is Redeal.NEVER:
        return 0.0
    n = len(rules.deck) - rules.seats * rules.hand_size
    t = rules.table_size
    ranks = [sum(1 for c in rules.deck if c.rank is rank) for rank in Rank]
    m = max(ranks)
    jacks = ranks[list(Rank).index(Rank.JACK)]
    if n < 2 or t < 1:
        return 1.0
    if redeal is Redeal.TOP_JACK_OR_TOP_PAIR:
        p = jacks / n + ((m - 1) / (n - 1) if t >= 2 else 0.0)
    elif redeal is Redeal.TOP_JACK_OR_ANY_PAIR:
        p = jacks / n + math.comb(t, 2) * (m - 1) / (n - 1)
    elif isinstance(redeal, RanksOnTable):
        k = redeal.count
        p = math.comb(t, k) * math.prod((m - i) / (n - i) for i in range(k))
    else:
        return 1.0
    return min(1.0, p)


def _redeals_allowed(rules: RuleSet) -> int:
    """The redeals a round makes with probability at least 1e-12: 64 when no bound is known."""
    p = _redeal_chance(rules)
    if p == 0.0:
        return 0
    if p >= 0.99:
        return 64
    return max(1, math.ceil(math.log(_UNLIKELY) / math.log(p)) - 1)


def _round_chance_nodes(rules: RuleSet) -> int:
    """The chance actions of one round: the deal's and the redeals' the bound allows."""
    deal = len(rules.deck) - 1
    again = len(rules.deck) - rules.seats * rules.hand_size - 1
    return deal + _redeals_allowed(rules) * again


class XeriState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A state of `python_xeri`: a [`GameState`][xeri.GameState] and what OpenSpiel needs.

    Made by [`XeriGame.new_initial_state`][xeri.envs.openspiel.XeriGame.new_initial_state];
    the OpenSpiel methods (`current_player`, `legal_actions`,
    `chance_outcomes`, `apply_action`, `returns`, ...) behave as the module
    docstring says.
    """

    def __init__(self, game: XeriGame) -> None:
        """A state before the draw of the first dealer.

        Args:
            game: the game.
        """
        super().__init__(game)
        self._rules: RuleSet = game.rules
        self._episode: str = game.episode
        self._max_rounds: int = game.max_rounds
        self._state: GameState | None = None
        self._length = 0  # actions applied: the length of the history
        # The round whose plays `_state` holds began at history index
        # `_round_start`, dealt from the chance state `_round_base`.
        self._round_start = 0
        self._round_base: GameState | None = None
        # While a history is copied in (resampling), the player of each action.
        self._replay: list[int] | None = None
        # The players' actions of the current round, in order (the recall tensor's `plays`).
        self._round_actions: list[int] = []
        # The cards chance may deal next while a deck is dealt card by card, in
        # deck order (None: not known, asked of the engine).
        self._free: list[int] | None = None
        # The cards dealt one by one since `_state` was last made (`_now` places them).
        self._dealt: list[int] = []
        # The recall blocks of the information-state tensor as they stand, kept
        # from play to play in a pile game without face-down cards (None: made
        # whole at the next information-state tensor).
        self._recall: npt.NDArray[np.float32] | None = None
        # What the game's states share (its observers, where a play writes).
        self._link: _Link = game._link
        # The player to move (`current_player`), set with each new `_state`.
        self._player = _CHANCE
        # Each player's information-state tensor as a list, kept from play to
        # play in a pile game without face-down cards (None: nothing kept).
        self._kept: _Kept | None = None

    @property
    def game_state(self) -> GameState | None:
        """The state of the match, every card in it; None before the first dealer is drawn."""
        return self._now()

    def _now(self) -> GameState | None:
        """The state, the cards dealt one by one since it was last made placed in its order."""
        state = self._state
        dealt = self._dealt
        if dealt:
            assert state is not None  # for mypy: cards are dealt after the first dealer
            placed = (*state.dealing, *[DECK[card] for card in dealt])
            state = self._state = _with_dealing(state, dealing=placed)
            self._dealt = []
        return state

    def serialize(self) -> str:
        """The state as the library's JSON: the game record of its history.

        [`to_json`][xeri.to_json] of a [`GameRecord`][xeri.GameRecord] whose
        first dealer is the first chance action and whose moves are the
        others, a [`DealCard`][xeri.DealCard] for each card chance dealt and
        the player's move for each player action; the empty string before
        the first dealer is drawn.
        [`XeriGame.deserialize_state`][xeri.envs.openspiel.XeriGame.deserialize_state]
        reads it back. Holds every hidden card: it is the whole state.
        """
        return _serialized(self)

    def apply_action(self, action: int) -> None:
        """Apply an action of the player to move, or chance's; a bool is refused.

        Args:
            action: an int: a legal action, or a chance outcome.

        Raises:
            IllegalMoveError: `action` is a bool, not an int, or out of range.
        """
        if action.__class__ is not int and not isinstance(action, np.integer):
            raise IllegalMoveError(f"an action is an int, not {type(action).__name__}")
        _APPLY_ACTION(self, action)

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The information-state tensor of a player, as a list: OpenSpiel's, quicker from Python.

        The same values as OpenSpiel's own call (which goes through C++ and
        the observer's named blocks): a copy of the list the state keeps
        from play to play (see the module docstring), or the game's own
        information-state observer's tensor read out as one list.

        Args:
            player: a player; None for the player to move.

        Returns:
            The tensor's values.
        """
        if player is None:
            player = self._player if self._replay is None else self.current_player()
        kept = self._kept
        if kept is not None:
            values = kept.lists.get(player)
            if values is not None:  # kept from play to play: the caller's own copy
                return values.copy()
        if type(player) is not int or not 0 <= player < self._rules.seats:
            return super().information_state_tensor(player)  # type: ignore[no-any-return]  # OpenSpiel's own refusal
        values = self._keep_tensor(player)
        if values is not None:
            return values.copy()
        observer: XeriObserver = self.get_game()._observer(True)  # noqa: FBT003  # the cache key
        observer.set_from(self, player)
        return observer.tensor_list(player)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor of a player, as a list: OpenSpiel's, quicker from Python.

        Args:
            player: a player; None for the player to move.

        Returns:
            The tensor's values, as `information_state_tensor` gives them.
        """
        if player is None:
            player = self.current_player()
        kept = self._kept
        if kept is not None:
            values = kept.lists.get(player)
            if values is not None:  # the kept information state begins with it
                return values[: self._link.obs_size]
        if type(player) is not int or not 0 <= player < self._rules.seats:
            return super().observation_tensor(player)  # type: ignore[no-any-return]  # OpenSpiel's own refusal
        values = self._keep_tensor(player)
        if values is not None:
            return values[: self._link.obs_size]
        observer: XeriObserver = self.get_game()._observer(False)  # noqa: FBT003  # the cache key
        observer.set_from(self, player)
        return observer.tensor_list(player)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal actions of a player (the player to move by default): OpenSpiel's, from Python.

        The same as OpenSpiel's own call for a Python game: nothing at a
        terminal state, the chance outcomes' actions at a chance node, the
        player's actions when it is to move, nothing for another player.

        Args:
            player: a player id; None for the player to move.

        Returns:
            The actions, sorted.
        """
        current = self._player if self._replay is None else self.current_player()
        if player is None:
            player = current
        elif type(player) is not int:
            return super().legal_actions(player)  # type: ignore[no-any-return]  # OpenSpiel's own handling
        if current >= 0:  # a seat is to move
            if player == current:
                if self._link.pile:  # a pile game's legal moves: the hand's cards, in deck order
                    return [card.index for card in self._state.hands[player]]  # type: ignore[union-attr]  # a seat to move: a state
                return self._legal_actions(player)
            if player < 0:  # a pseudo-player: OpenSpiel's own error
                return super().legal_actions(player)  # type: ignore[no-any-return]  # it raises
            return []
        if current == _CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        return []  # terminal

    def is_chance_node(self) -> bool:
        """True when chance acts next: OpenSpiel's, from Python."""
        if self._replay is None:
            return self._player == _CHANCE
        return self.current_player() == _CHANCE

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance or terminal player id."""
        replay = self._replay
        if replay is None:
            return self._player
        return replay[self._length]

    def _set_state(self, state: GameState) -> None:
        """Hold `state`, and the player to move in it."""
        self._state = state
        seat = state.to_move
        if seat is not None:
            self._player = seat
        else:
            self._player = _TERMINAL if self._over(state) else _CHANCE

    def _over(self, state: GameState) -> bool:
        if state.phase is Phase.MATCH_OVER:
            return True
        if state.phase is not Phase.ROUND_OVER:
            return False
        return self._episode == "round" or len(state.round_results) >= self._max_rounds

    def is_terminal(self) -> bool:
        """True when the episode is over: see the module docstring."""
        if self._replay is None:
            return self._player == _TERMINAL
        state = self._state
        return state is not None and state.to_move is None and self._over(state)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the player to move (OpenSpiel asks only for that one)."""
        state = self._state
        if state is None or state.to_move != player:
            return []
        if self._link.pile:  # a pile game's legal moves: the hand's cards, in deck order
            return [card.index for card in state.hands[player]]
        return list(legal_actions(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next chance actions, each with its probability: a dealer's seat or a card's index.

        Returns:
            `(action, probability)` pairs, sorted by action.
        """
        state = self._state
        if state is None:
            seats = self._rules.seats
            return [(seat, 1.0 / seats) for seat in range(seats)]
        free = self._free
        if free is None:
            state = self._now()
            assert state is not None  # for mypy: not None above
            if state.phase in _DEALING and not state.dealing:  # a deck: the same every round
                link = self._link
                if link.deck_outcomes is None:
                    link.deck_outcomes = [(m.card.index, p) for m, p in chance_outcomes(state)]
                self._free = [card for card, _ in link.deck_outcomes]
                return link.deck_outcomes.copy()
            outcomes = [(move.card.index, p) for move, p in chance_outcomes(state)]
            if state.phase in _ORDERS:  # an order placed card by card: its cards followed
                self._free = [card for card, _ in outcomes]
            return outcomes
        # As the engine's: each card left equally likely, 1.0 / len(free).
        if len(free) > 1:
            return list(itemgetter(*free)(_OUTCOMES[len(free)]))
        return [_OUTCOMES[1][free[0]]]

    def _apply_action(self, action: int) -> None:
        if self._replay is not None:  # copying a history: `_state` is set afterwards
            self._length += 1
            return
        state = self._state
        if state is None:
            self._set_state(start(self._rules, dealer=action))
        elif state.to_move is not None:
            link = self._link
            if link.pile and 0 <= action < _CARDS:
                try:  # a pile game's move is its card
                    after = apply(state, DECK[action])
                except IllegalMoveError:  # not in the hand: the action's own error
                    after = apply(state, action_to_move(state, action))
            else:
                after = apply(state, action_to_move(state, action))
            self._state = after  # `_set_state`, inline: the hot path
            seat = after.to_move
            if seat is not None:
                self._player = seat
            else:
                self._player = _TERMINAL if self._over(after) else _CHANCE
            if not state.history:  # the round's first play
                self._round_actions = []
            actions = self._round_actions
            actions.append(action)
            if self._recall is not None:
                self._recall_play(state, after, action)
            kept = self._kept
            if kept is not None and not _tensor_play(
                link.plan, kept, state, after, action, len(actions)
            ):
                self._kept = None
            for observer in link.observers.values():
                # The play made here: an observer's tracker holding `state` follows it.
                observer._tracker._played(state, after)
        else:
            self._recall = self._kept = None
            free = self._free
            if free is not None and len(free) > 2:
                # A card of a deck dealt one by one, not the last two: the engine's
                # pending state, its order one card longer (the engine checks the
                # whole order when the last card completes it); chance acts next.
                try:
                    free.remove(action)
                except ValueError:  # not a card left: the engine's own refusal below
                    pass
                else:
                    self._dealt.append(action)  # placed in the order when the state is asked for
                    self._length += 1
                    return
            self._chance(state, free, action)
        self._length += 1

    def _chance(self, state: GameState, free: list[int] | None, action: int) -> None:
        """A chance action off the quick path: the last cards of an order, or the engine's."""
        if free is not None and len(free) == 2 and action in free and state.phase in _DEALING:
            # The last free card is forced: the deck's whole order, as the engine
            # deals it (a Deal beginning with the cards placed so far).
            self._deal(state, free, action)
            return
        now = self._now()
        assert now is not None  # for mypy: the first dealer is drawn
        _check_chance(action)
        after = apply(now, _DEAL_CARDS[action])
        if now.phase in _DEALING and after.phase not in _DEALING:  # the round is dealt
            self._round_start = self._length - len(now.dealing)
            self._round_base = attrs.evolve(now, dealing=())
        if free is not None:
            if after.phase is now.phase and len(after.dealing) == len(now.dealing) + 1:
                free.remove(action)  # one more card of the order placed
            else:
                self._free = None
        self._set_state(after)

    def _deal(self, state: GameState, free: list[int], card: int) -> None:
        """Deal the round: the cards placed one by one, `card`, then the one left in `free`."""
        dealt = self._dealt
        last = free[1] if free[0] == card else free[0]
        order = (*state.dealing, *[DECK[i] for i in dealt], DECK[card], DECK[last])
        self._round_start = self._length - len(state.dealing) - len(dealt)
        self._round_base = attrs.evolve(state, dealing=()) if state.dealing else state
        self._dealt = []
        self._free = None
        self._set_state(apply(state, Deal(deck=order)))

    def _recall_play(self, before: GameState, after: GameState, action: int) -> None:
        """Add one play to the kept recall blocks (a pile game without face-down cards)."""
        recall = self._recall
        assert recall is not None  # for mypy: the caller checked
        if after.phase is not Phase.PLAY:  # the round's end: its results, made whole
            self._recall = None
            return
        at = self._link.recall_at
        recall[at["plays"] + len(self._round_actions) - 1] = (action + 1.0) / (at["actions"] + 1)
        takes = after.takes
        new = len(takes) - len(before.takes)
        slots = _SLOT * _SLOT
        if not new:  # the card laid on the pile, its last item
            card = after.table[-1].index  # type: ignore[union-attr]  # a pile holds cards
            recall[at["table_order"] + card] = ((len(after.table) - 1) * _SLOT + 1) / slots
            return
        table = at["table_order"]
        recall[table : table + len(DECK)] = 0.0
        for k in range(len(takes) - new, len(takes)):
            take = takes[k]
            for i, card in enumerate(take.cards):
                recall[at["take_order"] + card.index] = (k * _SLOT + i + 1) / slots
            recall[at["take_kinds"] + k] = _TAKE_KINDS[take.xeri]

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._state
        if player == _CHANCE:
            if state is None:
                return f"first dealer: seat {action}"
            return f"deal {DECK[action]}" if 0 <= action < len(DECK) else f"chance {action}"
        if state is not None and state.to_move == player:
            try:
                return f"{_move_text(action_to_move(state, action))}"
            except XeriError:
                pass
        return f"action {action}"

    def returns(self) -> list[float]:
        """Each seat's return: 0 until the episode is over (see the module docstring)."""
        state = self._state
        seats = self._rules.seats
        if state is None or not self.is_terminal():
            return [0.0] * seats
        if self._episode == "match":
            return list(state.returns)
        total = state.round_results[-1].total
        sides = range(self._rules.num_sides)
        margin = [float(total[s] - max(total[o] for o in sides if o != s)) for s in sides]
        return [margin[side] for side in self._rules.sides]

    def __str__(self) -> str:
        """The whole state as text, every hidden card included (for people, not players)."""
        state = self._now()
        if state is None:
            return f"{self._rules.name}: the first dealer is not drawn yet"
        number = len(state.round_results) + (not state.is_round_over)
        head = f"{self._rules.name} round {number} | {state.phase.value}"
        lines = [
            f"{head} | dealer {state.dealer} | to move {_seat(state.to_move)}",
            "hands " + " / ".join(_cards(hand) for hand in state.hands),
            "table " + _items(state.table),
            "stock " + _cards(state.stock),
            "dealing " + _cards(state.dealing),
            "bottom " + (str(state.bottom_card) if state.bottom_card else "-"),
            "redealt " + " / ".join(_cards(table) for table in state.redealt),
            "plays " + " ".join(_move_text(move) for move in state.history),
            "takes "
            + " ".join(_take_text(t.seat, t.cards, 0, t.xeri, t.turn) for t in state.takes),
            "results " + _results(state),
        ]
        return "\n".join(lines)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> XeriState:  # noqa: ANN401  # an OpenSpiel sampler
        """A state `player_id` cannot tell from this one, drawn uniformly, with its own history.

        The hidden cards are drawn by [`determinize`][xeri.determinize]. The
        history is this state's up to the current round (earlier rounds
        change nothing to come), then actions that lead to the drawn state:
        the round's deal and redeals card by card, with the order of cards
        nothing reveals made up, and its plays; in the middle of a deal, as
        many further cards as this state has, drawn at random.

        Args:
            player_id: the player whose information state is kept.
            probability_sampler: a callable returning floats in [0, 1), such as
                `pyspiel.UniformProbabilitySampler`; it seeds the draw.

        Returns:
            A new state with the same information state for `player_id`.

        Raises:
            IllegalMoveError: `player_id` is not a player.
        """
        game = self.get_game()
        new: XeriState = game.new_initial_state()
        state = self._now()
        if state is None:
            return new
        rng = random.Random(int(probability_sampler() * 2**53))
        drawn = determinize(observe(state, player_id), rng)
        players = [item.player for item in self.full_history()]
        actions = self.history()
        base = self._round_base
        moves: list[tuple[GameState, DealCard | PlayerMove]] = []
        if state.phase is Phase.DEAL or base is None:  # the first deal: only the dealer is known
            keep = self._length - len(state.dealing)
        else:
            keep = self._round_start
            moves = _round_moves(drawn, base)
        players, actions = players[:keep], actions[:keep]
        for before, move in moves:
            if isinstance(move, DealCard):
                players.append(_CHANCE)
                actions.append(move.card.index)
            else:
                players.append(before.to_move)
                actions.append(move_to_action(before, move))
        current = drawn
        for _ in state.dealing:  # the pending order: as many cards, drawn at random
            outcomes = chance_outcomes(current)
            move = outcomes[rng.randrange(len(outcomes))][0]
            players.append(_CHANCE)
            actions.append(move.card.index)
            current = apply(current, move)
        new._replay = players
        try:
            for action in actions:
                new.apply_action(action)
        finally:
            new._replay = None
        new._set_state(current)
        if moves:
            new._round_start = keep
            new._round_base = base
            new._round_actions = [
                a
                for (before, move), a in zip(moves, actions[keep:], strict=False)
                if not isinstance(move, DealCard)
            ]
        else:
            new._round_actions = list(self._round_actions)
        return new

    def _keep_tensor(self, player: int) -> list[float] | None:
        """Make the players' information-state tensors whole and keep them; None if not kept.

        Kept in a pile game without face-down cards while a round is played:
        each play then writes its own entries (`_tensor_play`). Every
        player's tensor is made at once (each player asks in turn, and one
        made now costs less than one made cold at its turn), `player`'s
        returned.
        """
        plan = self._link.plan
        state = self._state
        if plan is None or state is None or state.phase is not Phase.PLAY:
            return None
        shared = _recall_list(plan, self, state)  # the same for every player (its floats shared)
        kept = self._kept
        if kept is None:
            kept = self._kept = _Kept()
        lists = kept.lists
        tracker = plan.tracker
        for seat in range(self._rules.seats):
            if seat not in lists:
                lists[seat] = tracker.observe(state, seat).tolist() + shared
        return lists[player]

    def round_actions(self) -> list[int]:
        """The players' actions of the current round (the last finished one between rounds).

        Returns:
            One action per play of the state's round history, in order.
        """
        state = self._now()
        plays = 0 if state is None else len(state.history)
        actions = self._round_actions
        if not plays:  # a new round is dealt, or the first is not yet
            return []
        if len(actions) != plays:  # not expected: rebuilt from the moves, slowly
            assert state is not None  # for mypy: a state has plays
            actions = self._round_actions = _actions_of(state)
        return actions


def _actions_of(state: GameState) -> list[int]:
    """The actions of the round's plays when the state did not see them played (pile games)."""
    if not state.rules.capture.pile:
        raise IllegalMoveError("the actions of this round's plays were not recorded")
    return [move.card.index for move in state.history]


def _check_chance(action: int) -> None:
    """Refuse a chance action that is not a card's index (a negative one counts from the end)."""
    if not 0 <= action < len(DECK):
        raise IllegalMoveError(
            f"a chance action is a card's index from 0 to {len(DECK) - 1}, not {action}"
        )


def _serialized(state: XeriState) -> str:
    """`XeriState.serialize`: the game record of the state's history, as JSON."""
    actions = state.history()
    if not actions:
        return ""
    rules = state._rules
    current = start(rules, dealer=actions[0])
    moves: list[Move] = []
    for action in actions[1:]:
        if current.to_move is None:
            move: Move = _DEAL_CARDS[action]
        else:
            move = action_to_move(current, action)
        moves.append(move)
        current = apply(current, move)
    return to_json(GameRecord(rules=rules, dealer=actions[0], moves=tuple(moves)))


def _deserialized(game: XeriGame, text: str) -> XeriState:
    """`XeriGame.deserialize_state`: a record read, checked and applied as actions."""
    new = game.new_initial_state()
    if type(text) is not str:
        raise InvalidStateError(f"a serialized state is a str, not {type(text).__name__}")
    if text == "":
        return new
    try:
        record = from_json(text, GameRecord)
    except InvalidStateError as exc:
        raise InvalidStateError(f"not a serialized {GAME_NAME} state: {exc}") from None
    if record.rules != game.rules:
        raise InvalidStateError(
            f"the serialized state is of the rule set {record.rules.name!r}, not of this"
            f" game's {game.rules.name!r}"
        )
    try:
        _apply_record(new, record)
    except IllegalMoveError as exc:
        raise InvalidStateError(f"the serialized state does not replay here: {exc}") from None
    return new


def _apply_record(new: XeriState, record: GameRecord) -> None:
    """Apply a record's first dealer and moves to a new state, as actions."""
    new.apply_action(record.dealer)
    for i, move in enumerate(record.moves):
        current = new.game_state
        if new.is_terminal():
            raise InvalidStateError(
                f"the serialized state goes on after the episode ends (move {i})"
            )
        if isinstance(move, DealCard):
            action = move.card.index
        elif isinstance(move, (Deal, Reshuffle)):
            raise InvalidStateError(
                f"move {i} of the serialized state deals a whole deck: {GAME_NAME} deals card"
                " by card"
            )
        else:
            action = move_to_action(current, move)  # type: ignore[arg-type]  # dealt: not None
        new.apply_action(action)


def _seat(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(map(str, cards)) or "-"


def _item(item: TableItem) -> str:
    if isinstance(item, Build):
        return f"[{'+'.join(map(str, item.cards))}={item.value}:{item.owner}]"
    return str(item)


def _items(items: tuple[TableItem, ...]) -> str:
    return " ".join(map(_item, items)) or "-"


def _move_text(move: Move) -> str:
    """A move with builds shown with their owners, so that the text names the move."""
    if isinstance(move, Capture):
        return f"{move.card} takes {'+'.join(map(_item, move.taken))}"
    if isinstance(move, Combine):
        items = "+".join(map(_item, (move.onto, *move.also)))
        return f"{move.card} on {items} makes {move.value}"
    if isinstance(move, Trail):
        return f"{move.card} free"
    return str(move)


def _take_text(
    seat: int, cards: tuple[Card, ...], hidden: int, xeri: XeriKind | None, turn: int | None
) -> str:
    kind = "" if xeri is None else f"!{xeri.value}"
    down = f"+{hidden}" if hidden else ""
    return f"{seat}:{'+'.join(map(str, cards))}{down}{kind}@{_seat(turn)}"


def _results(state: GameState | Observation) -> str:
    return " / ".join(
        f"{r.cards} {r.card_points} {r.majority} {r.xeris} {r.xeri_bonus} {r.total} {r.leftover}"
        for r in state.round_results
    )


_SLOT = 53
"""Indices and positions below 53 are written `(index * 53 + position + 1) / 53**2`.

Distinct pairs give distinct values, every one in (0, 1]."""
_TAKE_KINDS = {None: 1.0 / 3.0, XeriKind.XERI: 2.0 / 3.0, XeriKind.JACK_XERI: 1.0}


def _squash(value: int) -> float:
    """A strictly increasing map of the integers into (0, 1)."""
    return 0.5 + math.atan(value / 25.0) / math.pi


def recall_layout(rules: RuleSet, rounds: int) -> tuple[tuple[str, int, int], ...]:
    """The blocks the perfect-recall tensor adds after the observation's, for `rounds` rounds.

    `plays` (one per play of a round: `(action + 1) / (num_actions + 1)`,
    in order), `table_order` and `take_order` (52 each: where each card
    lies, `(item * 53 + position + 1) / 53**2`, for the table's items and
    the captures seen), `take_kinds` (53: each capture's kind, 1/3
    ordinary, 2/3 xeri, 1 jack xeri), `redealt_order` (each position of
    each redealt table, `(card + 1) / 53`, as many tables as
    `max_chance_nodes_in_history` allows), `dealt` (cards of a pending
    deal / 52) and `results` (the fields of each finished round, squashed
    into (0, 1) by `0.5 + atan(v / 25) / pi`, for `rounds` rounds).

    Args:
        rules: the rule set.
        rounds: the most rounds an episode holds.

    Returns:
        `(name, start, stop)` for each block, starting where the
        observation's tensor stops.
    """
    plays = rules.seats * rules.hand_size * rules.deals_per_round
    per_result = 6 * rules.num_sides + 2
    sizes = [
        ("plays", plays),
        ("table_order", len(DECK)),
        ("take_order", len(DECK)),
        ("take_kinds", _SLOT),
        ("redealt_order", _redeals_allowed(rules) * rules.table_size),
        ("dealt", 1),
        ("results", rounds * per_result),
    ]
    at = observation_shape(rules)[0]
    blocks = []
    for name, size in sizes:
        blocks.append((name, at, at + size))
        at += size
    return tuple(blocks)


def _recall_blocks(rules: RuleSet, rounds: int) -> dict[str, tuple[int, int]]:
    """The blocks of `recall_layout`, placed from the observation's end."""
    size = observation_shape(rules)[0]
    return {name: (at - size, stop - size) for name, at, stop in recall_layout(rules, rounds)}


def _f32(value: float) -> float:
    """`value` as a `float32` tensor holds it (and its `tolist()` gives it back)."""
    return float(np.float32(value))


class _Link:
    """What the states of one game share: the game's observers, where a play writes.

    A state keeps its game's link. OpenSpiel's `clone` deep-copies a Python
    state's attributes: the copy keeps the same link. OpenSpiel's own
    serialization pickles them: the state read back gets the link kept for
    states read back of the same rule set, with observers of its own.
    """

    __slots__ = (
        "deck_outcomes",
        "obs_size",
        "observers",
        "pile",
        "plan",
        "recall_at",
        "rounds",
        "rules",
    )

    def __init__(self, rules: RuleSet, rounds: int) -> None:
        self.rules = rules
        self.rounds = rounds
        self.observers: dict[bool, XeriObserver] = {}
        self.obs_size = observation_shape(rules)[0]
        # Where a play writes in the recall blocks (from the observation's end).
        recall_at = {name: at for name, (at, _) in _recall_blocks(rules, rounds).items()}
        recall_at["actions"] = num_actions(rules)
        self.recall_at = recall_at
        self.pile = rules.capture.__class__ is PileCapture
        follows = self.pile and not rules.face_down
        self.plan = _TensorPlan(rules, rounds) if follows else None
        # The chance outcomes of a whole deck before its first card (the engine's).
        self.deck_outcomes: list[tuple[int, float]] | None = None

    def __copy__(self) -> _Link:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> _Link:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_read_link, (self.rules, self.rounds))


_READ_LINKS: dict[tuple[int, int], _Link] = {}
"""The links of pickled states read back, by `id` of their rule set and rounds."""


def _read_link(rules: RuleSet, rounds: int) -> _Link:
    """The link of a state read back from a pickle: one per rule set and rounds, made once."""
    link = _READ_LINKS.get((id(rules), rounds))
    if link is None or link.rules is not rules:
        if len(_READ_LINKS) >= 64:  # rule sets made on the fly must not pile up
            _READ_LINKS.clear()
        link = _READ_LINKS[id(rules), rounds] = _Link(rules, rounds)
    return link


class _Kept:
    """Each player's information-state tensor as a list, kept by a state from play to play.

    OpenSpiel's `clone` (and `child`) deep-copies a Python state's
    attributes: the copy shares the lists and neither state owns them any
    more, so each copies them before its first write. Pickled (OpenSpiel's
    own serialization) nothing is kept: the state read back makes its
    tensors whole.
    """

    __slots__ = ("lists", "owned")

    def __init__(self) -> None:
        self.lists: dict[int, list[float]] = {}
        self.owned = True

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kept:
        self.owned = False
        copy = _Kept()
        copy.lists = dict(self.lists)
        copy.owned = False
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Kept, ())


class _TensorPlan:
    """Where a play of a pile game without face-down cards writes in a player's tensor list.

    The information-state tensor of a player is its observation tensor
    (seats and sides counted from it) followed by the recall blocks (the
    same for every player in such a game). The places are read once from
    the layouts, for each player, and the values are those a `float32`
    tensor holds.
    """

    def __init__(self, rules: RuleSet, rounds: int) -> None:
        lay = _layout(rules)
        start = lay.start
        cards = len(DECK)
        seats = rules.seats
        self.sides = rules.sides
        self.hand = start["hand"]
        self.table = start["table"]
        self.top = start["top"]
        self.unknown = start["unknown"]
        self.stock = start["stock"]
        self.table_count = start["table_count"]
        self.lone = start["lone_item"]
        # Per player, by absolute seat or side: the places of the seat-relative blocks.
        self.players: list[tuple[list[int], ...]] = []
        for me in range(seats):
            rel = [(seat - me) % seats for seat in range(seats)]
            rel_side = lay.rel_sides[me]
            self.players.append(
                (
                    [start["played"] + r * cards for r in rel],
                    [start["hand_sizes"] + r for r in rel],
                    [start["to_move"] + r for r in rel],
                    [start["last_capturer"] + r for r in rel],
                    [start["captured"] + r * cards for r in rel_side],
                    [start["captured_counts"] + r for r in rel_side],
                    [start["xeris"] + r for r in rel_side],
                    [start["jack_xeris"] + r for r in rel_side],
                )
            )
        self.trail = [places[:3] for places in self.players]  # what `_trail_into` reads
        size = lay.size
        blocks = _recall_blocks(rules, rounds)
        self.recall_blocks = blocks
        self.recall_size = max(stop for _, stop in blocks.values())
        self.plays = size + blocks["plays"][0]
        self.table_order = size + blocks["table_order"][0]
        self.take_order = size + blocks["take_order"][0]
        self.take_kinds = size + blocks["take_kinds"][0]
        actions = num_actions(rules)
        self.play_value = [_f32((a + 1) / (actions + 1)) for a in range(actions)]
        slots = _SLOT * _SLOT
        self.place = [
            [_f32((k * _SLOT + i + 1) / slots) for i in range(_SLOT)] for k in range(_SLOT)
        ]
        self.kinds = {kind: _f32(value) for kind, value in _TAKE_KINDS.items()}
        self.of_hand = [_f32(n / rules.hand_size) for n in range(rules.hand_size + 1)]
        self.of_deck = [_f32(n / cards) for n in range(cards + 1)]
        self.of_cap = [_f32(min(1.0, n / lay.xeri_cap)) for n in range(cards + 1)]
        self.redealt_value = [_f32((i + 1) / _SLOT) for i in range(cards)]
        # Zeros, each a float object of its own (see `_trail_into`), for the recall lists.
        self.zeros: list[float] = np.zeros(self.recall_size, np.float64).tolist()
        # The observation tensors are made by a tracker of their own (it follows nothing).
        self.tracker = TensorTracker(rules)


def _result_numbers(result: RoundResult) -> tuple[int, ...]:
    """The numbers of an earlier round's result in the tensor's results block, in order."""
    return (
        *result.cards,
        *result.card_points,
        *result.majority,
        *result.xeris,
        *result.xeri_bonus,
        *result.total,
        result.leftover,
        sum(sum(points) for _, points in result.categories),
    )


def _recall_list(plan: _TensorPlan, state: XeriState, game_state: GameState) -> list[float]:
    """The recall blocks as a list, as `_make_recall` writes them (no face-down cards)."""
    values = plan.zeros.copy()
    blocks = plan.recall_blocks
    z = 0.0
    at = blocks["plays"][0]
    for k, action in enumerate(state.round_actions()):
        values[at + k] = plan.play_value[action] + z
    place = plan.place
    at = blocks["table_order"][0]
    for k, item in enumerate(game_state.table):
        values[at + item.index] = place[k][0] + z  # type: ignore[union-attr]  # a pile holds cards
    at = blocks["take_order"][0]
    kinds = blocks["take_kinds"][0]
    for k, take in enumerate(game_state.takes):
        places = place[k]
        for i, card in enumerate(take.cards):
            values[at + card.index] = places[i] + z
        values[kinds + k] = plan.kinds[take.xeri] + z
    at, stop = blocks["redealt_order"]
    for table in game_state.redealt:
        for card in table:
            if at < stop:
                values[at] = plan.redealt_value[card.index] + z
                at += 1
    values[blocks["dealt"][0]] = plan.of_deck[len(game_state.dealing)] + z
    at, stop = blocks["results"]
    for result in game_state.round_results:
        for value in _result_numbers(result):
            if at < stop:
                values[at] = _f32(_squash(value))
                at += 1
    return values


def _tensor_play(  # noqa: PLR0917  # internal, one call site on the hot path
    plan: _TensorPlan | None,
    kept: _Kept,
    before: GameState,
    after: GameState,
    action: int,
    plays: int,
) -> bool:
    """Write one play of a pile game into every kept tensor list; False when it cannot.

    The play is `action` (its card's index), from `before` to `after`, the
    round's `plays`-th. A play that ends the round, deals again under
    another dealer, changes the bottom card shown or takes twice is not
    followed: the caller drops the lists, made whole when next asked for.
    What is written is what every player sees: the card played, the table,
    the capture, the hand sizes, and each player's own new hand (G8).
    """
    if (
        plan is None
        or after.phase is not Phase.PLAY
        or after.dealer != before.dealer
        or after.bottom_card is not before.bottom_card
    ):
        return False
    takes = after.takes
    if len(takes) - len(before.takes) > 1:
        return False
    lists = kept.lists
    if not kept.owned:  # shared with a copy: copied before the first write
        for player, values in list(lists.items()):
            lists[player] = values.copy()
        kept.owned = True
    mover: int = before.to_move  # type: ignore[assignment]  # a play: a seat was to move
    following = after.to_move
    table = before.table
    if len(takes) != len(before.takes):
        _take_into(plan, lists, mover, following, table, after, action, plays)
    else:
        _trail_into(plan, lists, mover, following, table, after, action, plays)
    if len(after.stock) != len(before.stock):  # G8: every hand dealt again
        _dealt_into(plan, lists, before, after)
    return True


def _trail_into(  # noqa: PLR0917  # internal, one call site on the hot path
    plan: _TensorPlan,
    lists: dict[int, list[float]],
    mover: int,
    following: int | None,
    table: tuple[TableItem, ...],
    after: GameState,
    card: int,
    plays: int,
) -> None:
    """`_tensor_play` of a card laid on the pile without a new deal: its writes one by one."""
    on_table = len(after.table)
    count = plan.of_deck[on_table]
    lone = 1.0 if on_table == 1 else 0.0
    place = plan.place[on_table - 1][0]
    play = plan.play_value[card]
    size = plan.of_hand[len(after.hands[mover])]
    played_at = plan.plays + plays - 1
    table_at = plan.table + card
    top_at = plan.top + card
    order_at = plan.table_order + card
    count_at = plan.table_count
    lone_at = plan.lone
    old_top = plan.top + table[-1].index if table else -1  # type: ignore[union-attr]  # a pile holds cards
    mine = plan.hand + card
    theirs = plan.unknown + card
    lone_changes = on_table <= 2  # `lone_item` is 0.0 from 2 items on
    # A 0.0 or 1.0 is written as a float object of its own (`1.0 + z`): a list
    # holding one object in many places copies slower (its count is raised once
    # per place, in turn). The other values (`size`, `count`, `place`, `play`)
    # are the plan's, each in few places of a list at a time.
    z = 0.0
    trail = plan.trail
    for player, values in lists.items():
        played, sizes, to_move = trail[player]
        values[played[mover] + card] = 1.0 + z
        values[mine if player == mover else theirs] = z + z
        values[sizes[mover]] = size
        values[to_move[mover]] = z + z
        if following is not None:
            values[to_move[following]] = 1.0 + z
        if old_top >= 0:
            values[old_top] = z + z
        values[table_at] = 1.0 + z
        values[top_at] = 1.0 + z
        values[count_at] = count
        if lone_changes:
            values[lone_at] = lone + z
        values[order_at] = place
        values[played_at] = play


def _side_counts(
    sides: tuple[int, ...], takes: tuple[Take, ...], side: int
) -> tuple[int, int, int]:
    """The cards, xeris and jack xeris a side captured in `takes`."""
    count = xeris = jacks = 0
    for take in takes:
        if sides[take.seat] == side:
            count += len(take.cards)
            if take.xeri is not None:
                xeris += 1
                jacks += take.xeri is XeriKind.JACK_XERI
    return count, xeris, jacks


def _take_into(  # noqa: PLR0917  # internal, one call site on the hot path
    plan: _TensorPlan,
    lists: dict[int, list[float]],
    mover: int,
    following: int | None,
    table: tuple[TableItem, ...],
    after: GameState,
    card: int,
    plays: int,
) -> None:
    """`_tensor_play` of a capture: the pile to the side, its counts and xeris, its order."""
    takes = after.takes
    k = len(takes) - 1
    take = takes[k]
    side = plan.sides[take.seat]
    count, xeris, jacks = _side_counts(plan.sides, takes, side)
    of_cap = plan.of_cap
    counted = plan.of_deck[count]
    made, jack_made = of_cap[xeris], of_cap[jacks]
    # The same places for every player: the pile's table plane and places (cleared),
    # the capture's places and kind, the empty table, the play.
    cleared = [plan.top + table[-1].index]  # type: ignore[union-attr]  # a capture takes a pile
    for item in table:
        i = item.index  # type: ignore[union-attr]  # a pile holds cards
        cleared += (plan.table + i, plan.table_order + i)
    cleared += (plan.table_count, plan.lone)  # the table is empty: 0 items, none lone
    places = plan.place[k]
    taken = [c.index for c in take.cards]
    order_at = [plan.take_order + i for i in taken]
    order = places[: len(taken)]
    kind_at = plan.take_kinds + k
    kind = plan.kinds[take.xeri]
    played_at = plan.plays + plays - 1
    play = plan.play_value[card]
    size = plan.of_hand[len(after.hands[mover])]
    mine = plan.hand + card
    theirs = plan.unknown + card
    seat = take.seat
    previous = takes[k - 1].seat if k else -1  # the last capturer before this one
    z = 0.0  # a 0.0 or 1.0 as a float object of its own, as in `_trail_into`
    for player, values in lists.items():
        played, sizes, to_move, last, captured, counts, xeri_at, jack_at = plan.players[player]
        values[played[mover] + card] = 1.0 + z
        values[mine if player == mover else theirs] = z + z
        values[sizes[mover]] = size
        values[to_move[mover]] = z + z
        if following is not None:
            values[to_move[following]] = 1.0 + z
        for at in cleared:
            values[at] = z + z
        for at, value in zip(order_at, order, strict=True):
            values[at] = value
        values[kind_at] = kind
        values[played_at] = play
        plane = captured[side]
        for i in taken:
            values[plane + i] = 1.0 + z
        values[counts[side]] = counted
        values[xeri_at[side]] = made
        values[jack_at[side]] = jack_made
        if previous >= 0:
            values[last[previous]] = z + z
        values[last[seat]] = 1.0 + z


def _dealt_into(
    plan: _TensorPlan, lists: dict[int, list[float]], before: GameState, after: GameState
) -> None:
    """G8: every hand dealt again: the hand sizes, and each player's own new hand."""
    hands = after.hands
    of_hand = plan.of_hand
    hand_at = plan.hand
    stock = plan.of_deck[len(after.stock)]
    z = 0.0  # fresh float objects, as in `_trail_into`
    for player, values in lists.items():
        values[plan.stock] = stock + z
        sizes = plan.players[player][1]
        for seat, hand in enumerate(hands):
            values[sizes[seat]] = of_hand[len(hand)] + z
        for card in before.hands[player]:
            values[hand_at + card.index] = z + z
        for card in hands[player]:
            values[hand_at + card.index] = 1.0 + z
            values[plan.unknown + card.index] = z + z


def _make_recall(
    tensor: npt.NDArray[np.float32],
    blocks: Mapping[str, tuple[int, int]],
    state: XeriState,
    game_state: GameState,
    player: int,
) -> None:
    """Write the blocks of `recall_layout` whole into `tensor`, the recall part of the tensor.

    `blocks` are the blocks' places in `tensor`.
    """
    rules = state._rules
    tensor[:] = 0.0
    at = blocks["plays"][0]
    actions = state.round_actions()
    if actions:
        plays = (np.array(actions, dtype=np.float32) + 1.0) / (num_actions(rules) + 1)
        tensor[at : at + len(actions)] = plays
    # Without face-down cards a seat sees the table, the takes, the redealt
    # tables and the results as they are.
    seen: Observation | GameState = observe(game_state, player) if rules.face_down else game_state
    takes: tuple[ObservedTake | Take, ...] = seen.takes
    slots = _SLOT * _SLOT
    index: list[int] = []  # where each card's place goes, and the place
    place: list[float] = []
    at = blocks["table_order"][0]
    for k, item in enumerate(seen.table):
        cards = item.cards if isinstance(item, Build) else (item,)
        for i, card in enumerate(cards):
            index.append(at + card.index)
            place.append((k * _SLOT + i + 1) / slots)
    at = blocks["take_order"][0]
    kinds = blocks["take_kinds"][0]
    for k, take in enumerate(takes):
        for i, card in enumerate(take.cards):
            index.append(at + card.index)
            place.append((k * _SLOT + i + 1) / slots)
        index.append(kinds + k)
        place.append(_TAKE_KINDS[take.xeri])
    if index:
        tensor[index] = place
    at, stop = blocks["redealt_order"]
    i = at
    for table in seen.redealt:
        for card in table:
            if i < stop:
                tensor[i] = (card.index + 1) / _SLOT
                i += 1
    tensor[blocks["dealt"][0]] = len(game_state.dealing) / len(DECK)
    at, stop = blocks["results"]
    i = at
    for result in seen.round_results:
        for value in _result_numbers(result):
            if i < stop:
                tensor[i] = _squash(value)
                i += 1


class XeriObserver:
    """Observations and information states of `python_xeri`, as strings and tensors.

    OpenSpiel's observer interface: `set_from(state, player)` fills `tensor`
    (and `dict`, its named blocks, the blocks of
    [`observation_layout`][xeri.observation_layout]);
    `string_from(state, player)` returns the string. Made by
    [`XeriGame.make_py_observer`][xeri.envs.openspiel.XeriGame.make_py_observer].

    With `perfect_recall=True` (the information state: OpenSpiel's
    `information_state_tensor`), the tensor adds the blocks of
    [`recall_layout`][xeri.envs.openspiel.recall_layout] to the
    observation's: the ordered history of what the seat saw in the round
    (its plays, the order of the table and of every capture, the redealt
    tables in turn) and the results of the earlier rounds, so that distinct
    information states give distinct tensors (within the redeals that
    `max_chance_nodes_in_history` allows, see there). With
    `perfect_recall=False` it is the observation tensor alone.

    Attributes:
        tensor: the flat `float32` tensor.
        dict: the blocks of the tensor by name, views of `tensor`.
    """

    def __init__(
        self,
        rules: RuleSet,
        iig_obs_type: Any = None,  # noqa: ANN401  # a pyspiel.IIGObservationType, untyped
        params: Mapping[str, Any] | None = None,
        *,
        rounds: int = 1,
    ) -> None:
        """An observer of one kind.

        Args:
            rules: the rule set of the game.
            iig_obs_type: a `pyspiel.IIGObservationType`; None is a player's
                own observation without perfect recall. Public information
                must be asked for; the private part is the player's own
                (`SINGLE_PLAYER`) or none (`NONE`, a public observation).
            params: observer parameters: none are taken.
            rounds: the most rounds of an episode, for the `results` block.

        Raises:
            ArgumentError: parameters were given, or the kind of
                observation is not one of those.
        """
        if params:
            raise ArgumentError(f"the observer takes no parameters, not {sorted(params)}")
        private = True
        recall = False
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if not iig_obs_type.public_info or kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ArgumentError(
                    "the observer gives a player's own observation or the public one"
                    " (public_info=True, private_info SINGLE_PLAYER or NONE)"
                )
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
            recall = bool(iig_obs_type.perfect_recall)
        self._private = private
        self._recall = recall
        self._rules = rules
        blocks = {name: (start, stop) for name, start, stop in observation_layout(rules)}
        size = observation_shape(rules)[0]
        if recall:
            extra = recall_layout(rules, rounds)
            blocks.update({name: (start, stop) for name, start, stop in extra})
            size = extra[-1][2]
        self._size = size
        self._obs_size = observation_shape(rules)[0]
        self._blocks = blocks
        self._recall_blocks = _recall_blocks(rules, rounds) if recall else {}
        self._actions = num_actions(rules)
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            name: self.tensor[start:stop] for name, (start, stop) in blocks.items()
        }
        self._hand = blocks["hand"]
        self._unknown = blocks["unknown"]
        # A pile game without face-down cards: every seat's recall blocks are the
        # same, kept by each state and grown by each play.
        self._follows = rules.capture.__class__ is PileCapture and not rules.face_down
        # The observation tensors follow the game play by play (read whole
        # when a state does not follow the last one: a clone, a resample).
        self._tracker = TensorTracker(rules)
        # Each player's last tensor and its list (`tensor_list`).
        self._lists: dict[int, tuple[npt.NDArray[np.float32], list[float]]] = {}

    def set_from(self, state: XeriState, player: int) -> None:
        """Fill `tensor` with what `player` sees of `state`.

        Args:
            state: a state of the game.
            player: a player.
        """
        game_state = state.game_state
        tensor = self.tensor
        if game_state is None:
            tensor.fill(0.0)
            return
        # observation_tensor(observe(game_state, player))
        tensor[: self._obs_size] = self._tracker.observe(game_state, player)
        if not self._private:  # the public view: the own hand is among the unknown cards
            start, stop = self._hand
            unknown = self._unknown[0]
            tensor[unknown : unknown + stop - start] += tensor[start:stop]
            tensor[start:stop] = 0.0
        if self._recall:
            self._set_recall(state, game_state, player)

    def tensor_list(self, player: int) -> list[float]:
        """`tensor.tolist()`, quicker: the player's last list with the values that changed.

        The list of the player's last tensor is kept (a copy is returned) and
        only the places where the new tensor differs from the last one are
        written: a tensor is a function of what the player sees, and the kept
        list follows the values written, nothing else, so it is always
        `tensor.tolist()`.

        Args:
            player: the player whose tensor `set_from` just wrote.

        Returns:
            A new list of the tensor's values.
        """
        tensor = self.tensor
        kept = self._lists.get(player)
        if kept is None:
            values: list[float] = tensor.tolist()
            self._lists[player] = (tensor.copy(), values)
            return values.copy()
        last, values = kept
        changed = (tensor != last).nonzero()[0]
        if len(changed) > len(tensor) // 4:  # much changed: made whole
            values[:] = tensor.tolist()
        else:
            for i, value in zip(changed.tolist(), tensor[changed].tolist(), strict=True):
                values[i] = value
        last[:] = tensor
        return values.copy()

    def _set_recall(self, state: XeriState, game_state: GameState, player: int) -> None:
        """The blocks of `recall_layout`: see there; kept by the state from play to play."""
        kept = state._recall
        if kept is not None and len(kept) == self._size - self._obs_size:
            self.tensor[self._obs_size :] = kept
            return
        self._make_recall(state, game_state, player)
        if self._follows and game_state.phase is Phase.PLAY:
            state._recall = self.tensor[self._obs_size :].copy()

    def _make_recall(self, state: XeriState, game_state: GameState, player: int) -> None:
        """The blocks of `recall_layout`, made whole."""
        _make_recall(self.tensor[self._obs_size :], self._recall_blocks, state, game_state, player)

    def string_from(self, state: XeriState, player: int) -> str:
        """What `player` sees of `state`, as one line of text.

        Args:
            state: a state of the game.
            player: a player.

        Returns:
            The observation's fields in a fixed order (see the module docstring).
        """
        game_state = state.game_state
        if game_state is None:
            return f"p{player} | the first dealer is not drawn yet"
        seen = observe(game_state, player)
        head = f"p{player} | {seen.phase.value}"
        parts = [
            f"{head} | dealer {seen.dealer} | to move {_seat(seen.to_move)}",
            "hand " + (_cards(seen.hand) if self._private else "?"),
            "sizes " + " ".join(map(str, seen.hand_sizes)),
            f"stock {seen.stock_size} | down {seen.face_down}",
            "table " + _items(seen.table),
            "plays " + " ".join(_move_text(move) for move in seen.history),
            "takes "
            + " ".join(_take_text(t.seat, t.cards, t.hidden, t.xeri, t.turn) for t in seen.takes),
            "bottom " + (str(seen.bottom_card) if seen.bottom_card else "-"),
            "redealt " + " / ".join(_cards(table) for table in seen.redealt),
            "results " + _results(seen),
        ]
        if game_state.dealing:
            parts.append(f"dealt {len(game_state.dealing)}")
        return " | ".join(parts)


def seeded_resampler(seed: int) -> Any:  # noqa: ANN401  # OpenSpiel's resampler callback, untyped
    """A resampler for OpenSpiel's `ISMCTSBot.set_resampler` that draws from a seeded generator.

    OpenSpiel's Python `ISMCTSBot` resamples with an unseeded
    `pyspiel.UniformProbabilitySampler` unless it is given a resampler;
    with this one its searches replay exactly for the same seed.

    Args:
        seed: the seed of the generator the resampler draws from.

    Returns:
        A callable `(state, player) -> state`, as `set_resampler` takes it.
    """
    rng = random.Random(seed)

    def resample(state: XeriState, player: int) -> XeriState:
        return state.resample_from_infostate(player, rng.random)

    return resample


class EvaluationBot(pyspiel.Bot):  # type: ignore[misc]  # pyspiel ships no type information
    """Any OpenSpiel bot made fit for `open_spiel.python.algorithms.evaluate_bots`.

    `evaluate_bots` first calls `restart_at(state)` on every bot and then
    `inform_action` after each action; OpenSpiel's C++ bots (the uniform
    random bot) and its Python `ISMCTSBot` raise `RestartAt(state) not
    implemented`. This adapter forwards `step` (and `inform_action`, when
    the bot has it) and restarts by doing nothing: the bots it is meant for
    decide from the state they are given, keeping no history.

    Args:
        bot: the bot to wrap.
    """

    def __init__(self, bot: Any) -> None:  # noqa: ANN401  # an OpenSpiel bot, untyped
        super().__init__()
        self.bot = bot

    def step(self, state: XeriState) -> int:
        """The wrapped bot's action.

        Args:
            state: the state, at the bot's turn.

        Returns:
            An action.
        """
        return int(self.bot.step(state))

    def restart_at(self, state: XeriState) -> None:
        """Start again from `state`: nothing to do for a bot that keeps no history."""

    def inform_action(self, state: XeriState, player_id: int, action: int) -> None:
        """Pass the action on to the wrapped bot when it listens (its errors included)."""
        inform = getattr(self.bot, "inform_action", None)
        if inform is not None and not isinstance(self.bot, pyspiel.Bot):
            inform(state, player_id, action)


if GAME_NAME not in pyspiel.registered_names():  # importing twice registers once
    pyspiel.register_game(_game_type(pyspiel.GameType.Utility.ZERO_SUM), XeriGame)

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
[`Deal`][xeri.Deal], with the same distribution ([`xeri._core.chance`][xeri._core.chance]).

**Actions.** A player's actions are the integer actions of
[`xeri._agents.actions`][xeri._agents.actions]: `num_distinct_actions()` is
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

**Information.** The game has imperfect information. The information state
of a player is its seat's [`Observation`][xeri.Observation] ([X2][rules-x2]):
as a string, every field of it (and, in the middle of a deal, how many
cards have been dealt; never which); as a tensor,
[`observation_tensor`][xeri.observation_tensor], of the length
[`observation_shape`][xeri.observation_shape] gives, one named block per
block of [`observation_layout`][xeri._agents.features.observation_layout]. An
observation keeps the whole current round (perfect recall within it) and
only the results of earlier rounds, which is all that the rest of a match
depends on. The observation string and tensor are the same as the
information state's. [`XeriObserver`][xeri.envs.openspiel.XeriObserver] is
also made for public observations (`PrivateInfoType.NONE`): without the own
hand, whose cards are then counted among the unknown ones.

**Resampling.**
[`resample_from_infostate`][xeri.envs.openspiel.XeriState.resample_from_infostate]
draws, with [`determinize`][xeri.determinize], a state the player could not
tell from this one, uniformly, with a history of actions that leads to it,
as OpenSpiel's Python `ISMCTSBot` asks.

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

import random
from collections.abc import Mapping
from typing import Any

import attrs

from xeri._agents.actions import action_to_move, legal_actions, move_to_action, num_actions
from xeri._agents.features import observation_layout, observation_shape, observation_tensor
from xeri._agents.observation import Observation, observe
from xeri._agents.sampling import determinize
from xeri._cards import DECK, Card
from xeri._core.chance import _round_moves, chance_outcomes
from xeri._core.engine import apply, start
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, RuleSetError, XeriError, _show
from xeri._families.protocol import XeriKind
from xeri._moves import Capture, Combine, DealCard, Move, PlayerMove, Trail
from xeri._rules.match import FixedRounds
from xeri._rules.ruleset import RuleSet, find_rules
from xeri._table import Build, TableItem

try:
    import numpy as np
    import numpy.typing as npt
    import pyspiel
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        'xeri.envs.openspiel needs the openspiel extra: pip install "xeri[openspiel]"'
    ) from exc

__all__ = ["GAME_NAME", "XeriGame", "XeriObserver", "XeriState"]

GAME_NAME = "python_xeri"
"""The short name under which the game is registered with OpenSpiel."""

_PARAMETERS: dict[str, str | int] = {"rules": "greek", "episode": "round", "max_rounds": 100}
_EPISODES = ("round", "match")
_MAX_SEATS = 8
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
_DEALING = (Phase.DEAL, Phase.ROUND_OVER)
_DEAL_CARDS = tuple(DealCard(card=card) for card in DECK)


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
        return XeriObserver(self.rules, iig_obs_type, params)


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

    @property
    def game_state(self) -> GameState | None:
        """The state of the match, every card in it; None before the first dealer is drawn."""
        return self._state

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance or terminal player id."""
        replay = self._replay
        if replay is not None:
            return replay[self._length]
        state = self._state
        if state is None:
            return _CHANCE
        seat = state.to_move
        if seat is not None:
            return seat
        return _TERMINAL if self._over(state) else _CHANCE

    def _over(self, state: GameState) -> bool:
        if state.phase is Phase.MATCH_OVER:
            return True
        if state.phase is not Phase.ROUND_OVER:
            return False
        return self._episode == "round" or len(state.round_results) >= self._max_rounds

    def is_terminal(self) -> bool:
        """True when the episode is over: see the module docstring."""
        state = self._state
        return state is not None and state.to_move is None and self._over(state)

    def _legal_actions(self, player: int) -> list[int]:
        """The legal actions of the player to move (OpenSpiel asks only for that one)."""
        state = self._state
        if state is None or state.to_move != player:
            return []
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
        return [(move.card.index, p) for move, p in chance_outcomes(state)]

    def _apply_action(self, action: int) -> None:
        if self._replay is not None:  # copying a history: `_state` is set afterwards
            self._length += 1
            return
        state = self._state
        if state is None:
            self._state = start(self._rules, dealer=action)
        elif state.to_move is not None:
            self._state = apply(state, action_to_move(state, action))
        else:
            after = apply(state, _DEAL_CARDS[action])
            if state.phase in _DEALING and after.phase not in _DEALING:  # the round is dealt
                self._round_start = self._length - len(state.dealing)
                self._round_base = attrs.evolve(state, dealing=())
            self._state = after
        self._length += 1

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
        state = self._state
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
        state = self._state
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
        new._state = current
        if moves:
            new._round_start = keep
            new._round_base = base
        return new


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


class XeriObserver:
    """Observations and information states of `python_xeri`, as strings and tensors.

    OpenSpiel's observer interface: `set_from(state, player)` fills `tensor`
    (and `dict`, its named blocks, the blocks of
    [`observation_layout`][xeri._agents.features.observation_layout]);
    `string_from(state, player)` returns the string. Made by
    [`XeriGame.make_py_observer`][xeri.envs.openspiel.XeriGame.make_py_observer].

    Attributes:
        tensor: the flat `float32` tensor, of the length
            [`observation_shape`][xeri.observation_shape] gives.
        dict: the blocks of the tensor by name, views of `tensor`.
    """

    def __init__(
        self,
        rules: RuleSet,
        iig_obs_type: Any = None,  # noqa: ANN401  # a pyspiel.IIGObservationType, untyped
        params: Mapping[str, Any] | None = None,
    ) -> None:
        """An observer of one kind.

        Args:
            rules: the rule set of the game.
            iig_obs_type: a `pyspiel.IIGObservationType`; None is a player's
                own observation. Public information must be asked for; the
                private part is the player's own (`SINGLE_PLAYER`) or none
                (`NONE`, a public observation). Perfect recall or not, the
                observation keeps the current round.
            params: observer parameters: none are taken.

        Raises:
            ArgumentError: parameters were given, or the kind of
                observation is not one of those.
        """
        if params:
            raise ArgumentError(f"the observer takes no parameters, not {sorted(params)}")
        private = True
        if iig_obs_type is not None:
            kind = iig_obs_type.private_info
            if not iig_obs_type.public_info or kind == pyspiel.PrivateInfoType.ALL_PLAYERS:
                raise ArgumentError(
                    "the observer gives a player's own observation or the public one"
                    " (public_info=True, private_info SINGLE_PLAYER or NONE)"
                )
            private = kind == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self._private = private
        self.tensor: npt.NDArray[np.float32] = np.zeros(observation_shape(rules), np.float32)
        blocks = {name: (start, stop) for name, start, stop in observation_layout(rules)}
        self.dict: dict[str, npt.NDArray[np.float32]] = {
            name: self.tensor[start:stop] for name, (start, stop) in blocks.items()
        }
        self._hand = blocks["hand"]
        self._unknown = blocks["unknown"]

    def set_from(self, state: XeriState, player: int) -> None:
        """Fill `tensor` with what `player` sees of `state`.

        Args:
            state: a state of the game.
            player: a player.
        """
        game_state = state._state
        if game_state is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = observation_tensor(observe(game_state, player))
        if not self._private:  # the public view: the own hand is among the unknown cards
            start, stop = self._hand
            unknown = self._unknown[0]
            for i in np.flatnonzero(self.tensor[start:stop]):
                self.tensor[unknown + i] = 1.0
            self.tensor[start:stop] = 0.0

    def string_from(self, state: XeriState, player: int) -> str:
        """What `player` sees of `state`, as one line of text.

        Args:
            state: a state of the game.
            player: a player.

        Returns:
            The observation's fields in a fixed order (see the module docstring).
        """
        game_state = state._state
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


if GAME_NAME not in pyspiel.registered_names():  # importing twice registers once
    pyspiel.register_game(_game_type(pyspiel.GameType.Utility.ZERO_SUM), XeriGame)

"""Xeri as a PettingZoo AEC environment, for multi-agent reinforcement learning.

Needs the `pettingzoo` extra (`pip install "xeri[pettingzoo]"`: PettingZoo,
Gymnasium and NumPy); importing this module without them raises an
`ImportError` naming the extra.

[`env`][xeri.envs.pettingzoo.env] makes the environment as PettingZoo's own
games are made, wrapped in PettingZoo's standard wrappers;
[`raw_env`][xeri.envs.pettingzoo.raw_env] makes the bare
[`XeriEnv`][xeri.envs.pettingzoo.XeriEnv]. Any rule set whose capture rule
has an action encoding works: [`GREEK`][xeri.GREEK],
[`GREEK_FOUR`][xeri.GREEK_FOUR], [`GERMAN`][xeri.GERMAN], [`PISTI`][xeri.PISTI],
[`SCOPA`][xeri.SCOPA] and custom ones (see [`num_actions`][xeri.num_actions];
Cassino's builds have no encoding yet).

**Agents.** One agent per seat, `"player_0"` to `"player_{seats - 1}"`,
agent `player_i` playing seat `i`. The agent to act is the seat to move
([G5][rules-g5]); chance (the deals and any redeal of the initial table) is
played inside the environment with a `random.Random` seeded by
`reset(seed=...)`, so a seed fixes the cards and the dealer
([G2][rules-g2]). `reset()` without a seed continues the generator of the
last reset (a fresh one, from the system's entropy, on the first).

**Spaces.** Every agent has the same spaces. The action space is
`Discrete(num_actions(rules))`, the integer actions of
[integer actions][integer-actions] (52 in pile games, 18,308 in German Xeri).
An observation is a dict:

- `observation`: the [`observation_tensor`][xeri.observation_tensor] of the
  agent's [`observe`][xeri.observe], a `float32` array of shape
  [`observation_shape`][xeri.observation_shape], every value in [0, 1]
  (built by a [`TensorTracker`][xeri.envs.arrays.TensorTracker], which
  follows the game play by play);
- `action_mask`: an `int8` array of `num_actions(rules)` entries, 1 at the
  legal actions of the agent to act; all 0 for every other agent, and once
  the episode is over.

The observation holds only what the seat may see ([X2][rules-x2]).
`env.action_space(agent).sample(observation["action_mask"])` draws a legal
action.

**Episodes and rewards.** Partners share their rewards: every reward is a
side's, given to each of its seats.

- `episode="match"` (the default): an episode is a whole match, from the
  first deal to its end ([F8][rules-f8]). The reward is 0 on every step
  before the end, then [`returns`][xeri.MatchFacts.returns]: +1 to every
  seat of the winning side, -1 to every other seat, 0 to all on a drawn
  match.
- `episode="round"`: an episode is the first round of a new match, ending
  when the round is scored ([G9][rules-g9]). The reward at the end is the
  seat's side's round total ([`round_points`][xeri.MatchFacts.round_points])
  minus the best round total among the other sides, in points: with two
  sides the rewards add up to zero. It is 0 before the end.

An episode ends by termination; it is never truncated (a round is at most
52 plays).

**Illegal actions.** [`XeriEnv.step`][xeri.envs.pettingzoo.XeriEnv.step]
raises [`IllegalMoveError`][xeri.IllegalMoveError] on an illegal action and
leaves the game as it was. The environment of
[`env`][xeri.envs.pettingzoo.env] applies PettingZoo's standard
`TerminateIllegalWrapper` instead: an illegal action ends the episode, the
agent that chose it gets `illegal_reward` and every other agent 0 (the one
reward a partner does not share).

**Rendering.** `render_mode="ansi"`: [`render`][xeri.envs.pettingzoo.XeriEnv.render]
returns the whole state as text (every hand shown: it is a view for people,
not for the agents); `"human"`: prints that text after every step and on
each call of `render`.

Examples:
    >>> import xeri
    >>> from xeri.envs.pettingzoo import env
    >>> game = env(rules=xeri.GREEK, episode="round")
    >>> game.reset(seed=1)
    >>> for agent in game.agent_iter():
    ...     observation, reward, termination, truncation, info = game.last()
    ...     if termination or truncation:
    ...         action = None
    ...     else:
    ...         action = game.action_space(agent).sample(observation["action_mask"])
    ...     game.step(action)
    >>> game.agents
    []
"""

from __future__ import annotations

import math
import operator
import random
from typing import Any, Literal

from xeri._agents.actions import action_to_move, num_actions
from xeri._agents.features import observation_shape
from xeri._cards import DECK
from xeri._core.engine import apply, chance_move, new_game
from xeri._core.state import GameState, Phase
from xeri._errors import ArgumentError, IllegalMoveError, _show
from xeri._families.pile.rule import PileCapture
from xeri._rules.ruleset import GREEK, RuleSet

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers

    from xeri.envs.arrays import TensorTracker, _mask
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        'xeri.envs.pettingzoo needs the pettingzoo extra: pip install "xeri[pettingzoo]"'
    ) from exc

__all__ = ["XeriEnv", "env", "raw_env"]

Episode = Literal["match", "round"]
RenderMode = Literal["ansi", "human"]
Obs = dict[str, npt.NDArray[Any]]

_EPISODES = ("match", "round")
_RENDER_MODES = ("ansi", "human")
_CARDS = 52
_PLAY = Phase.PLAY


def _action_index(action: object) -> int:
    """An action as an int: ints and NumPy integers; bools, None and the rest refused."""
    if isinstance(action, (bool, np.bool_)):
        raise ArgumentError(f"an action is an int, not the bool {action}")
    try:
        return operator.index(action)  # type: ignore[arg-type]  # anything else raises
    except TypeError:
        raise ArgumentError(f"an action is an int, not {type(action).__name__}") from None


def _seed(seed: object) -> int | None:
    """A seed for `random.Random`: an int, whatever integer type was given."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)):
        raise IllegalMoveError(f"a seed is an int, not the bool {seed}")
    if isinstance(seed, (float, np.floating)):
        if not (math.isfinite(seed) and float(seed).is_integer()):
            raise IllegalMoveError(f"a seed is an int, not the float {seed!r}")
        return int(seed)
    try:
        return operator.index(seed)  # type: ignore[arg-type]  # anything else raises
    except TypeError:
        raise IllegalMoveError(f"a seed is an int, not a {type(seed).__name__}") from None


class XeriEnv(AECEnv):  # type: ignore[misc]  # pettingzoo ships no type information
    """A match (or a round) of Xeri as a PettingZoo AEC environment; see the module docstring.

    Make one with [`raw_env`][xeri.envs.pettingzoo.raw_env] (bare) or
    [`env`][xeri.envs.pettingzoo.env] (wrapped), and call `reset` before
    anything else.

    Attributes:
        rules: the rule set played.
        episode: `"match"` or `"round"`, what an episode is.
        render_mode: `"ansi"`, `"human"` or None.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012  # PettingZoo reads it as a class attribute
        "render_modes": list(_RENDER_MODES),
        "name": "xeri_v0",
        "is_parallelizable": False,
    }

    possible_agents: list[str]
    agents: list[str]
    agent_selection: str
    rewards: dict[str, float]
    _cumulative_rewards: dict[str, float]
    terminations: dict[str, bool]
    truncations: dict[str, bool]
    infos: dict[str, dict[str, Any]]
    observation_spaces: dict[str, spaces.Dict]
    action_spaces: dict[str, spaces.Discrete]

    def __init__(
        self,
        *,
        rules: RuleSet = GREEK,
        render_mode: RenderMode | None = None,
        episode: Episode = "match",
    ) -> None:
        super().__init__()
        actions = num_actions(rules)  # refuses a rule set without an action encoding
        if episode not in _EPISODES:
            raise ArgumentError(f"episode must be 'match' or 'round', not {_show(episode)}")
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ArgumentError(
                f"render_mode must be 'ansi', 'human' or None, not {_show(render_mode)}"
            )
        self.rules: RuleSet = rules
        self.episode: Episode = episode
        self.render_mode: RenderMode | None = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(rules.seats)]
        self.agents = []
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Box(0.0, 1.0, observation_shape(rules), dtype=np.float32)
        mask = spaces.Box(0, 1, (actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self._actions = actions
        self._tracker = TensorTracker(rules)
        self._follow = self._tracker._follow  # the tracker follows the plays of the rule set
        self._pile = rules.capture.__class__ is PileCapture
        self._rng: random.Random | None = None
        self._state: GameState | None = None
        # An episode is being played and no agent's is over: `terminations` is
        # still the dict `reset` made (a wrapper that ends an episode replaces it).
        self._live = False
        self._running: dict[str, bool] | None = None

    @property
    def game_state(self) -> GameState:
        """The current state of the game (every card in it: not for the agents).

        Raises:
            IllegalMoveError: `reset` has not been called.
        """
        if self._state is None:
            raise IllegalMoveError("the environment has no game yet: call reset first")
        return self._state

    def observation_space(self, agent: str) -> spaces.Dict:
        """The observation space of an agent: the same object on every call.

        Args:
            agent: an agent of `possible_agents`.

        Returns:
            A `Dict` space of `observation` (float32) and `action_mask` (int8).
        """
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        """The action space of an agent: the same object on every call.

        Args:
            agent: an agent of `possible_agents`.

        Returns:
            `Discrete(num_actions(rules))`.
        """
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode: deal a new match, the dealer drawn at random ([G2][rules-g2]).

        Args:
            seed: seeds the generator of every chance move of the episode
                (and the next ones reset without a seed): an int or a NumPy
                integer (a float that is a whole number is taken as that
                int); None continues the current generator.
            options: accepted for the PettingZoo API, and ignored.

        Raises:
            IllegalMoveError: `seed` is a bool, a float that is not a whole
                number (NaN and the infinities among them, which would deal
                differently each time), or another type.
        """
        if seed is not None or self._rng is None:
            self._rng = random.Random(_seed(seed))
        state = new_game(self.rules, rng=self._rng)
        self._state = state
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_move(state)
        self._live = True
        self._running = self.terminations
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> Obs:
        """What an agent sees now, and its legal actions.

        Args:
            agent: an agent of `possible_agents`.

        Returns:
            `{"observation": ..., "action_mask": ...}`, as the module
            docstring describes.

        Raises:
            IllegalMoveError: `reset` has not been called.
        """
        state = self._state
        if state is None:
            raise IllegalMoveError("the environment has no game yet: call reset first")
        seat = self._seats[agent]
        tracker = self._tracker
        if state is tracker._state and self._follow:  # the state the tracker follows
            tensor = tracker._array[tracker._gathers[seat]]  # a gather
            if (
                state.to_move == seat
                and agent == self.agent_selection
                and self._live
                and self.terminations is self._running
            ):
                return {"observation": tensor, "action_mask": tracker._hands8[seat].copy()}
        else:
            tensor = tracker.observe(state, seat)  # observation_tensor(observe(state, seat))
        live = self._live and self.terminations is self._running
        if live and state.to_move == seat and agent == self.agent_selection:
            # In a pile game the legal actions are the cards of the hand, the tensor's first block.
            mask = tensor[:52].astype(np.int8) if self._pile else _mask(state, seat)
        else:
            mask = np.zeros(self._actions, dtype=np.int8)
        return {"observation": tensor, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Obs | None, float, bool, bool, dict[str, Any]]:  # noqa: FBT001, FBT002  # PettingZoo's signature
        """The observation, cumulative reward, termination, truncation and info of the agent to act.

        Args:
            observe: False to leave the observation out (None).

        Returns:
            `(observation, reward, termination, truncation, info)`, as PettingZoo's `last`.
        """
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """Play the action of the agent to act, then chance's moves until an agent must act.

        Args:
            action: a legal action of the agent to act (an int, or a NumPy
                integer; a bool is refused); None once the agent's episode is
                over, as the PettingZoo API asks (the dead step).

        Raises:
            IllegalMoveError: the action is not legal now, is not None for an
                agent whose episode is over, or `reset` has not been called;
                the game is left as it was. Once every agent has taken its
                dead step, `step` does nothing, as PettingZoo's own
                order-enforcing wrapper does.
        """
        prev = self._state
        if (
            action.__class__ is int
            and self._pile
            and 0 <= action < _CARDS
            and self._live
            and self.terminations is self._running
        ):
            # The hot path: a pile game's action is the card's index.
            try:
                state = apply(prev, DECK[action])  # type: ignore[arg-type]  # a state, an int
            except IllegalMoveError:  # not in the hand: the encoding's own message
                action_to_move(prev, action)  # type: ignore[arg-type]  # a state, an int
                raise
            if state.phase is _PLAY:  # the round goes on: one play, as the tracker follows it
                tracker = self._tracker
                if self._follow and prev is tracker._state:
                    tracker._state = state
                    tracker._play(prev, state)  # type: ignore[arg-type]  # a state
                self._state = state  # no reward before the end: every cumulative reward is 0
                self.agent_selection = self.possible_agents[state.to_move]  # type: ignore[index]  # a seat
                if self.render_mode == "human":
                    self.render()
                return
            self._moved(prev, state)  # type: ignore[arg-type]  # a state
            return
        if self._dead_step(action):
            return
        state = self.game_state
        index = _action_index(action)
        if self._pile and 0 <= index < _CARDS:
            try:
                after = apply(state, DECK[index])
            except IllegalMoveError:  # not in the hand: the encoding's own message
                action_to_move(state, index)
                raise
        else:
            after = apply(state, action_to_move(state, index))
        self._moved(state, after)

    def _moved(self, prev: GameState, state: GameState) -> None:
        """After the play from `prev` to `state`: chance's moves, the episode's end, who acts."""
        agent = self.agent_selection
        over = state.is_round_over if self.episode == "round" else state.is_over
        if not over and state.is_chance:
            rng = self._rng
            while state.is_chance:
                state = apply(state, chance_move(state, rng))
        else:
            self._tracker._played(prev, state)  # one play: the tracker changes only what it changed
        self._state = state
        self._cumulative_rewards[agent] = 0.0
        if over:
            rewards = self._final_rewards(state)
            self.rewards = {a: rewards[self._seats[a]] for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
            self._live = False
            following = (self._seats[agent] + 1) % self.rules.seats
            self.agent_selection = self.possible_agents[following]
            self._accumulate_rewards()
        else:  # the rewards stay 0 before the end: nothing to clear or to add up
            self.agent_selection = self._agent_to_move(state)
        if self.render_mode == "human":
            self.render()

    def _dead_step(self, action: object) -> bool:
        """Take the dead step of an agent whose episode is over; False if the agent plays on."""
        agent = self.agent_selection
        terminations = getattr(self, "terminations", None)
        if terminations is None:
            return False  # not reset: `game_state` says so
        if agent not in terminations:  # every agent has taken its dead step already
            return True
        if not (terminations[agent] or self.truncations[agent]):
            return False
        if action is not None:
            raise IllegalMoveError(
                f"{agent}'s episode is over: its only step is step(None), not {action!r}"
            )
        self._was_dead_step(None)
        return True

    def _agent_to_move(self, state: GameState) -> str:
        seat = state.to_move
        if seat is None:  # not expected: chance has been played
            raise IllegalMoveError("no seat is to move")
        return self.possible_agents[seat]

    def _final_rewards(self, state: GameState) -> tuple[float, ...]:
        """Each seat's reward at the end of an episode: see the module docstring."""
        if self.episode == "match":
            return state.returns
        total = state.round_results[-1].total
        sides = range(self.rules.num_sides)
        margin = [float(total[s] - max(total[o] for o in sides if o != s)) for s in sides]
        return tuple(margin[side] for side in self.rules.sides)

    def render(self) -> str | None:
        """Show the whole state as text, every hand included.

        Returns:
            The text in mode `"ansi"`; None in mode `"human"` (the text is
            printed) and without a render mode (nothing is shown: a warning
            is logged).
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        text = self._text()
        if self.render_mode == "ansi":
            return text
        print(text)  # the "human" render mode prints
        return None

    def _text(self) -> str:
        state = self._state
        if state is None:
            return "no game yet: call reset"
        rules = state.rules
        rounds = len(state.round_results)
        number = rounds if state.is_round_over else rounds + 1
        lines = [
            (
                f"{rules.name}, round {number}, dealer player_{state.dealer}, "
                f"match score {' '.join(map(str, state.scores))}"
            ),
            f"table: {_cards(state.table)}   stock: {len(state.stock)}",
        ]
        for seat, hand in enumerate(state.hands):
            arrow = ">" if seat == state.to_move else " "
            side = "" if rules.num_sides == rules.seats else f" (side {rules.sides[seat]})"
            lines.append(f"{arrow} player_{seat}{side}: {_cards(hand)}")
        if state.history:
            lines.append(f"last play: {state.history[-1]}")
        if state.is_round_over and state.round_results:
            lines.append(f"round points: {' '.join(map(str, state.round_results[-1].total))}")
        if state.phase is Phase.MATCH_OVER:
            winner = state.winner
            lines.append("match drawn" if winner is None else f"match won by side {winner}")
        return "\n".join(lines)

    def close(self) -> None:
        """Release nothing: the environment holds no resources."""


def _cards(cards: tuple[object, ...]) -> str:
    return " ".join(map(str, cards)) or "-"


def raw_env(
    *,
    rules: RuleSet = GREEK,
    render_mode: RenderMode | None = None,
    episode: Episode = "match",
) -> XeriEnv:
    """The bare environment: it raises on an illegal action.

    Args:
        rules: the rule set; its capture rule needs an action encoding.
        render_mode: `"ansi"`, `"human"` or None.
        episode: `"match"` or `"round"` (see the module docstring).

    Returns:
        A new [`XeriEnv`][xeri.envs.pettingzoo.XeriEnv]; call `reset` first.

    Raises:
        ArgumentError: `rules` is not a rule set, or `episode` or `render_mode` is
            not one of those values.
        RuleSetError: `rules` has no action encoding.
    """
    return XeriEnv(rules=rules, render_mode=render_mode, episode=episode)


def env(
    *,
    rules: RuleSet = GREEK,
    render_mode: RenderMode | None = None,
    episode: Episode = "match",
    illegal_reward: float | None = None,
) -> Any:  # noqa: ANN401  # a PettingZoo wrapper, a class without type information
    """The environment in PettingZoo's standard wrappers, as its own games are made.

    The wrappers are `TerminateIllegalWrapper` (an illegal action ends the
    episode), `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper`.

    Args:
        rules: the rule set; its capture rule needs an action encoding.
        render_mode: `"ansi"`, `"human"` or None.
        episode: `"match"` or `"round"` (see the module docstring).
        illegal_reward: the reward of an agent whose action is illegal.
            None gives a reward below every reward of a legal episode: -1.0
            for matches; for rounds, minus the upper bound of
            [`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds]
            and 1 (-1.0 when the scorer has no bound).

    Returns:
        The wrapped environment, an `AECEnv`; `.unwrapped` is the
        [`XeriEnv`][xeri.envs.pettingzoo.XeriEnv].

    Raises:
        ArgumentError: `rules` is not a rule set, or `episode` or `render_mode` is
            not one of those values.
        RuleSetError: `rules` has no action encoding.
    """
    game = XeriEnv(rules=rules, render_mode=render_mode, episode=episode)
    if illegal_reward is None:
        bounds = rules.round_points_bounds if episode == "round" else None
        illegal_reward = -1.0 if bounds is None else -float(bounds[1] + 1)
    wrapped = wrappers.TerminateIllegalWrapper(game, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)

"""Xeri as a single-agent Gymnasium environment: one learning seat against bots.

Needs the `gymnasium` extra (`pip install "xeri[gymnasium]"`: Gymnasium and
NumPy); importing this module without them raises an `ImportError` naming
the extra. Importing it also registers one environment id per preset
(`xeri/XeriGreek-v0`, `xeri/XeriGreekFour-v0`, `xeri/XeriGerman-v0`,
`xeri/XeriPisti-v0`, `xeri/XeriScopa-v0`), so `gymnasium.make` makes them
too.

[`env`][xeri.envs.gymnasium.env] makes a
[`XeriGymEnv`][xeri.envs.gymnasium.XeriGymEnv]: the agent plays one seat
(`seat`, 0 by default); every other seat is played inside `step` by its
opponent, and chance (the deals, any redeal) by a generator seeded by
`reset(seed=...)`.

**Opponents.** `opponents` is one opponent for every other seat, or a
sequence with one per other seat in seat order. An opponent is a bot name
of the registry ([`make`][xeri.bots.make]: `"random"`, `"greedy"`,
`"counting"`, `"pimc"`, `"ismcts"`, or a level, `"easy"` to `"expert"`),
a [`Bot`][xeri.bots.Bot] (anything with `choose(observation, rng)`), or any
callable `(observation, rng) -> move`. Opponents receive their own seat's
[`Observation`][xeri.Observation] only ([X2][rules-x2]). A partner seat
([F1][rules-f1]) is an opponent too: it plays for the agent's side.

**Spaces.** The action space is `Discrete(num_actions(rules))` (52 in pile
games). An observation is a dict, as in the PettingZoo environment:
`observation`, the seat's [`observation_tensor`][xeri.observation_tensor]
(`float32`, every value in [0, 1]) and `action_mask` (`int8`, 1 at the
legal actions). The mask is also `info["action_mask"]`, as Gymnasium's
`Discrete.sample(mask=...)` takes it.

**Episodes and rewards.** `episode="round"` (the default) ends when the
first round is scored ([G9][rules-g9]); `episode="match"` when the match is
decided ([F8][rules-f8]). `reward="points"` (the default) rewards the end of
every round: the agent's side's round total minus the best total of the
other sides; `reward="outcome"` rewards only the end of the episode: +1.0
for a won episode, -1.0 for a lost one and 0.0 for a draw (a round is won by
the higher total). Every other step rewards 0.0. Episodes end by
termination; they are never truncated (wrap the environment in Gymnasium's
`TimeLimit` for a limit of your own).

**Illegal actions.** Gymnasium's own tools (`check_env`, a policy that
ignores the mask) may send any action of the space, so by default
(`illegal="end"`) an illegal action ends the episode: the game is left as it
was, `terminated` is True, the reward is `illegal_reward` (by default one
less than the least reward of a legal episode) and `info["illegal_action"]`
is True. The default `illegal_reward` is -2.0 under `reward="outcome"`,
and under `reward="points"` minus one more than the upper bound of
[`RuleSet.round_points_bounds`][xeri.RuleSet.round_points_bounds] (below
any round's margin; -2.0 when the scorer has no bound). `illegal="raise"`
raises [`IllegalMoveError`][xeri.IllegalMoveError] instead, leaving the
game as it was.

Examples:
    >>> import xeri
    >>> from xeri.envs.gymnasium import env
    >>> game = env(rules=xeri.GREEK, opponents="greedy")
    >>> observation, info = game.reset(seed=3)
    >>> done = False
    >>> while not done:
    ...     action = game.action_space.sample(info["action_mask"])
    ...     observation, reward, done, truncated, info = game.step(action)
    >>> game.spec_name, done, truncated
    ('XeriGreek-v0', True, False)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, Literal

from xeri._agents.actions import action_to_move, num_actions
from xeri._agents.features import observation_shape
from xeri._agents.observation import Observation, observe
from xeri._core.engine import apply, chance_move, new_game
from xeri._core.state import GameState
from xeri._errors import ArgumentError, IllegalMoveError, XeriError, _show
from xeri._moves import PlayerMove
from xeri._rules.ruleset import GREEK, RuleSet, find_rules
from xeri.bots import LEVELS, Bot, make, registry

try:
    import gymnasium
    import numpy as np
    import numpy.typing as npt
    from gymnasium import spaces

    from xeri.envs.arrays import TensorTracker, _mask
except ImportError as exc:  # pragma: no cover - the tests run with the extra installed
    raise ImportError(
        'xeri.envs.gymnasium needs the gymnasium extra: pip install "xeri[gymnasium]"'
    ) from exc

__all__ = ["XeriGymEnv", "env", "env_name"]

Episode = Literal["match", "round"]
Reward = Literal["points", "outcome"]
Illegal = Literal["end", "raise"]
Opponent = str | Bot | Callable[[Observation, random.Random], PlayerMove]
Obs = dict[str, npt.NDArray[Any]]

_BOTS = tuple(kind.name for kind in registry()) + tuple(level for level, _ in LEVELS)
"""The bot names an opponent may be given: the registry's kinds and levels."""
_PRESET_IDS = ("greek", "greek-four", "german", "pisti", "scopa")


def env_name(rules: RuleSet) -> str:
    """The versioned name of a rule set's environment: `Xeri` and its name in camel case, `-v0`.

    Args:
        rules: the rule set.

    Returns:
        `"XeriGreek-v0"` for [`GREEK`][xeri.GREEK], `"XeriGreekFour-v0"`
        for [`GREEK_FOUR`][xeri.GREEK_FOUR], and so on.
    """
    words = rules.name.replace("_", "-").replace(".", "-").split("-")
    return "Xeri" + "".join(word[:1].upper() + word[1:] for word in words) + "-v0"


def _opponent(value: object, where: str) -> Callable[[Observation, random.Random], PlayerMove]:
    if isinstance(value, str):
        if value.strip().lower() not in _BOTS:
            raise ArgumentError(
                f"{where}: no bot is named {value!r}; the names are {', '.join(_BOTS)}"
            )
        return make(value).choose
    choose = getattr(value, "choose", None)
    if callable(choose):
        return choose  # type: ignore[no-any-return]  # a bot's method
    if callable(value):
        return value  # type: ignore[return-value,unused-ignore]  # a callable (observation, rng) -> move
    raise ArgumentError(
        f"{where} must be a bot name, a bot or a callable (observation, rng) -> move, "
        f"not {type(value).__name__}"
    )


class XeriGymEnv(gymnasium.Env):  # type: ignore[misc,unused-ignore]  # typed only in recent gymnasium releases
    """One seat of Xeri against fixed opponents, as a Gymnasium environment.

    Made by [`env`][xeri.envs.gymnasium.env]; the module docstring says what
    the spaces, rewards and episodes are.

    Attributes:
        rules: the rule set played.
        seat: the agent's seat.
        episode: `"round"` or `"match"`.
        reward: `"points"` or `"outcome"`.
        illegal: `"end"` or `"raise"`, what an illegal action does.
        illegal_reward: the reward of an illegal action under `illegal="end"`.
        spec_name: the environment's versioned name, as
            [`env_name`][xeri.envs.gymnasium.env_name] gives it.
    """

    # Gymnasium reads the metadata on the class.
    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012  # see above

    def __init__(
        self,
        *,
        rules: RuleSet | str = GREEK,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int = 0,
        episode: Episode = "round",
        reward: Reward = "points",
        illegal: Illegal = "end",
        illegal_reward: float | None = None,
        render_mode: Literal["ansi"] | None = None,
    ) -> None:
        if isinstance(rules, str):
            rules = find_rules(rules)
        actions = num_actions(rules)  # refuses a rule set without an action encoding
        seats = rules.seats
        if type(seat) is not int or not 0 <= seat < seats:
            raise ArgumentError(f"seat must be an int from 0 to {seats - 1}, not {_show(seat)}")
        if episode not in ("round", "match"):
            raise ArgumentError(f"episode must be 'round' or 'match', not {_show(episode)}")
        if reward not in ("points", "outcome"):
            raise ArgumentError(f"reward must be 'points' or 'outcome', not {_show(reward)}")
        if illegal not in ("end", "raise"):
            raise ArgumentError(f"illegal must be 'end' or 'raise', not {_show(illegal)}")
        if render_mode is not None and render_mode != "ansi":
            raise ArgumentError(f"render_mode must be 'ansi' or None, not {_show(render_mode)}")
        others = [s for s in range(seats) if s != seat]
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            chosen = [opponents] * len(others)
        else:
            chosen = list(opponents)
            if len(chosen) != len(others):
                raise ArgumentError(
                    f"opponents: {len(others)} other seats need {len(others)} opponents, "
                    f"not {len(chosen)}"
                )
        self._players = {
            s: _opponent(value, f"the opponent of seat {s}")
            for s, value in zip(others, chosen, strict=True)
        }
        self.rules: RuleSet = rules
        self.seat = seat
        self.episode: Episode = episode
        self.reward: Reward = reward
        self.illegal: Illegal = illegal
        if illegal_reward is None:
            bounds = rules.round_points_bounds
            if reward == "outcome" or bounds is None:
                illegal_reward = -2.0
            else:
                illegal_reward = -float(bounds[1] + 1)
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.spec_name = env_name(rules)
        self._actions = actions
        self.action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, observation_shape(rules), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
            }
        )
        self._rng = random.Random(0)
        # The agent's tensors follow the game play by play (each play is made here).
        self._tracker = TensorTracker(rules)
        self._state: GameState | None = None
        self._over = True

    @property
    def game_state(self) -> GameState:
        """The current state (every card in it: for inspection, not for the agent).

        Raises:
            IllegalMoveError: `reset` has not been called.
        """
        if self._state is None:
            raise IllegalMoveError("the environment has no game yet: call reset first")
        return self._state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Start an episode: a new match, the dealer drawn at random ([G2][rules-g2]).

        Args:
            seed: seeds every random choice of the episode (chance and the
                opponents) and of the episodes reset after it without a seed.
            options: accepted for the Gymnasium API, and ignored.

        Returns:
            The first observation and its info (`action_mask`).
        """
        super().reset(seed=seed)
        self._rng = random.Random(int(self.np_random.integers(2**62)))
        state = new_game(self.rules, rng=self._rng)
        self._over = False
        state, _ = self._advance(state, 0)
        self._state = state
        observation = self._observation(state)
        return observation, {"action_mask": observation["action_mask"]}

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the opponents and chance until the agent is to move.

        Args:
            action: an action of the action space (an int or a NumPy integer).

        Returns:
            `(observation, reward, terminated, truncated, info)`, as
            Gymnasium's API has them; `info` holds `action_mask`, and
            `illegal_action` when the action was illegal.

        Raises:
            IllegalMoveError: `reset` has not been called, the episode is over,
                or (under `illegal="raise"`) the action is illegal.
        """
        state = self.game_state
        if self._over:
            raise IllegalMoveError("the episode is over: call reset")
        try:
            index = operator.index(action)
            move = action_to_move(state, index)
        except (TypeError, XeriError) as exc:
            if self.illegal == "raise":
                if isinstance(exc, TypeError):
                    raise IllegalMoveError(
                        f"an action is an int, not {type(action).__name__}"
                    ) from None
                raise
            self._over = True
            observation = self._observation(state)
            refused = {"action_mask": observation["action_mask"], "illegal_action": True}
            return observation, self.illegal_reward, True, False, refused
        after = apply(state, move)
        self._tracker._played(state, after)
        state, reward = self._advance(after, len(state.round_results))
        self._state = state
        observation = self._observation(state)
        info: dict[str, Any] = {"action_mask": observation["action_mask"]}
        return observation, reward, self._over, False, info

    def _advance(self, state: GameState, rounds: int) -> tuple[GameState, float]:
        """Play chance and the opponents until the agent is to move or the episode ends.

        `rounds` is how many rounds were over before the move that gave `state`.
        """
        rng = self._rng
        me = self.seat
        players = self._players
        reward = 0.0
        while True:
            if len(state.round_results) != rounds:  # a round has just been scored
                rounds = len(state.round_results)
                end = self.episode == "round" or state.is_over
                if self.reward == "points":
                    reward += self._margin(state)
                elif end:
                    reward += self._outcome(state)
                if end:
                    self._over = True
                    return state, reward
            if state.is_chance:
                state = apply(state, chance_move(state, rng))
                continue
            mover = state.to_move
            if mover == me or mover is None:
                return state, reward
            after = apply(state, players[mover](observe(state, mover), rng))
            self._tracker._played(state, after)  # a play made here: the tracker follows it
            state = after

    def _margin(self, state: GameState) -> float:
        total = state.round_results[-1].total
        mine = self.rules.sides[self.seat]
        best = max(total[s] for s in range(self.rules.num_sides) if s != mine)
        return float(total[mine] - best)

    def _outcome(self, state: GameState) -> float:
        if self.episode == "match":
            return state.returns[self.seat]
        margin = self._margin(state)
        return 1.0 if margin > 0 else -1.0 if margin < 0 else 0.0

    def _observation(self, state: GameState) -> Obs:
        seat = self.seat
        mask = np.zeros(self._actions, dtype=np.int8) if self._over else _mask(state, seat)
        return {"observation": self._tracker.observe(state, seat), "action_mask": mask}

    def render(self) -> str | None:
        """The state as text, the agent's hand only shown; None without a render mode.

        Returns:
            The text in mode `"ansi"`.
        """
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        if self._state is None:
            return "no game yet: call reset"
        state = self._state
        seen = observe(state, self.seat)
        table = " ".join(map(str, seen.table)) or "-"
        hand = " ".join(map(str, seen.hand)) or "-"
        return (
            f"{self.rules.name}, seat {self.seat}, match score "
            f"{' '.join(map(str, seen.scores))}\ntable: {table}   stock: {seen.stock_size}\n"
            f"hand: {hand}"
        )


def env(
    *,
    rules: RuleSet | str = GREEK,
    opponents: Opponent | Sequence[Opponent] = "random",
    seat: int = 0,
    episode: Episode = "round",
    reward: Reward = "points",
    illegal: Illegal = "end",
    illegal_reward: float | None = None,
    render_mode: Literal["ansi"] | None = None,
) -> XeriGymEnv:
    """A Gymnasium environment of one seat against opponents; see the module docstring.

    Args:
        rules: the rule set, or the name of a registered one; its capture
            rule needs an action encoding.
        opponents: a bot name, a bot or a callable for every other seat, or
            a sequence of them, one per other seat in seat order.
        seat: the agent's seat.
        episode: `"round"` or `"match"`.
        reward: `"points"` (each round's margin) or `"outcome"` (+1, -1, 0 at the end).
        illegal: `"end"` (an illegal action ends the episode) or `"raise"`.
        illegal_reward: the reward of an illegal action under `illegal="end"`;
            None for one below every legal episode's reward.
        render_mode: `"ansi"` or None.

    Returns:
        A new environment; call `reset` first.

    Raises:
        ArgumentError: an argument is not one of its values.
        RuleSetError: `rules` has no action encoding, or no rule set has that name.
    """
    return XeriGymEnv(
        rules=rules,
        opponents=opponents,
        seat=seat,
        episode=episode,
        reward=reward,
        illegal=illegal,
        illegal_reward=illegal_reward,
        render_mode=render_mode,
    )


def _register() -> None:
    """Register `xeri/<name>` for every preset with Gymnasium, once."""
    registry = gymnasium.envs.registration.registry
    for name in _PRESET_IDS:
        env_id = "xeri/" + env_name(find_rules(name))
        if env_id not in registry:
            gymnasium.register(
                id=env_id, entry_point="xeri.envs.gymnasium:XeriGymEnv", kwargs={"rules": name}
            )


_register()

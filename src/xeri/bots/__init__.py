"""Bots: players that choose a move from an observation ([X2][rules-x2]).

A ladder of strength, each working for every preset and for custom rule
sets through the public API:

* [`RandomBot`][xeri.bots.RandomBot]: a uniformly random legal move;
* [`GreedyBot`][xeri.bots.GreedyBot]: the most points now;
* [`CountingBot`][xeri.bots.CountingBot]: counts the cards seen and weighs
  the reply it leaves the next seat;
* [`PIMCBot`][xeri.bots.PIMCBot]: samples the hidden cards with
  [`determinize`][xeri.determinize] and plays each move out;
* [`ISMCTSBot`][xeri.bots.ISMCTSBot]: information-set Monte Carlo tree search.

[`registry`][xeri.bots.registry] lists them by name and
[`make`][xeri.bots.make] builds one by its name or by a difficulty level
(`easy`, `medium`, `hard`, `expert`); with no arguments the search bots
are at their strongest measured form within about 0.1 s a decision, set by
the rule set's [`family`][xeri.bots.family]. A plain function
`(observation, rng) -> move` is a bot once wrapped in
[`FunctionBot`][xeri.bots.FunctionBot]; [`as_bot`][xeri.bots.as_bot] does
that wherever a bot is taken. [`play_league`][xeri.bots.play_league] rates
bots against each other over duplicate deals (Bradley-Terry), and
[`rate_bot`][xeri.bots.rate_bot] rates one against the shipped ladder.

When a position has more than [`CANDIDATES`][xeri.bots.CANDIDATES] legal
moves (a sum game's table can offer billions), every bot but `RandomBot`
scores only the bounded set [`candidates`][xeri.bots.candidates] gives, so
that no decision lists them all.

The search bots solve the rest of a round exactly with
[`solve_endgame`][xeri.bots.solve_endgame] once it is fully determined for
them. A bot receives an [`Observation`][xeri.Observation] only, so it cannot
see what its seat may not.

Examples:
    >>> import random, xeri
    >>> from xeri.bots import GreedyBot
    >>> rng = random.Random(2)
    >>> state = xeri.new_game(xeri.GREEK, rng=rng)
    >>> move = GreedyBot().choose(xeri.observe(state, state.to_move), rng)
    >>> move in xeri.legal_moves(state)
    True
"""

from xeri.bots.base import CANDIDATES, SAMPLED, Bot, RandomBot, candidates, moves_to_choose
from xeri.bots.endgame import EndgameSolution, solve_endgame
from xeri.bots.heuristic import CountingBot, GreedyBot, unseen_cards
from xeri.bots.league import League, PairResult, fit_ratings, play_league, rate_bot
from xeri.bots.registry import (
    LEVELS,
    BotKind,
    FunctionBot,
    as_bot,
    bot_name,
    load_bot,
    make,
    registry,
)
from xeri.bots.search import ISMCTSBot, PIMCBot, family, playout_policy

__all__ = [
    "CANDIDATES",
    "LEVELS",
    "SAMPLED",
    "Bot",
    "BotKind",
    "CountingBot",
    "EndgameSolution",
    "FunctionBot",
    "GreedyBot",
    "ISMCTSBot",
    "League",
    "PIMCBot",
    "PairResult",
    "RandomBot",
    "as_bot",
    "bot_name",
    "candidates",
    "family",
    "fit_ratings",
    "load_bot",
    "make",
    "moves_to_choose",
    "play_league",
    "playout_policy",
    "rate_bot",
    "registry",
    "solve_endgame",
    "unseen_cards",
]

"""The game-AI adapters on the fishing family's presets (PettingZoo, OpenSpiel)."""

from __future__ import annotations

import pyspiel
import pytest
from pettingzoo.test import api_test

import xeri
from xeri.envs.openspiel import GAME_NAME
from xeri.envs.pettingzoo import env


# api_test advises a Box or Discrete observation space and a bare array; the
# Dict of observation and action mask is the layout of PettingZoo's own card games.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("rules", [xeri.SCOPA, xeri.PISTI], ids=lambda r: r.name)
def test_pettingzoo_api_test_on_the_family(rules: xeri.RuleSet) -> None:
    api_test(env(rules=rules), num_cycles=60)


@pytest.mark.parametrize("rules", [xeri.SCOPA, xeri.PISTI], ids=lambda r: r.name)
def test_openspiel_random_sim_test_on_the_family(rules: xeri.RuleSet) -> None:
    game = pyspiel.load_game(GAME_NAME, {"rules": rules.name, "episode": "round"})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_C4_cassino_has_no_action_encoding_and_the_adapters_say_so() -> None:
    with pytest.raises(xeri.RuleSetError, match="no action encoding"):
        env(rules=xeri.CASSINO)
    with pytest.raises(xeri.RuleSetError, match="no action encoding"):
        pyspiel.load_game(GAME_NAME, {"rules": "cassino"})

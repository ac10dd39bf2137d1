"""Environments for learning agents, one submodule per framework, each behind its own extra.

Importing `xeri.envs` imports no framework: import the submodule you want.

* [`xeri.envs.pettingzoo`][xeri.envs.pettingzoo] (extra `pettingzoo`):
  Xeri as a PettingZoo AEC environment, `xeri_v0`;
* [`xeri.envs.gymnasium`][xeri.envs.gymnasium] (extra `gymnasium`): one
  learning seat against bots as a Gymnasium environment, `XeriGreek-v0`
  and the other presets';
* [`xeri.envs.vector`][xeri.envs.vector] (extra `vector`): pile games
  played many at once on NumPy arrays, self-play or as a Gymnasium `VectorEnv`;
* [`xeri.envs.openspiel`][xeri.envs.openspiel] (extra `openspiel`):
  registers Xeri as the OpenSpiel game `python_xeri`;
* [`xeri.envs.arrays`][xeri.envs.arrays] (extra `numpy`): observation
  tensors and masks as NumPy arrays, built fast from a state.
"""

__all__: list[str] = []

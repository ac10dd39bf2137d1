"""Environments for learning agents, one submodule per framework, each behind its own extra.

Importing `xeri.envs` imports no framework: import the submodule you want.
[`xeri.envs.pettingzoo`][xeri.envs.pettingzoo] (extra `pettingzoo`:
`pip install "xeri[pettingzoo]"`) is Xeri as a PettingZoo AEC environment;
[`xeri.envs.openspiel`][xeri.envs.openspiel] (extra `openspiel`:
`pip install "xeri[openspiel]"`) registers Xeri as the OpenSpiel game
`python_xeri`.
"""

__all__: list[str] = []

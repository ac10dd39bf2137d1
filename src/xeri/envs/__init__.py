"""Environments for learning agents, one submodule per framework, each behind its own extra.

Importing `xeri.envs` imports no framework: import the submodule you want.
[`xeri.envs.pettingzoo`][xeri.envs.pettingzoo] (extra `pettingzoo`:
`pip install "xeri[pettingzoo]"`) is Xeri as a PettingZoo AEC environment.
"""

__all__: list[str] = []

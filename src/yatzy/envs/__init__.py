"""Research environments: Gymnasium's ``yatzy/Yatzy-v0`` for one player and a PettingZoo AEC
environment for N, with exact labels from the solver (docs/research.md).

Importing this package registers ``yatzy/Yatzy-v0`` and nothing else::

    import gymnasium, yatzy.envs
    env = gymnasium.make("yatzy/Yatzy-v0", rules="maxi", options={"bank_cap": 2})

It needs the ``research`` extra (Gymnasium and PettingZoo); playing does not.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import gymnasium

from .single import YatzyEnv
from .spaces import Layout

if TYPE_CHECKING:
    from pettingzoo import AECEnv

__all__ = ["ENV_ID", "Layout", "YatzyEnv", "aec_env"]

ENV_ID = "yatzy/Yatzy-v0"

if ENV_ID not in gymnasium.registry:
    gymnasium.register(ENV_ID, entry_point="yatzy.envs.single:YatzyEnv")


def aec_env(rules: str = "yatzy", players: int = 2, **kwargs: Any) -> AECEnv[str, Any, int]:
    """N players at one table (PettingZoo AEC); ``options`` and ``labels`` as the single env's."""
    from .aec import aec_env as make

    return make(rules, players, **kwargs)

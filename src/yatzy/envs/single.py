"""The Gymnasium environment ``yatzy/Yatzy-v0``: one player's game of any ruleset.

The env holds a :class:`yatzy.game.Game` and only translates: an integer becomes the
engine's action (:class:`.spaces.Layout`), the engine applies it, and the game is read back
as a vector. The first roll of a turn, when it is the only legal move, is made for the
agent. An action the mask forbids changes nothing: reward 0 and ``info["illegal"]``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium as gym
import numpy as np

from ..actions import Roll
from ..game import Game
from ..registry import get_ruleset
from .labels import LabelMode, best, coach_for, regrets
from .spaces import Layout


def open_turn(game: Game) -> None:
    """Make the first roll of a turn when nothing else may be done (no tiles to bring back)."""
    while not game.is_over and game.state.dice is None and game.legal_actions() == [Roll()]:
        game.play(Roll())


class YatzyEnv(gym.Env[np.ndarray, np.int64]):
    """A solo game: observation a flat vector, actions integers, reward the points scored.

    ``rules`` and ``options`` name the ruleset and its house rules as the engine takes them
    (``rules="maxi", options={"bank_cap": 2}``); ``labels`` says where ``info["regret"]``
    and ``info["best_action"]`` come from (:mod:`.labels`: ``"cached"``, ``"solve"``, ``"none"``).
    """

    metadata: dict[str, Any] = {"render_modes": []}
    """No rendering of its own: words are the front ends' (``env.unwrapped.game`` is the game)."""

    def __init__(self, rules: str = "yatzy", options: Mapping[str, object] | None = None,
                 labels: LabelMode = "cached") -> None:
        self.ruleset = get_ruleset(rules, **dict(options or {}))
        self.layout = Layout(self.ruleset)
        self.coach = coach_for(self.ruleset, labels)
        self.action_space = gym.spaces.Discrete(self.layout.n_actions)
        self.observation_space = gym.spaces.Box(0.0, self.layout.high(), dtype=np.float32)
        self.game = Game(self.ruleset, ["agent"], seed=0)
        self._labels: dict[int, float] | None = None
        self._mask: tuple[Game, int, np.ndarray] | None = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """A new game; with ``seed`` it is ``Game(rules, ["agent"], seed=seed)``, roll for roll."""
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        self.game = Game(self.ruleset, ["agent"], seed=game_seed)
        open_turn(self.game)
        return self._observation(), self._info(None, False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        legal = 0 <= int(action) < self.layout.n_actions and self._legal()[int(action)] == 1
        move = self.layout.action_of(self.game, int(action)) if legal else None
        if move is None or self.game.is_over:
            return self._observation(), 0.0, self.game.is_over, False, self._info(None, True)
        regret = None if self._labels is None else self._labels.get(int(action))
        before = self.game.total(0)
        self.game.play(move)
        open_turn(self.game)
        reward = float(self.game.total(0) - before)
        return self._observation(), reward, self.game.is_over, False, self._info(regret, False)

    def action_masks(self) -> np.ndarray:
        """The legal actions now as 0/1 (int8): the method masked PPO implementations call."""
        return self._legal().copy()

    def _legal(self) -> np.ndarray:
        """The mask of the game as it stands, made once per position (game and version)."""
        if self._mask is None or self._mask[0] is not self.game or self._mask[1] != self.game.version:
            self._mask = (self.game, self.game.version, self.layout.mask(self.game))
        return self._mask[2]

    def _observation(self) -> np.ndarray:
        return self.layout.observe(self.game, 0)

    def _info(self, regret: float | None, illegal: bool) -> dict[str, Any]:
        if not illegal:  # a refused action left the position, and so its labels, as they were
            self._labels = regrets(self.coach, self.layout, self.game)
        info: dict[str, Any] = {"action_mask": self._legal().copy(), "regret": regret,
                                "best_action": best(self._labels), "illegal": illegal}
        return info

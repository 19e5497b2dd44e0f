"""The PettingZoo AEC environment: N players of any ruleset taking turns at one table.

Agents are ``player_0`` .. ``player_{N-1}`` in seat order; the agent to move is the game's
current player. Each agent observes ``{"observation": vector, "action_mask": mask}``: its
own vector as in the single-player env (the table's dice, rolls and DOZZY's shared tiles
included), followed by every opponent's public card in seat order after it. Rewards are the
points the acting agent scores; every agent terminates when the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..game import Game
from ..registry import get_ruleset
from ..rules import Ruleset
from .labels import LabelMode, best, coach_for, regrets
from .single import open_turn
from .spaces import Layout

CARD_FIELDS = ("saved_rolls", "filled", "points", "upper_total", "extra")
"""What an opponent's part of a vector holds: the public card (no dice, no turn)."""


def _card_fields(layout: Layout) -> list[tuple[str, int, float]]:
    return [f for name in CARD_FIELDS for f in layout.fields if f[0] == name]


def opponent_vector(layout: Layout, game: Game, seat: int) -> np.ndarray:
    """One opponent's public card, in the order of :data:`CARD_FIELDS`."""
    full = layout.observe(game, seat)
    starts, at = {}, 0
    for name, n, _ in layout.fields:
        starts[name] = (at, n)
        at += n
    return np.concatenate([full[starts[name][0]:starts[name][0] + starts[name][1]]
                           for name, _, _ in _card_fields(layout)])


class YatzyAEC(AECEnv[str, dict[str, np.ndarray], int]):
    """N players at one table; see the module's docstring for the spaces."""

    metadata: dict[str, Any] = {"render_modes": [], "name": "yatzy_aec_v0", "is_parallelizable": False}

    def __init__(self, rules: str = "yatzy", players: int = 2, options: Mapping[str, object] | None = None,
                 labels: LabelMode = "cached") -> None:
        super().__init__()
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise ValueError(f"players is a whole number of 1 or more, not {players!r}")
        self.ruleset: Ruleset = get_ruleset(rules, **dict(options or {}))
        self.layout = Layout(self.ruleset)
        self.coach = coach_for(self.ruleset, labels)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        card_high = np.concatenate([np.full(n, top, dtype=np.float32)
                                    for _, n, top in _card_fields(self.layout)])
        high = np.concatenate([self.layout.high(), *([card_high] * (players - 1))])
        space = spaces.Dict({
            "observation": spaces.Box(0.0, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (self.layout.n_actions,), dtype=np.int8),
        })
        self.observation_spaces = {a: space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.layout.n_actions) for a in self.possible_agents}
        self.game = Game(self.ruleset, self.possible_agents, seed=0)
        self._labels: dict[int, float] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat, n = self._seat(agent), len(self.possible_agents)
        others = [opponent_vector(self.layout, self.game, (seat + k) % n) for k in range(1, n)]
        mine = self.layout.observe(self.game, seat)
        on_turn = seat == self.game.state.current and not self.game.is_over
        mask = self.layout.mask(self.game) if on_turn else np.zeros(self.layout.n_actions, dtype=np.int8)
        return {"observation": np.concatenate([mine, *others]).astype(np.float32), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with ``seed`` it is ``Game(rules, agents, seed=seed)``, roll for roll."""
        if seed is None:
            seed = int(np.random.default_rng().integers(2**63 - 1))
        self.game = Game(self.ruleset, self.possible_agents, seed=seed)
        open_turn(self.game)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.game.state.current]
        self._label(None)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat(agent)
        move = None if action is None else self.layout.action_of(self.game, int(action))
        if move is None or self.layout.mask(self.game)[int(action)] != 1:  # type: ignore[arg-type]
            raise ValueError(f"action {action} is not legal now; read observe(agent)['action_mask']")
        regret = None if self._labels is None else self._labels.get(int(action))  # type: ignore[arg-type]
        self._cumulative_rewards[agent] = 0.0
        before = self.game.total(seat)
        self.game.play(move)
        open_turn(self.game)
        self.rewards = {a: 0.0 for a in self.agents}
        self.rewards[agent] = float(self.game.total(seat) - before)
        if self.game.is_over:
            self.terminations = {a: True for a in self.agents}
        self.agent_selection = self.agents[self.game.state.current]
        self._label(regret, agent)
        self._accumulate_rewards()

    def _label(self, regret: float | None, mover: str | None = None) -> None:
        """Infos: the mover's step regret; the agent to move gets its mask and best action."""
        self._labels = None if self.game.is_over else regrets(self.coach, self.layout, self.game)
        for a in self.agents:
            self.infos[a] = {}
        if mover is not None:
            self.infos[mover]["regret"] = regret
        if not self.game.is_over:
            self.infos[self.agent_selection].update(
                action_mask=self.layout.mask(self.game), best_action=best(self._labels))

    def render(self) -> None:
        return None

    def close(self) -> None:
        return None


def aec_env(rules: str = "yatzy", players: int = 2, options: Mapping[str, object] | None = None,
            labels: LabelMode = "cached") -> AECEnv[str, dict[str, np.ndarray], int]:
    """The AEC environment wrapped as PettingZoo's own environments are (order enforced)."""
    return wrappers.OrderEnforcingWrapper(YatzyAEC(rules, players, options, labels))

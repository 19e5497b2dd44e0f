"""Golden playthroughs: one seeded episode per ruleset, stored in tests/envs/golden/, replayed
step for step (actions, rewards, observations, the engine's log). Rewrite them after a change
meant to change an episode with ``YATZY_GOLDEN=write``, and read the diff."""

import json
import os
from pathlib import Path

import gymnasium
import numpy as np
import pytest

import yatzy.envs
from yatzy.registry import RULESETS

GOLDEN = Path(__file__).parent / "golden"
SEED = 2030
"""Every golden episode's seed: its DOZZY game brings tiles back before a roll and chooses
which tiles come back with a score (the blocks of actions only DOZZY has)."""


def episode(rules: str) -> dict[str, object]:
    """A masked random agent's episode (its choices seeded too), as the stored file holds it."""
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=rules, labels="none").unwrapped
    rng = np.random.default_rng(SEED)
    obs, info = env.reset(seed=SEED)
    steps = []
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        move = str(env.layout.action_of(env.game, action))
        obs, reward, done, _, info = env.step(action)
        steps.append({"action": action, "move": move, "reward": reward,
                      "observation": [round(float(x), 6) for x in obs]})
    return {"rules": rules, "seed": SEED, "names": env.layout.names(), "steps": steps,
            "log": [str(a) for a in env.game.log], "total": env.game.total(0)}


def dump(data: dict[str, object]) -> str:
    """The file: one field a line, one step a line (a diff then names the steps that changed)."""
    lines = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in data.items() if k != "steps"]
    steps = ",\n  ".join(json.dumps(s) for s in data["steps"])  # type: ignore[attr-defined]
    return "{\n " + ",\n ".join(lines) + ',\n "steps": [\n  ' + steps + "\n ]\n}\n"


@pytest.mark.parametrize("rules", RULESETS)
def test_golden_playthrough(rules):
    path = GOLDEN / f"{rules}.json"
    if os.environ.get("YATZY_GOLDEN") == "write":
        path.write_text(dump(episode(rules)))
    stored = json.loads(path.read_text())
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=rules, labels="none").unwrapped
    env.reset(seed=stored["seed"])
    assert env.layout.names() == stored["names"]
    for number, step in enumerate(stored["steps"]):
        assert str(env.layout.action_of(env.game, step["action"])) == step["move"], number
        obs, reward, done, _, info = env.step(step["action"])
        assert not info["illegal"] and reward == step["reward"], number
        assert [round(float(x), 6) for x in obs] == step["observation"], number
        assert done == (number == len(stored["steps"]) - 1)
    assert [str(a) for a in env.game.log] == stored["log"]
    assert env.game.total(0) == stored["total"] == sum(s["reward"] for s in stored["steps"])

"""The worked example of docs/research.md (benchmarks/imitate.py) still learns: a few games
of the coach's Kids' Yatzy teach its policy most of the coach's choices."""

import importlib.util
from pathlib import Path

import gymnasium
import pytest

import yatzy.envs

EXAMPLE = Path(__file__).parents[2] / "benchmarks" / "imitate.py"


@pytest.mark.slow
def test_imitation_learns_the_coach():
    spec = importlib.util.spec_from_file_location("imitate", EXAMPLE)
    assert spec is not None and spec.loader is not None
    imitate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(imitate)
    env = gymnasium.make(yatzy.envs.ENV_ID, rules="kids", labels="solve").unwrapped
    x, masks, y = imitate.collect(env, 60, seed=0)
    untrained = imitate.evaluate(env, imitate.train(x, masks, y, env.layout.n_actions, 0), 40, seed=99)
    mean, _, regret = imitate.evaluate(env, imitate.train(x, masks, y, env.layout.n_actions, 10), 40, seed=99)
    assert regret < 1.0 < untrained[2]  # learnt: under a point a decision; untrained far more
    assert mean > untrained[0]

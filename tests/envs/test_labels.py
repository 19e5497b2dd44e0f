"""The exact labels: ``info["regret"]`` is the coach's regret for the step's action, a policy
taking ``info["best_action"]`` scores the exact optimum on average, and no table is built
unless asked."""

import math

import gymnasium
import numpy as np
import pytest

import yatzy.envs
from yatzy.envs.labels import cached
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve


@pytest.fixture(scope="module")
def kids():
    return Coach(solve(get_ruleset("kids")))


def make(rules: str, labels: str = "cached"):
    return gymnasium.make(yatzy.envs.ENV_ID, rules=rules, labels=labels).unwrapped


def test_regret_is_the_coachs(kids):
    env = make("kids")
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(5):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            options = kids.options(kids.position_of(env.game), with_odds=False)
            ranked = {str(o.action): o.regret for o in options}
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            move = env.layout.action_of(env.game, action)
            _, _, done, _, info = env.step(action)
            assert info["regret"] == pytest.approx(ranked[str(move)], abs=1e-9)
            checked += info["regret"] > 0
    assert checked > 20  # random play errs often: most of these regrets are not 0


def test_best_action_is_the_coachs_best(kids):
    env = make("kids")
    _, info = env.reset(seed=3)
    best = kids.best(kids.position_of(env.game))
    assert env.layout.action_of(env.game, info["best_action"]) == best.action
    _, _, _, _, info = env.step(info["best_action"])
    assert info["regret"] == 0.0


@pytest.mark.slow
def test_best_action_averages_the_exact_optimum(kids):
    """Within 3 standard errors over 600 games (the optimum is 77.50 in Kids' Yatzy)."""
    env = make("kids")
    totals = []
    for seed in range(600):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(info["best_action"])
        totals.append(env.game.total(0))
    mean, se = np.mean(totals), np.std(totals, ddof=1) / math.sqrt(len(totals))
    assert abs(mean - kids.solution.expected_score) < 3 * se


def test_no_table_no_labels_and_none_built():
    # DOZZY has no table; Maxi's is not cached in the tests' private cache, and is never built
    for rules in ("dozzy", "maxi"):
        env = make(rules)
        assert env.coach is None
        _, info = env.reset(seed=0)
        _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert info["regret"] is None and info["best_action"] is None
    assert cached(get_ruleset("maxi")) is None


def test_labels_none_and_unknown(kids):
    assert make("kids", "none").coach is None
    assert make("kids", "cached").coach is not None  # the fixture built it
    assert np.array_equal(cached(get_ruleset("kids")).values, kids.solution.values)
    with pytest.raises(ValueError, match="labels"):
        make("kids", "sometimes")


def test_aec_labels_each_seat_as_the_coach(kids):
    env = yatzy.envs.aec_env(rules="kids", players=2)
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(12):
        agent = env.agent_selection
        raw = env.unwrapped
        obs, _, _, _, info = env.last()
        options = kids.options(kids.position_of(raw.game), with_odds=False)
        assert raw.layout.action_of(raw.game, info["best_action"]) == options[0].action
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        regret = {str(o.action): o.regret for o in options}[str(raw.layout.action_of(raw.game, action))]
        env.step(action)
        assert raw.infos[agent]["regret"] == pytest.approx(regret, abs=1e-9)

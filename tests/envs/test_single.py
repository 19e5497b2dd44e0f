"""The Gymnasium environment: registration, Gymnasium's own checker for every ruleset, the
mask against the engine's legal actions, rewards as points, and seeds as the engine's."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import yatzy.envs
from yatzy.actions import Roll, Score
from yatzy.envs.spaces import Layout
from yatzy.game import Game
from yatzy.registry import RULESETS


def make(rules: str, **kwargs: object) -> yatzy.envs.YatzyEnv:
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=rules, labels="none", **kwargs)
    return env.unwrapped  # type: ignore[return-value]


def test_registers_one_env():
    assert [i for i in gymnasium.registry if i.startswith("yatzy/")] == ["yatzy/Yatzy-v0"]


@pytest.mark.parametrize("rules", RULESETS)
def test_check_env(rules):
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=rules)
    check_env(env.unwrapped, skip_render_check=True)


def test_options_reach_the_ruleset():
    env = make("maxi", options={"bank_cap": 2})
    assert env.ruleset.bank_cap == 2
    with pytest.raises(Exception, match="bank_cap"):
        make("maxi", options={"bank_cap": "lots"})


def play_random(env, seed: int):
    """A masked random agent's episode: (actions, rewards, observations)."""
    rng = np.random.default_rng(seed)
    obs, info = env.reset(seed=seed)
    actions, rewards, observations = [], [], [obs]
    done = False
    while not done:
        assert np.array_equal(info["action_mask"], env.action_masks())
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated and not info["illegal"]
        actions.append(action)
        rewards.append(reward)
        observations.append(obs)
    return actions, rewards, observations


@pytest.mark.parametrize("rules", RULESETS)
def test_random_episode_is_the_engines_game(rules):
    env = make(rules)
    actions, rewards, observations = play_random(env, seed=7)
    assert all(env.observation_space.contains(o) for o in observations)
    assert sum(rewards) == env.game.total(0)  # the bonus included, when it is earned
    # every roll is the one the engine's game with that seed rolls
    twin = Game.replay(env.ruleset, ["agent"], 7, env.game.log, check_dice=True)
    assert twin.total(0) == env.game.total(0) and twin.is_over


@pytest.mark.parametrize("rules", RULESETS)
def test_mask_is_the_engines_legal_actions(rules):
    env = make(rules)
    layout = env.layout
    rng = np.random.default_rng(3)
    _, info = env.reset(seed=3)
    while not env.game.is_over:
        legal = env.game.legal_actions()
        indices = {layout.index_of(env.game, a) for a in legal}
        assert len(indices) == len(legal)  # one integer per distinct action
        assert set(np.flatnonzero(info["action_mask"])) == indices
        assert [layout.action_of(env.game, i) for i in sorted(indices)] == sorted(
            legal, key=lambda a: layout.index_of(env.game, a))
        _, _, _, _, info = env.step(int(rng.choice(sorted(indices))))


def test_illegal_action_changes_nothing():
    env = make("yatzy")
    obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    log = list(env.game.log)
    obs2, reward, done, _, info2 = env.step(illegal)
    assert info2["illegal"] and reward == 0.0 and not done
    assert env.game.log == log and np.array_equal(obs, obs2)
    _, _, _, _, info3 = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not info3["illegal"]


def test_reward_is_the_points_and_the_bonus_when_earned():
    env = make("kids")
    env.reset(seed=0)
    # ones to fives three of each (45 points): 12 in sixes misses the bonus by one, 18 earns it
    log = [a for face, box in enumerate(("ones", "twos", "threes", "fours", "fives"), 1)
           for a in (Roll((), (face,) * 3 + (6, 6)), Score(box))]
    for dice, bonus in (((1, 1, 1, 6, 6), 0), ((1, 1, 6, 6, 6), 50)):
        env.game = Game.replay(env.ruleset, ["agent"], 0, [*log, Roll((), dice)])
        _, reward, done, _, _ = env.step(env.layout.index_of(env.game, Score("sixes")))
        assert reward == dice.count(6) * 6 + bonus and done
        assert env.game.total(0) == 45 + reward


def test_seeds_follow_gymnasium():
    env = make("yatzy")
    a, _ = env.reset(seed=11)
    b, _ = env.reset(seed=11)
    assert np.array_equal(a, b)
    assert env.game.seed == 11
    assert env.game.state.dice == Game("yatzy", ["agent"], seed=11).roll()
    env.reset(seed=5)
    first = [env.reset()[0] for _ in range(3)]
    env.reset(seed=5)
    again = [env.reset()[0] for _ in range(3)]
    assert all(np.array_equal(x, y) for x, y in zip(first, again, strict=True))


def test_layout_names_every_entry():
    for rules in RULESETS:
        layout = Layout(make(rules).ruleset)
        names = layout.names()
        assert len(names) == layout.size == len(layout.high())
        assert len(set(names)) == len(names)
    dozzy = Layout(make("dozzy").ruleset)
    assert "tiles_out[12]" in dozzy.names() and "filled[n12]" in dozzy.names()
    assert dozzy.n_actions == 210 + 21 * 18 + 220  # keeps, 21 boxes by 18 return slots, restores
    assert "saved_rolls" not in dozzy.names() and "saved_rolls" in Layout(make("osto").ruleset).names()
    assert Layout(make("maxi").ruleset).n_actions == 462 + 20

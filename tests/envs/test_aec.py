"""The PettingZoo AEC environment: PettingZoo's api_test for every ruleset, seats and turns
as the engine's, opponents' public cards and DOZZY's shared board in each observation."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import yatzy.envs
from yatzy.envs.aec import CARD_FIELDS
from yatzy.game import Game
from yatzy.registry import RULESETS


# api_test warns about any observation that is not one array; a dict of the observation and
# the action mask is PettingZoo's own convention for board games (its chess and go do the same)
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("rules", RULESETS)
def test_api_test(rules):
    api_test(yatzy.envs.aec_env(rules=rules, players=3, labels="none"), num_cycles=200)


def play(env, seed: int):
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    rewards = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        rewards[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        assert np.array_equal(obs["action_mask"], info["action_mask"])
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return rewards


@pytest.mark.parametrize("rules", ["yatzy", "dozzy"])
def test_a_game_is_the_engines(rules):
    env = yatzy.envs.aec_env(rules=rules, players=3, labels="none")
    rewards = play(env, seed=4)
    game = env.unwrapped.game
    assert game.is_over
    assert [rewards[a] for a in env.possible_agents] == game.totals()
    twin = Game.replay(game.ruleset, game.seats, 4, game.log, check_dice=True)
    assert twin.totals() == game.totals()


def test_observation_holds_the_opponents_cards_and_the_board():
    env = yatzy.envs.aec_env(rules="dozzy", players=2, labels="none")
    env.reset(seed=2)
    raw = env.unwrapped
    layout = raw.layout
    while not raw.game.state.players[1].card or not raw.game.state.out:
        obs = env.observe(env.agent_selection)
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    mine = env.observe("player_0")["observation"]
    theirs = env.observe("player_1")["observation"]
    n = layout.size
    names = layout.names()
    # the shared board is the same in both seats' vectors
    tiles = slice(names.index("tiles_out[1]"), names.index("tiles_out[12]") + 1)
    assert np.array_equal(mine[tiles], theirs[tiles]) and mine[tiles].sum() == len(raw.game.state.out)
    # player 1's card as player 0 sees it is player 1's own part of its vector
    card = [i for i, name in enumerate(names) if name.split("[")[0] in CARD_FIELDS]
    assert np.array_equal(mine[n:], theirs[card]) and np.array_equal(theirs[n:], mine[card])
    assert env.observation_space("player_0")["observation"].shape == (n + len(card),)


def test_players_must_be_a_count():
    for bad in (0, True, "2"):
        with pytest.raises(ValueError, match="players"):
            yatzy.envs.aec_env(rules="kids", players=bad)

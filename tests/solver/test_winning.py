"""Playing to win: the exact end game against brute force, its chances bounded and monotone,
the moment table against the exact distribution, and the win bot's moves legal over whole
games."""

from __future__ import annotations

import math

import numpy as np
import pytest

from helpers.toy import brute, toy
from yatzy.bots import WinBot, make_bot, run
from yatzy.dice import sub_multisets
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.solver.distribution import distribution
from yatzy.solver.endgame import solve_endgame
from yatzy.solver.moments import second_moments
from yatzy.solver.solve import solve
from yatzy.solver.spec import SolverSpec
from yatzy.solver.winning import win_utility


def endgame_start(spec: SolverSpec, open_boxes: set[str], upper: int, need: int) -> float:
    ids = list(spec.ruleset.category_ids)
    mask = sum(1 << i for i, c in enumerate(ids) if c not in open_boxes)
    util = (np.arange(200) >= need).astype(np.float64)
    end = solve_endgame(spec, mask, 0, upper, util)
    return end.after(mask, 0, upper, 0)


@pytest.mark.parametrize(("open_boxes", "upper"), [
    ({"sixes"}, 5), ({"chance"}, 15), ({"trio", "chance"}, 0), ({"fives", "sixes"}, 0),
    ({"sixes", "trio"}, 10)])
def test_the_end_game_matches_brute_force(open_boxes: set[str], upper: int) -> None:
    rs = toy()
    spec = SolverSpec(rs, 0)
    for need in (0, 6, 18, 31):
        want = brute(rs, frozenset(open_boxes), upper, need)
        assert math.isclose(endgame_start(spec, open_boxes, upper, need), want, abs_tol=1e-9), need


def test_needing_nothing_every_option_is_certain_and_more_is_never_likelier() -> None:
    spec = SolverSpec(get_ruleset("yatzy"), 0)
    ids = list(spec.ruleset.category_ids)
    open_boxes = ("fours", "full_house", "chance")
    mask = sum(1 << i for i, c in enumerate(ids) if c not in open_boxes)
    keeps = [spec.keeps[1][k] for k in sub_multisets((2, 4, 4, 5, 6))[:-1]]
    last = None
    for need in range(0, 132, 3):  # 20 + 28 + 30 + the bonus 50 at most: 129 is out of reach
        end = solve_endgame(spec, mask, 0, 50, (np.arange(400) >= need).astype(np.float64))
        here = np.concatenate([end.EX[:, keeps, 0].ravel(), [end.after(mask, 0, 50, 0)]])
        assert (here >= -1e-12).all() and (here <= 1 + 1e-12).all()
        if need == 0:
            assert np.allclose(here, 1.0)
        else:
            assert (here <= last + 1e-12).all()
        last = here
    assert last is not None and last.max() == 0.0


def test_the_win_utility_counts_a_tie_half() -> None:
    util = win_utility([(100.0, 0.0)], 200)
    assert util[99] == 0.0 and util[100] == 0.5 and util[101] == 1.0
    two = win_utility([(100.0, 0.0), (100.0, 0.0)], 200)
    assert two[100] == 0.5 and two[101] == 1.0
    spread = win_utility([(100.0, 400.0)], 300)
    assert (np.diff(spread) >= 0).all() and math.isclose(spread[100], 0.5, abs_tol=1e-9)


def test_the_moments_give_the_exact_distributions_spread() -> None:
    sol = solve(get_ruleset("kids"))
    W = second_moments(sol)
    v = float(sol.values[0, 0, 0])
    assert math.isclose(math.sqrt(W[0, 0, 0] - v * v), distribution(sol).sd, rel_tol=1e-6)


@pytest.mark.parametrize("seats", [2, 3])
def test_the_win_bot_plays_whole_games_legally(seats: int) -> None:
    rs = get_ruleset("kids")
    bots = [make_bot("win", rs), make_bot("optimal", rs), make_bot("random", rs, 1)][:seats]
    assert isinstance(bots[0], WinBot) and bots[0].planner is not None
    for seed in range(3):
        game = run(Game(rs, [f"p{i}" for i in range(seats)], seed=seed), bots)  # any illegal move raises
        assert game.is_over


def test_alone_the_win_bot_plays_as_the_optimal_bot() -> None:
    rs = get_ruleset("kids")
    win, optimal = make_bot("win", rs), make_bot("optimal", rs)
    game = Game(rs, ["solo"], seed=11)
    while not game.is_over:
        move = win.act(game)
        assert move == optimal.act(game)
        game.play(move)

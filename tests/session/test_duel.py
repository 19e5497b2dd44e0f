"""Bots head to head: the seats rotate, a shared first place is a draw for each bot in it (half
a win), the interval is Wilson's, and the same seed plays the same games on any number of
workers."""

from __future__ import annotations

import math
from functools import partial

import pytest

from yatzy import scoring
from yatzy.duel import check_bots, duel, seating, tally, wilson
from yatzy.errors import InvalidActionError
from yatzy.registry import get_ruleset
from yatzy.rules import Category, Ruleset


def nothing_ruleset() -> Ruleset:
    """One die, one box that scores nothing: every game ends 0 to 0, a tie of everyone."""
    return Ruleset("nothing", "Nothing", 1, (
        Category("nothing", "always 0", 0, lambda dice: 0, kind="chance", name="Nothing"),), ())


def sixes_ruleset() -> Ruleset:
    """One die, one box, Sixes: ties often (both 0 or both 6), wins too."""
    return Ruleset("sixes", "Sixes", 1, (
        Category("sixes", "6 x number of 6s", 6, partial(scoring.upper, face=6), kind="number",
                 face=6, name="Sixes"),), ())


def test_tally_counts_a_shared_first_place_as_a_draw_for_each_bot_in_it() -> None:
    result = tally(["a", "b", "c"], [[0], [0, 1], [0, 1, 2], [2], [1, 2]])
    assert [(r.wins, r.draws) for r in result.records] == [(1, 2), (0, 3), (1, 2)]
    assert result.games == 5
    assert [r.win_rate for r in result.records] == [2 / 5, 1.5 / 5, 2 / 5]


def test_a_game_everyone_ties_is_a_draw_for_every_bot() -> None:
    result = duel(nothing_ruleset(), ["greedy", "random", "greedy"], 7, seed=1, workers=1)
    assert [(r.bot, r.wins, r.draws, r.win_rate) for r in result.records] == [
        ("greedy", 0, 7, 0.5), ("random", 0, 7, 0.5), ("greedy", 0, 7, 0.5)]


def test_wins_draws_and_losses_add_up_over_games_of_ties_and_wins() -> None:
    result = duel(sixes_ruleset(), ["random", "greedy"], 60, seed=2, workers=1)
    a, b = result.records
    assert a.draws == b.draws > 0  # a draw is shared by both
    assert a.wins > 0 and b.wins > 0
    assert a.wins + b.wins + a.draws == 60
    assert math.isclose(a.win_rate + b.win_rate, 1.0)


def test_the_seats_rotate_so_each_bot_starts_as_often() -> None:
    assert [seating(g, 3) for g in range(3)] == [[0, 1, 2], [1, 2, 0], [2, 0, 1]]
    firsts = [seating(g, 3)[0] for g in range(30)]
    assert [firsts.count(b) for b in range(3)] == [10, 10, 10]


def test_wilson_interval() -> None:
    low, high = wilson(0.5, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)
    assert wilson(0.0, 10)[0] == 0.0 and 0.0 < wilson(0.0, 10)[1] < 0.35
    assert wilson(1.0, 10)[1] == 1.0 and 0.65 < wilson(1.0, 10)[0] < 1.0
    assert wilson(0.5, 10_000)[1] - wilson(0.5, 10_000)[0] < wilson(0.5, 100)[1] - wilson(0.5, 100)[0]
    with pytest.raises(ValueError):
        wilson(0.5, 0)


def test_the_same_seed_plays_the_same_games_on_one_worker_or_two() -> None:
    kids = get_ruleset("kids")
    one = duel(kids, ["greedy", "random"], 30, seed=5, workers=1)
    two = duel(kids, ["greedy", "random"], 30, seed=5, workers=2)
    other = [duel(kids, ["random", "random"], 30, seed=s, workers=1) for s in (6, 7)]
    assert one == two
    assert other[0] != other[1]


def test_bad_bots_and_game_counts_are_refused() -> None:
    yatzy = get_ruleset("yatzy")
    with pytest.raises(InvalidActionError, match="unknown bot “wizard”"):
        check_bots(["greedy", "wizard"], yatzy)
    with pytest.raises(InvalidActionError, match="at least two bots"):
        check_bots(["greedy", " "], yatzy)
    with pytest.raises(InvalidActionError, match="only games with a board"):
        check_bots(["greedy", "dozzy"], yatzy)
    assert check_bots([" Greedy", "dozzy "], get_ruleset("dozzy")) == ["greedy", "dozzy"]
    with pytest.raises(InvalidActionError, match="at least 1 game, not 0"):
        duel(yatzy, ["greedy", "random"], 0)

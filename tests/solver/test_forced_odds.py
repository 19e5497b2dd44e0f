"""The coach's odds name only the boxes a turn may fill: in a forced game, the next box."""

from __future__ import annotations

from yatzy.actions import Roll
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve


def test_a_forced_games_odds_are_those_of_its_next_box_only() -> None:
    rs = get_ruleset("forced", order="up")  # bottom-up: Yatzy first, a box with odds
    coach = Coach(solve(rs))
    pos = coach.position([], (1, 2, 3, 6, 6), 2, upper=0)
    keeps = [o for o in coach.options(pos) if isinstance(o.action, Roll)]
    assert keeps and all(o.odds for o in keeps)
    assert {box for o in keeps for box, _ in o.odds} == {"yatzy"}
    # the next box is Chance: no odds worth a word, for any keep
    pos = coach.position(["yatzy"], (1, 2, 3, 6, 6), 2, upper=0)
    assert all(not o.odds for o in coach.options(pos))


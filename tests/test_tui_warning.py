"""The warning before a costly move: what a move loses against the coach's best."""

from __future__ import annotations

import pytest

from yatzy.game import Game
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.tui import coach as panel


def test_the_cost_of_every_move_is_the_solvers_regret() -> None:
    game = Game("kids", ["Ann"], seed=11)
    game.roll()
    panel.coach_for(game.ruleset)
    coach = Coach(solve(game.ruleset))
    options = coach.options(coach.position_of(game), with_odds=False)
    actions = game.legal_actions()
    assert len(actions) == len(options)
    for action in actions:
        found = panel.cost_of(game, action)
        assert found is not None
        cost, best = found
        expected = next(o.regret for o in options if str(o.action) == str(action))
        assert cost == pytest.approx(expected) and cost >= 0
        assert best.action == options[0].action


def test_no_cost_without_dice_a_table_or_an_exact_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game("kids", ["Ann"], seed=11)
    panel.coach_for(game.ruleset)
    assert panel.cost_of(game, game.legal_actions()[0]) is None  # no dice yet
    game.roll()
    monkeypatch.setattr(panel, "_tables", {})
    assert panel.cost_of(game, game.legal_actions()[0]) is None  # never waits for a build
    dozzy = Game("dozzy", ["Ann"], seed=1)
    dozzy.roll()
    assert panel.cost_of(dozzy, dozzy.legal_actions()[-1]) is None

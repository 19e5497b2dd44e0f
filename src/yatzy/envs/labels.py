"""Exact labels for a position: each legal action's regret and the best action, from the coach.

Labels come from the solver's table, and a table is built only when asked: ``"cached"`` (the
default) labels with a table already in the cache and never builds one (building Maxi's
takes minutes and gigabytes), ``"solve"`` builds it if needed, ``"none"`` never labels.
DOZZY has no table (the shared board is out of the solver's reach): its labels are None.
"""

from __future__ import annotations

from typing import Literal

from ..game import Game
from ..rules import Ruleset
from ..solver.coach import Coach
from ..solver.solve import cached, solve
from .spaces import Layout

LabelMode = Literal["cached", "solve", "none"]
LABEL_MODES: tuple[LabelMode, ...] = ("cached", "solve", "none")


def coach_for(ruleset: Ruleset, mode: LabelMode) -> Coach | None:
    """The coach that labels ``ruleset`` under ``mode``, or None when there is no table.

    :raises ValueError: an unknown mode.
    """
    if mode not in LABEL_MODES:
        raise ValueError(f"labels is one of {', '.join(LABEL_MODES)}, not {mode!r}")
    if mode == "none" or ruleset.uses_board:
        return None
    solution = solve(ruleset) if mode == "solve" else cached(ruleset)
    return None if solution is None else Coach(solution)


def regrets(coach: Coach | None, layout: Layout, game: Game) -> dict[int, float] | None:
    """Every legal action's exact regret (expected points given up against the best one),
    keyed by its integer; None without a table or without dice on the table."""
    if coach is None or game.is_over or game.state.dice is None:
        return None
    options = coach.options(coach.position_of(game), with_odds=False)
    return {layout.index_of(game, o.action): o.regret for o in options}


def best(labels: dict[int, float] | None) -> int | None:
    """The action of least regret (the lowest integer among equals), or None unlabelled."""
    if not labels:
        return None
    return min(labels, key=lambda i: (labels[i], i))

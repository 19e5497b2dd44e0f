"""Exact labels for a position: each legal action's regret and the best action, from the coach.

Labels come from the solver's table, and a table is built only when asked: ``"cached"`` (the
default) labels with a table already in the cache and never builds one (building Maxi's
takes minutes and gigabytes), ``"solve"`` builds it if needed, ``"none"`` never labels.
DOZZY has no table (the shared board is out of the solver's reach): its labels are None.
"""

from __future__ import annotations

import json
from typing import Literal

import numpy as np

from ..game import Game
from ..rules import Ruleset
from ..solver.coach import Coach
from ..solver.solve import Solution, cache_dir, solve, table_key
from ..solver.spec import SolverSpec
from .spaces import Layout

LabelMode = Literal["cached", "solve", "none"]
LABEL_MODES: tuple[LabelMode, ...] = ("cached", "solve", "none")


def cached(ruleset: Ruleset) -> Solution | None:
    """The table ``solve(ruleset)`` would load from the cache, or None when it would build one.

    Here rather than in ``solver/solve.py``: that file's text is part of every table's cache
    key, so a change there would make every cached table be built again."""
    if ruleset.uses_board:
        return None
    cap = ruleset.bank_cap if ruleset.bank_cap is not None else ruleset.solver_bank_cap
    spec = SolverSpec(ruleset, cap if ruleset.saved_rolls else 0)
    path = cache_dir() / f"{table_key(spec)}.npy"
    meta = path.with_suffix(".json")
    if not (path.exists() and meta.exists()):
        return None
    return Solution(spec, np.load(path, mmap_mode="r"), 0.0, int(json.loads(meta.read_text())["states"]))


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

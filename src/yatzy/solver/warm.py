"""Compile the coach's and the target's kernels in the background as a front end starts, so
a player's first question after an install waits for no compiler (Numba compiles a kernel on
its first call, 10-20 s once per machine; later processes load it compiled)."""

from __future__ import annotations

import logging
import threading

import numpy as np

from .coach import Coach
from .solve import Solution
from .spec import SolverSpec
from .target import target_options

log = logging.getLogger(__name__)


def warm_up() -> None:
    """Compile the kernels a player's questions run now (or load them compiled: a fraction of a
    second), all on one Kids table of zeros: the coach's (one ranking, with odds and in a batch)
    and the end game's a target query runs (~20 s on a loaded machine the first time). The
    compiled code serves every ruleset, and no table is built or read."""
    from ..registry import get_ruleset

    spec = SolverSpec(get_ruleset("kids"), 0)
    values = np.zeros((1 << spec.n_cat, spec.n_aux, spec.bonus[1] + 1), dtype=np.float32)
    coach = Coach(Solution(spec, values, 0.0, 0))
    dice = range(1, spec.ruleset.dice + 1)
    pos = coach.position((), dice, 2, upper=0)
    coach.options(pos, with_odds=True)
    coach.rank_many([pos])
    target_options(coach, coach.position(coach.ids[:-2], dice, 2, upper=0), 10)


_warming: threading.Thread | None = None


def warm_up_soon() -> None:
    """:func:`warm_up` in a daemon thread, once per process: a front end calls it as it starts,
    and nothing ever waits for it (a failure is logged; the first query then compiles)."""
    global _warming
    if _warming is None:
        _warming = threading.Thread(target=_warm_quietly, name="solver warm-up", daemon=True)
        _warming.start()


def _warm_quietly() -> None:
    try:
        warm_up()
    except Exception:
        log.exception("the coach's kernels could not be compiled ahead of its first query")

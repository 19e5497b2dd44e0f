"""Compile the solver's Numba kernels into their on-disk cache before the tests start.

``./run-tests`` runs this in two processes beside ruff and mypy (``solver``: the value table,
the simulator and the coach; ``tables``: the exact distribution and the win bot's tables and
end game). On a fresh clone every kernel is then compiled once, on both cores, instead of by
whichever test worker or server process meets it first — often by both workers at once, each
a minute or more on a loaded machine. With the cache warm this takes a few seconds.

It works on the Kids ruleset in a private table folder: the compiled code of a kernel serves
every ruleset (Numba compiles per kind of argument, not per size).
"""

from __future__ import annotations

import os
import sys
import tempfile

os.environ["YATZY_CACHE_DIR"] = tempfile.mkdtemp(prefix="yatzy-warm-")

import numpy as np  # noqa: E402

from yatzy.bots import make_bot, run  # noqa: E402
from yatzy.game import Game  # noqa: E402
from yatzy.registry import get_ruleset  # noqa: E402
from yatzy.solver.distribution import distribution  # noqa: E402
from yatzy.solver.moments import build as build_second_moments  # noqa: E402
from yatzy.solver.playout import read_only  # noqa: E402
from yatzy.solver.simulate import simulate_optimal  # noqa: E402
from yatzy.solver.solve import Solution, solve  # noqa: E402
from yatzy.solver.spec import SolverSpec  # noqa: E402
from yatzy.solver.warm import warm_up  # noqa: E402


def solver() -> None:
    """The solver's kernels (a table built, then loaded), the simulator, the coach's ranking."""
    rs = get_ruleset("kids")
    solve(rs)
    simulate_optimal(solve(rs), 10, seed=0)
    warm_up()


def tables() -> None:
    """The exact distribution and the win bot's second table (on a table of zeros: no solve
    needed, so this process does not compile the solver's kernels beside the other one), then
    the win bot's end game over a short two-player game."""
    spec = SolverSpec(get_ruleset("kids"), 0)
    values = np.zeros((1 << spec.n_cat, spec.n_aux, spec.bonus[1] + 1), dtype=np.float32)
    distribution(Solution(spec, values, 0.0, 0))
    for table in (values, read_only(values)):  # built here, or loaded from the cache
        build_second_moments(Solution(spec, table, 0.0, 0))
    game = Game("kids", ["A", "B"], seed=0)
    run(game, [make_bot("win", game.ruleset, 0), make_bot("win", game.ruleset, 1)])


if __name__ == "__main__":
    {"solver": solver, "tables": tables}[sys.argv[1]]()

"""What a ruleset's table costs the first time, before anyone waits for it: whether it is
stored already, roughly how long the build takes and how much room the table needs.

The time comes from the work the build does, counted from the ruleset's states: the upper
totals the solver works out for every card (from ``ulo`` to ``umax``: below, the bonus is out
of reach and the values are copied), times the rolls a turn may still use, times the keeps of
its dice (twice in Yahtzee, with its 50-or-0 box), at the rate measured on the project's
2-core machine (Maxi with saved rolls 105 s, Maxi without 37 s, Yatzy 0.53 s, Osto 4.2 s,
Yahtzee 0.4 s: within a tenth of each but Osto's, 4.7 s, and Yahtzee's, 0.26 s;
docs/performance.md). It is a first guess for the new game screen; the build itself measures
its own rate (:mod:`yatzy.solver.tables`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from ..rules import Ruleset
from .kernel import MODE_YAHTZEE
from .solve import cache_dir, check_solvable, table_key
from .spec import SolverSpec

WORK_PER_SECOND = 1.9e9
"""Work units (see the module) the solver does per second on the 2-core machine."""


@dataclass(frozen=True)
class TableCost:
    stored: bool
    """The table is in the cache already: a game loads it at once."""
    seconds: float
    """Roughly how long the first build takes."""
    size: int
    """Bytes of the table on disk (and in memory while it is built, up to ``solve.IN_MEMORY``;
    a bigger one is built two layers of cards at a time)."""


def default_spec(ruleset: Ruleset) -> SolverSpec:
    """The spec :func:`yatzy.solver.solve.solve` builds for a ruleset without a bank cap given
    (the same rule: the ruleset's own cap, else the solver's; none without saved rolls)."""
    cap = ruleset.bank_cap if ruleset.bank_cap is not None else ruleset.solver_bank_cap
    return SolverSpec(ruleset, cap if ruleset.saved_rolls else 0)


@cache
def _cost(ruleset: Ruleset) -> tuple[str, float, int]:
    spec = default_spec(ruleset)
    masks = spec.reachable_masks
    cells = int((spec.umax[masks] - spec.ulo[masks] + 1).sum())
    work = cells * spec.levels * len(spec.keeps[0]) * (2 if spec.mode == MODE_YAHTZEE else 1)
    size = spec.table_bytes
    return table_key(spec), work / WORK_PER_SECOND, size


def table_cost(ruleset: Ruleset) -> TableCost | None:
    """What the table of ``ruleset`` costs the first time; None where there is none (DOZZY)."""
    if ruleset.uses_board:
        return None
    check_solvable(ruleset)
    key, seconds, size = _cost(ruleset)
    stored = (cache_dir() / f"{key}.npy").exists() and (cache_dir() / f"{key}.json").exists()
    return TableCost(stored, seconds, size)

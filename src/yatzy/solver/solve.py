"""Build (or load) the exact value table of a ruleset, with a progress bar and a disk cache."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import platformdirs

from ..errors import InvalidActionError
from ..i18n import _
from ..rules import Ruleset
from . import kernel
from .spec import SolverSpec

TABLE_VERSION = 1
Progress = Callable[[int, int], None]
"""Called with (masks done, masks in all) as layers finish."""


def cache_dir() -> Path:
    """Where value tables live: the user's cache folder (or $YATZY_CACHE_DIR)."""
    env = os.environ.get("YATZY_CACHE_DIR")
    return Path(env) if env else Path(platformdirs.user_cache_dir("yatzy"))


def check_solvable(ruleset: Ruleset) -> None:
    if ruleset.uses_board:
        raise InvalidActionError(
            _("dozzy is out of reach of the exact solver (the shared board); use the dozzy bot")
        )


@dataclass
class Solution:
    """The value of every state at the start of a turn: V[mask, aux, u]."""

    spec: SolverSpec
    values: np.ndarray
    seconds: float
    states: int

    @property
    def ruleset(self) -> Ruleset:
        return self.spec.ruleset

    @property
    def expected_score(self) -> float:
        """Expected final score of optimal play from the empty card."""
        return float(self.values[0, 0, 0])


_SOURCES = ("kernel.py", "spec.py", "solve.py")


def _solver_source_digest() -> bytes:
    """A digest of the solver's own code: a changed kernel never loads an old table."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for name in _SOURCES:
        h.update((here / name).read_bytes())
    return h.digest()


def table_key(spec: SolverSpec) -> str:
    """The cache name of a table: a hash of everything that defines it.

    That is the arrays the kernels read (scores of every roll in every box, bonus, order,
    jokers, keep rules: so a changed rule changes the key), the bank cap, and the
    solver's code.
    """
    h = hashlib.sha256()
    h.update(json.dumps({"rules": spec.ruleset.name, "bank_cap": spec.bank_cap,
                         "version": TABLE_VERSION}).encode())
    h.update(_solver_source_digest())
    for arg in spec.kernel_args:
        h.update(np.ascontiguousarray(arg).tobytes() if isinstance(arg, np.ndarray) else repr(arg).encode())
    return f"{spec.ruleset.name}-{h.hexdigest()[:16]}"


def _write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a unique temporary file and an atomic rename: two processes solving the
    same table at once both end with a whole file."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def solve(ruleset: Ruleset, *, bank_cap: int | None = None, use_cache: bool = True,
          progress: Progress | None = None) -> Solution:
    """Solve a ruleset exactly, or load its table from the cache (memory-mapped).

    :raises InvalidActionError: DOZZY (out of the solver's reach), or a bank cap for a
        ruleset without saved rolls.
    """
    check_solvable(ruleset)
    if bank_cap is not None and not ruleset.saved_rolls:
        raise InvalidActionError(
            _("{rules} has no saved rolls, so a bank cap means nothing there; "
              "bank caps are for maxi and osto").format(rules=ruleset.name)
        )
    if bank_cap is not None and bank_cap < 0:
        raise InvalidActionError(_("the bank cap is 0 or more, not {cap}").format(cap=bank_cap))
    cap = bank_cap if bank_cap is not None else (
        ruleset.bank_cap if ruleset.bank_cap is not None else ruleset.solver_bank_cap)
    spec = SolverSpec(ruleset, cap if ruleset.saved_rolls else 0)
    path = cache_dir() / f"{table_key(spec)}.npy"
    meta_path = path.with_suffix(".json")
    if use_cache and path.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        values = np.load(path, mmap_mode="r")
        return Solution(spec, values, 0.0, int(meta["states"]))
    t0 = time.perf_counter()
    values = build(spec, progress)
    seconds = time.perf_counter() - t0
    sol = Solution(spec, values, seconds, spec.states())
    if use_cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = json.dumps({"states": sol.states, "seconds": seconds,
                           "expected_score": sol.expected_score})

        def save_values(tmp: Path) -> None:
            with open(tmp, "wb") as fh:
                np.save(fh, values)

        _write_atomically(path, save_values)
        _write_atomically(meta_path, lambda tmp: tmp.write_text(meta))
    return sol


def build(spec: SolverSpec, progress: Progress | None = None) -> np.ndarray:
    """Run the DP layer by layer, fullest cards first."""
    _, cap, bonus_points = spec.bonus
    n_masks = 1 << spec.n_cat
    values = np.zeros((n_masks, spec.n_aux, cap + 1), dtype=np.float32)
    values[spec.full_mask, :, cap] = bonus_points
    masks = spec.reachable_masks
    pop = np.array([bin(int(m)).count("1") for m in masks])
    total = int((masks != spec.full_mask).sum())
    done = 0
    for filled in range(spec.n_cat - 1, -1, -1):
        layer = masks[pop == filled].astype(np.int64)
        kernel.solve_layer(layer, values, *spec.kernel_args, spec.umax, spec.ulo)
        done += len(layer)
        if progress is not None:
            progress(done, total)
    return values

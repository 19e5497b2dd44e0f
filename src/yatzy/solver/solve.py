"""Build (or load) the exact value table of a ruleset, with a progress bar and a disk cache."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numba
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
    known_states: int | None = None
    """The number of reachable states, if known (a cached table's meta says it); else counted
    when first asked (:attr:`states`: a tenth of a second for Yatzy, not spent on every solve)."""

    @property
    def states(self) -> int:
        """Reachable states (card, capped upper total, aux) the table covers."""
        if self.known_states is None:
            self.known_states = self.spec.states()
        return self.known_states

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


def save_array(path: Path, values: np.ndarray) -> None:
    """``values`` as the .npy file ``path``, written atomically (its folder made if need be)."""
    path.parent.mkdir(parents=True, exist_ok=True)

    def save(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # np.save to a name would add .npy to the temporary one
            np.save(fh, values)

    _write_atomically(path, save)


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
    if spec.table_bytes <= IN_MEMORY:
        values = build(spec, progress)
        seconds = time.perf_counter() - t0
        sol = Solution(spec, values, seconds)
        if use_cache:
            save_array(path, values)
    else:  # written a layer at a time to its file, memory-mapped from there
        path.parent.mkdir(parents=True, exist_ok=True)
        if use_cache:
            _write_atomically(path, lambda tmp: build_into(spec, tmp, progress))
            values = np.load(path, mmap_mode="r")
        else:  # a file of its own, gone once the table is let go
            fd, name = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
            os.close(fd)
            try:
                build_into(spec, Path(name), progress)
                values = np.load(name, mmap_mode="r")
            finally:
                os.unlink(name)
        seconds = time.perf_counter() - t0
        sol = Solution(spec, values, seconds)
    if use_cache:
        meta = json.dumps({"states": sol.states, "seconds": seconds,
                           "expected_score": sol.expected_score})
        _write_atomically(meta_path, lambda tmp: tmp.write_text(meta))
    return sol


CHUNK = 4
"""Groups of cards (``kernel.GROUP`` each: 32 cards) a thread takes at a time from its layer:
each takes more as it finishes, so a core busy with something else slows a layer by its share,
not by half (split in two halves, the layer waited for the slower: a Maxi layer took 1.3 times
as long on the shared machine)."""

IN_MEMORY = 256 * 2**20
"""Bytes of the biggest table built whole in memory; a bigger one (Maxi's) is written to its
file a layer at a time (:func:`build_into`), so its build holds two layers of cards, not the
table: Maxi's (1.78 GB) peaks at 0.83 GB, its two biggest layers and the interpreter."""


def build(spec: SolverSpec, progress: Progress | None = None) -> np.ndarray:
    """The whole table in memory, solved layer by layer, fullest cards first."""
    _, cap, _ = spec.bonus
    values = np.zeros((1 << spec.n_cat, spec.n_aux, cap + 1), dtype=np.float32)

    def keep(cards: np.ndarray, rows: np.ndarray) -> None:
        values[cards] = rows

    _solve_layers(spec, keep, progress)
    return values


def build_into(spec: SolverSpec, path: Path, progress: Progress | None = None) -> None:
    """The table written into the .npy file ``path`` a layer at a time, each card's row at its
    place; the rows of cards no game reaches stay zero (the file is sparse until written)."""
    _, cap, _ = spec.bonus
    shape = (1 << spec.n_cat, spec.n_aux, cap + 1)
    header = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=shape)
    offset, size = header.offset, shape[1] * shape[2] * 4
    del header  # the header written and the size set; no page of the table touched
    fd = os.open(path, os.O_WRONLY)

    def keep(cards: np.ndarray, rows: np.ndarray) -> None:
        data = np.ascontiguousarray(rows).data.cast("B")
        for i, m in enumerate(cards.tolist()):
            os.pwrite(fd, data[i * size:(i + 1) * size], offset + m * size)

    try:
        _solve_layers(spec, keep, progress)
    finally:
        os.close(fd)


def _solve_layers(spec: SolverSpec, keep: Callable[[np.ndarray, np.ndarray], None],
                  progress: Progress | None, bounded: bool = False) -> None:
    """Run the DP layer by layer, fullest cards first, handing each layer's cards and their
    rows to ``keep`` (on a thread of its own, while the next layer is solved). A layer reads
    only the one after it, so only those two are held (and the one before while it is kept).

    ``bounded``: a layer's rows hold only the banks a game can have saved by then (a turn
    saves at most rolls - 1), not ``bank_cap + 1`` each (:func:`exact_value`).
    """
    _, cap, bonus_points = spec.bonus
    masks = spec.reachable_masks.astype(np.int64)
    filled_in = np.bitwise_count(masks)
    layers = [masks[filled_in == filled] for filled in range(spec.n_cat + 1)]
    slot = np.zeros(1 << spec.n_cat, dtype=np.int64)  # a card's row in its layer's array
    for layer in layers:
        slot[layer] = np.arange(len(layer))

    banks = _bounded_banks(spec) if bounded else np.full(spec.n_cat + 1, spec.n_aux)
    after = np.zeros((1, banks[spec.n_cat], cap + 1), dtype=np.float32)  # the full card: the bonus, if earned
    after[0, :, cap] = bonus_points
    total, done = len(masks) - 1, 0
    # each layer kept (written to its file, for Maxi a second a layer) while the next is solved:
    # one write at a time, the next handed over once the one before is done
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="yatzy-keep") as writer:
        kept = writer.submit(keep, layers[spec.n_cat], after)
        for filled in range(spec.n_cat - 1, -1, -1):
            layer = layers[filled]
            rows = np.zeros((len(layer), banks[filled], cap + 1), dtype=np.float32)
            with numba.parallel_chunksize(CHUNK):
                kernel.solve_layer(layer, kernel.GROUP, rows, after, slot, *spec.kernel_args,
                                   spec.umax, spec.ulo)
            kept.result()
            kept = writer.submit(keep, layer, rows)
            after = rows
            done += len(layer)
            if progress is not None:
                progress(done, total)
        kept.result()


def _bounded_banks(spec: SolverSpec) -> np.ndarray:
    """How many banks (0, 1, ...) a card with f boxes filled can have, for each f: a turn saves
    at most rolls - 1, and the spec's cap bounds them all."""
    filled = np.arange(spec.n_cat + 1)
    return np.minimum((spec.ruleset.rolls_per_turn - 1) * filled, spec.bank_cap) + 1


def exact_cap(ruleset: Ruleset) -> int:
    """The bank cap that is no cap at all: the most a bank can hold before the last turn (a
    turn saves at most rolls - 1), or the ruleset's own cap if smaller."""
    cap = (ruleset.rolls_per_turn - 1) * (len(ruleset.categories) - 1)
    return cap if ruleset.bank_cap is None else min(cap, ruleset.bank_cap)


def exact_value(ruleset: Ruleset, progress: Progress | None = None) -> Solution:
    """The exact expected score of a saved-roll game with no bank cap: solved at
    :func:`exact_cap` with each layer holding only the banks a game can have by then, and only
    two layers at a time. No table is kept (Maxi's would be 13.9 GB): the Solution's values
    are the empty card's row alone (``values[0, bank, u]``, bank 0 only)."""
    check_solvable(ruleset)
    if not ruleset.saved_rolls:
        raise InvalidActionError(_("{rules} has no saved rolls; try maxi or osto").format(rules=ruleset.name))
    spec = SolverSpec(ruleset, exact_cap(ruleset))
    start: list[np.ndarray] = []

    def keep(cards: np.ndarray, rows: np.ndarray) -> None:
        if len(cards) == 1 and cards[0] == 0:
            start.append(rows.copy())

    t0 = time.perf_counter()
    _solve_layers(spec, keep, progress, bounded=True)
    seconds = time.perf_counter() - t0
    filled = np.bitwise_count(np.arange(1 << spec.n_cat))  # each card's boxes filled
    states = int((spec.upper_reach().sum(axis=1) * _bounded_banks(spec)[filled]).sum())
    return Solution(spec, start[0], seconds, states)

"""The value-table cache: keyed on what defines a table, written atomically."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import numpy as np
import pytest

from yatzy import scoring
from yatzy.errors import InvalidActionError
from yatzy.registry import get_ruleset
from yatzy.solver import solve as solve_module
from yatzy.solver.solve import solve, table_key
from yatzy.solver.spec import SolverSpec


def test_key_changes_with_a_rule_the_options_do_not_show() -> None:
    rs = get_ruleset("kids")
    changed = dataclasses.replace(rs, categories=(
        dataclasses.replace(rs.categories[0], score=partial(scoring.upper, face=2)),
        *rs.categories[1:]))
    assert changed.name == rs.name and changed.options == rs.options
    assert table_key(SolverSpec(rs, 0)) != table_key(SolverSpec(changed, 0))
    assert table_key(SolverSpec(rs, 0)) == table_key(SolverSpec(get_ruleset("kids"), 0))
    keep_one = get_ruleset("kids", must_keep_one=True)
    assert table_key(SolverSpec(rs, 0)) != table_key(SolverSpec(keep_one, 0))
    osto = get_ruleset("osto")
    assert table_key(SolverSpec(osto, 1)) != table_key(SolverSpec(osto, 2))


def test_key_changes_with_the_solver_code(monkeypatch: pytest.MonkeyPatch) -> None:
    key = table_key(SolverSpec(get_ruleset("kids"), 0))
    monkeypatch.setattr(solve_module, "_solver_source_digest", lambda: b"another kernel")
    assert table_key(SolverSpec(get_ruleset("kids"), 0)) != key


def test_bank_cap_only_for_saved_roll_games() -> None:
    with pytest.raises(InvalidActionError, match="yatzy has no saved rolls"):
        solve(get_ruleset("yatzy"), bank_cap=3)
    with pytest.raises(InvalidActionError, match="0 or more"):
        solve(get_ruleset("osto"), bank_cap=-1)


SOLVE_ONE = """
import sys
from yatzy.registry import get_ruleset
from yatzy.solver.solve import solve
print(solve(get_ruleset("kids")).expected_score)
"""


@pytest.mark.slow
def test_two_processes_solving_one_table(tmp_path: Path) -> None:
    env = {**os.environ, "YATZY_CACHE_DIR": str(tmp_path)}
    procs = [subprocess.Popen([sys.executable, "-c", SOLVE_ONE], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    values = {float(out) for out, _ in outs}
    assert len(values) == 1
    files = sorted(f.name for f in tmp_path.iterdir())
    assert [f for f in files if f.endswith(".tmp")] == []
    assert len([f for f in files if f.endswith(".npy")]) == 1
    assert len([f for f in files if f.endswith(".json")]) == 1
    meta = json.loads(next(tmp_path.glob("*.json")).read_text())
    assert abs(meta["expected_score"] - values.pop()) < 1e-6
    again = subprocess.run([sys.executable, "-c", SOLVE_ONE], env=env, capture_output=True, text=True,
                           check=True)
    assert float(again.stdout) == float(outs[0][0])


@pytest.mark.parametrize("use_cache", [True, False])
def test_a_table_bigger_than_memory_allows_is_written_a_layer_at_a_time(
        use_cache: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past ``IN_MEMORY`` bytes a table is written to its file layer by layer and read from
    there: the same values as a build in memory, the same progress; without the cache the file
    is gone once mapped (nothing left in the folder), with it the table is the cache's file."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    spec = SolverSpec(get_ruleset("kids"), 0)
    heard: list[tuple[int, int]] = []
    whole = solve_module.build(spec, lambda done, total: heard.append((done, total)))
    monkeypatch.setattr(solve_module, "IN_MEMORY", spec.table_bytes - 1)
    told: list[tuple[int, int]] = []
    sol = solve(get_ruleset("kids"), use_cache=use_cache, progress=lambda d, t: told.append((d, t)))
    assert isinstance(sol.values, np.memmap) and sol.values.shape == whole.shape
    assert np.array_equal(np.asarray(sol.values), whole)
    assert told == heard and told[-1][0] == told[-1][1] == len(spec.reachable_masks) - 1
    files = sorted(p.name for p in tmp_path.iterdir())
    key = table_key(spec)
    assert files == ([f"{key}.json", f"{key}.npy"] if use_cache else [])


def test_a_table_as_big_as_memory_allows_is_built_in_memory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At ``IN_MEMORY`` bytes exactly the table is built whole in memory (no file, not mapped)."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    spec = SolverSpec(get_ruleset("kids"), 0)
    monkeypatch.setattr(solve_module, "IN_MEMORY", spec.table_bytes)
    sol = solve(get_ruleset("kids"), use_cache=False)
    assert not isinstance(sol.values, np.memmap) and sol.values.flags.writeable
    assert list(tmp_path.iterdir()) == []


def test_a_build_into_its_file_that_stops_leaves_no_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A layered build stopped half way (its caller left: the progress callback raised) leaves
    neither the table nor its temporary file, with the cache or without."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(solve_module, "IN_MEMORY", 0)

    class Left(Exception):
        pass

    def leave(done: int, total: int) -> None:
        if done * 2 >= total:
            raise Left

    for use_cache in (True, False):
        with pytest.raises(Left):
            solve(get_ruleset("kids"), use_cache=use_cache, progress=leave)
        assert list(tmp_path.iterdir()) == []


def test_a_tables_states_are_counted_when_asked_and_kept_in_its_meta(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve without the cache counts no states until asked (then once); with the cache the
    meta keeps the count, and a table loaded from it answers without counting."""
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    counted: list[int] = []
    count = SolverSpec.states
    monkeypatch.setattr(SolverSpec, "states", lambda self: counted.append(1) or count(self))
    sol = solve(get_ruleset("kids"), use_cache=False)
    assert counted == []
    assert sol.states == sol.states == count(sol.spec) and counted == [1]
    solve(get_ruleset("kids"))  # built, its meta written
    assert counted == [1, 1]
    loaded = solve(get_ruleset("kids"))
    assert loaded.states == sol.states and counted == [1, 1]

"""The layers point one way (import-linter), and the light commands stay light."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold() -> None:
    """core <- solver <- bots <- session <- views <- front ends: no cycle, not even
    through an import inside a function (import-linter reads those too)."""
    linter = Path(sys.executable).with_name("lint-imports")
    r = subprocess.run([str(linter)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 2  # the layers, and the command's groups
    out = " ".join(r.stdout.split())  # lint-imports wraps long contract names
    for contract in contracts:
        assert f"{contract['name']} KEPT" in out, contract["name"]
    assert f"{len(contracts)} kept, 0 broken" in r.stdout


def test_import_and_help_do_not_load_matplotlib() -> None:
    code = ("import sys, yatzy, yatzy.cli, yatzy.session\n"
            "from typer.testing import CliRunner\n"
            "r = CliRunner().invoke(yatzy.cli.app, ['--help'])\n"
            "assert r.exit_code == 0, r.output\n"
            "print('matplotlib' in sys.modules, 'numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[0] == "False"


def test_a_plot_without_matplotlib_says_how_to_get_it(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import numpy as np
    import pytest

    from yatzy.errors import InvalidActionError
    from yatzy.plots import plot_histogram
    from yatzy.solver.simulate import Summary

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(InvalidActionError, match=r"pip install 'yatzy\[plot\]'"):
        plot_histogram(Summary(np.array([1, 2, 3])), str(tmp_path / "h.png"), "t")

"""The load script (benchmarks/load.py), bounded: a few games at once against a server it
starts on 127.0.0.1 end with no error. No timing is asserted (the figures are in the README)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the load script against a server process: not in the fast tier

ROOT = Path(__file__).resolve().parents[2]


def test_ten_concurrent_games_end_without_errors() -> None:
    spec = importlib.util.spec_from_file_location("load", ROOT / "benchmarks" / "load.py")
    assert spec is not None and spec.loader is not None
    load = importlib.util.module_from_spec(spec)
    sys.modules["load"] = load
    spec.loader.exec_module(load)
    report = load.run(games=10, think=0.01, ramp_up=0.1, time_limit=120, show=False)
    assert report.errors == []
    assert report.finished == 10 and len(report.latencies) == 10 * 60  # 15 rounds, 2 seats, roll and score
    assert len(report.making) == 10 and "p99" in report.summary()

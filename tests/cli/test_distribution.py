"""``yatzy distribution``: the JSON's fields, the plot, the text in a language, the refusal."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from yatzy.cli import app

runner = CliRunner()


def test_distribution_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "dist.png"
    r = runner.invoke(app, ["distribution", "--rules", "kids", "--json", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert abs(out["mean"] - out["policy_value"]) < 1e-6 and abs(out["mean"] - 77.4961) < 1e-4
    assert list(out["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]
    assert out["percentiles"]["50"] == 59 and list(out["at_least"]) == ["200", "250", "300", "325", "350"]
    assert abs(sum(p for _, p in out["pmf"]) - 1) < 1e-12
    assert out["plot"] == str(png) and png.stat().st_size > 10_000


def test_distribution_text_in_finnish() -> None:
    r = runner.invoke(app, ["distribution", "--rules", "kids", "--lang", "fi"])
    assert r.exit_code == 0, r.output
    assert "keskiarvo 77,4961" in r.output and "persentiilit: 1\xa0% 37" in r.output


def test_distribution_refuses_maxi_with_what_it_would_take() -> None:
    r = runner.invoke(app, ["distribution", "--rules", "maxi"])
    assert r.exit_code == 2
    assert "GiB of memory; this machine allows" in r.output

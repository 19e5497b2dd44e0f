"""``yatzy distribution``: the JSON's fields, the plot, the text in a language, targets, the
refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
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
    assert "so it would take a machine with" in r.output


def test_targets_in_json_and_in_words() -> None:
    r = runner.invoke(app, ["distribution", "--rules", "kids", "--json", "-t", "150", "--target", "100,0"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert list(out["targets"]) == ["150", "100", "0"]
    pmf = dict(out["pmf"])
    assert out["targets"]["100"] == pytest.approx(sum(p for s, p in pmf.items() if s >= 100), abs=1e-15)
    assert 0 < out["targets"]["150"] < 1e-4 and out["targets"]["0"] == pytest.approx(1, abs=1e-12)
    r = runner.invoke(app, ["distribution", "--rules", "kids", "-t", "100,150", "--lang", "sv"])
    assert r.exit_code == 0, r.output
    assert "chans till minst 100 poäng med optimalt spel: 37,00\xa0%" in r.output
    assert "chans till minst 150 poäng med optimalt spel: 1 på 3\xa0935\xa0344" in r.output


@pytest.mark.parametrize("bad,words", [
    ("-5", "ett mål är 0 poäng eller mer, inte -5"), ("tre", "ett mål är ett helt antal poäng, inte ”tre”"),
])
def test_a_bad_target_is_refused_in_words_before_any_work(bad: str, words: str) -> None:
    r = runner.invoke(app, ["distribution", "--rules", "maxi", "-t", bad, "--lang", "sv"])
    assert r.exit_code == 2 and words in r.output and "GiB" not in r.output

"""The command line's results, through Typer's runner: scores, rule sheets, solve, advise,
simulate and converge."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from yatzy.cli import app
from yatzy.names import LANGUAGES, label
from yatzy.registry import RULESETS

runner = CliRunner()


def test_score_maxi_json() -> None:
    r = runner.invoke(app, ["score", "--rules", "maxi", "--json", "666655"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data[0]["scores"]["full_house"] == 28 and data[0]["scores"]["tower"] == 34


def test_score_keeps_input_order_and_dozzy() -> None:
    r = runner.invoke(app, ["score", "--rules", "dozzy", "--json", "45452", "33345"])
    data = json.loads(r.stdout)
    assert [d["dice"] for d in data] == [[2, 4, 4, 5, 5], [3, 3, 3, 4, 5]]
    assert data[0]["scores"]["two_pairs"] == 18 and data[1]["scores"]["n9"] == 9


def test_score_bad_roll() -> None:
    r = runner.invoke(app, ["score", "6662"])
    assert r.exit_code == 2 and "this game rolls 5" in r.stderr and r.stdout == ""
    r = runner.invoke(app, ["score", "--rules", "nope", "66622"])
    assert r.exit_code == 2 and "known rulesets" in r.stderr


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_rule_sheets(name: str, lang: str) -> None:
    r = runner.invoke(app, ["rules", name, "--lang", lang])
    assert r.exit_code == 0, r.output
    assert label("max", lang) in r.output  # the max column, headed in the sheet's language


def test_maxi_naming_trap() -> None:
    assert "Talo (4+2)" in runner.invoke(app, ["rules", "maxi", "--lang", "fi"]).output
    assert "Hus (3+3)" in runner.invoke(app, ["rules", "maxi", "--lang", "sv"]).output
    da = runner.invoke(app, ["rules", "maxi", "--lang", "da"]).output
    assert "full_house" in da and "│ Hus " in da


def test_solve_and_advise_json() -> None:
    r = runner.invoke(app, ["solve", "--rules", "forced", "--option", "bonus_threshold=42",
                            "--json"])
    data = json.loads(r.stdout)
    assert abs(data["expected_score"] - 150.2167965) < 1e-4
    assert set(data) >= {"rules", "options", "expected_score", "states", "seconds"}
    r = runner.invoke(app, ["advise", "--dice", "13356", "--rolls-left", "2", "--filled",
                            "ones,twos", "--upper", "5", "--json"])
    assert r.exit_code == 0, r.output
    opts = json.loads(r.stdout)["options"]
    assert opts[0]["regret"] == 0 and opts[0]["action"].startswith(("k ", "r", "s "))
    assert [o["value"] for o in opts] == sorted((o["value"] for o in opts), reverse=True)
    r = runner.invoke(app, ["advise", "--dice", "133", "--json"])
    assert r.exit_code == 2


@pytest.mark.slow
def test_simulate_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "hist.png"
    r = runner.invoke(app, ["simulate", "--rules", "kids", "--games", "200", "--seed", "3",
                            "--plot", str(png), "--json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games"] == 200 and png.stat().st_size > 1000
    r = runner.invoke(app, ["simulate", "--rules", "dozzy", "--games", "20", "--bot", "dozzy",
                            "--json"])
    assert json.loads(r.stdout)["games"] == 20


@pytest.mark.slow
def test_converge_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "conv.png"
    r = runner.invoke(app, ["converge", "--rules", "osto", "--caps", "0,1", "--json", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [p["bank_cap"] for p in out["points"]] == [0, 1]
    assert out["points"][1]["expected_score"] > out["points"][0]["expected_score"]
    assert png.stat().st_size > 10_000
    r = runner.invoke(app, ["converge", "--rules", "osto", "--caps", "two"])
    assert r.exit_code == 2 and "0-4,8,16" in r.output


def test_a_bar_of_unknown_size_shows_no_count() -> None:
    """A task whose total is not known (the simulator getting ready) shows its bar and time,
    not "0/None"; a task of known size shows how far it is, in its unit."""
    from yatzy.cli.common import progress_bar

    bar = progress_bar()
    unknown = bar.add_task("getting ready", total=None, unit="")
    known = bar.add_task("playing", total=10, unit="games", completed=3)
    counts = {t.id: "".join(str(c.render(t)) for c in bar.columns[2:3]) for t in bar.tasks}
    assert counts[unknown] == ""
    assert counts[known] == "3/10 games"

"""``yatzy advise --target``: each option's chance in JSON and in words, and the targets and
points refused (both sides of each limit)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from yatzy.cli import app
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.solver.target import target_options

runner = CliRunner()
KIDS = ["advise", "--rules", "kids", "--dice", "23446", "--filled", "ones,twos,threes", "--upper", "9"]


def test_each_option_gains_its_chance_in_json() -> None:
    r = runner.invoke(app, [*KIDS, "--target", "49", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert (out["target"], out["points"], out["need"]) == (49, 9, 40) and out["work"] > 0
    c = Coach(solve(get_ruleset("kids")))
    want = target_options(c, c.position(["ones", "twos", "threes"], (2, 3, 4, 4, 6), 2, upper=9), 40)
    assert [(o["action"], o["chance"]) for o in out["options"]] == [
        (str(o.option.action), o.chance) for o in want.options]
    assert all("value" in o and "regret" in o for o in out["options"])
    r = runner.invoke(app, [*KIDS, "--target", "49", "--points", "19", "--json"])
    assert json.loads(r.stdout)["need"] == 30


def test_the_table_in_swedish() -> None:
    r = runner.invoke(app, [*KIDS, "--target", "49", "--lang", "sv"])
    assert r.exit_code == 0, r.output
    assert "poäng 9, mål 49" in r.output and "chans att nå målet" in r.output


RANGE = "a target is a whole number of points from 0 to 155 in kids (the most a game can score)"


@pytest.mark.parametrize(("args", "words"), [
    (["--target", "x"], f"{RANGE}, not x"),
    (["--target", "-1"], f"{RANGE}, not -1"),
    (["--target", "156"], f"{RANGE}, not 156"),
    (["--target", "100,120"], f"{RANGE}, not 100,120"),
    (["--target", "100", "--points", "8"], "the points so far are 9 (the upper total) to 155, not 8"),
    (["--target", "100", "--points", "156"], "the points so far are 9 (the upper total) to 155, not 156"),
])
def test_a_bad_target_or_score_is_refused_in_words(args: list[str], words: str) -> None:
    r = runner.invoke(app, [*KIDS, *args])
    assert r.exit_code == 2 and words in r.output


def test_the_limits_themselves_are_allowed() -> None:
    for args in (["--target", "155"], ["--target", "0", "--points", "155"], ["--target", "0"]):
        r = runner.invoke(app, [*KIDS, *args, "--json"])
        assert r.exit_code == 0, r.output
    assert all(o["chance"] == pytest.approx(1.0, abs=1e-12) for o in json.loads(r.stdout)["options"])


def test_saved_roll_games_and_early_positions_are_refused() -> None:
    r = runner.invoke(app, ["advise", "--rules", "maxi", "--dice", "123456", "--target", "200"])
    assert r.exit_code == 2 and "saved rolls (maxi)" in r.output
    r = runner.invoke(app, ["advise", "--dice", "13356", "--target", "250", "--lang", "fi"])
    assert r.exit_code == 2 and "15 kohtaa vapaana" in r.output and "noin 9 vapaata kohtaa" in r.output

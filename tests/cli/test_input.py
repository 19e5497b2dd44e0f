"""The command line refuses bad input in one plain line on stderr (exit 2); results go to stdout.

Also the coach's library checks (``Coach.position``) and, with Hypothesis, the regret of
every option over many legal positions.
"""

from __future__ import annotations

import errno
import json
import re
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from typer.main import get_command
from typer.testing import CliRunner

import yatzy.bots as bots_mod
import yatzy.plots as plots_mod
import yatzy.solver.convergence as convergence_mod
import yatzy.solver.simulate as simulate_mod
import yatzy.solver.solve as solve_mod
from yatzy.actions import Score
from yatzy.bots import BOTS
from yatzy.cli import app
from yatzy.errors import YatzyError
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.convergence import CapPoint
from yatzy.solver.simulate import Summary
from yatzy.solver.solve import Solution, solve
from yatzy.solver.spec import SolverSpec

runner = CliRunner()

ALL_YATZY = ("ones,twos,threes,fours,fives,sixes,one_pair,two_pairs,three_of_a_kind,four_of_a_kind,"
             "small_straight,large_straight,full_house,chance,yatzy")
PYTHON_LOOKS = re.compile(r"\bNone\b|\bFalse\b|\bTrue\b|[\[\]{}]|'[^'\s]+'|Traceback|Error\b")


def refused(args: list[str], *needles: str) -> str:
    """Run the command; it must exit 2 with one clean line on stderr naming the problem."""
    r = runner.invoke(app, args)
    assert r.exit_code == 2, (r.exit_code, r.output, r.exception)
    assert r.stdout == "", r.stdout
    lines = r.stderr.splitlines()
    assert len(lines) == 1, r.stderr
    line = lines[0]
    assert line.startswith("error: "), line
    assert not PYTHON_LOOKS.search(line), line
    assert "\x1b" not in line, line
    for needle in needles:
        assert needle in line, line
    return line


@cache
def coach(name: str) -> Coach:
    return Coach(solve(get_ruleset(name)))


def zero_solution(name: str, cap: int, **options: object) -> Solution:
    """A table of zeros (solver bank cap ``cap``): enough for positions and one turn's points."""
    spec = SolverSpec(get_ruleset(name, **options), cap)
    values = np.zeros((1 << spec.n_cat, spec.n_aux, spec.bonus[1] + 1), dtype=np.float32)
    return Solution(spec, values, 0.0, 0)


# ---- 1. advise refuses impossible positions ---------------------------------------------------
@pytest.mark.parametrize("args,needles", [
    (["--upper", "7"], ["upper total is 0", "no upper box is filled", "7"]),
    (["--filled", "ones", "--upper", "50"], ["at most 5", "ones", "50"]),
    (["--filled", "fours,sixes", "--upper", "11"], ["11 cannot be made", "possible totals are 0, 4, 6, 8"]),
    (["--filled", "ones,ones"], ["ones is named twice"]),
    (["--filled", "ones,onez"], ["“onez” is not a box of yatzy", "ones, twos"]),
    (["-r", "forced", "--filled", "twos"], ["in order", "ones comes next"]),
    (["-r", "forced", "-o", "order=up", "--filled", "ones"], ["yatzy first", "yatzy comes next"]),
    (["--saved", "3"], ["yatzy has no saved rolls", "only maxi and osto"]),
    (["-r", "maxi", "-d", "133566", "-o", "saved_rolls=false", "--saved", "1"],
     ["saved_rolls=false", "only maxi with saved rolls and osto"]),
    (["-r", "osto", "-o", "bank_cap=2", "--saved", "3"], ["at most 2 saved rolls", "not 3"]),
    (["-r", "osto", "--saved", "-1"], ["cannot be negative"]),
    (["--yahtzee-50"], ["Yahtzee box", "only in yahtzee", "not in yatzy"]),
    (["-r", "yahtzee", "--yahtzee-50"], ["Yahtzee box", "once it is filled"]),
    (["--rolls-left", "3"], ["rolls left this turn must be 0 to 2", "not 3"]),
    (["--filled", ALL_YATZY, "--upper", "0"], ["every box is filled"]),
    (["-r", "dozzy"], ["dozzy"]),
])
def test_advise_refuses_impossible_positions(args: list[str], needles: list[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def no_solving(*_: object, **__: object) -> None:
        raise AssertionError("a refused position must not be solved first")

    monkeypatch.setattr(solve_mod, "solve", no_solving)
    base = ["advise"] if "-d" in args else ["advise", "-d", "13356"]
    refused(base + args, *needles)


@pytest.mark.parametrize("name,filled,upper,kwargs,needle", [
    ("yatzy", [], 7, {}, "upper total is 0"),
    ("yatzy", ["ones"], 50, {}, "at most 5"),
    ("yatzy", ["twos", "fours"], 3, {}, "3 cannot be made"),
    ("yatzy", ["ones", "ones"], 1, {}, "named twice"),
    ("yatzy", ["nope"], 0, {}, "not a box"),
    ("yatzy", [], 0, {"saved": 3}, "no saved rolls"),
    ("yatzy", [], 0, {"yahtzee_50": True}, "only in yahtzee"),
    ("yahtzee", ["chance"], 0, {"yahtzee_50": True}, "once it is filled"),
    ("yahtzee", [], 0, {"aux": 1}, "once it is filled"),
    ("yahtzee", ["yahtzee"], 0, {"aux": 2}, "aux is 1"),
])
def test_coach_position_refuses_for_every_caller(name: str, filled: list[str], upper: int,
                                                 kwargs: dict[str, object], needle: str) -> None:
    c = Coach(zero_solution(name, 0))
    with pytest.raises(YatzyError, match=needle):
        c.position(filled, (1, 3, 3, 5, 6), 2, upper, **kwargs)  # type: ignore[arg-type]


def test_coach_position_accepts_legal_positions() -> None:
    c = Coach(zero_solution("yahtzee", 0))
    pos = c.position(["yahtzee", "sixes", "twos"], (1, 3, 3, 5, 6), 1, 28, yahtzee_50=True)
    assert (pos.upper, pos.aux, pos.rolls_left) == (28, 1, 1)
    assert c.position(["yahtzee"], (6, 6, 6, 6, 6), 0, 0).aux == 0
    forced = Coach(zero_solution("forced", 0))
    assert forced.position(["ones", "twos"], (1, 3, 3, 5, 6), 2, 5).filled == {"ones", "twos"}


def test_saved_rolls_add_to_the_rolls_left(monkeypatch: pytest.MonkeyPatch) -> None:
    """Osto: the bank and the turn's rolls are one pool (before, --saved was silently ignored)."""
    sol = zero_solution("osto", 2, bank_cap=2)
    c = Coach(sol)
    pos = c.position(["ones"], (1, 3, 3, 5, 6), 1, 2, saved=2)
    assert (pos.rolls_left, pos.aux) == (3, 2)
    # the same position in the table's own terms (rolls left already counting the bank)
    assert c.position(["ones"], (1, 3, 3, 5, 6), 3, 2, aux=2) == pos

    monkeypatch.setattr(solve_mod, "solve", lambda *_, **__: sol)

    def best(saved: str) -> float:
        r = runner.invoke(app, ["advise", "-r", "osto", "-o", "bank_cap=2", "-d", "13356",
                                "--rolls-left", "0", "--saved", saved, "--json"])
        assert r.exit_code == 0, r.output
        return float(json.loads(r.stdout)["options"][0]["value"])

    # with an all-zero table only this turn counts: a saved roll makes it worth more
    assert best("1") > best("0")


def test_saved_rolls_past_the_solver_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Osto has no cap on saved rolls; past the solver's, the position is ranked as at the cap."""
    sol = zero_solution("osto", 1)
    monkeypatch.setattr(solve_mod, "solve", lambda *_, **__: sol)
    r = runner.invoke(app, ["advise", "-r", "osto", "-d", "13356", "--saved", "3"])
    assert r.exit_code == 0, r.output
    assert "5 rolls left (2 this turn + 3 saved), ranked as 3: the solver tracks 1 saved at most" in " ".join(
        r.stdout.split())
    assert Coach(sol).position([], (1, 3, 3, 5, 6), 2, 0, saved=3).rolls_left == 3


# ---- 2. plots are checked before the work; a late failure keeps the results -------------------
@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    def work(*_: object, **__: object) -> None:
        raise AssertionError("the work started before the plot path was checked")

    for mod, name in ((simulate_mod, "simulate_optimal"), (bots_mod, "simulate_bot"),
                      (convergence_mod, "converge"), (solve_mod, "solve")):
        monkeypatch.setattr(mod, name, work)


@pytest.mark.usefixtures("no_work")
@pytest.mark.parametrize("args,needles", [
    (["simulate", "-r", "kids", "--plot", "/no/such/dir/x.png"], ["no folder /no/such/dir"]),
    (["simulate", "-r", "kids", "--bot", "greedy", "--plot", "x.txt"], [".png, .svg or .pdf", ".txt"]),
    (["simulate", "-r", "kids", "--plot", "plot"], [".png, .svg or .pdf", "plot has none"]),
    (["converge", "--caps", "0,1", "--plot", "/no/such/c.png"], ["no folder /no/such"]),
    (["converge", "--caps", "0,1", "--plot", "c.jpeg"], [".png, .svg or .pdf", ".jpeg"]),
])
def test_plot_path_checked_before_the_work(args: list[str], needles: list[str]) -> None:
    refused(args, *needles)


@pytest.mark.usefixtures("no_work")
def test_plot_path_is_a_file(tmp_path: Path) -> None:
    refused(["simulate", "-r", "kids", "--plot", str(tmp_path)], "is a folder", str(tmp_path / "plot.png"))


def _disk_full(*_: object, **__: object) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


@pytest.mark.parametrize("as_json", [True, False])
def test_simulate_prints_results_when_the_plot_fails(as_json: bool, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_mod, "simulate_bot",
                        lambda *_, **__: Summary(np.array([40, 50, 60], dtype=np.int64)))
    monkeypatch.setattr(plots_mod, "plot_histogram", _disk_full)
    png = tmp_path / "hist.png"
    r = runner.invoke(app, ["simulate", "-r", "kids", "--bot", "greedy", "-n", "3", "--plot", str(png)]
                      + (["--json"] if as_json else []))
    assert r.exit_code == 2, r.output
    if as_json:
        out = json.loads(r.stdout)
        assert out["mean"] == 50 and "plot" not in out
    else:
        assert "mean 50.00" in r.stdout and "histogram" not in r.stdout
    assert r.stderr.splitlines() == [f"error: could not save the plot to {png}: No space left on device"]


def test_converge_prints_results_when_the_plot_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    points = [CapPoint(0, 248.44, 100, 0.1), CapPoint(1, 259.85, 200, 0.2)]
    monkeypatch.setattr(convergence_mod, "converge", lambda *_: points)
    monkeypatch.setattr(plots_mod, "plot_convergence", _disk_full)
    r = runner.invoke(app, ["converge", "--caps", "0,1", "--plot", str(tmp_path / "c.svg"), "--json"])
    assert r.exit_code == 2, r.output
    assert [p["bank_cap"] for p in json.loads(r.stdout)["points"]] == [0, 1]
    assert len(r.stderr.splitlines()) == 1 and "No space left on device" in r.stderr


# ---- 3. bank caps --------------------------------------------------------------------------------
def test_reversed_cap_range() -> None:
    refused(["converge", "--caps", "4-2"], "reversed", "write 2-4")
    refused(["converge", "--caps", "0-2,x"], "0-4,8,16", "“0-2,x”")
    refused(["solve", "-r", "osto", "--bank-cap", "-1"], "0 or more", "-1")


def test_bank_cap_on_a_game_without_saved_rolls() -> None:
    refused(["solve", "-r", "yatzy", "--bank-cap", "3"], "yatzy")


# ---- 4. errors on stderr, nothing stray on stderr when all is well ------------------------------
def test_errors_go_to_stderr() -> None:
    refused(["score", "1234"], "1234", "5")
    refused(["score", "--rules", "nope", "66622"], "nope")
    refused(["rules", "nope"], "nope")


def test_success_leaves_stderr_empty(tmp_path: Path) -> None:
    r = runner.invoke(app, ["advise", "-d", "13356", "--filled", "ones", "--upper", "2", "--json"])
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert json.loads(r.stdout)["options"][0]["regret"] == 0
    r = runner.invoke(app, ["simulate", "-r", "kids", "-n", "30", "--json"])
    assert r.exit_code == 0, r.output
    assert r.stderr == "" and json.loads(r.stdout)["games"] == 30
    r = runner.invoke(app, ["simulate", "-r", "kids", "-n", "30", "--bot", "beginner", "--plot",
                            str(tmp_path / "h.svg")])
    assert r.exit_code == 0, r.output
    assert r.stderr == "" and "beginner bot, 30 games: mean" in r.stdout
    assert (tmp_path / "h.svg").stat().st_size > 1000


# ---- 5. --load keeps the saved game's own rules, players and seed --------------------------------
@pytest.fixture
def saved_game(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    path.write_text(Game("kids", ["Ann", "greedy (bot)"], seed=5).to_json(), encoding="utf-8")
    return path


@pytest.mark.parametrize("extra,named", [
    (["--rules", "maxi"], "--rules"), (["-r", "yatzy"], "--rules"), (["-p", "Bo"], "--players"),
    (["-o", "must_keep_one=true"], "--option"), (["--seed", "0"], "--seed"),
    (["--seed", "3", "-r", "kids"], "--rules and --seed"),
])
def test_load_refuses_options_it_would_ignore(saved_game: Path, extra: list[str], named: str) -> None:
    refused(["play", "--load", str(saved_game), *extra], "--load", named)


def test_load_alone_continues_the_game(saved_game: Path, tmp_path: Path) -> None:
    r = runner.invoke(app, ["play", "--load", str(saved_game)], input="")
    assert r.exit_code == 0, r.output
    refused(["play", "--load", str(tmp_path / "missing.json")], "cannot read", "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    refused(["play", "--load", str(bad)], "not valid JSON")


def test_play_refuses_an_unknown_bot_or_no_seat() -> None:
    refused(["play", "-p", "Ann,bot:wizard"], "“wizard”", ", ".join(BOTS))
    refused(["play", "-p", " , "], "at least one seat")
    refused(["simulate", "--bot", "wizard"], "“wizard”", ", ".join(BOTS))


# ---- 6. help and the advise table ----------------------------------------------------------------
def test_every_option_has_help() -> None:
    group = get_command(app)
    for name, cmd in group.commands.items():  # type: ignore[attr-defined]
        for param in cmd.params:
            if param.name in ("lang", "games", "seed") or param.param_type_name == "option":
                assert getattr(param, "help", None), f"{name} --{param.name} has no help"


def test_a_bot_nobody_named_is_named_in_the_games_language() -> None:
    r = runner.invoke(app, ["play", "--plain", "--lang", "fi", "-p", "Me,bot:greedy,bot:random:Robo",
                            "--seed", "1"], input="q\nk\n")
    assert r.exit_code == 0, r.output
    assert "Me 0 · Ahne botti 0 · Robo 0" in r.stdout and "Greedy bot" not in r.stdout
    r = runner.invoke(app, ["play", "--plain", "-p", "bot:beginner", "--seed", "1"], input="q\nk\n")
    assert "Beginner bot" in r.stdout


@pytest.mark.parametrize("command", ["play", "simulate"])
def test_help_lists_every_bot(command: str) -> None:
    r = runner.invoke(app, [command, "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    assert ", ".join(BOTS) in " ".join(r.stdout.split())  # the help wraps at the terminal's width


def test_help_names_a_value_beside_an_option_and_none_beside_a_flag() -> None:
    """Typer's Rich help printed "<bool>" beside every flag (--plain, --roll-off, --help)."""
    group = get_command(app)
    for name in group.commands:  # type: ignore[attr-defined]
        r = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"})
        assert r.exit_code == 0 and "--help" in r.stdout, name
        assert "<bool>" not in r.stdout, name
    r = runner.invoke(app, ["play", "--help"], env={"COLUMNS": "200"})
    assert "--seed <int>" in r.stdout and "--players <str>" in r.stdout
    plain = next(line for line in r.stdout.splitlines() if line.lstrip().startswith("--plain"))
    assert plain.split()[:2] == ["--plain", "the"]  # its help follows at once


def test_advise_table_labels_its_columns() -> None:
    r = runner.invoke(app, ["advise", "-d", "66622", "--rolls-left", "1", "--filled", "ones", "--upper", "0"],
                      env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    assert "1 roll left" in r.stdout
    assert "points now" in r.stdout and "expected points to come" in r.stdout
    assert "this turn included" in r.stdout
    row = next(line for line in r.stdout.splitlines() if "score Full House" in line)
    assert "22" in row.split("│")[2]
    r = runner.invoke(app, ["advise", "-d", "66622", "--rolls-left", "0", "--json"])
    opts = {o["action"]: o for o in json.loads(r.stdout)["options"]}
    assert opts["s full_house"]["points"] == 22 and opts["s sixes"]["points"] == 18


# ---- 7. unknown languages -------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["rules"], ["score", "66622"], ["play"]])
def test_unknown_language(args: list[str]) -> None:
    refused([*args, "--lang", "xx"], "“xx”", "en, fi, sv, da, nb, ru")


# ---- 8. regret over many legal positions ---------------------------------------------------------
@st.composite
def legal_positions(draw: st.DrawFn) -> tuple[str, list[str], tuple[int, ...], int, int, bool]:
    name = draw(st.sampled_from(["yatzy", "yahtzee"]))
    rs = get_ruleset(name)
    filled = sorted(draw(st.sets(st.sampled_from(rs.category_ids), max_size=len(rs.categories) - 1)))
    upper = sum(draw(st.integers(0, rs.dice)) * (rs.by_id[c].face or 0) for c in filled)
    dice = tuple(draw(st.lists(st.integers(1, 6), min_size=rs.dice, max_size=rs.dice)))
    rolls_left = draw(st.integers(0, rs.rolls_per_turn - 1))
    yahtzee_50 = "yahtzee" in filled and draw(st.booleans())
    return name, filled, dice, rolls_left, upper, yahtzee_50


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(legal_positions())
def test_regret_is_never_negative(case: tuple[str, list[str], tuple[int, ...], int, int, bool]) -> None:
    name, filled, dice, rolls_left, upper, yahtzee_50 = case
    event(name)
    c = coach(name)
    options = c.options(c.position(filled, dice, rolls_left, upper, yahtzee_50=yahtzee_50))
    assert options and options[0].regret == 0
    best = options[0].value
    for a, b in zip(options, options[1:], strict=False):
        assert a.value >= b.value
    for o in options:
        assert o.regret >= 0
        assert abs(o.regret - (best - o.value)) < 1e-9
        assert (o.points is not None) == isinstance(o.action, Score)

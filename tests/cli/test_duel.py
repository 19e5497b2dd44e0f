"""``yatzy duel``: its JSON in the order the bots were given, its table, its refusals."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from yatzy.cli import app

runner = CliRunner()


def test_duel_command_json_is_in_the_order_given() -> None:
    r = runner.invoke(app, ["duel", "--rules", "kids", "--bots", "random,greedy", "--games", "20",
                            "--seed", "4", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["games"] == 20
    assert [b["bot"] for b in out["bots"]] == ["random", "greedy"]
    assert set(out["bots"][0]) == {"bot", "wins", "draws", "win_rate", "ci95"}
    for b in out["bots"]:
        assert b["ci95"][0] <= b["win_rate"] <= b["ci95"][1]
    assert out["bots"][1]["win_rate"] > out["bots"][0]["win_rate"]


def test_duel_command_table_and_refusals() -> None:
    r = runner.invoke(app, ["duel", "-r", "kids", "--bots", "greedy,random", "-n", "10", "--lang", "fi"])
    assert r.exit_code == 0, r.output
    assert "greedy" in r.stdout and "random" in r.stdout
    for args, needle in ((["--bots", "greedy,wizard"], "“wizard”"), (["--bots", "greedy"], "win,optimal"),
                         (["--bots", "greedy,random", "-n", "0"], "0"),
                         (["--bots", "greedy,random", "-r", "nope"], "“nope”")):
        r = runner.invoke(app, ["duel", *args])
        assert r.exit_code == 2 and r.stdout == ""
        assert r.stderr.startswith("error: ") and needle in r.stderr and len(r.stderr.splitlines()) == 1

"""yatzy play keeps finished games; yatzy history lists, replays and counts them; yatzy sheet."""

from __future__ import annotations

import subprocess
from pathlib import Path

from typer.testing import CliRunner

from yatzy.cli import app

runner = CliRunner()


def test_a_played_game_is_read_back_by_history(tmp_path: Path) -> None:
    from yatzy.storage.engine import DB_FILE

    db = f"sqlite:///{tmp_path / DB_FILE}"
    env = {"YATZY_DATA_DIR": str(tmp_path)}
    # the line game with two bots plays to the end from empty input
    r = runner.invoke(app, ["play", "-r", "kids", "-p", "bot:greedy,bot:random", "--seed", "5"], env=env,
                      input="")
    assert r.exit_code == 0, r.output
    assert "kept in your history as game 1" in r.stdout
    r = runner.invoke(app, ["history", "--db", db])
    assert r.exit_code == 0, r.output
    assert "Greedy bot" in r.stdout and "kids" in r.stdout
    r = runner.invoke(app, ["history", "show", "1", "--db", db])
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stdout.splitlines() if line.strip()[:1].isdigit()]
    assert len(lines) >= 2 * 6 * 2 and "winner:" in r.stdout
    r = runner.invoke(app, ["history", "stats", "--db", db, "--lang", "fi"], env={"COLUMNS": "200"})
    assert r.exit_code == 0 and "Greedy bot" in r.stdout
    r = runner.invoke(app, ["history", "show", "7", "--db", db])
    assert r.exit_code == 2 and r.stdout == "" and "7" in r.stderr


def test_sheet_writes_a_pdf(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    r = runner.invoke(app, ["sheet", "-r", "maxi", "--lang", "sv", "-p", "3", "--large",
                            "--output", str(out)])
    assert r.exit_code == 0, r.output
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "Maxiyatzy" in text and "Torn (4+2)" in text
    r = runner.invoke(app, ["sheet", "--output", str(tmp_path / "s.png")])
    assert r.exit_code == 2 and ".pdf" in r.stderr
    r = runner.invoke(app, ["sheet", "--output", "/no/such/dir/s.pdf"])
    assert r.exit_code == 2 and "/no/such/dir" in r.stderr


def test_sheet_takes_house_rules_with_o_like_every_command(tmp_path: Path) -> None:
    out = tmp_path / "s.pdf"
    r = runner.invoke(app, ["sheet", "-o", "bonus_threshold=42", "--output", str(out)])
    assert r.exit_code == 0, r.output
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "bonus_threshold=42" in " ".join(text.split())
    r = runner.invoke(app, ["sheet", "-o", str(out)])  # -o is not the file: a house rule is name=value
    assert r.exit_code == 2 and "name=value" in r.stderr


def test_history_lists_an_unfinished_game_with_no_winner(tmp_path: Path) -> None:
    """A game recorded before its end (a web room's, a saved one) has no winner yet: its row
    says unfinished and leaves the winner empty."""
    from yatzy.game import Game
    from yatzy.registry import get_ruleset
    from yatzy.seats import parse_seats
    from yatzy.storage import Database, record_game

    db = f"sqlite:///{tmp_path / 'h.db'}"
    with Database(db) as database:
        record_game(database, Game(get_ruleset("kids"), parse_seats("Ann,Bo"), 3))
    r = runner.invoke(app, ["history", "--db", db], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    row = next(line for line in r.stdout.splitlines() if "Ann 0, Bo 0" in line)
    assert "unfinished" in row and row.rstrip(" │").endswith("Bo 0")


def test_names_are_text_in_every_history_command(tmp_path: Path) -> None:
    """A name that reads as Rich markup ("[/x]" closes nothing, "[link=…]" would plant a
    terminal hyperlink) is printed as it was typed; it used to end the list, the replay and the
    statistics with a MarkupError."""
    from helpers.games import play_out
    from yatzy.game import Game
    from yatzy.registry import get_ruleset
    from yatzy.storage import Database, record_game
    from yatzy.storage.engine import DB_FILE

    db = f"sqlite:///{tmp_path / DB_FILE}"
    odd, link = "[/x]", "[link=https://evil.example]Eve[/link]"
    game = play_out(Game(get_ruleset("kids"), [odd, link], seed=3))
    record_game(Database(db), game)
    for args in (["history"], ["history", "show", "1"], ["history", "stats", "-r", "kids"]):
        r = runner.invoke(app, [*args, "--db", db], env={"COLUMNS": "250"})
        assert r.exit_code == 0, (args, r.output)
        assert odd in r.stdout and link in r.stdout, (args, r.stdout)

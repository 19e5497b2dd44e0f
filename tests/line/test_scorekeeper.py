"""``yatzy keep``: the scorekeeper for real dice, line by line (``--plain``, or piped input)."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from helpers.games import DOZZY_ROUNDS
from yatzy.cli import app
from yatzy.game import Game
from yatzy.line.scorekeeper import keep_score
from yatzy.registry import get_ruleset
from yatzy.storage import Database, default_url, list_games, load_game

YATZY = Path(sys.executable).with_name("yatzy")


def keep(game: Game, lines: Iterable[str], lang: str = "en") -> str:
    """The line scorekeeper on scripted lines; EOF after the last."""
    out = io.StringIO()
    feed = iter(lines)

    def ask(_prompt: str) -> str:
        for line in feed:
            return line
        raise EOFError

    keep_score(game, lang=lang, ask=ask, console=Console(file=out, width=100))
    return out.getvalue()


def whole_game(rules: str, players: int) -> list[str]:
    """Every turn: one throw typed, then the player's next box by its number."""
    n = get_ruleset(rules).dice
    lines = []
    for box in range(1, len(get_ruleset(rules).category_ids) + 1):
        for p in range(players):
            lines += [" ".join(str((box + p + i) % 6 + 1) for i in range(n)), f"s {box}"]
    return lines


@pytest.mark.slow
def test_a_whole_game_from_piped_input_without_escape_codes(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))  # the history of the command below
    lines = whole_game("yatzy", 2)
    # a wrong throw, a fix of Anna's first round (the same box, other dice), the card
    lines[2:2] = ["1234", "f", "Anna", "1", "11111", "1", "c"]
    command = [str(YATZY), "keep", "--plain", "--players", "Anna,Ben"]
    r = subprocess.run(command, input="\n".join(lines) + "\n", capture_output=True, text=True,
                       env={**os.environ, "NO_COLOR": "1"})
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout + r.stderr
    assert "Anna, round 1: dice thrown (or a box name, u undo, f fix, c card, q quit)" in r.stdout
    assert "Yatzy (Scandinavian) is played with 5 dice; you typed 4" in r.stdout
    assert "Corrected: Anna, round 1: 1 1 1 1 1 → 1 Ones 5." in r.stdout
    assert " wins with " in r.stdout or "A tie:" in r.stdout
    assert "kept in your history as game 1" in r.stdout
    with Database(default_url()) as db:
        [summary] = list_games(db)
        assert summary.dice_from == "players"
        game = load_game(db, summary.id)
    assert game.is_over and len(game.amendments) == 1 and game.state.players[0].card["ones"] == 5


def test_a_finished_game_is_kept_before_the_terminal_goes(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal closes right after the last box is filled (the next line printed fails):
    the game is in the history all the same."""
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    game = Game("kids", ["Anna"], dice_from="players")

    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            if game.is_over:
                raise OSError(errno.EIO, "the terminal is gone")
            return super().write(text)

    lines = iter(whole_game("kids", 1))
    with pytest.raises(OSError):
        keep_score(game, ask=lambda _prompt: next(lines), console=Console(file=Gone(), width=100))
    assert game.is_over
    with Database() as db:
        [kept] = list_games(db, finished=True)
    assert kept.dice_from == "players" and kept.seats[0].total == game.total(0)


def test_a_history_that_cannot_be_written_is_said_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("YATZY_DATA_DIR", str(blocked))  # no folder can be made there
    game = Game("kids", ["Anna", "Ben"], dice_from="players")
    out = keep(game, whole_game("kids", 2))
    assert game.is_over and ("wins with" in out or "A tie" in out)
    assert "the game could not be kept in your history: could not make the folder" in out


def test_the_line_scorekeeper_names_the_winner_and_adds_up_as_the_engine() -> None:
    game = Game("yatzy", ["Anna", "Ben"], dice_from="players")
    out = keep(game, whole_game("yatzy", 2))
    assert game.is_over
    totals = game.totals()
    winner = "Anna" if totals[0] > totals[1] else "Ben"
    assert f"{winner} wins with {max(totals)}!" in out


def test_boxes_by_name_undo_and_mistakes() -> None:
    game = Game("yatzy", ["Anna"], dice_from="players")
    out = keep(game, ["13356", "33356", "u", "3 3 3 3 6", "r", "7", "Threes", "chance", "xyz", "t 250",
                      "f", "9", "f", "1", "66666", "nothing"])
    assert "type the dice you threw" in out  # r: the computer throws nothing here
    assert "“7” is not a die face" in out
    assert game.state.players[0].card == {"threes": 12}
    assert "unknown command “xyz”" in out
    assert "unknown command “t”" in out and "plays for" not in out  # no coach at the table: no target
    assert "“9” is not one of Anna's rounds, 1 to 1" in out
    assert "there is no box “nothing”" in out and not game.amendments


def test_maxi_saved_rolls_are_shown_apart() -> None:
    game = Game("maxi", ["Anna"], dice_from="players")
    out = keep(game, ["111222", "s 1", "123456", "123466", "123666", "126666"])
    assert game.rolls_split() == (0, 1) and game.state.dice == (1, 2, 6, 6, 6, 6)
    assert "0 rolls left + 2 saved rolls" in out and "0 rolls left + 1 saved roll" in out


def test_keep_refuses_bots_and_a_starter_not_at_the_table() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["keep", "--plain", "--players", "Anna,bot:greedy"])
    assert r.exit_code == 2 and "names only" in r.output
    r = runner.invoke(app, ["keep", "--plain", "--players", "Anna,Ben", "--first", "Cy"])
    assert r.exit_code == 2 and "not “Cy”" in r.output


@pytest.mark.parametrize("first, starter", [("Ben", "Ben"), ("2", "Ben"), ("anna", "Anna")])
def test_first_names_who_starts(first: str, starter: str) -> None:
    # not on a terminal: the line scorekeeper without --plain
    r = CliRunner().invoke(app, ["keep", "--players", "Anna,Ben", "--first", first], input="")
    assert r.exit_code == 0
    assert f"{starter}, round 1: dice thrown" in r.output


def test_a_dozzy_round_fixed_into_another_box_asks_which_tiles_came_back() -> None:
    from yatzy.actions import Score
    from yatzy.session import Session

    game = Game("dozzy", ["Anna"], dice_from="players")
    session = Session(game)
    for action in DOZZY_ROUNDS:
        session.act(action)
    prompts: list[str] = []
    feed = iter(["f", "6", "22456", "1", "x 10", "f", "6", "22456", "1", "10"])

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        for line in feed:
            return line
        raise EOFError

    out = io.StringIO()
    keep_score(game, ask=ask, console=Console(file=out, width=100))
    asked = [p for p in prompts if "Which tiles came back?" in p]
    assert len(asked) == 2 and "tile 8 or tile 10 or tile 11" in asked[0]
    assert "tiles are numbered 1 to 12, not “x”" in out.getvalue()  # refused, nothing changed
    assert game.log[-1] == Score("n1", (10,)) and len(game.amendments) == 1

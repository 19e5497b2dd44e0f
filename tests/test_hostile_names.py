"""Text is text: hostile names (tests/helpers/hostile.py) through the seat check, stored games,
the command line, the line game and scorekeeper, and the PDF sheet. A name a seat may have is
shown exactly as typed; a name none may have is refused in the player's language, changing
nothing; a stored game written before the check loads with its names cleaned. The terminal
app's screens are tests/tui/test_hostile_names.py; the page's, tests/e2e/test_hostile_names.py.
"""

from __future__ import annotations

import io
import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from helpers.games import play_out
from helpers.hostile import REFUSED, SHOWN
from yatzy.cli import app
from yatzy.errors import InvalidActionError
from yatzy.game import Game
from yatzy.i18n import language
from yatzy.line.play import hot_seat
from yatzy.line.scorekeeper import keep_score
from yatzy.pdfsheet import score_sheet
from yatzy.registry import get_ruleset
from yatzy.saves import SAVE_FORMAT
from yatzy.seats import NAME_MAX, Seat, clean_name, parse_seats

runner = CliRunner()


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept games and settings go to the test's own folders."""
    monkeypatch.setenv("YATZY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))


# ---- what a name may be -------------------------------------------------------------------

@pytest.mark.parametrize("name", SHOWN)
def test_a_name_with_markup_html_or_emoji_is_kept_as_typed(name: str) -> None:
    assert Seat(name).name == name and Seat.bot("greedy", name).name == name
    assert Game("kids", [name, name]).seats[0].name == name


@pytest.mark.parametrize("what", REFUSED)
def test_a_name_with_control_characters_overrides_or_too_long_is_refused(what: str) -> None:
    name = REFUSED[what]
    for make in (lambda: Seat(name), lambda: Seat.bot("greedy", name), lambda: Game("kids", [name]),
                 lambda: parse_seats(f"Ann,{name}")):
        with pytest.raises(InvalidActionError) as e:
            make()
        said = str(e.value)
        assert "characters" in said and name not in said, said  # what is allowed, not the name echoed


def test_the_longest_name_is_forty_characters() -> None:
    assert Seat("x" * NAME_MAX).name == "x" * NAME_MAX
    with pytest.raises(InvalidActionError, match="at most 40 characters; this one has 41"):
        Seat("x" * (NAME_MAX + 1))


def test_a_refused_name_is_explained_in_the_players_language() -> None:
    said = []
    for lang in ("en", "fi", "sv", "da", "nb", "ru"):
        for name, named in (("x" * 41, "40"), ("\x1b", "U+001B")):
            with language(lang), pytest.raises(InvalidActionError) as e:
                Seat(name)
            assert named in str(e.value), (lang, str(e.value))
            said.append(str(e.value))
    assert len(set(said)) == 12, said  # each language its own words


def _old_save(names: Iterable[str]) -> dict[str, object]:
    return {"format": SAVE_FORMAT, "rules": "kids", "seed": 3, "log": [],
            "seats": [{"name": n, "kind": "person"} for n in names]}


def test_a_stored_game_with_names_no_seat_may_have_now_loads_with_them_cleaned() -> None:
    """Refusing a game written before the check would lose it: its names are cleaned instead
    (the forbidden characters dropped, a long name cut with "…"), and markup stays as typed."""
    game = Game.from_dict(_old_save([*REFUSED.values(), "[/x]"]))
    names = [s.name for s in game.seats]
    assert names[:3] == ["Eve[31m", "AnnBo", "AnnBo"] and names[5] == "evE"
    assert names[8] == "x" * (NAME_MAX - 1) + "…" and names[-1] == "[/x]"
    assert all(Seat(n).name == n for n in names)  # each one a seat may have
    assert clean_name("\x1b\u202e") == "?"  # nothing left: still a name
    v1 = Game.from_dict({"format": 1, "rules": "kids", "seed": 3, "log": [], "players": ["Bo\x1b"]})
    assert v1.seats[0].name == "Bo"


# ---- the command line and the line front ends -----------------------------------------------

def test_the_line_game_shows_every_name_as_typed_to_the_end(tmp_path: Path) -> None:
    out = io.StringIO()
    game = Game("kids", [Seat.bot("greedy", n) for n in SHOWN], seed=4)
    hot_seat(game, ask=lambda _: "q", console=Console(file=out, width=120))
    assert game.is_over
    text = out.getvalue()
    for name in SHOWN:
        assert f"{name} ·" in text or f"{name} scores" in text, name
    assert max(game.totals()) > 0 and "wins with" in text


def test_yatzy_play_takes_hostile_names_and_refuses_forbidden_ones(tmp_path: Path) -> None:
    names = ",".join(n for n in SHOWN if "," not in n)
    r = runner.invoke(app, ["play", "--plain", "-r", "kids", "-p", f"{names},bot:greedy:[/b]", "--seed", "2"],
                      input="r\nq\n", env={"COLUMNS": "200"})
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert all(n in r.stdout for n in SHOWN if "," not in n), r.stdout
    for name in REFUSED.values():
        r = runner.invoke(app, ["play", "--plain", "-r", "kids", "-p", f"Ann,{name}"], input="q\n")
        assert r.exit_code == 2 and "characters" in r.output and "Traceback" not in r.output, r.output


def test_yatzy_keep_takes_hostile_names_and_refuses_forbidden_ones() -> None:
    r = runner.invoke(app, ["keep", "--plain", "-r", "kids", "-p", "[/x],<b>Bo</b>"],
                      input="1 1 1 1 1\ns 1\nq\n", env={"COLUMNS": "200"})
    assert r.exception is None or isinstance(r.exception, SystemExit), r.output
    assert "[/x]" in r.stdout and "<b>Bo</b>" in r.stdout, r.stdout
    r = runner.invoke(app, ["keep", "--plain", "-r", "kids", "-p", "Ann,\u202eevE"], input="q\n")
    assert r.exit_code == 2 and "U+202E" in r.output, r.output


def test_the_line_scorekeeper_shows_every_name_as_typed(tmp_path: Path) -> None:
    out = io.StringIO()
    game = Game("kids", SHOWN, dice_from="players")
    lines = iter(["1 1 1 1 1", "s 1", "2 2 2 2 2"])

    def ask(prompt: str) -> str:
        print(prompt, file=out)
        line = next(lines, None)
        if line is None:
            raise EOFError
        return line

    keep_score(game, ask=ask, console=Console(file=out, width=120))
    text = out.getvalue()
    for name in SHOWN[:2]:
        assert name in text, name


def test_history_prints_hostile_names_as_typed(tmp_path: Path) -> None:
    from yatzy.storage import Database, record_game
    from yatzy.storage.engine import DB_FILE

    db = f"sqlite:///{tmp_path / DB_FILE}"
    record_game(Database(db), play_out(Game(get_ruleset("kids"), SHOWN, seed=3)))
    for args in (["history", "--db", db], ["history", "show", "1", "--db", db],
                 ["history", "stats", "-r", "kids", "--db", db]):
        r = runner.invoke(app, args, env={"COLUMNS": "300"})
        assert r.exit_code == 0, (args, r.output)
        assert all(n in r.stdout for n in SHOWN), (args, r.stdout)


# ---- the PDF sheet ------------------------------------------------------------------------

def test_the_score_sheet_prints_markup_and_html_names_as_typed_and_refuses_forbidden_ones(
        tmp_path: Path) -> None:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing: install Debian's poppler-utils")
    names = ["[/x]", "<b>Bo</b>", "</script>", "{name}"]
    pdf = tmp_path / "s.pdf"
    pdf.write_bytes(score_sheet("yatzy", players=4, names=names))
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for name in names:
        assert name in text, (name, text)
    for name in REFUSED.values():
        with pytest.raises(InvalidActionError, match="characters"):
            score_sheet("yatzy", players=2, names=["Ann", name])
    r = runner.invoke(app, ["sheet", "--names", "Ann,Eve\x1b[2J", "--output", str(pdf)])
    assert r.exit_code == 2 and "U+001B" in r.output, r.output

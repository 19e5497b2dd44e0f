"""The line game (``yatzy play``) driven with scripted input and a console writing to a string."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

from yatzy.dice import show_dice
from yatzy.game import Game, Roll, Score
from yatzy.line.card import bonus_status
from yatzy.line.play import SHORT_HELP, hot_seat
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import Database, GameSummary, list_games, load_game
from yatzy.views import bonus_progress

Line = str | Callable[[Game], str]


GREEDY, DOZZY = Seat.bot("greedy"), Seat.bot("dozzy")
"""Bots named "Greedy bot" and "Dozzy bot"."""


def play(game: Game, lines: Iterable[Line], lang: str = "en", console: Console | None = None,
         kinds: list[str] | None = None) -> str:
    """Run hot_seat on scripted lines (a line may be made from the game); EOF after the last.
    The game's seats say who is a bot, unless kinds are given."""
    out = io.StringIO()
    con = console or Console(file=out, width=110)
    feed = iter(lines)

    def ask(_: str) -> str:
        for line in feed:
            return line(game) if callable(line) else line
        raise EOFError

    hot_seat(game, kinds, lang=lang, ask=ask, console=con)
    return out.getvalue() if console is None else ""


def keep_all(game: Game) -> str:
    return "k " + "".join(map(str, game.state.dice or ()))


# ---- 1. saving ------------------------------------------------------------------------------

def test_a_failed_save_says_so_and_the_game_goes_on() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    out = play(game, ["save /no/such/dir/g.json", "r", "s 15"])
    assert "could not save the game to /no/such/dir/g.json: No such file or directory; " \
           "the game goes on" in out
    assert game.player.card == {"yatzy": game.player.card["yatzy"]}


def test_save_writes_a_game_that_loads(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    game = Game("yatzy", ["Ann"], seed=1)
    out = play(game, ["r", "s 15", f"save {path}"])
    assert f"saved to {path}" in out
    assert Game.from_json(path.read_text()).player.card == game.player.card


# ---- 2. undo until the next roll --------------------------------------------------------------

def test_a_score_can_be_undone_until_the_next_person_rolls() -> None:
    game = Game("yatzy", ["Ann", "Bo"], seed=2)
    out = play(game, ["r", "s 1", "u", "s 2", "r"])
    assert "r to roll, u to undo Ann's score" in out
    ann, bo = game.state.players
    assert "twos" in ann.card and "ones" not in ann.card
    assert game.state.current == 1 and game.state.dice is not None  # Bo's turn began on his r


def test_a_score_can_be_undone_before_a_bot_plays() -> None:
    game = Game("yatzy", ["Ann", GREEDY], seed=2)
    out = play(game, ["r", "s 1", "u", "s 2", ""])
    assert "u: undo your score" in out and "taken back" in out
    assert set(game.state.players[0].card) == {"twos"}
    assert len(game.state.players[1].card) == 1  # the bot played after Enter


def test_a_turn_starts_on_r_and_a_roll_cannot_be_undone() -> None:
    game = Game("yatzy", ["Ann"], seed=2)
    out = play(game, ["u", "r", "u"])
    assert "nothing to undo yet" in out and "a roll cannot be undone" in out
    assert [type(a) for a in game.log] == [Roll]


def test_r_after_a_score_lets_the_bot_play_and_rolls_the_next_turn() -> None:
    game = Game("yatzy", ["Ann", GREEDY], seed=2)
    play(game, ["r", "s 1", "r"])
    assert game.state.current == 0 and game.state.dice is not None and game.state.rolls_used == 1


def test_a_bot_score_cannot_be_undone() -> None:
    game = Game("yatzy", [GREEDY, "Ann"], seed=2)
    out = play(game, ["u"])
    assert "Greedy bot moved last: a bot's move cannot be undone" in out
    assert len(game.state.players[0].card) == 1


def test_wrong_boxes_are_explained_with_box_numbers_and_names() -> None:
    game = Game("forced", ["Ann"], seed=1)
    out = play(game, ["r", "s 6", "s 1 9"])
    assert "this game fills the boxes in order: the next one is 1 Ones" in out
    assert "this game has no tiles: write just s 1" in out
    game = Game("yahtzee", ["Ann"], seed=1)
    for dice, box in [((2, 2, 2, 2, 2), "yahtzee"), ((3, 3, 3, 3, 3), None)]:
        game.apply(Roll((), dice))
        if box:
            game.apply(Score(box))
    out = play(game, ["s 1", "s 3"])
    assert "box 1 Ones cannot take these dice now (joker rule); you may score: 3 Threes" in out
    assert "and a Yahtzee bonus of 100" in out


# ---- 3. fixed box numbers -----------------------------------------------------------------------

def test_a_box_keeps_its_number_all_game() -> None:
    game = Game("yatzy", ["Ann"], seed=3)
    out = play(game, ["r", "s 6", "r", "s 6", "s", "s 7"])
    assert set(game.player.card) == {"sixes", "one_pair"}
    assert "box 6 Sixes is filled already" in out
    refused = out.index("box 6 Sixes is filled already")
    [second_list] = [line for line in out[refused:].splitlines() if line.startswith("Boxes that score: ")]
    assert "7 One Pair" in second_list and "6 Sixes" not in second_list


def test_boxes_can_be_named_by_id() -> None:
    game = Game("yatzy", ["Ann"], seed=3)
    out = play(game, ["r", "s two_pairs", "r", "s 99", "s nope"])
    assert list(game.player.card) == ["two_pairs"]
    assert "there is no box 99: the boxes are numbered 1 to 15" in out
    assert "there is no box “nope”: write its number from the list" in out


# ---- 4. unknown commands, quitting, end of input -----------------------------------------------

def test_an_unknown_command_is_named() -> None:
    out = play(Game("yatzy", ["Ann"], seed=1), ["xyz"])
    assert "unknown command “xyz”" in out
    assert out.count(SHORT_HELP.split(" · ")[0]) >= 2


def test_quit_asks_first_and_the_game_goes_on_when_not_confirmed() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    out = play(game, ["q", "", "r", "s 15"])
    assert "The game goes on." in out and "yatzy" in game.player.card


def test_quit_offers_to_save_and_shows_the_standings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    game = Game("yatzy", ["Ann", "Bo"], seed=1)
    out = play(game, ["r", "s 15", "q", "y", "", "should not be read"])
    assert (tmp_path / "yatzy-game.json").exists()
    assert "saved to yatzy-game.json" in out
    assert "Standings (round 1 of 15): Ann" in out and "Bo 0" in out
    assert "unknown command" not in out


def test_quit_retries_a_failed_save_then_may_skip_it() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    out = play(game, ["q", "yes", "/no/such/dir/g.json", "n"])
    assert "could not save the game to /no/such/dir/g.json: No such file or directory\n" in out
    assert "the game goes on" not in out and "Standings" in out


def test_ctrl_c_asks_like_q() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) == 1:
            raise KeyboardInterrupt
        if len(asked) == 2:
            return "n"
        raise EOFError

    out = io.StringIO()
    hot_seat(game, ["human"], ask=ask, console=Console(file=out, width=110))
    assert asked[1].startswith("Quit the game?") and "The game goes on." in out.getvalue()
    assert len(asked) == 3 and asked[2] == "> "  # the game went on to ask for the next move


def test_end_of_input_ends_quietly_with_the_standings() -> None:
    game = Game("yatzy", ["Ann", "Bo"], seed=1)
    out = play(game, ["r"])
    assert out.rstrip().splitlines()[-1] == "Standings (round 1 of 15): Ann 0 · Bo 0"


# ---- 5. keeping every die ------------------------------------------------------------------------

def test_keeping_all_the_dice_is_refused_without_spending_a_roll() -> None:
    game = Game("yatzy", ["Ann"], seed=4)
    out = play(game, ["r", keep_all])
    assert "keeping every die would spend a roll for nothing; keep fewer dice or score" in out
    assert game.state.rolls_used == 1 and len(game.log) == 1


def test_keeping_dice_not_on_the_table_is_refused_plainly() -> None:
    game = Game("yatzy", ["Ann"], seed=4)
    game.apply(Roll((), (1, 2, 3, 4, 5)))
    out = play(game, ["k 66"])
    assert "cannot keep 6 6: the dice on the table are 1 2 3 4 5" in out


# ---- 6. the scorecard -----------------------------------------------------------------------------

def test_the_card_lists_every_box_with_its_number_the_bonus_and_the_round() -> None:
    game = Game("yatzy", ["Ann", "Bo"], seed=1)
    out = play(game, ["r", "s 6", "card"])
    assert "round 1 of 15" in out
    out = out[out.rindex("Box"):]
    rows = [f"{n} {name}" for n, name in enumerate(
        ["Ones", "Twos", "Threes", "Fours", "Fives", "Sixes", "One Pair", "Two Pairs", "Three of a Kind",
         "Four of a Kind", "Small Straight", "Large Straight", "Full House", "Chance", "Yatzy"], 1)]
    positions = [out.index(r) for r in rows]
    assert positions == sorted(positions)
    sixes = game.state.players[0].card["sixes"]
    assert re.search(rf"Upper section +{sixes} +0", out)
    assert re.search(rf"for the bonus +{63 - sixes} more +63 more", out)
    assert positions[5] < out.index("Bonus") < positions[6]


def test_dozzy_card_has_a_bonus_under_each_section_and_the_tiles() -> None:
    game = Game("dozzy", ["Ann"], seed=1)
    out = play(game, ["card"])
    rows = ["6 Sixes", "Total 1–6", "for the bonus", "Bonus", "7 (pair sums)", "12 (pair sums)",
            "Total 7–12", "114 more", "13 One Pair"]
    positions = [out.index(r) for r in rows]
    assert positions == sorted(positions)
    assert out.count("Bonus") == 2 and "tiles out: none" in out


def test_the_card_speaks_the_chosen_language() -> None:
    out = play(Game("maxi", ["Aino"], seed=1), ["card"], lang="fi")
    assert "18 Talo (4+2)" in out and "17 Sauna (3+3)" in out and "Yhteensä" in out


def test_yahtzee_card_has_the_yahtzee_bonus_row() -> None:
    out = play(Game("yahtzee", ["Ann"], seed=1), ["card"])
    assert "Yahtzee bonus" in out


def test_bonus_status() -> None:
    rs = get_ruleset("yatzy")
    b = rs.bonuses[0]
    assert bonus_status(bonus_progress(rs, b, {"sixes": 24, "fives": 20})) == "19 more"
    assert bonus_status(bonus_progress(rs, b, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15,
                                               "sixes": 18})) == "earned"
    assert bonus_status(bonus_progress(rs, b, {"sixes": 0, "fives": 0})) == "out of reach"
    dz = get_ruleset("dozzy")
    assert bonus_status(bonus_progress(dz, dz.bonuses[1], {"n12": 12})) == "out of reach"
    assert bonus_status(bonus_progress(dz, dz.bonuses[1], {"n12": 24})) == "90 more"


# ---- 7. the bots' turns ----------------------------------------------------------------------------

def test_a_bot_turn_shows_each_roll_and_the_score_then_whose_turn_it_is() -> None:
    game = Game("yatzy", ["Ann", GREEDY], seed=5)
    out = play(game, ["r", "s 15", ""])
    bot_part = out.split("Greedy bot · round 1 of 15")[1]
    rolls = [a for a in game.log[2:] if isinstance(a, Roll)]
    assert bot_part.count("  Greedy bot rolls ") + bot_part.count("  Greedy bot keeps ") == len(rolls) >= 1
    for r in rolls[1:]:
        assert f"keeps {show_dice(r.keep)} and rolls again" in bot_part or not r.keep
    (cat, pts), = game.state.players[1].card.items()
    assert re.search(rf"  Greedy bot scores {pts} in \d+ .*; total {pts}\.", bot_part)
    assert "\nAnn · round 2 of 15\nr to roll" in bot_part  # whose turn after the bot's move, no card


def test_dozzy_bot_turns_say_which_tiles_moved() -> None:
    game = Game("dozzy", [DOZZY], seed=7)
    out = play(game, [])
    assert game.is_over
    scored = [line for line in out.splitlines() if line.startswith("  Dozzy bot scores ")]
    assert len(scored) == 21 and all("tiles out: " in line.lower() for line in scored)
    assert any(" goes out" in line or " go out" in line for line in scored)
    assert any(" back" in line for line in scored)
    assert "Dozzy bot wins with" in out


# ---- 8. solver bots: the table is built in sight ------------------------------------------------

def test_a_solver_bot_table_is_built_with_a_line_saying_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("YATZY_CACHE_DIR", str(tmp_path))
    first = play(Game("kids", [Seat.bot("optimal")], seed=1), [])
    assert "building the Kids table for the optimal bot, once; later games load it" in first
    again = play(Game("kids", [Seat.bot("optimal")], seed=1), [])
    assert "building" not in again and "Optimal bot wins with" in again
    assert capsys.readouterr().out == ""  # everything went to the console given


# ---- 9. saved rolls --------------------------------------------------------------------------------

def test_saved_rolls_are_shown_apart_from_the_turns_rolls() -> None:
    game = Game("maxi", ["Me"], seed=1)
    out = play(game, ["r", "s 20", "r"])
    assert "2 rolls left" in out and "+ 0 saved" not in out
    assert "; saved rolls: 2." in out
    assert "3 rolls left + 2 saved rolls" in out and "2 rolls left + 2 saved rolls" in out


# ---- 10. plain messages -----------------------------------------------------------------------------

def test_plural_forms() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    out = play(game, ["r", "r", "r"])
    assert "2 rolls left" in out and "1 roll left" in out and "No rolls left" in out


def dozzy_with_a_tile_choice() -> Game:
    """One DOZZY player with tiles 4 5 9 out and 3 3 3 4 5 on the table."""
    game = Game("dozzy", ["Ann"], seed=1)
    for dice, box in [((1, 2, 3, 4, 4), "n4"), ((1, 2, 3, 5, 5), "n5"), ((1, 1, 2, 3, 6), "n9"),
                      ((3, 3, 3, 4, 5), None)]:
        game.apply(Roll((), dice))
        if box:
            game.apply(Score(box))
    assert game.state.out == frozenset({4, 5, 9})
    return game


def test_a_dozzy_tile_choice_is_listed_plainly() -> None:
    game = dozzy_with_a_tile_choice()
    out = play(game, ["s 3", "s 3 7", "s 3 9"])
    assert "choose which tiles come back: s n3 4 5 or s n3 9" in out
    assert "tile 7 cannot come back with this score; choose s n3 4 5 or s n3 9" in out
    assert "Ann scores 9 in 3 Threes; total 36. Tile 3 goes out, tile 9 comes back; tiles out: 3 4 5." in out
    assert game.player.card["n3"] == 9


def test_dozzy_tiles_can_be_brought_back_before_the_first_roll() -> None:
    game = dozzy_with_a_tile_choice()
    game.apply(Score("n3", (9,)))
    game.apply(Roll((), (6, 6, 1, 1, 2)))
    game.apply(Score("n6"))
    assert game.state.out == frozenset({3, 4, 5, 6})
    out = play(game, ["r 1", "b 3 4", "b 6", "u", "b 13", "b 5"])
    assert "tiles out: 3 4 5 6: you may bring 1 tile back first, e.g. b 6" in out
    assert "bring back exactly 1 tile" in out
    assert "Ann brings tile 6 back; tiles out: 3 4 5." in out
    assert "Ann's tiles go back out." in out and "tiles out: 3 4 5 6: you may bring" in out
    assert "tiles are numbered 1 to 12, not “13”" in out
    assert game.state.out == frozenset({3, 4, 6})


def test_no_python_formatting_reaches_the_players() -> None:
    game = dozzy_with_a_tile_choice()
    out = play(game, ["s 3", "s 3 7", "k 66", "k 9", "b 2", "s", "k", "s 3 4 5", "s 3", "r",
                                 keep_all, "c", "h", "u", "x"])
    for bad in ("[", "]", "{", "}", "None", "False", "True", "(,"):
        assert bad not in out, bad


# ---- 11. errors ------------------------------------------------------------------------------------

def test_errors_are_red_and_change_nothing() -> None:
    out = io.StringIO()
    con = Console(file=out, width=110, force_terminal=True, color_system="standard")
    game = Game("yatzy", ["Ann"], seed=1)
    play(game, ["r", "xyz", "k 9", "s 99"], console=con)
    text = out.getvalue()
    for message in ("unknown command “xyz”", "is not a die face", "there is no box 99"):
        assert re.search(r"\x1b\[31m[^\x1b]*" + re.escape(message), text), message
    assert len(game.log) == 1 and game.state.rolls_used == 1


# ---- whole games ---------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("rules", ["yatzy", "maxi", "dozzy", "forced", "yahtzee", "osto", "kids"])
def test_a_person_plays_a_whole_game_against_a_bot(rules: str) -> None:
    game = Game(rules, ["Me", GREEDY], seed=11)

    def next_line(g: Game) -> str:
        if g.state.current != 0 or g.is_over:
            return ""
        if g.state.dice is None:
            return "r"
        box = next(iter(g.score_options()))
        _, choices = g.tile_moves(box)
        return " ".join(["s", box, *map(str, sorted(choices[0]))])

    out = play(game, [next_line] * 400)
    assert game.is_over and " wins with " in out and "final score" in out


def test_hot_seat_plays_to_the_end() -> None:
    game = Game("kids", ["me", "greedy (bot)"], seed=4)
    # r rolls (after a score: the bot plays, then you roll); a bad keep and an undo on the way;
    # Enter after the last score lets the bot finish, Enter again leaves the analysis and the history
    lines = iter(["r", "k 9", "s ones", "u", "s 1"] + [x for i in range(2, 7) for x in ("r", f"s {i}")]
                 + ["", ""])
    hot_seat(game, ["human", "greedy"], ask=lambda _: next(lines), console=Console(file=io.StringIO()))
    assert game.is_over


def test_hot_seat_stops_on_end_of_input() -> None:
    game = Game("yatzy", ["me"], seed=4)

    def eof(_: str) -> str:
        raise EOFError

    hot_seat(game, ["human"], ask=eof)
    assert not game.is_over


# ---- 12. seats, the roll-off, a loaded game -----------------------------------------------------

def test_kinds_seat_people_and_bots_anew() -> None:
    game = Game("kids", ["Ann", "Bo"], seed=3)
    out = play(game, ["r", "s 1", ""], kinds=["human", "greedy"])
    assert game.seats[1] == Seat("Bo", "bot", "greedy") and not game.seats[0].is_bot
    assert "\nBo · round 1 of 6\n  Bo rolls " in out and len(game.state.players[1].card) == 1


def test_the_roll_off_is_shown_before_the_first_turn() -> None:
    game = Game("yatzy", ["Ann", "Bo", "Cy"], seed=5, roll_off=True)
    out = play(game, [])
    first = game.state.players[game.first].name
    rolls = "; ".join(", ".join(f"{game.state.players[p].name} {d}" for p, d in sorted(r.items()))
                      for r in game.roll_offs)
    assert f"Roll-off: {rolls}. {first} starts.\n\n{first} · round 1 of 15" in out


def test_a_loaded_game_starts_with_the_card() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    game.roll()
    game.score("chance")
    out = play(Game.from_json(game.to_json()), [])
    assert out.index("round 2 of 15") < out.index("Box") < out.index("r to roll")


def test_while_a_score_waits_for_the_bots_only_enter_r_u_and_commands_do() -> None:
    game = Game("yatzy", ["Ann", GREEDY], seed=2)
    out = play(game, ["r", "s 01", "k 1", "s 2", "c", "u", "s 02", ""])
    assert out.count("Greedy bot plays next: press Enter to go on") == 2
    assert set(game.state.players[0].card) == {"twos"} and len(game.state.players[1].card) == 1


def test_piped_output_has_no_escape_codes() -> None:
    yatzy = Path(sys.executable).with_name("yatzy")
    lines = "r\ns 1\n\nc\nh\nxyz\nk 9\nq\ny\nn\n"
    command = [str(yatzy), "play", "--rules", "dozzy", "--players", "Ann,bot:dozzy", "--seed", "2"]
    r = subprocess.run(command, input=lines, capture_output=True, text=True, check=True,
                       env={**os.environ, "NO_COLOR": "1"})
    assert "\x1b" not in r.stdout + r.stderr and "Dozzy bot · round 1 of 21" in r.stdout
    assert r.stdout.startswith("r roll")


# ---- 13. the history: a finished game is kept the moment it ends ---------------------------------

KIDS_GAME = [line for box in range(1, 7) for line in ("r", f"s {box}")]
"""Me's six turns of a Kids' game after the greedy bot's: a roll, then boxes 1 to 6 in order."""


def test_a_finished_game_is_kept_before_the_input_ends(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The terminal may close right after the last score, before Enter: the game is in the
    history by then, and kept once."""
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    game = Game("kids", [GREEDY, Seat("Me")], seed=3)
    lines = list(KIDS_GAME)
    at_the_end: list[list[GameSummary]] = []

    def ask(_prompt: str) -> str:
        if lines:
            return lines.pop(0)
        with Database() as db:
            at_the_end.append(list_games(db, finished=True))
        raise EOFError

    out = io.StringIO()
    hot_seat(game, ask=ask, console=Console(file=out, width=110))
    assert game.is_over
    [[kept]] = at_the_end
    assert [s.total for s in kept.seats] == game.totals()
    assert f"kept in your history as game {kept.id}: yatzy history show {kept.id}" in out.getvalue()
    with Database() as db:
        assert list_games(db) == [kept]


def test_a_last_score_taken_back_and_made_again_is_kept_as_it_ended(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    game = Game("kids", [GREEDY, Seat("Me")], seed=3)
    out = play(game, [*KIDS_GAME, "u", "r", "s 6"])  # undone, the dice rolled again, Sixes again
    assert game.is_over and "taken back" in out
    with Database() as db:
        [kept] = list_games(db)
        assert load_game(db, kept.id).log == game.log
    assert kept.finished and [s.total for s in kept.seats] == game.totals()


def test_a_history_that_cannot_be_written_is_said_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("YATZY_DATA_DIR", str(blocked))  # no folder can be made there
    game = Game("kids", [GREEDY, Seat("Me")], seed=3)
    out = play(game, [*KIDS_GAME, ""])
    assert game.is_over and ("wins with" in out or "A tie" in out)
    assert "the game could not be kept in your history: could not make the folder" in out
    assert "kept in your history as game" not in out

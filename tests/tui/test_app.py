"""The terminal game (Textual), played through its keys with Textual's pilot.

Each game here is played by pressing keys as a person would and checked against the same
decisions sent straight to a Session: the UI must send exactly the moves the keys name, and
draw what the views say.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from helpers.screen import ratio, segments
from helpers.tui import click, fill, laid_out, pilot_test, play_screen, until
from helpers.wait import DEADLINE
from yatzy.actions import parse_action
from yatzy.bots import DozzyBot
from yatzy.errors import InvalidActionError
from yatzy.game import Action, Game, Roll, Score
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.storage import Database, GameSummary, list_games, load_game, record_game
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel
from yatzy.tui.dialogs import ChoiceScreen, ConfirmScreen, SaveScreen
from yatzy.tui.end import EndScreen
from yatzy.tui.history import HistoryScreen
from yatzy.tui.play import PlayScreen
from yatzy.tui.settings import Settings, autosave_path, settings_path
from yatzy.tui.setup import NewGameScreen
from yatzy.tui.widgets import Die, ScoreCard
from yatzy.views import GameView

SIZE = (120, 40)
Moves = list[Action]


def screen_text(renderable: Any) -> str:
    """A renderable's text as a wide terminal would show it (lines joined by spaces)."""
    console = Console(width=200, record=True)
    console.print(renderable)
    return " ".join(console.export_text().split())


def view_of(app: YatzyApp) -> GameView:
    return play_screen(app).session.view()


async def quick_turn(pilot: Pilot[Any], moves: Moves, rolls: int = 1, choice: int = -1) -> None:
    """One roll or more (r each), then the box with points nearest to either end of the list (Home
    or End, a few arrows, Enter), and in DOZZY the tile choice numbered ``choice`` (the last)."""
    app = pilot.app
    assert isinstance(app, YatzyApp)
    for _ in range(rolls):
        await pilot.press("r")
        moves.append(Roll())
    options = sorted(view_of(app).score_options, key=lambda o: o.number)
    last = len(options) - 1
    scoring = [i for i, o in enumerate(options) if o.points] or [0]
    i = min(scoring, key=lambda i: min(i, last - i))
    await pilot.press(*(["home"] + ["down"] * i if i <= last - i else ["end"] + ["up"] * (last - i)), "enter")
    option = options[i]
    returns = None
    if len(option.returns) > 1:
        assert isinstance(app.screen, ChoiceScreen)
        assert app.screen.choices == [  # each choice in words, one tile or several
            "no tile" if not r else f"{'tile' if len(r) == 1 else 'tiles'} {' '.join(map(str, r))}"
            for r in option.returns]
        n = choice % len(option.returns)
        await pilot.press(str(n + 1))
        returns = option.returns[n]
    moves.append(Score(option.id, returns))


def reference(game: Game, moves: Moves) -> Game:
    """The same moves sent straight to a session, bots moving at once."""
    session = Session(game, bot_seed=game.seed)
    session.prepare()
    for move in moves:
        session.advance()
        session.act(move)
    session.advance()
    return game


async def until_over(pilot: Pilot[Any], moves: Moves, **turn: Any) -> None:
    app = pilot.app
    assert isinstance(app, YatzyApp)
    while not play_screen(app).game.is_over:
        await quick_turn(pilot, moves, **turn)
    await pilot.pause()


# ---- whole games --------------------------------------------------------------------------

@pytest.mark.slow
@pilot_test
async def test_a_yatzy_game_against_a_greedy_bot_played_by_keys() -> None:
    seats = [Seat("Ann"), Seat("Greedy", "bot", "greedy")]
    app = YatzyApp(Game("yatzy", seats, seed=11), pace=0)
    moves: Moves = []
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        for _ in range(3):  # three turns by a careful player, then quicker ones
            await pilot.press("r")
            moves.append(Roll())
            dice = view_of(app).dice
            assert dice is not None
            # hold the most common face with its number keys and roll the rest once more
            face = max(set(dice), key=lambda f: (dice.count(f), f))
            keys = [str(i + 1) for i, d in enumerate(dice) if d == face]
            if len(keys) < len(dice):
                await pilot.press(*keys, "space")
                moves.append(Roll(tuple(d for d in dice if d == face)))
            view = view_of(app)
            box = max(sorted(view.score_options, key=lambda o: o.number), key=lambda o: o.points).id
            await fill(pilot, box)
            moves.append(Score(box))
        await until_over(pilot, moves)
        assert isinstance(app.screen, EndScreen)
        view = view_of(app)
        assert view.outcome is not None
        shown = str(app.screen.query_one("#standings").render())
        for s in view.outcome.standings:
            assert s.name in shown and str(s.total) in shown
        played = screen.game
        await pilot.press("q")
    assert app.return_value is played  # what run() hands back
    twin = reference(Game("yatzy", seats, seed=11), moves)
    assert twin.log == played.log and twin.totals() == played.totals()
    assert not autosave_path().exists()  # a finished game is not offered again


@pytest.mark.slow
@pilot_test
async def test_the_end_comes_again_after_an_undo_of_the_last_score() -> None:
    """Esc from the end, u takes the last score back, and the game ends again with its end
    screen (the screen remembered that it had ended once and showed nothing the second time)."""
    app = YatzyApp(Game("kids", ["Ann"], seed=3), pace=0)
    moves: Moves = []
    async with app.run_test(size=SIZE) as pilot:
        await until_over(pilot, moves)
        assert isinstance(app.screen, EndScreen)
        await pilot.press("escape", "u")
        await until(pilot, lambda: not play_screen(app).game.is_over)
        await until_over(pilot, moves)
        assert isinstance(app.screen, EndScreen)


@pytest.mark.slow
@pilot_test
async def test_maxi_uses_a_saved_roll() -> None:
    app = YatzyApp(Game("maxi", ["Ann"], seed=3), pace=0)
    moves: Moves = []
    async with app.run_test(size=SIZE) as pilot:
        await quick_turn(pilot, moves)  # one roll: two rolls are saved
        assert view_of(app).players[0].bank == 2
        await pilot.press("r", "r", "r")
        moves += [Roll()] * 3
        view = view_of(app)
        assert (view.rolls_left, view.saved_rolls) == (0, 2)
        assert "+ 2 saved rolls" in str(app.screen.query_one("#turn").render())
        await pilot.press("r")  # the fourth roll of the turn: a saved one
        moves.append(Roll())
        view = view_of(app)
        assert (view.rolls_left, view.saved_rolls) == (0, 1)
        assert "+ 1 saved roll" in str(app.screen.query_one("#turn").render())
        await quick_turn(pilot, moves, rolls=0)
        await until_over(pilot, moves)
        played = play_screen(app).game
        assert isinstance(app.screen, EndScreen)
        [kept] = kept_games()  # kept once, as the game ended
        assert kept.actions == len(played.log)
        await pilot.press("n")  # a new game next
        assert isinstance(app.screen, NewGameScreen)
    assert reference(Game("maxi", ["Ann"], seed=3), moves).log == played.log


@pytest.mark.slow
@pilot_test
async def test_dozzy_tiles_come_back_as_chosen_in_the_ui() -> None:
    seats = [Seat("Ann")]
    app = YatzyApp(Game("dozzy", seats, seed=1), pace=0)
    moves: Moves = []
    chosen = restored = 0
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        while not screen.game.is_over:
            view = view_of(app)
            if view.may_restore:
                # bring tiles back before the roll: the second choice of the list, by its number
                actions = [a for a in view.legal_actions if a.startswith("b ")]
                await pilot.press("b")
                assert isinstance(app.screen, ChoiceScreen)
                await pilot.press("2" if len(actions) > 1 else "1")
                moves.append(parse_action(actions[1 if len(actions) > 1 else 0]))
                restored += 1
            before = len(moves)
            await quick_turn(pilot, moves, choice=-1)
            last = moves[-1]
            assert isinstance(last, Score)
            chosen += last.returns is not None
            assert len(moves) == before + 2
        played = screen.game
    assert chosen and restored  # the game asked for tiles, and some came back before a roll
    assert reference(Game("dozzy", seats, seed=1), moves).log == played.log


# ---- keys and mouse ---------------------------------------------------------------------------

@pilot_test
async def test_held_dice_are_marked_by_more_than_colour_and_kept_by_the_roll() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=5), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        await pilot.press("r")
        dice = view_of(app).dice
        assert dice is not None
        await pilot.click("#die-1")
        await pilot.press("3")
        die = screen.query_one("#die-1")
        assert die.has_class("-held") and "HELD" in str(die.render())
        assert "HELD" not in str(screen.query_one("#die-0").render())
        await pilot.press("3")  # and free again
        await pilot.press("r")
        assert screen.game.log[-1] == Roll((dice[1],), screen.game.log[-1].result)  # type: ignore[union-attr]
        # the kept die stays held after the roll
        assert sum(d.has_class("-held") for d in screen.query(".die")) == 1


@pilot_test
async def test_held_dice_stay_where_they_fell_and_keep_their_keys_over_the_rolls() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=5), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)

        def faces() -> list[int | None]:
            return [d.face for d in screen.query(Die)]

        await pilot.press("r")
        first = faces()
        held = [4, 0]  # the highest die and the lowest: a sort would move them when others come
        await pilot.press(str(held[0] + 1), "r")
        second = faces()
        assert second[held[0]] == first[held[0]] and screen.query_one(f"#die-{held[0]}").has_class("-held")
        assert sorted(f for f in second if f is not None) == list(view_of(app).dice or ())
        # the same key still hits the same die: 5 frees the die it held, and holds it again
        await pilot.press(str(held[0] + 1))
        assert not screen.query_one(f"#die-{held[0]}").has_class("-held")
        await pilot.press(str(held[0] + 1), str(held[1] + 1), "r")  # and one more: both stay put
        third = faces()
        assert [third[i] for i in held] == [second[i] for i in held]
        assert {i for i, d in enumerate(screen.query(Die)) if d.has_class("-held")} == set(held)
        # the dice drawn are the engine's: each roll kept the faces held
        rolls = [a for a in screen.game.log if isinstance(a, Roll)]
        assert rolls[1].keep == (first[held[0]],) and sorted(rolls[2].keep) == sorted(second[i] for i in held)


@pilot_test
async def test_a_roll_tumbles_the_dice_not_held_unless_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("yatzy.tui.pacing.TUMBLE", DEADLINE)  # a tumble that lasts until a key ends it
    app = YatzyApp(Game("yatzy", ["Ann"], seed=5), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)

        def rolling() -> set[int]:
            return {i for i, d in enumerate(screen.query(Die)) if d.has_class("-rolling")}

        await pilot.press("r")
        assert rolling() == {0, 1, 2, 3, 4}
        await pilot.press("2")  # a key shows the faces at once, and holds the die it names
        assert not rolling() and [d.face for d in screen.query(Die)] == list(view_of(app).dice or ())
        await pilot.press("r")
        assert rolling() == {0, 2, 3, 4}  # the held die lies still
        monkeypatch.setattr("yatzy.tui.pacing.TUMBLE", 0.05)
        await pilot.press("1", "r")
        await until(pilot, lambda: not rolling())  # a short tumble ends by itself
        dice = sorted(d.face or 0 for d in screen.query(Die))
        assert dice == list(view_of(app).dice or ())
        # m turns it off, and the setting is remembered
        await fill(pilot, "chance")
        await pilot.press("m", "r")
        assert not rolling() and not Settings.load().roll_animation
        await pilot.press("m")
        assert Settings.load().roll_animation
        # and none for a terminal that asks for no animation (TEXTUAL_ANIMATIONS=none)
        monkeypatch.setattr("yatzy.tui.pacing.TUMBLE", DEADLINE)
        app.animation_level = "none"
        await pilot.press("r")
        assert not rolling()
        app.animation_level = "full"
        await pilot.press("1", "r")
        assert rolling() == {1, 2, 3, 4}


@pilot_test
async def test_a_yatzy_is_celebrated() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=1085), pace=0)  # a first roll of five sixes
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        await pilot.press("r")
        await fill(pilot, "three_of_a_kind")  # five alike in another box: no cheer
        assert not any("Yatzy!" in str(n.message) for n in app._notifications)
        await pilot.press("u")
        await fill(pilot, "yatzy")
        await until(pilot, lambda: "Yatzy! Ann scores 50 with all the dice alike." in [
            str(n.message) for n in app._notifications])
        assert screen.query_one("#dice").has_class("-yatzy")


def typed_game(name: str, dice: tuple[int, ...]) -> Game:
    """A finished kids' game whose every turn threw ``dice`` at a real table."""
    game = Game("kids", [name], dice_from="players")
    for box in game.ruleset.category_ids:
        game.apply(game.roll_reaching(dice))
        game.apply(Score(box))
    return game


@pilot_test
async def test_a_personal_best_is_celebrated_at_the_end_and_only_a_best() -> None:
    """Ann beats her best game of the program's dice; Bo only equals his (the same game, seed 3,
    played the same way: a tie is no best); a typed game of Bo's with a higher total counts for
    nothing, as typed dice never rank with the program's."""
    low = Game("kids", ["Ann"], seed=99)
    while not low.is_over:  # the first roll into the box it scores least in: a low total
        low.play(Roll())
        options = low.score_options()
        low.play(Score(min(options, key=lambda c: (options[c], c))))
    with Database() as db:
        record_game(db, low)
        record_game(db, typed_game("Bo", (6, 6, 6, 6, 6)))  # typed: 30 in Sixes, never a best to beat
    played: Game | None = None
    for name, cheered in (("Ann", True), ("Bo", False)):
        app = YatzyApp(Game("kids", [name], seed=3), pace=0)
        async with app.run_test(size=SIZE) as pilot:
            screen = play_screen(app)
            await until(pilot, lambda s=screen: s.bests is not None)
            await until_over(pilot, [])
            total = view_of(app).players[0].total
            if cheered:
                await until(pilot, lambda a=app: any("personal best" in str(n.message)
                                                     for n in a._notifications))
            told = [str(n.message) for n in app._notifications if "personal best" in str(n.message)]
            if cheered:
                assert total > low.total(0)
                assert told == [f"A personal best for {name}: {total}, beating {low.total(0)}!"]
                played = screen.game
                with Database() as db:  # Bo's best: Ann's game of seed 3, move for move
                    twin = Game("kids", ["Bo"], seed=3)
                    for action in played.log:
                        twin.play(action)
                    record_game(db, twin)
            else:
                assert played is not None and total == played.total(0)  # equal: no best
                assert told == []


@pilot_test
async def test_a_box_is_filled_with_two_clicks() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=5), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        card = app.screen.query_one(ScoreCard)
        row = card.boxes.index("chance")
        await pilot.click(ScoreCard, offset=(3, row + 1))  # the first click picks the row
        assert view_of(app).players[0].boxes[13].points is None
        await pilot.click(ScoreCard, offset=(3, row + 1))  # the second fills it
        assert view_of(app).players[0].boxes[13].points == sum(play_screen(app).game.log[0].result or ())


@pilot_test
async def test_scoring_a_zero_asks_first_when_another_box_would_score() -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=1), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        view = view_of(app)
        zero = next(o for o in view.score_options if o.points == 0)
        await fill(pilot, zero.id)
        assert isinstance(app.screen, ConfirmScreen)
        assert zero.name in str(app.screen.query_one("#question").render())
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmScreen)
        assert view_of(app).players[0].boxes[zero.number - 1].points is None
        await fill(pilot, zero.id)
        await pilot.press("y")
        assert view_of(app).players[0].boxes[zero.number - 1].points == 0
        # a box with points is filled without a question
        await pilot.press("r")
        best = max(view_of(app).score_options, key=lambda o: o.points)
        assert best.points > 0
        await fill(pilot, best.id)
        assert view_of(app).players[0].boxes[best.number - 1].points == best.points


@pilot_test
async def test_undo_takes_the_last_score_back_until_the_next_roll() -> None:
    app = YatzyApp(Game("yatzy", ["Ann", "Bo"], seed=4), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        dice = view_of(app).dice
        box = max(view_of(app).score_options, key=lambda o: o.points)
        await fill(pilot, box.id)
        view = view_of(app)
        assert view.current == 1 and view.players[0].boxes[box.number - 1].points == box.points
        await pilot.press("u")
        view = view_of(app)
        assert view.current == 0 and view.dice == dice
        assert view.players[0].boxes[box.number - 1].points is None
        assert "taken back" in str(app.screen.query_one("#moves").render())
        await fill(pilot, box.id)
        await pilot.press("r")  # Bo rolls: Ann's score stays
        await pilot.press("u")
        assert view_of(app).players[0].boxes[box.number - 1].points == box.points
        assert view_of(app).dice is not None


@pilot_test
async def test_u_takes_a_score_back_while_the_bot_is_about_to_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("yatzy.tui.pacing.UNDO_WINDOW", DEADLINE)  # time enough on any machine
    app = YatzyApp(Game("kids", [Seat("Me"), Seat("Greedy", "bot", "greedy")], seed=3), pace=0.3)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        await pilot.press("r")
        box = max(view_of(app).score_options, key=lambda o: o.points)
        await fill(pilot, box.id)
        assert view_of(app).current == 1
        assert " u  undo" in str(screen.query_one("#keys").render())  # said while the bot waits
        assert "u takes your move back" in str(screen.query_one("#hint").render())
        await pilot.pause(0.6)  # twice the bot's pace: it still waits for the person's second thought
        assert len(screen.game.log) == 2
        await pilot.press("u")
        view = view_of(app)
        assert view.current == 0 and view.players[0].boxes[box.number - 1].points is None
        assert not screen.pacer.waiting  # the bot's move is off
        await fill(pilot, box.id)
        await pilot.press("s")  # the bot plays its turn at once when skipped
        view = view_of(app)
        assert view.current == 0 and sum(b.points is not None for b in view.players[1].boxes) == 1


@pytest.mark.slow
@pilot_test
async def test_bots_play_at_a_pace_that_can_be_changed_and_skipped() -> None:
    app = YatzyApp(Game("yatzy", [Seat("Ann"), Seat("Greedy", "bot", "greedy")], seed=4))
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        hint = screen.query_one("#hint")
        await pilot.press("minus", "minus")  # the slowest pace
        await pilot.press("r")
        await fill(pilot, "chance")
        assert view_of(app).current == 1 and len(screen.game.log) == 2  # the bot waits its pace
        assert "2.5 s a move" in str(hint.render())
        await pilot.press(*["plus"] * 4)
        assert "0.3 s a move" in str(hint.render())
        await until(pilot, lambda: len(screen.game.log) > 2)  # its moves come one by one
        assert view_of(app).current == 1
        await pilot.press("minus", "minus", "minus")
        assert "1.6 s a move" in str(hint.render())
        await pilot.press("s")  # no more waiting: the bot ends its turn at once
        assert view_of(app).current == 0


@pytest.mark.slow
@pilot_test
async def test_a_solver_bot_waits_for_its_table_while_the_person_plays() -> None:
    app = YatzyApp(Game("kids", [Seat("Ann"), Seat("Optimal", "bot", "optimal")], seed=4), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        await pilot.press("r")
        await until(pilot, lambda: screen.ready)
        await pilot.press("enter", "y")
        await until(pilot, lambda: view_of(app).current == 0)  # the bot has played its turn
        view = view_of(app)
        assert view.players[1].boxes and sum(b.points is not None for b in view.players[1].boxes) == 1


# ---- the coach ----------------------------------------------------------------------------

@pilot_test
async def test_the_coach_ranks_as_the_solver_does() -> None:
    app = YatzyApp(Game("kids", ["Ann"], seed=8), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "c")
        panel = app.screen.query_one(CoachPanel)
        await until(pilot, lambda: bool(panel.options))
        game = play_screen(app).game
        coach = Coach(solve(get_ruleset("kids")))
        best = coach.options(coach.position_of(game))[0]
        assert panel.options[0].action == best.action
        assert panel.options[0].value == pytest.approx(best.value)
        assert best.action.describe() in panel.lines[0]  # type: ignore[union-attr]
        # and says what "expected" means: the points still to come, not the final total
        body = screen_text(app.screen.query_one("#coach-body", Static).content)
        assert "expected: the points still to come from here" in body and "not the final total" in body
        # the coach follows the game: the next roll is ranked anew
        await pilot.press("r")
        await until(pilot, lambda: panel.version == len(game.log))
        best = coach.options(coach.position_of(game))[0]
        assert panel.options[0].action == best.action


@pilot_test
async def test_the_coach_ranks_the_dice_an_undo_brings_back() -> None:
    app = YatzyApp(Game("kids", ["Ann", "Bo"], seed=3), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = play_screen(app)
        panel = screen.query_one(CoachPanel)
        await pilot.press("c", "r")  # open before the roll: it ranks the dice once they are there
        await until(pilot, lambda: bool(panel.options))
        ranked = [o.action for o in panel.options]
        await pilot.press("enter", "y")  # a box filled (with 0, asked first): no dice to rank
        assert view_of(app).current == 1 and not panel.options
        await pilot.press("u")  # Ann's dice are back on the table, and so are the coach's moves
        assert view_of(app).dice is not None
        await until(pilot, lambda: bool(panel.options))
        assert [o.action for o in panel.options] == ranked and panel.version == screen.game.version
        assert len(panel.lines) == min(len(ranked), 5)  # and lists them


@pilot_test
async def test_the_coach_says_dozzy_has_no_table() -> None:
    app = YatzyApp(Game("dozzy", ["Ann"], seed=8), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "c")
        body = str(app.screen.query_one("#coach-body").render())
        assert "no exact table" in body
        # and offers the DOZZY heuristic's move for these dice instead
        game = play_screen(app).game
        assert DozzyBot().act(game.clone()).describe() in body
        assert "rule of thumb" in app.screen.query_one(CoachPanel).plain


@pytest.mark.slow
def test_quitting_while_a_table_is_built_does_not_wait_for_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Maxi table takes minutes, one long layer after another; leaving the game must not wait
    for the layer to end. The stand-in solver's first layer lasts until the test ends it (a
    minute at most): had leaving waited for it, the layer would be over by the time it returns."""
    layer_done, end_layer = threading.Event(), threading.Event()

    def slow_solve(ruleset: Any, *, progress: Callable[[int, int], None] | None = None) -> Any:
        end_layer.wait(60)
        layer_done.set()
        assert progress is not None
        progress(1, 2)  # the build stops here: the game is gone
        raise AssertionError("the build went on after the game was left")

    monkeypatch.setattr("yatzy.solver.tables.solve", slow_solve)
    app = YatzyApp(Game("osto", ["Ann"], seed=1), pace=0)

    async def quit_while_building() -> None:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("r", "c")
            await until(pilot, lambda: "Building" in str(app.screen.query_one("#coach-body").render()))
            assert "Building" in str(app.screen.query_one("#coach-body").render())
            await pilot.press("u")  # the game is still usable meanwhile
            await pilot.press("r")
            assert view_of(app).rolls_left == 1

    try:
        asyncio.run(quit_while_building())  # returns once the event loop's threads are all done
        assert not layer_done.is_set()  # it did not wait for the layer
    finally:
        end_layer.set()


# ---- save, resume, the unfinished game ------------------------------------------------------

@pytest.mark.slow
@pilot_test
async def test_saved_half_way_and_resumed_ends_as_one_game_played_through(tmp_path: Path) -> None:
    seats = [Seat("Ann"), Seat("Greedy", "bot", "greedy")]
    path = tmp_path / "half.json"
    moves: Moves = []
    app = YatzyApp(Game("kids", seats, seed=21), pace=0, save_path=path)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await quick_turn(pilot, moves)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveScreen)
        await pilot.press("enter")
        assert path.exists()
    resumed = YatzyApp(Game.from_json(path.read_text()), pace=0, save_path=path)
    async with resumed.run_test(size=SIZE) as pilot:
        assert view_of(resumed).round == 4
        await until_over(pilot, moves)
        played = play_screen(resumed).game
    straight = reference(Game("kids", seats, seed=21), moves)
    assert played.log == straight.log and played.totals() == straight.totals()


@pilot_test
async def test_a_save_that_fails_says_why_and_the_game_goes_on(tmp_path: Path) -> None:
    app = YatzyApp(Game("yatzy", ["Ann"], seed=21), pace=0, save_path=tmp_path / "no" / "such" / "x.json")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "ctrl+s", "enter")
        await until(pilot, lambda: any("could not save" in str(n.message) for n in app._notifications))
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("r")
        assert view_of(app).rolls_left == 1


# ---- the history ----------------------------------------------------------------------------

def kept_games() -> list[GameSummary]:
    """The finished games in the history (the default database, in the test's data folder)."""
    with Database() as db:
        return list_games(db, finished=True)


@pilot_test
async def test_a_finished_game_is_in_the_history_before_the_app_is_closed() -> None:
    """The terminal may close (or its tmux session be killed) right after the end, before q:
    the game is kept the moment it ends, and the history screen of the next game lists it."""
    app = YatzyApp(Game("kids", [Seat("Me"), Seat.bot("greedy")], seed=3), pace=0)
    moves: Moves = []
    async with app.run_test(size=SIZE) as pilot:
        await until_over(pilot, moves)
        played = play_screen(app).game
        assert isinstance(app.screen, EndScreen)
        [kept] = kept_games()  # the app is still up: nothing waits for it to close
        with Database() as db:
            assert load_game(db, kept.id).log == played.log
        assert [s.total for s in kept.seats] == played.totals()
        assert f"kept in your history as game {kept.id}" in str(app.screen.query_one("#standings").render())
        await pilot.press("n")  # a new game next, and its screen's h: the game just played is there
        await until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        assert [int(str(k.value)) for k in app.screen.query_one("#history-list").rows] == [kept.id]
    assert kept_games() == [kept]  # closing the app records it no second time


@pilot_test
async def test_a_history_that_cannot_be_written_is_said_and_the_game_goes_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    monkeypatch.setenv("YATZY_DATA_DIR", str(blocked))  # no folder can be made there
    app = YatzyApp(Game("kids", [Seat("Me"), Seat.bot("greedy")], seed=3), pace=0)
    moves: Moves = []
    async with app.run_test(size=SIZE) as pilot:
        await until_over(pilot, moves)
        assert isinstance(app.screen, EndScreen) and play_screen(app).game.is_over
        await until(pilot, lambda: any("could not be kept" in str(n.message) for n in app._notifications))
        told = [str(n.message) for n in app._notifications]
        assert any(m.startswith("the game could not be kept in your history: could not make the folder")
                   for m in told), told
        assert "kept in your history as game" not in str(app.screen.query_one("#standings").render())
        await pilot.press("escape")  # the cards are still there to look at
        assert isinstance(app.screen, PlayScreen)


@pytest.mark.slow
@pilot_test
async def test_an_interrupted_game_is_offered_at_the_next_start() -> None:
    seats = [Seat("Ann"), Seat("Greedy", "bot", "greedy")]
    moves: Moves = []
    app = YatzyApp(Game("yatzy", seats, seed=9), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(2):
            await quick_turn(pilot, moves)
        await pilot.press("r")
        log = list(play_screen(app).game.log)
        await pilot.press("ctrl+c")  # the game stops mid-turn (or the terminal closes)
    assert app.return_value is not None and app.return_value.log == log
    assert autosave_path().exists()
    again = YatzyApp(pace=0)
    async with again.run_test(size=SIZE) as pilot:
        assert isinstance(again.screen, ConfirmScreen)
        assert "Ann" in str(again.screen.query_one("#question").render())
        await pilot.press("y")
        assert play_screen(again).game.log == log
        assert view_of(again).dice is not None
    declined = YatzyApp(pace=0)
    async with declined.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        assert isinstance(declined.screen, NewGameScreen)
    assert not autosave_path().exists()


# ---- the new game screen ------------------------------------------------------------------

@pilot_test
async def test_the_new_game_screen_sets_up_players_rules_and_remembers_them() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)

        def has(selector: str) -> Callable[[], bool]:
            return lambda: bool(screen.query(selector))

        await click(pilot, "#add")
        screen.query_one("#name-2").value = "Cy"  # type: ignore[attr-defined]
        await pilot.pause()
        await click(pilot, "#up-2")  # Cy moves up to the second seat
        await until(pilot, lambda: screen.query_one("#name-1").value == "Cy")  # type: ignore[attr-defined]
        await pilot.pause()
        await click(pilot, "#remove-0")  # the first player leaves
        await until(pilot, lambda: not screen.query("#name-2"))
        await laid_out(pilot, "#rules")
        screen.query_one("#rules").value = "yahtzee"  # type: ignore[attr-defined]
        await until(pilot, has("#opt-joker"))  # the screen composed again for the new rules
        screen.query_one("#opt-joker").value = "free"  # type: ignore[attr-defined]
        screen.query_one("#seed").value = "42"  # type: ignore[attr-defined]
        await click(pilot, "#roll-off")
        await click(pilot, "#start")
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        game = play_screen(app).game
        assert [s.name for s in game.seats] == ["Cy", "Greedy bot"]
        assert game.seats[1].level == "greedy"
        assert game.ruleset.name == "yahtzee" and dict(game.ruleset.options)["joker"] == "free"
        assert game.seed == 42 and game.roll_offs
    remembered = Settings.load().setup
    assert remembered.rules == "yahtzee" and remembered.seed == 42 and remembered.roll_off
    assert [s.name for s in remembered.seats] == ["Cy", "Greedy bot"]
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")  # not the game just begun, a new one
        assert app.screen.query_one("#name-0").value == "Cy"  # type: ignore[attr-defined]
        assert app.screen.query_one("#rules").value == "yahtzee"  # type: ignore[attr-defined]


@pilot_test
async def test_a_bad_option_is_named_and_no_game_starts() -> None:
    app = YatzyApp(pace=0)
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#opt-bonus_threshold").value = "500"  # type: ignore[attr-defined]
        await click(pilot, "#start")
        assert isinstance(app.screen, NewGameScreen)
        assert "bonus_threshold" in str(app.screen.query_one("#error").render())


def test_an_unknown_bot_or_language_is_refused_before_the_screen_opens() -> None:
    with pytest.raises(InvalidActionError, match="unknown level"):
        YatzyApp(Game("yatzy", [Seat("Ann"), Seat("Robo", "bot", "genius")], seed=1))
    with pytest.raises(InvalidActionError, match="unknown language"):
        YatzyApp(lang="xx")


# ---- low vision ---------------------------------------------------------------------------

def contrasts(app: YatzyApp) -> list[float]:
    """The contrast ratio of every character drawn on the screen (WCAG's formula)."""
    return [ratio(segment.style.color, segment.style.bgcolor) for _x, _y, segment in segments(app)
            if segment.text.strip() and segment.style is not None and segment.style.color is not None
            and segment.style.bgcolor is not None]


@pilot_test
async def test_low_vision_is_black_on_yellow_with_large_dice_and_remembered() -> None:
    app = YatzyApp(Game("kids", [Seat("Ann"), Seat("Greedy", "bot", "greedy")], seed=6), pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r", "1", "c", "ctrl+t")
        await until(pilot, lambda: bool(app.screen.query_one(CoachPanel).options))
        assert app.theme == "yatzy-contrast" and app.has_class("-large")
        await until(pilot, lambda: app.screen.query_one("#die-0").region.width == 14)  # the next layout
        ratios = contrasts(app)
        assert ratios and min(ratios) >= 7
        await pilot.press("?")
        assert min(contrasts(app)) >= 7
    assert json.loads(settings_path().read_text())["low_vision"]
    again = YatzyApp(pace=0)
    async with again.run_test(size=SIZE):
        assert again.theme == "yatzy-contrast"
        assert min(contrasts(again)) >= 7  # the new game screen too
    async with YatzyApp(pace=0).run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+t")
    assert not Settings.load().low_vision


@pilot_test
async def test_a_bots_turn_names_its_level_in_the_games_language() -> None:
    """ "Vuorossa Robo (botti: ahne)", not "(botti: greedy)": the level as the view words it."""
    game = Game("yatzy", [Seat.bot("greedy", "Robo"), Seat("Ann")], seed=1)
    app = YatzyApp(game, lang="fi", pace=10)  # the bot waits: its turn stays on the screen
    async with app.run_test() as pilot:
        await until(pilot, lambda: isinstance(app.screen, PlayScreen))
        turn = str(app.screen.query_one("#turn").render())
        assert turn.startswith("Vuorossa Robo (botti: ahne)"), turn

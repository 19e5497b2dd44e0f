"""The scorekeeper in the terminal app: people at a real table type the dice they threw.

Whole games are played through the keys (digits and Enter put a throw on the table, the arrows and
Enter on an empty line fill a box) and checked against the same throws and boxes sent straight to a
Session; a correction goes through the fix dialog; the game lands in the history as "players".
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Select

from helpers.games import DOZZY_ROUNDS
from helpers.tui import Compare, laid_out, pilot_test, until
from yatzy.actions import Score
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.storage import Database, list_games, load_game
from yatzy.tui.app import YatzyApp
from yatzy.tui.coach import CoachPanel
from yatzy.tui.end import EndScreen
from yatzy.tui.scorekeeper import DiceEntry, FixScreen, KeeperScreen
from yatzy.tui.settings import Settings
from yatzy.tui.setup import NewGameScreen
from yatzy.tui.widgets import ScoreCard
from yatzy.views import GameView

pytestmark = pytest.mark.slow  # terminal pilots and screenshots: not in the fast tier

SIZE = (80, 24)
"""The scorekeeper must work on the smallest usual terminal."""


def keeper(app: YatzyApp) -> KeeperScreen:
    return next(s for s in app.screen_stack if isinstance(s, KeeperScreen))


def view_of(app: YatzyApp) -> GameView:
    return keeper(app).session.view()


def shown(app: YatzyApp, selector: str) -> str:
    return str(keeper(app).query_one(selector).render())


async def throw(pilot: Pilot[Any], dice: list[int], spaced: bool = False) -> None:
    """Type a throw as the players would, then Enter."""
    text = " ".join(map(str, dice)) if spaced else "".join(map(str, dice))
    await pilot.press(*text, "enter")


async def fill(pilot: Pilot[Any], box: str) -> None:
    """Walk the card's cursor to ``box`` with the arrows (from the dice line) and press Enter."""
    app = pilot.app
    assert isinstance(app, YatzyApp)
    card = keeper(app).query_one(ScoreCard)
    boxes = [card.boxes[i] for i in card.pickable]
    steps = boxes.index(box) - boxes.index(card.picked)
    await pilot.press(*(["down"] * steps if steps > 0 else ["up"] * -steps), "enter")


def next_throw(rng: random.Random, table: tuple[int, ...] | None, n: int) -> list[int]:
    """A throw at the table: the first one all dice; later ones keep some of the dice on it."""
    if table is None:
        return [rng.randint(1, 6) for _ in range(n)]
    kept = rng.sample(list(table), rng.randint(1, n - 1))
    return kept + [rng.randint(1, 6) for _ in range(n - len(kept))]


def best_box(view: GameView) -> str:
    """The box with the most points (the first of them): never a zero while points are open."""
    return max(sorted(view.score_options, key=lambda o: o.number), key=lambda o: o.points).id


def near_box(app: YatzyApp) -> str:
    """A box with points nearest to the card's cursor (few keys to press), else the one it is on."""
    card = keeper(app).query_one(ScoreCard)
    points = {o.id: o.points for o in view_of(app).score_options}
    boxes = [card.boxes[i] for i in card.pickable]
    here = boxes.index(card.picked)
    scoring = [i for i, b in enumerate(boxes) if points.get(b or "")] or [here]
    return str(boxes[min(scoring, key=lambda i: abs(i - here))])


def reference(game: Game, turns: list[tuple[list[list[int]], str]]) -> Game:
    """The same throws and boxes sent straight to a session."""
    session = Session(game)
    for throws, box in turns:
        for dice in throws:
            session.act(game.roll_reaching(dice))
        session.act(Score(box))
    return game


def card_totals(app: YatzyApp) -> list[int]:
    card = keeper(app).query_one(ScoreCard)
    row = card.get_row("total")
    return [int(str(c)) for c in row[1:-1]]


# ---- whole games ------------------------------------------------------------------------------

@pilot_test
async def test_two_people_keep_a_whole_yatzy_game_by_typing_their_dice() -> None:
    rng = random.Random(5)
    game = Game("yatzy", ["Anna", "Ben"], dice_from="players")
    app = YatzyApp(game, pace=0)
    turns: list[tuple[list[list[int]], str]] = []
    async with app.run_test(size=SIZE) as pilot:
        screen = keeper(app)
        assert isinstance(screen.focused, DiceEntry)  # the dice line has the keys from the start
        assert not screen.query(".die")  # no dice buttons: the dice are real ones
        while not game.is_over:
            throws = []
            for n in range(rng.choice((1, 1, 1, 2, 3))):
                dice = next_throw(rng, view_of(app).dice, 5)
                await throw(pilot, dice, spaced=n == 1)
                throws.append(dice)
                assert view_of(app).dice == tuple(sorted(dice))
                assert " ".join(map(str, sorted(dice))) in shown(app, "#keeper-table")
            box = near_box(app)
            await fill(pilot, box)
            turns.append((throws, box))
            if not game.is_over:
                assert card_totals(app) == game.totals()  # the card adds up as the engine does
        await until(pilot, lambda: isinstance(app.screen, EndScreen) and bool(app.screen.query("#standings")))
        view = view_of(app)
        assert view.outcome is not None
        standings = str(app.screen.query_one("#standings").render())
        winner = view.players[view.outcome.winners[0]].name
        assert winner in standings and ("wins" in standings or "tie" in standings)
        for s in view.outcome.standings:
            assert str(s.total) in standings
        await pilot.press("escape")
        assert card_totals(app) == game.totals()
        await pilot.press("q")
    twin = reference(Game("yatzy", ["Anna", "Ben"], dice_from="players"), turns)
    assert twin.log == game.log and twin.totals() == game.totals()
    # kept in the history as a game whose dice the players typed, and it loads back
    with Database() as db:
        [summary] = list_games(db)
        assert summary.dice_from == "players"
        assert load_game(db, summary.id).totals() == game.totals()


@pilot_test
async def test_a_maxi_scorekeeper_turn_saves_rolls_and_spends_one() -> None:
    game = Game("maxi", ["Anna"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [6, 6, 6, 1, 2, 3])
        await fill(pilot, best_box(view_of(app)))
        assert view_of(app).players[0].bank == 2  # one throw of three: two saved
        for dice in ([6, 6, 6, 6, 2, 3], [6, 6, 6, 6, 5, 3], [6, 6, 6, 6, 5, 5]):
            await throw(pilot, dice)
        view = view_of(app)
        assert (view.rolls_left, view.saved_rolls) == (0, 2)
        assert "+ 2 saved rolls" in shown(app, "#turn")
        await throw(pilot, [6, 6, 6, 6, 6, 5])  # the fourth throw of the turn: a saved one
        view = view_of(app)
        assert (view.rolls_left, view.saved_rolls) == (0, 1)
        assert "+ 1 saved roll" in shown(app, "#turn")
        assert view.dice == (5, 6, 6, 6, 6, 6)
        await fill(pilot, "fives")
        assert view_of(app).players[0].bank == 1


# ---- mistakes and corrections -------------------------------------------------------------------

@pilot_test
async def test_wrong_dice_are_explained_on_the_screen_and_change_nothing() -> None:
    game = Game("yatzy", ["Anna", "Ben"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [1, 2, 3, 4])
        assert "Yatzy (Scandinavian) is played with 5 dice; you typed 4" in shown(app, "#keeper-message")
        assert game.log == []
        await pilot.press("backspace")  # the line typed is selected: a key starts it anew
        await pilot.press(*"12347", "enter")
        assert "“7” is not a die face" in shown(app, "#keeper-message")
        assert game.log == [] and view_of(app).dice is None
        await throw(pilot, [1, 2, 3, 4, 5])
        assert shown(app, "#keeper-message").strip() == ""
        for dice in ([1, 2, 3, 4, 6], [1, 2, 3, 5, 6]):
            await throw(pilot, dice)
        await throw(pilot, [2, 2, 3, 5, 6])  # a fourth throw: the session says no
        assert len(game.log) == 3 and game.state.dice == (1, 2, 3, 5, 6)
        assert shown(app, "#keeper-message").strip()
        await pilot.press("r")  # no roll key: nothing is thrown by the computer
        assert len(game.log) == 3


@pilot_test
async def test_u_takes_typed_dice_back() -> None:
    game = Game("yatzy", ["Anna", "Ben"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [1, 3, 3, 5, 6])
        await throw(pilot, [3, 3, 3, 5, 6])
        await pilot.press("u")
        assert view_of(app).dice == (1, 3, 3, 5, 6) and view_of(app).rolls_left == 2
        await throw(pilot, [3, 3, 3, 3, 6])
        assert game.state.dice == (3, 3, 3, 3, 6)


@pilot_test
async def test_an_earlier_round_is_fixed_through_the_dialog_and_recorded() -> None:
    game = Game("yatzy", ["Anna", "Ben"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [6, 6, 6, 6, 6])
        await throw(pilot, [6, 6, 6, 6, 5])  # typed wrong: it was 66666 again
        await fill(pilot, "sixes")
        await throw(pilot, [1, 2, 3, 4, 5])
        await fill(pilot, "small_straight")
        await throw(pilot, [2, 2, 4, 4, 4])
        await fill(pilot, "full_house")
        assert game.totals() == [24 + 16, 15]
        log_before = list(game.log)
        await pilot.press("f")
        assert isinstance(app.screen, FixScreen)
        rounds = app.screen.rounds
        assert [(r.player, r.number, r.box) for r in rounds] == [(0, 1, "sixes"), (1, 1, "small_straight"),
                                                                 (0, 2, "full_house")]
        await pilot.press("up", "up", "enter")  # Anna's first round
        entry = app.screen.query_one("#fix-dice", Input)
        assert entry.value == "56666" and entry.has_focus
        await pilot.press(*"66666", "enter")
        await pilot.press("enter")  # the box stays: Sixes is picked already
        assert not isinstance(app.screen, FixScreen)
        assert game.totals() == [30 + 16, 15] and card_totals(app) == game.totals()
        assert len(game.amendments) == 1 and game.amendments[0].turn == 0
        assert game.log[2:] == log_before[2:]  # the later rounds stand as they were
        assert "Corrected: Anna, round 1: 6 6 6 6 6 → 6 Sixes 30" in shown(app, "#moves")
        # the box Anna filled in round 2 is not offered for round 1; the round's own box is picked
        await pilot.press("f", "up", "up", "enter", *"22444", "enter")
        boxes = app.screen.query_one("#fix-boxes", OptionList)
        ids = [boxes.get_option_at_index(i).id for i in range(boxes.option_count)]
        assert isinstance(app.screen, FixScreen) and boxes.display
        assert "full_house" not in ids and {"sixes", "threes", "chance"} <= set(ids)
        assert boxes.highlighted is not None and ids[boxes.highlighted] == "sixes"
        assert len(game.amendments) == 1 and game.totals() == [30 + 16, 15]
        await pilot.press("escape", "escape", "escape")
        assert isinstance(app.screen, KeeperScreen)
        assert isinstance(app.screen.focused, DiceEntry)


@pilot_test
async def test_the_fix_dialog_offers_only_the_boxes_the_round_may_fill_with_their_points() -> None:
    """Mid-game a round may go to its own box or one still open, never to one a later round
    filled; once the card is full, to its own box alone. Each names what the dice typed score."""
    game = Game("kids", ["Anna"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [1, 1, 1, 2, 3])
        await fill(pilot, "ones")
        await throw(pilot, [2, 2, 2, 2, 3])
        await fill(pilot, "twos")
        await pilot.press("f", "up", "enter", "enter")  # round 1, its dice as they were
        boxes = app.screen.query_one("#fix-boxes", OptionList)
        assert [str(boxes.get_option_at_index(i).prompt) for i in range(boxes.option_count)] == [
            "1 Ones: 3 points", "3 Threes: 3 points", "4 Fours: 0 points", "5 Fives: 0 points",
            "6 Sixes: 0 points"]
        await pilot.press("escape", "escape", "escape")
        for face, box in enumerate(("threes", "fours", "fives", "sixes"), 3):
            await throw(pilot, [face] * 5)
            await fill(pilot, box)
        await pilot.pause()
        await pilot.press("escape", "f", *["up"] * 5, "enter", *"11112", "enter")
        boxes = app.screen.query_one("#fix-boxes", OptionList)
        assert [str(boxes.get_option_at_index(i).prompt) for i in range(boxes.option_count)] == [
            "1 Ones: 4 points"]


@pilot_test
async def test_a_finished_game_is_kept_at_once_and_a_fix_after_the_end_updates_it() -> None:
    """In the history from the moment the game ends (the app may never see its q); a round
    fixed after the end changes that same game, and adds no second one."""
    game = Game("kids", ["Anna"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1):
            await throw(pilot, [face] * 5)
            await fill(pilot, box)
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        with Database() as db:
            [kept] = list_games(db)
        assert kept.finished and kept.dice_from == "players" and kept.seats[0].total == game.total(0)
        await pilot.press("escape", "f")
        assert isinstance(app.screen, FixScreen)
        await pilot.press(*["up"] * 5, "enter", *"11112", "enter", "enter")  # round 1: four ones, not five
        assert not isinstance(app.screen, FixScreen) and len(game.amendments) == 1
        with Database() as db:
            [fixed] = list_games(db)
            stored = load_game(db, fixed.id)
        assert fixed.id == kept.id and fixed.seats[0].total == game.total(0) == kept.seats[0].total - 1
        assert stored.log == game.log and len(stored.amendments) == 1


# ---- the coach, DOZZY ---------------------------------------------------------------------------

@pilot_test
async def test_the_coach_ranks_the_dice_typed() -> None:
    game = Game("kids", ["Anna"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [3, 3, 3, 1, 2])
        await pilot.press("c")
        panel = keeper(app).query_one(CoachPanel)
        await until(pilot, lambda: bool(panel.options))
        assert panel.options and panel.version == game.version
        # typed again after u: the same number of moves, other dice, ranked anew
        await pilot.press("u")
        await throw(pilot, [6, 6, 6, 1, 2])
        await until(pilot, lambda: panel.version == game.version and bool(panel.options))
        assert game.state.dice == (1, 2, 6, 6, 6) and panel.version == game.version


@pilot_test
async def test_dozzy_tiles_are_chosen_as_in_the_normal_game() -> None:
    game = Game("dozzy", ["Anna"], dice_from="players")
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await throw(pilot, [1, 2, 3, 4, 5])
        option = next(o for o in view_of(app).score_options if o.points)
        await fill(pilot, option.id)
        if len(option.returns) > 1:
            await pilot.press("1")
        last = game.log[-1]
        assert isinstance(last, Score) and last.category == option.id


@pilot_test
async def test_a_dozzy_round_fixed_into_another_box_asks_which_tiles_came_back() -> None:
    """Six typed rounds; the last one fixed into Ones, where the rules let 8, 10 or 11 come
    back: the dialog lists them (the engine's choices), and the one picked is recorded."""
    def typed(rounds: list[str]) -> Game:
        game = Game("dozzy", ["Anna"], dice_from="players")
        session = Session(game)
        for action in rounds:
            session.act(action)
        return game

    game = typed(DOZZY_ROUNDS)
    last = game.log[-1]
    assert isinstance(last, Score) and last.category == "n9" and last.returns == (8,)
    app = YatzyApp(game, pace=0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f", "enter", "enter")  # the last round, its dice as they were
        assert isinstance(app.screen, FixScreen)
        boxes = app.screen.query_one("#fix-boxes", OptionList)
        await pilot.press(*["up"] * (boxes.highlighted or 0), "enter")  # 1 Ones
        returns = app.screen.query_one("#fix-returns", OptionList)
        assert returns.display and returns.has_focus
        assert [str(returns.get_option_at_index(i).prompt) for i in range(returns.option_count)] == \
            ["tile 8", "tile 10", "tile 11"]
        await pilot.press("escape")  # back to the boxes, and on again
        assert boxes.display and not returns.display
        await pilot.press("enter", "down", "enter")  # tile 10
        assert not isinstance(app.screen, FixScreen)
    assert game.log[-1] == Score("n1", (10,)) and len(game.amendments) == 1
    assert game.state == typed([*DOZZY_ROUNDS[:-1], "s n1 10"]).state


# ---- the new game screen ------------------------------------------------------------------------

@pilot_test
async def test_the_new_game_screen_sets_up_a_scorekeeper_game() -> None:
    app = YatzyApp(pace=0, offer_resume=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#dice-from", Select).value = "players"
        await until(pilot, lambda: bool(app.screen.query("#first")) and bool(app.screen.query("#name-1")))
        screen = app.screen
        assert not screen.query("#seed") and not screen.query("#roll-off")  # no seed, no roll-off
        assert not screen.query(".kind")  # every seat a person
        await laid_out(pilot, "#first")
        screen.query_one("#name-0", Input).value = "Anna"
        screen.query_one("#name-1", Input).value = "Ben"
        first = screen.query_one("#first", Select)
        await until(pilot, lambda: [str(p) for p, _v in first._options][:2] == ["Anna", "Ben"])
        first.value = 1
        await pilot.pause()
        screen.query_one("#start").focus()
        await pilot.press("enter")
        screen = keeper(app)
        game = screen.game
        assert game.dice_from == "players" and [s.name for s in game.seats] == ["Anna", "Ben"]
        assert all(not s.is_bot for s in game.seats)
        assert game.state.current == 1  # Ben starts, as chosen
    remembered = Settings.load().setup
    assert remembered.dice_from == "players" and remembered.first == 1


@pilot_test
async def test_a_row_switched_to_a_bot_takes_the_bots_name_in_the_games_language() -> None:
    """A default name ("Pelaaja 3") becomes the bot's ("Vahva botti") and back; a name typed
    stays; the kinds offered name the levels in the language ("botti: vahva", not "botti: strong")."""
    app = YatzyApp(lang="fi", pace=0, offer_resume=False)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        assert screen.query_one("#name-1", Input).value == "Ahne botti"  # a first start's bot
        screen.query_one("#add").focus()
        await pilot.press("enter")
        await until(pilot, lambda: bool(app.screen.query("#kind-2")))
        screen = app.screen
        name = screen.query_one("#name-2", Input)
        assert name.value == "Pelaaja 3"
        kind = screen.query_one("#kind-2", Select)
        assert ("botti: vahva", "strong") in [(str(p), v) for p, v in kind._options]
        await laid_out(pilot, "#kind-2")
        kind.value = "strong"
        await until(pilot, lambda: name.value == "Vahva botti")
        kind.value = "casual"
        await until(pilot, lambda: name.value == "Harrastajabotti")
        kind.value = "person"
        await until(pilot, lambda: name.value == "Pelaaja 3")
        screen.query_one("#name-0", Input).value = "Anna"
        screen.query_one("#kind-0", Select).value = "greedy"
        await until(pilot, lambda: screen.setup.seats[0].level == "greedy")  # type: ignore[attr-defined]
        assert screen.query_one("#name-0", Input).value == "Anna"  # typed: kept
        screen.query_one("#start").focus()
        await pilot.press("enter")
        game = app.screen.game  # type: ignore[attr-defined]
        assert [(s.name, s.level) for s in game.seats] == [("Anna", "greedy"), ("Ahne botti", "greedy"),
                                                          ("Pelaaja 3", None)]


def test_a_damaged_remembered_keeper_setup_falls_back() -> None:
    from yatzy.tui.settings import Setup

    setup = Setup.from_dict({"dice_from": "table", "first": 9, "seats": [{"name": "A"}]})
    assert setup.dice_from == "server" and setup.first == 0


# ---- snapshots ----------------------------------------------------------------------------------

def keeper_game() -> Game:
    return Game("yatzy", [Seat("Anna"), Seat("Ben")], dice_from="players")


KEYS = [*"13356", "enter", *"33356", "enter", "down", "down", "enter", *"2 2 4 4 4", "enter", "down"]


def test_snapshot_keeper_play_screen(snap_compare: Compare) -> None:
    """Ben has typed a throw; the card picks a box; Anna's round is in the moves."""
    assert snap_compare(YatzyApp(keeper_game(), pace=0), press=KEYS, terminal_size=SIZE)


def test_snapshot_keeper_play_screen_low_vision(snap_compare: Compare) -> None:
    assert snap_compare(YatzyApp(keeper_game(), pace=0), press=["ctrl+t", *KEYS], terminal_size=SIZE)


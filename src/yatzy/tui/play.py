"""The play screen: every card side by side, the dice, the turn, the moves, the coach.

Keyboard first (1 to the number of dice hold, r or space rolls, arrows and Enter fill a box, ? lists every
key), the mouse too (click a die; click a box to pick it, again to fill it). Bots play at a
pace that can be followed, faster or slower with + and -, skipped with s.

The session alone changes the game: this screen draws views and sends actions. What a box
would score, the bonus, the legal moves and the tile choices all come from the view.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import DataTable, Static

from ..actions import parse_action
from ..errors import YatzyError
from ..events import Event, Rolled, Scored, TilesMoved, TurnPassed
from ..game import Action, Roll, Score
from ..i18n import _, language
from ..names import box_label
from ..narration import event_text, round_text, tiles_text
from ..recording import Recorder
from ..session import DEFAULT_SAVE, SaveError, Session
from ..solver.coach import Option
from ..views import GameView, ScoreOption
from . import hints
from .celebrate import best_texts, is_yatzy, previous_bests, yatzy_text
from .coach import CoachPanel, build, costly, costly_question
from .coaching import CoachPlacing
from .dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, SaveScreen
from .dice import DiceRow
from .end import EndScreen
from .pacing import Pacer
from .preparing import INSTEAD, PreparingPanel
from .settings import Settings, autosave, next_warning
from .widgets import Die, KeyBar, ScoreCard


class PlayScreen(CoachPlacing):
    BINDINGS = [
        *(Binding(str(n), f"hold({n - 1})", show=False) for n in range(1, 7)),
        Binding("r,space", "roll", show=False),
        Binding("c", "coach", show=False),
        Binding("t", "target", show=False),
        Binding("tab,shift+tab", "switch", show=False),
        Binding("w", "warn", show=False),
        Binding("u", "undo", show=False),
        Binding("b", "restore", show=False),
        Binding("plus,equals_sign", "pace(-1)", show=False),
        Binding("minus", "pace(1)", show=False),
        Binding("s", "skip", show=False),
        Binding("m", "motion", show=False),
        Binding("ctrl+s", "save", show=False),
        Binding("question_mark", "help", show=False),
        Binding("n", "new_game", show=False),
        Binding("escape", "leave", show=False),
        Binding("g", "instead", show=False),
        Binding("q", "app.quit", show=False),
    ]

    def __init__(self, session: Session, *, pace: float | None = None, save_path: Path | None = None) -> None:
        super().__init__(id="play")
        self.session = session
        self.game = session.game
        self.lang = session.lang
        self.save_path = save_path
        self.pacer = Pacer(self, pace, self.bot_step)
        self.moves: deque[str] = deque(maxlen=7)
        self.ended = False
        self.bests: dict[str, int] | None = None
        """Each person's best total in the history before this game (None until read)."""
        self.shown: dict[str, Text] = {}
        self.recorder: Recorder | None = None
        """Keeps the game in the history the moment it ends (made once the screen can say why a
        write failed)."""

    # ---- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            yield ScoreCard()
            with VerticalScroll(id="side"):
                yield Static(id="turn")
                yield from self.dice_area()
                yield Static(id="hint")
                yield Static(id="picked")
                yield Static(id="board")
                yield PreparingPanel(self.lang)
                yield Static(id="bonus")
                yield Static(id="moves")
                yield CoachPanel(self.lang)
        yield KeyBar(id="keys")

    def dice_area(self) -> ComposeResult:
        """The dice, each a button (a scorekeeper game has a line to type them instead)."""
        yield DiceRow(self.game.ruleset.dice)

    def on_mount(self) -> None:
        self.query_one(CoachPanel).display = False
        self.recorder = Recorder(self.session, failed=self.record_failed)
        self.session.subscribe(self.heard)
        self.session.start()
        if self.session.table_seats():  # only those seats wait; the others play meanwhile
            self.query_one(PreparingPanel).prepare(self.session)
        self.query_one(ScoreCard).focus()
        if self.settings.warn_above is not None:
            self.warm_coach()
        self.read_bests()
        self.after_change()

    @property
    def settings(self) -> Settings:
        return self.app.settings  # type: ignore[attr-defined, no-any-return]

    # ---- the bots -------------------------------------------------------------------
    @property
    def ready(self) -> bool:
        """Every bot has what it needs (a solver table for solver bots)."""
        return not self.session.table_seats()

    def on_preparing_panel_ready(self, message: PreparingPanel.Ready) -> None:
        self.query_one(PreparingPanel).display = False
        if message.error is not None:
            self.notify(str(message.error), severity="error", timeout=10)
        self.after_change()

    def action_leave(self) -> None:
        """Esc while a bot's table is built: stop waiting, back to the new game screen."""
        if not self.ready:
            self.query_one(PreparingPanel).stop()
            self.app.new_game()  # type: ignore[attr-defined]

    def action_instead(self) -> None:
        """g while a bot's table is built: the greedy bot plays those seats, at once."""
        if self.ready:
            return
        self.query_one(PreparingPanel).stop()
        for seat in self.session.table_seats():
            self.session.change_bot(seat, INSTEAD)
        self.after_change()

    def schedule_bots(self) -> None:
        if self.pacer.waiting or not self.is_current or not self.bot_ready():
            return
        if self.pacer.at_once:
            while self.session.waiting_for() is None and not self.game.is_over and self.bot_ready():
                self.session.step()
            self.pacer.skipping = False
            self.after_change()
        else:
            last = self.session.view().last
            self.pacer.wait(undoable=last is not None and last.undoable)

    def bot_ready(self) -> bool:
        """The bot whose turn it is can move (it needs no table, or has it)."""
        return self.session.bot_ready(self.game.state.current)

    def bot_step(self) -> None:
        if self.is_current and self.bot_ready():  # the bots wait while a dialog (help, save) is open
            self.session.step()
            self.after_change()

    def on_screen_resume(self) -> None:
        if not self.game.is_over and self.session.waiting_for() is None:
            self.schedule_bots()

    def stop_bots(self) -> None:
        self.pacer.stop()

    # ---- events and drawing ------------------------------------------------------------
    def heard(self, e: Event) -> None:
        """Every move, as the session reports it: a line in the moves list (but for a turn
        passing and a score that moved no tile, which the screen shows); the dice a roll kept
        stay held where they lay (a bot's keeps too) while the others tumble; a Yatzy cheered."""
        view = self.session.view()
        quiet = isinstance(e, TurnPassed) or isinstance(e, TilesMoved) and not (e.tiles_out or e.tiles_back)
        if not quiet:
            with language(self.lang):
                self.moves.append(event_text(e, view))
        rolled, yatzy = isinstance(e, Rolled), isinstance(e, Scored) and is_yatzy(self.game, e)
        bot = isinstance(e, Rolled | Scored) and self.game.seats[e.player].is_bot
        tumble = self.pacer.tumble(bot) if rolled and self.settings.roll_animation else 0  # off with m
        for row in self.query(DiceRow):
            row.heard(e, tumble, yatzy)
        if isinstance(e, Scored) and yatzy:
            with language(self.lang):
                self.notify(yatzy_text(view.players[e.player].name, e.points), title="★", timeout=5)

    @work(thread=True, exclusive=True, group="bests")
    def read_bests(self) -> None:
        """In a worker thread (the history may take a second to open): the best totals so far."""
        bests = previous_bests(self.game)
        self.app.call_from_thread(setattr, self, "bests", bests)

    def after_change(self) -> None:
        """Draw, keep the game for the next start, and let the bots move or end the game."""
        view = self.session.view()
        self.draw(view)
        autosave(self.game)
        if view.over:
            self.stop_bots()
            if not self.ended:
                self.ended = True
                self.cheer_bests(view)
                self.app.push_screen(EndScreen(self.lang, view, game=self.game, recorder=self.recorder),
                                     self.after_end)
            return
        self.ended = False  # an undo after the end: the end comes again, with its screen
        if self.session.waiting_for() is not None:
            self.pacer.skipping = False
        else:
            self.schedule_bots()

    def cheer_bests(self, view: GameView) -> None:
        with language(self.lang):
            for text in best_texts(view, self.bests or {}):
                self.notify(text, title="★", timeout=8)

    def record_failed(self, message: str) -> None:
        """The history could not be written: said, and the game goes on."""
        self.notify(message, severity="error", timeout=10)

    def redraw(self) -> None:
        self.draw(self.session.view())

    def draw(self, view: GameView) -> None:
        with language(self.lang):
            self._draw(view)

    def _draw(self, view: GameView) -> None:
        person = self.session.waiting_for()
        self.put("#title", Text(f" {_(view.title)} · {round_text(view)}", style="bold"))
        self.put("#turn", Text(hints.turn_text(view), style="bold"), layout=True)
        for row in self.query(DiceRow):
            row.show(view.dice, _("HELD") if person is not None else _("KEPT"))
        card = self.query_one(ScoreCard)
        card.show(view)
        self.put("#hint", Text(self.hint(view, person is not None)), layout=True)
        self.put("#picked", Text(hints.picked_text(view, card.picked), style="bold"))
        board = self.query_one("#board", Static)
        board.display = view.board is not None
        if view.board is not None:
            self.put("#board", hints.tiles_board(view))
        self.put("#bonus", Text(hints.bonus_text(view)), layout=True)
        self.put("#moves", self.moves_text())
        coach = self.query_one(CoachPanel)
        if coach.display:
            coach.follow(view, self.game)
        self.query_one(KeyBar).show(hints.coach_keys(self.keys(view, person is not None),
                                                     self.coaching, self.on_coach))

    def moves_text(self) -> Text:
        return Text("\n".join(self.moves))

    def put(self, selector: str, text: Text, layout: bool = False) -> None:
        """Show ``text`` in a Static, unless it shows it already; ``layout``: the Static's height
        follows its text (the turn, the hint, the bonus); the others have fixed heights and
        redraw only themselves."""
        if self.shown.get(selector) != text:
            self.shown[selector] = text
            self.query_one(selector, Static).update(text, layout=layout)

    def hint(self, view: GameView, person: bool) -> str:
        return hints.hint_text(view, person, self.bot_ready(), self.pacer.pace, self.on_coach)

    def keys(self, view: GameView, person: bool) -> list[tuple[str, str]]:
        return hints.play_keys(view, person, self.game.ruleset.dice)

    # ---- what the player does -----------------------------------------------------------
    def costly(self, action: Action) -> tuple[float, Option] | None:
        """What a person's move loses against the coach's best, and that best move, when the
        warning is on (w) and the move loses more than it allows; else None."""
        return costly(self.game, action, self.settings.warn_above)

    def act(self, action: Action) -> None:
        """A person's move; with the warning on (w), a move that loses more than the chosen
        points against the coach's best is asked about first."""
        found = self.costly(action)
        if found is not None:
            with language(self.lang):
                question = costly_question(*found)
            self.app.push_screen(ConfirmScreen(self.lang, question),
                                 lambda yes: self.really_act(action) if yes else None)
            return
        self.really_act(action)

    def really_act(self, action: Action) -> None:
        try:
            self.session.act(action)
        except YatzyError as e:
            self.notify(str(e), severity="error", timeout=5)
            return
        self.after_change()

    def person_view(self) -> GameView | None:
        """The view when a person is to move; else None (and a word why)."""
        view = self.session.view()
        if view.over:
            return None
        if self.session.waiting_for() is None:
            with language(self.lang):
                self.notify(_("{name} is playing; s skips to your turn").format(
                    name=view.players[view.current or 0].name), timeout=3)
            return None
        return view

    def action_hold(self, index: int) -> None:
        view = self.person_view()
        if view is None or view.dice is None or index >= len(view.dice):
            return
        if not view.rolls_left + view.saved_rolls:
            with language(self.lang):
                self.notify(_("No rolls left: fill a box"), timeout=3)
            return
        for row in self.query(DiceRow):
            row.toggle(index)
        self.draw(view)

    def on_die_toggled(self, message: Die.Toggled) -> None:
        self.action_hold(message.index)

    def action_roll(self) -> None:
        view = self.person_view()
        if view is None:
            return
        keep = next((row.kept() for row in self.query(DiceRow)), ())
        self.act(Roll(keep))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        box = self.query_one(ScoreCard).boxes[event.cursor_row]
        if box is not None:
            self.fill(box)

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        card = self.query_one(ScoreCard)
        view = self.session.view()
        with language(self.lang):
            self.put("#picked", Text(hints.picked_text(view, card.picked), style="bold"))

    def fill(self, box: str) -> None:
        """Fill a box: ask first before a 0 while another box would score (one question, which
        also says what the move loses when the warning would ask too), then ask which tiles come
        back when there is a choice (DOZZY)."""
        view = self.person_view()
        if view is None:
            return
        option = next((o for o in view.score_options if o.id == box), None)
        if option is None:
            self.act(Score(box))  # the session says why not, naming the boxes that may be filled
            return
        if option.points == 0 and any(o.points > 0 for o in view.score_options):
            found = self.costly(Score(box))
            with language(self.lang):
                question = hints.zero_question(option, found)
            asked = found is not None
            self.app.push_screen(ConfirmScreen(self.lang, question),
                                 lambda yes: self.choose_tiles(option, asked) if yes else None)
            return
        self.choose_tiles(option)

    def choose_tiles(self, option: ScoreOption, asked: bool = False) -> None:
        """Fill the box of ``option``, asking which tiles come back when there is a choice;
        ``asked``: the zero question has said what the move loses, so the warning does not ask
        again."""
        act = self.really_act if asked else self.act
        if len(option.returns) < 2:
            act(Score(option.id))
            return
        with language(self.lang):
            question = _("{box}: which tiles come back?").format(box=box_label(option.number, option.name))
            choices = [tiles_text(c) for c in option.returns]

        def chosen(index: int | None) -> None:
            if index is not None:
                act(Score(option.id, option.returns[index]))

        self.app.push_screen(ChoiceScreen(self.lang, question, choices), chosen)

    def action_restore(self) -> None:
        view = self.person_view()
        if view is None or view.board is None:
            return
        if not view.may_restore:
            with language(self.lang):
                self.notify(_("Tiles come back only before the first roll, with 4 or more out"), timeout=4)
            return
        actions = [parse_action(a) for a in view.legal_actions if a.startswith("b ")]
        with language(self.lang):
            question = _("Which tiles come back before the roll?")
            choices = [a.describe() for a in actions]

        def chosen(index: int | None) -> None:
            if index is not None:
                self.act(actions[index])

        self.app.push_screen(ChoiceScreen(self.lang, question, choices), chosen)

    def action_undo(self) -> None:
        try:
            self.session.undo()
        except YatzyError as e:
            self.notify(str(e), severity="warning", timeout=4)
            return
        self.stop_bots()
        self.after_change()

    def action_warn(self) -> None:
        """Cycle the warning before a costly move: off, then more than 1, 3, 5, 10 points."""
        settings = self.settings
        settings.warn_above = next_warning(settings.warn_above)
        settings.save()
        with language(self.lang):
            self.notify(hints.warning_notice(settings.warn_above), timeout=5)
        if settings.warn_above is not None:
            self.warm_coach()

    @work(thread=True, exclusive=True, group="warn")
    def warm_coach(self) -> None:
        """The warning needs the exact solver's table: build it in the background (never for DOZZY)."""
        if not self.game.ruleset.uses_board:
            build(self.game.ruleset, lambda p: None)

    def action_pace(self, by: int) -> None:
        self.pacer.change(by)
        self.draw(self.session.view())

    def action_skip(self) -> None:
        if self.session.waiting_for() is None and not self.game.is_over:
            self.pacer.skipping = True
            self.stop_bots()
            self.schedule_bots()

    def action_motion(self) -> None:
        """Turn the dice's tumble on a roll on or off (remembered)."""
        self.settings.roll_animation = not self.settings.roll_animation
        self.settings.save()
        with language(self.lang):
            self.notify(hints.motion_notice(self.settings.roll_animation), timeout=4)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.lang, self.game.ruleset.uses_board, self.game.ruleset.dice))

    def action_save(self) -> None:
        default = str(self.save_path or DEFAULT_SAVE)

        def save(path: Path | None) -> None:
            if path is None:
                return
            with language(self.lang):
                try:
                    saved = self.session.save(path)
                except SaveError as e:
                    self.notify(str(e), severity="error", timeout=8)
                    return
                self.save_path = saved
                self.notify(_("Saved to {path}; go on with: yatzy play --load {path}").format(path=saved),
                            timeout=6)

        self.app.push_screen(SaveScreen(self.lang, default), save)

    def action_new_game(self) -> None:
        if self.game.is_over:
            self.app.new_game()  # type: ignore[attr-defined]

    def after_end(self, choice: str | None) -> None:
        if choice == "new":
            self.app.new_game()  # type: ignore[attr-defined]
        elif choice == "quit":
            self.app.exit(self.game)

    def on_unmount(self) -> None:
        self.stop_bots()

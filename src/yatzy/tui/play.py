"""The play screen: every card side by side, the dice, the turn, the moves, the coach.

Keyboard first (1-6 hold, r or space rolls, arrows and Enter fill a box, ? lists every
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
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, ProgressBar, Static

from ..actions import parse_action
from ..bots import needs_table
from ..dice import show_dice
from ..errors import YatzyError
from ..game import Action, Roll, Score
from ..i18n import _, language, number
from ..names import box_label
from ..narration import board_text, event_text, preparing_text, rolls_text, round_text, tiles_text
from ..recording import Recorder
from ..session import (
    DEFAULT_SAVE,
    Event,
    Preparing,
    Rolled,
    SaveError,
    Scored,
    Session,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
)
from ..solver.coach import Option
from ..views import GameView, ScoreOption
from .coach import CoachPanel, build, cost_of
from .dialogs import ChoiceScreen, ConfirmScreen, HelpScreen, SaveScreen
from .end import EndScreen
from .settings import autosave
from .texts import bonus_sentence, dice_text
from .widgets import Die, KeyBar, ScoreCard

WARN_STEPS = (1.0, 3.0, 5.0, 10.0)
"""The points a move may lose before the warning asks (w cycles through them, then off)."""
PACES = (0.15, 0.3, 0.6, 1.0, 1.6, 2.5)
"""Seconds between two bot moves, fastest first."""
DEFAULT_PACE = 3


def held_positions(kept: tuple[int, ...], dice: tuple[int, ...]) -> set[int]:
    """Where the kept dice lie among the sorted dice after a roll (the first matches)."""
    held: set[int] = set()
    for face in kept:
        held.add(next(i for i, d in enumerate(dice) if d == face and i not in held))
    return held


class PlayScreen(Screen[None]):
    BINDINGS = [
        *(Binding(str(n), f"hold({n - 1})", show=False) for n in range(1, 7)),
        Binding("r,space", "roll", show=False),
        Binding("c", "coach", show=False),
        Binding("w", "warn", show=False),
        Binding("u", "undo", show=False),
        Binding("b", "restore", show=False),
        Binding("plus,equals_sign", "pace(-1)", show=False),
        Binding("minus", "pace(1)", show=False),
        Binding("s", "skip", show=False),
        Binding("ctrl+s", "save", show=False),
        Binding("question_mark", "help", show=False),
        Binding("n", "new_game", show=False),
        Binding("q", "app.quit", show=False),
    ]

    def __init__(self, session: Session, *, pace: float | None = None, save_path: Path | None = None) -> None:
        super().__init__(id="play")
        self.session = session
        self.game = session.game
        self.lang = session.lang
        self.save_path = save_path
        self.pace_index = DEFAULT_PACE
        self.fixed_pace = pace
        """A pace set by the caller (0: bots move at once, as tests want)."""
        self.held: set[int] = set()
        self.moves: deque[str] = deque(maxlen=7)
        self.ready = False
        """The bots have what they need (a solver table for solver bots)."""
        self.skipping = False
        self.ended = False
        self._timer: Timer | None = None
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
                with Vertical(id="preparing"):
                    yield Static(id="prepare-text")
                    yield ProgressBar(id="prepare-bar", show_eta=False)
                yield Static(id="bonus")
                yield Static(id="moves")
                yield CoachPanel(self.lang)
        yield KeyBar(id="keys")

    def dice_area(self) -> ComposeResult:
        """The dice, each a button (a scorekeeper game has a line to type them instead)."""
        with Grid(id="dice"):
            for i in range(self.game.ruleset.dice):
                yield Die(i)

    def on_mount(self) -> None:
        self.query_one(CoachPanel).display = False
        self.query_one("#preparing").display = False
        self.recorder = Recorder(self.session, failed=self.record_failed)
        self.session.subscribe(self.heard)
        self.session.start()
        g = self.game
        if any(needs_table(g.seats[i].level or "", g.ruleset) for i in self.session.bot_seats):
            self.prepare()
        else:
            self.session.prepare()
            self.ready = True
        self.query_one(ScoreCard).focus()
        if self.app.settings.warn_above is not None:  # type: ignore[attr-defined]
            self.warm_coach()
        self.after_change()

    @property
    def pace(self) -> float:
        return self.fixed_pace if self.fixed_pace is not None else PACES[self.pace_index]

    # ---- the bots -------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="prepare")
    def prepare(self) -> None:
        """In a worker thread: the solver table the bots play by, with a progress bar; a person
        may play meanwhile, and the bots start once it is ready."""
        g, lang = self.game, self.lang
        levels = tuple(sorted({(g.seats[i].level or "").lower() for i in self.session.bot_seats
                               if needs_table(g.seats[i].level or "", g.ruleset)}))

        def report(done: int, total: int) -> None:
            with language(lang):
                text = preparing_text(Preparing("building", g.ruleset.name, levels, done, total))
            self.app.call_from_thread(self.show_preparing, text, done, total)

        with language(lang):
            loading = preparing_text(Preparing("loading", g.ruleset.name, levels))
        self.app.call_from_thread(self.show_preparing, loading, 0, None)
        if build(g.ruleset, report) is None:
            return  # the game was left before the table was ready
        self.session.prepare()
        self.app.call_from_thread(self.prepared)

    def show_preparing(self, text: str, done: int, total: int | None) -> None:
        self.query_one("#preparing").display = True
        self.query_one("#prepare-text", Static).update(Text(text))
        self.query_one("#prepare-bar", ProgressBar).update(total=total, progress=done)

    def prepared(self) -> None:
        self.query_one("#preparing").display = False
        self.ready = True
        self.after_change()

    def schedule_bots(self) -> None:
        if not self.ready or self._timer is not None or not self.is_current:
            return
        if self.pace <= 0 or self.skipping:
            while self.session.waiting_for() is None and not self.game.is_over:
                self.session.step()
            self.skipping = False
            self.after_change()
        else:
            self._timer = self.set_timer(self.pace, self.bot_step)

    def bot_step(self) -> None:
        self._timer = None
        if self.is_current:  # the bots wait while a dialog (help, save) is open
            self.session.step()
            self.after_change()

    def on_screen_resume(self) -> None:
        if not self.game.is_over and self.session.waiting_for() is None:
            self.schedule_bots()

    def stop_bots(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    # ---- events and drawing ------------------------------------------------------------
    def heard(self, e: Event) -> None:
        """Every move, as the session reports it: a line in the moves list (but for a turn
        passing and a score that moved no tile, which the screen shows), and the dice a roll
        kept stay held (a bot's keeps are shown the same way)."""
        view = self.session.view()
        quiet = isinstance(e, TurnPassed) or isinstance(e, TilesMoved) and not (e.tiles_out or e.tiles_back)
        if not quiet:
            with language(self.lang):
                self.moves.append(event_text(e, view))
        if isinstance(e, Rolled):
            self.held = held_positions(e.kept, e.dice)
        elif isinstance(e, Scored | Undone | TurnPassed | TilesRestored):
            self.held = set()

    def after_change(self) -> None:
        """Draw, keep the game for the next start, and let the bots move or end the game."""
        view = self.session.view()
        self.draw(view)
        autosave(self.game)
        if view.over:
            self.stop_bots()
            if not self.ended:
                self.ended = True
                self.app.push_screen(EndScreen(self.lang, view, game=self.game, recorder=self.recorder),
                                     self.after_end)
            return
        if self.session.waiting_for() is not None:
            self.skipping = False
        else:
            self.schedule_bots()

    def record_failed(self, message: str) -> None:
        """The history could not be written: said, and the game goes on."""
        self.notify(message, severity="error", timeout=10)

    def draw(self, view: GameView) -> None:
        with language(self.lang):
            self._draw(view)

    def _draw(self, view: GameView) -> None:
        person = self.session.waiting_for()
        current = None if view.current is None else view.players[view.current]
        self.put("#title", Text(f" {_(view.title)} · {round_text(view)}", style="bold"))
        if current is None:
            turn = _("The game is over.")
        else:
            turn = _("{name}'s turn").format(name=current.name) if current.kind == "person" else \
                _("{name}'s turn (bot: {level})").format(name=current.name, level=current.level)
            turn += " · " + rolls_text(view)
        self.put("#turn", Text(turn, style="bold"))
        held_word = _("HELD") if person is not None else _("KEPT")
        for i, die in enumerate(self.query(Die)):
            face = view.dice[i] if view.dice and i < len(view.dice) else None
            die.show(face, i in self.held and face is not None, held_word)
        card = self.query_one(ScoreCard)
        card.show(view)
        self.put("#hint", Text(self.hint(view, person is not None)))
        self.put("#picked", Text(self.picked_text(view, card.picked), style="bold"))
        board = self.query_one("#board", Static)
        board.display = view.board is not None
        if view.board is not None:
            self.put("#board", self.board_text(view))
        self.put("#bonus", Text("\n".join(
            bonus_sentence(current.name if len(current.bonuses) == 1 else
                           f"{current.name} ({min(b.boxes)}–{max(b.boxes)})", b) for b in current.bonuses)
            if current else ""))
        self.put("#moves", self.moves_text())
        coach = self.query_one(CoachPanel)
        if coach.display:
            coach.follow(view, self.game)
        self.query_one(KeyBar).show(self.keys(view, person is not None))

    def moves_text(self) -> Text:
        return Text("\n".join(self.moves))

    def put(self, selector: str, text: Text) -> None:
        """Show ``text`` in a Static of fixed height, unless it shows it already."""
        if self.shown.get(selector) != text:
            self.shown[selector] = text
            self.query_one(selector, Static).update(text, layout=False)

    def hint(self, view: GameView, person: bool) -> str:
        if view.over:
            return _("n: a new game · q: quit")
        if not person:
            current = view.players[view.current or 0]
            if not self.ready:
                return _("{name} waits for its table.").format(name=current.name)
            return _("{name} is playing: + faster, − slower ({pace} s a move), s skips.").format(
                name=current.name, pace=number(self.pace, 1))
        if view.dice is None:
            if view.may_restore:
                return _("r rolls · b brings tiles back first")
            return _("r rolls the dice")
        if view.rolls_left + view.saved_rolls:
            return _("1–{n} hold a die · r rolls the others · ↑ ↓ Enter fill a box").format(n=len(view.dice))
        return _("No rolls left: ↑ ↓ Enter fill a box")

    def picked_text(self, view: GameView, box: str | None) -> str:
        """What the picked box would do now: its points, and in DOZZY its tiles."""
        option = next((o for o in view.score_options if o.id == box), None)
        if option is None:
            return ""
        box_name = box_label(option.number, option.name)
        text = _("{box}: {points} now").format(box=box_name, points=option.points)
        if view.board is not None:
            if option.tiles_out:
                text += "; " + board_text(option.tiles_out)
            choices = [c for c in option.returns if c]
            if choices:
                ways = _(" or ").join(dice_text(c) for c in choices)
                text += "; " + _("back: {choices}").format(choices=ways)
        return text

    def board_text(self, view: GameView) -> Text:
        assert view.board is not None
        text = Text(_("Tiles") + "  ", style="bold")
        for t in range(1, 13):
            if t in view.board.tiles_in:
                text.append(f"[{t:>2}]", style="bold")
            else:
                text.append(" ·· ")
        text.append("\n" + _("out: {tiles}").format(tiles=show_dice(view.board.tiles_out)))
        if view.may_restore and view.board.tiles_out:
            text.append("  " + _("b brings {n} back").format(n=view.may_restore), style="bold")
        return text

    def keys(self, view: GameView, person: bool) -> list[tuple[str, str]]:
        if view.over:
            return [("n", _("new game")), ("ctrl+s", _("save")), ("?", _("help")), ("q", _("quit"))]
        keys = [("?", _("help"))]
        if person:
            keys += [("r", _("roll")), ("1–6", _("hold")), ("↑↓ ⏎", _("fill")), ("c", _("coach"))]
            if view.last is not None and view.last.undoable:
                keys.append(("u", _("undo")))
        else:
            keys += [("+ −", _("pace")), ("s", _("skip")), ("c", _("coach"))]
        return keys + [("ctrl+s", _("save")), ("ctrl+t", _("contrast")), ("q", _("quit"))]

    # ---- what the player does -----------------------------------------------------------
    def costly(self, action: Action) -> tuple[float, Option] | None:
        """What a person's move loses against the coach's best, and that best move, when the
        warning is on (w) and the move loses more than it allows; else None."""
        warn = self.app.settings.warn_above  # type: ignore[attr-defined]
        if warn is None or (isinstance(action, Roll) and action.result is not None):
            return None
        found = cost_of(self.game, action)
        return found if found is not None and found[0] > warn else None

    def act(self, action: Action) -> None:
        """A person's move; with the warning on (w), a move that loses more than the chosen
        points against the coach's best is asked about first."""
        found = self.costly(action)
        if found is not None:
            lost, best = found
            with language(self.lang):
                question = _("This move loses {points} points against the coach's best: {best}. "
                             "Play it anyway?").format(points=number(lost, 1), best=best.action.describe())
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
        self.held ^= {index}
        self.draw(view)

    def on_die_toggled(self, message: Die.Toggled) -> None:
        self.action_hold(message.index)

    def action_roll(self) -> None:
        view = self.person_view()
        if view is None:
            return
        keep = tuple(sorted(view.dice[i] for i in self.held)) if view.dice else ()
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
            self.put("#picked", Text(self.picked_text(view, card.picked), style="bold"))

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
                label = box_label(option.number, option.name)
                if found is None:
                    question = _("Fill {box} with 0? Other boxes would score points with these dice.").format(
                        box=label)
                else:
                    lost, best = found
                    text = _("Fill {box} with 0? Other boxes would score points with these dice, and "
                             "this move loses {points} points against the coach's best: {best}.")
                    question = text.format(box=label, points=number(lost, 1), best=best.action.describe())
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

    def action_coach(self) -> None:
        coach = self.query_one(CoachPanel)
        coach.display = not coach.display
        self.set_class(coach.display, "-coaching")  # room is made for it, the dice kept (yatzy.tcss)
        if coach.display:
            coach.follow(self.session.view(), self.game)
        else:
            self.query_one(ScoreCard).focus()  # back from the coach's place on a small terminal

    def action_warn(self) -> None:
        """Cycle the warning before a costly move: off, then more than 1, 3, 5, 10 points."""
        settings = self.app.settings  # type: ignore[attr-defined]
        steps = [None, *WARN_STEPS]
        settings.warn_above = steps[(steps.index(settings.warn_above) + 1) % len(steps)
                                    if settings.warn_above in steps else 0]
        settings.save()
        with language(self.lang):
            if settings.warn_above is None:
                self.notify(_("No warning before costly moves (w turns it on)."), timeout=4)
                return
            self.notify(_("Asks before a move that loses more than {points:g} points against the "
                          "coach's best (w changes it).").format(points=settings.warn_above), timeout=5)
        self.warm_coach()

    @work(thread=True, exclusive=True, group="warn")
    def warm_coach(self) -> None:
        """The warning needs the exact solver's table: build it in the background (never for DOZZY)."""
        if not self.game.ruleset.uses_board:
            build(self.game.ruleset, lambda done, total: None)

    def action_pace(self, by: int) -> None:
        self.pace_index = max(0, min(len(PACES) - 1, self.pace_index + by))
        if self.fixed_pace is not None:
            self.fixed_pace = None
        self.draw(self.session.view())

    def action_skip(self) -> None:
        if self.session.waiting_for() is None and not self.game.is_over:
            self.skipping = True
            self.stop_bots()
            self.schedule_bots()

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.lang, self.game.ruleset.uses_board))

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

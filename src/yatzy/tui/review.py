"""After a game: what each decision cost, and the game replayed step by step.

:class:`ReviewScreen` opens from the standings (a) and from the history. It has two views,
Tab switches between them: the decisions of one seat (a tab each: the points lost to the
exact solver's best play, the three costliest moments, every decision in a table) and the
replay (the scorecards and the dice at any step of the game's log, with the verdict on the
move played there). Enter on a decision shows its step.

The analysis needs the solver's table: it is built (or loaded) in a worker thread with a
progress bar, and the replay works meanwhile. DOZZY has no exact table; the screen says so
and the replay still works. Scores and verdicts come from :func:`yatzy.analysis.analyse` and
:func:`yatzy.views.game_view`; the screen computes no rule.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, ProgressBar, Static, Tab, Tabs

from ..actions import Action
from ..analysis import Analysis, AnalysisError, Decision, SeatAnalysis, analyse, check_analysable
from ..dice import show_dice
from ..errors import YatzyError
from ..game import Game, Roll, Score
from ..i18n import _, language, ngettext, number
from ..narration import analysis_note, decision_move, decision_text, rolls_text, round_text, winners_text
from ..solver.tables import TableProgress
from ..views import GameView, game_view
from .coach import build
from .texts import dice_text
from .widgets import KeyBar, ScoreCard

LIST, REPLAY = "review-list", "review-replay"
"""The two views: one seat's decisions, and the game step by step."""
POSITION_WIDTH = 32
"""The room the dice and the verdict need beside the cards."""
SHOWN_LOSS = 0.05
"""A loss below this shows as 0.0: the decision is marked as the coach's own."""


def points(x: float) -> str:
    """Expected points as the screen shows them: one decimal, the player's language's way."""
    return number(x, 1)


def lost_text(x: float) -> str:
    """A decision's loss in the tables: "−2.3", or "✓" for the best play."""
    return f"−{points(x)}" if x >= SHOWN_LOSS else "✓"


FRAMES = {"plain": "╭─╮│╰╯", "large": "┏━┓┃┗┛", "kept": "╔═╗║╚╝"}
"""A die's frame: corners, sides; kept dice have a double one."""


def dice_picture(dice: tuple[int, ...] | None, kept: tuple[int, ...], large: bool) -> Text:
    """The dice on the table drawn as small boxes with their faces; the dice a roll keeps get a
    double frame and a ▲ under them (shape, not colour alone). Large (low vision): bold, the
    kept ones reversed too."""
    text = Text(no_wrap=True, overflow="crop")
    if dice is None:
        return text
    marked: set[int] = set()
    for face in kept:
        marked.add(next(i for i, d in enumerate(dice) if d == face and i not in marked))
    for line in range(4):
        for i, d in enumerate(dice):
            held = i in marked
            tl, h, tr, v, bl, br = tuple(FRAMES["kept" if held else "large" if large else "plain"])
            mark = "  ▲  " if held else "     "
            piece = (f"{tl}{h * 3}{tr}", f"{v} {d} {v}", f"{bl}{h * 3}{br}", mark)[line]
            style = "bold" if held or large or line == 3 else ""
            text.append(piece, style=f"{style} reverse" if held and large and line < 3 else style)
        text.append("\n")
    text.rstrip()
    return text


class ReviewScreen(Screen[None]):
    """The analysis and replay of ``game`` (finished or stored), every word in ``lang``.

    ``analysis`` is None until the worker is done (and stays None when the game cannot be
    analysed: ``problem`` says why); ``step`` is the position on show, 0 (before the first
    action) to the length of the log (the end)."""

    BINDINGS = [
        Binding("left,p", "step(-1)", show=False, priority=True),
        Binding("right,n", "step(1)", show=False, priority=True),
        Binding("home", "go('first')", show=False, priority=True),
        Binding("end", "go('last')", show=False, priority=True),
        Binding("tab", "switch", show=False, priority=True),
        *(Binding(str(n), f"seat({n - 1})", show=False) for n in range(1, 10)),
        Binding("escape,q", "close", show=False),
    ]

    def __init__(self, game: Game, lang: str, on_analysis: Callable[[Analysis], None] | None = None) -> None:
        super().__init__(id="review")
        self.game = game
        self.lang = lang
        self.on_analysis = on_analysis
        """Told of the analysis once it is made (the history stores the points lost with the game)."""
        self.data = game.to_dict()
        self.analysis: Analysis | None = None
        self.problem: str | None = None
        self.seat = self._first_person()
        self.step = 0
        self.view_on_show: GameView | None = None
        self.decisions: dict[int, Decision] = {}
        """Every analysed decision by its place in the log."""

    def _first_person(self) -> int:
        return next((i for i, s in enumerate(self.game.seats) if not s.is_bot), 0)

    @property
    def steps(self) -> int:
        """The last step: every action of the log played."""
        return len(self.game.log)

    # ---- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with language(self.lang):
            yield Static(id="title")
            with ContentSwitcher(initial=LIST, id="review-views"):
                with Vertical(id=LIST):
                    yield Tabs(*(Tab(Text(s.name), id=f"seat-{i}") for i, s in enumerate(self.game.seats)),
                               active=f"seat-{self.seat}", id="review-seats")
                    yield Static(id="review-summary")
                    with Vertical(id="review-progress"):
                        yield ProgressBar(id="review-bar", show_eta=False)
                    yield DataTable(id="review-costliest", cursor_type="none", zebra_stripes=False)
                    yield Static(_("Every decision (Enter: see it)"), id="review-every")
                    yield DataTable(id="review-decisions", cursor_type="row")
                with Horizontal(id=REPLAY):
                    yield ScoreCard()
                    with Container(id="review-position"):
                        with Container(id="review-where"):
                            yield Static(id="review-step")
                            yield Static(id="review-dice")
                        with Container(id="review-what"):
                            yield Static(id="review-board")
                            yield Static(id="review-verdict")
            yield KeyBar(id="keys")

    def on_mount(self) -> None:
        tabs = self.query_one(Tabs)
        tabs.can_focus = False
        card = self.query_one(ScoreCard)
        card.can_focus = False
        self.query_one("#review-costliest", DataTable).can_focus = False
        self.query_one("#review-bar", ProgressBar).update(total=None)
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.call_after_refresh(self.redraw))
        try:
            check_analysable(self.game)
        except AnalysisError as e:
            with language(self.lang):
                self.problem = str(e)
        if self.problem is None:
            self.run_analysis()
            self.query_one(ContentSwitcher).current = LIST
            self.query_one("#review-decisions", DataTable).focus()
        else:
            self.query_one(ContentSwitcher).current = REPLAY
        self.fill()
        self.show_step()

    def redraw(self) -> None:
        """Everything anew (ctrl+t: the marks take the theme's colours, the dice its size)."""
        self.fill()
        self.show_step()

    # ---- the analysis -------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="review")
    def run_analysis(self) -> None:
        """In a worker thread: the solver's table (built once, with a progress bar), then every
        decision of every seat priced against it."""
        def progress(p: TableProgress) -> None:
            self.app.call_from_thread(self.show_progress, p.done, p.total)

        try:
            coach = build(self.game.ruleset, progress)
            if coach is None:
                return  # the screen was left before the table was ready
            with language(self.lang):
                result = analyse(self.game, coach=coach)
        except YatzyError as e:
            with language(self.lang):
                message = str(e)
            self.app.call_from_thread(self.failed, message)
            return
        self.app.call_from_thread(self.analysed, result)

    def show_progress(self, done: int, total: int) -> None:
        if not self.is_attached:
            return  # the screen was left meanwhile
        self.query_one("#review-bar", ProgressBar).update(total=total, progress=done)
        with language(self.lang):
            self.query_one("#review-summary", Static).update(Text(
                _("Building the {rules} table, once; later games load it. The replay works meanwhile (Tab).")
                .format(rules=_(self.game.ruleset.title))))

    def analysed(self, analysis: Analysis) -> None:
        self.analysis = analysis
        if self.on_analysis is not None:
            self.on_analysis(analysis)
        if not self.is_attached:
            return
        self.decisions = {d.index: d for s in analysis.seats for d in s.decisions}
        self.fill()
        self.show_step()

    def failed(self, message: str) -> None:
        self.problem = message
        if not self.is_attached:
            return
        self.fill()
        self.show_step()

    # ---- the decisions of one seat --------------------------------------------------------
    def seat_analysis(self) -> SeatAnalysis | None:
        if self.analysis is None:
            return None
        try:
            return self.analysis.seat(self.seat)
        except KeyError:
            return None

    def fill(self) -> None:
        """The list view for the chosen seat: the summary, the costliest moments, every decision."""
        with language(self.lang):
            self._fill()
        self.draw_keys()

    def _fill(self) -> None:
        summary = self.query_one("#review-summary", Static)
        costliest = self.query_one("#review-costliest", DataTable)
        table = self.query_one("#review-decisions", DataTable)
        waiting = self.analysis is None and self.problem is None
        self.query_one("#review-progress").display = waiting
        name = self.game.seats[self.seat].name
        seat = self.seat_analysis()
        for t in (costliest, table):
            t.clear(columns=True)
        costliest.display = table.display = seat is not None
        self.query_one("#review-every").display = seat is not None and bool(seat.decisions)
        if self.problem is not None:
            summary.update(Text(self.problem, style="bold"))
            return
        if seat is None:
            summary.update(Text(_("Analysing the game with the exact solver…")))
            return
        loss_style = f"bold {self.app.current_theme.error or ''}".strip()
        head = Text()
        if not seat.costliest:
            head.append(_("{name} played every decision as the coach would: nothing lost.").format(name=name),
                        style="bold")
        else:
            head.append(ngettext("{name} lost {points} points to the coach in {n} decision.",
                                 "{name} lost {points} points to the coach in {n} decisions.",
                                 len(seat.decisions)).format(
                name=name, points=points(seat.total_lost), n=len(seat.decisions)), style="bold")
            head.append("\n" + _("The costliest moments:"))
        note = analysis_note(self.analysis) if self.analysis is not None else None
        if note:
            head = Text(note + "\n").append_text(head)
        summary.update(head)
        costliest.display = bool(seat.costliest)
        self.columns(costliest, first="#")
        for n, d in enumerate(seat.costliest, 1):
            costliest.add_row(*self.cells(d, loss_style, str(n)), key=str(d.index))
        self.columns(table)
        for d in seat.decisions:
            table.add_row(*self.cells(d, loss_style), key=str(d.index))
        self.follow_step()

    def columns(self, table: DataTable[Any], first: str | None = None) -> None:
        if first is not None:
            table.add_column(first, key="rank")
        table.add_column(Text(_("turn"), justify="right"), key="turn")
        table.add_column(_("dice"), key="dice")
        table.add_column(Text(_("lost"), justify="right"), key="lost")
        table.add_column(_("played"), key="played")
        table.add_column(_("best"), key="best")

    @staticmethod
    def cells(d: Decision, loss_style: str, rank: str | None = None) -> list[Text]:
        lost = d.points_lost >= SHOWN_LOSS
        style = "bold" if lost else ""
        cells = [Text(rank, style="bold")] if rank is not None else []
        return cells + [
            Text(str(d.turn), style=style, justify="right"),
            Text(dice_text(d.dice), style=style),
            Text(lost_text(d.points_lost), style=loss_style if lost else "", justify="right"),
            Text(decision_move(d.played, d.played_points), style=style),
            Text("" if not lost else decision_move(d.best, d.best_points), style=style),
        ]

    def follow_step(self) -> None:
        """Keep the decisions table's cursor on the decision of the step on show, if it is one."""
        table = self.query_one("#review-decisions", DataTable)
        if self.step in self.decisions and self.decisions[self.step].seat == self.seat and table.row_count:
            table.move_cursor(row=table.get_row_index(str(self.step)), animate=False)

    @on(Tabs.TabActivated, "#review-seats")
    def seat_tab(self, event: Tabs.TabActivated) -> None:
        seat = int((event.tab.id or "seat-0").removeprefix("seat-"))
        if seat != self.seat:
            self.seat = seat
            self.fill()

    @on(DataTable.RowSelected, "#review-decisions")
    def decision_chosen(self, event: DataTable.RowSelected) -> None:
        """Enter on a decision: its step in the replay."""
        if event.row_key.value is not None:
            self.go_to(int(event.row_key.value))

    # ---- the replay ----------------------------------------------------------------------
    def position(self, step: int) -> Game:
        """The game as it was after ``step`` actions, rebuilt by the engine from the log."""
        return Game.from_dict({**self.data, "log": self.data["log"][:step]}, check_dice=False)

    def go_to(self, step: int) -> None:
        self.step = max(0, min(self.steps, step))
        self.query_one(ContentSwitcher).current = REPLAY
        self.set_focus(None)
        self.show_step()
        self.follow_step()
        self.draw_keys()

    def show_step(self) -> None:
        """The position of the step on show: the cards and dice as the play screen has them, the
        move played there and its verdict."""
        game = self.position(self.step)
        view = game_view(game, None, self.lang)
        self.view_on_show = view
        with language(self.lang):
            self._show_step(game, view)

    def _show_step(self, game: Game, view: GameView) -> None:
        action: Action | None = self.game.log[self.step] if self.step < self.steps else None
        card = self.query_one(ScoreCard)
        card.show(view)
        self.place()
        card.show_cursor = isinstance(action, Score)
        if isinstance(action, Score):
            card.pick(game.ruleset.category(action.category).id)
        head = Text(_("Step {n} of {total}").format(n=self.step, total=self.steps), style="bold")
        head.append("\n" + round_text(view))
        if view.current is not None:
            head.append("\n" + _("{name} to move").format(name=view.players[view.current].name))
            if view.dice is not None:
                head.append(" · " + rolls_text(view))
        self.query_one("#review-step", Static).update(head)
        kept = action.keep if isinstance(action, Roll) and view.dice is not None else ()
        self.query_one("#review-dice", Static).update(
            dice_picture(view.dice, tuple(kept), self.app.has_class("-large")))
        board = self.query_one("#review-board", Static)
        board.display = view.board is not None
        if view.board is not None:
            tiles = Text(_("Tiles") + "\n", style="bold")
            for t in range(1, 13):
                tiles.append(str(t) if t in view.board.tiles_in else "·" * len(str(t)),
                             style="bold" if t in view.board.tiles_in else "")
                tiles.append(" ")
            tiles.rstrip()
            tiles.append("\n" + _("out: {tiles}").format(tiles=show_dice(view.board.tiles_out)))
            board.update(tiles)
        self.query_one("#review-verdict", Static).update(self.verdict(view, action))

    def place(self) -> None:
        """The position beside the cards where they leave room for it, else above them (many
        players, or a narrow terminal)."""
        card = self.query_one(ScoreCard)
        width = sum(c.get_render_width(card) for c in card.columns.values()) + 4  # margins, scrollbar
        self.set_class(self.size.width - width < POSITION_WIDTH, "-stacked")

    def on_resize(self, event: events.Resize) -> None:
        self.place()

    def verdict(self, view: GameView, action: Action | None) -> Text:
        """The move played at this step and what the coach thought of it."""
        text = Text()
        if action is None:
            text.append(winners_text(view) if view.over else _("The game was left here, unfinished."),
                        style="bold")
            return text
        decision = self.decisions.get(self.step)
        if decision is not None:
            name = self.game.seats[decision.seat].name
            lost = decision.points_lost >= SHOWN_LOSS
            style = f"bold {self.app.current_theme.error or ''}".strip() if lost else "bold"
            text.append(decision_text(decision, name), style=style)
            return text
        text.append(_("Played: {move}").format(move=action.describe()))
        if self.problem is not None:
            text.append("\n\n" + self.problem)
        elif self.analysis is None:
            text.append("\n" + _("The analysis is on its way…"))
        elif view.dice is None:
            text.append("\n" + _("A turn starts with a roll: no choice here."))
        else:
            text.append("\n" + _("Only one move was possible here."))
        return text

    # ---- keys ----------------------------------------------------------------------------
    def action_step(self, by: int) -> None:
        self.go_to(self.step + by)

    def action_go(self, where: str) -> None:
        self.go_to(0 if where == "first" else self.steps)

    def action_switch(self) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = REPLAY if switcher.current == LIST else LIST
        if switcher.current == LIST:
            self.query_one("#review-decisions", DataTable).focus()
            self.follow_step()
        else:
            self.set_focus(None)
        self.draw_keys()

    def action_seat(self, seat: int) -> None:
        if seat < len(self.game.seats):
            self.query_one(Tabs).active = f"seat-{seat}"
            self.query_one(ContentSwitcher).current = LIST
            self.query_one("#review-decisions", DataTable).focus()
            self.draw_keys()

    def action_close(self) -> None:
        self.dismiss(None)

    def draw_keys(self) -> None:
        """The title and the key bar of the view on show."""
        with language(self.lang):
            self._draw_keys()

    def _draw_keys(self) -> None:
        replay = self.query_one(ContentSwitcher).current == REPLAY
        analysis = _("Analysis")  # outside the f-string, where the extraction finds it
        title = f" {analysis} · {_(self.game.ruleset.title)} · "
        title += _("replay") if replay else _("decisions")
        self.query_one("#title", Static).update(Text(title, style="bold"))
        if replay:
            keys = [("← →", _("step")), ("Home End", _("start, end")), ("Tab", _("decisions"))]
        else:
            keys = [("⏎", _("see it")), ("Tab", _("replay"))]
            if len(self.game.seats) > 1:
                keys.append((f"1–{min(9, len(self.game.seats))}", _("player")))
            keys.append(("← →", _("step")))
        keys.append(("Esc", _("back")))
        self.query_one(KeyBar).show(keys)

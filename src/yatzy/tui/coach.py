"""The coach panel: every move for the dice on the table, ranked by the exact solver.

The first use of a ruleset builds its table in a worker thread (minutes for Maxi, seconds
for most) with a progress bar; the game goes on meanwhile, and the panel follows the game:
each new roll is ranked as it comes. DOZZY has no exact table (the shared board is beyond
the solver), and the panel says so.
"""

from __future__ import annotations

import threading
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.padding import Padding
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from ..analysis import Reason, ranked_reasons
from ..bots import DozzyBot
from ..errors import InvalidActionError
from ..game import Action, Game, Roll, Score
from ..i18n import _, language, ngettext, number, percent
from ..narration import coach_reason_text, target_working_text
from ..rules import Ruleset
from ..solver.coach import Coach, Option, Position
from ..solver.tables import Listener, Stopped, TableProgress, table
from ..solver.target import TargetQuery, game_target
from ..views import GameView

SHOWN = 5
"""How many moves the panel lists, best first."""

Key = tuple[str, tuple[tuple[str, object], ...]]
_tables: dict[Key, Coach] = {}


def coach_for(ruleset: Ruleset, progress: Listener | None = None) -> Coach:
    """The coach of a ruleset: its table loaded or built once per process. A build under way
    (for the bots, the warning) is joined, and its progress heard from then on: no caller waits
    in silence behind another, and none starts the build again."""
    key = (ruleset.name, tuple(ruleset.options))
    if key not in _tables:
        _tables.setdefault(key, Coach(table(ruleset, progress)))
    return _tables[key]


def heuristic_hint(game: Game, view: GameView) -> str:
    """Where no exact table exists (DOZZY): the DOZZY bot's move for the position on show, as a
    suggestion in words ("" when it is not a person's turn to choose)."""
    if view.over or not view.legal_actions:
        return ""
    move = DozzyBot().act(game.clone())
    return _("The DOZZY bot's rule of thumb: {move}").format(move=move.describe())


def build(ruleset: Ruleset, progress: Listener) -> Coach | None:
    """From a worker thread: the coach of a ruleset, its table built (or loaded) in a daemon thread.

    The worker waits for it but watches its own cancellation: when the player leaves (the app
    quits, the screen goes), it stops waiting at once and the build stops at its next layer, so
    quitting never waits for a table (nor does a new position of the coach: the next worker joins
    the build, which goes on while anyone waits for it). None when it was stopped.
    """
    worker = get_current_worker()
    stop = threading.Event()
    got: dict[str, Any] = {}

    def report(p: TableProgress) -> None:
        if stop.is_set():
            raise Stopped
        progress(p)

    def run() -> None:
        try:
            got["coach"] = coach_for(ruleset, report)
        except BaseException as e:  # noqa: BLE001 - handed to the waiting worker
            got["error"] = e

    thread = threading.Thread(target=run, daemon=True, name=f"yatzy-{ruleset.name}-table")
    thread.start()
    while thread.is_alive():
        thread.join(0.1)
        if worker.is_cancelled:
            stop.set()
            return None
    if "error" in got:
        raise got["error"]
    return got["coach"]  # type: ignore[no-any-return]


def ready(ruleset: Ruleset) -> bool:
    """Whether the table of a ruleset is at hand (else the panel says it is being built)."""
    return (ruleset.name, tuple(ruleset.options)) in _tables


def cost_of(game: Game, action: Action) -> tuple[float, Option] | None:
    """What ``action`` would lose against the coach's best move now, with that best move:
    for the warning before a costly move. None where there is nothing to compare (no dice on
    the table, DOZZY) or the table is not at hand yet (the warning never waits for a build)."""
    rs = game.ruleset
    if rs.uses_board or game.state.dice is None or not ready(rs) or not isinstance(action, Roll | Score):
        return None
    coach = _tables[(rs.name, tuple(rs.options))]
    options = coach.options(coach.position_of(game), with_odds=False)
    for o in options:
        if isinstance(action, Score) and isinstance(o.action, Score) and o.action.category == action.category:
            return o.regret, options[0]
        if isinstance(action, Roll) and isinstance(o.action, Roll) and \
                sorted(o.action.keep) == sorted(action.keep):
            return o.regret, options[0]
    return None


def costly(game: Game, action: Action, warn: float | None) -> tuple[float, Option] | None:
    """What a person's move loses against the coach's best, and that best move, when the
    warning is on (``warn`` points, w) and the move loses more than it allows; else None."""
    if warn is None or (isinstance(action, Roll) and action.result is not None):
        return None
    found = cost_of(game, action)
    return found if found is not None and found[0] > warn else None


def costly_question(lost: float, best: Option) -> str:
    return _("This move loses {points} points against the coach's best: {best}. "
             "Play it anyway?").format(points=number(lost, 1), best=best.action.describe())



class Items:
    """Items joined by " · " on as many lines as the width needs, a line broken only between
    two items (the break in place of the " · "): a box's odds stay whole ("Four of a Kind
    23%"), where wrapping the joined text split a box's name from its number, or in Finnish
    the number from its "%" (a no-break space is still a space to Rich). An item wider than
    the line wraps on its own."""

    def __init__(self, items: list[str], style: str = "") -> None:
        self.items, self.style = items, style

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width, line = options.max_width, ""
        for item in self.items:
            joined = f"{line} · {item}" if line else item
            if line and cell_len(joined) > width:
                yield Text(line, style=self.style)
                joined = item
            line = joined
        if line:
            yield Text(line, style=self.style)


class CoachPanel(VerticalScroll):
    """Shown and hidden with c; it scrolls within the room the dice leave (the arrows while it
    has them, Tab). ``options`` holds the ranked moves on show, best first."""

    def __init__(self, lang: str) -> None:
        super().__init__(id="coach")
        self.lang = lang
        self.options: list[Option] = []
        """The moves ranked for the position of ``version``, best first."""
        self.version: int | None = None
        self.wanted: int | None = None
        self.lines: list[str] = []
        self.target: int | None = None
        """The final score the coach plays for (t), or None: the best expected score."""
        self.chances: TargetQuery | None = None
        """The moves on show with their chance of ``target``, when it was worked out."""

    def play_for(self, target: int | None, view: GameView, game: Game) -> None:
        """Rank by the chance of ending with ``target`` or more (None: by expected score), anew."""
        self.target, self.chances = target, None
        self.version = self.wanted = None
        self.follow(view, game)

    def compose(self) -> ComposeResult:
        with language(self.lang):
            yield Static(Text(_("Coach · the exact solver"), style="bold"), id="coach-title")
        yield ProgressBar(id="coach-progress", show_eta=False)
        yield Static(id="coach-body")

    def on_mount(self) -> None:
        self.query_one(ProgressBar).display = False

    def follow(self, view: GameView, game: Game) -> None:
        """Rank the moves of this view's position, or say why there are none."""
        body = self.query_one("#coach-body", Static)
        with language(self.lang):
            if view.board is not None:
                self.options, self.version, self.wanted, self.lines, self.chances = [], None, None, [], None
                text = Text(_("DOZZY has no exact table: its shared tile board is beyond the solver. "
                              "The coach helps in every other game."))
                hint = heuristic_hint(game, view)
                if hint:
                    self.lines = [hint]
                    text.append("\n\n" + hint, style="bold")
                body.update(text)
                return
            if view.over or view.dice is None or not view.score_options:
                self.options, self.version, self.wanted, self.lines, self.chances = [], None, None, [], None
                body.update(Text(_("Roll, and the coach ranks every keep and every box for your dice.")))
                return
        if self.version == view.version or self.wanted == view.version:
            return
        self.wanted = view.version
        if not ready(game.ruleset):
            with language(self.lang):
                body.update(Text(_("Building the {rules} table, once; later games load it. "
                                   "Play on meanwhile.").format(rules=view.title)))
        self.rank(game, view.version, view)

    @work(thread=True, exclusive=True, group="coach")
    def rank(self, game: Game, version: int, view: GameView) -> None:
        """In a worker thread: the table (built once), then the ranked moves of the position."""
        bar = self.query_one(ProgressBar)

        def progress(p: TableProgress) -> None:
            def show() -> None:
                bar.display = True
                bar.update(total=p.total, progress=p.done)
            self.app.call_from_thread(show)

        coach = build(game.ruleset, progress)
        if coach is None:
            return

        def position() -> Position | None:
            """Read on the UI thread, where the game changes: None if it has moved on."""
            if game.version != version or game.state.dice is None:
                return None
            return coach.position_of(game)

        pos = self.app.call_from_thread(position)
        options = coach.options(pos) if pos is not None else []
        target = self.target
        if target is None or pos is None:
            self.app.call_from_thread(self.show, version, options, view, game)
            return
        with language(self.lang):
            working = target_working_text(target)
        self.app.call_from_thread(self.show, version, options, view, game, working)
        twin = self.app.call_from_thread(lambda: game.clone() if game.version == version else None)
        if twin is None or get_current_worker().is_cancelled:
            return
        with language(self.lang):
            try:  # up to TARGET_WORK: about 2 s at most, here in the worker
                chances: TargetQuery | str = game_target(coach, twin, target)
            except InvalidActionError as e:
                chances = str(e)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self.show, version, options, view, game, chances)

    def show(self, version: int, options: list[Option], view: GameView, game: Game,
             target: TargetQuery | str | None = None) -> None:
        """On the UI thread: the ranked moves of ``version``, with what the card tells of each;
        with a target, their chances of it (a :class:`TargetQuery`) or, in words, why they are
        still being worked out or cannot be (then by expected score meanwhile)."""
        self.query_one(ProgressBar).display = False
        if version != self.wanted or game.version != version:
            return  # the game has moved on; a newer ranking is on its way
        self.options, self.version = options, version
        self.chances = target if isinstance(target, TargetQuery) else None
        with language(self.lang):
            if self.chances is not None:
                parts = self.chance_table(self.chances, view)
            else:
                reasons = ranked_reasons(game, [o.action for o in options[:SHOWN]])
                parts = self.table(options, view, reasons)
                if isinstance(target, str):
                    parts.insert(0, Text(target + "\n", style="bold"))
                    self.lines.insert(0, target)
            self.query_one("#coach-body", Static).update(Group(*parts))

    @property
    def plain(self) -> str:
        """The ranked moves as plain text, one line each (what the panel lists)."""
        return "\n".join(self.lines)

    def table(self, options: list[Option], view: GameView,
              reasons: list[Reason | None] | None = None) -> list[RenderableType]:
        """The best moves: what to do, the points to expect from here, what each gives up, what
        the card tells of it (``reasons``, one a move: "it puts the bonus out of reach") and for
        a keep the odds of each box this turn may fill (indented under it); then what the
        columns mean."""
        why = reasons or [None] * len(options)
        names = {b.id: b.name for b in view.players[0].boxes}
        heads = _("move"), _("expected"), _("regret")  # outside the f-string, where the extraction finds them
        parts: list[RenderableType] = [
            Text(f"{'':2} {heads[0]:<22} {heads[1]:>9} {heads[2]:>8}", style="bold")]
        self.lines = []
        for n, o in enumerate(options[:SHOWN], 1):
            move = move_text(o, view)
            regret = _("best") if o.regret < 0.05 else f"−{number(o.regret, 1)}"
            line = f"{n:>2} {move:<22} {number(o.value, 1):>9} {regret:>8}"
            self.lines.append(line)
            parts.append(Text(line, style="bold" if n == 1 else ""))
            reason = why[n - 1] if n - 1 < len(why) else None
            if reason is not None:
                parts.append(Padding(Text(coach_reason_text(reason), style="bold italic"), (0, 0, 0, 3)))
            if o.odds:
                odds = [f"{names[c]} {percent(p)}" for c, p in o.odds]
                parts.append(Padding(Items(odds, style="italic"), (0, 0, 0, 3)))
        if len(options) > SHOWN:
            more = len(options) - SHOWN
            parts.append(Text(ngettext("… and {n} more move", "… and {n} more moves", more).format(n=more)))
        if options:
            parts.append(Text(self.legend, style="italic"))
        return parts

    def chance_table(self, query: TargetQuery, view: GameView) -> list[RenderableType]:
        """The best moves for the target: what to do, its chance of ending the game with the
        target or more (played for from here on), the points to expect; then what that means."""
        assert self.target is not None
        heads = _("move"), _("chance"), _("expected")
        parts: list[RenderableType] = [
            Text(ngettext("Playing for {target} point", "Playing for {target} points", self.target).format(
                target=self.target), style="bold"),
            Text(f"{'':2} {heads[0]:<22} {heads[1]:>9} {heads[2]:>9}", style="bold")]
        self.lines = []
        for n, t in enumerate(query.options[:SHOWN], 1):
            chance, value = percent(t.chance, 1), number(t.option.value, 1)
            line = f"{n:>2} {move_text(t.option, view):<22} {chance:>9} {value:>9}"
            self.lines.append(line)
            parts.append(Text(line, style="bold" if n == 1 else ""))
        if len(query.options) > SHOWN:
            more = len(query.options) - SHOWN
            parts.append(Text(ngettext("… and {n} more move", "… and {n} more moves", more).format(n=more)))
        legend = ngettext(
            "chance: of ending the game with {target} point or more, playing for it from here on; "
            "t: another target, or none for the best expected score",
            "chance: of ending the game with {target} points or more, playing for them from here on; "
            "t: another target, or none for the best expected score", self.target)
        parts.append(Text(legend.format(target=self.target), style="italic"))
        return parts

    @property
    def legend(self) -> str:
        """What the columns mean: "expected" is what is still to come, not the final total."""
        return _("expected: the points still to come from here, this turn included (not the final "
                 "total); regret: what a move gives up against the best")


def move_text(o: Option, view: GameView) -> str:
    """A move as the coach lists it: a box by its number and name, with its points now."""
    if not isinstance(o.action, Score):
        return o.action.describe()
    box = next(b for b in view.players[0].boxes if b.id == o.action.category)
    move = _("fill {box}").format(box=f"{box.number} {box.name}")
    return move if o.points is None else move + f" ({o.points})"

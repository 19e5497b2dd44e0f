"""The history screen: finished games, newest first; statistics and records; a score histogram.

Opened from the new game screen with h, or pushed by any app: ``HistoryScreen(lang)`` opens
the default database (the data folder, as ``yatzy history`` does), ``HistoryScreen(lang,
database)`` reads the one given. Everything shown comes from the storage layer's summaries
and statistics (:mod:`yatzy.storage`); nothing here counts a score.

Keys: 1 2 3 show the games, the statistics, the histogram; Enter on a game opens its review
(:class:`~yatzy.tui.review.ReviewScreen`: what each decision cost, the game replayed);
Tab reaches the filters (game, player, and whose dice: the statistics, records and histogram
count games of one kind of dice at a time, the program's or dice typed at a real table, so a
typed game never ranks among rolled ones); Esc or q goes back.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Label, Select, Static, TabbedContent, TabPane

from ..bots import level_name
from ..errors import YatzyError
from ..i18n import _, language, ngettext, number, percent, pgettext
from ..names import category_name
from ..registry import RULESETS, find_variant, get_ruleset
from ..storage import (
    Database,
    DiceFrom,
    GameSummary,
    Histogram,
    PlayerStats,
    Record,
    list_games,
    load_game,
    player_stats,
    records,
    score_histogram,
    store_analysis,
)
from ..views import and_list
from .review import ReviewScreen
from .widgets import KeyBar

ALL = ""
"""The filters' value for "every game type" and "every player"."""
LIST_LIMIT = 500
"""The newest games the list shows."""
RECORDS = 10
"""Best totals shown for one game type (half as many per game type when all are shown)."""
BINS = (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000)
"""Histogram bin widths to choose from: the narrowest that needs at most MAX_BINS bins."""
MAX_BINS = 12
GAME_WIDTH = 16
"""The list's game type column (longer titles end in …)."""
BLOCKS = " ▏▎▍▌▋▊▉█"
"""A bar's last cell, in eighths."""


def ruleset_title(name: str) -> str:
    """A ruleset's title in the current language."""
    return _(find_variant(name).title)


def day(moment: datetime | None) -> str:
    """The day of a stored moment, in local time."""
    return "" if moment is None else moment.astimezone().strftime("%Y-%m-%d")


def yatzy_box(ruleset: str) -> str | None:
    """The name of a ruleset's Yatzy box (the one the Yatzy rate counts), None if it has none."""
    boxes = [c.id for c in get_ruleset(ruleset).categories if c.kind == "yatzy"]
    return category_name(boxes[0]) if boxes else None


Who = tuple[str, str, str | None]
"""A player: name, kind and level (a person and a bot of the same name are two players)."""


def who(name: str, kind: str, level: str | None, players: Iterable[Who]) -> str:
    """A player's name; a bot whose name another player also bears gets its level after it."""
    if kind == "bot" and any(n == name and (k, lv) != (kind, level) for n, k, lv in players):
        return _("{name} (bot: {level})").format(name=name, level=level_name(level or ""))
    return name


def bins_for(totals: Histogram) -> int:
    """The narrowest bin width that shows these totals (counted one point wide) in MAX_BINS bins."""
    if not totals.bins:
        return 10
    low, high = totals.bins[0][0], totals.bins[-1][0]
    return next((b for b in BINS if high // b - low // b + 1 <= MAX_BINS), BINS[-1])


@dataclass(frozen=True)
class Bars:
    """A histogram drawn with text: a labelled bin, a horizontal bar of block characters as
    long as its count allows in the width given, and the count written after it."""

    histogram: Histogram

    def labels(self) -> list[str]:
        b = self.histogram.bin
        return [str(low) if b == 1 else f"{low}–{low + b - 1}" for low, _n in self.histogram.bins]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        labels = self.labels()
        counts = [n for _low, n in self.histogram.bins]
        label_width = max(len(s) for s in labels)
        count_width = max(len(str(n)) for n in counts)
        room = max(options.max_width - label_width - count_width - 4, 4)
        top = max(counts) or 1
        for text, n in zip(labels, counts, strict=True):
            eighths = round(8 * room * n / top)
            bar = "█" * (eighths // 8) + (BLOCKS[eighths % 8] if eighths % 8 else "")
            line = Text(f"{text:>{label_width}} │", no_wrap=True)
            line.append(bar, style="bold")
            line.append(f" {n}")
            yield line


class HistoryScreen(Screen[None]):
    """Finished games, statistics and records per game type, and a histogram of final totals."""

    BINDINGS = [
        Binding("escape,q", "back", show=False),
        Binding("1", "show('history-games')", show=False),
        Binding("2", "show('history-stats')", show=False),
        Binding("3", "show('history-scores')", show=False),
    ]

    def __init__(self, lang: str, database: Database | None = None) -> None:
        super().__init__(id="history")
        self.lang = lang
        self.database = database
        self.owns_database = database is None
        """Opened here (the default one), so closed here when the screen goes."""
        self.error: str | None = None
        self.stats: list[PlayerStats] = []
        """Every player's statistics of every game type: which game types and players there are."""
        self.only_dice: DiceFrom | None = "server"
        """The one kind of dice the kept games have, or None when both are kept (a filter picks)."""
        self.games: list[GameSummary] = []
        self.histograms: list[Histogram] = []
        self.away = False
        """Another screen is on top (a game looked at): read again when back."""

    # ---- data --------------------------------------------------------------------------
    def db(self) -> Database:
        if self.database is None:
            self.database = Database()
        return self.database

    @property
    def rulesets(self) -> list[str]:
        """The game types with finished games, in the order menus list them."""
        played = {s.ruleset for s in self.stats}
        return [r for r in RULESETS if r in played]

    @property
    def players(self) -> list[str]:
        return sorted({s.name for s in self.stats}, key=str.casefold)

    def chosen(self, select_id: str) -> str:
        value = self.query_one(f"#{select_id}", Select).value
        return value if isinstance(value, str) else ALL

    def chosen_rulesets(self) -> list[str]:
        rules = self.chosen("history-rules")
        return [rules] if rules else self.rulesets

    # ---- layout ------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with language(self.lang):
            try:
                rolled = player_stats(self.db())
                self.stats = rolled + player_stats(self.db(), dice_from="players")
            except YatzyError as e:
                rolled = []
                self.error = _("The game history could not be read: {reason}").format(reason=e)
            yield Static(Text(" " + _("Games played"), style="bold"), id="history-title")
            if self.error is not None or not self.stats:
                message = self.error or _("No finished games yet. Games appear here when they are "
                                          "finished: play one to the end and come back.")
                yield Static(Text(message), id="history-empty")
                yield KeyBar(id="history-keys")
                return
            with Horizontal(id="history-filters"):
                yield Label(_("Game"), classes="field")
                yield Select([(_("every game type"), ALL), *[(ruleset_title(r), r) for r in self.rulesets]],
                             value=ALL, allow_blank=False, id="history-rules", compact=True)
                yield Label(_("Player"), classes="field")
                yield Select([(_("everyone"), ALL), *[(name, name) for name in self.players]],
                             value=ALL, allow_blank=False, id="history-player", compact=True)
                self.only_dice = None if rolled and len(rolled) < len(self.stats) else (
                    "server" if rolled else "players")
                if self.only_dice is None:  # both kinds kept: choose which to count
                    yield Label(_("Dice"), classes="field")
                    yield Select([(_("rolled by the program"), "server"), (_("typed at a table"), "players")],
                                 value="server", allow_blank=False, id="history-dice", compact=True)
            with TabbedContent(id="history-tabs"):
                with TabPane("1 " + _("Games"), id="history-games"):
                    yield DataTable(id="history-list", cursor_type="row", zebra_stripes=False)
                with TabPane("2 " + _("Statistics"), id="history-stats"):
                    with VerticalScroll(id="history-stats-scroll"):
                        yield Static(id="history-stats-text")
                with TabPane("3 " + _("Scores"), id="history-scores"):
                    with VerticalScroll(id="history-scores-scroll"):
                        yield Static(id="history-scores-text")
            yield KeyBar(id="history-keys")

    def on_mount(self) -> None:
        with language(self.lang):
            if self.stats:
                self.fill()
                keys = [("Enter", _("look at the game")), ("Tab", _("filters")), ("Esc", _("back"))]
            else:
                keys = [("Esc", _("back"))]
            self.query_one(KeyBar).show(keys)
        if self.stats:
            self.query_one("#history-list", DataTable).focus()

    def on_screen_suspend(self) -> None:
        self.away = True

    def on_screen_resume(self) -> None:
        """Back from a game: read again (its review may have stored the points lost to the coach)."""
        if self.away and self.stats:
            self.away = False
            with language(self.lang):
                self.fill()

    def on_unmount(self) -> None:
        if self.owns_database and self.database is not None:
            self.database.close()

    # ---- filling -------------------------------------------------------------------------
    def fill(self) -> None:
        """Read the chosen games and statistics and draw them (in the current language)."""
        rules, player = self.chosen("history-rules"), self.chosen("history-player")
        dice = self.dice
        try:
            self.games = list_games(self.db(), player=player or None, ruleset=rules or None,
                                    limit=LIST_LIMIT, finished=True)
            stats = player_stats(self.db(), rules or None, player=player or None, dice_from=dice)
            best = {r: records(self.db(), r, RECORDS if rules else RECORDS // 2, dice_from=dice)
                    for r in self.chosen_rulesets()}
            self.histograms = [self.histogram(r, player or None) for r in self.chosen_rulesets()]
        except YatzyError as e:
            self.query_one("#history-stats-text", Static).update(Text(str(e)))
            return
        self.fill_list(show_rules=not rules)
        count = ngettext("{n} finished game", "{n} finished games", len(self.games)).format(n=len(self.games))
        self.query_one("#history-title", Static).update(
            Text(" " + _("Games played") + f" · {count}", style="bold"))
        self.query_one("#history-stats-text", Static).update(self.stats_text(stats, best))
        self.query_one("#history-scores-text", Static).update(self.scores_text())

    @property
    def dice(self) -> DiceFrom:
        """Whose dice the statistics count: "server" (the program's) or "players" (typed)."""
        if self.only_dice is not None:
            return self.only_dice
        return "players" if self.chosen("history-dice") == "players" else "server"

    def histogram(self, ruleset: str, player: str | None) -> Histogram:
        """The totals of a ruleset in bins as wide as make them fit the screen."""
        width = bins_for(score_histogram(self.db(), ruleset, 1, player=player, dice_from=self.dice))
        return score_histogram(self.db(), ruleset, width, player=player, dice_from=self.dice)

    def fill_list(self, show_rules: bool) -> None:
        """The games, the cursor kept on the game it was on."""
        table = self.query_one("#history-list", DataTable)
        was = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value if table.row_count else None
        table.clear(columns=True)
        table.add_column(Text(_("finished"), style="bold"), key="when")
        if show_rules:
            table.add_column(Text(_("game"), style="bold"), key="rules", width=GAME_WIDTH)
        table.add_column(Text(_("winner"), style="bold"), key="winner")
        table.add_column(Text(_("players and totals"), style="bold"), key="players")
        typed = any(g.dice_from == "players" for g in self.games)
        if typed:
            table.add_column(Text(pgettext("column", "dice"), style="bold"), key="dice")
        for g in self.games:
            seats = " · ".join(f"{s.name} {s.total}" for s in g.seats)
            cells: list[Text] = [Text(day(g.finished_at))]
            if show_rules:
                cells.append(Text(ruleset_title(g.ruleset), no_wrap=True, overflow="ellipsis"))
            cells += [Text(and_list(list(g.winners))), Text(seats)]
            if typed:
                cells.append(Text(_("typed") if g.dice_from == "players" else ""))
            table.add_row(*cells, key=str(g.id))
        if was is not None and was in {str(g.id) for g in self.games}:
            table.move_cursor(row=table.get_row_index(was), animate=False)

    def stats_text(self, stats: list[PlayerStats], best: dict[str, list[Record]]) -> RenderableType:
        parts: list[RenderableType] = []
        for rules in self.chosen_rulesets():
            rows = [s for s in stats if s.ruleset == rules]
            if not rows:
                continue
            parts.append(Text(ruleset_title(rules), style="bold underline"))
            parts.append(stats_table(rows, yatzy_box(rules)))
            parts.append(Text(_("Best totals"), style="bold"))
            parts.append(records_table(best.get(rules, []), {(s.name, s.kind, s.level) for s in self.stats}))
            parts.append(Text(""))
        if not parts:
            return Text(_("No finished games of this game type with this player."))
        if self.dice == "players":
            parts.insert(0, Text(_("Dice typed at a real table: counted apart, never ranked with the "
                                   "program's dice."), style="italic"))
        if any(s.mean_points_lost is None for s in stats):
            parts.append(Text(_("–: no game analysed by the coach yet"), style="italic"))
        return Group(*parts)

    def scores_text(self) -> RenderableType:
        parts: list[RenderableType] = []
        for h in self.histograms:
            if not h.bins:
                continue
            head = ngettext("{title}: {n} final total, in bins of {bin} points",
                            "{title}: {n} final totals, in bins of {bin} points", h.count).format(
                title=ruleset_title(h.ruleset), n=h.count, bin=h.bin)
            parts += [Text(head, style="bold"), Bars(h), Text("")]
        if not parts:
            return Text(_("No finished games of this game type with this player."))
        if self.dice == "players":
            parts.insert(0, Text(_("Dice typed at a real table: counted apart, never ranked with the "
                                   "program's dice."), style="italic"))
        return Group(*parts)

    # ---- actions ---------------------------------------------------------------------------
    def on_select_changed(self, event: Select.Changed) -> None:
        event.stop()
        with language(self.lang):
            self.fill()

    def action_show(self, pane: str) -> None:
        if not self.stats:
            return
        self.query_one(TabbedContent).active = pane
        target = {"history-games": "#history-list", "history-stats": "#history-stats-scroll",
                  "history-scores": "#history-scores-scroll"}[pane]
        self.query_one(target).focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        key = event.row_key.value
        if key is not None:
            self.look_at(int(key))

    def look_at(self, game_id: int) -> None:
        """Open a finished game in the review: what each decision cost, and the replay."""
        with language(self.lang):
            try:
                game = load_game(self.db(), game_id)
            except YatzyError as e:
                self.notify(str(e), severity="error")
                return
        review = ReviewScreen(game, self.lang)
        self.app.push_screen(review, lambda _closed: self.keep_analysis(game_id, review))

    def keep_analysis(self, game_id: int, review: ReviewScreen) -> None:
        """Store the points lost that the review found (the statistics show them), and read again."""
        with language(self.lang):
            if review.analysis is not None:
                try:
                    store_analysis(self.db(), game_id, review.analysis)
                except YatzyError as e:
                    self.notify(str(e), severity="warning")
            self.fill()

    def action_back(self) -> None:
        self.dismiss(None)


def table() -> Table:
    """A table with a rule under its bold heading, one space between columns."""
    return Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, header_style="bold",
                 collapse_padding=True)


def stats_table(rows: Iterable[PlayerStats], yatzy: str | None) -> Table:
    """Per player: games, wins, mean and best total, bonus and Yatzy rates, points lost to the coach."""
    rows = list(rows)
    players = {(s.name, s.kind, s.level) for s in rows}
    t = table()
    t.add_column(_("player"), overflow="fold")
    for head in (pgettext("column", "games"), _("wins"), _("mean"), _("best"), _("bonus")):
        t.add_column(head, justify="right")
    if yatzy is not None:
        t.add_column(yatzy, justify="right")
    t.add_column(_("lost to the coach"), justify="right")
    for s in rows:
        lost = "–" if s.mean_points_lost is None else number(s.mean_points_lost, 1)
        cells = [who(s.name, s.kind, s.level, players), str(s.games), str(s.wins), number(s.mean, 1),
                 str(s.best), percent(s.bonus_rate)]
        if yatzy is not None:
            cells.append(percent(s.yatzy_rate))
        t.add_row(*cells, lost)
    return t


def records_table(best: Sequence[Record], players: Iterable[Who]) -> Table:
    t = table()
    t.add_column("#", justify="right")
    t.add_column(_("total"), justify="right")
    t.add_column(_("player"))
    t.add_column(_("finished"))
    for n, r in enumerate(best, 1):
        t.add_row(str(n), str(r.total), who(r.name, r.kind, r.level, players),
                  day(r.finished_at))
    return t

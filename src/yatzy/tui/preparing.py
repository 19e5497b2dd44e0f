"""The play screen's word while a bot's table is being built: what, how far, the time left.

Only the seats that play from the solver's table wait for it; people and the other bots play
meanwhile. The build runs in a daemon thread that a worker watches, so leaving (Esc, back to the
new game screen) or quitting never waits for a layer of a Maxi table to end; g seats the greedy
bot instead, which needs no table.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import ProgressBar, Static
from textual.worker import get_current_worker

from ..bots import needs_table
from ..errors import YatzyError
from ..i18n import _, language
from ..narration import preparing_text, table_cost_text, table_progress_text
from ..registry import get_ruleset
from ..seats import Seat
from ..session import Preparing, Session
from ..solver.cost import table_cost
from ..solver.tables import Stopped

INSTEAD = "greedy"
"""The bot g seats while a table is built: it needs none."""
NOTABLE = 10.0
"""Seconds of a first build the new game screen tells of beforehand (a shorter one just shows
its progress bar)."""


def first_game_cost(rules: str, options: dict[str, Any], seats: Sequence[Seat]) -> str:
    """The new game screen's word before a game whose bots need a table not stored yet: what it
    costs the first time and what starts at once instead ("" when nothing waits for long)."""
    try:
        ruleset = get_ruleset(rules, **options)
    except YatzyError:
        return ""  # the form says what is wrong when the game starts
    levels = sorted({s.level for s in seats if s.level and needs_table(s.level, ruleset)})
    cost = table_cost(ruleset) if levels else None
    if cost is None or cost.stored or cost.seconds < NOTABLE:
        return ""
    instead = None
    if rules != "yatzy":
        plain = get_ruleset("yatzy")
        other = table_cost(plain)
        if other is not None and (other.stored or other.seconds < NOTABLE):
            instead = _(plain.title)
    return table_cost_text(_(ruleset.title), levels, cost.seconds, cost.size, instead)


class PreparingPanel(Vertical):
    """Shown while a bot's table is loaded or built; the screen hears :class:`Ready` at the end."""

    class Ready(Message):
        """The bots that waited have their table (or a build failed: ``error``)."""

        def __init__(self, error: BaseException | None = None) -> None:
            super().__init__()
            self.error = error

    def __init__(self, lang: str) -> None:
        super().__init__(id="preparing")
        self.lang = lang
        self.last: Preparing | None = None
        """The last report shown."""

    def compose(self) -> ComposeResult:
        yield Static(id="prepare-text")
        yield ProgressBar(id="prepare-bar", show_eta=False)
        yield Static(id="prepare-detail")
        yield Static(id="prepare-keys")

    def on_mount(self) -> None:
        self.display = False

    def show(self, p: Preparing) -> None:
        """A report of the build: its words, the bar, cards done and the time left, the keys."""
        self.last = p
        self.display = True
        with language(self.lang):
            self.query_one("#prepare-text", Static).update(Text(preparing_text(p), style="bold"))
            self.query_one("#prepare-detail", Static).update(Text(table_progress_text(p)))
            self.query_one("#prepare-keys", Static).update(Text(
                _("Esc: back to the new game screen · g: the greedy bot plays instead")))
        self.query_one("#prepare-bar", ProgressBar).update(total=p.total or None, progress=p.done)

    @work(thread=True, exclusive=True, group="prepare")
    def prepare(self, session: Session) -> None:
        """In a worker thread: :meth:`Session.prepare` in a daemon thread, shown as it goes. When the
        worker is cancelled (the screen goes, Esc, g) it stops waiting at once, and the build stops
        at its next layer unless someone else (the coach panel) still waits for it."""
        worker = get_current_worker()
        stop = threading.Event()
        got: dict[str, Any] = {}

        def report(p: Preparing) -> None:
            if stop.is_set():
                raise Stopped
            self.app.call_from_thread(self.show, p)

        def run() -> None:
            try:
                session.prepare(report)
            except Stopped:
                got["stopped"] = True
            except BaseException as e:  # noqa: BLE001 - shown by the screen
                got["error"] = e

        thread = threading.Thread(target=run, daemon=True, name="yatzy-bots-table")
        thread.start()
        while thread.is_alive():
            thread.join(0.1)
            if worker.is_cancelled:
                stop.set()
                return
        if "stopped" not in got:
            self.app.call_from_thread(self.post_message, self.Ready(got.get("error")))

    def stop(self) -> None:
        """Stop waiting for the table (the build ends unless another part still waits)."""
        self.workers.cancel_group(self, "prepare")
        self.display = False

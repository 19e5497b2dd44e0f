"""The end of a game: the standings, best first, from the view's outcome; a opens the analysis."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..game import Game
from ..i18n import _, language
from ..narration import winners_text
from ..recording import Recorder
from ..views import GameView
from .review import ReviewScreen


class EndScreen(ModalScreen[str | None]):
    """Dismissed with "new" (n), "quit" (q) or None (Esc: back to the final cards); a opens the
    analysis of the game (``game``, or else the game of the screen under this one). With the
    ``recorder`` of the game, it says where the game is kept and stores the analysis with it."""

    BINDINGS = [Binding("n", "close('new')", show=False), Binding("q", "close('quit')", show=False),
                Binding("escape,enter", "close(None)", show=False), Binding("a", "analysis", show=False)]

    def __init__(self, lang: str, view: GameView, game: Game | None = None,
                 recorder: Recorder | None = None) -> None:
        super().__init__(id="end", classes="dialog")
        self.lang, self.view, self.game = lang, view, game
        self.recorder = recorder
        """What keeps the game in the history: where it is kept, and the analysis to store with it."""

    def compose(self) -> ComposeResult:
        view = self.view
        assert view.outcome is not None
        with language(self.lang):
            text = Text()
            text.append(_("Final standings") + f" · {view.title}\n\n", style="bold")
            width = max(len(s.name) for s in view.outcome.standings)
            for s in view.outcome.standings:
                line = f" {s.rank:>2}.  {s.name:<{width}}  {s.total:>4} "
                text.append(line + "\n", style="bold reverse" if s.player in view.outcome.winners else "")
            text.append("\n" + winners_text(view) + "\n\n", style="bold")
            text.append(_("n: new game · q: quit · Esc: look at the cards"))
            text.append("\n" + _("a: the analysis, every decision and a replay"))
            if self.recorder is not None and self.recorder.kept is not None:
                text.append("\n\n" + self.recorder.kept)
        with Vertical(classes="box"):
            yield Static(text, id="standings")

    def action_close(self, choice: str | None) -> None:
        self.dismiss(choice)

    @property
    def played(self) -> Game | None:
        """The game these standings end: the one given, or the play screen's under this one."""
        if self.game is not None:
            return self.game
        for screen in reversed(self.app.screen_stack):
            game = getattr(screen, "game", None)
            if isinstance(game, Game):
                return game
        return None

    def action_analysis(self) -> None:
        game = self.played
        if game is not None:
            analysed = None if self.recorder is None else self.recorder.analysed
            self.app.push_screen(ReviewScreen(game, self.lang, on_analysis=analysed))

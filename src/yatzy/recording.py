"""A finished game kept in the history the moment it ends, in every terminal front end.

A :class:`Recorder` listens to a :class:`~yatzy.session.Session` and writes its game to the
history (:mod:`yatzy.storage`, the data folder's database) as soon as the game is over, so
that closing the terminal after the end loses nothing. From then on the record follows the
game: a round corrected after the end or a last score taken back and made again writes the
same record anew, and an analysis made after the end is stored with it. A failed write never
stops the game: the front end is told, in the session's language, and shows it.
"""

from __future__ import annotations

from collections.abc import Callable

from .analysis import Analysis
from .errors import YatzyError
from .events import Event
from .i18n import _, language
from .session import Session
from .storage import Database, record_game, store_analysis


class Recorder:
    """Keeps ``session``'s game in the history from the moment it ends (at once if it is over
    already); ``failed`` hears why a write failed."""

    def __init__(self, session: Session, failed: Callable[[str], None]) -> None:
        self.session = session
        self.failed = failed
        self.game_id: int | None = None
        """The game's id in the history once it is recorded."""
        self.analysis: Analysis | None = None
        self.analysed_at: int | None = None
        """The game's version when the analysis came (it covers that game only)."""
        self.written: int | None = None
        """The game's version last written (or tried): the events of one move write once."""
        session.subscribe(self.heard)
        if session.game.is_over:
            self.record()

    @property
    def kept(self) -> str | None:
        """Where the finished game is kept, in words; None while it is not (unfinished, or the
        write failed)."""
        if self.game_id is None or not self.session.game.is_over:
            return None
        with language(self.session.lang):
            return _("kept in your history as game {id}: yatzy history show {id}").format(id=self.game_id)

    def heard(self, e: Event) -> None:
        """The game ended, or changed once recorded: write it."""
        if e.version != self.written and (self.game_id is not None or self.session.game.is_over):
            self.record()

    def analysed(self, analysis: Analysis) -> None:
        """An analysis of the game as it is now: stored with it (the history's points lost)."""
        self.analysis, self.analysed_at = analysis, self.session.game.version
        self.record()

    def record(self) -> None:
        game = self.session.game
        self.written = game.version
        with language(self.session.lang):
            try:
                with Database() as db:
                    self.game_id = record_game(db, game, game_id=self.game_id, rewrite=True)
                    if self.analysis is not None and self.analysed_at == game.version:
                        store_analysis(db, self.game_id, self.analysis)
            except YatzyError as e:
                self.failed(_("the game could not be kept in your history: {reason}").format(reason=e))

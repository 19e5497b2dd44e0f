"""After a line game, and on request: the analysis of the game (what each person's decisions
lost to the exact solver's best play, the costliest ones read out) and the history of finished
games, newest first, each in a line.

The analysis is the one the full-screen game's review shows (:func:`yatzy.analysis.analyse`),
stored with the game in the history (:class:`~yatzy.recording.Recorder`); its words come from the
narration.
"""

from __future__ import annotations

from ..analysis import AnalysisError, analyse, check_analysable
from ..errors import YatzyError
from ..i18n import _
from ..narration import every_decision_texts, game_summary_text, seat_analysis_texts
from ..recording import Recorder
from ..storage import Database, list_games
from .coach import LineCoach

LISTED = 10
"""How many finished games the history lists (yatzy history lists more)."""


def analysis_lines(coach: LineCoach, recorder: Recorder, every: bool = False) -> list[str]:
    """Every person's decisions priced against the coach's best (every seat's when only bots
    played), as lines: what each lost and the costliest decisions, or with ``every`` each
    decision in the order played. The analysis is kept with the game in the history."""
    game = coach.session.game
    try:
        check_analysable(game)
    except AnalysisError as e:
        return [str(e)]
    table = coach.table()
    if table is None:
        return []
    people = [i for i, s in enumerate(game.seats) if not s.is_bot]
    result = analyse(game, people or None, coach=table)
    recorder.analysed(result)
    texts = every_decision_texts if every else seat_analysis_texts
    return [line for seat in result.seats for line in texts(seat)]


def history_lines() -> list[str]:
    """The newest finished games of the history, a line each, or why there are none."""
    try:
        with Database() as db:
            games = list_games(db, finished=True, limit=LISTED)
    except YatzyError as e:
        return [str(e)]
    if not games:
        return [_("no games recorded yet: finish a game with yatzy play and it appears here")]
    return [_("Your finished games, newest first (yatzy history shows more):")] + \
        [game_summary_text(g) for g in games]

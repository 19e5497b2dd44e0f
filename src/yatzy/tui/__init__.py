"""The full-screen terminal game (Textual): a new game screen, the play screen, the coach.

``run()`` opens it; ``yatzy play`` calls it on a terminal (``--plain`` keeps the line game).
"""

from __future__ import annotations

from os import PathLike
from pathlib import Path

from ..game import Game

__all__ = ["run"]


def run(game: Game | None = None, *, lang: str | None = None, save_path: str | PathLike[str] | None = None,
        pace: float | None = None) -> Game | None:
    """Play in the terminal until the players quit; returns the game played (None if none began).
    Each game is kept in the history the moment it ends (the players may finish several in one
    run; the one returned is only the last one started), with an analysis made after its end.

    ``game``: play this game at once (a new one, or one loaded with ``--load``); without it the
    new game screen opens, offering first to go on with a game left unfinished last time.
    ``lang``: the language (default: the one chosen last time, else English). ``save_path``:
    where ctrl+s offers to save (the file loaded, say). ``pace``: seconds between two bot moves
    (default 1; + and - change it while playing).

    :raises InvalidActionError: a seat of ``game`` is a bot of an unknown level, or ``lang``
        is not one of the six languages (nothing is shown then).
    """
    from .app import YatzyApp

    app = YatzyApp(game, lang=lang, save_path=None if save_path is None else Path(save_path), pace=pace)
    return app.run()

"""The full-screen terminal game (Textual): a new game screen, the play screen, the coach.

``run()`` opens it; ``yatzy play`` calls it on a terminal (``--plain`` keeps the line game).
"""

from __future__ import annotations

from collections.abc import Callable
from os import PathLike
from pathlib import Path

from ..analysis import Analysis
from ..game import Game

__all__ = ["run"]


def run(game: Game | None = None, *, lang: str | None = None, save_path: str | PathLike[str] | None = None,
        pace: float | None = None, on_game_over: Callable[[Game], None] | None = None,
        on_analysis: Callable[[Game, Analysis], None] | None = None) -> Game | None:
    """Play in the terminal until the players quit; returns the game played (None if none began).

    ``game``: play this game at once (a new one, or one loaded with ``--load``); without it the
    new game screen opens, offering first to go on with a game left unfinished last time.
    ``lang``: the language (default: the one chosen last time, else English). ``save_path``:
    where ctrl+s offers to save (the file loaded, say). ``pace``: seconds between two bot moves
    (default 1; + and - change it while playing). ``on_game_over``: told of each game that ends
    (the players may finish several in one run; the one returned is only the last one started).
    ``on_analysis``: told of each analysis made after a game (the history keeps points lost).

    :raises InvalidActionError: a seat of ``game`` is a bot of an unknown level, or ``lang``
        is not one of the six languages (nothing is shown then).
    """
    from .app import YatzyApp

    app = YatzyApp(game, lang=lang, save_path=None if save_path is None else Path(save_path), pace=pace,
                   on_game_over=on_game_over, on_analysis=on_analysis)
    return app.run()

"""The ``yatzy`` command: rule sheets, scoring, games, the solver, the coach and simulations.

One module per group of commands, each a Typer app merged into this one (``yatzy play``,
not ``yatzy games play``): :mod:`.sheets` (rules, score, sheet), :mod:`.games` (play, keep),
:mod:`.solver` (solve, converge, distribution, advise, simulate), :mod:`.web` (serve, verify) and
:mod:`.history`, a group of its own. They share :mod:`.common`: the console, the error line,
the options named alike and the progress bar.
"""

from __future__ import annotations

from . import games, history, sheets, solver, web
from .common import commands

app = commands(
    help="Play and solve Yatzy: Scandinavian, Forced, Maxi, Osto, Yahtzee, DOZZY and Kids.",
    no_args_is_help=True, add_completion=False, context_settings={"max_content_width": 200},
)
for group in (sheets, games, solver, web, history):
    app.add_typer(group.app)

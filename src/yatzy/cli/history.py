"""``yatzy history``: the games kept in the history (a list, a replay, statistics)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..actions import Roll, Score
from ..errors import YatzyError
from ..game import Game
from ..i18n import _, number, percent, pgettext
from ..registry import get_ruleset
from ..views import and_list
from .common import LangOpt, commands, console, fail

if TYPE_CHECKING:
    from ..storage import Database

app = commands(name="history", help="Finished and saved games, statistics and records.",
                  no_args_is_help=False)

DbOpt = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: SQLite in your data folder; postgresql+psycopg://... works)")]


def _database(db: str | None) -> Database:
    from ..storage import Database

    try:
        return Database(db)
    except YatzyError as e:
        fail(e)


@app.callback(invoke_without_command=True)
def history(
    ctx: typer.Context,
    player: Annotated[str | None, typer.Option(help="only games this player sat in")] = None,
    rules_: Annotated[str | None, typer.Option("--rules", "-r", help="only this ruleset")] = None,
    limit: Annotated[int, typer.Option(min=1, help="how many games, newest first")] = 20,
    db: DbOpt = None,
    lang: LangOpt = "en",
) -> None:
    """List recorded games, newest first (yatzy history show ID replays one; stats, records)."""
    if ctx.invoked_subcommand is not None:
        return
    from ..storage import list_games

    database = _database(db)
    try:
        rows = list_games(database, player=player, ruleset=rules_ and get_ruleset(rules_).name,
                          limit=limit)
    except YatzyError as e:
        fail(e)
    if not rows:
        console.print(_("no games recorded yet: finish a game with yatzy play and it appears here"))
        return
    t = Table(title=_("Games"))
    for col in (_("game"), _("ruleset"), _("finished"), _("players and totals"), _("winner"),
                pgettext("column", "dice")):
        t.add_column(col)
    for g in rows:
        when = (g.finished_at or g.updated_at).strftime("%Y-%m-%d %H:%M")
        seats = Text(", ".join(f"{s.name} {s.total}" for s in g.seats))  # names are text, not markup
        dice = "" if g.dice_from != "players" else (
            _("typed, corrected after the end") if g.corrected_after_end else _("typed"))
        t.add_row(str(g.id), g.ruleset, when if g.finished else _("unfinished"), seats,
                  Text(and_list(g.winners)), dice)
    console.print(t)


@app.command("show")
def history_show(
    game_id: Annotated[int, typer.Argument(help="the game's number in yatzy history")],
    db: DbOpt = None,
    lang: LangOpt = "en",
) -> None:
    """Replay a recorded game move by move, with the final scorecard."""
    from ..storage import load_game

    database = _database(db)
    try:
        game = load_game(database, game_id)
    except YatzyError as e:
        fail(e)
    replay = Game(game.ruleset, game.seats, game.seed, first=game.first if not game.roll_offs else None,
                  roll_off=bool(game.roll_offs))
    for step, action in enumerate(game.log, 1):
        player = replay.state.players[replay.state.current]
        replay.apply(action)
        if isinstance(action, Roll):
            line = _("rolls {dice}").format(dice=" ".join(map(str, replay.state.dice or ())))
            if action.keep:
                line = action.describe() + ", " + line
        elif isinstance(action, Score):
            line = f"{action.describe()}: {player.card[action.category]}"
        else:
            line = action.describe()
        console.print(Text(f"{step:>3}. {player.name}: {line}"), highlight=False)
    outcome = game.outcome()
    if outcome is not None:
        console.print(Text(_("winner: {names}").format(names=and_list([s.name for s in outcome.standings
                                                                      if s.player in outcome.winners]))))


@app.command("stats")
def history_stats(
    rules_: Annotated[str | None, typer.Option("--rules", "-r", help="only this ruleset")] = None,
    typed: Annotated[bool, typer.Option(
        "--typed", help="games whose dice were typed at a real table (scorekeeper), counted apart")] = False,
    db: DbOpt = None,
    lang: LangOpt = "en",
) -> None:
    """Per player and ruleset: games, wins, mean, best, bonus and Yatzy rates, points lost to the coach.

    Games with the program's dice and games with dice typed at a table are never counted
    together; --typed shows the typed ones."""
    from ..storage import player_stats

    database = _database(db)
    try:
        stats = player_stats(database, rules_ and get_ruleset(rules_).name,
                             dice_from="players" if typed else "server")
    except YatzyError as e:
        fail(e)
    t = Table(title=_("Statistics, dice typed at a table") if typed else _("Statistics"))
    for col in (_("player"), _("ruleset"), pgettext("column", "games"), _("wins"), _("mean"), _("best"),
                _("bonus"), _("Yatzy"), _("lost to the coach")):
        t.add_column(col, justify="right")
    for s in stats:
        lost = "" if s.mean_points_lost is None else number(s.mean_points_lost, 1)
        t.add_row(Text(s.name), s.ruleset, str(s.games), str(s.wins), number(s.mean, 1), str(s.best),
                  percent(s.bonus_rate), percent(s.yatzy_rate), lost)
    console.print(t)

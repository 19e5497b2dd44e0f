"""The ``yatzy`` command: rule sheets, scoring, games, the solver, the coach and simulations."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from .actions import Roll, Score
from .analysis import Analysis
from .bots import BOTS
from .dice import parse
from .errors import YatzyError
from .game import Game
from .i18n import _, check_language, language, ngettext, number, percent, pgettext
from .names import LANGUAGES, category_name
from .registry import RULESETS, get_ruleset, parse_options
from .rules import Ruleset
from .rulesheet import rule_sheet, score_table
from .seats import parse_seats

app = typer.Typer(
    help="Play and solve Yatzy: Scandinavian, Forced, Maxi, Osto, Yahtzee, DOZZY and Kids.",
    no_args_is_help=True, add_completion=False,
)
console = Console()
"""Results go to stdout; errors and progress bars to stderr."""


def _fail(err: Exception | str) -> NoReturn:
    """Print one line, "error: ...", on stderr (in the command's language) and exit with code 2."""
    Console(stderr=True, soft_wrap=True, highlight=False).print(
        Text.assemble((_("error:"), "red"), " ", str(err)))
    raise typer.Exit(2)


def _check_lang(ctx: typer.Context, lang: str) -> str:
    """Check ``--lang`` and speak it for the rest of the command (messages, tables, errors).

    The language is set until the command line's outermost context closes, which it does
    however the command ends (even on a usage error in a later option), so a test runner or any
    caller running commands in one process gets no leftover language.
    """
    try:
        check_language(lang)
    except YatzyError as e:
        _fail(e)
    ctx.find_root().with_resource(language(lang))
    return lang


RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=f"ruleset: {', '.join(RULESETS)}")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="<name=value>",
    help="house rule as name=value, e.g. joker=free (repeatable; see yatzy rules)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON instead of tables")]
LangOpt = Annotated[str, typer.Option(
    "--lang", "-l", callback=_check_lang,
    help=f"language of what the command prints, errors too: {', '.join(LANGUAGES)} (help stays English)")]
PlotOpt = Annotated[Path | None, typer.Option(
    help="also save a plot here: a .png, .svg or .pdf file in an existing folder")]
BOT_LIST = ", ".join(BOTS)


def _ruleset(rules: str, options: list[str] | None) -> Ruleset:
    try:
        return get_ruleset(rules, **parse_options(options or []))
    except YatzyError as e:
        _fail(e)


def _check_plot(plot: Path | None) -> None:
    """Refuse a plot path that cannot be written before the work starts."""
    from .plots import check_plot_path

    if plot is not None:
        try:
            check_plot_path(plot)
        except YatzyError as e:
            _fail(e)


def _save_plot(save: Callable[[], None], plot: Path) -> str | None:
    """Save a plot after the work; the error in words if that still fails."""
    try:
        save()
    except (YatzyError, OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return _("could not save the plot to {path}: {why}").format(path=plot, why=why)
    return None


def _games(n: int) -> str:
    """ "1 game", "30 games", in the current language."""
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _and(words: list[str]) -> str:
    """["a"] -> "a"; ["a", "b", "c"] -> "a, b and c"."""
    if len(words) == 1:
        return words[0]
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


@app.command()
def rules(
    ruleset: Annotated[str, typer.Argument(help=f"one of {', '.join(RULESETS)}")] = "yatzy",
    lang: LangOpt = "en",
    option: OptionOpt = None,
) -> None:
    """Print the rule sheet of a ruleset."""
    rs = _ruleset(ruleset, option)
    console.print(rule_sheet(rs, lang))


@app.command()
def score(
    roll: Annotated[list[str], typer.Argument(help="rolls as digits, e.g. 66622 (six for maxi)")],
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Score one or more rolls in every category (DOZZY: every tile in play)."""
    rs = _ruleset(rules_, option)
    try:
        rolls = [parse(r, rs.dice) for r in roll]
    except YatzyError as e:
        _fail(e)
    if as_json:
        print(json.dumps([{"dice": list(r), "scores": rs.score_all(r)} for r in rolls]))
    else:
        console.print(score_table(rs, rolls, lang))


DEFAULT_PLAYERS = "You,bot:greedy"


@app.command()
def play(
    ctx: typer.Context,
    rules_: Annotated[str | None, typer.Option(
        "--rules", "-r", help=f"ruleset: {', '.join(RULESETS)} (default yatzy)")] = None,
    option: OptionOpt = None,
    players: Annotated[str | None, typer.Option(
        "--players", "-p",
        help="comma-separated seats: a name for a person, bot:LEVEL for a computer "
             f"(LEVEL: {BOT_LIST}); default {DEFAULT_PLAYERS}")] = None,
    seed: Annotated[int | None, typer.Option(
        help="seed of the dice: the same seed deals the same rolls (default: random)")] = None,
    load: Annotated[Path | None, typer.Option(
        help="continue a saved game (JSON); it keeps its own rules, players and seed")] = None,
    roll_off: Annotated[bool, typer.Option(
        "--roll-off", help="each player rolls one die; the highest starts (ties roll again)")] = False,
    plain: Annotated[bool, typer.Option(
        "--plain", help="the line-by-line game (screen readers, Braille displays, pipes) instead of "
                        "the full-screen one; also chosen by NO_COLOR or when not on a terminal")] = False,
    lang: LangOpt = "en",
) -> None:
    """Play in the terminal against friends and bots: full screen, or line by line with --plain."""
    from .play import hot_seat

    full_screen = not plain and not os.environ.get("NO_COLOR") and sys.stdin.isatty() and sys.stdout.isatty()
    # the full-screen game remembers the language chosen last time unless --lang is given
    source = ctx.get_parameter_source("lang")  # Typer's own click: compare the source by name
    screen_lang = lang if getattr(source, "name", None) == "COMMANDLINE" else None
    if full_screen and load is None and rules_ is None and players is None and not option \
            and seed is None and not roll_off:
        from .tui import run

        done = _Finished()
        run(lang=screen_lang, on_game_over=done.over, on_analysis=done.analysed)  # the new game screen
        done.record()
        return
    if load is not None:
        given = [name for name, value in (("--rules", rules_), ("--option", option or None),
                                          ("--players", players), ("--seed", seed),
                                          ("--roll-off", roll_off or None))
                 if value is not None]
        if given:
            _fail(_("--load continues a saved game with its own rules, players and seed; "
                    "leave out {options}").format(options=_and(given)))
        try:
            text = load.read_text(encoding="utf-8")
        except OSError as e:
            _fail(_("cannot read the saved game {path}: {why}").format(path=load, why=e.strerror or e))
        try:
            game = Game.from_json(text)
        except YatzyError as e:
            _fail(e)
    else:
        text = DEFAULT_PLAYERS if players is None else players
        if not text.replace(",", "").strip():
            _fail(_("give at least one seat with --players, e.g. {example}").format(example=DEFAULT_PLAYERS))
        try:
            seats = parse_seats(text)
        except YatzyError as e:
            _fail(e)
        bad = next((s.level for s in seats if s.level is not None and s.level not in BOTS), None)
        if bad is not None:
            _fail(_("unknown bot level “{level}”; write bot:LEVEL with LEVEL one of {levels}").format(
                level=bad, levels=BOT_LIST))
        rs = _ruleset(rules_ or "yatzy", option)
        try:
            game = Game(rs, seats, seed, roll_off=roll_off)
        except YatzyError as e:
            _fail(e)
    try:
        if full_screen:
            from .tui import run

            done = _Finished()
            run(game, lang=screen_lang, save_path=load, on_game_over=done.over, on_analysis=done.analysed)
            done.record()
        else:
            hot_seat(game, lang=lang, console=console, record=_record)
    except YatzyError as e:
        _fail(e)


@app.command()
def keep(
    ctx: typer.Context,
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    players: Annotated[str, typer.Option(
        "--players", "-p", help="comma-separated names of the people at the table, in seat order")] = "",
    first: Annotated[str | None, typer.Option(
        "--first", help="who starts (the table rolls for it): a name or a seat number, 1 first")] = None,
    plain: Annotated[bool, typer.Option(
        "--plain", help="line by line instead of full screen; also chosen by NO_COLOR or when not "
                        "on a terminal")] = False,
    lang: LangOpt = "en",
) -> None:
    """Keep the score of a game played with real dice: each turn, type the dice thrown."""
    from .keeper_line import keep_score

    names = [n.strip() for n in players.split(",") if n.strip()] or \
        [_("Player {n}").format(n=n) for n in (1, 2)]
    try:
        seats = parse_seats(",".join(names))
    except YatzyError as e:
        _fail(e)
    if any(s.is_bot for s in seats):
        _fail(_("everyone at a real table throws their own dice: give names only, no bot:LEVEL"))
    start = None
    if first is not None:
        found = [i for i, s in enumerate(seats) if s.name.lower() == first.strip().lower()]
        if first.strip().isdigit() and 1 <= int(first) <= len(seats):
            found = [int(first) - 1]
        if not found:
            _fail(_("--first names a player at the table or a seat number 1 to {n}, not “{first}”").format(
                n=len(seats), first=first))
        start = found[0]
    try:
        game = Game(_ruleset(rules_, option), seats, first=start, dice_from="players")
    except YatzyError as e:
        _fail(e)
    source = ctx.get_parameter_source("lang")
    screen_lang = lang if getattr(source, "name", None) == "COMMANDLINE" else None
    full_screen = not plain and not os.environ.get("NO_COLOR") and sys.stdin.isatty() and sys.stdout.isatty()
    if full_screen:
        from .tui import run

        done = _Finished()  # kept once the screen is closed, a fix after the end included
        run(game, lang=screen_lang, on_game_over=done.over, on_analysis=done.analysed)
        done.record()
    else:
        keep_score(game, lang=lang, console=console, record=_record)


class _Finished:
    """What the terminal app finished: its games, and the analyses made of them after the end,
    kept in the history once the screen is closed (no output while it is up)."""

    def __init__(self) -> None:
        self.games: list[Game] = []
        self.analyses: dict[int, Analysis] = {}

    def over(self, game: Game) -> None:
        self.games.append(game)

    def analysed(self, game: Game, analysis: Analysis) -> None:
        self.analyses[id(game)] = analysis

    def record(self) -> None:
        for game in self.games:
            _record(game, self.analyses.get(id(game)))


def _record(game: Game, analysis: Analysis | None = None) -> None:
    """Keep a finished game in the history (with the points lost, if it was analysed); a
    failure is said, never fatal."""
    from .storage import Database, record_game, store_analysis

    try:
        with Database() as db:
            game_id = record_game(db, game)
            if analysis is not None and analysis.actions == len(game.log):
                store_analysis(db, game_id, analysis)
    except YatzyError as e:
        Console(stderr=True, highlight=False).print(
            _("the game could not be kept in your history: {reason}").format(reason=e))
        return
    console.print(_("kept in your history as game {id}: yatzy history show {id}").format(id=game_id),
                  highlight=False)


def _bar() -> Progress:
    """A progress bar on stderr that clears itself; tasks give a description and a unit.

    Only on a terminal: piped or captured, stderr gets nothing (not even Rich's closing newline).
    """
    err = Console(stderr=True)
    return Progress(TextColumn("{task.description}"), BarColumn(),
                    TextColumn("{task.completed}/{task.total} {task.fields[unit]}"),
                    TimeElapsedColumn(), console=err, transient=True, disable=not err.is_terminal)


def _progress_solve(rs: Ruleset, use_cache: bool, bank_cap: int | None = None):  # noqa: ANN202
    from .solver.solve import solve

    with _bar() as bar:
        task = bar.add_task(_("solving {rules}").format(rules=rs.name), total=None, unit=_("cards"))

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return solve(rs, use_cache=use_cache, bank_cap=bank_cap, progress=report)


@app.command()
def solve(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="solve again, ignore the cache")] = False,
    bank_cap: Annotated[int | None, typer.Option(
        help="saved-roll games: most saved rolls the solver tracks (default: osto 16, maxi 4)")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Solve a ruleset exactly (or load its cached table) and print the expected score."""
    rs = _ruleset(rules_, option)
    if bank_cap is not None and bank_cap < 0:
        _fail(_("the bank cap is 0 or more, not {cap}").format(cap=bank_cap))
    t0 = time.perf_counter()
    try:
        sol = _progress_solve(rs, not no_cache, bank_cap)
    except YatzyError as e:
        _fail(e)
    seconds = time.perf_counter() - t0
    out = {"rules": rs.name, "options": {k: v for k, v in rs.options},
           "expected_score": sol.expected_score, "states": sol.states, "seconds": seconds}
    if rs.saved_rolls:
        out["bank_cap"] = sol.spec.bank_cap
    if as_json:
        print(json.dumps(out))
    else:
        console.print(_("{title}: expected score {score} ({states}, {seconds} s)").format(
            title=_(rs.title), score=f"[bold]{number(sol.expected_score, 4)}[/]",
            states=ngettext("{n} state", "{n} states", sol.states).format(n=number(sol.states)),
            seconds=number(seconds, 2)), soft_wrap=True)


@app.command()
def converge(
    rules_: RulesOpt = "osto",
    option: OptionOpt = None,
    caps: Annotated[str, typer.Option(help="bank caps to solve at, e.g. 0-4,8,16")] = "0-4,8,12,16",
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Saved-roll games (maxi, osto): how the exact value settles as the bank cap grows."""
    from .plots import plot_convergence
    from .solver.convergence import CapPoint, parse_caps
    from .solver.convergence import converge as run

    rs = _ruleset(rules_, option)
    _check_plot(plot)
    try:
        cap_list = parse_caps(caps)
        with _bar() as bar:
            task = bar.add_task(_("solving {rules}").format(rules=rs.name), total=len(cap_list),
                                unit=_("bank caps"))
            cards = bar.add_task(_("bank cap {cap}").format(cap=cap_list[0]), total=None, unit=_("cards"))

            def report(done: int, point: CapPoint) -> None:
                bar.update(task, completed=done)
                if done < len(cap_list):
                    bar.reset(cards, description=_("bank cap {cap}").format(cap=cap_list[done]))

            def report_cards(done: int, total: int) -> None:
                bar.update(cards, completed=done, total=total)

            points = run(rs, cap_list, report, report_cards)
    except YatzyError as e:
        _fail(e)
    title = _("{title}: exact value by bank cap").format(title=_(rs.title))
    result: dict[str, object] = {"rules": rs.name, "options": {k: v for k, v in rs.options},
                                 "points": [p.to_dict() for p in points]}
    plot_error = None
    if plot is not None:
        plot_error = _save_plot(lambda: plot_convergence(points, str(plot), title), plot)
        if plot_error is None:
            result["plot"] = str(plot)
    if as_json:
        print(json.dumps(result))
    else:
        t = Table(title=title)
        for col in (_("bank cap"), _("expected score"), _("change"), _("states"), _("seconds")):
            t.add_column(col, justify="right")
        prev = None
        for p in points:
            change = "" if prev is None else number(p.expected_score - prev, 4, sign=True)
            t.add_row(str(p.bank_cap), number(p.expected_score, 4), change, number(p.states),
                      number(p.seconds, 1))
            prev = p.expected_score
        console.print(t)
        if plot is not None and plot_error is None:
            console.print(_("plot: {path}").format(path=plot))
    if plot_error is not None:
        _fail(plot_error)


@app.command()
def advise(
    dice: Annotated[str, typer.Option("--dice", "-d", help="the dice on the table, e.g. 13356")],
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    rolls_left: Annotated[int, typer.Option(
        help="rolls still allowed this turn, 0 to 2 (saved rolls apart: see --saved)")] = 2,
    filled: Annotated[str, typer.Option(
        help="boxes already filled, comma-separated ids, e.g. ones,chance (ids: yatzy rules)")] = "",
    upper: Annotated[int, typer.Option(help="points so far in the upper section (ones to sixes)")] = 0,
    saved: Annotated[int | None, typer.Option(
        help="maxi, osto: saved rolls still in the bank; they add to the rolls left")] = None,
    yahtzee_50: Annotated[bool, typer.Option(
        "--yahtzee-50", help="yahtzee: the filled Yahtzee box holds 50 (not 0)")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Rank every option in a position by expected score and regret."""
    from .solver.coach import Coach, check_position, filled_from_text
    from .solver.solve import check_solvable

    rs = _ruleset(rules_, option)
    try:
        roll = parse(dice, rs.dice)
        boxes = filled_from_text(filled)
        check_solvable(rs)
        check_position(rs, boxes, roll, rolls_left, upper, saved=saved or 0, yahtzee_50=yahtzee_50)
        coach = Coach(_progress_solve(rs, True))
        pos = coach.position(boxes, roll, rolls_left, upper, saved=saved, yahtzee_50=yahtzee_50)
        options = coach.options(pos)
    except YatzyError as e:
        _fail(e)
    if as_json:
        print(json.dumps({"options": [o.to_dict() for o in options]}))
        return
    total = rolls_left + (saved or 0)
    left = ngettext("{n} roll left", "{n} rolls left", total).format(n=total)
    if saved:
        left += " " + _("({this_turn} this turn + {saved} saved)").format(this_turn=rolls_left, saved=saved)
        if pos.rolls_left < rolls_left + saved:
            left += _(", ranked as {n}: the solver tracks {cap} saved at most").format(
                n=pos.rolls_left, cap=coach.spec.bank_cap)
    t = Table(title=_("{title}: dice {dice}, {left}").format(
                  title=_(rs.title), dice=" ".join(map(str, pos.dice)), left=left),
              caption=_("expected points to come: from here to the end of the game, this turn included, "
                        "with best play after the option. regret: what the option gives up against the "
                        "best one."), caption_justify="left")
    t.add_column(_("option"))
    t.add_column(_("points now"), justify="right")
    t.add_column(_("expected points to come"), justify="right")
    t.add_column(_("regret"), justify="right")
    t.add_column(_("odds by end of turn"))
    for o in options:
        odds = ", ".join(f"{category_name(c)} {percent(p, 1)}" for c, p in o.odds[:3])
        now = "" if o.points is None else str(o.points)
        t.add_row(o.action.describe(), now, number(o.value, 3), number(o.regret, 3), odds)
    console.print(t)


@app.command()
def simulate(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="how many games to play")] = 1000,
    bot: Annotated[str, typer.Option(help=f"who plays: {BOT_LIST}")] = "optimal",
    seed: Annotated[int, typer.Option(
        help="seed of the dice: the same seed plays the same games")] = 0,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Play many solo games with a bot; print mean, spread and percentiles."""
    from .bots import simulate_bot
    from .plots import plot_histogram
    from .solver.simulate import simulate_optimal

    rs = _ruleset(rules_, option)
    bot = bot.strip().lower()
    if bot not in BOTS:
        _fail(_("unknown bot “{bot}”; choose one of {bots}").format(bot=bot, bots=BOT_LIST))
    if games < 1:
        _fail(_("play at least 1 game, not {games}").format(games=games))
    _check_plot(plot)
    t0 = time.perf_counter()
    try:
        if bot == "optimal" and not rs.uses_board:
            summary = simulate_optimal(_progress_solve(rs, True), games, seed)
        else:
            from .bots import make_bot

            make_bot(bot, rs)  # fail fast on a bot this ruleset cannot have
            with _bar() as bar:
                task = bar.add_task(_("{bot} bot playing").format(bot=bot), total=games, unit=_("games"))
                summary = simulate_bot(rs.name, dict(rs.options), bot, games, seed,
                                       progress=lambda done, _: bar.update(task, completed=done))
    except YatzyError as e:
        _fail(e)
    result = {"rules": rs.name, "bot": bot, "seed": seed, **summary.to_dict(),
              "seconds": time.perf_counter() - t0}
    plot_error = None
    if plot is not None:
        title = _("{title}: {bot} bot, {games}").format(title=_(rs.title), bot=bot, games=_games(games))
        plot_error = _save_plot(lambda: plot_histogram(summary, str(plot), title), plot)
        if plot_error is None:
            result["plot"] = str(plot)
    if as_json:
        print(json.dumps(result))
    else:
        console.print(_("{title}, {bot} bot, {games}: mean {mean} ± {error} (sd {sd})").format(
            title=_(rs.title), bot=bot, games=_games(games), mean=f"[bold]{number(summary.mean, 2)}[/]",
            error=number(summary.std_error, 2), sd=number(summary.std, 1)), soft_wrap=True)
        console.print("  ".join(f"{k} {number(v)}" for k, v in summary.percentiles().items()))
        if plot is not None and plot_error is None:
            console.print(_("histogram: {path}").format(path=plot))
    if plot_error is not None:
        _fail(plot_error)


if __name__ == "__main__":  # pragma: no cover
    app()


@app.command()
def sheet(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    players: Annotated[int, typer.Option("--players", "-p", min=1, help="player columns (8 a page)")] = 4,
    names: Annotated[str | None, typer.Option(
        help="names heading the first columns, comma-separated")] = None,
    large: Annotated[bool, typer.Option(
        "--large", help="large print, black on yellow like the Danish tactile pad")] = False,
    out: Annotated[Path, typer.Option("--output", "-o", help="the PDF file to write")] = Path("sheet.pdf"),
    lang: LangOpt = "en",
) -> None:
    """Write a printable A4 score sheet (PDF) for any ruleset and language."""
    from .pdfsheet import score_sheet

    rs = _ruleset(rules_, option)
    if out.suffix.lower() != ".pdf":
        _fail(_("the score sheet is a PDF: give a file name ending in .pdf, not {name}").format(
            name=out.name))
    if not out.parent.is_dir():
        _fail(_("cannot write {path}: there is no folder {folder}").format(path=out, folder=out.parent))
    given = [n.strip() for n in names.split(",")] if names else None
    try:
        pdf = score_sheet(rs, lang, players, large=large, names=given)
        out.write_bytes(pdf)
    except YatzyError as e:
        _fail(e)
    except OSError as e:
        _fail(_("cannot write {path}: {reason}").format(path=out, reason=e.strerror or e))
    console.print(_("score sheet: {path}").format(path=out))


history_app = typer.Typer(help="Finished and saved games, statistics and records.", no_args_is_help=False)
app.add_typer(history_app, name="history")

DbOpt = Annotated[str | None, typer.Option(
    "--db", help="database URL (default: SQLite in your data folder; postgresql+psycopg://... works)")]


def _database(db: str | None):  # noqa: ANN202
    from .storage import Database

    try:
        return Database(db)
    except YatzyError as e:
        _fail(e)


@history_app.callback(invoke_without_command=True)
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
    from .storage import list_games

    database = _database(db)
    try:
        rows = list_games(database, player=player, ruleset=rules_ and get_ruleset(rules_).name, limit=limit)
    except YatzyError as e:
        _fail(e)
    if not rows:
        console.print(_("no games recorded yet: finish a game with yatzy play and it appears here"))
        return
    t = Table(title=_("Games"))
    for col in (_("game"), _("ruleset"), _("finished"), _("players and totals"), _("winner")):
        t.add_column(col)
    for g in rows:
        when = (g.finished_at or g.updated_at).strftime("%Y-%m-%d %H:%M")
        seats = ", ".join(f"{s.name} {s.total}" for s in g.seats)
        t.add_row(str(g.id), g.ruleset, when if g.finished else _("unfinished"), seats, _and(list(g.winners)))
    console.print(t)


@history_app.command("show")
def history_show(
    game_id: Annotated[int, typer.Argument(help="the game's number in yatzy history")],
    db: DbOpt = None,
    lang: LangOpt = "en",
) -> None:
    """Replay a recorded game move by move, with the final scorecard."""
    from .storage import load_game

    database = _database(db)
    try:
        game = load_game(database, game_id)
    except YatzyError as e:
        _fail(e)
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
        console.print(f"{step:>3}. {player.name}: {line}", highlight=False)
    outcome = game.outcome()
    if outcome is not None:
        console.print(_("winner: {names}").format(names=_and([s.name for s in outcome.standings
                                                                 if s.player in outcome.winners])))


@history_app.command("stats")
def history_stats(
    rules_: Annotated[str | None, typer.Option("--rules", "-r", help="only this ruleset")] = None,
    db: DbOpt = None,
    lang: LangOpt = "en",
) -> None:
    """Per player and ruleset: games, wins, mean, best, bonus and Yatzy rates, points lost to the coach."""
    from .storage import player_stats

    database = _database(db)
    try:
        stats = player_stats(database, rules_ and get_ruleset(rules_).name)
    except YatzyError as e:
        _fail(e)
    t = Table(title=_("Statistics"))
    for col in (_("player"), _("ruleset"), pgettext("column", "games"), _("wins"), _("mean"), _("best"),
                _("bonus"), _("Yatzy"), _("lost to the coach")):
        t.add_column(col, justify="right")
    for s in stats:
        lost = "" if s.mean_points_lost is None else number(s.mean_points_lost, 1)
        t.add_row(s.name, s.ruleset, str(s.games), str(s.wins), number(s.mean, 1), str(s.best),
                  percent(s.bonus_rate), percent(s.yatzy_rate), lost)
    console.print(t)


# ---- the web server (yatzy.web) ------------------------------------------------------------------

@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="database URL (default: SQLite in your data folder; postgresql://... works)")] = None,
    pubsub: Annotated[str | None, typer.Option(
        "--pubsub", help="pub/sub URL for several server processes (default: in process)")] = None,
    lang: LangOpt = "en",
) -> None:
    """Run the web server: rooms for games in the browser (protocol: docs/web-protocol.md)."""
    from .web.app import create_app, run_server

    try:
        web_app = create_app(db, pubsub)
    except YatzyError as e:
        _fail(e)
    run_server(web_app, host, port)


@app.command("verify")
def verify_dice(
    file: Annotated[Path, typer.Argument(help="the JSON of /api/rooms/CODE/verify or of a reveal message")],
    lang: LangOpt = "en",
) -> None:
    """Check a finished web game's dice against the seed it revealed.

    The seed must match the commitment the room showed at the start; every roll must follow from it."""
    from .web.fairness import verify

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        reason = getattr(e, "strerror", None) or e
        _fail(_("could not read {path}: {reason}").format(path=file, reason=reason))
    try:
        game = verify(data)
    except YatzyError as e:
        _fail(e)
    rolls = sum(1 for a in game.log if isinstance(a, Roll))
    console.print(_("fair: the seed matches the commitment {commitment}, and all {n} rolls follow from it")
                  .format(commitment=data["commitment"], n=rolls))

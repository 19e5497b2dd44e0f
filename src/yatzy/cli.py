"""The ``yatzy`` command: rule sheets, scoring, games, the solver, the coach and simulations."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from .dice import parse
from .errors import YatzyError
from .game import Game
from .names import LANGUAGES, check_language
from .registry import RULESETS, get_ruleset, parse_options
from .rules import Ruleset
from .rulesheet import rule_sheet, score_table

app = typer.Typer(
    help="Play and solve Yatzy: Scandinavian, Forced, Maxi, Osto, Yahtzee, DOZZY and Kids.",
    no_args_is_help=True, add_completion=False,
)
console = Console()

RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=f"ruleset: {', '.join(RULESETS)}")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", help="house rule as name=value, e.g. joker=free (repeatable)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON instead of tables")]


def _fail(err: Exception) -> None:
    console.print(f"[red]error:[/] {err}", highlight=False)
    raise typer.Exit(2)


def _ruleset(rules: str, options: list[str] | None) -> Ruleset:
    try:
        return get_ruleset(rules, **parse_options(options or []))
    except YatzyError as e:
        _fail(e)
        raise


@app.command()
def rules(
    ruleset: Annotated[str, typer.Argument(help=f"one of {', '.join(RULESETS)}")] = "yatzy",
    lang: Annotated[str, typer.Option("--lang", "-l", help=f"{', '.join(LANGUAGES)}")] = "en",
    option: OptionOpt = None,
) -> None:
    """Print the rule sheet of a ruleset."""
    rs = _ruleset(ruleset, option)
    try:
        check_language(lang)
    except ValueError as e:
        _fail(e)
    console.print(rule_sheet(rs, lang))


@app.command()
def score(
    roll: Annotated[list[str], typer.Argument(help="rolls as digits, e.g. 66622 (six for maxi)")],
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    as_json: JsonOpt = False,
    lang: Annotated[str, typer.Option("--lang", "-l")] = "en",
) -> None:
    """Score one or more rolls in every category (DOZZY: every tile in play)."""
    rs = _ruleset(rules_, option)
    try:
        rolls = [parse(r, rs.dice) for r in roll]
        check_language(lang)
    except (YatzyError, ValueError) as e:
        _fail(e)
    if as_json:
        print(json.dumps([{"dice": list(r), "scores": rs.score_all(r)} for r in rolls]))
    else:
        console.print(score_table(rs, rolls, lang))


@app.command()
def play(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    players: Annotated[str, typer.Option(
        "--players", "-p",
        help="comma-separated seats: a name for a person, bot:LEVEL for a computer "
             "(random, greedy, casual, strong, optimal, dozzy)")] = "You,bot:greedy",
    seed: Annotated[int | None, typer.Option(help="seed the dice for a replayable game")] = None,
    load: Annotated[Path | None, typer.Option(help="continue a saved game (JSON)")] = None,
    lang: Annotated[str, typer.Option("--lang", "-l")] = "en",
) -> None:
    """Play a hot-seat game in the terminal against friends and bots."""
    from .play import hot_seat

    try:
        check_language(lang)
        seats = [s.strip() for s in players.split(",") if s.strip()]
        names = [s.split(":", 1)[1] + " (bot)" if s.startswith("bot:") else s for s in seats]
        kinds = [s.split(":", 1)[1] if s.startswith("bot:") else "human" for s in seats]
        if load is not None:
            game = Game.from_json(load.read_text(encoding="utf-8"))
            kinds = ["human" if not n.endswith(" (bot)") else n[:-6]
                     for n in (p.name for p in game.state.players)]
        else:
            game = Game(_ruleset(rules_, option), names, seed)
        hot_seat(game, kinds, lang, console=console)
    except (YatzyError, ValueError, OSError) as e:
        _fail(e)


def _bar() -> Progress:
    """A progress bar on stderr that clears itself; tasks give a description and a unit."""
    return Progress(TextColumn("{task.description}"), BarColumn(),
                    TextColumn("{task.completed}/{task.total} {task.fields[unit]}"),
                    TimeElapsedColumn(), console=Console(stderr=True), transient=True)


def _progress_solve(rs: Ruleset, use_cache: bool, bank_cap: int | None = None):  # noqa: ANN202
    from .solver.solve import solve

    with _bar() as bar:
        task = bar.add_task(f"solving {rs.name}", total=None, unit="cards")

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
) -> None:
    """Solve a ruleset exactly (or load its cached table) and print the expected score."""
    rs = _ruleset(rules_, option)
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
        console.print(f"{rs.title}: expected score [bold]{sol.expected_score:.4f}[/] "
                      f"({sol.states:,} states, {seconds:.2f} s)")


@app.command()
def converge(
    rules_: RulesOpt = "osto",
    option: OptionOpt = None,
    caps: Annotated[str, typer.Option(help="bank caps to solve at, e.g. 0-4,8,16")] = "0-4,8,12,16",
    plot: Annotated[Path | None, typer.Option(help="save a plot of value against cap here")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Saved-roll games (maxi, osto): how the exact value settles as the bank cap grows."""
    from .solver.convergence import CapPoint, parse_caps, plot_convergence
    from .solver.convergence import converge as run

    rs = _ruleset(rules_, option)
    try:
        cap_list = parse_caps(caps)
        with _bar() as bar:
            task = bar.add_task(f"solving {rs.name}", total=len(cap_list), unit="bank caps")
            cards = bar.add_task(f"bank cap {cap_list[0]}", total=None, unit="cards")

            def report(done: int, point: CapPoint) -> None:
                bar.update(task, completed=done)
                if done < len(cap_list):
                    bar.reset(cards, description=f"bank cap {cap_list[done]}")

            def report_cards(done: int, total: int) -> None:
                bar.update(cards, completed=done, total=total)

            points = run(rs, cap_list, report, report_cards)
    except YatzyError as e:
        _fail(e)
    result: dict[str, object] = {"rules": rs.name, "options": {k: v for k, v in rs.options},
                                 "points": [p.to_dict() for p in points]}
    if plot is not None:
        plot_convergence(points, str(plot), f"{rs.title}: exact value by bank cap")
        result["plot"] = str(plot)
    if as_json:
        print(json.dumps(result))
        return
    t = Table(title=f"{rs.title}: exact value by bank cap")
    for col in ("bank cap", "expected score", "change", "states", "seconds"):
        t.add_column(col, justify="right")
    prev = None
    for p in points:
        change = "" if prev is None else f"{p.expected_score - prev:+.4f}"
        t.add_row(str(p.bank_cap), f"{p.expected_score:.4f}", change, f"{p.states:,}", f"{p.seconds:.1f}")
        prev = p.expected_score
    console.print(t)
    if plot is not None:
        console.print(f"plot: {plot}")


@app.command()
def advise(
    dice: Annotated[str, typer.Option("--dice", "-d", help="the dice on the table, e.g. 13356")],
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    rolls_left: Annotated[int, typer.Option(help="rolls still allowed this turn")] = 2,
    filled: Annotated[str, typer.Option(help="filled boxes, comma-separated ids")] = "",
    upper: Annotated[int, typer.Option(help="upper-section total so far")] = 0,
    saved: Annotated[int, typer.Option(help="saved rolls in the bank (maxi, osto)")] = 0,
    yahtzee_50: Annotated[bool, typer.Option(help="yahtzee: the Yahtzee box holds 50")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Rank every option in a position by expected score and regret."""
    from .solver.coach import Coach, filled_from_text

    rs = _ruleset(rules_, option)
    try:
        coach = Coach(_progress_solve(rs, True))
        aux = saved if rs.saved_rolls else int(yahtzee_50)
        pos = coach.position(filled_from_text(filled), parse(dice, rs.dice), rolls_left, upper, aux)
        options = coach.options(pos)
    except YatzyError as e:
        _fail(e)
    if as_json:
        print(json.dumps({"options": [o.to_dict() for o in options]}))
        return
    t = Table(title=f"{rs.title}: dice {' '.join(map(str, pos.dice))}, {rolls_left} rolls left")
    t.add_column("option")
    t.add_column("value", justify="right")
    t.add_column("regret", justify="right")
    t.add_column("odds by end of turn")
    for o in options:
        odds = ", ".join(f"{c} {p:.1%}" for c, p in o.odds[:3])
        t.add_row(o.action, f"{o.value:.3f}", f"{o.regret:.3f}", odds)
    console.print(t)


@app.command()
def simulate(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1)] = 1000,
    bot: Annotated[str, typer.Option(help="random, greedy, casual, strong, optimal, dozzy")] = "optimal",
    seed: Annotated[int, typer.Option()] = 0,
    plot: Annotated[Path | None, typer.Option(help="save a histogram PNG here")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Play many solo games with a bot; print mean, spread and percentiles."""
    from .solver.simulate import plot_histogram, simulate_bot, simulate_optimal

    rs = _ruleset(rules_, option)
    t0 = time.perf_counter()
    try:
        if bot == "optimal" and not rs.uses_board:
            summary = simulate_optimal(_progress_solve(rs, True), games, seed)
        else:
            from .bots import make_bot

            make_bot(bot, rs)  # fail fast on a bad name
            with _bar() as bar:
                task = bar.add_task(f"{bot} bot playing", total=games, unit="games")
                summary = simulate_bot(rs.name, dict(rs.options), bot, games, seed,
                                       progress=lambda done, _: bar.update(task, completed=done))
    except YatzyError as e:
        _fail(e)
    result = {"rules": rs.name, "bot": bot, "seed": seed, **summary.to_dict(),
              "seconds": time.perf_counter() - t0}
    if plot is not None:
        plot_histogram(summary, str(plot), f"{rs.title}: {bot} bot, {games} games")
        result["plot"] = str(plot)
    if as_json:
        print(json.dumps(result))
        return
    console.print(f"{rs.title}, {bot} bot, {games} games: mean [bold]{summary.mean:.2f}[/] "
                  f"± {summary.std_error:.2f} (sd {summary.std:.1f})")
    console.print("  ".join(f"{k} {v:.0f}" for k, v in summary.percentiles().items()))
    if plot is not None:
        console.print(f"histogram: {plot}")


if __name__ == "__main__":  # pragma: no cover
    app()

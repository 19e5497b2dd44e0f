"""The solver's commands: ``yatzy solve``, ``converge``, ``distribution``, ``advise``,
``simulate`` and ``duel`` (exact values, the exact spread of final scores, the coach's ranking
of a position, many games played by a bot, and bots played against each other)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from ..bots import BOTS
from ..dice import parse
from ..errors import InvalidActionError, YatzyError
from ..i18n import _, ngettext, number, percent
from ..names import category_name
from ..rules import Ruleset
from .common import (
    BOT_LIST,
    JsonOpt,
    LangOpt,
    OptionOpt,
    RulesOpt,
    commands,
    console,
    fail,
    progress_bar,
    ruleset_from,
)

if TYPE_CHECKING:
    from ..solver.coach import Coach, Position
    from ..solver.simulate import Summary
    from ..solver.solve import Solution

app = commands()

PlotOpt = Annotated[Path | None, typer.Option(
    help="also save a plot here: a .png, .svg or .pdf file in an existing folder")]


def _check_plot(plot: Path | None) -> None:
    """Refuse a plot path that cannot be written before the work starts."""
    from ..plots import check_plot_path

    if plot is not None:
        try:
            check_plot_path(plot)
        except YatzyError as e:
            fail(e)


def _save_plot(save: Callable[[], None], plot: Path, result: dict[str, object]) -> str | None:
    """Save a plot after the work and name it in ``result``; the error in words if that still
    fails (said after the results, which are not lost)."""
    try:
        save()
    except (YatzyError, OSError, ValueError) as e:
        why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
        return _("could not save the plot to {path}: {why}").format(path=plot, why=why)
    result["plot"] = str(plot)
    return None


def _games(n: int) -> str:
    """ "1 game", "30 games", in the current language."""
    return ngettext("{n} game", "{n} games", n).format(n=n)


def _progress_solve(rs: Ruleset, use_cache: bool, bank_cap: int | None = None,
                    no_cap: bool = False) -> Solution:
    """The ruleset solved (or its table loaded from the cache), with a progress bar; with
    ``no_cap``, its exact value with no bank cap (no table kept)."""
    from ..solver.solve import exact_value, solve

    with progress_bar() as bar:
        task = bar.add_task(_("solving {rules}").format(rules=rs.name), total=None, unit=_("cards"))

        def report(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        if no_cap:
            return exact_value(rs, progress=report)
        return solve(rs, use_cache=use_cache, bank_cap=bank_cap, progress=report)


@app.command()
def solve(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="solve again, ignore the cache")] = False,
    bank_cap: Annotated[int | None, typer.Option(
        help="saved-roll games: most saved rolls the solver tracks (default: osto 16, maxi 4)")] = None,
    no_cap: Annotated[bool, typer.Option(
        "--no-cap", help="saved-roll games: the exact value with no bank cap at all (minutes for "
                         "maxi; no table is kept)")] = False,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Solve a ruleset exactly (or load its cached table) and print the expected score."""
    rs = ruleset_from(rules_, option)
    if bank_cap is not None and bank_cap < 0:
        fail(_("the bank cap is 0 or more, not {cap}").format(cap=bank_cap))
    if no_cap and bank_cap is not None:
        fail(_("--no-cap and --bank-cap {cap} ask for two different solves; give one of them").format(
            cap=bank_cap))
    t0 = time.perf_counter()
    try:
        sol = _progress_solve(rs, not no_cache, bank_cap, no_cap)
    except YatzyError as e:
        fail(e)
    seconds = time.perf_counter() - t0
    out = {"rules": rs.name, "options": {k: v for k, v in rs.options},
           "expected_score": sol.expected_score, "states": sol.states, "seconds": seconds}
    if rs.saved_rolls:
        out["bank_cap"] = sol.spec.bank_cap
        out["no_cap"] = no_cap
    if as_json:
        print(json.dumps(out))
    else:
        said = (_("{title} with no bank cap: expected score {score} ({states}, {seconds} s)") if no_cap
                else _("{title}: expected score {score} ({states}, {seconds} s)"))
        console.print(said.format(
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
    from ..plots import plot_convergence
    from ..solver.convergence import CapPoint, parse_caps
    from ..solver.convergence import converge as run

    rs = ruleset_from(rules_, option)
    _check_plot(plot)
    try:
        cap_list = parse_caps(caps)
        with progress_bar() as bar:
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
        fail(e)
    title = _("{title}: exact value by bank cap").format(title=_(rs.title))
    result: dict[str, object] = {"rules": rs.name, "options": {k: v for k, v in rs.options},
                                 "points": [p.to_dict() for p in points]}
    plot_error = None if plot is None else _save_plot(
        lambda: plot_convergence(points, str(plot), title), plot, result)
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
            console.print(_("plot: {path}").format(path=plot), markup=False)
    if plot_error is not None:
        fail(plot_error)


@app.command()
def distribution(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    target: Annotated[list[str] | None, typer.Option(
        "--target", "-t", help="also the chance of at least this score, e.g. 300 or 250,300 "
                               "(repeatable)")] = None,
    plot: PlotOpt = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """The exact distribution of the final score under optimal play: mean, spread,
    percentiles and the chance of reaching 200 to 350 points (or the --target scores)."""
    from ..plots import plot_distribution
    from ..solver.distribution import PERCENTS, THRESHOLDS, parse_targets, plan, spec_of
    from ..solver.distribution import distribution as run
    from ..solver.solve import check_solvable

    rs = ruleset_from(rules_, option)
    try:
        targets = parse_targets(target or [])
    except YatzyError as e:
        fail(e)
    _check_plot(plot)
    try:
        check_solvable(rs)
        what = _("exact distribution of {rules}").format(rules=rs.name)
        with progress_bar() as bar:  # laying out the states takes seconds for a big ruleset
            bar.add_task(what, total=None, unit=_("states"))
            the_plan = plan(spec_of(rs))  # refused here, before a long solve, if it cannot fit
        sol = _progress_solve(rs, True)
        with progress_bar() as bar:
            task = bar.add_task(what, total=None, unit=_("states"))
            dist = run(sol, lambda done, total: bar.update(task, completed=done, total=total), the_plan)
    except YatzyError as e:
        fail(e)
    result: dict[str, object] = {"options": {k: v for k, v in rs.options}, **dist.to_dict(targets)}
    title = _("{title}: final score under optimal play").format(title=_(rs.title))
    plot_error = None if plot is None else _save_plot(
        lambda: plot_distribution(dist, str(plot), title), plot, result)
    if as_json:
        print(json.dumps(result))
    else:
        console.print(_("{title}: exact distribution of the final score under optimal play, mean {mean} "
                        "(sd {sd}; {seconds} s)").format(
            title=_(rs.title), mean=f"[bold]{number(dist.mean, 4)}[/]", sd=number(dist.sd, 1),
            seconds=number(dist.seconds, 1)))
        console.print(_("percentiles: {list}").format(list=", ".join(
            f"{percent(q / 100)} {dist.percentile(q)}" for q in PERCENTS)), markup=False)
        console.print(_("chance of at least: {list}").format(list=", ".join(
            f"{t} {percent(dist.at_least(t), 1)}" for t in THRESHOLDS)), markup=False)
        for t in targets:
            console.print(ngettext("chance of at least {score} point with optimal play: {chance}",
                                   "chance of at least {score} points with optimal play: {chance}",
                                   t).format(score=t, chance=_chance(dist.at_least(t))),
                          markup=False)
        if plot is not None and plot_error is None:
            console.print(_("plot: {path}").format(path=plot), markup=False)
    if plot_error is not None:
        fail(plot_error)


def _chance(p: float) -> str:
    """A chance as a percentage, or as "1 in N" when it is below 0.01 % (it is never shown as
    0 unless it is 0)."""
    if p == 0 or p >= 0.0001:
        return percent(p, 2)
    return _("1 in {n}").format(n=number(1 / p))


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
    target: Annotated[str | None, typer.Option(
        help="rank by the chance of ending with at least this score instead (near the game's end)")] = None,
    points: Annotated[int | None, typer.Option(
        help="with --target: points on the card so far, the upper bonus apart (default: --upper)")] = None,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Rank every option in a position by expected score and regret (or, with --target, by the
    chance of reaching a score)."""
    from ..solver.coach import Coach, check_position, filled_from_text
    from ..solver.solve import check_solvable

    rs = ruleset_from(rules_, option)
    try:
        roll = parse(dice, rs.dice)
        boxes = filled_from_text(filled)
        check_solvable(rs)
        check_position(rs, boxes, roll, rolls_left, upper, saved=saved or 0, yahtzee_50=yahtzee_50)
        goal = None
        if target is not None:
            goal = _check_goal(rs, target, upper if points is None else points, upper)
            _check_size(rs, boxes, upper, yahtzee_50)
        coach = Coach(_progress_solve(rs, True))
        pos = coach.position(boxes, roll, rolls_left, upper, saved=saved, yahtzee_50=yahtzee_50)
        if goal is not None:
            _advise_target(coach, pos, *goal, as_json)
            return
        options = coach.options(pos)
    except YatzyError as e:
        fail(e)
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


def _check_goal(rs: Ruleset, text: str, points: int, upper: int) -> tuple[int, int]:
    """(target, points so far) as typed for ``advise --target``, refused in words if no game
    could score them (the target in the words the terminal's and the page's coach use)."""
    from ..solver.spec import SolverSpec
    from ..solver.target import check_target, most_points

    target = check_target(rs, text)
    most = most_points(SolverSpec(rs, 0))
    if not upper <= points <= most:
        raise InvalidActionError(_("the points so far are {upper} (the upper total) to {most}, not "
                                   "{points}").format(upper=upper, most=most, points=points))
    return target, points


def _check_size(rs: Ruleset, boxes: list[str], upper: int, yahtzee_50: bool) -> None:
    """Refuse a target query too big to solve before its ruleset's table is loaded."""
    from ..solver.spec import SolverSpec
    from ..solver.target import check_target_position

    spec = SolverSpec(rs, 0)
    mask = sum(1 << spec.ruleset.category_ids.index(c) for c in boxes)
    check_target_position(spec, mask, 1 if yahtzee_50 and spec.n_aux == 2 else 0, min(upper, spec.bonus[1]))


def _advise_target(coach: Coach, pos: Position, target: int, points: int, as_json: bool) -> None:
    """``advise --target``: the options ranked by their chance of ending with ``target`` or more."""
    from ..solver.target import target_options

    query = target_options(coach, pos, max(0, target - points))
    if as_json:
        print(json.dumps({"target": target, "points": points, "need": query.need, "work": query.work,
                          "options": [o.to_dict() for o in query.options]}))
        return
    t = Table(title=_("{title}: dice {dice}, score {points}, target {target}").format(
                  title=_(coach.spec.ruleset.title), dice=" ".join(map(str, pos.dice)), points=points,
                  target=target),
              caption=_("chance of the target: of ending the game with at least the target, playing for it "
                        "from here on (the upper bonus and extra bonuses included)."),
              caption_justify="left")
    for col in (_("option"), _("points now"), _("chance of the target"), _("expected points to come")):
        t.add_column(col, justify="left" if col == _("option") else "right")
    for o in query.options:
        now = "" if o.option.points is None else str(o.option.points)
        t.add_row(o.option.action.describe(), now, _chance(o.chance), number(o.option.value, 3))
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
    from ..bots import simulate_bot
    from ..plots import plot_histogram
    from ..solver.simulate import simulate_optimal

    rs = ruleset_from(rules_, option)
    bot = bot.strip().lower()
    if bot not in BOTS:
        fail(_("unknown bot “{bot}”; choose one of {bots}").format(bot=bot, bots=BOT_LIST))
    if games < 1:
        fail(_("play at least 1 game, not {games}").format(games=games))
    _check_plot(plot)
    t0 = time.perf_counter()
    try:
        if bot == "optimal" and not rs.uses_board:
            table = _progress_solve(rs, True)  # its own bar, before the games'
            # one game first, under a bar of its own: the first time after an install it compiles
            # the simulator (about 15 s), which the games' bar would show as a stall at 0
            with progress_bar() as bar:
                bar.add_task(_("getting the simulator ready"), total=None, unit="")
                simulate_optimal(table, 1, seed)

            def play(progress: Callable[[int, int], None]) -> Summary:
                return simulate_optimal(table, games, seed, progress=progress)
        else:
            from ..bots import make_bot

            make_bot(bot, rs)  # fail fast on a bot this ruleset cannot have

            def play(progress: Callable[[int, int], None]) -> Summary:
                return simulate_bot(rs.name, dict(rs.options), bot, games, seed, progress=progress)
        with progress_bar(estimate=True) as bar:
            task = bar.add_task(_("{bot} bot playing").format(bot=bot), total=games, unit=_("games"))
            summary = play(lambda done, _: bar.update(task, completed=done))
    except YatzyError as e:
        fail(e)
    result = {"rules": rs.name, "bot": bot, "seed": seed, **summary.to_dict(),
              "seconds": time.perf_counter() - t0}
    title = _("{title}: {bot} bot, {games}").format(title=_(rs.title), bot=bot, games=_games(games))
    plot_error = None if plot is None else _save_plot(
        lambda: plot_histogram(summary, str(plot), title), plot, result)
    if as_json:
        print(json.dumps(result))
    else:
        console.print(_("{title}, {bot} bot, {games}: mean {mean} ± {error} (sd {sd})").format(
            title=_(rs.title), bot=bot, games=_games(games), mean=f"[bold]{number(summary.mean, 2)}[/]",
            error=number(summary.std_error, 2), sd=number(summary.std, 1)), soft_wrap=True)
        console.print("  ".join(f"{k} {number(v)}" for k, v in summary.percentiles().items()))
        if plot is not None and plot_error is None:
            console.print(_("histogram: {path}").format(path=plot), markup=False)
    if plot_error is not None:
        fail(plot_error)


@app.command()
def duel(
    bots: Annotated[str, typer.Option(help=f"the bots, comma-separated, e.g. win,optimal: {BOT_LIST}")],
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="how many games to play")] = 1000,
    seed: Annotated[int, typer.Option(
        help="seed of the dice: the same seed plays the same games")] = 0,
    as_json: JsonOpt = False,
    lang: LangOpt = "en",
) -> None:
    """Play bots against each other, seats rotating; print each bot's wins, draws and win rate
    (a draw counts half) with its 95 % confidence interval (Wilson's)."""
    from ..duel import check_bots
    from ..duel import duel as run

    rs = ruleset_from(rules_, option)
    try:
        names = check_bots(bots.split(","), rs)
        with progress_bar(estimate=True) as bar:
            task = bar.add_task(_("{bots} playing").format(bots=", ".join(names)), total=games,
                                unit=_("games"))
            result = run(rs, names, games, seed, progress=lambda done, _: bar.update(task, completed=done))
    except YatzyError as e:
        fail(e)
    if as_json:
        print(json.dumps(result.to_dict()))
        return
    t = Table(title=_("{title}: {bots}, {games}").format(
        title=_(rs.title), bots=", ".join(names), games=_games(games)),
        caption=_("win rate: wins and half the draws per game; {share} interval: Wilson's").format(
            share=percent(0.95)),
        caption_justify="left")
    interval = _("{share} interval").format(share=percent(0.95))
    for col in (_("bot"), _("wins"), _("draws"), _("win rate"), interval):
        t.add_column(col, justify="left" if col == _("bot") else "right")
    for r in result.records:
        low, high = r.ci95
        t.add_row(r.bot, number(r.wins), number(r.draws), percent(r.win_rate, 1),
                  f"{percent(low, 1)} – {percent(high, 1)}")
    console.print(t)

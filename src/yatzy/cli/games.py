"""``yatzy play`` and ``yatzy keep``: a game in the terminal, full screen or line by line (each
front end keeps a finished game in the history the moment it ends: :mod:`yatzy.recording`)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from ..bots import BOTS, bot_name
from ..errors import YatzyError
from ..game import Game
from ..i18n import _
from ..registry import RULESETS
from ..seats import Seat, parse_seats
from ..views import and_list
from .common import BOT_LIST, LangOpt, OptionOpt, RulesOpt, commands, console, fail, ruleset_from

app = commands()

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
    from ..line.play import hot_seat

    full_screen = _full_screen(plain)
    screen_lang = _screen_lang(ctx, lang)
    if full_screen and load is None and rules_ is None and players is None and not option \
            and seed is None and not roll_off:
        from ..tui import run

        run(lang=screen_lang)  # the new game screen
        return
    if load is not None:
        given = [name for name, value in (("--rules", rules_), ("--option", option or None),
                                          ("--players", players), ("--seed", seed),
                                          ("--roll-off", roll_off or None))
                 if value is not None]
        if given:
            fail(_("--load continues a saved game with its own rules, players and seed; "
                   "leave out {options}").format(options=and_list(given)))
        try:
            text = load.read_text(encoding="utf-8")
        except OSError as e:
            fail(_("cannot read the saved game {path}: {why}").format(path=load, why=e.strerror or e))
        try:
            game = Game.from_json(text)
        except YatzyError as e:
            fail(e)
    else:
        text = DEFAULT_PLAYERS if players is None else players
        if not text.replace(",", "").strip():
            fail(_("give at least one seat with --players, e.g. {example}").format(example=DEFAULT_PLAYERS))
        try:
            seats = parse_seats(text)
        except YatzyError as e:
            fail(e)
        bad = next((s.level for s in seats if s.level is not None and s.level not in BOTS), None)
        if bad is not None:
            fail(_("unknown bot level “{level}”; write bot:LEVEL with LEVEL one of {levels}").format(
                level=bad, levels=BOT_LIST))
        # a bot nobody named is named in the game's language ("bot:greedy" plays as "Ahne botti")
        seats = [Seat.bot(s.level, bot_name(s.level)) if s.level and s.name == Seat.bot(s.level).name else s
                 for s in seats]
        rs = ruleset_from(rules_ or "yatzy", option)
        try:
            game = Game(rs, seats, seed, roll_off=roll_off)
        except YatzyError as e:
            fail(e)
    try:
        if full_screen:
            from ..tui import run

            run(game, lang=screen_lang, save_path=load)
        else:
            hot_seat(game, lang=lang, console=console)
    except YatzyError as e:
        fail(e)


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
    from ..line.scorekeeper import keep_score

    names = [n.strip() for n in players.split(",") if n.strip()] or \
        [_("Player {n}").format(n=n) for n in (1, 2)]
    try:
        seats = parse_seats(",".join(names))
    except YatzyError as e:
        fail(e)
    if any(s.is_bot for s in seats):
        fail(_("everyone at a real table throws their own dice: give names only, no bot:LEVEL"))
    start = None
    if first is not None:
        found = [i for i, s in enumerate(seats) if s.name.lower() == first.strip().lower()]
        if first.strip().isdigit() and 1 <= int(first) <= len(seats):
            found = [int(first) - 1]
        if not found:
            fail(_("--first names a player at the table or a seat number 1 to {n}, not “{first}”").format(
                n=len(seats), first=first))
        start = found[0]
    try:
        game = Game(ruleset_from(rules_, option), seats, first=start, dice_from="players")
    except YatzyError as e:
        fail(e)
    if _full_screen(plain):
        from ..tui import run

        run(game, lang=_screen_lang(ctx, lang))
    else:
        keep_score(game, lang=lang, console=console)


def _full_screen(plain: bool) -> bool:
    """The full-screen app unless --plain, NO_COLOR, or input or output is not a terminal."""
    return not plain and not os.environ.get("NO_COLOR") and sys.stdin.isatty() and sys.stdout.isatty()


def _screen_lang(ctx: typer.Context, lang: str) -> str | None:
    """The language for the full-screen app: ``--lang`` if given, else None (the app then
    remembers the one chosen last time)."""
    source = ctx.get_parameter_source("lang")  # Typer's own click: compare the source by name
    return lang if getattr(source, "name", None) == "COMMANDLINE" else None

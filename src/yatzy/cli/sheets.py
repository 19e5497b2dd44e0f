"""``yatzy rules``, ``yatzy score`` and ``yatzy sheet``: a ruleset on the screen and on paper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..dice import parse
from ..errors import YatzyError
from ..i18n import _
from ..registry import RULESETS
from ..rulesheet import rule_sheet, score_table
from .common import JsonOpt, LangOpt, OptionOpt, RulesOpt, commands, console, fail, ruleset_from

app = commands()


@app.command()
def rules(
    ruleset: Annotated[str, typer.Argument(help=f"one of {', '.join(RULESETS)}")] = "yatzy",
    lang: LangOpt = "en",
    option: OptionOpt = None,
) -> None:
    """Print the rule sheet of a ruleset."""
    rs = ruleset_from(ruleset, option)
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
    rs = ruleset_from(rules_, option)
    try:
        rolls = [parse(r, rs.dice) for r in roll]
    except YatzyError as e:
        fail(e)
    if as_json:
        print(json.dumps([{"dice": list(r), "scores": rs.score_all(r)} for r in rolls]))
    else:
        console.print(score_table(rs, rolls, lang))


@app.command()
def sheet(
    rules_: RulesOpt = "yatzy",
    option: OptionOpt = None,
    players: Annotated[int, typer.Option("--players", "-p", min=1, help="player columns (8 a page)")] = 4,
    names: Annotated[str | None, typer.Option(
        help="names heading the first columns, comma-separated")] = None,
    large: Annotated[bool, typer.Option(
        "--large", help="large print, black on yellow like the Danish tactile pad")] = False,
    out: Annotated[Path, typer.Option(
        "--output", help="the PDF file to write (-o is --option, as in every command)")] = Path("sheet.pdf"),
    lang: LangOpt = "en",
) -> None:
    """Write a printable A4 score sheet (PDF) for any ruleset and language."""
    from ..pdfsheet import score_sheet

    rs = ruleset_from(rules_, option)
    if out.suffix.lower() != ".pdf":
        fail(_("the score sheet is a PDF: give a file name ending in .pdf, not {name}").format(
            name=out.name))
    if not out.parent.is_dir():
        fail(_("cannot write {path}: there is no folder {folder}").format(path=out, folder=out.parent))
    given = [n.strip() for n in names.split(",")] if names else None
    try:
        pdf = score_sheet(rs, lang, players, large=large, names=given)
        out.write_bytes(pdf)
    except YatzyError as e:
        fail(e)
    except OSError as e:
        fail(_("cannot write {path}: {reason}").format(path=out, reason=e.strerror or e))
    console.print(_("score sheet: {path}").format(path=out), markup=False)

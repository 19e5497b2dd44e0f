"""What every group of the ``yatzy`` command shares: the console, the one way an error is
said, the options named alike everywhere (``--lang``, ``--rules``, ``--option``, ``--json``)
and the progress bar."""

from __future__ import annotations

from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text

from ..bots import BOTS
from ..errors import YatzyError
from ..i18n import _, check_language, language
from ..names import LANGUAGES
from ..registry import RULESETS, get_ruleset, parse_options
from ..rules import Ruleset

console = Console()
"""Results go to stdout; errors and progress bars to stderr."""


def commands(**settings: Any) -> typer.Typer:
    """A group of commands with plain help (click's): Typer 0.29's Rich help prints a value's
    type beside every flag ("--plain <bool>", "--help <bool>") though a flag takes none, and no
    option setting turns that off (a metavar hides it for our flags, never for --help)."""
    return typer.Typer(rich_markup_mode=None, **settings)


def fail(err: Exception | str) -> NoReturn:
    """Print one line, "error: ...", on stderr (in the command's language) and exit with code 2."""
    Console(stderr=True, soft_wrap=True, highlight=False).print(
        Text.assemble((_("error:"), "red"), " ", str(err)))
    raise typer.Exit(2)


def check_lang(ctx: typer.Context, lang: str) -> str:
    """Check ``--lang`` and speak it for the rest of the command (messages, tables, errors).

    The language is set until the command line's outermost context closes, which it does
    however the command ends (even on a usage error in a later option), so a test runner or any
    caller running commands in one process gets no leftover language.
    """
    try:
        check_language(lang)
    except YatzyError as e:
        fail(e)
    ctx.find_root().with_resource(language(lang))
    return lang


RulesOpt = Annotated[str, typer.Option("--rules", "-r", help=f"ruleset: {', '.join(RULESETS)}")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="<name=value>",
    help="house rule as name=value, e.g. joker=free (repeatable; see yatzy rules)")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print JSON instead of tables")]
LangOpt = Annotated[str, typer.Option(
    "--lang", "-l", callback=check_lang,
    help=f"language of what the command prints, errors too: {', '.join(LANGUAGES)} (help stays English)")]
BOT_LIST = ", ".join(BOTS)


def ruleset_from(rules: str, options: list[str] | None) -> Ruleset:
    """The ruleset ``--rules`` and ``--option`` name; a bad name or option ends the command."""
    try:
        return get_ruleset(rules, **parse_options(options or []))
    except YatzyError as e:
        fail(e)


def progress_bar(estimate: bool = False) -> Progress:
    """A progress bar on stderr that clears itself; tasks give a description and a unit.
    With ``estimate`` it also shows the time still to go (for work of even steps, as games).

    Only on a terminal: piped or captured, stderr gets nothing (not even Rich's closing newline).
    A task of no known size (total None) shows no count, its bar moving to and fro.
    """
    err = Console(stderr=True)
    late: list[ProgressColumn] = [TimeRemainingColumn()] if estimate else []
    return Progress(TextColumn("{task.description}"), BarColumn(), _CountColumn(),
                    TimeElapsedColumn(), *late, console=err, transient=True, disable=not err.is_terminal)


class _CountColumn(ProgressColumn):
    """How far a task is, "done/total unit", or nothing while its total is not known."""

    def render(self, task: Task) -> Text:
        if task.total is None:
            return Text("")
        return Text(f"{task.completed}/{task.total} {task.fields.get('unit', '')}".rstrip())

"""The web server's commands: ``yatzy serve`` runs it (:mod:`yatzy.web`), ``yatzy verify``
checks a finished web game's dice against its revealed seed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from ..actions import Roll
from ..errors import YatzyError
from ..i18n import _, ngettext
from ..web.table_limits import BudgetLimits
from .common import LangOpt, commands, console, fail

app = commands()


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="database URL (default: SQLite in your data folder; postgresql://... works)")] = None,
    pubsub: Annotated[str | None, typer.Option(
        "--pubsub", help="pub/sub URL for several server processes (default: in process)")] = None,
    allowed_host: Annotated[list[str] | None, typer.Option(
        "--allowed-host", help="a name (or name:port) the server answers to, beside the --host "
                               "address, localhost and 127.0.0.1; repeat for more (other Host headers "
                               "are refused)")] = None,
    prepare: Annotated[list[str] | None, typer.Option(
        "--prepare", metavar="<ruleset[:name=value,...]>",
        help="a variant whose solver table is built (or loaded) at start and free to use, e.g. yatzy "
             "or maxi:saved_rolls=false; repeat for more (others are within the table budget)")] = None,
    table_disk: Annotated[float, typer.Option(
        help="MB of new tables (not prepared) the server may write to its cache")] = BudgetLimits.disk_mb,
    table_memory: Annotated[float, typer.Option(
        help="MB of such tables it may hold in memory (those no room uses are let go first)")
    ] = BudgetLimits.memory_mb,
    builds_at_once: Annotated[int, typer.Option(
        min=1, help="table builds running together, prepared ones included")] = BudgetLimits.at_once,
    builds_per_hour: Annotated[int, typer.Option(
        min=0, help="new table builds let in within any hour")] = BudgetLimits.per_hour,
    rooms_per_hour: Annotated[int | None, typer.Option(
        min=1, help="new rooms one client address may make an hour (default: 100)")] = None,
    public_history: Annotated[bool, typer.Option(
        help="let anyone list and replay every stored game (default: each sees their rooms' games)")] = False,
    proxy: Annotated[list[str] | None, typer.Option(
        "--proxy", help="the address (or network, such as 10.0.0.0/8) of a reverse proxy in front whose "
                        "X-Forwarded-For names the client; repeat for more (without it no forwarded "
                        "address is trusted, not even from 127.0.0.1)")] = None,
    connections_per_address: Annotated[int | None, typer.Option(
        min=1, help="WebSockets one client address may hold at once (default 256: a school class "
                    "behind one address needs about 200)")] = None,
    lang: LangOpt = "en",
) -> None:
    """Run the web server: rooms for games in the browser (protocol: docs/web-protocol.md;
    running it behind nginx: docs/deploy.md)."""
    from ..web.app import CONNECTIONS_PER_ADDRESS, create_app, run_server
    from ..web.budget import TableBudget, parse_variant
    from ..web.limits import Limits

    try:
        budget = TableBudget(BudgetLimits(table_disk, table_memory, builds_at_once, builds_per_hour),
                             [parse_variant(v) for v in prepare or []])
        web_app = create_app(db, pubsub, allowed_hosts=[host, *(allowed_host or [])], budget=budget,
                             limits=Limits() if rooms_per_hour is None else Limits(rooms_per_hour),
                             public_history=public_history, proxies=proxy or [],
                             max_connections_per_client=connections_per_address or CONNECTIONS_PER_ADDRESS)
    except YatzyError as e:
        fail(e)
    run_server(web_app, host, port)


@app.command("verify")
def verify_dice(
    file: Annotated[Path, typer.Argument(help="the JSON of /api/rooms/CODE/verify or of a reveal message")],
    lang: LangOpt = "en",
) -> None:
    """Check a finished web game's dice against the seed it revealed.

    The seed must match the commitment the room showed at the start; every roll must follow from it."""
    from ..web.fairness import verify

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        reason = getattr(e, "strerror", None) or e
        fail(_("could not read {path}: {reason}").format(path=file, reason=reason))
    try:
        game = verify(data)
    except YatzyError as e:
        fail(e)
    rolls = sum(1 for a in game.log if isinstance(a, Roll))
    fair = ngettext("fair: the seed matches the commitment {commitment}, and its {n} roll follows from it",
                    "fair: the seed matches the commitment {commitment}, and all {n} rolls follow from it",
                    rolls)
    console.print(fair.format(commitment=data["commitment"], n=rolls))

"""Load on the web server: many concurrent games, each driven by a client over a WebSocket.

Starts ``--servers`` processes of ``yatzy serve``'s app (its ``create_app`` and
``run_server``) on 127.0.0.1 (free ports; loopback only), sharing one database (and, for
more than one, a pub/sub: Redis), makes N hot-seat rooms of two people, room n on server
n mod ``--servers``, and plays them all at once: each room's client talks to the server that
made its room (or, with ``--elsewhere``, to the next one: every action then crosses the
pub/sub), holds the table token and plays both seats (roll once, fill the box worth most)
to the end, thinking ``--think`` seconds before each action (0: as fast as acks come back; a
closed loop then measures the server's queue, not an action's latency). The games start at
random moments over the first ``--ramp-up`` seconds (as players arrive, not 1000 in one
second). Reports the latency of every action (client act -> ack: checked, applied,
committed) as p50, p99 and max (the generator's own collector off meanwhile, and how late its
own loop ran beside: its delays count in every latency), the time to make a room, every
error (an error message, a dropped connection, a game unfinished at the time limit), each
server's memory (RSS at the start and after the games, and the growth per game) and the CPU
that the servers and the load generator itself used (they share the machine). Bounded: N
games and a time limit.

Every client comes from 127.0.0.1, so the servers' per-address limits are lifted in the
servers this script starts (not by the clients): WebSockets per address (``yatzy serve
--connections-per-address``), messages per connection, lookups by code and rooms per hour
(``Limits.unlimited()``). A PostgreSQL ``--db`` gets a new schema of its own for the run,
dropped afterwards.

Usage: python benchmarks/load.py [--games 200] [--servers 1] [--think 1.0] [--ramp-up 10]
                                 [--time-limit 300] [--db URL] [--pubsub URL] [--elsewhere]
(default database: a new SQLite file in a temporary folder). The next size, as measured in
docs/performance.md: --games 1000 --servers 2 --db postgresql+psycopg://... --pubsub redis://...
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from websockets.asyncio.client import connect

HOST = "127.0.0.1"
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass
class Server:
    """One server process's figures: memory (RSS, kB) at the start and after the games, the
    peak, and the CPU seconds it used while the games went on."""

    games: int = 0
    actions: int = 0
    rss_before: int = 0
    rss_after: int = 0
    rss_peak: int = 0
    cpu: float = 0.0

    def line(self, n: int, seconds: float) -> str:
        grown = (self.rss_after - self.rss_before) / max(self.games, 1)
        return (f"server {n + 1}: {self.games} games; RSS {self.rss_before / 1024:.0f} MB at the start, "
                f"{self.rss_after / 1024:.0f} MB after (peak {self.rss_peak / 1024:.0f} MB): "
                f"{grown:.0f} kB per game; CPU {self.cpu / max(seconds, 1e-9) * 100:.0f} % of a core, "
                f"{self.cpu / max(self.actions, 1) * 1000:.1f} ms per action")


@dataclass
class Report:
    games: int
    finished: int = 0
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an act to reading its ack."""
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    making: list[float] = field(default_factory=list)
    """Seconds from asking for a room to having it."""
    servers: list[Server] = field(default_factory=list)
    played: list[int] = field(default_factory=list)
    """Actions acknowledged in each game."""
    client_cpu: float = 0.0
    """CPU seconds of the load generator (this process) while the games went on."""
    services_cpu: float = 0.0
    """CPU seconds of PostgreSQL's and Redis's processes meanwhile (:data:`SERVICES`)."""
    machine_cpu: float = 0.0
    """CPU seconds of the whole machine meanwhile (every process: the database, Redis, others')."""
    lags: list[float] = field(default_factory=list)
    """Seconds the load generator's own event loop was late waking from a 10 ms sleep: how much
    of a latency may be the generator's, not the server's."""

    def percentile(self, p: float, of: list[float] | None = None) -> float:
        ordered = sorted(self.latencies if of is None else of)
        if not ordered:
            return float("nan")
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def summary(self) -> str:
        n = len(self.latencies)
        ms = [self.percentile(p) * 1000 for p in (50, 99)]
        top = max(self.latencies, default=float("nan")) * 1000
        made = [self.percentile(p, self.making) * 1000 for p in (50, 99)]
        mean = statistics.fmean(self.latencies) * 1000 if n else float("nan")
        rate = n / max(self.seconds, 1e-9)
        lines = [f"{self.finished}/{self.games} games finished in {self.seconds:.1f} s, {n} actions "
                 f"({rate:.0f}/s); act -> ack: p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms, "
                 f"mean {mean:.1f} ms, max {top:.1f} ms; making a room: p50 {made[0]:.1f} ms, "
                 f"p99 {made[1]:.1f} ms; errors: {len(self.errors)}"]
        if self.lags:
            late = [self.percentile(p, self.lags) * 1000 for p in (50, 99)]
            lines.append(f"the load generator's own loop, late by: p50 {late[0]:.1f} ms, "
                         f"p99 {late[1]:.1f} ms, max {max(self.lags) * 1000:.1f} ms "
                         "(part of any latency above)")
        lines += [server.line(i, self.seconds) for i, server in enumerate(self.servers)]
        if self.servers:
            grown = sum(s.rss_after - s.rss_before for s in self.servers) / max(self.games, 1)
            share, cores = 100 / max(self.seconds, 1e-9), os.cpu_count() or 1
            lines.append(f"memory per game: {grown:.0f} kB (all servers' RSS growth / games); CPU while the "
                         f"games went on, % of one core: load generator {self.client_cpu * share:.0f} %, "
                         f"servers {sum(s.cpu for s in self.servers) * share:.0f} %, PostgreSQL and Redis "
                         f"{self.services_cpu * share:.0f} %, whole machine "
                         f"{self.machine_cpu * share:.0f} % (of {cores} cores' {100 * cores} %)")
        return "\n".join(lines)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def rss(pid: int) -> tuple[int, int]:
    """A process's resident memory and its peak, kB (Linux's /proc; 0 elsewhere)."""
    try:
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines())
    except OSError:
        return 0, 0
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def cpu_seconds(pid: int | None = None) -> float:
    """CPU seconds (user + system) of a process so far, or of the whole machine (pid None)."""
    try:
        if pid is None:
            busy = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
            return sum(int(busy[i]) for i in (0, 1, 2, 5, 6, 7)) / TICKS  # user nice system irq softirq steal
        stat = Path(f"/proc/{pid}/stat").read_text()
        after = stat[stat.rindex(")") + 2:].split()
        return (int(after[11]) + int(after[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


SERVICES = ("postgres", "redis-server")
"""The processes of the database and the pub/sub, whose CPU is counted apart."""


def services_cpu() -> float:
    """CPU seconds so far of every PostgreSQL and Redis process on the machine."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        if text[text.index("(") + 1:text.rindex(")")] in SERVICES:
            total += cpu_seconds(int(stat.parent.name))
    return total


def serve(db: str, port: int, pubsub: str | None) -> None:
    """A server (run in its own process), as ``yatzy serve`` runs it but with its per-address
    limits lifted: every client here comes from 127.0.0.1. No limit to speak of on the
    WebSockets per address (``--connections-per-address``), a message rate no client here
    reaches, no limit on lookups and new rooms."""
    from yatzy.solver.warm import warm_up
    from yatzy.web.app import create_app, run_server
    from yatzy.web.limits import Limits

    warm_up()  # the coach's kernels compiled (or loaded) before the games: not counted as their CPU

    started = [0.0]
    pauses: list[tuple[float, int]] = []
    frozen = [False]

    def timed(phase: str, info: dict[str, int]) -> None:
        """Count each garbage collection that stops the server for more than 20 ms (once the
        startup's objects are frozen: the startup's own collection is not the games'). The
        frozen objects are counted once (counting walks them all: 40 % of the server's time)."""
        if not frozen[0]:
            frozen[0] = gc.get_freeze_count() > 0
            if not frozen[0]:
                return
        if phase == "start":
            started[0] = time.perf_counter()
        elif started[0] and (pause := time.perf_counter() - started[0]) > 0.02:
            pauses.append((pause, info["generation"]))

    gc.callbacks.append(timed)
    app = create_app(db, pubsub, max_connections_per_client=100_000, rate=1000, burst=1000,
                     limits=Limits.unlimited())

    def said(*_: object) -> None:
        """Say the long collections when stopped (uvicorn raises the signal again after its shutdown)."""
        if pauses:
            longest, generation = max(pauses)
            print(f"server {port}: {len(pauses)} garbage collections stopped it for over 20 ms, the longest "
                  f"{longest * 1000:.0f} ms (generation {generation})", file=sys.stderr, flush=True)
        os._exit(0)

    signal.signal(signal.SIGTERM, said)
    run_server(app, HOST, port, log_level="warning")
    said()


def start_server(db: str, port: int, pubsub: str | None) -> subprocess.Popen[bytes]:
    args = [sys.executable, __file__, "--serve", "--db", db, "--port", str(port)]
    if pubsub:
        args += ["--pubsub", pubsub]
    proc = subprocess.Popen(args, env={**os.environ})
    deadline = time.monotonic() + 60
    while True:
        try:
            if httpx.get(f"http://{HOST}:{port}/api/rooms/ZZZZZZ", timeout=1).status_code == 404:
                return proc
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("the server did not start")
        time.sleep(0.1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


@contextmanager
def own_schema(url: str) -> Iterator[str]:
    """``url`` itself, or for PostgreSQL the URL of a new schema in its database (the
    connections' search path), dropped afterwards: a run neither meets nor leaves rooms."""
    if not url.startswith("postgresql"):
        yield url
        return
    from sqlalchemy import make_url, text

    from yatzy.storage import make_engine

    schema = f"yatzy_load_{uuid.uuid4().hex[:12]}"
    admin = make_engine(url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        u = make_url(url)
        old = u.query.get("options")
        options = f"-csearch_path={schema}" + (f" {old}" if isinstance(old, str) else "")
        yield u.update_query_dict({"options": options}).render_as_string(hide_password=False)
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


MAKING = 8
"""Rooms made at once: httpx's connection pool does work for every waiting request on every
change, so hundreds of requests at once keep the client's event loop busy for a second or
more (acks read late, counted as the server's latency)."""


async def play(http: httpx.AsyncClient, make: str, talk: str, report: Report, n: int, think: float,
               making: asyncio.Semaphore) -> None:
    """One game: a hot-seat room of two people made on the server at ``make``, played by one
    client (through the server at ``talk``) to the reveal."""
    async with making:
        start = time.perf_counter()
        r = await http.post(f"{make}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}],
                                                       "hot_seat": True, "bot_pace": 0})
    report.making.append(time.perf_counter() - start)
    if r.status_code != 201:
        report.errors.append(f"game {n}: making the room: {r.status_code} {r.text[:200]}")
        return
    room = r.json()
    async with connect(talk.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}", max_size=2**20) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "token": room["table_token"]}))
        view: dict[str, Any] = {}
        sent: dict[str, float] = {}
        acked = 0
        k = 0
        while True:
            m = json.loads(await ws.recv())
            kind = m["type"]
            if kind in ("state", "events"):
                view = m["view"]
            elif kind == "ack":
                report.latencies.append(time.perf_counter() - sent.pop(m["id"]))
                report.played[n] += 1
                acked = m["version"]
            elif kind == "error":
                report.errors.append(f"game {n}: {m.get('code')}: {m.get('message')}")
                return
            elif kind == "reveal":
                report.finished += 1
                return
            if sent or not view.get("legal_actions") or view["version"] < acked:
                continue
            k += 1
            if think:
                await asyncio.sleep(think * (0.5 + random.random()))
            action = "r" if view["rolls_left"] == 3 else \
                f"s {max(view['score_options'], key=lambda o: o['points'])['id']}"
            action_id = f"g{n}-{k}"
            sent[action_id] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "id": action_id, "version": view["version"],
                                      "action": action}))


async def drive(bases: list[str], games: int, think: float, ramp_up: float, time_limit: float,
                elsewhere: bool, progress: Progress | None) -> Report:
    report = Report(games, played=[0] * games)
    making = asyncio.Semaphore(MAKING)
    task = progress.add_task("games", total=games) if progress else None

    async def one(n: int) -> None:
        make = bases[n % len(bases)]
        talk = bases[(n + elsewhere) % len(bases)]
        try:
            await asyncio.sleep(ramp_up * random.random())  # the games do not all start at once
            await play(http, make, talk, report, n, think, making)
        except Exception as e:
            report.errors.append(f"game {n}: {type(e).__name__}: {e}")
        if progress is not None and task is not None:
            progress.advance(task)

    async def lag() -> None:
        while True:
            before = time.perf_counter()
            await asyncio.sleep(0.01)
            report.lags.append(time.perf_counter() - before - 0.01)

    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    # One process plays a thousand clients' part: its own garbage collections (up to 0.3 s, of
    # the views of every game it holds) would stop reading every ack at once and count as the
    # server's latency. Real clients are a thousand browsers; so the generator's collector is off
    # while the games go on (a few minutes; the little it would free is freed at the end).
    gc.collect()
    gc.freeze()
    gc.disable()
    watch = asyncio.ensure_future(lag())
    try:
        async with httpx.AsyncClient(timeout=60, limits=limits) as http:
            start = time.perf_counter()
            jobs = [asyncio.ensure_future(one(n)) for n in range(games)]
            done, pending = await asyncio.wait(jobs, timeout=time_limit)
            for job in pending:
                job.cancel()
            if pending:  # closing a thousand WebSockets on a busy machine: not for ever
                await asyncio.wait(pending, timeout=10)
            report.seconds = time.perf_counter() - start
    finally:
        watch.cancel()
        gc.enable()
        gc.unfreeze()
    unfinished = games - report.finished - sum(1 for e in report.errors if e.startswith("game "))
    if pending:
        report.errors.append(f"{len(pending)} games unfinished after the time limit of {time_limit:.0f} s")
    elif unfinished > 0:
        report.errors.append(f"{unfinished} games did not end")
    return report


def run(games: int = 200, think: float = 1.0, ramp_up: float = 10.0, time_limit: float = 300,
        db: str | None = None, pubsub: str | None = None, show: bool = True, servers: int = 1,
        elsewhere: bool = False) -> Report:
    """Start the servers, play ``games`` games at once against them, stop them; the report."""
    if servers > 1 and not (db and pubsub):
        raise ValueError("several servers share a database (--db) and a pub/sub (--pubsub)")
    with tempfile.TemporaryDirectory() as tmp, \
            own_schema(db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}") as url:
        procs: list[subprocess.Popen[bytes]] = []
        try:
            ports = []
            for _ in range(servers):  # one after the other: the first makes the tables
                ports.append(free_port())
                procs.append(start_server(url, ports[-1], pubsub))
            bases = [f"http://{HOST}:{port}" for port in ports]
            figures = [Server(games=len(range(i, games, servers)), rss_before=rss(p.pid)[0])
                       for i, p in enumerate(procs)]
            cpu = [cpu_seconds(p.pid) for p in procs]
            client, machine, services = time.process_time(), cpu_seconds(), services_cpu()
            if show:
                columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn())
                with Progress(*columns, console=Console(stderr=True)) as progress:
                    report = asyncio.run(drive(bases, games, think, ramp_up, time_limit, elsewhere, progress))
            else:
                report = asyncio.run(drive(bases, games, think, ramp_up, time_limit, elsewhere, None))
            report.client_cpu, report.machine_cpu = time.process_time() - client, cpu_seconds() - machine
            report.services_cpu = services_cpu() - services
            for proc, server, before in zip(procs, figures, cpu, strict=True):
                server.rss_after, server.rss_peak = rss(proc.pid)
                server.cpu = cpu_seconds(proc.pid) - before
            for i, server in enumerate(figures):
                server.actions = sum(report.played[(i - elsewhere) % servers::servers])  # those it took
            report.servers = figures
            return report
        finally:
            for proc in procs:
                stop(proc)


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="The servers started here lift their per-address limits (WebSockets per address, "
               "messages per connection, lookups and rooms per hour): every client comes from 127.0.0.1.")
    ap.add_argument("--games", type=int, default=200, help="games played at once (default 200)")
    ap.add_argument("--servers", type=int, default=1,
                    help="server processes sharing the rooms (default 1; more need --db and --pubsub)")
    ap.add_argument("--elsewhere", action="store_true",
                    help="talk to another server than the one that made the room (with --servers 2 or more)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a client thinks before each action (default 1.0)")
    ap.add_argument("--ramp-up", type=float, default=10.0,
                    help="seconds over which the games start (default 10)")
    ap.add_argument("--time-limit", type=float, default=300, help="seconds before giving up (default 300)")
    ap.add_argument("--db", help="database URL (default: a new SQLite file; for PostgreSQL a new schema "
                                 "in its database, dropped after)")
    ap.add_argument("--pubsub", help="pub/sub URL (default: in process)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.db, args.port, args.pubsub)
        return
    if args.servers > 1 and not (args.db and args.pubsub):
        ap.error("several servers share a database (--db) and a pub/sub (--pubsub)")
    report = run(args.games, args.think, args.ramp_up, args.time_limit, args.db, args.pubsub,
                 servers=args.servers, elsewhere=args.elsewhere)
    print(report.summary())
    for error in report.errors[:20]:
        print("  error:", error)
    sys.exit(1 if report.errors else 0)


if __name__ == "__main__":
    main()

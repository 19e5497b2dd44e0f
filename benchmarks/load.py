"""Load on the web server: many concurrent games, each driven by a client over a WebSocket.

Starts ``yatzy serve``'s app in a process of its own on 127.0.0.1 (a free port; loopback
only), makes N hot-seat rooms of two people, and plays them all at once: each room's client
holds the table token and plays both seats (roll once, fill the box worth most) to the end,
thinking ``--think`` seconds before each action (0: as fast as acks come back; a closed loop
then measures the server's queue, not an action's latency). The games start at random
moments over the first ``--ramp-up`` seconds (as players arrive, not 200 in one second).
Reports the latency of every action (client act -> ack: checked, applied, committed) as p50,
p99 and max, the time to make a room, and every error (an error message, a dropped
connection, a game unfinished at the time limit). Bounded: N games and a time limit.

Usage: python benchmarks/load.py [--games 200] [--think 1.0] [--ramp-up 10] [--time-limit 300]
                                 [--db URL] [--pubsub URL]
(default database: a new SQLite file in a temporary folder).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from websockets.asyncio.client import connect

HOST = "127.0.0.1"


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
        return (f"{self.finished}/{self.games} games finished in {self.seconds:.1f} s, {n} actions "
                f"({n / max(self.seconds, 1e-9):.0f}/s); act -> ack: p50 {ms[0]:.1f} ms, p99 {ms[1]:.1f} ms, "
                f"mean {mean:.1f} ms, max {top:.1f} ms; making a room: p50 {made[0]:.1f} ms, "
                f"p99 {made[1]:.1f} ms; errors: {len(self.errors)}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def serve(db: str, port: int, pubsub: str | None) -> None:
    """The server (run in its own process): no per-address connection limit to speak of, a
    rate limit no client here reaches, no limit on lookups and new rooms (every game comes from
    one address)."""
    from yatzy.web.app import create_app, run_server
    from yatzy.web.limits import Limits

    started = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        """Say each garbage collection that stops the server for more than 20 ms."""
        if phase == "start":
            started[0] = time.perf_counter()
        elif (pause := time.perf_counter() - started[0]) > 0.02:
            print(f"server: garbage collection of generation {info['generation']} took {pause * 1000:.0f} ms "
                  f"({info['collected']} objects freed)", file=sys.stderr)

    gc.callbacks.append(timed)
    app = create_app(db, pubsub, max_connections_per_client=100_000, rate=1000, burst=1000,
                     limits=Limits.unlimited())
    run_server(app, HOST, port, log_level="warning")


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


MAKING = 8
"""Rooms made at once: httpx's connection pool does work for every waiting request on every
change, so hundreds of requests at once keep the client's event loop busy for a second or
more (acks read late, counted as the server's latency)."""


async def play(http: httpx.AsyncClient, base: str, report: Report, n: int, think: float,
               making: asyncio.Semaphore) -> None:
    """One game: a hot-seat room of two people, played by one client to the reveal."""
    async with making:
        start = time.perf_counter()
        r = await http.post(f"{base}/api/rooms", json={"seats": [{"name": "Ann"}, {"name": "Bo"}],
                                                       "hot_seat": True, "bot_pace": 0})
    report.making.append(time.perf_counter() - start)
    if r.status_code != 201:
        report.errors.append(f"game {n}: making the room: {r.status_code} {r.text[:200]}")
        return
    room = r.json()
    async with connect(base.replace("http", "ws", 1) + f"/ws/rooms/{room['code']}", max_size=2**20) as ws:
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


async def drive(base: str, games: int, think: float, ramp_up: float, time_limit: float,
                progress: Progress | None) -> Report:
    report = Report(games)
    making = asyncio.Semaphore(MAKING)
    task = progress.add_task("games", total=games) if progress else None

    async def one(n: int) -> None:
        try:
            await asyncio.sleep(ramp_up * random.random())  # the games do not all start at once
            await play(http, base, report, n, think, making)
        except Exception as e:
            report.errors.append(f"game {n}: {type(e).__name__}: {e}")
        if progress is not None and task is not None:
            progress.advance(task)

    limits = httpx.Limits(max_connections=games, max_keepalive_connections=games)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        start = time.perf_counter()
        jobs = [asyncio.ensure_future(one(n)) for n in range(games)]
        done, pending = await asyncio.wait(jobs, timeout=time_limit)
        for job in pending:
            job.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        report.seconds = time.perf_counter() - start
    unfinished = games - report.finished - sum(1 for e in report.errors if e.startswith("game "))
    if pending:
        report.errors.append(f"{len(pending)} games unfinished after the time limit of {time_limit:.0f} s")
    elif unfinished > 0:
        report.errors.append(f"{unfinished} games did not end")
    return report


def run(games: int = 200, think: float = 1.0, ramp_up: float = 10.0, time_limit: float = 300,
        db: str | None = None, pubsub: str | None = None, show: bool = True) -> Report:
    """Start a server, play ``games`` games at once against it, stop it; the report."""
    with tempfile.TemporaryDirectory() as tmp:
        url = db or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        port = free_port()
        proc = start_server(url, port, pubsub)
        try:
            base = f"http://{HOST}:{port}"
            if show:
                columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                           TimeElapsedColumn())
                with Progress(*columns, console=Console(stderr=True)) as progress:
                    return asyncio.run(drive(base, games, think, ramp_up, time_limit, progress))
            return asyncio.run(drive(base, games, think, ramp_up, time_limit, None))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games played at once (default 200)")
    ap.add_argument("--think", type=float, default=1.0,
                    help="mean seconds a client thinks before each action (default 1.0)")
    ap.add_argument("--ramp-up", type=float, default=10.0,
                    help="seconds over which the games start (default 10)")
    ap.add_argument("--time-limit", type=float, default=300, help="seconds before giving up (default 300)")
    ap.add_argument("--db", help="database URL (default: a new SQLite file)")
    ap.add_argument("--pubsub", help="pub/sub URL (default: in process)")
    ap.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve:
        serve(args.db, args.port, args.pubsub)
        return
    report = run(args.games, args.think, args.ramp_up, args.time_limit, args.db, args.pubsub)
    print(report.summary())
    for error in report.errors[:20]:
        print("  error:", error)
    sys.exit(1 if report.errors else 0)


if __name__ == "__main__":
    main()

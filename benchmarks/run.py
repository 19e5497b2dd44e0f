"""Side-by-side benchmark against the peer ``yatzy-solver`` (pip install -e '.[bench]').

Each row is measured in new processes, ours then the peer's (``--rounds`` times, the best
kept; ``benchmarks/child.py`` does one), so each side's peak memory (RSS) is its own: the
time of the work (set-up, such as loading a table, not counted), the ratio ours / peer,
both peaks, and a check that both did the same work. The first row times a whole process
that solves Scandinavian Yatzy, start-up included. The machine is shared and noisy: ratios
are what to read, absolute seconds are indicative only.

``--coach-only`` sets the coach's kinds of query beside the peer's in one process, round by
round (so the load falls on both alike): one query, the typed position checked first, with
odds, and the batch calls. ``--distribution-only`` times the exact distributions ``--runs``
times each, with the planned peak.

Usage: python benchmarks/run.py [--games N] [--rounds N] [--only WORK] [--maxi]
       [--coach-only] [--distribution-only [--runs N]]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from child import notation, random_positions

from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.distribution import distribution
from yatzy.solver.solve import solve


def timed(fn):  # type: ignore[no-untyped-def]
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--maxi", action="store_true", help="also solve Maxi Yatzy (minutes, GBs)")
    ap.add_argument("--runs", type=int, default=3, help="times each distribution is computed")
    ap.add_argument("--distribution-only", action="store_true",
                    help="only the exact distributions (no peer needed)")
    ap.add_argument("--coach-only", action="store_true", help="only the coach queries against the peer")
    ap.add_argument("--coach-positions", type=int, default=300)
    ap.add_argument("--coach-reps", type=int, default=15, help="rounds of the coach queries (best kept)")
    ap.add_argument("--rounds", type=int, default=1, help="times each row is measured (best kept)")
    ap.add_argument("--only", action="append", metavar="WORK",
                    help="only this row (process-yatzy, solve-yatzy, simulate-yatzy, coach, maxi, ...)")
    args = ap.parse_args()
    if args.coach_only:
        import yatzy_solver as ys

        coach_queries(solve(get_ruleset("yatzy")), ys.Solver.build(ys.Variant("yatzy-scandinavian")), args)
        return
    if args.distribution_only:
        distributions(args.runs)
        return
    against_peer(args)


# (row, work for benchmarks/child.py, the peer has it too)
ROWS = [
    ("solve yatzy, whole process", "process-yatzy", True),
    ("solve yatzy", "solve-yatzy", True),
    ("solve yahtzee (forced joker)", "solve-yahtzee", True),
    ("{games} optimal games yatzy", "simulate-yatzy", True),
    ("{games} optimal games yahtzee", "simulate-yahtzee", True),
    ("coach query (µs a position)", "coach", True),
    ("coach query, every option read (µs)", "coach-read", True),
    ("batch query, arrays (µs a position)", "batch", True),
    ("exact distribution yatzy", "distribution-yatzy", False),
    ("exact distribution yahtzee", "distribution-yahtzee", False),
]
MAXI_ROW = ("maxi, bank cap 4", "maxi", False)


def child(work: str, side: str, args: argparse.Namespace) -> dict[str, Any]:
    """One measurement in a new process: its result, its peak RSS (bytes) and its whole wall time."""
    cmd = [sys.executable, str(Path(__file__).with_name("child.py")), work, side, "--games", str(args.games),
           "--positions", str(args.coach_positions), "--reps", str(args.coach_reps)]
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode})")
    result: dict[str, Any] = json.loads(out.splitlines()[-1])
    return {**result, "process": time.perf_counter() - t0, "peak": usage.ru_maxrss * 1024}


def against_peer(args: argparse.Namespace) -> None:
    """Every row, ours and the peer's by turns (``--rounds`` times, best kept), each in a new
    process so each side's peak memory is its own."""
    rows = [*ROWS, *([MAXI_ROW] if args.maxi else [])]
    if args.only:
        rows = [r for r in rows if r[1] in args.only]
    print(f"wall seconds (the first row: a whole process), the coach's CPU µs a position; "
          f"peak RSS; load {os.getloadavg()[0]:.1f}")
    print(f"{'measurement':34} {'ours':>9} {'peer':>9} {'ratio':>6} {'ours MB':>8} {'peer MB':>8}  check",
          flush=True)
    for name, work, has_peer in rows:
        best: dict[str, dict[str, Any]] = {}
        for _ in range(args.rounds):
            for side in ("ours", "peer") if has_peer else ("ours",):
                got = child(work, side, args)
                if side not in best or got["wall"] < best[side]["wall"]:
                    best[side] = {**got, "peak": max(got["peak"], best.get(side, got)["peak"])}
        # the whole process's wall time; one query's CPU time (the peer's is one thread too,
        # and CPU time is the steadier on a loaded machine); else the work's wall time
        key = {"process-yatzy": "process", "coach": "cpu", "coach-read": "cpu"}.get(work, "wall")
        ours, peer = best["ours"], best.get("peer")
        cells = (f"{peer[key]:9.2f} {ours[key] / peer[key]:6.2f} {ours['peak'] / 2 ** 20:8.0f} "
                 f"{peer['peak'] / 2 ** 20:8.0f}  {ours['note']} vs {peer['note']}" if peer else
                 f"{'':9} {'':6} {ours['peak'] / 2 ** 20:8.0f} {'':8}  {ours['note']}")
        print(f"{name.format(games=args.games):34} {ours[key]:9.2f} {cells}", flush=True)


def coach_queries(sol: Any, psol: Any, args: argparse.Namespace) -> None:
    """One coach query (every option ranked, no odds) over random Scandinavian positions, ours
    beside the peer's ``option_values`` (the results kept: ours a ``Ranking``, whose options are
    made as they are read, the peer's a list of pairs), and the same with every option's move
    and value read; the batch calls, ours ``rank_many`` (its arrays, and
    with every option made) beside the peer's ``option_values_batch``. Each measure is timed
    over all positions in turn, round by round, so the machine's load falls on both alike; the
    best round of each is kept."""
    coach, rs = Coach(sol), sol.spec.ruleset
    typed = random_positions(rs, args.coach_positions)
    notes = [notation(*t) for t in typed]
    positions = [coach.position(f, d, r, u) for f, d, r, u in typed]
    arrays = psol.variant.situation_arrays(notes)
    same = sum(_peer_value(psol.option_values(n), coach.best(p).action) > max(
        v for _, v in psol.option_values(n)) - 1e-3 for p, n in zip(positions, notes, strict=True))
    # a turn's three decisions one after another (roll, keep, box), as a played game has them
    rng = random.Random(1)
    turns = [(f, sorted(rng.randint(1, 6) for _ in range(rs.dice)), left, u)
             for f, _, _, u in typed[:len(typed) // 3] for left in (2, 1, 0)]
    turn_positions = [coach.position(f, d, r, u) for f, d, r, u in turns]
    turn_arrays = psol.variant.situation_arrays([notation(*t) for t in turns])
    # name: (what is timed, the peer's measure it is set beside)
    measures: dict[str, tuple[Callable[[], object], str]] = {
        "ours": (lambda: [coach.options(p, with_odds=False) for p in positions], "peer"),
        "ours, every option read": (lambda: [[o.action for o in coach.options(p, with_odds=False)
                                              if o.value > -1] for p in positions],
                                    "peer, every option read"),
        "ours, typed position checked": (
            lambda: [coach.options(coach.position(*t), with_odds=False) for t in typed], "peer"),
        "ours, with odds": (lambda: [coach.options(p) for p in positions], "peer"),
        "ours batch (arrays)": (lambda: coach.rank_many(positions), "peer batch"),
        "ours batch (options)": (lambda: list(coach.rank_many(positions)), "peer batch"),
        "ours batch, turns in order": (lambda: coach.rank_many(turn_positions), "peer batch, turns"),
        "peer": (lambda: [psol.option_values(n) for n in notes], ""),
        "peer, every option read": (
            lambda: [[a for a, v in psol.option_values(n) if v > -1] for n in notes], ""),
        "peer batch": (lambda: psol.option_values_batch(**arrays), ""),
        "peer batch, turns": (lambda: psol.option_values_batch(**turn_arrays), ""),
    }
    wall = dict.fromkeys(measures, float("inf"))
    cpu = dict.fromkeys(measures, float("inf"))
    for fn, _ in measures.values():
        fn()  # compile and warm
    for _ in range(args.coach_reps):
        for name, (fn, _) in measures.items():
            n = len(turns) if "turns" in name else len(positions)
            # the peer's batch runs on a pool of threads that spin a while after it returns, on
            # the core the next measure shares with them: each measure starts after a pause
            time.sleep(0.05)
            c0 = time.thread_time()
            _, t = timed(fn)
            wall[name] = min(wall[name], t / n * 1e6)
            cpu[name] = min(cpu[name], (time.thread_time() - c0) / n * 1e6)
    print(f"coach query over {len(positions)} Scandinavian positions (best of {args.coach_reps} "
          f"rounds, load {os.getloadavg()[0]:.1f}; our best option is a best one of the peer's in "
          f"{same}/{len(positions)}); µs a position, wall and this thread's CPU; ratio of the "
          f"wall times:")
    print(f"{'measurement':30} {'ours wall':>9} {'ours CPU':>9} {'peer wall':>9} {'peer CPU':>9} "
          f"{'ratio':>6}")
    for name, (_, peer) in measures.items():
        if peer:
            print(f"{name:30} {wall[name]:9.2f} {cpu[name]:9.2f} {wall[peer]:9.2f} {cpu[peer]:9.2f} "
                  f"{wall[name] / wall[peer]:6.2f}")
    print(f"{'with odds / without':30} {'':39} {wall['ours, with odds'] / wall['ours']:6.2f}", flush=True)


def _peer_value(options: list[tuple[str, float]], action: Any) -> float:
    """The peer's value of one of our actions (its notation: "keep 2 3", "keep -", "score ones")."""
    keep = getattr(action, "keep", None)
    name = f"keep {' '.join(map(str, keep)) or '-'}" if keep is not None else f"score {action.category}"
    return dict(options)[name]


def distributions(runs: int) -> None:
    """The exact final-score distribution of Yatzy and Yahtzee (tables cached), ``runs``
    times each: the peer has none (Delta Yatzy: Scandinavian in 3.0 s on 8 threads)."""
    distribution(solve(get_ruleset("kids")))  # warm the JIT caches
    for name in ("yatzy", "yahtzee"):
        sol = solve(get_ruleset(name))
        walls, cpus = [], []
        for _ in range(max(1, runs)):
            c0 = time.process_time()
            dist, t = timed(lambda s=sol: distribution(s))  # type: ignore[misc]
            walls.append(t)
            cpus.append(time.process_time() - c0)
        print(f"exact distribution {name}: wall {min(walls):.1f}-{max(walls):.1f} s, "
              f"CPU {min(cpus):.1f}-{max(cpus):.1f} s ({runs} runs, load "
              f"{os.getloadavg()[0]:.1f}), {dist.peak_bytes / 1024 ** 3:.2f} GB planned peak, "
              f"mean {dist.mean:.7f} (table {dist.table_value:.5f})", flush=True)

if __name__ == "__main__":
    main()

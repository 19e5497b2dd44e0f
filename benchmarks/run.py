"""Side-by-side benchmark against the peer ``yatzy-solver`` (pip install -e '.[bench]').

Prints each measurement for both projects and the ratio (ours / peer), then the exact
score distributions (ours alone: the peer has none), each computed ``--runs`` times: the
range of wall and CPU seconds, with the load average. The machine is shared and noisy:
ratios are what to read, absolute seconds are indicative only.
Usage: python benchmarks/run.py [--games N] [--maxi] [--runs N] [--distribution-only]
"""

from __future__ import annotations

import argparse
import os
import resource
import time

from yatzy.registry import get_ruleset
from yatzy.solver.distribution import distribution
from yatzy.solver.simulate import simulate_optimal
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
    args = ap.parse_args()
    if not args.distribution_only:
        against_peer(args)
    distributions(args.runs)
    if args.maxi:
        sol, t = timed(lambda: solve(get_ruleset("maxi", saved_rolls=False), use_cache=False))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
        print(f"maxi (no saved rolls): E {sol.expected_score:.4f}, {t:.1f} s, "
              f"peak RSS {peak:.2f} GB, {sol.states:,} states")


def against_peer(args: argparse.Namespace) -> None:
    """Solve and simulate Yatzy and Yahtzee, ours beside the peer's."""
    import yatzy_solver as ys

    # warm the JIT caches so compile time is not counted as solve time
    solve(get_ruleset("kids"), use_cache=False)
    rows = []
    for ours, peer in (("yatzy", "yatzy-scandinavian"), ("yahtzee", "american+forced-joker")):
        sol, t_ours = timed(lambda o=ours: solve(get_ruleset(o), use_cache=False))  # type: ignore[misc]
        psol, t_peer = timed(lambda p=peer: ys.Solver.build(ys.Variant(p)))  # type: ignore[misc]
        rows.append((f"solve {ours}", t_ours, t_peer,
                     f"E {sol.expected_score:.5f} vs {psol.state_value('upper 0 | filled -'):.5f}"))
        simulate_optimal(sol, 100, seed=0)
        res, t_ours = timed(lambda s=sol: simulate_optimal(s, args.games, seed=1))  # type: ignore[misc]
        pres, t_peer = timed(lambda p=psol: p.simulate(args.games, seed=1))  # type: ignore[misc]
        rows.append((f"{args.games} optimal games {ours}", t_ours, t_peer,
                     f"mean {res.mean:.2f} vs {pres['mean']:.2f}"))
    print(f"{'measurement':36} {'ours s':>9} {'peer s':>9} {'ratio':>7}  check")
    for name, a, b, note in rows:
        print(f"{name:36} {a:9.2f} {b:9.2f} {a / b:7.2f}  {note}")


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

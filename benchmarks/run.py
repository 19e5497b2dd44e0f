"""Side-by-side benchmark against the peer ``yatzy-solver`` (pip install -e '.[bench]').

Prints each measurement for both projects and the ratio (ours / peer), then the exact
score distribution (ours alone). The machine is
shared and noisy: ratios are what to read, absolute seconds are indicative only.
Usage: python benchmarks/run.py [--games N] [--maxi]
"""

from __future__ import annotations

import argparse
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
    args = ap.parse_args()
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
    # the exact final-score distribution: the peer has none (Delta Yatzy: 3.0 s on 8 threads)
    sol = solve(get_ruleset("yatzy"))
    distribution(solve(get_ruleset("kids")))  # warm the JIT caches
    dist, t = timed(lambda: distribution(sol))
    print(f"exact distribution yatzy: {t:.1f} s, {dist.peak_bytes / 1024 ** 3:.2f} GB planned peak, "
          f"mean {dist.mean:.7f} (table {dist.table_value:.5f})")
    if args.maxi:
        sol, t = timed(lambda: solve(get_ruleset("maxi", saved_rolls=False), use_cache=False))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 ** 2
        print(f"maxi (no saved rolls): E {sol.expected_score:.4f}, {t:.1f} s, "
              f"peak RSS {peak:.2f} GB, {sol.states:,} states")


if __name__ == "__main__":
    main()

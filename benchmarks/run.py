"""Side-by-side benchmark against the peer ``yatzy-solver`` (pip install -e '.[bench]').

Prints each measurement for both projects and the ratio (ours / peer), then the exact
score distributions (ours alone: the peer has none), each computed ``--runs`` times: the
range of wall and CPU seconds, with the load average. The machine is shared and noisy:
ratios are what to read, absolute seconds are indicative only.
The coach rows time one query (a position's options ranked, no odds) over random
Scandinavian positions, ours and the peer's by turns, the best of ``--coach-reps`` rounds each.
Usage: python benchmarks/run.py [--games N] [--maxi] [--runs N] [--distribution-only] [--coach-only]
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import time
from collections.abc import Callable
from typing import Any

from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
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
    ap.add_argument("--coach-only", action="store_true", help="only the coach queries against the peer")
    ap.add_argument("--coach-positions", type=int, default=300)
    ap.add_argument("--coach-reps", type=int, default=15, help="rounds of the coach queries (best kept)")
    args = ap.parse_args()
    if args.coach_only:
        import yatzy_solver as ys

        coach_queries(solve(get_ruleset("yatzy")), ys.Solver.build(ys.Variant("yatzy-scandinavian")), args)
        return
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
        if ours == "yatzy":
            coached = (sol, psol)
    print(f"{'measurement':36} {'ours s':>9} {'peer s':>9} {'ratio':>7}  check")
    for name, a, b, note in rows:
        print(f"{name:36} {a:9.2f} {b:9.2f} {a / b:7.2f}  {note}")
    coach_queries(*coached, args)


def coach_queries(sol: Any, psol: Any, args: argparse.Namespace) -> None:
    """One coach query (every option ranked, no odds) over random Scandinavian positions, ours
    beside the peer's ``option_values``; the batch calls, ours ``rank_many`` (its arrays, and
    with every option made) beside the peer's ``option_values_batch``. Each measure is timed
    over all positions in turn, round by round, so the machine's load falls on both alike; the
    best round of each is kept."""
    coach, rs = Coach(sol), sol.spec.ruleset
    ids, faces, rng = list(rs.category_ids), {c.id: c.face for c in rs.categories}, random.Random(0)
    typed = []
    for _ in range(args.coach_positions):
        filled = sorted(rng.sample(ids, rng.randrange(len(ids))), key=ids.index)
        upper = sum(rng.randrange(rs.dice + 1) * (faces[c] or 0) for c in filled)
        typed.append((filled, sorted(rng.randint(1, 6) for _ in range(rs.dice)), rng.randrange(3), upper))
    notes = [f"dice {' '.join(map(str, d))} | rolls {r} | upper {u} | filled {','.join(f) or '-'}"
             for f, d, r, u in typed]
    positions = [coach.position(f, d, r, u) for f, d, r, u in typed]
    arrays = psol.variant.situation_arrays(notes)
    same = sum(_peer_value(psol.option_values(n), coach.best(p).action) > max(
        v for _, v in psol.option_values(n)) - 1e-3 for p, n in zip(positions, notes, strict=True))
    # a turn's three decisions one after another (roll, keep, box), as a played game has them
    turns = [(f, sorted(rng.randint(1, 6) for _ in range(rs.dice)), left, u)
             for f, _, _, u in typed[:len(typed) // 3] for left in (2, 1, 0)]
    turn_positions = [coach.position(f, d, r, u) for f, d, r, u in turns]
    turn_arrays = psol.variant.situation_arrays(
        [f"dice {' '.join(map(str, d))} | rolls {r} | upper {u} | filled {','.join(f) or '-'}"
         for f, d, r, u in turns])
    # name: (what is timed, the peer's measure it is set beside)
    measures: dict[str, tuple[Callable[[], object], str]] = {
        "ours": (lambda: [coach.options(p, with_odds=False) for p in positions], "peer"),
        "ours, typed position checked": (
            lambda: [coach.options(coach.position(*t), with_odds=False) for t in typed], "peer"),
        "ours, with odds": (lambda: [coach.options(p) for p in positions], "peer"),
        "ours batch (arrays)": (lambda: coach.rank_many(positions), "peer batch"),
        "ours batch (options)": (lambda: list(coach.rank_many(positions)), "peer batch"),
        "ours batch, turns in order": (lambda: coach.rank_many(turn_positions), "peer batch, turns"),
        "peer": (lambda: [psol.option_values(n) for n in notes], ""),
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

"""One measurement of ``benchmarks/run.py``, in a process of its own so its peak memory is its own.

    python benchmarks/child.py WORK SIDE [--games N] [--positions N] [--reps N]

WORK is ``process-yatzy`` (a solve in a new process, its start-up included), ``solve-yatzy``,
``solve-yahtzee``, ``simulate-yatzy``, ``simulate-yahtzee``, ``coach``, ``coach-read`` (every
option's move and value read), ``batch``,
``distribution-yatzy``, ``distribution-yahtzee`` or ``maxi``; SIDE is ``ours`` or
``peer`` (the peer ``yatzy-solver``, for the work it has). What is set up first (a table
loaded, kernels compiled) is not timed; the work is, best of ``--reps`` for the quick ones.
Prints one JSON line: ``wall`` and ``cpu`` (this process's seconds for the work; µs a
position for the coach's) and ``note`` (a check that both sides did the same work).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

PEER_VARIANT = {"yatzy": "yatzy-scandinavian", "yahtzee": "american+forced-joker"}


def random_positions(rs: Any, n: int, seed: int = 0) -> list[tuple[list[str], list[int], int, int]]:
    """``n`` random positions (filled boxes, dice, rolls left, upper total the filled boxes can
    make), the same for both sides: every filled set, 0-2 rolls left."""
    ids, faces, rng = list(rs.category_ids), {c.id: c.face for c in rs.categories}, random.Random(seed)
    typed = []
    for _ in range(n):
        filled = sorted(rng.sample(ids, rng.randrange(len(ids))), key=ids.index)
        upper = sum(rng.randrange(rs.dice + 1) * (faces[c] or 0) for c in filled)
        typed.append((filled, sorted(rng.randint(1, 6) for _ in range(rs.dice)), rng.randrange(3), upper))
    return typed


def notation(filled: list[str], dice: list[int], rolls: int, upper: int) -> str:
    """A position in the peer's notation."""
    boxes = ",".join(filled) or "-"
    return f"dice {' '.join(map(str, dice))} | rolls {rolls} | upper {upper} | filled {boxes}"


def timed(work: Callable[[], Any], reps: int = 1) -> tuple[Any, float, float]:
    """The work's result and its best wall and CPU seconds over ``reps`` runs."""
    wall = cpu = float("inf")
    out = None
    for _ in range(reps):
        c0, t0 = time.process_time(), time.perf_counter()
        out = work()
        wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
    return out, wall, cpu


def ours(work: str, args: argparse.Namespace) -> dict[str, Any]:
    # each work imports what it uses only: a whole process's solve pays for no coach, no simulator
    from yatzy.registry import get_ruleset
    from yatzy.solver.solve import solve

    kind, _, rules = work.partition("-")
    if kind == "process":  # the whole process is timed, by run.py: nothing compiled first
        sol, wall, cpu = timed(lambda: solve(get_ruleset(rules), use_cache=False))
        return {"wall": wall, "cpu": cpu, "note": f"E {sol.expected_score:.5f}"}
    if kind == "solve":
        solve(get_ruleset("kids"), use_cache=False)  # the kernels compiled (or loaded), not timed
        sol, wall, cpu = timed(lambda: solve(get_ruleset(rules), use_cache=False))
        return {"wall": wall, "cpu": cpu, "note": f"E {sol.expected_score:.5f}"}
    if kind == "maxi":
        sol, wall, cpu = timed(lambda: solve(get_ruleset("maxi"), use_cache=False))
        return {"wall": wall, "cpu": cpu, "note": f"E {sol.expected_score:.4f}, {sol.states:,} states"}
    if kind == "simulate":
        from yatzy.solver.simulate import simulate_optimal

        sol = solve(get_ruleset(rules))
        simulate_optimal(sol, 100, seed=0)
        res, wall, cpu = timed(lambda: simulate_optimal(sol, args.games, seed=1))
        return {"wall": wall, "cpu": cpu, "note": f"mean {res.mean:.2f}"}
    if kind == "distribution":
        from yatzy.solver.distribution import distribution

        sol = solve(get_ruleset(rules))
        distribution(solve(get_ruleset("kids")))
        dist, wall, cpu = timed(lambda: distribution(sol))
        return {"wall": wall, "cpu": cpu, "note": f"mean {dist.mean:.6f}"}
    from yatzy.solver.coach import Coach

    sol = solve(get_ruleset("yatzy"))
    coach = Coach(sol)
    positions = [coach.position(*t) for t in random_positions(sol.spec.ruleset, args.positions)]
    # the batch as arrays, as the peer's batch hands them over (its options made on request);
    # coach-read reads every option's move and value, as a program that shows or weighs them does
    query = ((lambda: [coach.options(p, with_odds=False) for p in positions]) if work == "coach"
             else (lambda: [[o.action for o in coach.options(p, with_odds=False) if o.value > -1]
                            for p in positions]) if work == "coach-read"
             else (lambda: coach.rank_many(positions)))
    timed(query, 1)  # compiled and warm
    ranked, wall, cpu = timed(query, args.reps)
    n = len(positions)
    count = sum(map(len, ranked)) if kind == "coach" else int(ranked.count.sum())
    return {"wall": wall / n * 1e6, "cpu": cpu / n * 1e6, "note": f"{count} options"}


def peer(work: str, args: argparse.Namespace) -> dict[str, Any]:
    import yatzy_solver as ys

    kind, _, rules = work.partition("-")
    if kind == "process":
        psol, wall, cpu = timed(lambda: ys.Solver.build(ys.Variant(PEER_VARIANT[rules])))
        return {"wall": wall, "cpu": cpu, "note": f"E {psol.state_value('upper 0 | filled -'):.5f}"}
    if kind == "solve":
        ys.Solver.build(ys.Variant("yatzy-scandinavian"))  # as ours: a first solve not timed
        psol, wall, cpu = timed(lambda: ys.Solver.build(ys.Variant(PEER_VARIANT[rules])))
        return {"wall": wall, "cpu": cpu, "note": f"E {psol.state_value('upper 0 | filled -'):.5f}"}
    if kind == "simulate":
        psol = ys.Solver.build(ys.Variant(PEER_VARIANT[rules]))
        psol.simulate(100, seed=0)
        res, wall, cpu = timed(lambda: psol.simulate(args.games, seed=1))
        return {"wall": wall, "cpu": cpu, "note": f"mean {res['mean']:.2f}"}
    if kind not in ("coach", "batch"):
        raise SystemExit(f"the peer has no {work}")
    from yatzy.registry import get_ruleset

    psol = ys.Solver.build(ys.Variant("yatzy-scandinavian"))
    notes = [notation(*t) for t in random_positions(get_ruleset("yatzy"), args.positions)]
    if work == "coach":
        def query() -> Any:
            return [psol.option_values(n) for n in notes]
    elif work == "coach-read":
        def query() -> Any:
            return [[a for a, v in psol.option_values(n) if v > -1] for n in notes]
    else:
        arrays = psol.variant.situation_arrays(notes)

        def query() -> Any:
            return psol.option_values_batch(**arrays)
    timed(query, 1)
    ranked, wall, cpu = timed(query, args.reps)
    n = len(notes)
    count = sum(map(len, ranked)) if kind == "coach" else int(ranked[2].sum())
    return {"wall": wall / n * 1e6, "cpu": cpu / n * 1e6, "note": f"{count} options"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("work")
    ap.add_argument("side", choices=["ours", "peer"])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--reps", type=int, default=15)
    args = ap.parse_args()
    print(json.dumps((ours if args.side == "ours" else peer)(args.work, args)), flush=True)


if __name__ == "__main__":
    main()

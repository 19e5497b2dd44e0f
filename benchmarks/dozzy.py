"""DOZZY's bots measured: solo means, 3-player games against the DOZZY heuristic, time a move.

Solo: ``--games`` games of each bot (seeds 0..games-1, as ``yatzy simulate --rules dozzy
--seed 0`` plays them), mean ± standard error. Three players: ``--games`` games of the
planner against two ``dozzy`` heuristics, the planner's seat rotating (game g seats it at
g mod 3), each bot's mean ± SE, the planner's mean per seat, and its win rate with a Wilson
95 % interval (a shared win counts as a win; an equal bot wins a third). Time per move: the
planner's decisions timed over ``--timed`` solo games on one process (mean, 99th
percentile, worst). Run it with ``nice -n 10`` on a shared machine.
Usage: python benchmarks/dozzy.py [--games N] [--timed N] [--workers N]
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from yatzy.bots import Player, make_bot, simulate_bot
from yatzy.game import Game
from yatzy.registry import get_ruleset

PLANNER, HEURISTIC = "planner", "dozzy"
TRIO_SEED = 1_000_000
"""The 3-player games' seeds start here (game g has seed TRIO_SEED + g)."""


def mean_se(values: np.ndarray) -> str:
    return f"{values.mean():.1f} ± {values.std(ddof=1) / math.sqrt(len(values)):.1f}"


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def trio_chunk(games: range) -> list[tuple[int, list[int], bool]]:
    """(planner's seat, every seat's total, whether the planner won) per game."""
    rs = get_ruleset("dozzy")
    out = []
    for g in games:
        seat = g % 3
        levels = [PLANNER if i == seat else HEURISTIC for i in range(3)]
        bots: list[Player] = [make_bot(level, rs, seed=g) for level in levels]
        game = Game(rs, [f"{level} {i}" for i, level in enumerate(levels)], seed=TRIO_SEED + g)
        while not game.is_over:
            game.play(bots[game.state.current].act(game))
        out.append((seat, game.totals(), seat in game.winners()))
    return out


def trio(games: int, workers: int) -> None:
    size = max(1, min(50, games // (4 * workers)))
    chunks = [range(a, min(games, a + size)) for a in range(0, games, size)]
    with ProcessPoolExecutor(workers) as pool:
        rows = [row for part in pool.map(trio_chunk, chunks) for row in part]
    seats = np.array([r[0] for r in rows])
    totals = np.array([r[1] for r in rows])
    mine = totals[np.arange(len(rows)), seats]
    others = totals[np.arange(3)[None, :] != seats[:, None]]
    wins = sum(r[2] for r in rows)
    lo, hi = wilson(wins, len(rows))
    print(f"3 players, {len(rows)} games: {PLANNER} {mean_se(mine)}, {HEURISTIC} {mean_se(others)}")
    for s in range(3):
        print(f"  {PLANNER} in seat {s + 1}: {mean_se(mine[seats == s])} "
              f"({HEURISTIC} beside it {mean_se(totals[seats == s][:, np.arange(3) != s].ravel())})")
    print(f"  {PLANNER} wins {wins}/{len(rows)} = {wins / len(rows):.1%} "
          f"(95 % CI {lo:.1%}-{hi:.1%}; an equal bot: 33.3 %)")


def timed(games: int) -> None:
    rs = get_ruleset("dozzy")
    bot = make_bot(PLANNER, rs)
    took: list[float] = []
    for g in range(games):
        game = Game(rs, ["timed"], seed=2_000_000 + g)
        while not game.is_over:
            t0 = time.perf_counter()
            action = bot.act(game)
            took.append(time.perf_counter() - t0)
            game.play(action)
    ms = np.array(took) * 1000
    print(f"time per move ({PLANNER}, {len(ms)} moves of {games} games, one process): mean "
          f"{ms.mean():.1f} ms, 99th percentile {np.percentile(ms, 99):.1f} ms, worst {ms.max():.1f} ms "
          f"(the first ones build the tables)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--timed", type=int, default=50, help="solo games whose moves are timed")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    t0 = time.monotonic()
    timed(args.timed)
    for bot in (PLANNER, HEURISTIC, "greedy"):
        s = simulate_bot("dozzy", {}, bot, args.games, seed=0, workers=args.workers).scores
        print(f"solo {bot}, {len(s)} games: {mean_se(s.astype(float))}")
    trio(args.games, args.workers)
    print(f"({time.monotonic() - t0:.0f} s in all)")


if __name__ == "__main__":
    main()

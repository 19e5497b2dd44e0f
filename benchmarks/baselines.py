"""The baseline table of docs/research.md: per ruleset, the mean of a uniformly random masked
agent in ``yatzy/Yatzy-v0``, of each bot level, and the exact optimum.

Solver levels and the optimum are measured only where the table is in the cache or
``--solve`` names the ruleset (Maxi and Osto take minutes and gigabytes; leave them out).
Usage: python benchmarks/baselines.py [--games N] [--solve kids,forced,yahtzee]
"""

from __future__ import annotations

import argparse
import math

import gymnasium
import numpy as np

import yatzy.envs
from yatzy.bots import BOT_SPECS, simulate_bot
from yatzy.envs.labels import cached
from yatzy.registry import RULESETS, get_ruleset
from yatzy.solver.solve import solve


def random_agent(rules: str, games: int) -> tuple[float, float]:
    """Mean and standard error of a uniformly random legal action at every step."""
    env = gymnasium.make(yatzy.envs.ENV_ID, rules=rules, labels="none").unwrapped
    rng = np.random.default_rng(0)
    totals = []
    for seed in range(games):
        _, info = env.reset(seed=seed)
        done = False
        while not done:
            _, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        totals.append(env.game.total(0))
    return float(np.mean(totals)), float(np.std(totals, ddof=1) / math.sqrt(games))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--solve", default="", help="rulesets whose tables may be built, comma-separated")
    args = ap.parse_args()
    may_solve = set(filter(None, args.solve.split(",")))
    levels = [b.name for b in BOT_SPECS if b.name != "beginner"]
    print("| ruleset | random masked agent | " + " | ".join(levels) + " | exact optimum |")
    print("|---" * (len(levels) + 3) + "|")
    for rules in RULESETS:
        rs = get_ruleset(rules)
        table = solve(rs) if rules in may_solve else cached(rs)
        cells = ["{:.1f} ± {:.1f}".format(*random_agent(rules, args.games))]
        for level in levels:
            spec = next(b for b in BOT_SPECS if b.name == level)
            if (spec.needs == "board") != rs.uses_board and spec.needs != "nothing":
                cells.append("–")
            elif spec.needs == "solver" and table is None:
                cells.append("not measured")
            else:
                s = simulate_bot(rules, {}, level, args.games, workers=1)
                cells.append(f"{s.mean:.1f} ± {s.std_error:.1f}")
        cells.append("–" if rs.uses_board else "not measured" if table is None
                     else f"{table.expected_score:.2f}")
        print(f"| {rules} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()

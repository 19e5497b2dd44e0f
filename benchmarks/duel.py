"""The win bot against the optimal bot (or any bots): blocks of seeded duels, each block's
figures and the running total with its 95 % Wilson interval, one JSON line per block.

    nice -n 10 .venv/bin/python benchmarks/duel.py --rules yatzy --bots win,optimal \\
        --games 1000 --blocks 10 --seed 1 --out duel-yatzy.jsonl

Block b plays ``yatzy duel --seed <seed + b> --games <games>``'s games exactly, so any block
is reproduced by that command. Stop it at any time: every finished block is on its line.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from yatzy.duel import BotRecord, duel
from yatzy.registry import get_ruleset


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default="yatzy")
    ap.add_argument("--bots", default="win,optimal")
    ap.add_argument("--games", type=int, default=1000, help="games per block")
    ap.add_argument("--blocks", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1, help="the first block's seed")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--out", type=Path, default=None, help="also append the lines to this file")
    args = ap.parse_args()
    rs = get_ruleset(args.rules)
    bots = args.bots.split(",")
    wins, draws, games, seconds = [0] * len(bots), [0] * len(bots), 0, 0.0
    for b in range(args.blocks):
        t0 = time.perf_counter()
        result = duel(rs, bots, args.games, args.seed + b, args.workers)
        block_seconds = time.perf_counter() - t0
        seconds += block_seconds
        games += result.games
        for i, r in enumerate(result.records):
            wins[i] += r.wins
            draws[i] += r.draws
        total = [BotRecord(name, wins[i], draws[i], games).to_dict() for i, name in enumerate(bots)]
        line = json.dumps({"rules": rs.name, "seed": args.seed + b, "block": result.to_dict(),
                           "seconds": round(block_seconds, 1), "total": {"games": games, "bots": total},
                           "total_seconds": round(seconds, 1)})
        print(line, flush=True)
        if args.out is not None:
            with args.out.open("a") as fh:
                fh.write(line + "\n")


if __name__ == "__main__":
    main()

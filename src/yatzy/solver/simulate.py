"""Many games of optimal play at once, in a parallel Numba kernel; their summary."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from . import playout
from .packed import upper_points
from .solve import Solution


@dataclass(frozen=True)
class Summary:
    scores: np.ndarray

    @property
    def mean(self) -> float:
        return float(self.scores.mean())

    @property
    def std(self) -> float:
        return float(self.scores.std(ddof=1)) if len(self.scores) > 1 else 0.0

    @property
    def std_error(self) -> float:
        return self.std / max(1, len(self.scores)) ** 0.5

    def percentiles(self) -> dict[str, float]:
        qs = (1, 5, 10, 25, 50, 75, 90, 95, 99)
        return {f"p{q}": float(v) for q, v in zip(qs, np.percentile(self.scores, qs), strict=True)}

    def to_dict(self) -> dict[str, object]:
        return {"games": int(len(self.scores)), "mean": self.mean, "std": self.std,
                "std_error": self.std_error, "min": int(self.scores.min()),
                "max": int(self.scores.max()), "percentiles": self.percentiles()}


CHUNK = 250_000
"""Games per kernel call (14 MB of their states): the more games play in step, the more share a
turn's table; progress is heard after each turn of each call."""


def simulate_optimal(solution: Solution, games: int, seed: int = 0,
                     progress: Callable[[int, int], None] | None = None) -> Summary:
    """Final scores of ``games`` solo games of optimal play (both cores); ``progress`` hears
    (games played, games) after every turn, a turn of a call's games counting as its share of
    them. The same seed plays the same games, however they are split into calls of
    :data:`CHUNK`."""
    spec = solution.spec
    values = playout.read_only(solution.values)
    up_pts, up_idx = upper_points(spec)
    scores = np.empty(games, dtype=np.int64)
    for first in range(0, games, CHUNK):
        count = min(CHUNK, games - first)

        def turn_done(turn: int, first: int = first, count: int = count) -> None:
            if progress is not None:
                progress(first + count * turn // spec.n_cat, games)

        scores[first:first + count] = playout.simulate(
            count, first, seed, values, *spec.kernel_args, spec.bonus[2], *spec.sub_lists[2:],
            up_pts, up_idx, turn_done=turn_done)
    return Summary(scores)

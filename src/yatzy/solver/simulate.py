"""Many games at once: the optimal policy in a parallel Numba kernel, other bots on both cores."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..errors import InvalidActionError
from . import playout
from .solve import Solution

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""File types a plot is saved as, told apart by the file's suffix."""


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


def simulate_optimal(solution: Solution, games: int, seed: int = 0) -> Summary:
    """Final scores of ``games`` solo games of optimal play (both cores)."""
    spec = solution.spec
    out = playout.simulate(games, seed, np.ascontiguousarray(solution.values), *spec.kernel_args,
                           spec.bonus[2], *spec.sub_lists[2:])
    return Summary(out)


def _play_chunk(args: tuple[str, dict[str, object], str, int, int, int]) -> list[int]:
    from ..bots import make_bot, play_solo
    from ..registry import get_ruleset

    rules, options, bot, seed, first, count = args
    ruleset = get_ruleset(rules, **options)
    player = make_bot(bot, ruleset, seed=seed * 7919 + first)
    return [play_solo(ruleset, player, seed * 1_000_003 + first + i) for i in range(count)]


def simulate_bot(rules: str, options: dict[str, object], bot: str, games: int,
                 seed: int = 0, workers: int | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Summary:
    """Final scores of solo games of any bot, through the game API, on every core.

    Results depend on (seed, games) only, not on the number of workers; ``progress``
    hears (games done, games) as chunks finish.
    """
    workers = workers or min(2, os.cpu_count() or 1)
    size = max(1, min(500, games // 40))
    chunks = [(rules, options, bot, seed, first, min(size, games - first))
              for first in range(0, games, size)]
    scores: list[int] = []
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        parts = pool.map(_play_chunk, chunks) if pool is not None else map(_play_chunk, chunks)
        for part in parts:
            scores.extend(part)
            if progress is not None:
                progress(len(scores), games)
    return Summary(np.array(scores, dtype=np.int64))


def check_plot_path(path: str | os.PathLike[str]) -> None:
    """Refuse a plot path that cannot be written, before any work: InvalidActionError says why.

    The suffix picks the format (.png, .svg or .pdf); the folder must exist and be writable.
    """
    p = Path(path)
    if p.is_dir():
        raise InvalidActionError(f"{p} is a folder; give a file name for the plot, e.g. {p / 'plot.png'}")
    if p.suffix.lower() not in PLOT_FORMATS:
        kind = f"not {p.suffix}" if p.suffix else f"and {p.name} has none"
        raise InvalidActionError(
            f"a plot is saved as {', '.join(PLOT_FORMATS[:-1])} or {PLOT_FORMATS[-1]} "
            f"(the suffix picks the format), {kind}")
    folder = p.parent
    if not folder.is_dir():
        raise InvalidActionError(f"cannot save the plot to {p}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InvalidActionError(f"cannot save the plot to {p}: no permission to write there")


def plot_histogram(summary: Summary, path: str, title: str) -> None:
    """Save a histogram of final scores with the mean marked."""
    check_plot_path(path)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo, hi = int(summary.scores.min()), int(summary.scores.max())
    ax.hist(summary.scores, bins=range(lo, hi + 6, 5), color="#3a7bd5", edgecolor="white")
    ax.axvline(summary.mean, color="#d9534f", linewidth=2, label=f"mean {summary.mean:.1f}")
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

"""Figures: the score histogram of a simulation and the bank-cap convergence of an exact value.

matplotlib is the optional extra ``plot`` (``pip install 'yatzy[plot]'``); nothing imports it
until a figure is drawn, so ``import yatzy`` and ``yatzy --help`` stay light.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import InvalidActionError
from .solver.convergence import CapPoint
from .solver.simulate import Summary

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""File types a plot is saved as, told apart by the file's suffix."""


def _pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a clear error when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        raise InvalidActionError(
            "plots need matplotlib, which is not installed; install it with: pip install 'yatzy[plot]'"
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


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
    plt = _pyplot()

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


def plot_convergence(points: list[CapPoint], path: str, title: str) -> None:
    """Save a plot of the start value against the bank cap."""
    check_plot_path(path)
    plt = _pyplot()
    from matplotlib.ticker import MaxNLocator

    fig, ax = plt.subplots(figsize=(8, 4.5))
    xs = [p.bank_cap for p in points]
    ys = [p.expected_score for p in points]
    ax.plot(xs, ys, marker="o", color="#3a7bd5")
    ax.axhline(ys[-1], color="#999999", linestyle="--", linewidth=1,
               label=f"cap {xs[-1]}: {ys[-1]:.4f}")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("bank cap (saved rolls the solver tracks)")
    ax.set_ylabel("expected score, optimal play")
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

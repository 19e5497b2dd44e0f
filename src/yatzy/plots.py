"""Figures: the score histogram of a simulation, the exact score distribution and the
bank-cap convergence of an exact value.

matplotlib is the optional extra ``plot`` (``pip install 'yatzy[plot]'``); nothing imports it
until a figure is drawn, so ``import yatzy`` and ``yatzy --help`` stay light.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import InvalidActionError
from .i18n import _, number
from .solver.convergence import CapPoint
from .solver.distribution import Distribution
from .solver.simulate import Summary

PLOT_FORMATS = (".png", ".svg", ".pdf")
"""File types a plot is saved as, told apart by the file's suffix."""


def _pyplot() -> Any:
    """matplotlib's pyplot on a file-only backend, or a clear error when it is not installed."""
    try:
        import matplotlib
    except ImportError:
        raise InvalidActionError(
            _("plots need matplotlib, which is not installed; install it with: {command}").format(
                command="pip install 'yatzy[plot]'")
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
        raise InvalidActionError(
            _("{path} is a folder; give a file name for the plot, e.g. {example}").format(
                path=p, example=p / "plot.png"))
    if p.suffix.lower() not in PLOT_FORMATS:
        formats = ", ".join(PLOT_FORMATS[:-1]) + _(" or ") + PLOT_FORMATS[-1]
        if p.suffix:
            why = _("a plot is saved as {formats} (the suffix picks the format), not {suffix}")
        else:
            why = _("a plot is saved as {formats} (the suffix picks the format), and {name} has none")
        raise InvalidActionError(why.format(formats=formats, suffix=p.suffix, name=p.name))
    folder = p.parent
    if not folder.is_dir():
        raise InvalidActionError(_("cannot save the plot to {path}: there is no folder {folder}").format(
            path=p, folder=folder))
    if not os.access(folder, os.W_OK | os.X_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise InvalidActionError(
            _("cannot save the plot to {path}: no permission to write there").format(path=p))


def plot_histogram(summary: Summary, path: str, title: str) -> None:
    """Save a histogram of final scores with the mean marked."""
    check_plot_path(path)
    plt = _pyplot()

    fig, ax = plt.subplots(figsize=(8, 4.5))
    lo, hi = int(summary.scores.min()), int(summary.scores.max())
    ax.hist(summary.scores, bins=range(lo, hi + 6, 5), color="#3a7bd5", edgecolor="white")
    ax.axvline(summary.mean, color="#d9534f", linewidth=2,
               label=_("mean {mean}").format(mean=number(summary.mean, 1)))
    ax.set_xlabel(_("final score"))
    ax.set_ylabel(_("number of games"))
    ax.set_title(title)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_distribution(dist: Distribution, path: str, title: str) -> None:
    """Save the exact chance of each final score, with the mean marked."""
    check_plot_path(path)
    plt = _pyplot()

    fig, ax = plt.subplots(figsize=(8, 4.5))
    scores = [s for s, p in enumerate(dist.pmf) if p > 0]
    ax.bar(scores, [dist.pmf[s] for s in scores], width=1.0, color="#3a7bd5")
    ax.axvline(dist.mean, color="#d9534f", linewidth=2,
               label=_("mean {mean}").format(mean=number(dist.mean, 1)))
    ax.set_xlim(dist.percentile(0.01) - 5, dist.percentile(99.99) + 5)
    ax.set_xlabel(_("final score"))
    ax.set_ylabel(_("chance"))
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
               label=_("cap {cap}: {value}").format(cap=xs[-1], value=number(ys[-1], 4)))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(_("bank cap (saved rolls the solver tracks)"))
    ax.set_ylabel(_("expected score, optimal play"))
    ax.set_title(title)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)

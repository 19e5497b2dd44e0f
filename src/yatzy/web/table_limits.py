"""What a server may spend on solver tables it was not told to prepare (:mod:`yatzy.web.budget`
spends it); apart so that ``yatzy serve``'s options show the defaults without loading the
server."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BudgetLimits"]


@dataclass(frozen=True)
class BudgetLimits:
    """What a server may spend on tables it was not told to prepare (the defaults fit a
    2-core machine with a few GB of memory: every Yatzy, Yahtzee and Kids variant, no Maxi)."""

    disk_mb: float = 256.0
    """MB of new tables written to the cache since the server started."""
    memory_mb: float = 512.0
    """MB of such tables held in memory at once (those no room uses are let go first)."""
    at_once: int = 1
    """Builds running together, prepared ones included (each takes a core)."""
    per_hour: int = 10
    """New builds let in within any hour."""

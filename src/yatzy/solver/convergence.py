"""How the exact value of a saved-roll game (Maxi, Osto) converges as the solver's bank cap grows.

The game itself has no cap on saved rolls; the solver needs one. Solving at growing caps
and watching the start value settle shows which cap is enough.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from ..errors import InvalidActionError
from ..i18n import _
from ..rules import Ruleset
from .solve import Progress, solve


@dataclass(frozen=True)
class CapPoint:
    bank_cap: int
    expected_score: float
    states: int
    seconds: float

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def parse_caps(text: str) -> list[int]:
    """"0-4,8,16" -> [0, 1, 2, 3, 4, 8, 16] (sorted, no repeats)."""
    caps: set[int] = set()
    for part in (p.strip() for p in text.split(",") if p.strip()):
        lo_text, dash, hi_text = part.partition("-")
        try:
            lo, hi = int(lo_text), int(hi_text if dash else lo_text)
        except ValueError:
            raise InvalidActionError(
                _("bank caps are whole numbers 0 or more and ranges, like 0-4,8,16; not “{text}”").format(
                    text=text)
            ) from None
        if min(lo, hi) < 0:
            raise InvalidActionError(
                _("bank caps are 0 or more, like 0-4,8,16; not “{part}”").format(part=part))
        if hi < lo:
            raise InvalidActionError(_("the bank cap range {range} is reversed; write {low}-{high}").format(
                range=part, low=hi, high=lo))
        caps.update(range(lo, hi + 1))
    if not caps:
        raise InvalidActionError(_("give the bank caps to solve at, like 0-4,8,16"))
    return sorted(caps)


def converge(ruleset: Ruleset, caps: list[int],
             progress: Callable[[int, CapPoint], None] | None = None,
             card_progress: Progress | None = None) -> list[CapPoint]:
    """Solve afresh at each bank cap (tables are not kept) and return the start values.

    ``progress`` hears of each cap done; ``card_progress`` follows each solve, card by card.
    """
    if not ruleset.saved_rolls:
        raise InvalidActionError(_("{rules} has no saved rolls; try maxi or osto").format(rules=ruleset.name))
    points = []
    for i, cap in enumerate(caps):
        t0 = time.perf_counter()
        sol = solve(ruleset, bank_cap=cap, use_cache=False, progress=card_progress)
        points.append(CapPoint(cap, sol.expected_score, sol.states, time.perf_counter() - t0))
        del sol
        if progress is not None:
            progress(i + 1, points[-1])
    return points

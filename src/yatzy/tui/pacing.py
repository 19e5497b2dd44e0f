"""When the bots move on the play screen: one move per pace, so a person can follow them.

The pace is changed with + and −, skipped with s; a caller's pace of 0 (tests) moves them at
once. After a person's move that can still be taken back, the bot's first move waits at least
:data:`UNDO_WINDOW`, at any pace: u works the moment a person wants it, not only at a slow pace.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer
from textual.widget import Widget

from .dice import TUMBLE

PACES = (0.15, 0.3, 0.6, 1.0, 1.6, 2.5)
"""Seconds between two bot moves, fastest first."""
DEFAULT_PACE = 3
UNDO_WINDOW = 1.5
"""Seconds a bot waits before it moves after a person's move that u may take back."""


class Pacer:
    """The bots' clock: ``move`` is called when a bot's move is due (``wait``)."""

    def __init__(self, owner: Widget, pace: float | None, move: Callable[[], None]) -> None:
        self.owner = owner
        self.move = move
        self.index = DEFAULT_PACE
        self.fixed = pace
        """A pace set by the caller (0: bots move at once, as tests want)."""
        self.skipping = False
        """s was pressed: the bots play on at once until a person must move."""
        self.timer: Timer | None = None

    @property
    def pace(self) -> float:
        return self.fixed if self.fixed is not None else PACES[self.index]

    @property
    def at_once(self) -> bool:
        return self.pace <= 0 or self.skipping

    @property
    def waiting(self) -> bool:
        """A bot's move is due later."""
        return self.timer is not None

    def change(self, by: int) -> None:
        """A step slower (+1) or faster (-1); a caller's pace gives way to the steps."""
        self.index = max(0, min(len(PACES) - 1, self.index + by))
        self.fixed = None

    def wait(self, undoable: bool) -> None:
        """The next bot move after the pace; after ``UNDO_WINDOW`` at least when the last move
        is a person's that u may take back."""
        if self.timer is None:
            delay = max(self.pace, UNDO_WINDOW) if undoable else self.pace
            self.timer = self.owner.set_timer(delay, self._due)

    def tumble(self, bot: bool) -> float:
        """How long a roll's dice tumble: a person's for a moment, a bot's within its pace (none
        when its moves come at once)."""
        return (0 if self.at_once else min(TUMBLE, self.pace)) if bot else TUMBLE

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None

    def _due(self) -> None:
        self.timer = None
        self.move()

"""A ruleset's table for everyone in the process who waits for it, with the time left.

One build of a table runs at a time in a process: a second caller (the bots' preparation, the
coach panel, the warning before a costly move) joins the build under way and hears its
progress from then on, instead of waiting silently behind a lock or building it again. Each
report carries an estimate of the time left, from the rate measured so far. A caller leaves by
raising :class:`Stopped` from its progress callback; the build stops at its next layer once
nobody waits for it.

(This lives apart from ``solve.py`` on purpose: that module's source is part of every stored
table's key, so changing it would make every player build their tables again.)
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..rules import Ruleset
from .solve import Solution, solve

Clock = Callable[[], float]
"""Seconds from any fixed point (``time.monotonic``; a test gives its own)."""


@dataclass(frozen=True)
class TableProgress:
    """How far a build has come: ``done`` of ``total`` cards, and the seconds left (None until
    a rate has been measured)."""

    done: int
    total: int
    seconds_left: float | None = None


Listener = Callable[[TableProgress], None]


class Stopped(Exception):
    """Raised by a caller's progress callback when it no longer waits for the table."""


class Estimate:
    """The time left of a build from the rate measured since its first report: the first
    layer's time (Numba compiling, the arrays being set up) says nothing of the rest."""

    MEASURED = 1.0
    """Seconds of measuring before the first estimate (a rate over less is noise)."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self.start: tuple[float, int] | None = None

    def update(self, done: int, total: int) -> float | None:
        """The seconds left after ``done`` of ``total``; None while no rate is measured yet."""
        now = self.clock()
        if self.start is None:
            self.start = (now, done)
            return None
        t0, d0 = self.start
        if done <= d0 or now - t0 < self.MEASURED:
            return None
        return (total - done) * (now - t0) / (done - d0)


class _Build:
    """One build under way: who listens, the last report, and how it ended."""

    def __init__(self, clock: Clock) -> None:
        self.listeners: list[Listener] = []
        self.last: TableProgress | None = None
        self.estimate = Estimate(clock)
        self.finished = threading.Event()
        self.result: Solution | None = None
        self.error: BaseException | None = None

    def tell(self, listener: Listener, report: TableProgress) -> None:
        try:
            listener(report)
        except Stopped:
            with _lock:
                if listener in self.listeners:
                    self.listeners.remove(listener)

    def report(self, done: int, total: int) -> None:
        """The solver's progress, told to every listener; stops the build when none is left."""
        report = TableProgress(done, total, self.estimate.update(done, total))
        with _lock:
            self.last = report
            listeners = list(self.listeners)
        for listener in listeners:
            self.tell(listener, report)
        with _lock:
            if not self.listeners:
                raise Stopped


_builds: dict[tuple[str, tuple[tuple[str, object], ...]], _Build] = {}
_lock = threading.Lock()


def _quiet(report: TableProgress) -> None:
    """A caller that waits without showing progress (it never leaves)."""


def table(ruleset: Ruleset, progress: Listener | None = None, *, clock: Clock = time.monotonic) -> Solution:
    """The solved table of ``ruleset`` (loaded if stored, else built once and stored), joining a
    build of it already under way in this process.

    :raises Stopped: ``progress`` raised it (the caller left), or everybody left the build.
    """
    key = (ruleset.name, tuple(ruleset.options))
    listener = progress or _quiet
    with _lock:
        build = _builds.get(key)
        owner = build is None
        if build is None:
            build = _builds[key] = _Build(clock)
        build.listeners.append(listener)
        last = build.last
    if owner:
        try:
            build.result = solve(ruleset, progress=build.report)
        except BaseException as e:
            build.error = e
            raise
        finally:
            with _lock:
                del _builds[key]
            build.finished.set()
        return build.result
    if last is not None:
        build.tell(listener, last)
    while not build.finished.wait(0.1):
        with _lock:
            if listener not in build.listeners:
                raise Stopped
    if build.error is not None:
        raise build.error
    assert build.result is not None
    return build.result


def building(ruleset: Ruleset) -> TableProgress | None:
    """How far the build of ``ruleset``'s table has come, if one is under way (else None)."""
    with _lock:
        build = _builds.get((ruleset.name, tuple(ruleset.options)))
        return None if build is None else build.last or TableProgress(0, 0)

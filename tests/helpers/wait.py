"""How a test waits (no tests here): until a condition holds, on a deadline, never for a count
of tries or a fixed sleep (a loaded machine takes longer per try). Return as soon as the
condition holds; fail once the deadline has passed, saying what never happened."""

from __future__ import annotations

import time
from collections.abc import Callable

DEADLINE = 60.0
"""Seconds a test waits for what must happen before it fails: generous for a loaded two-core
machine running several suites at once; a passing test never waits it out."""


def wait_for(check: Callable[[], object], seconds: float = DEADLINE, what: str = "waited in vain") -> None:
    """Wait until ``check()`` is true, looking every 50 ms (fail after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)

"""A table build that never builds (no tests here): the solver replaced by a stand-in that
reports what it is told and waits, so a test sees a Maxi game while its table "is being built"
without solving anything. Released at the end, it raises Stopped, and nothing is stored."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

import pytest

from helpers.wait import DEADLINE, wait_for
from yatzy.solver import solve as solve_module
from yatzy.solver import tables


class BlockedBuild:
    """The stand-in: ``calls`` counts builds started; ``step(done, total)`` makes it report."""

    def __init__(self) -> None:
        self.calls = 0
        self.released = threading.Event()
        self.steps: list[tuple[int, int]] = []
        self.stepped = threading.Condition()

    def step(self, done: int, total: int) -> None:
        with self.stepped:
            self.steps.append((done, total))
            self.stepped.notify_all()

    def news(self, told: int) -> bool:
        """A step not reported yet, or the release."""
        return len(self.steps) > told or self.released.is_set()

    def solve(self, ruleset: Any, *, progress: Callable[[int, int], None] | None = None) -> Any:
        self.calls += 1
        told = 0
        while not self.released.is_set():
            with self.stepped:
                self.stepped.wait_for(partial(self.news, told), DEADLINE)
                pending = self.steps[told:]
            for done, total in pending:
                told += 1
                if progress is not None:
                    progress(done, total)  # raises Stopped once nobody waits
        raise tables.Stopped


@contextmanager
def blocked_build(monkeypatch: pytest.MonkeyPatch) -> Iterator[BlockedBuild]:
    build = BlockedBuild()
    monkeypatch.setattr(tables, "solve", build.solve)
    try:
        yield build
    finally:
        build.released.set()
        with build.stepped:
            build.stepped.notify_all()
        wait_for(lambda: not tables._builds, what="the stand-in build to end")


@contextmanager
def held_build(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Every table build of this process (the shared build, and any direct ``solve``) reports a
    quarter done and waits until the test sets the event; then it builds as usual."""
    release = threading.Event()
    real = solve_module.solve

    def held(ruleset: Any, *, progress: Callable[[int, int], None] | None = None, **kwargs: Any) -> Any:
        if progress is not None:
            progress(1, 4)
        release.wait()
        return real(ruleset, progress=progress, **kwargs)

    monkeypatch.setattr(solve_module, "solve", held)
    monkeypatch.setattr(tables, "solve", held)  # the one build of each table
    try:
        yield release
    finally:
        release.set()

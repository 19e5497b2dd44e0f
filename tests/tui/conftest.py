"""Every terminal test runs with its own folders for settings and games (test_history's
fixture of the same name also shows times in UTC), and without the dice's tumble."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings and the unfinished game go to the test's own folders, never the user's."""
    monkeypatch.setenv("YATZY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def no_tumble(monkeypatch: pytest.MonkeyPatch) -> None:
    """The dice show their faces at once unless a test asks for their tumble (a roll's pips
    would change under a screenshot)."""
    monkeypatch.setattr("yatzy.tui.pacing.TUMBLE", 0)

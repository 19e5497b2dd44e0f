"""Every terminal test runs with its own folders for settings and games (test_history's
fixture of the same name also shows times in UTC), and without animations."""

from __future__ import annotations

from pathlib import Path

import pytest
import textual.constants


@pytest.fixture(autouse=True)
def private_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Settings and the unfinished game go to the test's own folders, never the user's."""
    monkeypatch.setenv("YATZY_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    """No dice tumble nor other animation unless a test asks (``app.animation_level = "full"``):
    as ``TEXTUAL_ANIMATIONS=none`` does for a player who wants none."""
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")

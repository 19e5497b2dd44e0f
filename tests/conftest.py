"""What every test shares: private folders for value tables, kept games and settings; and the
fast tier, which leaves out the tests marked ``slow`` (``./run-tests --fast``), the browser
tests of tests/e2e among them as a folder."""

import os
import tempfile
from pathlib import Path

import pytest

# Value tables go to a private cache so tests never touch the user's.
os.environ.setdefault("YATZY_CACHE_DIR", tempfile.mkdtemp(prefix="yatzy-test-cache-"))
# Games kept in the history and remembered settings go to private folders too.
os.environ.setdefault("YATZY_DATA_DIR", tempfile.mkdtemp(prefix="yatzy-test-data-"))
os.environ.setdefault("YATZY_CONFIG_DIR", tempfile.mkdtemp(prefix="yatzy-test-config-"))

BROWSER_TESTS = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is slow: Chromium against a real server."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.slow)

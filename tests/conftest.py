"""What every test shares: private folders for value tables, kept games and settings; and the
fast tier, which leaves out the tests marked ``slow`` (``./run-tests --fast``), the browser
tests of tests/e2e among them as a folder."""

import os
import tempfile
from pathlib import Path

import pytest

# Value tables go to a private cache so tests never touch the user's (one for the whole run:
# the cache is made for several processes, so the workers of ./run-tests share it).
os.environ.setdefault("YATZY_CACHE_DIR", tempfile.mkdtemp(prefix="yatzy-test-cache-"))
# Games kept in the history and remembered settings go to private folders too: each worker's
# own (PYTEST_XDIST_WORKER), since a test counts the games it finds and reads what it remembered.
for name, prefix in (("YATZY_DATA_DIR", "yatzy-test-data-"), ("YATZY_CONFIG_DIR", "yatzy-test-config-")):
    if os.environ.get("PYTEST_XDIST_WORKER") or name not in os.environ:
        os.environ[name] = tempfile.mkdtemp(prefix=prefix)

# A pytest-xdist worker starts with COLUMNS=80 (and LINES) in its environment: a Rich console
# made then keeps that width for good, and a command's output no longer follows the COLUMNS a
# test gives it. Without them, as in one process, the console reads COLUMNS when it prints.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

BROWSER_TESTS = Path(__file__).parent / "e2e"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is slow: Chromium against a real server."""
    for item in items:
        if BROWSER_TESTS in item.path.parents:
            item.add_marker(pytest.mark.slow)

"""The browser tests' server (uvicorn on 127.0.0.1 in a thread, a temporary SQLite database, one
per test module), the browser (Debian's Chromium, one per module) and its pages (a context of
their own each). Without Chromium or Playwright the folder is skipped with the reason."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
if not CHROMIUM.exists():
    pytest.skip("Debian's Chromium (/usr/bin/chromium) is not installed; .ci/run installs it",
                allow_module_level=True)

playwright_sync = pytest.importorskip("playwright.sync_api", reason="pip install -e '.[dev]' (playwright)")
pytest.importorskip("axe_playwright_python.sync_playwright", reason="axe-playwright-python")


from helpers.wait import DEADLINE  # noqa: E402
from helpers.web import serving  # noqa: E402
from yatzy.web.app import create_app  # noqa: E402

playwright_sync.expect.set_options(timeout=DEADLINE * 1000)  # every wait of a page on the one deadline


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[str]:
    db = tmp_path_factory.mktemp("web-e2e") / "web.sqlite3"
    # the tests read every game played, unless a module says PUBLIC_HISTORY = False
    app = create_app(f"sqlite:///{db}", public_history=getattr(request.module, "PUBLIC_HISTORY", True))
    with serving(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM),
                              args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.fixture
def new_page(browser: Any, base_url: str) -> Iterator[Any]:
    contexts = []

    def make(width: int = 1280, height: int = 900, **options: Any) -> Any:
        options.setdefault("reduced_motion", "reduce")  # still dice, unless a test asks for motion
        context = browser.new_context(base_url=base_url, viewport={"width": width, "height": height},
                                      **options)
        context.set_default_timeout(DEADLINE * 1000)
        contexts.append(context)
        return context.new_page()

    yield make
    for c in contexts:
        c.close()

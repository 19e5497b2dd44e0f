"""The web tests' shared fixture: ``url``, an empty database of each kind of
:data:`helpers.web.DATABASES` (a SQLite file, and a PostgreSQL schema when
YATZY_TEST_POSTGRES_URL names a database), so a test taking it runs once per kind."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.web import DATABASES, database_url


@pytest.fixture(params=DATABASES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, tmp_path) as u:
        yield u

"""The web tests' shared fixtures: ``url``, an empty database of each kind of
:data:`helpers.web.DATABASES` (a SQLite file, and a PostgreSQL schema when
YATZY_TEST_POSTGRES_URL names a database), so a test taking it runs once per kind; ``app``,
the server's app with its defaults on a SQLite file of the test's own, and ``client``, a test
client of it (a module that needs other settings defines its own)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from helpers.web import DATABASES, database_url, db_url
from yatzy.web.app import create_app


@pytest.fixture(params=DATABASES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database_url(request.param, tmp_path) as u:
        yield u


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(db_url(tmp_path))


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c

"""An engine from a URL, and the database's own words for an error: what both the
:class:`~yatzy.storage.database.Database` and the migrations (:mod:`yatzy.storage.migrate`)
start from.

By default the database is a SQLite file in the user's data folder
(``platformdirs.user_data_dir("yatzy")``, or ``$YATZY_DATA_DIR``); a URL such as
``postgresql+psycopg://user@host/yatzy`` puts it in PostgreSQL instead (the 'postgres'
extra brings the driver).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import platformdirs
from sqlalchemy import URL, Engine, create_engine, event, make_url
from sqlalchemy.exc import SQLAlchemyError

from ..i18n import _
from .errors import StorageError

DB_FILE = "games.sqlite3"
"""The default database's file name in the data folder."""

WRITE = "yatzy_write"
"""Execution option on a connection whose transaction writes (SQLite: BEGIN IMMEDIATE)."""


def data_dir() -> Path:
    """The user's data folder for yatzy ($YATZY_DATA_DIR if set)."""
    env = os.environ.get("YATZY_DATA_DIR")
    return Path(env).expanduser() if env else Path(platformdirs.user_data_dir("yatzy"))


def default_url() -> str:
    """The SQLite file in :func:`data_dir`."""
    return f"sqlite:///{data_dir() / DB_FILE}"


def shown(url: str | URL) -> str:
    """A URL fit for a message or a log: the password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return "<unreadable database URL>"


def make_engine(url: str | URL | None = None) -> Engine:
    """An engine for ``url`` (the default SQLite file when None; its folder is made).

    SQLite gets real transactions (SQLAlchemy emits BEGIN, writes BEGIN IMMEDIATE so two
    writers queue instead of failing), foreign keys and a 15 s wait for a locked file;
    ``postgresql://`` means the psycopg 3 driver.

    :raises StorageError: the URL is not one SQLAlchemy reads, its driver is not installed,
        or the default folder cannot be made.
    """
    if url is None:
        folder = data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(_("could not make the folder {path} for the game database: {reason}").format(
                path=folder, reason=e.strerror or e)) from None
        url = default_url()
    try:
        u = make_url(url)
        if u.drivername == "postgresql":
            u = u.set(drivername="postgresql+psycopg")
        options: dict[str, Any] = {}
        if u.get_backend_name() == "sqlite":
            options["connect_args"] = {"timeout": 15}
        else:
            options["pool_pre_ping"] = True
        engine = create_engine(u, **options)
    except ImportError as e:
        raise StorageError(
            _("the database driver for {url} is not installed ({reason}); PostgreSQL needs "
              "pip install 'yatzy[postgres]'").format(url=shown(url), reason=e)) from None
    except (SQLAlchemyError, ValueError) as e:
        raise StorageError(_("“{url}” is not a database URL this program can use: {reason}").format(
            url=shown(url), reason=e)) from None
    if engine.dialect.name == "sqlite":
        _sqlite_transactions(engine)
    return engine


def _sqlite_transactions(engine: Engine) -> None:
    """Let SQLAlchemy, not the sqlite3 module, begin transactions (so reads, DDL and
    savepoints are inside them), and turn foreign keys on."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(connection: Any) -> None:
        write = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def reason(e: BaseException) -> str:
    """The database's own words for an error (the driver's message, without SQL)."""
    orig = getattr(e, "orig", None)
    text = str(orig if orig is not None else e).strip()
    return text.splitlines()[0] if text else type(e).__name__

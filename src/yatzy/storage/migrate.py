"""Schema migrations with Alembic, configured in code: no alembic.ini at run time.

:func:`upgrade` brings any database (empty or older) to the newest migration; on a database
already there it only reads the version. A new migration is a file in
``migrations/versions`` (``new_revision`` writes one from the difference between
``schema.py`` and a database at head); then :data:`HEAD` names it. Alembic itself is
imported only to migrate: opening a database already at head reads one row.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import URL, Connection, Engine, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from ..i18n import _
from .engine import WRITE, make_engine, reason
from .errors import StorageError

if TYPE_CHECKING:
    from alembic.config import Config

MIGRATIONS = Path(__file__).with_name("migrations")
HEAD = "0004"
"""The newest migration's revision (a test checks that it is Alembic's head)."""
VERSION_TABLE = "alembic_version"
LOCK_KEY = 0x7961747A79
"""PostgreSQL advisory lock held while migrating: two servers starting at once take turns."""


def alembic_config(connection: Connection | None = None) -> Config:
    """Alembic's configuration for the package's migrations (and the connection to use)."""
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    cfg.set_main_option("path_separator", "os")
    cfg.set_main_option("file_template", "v%%(rev)s_%%(slug)s")
    cfg.attributes["connection"] = connection
    return cfg


def head() -> str:
    """The newest migration's revision, as Alembic reads it from the migration files."""
    from alembic.script import ScriptDirectory

    rev = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert rev is not None
    return rev


def current(connection: Connection) -> str | None:
    """The revision a database is at (None: no schema yet)."""
    if not inspect(connection).has_table(VERSION_TABLE):
        return None
    return connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def _engine(url: str | URL | Engine | None) -> tuple[Engine, bool]:
    """The engine for ``url`` and whether it is ours to dispose of."""
    return (url, False) if isinstance(url, Engine) else (make_engine(url), True)


def revision(url: str | URL | Engine | None = None) -> str | None:
    """The revision the database at ``url`` is at (None: no schema yet).

    :raises StorageError: the database cannot be read.
    """
    engine, own = _engine(url)
    try:
        with engine.connect() as conn:
            return current(conn)
    except SQLAlchemyError as e:
        raise StorageError(_("could not read the game database: {reason}").format(reason=reason(e))) from e
    finally:
        if own:
            engine.dispose()


def upgrade(url: str | URL | Engine | None = None) -> str:
    """Bring the database at ``url`` (default: the SQLite file in the data folder) to the
    newest migration, in one transaction; returns that revision. A database already at it
    is only read, so a read-only one opens too.

    :raises StorageError: the database could not be read or migrated (it is left as it was).
    """
    engine, own = _engine(url)
    try:
        with engine.connect() as conn:
            if current(conn) == HEAD:
                return HEAD
        from alembic import command

        with engine.connect() as conn, conn.execution_options(**{WRITE: True}).begin():
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
            command.upgrade(alembic_config(conn), HEAD)
        return HEAD
    except SQLAlchemyError as e:
        raise StorageError(_("could not bring the game database up to date: {reason}").format(
            reason=reason(e))) from e
    finally:
        if own:
            engine.dispose()


def new_revision(message: str, url: str | URL | Engine, rev_id: str) -> None:
    """Developers: write ``migrations/versions/v<rev_id>_<message>.py`` from the difference
    between ``schema.py`` and the database at ``url`` (brought to head first). Review it."""
    from alembic import command

    engine, own = _engine(url)
    try:
        upgrade(engine)
        with engine.connect() as conn:
            command.revision(alembic_config(conn), message, autogenerate=True, rev_id=rev_id)
    finally:
        if own:
            engine.dispose()

"""Where the games live: the :class:`Database` that holds an engine (:mod:`.engine`) with
its schema brought up to date (:mod:`.migrate`), and the transactions every read and write
goes through.
"""

from __future__ import annotations

import asyncio
import contextlib
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from sqlalchemy import URL, Connection, Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from ..i18n import _
from .engine import WRITE, make_engine, reason, shown
from .errors import StorageError
from .migrate import upgrade as upgrade_schema

T = TypeVar("T")


class Database:
    """The game database: an engine and its sessions.

    ``Database()`` opens the default SQLite file, ``Database(url)`` any other; with
    ``upgrade`` (the default) the schema is brought to the newest migration first. Every
    function of :mod:`yatzy.storage` takes a Database (each call is its own transaction)
    or a SQLAlchemy Session (a write is a savepoint in the session's transaction, which the
    caller commits).

    SQLite lets one transaction write at a time; the threads of one process that write to it
    take turns on a lock here rather than in SQLite's busy handler, which sleeps up to 100 ms
    between tries.
    """

    def __init__(self, url: str | URL | Engine | None = None, *, upgrade: bool = True) -> None:
        self.engine = url if isinstance(url, Engine) else make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.write_lock = threading.RLock() if self.engine.dialect.name == "sqlite" else None
        """SQLite: held by a thread of this process while it writes (see above)."""
        if upgrade:
            upgrade_schema(self.engine)

    @property
    def url(self) -> str:
        """The database's URL, password hidden."""
        return shown(self.engine.url)

    def use_wal(self) -> None:
        """SQLite file: write-ahead logging (kept in the file), so reading never waits for a
        writer and a commit is one append and one sync; a server's choice (nothing else for
        PostgreSQL or an in-memory database).

        :raises StorageError: the database could not be changed.
        """
        if self.engine.dialect.name != "sqlite" or self.engine.url.database in (None, "", ":memory:"):
            return
        try:
            raw = self.engine.raw_connection()  # outside a transaction, which SQLAlchemy would begin
            try:
                raw.cursor().execute("PRAGMA journal_mode=WAL")
            finally:
                raw.close()
        except (SQLAlchemyError, sqlite3.Error) as e:
            raise write_failed(e) from e

    def session(self) -> Session:
        """A new session; the caller commits or rolls back (``with db.session() as s, s.begin():``)."""
        return self.sessions()

    def close(self) -> None:
        """Close every pooled connection (the Database can still open new ones)."""
        self.engine.dispose()

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Database({self.url!r})"


Target = Database | Session
"""What the storage functions take: a Database, or a Session whose transaction they join."""


def write_failed(e: BaseException) -> StorageError:
    """The error for a write the database refused or failed (nothing of it was stored)."""
    return StorageError(_("could not write to the game database: {reason}; nothing was changed").format(
        reason=reason(e)))


@contextmanager
def writing(target: Target) -> Iterator[Session]:
    """One write: a Database's transaction, committed when the block ends; with a Session, a
    savepoint in the session's transaction (begun if none is open), which the caller commits.
    Either is rolled back if the block raises, and a failed write leaves a session usable.

    :raises StorageError: the database refused or failed (what the block raised otherwise).
    """
    try:
        if isinstance(target, Database):
            with target.write_lock or contextlib.nullcontext(), target.sessions() as session, session.begin():
                session.connection(execution_options={WRITE: True})
                yield session
        else:
            with target.begin_nested():
                yield target
    except SQLAlchemyError as e:
        raise write_failed(e) from e


@contextmanager
def reading(target: Target) -> Iterator[Session]:
    """A session to read with (a Database's own, closed after the block; a Session as it is).

    :raises StorageError: the database could not be read.
    """
    try:
        if isinstance(target, Database):
            with target.sessions() as session:
                yield session
        else:
            yield target
    except SQLAlchemyError as e:
        raise StorageError(_("could not read the game database: {reason}").format(reason=reason(e))) from e


class GroupCommit:
    """Writes from many callers committed together: each write (a function of a Session) runs
    in a savepoint of its own, and every write waiting when a transaction starts shares its
    one commit (one sync of the disk for them all, instead of one each).

    Writes run one after another in the transaction, without a savepoint each (a savepoint
    is two more round trips to the database per write): a write that raises one of the
    ``clean`` exceptions, which it raises only before it has written anything, just gets
    its error; any other error rolls the whole transaction back, and the writes are run
    again, each in a savepoint of its own, so that only the failing one is rolled back and
    gets the error. If the commit itself fails, every write of the transaction fails with
    :class:`StorageError` and none of them is stored. Writes run on one thread of their own,
    ordered by the ``order`` key each caller gives (PostgreSQL: rows are locked in one order,
    so two processes' transactions do not deadlock).

    The thread keeps one connection from one transaction to the next instead of taking one
    from the pool each time: the pool checks a connection it hands out with a round trip to
    the database, one of the four every transaction made. A connection that broke is
    dropped and a new one taken (the writes of a transaction that failed before its commit
    are run again, as after any error).
    """

    def __init__(self, db: Database, clean: tuple[type[BaseException], ...] = ()) -> None:
        self.db = db
        self.clean = clean
        self._queue: queue.SimpleQueue[tuple[Any, Any, asyncio.Future[Any]] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._connection: Connection | None = None
        """The worker thread's own connection (only that thread uses it)."""

    async def run(self, order: Any, write: Callable[[Session], T]) -> T:
        """Run ``write`` in the next shared transaction; its result once that is committed.

        :raises StorageError: the write failed (what it raised) or the commit failed.
        """
        with self._start:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="group-commit", daemon=True)
                self._thread.start()
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._queue.put((order, write, future))
        return await future

    def close(self) -> None:
        """Stop the thread once the writes already handed in are done."""
        with self._start:
            if self._thread is not None and self._thread.is_alive():
                self._queue.put(None)
                self._thread.join(30)
            self._thread = None

    def _work(self) -> None:
        try:
            self._serve()
        finally:
            self._drop_connection()

    def _serve(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            batch.sort(key=lambda job: job[0])
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[tuple[Any, Any, asyncio.Future[Any]]]) -> None:
        try:
            outcomes = self._run(batch, isolated=False)
        except _Redo:
            outcomes = self._run(batch, isolated=True)
        for future, result, error in outcomes:
            future.get_loop().call_soon_threadsafe(_settle, future, result, error)

    def _run(self, batch: list[tuple[Any, Any, asyncio.Future[Any]]],
             isolated: bool) -> list[tuple[asyncio.Future[Any], Any, BaseException | None]]:
        outcomes: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        try:
            with self._transaction() as session:
                for _order, write, future in batch:
                    if not isolated:
                        try:
                            outcomes.append((future, write(session), None))
                        except self.clean as e:
                            outcomes.append((future, None, e))
                        except Exception as e:
                            raise _Redo from e
                        continue
                    try:
                        with session.begin_nested():
                            outcomes.append((future, write(session), None))
                    except SQLAlchemyError as e:
                        outcomes.append((future, None, write_failed(e)))
                    except Exception as e:
                        outcomes.append((future, None, e))
        except _Redo:
            raise
        except Exception as e:  # the commit failed: nothing of the batch is stored
            failed = e if isinstance(e, StorageError) else StorageError(str(e))
            outcomes = [(future, None, failed) for _order, _write, future in batch]
        return outcomes

    @contextmanager
    def _transaction(self) -> Iterator[Session]:
        """A transaction on the thread's own connection (a new one if it has none or it broke),
        committed when the block ends, rolled back if it raises.

        :raises StorageError: the database refused or failed (what the block raised otherwise).
        """
        try:
            if self._connection is None:
                self._connection = self.db.engine.connect().execution_options(**{WRITE: True})
            with (self.db.write_lock or contextlib.nullcontext(),
                  self.db.sessions(bind=self._connection) as session, session.begin()):
                yield session
        except SQLAlchemyError as e:
            raise write_failed(e) from e
        finally:
            if self._connection is not None and self._connection.invalidated:
                self._drop_connection()

    def _drop_connection(self) -> None:
        if self._connection is not None:
            with contextlib.suppress(SQLAlchemyError):
                self._connection.close()
            self._connection = None


class _Redo(Exception):  # noqa: N818 - control flow: run the batch again, a savepoint for each write
    pass


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)

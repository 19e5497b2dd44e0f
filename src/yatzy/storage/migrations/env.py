"""Alembic's entry point, run by :mod:`yatzy.storage.migrate` with a connection it opened.

There is no alembic.ini: the configuration is made in code, and the connection (already in
a transaction) comes in ``config.attributes["connection"]``.
"""

from __future__ import annotations

from alembic import context

from yatzy.storage.schema import Base

config = context.config
connection = config.attributes.get("connection")
if connection is None or context.is_offline_mode():
    raise RuntimeError("run the migrations with yatzy.storage.upgrade(url), which passes a connection")

context.configure(
    connection=connection,
    target_metadata=Base.metadata,
    render_as_batch=True,  # SQLite alters a table by copying it: later migrations work there too
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()

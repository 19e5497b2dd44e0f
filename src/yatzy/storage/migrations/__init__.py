"""Alembic migrations of the game database (run them with :func:`yatzy.storage.upgrade`)."""

"""What goes wrong with the game database, as engine errors (YatzyError) a front end can show."""

from __future__ import annotations

from ..errors import YatzyError


class StorageError(YatzyError):
    """The game database could not be read or written. A failed write changed nothing:
    every write is one transaction, and what was committed before it is intact."""


class UnknownGameError(StorageError):
    """No game (or no seat of a game) has that id in the database."""


class GameConflictError(StorageError):
    """The game does not continue the one stored under that id: another ruleset, seats or
    seed, a log that is not the stored log plus new actions, or another source of dice."""


class RoomConflictError(StorageError):
    """Another server process committed an action to this room first."""

"""Storage of played games, their history and statistics (SQLAlchemy, migrations by Alembic).

::

    db = Database()                                   # SQLite in the data folder, schema brought up to date
    game_id = record_game(db, game)                   # finished or not; "players" for typed-in dice
    record_game(db, game, game_id=game_id)            # later: the same game with more actions
    game = load_game(db, game_id)                     # replayed from its log, ready to go on
    list_games(db, player="Ann", ruleset="yatzy")     # summaries, newest first
    player_stats(db, "yatzy"); records(db, "yatzy"); score_histogram(db, "yatzy", bin=10)
    records(db, "yatzy", dice_from="players")         # typed dice apart: never among the server's
    store_analysis(db, game_id, analyse(game))        # points lost to the coach, per seat

Where each thing lives: ``engine`` (URL, engine, data folder), ``database`` (:class:`Database`,
transactions, group commits), ``migrate`` (Alembic in code: :func:`upgrade`), ``schema`` (the
tables), ``games`` (record, load, list), ``stats`` (statistics), ``rooms`` (the browser app's
rooms: :class:`~yatzy.storage.rooms.RoomStore`), ``errors``; the migrations in
``migrations/versions``.

Every function takes a :class:`Database` (a write is one transaction, committed at its end)
or a SQLAlchemy ``Session`` (a write is a savepoint in the session's transaction, and the
caller commits). A failed read or write raises :class:`StorageError`; a failed write changes
nothing, and a session stays usable.

**The seed stays on the server.** A stored game keeps its whole save, dice seed included,
so that it can be loaded and played on. Nothing in this package hands the save or the seed
to anyone: summaries, statistics and records carry neither, and :func:`load_game` returns a
:class:`~yatzy.game.Game` for the server to run. A front end shows its views
(:mod:`yatzy.views`), never ``game.to_dict()``.
"""

from __future__ import annotations

from .database import Database
from .engine import data_dir, default_url, make_engine
from .errors import GameConflictError, StorageError, UnknownGameError
from .games import (
    GameSummary,
    SeatResult,
    get_game,
    list_games,
    load_game,
    record_game,
    set_points_lost,
    store_analysis,
)
from .migrate import head, revision, upgrade
from .schema import DiceFrom
from .stats import Histogram, PlayerStats, Record, finished_count, player_stats, records, score_histogram

__all__ = [
    "Database", "DiceFrom", "GameConflictError", "GameSummary", "Histogram", "PlayerStats", "Record",
    "SeatResult", "StorageError", "UnknownGameError", "data_dir", "default_url", "finished_count",
    "get_game", "head", "list_games", "load_game", "make_engine", "player_stats", "record_game", "records",
    "revision", "score_histogram", "set_points_lost", "store_analysis", "upgrade",
]

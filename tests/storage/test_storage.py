"""Storage of games (issues 9 and 10): migrations, record and load, history, statistics, failures.

Every test runs on a fresh SQLite file, and again on PostgreSQL (in a schema of its own, dropped
afterwards) when YATZY_TEST_POSTGRES_URL names a database, e.g.
``postgresql+psycopg://yatzy@127.0.0.1:5432/yatzytest``.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import re
import sqlite3
import statistics
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Engine, event, func, inspect, make_url, select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from helpers.games import bots_for, play_out
from helpers.web import postgres_schema, with_options
from yatzy.analysis import analyse
from yatzy.bots import make_bot
from yatzy.errors import InvalidActionError, UnknownRulesetError, YatzyError
from yatzy.game import Game, Roll, Score
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.storage import (
    Database,
    GameConflictError,
    Histogram,
    StorageError,
    UnknownGameError,
    finished_count,
    get_game,
    head,
    list_games,
    load_game,
    make_engine,
    player_stats,
    record_game,
    records,
    revision,
    score_histogram,
    set_points_lost,
    store_analysis,
    upgrade,
)
from yatzy.storage import games as games_module
from yatzy.storage import rooms as rooms_module
from yatzy.storage.database import reading, writing
from yatzy.storage.errors import RoomConflictError
from yatzy.storage.migrate import HEAD
from yatzy.storage.rooms import RoomRecord, RoomStore
from yatzy.storage.schema import Base, GameRow, RoomLogRow, RoomRow

POSTGRES = os.environ.get("YATZY_TEST_POSTGRES_URL")
RULESETS = ("yatzy", "forced", "maxi", "osto", "kids", "yahtzee", "dozzy")
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
SECOND, MINUTE, DAY = timedelta(seconds=1), timedelta(minutes=1), timedelta(days=1)


# ---- databases --------------------------------------------------------------------------

@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(
    not POSTGRES, reason="set YATZY_TEST_POSTGRES_URL to run the storage tests on PostgreSQL"))])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'games.sqlite3'}"
        return
    with postgres_schema() as schema_url:
        yield schema_url


@pytest.fixture
def db(url: str) -> Iterator[Database]:
    with Database(url) as database:
        yield database


def read_only(url: str) -> str:
    """The same database, opened so that every write fails."""
    u = make_url(url)
    if u.get_backend_name() == "sqlite":
        return f"sqlite:///file:{u.database}?mode=ro&uri=true"
    return with_options(u, "-cdefault_transaction_read_only=on").render_as_string(hide_password=False)


# ---- games ----------------------------------------------------------------------------------

def new_game(rules: str, seed: int, **options: object) -> Game:
    """Ann (a person), a greedy bot (DOZZY: the dozzy bot) and a random bot."""
    rs = get_ruleset(rules, **options)
    other = "dozzy" if rs.uses_board else "greedy"
    return Game(rs, [Seat("Ann"), Seat.bot(other), Seat.bot("random", "Rita")], seed=seed)


def play(rules: str, seed: int, actions: int | None = None, **options: object) -> Game:
    """A game of :func:`new_game`'s seats, whole or its first ``actions``; people play as the
    greedy bot (DOZZY: the dozzy bot)."""
    return play_out(new_game(rules, seed, **options), seed=seed, actions=actions)


def same_game(a: Game, b: Game) -> None:
    assert a.state == b.state
    assert a.to_dict() == b.to_dict()
    assert a.totals() == b.totals()
    assert a.seats == b.seats


# ---- migrations -----------------------------------------------------------------------------

def test_migrations_make_the_schema_and_a_second_upgrade_does_nothing(url: str) -> None:
    assert revision(url) is None
    assert upgrade(url) == head() == HEAD == revision(url)
    engine = make_engine(url)
    try:
        tables = set(inspect(engine).get_table_names())
        assert {"games", "seat_results", "alembic_version"} <= tables
        columns = {c["name"] for c in inspect(engine).get_columns("seat_results")}
        assert {"game_id", "seat", "name", "kind", "level", "total", "rank", "won", "upper_bonus", "yatzys",
                "points_lost"} <= columns
        with engine.connect() as conn:  # the migrations make exactly what schema.py describes
            assert compare_metadata(MigrationContext.configure(conn), Base.metadata) == []
        statements: list[str] = []
        event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        assert upgrade(engine) == head()
        writes = ("CREATE", "ALTER", "DROP", "INSERT", "UPDATE", "DELETE", "BEGIN IMMEDIATE")
        assert statements and not [s for s in statements if s.lstrip().upper().startswith(writes)]
    finally:
        engine.dispose()


def test_the_default_database_is_a_file_in_the_data_folder(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path / "data"))
    with Database() as db:
        game_id = record_game(db, play("kids", 1))
        assert db.url.endswith("games.sqlite3")
    assert (tmp_path / "data" / "games.sqlite3").is_file()
    with Database() as db:
        assert [g.id for g in list_games(db)] == [game_id]


def test_bad_urls_and_missing_drivers_are_storage_errors() -> None:
    with pytest.raises(StorageError, match="not a database URL"):
        make_engine("no such thing://")
    with pytest.raises(StorageError, match="not a database URL"):
        make_engine("nosuchdialect://host/db")


# ---- record and load ------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_bot_games_load_back_to_the_same_game(db: Database, rules: str) -> None:
    game = play(rules, seed=len(rules))
    assert game.is_over
    game_id = record_game(db, game, at=T0)
    loaded = load_game(db, game_id)
    same_game(loaded, game)
    summary = get_game(db, game_id)
    outcome = game.outcome()
    assert outcome is not None
    assert (summary.ruleset, summary.finished, summary.actions, summary.dice_from) == (
        rules, True, len(game.log), "server")
    assert summary.options == dict(game.ruleset.options)
    assert summary.started_at == summary.finished_at == T0
    ranks = {s.player: s.rank for s in outcome.standings}
    for r in summary.seats:
        seat, player = game.seats[r.seat], game.state.players[r.seat]
        assert (r.name, r.kind, r.level) == (seat.name, seat.kind, seat.level)
        assert (r.total, r.rank, r.won) == (game.total(r.seat), ranks[r.seat], r.seat in outcome.winners)
        assert r.boxes_filled == len(player.card) == game.ruleset.turns
        assert r.extra_points == player.extra
        assert r.points_lost is None
    assert summary.winners == tuple(game.seats[i].name for i in outcome.winners)


def test_summaries_and_statistics_never_carry_the_seed(db: Database) -> None:
    game = play("yatzy", seed=987654321987)
    game_id = record_game(db, game)
    results: list[Any] = [get_game(db, game_id), *list_games(db), *player_stats(db), *records(db, "yatzy"),
                          score_histogram(db, "yatzy")]
    shown = json.dumps([dataclasses.asdict(x) for x in results], default=str)
    assert str(game.seed) not in shown and "seed" not in shown and '"log"' not in shown


def test_list_games_filters_by_player_ruleset_and_state(db: Database) -> None:
    a = record_game(db, play("yatzy", 1), at=T0)
    b = record_game(db, play("kids", 2), at=T0 + timedelta(hours=1))
    c = record_game(db, play("yatzy", 3, actions=10), at=T0 + timedelta(hours=2))
    solo = Game("kids", [Seat("Bo")], seed=4)
    play_out(solo, seed=4)
    d = record_game(db, solo, title="Bo alone", at=T0 + timedelta(hours=3))
    assert [g.id for g in list_games(db)] == [d, c, b, a]
    assert [g.id for g in list_games(db, limit=2)] == [d, c]
    assert [g.id for g in list_games(db, limit=2, offset=2)] == [b, a]
    assert [g.id for g in list_games(db, player="Ann")] == [c, b, a]
    assert [g.id for g in list_games(db, player="Bo")] == [d]
    assert [g.id for g in list_games(db, player="Nobody")] == []
    assert [g.id for g in list_games(db, ruleset="Scandinavian")] == [c, a]  # an alias names the ruleset
    assert [g.id for g in list_games(db, player="Ann", ruleset="kids")] == [b]
    assert [g.id for g in list_games(db, finished=False)] == [c]
    assert get_game(db, d).title == "Bo alone"
    record_game(db, solo, game_id=d, title="Bo's best")  # renamed on an update
    assert get_game(db, d).title == "Bo's best"
    record_game(db, solo, game_id=d)  # an update without a title keeps the name
    assert get_game(db, d).title == "Bo's best"
    with pytest.raises(UnknownRulesetError):
        list_games(db, ruleset="chess")
    with pytest.raises(InvalidActionError):
        list_games(db, limit=0)


def test_a_history_lists_fifty_games_by_default_the_latest_start_first(db: Database) -> None:
    """Fifty-one games started in three minutes, out of the order they are stored in: fifty by
    default, the latest start first and the later stored first among equal starts; one at
    least, from an offset of 0 or more; only those asked for by id."""
    with db.session() as s, s.begin():  # one transaction: fifty-one commits would be slow
        started = {record_game(s, Game("kids", [Seat("Ann")], seed=n), at=T0 + n % 3 * MINUTE): n % 3
                   for n in range(51)}
    newest = sorted(started, key=lambda game_id: (started[game_id], game_id), reverse=True)
    assert [g.id for g in list_games(db)] == newest[:50]
    assert [g.id for g in list_games(db, limit=1)] == newest[:1]
    assert [g.id for g in list_games(db, limit=60, offset=49)] == newest[49:]
    for limit, offset in ((0, 0), (1, -1)):
        with pytest.raises(InvalidActionError, match="^list at least 1 game from an offset of 0 or more$"):
            list_games(db, limit=limit, offset=offset)
    some = newest[::10]
    assert [g.id for g in list_games(db, ids=some)] == some
    assert list_games(db, ids=[]) == []


def test_unknown_games_and_seats(db: Database) -> None:
    game_id = record_game(db, play("kids", 1))
    unknown = "^there is no game 999 in the database$"
    with pytest.raises(UnknownGameError, match=unknown):
        load_game(db, 999)
    with pytest.raises(UnknownGameError, match=unknown):
        get_game(db, 999)
    with pytest.raises(UnknownGameError, match=unknown):
        set_points_lost(db, 999, 0, 1.0)  # the game is named before its seat
    with pytest.raises(UnknownGameError, match=f"^there is no game {game_id} in the database$"):
        get_game(db, str(game_id))  # type: ignore[arg-type]  # a game's id is a number
    with pytest.raises(UnknownGameError, match=f"^game {game_id} has no seat 7$"):
        set_points_lost(db, game_id, 7, 1.0)
    with pytest.raises(UnknownGameError, match=f"^game {game_id} has no seat 0$"):
        set_points_lost(db, game_id, "0", 1.0)  # type: ignore[arg-type]  # a seat is a number
    with pytest.raises(UnknownGameError, match=unknown):
        record_game(db, play("kids", 1), game_id=999)
    with pytest.raises(InvalidActionError):
        record_game(db, play("kids", 1), dice_from="dealer")  # type: ignore[arg-type]
    words = re.escape("give the moment with its timezone (e.g. datetime.now(UTC))")
    with pytest.raises(InvalidActionError, match=f"^{words}$"):
        record_game(db, play("kids", 1), at=datetime(2025, 1, 1))


# ---- unfinished games, typed-in dice, append only -------------------------------------------

def test_an_unfinished_game_is_stored_and_continued(db: Database) -> None:
    whole = play("yatzy", seed=11)
    part = new_game("yatzy", seed=11)
    players = bots_for(part, 11)  # the same bots all along: the same moves as in the whole game
    play_out(part, players, actions=25)
    game_id = record_game(db, part, at=T0)
    summary = get_game(db, game_id)
    assert (summary.finished, summary.finished_at, summary.actions) == (False, None, 25)
    assert summary.started_at == summary.updated_at == T0
    assert all(r.rank is None and r.won is None for r in summary.seats)
    assert [r.total for r in summary.seats] == part.totals()
    assert list_games(db, finished=True) == []

    resumed = load_game(db, game_id)
    same_game(resumed, part)
    play_out(resumed, players, actions=30)
    assert record_game(db, resumed, game_id=game_id, at=T0 + timedelta(minutes=5)) == game_id
    summary = get_game(db, game_id)
    assert (summary.actions, summary.started_at, summary.updated_at, summary.finished_at) == (
        55, T0, T0 + timedelta(minutes=5), None)

    again = play_out(load_game(db, game_id), players)
    record_game(db, again, game_id=game_id, at=T0 + timedelta(minutes=9))
    done = get_game(db, game_id)
    assert (done.finished, done.started_at, done.finished_at) == (True, T0, T0 + timedelta(minutes=9))
    assert done.updated_at == T0 + timedelta(minutes=9)
    same_game(load_game(db, game_id), whole)
    assert [r.total for r in done.seats] == whole.totals()
    assert len(list_games(db)) == 1


def test_a_stored_game_whose_dice_no_longer_follow_its_seed_does_not_load(db: Database) -> None:
    game_id = record_game(db, play("kids", seed=1, actions=4))
    with writing(db) as s:  # the first roll changed behind the game's back
        row = s.get(GameRow, game_id)
        assert row is not None
        save = json.loads(json.dumps(row.save))
        first = save["log"][0]["roll"]
        first["result"] = [7 - d for d in first["result"]]
        row.save = save
    with pytest.raises(YatzyError) as replayed:
        games_module.replay_save(save, "server")
    with pytest.raises(StorageError) as failure:
        load_game(db, game_id)
    assert str(failure.value) == f"stored game {game_id} does not load: {replayed.value}"


def test_a_stored_log_only_grows(db: Database) -> None:
    game_id = record_game(db, play("yatzy", seed=5, actions=40))
    before = load_game(db, game_id)
    fewer = (rf"^game {game_id} in the database has actions this game does not: a stored game only gains "
             r"new actions$")
    with pytest.raises(GameConflictError, match=fewer):
        record_game(db, play("yatzy", seed=5, actions=20), game_id=game_id)  # older: fewer actions
    another = (rf"^game {game_id} in the database is another game \(ruleset, seats, seed or source of dice "
               r"differ\); record this one as a new game$")
    with pytest.raises(GameConflictError, match=another):
        record_game(db, play("yatzy", seed=6, actions=60), game_id=game_id)  # another seed
    with pytest.raises(GameConflictError, match="another game"):
        record_game(db, play("kids", seed=5, actions=60), game_id=game_id)
    with pytest.raises(GameConflictError, match="another game"):
        record_game(db, play("yatzy", seed=5, actions=60), "players", game_id=game_id)
    same_game(load_game(db, game_id), before)
    record_game(db, play("yatzy", seed=5, actions=40), game_id=game_id)  # the same actions again: fine
    assert get_game(db, game_id).actions == 40


def test_a_rewrite_replaces_the_stored_log_of_the_same_game(db: Database) -> None:
    """The one who keeps a game's record may write it anew (a last score taken back and made
    again): the same game, another log; points lost go only if the log changed."""
    whole = play("kids", seed=5)
    game_id = record_game(db, whole)
    set_points_lost(db, game_id, 0, 1.5)
    record_game(db, whole, game_id=game_id, rewrite=True)  # the very same game: the analysis holds
    assert get_game(db, game_id).seats[0].points_lost == 1.5
    shorter = play("kids", seed=5, actions=len(whole.log) - 3)
    assert record_game(db, shorter, game_id=game_id, rewrite=True) == game_id
    summary = get_game(db, game_id)
    assert not summary.finished and summary.actions == len(shorter.log)
    assert summary.seats[0].points_lost is None
    same_game(load_game(db, game_id), shorter)
    with pytest.raises(GameConflictError, match="another game"):  # still only the same game
        record_game(db, play("kids", seed=6), game_id=game_id, rewrite=True)
    assert len(list_games(db)) == 1


def scorekeeper_game(rolls: Sequence[tuple[int, ...]], dice_from: str = "server") -> Game:
    """Kids' Yatzy for two at a real table: the dice are typed in, every turn one roll
    (``dice_from="players"``: a scorekeeper game, whose turns may be corrected)."""
    return type_in(Game("kids", [Seat("Ann"), Seat("Bo")], first=1, dice_from=dice_from), rolls)


def type_in(game: Game, rolls: Sequence[tuple[int, ...]]) -> Game:
    """``game`` after a turn of each roll typed in, its best box scored; returns the game."""
    for dice in rolls:
        game.apply(Roll((), dice))
        box = max(game.score_options(), key=lambda c: (game.score_options()[c], c))
        game.apply(Score(box))
    return game


def test_a_scorekeeper_game_with_typed_in_dice(db: Database) -> None:
    game = scorekeeper_game([(6, 6, 6, 6, 6), (1, 1, 2, 3, 4), (5, 5, 5, 2, 2), (3, 3, 3, 3, 1),
                             (2, 2, 6, 6, 6)])
    with pytest.raises(YatzyError) as replayed:
        games_module.replay_save(json.loads(json.dumps(game.to_dict())), "server")
    with pytest.raises(StorageError) as refused:  # these dice are not the seed's
        record_game(db, game)
    assert str(refused.value) == (f"the game was not recorded: {replayed.value} (a game whose dice people "
                                  "typed in is recorded with dice from the “players”)")
    assert list_games(db) == []
    game_id = record_game(db, game, "players")
    loaded = load_game(db, game_id)
    same_game(loaded, game)
    assert get_game(db, game_id).dice_from == "players"
    assert loaded.state.current == 0
    loaded.apply(Roll((), (5, 5, 5, 5, 2)))  # the table goes on typing
    loaded.apply(Score("fives"))
    record_game(db, loaded, "players", game_id=game_id)
    assert [r.total for r in get_game(db, game_id).seats] == [game.total(0) + 20, game.total(1)]
    same_game(load_game(db, game_id), loaded)


ANNS_CARD = [((1, 1, 1, 1, 2), "ones"), ((2, 2, 2, 2, 3), "twos"), ((3, 3, 3, 3, 4), "threes"),
             ((4, 4, 4, 4, 5), "fours"), ((5, 5, 5, 5, 6), "fives"), ((6, 6, 6, 6, 1), "sixes"),
             ((6, 6, 1, 2, 3), "one_pair"), ((6, 6, 5, 5, 1), "two_pairs"),
             ((6, 6, 6, 1, 2), "three_of_a_kind"), ((6, 6, 6, 6, 1), "four_of_a_kind"),
             ((1, 2, 3, 4, 5), "small_straight"), ((2, 3, 4, 5, 6), "large_straight"),
             ((6, 6, 6, 5, 5), "full_house"), ((6, 6, 6, 6, 5), "chance"), ((6, 6, 6, 6, 6), "yatzy")]
"""A Yatzy card typed in: four of each number (84 in the upper section: its bonus of 50) and a
Yatzy; 352 points in all."""
BOS_CARD = [((1, 2, 3, 4, 6), box) for _, box in ANNS_CARD]
"""The same boxes, every one with 1 2 3 4 6: no bonus (16 in the upper section), the Yatzy box
crossed out; 1 + 2 + 3 + 4 + 0 + 6 and 16 for the chance, 32 points."""


def typed_yatzy(turns: int) -> Game:
    """Ann's and Bo's cards typed in turn by turn (Ann first): the first ``turns`` turns of the
    game's 30."""
    game = Game("yatzy", [Seat("Ann"), Seat("Bo")], first=0, dice_from="players")
    for (anns, box), (bos, bos_box) in zip(ANNS_CARD, BOS_CARD, strict=True):
        for dice, scored in ((anns, box), (bos, bos_box)):
            if len(game.log) == 2 * turns:
                return game
            game.apply(Roll((), dice))
            game.apply(Score(scored))
    return game


def test_a_summary_tells_each_seats_bonus_bonus_points_and_yatzys(db: Database) -> None:
    """Ann earns the upper bonus and scores a Yatzy, Bo neither (his Yatzy box crossed out with
    0); while the game goes on, an empty Yatzy box is no Yatzy and a bonus not yet reached none."""
    whole = typed_yatzy(30)
    assert whole.is_over
    game_id = record_game(db, whole, at=T0)
    expected = (("Ann", "person", None, 352, 15, 1, True, True, 50, 0, 1, None),
                ("Bo", "person", None, 32, 15, 2, False, False, 0, 0, 0, None))
    for summary in (get_game(db, game_id), *list_games(db)):
        assert tuple(dataclasses.astuple(r)[1:] for r in summary.seats) == expected
        assert [r.seat for r in summary.seats] == [0, 1]
    part = typed_yatzy(13)  # Ann's first seven turns (her upper section: 84, the bonus) and Bo's six
    part_id = record_game(db, part, at=T0)
    assert [dataclasses.astuple(r)[4:] for r in get_game(db, part_id).seats] == [
        (84 + 50 + 12, 7, None, None, True, 50, 0, 0, None), (16, 6, None, None, False, 0, 0, 0, None)]


def test_a_game_that_would_not_load_back_as_it_is_is_not_recorded(db: Database) -> None:
    """A game whose log was added to behind its back no longer replays, one whose card was
    changed replays to another state: neither is recorded, each refused in whole words."""
    game = scorekeeper_game([(6, 6, 6, 6, 6)], "players")
    game.log.append(Score("ones"))  # Ann's turn scored without a roll
    with pytest.raises(YatzyError) as replayed:
        games_module.replay_save(json.loads(json.dumps(game.to_dict())), "players")
    with pytest.raises(StorageError) as refused:
        record_game(db, game)
    assert str(refused.value) == f"the game was not recorded: {replayed.value}"
    game.log.pop()
    game.state.players[1].card["sixes"] = 29  # Bo's: the log says 30
    words = "^the game was not recorded: replaying its log does not give its state$"
    with pytest.raises(StorageError, match=words):
        record_game(db, game)
    assert list_games(db) == []


# ---- statistics -----------------------------------------------------------------------------

def test_statistics_equal_those_computed_by_hand(db: Database) -> None:
    finished = [play("yatzy", seed, bonus_threshold=42) for seed in range(6)]
    finished += [play("yahtzee", seed) for seed in range(3)]
    unfinished = play("yatzy", 99, actions=50, bonus_threshold=42)
    ids = [record_game(db, g, at=T0 + timedelta(minutes=i)) for i, g in enumerate(finished)]
    record_game(db, unfinished)
    lost = {(ids[0], 0): 12.5, (ids[1], 0): 3.25, (ids[2], 1): 7.0}
    for (game_id, seat), points in lost.items():
        set_points_lost(db, game_id, seat, points)

    by_hand: dict[tuple[str, str], dict[str, list[float]]] = {}
    for game_id, g in zip(ids, finished, strict=True):
        outcome = g.outcome()
        assert outcome is not None
        yatzy_box = "yahtzee" if g.ruleset.name == "yahtzee" else "yatzy"
        for i, who in enumerate(g.seats):
            card = g.state.players[i].card
            d = by_hand.setdefault((g.ruleset.name, who.name), {k: [] for k in (
                "total", "win", "bonus", "yatzy", "lost")})
            d["total"].append(g.total(i))
            d["win"].append(i in outcome.winners)
            d["bonus"].append(g.ruleset.bonus_points(card)["bonus"] > 0)
            d["yatzy"].append(card[yatzy_box] > 0)
            if (game_id, i) in lost:
                d["lost"].append(lost[game_id, i])
    stats = player_stats(db)
    assert {(p.ruleset, p.name) for p in stats} == set(by_hand)
    for p in stats:
        d = by_hand[p.ruleset, p.name]
        assert p.games == len(d["total"])
        assert p.wins == sum(d["win"])
        assert p.mean == pytest.approx(statistics.mean(d["total"]))
        assert p.best == max(d["total"])
        assert p.bonus_rate == pytest.approx(statistics.mean(d["bonus"]))
        assert p.yatzy_rate == pytest.approx(statistics.mean(d["yatzy"]))
        assert p.analysed == len(d["lost"])
        assert p.mean_points_lost == (pytest.approx(statistics.mean(d["lost"])) if d["lost"] else None)
    assert any(0 < p.bonus_rate < 1 for p in stats) and any(0 < p.yatzy_rate < 1 for p in stats)  # teeth
    assert any(0 < p.wins < p.games for p in stats)
    assert [(p.ruleset, p.name) for p in player_stats(db, "yahtzee", player="Rita")] == [("yahtzee", "Rita")]
    assert player_stats(db, "maxi") == []

    seats = [(g.total(i), gid, i) for gid, g in zip(ids, finished, strict=True) if g.ruleset.name == "yatzy"
             for i in range(3)]
    best = sorted(seats, key=lambda t: (-t[0], t[1], t[2]))[:5]
    top = records(db, "yatzy", limit=5)
    assert [(r.total, r.game_id, r.seat) for r in top] == best
    by_id = dict(zip(ids, finished, strict=True))
    assert [(r.name, r.kind, r.level) for r in top] == [
        (s.name, s.kind, s.level) for s in (by_id[r.game_id].seats[r.seat] for r in top)]
    assert {r.level for r in top} - {None}  # teeth: a bot's level is among them
    assert [r.finished_at for r in top] == [T0 + timedelta(minutes=ids.index(r.game_id)) for r in top]

    totals = [t for t, _, _ in seats]
    hist = score_histogram(db, "yatzy", bin=25)
    assert hist.bin == 25 and hist.count == len(totals) == 18
    assert dict(hist.bins) == {low: sum(low <= t < low + 25 for t in totals)
                               for low in range(min(totals) // 25 * 25, max(totals) + 1, 25)}
    ann_hist = score_histogram(db, "yatzy", bin=10, player="Ann")
    assert ann_hist.count == 6 and all(low % 10 == 0 for low, _ in ann_hist.bins)
    assert score_histogram(db, "Scandinavian", bin=25) == hist  # an alias names the ruleset
    assert hist.ruleset == "yatzy"
    assert score_histogram(db, "maxi") == Histogram("maxi", 10, ())  # bins of 10 by default
    for bad in (0, True, 2.5):
        words = f"^a histogram's bins are 1 point wide or more, not {bad}$"
        with pytest.raises(InvalidActionError, match=words):
            score_histogram(db, "yatzy", bin=bad)  # type: ignore[arg-type]


def test_a_player_is_a_name_a_kind_and_a_level(db: Database) -> None:
    """The person Rita, the random bot Rita and the greedy bot Rita are three players."""
    record_game(db, play("kids", 1))  # Rita the random bot
    record_game(db, play_out(Game("kids", [Seat("Rita"), Seat.bot("greedy", "Rita")], seed=2), seed=2))
    assert [(p.kind, p.level, p.games) for p in player_stats(db, "kids", player="Rita")] == [
        ("bot", "greedy", 1), ("bot", "random", 1), ("person", None, 1)]
    record_game(db, play_out(Game("kids", [Seat("Rita")], seed=3), seed=3))
    assert [(p.kind, p.level, p.games) for p in player_stats(db, "kids", player="Rita")] == [
        ("person", None, 2), ("bot", "greedy", 1), ("bot", "random", 1)]  # the most games first


def test_typed_dice_never_rank_among_the_servers(db: Database) -> None:
    """A scorekeeper game can hold any dice: five Yatzys typed in rank nowhere among the
    records, the statistics or the spread of the games the server rolled, even under the name of
    a player of real games; they have tables of their own."""
    real = play("kids", seed=4)
    real_id = record_game(db, real)
    typed = scorekeeper_game([(6, 6, 6, 6, 6)] * 12)  # Kids' Yatzy: 6 boxes each, every one perfect
    assert typed.is_over
    typed_id = record_game(db, typed, "players")
    ann = real.seats[0].name
    assert ann == "Ann" and typed.seats[0].name == ann  # the same name in both

    server = records(db, "kids")
    assert {r.game_id for r in server} == {real_id}
    assert [r.total for r in server] == sorted((real.total(i) for i in range(len(real.seats))), reverse=True)
    assert {r.game_id for r in records(db, "kids", dice_from="players")} == {typed_id}
    assert max(r.total for r in records(db, "kids", dice_from="players")) == typed.total(0)
    stats = {p.name: p for p in player_stats(db, "kids")}
    assert stats[ann].games == 1 and stats[ann].best == real.total(0)
    typed_stats = {p.name: p for p in player_stats(db, "kids", dice_from="players")}
    assert typed_stats[ann].games == 1 and typed_stats[ann].best == typed.total(0)
    assert score_histogram(db, "kids", bin=1).count == len(real.seats) == 3
    assert score_histogram(db, "kids", bin=1, dice_from="players").count == 2
    assert finished_count(db, "kids") == finished_count(db, "kids", dice_from="players") == 1
    assert finished_count(db, "yatzy") == 0
    for bad in ("typed", "", None):
        with pytest.raises(InvalidActionError, match="server"):
            records(db, "kids", dice_from=bad)  # type: ignore[arg-type]


def test_records_are_ten_by_default_and_equal_totals_go_by_the_earlier_finish(db: Database) -> None:
    """Twelve equal totals (six typed games of two, five sixes every turn): ten records by
    default and one at least; of equal totals the earlier finish first, then the lower game
    and seat; a game corrected after its end says so."""
    games = [scorekeeper_game([(6, 6, 6, 6, 6)] * 12, "players") for _ in range(6)]
    games[4].amend(0, games[4].log[:2])  # the first turn typed again once the game was over
    finish = [3, 1, 1, 0, 2, 3]  # minutes after T0: not the order the games are stored in
    ids = [record_game(db, g, at=T0 + timedelta(minutes=m)) for g, m in zip(games, finish, strict=True)]
    assert len({g.total(i) for g in games for i in range(2)}) == 1  # every total the same
    ranked = sorted((finish[k], ids[k], seat) for k in range(6) for seat in range(2))
    top = records(db, "kids", dice_from="players")
    assert [(r.game_id, r.seat) for r in top] == [(game_id, seat) for _, game_id, seat in ranked[:10]]
    assert [r.corrected_after_end for r in top] == [r.game_id == ids[4] for r in top]
    listed = list_games(db, ids=ids)
    assert [g.corrected_after_end for g in listed] == [g.id == ids[4] for g in listed]
    assert get_game(db, ids[4]).corrected_after_end and not get_game(db, ids[3]).corrected_after_end
    assert [(r.name, r.kind) for r in top] == [(("Ann", "Bo")[r.seat], "person") for r in top]
    assert [(r.game_id, r.seat) for r in records(db, "kids", 1, dice_from="players")] == [ranked[0][1:]]
    with pytest.raises(InvalidActionError, match="^list at least 1 record, not 0$"):
        records(db, "kids", 0, dice_from="players")


def test_points_lost_are_set_cleared_and_dropped_when_the_game_goes_on(db: Database) -> None:
    game = play("kids", seed=3, actions=20)
    game_id = record_game(db, game)
    set_points_lost(db, game_id, 0, 4.5)
    assert get_game(db, game_id).seats[0].points_lost == 4.5
    record_game(db, game, game_id=game_id)  # nothing new: the analysis still holds
    assert get_game(db, game_id).seats[0].points_lost == 4.5
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(InvalidActionError, match=f"^points lost are 0 or more, not {bad}$"):
            set_points_lost(db, game_id, 0, bad)
    play_out(game, seed=3, actions=1)
    record_game(db, game, game_id=game_id)  # a longer log: the old analysis no longer covers it
    assert get_game(db, game_id).seats[0].points_lost is None
    set_points_lost(db, game_id, 1, 2)
    set_points_lost(db, game_id, 1, None)
    assert get_game(db, game_id).seats[1].points_lost is None


def test_an_analysis_is_stored_for_every_seat_it_covers(db: Database) -> None:
    rs = get_ruleset("kids")
    game = Game(rs, [Seat("Ann"), Seat.bot("optimal")], seed=8)
    play_out(game, [make_bot("random", rs, seed=1), make_bot("optimal", rs)])
    game_id = record_game(db, game)
    analysis = analyse(game)
    store_analysis(db, game_id, analysis)
    seats = get_game(db, game_id).seats
    assert [r.points_lost for r in seats] == [pytest.approx(s.total_lost) for s in analysis.seats]
    assert (seats[0].points_lost or 0) > 1 > (seats[1].points_lost or 0)
    stats = {p.name: p for p in player_stats(db, "kids")}
    assert stats["Ann"].mean_points_lost == pytest.approx(analysis.seat(0).total_lost)

    part = play("kids", seed=2, actions=12)
    part_id = record_game(db, part)
    early = analyse(part, [0])
    play_out(part, seed=2)
    record_game(db, part, game_id=part_id)
    words = (f"^this analysis covers 12 actions of a kids game, but game {part_id} is a kids game of "
             f"{len(part.log)} actions: analyse the stored game$")
    with pytest.raises(GameConflictError, match=words):
        store_analysis(db, part_id, early)  # made before the game went on
    with pytest.raises(GameConflictError):
        store_analysis(db, game_id, analyse(part, [0]))  # another game's
    assert get_game(db, part_id).seats[0].points_lost is None


# ---- failures -------------------------------------------------------------------------------

def test_a_write_to_a_read_only_database_fails_and_keeps_the_records(db: Database, url: str) -> None:
    games = [play("yatzy", 1), play("kids", 2)]
    ids = [record_game(db, g) for g in games]
    db.close()
    with Database(read_only(url)) as ro:  # at head already: opening only reads
        with pytest.raises(StorageError, match="could not write") as failure:
            record_game(ro, play("maxi", 3))
        assert re.fullmatch(r"could not write to the game database: .*read-?only.*; nothing was changed",
                            str(failure.value), re.IGNORECASE)  # the database's own words in ours
        with pytest.raises(StorageError):
            set_points_lost(ro, ids[0], 0, 1.0)
        with pytest.raises(StorageError):
            record_game(ro, games[0], game_id=ids[0])
        assert [g.id for g in list_games(ro)] == ids[::-1]  # reading still works
    with Database(url) as again:
        assert [g.id for g in list_games(again)] == ids[::-1]
        for game_id, g in zip(ids, games, strict=True):
            same_game(load_game(again, game_id), g)
        assert get_game(again, ids[0]).seats[0].points_lost is None


def journal_mode(db: Database) -> str:
    with db.engine.connect() as conn:
        return str(conn.exec_driver_sql("PRAGMA journal_mode").scalar())


def test_a_servers_sqlite_file_takes_write_ahead_logging_and_keeps_it(db: Database, url: str) -> None:
    """A server's SQLite file is switched to write-ahead logging, which the file keeps; a
    read-only file refuses it in the database's words; an in-memory database and PostgreSQL
    are left as they are."""
    if db.engine.dialect.name != "sqlite":
        db.use_wal()  # nothing to switch, nothing refused
        assert [g.id for g in list_games(db)] == []
        return
    record_game(db, play("kids", 1))
    assert journal_mode(db) == "delete"
    db.close()
    with Database(read_only(url)) as ro:
        with pytest.raises(StorageError) as failure:
            ro.use_wal()
        assert str(failure.value) == ("could not write to the game database: attempt to write a readonly "
                                      "database; nothing was changed")
        assert journal_mode(ro) == "delete"
    db.use_wal()
    assert journal_mode(db) == "wal"
    with Database(url) as again:
        assert journal_mode(again) == "wal" and len(list_games(again)) == 1
    with Database("sqlite://") as memory:
        memory.use_wal()
        assert journal_mode(memory) == "memory"


def test_a_write_failing_halfway_changes_nothing(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    part = play("yatzy", 4, actions=30)
    game_id = record_game(db, part)
    real = games_module.seat_results

    def broken(game: Game) -> list[dict[str, object]]:  # the game row is written, then a seat is refused
        rows = real(game)
        return [*rows, {**rows[0], "seat": len(rows), "kind": "alien"}]

    monkeypatch.setattr(games_module, "seat_results", broken)
    with pytest.raises(StorageError, match="could not write"):
        record_game(db, play("kids", 5))
    more = play("yatzy", 4, actions=60)
    with pytest.raises(StorageError):
        record_game(db, more, game_id=game_id)
    monkeypatch.undo()
    assert [g.id for g in list_games(db)] == [game_id]
    stored = get_game(db, game_id)
    assert (stored.actions, [r.total for r in stored.seats]) == (30, part.totals())
    same_game(load_game(db, game_id), part)
    assert record_game(db, more, game_id=game_id) == game_id


def test_a_closed_connection_is_a_storage_error(db: Database) -> None:
    game_id = record_game(db, play("kids", 1))
    conn = db.engine.connect()
    session = Session(bind=conn)
    conn.close()
    with pytest.raises(StorageError, match="could not write"):
        record_game(session, play("kids", 2))
    with pytest.raises(StorageError, match="could not read"):
        list_games(session)
    with pytest.raises(StorageError):
        load_game(session, game_id)
    assert [g.id for g in list_games(db)] == [game_id]


def test_a_session_keeps_the_callers_transaction(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    with db.session() as s:
        first = record_game(s, play("kids", 1))
        assert [g.id for g in list_games(s)] == [first]
        s.rollback()  # the caller decides: no commit, no game
    assert list_games(db) == []
    with db.session() as s:
        record_game(s, play("kids", 1))
    assert list_games(db) == []  # closed without a commit
    with db.session() as s, s.begin():
        kept = record_game(s, play("kids", 1))
        with pytest.raises(GameConflictError):
            record_game(s, play("yatzy", 2), game_id=kept)
        real = games_module.seat_results
        monkeypatch.setattr(games_module, "seat_results", lambda game: [*real(game), real(game)[0]])
        with pytest.raises(StorageError, match="could not write"):  # the database refuses
            record_game(s, play("kids", 3))
        monkeypatch.undo()
        other = record_game(s, play("kids", 4))  # only the savepoint was undone
    assert sorted(g.id for g in list_games(db)) == sorted([kept, other])
    assert len({g.id for g in list_games(db)}) == 2


def test_a_database_engine_can_be_shared(url: str) -> None:
    engine: Engine = make_engine(url)
    try:
        with Database(engine) as one:
            game_id = record_game(one, play("kids", 1))
        two = Database(engine, upgrade=False)
        assert get_game(two, game_id).id == game_id
    finally:
        engine.dispose()


def test_two_writers_at_once_both_succeed(url: str) -> None:
    """Writes that read first (an update) queue behind each other instead of failing."""
    from concurrent.futures import ThreadPoolExecutor

    game = play("kids", 1, actions=30)
    with Database(url) as db:
        game_id = record_game(db, game)

    def writer(seat: int) -> int:
        with Database(url, upgrade=False) as mine:
            for k in range(15):
                record_game(mine, game, game_id=game_id)
                set_points_lost(mine, game_id, seat, float(k))
            return record_game(mine, game)

    with ThreadPoolExecutor(3) as pool:
        new = list(pool.map(writer, [0, 1, 2]))
    with Database(url) as db:
        assert sorted(g.id for g in list_games(db)) == sorted([game_id, *new])
        assert [r.points_lost for r in get_game(db, game_id).seats] == [14.0] * 3


# ---- the group commit (the web server's writer) ---------------------------------------------

class Refused(Exception):
    """A write's own refusal, raised before it wrote anything."""


def test_the_group_commit_stores_every_write_and_gives_each_its_own_error(db: Database) -> None:
    """Writes waiting together share a transaction; a clean refusal, a database error and a
    failure after writing each reach only their caller, and every other write is stored."""
    import asyncio

    from yatzy.storage.database import GroupCommit

    commits = GroupCommit(db, clean=(Refused,))
    games = [play("kids", seed, actions=10) for seed in range(6)]

    def refuse(s: Session) -> int:
        raise Refused("no")

    def half(s: Session) -> int:  # writes a game, then fails: its game must not be stored
        record_game(s, play("kids", 99))
        raise RuntimeError("after writing")

    async def main() -> list[Any]:
        jobs: list[Any] = [commits.run(n, lambda s, g=g: record_game(s, g)) for n, g in enumerate(games)]
        jobs += [commits.run(10, refuse), commits.run(11, half)]
        return await asyncio.gather(*jobs, return_exceptions=True)

    try:
        results = asyncio.run(main())
    finally:
        commits.close()
    stored, refused, failed = results[:6], results[6], results[7]
    assert isinstance(refused, Refused) and isinstance(failed, RuntimeError)
    assert all(isinstance(i, int) for i in stored)
    assert sorted(g.id for g in list_games(db)) == sorted(stored)
    for game_id, game in zip(stored, games, strict=True):
        same_game(load_game(db, game_id), game)


def test_the_group_commit_takes_a_new_connection_when_its_own_broke(url: str) -> None:
    """The writer keeps one connection; if the database drops it between writes (a restart,
    an administrator), the next write is made on a new one instead of failing."""
    import asyncio

    from yatzy.storage.database import GroupCommit

    with Database(url) as db:
        commits = GroupCommit(db)

        async def write(seed: int) -> int:
            return await commits.run(0, lambda s: record_game(s, play("kids", seed, actions=5)))

        try:
            first = asyncio.run(write(1))
            connection = commits._connection
            assert connection is not None
            raw = connection.connection.dbapi_connection
            if db.engine.dialect.name == "postgresql":  # the server ends the session
                with db.engine.connect() as other:
                    other.exec_driver_sql(f"SELECT pg_terminate_backend({raw.info.backend_pid})")
            else:
                raw.close()
            second = asyncio.run(write(2))
            assert commits._connection is not None and commits._connection is not connection
        finally:
            commits.close()
        assert sorted(g.id for g in list_games(db)) == sorted([first, second])



def test_sqlite_writers_of_one_process_take_turns_on_its_lock(db: Database) -> None:
    """SQLite: a thread of this process that writes holds the database's lock, so another
    thread's write waits on it rather than in SQLite's busy handler; PostgreSQL has no such
    lock (its writers queue in the server)."""
    import threading

    if db.engine.dialect.name != "sqlite":
        assert db.write_lock is None
        return
    assert db.write_lock is not None
    lock = db.write_lock
    free: list[bool] = []

    def try_lock() -> None:  # another thread, while this one writes
        taken = lock.acquire(blocking=False)
        free.append(taken)
        if taken:
            lock.release()

    with writing(db):
        other = threading.Thread(target=try_lock)
        other.start()
        other.join()
    try_lock()  # the write is over: free again
    assert free == [False, True]


def test_the_group_commit_writes_on_one_daemon_thread_and_keeps_its_connection(db: Database) -> None:
    """Every write of a group commit runs on one thread of its own (named, and a daemon: it
    never keeps the process from ending) over one connection kept from one transaction to the
    next; a write handed in while the thread is alive starts no second thread."""
    import asyncio
    import threading

    from yatzy.storage.database import GroupCommit

    commits = GroupCommit(db)
    ran_on: list[threading.Thread] = []

    def write(s: Session, seed: int) -> int:
        ran_on.append(threading.current_thread())
        return record_game(s, play("kids", seed, actions=2))

    async def two_writes() -> list[int]:
        first = await commits.run(0, lambda s: write(s, 1))
        connection = commits._connection
        second = await commits.run(0, lambda s: write(s, 2))
        assert connection is not None and commits._connection is connection
        return [first, second]

    try:
        ids = asyncio.run(two_writes())
        writers = [t for t in threading.enumerate() if t.name == "group-commit"]
        assert writers == [ran_on[0]] == [ran_on[1]]
        assert writers[0].daemon and writers[0] is not threading.main_thread()
    finally:
        commits.close()
    assert not ran_on[0].is_alive()  # closed: the thread ends
    assert sorted(g.id for g in list_games(db)) == sorted(ids)


async def hold_the_writer(commits: Any) -> tuple[Any, Any]:
    """Hand a group commit a first write that holds its thread until the returned event is set;
    back once the thread is in it (the writes handed in meanwhile wait for one transaction)."""
    import asyncio
    import threading

    started, hold = threading.Event(), threading.Event()

    def holding(s: Session) -> None:
        started.set()
        hold.wait(10)

    first = asyncio.ensure_future(commits.run(-1, holding))
    assert await asyncio.to_thread(started.wait, 10)
    return first, hold


def in_one_batch(commits: Any, writes: Sequence[tuple[int, Any]]) -> list[Any]:
    """Hand ``writes`` ((order, write) pairs) to a group commit so that they share one
    transaction: a first write holds its thread until every one of them is handed in. Their
    results (or errors), in the order given; ``then`` (if set) runs before the hold ends."""
    import asyncio

    async def main() -> list[Any]:
        first, hold = await hold_the_writer(commits)
        jobs = [asyncio.ensure_future(commits.run(order, write)) for order, write in writes]
        await asyncio.sleep(0)  # each job hands its write in
        hold.set()
        await first
        return await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), 30)

    return asyncio.run(main())


class Boom(Exception):
    """Not a database error: a commit hook's own failure."""


@pytest.mark.parametrize("failure, words", [
    (OperationalError("COMMIT", {}, Exception("disk I/O error")),
     "could not write to the game database: disk I/O error; nothing was changed"),
    (Boom("the hook broke"), "the hook broke")])
def test_a_failed_commit_fails_every_write_of_its_transaction(db: Database, failure: Exception,
                                                             words: str) -> None:
    """When the shared transaction's commit fails, each of its writes gets a storage error in
    the commit's words (the database's own, or the error's) and none of them is stored."""
    from yatzy.storage.database import GroupCommit

    def commit_fails(s: Session) -> int:  # the connection's COMMIT fails (not a savepoint's)
        def fail(_connection: Any) -> None:
            raise failure
        event.listen(s.connection(), "commit", fail, once=True)
        return record_game(s, play("kids", 1, actions=2))

    commits = GroupCommit(db)
    try:
        results = in_one_batch(commits, [(0, commit_fails),
                                         (1, lambda s: record_game(s, play("kids", 2, actions=2)))])
    finally:
        commits.close()
    assert [(type(r), str(r)) for r in results] == [(StorageError, words)] * 2
    assert list_games(db) == []


def test_in_one_transaction_a_refusal_and_a_database_error_reach_only_their_callers(db: Database) -> None:
    """A clean refusal alone in a transaction is its caller's error as it is (no second
    pass); with a database error in the same transaction, each write runs again in its own
    savepoint: the failing one gets the error in the database's words, the refusal its own,
    the others are stored."""
    from yatzy.storage.database import GroupCommit

    def refuse(s: Session) -> int:
        raise Refused("seat taken")

    def database_error(s: Session) -> int:
        raise OperationalError("INSERT", {}, Exception("disk I/O error"))

    commits = GroupCommit(db, clean=(Refused,))
    try:
        alone = in_one_batch(commits, [(0, lambda s: record_game(s, play("kids", 1, 2))), (1, refuse)])
        mixed = in_one_batch(commits, [(0, lambda s: record_game(s, play("kids", 2, actions=2))),
                                       (1, database_error), (2, refuse)])
    finally:
        commits.close()
    assert [type(r) for r in alone] == [int, Refused] and str(alone[1]) == "seat taken"
    assert [type(r) for r in mixed] == [int, StorageError, Refused]
    assert str(mixed[1]) == "could not write to the game database: disk I/O error; nothing was changed"
    assert sorted(g.id for g in list_games(db)) == sorted([alone[0], mixed[0]])


def test_a_group_commits_writes_run_in_the_order_of_their_keys(db: Database) -> None:
    """The writes of one transaction run by their order key (PostgreSQL locks rows in that
    order), those of equal keys as they were handed in."""
    from yatzy.storage.database import GroupCommit

    ran: list[str] = []

    def write(name: str) -> Any:
        return lambda s: ran.append(name) or name

    commits = GroupCommit(db)
    try:
        results = in_one_batch(commits, [(3, write("c")), (1, write("a")), (2, write("b")), (1, write("a2"))])
    finally:
        commits.close()
    assert (ran, results) == (["a", "a2", "b", "c"], ["c", "a", "b", "a2"])


def test_closing_a_group_commit_first_commits_the_writes_handed_in(db: Database) -> None:
    """A close while writes wait for the thread: they are committed first, then the thread ends."""
    import asyncio
    import time

    from yatzy.storage.database import GroupCommit

    commits = GroupCommit(db)

    async def main() -> list[Any]:
        first, hold = await hold_the_writer(commits)
        jobs = [asyncio.ensure_future(commits.run(n, lambda s, n=n: record_game(s, play("kids", n, 2))))
                for n in (1, 2)]
        await asyncio.sleep(0)
        closing = asyncio.ensure_future(asyncio.to_thread(commits.close))
        deadline = time.monotonic() + 10
        while commits._queue.qsize() < 3 and time.monotonic() < deadline:  # the two writes and the stop
            await asyncio.sleep(0.01)
        writer = commits._thread
        hold.set()
        await first
        await asyncio.wait_for(closing, 20)
        assert writer is not None and not writer.is_alive()
        return await asyncio.wait_for(asyncio.gather(*jobs), 10)

    try:
        ids = asyncio.run(main())
    finally:
        commits.close()
    assert sorted(g.id for g in list_games(db)) == sorted(ids)


# ---- the rooms' records (what the web's authority writes through RoomStore) ----------------

@dataclasses.dataclass
class Held:
    """A room as a server process holds it: what :class:`RoomStore`'s writes read of a web room."""

    id: int
    game_id: int
    game: Game
    logged: int = 0


def stored_room(db: Database, game: Game, table: str = "table-token",
                **settings: object) -> tuple[RoomStore, Held, str]:
    """A new room of ``game`` (hot seat: the table's token is ``table``): its store, the room
    as held, its code."""
    room_id, code, game_id = RoomStore.store(db, game, dict(settings), "salt", "commitment", table)
    return RoomStore(db), Held(room_id, game_id, game, len(game.log)), code


def test_a_rooms_actions_are_committed_on_its_version_and_load_back(db: Database) -> None:
    game = new_game("kids", seed=3)
    store, held, code = stored_room(db, game, mode="hot_seat")
    play_out(game, seed=3, actions=4)
    store.commit_action(db, held, 0, "first", 1)
    with pytest.raises(RoomConflictError, match="^another server process moved this game first$"):
        store.commit_action(db, held, 0, "again", 1)  # the version seen is no longer the stored one
    held.logged = 4
    play_out(game, seed=3, actions=3)
    store.commit_action(db, held, 4, None, None)
    record = store.load(code)
    assert record is not None
    assert (record.id, record.code, record.game_id, record.settings) == (held.id, code, held.game_id,
                                                                         {"mode": "hot_seat"})
    assert (record.salt, record.commitment, record.saved, record.version) == ("salt", "commitment", 0, 7)
    assert record.accepted == {"first": (1, 4)}
    same_game(record.game, game)
    assert store.versions([code, "NOSUCHROOM"]) == {code: 7}
    assert store.load("NOSUCHROOM") is None
    with reading(db) as s:  # the room and its game begin at one moment
        assert s.scalar(select(RoomRow.created_at).where(RoomRow.code == code)) == get_game(
            db, held.game_id).started_at


def test_a_new_rooms_code_that_another_room_has_is_drawn_again(
        db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """Codes are drawn at random: one that names a room already (an expired one too) is
    drawn again, as often as it takes."""
    store, _, taken = stored_room(db, new_game("kids", seed=1))
    _, _, old = stored_room(db, new_game("kids", seed=2), "another-table")
    store.touch([old], T0)
    assert store.expire(idle_before=T0 + SECOND, finished_before=T0, now=T0) == [old]
    draws = iter([taken, old, taken, "FRESH2345"])
    monkeypatch.setattr(rooms_module, "new_code", lambda: next(draws))
    _, held, code = stored_room(db, new_game("kids", seed=3), "third-table")
    assert code == "FRESH2345" and next(draws, None) is None
    record = store.load(code)
    assert record is not None and record.id == held.id


def test_a_commit_with_no_action_the_database_lacks_appends_nothing(db: Database) -> None:
    """The room's log already holds every action of the game (``logged`` is its length): the
    commit moves the version on and keeps the action id, and appends no row."""
    game = new_game("kids", seed=3)
    store, held, code = stored_room(db, game)
    play_out(game, seed=3, actions=2)
    store.commit_action(db, held, 0, None, None)
    held.logged = 2
    store.commit_action(db, held, 2, "again", 0)
    with reading(db) as s:
        assert sorted(s.scalars(select(RoomLogRow.position))) == [0, 1]
    record = store.load(code)
    assert record is not None and (record.version, record.accepted) == (2, {"again": (0, 2)})
    same_game(record.game, game)


def test_a_finished_rooms_save_holds_its_actions_and_only_at_the_stored_version(db: Database) -> None:
    game = new_game("kids", seed=5)
    store, held, code = stored_room(db, game)
    play_out(game, seed=5, actions=6)
    store.commit_action(db, held, 0, None, None)
    held.logged = 6
    store.touch([code], T0)  # last moved at T0
    assert store.unfinished(T0) == [code] and store.unfinished(T0 + SECOND) == []
    play_out(game, seed=5)
    with pytest.raises(RoomConflictError, match="^another server process moved this game first$"):
        store.save_game(db, held)  # the stored room is still at 6 actions
    store.commit_action(db, held, 6, None, None)
    store.save_game(db, held)
    with reading(db) as s:  # the save holds every action: the appended ones are gone
        assert s.scalar(select(func.count()).select_from(RoomLogRow)) == 0
    record = store.load(code)
    assert record is not None and record.saved == len(game.log)
    same_game(record.game, game)
    same_game(load_game(db, held.game_id), game)
    store.touch([code], T0)
    assert store.unfinished(T0) == []  # finished


def test_a_scorekeeper_rooms_correction_writes_its_save_anew(db: Database) -> None:
    """An undo or a correction (``rewrite``) writes the game's whole save again, drops the
    room's appended actions and keeps the version, the edits counted."""
    game = scorekeeper_game([(6, 6, 6, 6, 6), (1, 1, 2, 3, 4)], "players")
    store, held, code = stored_room(db, game)  # the save holds these two turns
    type_in(game, [(5, 5, 5, 2, 2)])
    store.commit_action(db, held, 4, None, None)  # a third, appended
    held.logged = seen = game.version
    game.amend(0, [Roll((), (2, 2, 2, 3, 3)), Score("twos")])
    game.undo()
    assert game.edits > 0 and game.log[0] != Roll((), (6, 6, 6, 6, 6))  # teeth: the log changed
    store.commit_action(db, held, seen, "fix", 0, rewrite=True)
    with reading(db) as s:
        assert s.scalar(select(func.count()).select_from(RoomLogRow)) == 0
    record = store.load(code)
    assert record is not None
    assert (record.saved, record.version) == (len(game.log), game.version)
    assert record.accepted == {"fix": (0, game.version)}
    same_game(record.game, game)
    summary = get_game(db, held.game_id)
    assert summary.actions == len(game.log) == 5
    with reading(db) as s:  # the room and its game's save were written at one moment
        assert s.scalar(select(RoomRow.updated_at).where(RoomRow.code == code)) == summary.updated_at


def test_a_room_loads_its_save_then_only_the_actions_appended_after_it(db: Database) -> None:
    """The room's first four actions are in its game's save (the history brought up to date
    while their rows in the room's log stayed); the room loads from that save and the two rows
    appended after it, not from those four again."""
    game = new_game("kids", seed=3)
    store, held, code = stored_room(db, game)
    play_out(game, seed=3, actions=4)
    store.commit_action(db, held, 0, None, None)
    held.logged = 4
    record_game(db, game, game_id=held.game_id)
    play_out(game, seed=3, actions=2)
    store.commit_action(db, held, 4, None, None)
    with reading(db) as s:  # the room's log still holds the first four
        assert sorted(s.scalars(select(RoomLogRow.position))) == [0, 1, 2, 3, 4, 5]
    record = store.load(code)
    assert record is not None and (record.saved, record.version) == (4, 6)
    same_game(record.game, game)


def test_a_room_whose_game_no_longer_loads_is_refused_in_words(db: Database) -> None:
    """A room whose save's dice no longer follow its seed does not load (its dice are the
    server's: they are checked), in the words of the replay's refusal."""
    game = new_game("kids", seed=4)
    store, held, code = stored_room(db, game)
    play_out(game, seed=4, actions=4)
    store.commit_action(db, held, 0, None, None)
    held.logged = 4
    store.save_game(db, held)
    with writing(db) as s:  # the first roll changed behind the game's back
        row = s.get(GameRow, held.game_id)
        assert row is not None
        save = json.loads(json.dumps(row.save))
        save["log"][0]["roll"]["result"] = [7 - d for d in save["log"][0]["roll"]["result"]]
        row.save = save
    with pytest.raises(YatzyError) as replayed:
        games_module.replay_save(save, "server")
    with pytest.raises(StorageError) as failure:
        store.load(code)
    assert str(failure.value) == f"stored game {held.game_id} does not load: {replayed.value}"


def test_a_room_whose_game_was_deleted_by_hand_is_refused_in_words(db: Database, url: str) -> None:
    """The sqlite3 shell keeps no foreign keys unless told to: a game deleted there leaves its
    room, which then names the game it lacks (PostgreSQL always keeps them: no such room)."""
    if db.engine.dialect.name != "sqlite":
        pytest.skip("PostgreSQL deletes a game's room with it")
    store, held, code = stored_room(db, new_game("kids", seed=1))
    db.close()
    raw = sqlite3.connect(str(make_url(url).database))  # as the shell opens it: foreign keys off
    try:
        with raw:
            raw.execute("DELETE FROM games WHERE id = ?", (held.game_id,))
    finally:
        raw.close()
    with pytest.raises(StorageError) as failure:
        store.load(code)
    assert str(failure.value) == f"there is no game {held.game_id} in the database"


def test_a_seats_token_is_issued_once_until_the_seat_is_freed(db: Database) -> None:
    store, held, code = stored_room(db, new_game("kids", seed=1))
    _, other, _ = stored_room(db, new_game("kids", seed=2), "another-table")
    elsewhere = store.issue_token(other.id, "seat", 1)
    assert store.check_token(held.id, "table-token") == ("table", None)
    seat = store.issue_token(held.id, "seat", 1)
    assert seat is not None and store.issue_token(held.id, "seat", 1) is None
    assert store.issue_token(held.id, "seat", 0) is not None
    watcher = store.issue_token(held.id, "spectator")
    assert watcher is not None and store.issue_token(held.id, "spectator") not in (None, watcher)
    assert (store.check_token(held.id, seat), store.check_token(held.id, watcher)) == (("seat", 1),
                                                                                       ("spectator", None))
    assert store.check_token(held.id + 1, seat) is None and store.check_token(held.id, "guess") is None
    record = store.load(code)
    assert record is not None and record.taken == {0, 1}
    store.free_seat(held.id, 1)
    assert store.check_token(held.id, seat) is None and store.check_token(held.id, watcher) is not None
    assert elsewhere is not None and store.check_token(other.id, elsewhere) == ("seat", 1)  # another room's
    record = store.load(code)
    assert record is not None and record.taken == {0}
    assert store.issue_token(held.id, "seat", 1) is not None


def test_only_a_seats_token_takes_holds_and_frees_a_seat(db: Database) -> None:
    """The store takes a token's role and seat apart: a spectator's token given a seat's number
    takes no seat, keeps none from a player and is not freed with it."""
    store, held, code = stored_room(db, new_game("kids", seed=1))
    watcher = store.issue_token(held.id, "spectator", 1)
    assert watcher is not None and store.check_token(held.id, watcher) == ("spectator", 1)
    record = store.load(code)
    assert record is not None and record.taken == set()
    seat = store.issue_token(held.id, "seat", 1)
    assert seat is not None and store.check_token(held.id, seat) == ("seat", 1)
    store.free_seat(held.id, 1)
    assert store.check_token(held.id, seat) is None
    assert store.check_token(held.id, watcher) == ("spectator", 1)


def test_the_games_of_a_players_tokens(db: Database) -> None:
    rooms = [stored_room(db, new_game("kids", seed=n), f"table-{n}") for n in range(3)]
    store = rooms[0][0]
    seat = store.issue_token(rooms[0][1].id, "seat", 0)
    watcher = store.issue_token(rooms[2][1].id, "spectator")
    assert seat is not None and watcher is not None
    assert store.games_of([seat, watcher, "guess"]) == {rooms[0][1].game_id, rooms[2][1].game_id}
    assert store.games_of(["table-1"]) == {rooms[1][1].game_id}
    assert store.games_of([]) == set() == store.games_of(["guess"])


def test_a_rooms_stand_ins_kept_seats_and_rematch_are_kept(db: Database) -> None:
    store, held, code = stored_room(db, new_game("kids", seed=1), mode="remote")
    store.save_stand_ins(held.id, {2: "greedy", 0: "random"})
    store.keep_seats(held.id, [0, 2])
    assert store.name_rematch(held.id, "REMATCH01") == "REMATCH01"
    assert store.name_rematch(held.id, "REMATCH02") == "REMATCH01"  # another process named it first
    store.keep_seats(held.id, [2])
    record = store.load(code)
    assert record is not None
    assert record.stand_ins == {2: "greedy", 0: "random"}
    assert record.settings == {"mode": "remote", "kept": [2], "rematch": "REMATCH01"}
    store.save_stand_ins(held.id, {})
    record = store.load(code)
    assert record is not None and record.stand_ins == {}


def test_a_room_expires_idle_or_finished_and_its_moves_go_into_the_history(db: Database) -> None:
    """An unfinished room expires when it has not moved since ``idle_before``, a finished one
    since ``finished_before`` (each on its own clock, both sides of the moment); its appended
    moves are written into its game's save first (a game with none is not written again), and
    it expires once."""
    game = new_game("kids", seed=1)
    store, held, idle = stored_room(db, game)
    play_out(game, seed=1, actions=3)
    store.commit_action(db, held, 0, "roll", 0)
    store.save_stand_ins(held.id, {1: "greedy"})
    _, finished, done = stored_room(db, play("kids", 2), "another-table")
    as_stored = get_game(db, finished.game_id)
    store.touch([idle, done], T0)
    assert store.expire(idle_before=T0, finished_before=T0, now=T0) == []  # not moved since T0: not before
    assert store.expire(idle_before=T0, finished_before=T0 + SECOND, now=T0) == [done]
    assert get_game(db, finished.game_id) == as_stored  # its save held every move: updated_at unchanged
    assert not store.expired(idle) and store.expired_among([idle, done]) == {done}
    assert store.expire(idle_before=T0 + SECOND, finished_before=T0 + SECOND, now=T0) == [idle]
    assert store.expire(idle_before=T0 + DAY, finished_before=T0 + DAY, now=T0) == []  # expired once
    assert store.expired(idle) and store.expired(done) and not store.expired("NOSUCHROOM")
    assert store.load(idle) is None and store.load(done) is None
    store.touch([idle], T0 + DAY)  # an expired room is not in use again
    with reading(db) as s:
        assert s.execute(select(RoomRow.stand_ins, RoomRow.updated_at).where(RoomRow.code == idle)).one() == (
            {}, T0)
    assert get_game(db, held.game_id).actions == 3
    same_game(load_game(db, held.game_id), game)


def test_which_of_some_rooms_have_expired(db: Database) -> None:
    store, _, old = stored_room(db, new_game("kids", seed=1))
    _, _, live = stored_room(db, new_game("kids", seed=2), "another-table")
    store.touch([old], T0)
    assert store.expire(idle_before=T0 + SECOND, finished_before=T0, now=T0) == [old]
    assert store.expired_among([old, live, "NOSUCHROOM"]) == {old}
    assert store.expired_among([live]) == set() == store.expired_among([])
    assert store.expired_among(iter([old])) == {old}  # any iterable of codes


def test_a_sweep_leaves_a_room_that_moved_or_failed_and_expires_the_others(
        db: Database, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Of three idle rooms with moves to write into the history, the first moves while the
    sweep reads it (it is not idle), the second's write fails (logged; it stays for the next
    sweep), the third expires."""
    rooms = [stored_room(db, new_game("kids", seed=n), f"table-{n}") for n in range(3)]
    for n, (store, held, _) in enumerate(rooms):
        play_out(held.game, seed=n, actions=2)
        store.commit_action(db, held, 0, None, None)
        held.logged = 2
    store = rooms[0][0]
    (_, moving, moved), (_, _, failing), (_, _, idle) = rooms
    store.touch([moved, failing, idle], T0)
    load, write = store.load, rooms_module.record_game

    def load_while_it_moves(code: str) -> RoomRecord | None:
        if code == moved:
            play_out(moving.game, seed=0, actions=1)
            store.commit_action(db, moving, 2, None, None)
        return load(code)

    def failing_write(target: Any, game: Game, *args: Any, game_id: int | None = None, **kw: Any) -> int:
        if game_id == rooms[1][1].game_id:
            raise StorageError("the disk is full")
        return write(target, game, *args, game_id=game_id, **kw)

    monkeypatch.setattr(store, "load", load_while_it_moves)
    monkeypatch.setattr(rooms_module, "record_game", failing_write)
    with caplog.at_level(logging.ERROR, logger=rooms_module.__name__):
        assert store.expire(idle_before=T0 + SECOND, finished_before=T0, now=T0) == [idle]
    assert [r.getMessage() for r in caplog.records] == [f"room {failing} could not expire: the disk is full"]
    monkeypatch.undo()
    assert store.expire(idle_before=T0 + SECOND, finished_before=T0, now=T0) == [failing]  # the next sweep
    assert not store.expired(moved)


def test_a_room_whose_moves_no_longer_load_expires_as_it_is_stored(
        db: Database, caplog: pytest.LogCaptureFixture) -> None:
    game = new_game("kids", seed=1)
    store, held, code = stored_room(db, game)
    play_out(game, seed=1, actions=2)
    store.commit_action(db, held, 0, None, None)
    with writing(db) as s:  # its appended moves out of place: the room no longer loads
        s.execute(update(RoomLogRow).values(position=RoomLogRow.position + 5))
    store.touch([code], T0)
    with caplog.at_level(logging.ERROR, logger=rooms_module.__name__):
        assert store.expire(idle_before=T0 + SECOND, finished_before=T0, now=T0) == [code]
    assert [r.getMessage() for r in caplog.records] == [
        f"room {code} expires without its last moves in the history: stored game {held.game_id} does not "
        "load: its appended actions have gaps"]
    assert get_game(db, held.game_id).actions == 0


def test_a_closed_group_commit_starts_again_on_the_next_write(db: Database) -> None:
    import asyncio

    from yatzy.storage.database import GroupCommit

    commits = GroupCommit(db)

    async def write(seed: int) -> int:
        return await commits.run(0, lambda s: record_game(s, play("kids", seed, actions=5)))

    try:
        first = asyncio.run(write(1))
        commits.close()
        commits.close()  # twice: nothing to stop
        second = asyncio.run(write(2))
    finally:
        commits.close()
    assert sorted(g.id for g in list_games(db)) == sorted([first, second])

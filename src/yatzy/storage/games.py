"""Record games, load them back, list them, and note what an analysis found.

A game is stored as its save (``Game.to_dict()``) plus one row per seat with the results a
history or a statistic needs. Recording a game again under its id adds the actions played
since: the stored log only grows. A game is checked before it is stored: it must load back
(replayed from its log) to the very same state, so whatever is stored can be loaded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session, defer, selectinload

from ..errors import InvalidActionError, YatzyError
from ..game import Game
from ..i18n import _
from ..registry import canonical
from .database import Target, reading, writing
from .errors import GameConflictError, StorageError, UnknownGameError
from .schema import AMENDMENTS, DiceFrom, GameRow, SeatRow, check_dice_from, corrected_after_end

if TYPE_CHECKING:
    from ..analysis import Analysis


_HEADER = ("format", "rules", "options", "seats", "roll_off", "first", "seed")
"""The parts of a save that never change while a game goes on."""


@dataclass(frozen=True)
class SeatResult:
    """How one seat did (so far, while the game is unfinished)."""

    seat: int
    name: str
    kind: str
    level: str | None
    total: int
    boxes_filled: int
    rank: int | None
    """1 is the best, ties share a rank; None until the game is finished."""
    won: bool | None
    upper_bonus: bool
    bonus_points: int
    extra_points: int
    yatzys: int
    points_lost: float | None
    """Expected points lost to the coach over the game; None until an analysis was stored."""


@dataclass(frozen=True)
class GameSummary:
    """A stored game as a history lists it: no save, no seed, no log."""

    id: int
    ruleset: str
    options: dict[str, Any]
    title: str | None
    dice_from: str
    started_at: datetime
    finished_at: datetime | None
    updated_at: datetime
    finished: bool
    actions: int
    seats: tuple[SeatResult, ...]
    corrected_after_end: bool = False
    """A scorekeeper game whose turn was corrected once it was over: its standings changed
    after the end (the save's amendments say which)."""

    @property
    def winners(self) -> tuple[str, ...]:
        """Names of the winners (empty while unfinished)."""
        return tuple(s.name for s in self.seats if s.won)


# ---- writing ------------------------------------------------------------------------------

def record_game(target: Target, game: Game, dice_from: DiceFrom | None = None, *, game_id: int | None = None,
                title: str | None = None, at: datetime | None = None, rewrite: bool = False) -> int:
    """Store a game, finished or not, and return its id.

    ``dice_from`` is "server" for the engine's seeded dice, "players" for a scorekeeper game
    whose dice people typed in (by default the game's own :attr:`Game.dice_from`). With
    ``game_id`` the stored game is brought up to date: it must be the same game (ruleset,
    options, seats, seed, source of dice) and its stored log must be the start of this one,
    unless ``rewrite`` lets this log replace it (a move taken back, a round corrected: the
    one who keeps the record knows it is the newer game); points lost found by an earlier
    analysis are dropped if the log changed. ``title`` names
    the game (kept when None on an update); ``at`` is the moment of this recording (now by
    default): the start on the first recording, the finish on the first one of a finished
    game.

    :raises InvalidActionError: ``dice_from`` is neither "server" nor "players", or ``at``
        has no timezone.
    :raises StorageError: the game would not load back as it is (its dice do not follow its
        seed under "server"), or the database failed: then nothing was written.
    :raises UnknownGameError: no game has id ``game_id``.
    :raises GameConflictError: the stored game is another game, or has actions this one lacks.
    """
    if dice_from is None:
        dice_from = game.dice_from  # type: ignore[assignment]
    dice_from = check_dice_from(dice_from)
    now = _moment(at)
    save = json.loads(json.dumps(game.to_dict()))
    _check_loads_back(game, save, dice_from)
    with writing(target) as s:
        if game_id is None:
            row = GameRow(ruleset=game.ruleset.name, options=save["options"], title=title, started_at=now,
                          dice_from=dice_from)
            s.add(row)
        else:
            row = _game_row(s, game_id, for_update=True)
            _check_continues(row, save, dice_from, rewrite)
            if title is not None:
                row.title = title
        changed = row.save is None or row.save["log"] != save["log"]
        row.save, row.actions, row.finished, row.updated_at = save, len(save["log"]), game.is_over, now
        if game.is_over and row.finished_at is None:
            row.finished_at = now
        s.flush()
        stored = {r.seat: r for r in row.seats}
        for values in seat_results(game):
            r = stored.get(values["seat"])
            if r is None:
                s.add(SeatRow(game_id=row.id, points_lost=None, **values))
                continue
            for key, value in values.items():
                setattr(r, key, value)
            if changed:
                r.points_lost = None
        s.flush()
        return row.id


def seat_results(game: Game) -> list[dict[str, Any]]:
    """The per-seat columns of a game (totals so far while it is unfinished)."""
    rs = game.ruleset
    outcome = game.outcome()
    ranks = {s.player: s.rank for s in outcome.standings} if outcome else {}
    winners = set(outcome.winners) if outcome else set()
    upper = [b.id for b in rs.bonuses if all(rs.by_id[c].section == "upper" for c in b.categories)]
    yatzy_boxes = [c.id for c in rs.categories if c.kind == "yatzy"]
    rows = []
    for i, (seat, player) in enumerate(zip(game.seats, game.state.players, strict=True)):
        bonus = rs.bonus_points(player.card)
        rows.append(dict(
            seat=i, name=seat.name, kind=seat.kind, level=seat.level, total=game.total(i),
            boxes_filled=len(player.card), rank=ranks.get(i), won=(i in winners) if outcome else None,
            upper_bonus=any(bonus[b] > 0 for b in upper), bonus_points=sum(bonus.values()),
            extra_points=player.extra, yatzys=sum(1 for c in yatzy_boxes if player.card.get(c, 0) > 0),
        ))
    return rows


def set_points_lost(target: Target, game_id: int, seat: int, points: float | None) -> None:
    """Note the points a seat lost to the coach over the game (None: not analysed).

    :raises InvalidActionError: ``points`` is negative or not a number.
    :raises UnknownGameError: no such game or seat.
    :raises StorageError: the database failed; nothing was written.
    """
    bad = not isinstance(points, int | float) or isinstance(points, bool) or not math.isfinite(points)
    if points is not None and (bad or points < 0):
        raise InvalidActionError(_("points lost are 0 or more, not {points}").format(points=points))
    with writing(target) as s:
        _seat_row(s, game_id, seat).points_lost = None if points is None else float(points)


def store_analysis(target: Target, game_id: int, analysis: Analysis) -> None:
    """Note the points lost of every seat an analysis (:func:`yatzy.analysis.analyse`) covered,
    in one transaction.

    :raises GameConflictError: the analysis was made of another game, or of fewer (or more)
        actions than are stored.
    :raises UnknownGameError: no such game or seat.
    :raises StorageError: the database failed; nothing was written.
    """
    with writing(target) as s:
        row = _game_row(s, game_id, for_update=True)
        if analysis.ruleset != row.ruleset or analysis.actions != row.actions:
            raise GameConflictError(
                _("this analysis covers {analysed} actions of a {rules} game, but game {id} is a {stored} "
                  "game of {actions} actions: analyse the stored game").format(
                    analysed=analysis.actions, rules=analysis.ruleset, id=game_id, stored=row.ruleset,
                    actions=row.actions))
        for seat in analysis.seats:
            _seat_row(s, game_id, seat.seat).points_lost = seat.total_lost


# ---- reading ------------------------------------------------------------------------------

def load_game(target: Target, game_id: int) -> Game:
    """The stored game, replayed from its log (seeded dice checked against the seed), ready
    to go on. It holds the seed: run it on the server, show clients its views.

    :raises UnknownGameError: no game has that id.
    :raises StorageError: the database failed, or the stored save no longer loads.
    """
    with reading(target) as s:
        row = _game_row(s, game_id)
        save, dice_from = row.save, row.dice_from
    try:
        return replay_save(save, dice_from)
    except YatzyError as e:
        raise StorageError(_("stored game {id} does not load: {error}").format(id=game_id, error=e)) from None


def get_game(target: Target, game_id: int) -> GameSummary:
    """One stored game's summary (no save, no seed).

    :raises UnknownGameError: no game has that id.
    """
    with reading(target) as s:
        row = _game_row(s, game_id)
        return _summary(row, row.save.get("amendments"))


def list_games(target: Target, player: str | None = None, ruleset: str | None = None, limit: int = 50, *,
               finished: bool | None = None, offset: int = 0,
               ids: Collection[int] | None = None) -> list[GameSummary]:
    """Stored games, newest first: those where ``player`` sat (by name), of ``ruleset``
    (a name or alias), finished or not, among ``ids`` if given; at most ``limit`` after
    skipping ``offset``.

    :raises InvalidActionError: ``limit`` below 1 or ``offset`` below 0.
    :raises UnknownRulesetError: ``ruleset`` names no ruleset.
    """
    if limit < 1 or offset < 0:
        raise InvalidActionError(_("list at least 1 game from an offset of 0 or more"))
    q = (select(GameRow, AMENDMENTS).options(defer(GameRow.save), selectinload(GameRow.seats))
         .order_by(GameRow.started_at.desc(), GameRow.id.desc()).limit(limit).offset(offset))
    if player is not None:
        q = q.where(GameRow.id.in_(select(SeatRow.game_id).where(SeatRow.name == player)))
    if ruleset is not None:
        q = q.where(GameRow.ruleset == canonical(ruleset))
    if finished is not None:
        q = q.where(GameRow.finished.is_(finished))
    if ids is not None:
        q = q.where(GameRow.id.in_(list(ids)))
    with reading(target) as s:
        return [_summary(row, amendments) for row, amendments in s.execute(q)]


def replay_save(save: dict[str, Any], dice_from: str) -> Game:
    """A game from its save: seeded dice must follow the seed; typed-in dice are taken as
    they are (the seed then only rolls for the game when it goes on).

    :raises InvalidActionError, IllegalActionError: the save is malformed or breaks the rules.
    """
    return Game.from_dict(save, check_dice=dice_from == "server")


# ---- helpers ------------------------------------------------------------------------------

def _moment(at: datetime | None) -> datetime:
    if at is None:
        return datetime.now(UTC)
    if at.tzinfo is None:
        raise InvalidActionError(_("give the moment with its timezone (e.g. datetime.now(UTC))"))
    return at.astimezone(UTC)


def _check_loads_back(game: Game, save: dict[str, Any], dice_from: str) -> None:
    """Refuse a game that would not load back as it is."""
    try:
        loaded = replay_save(save, dice_from)
    except YatzyError as e:
        if dice_from == "server":
            raise StorageError(
                _("the game was not recorded: {error} (a game whose dice people typed in is recorded "
                  "with dice from the “players”)").format(error=e)) from None
        raise StorageError(_("the game was not recorded: {error}").format(error=e)) from None
    if loaded.state != game.state or len(loaded.log) != len(game.log):
        raise StorageError(_("the game was not recorded: replaying its log does not give its state"))


def _check_continues(row: GameRow, save: dict[str, Any], dice_from: str, rewrite: bool) -> None:
    """The stored game must be this one, with no action this one lacks (unless ``rewrite``)."""
    stored = row.save
    same = all(stored.get(k) == save.get(k) for k in _HEADER)
    if not same or row.dice_from != dice_from:
        raise GameConflictError(
            _("game {id} in the database is another game (ruleset, seats, seed or source of dice differ); "
              "record this one as a new game").format(id=row.id))
    log: Sequence[Any] = save["log"]
    if not rewrite and log[: len(stored["log"])] != stored["log"]:
        raise GameConflictError(
            _("game {id} in the database has actions this game does not: a stored game only gains "
              "new actions").format(id=row.id))


def _game_row(s: Session, game_id: int, *, for_update: bool = False) -> GameRow:
    row = s.get(GameRow, game_id, with_for_update=for_update) if isinstance(game_id, int) else None
    if row is None:
        raise UnknownGameError(_("there is no game {id} in the database").format(id=game_id))
    return row


def _seat_row(s: Session, game_id: int, seat: int) -> SeatRow:
    row = s.get(SeatRow, (game_id, seat)) if isinstance(seat, int) else None
    if row is None:
        _game_row(s, game_id)
        raise UnknownGameError(_("game {id} has no seat {seat}").format(id=game_id, seat=seat))
    return row


def _summary(row: GameRow, amendments: Any) -> GameSummary:
    return GameSummary(
        id=row.id, ruleset=row.ruleset, options=dict(row.options), title=row.title, dice_from=row.dice_from,
        started_at=row.started_at, finished_at=row.finished_at, updated_at=row.updated_at,
        finished=row.finished, actions=row.actions,
        seats=tuple(SeatResult(
            seat=r.seat, name=r.name, kind=r.kind, level=r.level, total=r.total, boxes_filled=r.boxes_filled,
            rank=r.rank, won=r.won, upper_bonus=r.upper_bonus, bonus_points=r.bonus_points,
            extra_points=r.extra_points, yatzys=r.yatzys, points_lost=r.points_lost) for r in row.seats),
        corrected_after_end=corrected_after_end(amendments),
    )

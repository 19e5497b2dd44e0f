"""REST for what comes after (and beside) play: a finished room's analysis, a scorekeeper
room's finished rounds, the history of games with their replays, and per-ruleset statistics,
records and the spread of final totals. The same library code as the terminal game:
:func:`yatzy.analysis.analyse`, :mod:`yatzy.storage`, :mod:`yatzy.scorekeeping`.

Everything that reads the database or the solver runs in a thread, never on the event loop.
The analysis needs the ruleset's exact table: while it is being built (once per server) the
answer is 202 with ``status: "preparing"`` and the share built; ask again.

Saves carry the dice seed, so a game's save is handed out only once the game is over (then
its seed is revealed anyway).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field

from ..actions import Action
from ..analysis import Analysis, AnalysisError, Decision, analyse, check_analysable
from ..errors import YatzyError
from ..game import Game
from ..i18n import _, language
from ..scorekeeping import rounds
from ..storage import (
    Database,
    GameSummary,
    PlayerStats,
    Record,
    SeatResult,
    UnknownGameError,
    get_game,
    list_games,
    load_game,
    player_stats,
    records,
    score_histogram,
    store_analysis,
)
from ..views import GameView, check_lang, game_view
from .coaching import COACHES
from .rooms import Room, Rooms

__all__ = ["AnalysisOut", "GameOut", "GameSummaryOut", "ReplayStep", "RoundOut", "StatsOut", "analysis_out",
           "router"]

router = APIRouter()


def _error(status: int, code: str, message: str) -> HTTPException:
    return HTTPException(status, detail={"code": code, "message": message})


def _lang(lang: str) -> str:
    try:
        return check_lang(lang)
    except YatzyError:
        return "en"


# ---- response models -------------------------------------------------------------------------

class DecisionOut(BaseModel):
    """One decision and what it cost (``yatzy.analysis.Decision``)."""

    index: int = Field(description="the action's place in the game's log (0 first): the replay's step")
    seat: int
    turn: int = Field(description="the seat's turn, 1 first")
    dice: list[int] = Field(description="the dice on the table when the decision was made")
    rolls_left: int
    played: str = Field(description="what was played, in the notation: k 335 (kept before rolling), s chance")
    played_words: str
    best: str = Field(description="the exact solver's best move")
    best_words: str
    points_lost: float = Field(description="expected points lost against the best move (0 or more)")


class SeatAnalysisOut(BaseModel):
    seat: int
    name: str
    total_lost: float = Field(description="expected points lost over the game")
    decisions: list[DecisionOut]
    costliest: list[DecisionOut] = Field(description="the (up to) three costliest decisions, costliest first")


class AnalysisOut(BaseModel):
    """A finished game's analysis, or ``preparing`` while the ruleset's table is built."""

    status: Literal["ready", "preparing"]
    progress: float | None = Field(default=None, description="preparing: share of the table built, 0..1")
    game_id: int
    ruleset: str
    actions: int = Field(description="the actions of the log analysed (all of them)")
    seats: list[SeatAnalysisOut] = Field(default_factory=list)


class RoundOut(BaseModel):
    """A finished turn of a game, as a scorekeeper's correction (``amend``) names it."""

    turn: int = Field(description="its place among the finished turns, 0 first: Amend.turn")
    seat: int
    number: int = Field(description="the seat's round, 1 first")
    dice: list[int] = Field(description="the dice when the box was filled")
    box: str


# A storage dataclass that an answer carries as it is (``SeatResult``, ``PlayerStats``,
# ``Record``) is the field's type itself, no pydantic copy of it: pydantic validates and
# serializes a stdlib dataclass, and its attribute docstrings become the schema's field
# descriptions through the enclosing model's ``use_attribute_docstrings`` (a stdlib
# dataclass takes the config of the model it is in).

class GameSummaryOut(BaseModel):
    """A stored game as a history lists it (``yatzy.storage.GameSummary``): no save, no seed."""

    model_config = ConfigDict(from_attributes=True, use_attribute_docstrings=True)

    id: int
    ruleset: str
    options: dict[str, Any]
    title: str | None
    dice_from: str = Field(description="server: seeded dice; players: typed at a real table "
                                       "(a scorekeeper game)")
    started_at: datetime
    finished_at: datetime | None
    updated_at: datetime
    finished: bool
    actions: int
    seats: list[SeatResult]
    winners: list[str] = Field(description="names of the winners (empty while unfinished)")


class GameOut(BaseModel):
    """A finished game: its summary and its whole save (rules, seats, seed, log, amendments)."""

    summary: GameSummaryOut
    game: dict[str, Any]


class ReplayStep(BaseModel):
    """A finished game as it stood after ``step`` actions, as a spectator sees it."""

    game_id: int
    step: int
    steps: int = Field(description="the actions of the whole game")
    next_action: str | None = Field(description="the action played from here, in the notation "
                                                "(None at the end)")
    next_words: str | None = Field(description="the same action in words, in the language asked "
                                               "(None at the end)")
    view: GameView


class HistogramBin(BaseModel):
    low: int = Field(description="totals from low to low + bin - 1")
    count: int


class HistogramOut(BaseModel):
    ruleset: str
    bin: int
    count: int
    bins: list[HistogramBin]


class StatsOut(BaseModel):
    """Finished games of a ruleset: per player, the best totals, and the spread of totals."""

    model_config = ConfigDict(use_attribute_docstrings=True)

    ruleset: str
    players: list[PlayerStats]
    records: list[Record]
    histogram: HistogramOut


# ---- helpers ---------------------------------------------------------------------------------

def _db(request: Request) -> Database:
    return request.app.state.db  # type: ignore[no-any-return]


async def _room(request: Request, code: str, lang: str) -> Room:
    rooms: Rooms = request.app.state.rooms
    room = await rooms.get(code)
    if room is None:
        with language(lang):
            raise _error(404, "unknown_room", _("there is no room {code}").format(code=code))
    return room


def _words(action: Action) -> str:
    """An action in words, in the current language (the engine's own wording)."""
    return action.describe()


def _decision(d: Decision) -> DecisionOut:
    return DecisionOut(index=d.index, seat=d.seat, turn=d.turn, dice=list(d.dice), rolls_left=d.rolls_left,
                       played=str(d.played), played_words=_words(d.played), best=str(d.best),
                       best_words=_words(d.best), points_lost=d.points_lost)


def analysis_out(game_id: int, analysis: Analysis) -> AnalysisOut:
    """An analysis as the API answers it (the decisions described in the current language)."""
    return AnalysisOut(status="ready", game_id=game_id, ruleset=analysis.ruleset, actions=analysis.actions,
                       seats=[
        SeatAnalysisOut(seat=s.seat, name=s.name, total_lost=s.total_lost,
                        decisions=[_decision(d) for d in s.decisions],
                        costliest=[_decision(d) for d in s.costliest]) for s in analysis.seats])


def _analyses(request: Request) -> dict[tuple[int, int], asyncio.Task[Analysis]]:
    state = request.app.state
    if not hasattr(state, "analyses"):
        state.analyses = {}
    return state.analyses  # type: ignore[no-any-return]


async def _analyse(db: Database, game_id: int, game: Game) -> Analysis:
    """The analysis of a finished game, stored (points lost per seat) once computed."""
    coach = await COACHES.wait(game.ruleset)
    analysis = await asyncio.to_thread(analyse, game, coach=coach)
    await asyncio.to_thread(store_analysis, db, game_id, analysis)
    return analysis


def _summary(s: GameSummary) -> GameSummaryOut:
    return GameSummaryOut.model_validate(s)  # from its attributes: the fields and ``winners``


# ---- rooms -----------------------------------------------------------------------------------

@router.get("/api/rooms/{code}/analysis", response_model=AnalysisOut,
            responses={202: {"model": AnalysisOut, "description": "the table is being built: ask again"}})
async def room_analysis(code: str, request: Request, response: Response,
                        lang: str = Query("en")) -> AnalysisOut:
    """After the game: every decision of every seat priced by the exact solver (points lost
    against the best move, the three costliest), as the terminal's review screen has it.
    Computed once per game (off the event loop) and stored with the game (points lost in the
    history and statistics). 409 before the end; 422 for DOZZY (no exact table)."""
    lang = _lang(lang)
    room = await _room(request, code, lang)
    with language(lang):
        async with room.lock:
            if not room.over:
                raise _error(409, "not_over", _("the analysis is there once the game is over"))
            try:
                check_analysable(room.game)
            except AnalysisError as e:
                raise _error(422, "no_analysis", str(e)) from None
            key, game = (room.game_id, room.version), room.game.clone()
        jobs = _analyses(request)
        job = jobs.get(key)
        if job is None or (job.done() and job.exception() is not None):
            job = jobs[key] = asyncio.get_running_loop().create_task(
                _analyse(_db(request), room.game_id, game))
        try:
            analysis = await asyncio.wait_for(asyncio.shield(job), request.app.state.coach_wait)
        except TimeoutError:
            built = COACHES.ready(game.ruleset)
            response.status_code = 202
            progress = 1.0 if built is not None else COACHES.build(game.ruleset).progress
            return AnalysisOut(status="preparing", progress=progress, game_id=room.game_id,
                               ruleset=game.ruleset.name, actions=len(game.log))
        except YatzyError as e:
            raise _error(422, "no_analysis", str(e)) from None
        return analysis_out(room.game_id, analysis)


@router.get("/api/rooms/{code}/rounds", response_model=list[RoundOut])
async def room_rounds(code: str, request: Request, lang: str = Query("en")) -> list[RoundOut]:
    """The finished turns of the room's game, oldest first: what a scorekeeper room's
    correction (the ``amend`` message) names by ``turn``."""
    room = await _room(request, code, _lang(lang))
    async with room.lock:
        found = rounds(room.game)
    return [RoundOut(turn=r.turn, seat=r.player, number=r.number, dice=list(r.dice), box=r.box)
            for r in found]


# ---- history ---------------------------------------------------------------------------------

@router.get("/api/games", response_model=list[GameSummaryOut])
async def games(request: Request, player: str | None = Query(None, max_length=40),
                ruleset: str | None = Query(None, max_length=40), finished: bool | None = None,
                limit: int = Query(50, ge=1, le=500), offset: int = Query(0, ge=0)) -> list[GameSummaryOut]:
    """Stored games, newest first: where ``player`` sat (by name), of ``ruleset``, finished
    or not. Summaries only: no save, no seed. A game still played in a room is summed up as
    its room first stored it (its moves reach the history when it ends; meanwhile its room,
    ``GET /api/rooms/{code}``, shows it as it stands)."""
    await request.app.state.rooms.saved()  # games that just ended: their saves are on their way
    try:
        found = await asyncio.to_thread(list_games, _db(request), player, ruleset, limit, finished=finished,
                                        offset=offset)
    except YatzyError as e:
        raise _error(400, "bad_message", str(e)) from None
    return [_summary(s) for s in found]


async def _finished_game(request: Request, game_id: int, lang: str) -> tuple[GameSummary, Game]:
    db = _db(request)
    await request.app.state.rooms.saved(game_id)  # a game that just ended: its save is on its way
    with language(lang):
        try:
            summary = await asyncio.to_thread(get_game, db, game_id)
        except UnknownGameError as e:
            raise _error(404, "unknown_game", str(e)) from None
        if not summary.finished:
            raise _error(409, "not_over", _("game {id} is still being played: its save (and seed) is handed "
                                            "out once it is over").format(id=game_id))
        return summary, await asyncio.to_thread(load_game, db, game_id)


@router.get("/api/games/{game_id}", response_model=GameOut)
async def game(game_id: int, request: Request, lang: str = Query("en")) -> GameOut:
    """A finished game: its summary and its whole save (to replay it, or check its dice with
    ``yatzy verify``). 409 while it is being played (the save holds the seed)."""
    summary, g = await _finished_game(request, game_id, _lang(lang))
    return GameOut(summary=_summary(summary), game=g.to_dict())


@router.get("/api/games/{game_id}/replay", response_model=ReplayStep)
async def replay(game_id: int, request: Request, step: int = Query(0, ge=0),
                 lang: str = Query("en")) -> ReplayStep:
    """A finished game as it stood after ``step`` actions (0: before the first; past the end:
    the end): the cards and dice as a spectator's view, and the action played next, in the
    notation and in words in ``lang``."""
    lang = _lang(lang)
    _summary_row, g = await _finished_game(request, game_id, lang)
    step = min(step, len(g.log))
    save = g.to_dict()
    at = Game.from_dict({**save, "log": save["log"][:step]}, check_dice=False)
    following = g.log[step] if step < len(g.log) else None
    with language(lang):
        words = None if following is None else _words(following)
    return ReplayStep(game_id=game_id, step=step, steps=len(g.log),
                      next_action=None if following is None else str(following), next_words=words,
                      view=game_view(at, None, lang))


# ---- statistics ------------------------------------------------------------------------------

@router.get("/api/stats", response_model=StatsOut)
async def stats(request: Request, ruleset: str = Query("yatzy", max_length=40), player: str | None = None,
                bin: int = Query(10, ge=1, le=1000), limit: int = Query(10, ge=1, le=100)) -> StatsOut:
    """Finished games of ``ruleset``: each player's games, wins, mean and best total, bonus
    and Yatzy rates and mean points lost (``player_stats``), the best totals (``records``),
    and the final totals counted in bins of ``bin`` points (``score_histogram``: the data of
    the score-distribution chart), of one ``player`` if named."""
    db = _db(request)
    await request.app.state.rooms.saved()

    def read() -> StatsOut:
        histogram = score_histogram(db, ruleset, bin, player=player)
        return StatsOut(
            ruleset=histogram.ruleset,
            players=player_stats(db, ruleset, player=player),
            records=records(db, ruleset, limit),
            histogram=HistogramOut(ruleset=histogram.ruleset, bin=histogram.bin, count=histogram.count,
                                   bins=[HistogramBin(low=low, count=n) for low, n in histogram.bins]))

    try:
        return await asyncio.to_thread(read)
    except YatzyError as e:
        raise _error(400, "bad_message", str(e)) from None


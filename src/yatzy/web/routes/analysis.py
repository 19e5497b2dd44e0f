"""A finished room's analysis: every decision priced by the exact solver
(:func:`yatzy.analysis.analyse`, the terminal's review screen's).

It runs in a thread, never on the event loop, once per game and version (the job is kept on
``app.state.analyses``), and needs the ruleset's exact table: while that is being built (once
per server) the answer is 202 with ``status: "preparing"`` and the share built; ask again.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Response

from ...analysis import Analysis, AnalysisError, Decision, analyse, check_analysable
from ...errors import YatzyError
from ...game import Game
from ...i18n import _, language
from ...narration import analysis_note, decision_move, decision_text
from ...storage import Database, store_analysis
from ..coaching import COACHES
from ..deps import AnalysesDep, DatabaseDep, LangDep, RoomDep, SettingsDep, http_error
from ..room import Refusal
from ..schemas import AnalysisOut, DecisionOut, SeatAnalysisOut

__all__ = ["analysis_out", "router"]

router = APIRouter()


def _decision(d: Decision, name: str) -> DecisionOut:
    """A decision with its moves in the notation and in words (in the current language)."""
    return DecisionOut(index=d.index, seat=d.seat, turn=d.turn, dice=list(d.dice), rolls_left=d.rolls_left,
                       played=str(d.played), played_words=decision_move(d.played, d.played_points),
                       best=str(d.best), best_words=decision_move(d.best, d.best_points),
                       points_lost=d.points_lost, text=decision_text(d, name, turn=True))


def analysis_out(game_id: int, analysis: Analysis) -> AnalysisOut:
    """An analysis as the API answers it (the decisions described in the current language)."""
    return AnalysisOut(status="ready", game_id=game_id, ruleset=analysis.ruleset, actions=analysis.actions,
                       note=analysis_note(analysis), seats=[
        SeatAnalysisOut(seat=s.seat, name=s.name, total_lost=s.total_lost,
                        decisions=[_decision(d, s.name) for d in s.decisions],
                        costliest=[_decision(d, s.name) for d in s.costliest]) for s in analysis.seats])


async def _analyse(db: Database, game_id: int, game: Game) -> Analysis:
    """The analysis of a finished game, stored (points lost per seat) once computed."""
    coach = await COACHES.wait(game.ruleset)
    analysis = await asyncio.to_thread(analyse, game, coach=coach)
    await asyncio.to_thread(store_analysis, db, game_id, analysis)
    return analysis


@router.get("/api/rooms/{code}/analysis", response_model=AnalysisOut,
            responses={202: {"model": AnalysisOut, "description": "the table is being built: ask again"}})
async def room_analysis(room: RoomDep, response: Response, lang: LangDep, db: DatabaseDep,
                        jobs: AnalysesDep, settings: SettingsDep) -> AnalysisOut:
    """After the game: every decision of every seat priced by the exact solver (points lost
    against the best move, the three costliest), as the terminal's review screen has it.
    Computed once per game (off the event loop) and stored with the game (points lost in the
    history and statistics). 409 before the end; 422 for DOZZY (no exact table)."""
    with language(lang):
        async with room.lock:
            if not room.over:
                raise http_error("not_over", _("the analysis is there once the game is over"))
            try:
                check_analysable(room.game)
            except AnalysisError as e:
                raise http_error("no_analysis", str(e)) from None
            key, game = (room.game_id, room.version), room.game.clone()
        job = jobs.get(key)
        if job is None or (job.done() and job.exception() is not None):
            job = jobs[key] = asyncio.get_running_loop().create_task(_analyse(db, room.game_id, game))
        try:
            analysis = await asyncio.wait_for(asyncio.shield(job), settings.coach_wait)
        except TimeoutError:
            built = COACHES.ready(game.ruleset)
            response.status_code = 202
            progress = 1.0 if built is not None else COACHES.build(game.ruleset).progress
            return AnalysisOut(status="preparing", progress=progress, game_id=room.game_id,
                               ruleset=game.ruleset.name, actions=len(game.log))
        except YatzyError as e:
            raise http_error("no_analysis", str(e)) from None
        except Refusal as r:  # its table is beyond the server's budget
            jobs.pop(key, None)
            raise http_error(r.code, r.message) from None
        return analysis_out(room.game_id, analysis)

"""REST for the history: stored games with their replays, and per-ruleset statistics,
records and the spread of final totals, read by the same library code as the terminal's
(:mod:`yatzy.storage`), in a thread, never on the event loop.

Saves carry the dice seed, so a game's save is handed out only once the game is over (then
its seed is revealed anyway).

**Who sees which game.** A stored game is listed, read and replayed only for a request that
shows a token of its room (``X-Room-Tokens``: the page sends the tokens it keeps), unless the
server was started with ``--public-history`` (then for anyone); a game hidden from a request
is answered as one that does not exist (404 ``unknown_game``, in the same words). The
statistics (per player, the records, the spread of totals) stay public: aggregate figures,
no game's cards.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Query

from ...errors import YatzyError
from ...game import Game
from ...i18n import _, language
from ...storage import (
    Database,
    DiceFrom,
    GameSummary,
    UnknownGameError,
    finished_count,
    get_game,
    list_games,
    load_game,
    player_stats,
    records,
    score_histogram,
)
from ...views import game_view
from ..deps import DatabaseDep, LangDep, RoomsDep, RoomTokensDep, Settings, SettingsDep, http_error
from ..rooms import Rooms
from ..schemas import GameOut, GameSummaryOut, HistogramBin, HistogramOut, ReplayStep, StatsOut

__all__ = ["router"]

router = APIRouter()


def _summary(s: GameSummary) -> GameSummaryOut:
    return GameSummaryOut.model_validate(s)  # from its attributes: the fields and ``winners``


async def _visible(settings: Settings, rooms: Rooms, tokens: list[str]) -> set[int] | None:
    """The ids of the games a request may see (None: every game, the history being public)."""
    if settings.public_history:
        return None
    return await asyncio.to_thread(rooms.store.games_of, tokens)


@router.get("/api/games", response_model=list[GameSummaryOut])
async def games(db: DatabaseDep, rooms: RoomsDep, settings: SettingsDep, tokens: RoomTokensDep,
                player: str | None = Query(None, max_length=40),
                ruleset: str | None = Query(None, max_length=40), finished: bool | None = None,
                limit: int = Query(50, ge=1, le=500),
                offset: int = Query(0, ge=0, le=2**62)) -> list[GameSummaryOut]:
    """Stored games, newest first: where ``player`` sat (by name), of ``ruleset``, finished
    or not, of the rooms whose tokens the request shows (every game with ``--public-history``).
    Summaries only: no save, no seed. A game still played in a room is summed up as its room
    first stored it (its moves reach the history when it ends; meanwhile its room,
    ``GET /api/rooms/{code}``, shows it as it stands)."""
    await rooms.saved()  # games that just ended: their saves are on their way
    ids = await _visible(settings, rooms, tokens)
    if ids is not None and not ids:
        return []
    try:
        found = await asyncio.to_thread(list_games, db, player, ruleset, limit, finished=finished,
                                        offset=offset, ids=ids)
    except YatzyError as e:
        raise http_error("bad_message", str(e)) from None
    return [_summary(s) for s in found]


async def _finished_game(db: Database, rooms: Rooms, game_id: int, lang: str, settings: Settings,
                         tokens: list[str]) -> tuple[GameSummary, Game]:
    await rooms.saved(game_id)  # a game that just ended: its save is on its way
    ids = await _visible(settings, rooms, tokens)
    with language(lang):
        try:
            if ids is not None and game_id not in ids:  # hidden, or none: answered alike
                raise UnknownGameError(_("game {id} is not among the games shown to you: this server shows "
                                         "each game to those who were in its room").format(id=game_id))
            summary = await asyncio.to_thread(get_game, db, game_id)
        except UnknownGameError as e:
            raise http_error("unknown_game", str(e)) from None
        if not summary.finished:
            raise http_error("not_over", _("game {id} is still being played: its save (and seed) is handed "
                                           "out once it is over").format(id=game_id))
        return summary, await asyncio.to_thread(load_game, db, game_id)


@router.get("/api/games/{game_id}", response_model=GameOut)
async def game(game_id: int, db: DatabaseDep, rooms: RoomsDep, lang: LangDep, settings: SettingsDep,
               tokens: RoomTokensDep) -> GameOut:
    """A finished game: its summary and its whole save (to replay it, or check its dice with
    ``yatzy verify``). 409 while it is being played (the save holds the seed); 404 unless the
    request shows a token of its room (or the history is public)."""
    summary, g = await _finished_game(db, rooms, game_id, lang, settings, tokens)
    return GameOut(summary=_summary(summary), game=g.to_dict())


@router.get("/api/games/{game_id}/replay", response_model=ReplayStep)
async def replay(game_id: int, db: DatabaseDep, rooms: RoomsDep, lang: LangDep, settings: SettingsDep,
                 tokens: RoomTokensDep, step: int = Query(0, ge=0, le=2**62)) -> ReplayStep:
    """A finished game as it stood after ``step`` actions (0: before the first; past the end:
    the end): the cards and dice as a spectator's view, and the action played next, in the
    notation and in words in ``lang`` (seen as :func:`game` is)."""
    _summary_row, g = await _finished_game(db, rooms, game_id, lang, settings, tokens)
    step = min(step, len(g.log))
    save = g.to_dict()
    at = Game.from_dict({**save, "log": save["log"][:step]}, check_dice=False)
    following = g.log[step] if step < len(g.log) else None
    with language(lang):
        words = None if following is None else following.describe()
    return ReplayStep(game_id=game_id, step=step, steps=len(g.log),
                      next_action=None if following is None else str(following), next_words=words,
                      view=game_view(at, None, lang))


@router.get("/api/stats", response_model=StatsOut)
async def stats(db: DatabaseDep, rooms: RoomsDep, ruleset: str = Query("yatzy", max_length=40),
                player: str | None = None, bin: int = Query(10, ge=1, le=1000),
                limit: int = Query(10, ge=1, le=100),
                dice_from: DiceFrom = "server") -> StatsOut:
    """Finished games of ``ruleset`` with dice from ``dice_from`` (the server's, or typed at a
    real table: never ranked together): each player's games, wins, mean and best total, bonus
    and Yatzy rates and mean points lost (``player_stats``), the best totals (``records``),
    and the final totals counted in bins of ``bin`` points (``score_histogram``: the data of
    the score-distribution chart), of one ``player`` if named; and how many games the other
    kind of dice has."""
    await rooms.saved()
    other: DiceFrom = "players" if dice_from == "server" else "server"

    def read() -> StatsOut:
        histogram = score_histogram(db, ruleset, bin, player=player, dice_from=dice_from)
        return StatsOut(
            ruleset=histogram.ruleset,
            dice_from=dice_from,
            other_dice_games=finished_count(db, ruleset, dice_from=other),
            players=player_stats(db, ruleset, player=player, dice_from=dice_from),
            records=records(db, ruleset, limit, dice_from=dice_from),
            histogram=HistogramOut(ruleset=histogram.ruleset, bin=histogram.bin, count=histogram.count,
                                   bins=[HistogramBin(low=low, count=n) for low, n in histogram.bins]))

    try:
        return await asyncio.to_thread(read)
    except YatzyError as e:
        raise http_error("bad_message", str(e)) from None

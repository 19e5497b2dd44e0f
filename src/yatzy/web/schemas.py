"""The REST API's bodies: what a request sends and what each answer holds (pydantic models;
their names and field descriptions are those of the generated OpenAPI at ``/docs``).

The WebSocket's messages are in :mod:`yatzy.web.protocol`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..storage import PlayerStats, Record, SeatResult
from ..views import GameView
from .protocol import Lang

__all__ = [
    "AnalysisOut", "CreateRoom", "DecisionOut", "GameOut", "GameSummaryOut", "HistogramBin", "HistogramOut",
    "HostRequest", "JoinRequest", "Joined", "RematchRequest", "Rematched", "ReplayStep", "RoomCreated",
    "RoomInfo", "RoundOut", "SeatAnalysisOut", "SeatInfo", "SeatSpec", "SeatToBot", "Spectating", "StatsOut",
    "Verification",
]


# ---- rooms -----------------------------------------------------------------------------------

class SeatSpec(BaseModel):
    """One seat of a new room: a person (named, or "Player N") or a bot of a level."""

    model_config = ConfigDict(extra="forbid")
    name: str | None = Field(default=None, min_length=1, max_length=40)
    kind: Literal["person", "bot"] = "person"
    level: str | None = Field(default=None, max_length=20,
                              description="a bot's level: random, beginner, casual, ...")


class CreateRoom(BaseModel):
    """A new room: ruleset and house rules, seats, and how the room plays."""

    model_config = ConfigDict(extra="forbid")
    ruleset: str = Field(default="yatzy", max_length=40)
    options: dict[str, str | int | bool] = Field(default_factory=dict,
                                                 description="house rules, e.g. joker=free")
    seats: list[SeatSpec] = Field(min_length=1, max_length=8)
    coach: bool = Field(default=True, description="the coach may be asked during play")
    spectators: bool = True
    hot_seat: bool = Field(default=False,
                           description="one browser plays every person's seat (the table token)")
    dice_from: Literal["server", "players"] = Field(
        default="server", description="players: a scorekeeper room, people only, where the players type the "
                                      "dice they threw at a real table (no seed, no commitment, no reveal)")
    roll_off: bool = Field(default=False, description="every player rolls one die; the highest starts")
    lang: Lang = "en"
    bot_pace: float = Field(default=0.8, ge=0, le=10, description="seconds between two bot moves")
    away_after: float = Field(default=60, ge=0, le=86400,
                              description="seconds away before a seat may go to a bot")


class RoomCreated(BaseModel):
    code: str
    invite_url: str
    qr_url: str
    commitment: str = Field(description="sha256 of salt:seed, revealed at the end")
    table_token: str | None = Field(description="a hot-seat room's token for the table (None otherwise)")
    version: int
    host_token: str = Field(
        description="the host's secret token (who made the room): it frees a seat or gives it "
                                  "to a bot (POST /api/rooms/{code}/seats/{seat}/free, .../bot); keep it")


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: str
    level: str | None
    taken: bool
    stand_in: str | None
    kept: bool = Field(default=False, description="a rematch keeps this free seat a while for its "
                       "player of the game before (who takes it with the old room's token)")


class RoomInfo(BaseModel):
    code: str
    protocol: int
    ruleset: str
    options: dict[str, Any]
    seats: list[SeatInfo]
    version: int
    over: bool
    commitment: str
    coach: bool
    spectators: bool
    hot_seat: bool
    dice_from: Literal["server", "players"] = Field(
        description="players: a scorekeeper room (typed dice; no fairness commitment, nothing to verify)")
    game_id: int = Field(description="the game in the history: GET /api/games/{game_id} once it is over")


class JoinRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = Field(default=None, ge=0, le=1000,
                             description="the seat to take; none: the first free person's seat")


class Joined(BaseModel):
    seat: int
    token: str = Field(description="the seat's secret token: send it in the WebSocket hello, keep it")


class Spectating(BaseModel):
    token: str


class HostRequest(BaseModel):
    """A change of the seats that only the room's host may make."""

    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=128, description="the host token from POST /api/rooms")


class SeatToBot(HostRequest):
    level: str = Field(default="casual", max_length=20,
                       description="the bot level: random, beginner, casual, ...")


class RematchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    token: str = Field(min_length=1, max_length=128,
                       description="your seat's (or the hot-seat table's) token of the finished room")


class Rematched(BaseModel):
    """The rematch's room and your place in it (send the token in its WebSocket hello)."""

    code: str
    role: Literal["seat", "table"]
    seat: int | None
    token: str
    host_token: str | None = Field(description="the rematch's host token, for whoever asked first")


class Verification(BaseModel):
    """What proves the dice fair: check with ``yatzy verify`` (see docs/web-protocol.md)."""

    code: str
    commitment: str
    salt: str
    seed: int
    scheme: str
    game: dict[str, Any]
    roll_off_rounds: list[list[tuple[int, int]]] = Field(
        description="the roll-off's rounds of [seat, die] pairs, as in the reveal message")


# ---- after (and beside) play: analysis, rounds, history, statistics ---------------------------

class DecisionOut(BaseModel):
    """One decision and what it cost (``yatzy.analysis.Decision``)."""

    index: int = Field(description="the action's place in the game's log (0 first): the replay's step")
    seat: int
    turn: int = Field(description="the seat's turn, 1 first")
    dice: list[int] = Field(description="the dice on the table when the decision was made")
    rolls_left: int
    played: str = Field(description="what was played, in the notation: k 335 (kept before rolling), s chance")
    played_words: str = Field(description="what was played in words: Sixes for 18, keep 3 3 5")
    best: str = Field(description="the exact solver's best move")
    best_words: str
    points_lost: float = Field(description="expected points lost against the best move (0 or more)")
    text: str = Field(default="", description="the decision in a player's words: Turn 4: Anna scored Sixes "
                      "for 18; Ones for 3 would have been better: −5.6.")


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
    note: str | None = Field(default=None, description="what a reader must know: in a scorekeeper game the "
                             "dice kept were guessed from the throws typed")


class RoundOut(BaseModel):
    """A finished turn of a game, as a scorekeeper's correction (``amend``) names it."""

    turn: int = Field(description="its place among the finished turns, 0 first: Amend.turn")
    seat: int
    number: int = Field(description="the seat's round, 1 first")
    dice: list[int] = Field(description="the dice when the box was filled")
    box: str
    boxes: list[str] = Field(default_factory=list, description="the boxes a correction of this turn may fill "
                             "with its dice as they are: the engine's options then, less those a later turn "
                             "fills (other dice may allow others; a later turn may still refuse one)")


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
    corrected_after_end: bool = Field(default=False, description="a scorekeeper game's turn was "
                                      "corrected after the end: the standings changed then")


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
    dice_from: str = Field(description="whose dice these games had: server (seeded) or players "
                                       "(typed at a real table); the two are never ranked together")
    other_dice_games: int = Field(description="finished games of the ruleset with the other kind of dice")
    players: list[PlayerStats]
    records: list[Record]
    histogram: HistogramOut


"""REST for rooms: make one, read it, take a seat (a secret token) or a spectator's token,
the invite as a QR code, the host's say over the seats (free one, give one to a bot), after
the game the data that proves the dice fair and a rematch, and a scorekeeper room's
finished rounds."""

from __future__ import annotations

import io
import secrets

import segno
from fastapi import APIRouter, Request, Response

from ...bots import bot_name, needs_table
from ...errors import YatzyError
from ...game import Game
from ...i18n import _, language
from ...registry import get_ruleset
from ...scorekeeping import round_boxes, rounds
from ...seats import Seat
from ...storage.rooms import hash_token
from ..connection import reveal_of
from ..deps import BaseUrl, BudgetDep, LangDep, LimitsDep, RoomDep, RoomsDep, http_error, limited
from ..limits import Limited
from ..protocol import PROTOCOL_VERSION
from ..rematch import rematch
from ..room import Refusal, RoomSettings
from ..schemas import (
    CreateRoom,
    HostRequest,
    Joined,
    JoinRequest,
    Rematched,
    RematchRequest,
    RoomCreated,
    RoomInfo,
    RoundOut,
    SeatInfo,
    SeatToBot,
    Spectating,
    Verification,
)
from ..security import client_address

__all__ = ["router"]

router = APIRouter()

@router.post("/api/rooms", response_model=RoomCreated, status_code=201)
async def create_room(spec: CreateRoom, rooms: RoomsDep, base: BaseUrl, budget: BudgetDep,
                      limits: LimitsDep, request: Request) -> RoomCreated:
    """Make a room: a new game with its seed from ``secrets`` and the seed's commitment. 429
    ``too_many_rooms`` past the rooms one address may make an hour. A bot that plays from a table
    the server has not prepared is within its table budget or refused (403 ``table_budget``,
    429 ``too_many_builds``), naming what is allowed."""
    with language(spec.lang):
        try:
            limits.before_new_room(client_address(request))
        except Limited as e:
            raise limited(e) from None
        try:
            ruleset = get_ruleset(spec.ruleset, **spec.options)
            seats = [Seat.bot(s.level or "", s.name or bot_name(s.level or "")) if s.kind == "bot" else
                     Seat(s.name or _("Player {n}").format(n=i + 1)) for i, s in enumerate(spec.seats)]
            if spec.dice_from == "players" and any(s.is_bot for s in seats):
                raise YatzyError(_("a scorekeeper room is for people at a real table: no bots"))
            game = Game(ruleset, seats, roll_off=spec.roll_off, dice_from=spec.dice_from)
            if any(s.is_bot and needs_table(s.level or "", ruleset) for s in seats):
                budget.admit(ruleset)
            host = secrets.token_urlsafe(24)
            settings = RoomSettings(coach=spec.coach, spectators=spec.spectators, hot_seat=spec.hot_seat,
                                    bot_pace=spec.bot_pace, away_after=spec.away_after, lang=spec.lang,
                                    host=hash_token(host))
            room, table = await rooms.create(game, settings)
        except YatzyError as e:
            raise http_error("invalid_action", str(e)) from None
        except Refusal as r:
            raise http_error(r.code, r.message) from None
        limits.made_room(client_address(request))
    return RoomCreated(code=room.code, invite_url=f"{base}/r/{room.code}",
                       qr_url=f"{base}/api/rooms/{room.code}/qr.svg", commitment=room.commitment,
                       table_token=table, host_token=host, version=room.version)


@router.get("/api/rooms/{code}", response_model=RoomInfo)
async def room_info(room: RoomDep, rooms: RoomsDep) -> RoomInfo:
    """A room as anyone with its code may see it (no token, no seed)."""
    g = room.game
    kept = room.kept_seats(rooms.seating.clock())
    return RoomInfo(
        code=room.code, protocol=PROTOCOL_VERSION, ruleset=g.ruleset.name,
        options=dict(g.ruleset.options),
        seats=[SeatInfo(seat=i, name=s.name, kind=s.kind, level=s.level, taken=i in room.taken,
                        stand_in=room.stand_ins.get(i), kept=i in kept) for i, s in enumerate(g.seats)],
        version=room.version, over=room.over, commitment=room.commitment, coach=room.settings.coach,
        spectators=room.settings.spectators, hot_seat=room.settings.hot_seat,
        dice_from=room.game.dice_from, game_id=room.game_id)  # type: ignore[arg-type]


@router.post("/api/rooms/{code}/join", response_model=Joined)
async def join(room: RoomDep, rooms: RoomsDep, lang: LangDep, body: JoinRequest) -> Joined:
    """Take a person's seat: its secret token is handed out once."""
    with language(lang):
        try:
            seat, token = await rooms.seating.join(room, body.seat)
        except Refusal as r:
            raise http_error(r.code, r.message) from None
    return Joined(seat=seat, token=token)


@router.post("/api/rooms/{code}/seats/{seat}/free", status_code=204)
async def free_seat(seat: int, body: HostRequest, room: RoomDep, rooms: RoomsDep, lang: LangDep) -> None:
    """The host frees a person's seat: its token is void and anyone with the invite may take it."""
    with language(lang):
        try:
            await rooms.seating.free(room, body.token, seat)
        except Refusal as r:
            raise http_error(r.code, r.message) from None


@router.post("/api/rooms/{code}/seats/{seat}/bot", status_code=204)
async def seat_to_bot(seat: int, body: SeatToBot, room: RoomDep, rooms: RoomsDep, lang: LangDep) -> None:
    """The host gives a person's seat to a bot at once (until a person takes the seat again)."""
    with language(lang):
        try:
            await rooms.seating.give_to_bot(room, body.token, seat, body.level)
        except Refusal as r:
            raise http_error(r.code, r.message) from None


@router.post("/api/rooms/{code}/rematch", response_model=Rematched)
async def rematch_room(body: RematchRequest, room: RoomDep, rooms: RoomsDep, lang: LangDep) -> Rematched:
    """After the game: the rematch (made now by whoever asks first: the same seats, rules and
    settings) and your own seat's token there; the others in the room are offered to follow.
    (Not counted in the rooms an address may make: one per finished room at most.)"""
    with language(lang):
        try:
            made = await rematch(rooms, room, body.token)
        except Refusal as r:
            raise http_error(r.code, r.message) from None
    return Rematched(code=made.code, role=made.role, seat=made.seat, token=made.token,  # type: ignore[arg-type]
                     host_token=made.host_token)


@router.post("/api/rooms/{code}/spectate", response_model=Spectating)
async def spectate(room: RoomDep, rooms: RoomsDep, lang: LangDep) -> Spectating:
    """A spectator's token, if the room has spectators."""
    with language(lang):
        try:
            return Spectating(token=await rooms.seating.spectate(room))
        except Refusal as r:
            raise http_error(r.code, r.message, 403) from None


@router.get("/api/rooms/{code}/qr.svg", response_class=Response,
            responses={200: {"content": {"image/svg+xml": {}}}})
async def qr_code(room: RoomDep, base: BaseUrl) -> Response:
    """The invite link as a QR code, for a phone at the table."""
    out = io.BytesIO()
    segno.make(f"{base}/r/{room.code}", error="m").save(out, kind="svg", scale=4, border=2)
    return Response(out.getvalue(), media_type="image/svg+xml")


@router.get("/api/rooms/{code}/verify", response_model=Verification)
async def verify(room: RoomDep, lang: LangDep) -> Verification:
    """After the game: the seed and salt behind the commitment and the whole game, so
    anyone can check every roll (``yatzy verify``). While the game is played: 409
    ``not_over`` (ask again once it is over)."""
    if room.keeper:
        with language(lang):
            raise http_error("nothing_to_verify", _(
                "in a scorekeeper room the players typed the dice they threw: there is no seed and "
                "nothing to verify"))
    if not room.over:
        with language(lang):
            raise http_error("not_over", _("the dice seed is revealed when the game is over"))
    return Verification(code=room.code, **reveal_of(room).model_dump(exclude={"type"}))


@router.get("/api/rooms/{code}/rounds", response_model=list[RoundOut])
async def room_rounds(room: RoomDep) -> list[RoundOut]:
    """The finished turns of the room's game, oldest first: what a scorekeeper room's
    correction (the ``amend`` message) names by ``turn``."""
    async with room.lock:
        found = list(zip(rounds(room.game), round_boxes(room.game), strict=True))
    return [RoundOut(turn=r.turn, seat=r.player, number=r.number, dice=list(r.dice), box=r.box, boxes=boxes)
            for r, boxes in found]

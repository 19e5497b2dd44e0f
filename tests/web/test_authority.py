"""The rooms' authority called directly (no server, no sockets): what ``Rooms.act`` and
``Rooms.edit`` refuse and what they accept, each boundary from both sides (a version one
behind and one ahead, a table's seat below and past the seats), so that a change to the
order of the checks or to a bound shows."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.storage import Database
from yatzy.web.protocol import Ack, Act, Amend, Undo
from yatzy.web.room import Grant, Refusal, Room, RoomSettings
from yatzy.web.rooms import Rooms

ANN, BO, TABLE, SPECTATOR = Grant("seat", 0), Grant("seat", 1), Grant("table"), Grant("spectator")
_ids = iter(range(1, 10**6))


@asynccontextmanager
async def held(tmp_path: Path, game: Game, **settings: Any) -> AsyncIterator[tuple[Rooms, Room]]:
    """A room of ``game`` held by a fresh :class:`Rooms` on a SQLite file, Ann's and Bo's seats
    taken (unless the room is a hot-seat one)."""
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        rooms = Rooms(db)
        room, _table = await rooms.create(game, RoomSettings(bot_pace=0, **settings))
        if not room.settings.hot_seat:
            room.taken.update({0, 1})
        try:
            yield rooms, room
        finally:
            await rooms.close()


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


async def act(rooms: Rooms, room: Room, grant: Grant, action: str, *, version: int | None = None,
              seat: int | None = None, msg_id: str | None = None) -> Ack:
    """Send one action; the ack it got (a refusal raises)."""
    acks: list[Ack] = []
    msg = Act(id=msg_id or f"a{next(_ids)}", version=room.version if version is None else version,
              action=action, seat=seat)
    await rooms.act(room, grant, msg, "en", acks.append)
    assert len(acks) == 1
    return acks[0]


async def refused(call: Awaitable[Any], room: Room) -> Refusal:
    """The refusal ``call`` ends in; the room's version is as before it."""
    before = room.version
    with pytest.raises(Refusal) as caught:
        await call
    assert room.version == before
    return caught.value


def two_people() -> Game:
    return Game("yatzy", [Seat("Ann"), Seat("Bo")], seed=7)


# ---- stale versions: every kind of message that carries one ------------------------------------

def test_an_action_one_version_behind_or_ahead_is_stale_and_the_room_its_own_is_taken(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            await act(rooms, room, ANN, "r")
            now = room.version
            for seen in (now - 1, now + 1):
                refusal = await refused(act(rooms, room, ANN, "r", version=seen), room)
                assert (refusal.code, refusal.resync) == ("stale", True)
                assert f"version {now}, not {seen}" in refusal.message
            ack = await act(rooms, room, ANN, "r", version=now)
            assert (ack.version, ack.duplicate) == (now + 1, False)
    run(test)


def test_an_undo_and_a_correction_one_version_behind_or_ahead_are_stale(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("yatzy", ["Ann", "Bo"], dice_from="players")) as (rooms, room):
            await act(rooms, room, ANN, "r = 11111")
            await act(rooms, room, ANN, "s yatzy")
            now = room.version
            edits: list[Callable[[int], Undo | Amend]] = [
                lambda v: Undo(id=f"u{next(_ids)}", version=v),
                lambda v: Amend(id=f"m{next(_ids)}", version=v, turn=0, dice=[1, 1, 1, 1, 2], box="ones")]
            for make in edits:
                for seen in (now - 1, now + 1):
                    refusal = await refused(rooms.edit(room, ANN, make(seen), "en", print), room)
                    assert (refusal.code, refusal.resync) == ("stale", True)
            acks: list[Ack] = []
            await rooms.edit(room, ANN, edits[1](now), "en", acks.append)
            assert [a.version for a in acks] == [now + 1]
            assert room.game.state.players[0].card == {"ones": 4}
    run(test)


# ---- who may act --------------------------------------------------------------------------------

def test_a_spectator_another_seat_and_a_seat_out_of_turn_are_refused(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            assert (await refused(act(rooms, room, SPECTATOR, "r"), room)).code == "spectator"
            other = await refused(act(rooms, room, ANN, "r", seat=1), room)
            assert (other.code, other.message) == ("other_seat", "your token plays seat 0, not seat 1")
            turn = await refused(act(rooms, room, BO, "r"), room)
            assert (turn.code, turn.message) == ("not_your_turn", "it is Ann's turn, not yours")
            assert (await act(rooms, room, ANN, "r", seat=0)).version == 1  # her own seat, named
    run(test)


def test_the_table_plays_each_persons_seat_in_turn_and_no_bots_or_seats_past_the_last(tmp_path: Path) -> None:
    async def test() -> None:
        game = Game("yatzy", [Seat("Ann"), Seat("Bo"), Seat("Cy", "bot", "beginner")], seed=3)
        async with held(tmp_path, game, hot_seat=True) as (rooms, room):
            for seat, code in ((3, "other_seat"), (2, "other_seat"), (1, "not_your_turn")):
                assert (await refused(act(rooms, room, TABLE, "r", seat=seat), room)).code == code
            assert (await act(rooms, room, TABLE, "r", seat=0)).version == 1  # the first seat
            assert (await act(rooms, room, TABLE, "r")).version == 2  # no seat: whoever is to play
            assert (await refused(act(rooms, room, ANN, "r"), room)).code == "hot_seat"
    run(test)


def test_a_retried_action_is_acknowledged_again_for_its_seat_only(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            first = await act(rooms, room, ANN, "r", msg_id="same")
            again = await act(rooms, room, ANN, "r", msg_id="same", version=0)
            assert (first.version, again.version, again.duplicate) == (1, 1, True)
            assert room.version == 1
            assert (await refused(act(rooms, room, BO, "r", msg_id="same"), room)).code == "bad_message"
    run(test)


# ---- a scorekeeper room's undo and corrections ----------------------------------------------------

async def edit(rooms: Rooms, room: Room, grant: Grant, msg: Undo | Amend) -> Ack:
    acks: list[Ack] = []
    await rooms.edit(room, grant, msg, "en", acks.append)
    assert len(acks) == 1
    return acks[0]


def undo(room: Room, msg_id: str | None = None) -> Undo:
    return Undo(id=msg_id or f"u{next(_ids)}", version=room.version)


def amend(room: Room, turn: int, dice: list[int], box: str) -> Amend:
    return Amend(id=f"m{next(_ids)}", version=room.version, turn=turn, dice=dice, box=box)


def test_an_undo_or_a_correction_is_refused_to_a_spectator_another_seat_and_outside_a_scorekeeper_room(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            not_keeper = await refused(edit(rooms, room, ANN, undo(room)), room)
            assert (not_keeper.code, not_keeper.message) == ("not_keeper", "only a scorekeeper room's typed "
                                                             "dice and scores can be taken back or corrected")
        (tmp_path / "keeper").mkdir()
        keeper = Game("yatzy", ["Ann", "Bo"], dice_from="players")
        async with held(tmp_path / "keeper", keeper) as (rooms, room):
            watching = await refused(edit(rooms, room, SPECTATOR, undo(room)), room)
            assert (watching.code, watching.message) == ("spectator", "spectators watch; they do not play")
            await act(rooms, room, ANN, "r = 11111")
            await act(rooms, room, ANN, "s yatzy")
            await act(rooms, room, BO, "r = 22222")
            theirs = await refused(edit(rooms, room, ANN, undo(room)), room)  # Bo's throw
            assert (theirs.code, theirs.message) == ("other_seat", "your token plays seat 0, not seat 1")
            turn = await refused(edit(rooms, room, BO, amend(room, 0, [1, 1, 1, 1, 2], "ones")), room)
            assert (turn.code, turn.message) == ("other_seat", "your token plays seat 1, not seat 0")
            past = await refused(edit(rooms, room, ANN, amend(room, 1, [2, 2, 2, 2, 2], "twos")), room)
            assert (past.code, past.message) == (  # turn 1 is not finished
                "illegal_action", "there is 1 finished turn to correct; turns are numbered from 0")
            typo = Amend(id="typo", version=room.version, turn=0, actions=["r = 1111"])
            bad = await refused(edit(rooms, room, ANN, typo), room)
            assert (bad.code, bad.message) == ("invalid_action",
                                               "a corrected turn is its rolls and ends with one score")
            msg = undo(room, "same")
            first = await edit(rooms, room, BO, msg)
            again = await edit(rooms, room, BO, msg)  # a retry: answered, not applied twice
            assert (first.version, again.version, again.duplicate) == (room.version, room.version, True)
            fixed = await edit(rooms, room, TABLE, amend(room, 0, [1, 1, 1, 1, 2], "ones"))  # anyone's
            assert fixed.version == room.version
            assert room.game.state.players[0].card == {"ones": 4}
    run(test)


def test_an_undo_once_the_game_is_over_is_refused_but_a_correction_is_taken(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            room.taken.discard(1)
            for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), start=1):
                await act(rooms, room, ANN, f"r = {str(face) * 5}")
                await act(rooms, room, ANN, f"s {box}")
            assert room.over
            over = await refused(edit(rooms, room, ANN, undo(room)), room)
            assert (over.code, over.message) == ("game_over", "the game is over; correct a round instead")
            await edit(rooms, room, ANN, amend(room, 0, [1, 1, 1, 1, 2], "ones"))
            assert room.game.state.players[0].card["ones"] == 4
    run(test)


# ---- which rooms a process holds --------------------------------------------------------------

def test_a_malformed_code_is_no_room_and_no_expired_one_and_an_expired_room_says_so(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            assert rooms.holds(room)
            assert not await rooms.expired(room.code)  # a live room
            for bad in (room.code[:-1], room.code[:-1] + "0", room.code + "A"):  # too short, a 0, too long
                assert await rooms.get(bad) is None and not await rooms.expired(bad)
            later = datetime.now(UTC) + timedelta(days=1)
            assert await asyncio.to_thread(rooms.store.expire, later, later, later) == [room.code]
            assert await rooms.expired(room.code) and await rooms.expired(room.code.lower())
            await rooms.forget(room)
            assert not rooms.holds(room) and room.code not in rooms.rooms
    run(test)


def test_a_closed_process_holds_no_room(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            twin = Room.from_record(await asyncio.to_thread(rooms.store.load, room.code))  # type: ignore[arg-type]
            assert rooms.holds(room) and not rooms.holds(twin)  # the same code, another room
            await rooms.close()
            assert not rooms.holds(room)
    run(test)

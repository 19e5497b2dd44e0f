"""The rooms' authority called directly (no server, no sockets): what ``Rooms.act`` and
``Rooms.edit`` refuse and what they accept, each boundary from both sides (a version one
behind and one ahead, a table's seat below and past the seats), so that a change to the
order of the checks or to a bound shows."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from helpers.games import DOZZY_ROUNDS, play_out
from yatzy.errors import IllegalActionError, InvalidActionError
from yatzy.game import Game
from yatzy.saves import action_to_dict
from yatzy.scorekeeping import rounds
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.storage import Database, StorageError
from yatzy.storage.database import GroupCommit
from yatzy.storage.errors import RoomConflictError
from yatzy.storage.rooms import CODE_ALPHABET, RoomRecord
from yatzy.web.fairness import commitment
from yatzy.web.protocol import Ack, Act, Amend, Undo
from yatzy.web.pubsub import InProcessPubSub, PubSub
from yatzy.web.room import Grant, Refusal, Room, RoomSettings
from yatzy.web.rooms import KEEP_FINISHED, Rooms

ANN, BO, TABLE, SPECTATOR = Grant("seat", 0), Grant("seat", 1), Grant("table"), Grant("spectator")
_ids = iter(range(1, 10**6))


@asynccontextmanager
async def held(tmp_path: Path, game: Game, *, pubsub: PubSub | None = None,
               keep_finished: float = KEEP_FINISHED, **settings: Any) -> AsyncIterator[tuple[Rooms, Room]]:
    """A room of ``game`` held by a fresh :class:`Rooms` (on ``pubsub``, letting finished rooms
    go after ``keep_finished`` seconds) on a SQLite file, Ann's and Bo's seats taken (unless the
    room is a hot-seat one)."""
    with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
        rooms = Rooms(db, pubsub, keep_finished=keep_finished)
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

def stale(now: int, seen: int) -> str:
    """What a client that saw version ``seen`` of a room at ``now`` is told (a full state follows)."""
    return f"the game has moved on (version {now}, not {seen}): here it is as it stands"


def test_an_action_one_version_behind_or_ahead_is_stale_and_the_room_its_own_is_taken(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            await act(rooms, room, ANN, "r")
            now = room.version
            for seen in (now - 1, now + 1):
                refusal = await refused(act(rooms, room, ANN, "r", version=seen), room)
                assert (refusal.code, refusal.message, refusal.resync) == ("stale", stale(now, seen), True)
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
                    late = await refused(rooms.edit(room, ANN, make(seen), "en", print), room)
                    assert (late.code, late.message, late.resync) == ("stale", stale(now, seen), True)
            acks: list[Ack] = []
            await rooms.edit(room, ANN, edits[1](now), "en", acks.append)
            assert [a.version for a in acks] == [now + 1]
            assert room.game.state.players[0].card == {"ones": 4}
    run(test)


# ---- who may act --------------------------------------------------------------------------------

def test_a_spectator_another_seat_and_a_seat_out_of_turn_are_refused(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            assert not await rooms.play_bot(room) and room.version == 0  # no bot to move
            watching = await refused(act(rooms, room, SPECTATOR, "r"), room)
            assert (watching.code, watching.message) == ("spectator", "spectators watch; they do not play")
            other = await refused(act(rooms, room, ANN, "r", seat=1), room)
            assert (other.code, other.message) == ("other_seat", "your token plays seat 0, not seat 1")
            turn = await refused(act(rooms, room, BO, "r"), room)
            assert (turn.code, turn.message) == ("not_your_turn", "it is Ann's turn, not yours")
            for action, code, words in (("fly", "invalid_action", "“fly” is not an action; write r (roll)"),
                                        ("s chance", "illegal_action", "roll the dice before scoring")):
                wrong = await refused(act(rooms, room, ANN, action), room)
                assert wrong.code == code and wrong.message.startswith(words)
            assert (await act(rooms, room, ANN, "r", seat=0)).version == 1  # her own seat, named
    run(test)


def test_the_table_plays_each_persons_seat_in_turn_and_no_bots_or_seats_past_the_last(tmp_path: Path) -> None:
    async def test() -> None:
        game = Game("yatzy", [Seat("Ann"), Seat("Bo"), Seat("Cy", "bot", "beginner")], seed=3)
        async with held(tmp_path, game, hot_seat=True) as (rooms, room):
            for seat, code, words in ((3, "other_seat", "the table plays the people's seats only"),
                                      (2, "other_seat", "the table plays the people's seats only"),
                                      (1, "not_your_turn", "it is Ann's turn, not yours")):
                wrong = await refused(act(rooms, room, TABLE, "r", seat=seat), room)
                assert (wrong.code, wrong.message) == (code, words)
            assert (await act(rooms, room, TABLE, "r", seat=0)).version == 1  # the first seat
            assert (await act(rooms, room, TABLE, "r")).version == 2  # no seat: whoever is to play
            assert (await refused(act(rooms, room, ANN, "r"), room)).code == "hot_seat"
    run(test)


def test_a_bot_that_cannot_move_is_logged_and_its_turn_waits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        game = Game("yatzy", [Seat("Ann"), Seat("Cy", "bot", "beginner")], seed=5)
        async with held(tmp_path, game) as (rooms, room):
            def broken(room: Room) -> None:
                raise IllegalActionError("the bot's table is wrong")

            monkeypatch.setattr(rooms.bots, "move", broken)
            await act(rooms, room, ANN, "r")
            with caplog.at_level(logging.ERROR, logger="yatzy.web.rooms"):
                await act(rooms, room, ANN, "s chance")
                assert room.bot_turn() and not await rooms.play_bot(room)
            assert room.version == 2 and room.game.state.current == 1
            assert set(caplog.messages) == {f"room {room.code}: the bot of seat 1 could not move"}
    run(test)


def test_a_bots_move_is_told_on_the_room_channel_with_its_seat_and_no_client_action_id(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        game = Game("yatzy", [Seat("Ann"), Seat.bot("greedy", "Cy")], seed=5)
        async with held(tmp_path, game) as (rooms, room):
            monkeypatch.setattr(rooms.bots, "ensure", lambda room: None)  # the test moves the bot itself
            heard: list[dict[str, Any]] = []

            async def hear(message: dict[str, Any]) -> None:
                heard.append(message)

            await rooms.pubsub.subscribe(f"room:{room.code}", hear)
            await act(rooms, room, ANN, "r")
            await act(rooms, room, ANN, "s chance")
            assert room.bot_turn() and await rooms.play_bot(room)
            assert room.version == 3 and heard[2] == {
                "kind": "game", "room": room.code, "before": 2, "version": 3,
                "actions": [action_to_dict(room.game.log[2])], "action_id": None, "seat": 1,
                "events": room.events_after(2)}
            assert heard[2]["events"]
    run(test)


def test_a_seat_a_stand_in_plays_is_not_its_players_to_play_until_they_are_back(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            room.stand_ins[0] = "greedy"  # Ann was away; a bot plays her seat
            turn = await refused(act(rooms, room, ANN, "r"), room)
            assert (turn.code, turn.message) == ("not_your_turn", "it is Ann's turn, not yours")
            await rooms.connected(room, ANN)  # she is back: the stand-in stops
            assert room.stand_ins == {} and (await act(rooms, room, ANN, "r")).version == 1
    run(test)


def test_a_retried_action_is_acknowledged_again_for_its_seat_only(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            first = await act(rooms, room, ANN, "r", msg_id="same")
            again = await act(rooms, room, ANN, "r", msg_id="same", version=0)
            assert (first.version, again.version, again.duplicate) == (1, 1, True)
            assert room.version == 1
            theirs = await refused(act(rooms, room, BO, "r", msg_id="same"), room)
            assert (theirs.code, theirs.message) == ("bad_message",
                                                     "this client action id was used for another seat's move")
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
            nothing = await refused(edit(rooms, room, ANN, undo(room)), room)  # no move yet
            assert (nothing.code, nothing.message) == ("illegal_action", "nothing to undo yet")
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


async def play_kids_out(rooms: Rooms, room: Room, rolled: int = 0) -> None:
    """Ann fills a one-player scorekeeper room's six boxes of the kids' game, Ones to Sixes with
    five of a kind (``rolled``: the first throw is in already); the game is then over."""
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), start=1):
        if face > rolled:
            await act(rooms, room, ANN, f"r = {str(face) * 5}")
        await act(rooms, room, ANN, f"s {box}")
    assert room.over


def test_an_undo_once_the_game_is_over_is_refused_but_a_correction_is_taken(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            await play_kids_out(rooms, room)
            moved = await refused(act(rooms, room, ANN, "r = 11111"), room)
            assert (moved.code, moved.message) == ("game_over", "the game is over; no more moves")
            over = await refused(edit(rooms, room, ANN, undo(room)), room)
            assert (over.code, over.message) == ("game_over", "the game is over; correct a round instead")
            await edit(rooms, room, ANN, amend(room, 0, [1, 1, 1, 1, 2], "ones"))
            assert room.game.state.players[0].card["ones"] == 4
    run(test)


def test_a_dozzy_correction_brings_back_the_tiles_named_and_none_named_is_refused_with_the_choices(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("dozzy", ["Ann"], dice_from="players")) as (rooms, room):
            room.taken.discard(1)
            for action in DOZZY_ROUNDS:
                await act(rooms, room, ANN, action)
            into_ones = Amend(id="ones", version=room.version, turn=5, dice=[2, 2, 4, 5, 6], box="n1")
            unnamed = await refused(edit(rooms, room, ANN, into_ones), room)
            assert (unnamed.code, unnamed.message) == ("illegal_action", "the corrected round: choose which "
                                                       "tiles come back: s n1 8 or s n1 10 or s n1 11")
            acks: list[Ack] = []
            await rooms.edit(room, ANN, into_ones.model_copy(update={"returns": [11]}), "sv", acks.append)
            assert [a.version for a in acks] == [room.version]
            assert (rounds(room.game)[5].box, rounds(room.game)[5].returns) == ("n1", (11,))
            assert room.session.lang == room.settings.lang == "en"  # the room's own again after a Swede's
    run(test)


def test_an_action_or_edit_another_process_accepted_first_is_acknowledged_as_a_retry(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("yatzy", ["Ann", "Bo"], dice_from="players")) as (rooms, room):
            await act(rooms, room, ANN, "r = 11111")
            await act(rooms, room, ANN, "s yatzy")
            other = Rooms(rooms.db)  # a second server process on the same database
            try:
                twin = await other.get(room.code)
                assert twin is not None and twin.version == room.version == 2
                twin.taken.update(room.taken)  # held() seats Ann and Bo in memory only
                roll = Act(id="bo", version=2, action="r = 22222")
                await rooms.act(room, BO, roll, "en", lambda ack: None)
                acks: list[Ack] = []
                await other.act(twin, BO, roll, "en", acks.append)  # the same action, a retry to the other
                assert acks == [Ack(id="bo", version=3, duplicate=True)] and twin.version == 3
                twin.taken.update(room.taken)  # loaded again: from the database
                msg = amend(room, 0, [1, 1, 1, 1, 2], "ones")
                await edit(rooms, room, ANN, msg)
                acks.clear()
                await other.edit(twin, ANN, msg, "en", acks.append)  # the same edit, a retry to the other
                assert acks == [Ack(id=msg.id, version=4, duplicate=True)]
                assert twin.version == 4 and twin.game.state.players[0].card == {"ones": 4}
            finally:
                await other.close()
    run(test)


# ---- which rooms a process holds --------------------------------------------------------------

def test_a_malformed_code_is_no_room_and_no_expired_one_and_an_expired_room_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            assert rooms.holds(room)
            assert not await rooms.expired(room.code)  # a live room
            asked: list[str] = []
            def asking(query: Callable[[str], Any]) -> Callable[[str], Any]:
                def ask(code: str) -> Any:
                    asked.append(code)
                    return query(code)
                return ask

            for name in ("load", "expired"):  # what the database is asked, in order
                monkeypatch.setattr(rooms.store, name, asking(getattr(rooms.store, name)))
            for bad in (room.code[:-1], room.code[:-1] + "0", room.code + "A"):  # too short, a 0, too long
                assert await rooms.get(bad) is None and not await rooms.expired(bad)
            assert asked == []  # a code that cannot be a room's costs no query
            unknown = "".join(sorted(set(CODE_ALPHABET) - set(room.code)))[:len(room.code)]
            assert await rooms.get(unknown) is None and not await rooms.expired(unknown)
            assert asked == [unknown, unknown]
            monkeypatch.undo()
            later = datetime.now(UTC) + timedelta(days=1)
            assert await asyncio.to_thread(rooms.store.expire, later, later, later) == [room.code]
            assert await rooms.expired(room.code) and await rooms.expired(room.code.lower())
            await rooms.forget(room)
            assert not rooms.holds(room) and room.code not in rooms.rooms
    run(test)


def test_waiting_for_the_saves_waits_for_the_game_asked_or_every_game_and_for_nothing_else(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, first):
            room, _table = await rooms.create(two_people(), RoomSettings(bot_pace=0))  # held after the first
            written = asyncio.Event()

            async def save() -> None:  # a whole save on its way until ``written``
                await written.wait()

            room.saving = asyncio.ensure_future(save())
            for game_id, waits in ((first.game_id, False), (room.game_id + 1, False), (room.game_id, True),
                                   (None, True)):
                waiting = asyncio.ensure_future(rooms.saved(game_id))
                await asyncio.sleep(0)  # one step: a wait for nothing is over
                assert waiting.done() != waits, game_id
                waiting.cancel()
            written.set()
            await rooms.saved(room.game_id)
            assert room.saving.done()
    run(test)


def test_waiting_for_the_saves_waits_for_a_last_move_still_being_committed(tmp_path: Path) -> None:
    """The game is over in memory while its last move is written under the room's lock; its
    save begins only after: a wait for the saves then waits for both (the expiry test's race)."""
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            written = asyncio.Event()

            async def save() -> None:
                await written.wait()

            async with room.lock:  # the last move being committed
                waiting = asyncio.ensure_future(rooms.saved(room.game_id))
                await asyncio.sleep(0)
                assert not waiting.done()
                room.saving = asyncio.ensure_future(save())  # as the commit's save_later
            await asyncio.sleep(0)
            assert not waiting.done()  # the save is on its way
            written.set()
            await asyncio.wait_for(waiting, 5)
            assert room.saving.done()
    run(test)


def test_a_finished_room_nobody_here_watches_is_let_go_and_no_other(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            await rooms._let_go(room)  # not over: kept
            assert rooms.holds(room)
            await play_kids_out(rooms, room)
            assert room.letting_go is not None  # the timer, set as the game ended
            room.listeners.add(lambda what: None)  # someone connected meanwhile
            await rooms._let_go(room)
            assert rooms.holds(room) and room.letting_go is None
            room.listeners.clear()
            twin = Room.from_record(await asyncio.to_thread(rooms.store.load, room.code))  # type: ignore[arg-type]
            rooms.rooms[room.code] = twin  # the code held by another room (loaded again)
            await rooms._let_go(room)
            assert rooms.rooms[room.code] is twin and room.code in rooms._subscriptions
            rooms.rooms[room.code] = room
            await rooms._let_go(room)
            assert not rooms.holds(room) and room.code not in rooms._subscriptions and room.letting_go is None
            rooms._let_go_later(room)
            assert room.letting_go is not None
            await rooms.forget(room)
            assert room.letting_go is None
            await rooms.forget(room)  # forgetting it again does nothing
            assert room.code not in rooms.rooms and room.code not in rooms._subscriptions
    run(test)


def test_a_room_loaded_back_writes_a_finished_games_missing_save_and_no_unfinished_ones(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            written = asyncio.Event()

            async def save() -> None:  # this process's save of the end never comes
                await written.wait()

            room.saving = asyncio.ensure_future(save())
            await act(rooms, room, ANN, "r = 11111")
            other = Rooms(rooms.db)  # a server started again on the same database
            try:
                mid = await other.get(room.code)
                assert mid is not None
                await other.saved()
                stored = await asyncio.to_thread(rooms.store.load, room.code)
                assert stored is not None and (stored.saved, len(stored.game.log)) == (0, 1)  # not over
                await other.forget(mid)
                await play_kids_out(rooms, room, rolled=1)
                assert room.over and room.saved == 0
                again = await other.get(room.code)
                assert again is not None and again.over
                await other.saved()
                stored = await asyncio.to_thread(rooms.store.load, room.code)
                assert stored is not None and stored.saved == len(stored.game.log) == again.saved == 12
            finally:
                written.set()
                await other.close()
    run(test)


def test_a_finished_games_save_is_written_once_and_one_that_fails_is_logged_and_tried_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            written: list[int] = []
            real, failing = rooms.store.save_game, [True]

            def save_game(target: Any, held: Any) -> None:
                written.append(len(held.game.log))
                if failing:
                    raise StorageError("the disk is full")
                real(target, held)

            monkeypatch.setattr(rooms.store, "save_game", save_game)
            with caplog.at_level(logging.ERROR, logger="yatzy.web.rooms"):
                await play_kids_out(rooms, room)
                await rooms.saved()
            tries = len(written)  # the group commit's, then the save's alone
            assert (set(written), room.saved) == ({12}, 0)
            assert caplog.messages == [f"room {room.code}: the game's save could not be written: "
                                       "the disk is full"]
            failing.clear()
            rooms.save_later(room)  # what a correction or a restart does
            await rooms.saved()
            assert (len(written), room.saved) == (tries + 1, 12)
            rooms.save_later(room)
            await rooms.saved()
            assert len(written) == tries + 1  # saved already: not written again
    run(test)


def test_a_closing_process_finishes_the_saves_before_it_leaves_the_rooms_channels(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            written = asyncio.Event()
            room.saving = asyncio.ensure_future(written.wait())  # a whole save on its way
            closing = asyncio.ensure_future(rooms.close())
            for _ in range(20):
                await asyncio.sleep(0)
            assert not closing.done() and list(rooms._subscriptions) == [room.code]  # still listening
            written.set()
            await asyncio.wait_for(closing, 5)
            assert room.saving.done() and rooms._subscriptions == {}
    run(test)


def test_a_closed_process_holds_no_room(tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            twin = Room.from_record(await asyncio.to_thread(rooms.store.load, room.code))  # type: ignore[arg-type]
            assert rooms.holds(room) and not rooms.holds(twin)  # the same code, another room

            async def broken() -> None:
                raise RuntimeError("a save's own bug")

            room.saving = asyncio.ensure_future(broken())
            await rooms.close()  # waits for the saves, and a save that fails does not stop it
            assert isinstance(room.saving.exception(), RuntimeError)
            assert not rooms.holds(room)
    run(test)


def test_a_restarted_process_takes_up_the_unfinished_rooms_that_moved_lately_and_logs_one_that_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            broken, _table = await rooms.create(two_people(), RoomSettings(bot_pace=0))
            kids = Game("kids", ["Ann"], dice_from="players")
            done, _table = await rooms.create(kids, RoomSettings(bot_pace=0))
            done.taken.add(0)
            await play_kids_out(rooms, done)
            await rooms.saved()  # stored as finished
            await act(rooms, room, ANN, "r")
            other = Rooms(rooms.db)  # a server started again on the same database
            try:
                assert await other.resume(within=timedelta(0)) == 0 and other.rooms == {}  # moved before now
                load = other.store.load

                def failing(code: str) -> RoomRecord | None:
                    if code == broken.code:
                        raise StorageError("the stored game no longer loads")
                    return load(code)

                monkeypatch.setattr(other.store, "load", failing)
                with caplog.at_level(logging.ERROR, logger="yatzy.web.rooms"):
                    assert await other.resume() == 2  # moved within the day, not finished
                assert list(other.rooms) == [room.code] and other.rooms[room.code].version == 1
                assert caplog.messages == [f"room {broken.code} could not be taken up again: "
                                           "the stored game no longer loads"]
            finally:
                await other.close()
    run(test)


def test_an_action_another_process_moved_before_or_the_database_refused_is_refused_and_the_room_read_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            other = Rooms(rooms.db)  # a second server process on the same database
            try:
                twin = await other.get(room.code)
                assert twin is not None
                twin.taken.update(room.taken)
                await act(rooms, room, ANN, "r")
                tries: list[int] = []
                commit = other.store.commit_action

                def trying(*args: Any) -> None:
                    tries.append(args[2])  # the version seen
                    commit(*args)

                monkeypatch.setattr(other.store, "commit_action", trying)
                with pytest.raises(Refusal) as lost:  # the twin has not heard of it
                    await act(other, twin, ANN, "r", version=0)
                assert (lost.value.code, lost.value.message, lost.value.resync) == (
                    "conflict", "another server process moved this game first", True)
                assert tries == [0]  # refused before it wrote anything: not tried again
                assert twin.version == 1 and twin.game.log == room.game.log  # read again
            finally:
                await other.close()

            def failing(*args: Any) -> None:
                raise StorageError("the disk is full")

            monkeypatch.setattr(rooms.store, "commit_action", failing)
            room.taken.update({0, 1})
            with caplog.at_level(logging.ERROR, logger="yatzy.web.rooms"), pytest.raises(Refusal) as failed:
                await act(rooms, room, ANN, "r")
            assert (failed.value.code, failed.value.message, failed.value.resync) == (
                "storage", "the game could not be saved, so the move was not made: the disk is full", True)
            assert caplog.messages == [f"room {room.code}: commit failed: the disk is full"]
            assert room.version == 1 and len(room.game.log) == 1  # as stored: the roll not made
    run(test)


def test_an_action_taken_while_the_room_catches_up_keeps_the_events_from_its_own_version_on(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            other = Rooms(rooms.db)  # a second process, which has not heard of the first's roll
            try:
                twin = await other.get(room.code)
                assert twin is not None
                twin.taken.update(room.taken)
                await act(rooms, room, ANN, "r")
                with pytest.raises(Refusal, match="another server process moved this game first"):
                    await act(other, twin, ANN, "r", version=0)  # a conflict: the room read again
                assert (twin.version, twin.catching_up) == (1, True)  # the roll's events still on their way
                twin.taken.update(room.taken)  # loaded again: from the database
                await act(other, twin, ANN, "r")
                assert twin.events_after(0) is None  # the first roll's events are not here: a full state
                assert twin.events_after(1) == [e for e in twin.buffer if e["version"] == 2] != []
                assert (twin.buffer_from, twin.buffered, twin.catching_up) == (1, 2, False)
            finally:
                await other.close()
    run(test)


def test_dice_typed_at_a_scorekeeper_table_keep_what_they_can_and_a_roll_written_out_is_taken_as_written(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("yatzy", ["Ann", "Bo"], dice_from="players")) as (rooms, room):
            await act(rooms, room, ANN, "r = 11234")
            await act(rooms, room, ANN, "r = 11256")
            assert str(room.game.log[-1]) == "k 112 = 56"  # the dice on the table kept
            for typed, words in (("r = 1234", "Yatzy (Scandinavian) is played with 5 dice; you typed 4"),
                                 ("r = 12x45", "“ 12x45” is not a roll: “x” is not a die face")):
                wrong = await refused(act(rooms, room, ANN, typed), room)
                assert wrong.code == "invalid_action" and wrong.message.startswith(words)
            await act(rooms, room, ANN, "k 1126 = 3")
            assert str(room.game.log[-1]) == "k 1126 = 3"
        (tmp_path / "server").mkdir()
        async with held(tmp_path / "server", two_people()) as (rooms, room):
            for typed in ("r = 11111", "r = 1234"):  # the game throws the dice, however many are named
                named = await refused(act(rooms, room, ANN, typed), room)
                assert (named.code, named.message) == ("invalid_action", "a person's roll names the dice to "
                                                       "keep; the game throws the rest")
    run(test)


def test_the_room_channel_hears_each_change_with_its_versions_events_and_an_actions_own_details(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("yatzy", ["Ann", "Bo"], dice_from="players")) as (rooms, room):
            heard: list[dict[str, Any]] = []

            async def hear(message: dict[str, Any]) -> None:
                heard.append(message)

            await rooms.pubsub.subscribe(f"room:{room.code}", hear)
            await act(rooms, room, ANN, "r = 11111", msg_id="roll")
            await act(rooms, room, ANN, "s yatzy", msg_id="score")
            assert heard[0] == {"kind": "game", "room": room.code, "before": 0, "version": 1,
                                "actions": [action_to_dict(room.game.log[0])], "action_id": "roll", "seat": 0,
                                "events": [e for e in room.buffer if e["version"] == 1]}
            assert heard[0]["events"] and heard[1]["events"] == room.events_after(1)
            fix = amend(room, 0, [1, 1, 1, 1, 2], "ones")
            await edit(rooms, room, ANN, fix)  # the log written anew: no actions to follow
            assert heard[2] == {"kind": "game", "room": room.code, "before": 2, "version": 3,
                                "events": room.events_after(2)}
            assert heard[2]["events"] and room.saved == room.logged == len(room.game.log)
    run(test)


# ---- making rooms and finding them --------------------------------------------------------------

def test_a_new_room_is_held_as_stored_sealed_in_its_language_with_a_table_token_for_a_hot_seat_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        with Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}") as db:
            rooms = Rooms(db)
            try:
                game = play_out(two_people(), actions=3)  # a game with moves made already
                settings = RoomSettings(hot_seat=True, lang="fi", bot_pace=0)
                room, table = await rooms.create(game, settings)
                stored = await asyncio.to_thread(rooms.store.load, room.code)
                assert stored is not None
                assert (room.id, room.code, room.game_id, room.settings, room.salt, room.commitment,
                        room.stand_ins, room.taken, room.saved, room.logged, room.version) == (
                    stored.id, stored.code, stored.game_id, RoomSettings.from_dict(stored.settings),
                    stored.salt, stored.commitment, stored.stand_ins, stored.taken, stored.saved,
                    len(stored.game.log), stored.version)
                assert (room.game, room.settings, room.saved, room.version) == (game, settings, 3, 3)
                assert room.salt and room.commitment == commitment(7, room.salt)  # the seed, sealed
                assert room.session.lang == "fi"
                assert room.letting_go is None  # being played: no timer to let it go
                assert table is not None and await rooms.seating.authorize(room, table) == Grant("table")
                assert len(table) == len(await rooms.seating.spectate(room))  # as long as any other token

                keeper, no_table = await rooms.create(Game("yatzy", ["Ann"], dice_from="players"),
                                                      RoomSettings(bot_pace=0))
                stored = await asyncio.to_thread(rooms.store.load, keeper.code)
                assert stored is not None and no_table is None
                assert (keeper.commitment, stored.commitment, keeper.salt) == ("", "", stored.salt)  # no seed

                written: list[str] = []
                store = rooms.store.store

                def storing(*args: Any) -> Any:
                    written.append(args[1].seats[0].name)
                    return store(*args)

                monkeypatch.setattr(rooms.store, "store", storing)
                for wrong, lang in ((Game("yatzy", [Seat("Ann"), Seat("Cy", "bot", "nonsense")]), "en"),
                                    (two_people(), "xx")):
                    with pytest.raises(InvalidActionError) as said:
                        Session(wrong, lang=lang)
                    with pytest.raises(InvalidActionError) as refused_room:
                        await rooms.create(wrong, RoomSettings(lang=lang))
                    assert str(refused_room.value) == str(said.value)
                assert written == []  # refused before anything was stored
                _room, none = await rooms.create(two_people(), RoomSettings(bot_pace=0))
                assert none is None and written == ["Ann"]
            finally:
                await rooms.close()
    run(test)


def test_a_held_room_is_found_however_its_code_is_typed_without_a_query_and_another_is_loaded_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            other = Rooms(rooms.db)  # a second process, which holds no room yet
            try:
                asked: list[tuple[Rooms, str]] = []

                def asking(process: Rooms) -> Callable[[str], RoomRecord | None]:
                    load = process.store.load

                    def ask(code: str) -> RoomRecord | None:
                        asked.append((process, code))
                        return load(code)
                    return ask

                for process in (rooms, other):
                    monkeypatch.setattr(process.store, "load", asking(process))
                for typed in (room.code, room.code.lower(), f" {room.code}\n"):
                    assert await rooms.get(typed) is room, typed
                assert asked == []
                first, second = await asyncio.gather(other.get(room.code.lower()), other.get(room.code))
                assert first is second is other.rooms[room.code] and first is not room
                assert asked == [(other, room.code)]  # one load for both
                assert first is not None
                await other.forget(first)
                again = await other.get(room.code)
                assert again is not None and again is not first and asked == [(other, room.code)] * 2
            finally:
                await other.close()
    run(test)


# ---- presence -----------------------------------------------------------------------------------

class Heard(InProcessPubSub):
    """A pub/sub like one that reaches other processes (so presence is told), keeping what was published."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published.append((channel, message))
        await super().publish(channel, message)


def test_a_connection_counts_for_its_seat_or_as_a_spectator_ends_its_seats_stand_in_and_is_told(
        tmp_path: Path) -> None:
    async def test() -> None:
        pubsub = Heard()
        async with held(tmp_path, two_people(), pubsub=pubsub) as (rooms, room):
            woke: list[str] = []
            room.listeners.add(woke.append)

            def told(connected: dict[str, int], spectators: int, refresh: bool = False) -> tuple[str, Any]:
                return (f"room:{room.code}", {"kind": "presence", "origin": pubsub.origin, "refresh": refresh,
                                              "connected": connected, "spectators": spectators})

            await asyncio.to_thread(rooms.store.save_stand_ins, room.id, {1: "optimal"})
            room.stand_ins[1] = "optimal"  # a bot plays Bo's seat while he is away
            pubsub.published.clear()
            await rooms.connected(room, ANN)
            await rooms.connected(room, SPECTATOR)
            assert (room.crowd.connected, room.crowd.spectators) == ({0: 1}, 1)
            assert room.stand_ins == {1: "optimal"}
            await rooms.connected(room, BO)  # back: his stand-in stops, here and as stored
            stored = await asyncio.to_thread(rooms.store.load, room.code)
            assert stored is not None and room.stand_ins == stored.stand_ins == {}
            await rooms.disconnected(room, SPECTATOR)
            await rooms.disconnected(room, ANN)
            assert (room.crowd.connected, room.crowd.spectators) == ({0: 0, 1: 1}, 0)
            assert room.crowd.connections(0) == 0 and room.crowd.away_for(0, room.crowd.clock()) >= 0
            assert woke == ["presence"] * 5
            assert pubsub.published == [told({"0": 1}, 0), told({"0": 1}, 1), told({"0": 1, "1": 1}, 1, True),
                                        told({"0": 1, "1": 1}, 0), told({"1": 1}, 0)]
    run(test)


def test_a_finished_room_is_let_go_its_time_after_the_last_connection_here_closed(tmp_path: Path) -> None:
    async def test() -> None:
        kids = Game("kids", ["Ann"], dice_from="players")
        async with held(tmp_path, kids, keep_finished=300) as (rooms, room):
            assert room.letting_go is None  # being played
            await play_kids_out(rooms, room)
            first, now = room.letting_go, asyncio.get_running_loop().time()
            assert first is not None and first.when() == pytest.approx(now + 300, abs=1)

            def ann(what: str) -> None:  # two connections' wake-up calls
                pass

            def watcher(what: str) -> None:
                pass

            room.listeners.update({ann, watcher})
            await rooms.connected(room, ANN)
            await rooms.connected(room, SPECTATOR)
            room.listeners.discard(ann)
            await rooms.disconnected(room, ANN)  # someone still watches: kept
            assert first.cancelled() and room.letting_go is None
            room.listeners.clear()
            rooms.keep_finished = 0.0
            await rooms.disconnected(room, SPECTATOR)  # the last one here: let go after keep_finished
            assert room.letting_go is not None and rooms.holds(room)
            for _ in range(20):
                if not rooms.holds(room):
                    break
                await asyncio.sleep(0)
            assert not rooms.holds(room) and room.code not in rooms._subscriptions and room.letting_go is None
    run(test)


def test_once_the_pubsub_is_back_a_room_another_process_moved_meanwhile_is_read_again_and_its_clients_woken(
        tmp_path: Path) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, room):
            other = Rooms(rooms.db)  # another process, whose messages never come here (the pub/sub is down)
            try:
                twin = await other.get(room.code)
                assert twin is not None
                twin.taken.update(room.taken)
                await act(other, twin, ANN, "r")
                assert room.version == 0
                woke: list[str] = []
                room.listeners.add(woke.append)
                assert rooms.pubsub.on_reconnect is not None
                await rooms.pubsub.on_reconnect()
                assert (room.version, room.game.log, woke) == (1, twin.game.log, ["game"])
                assert room.events_after(0) is None  # the events were lost: a full state
            finally:
                await other.close()
    run(test)


def test_a_finished_games_save_another_process_moved_past_is_left_to_it_tried_once_and_not_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            tried: list[int] = []

            def save_game(target: Any, held: Any) -> None:
                tried.append(len(held.game.log))
                raise RoomConflictError("another server process moved this game first")

            monkeypatch.setattr(rooms.store, "save_game", save_game)
            with caplog.at_level(logging.ERROR, logger="yatzy.web.rooms"):
                await play_kids_out(rooms, room)
                await rooms.saved()
            assert (tried, room.saved, caplog.messages) == ([12], 0, [])
    run(test)


async def busy_until(writer: GroupCommit, gate: threading.Event) -> asyncio.Future[None]:
    """Keep ``writer`` busy with a write (its transaction open) until ``gate`` is set, so that
    the writes handed in meanwhile are committed in one batch; the busy write."""
    busy = threading.Event()

    def earlier(session: Any) -> None:
        busy.set()
        gate.wait(30)

    before = asyncio.ensure_future(writer.run(0, earlier))
    await asyncio.to_thread(busy.wait, 30)
    return before


async def handed_in(writer: GroupCommit, n: int) -> None:
    """Wait (a few turns of the loop) until ``n`` writes wait for ``writer``."""
    for _ in range(50):
        if writer._queue.qsize() == n:
            return
        await asyncio.sleep(0)
    raise AssertionError(f"{n} writes were not handed in")


def test_actions_of_two_rooms_waiting_together_are_committed_in_the_order_of_the_rooms(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def test() -> None:
        async with held(tmp_path, two_people()) as (rooms, first):
            second, _table = await rooms.create(two_people(), RoomSettings(bot_pace=0))
            second.taken.update({0, 1})
            committed: list[str] = []
            commit = rooms.store.commit_action

            def committing(target: Any, room: Room, *args: Any) -> None:
                committed.append(room.code)
                commit(target, room, *args)

            monkeypatch.setattr(rooms.store, "commit_action", committing)
            gate = threading.Event()
            before = await busy_until(rooms.commits, gate)
            moves = [asyncio.ensure_future(act(rooms, second, ANN, "r"))]  # the second room's first
            await handed_in(rooms.commits, 1)
            moves.append(asyncio.ensure_future(act(rooms, first, ANN, "r")))
            await handed_in(rooms.commits, 2)
            gate.set()
            try:
                acks = await asyncio.wait_for(asyncio.gather(*moves), 5)
                await before
            finally:  # a batch the writer could not order is never committed: nothing to wait for
                for move in moves:
                    move.cancel()
            assert [a.version for a in acks] == [1, 1] and (first.version, second.version) == (1, 1)
            assert committed == [first.code, second.code] and first.id < second.id
    run(test)


def test_in_one_batch_of_bigger_writes_a_new_room_is_written_before_the_saves_waiting_with_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """New rooms and finished games' saves share a writer; a batch is written in the order of
    its keys, new rooms first, then the saves by room (on PostgreSQL, rows locked in one order)."""
    async def test() -> None:
        async with held(tmp_path, Game("kids", ["Ann"], dice_from="players")) as (rooms, room):
            written: list[str] = []
            store, save_game = rooms.store.store, rooms.store.save_game

            def storing(*args: Any) -> Any:
                written.append("a new room")
                return store(*args)

            failing = [True]  # the first save fails: tried again later

            def saving(target: Any, held: Any) -> None:
                written.append("a save")
                if failing:
                    raise StorageError("the disk is full")
                save_game(target, held)

            monkeypatch.setattr(rooms.store, "store", storing)
            monkeypatch.setattr(rooms.store, "save_game", saving)
            await play_kids_out(rooms, room)
            await rooms.saved()
            assert room.saved == 0
            written.clear()
            failing.clear()
            gate = threading.Event()
            before = await busy_until(rooms.stores, gate)
            rooms.save_later(room)  # the save tried again, first in the queue
            await handed_in(rooms.stores, 1)
            making = asyncio.ensure_future(rooms.create(two_people(), RoomSettings(bot_pace=0)))
            await handed_in(rooms.stores, 2)
            gate.set()
            try:
                new, _table = await asyncio.wait_for(making, 5)
                await asyncio.wait_for(rooms.saved(), 5)
                await before
            finally:  # a batch the writer could not order is never written: nothing to wait for
                if room.saving is not None:
                    room.saving.cancel()
            assert (written, room.saved) == (["a new room", "a save"], 12)
            assert (room.id, new.id) == (1, 2)  # the new room's key comes first even below room 1's
    run(test)

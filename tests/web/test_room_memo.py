"""A room in memory (``yatzy.web.room``) called directly. Its views are made once for the
clients a change wakes and then let go, so that they die young (the garbage collector does not
walk them again and again until the next move: with 1000 games, 40-50 ms pauses), while the
messages' JSON text stays until the game changes. Then what the rest of the room answers, each
bound from both sides: the events a client resumes from, the seats a token counts for and sees,
who is away and may be handed to a bot (on the test's own clock), the bots' table's progress."""

from __future__ import annotations

import asyncio
import gc
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from helpers.games import play_out
from yatzy.game import Game
from yatzy.i18n import language
from yatzy.narration import preparing_text
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.session import Preparing, Session
from yatzy.storage.rooms import RoomRecord
from yatzy.views import game_view
from yatzy.web import room as room_module
from yatzy.web.presence import Crowd
from yatzy.web.protocol import BotsPreparing, Presence, SeatPresence
from yatzy.web.room import Grant, Refusal, Room, RoomSettings

TABLE = Grant("table")


def a_room() -> Room:
    game = Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=1)
    return Room(id=1, code="ABCDEFGH", game_id=1, settings=RoomSettings(hot_seat=True), salt="s",
                commitment="c", session=Session(game), stand_ins={}, taken=set())


async def turns_of_the_loop(n: int = 3) -> None:
    for _ in range(n):
        await asyncio.sleep(0)


def test_a_view_is_made_once_for_the_clients_a_change_wakes_then_let_go(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "PASSING", 0.0)  # the next turn of the loop

    async def run() -> None:
        room = a_room()
        view = room.view(TABLE, "en")
        assert room.view(TABLE, "en") is view, "made twice for one change"
        text = room.memo(("json",), view.to_json)
        gone = weakref.ref(view)
        del view
        gc.disable()  # let go by the room itself, not freed by a collection
        try:
            await turns_of_the_loop()
            assert gone() is None, "the room still holds the view"
        finally:
            gc.enable()
        assert room.memo(("json",), lambda: "made again") is text, "the JSON went with the view"
        assert room.view(TABLE, "en").to_json() == text, "made anew, not the same view"

    asyncio.run(run())


def test_a_view_is_kept_for_the_time_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "PASSING", 3600.0)

    async def run() -> None:
        room = a_room()
        view = room.view(TABLE, "en")
        await turns_of_the_loop()
        assert room.view(TABLE, "en") is view

    asyncio.run(run())


def test_outside_an_event_loop_a_view_is_kept_until_the_game_changes() -> None:
    room = a_room()
    view = room.view(TABLE, "en")
    assert room.view(TABLE, "en") is view
    room.session.act("r")
    after = room.view(TABLE, "en")
    assert after is not view and after.version == view.version + 1
    assert room.view(TABLE, "en") is after


def test_a_memo_is_made_again_for_another_session_or_other_stand_ins() -> None:
    room = a_room()
    first = room.memo(("json",), object)
    room.session = Session(Game(get_ruleset("yatzy"), [Seat("Ann"), Seat("Bo")], seed=2))  # same version
    second = room.memo(("json",), object)
    assert second is not first, "kept across a new game"
    room.stand_ins = {1: "optimal"}
    assert room.memo(("json",), object) is not second, "kept though a bot now plays a seat"


# ---- the rest of the room ------------------------------------------------------------------------

ANN, BO, SPECTATOR = Grant("seat", 0), Grant("seat", 1), Grant("spectator")


def three_seats(lang: str = "en") -> Room:
    """Ann (to play first), the greedy bot, Bo: a room of them, nothing played yet."""
    game = Game(get_ruleset("yatzy"), [Seat("Ann"), Seat.bot("greedy"), Seat("Bo")], seed=1)
    return Room(id=1, code="ABCDEFGH", game_id=1, settings=RoomSettings(lang=lang), salt="s",
                commitment="c", session=Session(game, lang=lang), stand_ins={}, taken=set())


def test_room_settings_from_a_dict_leave_out_unknown_keys_and_make_the_kept_seats_numbers() -> None:
    assert RoomSettings.from_dict({"coach": False, "kept": ["2", 0], "gone": 1}) == RoomSettings(
        coach=False, kept=(2, 0))
    assert RoomSettings.from_dict({"lang": "fi"}) == RoomSettings(lang="fi")


def test_a_refusal_reads_as_its_words_and_asks_for_a_full_state_only_when_told() -> None:
    refusal = Refusal("stale", "the game has moved on", resync=True)
    assert (str(refusal), refusal.code, refusal.message, refusal.resync) == (
        "the game has moved on", "stale", "the game has moved on", True)
    assert not Refusal("not_your_turn", "not your turn").resync


def test_a_room_from_its_record_keeps_every_value_and_counts_every_person_away_from_now() -> None:
    game = play_out(three_seats().game, actions=1)
    record = RoomRecord(id=4, code="QRSTUVWX", game_id=9, settings={"lang": "fi", "hot_seat": True},
                        stand_ins={2: "optimal"}, salt="pepper", commitment="abc", game=game, taken={0},
                        saved=1, accepted={"a1": (0, 1)})
    before = time.monotonic()
    room = Room.from_record(record)
    assert (room.id, room.code, room.game_id, room.settings, room.salt, room.commitment) == (
        4, "QRSTUVWX", 9, RoomSettings(lang="fi", hot_seat=True), "pepper", "abc")
    assert (room.game, room.session.lang, room.stand_ins, room.taken, room.accepted) == (
        game, "fi", {2: "optimal"}, {0}, {"a1": (0, 1)})
    assert (room.saved, room.logged, room.buffer_from, room.buffered) == (1, 1, 1, 1)
    assert sorted(room.crowd.away_since) == [0, 2]
    assert all(before <= t <= time.monotonic() for t in room.crowd.away_since.values())
    session = Session(game)
    assert Room.from_record(record, session).session is session


def test_a_bot_moves_on_a_bots_seat_or_a_stand_ins_and_never_once_the_game_is_over() -> None:
    room = three_seats()
    assert not room.bot_turn()  # Ann's
    room.stand_ins = {2: "optimal"}
    assert not room.bot_turn(), "Bo's stand-in moves in Ann's turn"
    room.stand_ins = {0: "optimal"}
    assert room.bot_turn()
    room.stand_ins = {}
    room.session.act("r")
    room.session.act("s chance")
    assert room.bot_turn()  # the greedy bot's
    over = a_room()
    play_out(over.game)
    over.stand_ins = {over.game.state.current: "optimal"}
    assert not over.bot_turn()


def played(room: Room, actions: int) -> list[dict[str, Any]]:
    """Play ``actions`` actions keeping each one's event, as the authority does; the events."""
    events = []
    for _ in range(actions):
        play_out(room.game, actions=1)
        events.append({"version": room.version})
        room.remember(events[-1:])
    return events


def test_a_client_resumes_from_the_events_after_its_version_while_they_are_all_kept() -> None:
    room = a_room()
    events = played(room, 3)
    assert [room.events_after(v) for v in range(4)] == [events, events[1:], events[2:], []]
    assert room.events_after(-1) is None, "before the first kept"
    assert room.events_after(4) is None, "past the room's version"
    play_out(room.game, actions=1)  # another process's action, its event not here yet
    assert room.catching_up and room.events_after(3) is None
    room.remember([{"version": 4}])
    assert room.events_after(3) == [{"version": 4}]


def test_events_that_do_not_follow_on_start_the_buffer_again_up_to_the_version_given() -> None:
    room = a_room()
    played(room, 2)
    play_out(room.game, actions=2)
    room.remember([{"version": 4}], before=3, after=4)
    assert (room.buffer, room.buffer_from, room.buffered) == ([{"version": 4}], 3, 4)
    play_out(room.game, actions=1)
    room.remember([], after=4)  # told up to an older version: catching up
    assert (room.buffered, room.catching_up) == (4, True)


def test_the_buffer_keeps_the_last_events_only_and_says_from_where(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(room_module, "EVENT_BUFFER", 3)
    room = a_room()
    events = played(room, 3)
    assert (room.buffer, room.buffer_from) == (events, 0), "dropped one at the limit"
    events += played(room, 2)
    assert (room.buffer, room.buffer_from) == (events[2:], 2)
    assert room.events_after(1) is None and room.events_after(2) == events[2:]


def test_each_holder_sees_its_seats_moves_only_in_its_language() -> None:
    room = three_seats()
    room.session.act("r")
    seq = room.session.seq
    for lang in ("en", "fi"):
        table = game_view(room.game, None, lang, seq)
        assert table.legal_actions and table.lang == lang
        for seat in (0, 1, 2):
            assert room.view(Grant("seat", seat), lang) == game_view(room.game, seat, lang, seq)
        assert room.view(Grant("table", 1), lang) == room.view(Grant("table"), lang) == table
        assert room.view(SPECTATOR, lang) == replace(table, legal_actions=(), score_options=())
    assert room.view(ANN, "en").legal_actions and not room.view(BO, "en").legal_actions


def test_a_seat_played_by_a_stand_in_is_seen_without_moves_by_its_player_and_the_table() -> None:
    room = three_seats()
    room.stand_ins = {2: "optimal"}
    assert room.view(ANN, "en").legal_actions, "Ann's moves taken for Bo's stand-in"
    room.stand_ins = {0: "optimal"}
    for grant in (ANN, Grant("table")):
        view = room.view(grant, "en")
        assert view == replace(game_view(room.game, grant.seat, "en", room.session.seq),
                               legal_actions=(), score_options=())


def test_a_view_depends_on_the_seat_of_a_seats_grant_only() -> None:
    assert [Room.viewer(g) for g in (BO, Grant("table", 1), Grant("spectator", 1))] == [
        ("seat", 1), ("table", None), ("spectator", None)]


def test_a_token_counts_for_its_seat_the_table_for_every_person_and_a_spectator_for_none() -> None:
    room = three_seats()
    assert [room.seats_of(g) for g in (BO, Grant("table"), SPECTATOR, Grant("seat"), Grant("table", 1),
                                       Grant("spectator", 1))] == [[1], [0, 2], [], [], [0, 2], []]


def test_a_rematchs_seats_are_kept_until_the_time_given_and_not_once_taken() -> None:
    room = three_seats()
    room.settings = RoomSettings(kept=(0, 2), kept_until=100.0)
    room.taken = {2}
    assert room.kept_seats(99.9) == {0}
    assert room.kept_seats(100.0) == set()


class Clock:
    """A test's own clock, and the timers set on it (delay, call), which the test rings."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.timers: list[tuple[float, Callable[[], None]]] = []

    def __call__(self) -> float:
        return self.now

    def later(self, delay: float, call: Callable[[], None]) -> Clock:
        self.timers.append((delay, call))
        return self

    def cancel(self) -> None:
        """A timer stopped (the test rings only the last one set)."""


def on_clock(room: Room, clock: Clock) -> Room:
    """``room`` with its crowd on ``clock``: Ann connected once, the third seat away since now."""
    room.crowd = Crowd(clock=clock, later=clock.later)
    room.crowd.came([0], spectator=False)
    room.crowd.away_since = {2: clock.now}
    return room


def test_presence_says_who_is_connected_who_is_away_how_long_and_who_may_go_to_a_bot() -> None:
    clock = Clock()
    room = on_clock(three_seats(), clock)
    room.settings = RoomSettings(away_after=30.0)
    room.taken = {0}
    room.crowd.came([], spectator=True)
    clock.now += 12.34
    assert room.presence().seats[2].away_for == 12.3
    clock.now += 17.62

    def seats(bo_away: float, bo_may_go: bool) -> list[SeatPresence]:
        return [SeatPresence(seat=0, name="Ann", kind="person", taken=True, connected=True, away_for=None,
                             may_hand_to_bot=False, stand_in=None),
                SeatPresence(seat=1, name=room.game.seats[1].name, kind="bot", taken=False, connected=False,
                             away_for=None, may_hand_to_bot=False, stand_in=None),
                SeatPresence(seat=2, name="Bo", kind="person", taken=False, connected=False, away_for=bo_away,
                             may_hand_to_bot=bo_may_go, stand_in=None)]

    assert room.presence() == Presence(seats=seats(30.0, False), spectators=1, away_after=30.0,
                                       stand_in_level="greedy")
    clock.now += 0.04
    assert room.presence().seats == seats(30.0, True)
    room.stand_ins = {2: "greedy"}
    assert room.presence().seats[2] == seats(30.0, False)[2].model_copy(update={"stand_in": "greedy"})


def test_presence_reads_the_clock_once_so_a_seats_time_away_and_whether_it_may_go_to_a_bot_agree() -> None:
    clock = Clock()
    room = on_clock(three_seats(), clock)  # Bo away since 1000
    room.settings = RoomSettings(away_after=30.0)

    def ticking() -> float:  # a second later at every reading
        clock.now += 1.0
        return clock.now - 1.0

    room.crowd.clock = ticking
    for now, may_go in ((1029.5, False), (1030.0, True)):
        clock.now = now
        bo = room.presence().seats[2]
        assert (bo.away_for, bo.may_hand_to_bot) == (now - 1000.0, may_go)


def test_a_seat_may_go_to_a_bot_once_its_player_has_been_away_long_enough_and_only_a_persons() -> None:
    clock = Clock()
    room = on_clock(three_seats(), clock)
    room.settings = RoomSettings(away_after=30.0)
    clock.now += 29.99
    assert [room.may_hand_to_bot(s) for s in range(3)] == [False, False, False]
    assert room.may_hand_to_bot(2, clock.now + 0.01), "the time given"
    clock.now += 0.01
    assert [room.may_hand_to_bot(s) for s in range(3)] == [False, False, True]
    room.stand_ins = {2: "optimal"}
    assert not room.may_hand_to_bot(2), "already a bot's"
    over = on_clock(a_room(), clock)
    over.crowd.away_since = {1: 0.0}
    play_out(over.game)
    assert not over.may_hand_to_bot(1)


def test_the_clients_are_told_when_an_away_seat_may_go_to_a_bot() -> None:
    clock = Clock()
    room = on_clock(three_seats(), clock)
    room.settings = RoomSettings(away_after=30.0)
    told: list[str] = []
    room.listeners.add(told.append)
    room.watch_away()
    [(delay, ring)] = clock.timers
    assert delay == 30.0
    clock.now += 29.0
    ring()  # early: set again for the rest
    assert told == [] and clock.timers[-1][0] == pytest.approx(1.0)
    clock.now += 1.0
    clock.timers[-1][1]()
    assert told == ["presence"]


def test_the_bots_tables_progress_is_told_in_the_clients_language() -> None:
    room = three_seats()
    assert room.preparing_message("fi") is None
    room.preparing = Preparing("building", "yatzy", ("optimal",), done=1, total=3, seconds_left=12.5)
    with language("fi"):
        finnish = preparing_text(room.preparing)
    assert finnish != preparing_text(room.preparing)
    assert room.preparing_message("fi") == BotsPreparing(stage="building", progress=0.3333, text=finnish,
                                                         place=None, seconds_left=12.5)
    room.preparing = Preparing("loading", "yatzy", ("optimal",), place=2)
    message = room.preparing_message("en")
    assert message is not None and (message.stage, message.progress, message.place) == ("loading", None, 2)

"""The session: bots play at a front end's pace, people act on their turn, events tell it all."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest

from yatzy.bots import RandomBot
from yatzy.errors import IllegalActionError, InvalidActionError, YatzyError
from yatzy.events import (
    Amended,
    Event,
    GameOver,
    Rolled,
    RollOff,
    Scored,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
    event_from_dict,
)
from yatzy.game import Action, Game, Restore, Roll, Score
from yatzy.i18n import language
from yatzy.narration import preparing_text
from yatzy.seats import Seat
from yatzy.session import Preparing, SaveError, Session

RULESETS = ("yatzy", "forced", "maxi", "osto", "kids", "yahtzee", "dozzy")
ACTIONS = (Rolled, Scored, TilesRestored)
"""Events that each stand for one action in the log."""


def bot_seats(rules: str) -> list[Seat]:
    third = "dozzy" if rules == "dozzy" else "greedy"
    return [Seat.bot("greedy"), Seat.bot("random", "Rita"), Seat.bot(third, "Gus")]


def check_score(twin: Game, e: Scored, extra_before: int) -> None:
    p = twin.state.players[e.player]
    assert p.extra - extra_before == e.yahtzee_bonus
    assert (p.card[e.box], p.bank, twin.total(e.player)) == (e.points, e.bank, e.total)
    assert twin.ruleset.category_ids[e.number - 1] == e.box


def replay_events(game: Game, events: list[Event]) -> Game:
    """A second game built from the events alone (never from the first game's log or seed)."""
    twin = Game(game.ruleset, game.seats, seed=12345)
    pending: Scored | None = None
    for e in events:
        if isinstance(e, RollOff):
            twin.first = twin.state.current = e.first  # the engine has no way to name who starts
        elif isinstance(e, Rolled):
            assert twin.state.current == e.player
            twin.play(Roll(e.kept, e.rolled))
            assert twin.state.dice == e.dice
            assert twin.rolls_left == e.rolls_left + e.bank
        elif isinstance(e, TilesRestored):
            twin.play(Restore(e.tiles))
            assert tuple(sorted(twin.state.out)) == e.board_out
        elif isinstance(e, Scored):
            if twin.ruleset.uses_board:
                pending = e  # its tile returns come in the next event
                continue
            extra = twin.state.players[e.player].extra
            twin.play(Score(e.box))
            check_score(twin, e, extra)
        elif isinstance(e, TilesMoved):
            assert pending is not None and pending.player == e.player
            out_before, extra = twin.state.out, twin.state.players[e.player].extra
            twin.play(Score(pending.box, e.tiles_back))
            check_score(twin, pending, extra)
            assert tuple(sorted(twin.state.out - out_before)) == e.tiles_out
            assert tuple(sorted(twin.state.out)) == e.board_out
            pending = None
        elif isinstance(e, TurnPassed):
            assert (twin.state.current, twin.round_number) == (e.player, e.round)
        elif isinstance(e, Undone):
            twin.undo()
        elif isinstance(e, GameOver):
            outcome = twin.outcome()
            assert outcome is not None and outcome.winners == e.winners
            assert [(s.player, s.total, s.rank) for s in outcome.standings] == \
                [(s.player, s.total, s.rank) for s in e.standings]
    assert pending is None
    return twin


def check_stream(game: Game, events: list[Event]) -> None:
    """Numbered 1, 2, 3...; one action event per logged action; the end announced once."""
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    actions = [e for e in events if isinstance(e, ACTIONS)]
    assert [e.version for e in actions] == list(range(1, len(game.log) + 1))
    assert [e.kind for e in events].count("game_over") == (1 if game.is_over else 0)
    if game.is_over:
        assert events[-1].kind == "game_over"


@pytest.mark.parametrize("rules", RULESETS)
def test_bots_play_a_whole_game_and_the_events_replay_it(rules: str) -> None:
    game = Game(rules, bot_seats(rules), seed=2024, roll_off=True)
    session = Session(game, bot_seed=7)
    events = session.advance()
    assert game.is_over and session.waiting_for() is None
    assert isinstance(events[0], RollOff) and events[0].first == game.first
    assert [dict(r) for r in events[0].rounds] == game.roll_offs
    check_stream(game, events)
    twin = replay_events(game, events)
    assert twin.state == game.state
    assert twin.totals() == game.totals()
    assert session.outcome() == game.outcome()
    assert session.advance() == [] and session.step() == []


@pytest.mark.parametrize("rules", RULESETS)
def test_step_plays_exactly_one_bot_action(rules: str) -> None:
    game = Game(rules, bot_seats(rules), seed=99)
    session = Session(game, bot_seed=1)
    all_events: list[Event] = []
    while not game.is_over:
        before = len(game.log)
        events = session.step()
        assert len(game.log) == before + 1
        assert sum(isinstance(e, ACTIONS) for e in events) == 1
        all_events += events
    check_stream(game, all_events)
    assert replay_events(game, all_events).state == game.state


def test_advance_waits_pace_seconds_between_bot_actions() -> None:
    game = Game("kids", [Seat.bot("greedy"), Seat.bot("random")], seed=5)
    waits: list[float] = []
    Session(game).advance(pace=0.25, sleep=waits.append)
    assert waits == [0.25] * (len(game.log) - 1)


def test_a_solver_bot_prepares_its_table_with_progress_then_plays() -> None:
    game = Game("kids", [Seat.bot("casual", "Cas"), Seat.bot("greedy")], seed=31_415)
    session = Session(game, bot_seed=3)
    reports: list[Preparing] = []
    session.prepare(reports.append)
    stages = [r.stage for r in reports]
    assert stages[0] == "loading" and stages[-1] == "ready"
    assert set(stages[1:-1]) <= {"building"}
    for r in reports[1:-1]:
        assert r.total is not None and 0 < r.done <= r.total
    assert reports[0].levels == ("casual",)
    assert preparing_text(reports[0]) == "loading the Kids table for the casual bot"
    events = session.advance()
    assert game.is_over
    check_stream(game, events)
    assert replay_events(game, events).totals() == game.totals()


def test_prepare_reports_nothing_without_a_table_to_build() -> None:
    reports: list[Preparing] = []
    Session(Game("dozzy", [Seat.bot("casual"), Seat.bot("greedy")], seed=1)).prepare(reports.append)
    Session(Game("yatzy", [Seat.bot("greedy"), Seat("Ann")], seed=1)).prepare(reports.append)
    assert reports == []


def test_unknown_bot_levels_and_bots_for_people_are_refused() -> None:
    with pytest.raises(InvalidActionError, match="unknown level “superbot”; the levels are: random"):
        Session(Game("yatzy", [Seat.bot("superbot")]))
    with pytest.raises(InvalidActionError, match="seat 0, which is not a bot's seat"):
        Session(Game("yatzy", [Seat("Ann"), Seat.bot("greedy")]), bots={0: object()})  # type: ignore[dict-item]
    with pytest.raises(InvalidActionError, match="unknown language “xx”"):
        Session(Game("yatzy", ["Ann"]), lang="xx")


def test_bots_are_given_for_bot_seats_only_and_the_refusal_names_the_seat_and_the_bot_seats() -> None:
    """Seats 0 and 2 are bots: a bot may be given for either (the first seat too); seat 1 (a
    person), seat 3 (past the last) and seat -1 are refused with the bot seats named, "none"
    where there are none. An unknown level names the seat, its player and the levels."""
    seats = [Seat.bot("random", "Bo"), Seat("Ann"), Seat.bot("random", "Cy")]
    Session(Game("yatzy", seats, seed=3), bots={0: RandomBot(1), 2: RandomBot(2)})
    for seat in (-1, 1, 3):
        refused = fr"^a bot was given for seat {seat}, which is not a bot's seat; bot seats: 0, 2$"
        with pytest.raises(InvalidActionError, match=refused):
            Session(Game("yatzy", seats, seed=3), bots={seat: RandomBot(1)})
    with pytest.raises(InvalidActionError, match="^a bot was given for seat 0, which is not a bot's seat; "
                                                 "bot seats: none$"):
        Session(Game("yatzy", ["Ann"]), bots={0: RandomBot(1)})
    with pytest.raises(InvalidActionError, match=r"^seat 1 \(Bo\) is a bot of unknown level “superbot”; "
                                                 "the levels are: random, greedy"):
        Session(Game("yatzy", [Seat("Ann"), Seat.bot("superbot", "Bo")]))


def test_a_bot_made_from_the_sessions_seed_plays_as_one_seeded_with_the_seed_plus_its_seat() -> None:
    """bot_seed 4 seats random bots seeded 4, 5 and 6; the same bots given play the same game."""
    def played(session: Session) -> list[Action]:
        session.advance()
        assert session.game.is_over
        return session.game.log

    seats = [Seat.bot("random") for _ in range(3)]
    made = played(Session(Game("yatzy", seats, seed=3), bot_seed=4))
    assert made == played(Session(Game("yatzy", seats, seed=3), bots={i: RandomBot(4 + i) for i in range(3)}))


def snapshot(game: Game) -> tuple[object, ...]:
    return copy.deepcopy(game.state), list(game.log), game._rng.getstate()


def test_a_person_waits_for_input_and_acts_only_on_their_turn() -> None:
    game = Game("yatzy", [Seat("Ann"), Seat.bot("greedy", "Bo")], seed=77)
    session = Session(game)
    assert session.advance() == [] and session.step() == []
    assert session.waiting_for() == 0
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match=r"it is Ann's turn \(seat 0\), not seat 1's"):
        session.act("r", seat=1)
    with pytest.raises(InvalidActionError, match="is not an action"):
        session.act("x 12")
    with pytest.raises(IllegalActionError, match="roll the dice before scoring"):
        session.act("s chance", seat=0)
    with pytest.raises(InvalidActionError, match="the game throws the rest"):
        session.act(Roll((), (6, 6, 6, 6, 6)))
    assert snapshot(game) == before

    (rolled,) = session.act("r", seat=0)
    assert isinstance(rolled, Rolled) and rolled.player == 0 and rolled.kept == ()
    assert rolled.dice == game.state.dice and rolled.rolls_left == 2
    scored, passed = session.act("s chance")
    assert isinstance(scored, Scored) and scored.box == "chance" and scored.number == 14
    assert scored.points == sum(rolled.dice) == scored.total
    assert isinstance(passed, TurnPassed) and (passed.player, passed.round) == (1, 1)

    assert session.waiting_for() is None
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="it is Bo's turn, a bot's"):
        session.act("r")
    with pytest.raises(IllegalActionError, match="it is Bo's turn, a bot's"):
        session.act(Roll(), seat=0)
    assert snapshot(game) == before

    events = session.advance()
    assert session.waiting_for() == 0
    assert isinstance(events[-1], TurnPassed) and events[-1].player == 0 and events[-1].round == 2
    assert all(getattr(e, "player", 1) == 1 for e in events[:-1])


def test_a_correction_is_one_change_more_whatever_it_does_to_the_log() -> None:
    game = Game("yatzy", ["Ann"], dice_from="players")
    session = Session(game)
    session.act("r = 12346")
    session.act("r = 11111")
    session.act("s ones")
    (amended,) = session.amend(0, ["r = 66666", "s chance"])
    assert len(game.log) == 2 and amended.version == game.version == 4
    assert session.view().version == game.clone().version == 4


def test_undo_takes_back_a_persons_score_until_the_next_roll() -> None:
    game = Game("yatzy", [Seat("Ann"), Seat.bot("greedy", "Bo")], seed=8)
    session = Session(game)
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        session.undo()
    session.act("r")
    with pytest.raises(IllegalActionError, match="a roll cannot be undone"):
        session.undo()
    dice = game.state.dice
    session.act("s chance")
    assert session.waiting_for() is None
    (undone,) = session.undo()
    assert isinstance(undone, Undone) and (undone.player, undone.action) == (0, "s chance")
    assert undone.version == game.version == 3 and len(game.log) == 1  # the roll, the score, its undo
    assert session.waiting_for() == 0 and game.state.dice == dice and game.state.players[0].card == {}
    session.act("s ones")
    session.step()  # Bo rolls: Ann's score stands
    with pytest.raises(IllegalActionError, match="a roll cannot be undone"):
        session.undo()
    session.advance()
    with pytest.raises(IllegalActionError, match="Bo moved last: a bot.s move cannot be undone"):
        session.undo()
    assert game.state.players[0].card == {"ones": game.state.players[0].card["ones"]}


def test_undo_after_the_last_score_reopens_the_game() -> None:
    game = Game("kids", ["Ann"], seed=3)
    session = Session(game)
    events: list[Event] = []
    while not game.is_over:
        events += session.act("r")
        events += session.act(f"s {game.ruleset.open_categories(game.player.card)[0]}")
    assert isinstance(events[-1], GameOver)
    events += session.undo()
    assert not game.is_over and session.waiting_for() == 0 and session.outcome() is None
    events += session.act("s sixes")
    assert isinstance(events[-1], GameOver)
    assert replay_events(game, events).state == game.state


def test_dozzy_tiles_move_restore_and_undo_through_the_session() -> None:
    game = Game("dozzy", ["Ann"], seed=11)
    session = Session(game)
    events: list[Event] = []
    restored = False
    while not game.is_over:
        view = session.view(0)
        backs = [a for a in view.legal_actions if a.startswith("b ")]
        if backs and not restored:
            events += session.act(backs[0], seat=0)
            events += session.undo()
            events += session.act(backs[-1])
            restored = True
            continue
        if game.state.dice is None:
            events += session.act("r")
            continue
        most_out = max(view.score_options, key=lambda o: len(o.tiles_out))  # so tiles pile up
        events += session.act(next(a for a in view.legal_actions if a.split()[:2] == ["s", most_out.id]))
    assert restored, "no game state with tiles to bring back: pick another seed"
    kinds = {e.kind for e in events}
    assert {"tiles_moved", "tiles_restored", "undone"} <= kinds
    assert replay_events(game, events).state == game.state


def test_the_roll_off_is_told_once_however_often_start_is_called_before_the_first_move() -> None:
    game = Game("yatzy", [Seat.bot("greedy"), Seat.bot("random")], seed=5, roll_off=True)
    session = Session(game, bot_seed=1)
    first = session.start()
    assert [type(e) for e in first] == [RollOff] and not game.log
    assert session.start() == []
    assert not any(isinstance(e, RollOff) for e in session.step()) and len(game.log) == 1


def test_subscribers_receive_exactly_the_returned_events() -> None:
    game = Game("yahtzee", [Seat("Ann"), Seat.bot("greedy"), Seat.bot("random")], seed=21, roll_off=True)
    session = Session(game, bot_seed=2)
    got: list[Event] = []
    early: list[Event] = []
    session.subscribe(got.append)
    stop_early = session.subscribe(early.append)
    returned: list[Event] = []
    while not game.is_over:
        returned += session.advance()
        if session.waiting_for() == 0:
            returned += session.act("r")
            returned += session.act(session.view(0).legal_actions[-1])
        if len(game.log) > 10 and early and len(early) == len(got):
            stop_early()
    assert got == returned and got
    assert early == got[: len(early)] and len(early) < len(got)
    check_stream(game, returned)
    assert replay_events(game, returned).state == game.state


def test_save_fails_cleanly_and_the_game_goes_on(tmp_path) -> None:
    game = Game("yatzy", [Seat.bot("greedy"), Seat.bot("random")], seed=4)
    session = Session(game)
    session.step()
    before = snapshot(game)
    with pytest.raises(SaveError, match="^could not save the game to /no/such/dir/game.json: "
                                        "No such file or directory; the game goes on") as err:
        session.save("/no/such/dir/game.json")
    assert isinstance(err.value, YatzyError)
    (tmp_path / "folder").mkdir()
    with pytest.raises(SaveError, match="could not save the game to .*folder: Is a directory"):
        session.save(tmp_path / "folder")
    assert [p.name for p in tmp_path.iterdir()] == ["folder"]  # no temporary file left behind
    assert snapshot(game) == before
    session.advance()
    assert game.is_over
    path = session.save(tmp_path / "game.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "game.json"]
    loaded = Game.from_json(path.read_text(encoding="utf-8"))
    assert loaded.state == game.state and loaded.log == game.log


def test_events_tell_saved_rolls_apart_and_the_yahtzee_bonus() -> None:
    game = Game("maxi", ["Ann"], seed=6)
    session = Session(game)
    session.act("r")
    scored, _ = session.act(f"s {game.ruleset.category_ids[-1]}")
    assert isinstance(scored, Scored) and scored.bank == 2
    (rolled,) = session.act("r")
    assert isinstance(rolled, Rolled) and (rolled.rolls_left, rolled.bank) == (2, 2)
    for left in (1, 0):
        (rolled,) = session.act("r")
        assert isinstance(rolled, Rolled) and (rolled.rolls_left, rolled.bank) == (left, 2)
    (rolled,) = session.act("r")
    assert isinstance(rolled, Rolled) and (rolled.rolls_left, rolled.bank) == (0, 1)

    game = Game("yahtzee", ["Ann"], seed=6)
    session = Session(game)
    game.play(Roll((), (5, 5, 5, 5, 5)))  # dice chosen by the test, through the engine
    first, _ = session.act("s yahtzee")
    assert isinstance(first, Scored) and (first.points, first.yahtzee_bonus) == (50, 0)
    game.play(Roll((), (5, 5, 5, 5, 5)))
    second, _ = session.act("s fives")
    assert isinstance(second, Scored)
    assert (second.points, second.yahtzee_bonus, second.total) == (25, 100, 175)


def test_a_refused_score_names_the_boxes_by_number_and_the_tile_choices() -> None:
    game = Game("yatzy", ["Ann"], seed=6)
    session = Session(game)
    session.act("r")
    session.act("s sixes")
    session.act("r")
    with pytest.raises(IllegalActionError, match="^box 6 Sixes is filled already; choose an open box"):
        session.act("s sixes")
    forced = Session(Game("forced", ["Ann"], seed=1))
    forced.act("r")
    in_order = "^this game fills the boxes in order: the next one is 1 Ones$"
    with pytest.raises(IllegalActionError, match=in_order):
        forced.act("s sixes")
    joker = Game("yahtzee", ["Ann"], seed=1)
    for dice, box in [((2, 2, 2, 2, 2), "yahtzee"), ((3, 3, 3, 3, 3), None)]:
        joker.apply(Roll((), dice))
        if box:
            joker.apply(Score(box))
    with pytest.raises(IllegalActionError, match=r"^box 1 Ones cannot take these dice now \(joker rule\); "
                                                 "you may score: 3 Threes$"):
        Session(joker).act("s ones")
    dozzy = Game("dozzy", ["Ann"], seed=1)
    for dice, box in [((1, 2, 3, 4, 4), "n4"), ((1, 2, 3, 5, 5), "n5"), ((1, 1, 2, 3, 6), "n9"),
                      ((3, 3, 3, 4, 5), None)]:
        dozzy.apply(Roll((), dice))
        if box:
            dozzy.apply(Score(box))
    session = Session(dozzy)
    before = snapshot(dozzy)
    with pytest.raises(IllegalActionError, match="^choose which tiles come back: s n3 4 5 or s n3 9$"):
        session.act("s n3")
    with pytest.raises(IllegalActionError, match="^tiles 4 9 cannot come back with this score; choose s n3"):
        session.act("s n3 4 9")
    with pytest.raises(IllegalActionError, match="^no tiles come back with this score: write s chance$"):
        session.act("s chance 4")
    assert snapshot(dozzy) == before
    scored, moved, _ = session.act("s n3 9")
    assert isinstance(moved, TilesMoved) and (moved.tiles_out, moved.tiles_back) == ((3,), (9,))


def test_the_session_speaks_its_language() -> None:
    game = Game("yatzy", [Seat("Aino"), Seat.bot("greedy")], seed=6)
    session = Session(game, lang="fi")
    session.act("r")
    session.act("s ones")
    session.undo()
    session.act("s ones")
    session.advance()
    session.act("r")
    with language("sv"), pytest.raises(IllegalActionError, match="kohta 1 Ykköset on jo täytetty"):
        session.act("s ones")  # the session's language, whatever the caller's
    assert session.view().players[0].boxes[0].name == "Ykköset"
    assert session.view(lang="sv").players[0].boxes[0].name != "Ykköset"


def test_events_count_the_rolls_of_a_turn_and_undo_names_the_box() -> None:
    game = Game("yatzy", [Seat("Ann")], seed=6)
    session = Session(game)
    rolls = session.act("r") + session.act("r") + session.act("r")
    assert [e.roll for e in rolls if isinstance(e, Rolled)] == [1, 2, 3]
    session.act("s chance")
    (undone,) = session.undo()
    assert isinstance(undone, Undone)
    assert (undone.box, undone.number, undone.action) == ("chance", 14, "s chance")
    assert session.view().seq == session.seq == undone.seq == 6  # 3 rolls, score, turn, undo
    assert session.view().last is not None and session.view().last.kind == "roll"


def test_a_save_error_keeps_the_path_and_the_reason(tmp_path) -> None:
    session = Session(Game("yatzy", ["Ann"], seed=1))
    with pytest.raises(SaveError) as err:
        session.save(tmp_path / "none" / "g.json")
    assert err.value.path == tmp_path / "none" / "g.json" and err.value.reason == "No such file or directory"


def test_a_save_writes_a_hidden_temporary_file_beside_the_target_then_renames_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rename is atomic only within one file system: the temporary file sits in the
    target's folder, hidden and named after it (``.game.json.*.tmp``), until it is renamed."""
    renamed: list[tuple[Path, Path]] = []
    rename = os.replace

    def watched(src: str, dst: Path) -> None:
        renamed.append((Path(src), Path(dst)))
        rename(src, dst)

    monkeypatch.setattr(os, "replace", watched)
    target = Session(Game("yatzy", ["Ann"], seed=1)).save(tmp_path / "game.json")
    [(tmp, to)] = renamed
    assert to == target == tmp_path / "game.json" and tmp.parent == tmp_path
    assert tmp.name.startswith(".game.json.") and tmp.name.endswith(".tmp")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]


def test_a_save_failing_without_the_systems_words_says_the_write_failed_and_a_failed_cleanup_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An OSError with no strerror is told as "the write failed"; when the temporary file cannot
    be removed either, the save still fails with its SaveError (not the removal's error)."""
    def fails(*_args: object) -> None:
        raise OSError

    monkeypatch.setattr(os, "replace", fails)
    monkeypatch.setattr(os, "unlink", fails)
    with pytest.raises(SaveError) as err:
        Session(Game("yatzy", ["Ann"], seed=1)).save(tmp_path / "game.json")
    assert err.value.reason == "the write failed"


@pytest.mark.parametrize("rules", ["maxi", "dozzy"])
def test_every_event_comes_back_from_its_dict_and_its_json_keeps_the_names_as_written(rules: str) -> None:
    """What a web server's copy of an event is (event_from_dict of to_dict): the same event,
    every kind a bot game makes; the JSON keeps a name's letters as they are (not \\u escapes)."""
    game = Game(rules, [Seat.bot("greedy", "Åsa"), Seat.bot(bot_seats(rules)[2].level or "", "Юрий")],
                seed=11, roll_off=True)
    events = Session(game, bot_seed=3).advance()
    assert {type(e) for e in events} >= {RollOff, Rolled, Scored, TurnPassed, GameOver}
    for e in events:
        assert event_from_dict(e.to_dict()) == e
        assert json.loads(e.to_json()) == e.to_dict()
    assert "Åsa" in events[-1].to_json() and "Юрий" in events[-1].to_json()


def test_a_save_goes_to_the_home_folder_named_with_a_tilde_and_fails_in_the_sessions_language(
        tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    session = Session(Game("yatzy", ["Ann"], seed=1), lang="fi")
    assert session.save("~/game.json") == tmp_path / "game.json"
    assert Game.from_json((tmp_path / "game.json").read_text(encoding="utf-8")).log == session.game.log
    with pytest.raises(SaveError, match=r"^peliä ei voitu tallentaa tiedostoon .*none/g\.json: "):
        session.save("~/none/g.json")
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]  # no temporary file left behind


def test_a_correction_tells_whose_turn_which_of_their_rounds_and_whether_the_game_had_ended() -> None:
    """Amended names the turn's player and their own round (other players' turns not counted),
    the turn as it was and is, the totals after; after the last score it says so."""
    session = Session(Game("kids", ["Ann", "Bo"], dice_from="players"))
    for ann, bo in zip(("ones", "twos", "threes", "fours", "fives", "sixes"),
                       ("twos", "threes", "fours", "fives", "sixes", "ones"), strict=True):
        for box in (ann, bo):
            session.act(Roll((), (1, 2, 3, 4, 5)))
            if box != "sixes":
                session.act(Score(box))
            else:  # a turn typed as two throws
                session.act(Roll((1, 2, 3, 4), (6,)))
                session.act(Score(box))
        if ann == "twos":
            [mid] = session.amend(2, [Roll((), (2, 2, 2, 4, 5)), "s twos"])  # an action and a text
    assert isinstance(mid, Amended)
    assert (mid.player, mid.turn, mid.round, mid.after_end) == (0, 2, 2, False)
    assert (mid.old, mid.new) == (("r = 12345", "s twos"), ("r = 22245", "s twos"))
    assert mid.totals == (1 + 6, 2 + 3)
    [end] = session.amend(3, ["r = 33345", "s threes"])
    assert isinstance(end, Amended) and (end.player, end.turn, end.round, end.after_end) == (1, 3, 2, True)
    assert end.totals == tuple(session.game.totals())


def test_undo_says_why_it_cannot() -> None:
    with pytest.raises(IllegalActionError, match="^nothing to undo yet$"):
        Session(Game("yatzy", ["Ann"], seed=1)).undo()
    rolled = Session(Game("yatzy", ["Ann"], seed=1))
    rolled.act("r")
    with pytest.raises(IllegalActionError, match="^a roll cannot be undone: its dice have been seen$"):
        rolled.undo()
    after_bot = Session(Game("yatzy", [Seat.bot("greedy", "Bo"), Seat("Ann")], seed=1))
    after_bot.advance()
    with pytest.raises(IllegalActionError, match="^Bo moved last: a bot's move cannot be undone$"):
        after_bot.undo()


def test_a_bot_changed_plays_at_once_and_a_game_without_bots_says_it_has_none() -> None:
    """The seat's bot made before the change is dropped: its next move is the new level's."""
    game = Game("yatzy", [Seat.bot("greedy", "Bo"), Seat("Ann")], seed=5)
    session = Session(game, bot_seed=2)
    twin = Session(Game("yatzy", [Seat.bot("random", "Bo"), Seat("Ann")], seed=5), bot_seed=2)
    session.step()
    twin.step()
    session.change_bot(0, "random")
    for s in (session, twin):
        while s.game.state.current == 0:
            s.step()
    assert game.log == twin.game.log  # random from its first move on, seeded alike
    with pytest.raises(InvalidActionError, match="^seat 0 is not a bot's seat; bot seats: none$"):
        Session(Game("yatzy", ["Ann"])).change_bot(0, "greedy")


def test_a_move_refused_says_why_in_the_engines_words() -> None:
    session = Session(Game("kids", [Seat("Ann"), Seat.bot("greedy", "Bo")], seed=2))
    with pytest.raises(IllegalActionError, match=r"^it is Ann's turn \(seat 0\), not seat 1's$"):
        session.act("r", seat=1)
    with pytest.raises(InvalidActionError,
                       match="^a person's roll names the dice to keep; the game throws the rest$"):
        session.act("r = 12345")
    session.act("r")
    session.act(session.view(0).legal_actions[-1])
    with pytest.raises(IllegalActionError,
                       match="^it is Bo's turn, a bot's; a person may move on their own turn only$"):
        session.act("r")
    while not session.game.is_over:
        session.advance()
        if session.waiting_for() == 0:
            session.act("r")
            session.act(session.view(0).legal_actions[-1])
    with pytest.raises(IllegalActionError, match="^the game is over; no more moves$"):
        session.act("r")

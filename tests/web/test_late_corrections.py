"""A scorekeeper game corrected after its end: still allowed (tables notice mistakes at the
end), by the room's own seats only, and recorded and shown as such: the correction's event
and words, the final standings, the save (a key added, older readers skip it), the history
and the records."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from helpers.web import Player, db_url, join, make_room
from yatzy.actions import parse_action
from yatzy.cli import app
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.saves import read
from yatzy.seats import Seat
from yatzy.storage import Database, get_game, list_games, record_game, records
from yatzy.web.app import create_app

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path), public_history=True)) as c:
        yield c



def test_a_correction_after_the_end_by_the_rooms_own_seat_is_recorded_and_shown(
        client: TestClient, tmp_path: Path) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}], ruleset="kids", dice_from="players")
    code = room["code"]
    other = make_room(client, [{"name": "Cy"}], ruleset="kids", dice_from="players")
    stranger = join(client, other["code"], 0)
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, join(client, code)) as ann, Player(client, code, join(client, code)) as bo:
        ann.until("state")
        bo.until("state")
        assert ann.answered({"type": "act", "id": "typo", "action": "r = 11112"})["type"] == "ack"
        assert ann.answered({"type": "act", "id": "typo-s", "action": "s ones"})["type"] == "ack"
        assert ann.answered({"type": "amend", "id": "early", "turn": 0, "dice": [1, 1, 1, 1, 1],
                            "box": "ones"})["type"] == "ack"  # during the game: a plain correction
        for box in BOXES:  # the rest: each types five of a box's face and fills it
            face = BOXES.index(box) + 1
            for p in (ann, bo) if box != "ones" else (bo,):
                other = bo if p is ann else ann
                while (p.view is None or p.view["version"] < other.view["version"]
                       or not p.view["legal_actions"]):
                    p.recv()
                rolled = p.answered({"type": "act", "id": f"r-{box}-{p.view['viewer']}",
                                    "action": f"r = {str(face) * 5}"})
                assert rolled["type"] == "ack", rolled
                assert p.answered({"type": "act", "id": f"s-{box}-{p.view['viewer']}",
                                  "action": f"s {box}"})["type"] == "ack"
        while not ann.view["over"]:
            ann.recv()
        assert ann.view["outcome"]["corrected_after_end"] is False  # corrected during the game only
        totals = [p["total"] for p in ann.view["players"]]
        assert totals[0] == totals[1]
        with Player(client, code, spectator) as s:  # a spectator may not correct
            s.until("state")
            assert s.answered({"type": "amend", "id": "s-fix", "turn": 1, "dice": [1, 1, 1, 1, 2],
                              "box": "ones"})["code"] == "spectator"
        with Player(client, code, stranger) as cy:  # nor a seat's token of another room
            assert cy.until("error")["code"] == "unauthorized"
        while bo.view is None or bo.view["version"] < ann.view["version"]:
            bo.recv()
        assert bo.answered({"type": "amend", "id": "ann-by-bo", "turn": 0, "dice": [1, 1, 1, 1, 2],
                           "box": "ones"})["code"] == "other_seat"  # nor another seat
        version = ann.view["version"]
        fixed = bo.answered({"type": "amend", "id": "late", "turn": 1, "dice": [1, 1, 1, 1, 2],
                             "box": "ones"})
        assert fixed["type"] == "ack" and fixed["version"] == version + 1
        while ann.view["version"] < fixed["version"]:
            ann.recv()
        late = [e for m in ann.seen if m["type"] == "events" for e in m["events"] if e["kind"] == "amended"]
        assert [e["after_end"] for e in late] == [False, True]
        assert late[-1]["text"].startswith("Corrected after the end: Bo, round 1: 1 1 1 1 2")
        assert late[0]["text"].startswith("Corrected: Ann")
        outcome = ann.view["outcome"]
        assert outcome["corrected_after_end"] is True
        assert [(s["name"], s["rank"]) for s in outcome["standings"]] == [("Ann", 1), ("Bo", 2)]
        assert outcome["standings"][1]["total"] < totals[1] == outcome["standings"][0]["total"]
    game_id = client.get(f"/api/rooms/{code}").json()["game_id"]
    listed = {g["id"]: g["corrected_after_end"] for g in client.get("/api/games").json()}
    assert listed[game_id] is True and list(listed.values()).count(True) == 1  # the other room's: not
    best = client.get("/api/stats?ruleset=kids&dice_from=players").json()["records"]
    assert best and all(r["corrected_after_end"] for r in best if r["game_id"] == game_id)
    with Database(db_url(tmp_path)) as db:
        assert get_game(db, game_id).corrected_after_end
        assert [g.corrected_after_end for g in list_games(db) if g.id == game_id] == [True]
        assert records(db, "kids", dice_from="players")[0].corrected_after_end
        save = client.app.state.rooms.rooms[code].game.to_dict()  # type: ignore[attr-defined]
        assert [a.get("after_end") for a in save["amendments"]] == [None, True]  # added only when true


def test_an_old_save_reads_as_uncorrected_and_a_new_one_keeps_the_mark() -> None:
    """A save with the key is still the same format (older readers skip the key); without it,
    no correction was made after the end."""
    game = Game(get_ruleset("kids"), [Seat("Ann")], dice_from="players")
    for face, box in enumerate(BOXES, start=1):
        game.play(parse_action(f"r = {str(face) * 5}"))
        game.play(parse_action(f"s {box}"))
    game.amend(0, [parse_action("r = 11112"), parse_action("s ones")])
    assert game.is_over and game.corrected_after_end
    saved = game.to_dict()
    assert saved["amendments"][0]["after_end"] is True
    assert saved["format"] == Game("kids", ["x"]).to_dict()["format"]
    assert Game.from_dict(saved).corrected_after_end
    old = {**saved, "amendments": [{k: v for k, v in a.items() if k != "after_end"}
                                   for a in saved["amendments"]]}
    assert not read(old).amendments[0].after_end and not Game.from_dict(old).corrected_after_end


def test_yatzy_history_marks_a_game_corrected_after_the_end(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with Database(db) as database:
        for late in (False, True):
            game = Game(get_ruleset("kids"), [Seat("Ann")], dice_from="players")
            for face, box in enumerate(BOXES, start=1):
                game.play(parse_action(f"r = {str(face) * 5}"))
                game.play(parse_action(f"s {box}"))
                if box == "ones" and not late:
                    game.amend(0, [parse_action("r = 11112"), parse_action("s ones")])
            if late:
                game.amend(0, [parse_action("r = 11112"), parse_action("s ones")])
            record_game(database, game)
    r = CliRunner().invoke(app, ["history", "--db", db], env={"COLUMNS": "200"})
    assert r.exit_code == 0, r.output
    rows = [line for line in r.stdout.splitlines() if "Ann" in line]
    assert len(rows) == 2 and "corrected after the end" in rows[0] and "corrected" not in rows[1]
    assert "typed" in rows[1]

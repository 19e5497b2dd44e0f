"""Every accepted action is committed before it is broadcast: a new server on the same
database goes on from each game's last accepted action, after a clean stop or a kill -9 of
a real uvicorn process. Also: the guide's bot plays a whole game against a real server, and
``yatzy verify`` checks the revealed seed."""

from __future__ import annotations

import json
import re
import signal
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner
from websockets.sync.client import connect

from helpers.wait import DEADLINE, wait_for
from helpers.web import (
    BOT,
    Player,
    db_url,
    free_port,
    join,
    make_room,
    yatzy_serve,
)
from yatzy.cli import app as cli
from yatzy.web.app import create_app
from yatzy.web.rooms import Rooms

pytestmark = pytest.mark.slow  # real server processes stopped and killed: not in the fast tier

ROOT = Path(__file__).resolve().parents[2]


def test_a_new_server_goes_on_from_every_games_last_action(url: str) -> None:
    with TestClient(create_app(url)) as first:
        a = make_room(first, [{"name": "Ann"}, BOT])["code"]
        table = make_room(first, [{"name": "Cy"}, {"name": "Di"}], roll_off=True, hot_seat=True)
        b, ann, cy = table["code"], join(first, a, 0), table["table_token"]
        with Player(first, a, ann) as p:
            p.play_turn()
            p.wait_turn()  # the bot has played its turn
            roll = p.act("r", id="before-restart")
            p.answer(roll)
            p.until_version()
        with Player(first, b, cy) as p:
            p.wait_turn()
            p.answer(p.act("r"))
            p.until_version()
        saved = {code: first.app.state.rooms.rooms[code].game.to_dict() for code in (a, b)}  # type: ignore[attr-defined]
    with TestClient(create_app(url)) as second:
        for code in (a, b):
            info = second.get(f"/api/rooms/{code}").json()
            assert info["version"] == len(saved[code]["log"]) > 0
            assert second.app.state.rooms.rooms[code].game.to_dict() == saved[code]  # type: ignore[attr-defined]
        with Player(second, a, ann) as p:
            state = p.until("state")
            assert state["version"] == len(saved[a]["log"]) and state["view"]["dice"]
            again = p.answer(p.act("r", id="before-restart", version=0))
            assert again["duplicate"] and again["version"] == len(saved[a]["log"])
            best = max(p.view["score_options"], key=lambda o: o["points"])  # type: ignore[index]
            assert p.answer(p.act(f"s {best['id']}"))["type"] == "ack"
            p.wait_turn()  # the bot went on after the restart
        with Player(second, b, cy, last_version=0) as p:  # events from before the restart are gone
            assert p.until("state", "events")["type"] == "state"



def test_a_restarted_server_takes_up_the_games_by_itself(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nobody opens the rooms after the restart: the bot whose turn it was plays on, and a
    game whose end was committed without its save (the server stopped in between) is saved."""
    url = db_url(tmp_path)
    with TestClient(create_app(url, public_history=True)) as first:
        waiting = make_room(first, [{"name": "Ann"}, BOT], bot_pace=2)
        with Player(first, waiting["code"], join(first, waiting["code"], 0)) as p:
            p.play_turn()  # the bot is to move, 2 s later: the server stops first
        with monkeypatch.context() as m:
            m.setattr(Rooms, "save_later", lambda self, room: None)  # the end is committed, not saved
            ended = make_room(first, [{"name": "Bo"}, BOT], ruleset="kids")
            with Player(first, ended["code"], join(first, ended["code"], 0)) as p:
                p.play_out()
            game_id = first.get(f"/api/rooms/{ended['code']}").json()["game_id"]
            assert first.get(f"/api/games/{game_id}").json()["detail"]["code"] == "not_over"
        version = first.app.state.rooms.rooms[waiting["code"]].version  # type: ignore[attr-defined]
    with TestClient(create_app(url, public_history=True)) as second:
        rooms = second.app.state.rooms  # type: ignore[attr-defined]
        wait_for(lambda: waiting["code"] in rooms.rooms and rooms.rooms[waiting["code"]].version > version)
        wait_for(lambda: second.get(f"/api/games/{game_id}").status_code == 200)
        assert second.get(f"/api/games/{game_id}").json()["summary"]["finished"]

@contextmanager
def server(url: str, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``yatzy serve`` in a real process on 127.0.0.1, ready when it answers (killed after)."""
    with yatzy_serve(port, "--db", url, log=log, kill=True) as proc:
        yield proc


def recv_until(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        m = json.loads(ws.recv(timeout=DEADLINE))
        if m["type"] == kind:
            return m  # type: ignore[no-any-return]


def test_kill_9_mid_game_loses_no_accepted_action(tmp_path: Path) -> None:
    url, port = db_url(tmp_path), free_port()
    base = f"http://127.0.0.1:{port}"
    with server(url, port, tmp_path / "first.log") as proc:
        made = httpx.post(f"{base}/api/rooms", json={"seats": [{"name": "Ann"}, BOT], "bot_pace": 0})
        code = made.json()["code"]
        token = httpx.post(f"{base}/api/rooms/{code}/join", json={}).json()["token"]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{code}") as ws:
            ws.send(json.dumps({"type": "hello", "token": token}))
            view = recv_until(ws, "state")["view"]
            acked = 0
            for action in ("r", "r", "s chance", None, "r"):
                if action is None:  # the bot's turn: wait for Ann's again
                    while not view["legal_actions"]:
                        view = recv_until(ws, "events")["view"]
                    continue
                ws.send(json.dumps({"type": "act", "id": f"k{acked}", "version": view["version"],
                                    "action": action}))
                acked = recv_until(ws, "ack")["version"]
                view = recv_until(ws, "events")["view"]
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
    with server(url, port, tmp_path / "second.log"):
        info = httpx.get(f"{base}/api/rooms/{code}").json()
        assert info["version"] == acked == view["version"]
        with connect(f"ws://127.0.0.1:{port}/ws/rooms/{code}") as ws:
            ws.send(json.dumps({"type": "resume", "token": token, "last_version": acked}))
            resumed = recv_until(ws, "events")
            assert resumed["events"] == [] and resumed["view"]["dice"] == view["dice"]
            ws.send(json.dumps({"type": "act", "id": "after", "version": acked, "action": "s chance"}))
            error = recv_until(ws, "error")  # chance is filled already: the restarted game knows it
            assert error["code"] == "illegal_action"


def test_the_guides_bot_plays_a_whole_game_and_yatzy_verify_checks_it(tmp_path: Path) -> None:
    guide = (ROOT / "docs" / "web-protocol.md").read_text()
    code_block = re.search(r"```python\n(.*?)```", guide, re.S)
    assert code_block is not None
    namespace: dict[str, Any] = {}
    exec(compile(code_block.group(1), "web-protocol.md", "exec"), namespace)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with server(db_url(tmp_path), port, tmp_path / "server.log"):
        room = httpx.post(f"{base}/api/rooms", json={"seats": [{"name": "Robo"}, BOT], "bot_pace": 0}).json()
        reveal = namespace["run_bot"](base, room["code"])
        proof = httpx.get(f"{base}/api/rooms/{room['code']}/verify").json()
    assert reveal["commitment"] == room["commitment"] and proof["game"] == reveal["game"]
    path = tmp_path / "proof.json"
    path.write_text(json.dumps(proof))
    r = CliRunner().invoke(cli, ["verify", str(path)])
    assert r.exit_code == 0 and "fair" in r.output and room["commitment"] in r.output.replace("\n", "")
    forged = json.loads(json.dumps(proof))
    roll = next(a for a in forged["game"]["log"] if "roll" in a)
    roll["roll"]["result"] = [6 if d != 6 else 5 for d in roll["roll"]["result"]]
    path.write_text(json.dumps(forged))
    r = CliRunner().invoke(cli, ["verify", str(path)])
    assert r.exit_code == 2 and "seed" in r.output
    path.write_text(json.dumps({**proof, "seed": proof["seed"] + 1}))
    r = CliRunner().invoke(cli, ["verify", str(path)])
    assert r.exit_code == 2 and "commitment" in r.output

"""The client guide, docs/web-protocol.md, against the server: a client written from the guide
alone must work. Its action notation, room fields, answers, error codes and message examples
are the code's; what it promises (a state on request, ``/verify`` before the end, the
roll-off's dice in the reveal, a fairness check of its own) is what the server does."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, TypeAdapter, ValidationError

from helpers.web import BOT, Player, join, make_room
from yatzy.actions import _VERBS, Restore, Roll, Score, parse_action
from yatzy.errors import InvalidActionError
from yatzy.game import Game
from yatzy.registry import VARIANTS
from yatzy.saves import action_from_dict, action_to_dict
from yatzy.web.app import create_app
from yatzy.web.deps import STATUS
from yatzy.web.fairness import verify
from yatzy.web.protocol import ERROR_CODES, client_adapter, server_adapter
from yatzy.web.schemas import CreateRoom, HostRequest, JoinRequest, RematchRequest, SeatToBot

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "web-protocol.md").read_text(encoding="utf-8")
CODE = re.compile(r"`([^`]+)`")
"""An inline code span (of a text without fenced blocks: their backticks would pair wrongly)."""
FENCED = re.compile(r"```.*?```", re.S)


def section(title: str) -> str:
    """The text of the guide's section ``## N. title``, up to the next section."""
    found = re.search(rf"^## \d+\. {re.escape(title)}\n(.*?)(?=^## |\Z)", GUIDE, re.S | re.M)
    assert found, f"the guide has no section “{title}”"
    return found.group(1)


def table(text: str, first: str) -> list[list[str]]:
    """The rows (cells stripped) of the Markdown table in ``text`` whose header starts with ``first``."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"\s*\| {re.escape(first)} \|", line))
    rows = []
    for line in lines[start + 2:]:
        if not line.strip().startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    assert rows
    return rows


# ---- the action notation --------------------------------------------------------------------

def _form(action: Roll | Score | Restore) -> str:
    """Which form of the notation an action is."""
    if isinstance(action, Roll):
        return ("keep" if action.keep else "roll") + (" with its dice" if action.result is not None else "")
    if isinstance(action, Score):
        if action.returns is None:
            return "score"
        return "score, tiles back" if action.returns else "score, none back"
    return "tiles back"


def test_the_guide_defines_every_form_of_the_action_notation() -> None:
    """Each row's spellings read as one action, written as the row says; every verb the parser
    knows is spelled in the table, and every form of action has a row."""
    forms, spelled = set(), set()
    for sent, _meaning, written in table(section("The action notation"), "you send"):
        examples = CODE.findall(sent)
        actions = [parse_action(example) for example in examples]
        assert actions and len({str(a) for a in actions}) == 1, sent
        assert CODE.findall(written)[0] == str(actions[0]), (sent, written)
        spelled |= {example.split()[0].lower() for example in examples}
        forms.add(_form(actions[0]))
    assert spelled == set(_VERBS)
    assert forms == {"roll", "keep", "roll with its dice", "keep with its dice", "score", "score, tiles back",
                     "score, none back", "tiles back"}


def test_the_guide_lists_the_boxes_of_every_ruleset() -> None:
    rows = table(section("The action notation"), "ruleset")
    listed = {name: CODE.findall(boxes) for names, boxes in rows for name in CODE.findall(names)}
    assert set(listed) == {entry.name for entry in VARIANTS}
    for entry in VARIANTS:
        assert tuple(listed[entry.name]) == entry.build().category_ids, entry.name


def test_the_guides_saved_actions_are_the_saves_own() -> None:
    """The JSON of a logged action, as the guide shows it, is what a save holds."""
    examples = [json.loads(c) for c in CODE.findall(section("The action notation")) if c.startswith('{"')]
    assert {next(iter(e)) for e in examples} == {"roll", "score", "restore"}
    for e in examples:
        action = action_from_dict(e)
        assert isinstance(action, Roll | Score | Restore) and action_to_dict(action) == e


# ---- REST --------------------------------------------------------------------------------------

def test_the_guide_names_every_field_of_a_new_room_with_its_default() -> None:
    rows = table(section("A room and a token (REST)"), "field")
    documented = {CODE.findall(name)[0]: default for name, default, _ in rows}
    assert set(documented) == set(CreateRoom.model_fields)
    for name, field in CreateRoom.model_fields.items():
        if field.is_required():
            assert documented[name] == "—", name
        else:
            default = field.get_default(call_default_factory=True)
            assert json.loads(CODE.findall(documented[name])[0]) == default, name


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'guide.sqlite3'}")) as c:
        yield c


def _answer_schema(openapi: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    """The schema of a route's success answer, from the OpenAPI, its reference followed."""
    responses = openapi["paths"][path][method.lower()]["responses"]
    ok = next(r for status, r in responses.items() if status.startswith("2"))
    schema = ok["content"]["application/json"]["schema"]
    name = schema["$ref"].rsplit("/", 1)[1]
    return openapi["components"]["schemas"][name]  # type: ignore[no-any-return]


def test_the_guides_rest_answers_name_the_fields_the_server_sends(client: TestClient) -> None:
    """Where the guide lists an answer's fields (``{"code", "invite_url", ...}``), they are the
    fields of that route's answer in the OpenAPI, all of them: the statistics' are ``players``."""
    openapi = client.get("/openapi.json").json()
    checked = []
    for request, answer in table(section("A room and a token (REST)"), "request"):
        method, path = CODE.findall(request)[0].split()
        listed = re.match(r'`\{("[a-z_]+"(?:, "[a-z_]+")*)\}`', answer)
        if listed:
            names = json.loads(f"[{listed.group(1)}]")
            assert set(names) == set(_answer_schema(openapi, method, path.split("?")[0])["properties"]), path
            checked.append(path.split("?")[0])
    assert {"/api/rooms", "/api/rooms/{code}/join", "/api/rooms/{code}/spectate",
            "/api/stats"} <= set(checked)


def test_verify_before_the_end_says_when_it_may_be_asked(client: TestClient) -> None:
    code = make_room(client, [{"name": "Ann"}, BOT], ruleset="kids")["code"]
    early = client.get(f"/api/rooms/{code}/verify")
    assert early.status_code == 409
    assert early.json()["detail"] == {"code": "not_over",
                                      "message": "the dice seed is revealed when the game is over"}
    finnish = client.get(f"/api/rooms/{code}/verify?lang=fi").json()["detail"]
    assert finnish["code"] == "not_over" and finnish["message"] != early.json()["detail"]["message"]
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
    assert client.get(f"/api/rooms/{code}/verify").status_code == 200


# ---- the error codes ------------------------------------------------------------------------

EMITTED = re.compile(r"""(?:Refusal|http_error|refuse)\(\s*(?:[\w.]+,\s*)?"([a-z_]+)"|code="([a-z_]+)\"""")
"""A code written where the server sends it: a refusal, a REST error, a closing error, an Error."""


def _emitted() -> dict[str, set[str]]:
    """Every error code the server's source sends, with the files sending it."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / "src" / "yatzy" / "web").rglob("*.py"):
        for m in EMITTED.finditer(path.read_text(encoding="utf-8")):
            found.setdefault(m.group(1) or m.group(2), set()).add(path.name)
    return found


def test_the_guide_explains_every_error_code_the_server_sends() -> None:
    """The guide's table has a row for each code the server's source sends (all of them
    declared in ``ErrorCode``), and the HTTP status of each code REST sends."""
    rows = table(section("The WebSocket conversation"), "code")
    documented = [CODE.findall(row[0])[0] for row in rows]
    assert len(documented) == len(set(documented))
    emitted = _emitted()
    assert set(emitted) <= set(ERROR_CODES), "a code the protocol does not declare"
    assert set(documented) == set(ERROR_CODES) == set(emitted)
    http = {CODE.findall(code)[0]: status for code, status, _ in rows}
    assert all(int(status) == STATUS.get(code, 400) for code, status in http.items() if status)
    rest = {m.group(1) for path in (ROOT / "src" / "yatzy" / "web").glob("*/*.py")
            for m in re.finditer(r'http_error\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8"))}
    assert rest and all(http[code] for code in rest)


# ---- the message examples -------------------------------------------------------------------

def _schema_check(adapters: list[TypeAdapter[Any]], example: dict[str, Any]) -> None:
    problems = []
    for adapter in adapters:
        try:
            adapter.validate_python(example)
            return
        except ValidationError as e:
            problems.append(str(e))
    raise AssertionError(f"{example} fits no message: {problems}")


def test_every_message_example_of_the_guide_is_a_message_of_the_schemas() -> None:
    """Each ``{"type": ...}`` of the guide is a whole message, valid against the generated
    schemas (docs/protocol, made from these adapters; test_protocol keeps them current), and
    each request body of the REST table is valid for its route."""
    spans = CODE.findall(FENCED.sub("", GUIDE)) + re.findall(r"```json\n(.*?)```", GUIDE, re.S)
    messages = [s for s in (" ".join(span.split()) for span in spans) if s.startswith('{"type"')]
    assert len(messages) >= 10
    kinds = set()
    for text in messages:
        example = json.loads(text)
        kinds.add(example["type"])
        _schema_check([client_adapter, server_adapter], example)
    assert {"hello", "resume", "act", "ack", "error", "ping", "pong", "sync", "coach", "hand_to_bot"} <= kinds
    bodies: dict[str, type[BaseModel]] = {
        "/api/rooms": CreateRoom, "/api/rooms/{code}/join": JoinRequest,
        "/api/rooms/{code}/seats/{seat}/free": HostRequest, "/api/rooms/{code}/seats/{seat}/bot": SeatToBot,
        "/api/rooms/{code}/rematch": RematchRequest}
    for request, _answer in table(section("A room and a token (REST)"), "request"):
        spans = CODE.findall(request)
        if spans[0].startswith("POST") and len(spans) > 1 and spans[1].startswith("{"):
            bodies[spans[0].split()[1]].model_validate_json(spans[1])


# ---- a state on request -----------------------------------------------------------------------

def test_sync_answers_the_game_as_it_stands_and_events_go_on_from_there(client: TestClient) -> None:
    room = make_room(client, [{"name": "Ann"}, {"name": "Bo"}])
    code = room["code"]
    spectator = client.post(f"/api/rooms/{code}/spectate", json={}).json()["token"]
    with Player(client, code, join(client, code, 0)) as ann, Player(client, code, spectator) as watcher:
        assert ann.until("state")["version"] == 0
        ann.send({"type": "sync"})
        first = ann.until("state", "error")
        assert first["type"] == "state" and first["reason"] == "request" and first["version"] == 0
        ann.answer(ann.act("r"))
        rolled = ann.until("events")
        error = ann.answer(ann.act("s chance", version=0))  # stale: a state follows by itself
        assert error["code"] == "stale" and ann.until("state")["reason"] == "stale"
        ann.send({"type": "sync"})
        state = ann.until("state")
        assert state["reason"] == "request" and state["version"] == 1 and state["view"] == rolled["view"]
        ann.answer(ann.act("s chance"))
        after = ann.until("events")
        assert after["version"] == 2 and {e["version"] for e in after["events"]} == {2}  # nothing again
        watcher.until("state")
        watcher.send({"type": "sync"})
        seen = watcher.until("state")
        while seen["reason"] != "request":
            seen = watcher.until("state")
        assert seen["view"]["viewer"] is None and seen["view"]["legal_actions"] == []
        ann.send({"type": "sync", "version": 1})  # sync has no version: refused, nothing follows
        refused = ann.until("error")
        assert refused["code"] == "bad_message" and refused["version"] == 2
        ann.send({"type": "ping", "nonce": "after"})
        assert ann.until("pong", "state")["type"] == "pong"


def test_sync_before_the_hello_is_refused(client: TestClient) -> None:
    code = make_room(client)["code"]
    with client.websocket_connect(f"/ws/rooms/{code}") as ws:
        ws.send_text(json.dumps({"type": "sync"}))
        assert json.loads(ws.receive_text())["code"] == "hello_first"


# ---- fair dice --------------------------------------------------------------------------------

def _guides_check() -> Any:
    """``check_reveal`` of the guide's fairness section, run as a reader would copy it."""
    block = re.search(r"```python\n(.*?)```", section("Provably fair dice"), re.S)
    assert block, "the fairness section has no Python check"
    namespace: dict[str, Any] = {}
    exec(compile(block.group(1), "web-protocol.md", "exec"), namespace)
    return namespace["check_reveal"]


def _finished_room(client: TestClient, seats: list[dict[str, Any]],
                   **settings: Any) -> tuple[str, dict[str, Any], Game]:
    """A Kids' game played to its end by Ann (seat 0) and bots: its code, reveal and game."""
    code = make_room(client, seats, ruleset="kids", **settings)["code"]
    with Player(client, code, join(client, code)) as ann:
        ann.play_out()
        reveal = next((m for m in ann.seen if m["type"] == "reveal"), None) or ann.until("reveal")
        game = client.app.state.rooms.rooms[code].game  # type: ignore[attr-defined]
    return code, reveal, game


def test_the_reveal_and_verify_carry_the_roll_off_and_verify_checks_it(client: TestClient) -> None:
    code, reveal, game = _finished_room(client, [{"name": "Ann"}, BOT, BOT], roll_off=True)
    assert game.roll_offs and reveal["roll_off_rounds"] == [
        [[seat, die] for seat, die in sorted(r.items())] for r in game.roll_offs]
    assert client.get(f"/api/rooms/{code}/verify").json()["roll_off_rounds"] == reveal["roll_off_rounds"]
    assert verify(reveal).roll_offs == game.roll_offs
    forged = json.loads(json.dumps(reveal))
    forged["roll_off_rounds"][0][0][1] = forged["roll_off_rounds"][0][0][1] % 6 + 1
    with pytest.raises(InvalidActionError, match="round 1 of the roll-off shows Ann"):
        verify(forged)
    forged = json.loads(json.dumps(reveal))
    del forged["roll_off_rounds"][-1]
    with pytest.raises(InvalidActionError, match="roll-off"):
        verify(forged)
    for bad in (None, "55", [[5]]):
        with pytest.raises(InvalidActionError, match="pairs"):
            verify({**reveal, "roll_off_rounds": bad})
    without = {k: v for k, v in reveal.items() if k != "roll_off_rounds"}  # a reveal of before they were sent
    assert verify(without).is_over


def test_a_room_without_a_roll_off_reveals_no_rounds(client: TestClient) -> None:
    _code, reveal, _game = _finished_room(client, [{"name": "Ann"}, BOT])
    assert reveal["roll_off_rounds"] == [] and reveal["game"]["roll_off"] is False
    assert verify(reveal).is_over
    with pytest.raises(InvalidActionError, match="round 1 of the roll-off shows Ann 3, but this game's seed "
                                                 "rolls none"):
        verify({**reveal, "roll_off_rounds": [[[0, 3]]]})


@pytest.mark.parametrize("roll_off", [True, False])
def test_the_guides_own_check_passes_real_reveals_and_catches_forgeries(client: TestClient,
                                                                        roll_off: bool) -> None:
    """The guide's fairness section describes the dice as the log stores them: its plain-Python
    check passes a real reveal and its ``/verify``, and fails a forged roll, roll-off or seed."""
    code, reveal, game = _finished_room(client, [{"name": "Ann"}, BOT, BOT], roll_off=roll_off)
    rolled = [a["roll"]["result"] for a in reveal["game"]["log"] if "roll" in a]
    assert all(sorted(dice) == dice for dice in rolled)  # as the guide says: each roll's new dice sorted
    check = _guides_check()
    proof = client.get(f"/api/rooms/{code}/verify").json()
    assert check(reveal) == check(proof) == len(rolled) == sum(isinstance(a, Roll) for a in game.log) > 0
    forged = json.loads(json.dumps(reveal))
    roll = next(a for a in forged["game"]["log"] if "roll" in a)
    roll["roll"]["result"] = [6 if d != 6 else 5 for d in roll["roll"]["result"]]
    with pytest.raises(ValueError, match="roll 1 shows"):
        check(forged)
    with pytest.raises(ValueError, match="commitment"):
        check({**reveal, "seed": reveal["seed"] + 1})
    forged = json.loads(json.dumps(reveal))
    forged["roll_off_rounds"] = [[[0, 6], [1, 1], [2, 1]]] if not roll_off else forged["roll_off_rounds"][1:]
    with pytest.raises(ValueError, match="roll-off"):
        check(forged)
    assert check({k: v for k, v in reveal.items() if k != "roll_off_rounds"}) == len(rolled)

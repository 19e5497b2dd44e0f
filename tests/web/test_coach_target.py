"""The page's coach playing for a target (issue 19): a coach request may carry ``target``;
the options then carry their exact chance of it, or the solver's refusal in words with the
expected-score ranking; a target no game reaches, a negative one or one not a whole number is
refused in words, and the connection stays."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from helpers.web import Player, db_url, join, make_room
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.solver.spec import SolverSpec
from yatzy.solver.target import most_points, target_options
from yatzy.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(db_url(tmp_path), coach_wait=60)) as c:
        yield c


def ask(player: Player, id: str, **extra: Any) -> dict[str, Any]:
    player.send({"type": "coach", "id": id, **extra})
    while True:
        m = player.recv()
        if m["type"] in ("coach", "error") and m.get("id") in (id, None):
            return m


@contextmanager
def rolled(client: TestClient, ruleset: str, lang: str = "en") -> Iterator[tuple[Player, Game]]:
    """A one-seat room of ``ruleset`` whose player has rolled once, and the server's game."""
    code = make_room(client, [{"name": "Ann"}], ruleset=ruleset)["code"]
    with Player(client, code, join(client, code), lang=lang) as ann:
        ann.wait_turn()
        ann.answer(ann.act("r"))
        ann.until_version()
        yield ann, client.app.state.rooms.rooms[code].game  # type: ignore[attr-defined]


def test_a_kids_target_ranks_the_options_by_their_chance_as_the_library_does(client: TestClient) -> None:
    with rolled(client, "kids") as (ann, game):
        plain = ask(ann, "c0")  # today's client: no target, no chances
        assert plain["target"] is None and all(o["chance"] is None for o in plain["options"])
        advice = ask(ann, "c1", target=90)
        coach = Coach(solve(get_ruleset("kids")))
        truth = target_options(coach, coach.position_of(game), 90 - game.total(0))
        assert advice["status"] == "ready" and advice["target"] == 90 and advice["refused"] is None
        assert [o["action"] for o in advice["options"]] == [str(t.option.action) for t in truth.options]
        assert [o["chance"] for o in advice["options"]] == pytest.approx([t.chance for t in truth.options])
        assert 0 < advice["options"][0]["chance"] < 1


def test_targets_out_of_range_or_not_whole_numbers_are_refused_and_the_connection_stays(
        client: TestClient) -> None:
    most = most_points(SolverSpec(get_ruleset("kids"), 0))
    with rolled(client, "kids", lang="fi") as (ann, _game):
        for n, (target, code) in enumerate([(most + 1, "bad_target"), (-1, "bad_target"),
                                            (2.5, "bad_message"), ("lots", "bad_message")]):
            refused = ask(ann, f"c{n}", target=target)
            assert refused["type"] == "error" and refused["code"] == code, target
            if code == "bad_target":
                assert f"0–{most}" in refused["message"] and "tavoite" in refused["message"]
        surely = ask(ann, "ok0", target=0)  # both ends are targets: 0 is sure, the most is not
        assert surely["target"] == 0 and all(o["chance"] == pytest.approx(1) for o in surely["options"])
        hardly = ask(ann, "ok1", target=most)
        assert hardly["target"] == most and all(o["chance"] < 0.01 for o in hardly["options"])


def test_an_early_yatzy_target_is_refused_in_words_with_the_expected_score_ranking(
        client: TestClient) -> None:
    with rolled(client, "yatzy") as (ann, _game):
        advice = ask(ann, "c1", target=250)
        assert advice["status"] == "ready" and advice["target"] == 250
        assert "near the end of the game" in advice["refused"] and "15 boxes open" in advice["refused"]
        assert advice["options"] and all(o["chance"] is None for o in advice["options"])
        assert [o["value"] for o in advice["options"]] == sorted((o["value"] for o in advice["options"]),
                                                                 reverse=True)

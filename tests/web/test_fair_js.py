"""The page's own check of a revealed game (``static/fair.js``), run by Node on reveals the
server makes: a real one passes, and a roll-off or a roll changed after the fact is
caught, naming what was changed. Without Node: skipped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from helpers.games import play_out
from yatzy.game import Game
from yatzy.seats import Seat
from yatzy.web.fairness import commitment, new_salt, roll_off_rounds

STATIC = Path(__file__).parents[2] / "src" / "yatzy" / "web" / "static"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no Node to run the page's modules")

CHECK = """
const [STATIC, REVEALS] = process.argv.slice(2);
const { verifyRevealText } = await import(`file://${STATIC}/fair.js`);
console.log(JSON.stringify(JSON.parse(REVEALS).map((text) => verifyRevealText(text))));
"""


def check(tmp_path: Path, reveals: list[dict[str, Any]]) -> list[dict[str, Any]]:
    script = tmp_path / "check.mjs"
    script.write_text(CHECK, encoding="utf-8")
    texts = json.dumps([json.dumps(r) for r in reveals])
    out = subprocess.run(["node", str(script), str(STATIC), texts],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def reveal(game: Game) -> dict[str, Any]:
    salt = new_salt()
    return {"commitment": commitment(game.seed, salt), "salt": salt, "seed": game.seed,
            "game": game.to_dict(), "roll_off_rounds": roll_off_rounds(game)}


def test_the_page_checks_the_revealed_roll_off_and_the_rolls(tmp_path: Path) -> None:
    three = ["A", "B", "C"]
    seed = next(s for s in range(100) if len(Game("kids", three, seed=s, roll_off=True).roll_offs) > 1)
    game = play_out(Game("kids", [Seat("A"), Seat("B"), Seat("C")], seed=seed, roll_off=True))
    real = reveal(game)
    assert len(real["roll_off_rounds"]) > 1  # a tie rolled again: two rounds to check
    changed_round = json.loads(json.dumps(real))
    seat, die = changed_round["roll_off_rounds"][1][0]
    changed_round["roll_off_rounds"][1][0] = [seat, die % 6 + 1]
    dropped = json.loads(json.dumps(real))
    dropped["roll_off_rounds"] = dropped["roll_off_rounds"][:1]
    changed_roll = json.loads(json.dumps(real))
    first = next(a for a in changed_roll["game"]["log"] if "roll" in a)
    first["roll"]["result"] = [d % 6 + 1 for d in first["roll"]["result"]]
    old_style = {k: v for k, v in real.items() if k != "roll_off_rounds"}  # a reveal made before the field
    results = check(tmp_path, [real, changed_round, dropped, changed_roll, old_style])
    assert [r["reason"] for r in results] == [None, "roll_off", "roll_off", "dice", None]
    assert results[0]["ok"] and results[4]["ok"]
    assert results[1]["detail"] == {"round": 2} and results[2]["detail"] == {"round": 2}

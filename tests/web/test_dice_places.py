"""Where the page lays the dice after a roll (``static/dice.js``'s ``placeDice``), run by Node
with stand-ins for the browser's globals: the dice kept stay in their places and the new ones
fill the others in the order they came, so a held die never moves under its number key (the
server's dice are a sorted multiset; their places are the page's). Without Node: skipped."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

STATIC = Path(__file__).parents[2] / "src" / "yatzy" / "web" / "static"

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no Node to run the page's modules")

PLACE = """
const [STATIC, CASES] = process.argv.slice(2);
globalThis.document = { querySelector: () => null, querySelectorAll: () => [], documentElement: {} };
globalThis.localStorage = { getItem: () => null, setItem() {} };
Object.defineProperty(globalThis, "navigator", { value: { language: "en-GB" }, configurable: true });
const { placeDice } = await import(`file://${STATIC}/dice.js`);
console.log(JSON.stringify(JSON.parse(CASES).map(([places, held, kept, rolled]) =>
  placeDice(places, held, kept, rolled))));
"""


def place(tmp_path: Path, cases: list[tuple[Any, ...]]) -> list[dict[str, list[int]]]:
    script = tmp_path / "place.mjs"
    script.write_text(PLACE, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(STATIC), json.dumps(cases)],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    return json.loads(out)  # type: ignore[no-any-return]


def test_held_dice_stay_where_they_lie_and_new_ones_fill_the_rest(tmp_path: Path) -> None:
    cases = [
        ([], [], [], [1, 2, 3, 4, 5]),  # a turn's first roll: as the dice came
        ([6, 2, 6, 4, 1], [0, 2], [6, 6], [1, 3, 5]),  # the sixes held at 1 and 3 stay there
        ([3, 3, 5, 3, 1], [1, 3], [3, 3], [2, 4, 6]),  # the threes held, not the first three
        ([2, 5, 1, 5, 6], [], [5, 5], [1, 2, 3]),  # someone else's keep: the fives stay put
        ([1, 2, 3, 4, 5], [4, 0], [1, 5], [6, 6, 6]),  # holds in any order
        ([1, 1, 1, 1, 1], [], [6], [2, 3, 4, 5]),  # a kept die not seen here: the first free place
        ([1, 2, 3, 4, 5], [0], [1], [2, 2, 3, 3, 4]),  # six dice after five: laid out anew
        ([4, 4, 4, 4, 4], [0, 1, 2, 3, 4], [4, 4, 4, 4, 4], []),  # everything kept
    ]
    assert place(tmp_path, cases) == [
        {"dice": [1, 2, 3, 4, 5], "kept": []},
        {"dice": [6, 1, 6, 3, 5], "kept": [0, 2]},
        {"dice": [2, 3, 4, 3, 6], "kept": [1, 3]},
        {"dice": [1, 5, 2, 5, 3], "kept": [1, 3]},
        {"dice": [1, 6, 6, 6, 5], "kept": [0, 4]},
        {"dice": [6, 2, 3, 4, 5], "kept": [0]},
        {"dice": [1, 2, 2, 3, 3, 4], "kept": [0]},
        {"dice": [4, 4, 4, 4, 4], "kept": [0, 1, 2, 3, 4]},
    ]


def test_random_rolls_keep_the_multiset_and_every_held_die_in_place(tmp_path: Path) -> None:
    rng = random.Random(17)
    cases = []
    for _ in range(300):
        places = [rng.randint(1, 6) for _ in range(5)]
        held = sorted(rng.sample(range(5), rng.randint(0, 5)))
        kept = sorted(places[i] for i in held)
        cases.append((places, held, kept, sorted(rng.randint(1, 6) for _ in range(5 - len(held)))))
    for (places, held, kept, rolled), got in zip(cases, place(tmp_path, cases), strict=True):
        assert sorted(got["dice"]) == sorted(kept + rolled)  # the server's dice, only laid out
        assert got["kept"] == held  # the places held are the places kept
        assert all(got["dice"][i] == places[i] for i in held)  # and show the faces they showed
        free = [i for i in range(5) if i not in held]
        assert [got["dice"][i] for i in free] == rolled  # the new dice in the order they came

"""The simulator plays its games in step, games in the same state sharing a turn's table and a
block of states' tables worked out side by side: game for game the games the simulator before
it played one at a time (the same dice, the same choices, the same scores)."""

from __future__ import annotations

import numpy as np
import pytest
from tests.helpers import playout_oracle

from yatzy.registry import get_ruleset
from yatzy.solver import playout
from yatzy.solver.packed import pack, upper_points
from yatzy.solver.solve import solve


@pytest.mark.parametrize(("name", "opts", "games"), [
    ("kids", {}, 300),
    ("yatzy", {}, 9000),                  # runs of games with more states than a block holds
    ("yatzy", {"must_keep_one": True}, 300),
    ("forced", {}, 300),
    ("yahtzee", {}, 400),                 # the 50's state and jokers
    ("yahtzee", {"joker": "free"}, 300),
    pytest.param("osto", {}, 300, marks=pytest.mark.slow),  # saved rolls: games at different banks
])
def test_a_block_of_games_plays_the_games_one_at_a_time_played(
        name: str, opts: dict[str, object], games: int) -> None:
    sol = solve(get_ruleset(name, **opts))
    spec = sol.spec
    args = (playout.read_only(sol.values), *spec.kernel_args, spec.bonus[2], *spec.sub_lists[2:])
    # an odd count and first game: a block left part full, games numbered from 7
    side_by_side = playout.simulate(games + 3, 7, 11, *args, *upper_points(spec))
    one_at_a_time = playout_oracle.simulate(games + 3, 7, 11, pack(spec), *args)
    assert np.array_equal(side_by_side, one_at_a_time)
    assert len(set(side_by_side.tolist())) > 10  # games that differ, or it proves little

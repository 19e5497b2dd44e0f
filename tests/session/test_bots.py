"""Bot strength is measured and clearly ordered."""

from __future__ import annotations

import statistics

import pytest

from yatzy.bots import make_bot, play_solo
from yatzy.registry import get_ruleset

pytestmark = pytest.mark.slow  # bot strength over many games: not in the fast tier


def mean_score(rules: str, bot: str, games: int) -> float:
    rs = get_ruleset(rules)
    player = make_bot(bot, rs, seed=1)
    return statistics.mean(play_solo(rs, player, 1000 + i) for i in range(games))


def test_levels_are_ordered() -> None:
    levels = ("random", "beginner", "casual", "strong")
    scores = {b: mean_score("yatzy", b, 60) for b in levels}
    # measured over 100 games: random 47, beginner 159, casual ~200, strong ~240, optimal 248
    for weaker, stronger in zip(levels, levels[1:], strict=False):
        assert scores[weaker] + 15 < scores[stronger], scores
    assert mean_score("yatzy", "optimal", 40) > 230


def test_dozzy_bot_beats_greedy() -> None:
    assert mean_score("dozzy", "dozzy", 150) > mean_score("dozzy", "greedy", 150)


def test_bot_simulation_is_reproducible_and_reports_progress() -> None:
    from yatzy.bots import simulate_bot

    seen: list[tuple[int, int]] = []
    one = simulate_bot("yatzy", {}, "random", 90, seed=5, workers=1,
                       progress=lambda done, total: seen.append((done, total)))
    two = simulate_bot("yatzy", {}, "random", 90, seed=5, workers=2)
    assert one.scores.tolist() == two.scores.tolist()
    assert len(set(one.scores.tolist())) > 10  # different dice per game
    assert seen[-1] == (90, 90) and len(seen) > 1
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)

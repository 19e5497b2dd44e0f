"""Hypothesis properties of scoring and totals."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from yatzy.dice import normalize
from yatzy.game import Game
from yatzy.registry import RULESETS, get_ruleset

RULESET = st.sampled_from(RULESETS).map(get_ruleset)


@st.composite
def ruleset_and_roll(draw: st.DrawFn) -> tuple:  # type: ignore[type-arg]
    rs = draw(RULESET)
    dice = draw(st.lists(st.integers(1, 6), min_size=rs.dice, max_size=rs.dice))
    return rs, dice


@given(ruleset_and_roll(), st.randoms())
def test_order_does_not_matter(case: tuple, rnd) -> None:  # type: ignore[no-untyped-def, type-arg]
    rs, dice = case
    shuffled = dice[:]
    rnd.shuffle(shuffled)
    assert rs.score_all(normalize(dice)) == rs.score_all(normalize(shuffled))


@given(ruleset_and_roll(), st.frozensets(st.integers(1, 12)))
def test_scores_within_bounds(case: tuple, out: frozenset[int]) -> None:  # type: ignore[type-arg]
    rs, dice = case
    d = normalize(dice)
    for c in rs.categories:
        assert 0 <= rs.score(c.id, d) <= c.max
        assert 0 <= rs.score(c.id, d, out) <= c.max


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(RULESETS), st.integers(0, 2**32), st.integers(1, 4))
def test_totals_are_entries_plus_bonuses(name: str, seed: int, n_players: int) -> None:
    from yatzy.bots import RandomBot, run

    game = run(Game(name, [f"p{i}" for i in range(n_players)], seed=seed),
               [RandomBot(seed + i) for i in range(n_players)])
    for i, p in enumerate(game.state.players):
        bonuses = sum(game.ruleset.bonus_points(p.card).values())
        assert game.total(i) == sum(p.card.values()) + bonuses + p.extra
        assert game.total(i) <= game.ruleset.max_total + (p.extra if name == "yahtzee" else 0)

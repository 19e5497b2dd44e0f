"""Playing to reach a target: certain at target 0, never likelier for a higher target, equal to
brute force on a toy, matched by simulating its own policy, and refused past its limits."""

from __future__ import annotations

import math
from functools import cache

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.toy import brute, toy
from yatzy.actions import Roll, Score
from yatzy.dice import all_rolls, probability
from yatzy.errors import InvalidActionError
from yatzy.game import Game
from yatzy.registry import get_ruleset
from yatzy.solver import target
from yatzy.solver.coach import Coach, Position
from yatzy.solver.solve import solve
from yatzy.solver.spec import SolverSpec
from yatzy.solver.target import (
    TARGET_WORK,
    check_target,
    check_target_position,
    game_target,
    most_points,
    open_allowed,
    target_options,
)


@cache
def coach(name: str) -> Coach:
    return Coach(solve(toy(), use_cache=False) if name == "toy" else solve(get_ruleset(name)))


def chances(c: Coach, pos: Position, need: int) -> dict[str, float]:
    return {str(o.option.action): o.chance for o in target_options(c, pos, need).options}


def test_target_zero_makes_every_option_certain() -> None:
    late = ["ones", "twos", "threes", "fours", "fives", "sixes", "one_pair", "two_pairs", "three_of_a_kind",
            "four_of_a_kind", "small_straight"]
    for name, filled, upper in (("kids", ["ones", "twos"], 3), ("yatzy", late, 50)):
        c = coach(name)
        pos = c.position(filled, (1, 3, 3, 5, 6), 2, upper=upper)
        got = chances(c, pos, 0)
        assert len(got) == len(c.options(pos)) > 1
        assert list(got.values()) == pytest.approx([1.0] * len(got), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(filled=st.sets(st.sampled_from(["ones", "twos", "threes", "fours", "fives", "sixes"]),
                      min_size=3, max_size=5),
       dice=st.lists(st.integers(1, 6), min_size=5, max_size=5), left=st.integers(0, 2),
       low=st.integers(0, 120), step=st.integers(1, 40))
def test_a_higher_target_is_never_likelier(filled: set[str], dice: list[int], left: int, low: int,
                                           step: int) -> None:
    c = coach("kids")
    faces = [("ones", "twos", "threes", "fours", "fives", "sixes").index(b) + 1 for b in filled]
    pos = c.position(sorted(filled), sorted(dice), left, upper=sum(3 * f for f in faces))
    easy, hard = chances(c, pos, low), chances(c, pos, low + step)
    assert easy.keys() == hard.keys()
    assert all(0.0 <= hard[k] <= easy[k] + 1e-12 <= 1.0 + 2e-12 for k in easy)
    best = target_options(c, pos, low).options
    assert [o.chance for o in best] == sorted((o.chance for o in best), reverse=True)


@pytest.mark.parametrize(("open_boxes", "upper"), [
    ({"sixes"}, 5), ({"chance"}, 15), ({"trio", "chance"}, 0), ({"fives", "sixes"}, 0)])
def test_the_best_option_of_every_roll_matches_brute_force(open_boxes: set[str], upper: int) -> None:
    c = coach("toy")
    filled = [b for b in c.ids if b not in open_boxes]
    for need in (0, 6, 18, 31):
        start = sum(probability(r) * target_options(c, c.position(filled, r, 2, upper=upper), need)
                    .options[0].chance for r in all_rolls(3))
        assert math.isclose(start, brute(c.spec.ruleset, frozenset(open_boxes), upper, need),
                            abs_tol=1e-9), need


def test_simulating_the_target_policy_reaches_the_target_as_often_as_it_says(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """2000 Kids games from three open boxes, each move the target's best; within 4 SE."""
    c = coach("kids")
    for name in ("target_endgame", "check_target_position"):  # each turn-start state solved once
        monkeypatch.setattr(target, name, cache(getattr(target, name)))
    upper_ids = list(c.ids)
    filled0, upper0, dice0, need0 = ["ones", "twos", "threes"], 9, (2, 3, 4, 4, 6), 40
    want = target_options(c, c.position(filled0, dice0, 2, upper=upper0), need0).options[0].chance
    assert 0.2 < want < 0.8
    rng = np.random.default_rng(7)
    n, hits = 2000, 0
    for _ in range(n):
        filled, upper, dice, left, gained = list(filled0), upper0, dice0, 2, 0
        while True:
            best = target_options(c, c.position(filled, dice, left, upper=upper), max(0, need0 - gained))
            action = best.options[0].option.action
            if isinstance(action, Roll):
                rest = rng.integers(1, 7, size=len(dice) - len(action.keep)).tolist()
                dice, left = tuple(sorted(action.keep + tuple(rest))), left - 1
                continue
            assert isinstance(action, Score)
            pts = best.options[0].option.points or 0
            gained += pts
            filled.append(action.category)
            face = upper_ids.index(action.category) + 1
            upper += pts if face <= 6 else 0
            if len(filled) == len(c.ids):
                break
            dice, left = tuple(sorted(rng.integers(1, 7, size=5).tolist())), 2
        bonus = c.spec.bonus[2] if upper >= c.spec.bonus[1] else 0  # counted as gained: not on the card
        hits += gained + bonus >= need0
    se = math.sqrt(want * (1 - want) / n)
    assert abs(hits / n - want) <= 4 * se, (hits / n, want)


def test_a_position_past_the_limit_is_refused_in_words_and_one_at_it_is_not(
        monkeypatch: pytest.MonkeyPatch) -> None:
    c = coach("yatzy")
    with pytest.raises(InvalidActionError, match=r"15 boxes open.*about 9 open boxes or fewer"):
        target_options(c, c.position([], (1, 3, 3, 5, 6), 2, upper=0), 250)
    spec = c.spec
    mask = sum(1 << i for i in range(12))
    work = check_target_position(spec, mask, 0, 0)
    assert 0 < work <= TARGET_WORK
    monkeypatch.setattr(target, "TARGET_WORK", work)
    assert check_target_position(spec, mask, 0, 0) == work
    monkeypatch.setattr(target, "TARGET_WORK", work - 1)
    with pytest.raises(InvalidActionError, match="3 boxes open"):
        check_target_position(spec, mask, 0, 0)


def test_saved_roll_games_are_refused_and_the_limits_are_per_ruleset() -> None:
    with pytest.raises(InvalidActionError, match="saved rolls"):
        target.check_target_rules(get_ruleset("maxi"))
    kids = SolverSpec(get_ruleset("kids"), 0)
    assert open_allowed(kids) == kids.n_cat and most_points(kids) == 5 * 21 + kids.bonus[2]
    assert most_points(SolverSpec(get_ruleset("yatzy"), 0)) == 374


def test_playing_for_the_target_beats_playing_for_the_mean_at_it() -> None:
    """Kids whole (every box open fits): P(≥ 100) playing for it beats the optimal
    (expected-score) bot's exact 37.00 % (tests/cli/test_distribution.py checks that figure
    against the exact distribution, whose kernels take a minute to compile alone)."""
    spec = SolverSpec(get_ruleset("kids"), 0)
    start = target.target_endgame(spec, 0, 0, 0, 100).after(0, 0, 0, 0)
    assert 0.3700 < start < 1


@pytest.mark.parametrize("yahtzee_50", [True, False])
def test_yahtzee_options_with_jokers_and_bonuses_add_up_to_the_turns_start(
        yahtzee_50: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every roll's best option, weighed by its chance, is the turn's value from its start: the
    options' boxes, jokers and extra Yahtzee bonuses are placed in the end game's states."""
    for name in ("target_endgame", "check_target_position"):
        monkeypatch.setattr(target, name, cache(getattr(target, name)))
    c = coach("yahtzee")
    open_boxes = ("sixes", "full_house", "chance")
    filled = [b for b in c.ids if b not in open_boxes]
    ids, upper = c.ids, 20  # 66666 in Sixes: 50, short of the bonus (with its extra 100 it would pass)
    mask = sum(1 << ids.index(b) for b in filled)
    for need in (30, 60, 140):
        start = target.target_endgame(c.spec, mask, int(yahtzee_50), upper, need).after(mask, int(yahtzee_50),
                                                                                         upper, 0)
        got = sum(probability(r) * target_options(
            c, c.position(filled, r, 2, upper=upper, yahtzee_50=yahtzee_50), need).options[0].chance
            for r in all_rolls(5))
        assert got == pytest.approx(start, abs=1e-9), need


@pytest.mark.parametrize("typed", [0, "0", " 17 ", "most"])
def test_a_typed_target_from_0_to_the_most_a_game_scores_is_taken(typed: object) -> None:
    rs = get_ruleset("kids")
    most = most_points(SolverSpec(rs, 0))
    want = most if typed == "most" else int(str(typed))
    assert check_target(rs, most if typed == "most" else typed) == want


@pytest.mark.parametrize("typed", [-1, "-1", "most+1", 2.5, "2.5", "lots", "", None, True])
def test_a_typed_target_out_of_range_or_not_a_whole_number_is_refused_in_words(typed: object) -> None:
    rs = get_ruleset("kids")
    most = most_points(SolverSpec(rs, 0))
    with pytest.raises(InvalidActionError, match=f"from 0 to {most} in kids"):
        check_target(rs, most + 1 if typed == "most+1" else typed)
    with pytest.raises(InvalidActionError, match="saved rolls"):
        check_target(get_ruleset("maxi"), 100)


def test_a_running_game_counts_the_players_total_so_far() -> None:
    """The points needed are the target less the current player's total, bonuses earned
    included: a target already reached is certain, one a point above is the query's need 1."""
    game = Game("kids", ["Ann"], seed=8)
    game.roll()
    options = game.score_options()
    game.score(max(options, key=options.__getitem__))
    game.roll()
    total, c = game.total(0), coach("kids")
    assert total > 0
    assert all(o.chance == pytest.approx(1) for o in game_target(c, game, total).options)
    one_more = game_target(c, game, total + 1)
    assert one_more.need == 1
    assert chances(c, c.position_of(game), 1) == {str(o.option.action): o.chance for o in one_more.options}


def test_an_upper_bonus_already_earned_is_counted_once_in_a_running_game() -> None:
    """Yatzy with the upper bonus earned and only the Yatzy box open: one point more than the
    total so far is reached only by a yatzy this turn (not by the bonus counted twice)."""
    game = Game("yatzy", ["A"], dice_from="players")
    turns = [("ones", (1, 1, 1, 1, 1)), ("twos", (2, 2, 2, 2, 2)), ("threes", (3, 3, 3, 3, 3)),
             ("fours", (4, 4, 4, 4, 4)), ("fives", (5, 5, 5, 5, 5)), ("sixes", (6, 6, 6, 6, 6)),
             ("one_pair", (6, 6, 1, 2, 3)), ("two_pairs", (6, 6, 5, 5, 1)),
             ("three_of_a_kind", (6, 6, 6, 1, 2)), ("four_of_a_kind", (6, 6, 6, 6, 1)),
             ("small_straight", (1, 2, 3, 4, 5)), ("large_straight", (2, 3, 4, 5, 6)),
             ("full_house", (6, 6, 6, 5, 5)), ("chance", (6, 6, 6, 6, 5))]
    for box, dice in turns:
        game.apply(Roll((), dice))
        game.score(box)
    game.apply(Roll((), (1, 2, 3, 4, 6)))
    c = coach("yatzy")
    total = game.total(0)
    assert sum(game.ruleset.bonus_points(game.state.players[0].card).values()) == 50
    query = game_target(c, game, total + 1)
    assert query.need == 1 + 50 and max(o.chance for o in query.options) < 0.2
    assert max(o.chance for o in game_target(c, game, total).options) == pytest.approx(1)

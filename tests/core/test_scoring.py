"""The scoring rules (scoring.py) at their edges: runs of four anywhere, a combo of two different
faces at its best, pairs and the four-of-a-kind house rule, sums and kinds, pair sums for any
target. Pinned down where mutation testing found them unchecked (scripts/mutation lists the
survivors); test_scoring_exhaustive checks every category over every roll.
"""

from __future__ import annotations

import pytest

from yatzy import scoring
from yatzy.dice import all_rolls, counts


def c(*dice: int) -> tuple[int, int, int, int, int, int]:
    return counts(dice)


def test_yahtzee_runs_of_four_start_anywhere() -> None:
    for dice in ((1, 2, 3, 4, 6), (2, 3, 4, 5, 5), (3, 4, 5, 6, 1), (1, 3, 4, 5, 6)):
        assert scoring.run(c(*dice), 4, 30) == 30, dice
    assert scoring.run(c(1, 2, 3, 5, 6), 4, 30) == 0
    assert scoring.run(c(1, 2, 3, 4, 5), 5, 40) == 40
    assert scoring.run(c(2, 3, 4, 5, 6), 5, 40) == 40
    assert scoring.run(c(1, 2, 3, 4, 6), 5, 40) == 0


def test_combo_needs_two_different_faces_and_takes_the_best() -> None:
    assert scoring.combo(c(6, 6, 6, 5, 5, 5), 3, 3) == 33
    assert scoring.combo(c(6, 6, 6, 6, 6, 6), 3, 3) == 0
    assert scoring.combo(c(6, 6, 6, 6, 5, 5), 3, 2) == 28
    assert scoring.combo(c(6, 6, 6, 6, 5, 5), 4, 2) == 34
    assert scoring.combo(c(1, 1, 1, 2, 2, 6), 3, 2) == 7
    assert scoring.combo(c(2, 2, 2, 1, 1, 1), 3, 2) == 8  # 2-2-2 + 1-1 beats 1-1-1 + 2-2


def test_pairs_for_three_pairs_and_the_four_of_a_kind_house_rule() -> None:
    assert scoring.pairs(c(1, 1, 2, 2, 3, 3), 3) == 12
    assert scoring.pairs(c(1, 1, 2, 2, 3, 4), 3) == 0
    assert scoring.pairs(c(6, 6, 5, 5, 1, 1), 2) == 22  # the two best pairs
    assert scoring.pairs(c(4, 4, 4, 4, 2), 2) == 0
    assert scoring.pairs(c(4, 4, 4, 4, 2), 2, accept_four=True) == 16
    assert scoring.pairs(c(4, 4, 4, 2, 2), 2, accept_four=True) == 12  # real pairs win
    assert scoring.pairs(c(4, 4, 4, 2, 1), 2, accept_four=True) == 0


def test_sum_and_kind_rules() -> None:
    assert scoring.of_a_kind_sum(c(3, 3, 3, 5, 6), 3) == 20
    assert scoring.of_a_kind_sum(c(3, 3, 4, 5, 6), 3) == 0
    assert scoring.of_a_kind(c(2, 2, 2, 6, 6), 2) == 12
    assert scoring.of_a_kind(c(2, 2, 2, 6, 6), 3) == 6
    assert scoring.all_same(c(), 50) == 0
    assert scoring.all_same(c(4), 50) == 50
    assert scoring.full_house_fixed(c(2, 2, 3, 3, 3), 25) == 25
    assert scoring.full_house_fixed(c(3, 3, 3, 3, 3), 25) == 0
    assert scoring.full_house_exact(c(3, 3, 3, 3, 3)) == 0
    assert scoring.full_house_exact(c(3, 3, 3, 3, 3), accept_yatzy=True) == 15


def test_pair_sums_with_allowed_faces() -> None:
    assert scoring.pair_sums(c(1, 6, 6, 1, 3), 7) == 2
    assert scoring.pair_sums(c(1, 6, 6, 1, 3), 7, frozenset({1, 2, 3, 4, 5})) == 0
    assert scoring.pair_sums(c(6, 6, 6, 6, 3), 12) == 2
    assert scoring.pair_sums(c(6, 6, 6, 6, 3), 12, frozenset({1, 2, 3, 4, 5})) == 0
    assert scoring.pair_sums(c(5, 5, 5, 2, 3), 10) == 1
    assert scoring.pair_sums_points(c(4, 4, 4, 4, 2), 8) == 16


@pytest.mark.parametrize("target", range(2, 16))
def test_pair_sums_for_any_target(target: int) -> None:
    """Disjoint pairs adding to any target, checked by pairing dice off greedily per face pair;
    a target of 13 or more has no pairs (the guard on target // 2 keeps face 7 out)."""
    for dice in all_rolls(5):
        left = list(dice)
        pairs = 0
        for a in range(1, 7):
            while a in left and target - a in left and (a != target - a or left.count(a) >= 2):
                left.remove(a)
                left.remove(target - a)
                pairs += 1
        assert scoring.pair_sums(counts(dice), target) == pairs, (target, dice)


def test_a_ruleset_checks_a_whole_roll_reads_its_options_and_sees_a_bonus_still_reachable() -> None:
    from yatzy.errors import InvalidActionError
    from yatzy.registry import get_ruleset

    yatzy, maxi = get_ruleset("yatzy"), get_ruleset("maxi")
    assert yatzy.check_dice([6, 2, 5, 3, 4]) == (2, 3, 4, 5, 6)
    for rules, n, dice in ((yatzy, 5, [1, 2, 3]), (maxi, 6, [1, 2, 3, 4, 5])):
        with pytest.raises(InvalidActionError) as refused:
            rules.check_dice(dice)
        assert str(refused.value) == f"{rules.name} rolls {n} dice, not {len(dice)}"
    assert yatzy.option("bonus_threshold") == 63 and get_ruleset("yatzy", bonus_threshold=50).option(
        "bonus_threshold") == 50
    # docs/rules.md: the upper bonus needs 63 from Ones to Sixes; each box's best is five of its face
    (bonus,) = [b for b in yatzy.bonuses if b.threshold == 63]
    assert yatzy.bonus_reachable(bonus, {"ones": 0, "twos": 0})  # 15 + 20 + 25 + 30 = 90 still open
    assert not yatzy.bonus_reachable(bonus, {"sixes": 0, "fives": 0, "fours": 0})  # 5 + 10 + 15 = 30
    three_each = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18}  # exactly 63
    assert yatzy.bonus_reachable(bonus, three_each)
    assert not bonus.earned({"sixes": 30, "fives": 25, "fours": 5})  # 60: an empty box counts 0

"""Tests for behaviour of scoring.py and dice.py that mutation testing showed unchecked.

Each test pins down a rule or a contract a mutant of those modules broke while every
other test still passed (scripts/mutation lists the survivors). At the end, a fast
stand-in for the whole random games the mutation run leaves out.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, prod

import pytest

from yatzy import scoring
from yatzy.dice import (
    all_rolls,
    counts,
    is_submultiset,
    normalize,
    parse,
    plural,
    probability,
    show_dice,
    sub_multisets,
)
from yatzy.errors import InvalidActionError
from yatzy.registry import RULESETS, get_ruleset


# ---- dice -------------------------------------------------------------------------------
@pytest.mark.parametrize("n", range(0, 7))
def test_all_rolls_are_every_sorted_multiset(n: int) -> None:
    rolls = all_rolls(n)
    assert len(rolls) == comb(n + 5, 5) == len(set(rolls))
    assert all(list(r) == sorted(r) and len(r) == n for r in rolls)


@pytest.mark.parametrize("n", range(1, 7))
def test_probabilities_sum_to_one(n: int) -> None:
    assert abs(sum(probability(r) for r in all_rolls(n)) - 1) < 1e-12


def test_probability_values() -> None:
    assert Fraction(probability((1, 1, 1, 1, 1))).limit_denominator(10**6) == Fraction(1, 7776)
    assert Fraction(probability((1, 2, 3, 4, 5))).limit_denominator(10**6) == Fraction(120, 7776)
    assert Fraction(probability((2, 2, 3, 3, 3))).limit_denominator(10**6) == Fraction(10, 7776)
    assert probability(()) == 1


@pytest.mark.parametrize("dice", [(), (4,), (1, 1, 2), (2, 2, 3, 3, 3), (1, 2, 3, 4, 5, 6), (6,) * 6])
def test_sub_multisets_are_every_keep_once_from_none_to_all(dice: tuple[int, ...]) -> None:
    keeps = sub_multisets(dice)
    assert len(keeps) == len(set(keeps)) == prod(k + 1 for k in counts(dice))
    assert keeps[0] == () and keeps[-1] == dice  # the engine drops the last one (keep all)
    assert all(is_submultiset(k, dice) and list(k) == sorted(k) for k in keeps)


def test_is_submultiset_counts_repeats() -> None:
    assert is_submultiset((), ())
    assert is_submultiset((3, 3), (1, 3, 3, 6))
    assert is_submultiset((1, 3, 3, 6), (1, 3, 3, 6))
    assert not is_submultiset((3, 3, 3), (1, 3, 3, 6))
    assert not is_submultiset((6,), (1, 2, 3, 4, 5))


def test_counts() -> None:
    assert counts(()) == (0, 0, 0, 0, 0, 0)
    assert counts((6, 1, 6, 3)) == (1, 0, 1, 0, 0, 2)


def test_parse_accepts_spaces_and_commas_and_sorts() -> None:
    assert parse("6 6,6 2 2") == (2, 2, 6, 6, 6)
    assert parse("52", n=2) == (2, 5)
    assert parse("") == ()


@pytest.mark.parametrize("text,n,message", [
    ("66627", None, "“66627” is not a roll: “7” is not a die face; write faces 1 to 6, e.g. 66622"),
    ("6a", None, "“6a” is not a roll: “a” is not a die face; write faces 1 to 6, e.g. 66622"),
    ("5X6", None, "“5X6” is not a roll: “X” is not a die face; write faces 1 to 6, e.g. 66622"),
    ("0", None, "“0” is not a die face; write faces 1 to 6, e.g. 66622"),  # one character: once
    (" 7,", 5, "“7” is not a die face; write faces 1 to 6, e.g. 66622"),
    ("1", 5, "“1” has 1 die; this game rolls 5 at once"),
    ("123456", 5, "“123456” has 6 dice; this game rolls 5 at once"),
])
def test_parse_errors_name_the_problem(text: str, n: int | None, message: str) -> None:
    with pytest.raises(InvalidActionError) as caught:
        parse(text, n)
    assert str(caught.value) == message


@pytest.mark.parametrize("value", [0, 7, -1, True, 2.0, "3", None])
def test_normalize_refuses_what_is_not_a_face(value: object) -> None:
    with pytest.raises(InvalidActionError) as caught:
        normalize([1, value])
    assert str(caught.value) == f"a die is a whole number from 1 to 6, not “{value}”"


def test_normalize_sorts_and_keeps_repeats() -> None:
    assert normalize([6, 1, 6, 1, 6]) == (1, 1, 6, 6, 6)
    assert normalize([]) == ()


def test_show_dice_and_plural() -> None:
    assert show_dice((3, 3, 5)) == "3 3 5"
    assert show_dice(()) == "none"
    assert plural(1, "die", "dice") == "1 die"
    assert plural(0, "die", "dice") == "0 dice"
    assert plural(2, "tile", "tiles") == "2 tiles"


# ---- scoring ----------------------------------------------------------------------------
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


# ---- game.py: a fast stand-in for test_game's random whole games --------------------------
# The mutation run leaves those 360 games out for time; these few keep what only they
# checked: a whole game of every ruleset (tile returns and restores in DOZZY) survives a
# save and load action for action.
@pytest.mark.parametrize("name", RULESETS)
def test_whole_game_of_every_ruleset_saves_and_loads(name: str) -> None:
    from yatzy.bots import GreedyBot, RandomBot, run
    from yatzy.game import Game, Restore, Score

    rs = get_ruleset(name)
    game = run(Game(rs, ["a", "b", "c"], seed=11), [GreedyBot(), RandomBot(5), GreedyBot()])
    loaded = Game.from_json(game.to_json())
    assert loaded.log == game.log
    assert loaded.state == game.state and loaded.totals() == game.totals()
    if rs.uses_board:
        assert any(isinstance(a, Restore) for a in game.log)
        assert any(isinstance(a, Score) and a.returns for a in game.log)

"""The dice (dice.py): every roll of n dice once, sorted, with its probability; every keep
once; sub-multisets and counts; typed rolls parsed with a refusal that names the problem;
faces checked and sorted; dice and counts in words. Pinned down where mutation testing found
them unchecked (scripts/mutation lists the survivors).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb, prod

import pytest

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

"""Dice as sorted tuples, parsing, and the enumeration of every distinct roll."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from functools import cache
from math import factorial

from .errors import InvalidActionError
from .i18n import _, ngettext

Dice = tuple[int, ...]
"""A multiset of faces 1..6, always sorted ascending."""

Counts = tuple[int, int, int, int, int, int]
"""How many dice show each face: index 0 is face 1."""

FACES = (1, 2, 3, 4, 5, 6)


def normalize(values: Iterable[object]) -> Dice:
    """Check every value is a face 1..6 and return them sorted; raise InvalidActionError if not."""
    out: list[int] = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise InvalidActionError(_("a die is a whole number from 1 to 6, not “{value}”").format(value=v))
        out.append(v)
    return tuple(sorted(out))


def parse(text: str, n: int | None = None) -> Dice:
    """Parse a roll written as digits ("66622", "6 6 6 2 2", "6,6,6,2,2").

    With ``n`` the roll must have exactly that many dice.
    """
    digits = [ch for ch in text if not ch.isspace() and ch != ","]
    bad = [ch for ch in digits if ch not in "123456"]
    if bad:
        if len(digits) == 1:
            raise InvalidActionError(
                _("“{face}” is not a die face; write faces 1 to 6, e.g. 66622").format(face=bad[0]))
        raise InvalidActionError(
            _("“{text}” is not a roll: “{face}” is not a die face; write faces 1 to 6, e.g. 66622")
            .format(text=text, face=bad[0])
        )
    dice = tuple(sorted(int(ch) for ch in digits))
    if n is not None and len(dice) != n:
        raise InvalidActionError(
            ngettext("“{text}” has {count} die; this game rolls {n} at once",
                     "“{text}” has {count} dice; this game rolls {n} at once", len(dice))
            .format(text=text, count=len(dice), n=n)
        )
    return dice


def show_dice(values: Iterable[int]) -> str:
    """Dice (or tiles) as a player writes them: "3 3 5", or "none"."""
    text = " ".join(map(str, values))
    return text or _("none")


def counts(dice: Iterable[int]) -> Counts:
    """Face counts of a roll."""
    c = [0] * 6
    for d in dice:
        c[d - 1] += 1
    return (c[0], c[1], c[2], c[3], c[4], c[5])


@cache
def all_rolls(n: int) -> tuple[Dice, ...]:
    """Every distinct sorted roll of ``n`` dice (252 for five, 462 for six)."""
    return tuple(itertools.combinations_with_replacement(FACES, n))


def probability(dice: Dice) -> float:
    """Chance that rolling ``len(dice)`` fair dice gives exactly this multiset."""
    n = len(dice)
    ways = factorial(n)
    for c in counts(dice):
        ways //= factorial(c)
    return ways / 6**n


def is_submultiset(small: Iterable[int], big: Iterable[int]) -> bool:
    """True when every die of ``small`` can be taken from ``big``."""
    cs, cb = counts(small), counts(big)
    return all(a <= b for a, b in zip(cs, cb, strict=True))


def sub_multisets(dice: Dice) -> list[Dice]:
    """Every distinct keep that can be taken from a roll, from keeping none to keeping all."""
    return list(_keeps(counts(dice)))


@cache
def _keeps(c: Counts) -> tuple[Dice, ...]:
    """:func:`sub_multisets` of the roll with these face counts, made once per roll (a few
    hundred rolls at most: every move's legal actions list them)."""
    return tuple(tuple(f for f, k in zip(FACES, pick, strict=True) for _ in range(k))
                 for pick in itertools.product(*(range(k + 1) for k in c)))


def plural(n: int, one: str, many: str) -> str:
    """ "1 die", "2 dice": a count with the right English form of its noun."""
    return f"{n} {one if n == 1 else many}"

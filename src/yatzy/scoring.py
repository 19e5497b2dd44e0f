"""Pure scoring functions over face counts (index 0 is face 1).

Each function answers one category's rule for any number of dice; rulesets pick and
parametrize them (see ``rulesets/``). They never look at the scorecard.
"""

from __future__ import annotations

from .dice import Counts


def total(c: Counts) -> int:
    """Sum of all dice."""
    return sum((i + 1) * k for i, k in enumerate(c))


def upper(c: Counts, face: int) -> int:
    """Face times how many dice show it."""
    return face * c[face - 1]


def _faces_with(c: Counts, at_least: int) -> list[int]:
    """Faces with at least ``at_least`` dice, highest first."""
    return [f for f in range(6, 0, -1) if c[f - 1] >= at_least]


def of_a_kind(c: Counts, n: int) -> int:
    """n times the highest face shown by at least n dice (Scandinavian: only those dice count)."""
    faces = _faces_with(c, n)
    return n * faces[0] if faces else 0


def of_a_kind_sum(c: Counts, n: int) -> int:
    """Sum of all dice when some face is shown by at least n dice (Yahtzee rule)."""
    return total(c) if _faces_with(c, n) else 0


def pairs(c: Counts, n: int, accept_four: bool = False) -> int:
    """n pairs of n *different* faces: the best sum of those 2n dice.

    With ``accept_four`` (house rule, two pairs only) four of a kind also counts, as 4 x face.
    """
    faces = _faces_with(c, 2)
    if len(faces) >= n:
        return 2 * sum(faces[:n])
    if accept_four:
        fours = _faces_with(c, 4)
        if fours:
            return 4 * fours[0]
    return 0


def combo(c: Counts, big: int, small: int) -> int:
    """``big`` of one face plus ``small`` of a different face: the best sum of those dice.

    Full house is (3, 2), villa (3, 3), tower (4, 2). Five or six of one face never
    qualifies, the faces must differ.
    """
    best = 0
    for a in range(1, 7):
        if c[a - 1] < big:
            continue
        for b in range(1, 7):
            if b != a and c[b - 1] >= small:
                best = max(best, big * a + small * b)
    return best


def full_house_exact(c: Counts, accept_yatzy: bool = False) -> int:
    """Scandinavian full house: exactly 3 + 2 of different faces, sum of all dice.

    With ``accept_yatzy`` (house rule) five of a kind also scores its sum.
    """
    shape = sorted(k for k in c if k)
    if shape == [2, 3] or (accept_yatzy and shape == [5]):
        return total(c)
    return 0


def full_house_fixed(c: Counts, points: int) -> int:
    """Yahtzee full house: exactly 3 + 2 of different faces for a fixed score."""
    return points if sorted(k for k in c if k) == [2, 3] else 0


def straight(c: Counts, low: int, high: int, points: int) -> int:
    """Every face low..high present (with more dice than faces the extra die is free)."""
    return points if all(c[f - 1] for f in range(low, high + 1)) else 0


def run(c: Counts, length: int, points: int) -> int:
    """Any ``length`` consecutive faces present (Yahtzee straights)."""
    for low in range(1, 8 - length):
        if all(c[f - 1] for f in range(low, low + length)):
            return points
    return 0


def all_same(c: Counts, points: int) -> int:
    """Every die shows the same face."""
    return points if max(c) == sum(c) and sum(c) > 0 else 0


def pair_sums(c: Counts, target: int, allowed: frozenset[int] | None = None) -> int:
    """Largest number of disjoint pairs of dice adding up to ``target`` (DOZZY rows 7..12).

    With ``allowed`` only dice whose face is in it may be paired.
    """
    def n(f: int) -> int:
        return c[f - 1] if allowed is None or f in allowed else 0

    count = 0
    for a in range(max(1, target - 6), (target + 1) // 2):
        count += min(n(a), n(target - a))
    if target % 2 == 0 and target // 2 <= 6:
        count += n(target // 2) // 2
    return count


def pair_sums_points(c: Counts, target: int) -> int:
    """DOZZY row 7..12 with every tile in play: target x disjoint pairs adding to it."""
    return target * pair_sums(c, target)

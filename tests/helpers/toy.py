"""A toy ruleset small enough for brute force (three dice, four boxes), and the chance of
gaining enough points from a turn's start by plain recursion over it."""

from __future__ import annotations

from functools import cache, partial

from yatzy import scoring
from yatzy.dice import all_rolls, probability, sub_multisets
from yatzy.rules import Bonus, Category, Ruleset


def toy() -> Ruleset:
    """Three dice, Fives, Sixes (bonus 10 for 15 of them), Chance, Trio (20)."""
    return Ruleset("toy", "Toy", 3, (
        Category("fives", "5 x number of 5s", 15, partial(scoring.upper, face=5), kind="number",
                 section="upper", face=5, name="Fives"),
        Category("sixes", "6 x number of 6s", 18, partial(scoring.upper, face=6), kind="number",
                 section="upper", face=6, name="Sixes"),
        Category("chance", "sum", 18, scoring.total, kind="chance", name="Chance"),
        Category("trio", "three alike: 20", 20, partial(scoring.all_same, points=20), kind="yatzy",
                 name="Trio"),
    ), (Bonus("bonus", ("fives", "sixes"), 15, 10),))


def brute(rs: Ruleset, open_boxes: frozenset[str], upper: int, need: int) -> float:
    """P(gain at least ``need`` points with the boxes open), best play, by plain recursion."""
    b = rs.bonuses[0]
    cap = b.threshold
    n = rs.dice

    @cache
    def start(open_: frozenset[str], u: int, t: int) -> float:
        return sum(probability(r) * at(open_, u, t, r, rs.rolls_per_turn - 1) for r in all_rolls(n))

    @cache
    def at(open_: frozenset[str], u: int, t: int, roll: tuple[int, ...], left: int) -> float:
        best = 0.0
        for c in open_:
            pts = rs.score(c, roll)
            u2 = min(u + pts, cap) if c in b.categories else u
            if len(open_) == 1:
                best = max(best, 1.0 if pts + (b.points if u2 == cap else 0) >= t else 0.0)
            else:
                best = max(best, start(open_ - {c}, u2, t - pts))
        if left:
            for k in sub_multisets(roll)[:-1]:
                best = max(best, keep(open_, u, t, k, left))
        return best

    @cache
    def keep(open_: frozenset[str], u: int, t: int, k: tuple[int, ...], left: int) -> float:
        return sum(probability(rest) * at(open_, u, t, tuple(sorted(k + rest)), left - 1)
                   for rest in all_rolls(n - len(k)))

    return start(open_boxes, upper, need)

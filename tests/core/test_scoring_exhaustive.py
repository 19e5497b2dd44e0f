"""Every category of every ruleset over all 252 five-dice and 462 six-dice rolls.

Each category is checked against an independent brute-force reading of the rule book
written here over the dice themselves (not over counts, as the engine does).
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from yatzy.dice import all_rolls, counts
from yatzy.registry import RULESETS, get_ruleset


def test_roll_counts() -> None:
    assert len(all_rolls(5)) == 252
    assert len(all_rolls(6)) == 462


def kinds(dice: tuple[int, ...], n: int) -> list[int]:
    return [f for f, k in Counter(dice).items() if k >= n]


def scandinavian(cat: str, d: tuple[int, ...], fh5: bool = False, tp4: bool = False) -> int:
    c = Counter(d)
    faces = {"ones": 1, "twos": 2, "threes": 3, "fours": 4, "fives": 5, "sixes": 6}
    if cat in faces:
        return faces[cat] * c[faces[cat]]
    if cat == "one_pair":
        return 2 * max(kinds(d, 2), default=0)
    if cat == "two_pairs":
        best = max((2 * a + 2 * b for a, b in itertools.combinations(kinds(d, 2), 2)), default=0)
        if best == 0 and tp4 and kinds(d, 4):
            return 4 * max(kinds(d, 4))
        return best
    if cat in ("three_of_a_kind", "four_of_a_kind"):
        n = 3 if cat == "three_of_a_kind" else 4
        return n * max(kinds(d, n), default=0)
    if cat == "small_straight":
        return 15 if sorted(d) == [1, 2, 3, 4, 5] else 0
    if cat == "large_straight":
        return 20 if sorted(d) == [2, 3, 4, 5, 6] else 0
    if cat == "full_house":
        if sorted(c.values()) == [2, 3] or (fh5 and len(c) == 1):
            return sum(d)
        return 0
    if cat == "chance":
        return sum(d)
    if cat == "yatzy":
        return 50 if len(c) == 1 else 0
    raise AssertionError(cat)


def maxi(cat: str, d: tuple[int, ...]) -> int:
    c = Counter(d)
    if cat in ("one_pair", "three_of_a_kind", "four_of_a_kind", "five_of_a_kind"):
        n = {"one_pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4, "five_of_a_kind": 5}[cat]
        return n * max(kinds(d, n), default=0)
    if cat == "two_pairs":
        return max((2 * (a + b) for a, b in itertools.combinations(kinds(d, 2), 2)), default=0)
    if cat == "three_pairs":
        return sum(d) if len(kinds(d, 2)) == 3 else 0
    if cat == "small_straight":
        return 15 if {1, 2, 3, 4, 5} <= set(d) else 0
    if cat == "large_straight":
        return 20 if {2, 3, 4, 5, 6} <= set(d) else 0
    if cat == "full_straight":
        return 21 if set(d) == {1, 2, 3, 4, 5, 6} else 0
    if cat in ("full_house", "villa", "tower"):
        big, small = {"full_house": (3, 2), "villa": (3, 3), "tower": (4, 2)}[cat]
        return max((big * a + small * b for a in kinds(d, big) for b in kinds(d, small) if a != b),
                   default=0)
    if cat == "maxi_yatzy":
        return 100 if len(c) == 1 else 0
    return scandinavian(cat, d)


def yahtzee(cat: str, d: tuple[int, ...]) -> int:
    c = Counter(d)
    s = set(d)
    if cat == "three_of_a_kind":
        return sum(d) if kinds(d, 3) else 0
    if cat == "four_of_a_kind":
        return sum(d) if kinds(d, 4) else 0
    if cat == "full_house":
        return 25 if sorted(c.values()) == [2, 3] else 0
    if cat == "small_straight":
        return 30 if any(set(range(a, a + 4)) <= s for a in (1, 2, 3)) else 0
    if cat == "large_straight":
        return 40 if s in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    if cat == "yahtzee":
        return 50 if len(c) == 1 else 0
    return scandinavian(cat, d)


def dozzy(cat: str, d: tuple[int, ...]) -> int:
    if cat.startswith("n"):
        k = int(cat[1:])
        if k <= 6:
            return k * d.count(k)
        best = 0
        for pairing in _pairings(list(d)):
            best = max(best, sum(1 for a, b in pairing if a + b == k))
        return k * best
    return scandinavian(cat, d)


def _pairings(d: list[int]):  # every set of disjoint pairs
    yield []
    for i, j in itertools.combinations(range(len(d)), 2):
        rest = [x for t, x in enumerate(d) if t not in (i, j)]
        for more in _pairings(rest):
            yield [(d[i], d[j]), *more]


REFERENCE = {
    "yatzy": lambda rs: lambda c, d: scandinavian(c, d),
    "forced": lambda rs: lambda c, d: scandinavian(c, d),
    "osto": lambda rs: lambda c, d: scandinavian(c, d),
    "kids": lambda rs: lambda c, d: scandinavian(c, d),
    "maxi": lambda rs: maxi,
    "yahtzee": lambda rs: yahtzee,
    "dozzy": lambda rs: dozzy,
}


@pytest.mark.parametrize("name", RULESETS)
def test_every_category_every_roll(name: str) -> None:
    rs = get_ruleset(name)
    ref = REFERENCE[name](rs)
    checked = 0
    for d in all_rolls(rs.dice):
        got = rs.score_all(d)
        for cat in rs.categories:
            assert got[cat.id] == ref(cat.id, d), (name, cat.id, d)
            assert 0 <= got[cat.id] <= cat.max
            checked += 1
    assert checked == len(all_rolls(rs.dice)) * len(rs.categories)


@pytest.mark.parametrize("fh5,tp4", [(True, False), (False, True), (True, True)])
def test_house_rules_every_roll(fh5: bool, tp4: bool) -> None:
    rs = get_ruleset("yatzy", full_house_accepts_yatzy=fh5, two_pairs_accepts_four=tp4)
    for d in all_rolls(5):
        got = rs.score_all(d)
        for cat in rs.category_ids:
            assert got[cat] == scandinavian(cat, d, fh5, tp4), (cat, d)


HOUSE_RULES = [("yatzy", {"full_house_accepts_yatzy": True}), ("yatzy", {"two_pairs_accepts_four": True}),
               ("osto", {"full_house_accepts_yatzy": True, "two_pairs_accepts_four": True})]


@pytest.mark.parametrize("name,opts", [(n, {}) for n in RULESETS] + HOUSE_RULES)
def test_maxima_are_reached(name: str, opts: dict[str, object]) -> None:
    rs = get_ruleset(name, **opts)
    best = {c.id: 0 for c in rs.categories}
    for d in all_rolls(rs.dice):
        for c, v in rs.score_all(d).items():
            best[c] = max(best[c], v)
    assert best == {c.id: c.max for c in rs.categories}, name


def _runs_of_four(d: tuple[int, ...]) -> bool:
    return any(set(range(a, a + 4)) <= set(d) for a in (1, 2, 3))


def _pairs_adding_to(d: tuple[int, ...], k: int) -> int:
    """Disjoint pairs of dice adding to ``k`` (7..12), paired off face by face."""
    left, pairs = list(d), 0
    for a in range(1, 7):
        while a in left and k - a in left and (a != k - a or left.count(a) >= 2):
            left.remove(a)
            left.remove(k - a)
            pairs += 1
    return pairs


def _sets_rule(d: tuple[int, ...], per_face: int, faces: int) -> int:
    """``faces`` different faces with ``per_face`` dice each, the highest ones: their dice's sum."""
    shown = sorted((f for f, k in Counter(d).items() if k >= per_face), reverse=True)
    return per_face * sum(shown[:faces]) if len(shown) >= faces else 0


def kind_by_behaviour(score: dict[tuple[int, ...], int]) -> str:
    """What a box is made of, read from its points over every roll alone (the kinds of
    rules.Kind): any dice (chance), every die equal (yatzy), one face counted (number), pairs
    adding to a sum (pair_sum), faces in a row (straight), else sets of equal dice or a shape
    (sets or combo: Maxi's Villa, two triples, is a combo and its Three Pairs a set, so only
    a sets box's own ``sets`` tells them apart)."""
    rolls = list(score)
    if all(score[d] == sum(d) for d in rolls):
        return "chance"
    if all((score[d] > 0) == (len(set(d)) == 1) for d in rolls):
        return "yatzy"
    if any(all(score[d] == f * d.count(f) for d in rolls) for f in range(1, 7)):
        return "number"
    if any(all(score[d] == k * _pairs_adding_to(d, k) for d in rolls) for k in range(7, 13)):
        return "pair_sum"
    if all(_runs_of_four(d) for d in rolls if score[d]):
        return "straight"
    return "sets or combo"


@pytest.mark.parametrize("name", RULESETS)
def test_each_boxs_kind_says_what_its_rule_scores(name: str) -> None:
    """rules.Kind: rules read a box's kind, never its id (DOZZY's board, the bots, the sheets),
    so the kind must be what the box's points say it is, for every roll; and a box's own
    scoring function is the ruleset's score with every tile in play."""
    rs = get_ruleset(name)
    for cat in rs.categories:
        score = {d: rs.score(cat.id, d) for d in all_rolls(rs.dice)}
        kind = kind_by_behaviour(score)
        assert cat.kind in kind.split(" or "), (name, cat.id, kind)
        if cat.kind == "sets":
            assert all(points == _sets_rule(d, *cat.sets) for d, points in score.items()), (name, cat.id)
        assert all(cat.score(counts(d)) == points for d, points in score.items()), (name, cat.id)

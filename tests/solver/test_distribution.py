"""The exact final-score distribution: its mean is the exact value, it sums to 1, it agrees
with a brute force on toy rulesets and with simulated games of optimal play."""

from __future__ import annotations

import math
from collections import defaultdict
from functools import cache, partial
from itertools import product

import numpy as np
import pytest

from yatzy import scoring
from yatzy.dice import all_rolls, counts, sub_multisets
from yatzy.errors import InvalidActionError
from yatzy.registry import get_ruleset
from yatzy.rules import Bonus, Category, Ruleset
from yatzy.solver.distribution import Distribution, distribution, parse_targets, plan
from yatzy.solver.simulate import simulate_optimal
from yatzy.solver.solve import Solution, solve
from yatzy.solver.spec import SolverSpec

SIXES = Category("sixes", "", 30, partial(scoring.upper, face=6), face=6)
PAIR = Category("one_pair", "", 12, partial(scoring.of_a_kind, n=2))


def tiny(*cats: Category, bonus: Bonus | None = None) -> Ruleset:
    return Ruleset(name="yatzy", title="tiny", dice=5, categories=cats,
                   bonuses=(bonus,) if bonus else ())


def _check(d: Distribution) -> None:
    """What every distribution must hold: sums to 1, its mean is the policy's and the table's value."""
    assert abs(d.pmf.sum() - 1) < 1e-12
    assert (d.pmf >= 0).all()
    assert abs(d.mean - d.policy_value) < 1e-6
    assert abs(d.mean - d.table_value) < 1e-4 * max(1.0, d.table_value)


def brute_force_pmf(rs: Ruleset) -> dict[int, float]:
    """The final score's distribution by plain recursion over every die, in float64.

    Chooses as the simulator does: scoring unless a keep is worth more (the first such
    keep, smallest first), the first box of the best value.
    """
    ids = rs.category_ids
    bonus = rs.bonuses[0] if rs.bonuses else None
    keeps = sorted({k for r in all_rolls(5) for k in sub_multisets(r)}, key=lambda k: (len(k), k))

    def up(c: str, upper: int, pts: int) -> int:
        return upper + (pts if bonus and c in bonus.categories else 0)

    @cache
    def outcomes(n: int) -> tuple[tuple[tuple[int, ...], float], ...]:
        """Every sorted result of rolling n dice with its chance, counted over all 6**n rolls."""
        seen: dict[tuple[int, ...], float] = defaultdict(float)
        for o in product(range(1, 7), repeat=n):
            seen[tuple(sorted(o))] += 1 / 6**n
        return tuple(seen.items())

    @cache
    def rolled(keep: tuple[int, ...], left: int, filled: frozenset[str], upper: int) -> float:
        return sum(p * turn(tuple(sorted(keep + o)), left, filled, upper)[0]
                   for o, p in outcomes(5 - len(keep)))

    @cache
    def turn(dice: tuple[int, ...], left: int, filled: frozenset[str], upper: int
             ) -> tuple[float, str | tuple[int, ...]]:
        """(value, the box to fill or the keep) of a roll, played as the simulator plays."""
        best, choice = -1.0, ""  # type: tuple[float, str | tuple[int, ...]]
        for c in ids:
            if c not in filled:
                pts = rs.by_id[c].score(counts(dice))
                v = pts + start(filled | {c}, up(c, upper, pts))
                if v > best:
                    best, choice = v, c
        if left:
            mine = set(sub_multisets(dice))
            for k in keeps:
                if k in mine:
                    v = rolled(k, left - 1, filled, upper)
                    if v > best + 1e-9:
                        best, choice = v, k
        return best, choice

    @cache
    def start(filled: frozenset[str], upper: int) -> float:
        if len(filled) == len(ids):
            return float(bonus.points if bonus and upper >= bonus.threshold else 0)
        return rolled((), 2, filled, upper)

    @cache
    def future(keep: tuple[int, ...], left: int, filled: frozenset[str], upper: int
               ) -> tuple[tuple[int, float], ...]:
        """The points still to come after rolling the dice not kept, as (points, chance)."""
        if len(filled) == len(ids):
            return ((bonus.points if bonus and upper >= bonus.threshold else 0, 1.0),)
        out: dict[int, float] = defaultdict(float)
        for o, chance in outcomes(5 - len(keep)):
            dice = tuple(sorted(keep + o))
            _, choice = turn(dice, left, filled, upper)
            if isinstance(choice, str):
                pts = rs.by_id[choice].score(counts(dice))
                after = future((), 2, filled | {choice}, up(choice, upper, pts))
            else:
                pts, after = 0, future(choice, left - 1, filled, upper)
            for s, p in after:
                out[s + pts] += p * chance
        return tuple(out.items())

    return dict(future((), 2, frozenset(), 0))


@pytest.mark.parametrize("cats,bonus", [
    ((SIXES,), Bonus("bonus", ("sixes",), 18, 40)),
    ((PAIR, SIXES), Bonus("bonus", ("sixes",), 24, 25)),
])
def test_brute_force_agrees_on_toys(cats: tuple[Category, ...], bonus: Bonus) -> None:
    rs = tiny(*cats, bonus=bonus)
    d = distribution(solve(rs, use_cache=False))
    _check(d)
    want = brute_force_pmf(rs)
    assert abs(sum(want.values()) - 1) < 1e-12
    got = {s: float(p) for s, p in enumerate(d.pmf) if p > 0}
    assert got.keys() == want.keys()
    assert max(abs(got[s] - want[s]) for s in want) < 1e-9


def _within_simulation(d: Distribution, sol: Solution, games: int, seed: int) -> None:
    """Simulated optimal games agree with the exact distribution within 4 standard errors:
    the mean, and the share of games at or below the score of each percentile."""
    scores = simulate_optimal(sol, games, seed).scores
    se_mean = d.sd / games ** 0.5
    assert abs(scores.mean() - d.mean) < 4 * se_mean
    cdf = np.cumsum(d.pmf)
    for q in (5, 25, 50, 75, 95):
        s = d.percentile(q)
        exact = cdf[s]
        se = (exact * (1 - exact) / games) ** 0.5
        assert abs((scores <= s).mean() - exact) < 4 * se, (q, s)


def test_kids_exact_and_like_simulation() -> None:
    sol = solve(get_ruleset("kids"))
    d = distribution(sol)
    _check(d)
    assert d.mean == pytest.approx(77.4961, abs=1e-4)
    # percentiles: the smallest score whose cumulative chance reaches the percent
    cdf = np.cumsum(d.pmf)
    for q in (1, 50, 99):
        s = d.percentile(q)
        assert cdf[s] >= q / 100 > (cdf[s - 1] if s else 0.0)
    at = [d.at_least(t) for t in range(0, 200, 10)]
    assert at[0] == pytest.approx(1.0) and all(a >= b for a, b in zip(at, at[1:], strict=False))
    _within_simulation(d, sol, 20_000, seed=3)


def test_json_fields() -> None:
    d = distribution(solve(get_ruleset("kids")))
    out = d.to_dict()
    assert list(out["percentiles"]) == ["1", "5", "10", "25", "50", "75", "90", "95", "99"]  # type: ignore[call-overload]
    assert list(out["at_least"]) == ["200", "250", "300", "325", "350"]  # type: ignore[call-overload]
    pmf = out["pmf"]
    assert isinstance(pmf, list) and sum(p for _, p in pmf) == pytest.approx(1.0, abs=1e-12)
    assert all(isinstance(s, int) and p > 0 for s, p in pmf)


@pytest.mark.parametrize("order", ["down", "up"])
def test_forced_both_ways(order: str) -> None:
    sol = solve(get_ruleset("forced", order=order))
    d = distribution(sol)
    _check(d)
    assert d.mean == pytest.approx(122.5585274, abs=1e-6)


def test_too_big_is_refused_with_what_it_would_take() -> None:
    spec = SolverSpec(get_ruleset("kids"), 0)
    with pytest.raises(InvalidActionError, match=r"would take 0\.0 GiB of memory; this machine allows 0\.0"):
        plan(spec, budget=1000)
    assert plan(spec).peak_bytes > 1000


@pytest.mark.slow
@pytest.mark.parametrize("name,opts,value", [
    ("yatzy", {}, 248.4399894),
    ("yahtzee", {"joker": "free"}, 254.5896095),
])  # the other Yahtzee jokers and Osto (a minute or four each) are measured in docs/performance.md
def test_mean_is_the_exact_value(name: str, opts: dict[str, object], value: float | None) -> None:
    sol = solve(get_ruleset(name, **opts))
    d = distribution(sol)
    _check(d)
    if value is not None:
        assert abs(d.mean - value) < 1e-6
    if name == "yatzy":
        _within_simulation(d, sol, 100_000, seed=5)


@pytest.fixture(scope="module")
def kids() -> Distribution:
    return distribution(solve(get_ruleset("kids")))


def test_at_least_is_the_sum_of_the_chances_from_the_target_up(kids: Distribution) -> None:
    pmf = kids.pmf
    low, top = int(np.flatnonzero(pmf)[0]), len(pmf) - 1
    assert pmf[low] > 0 and pmf[top] > 0
    for t in (0, low, low + 1, 100, top - 1, top):
        assert kids.at_least(t) == math.fsum(pmf[t:].tolist())
    # at the lowest score (0 in Kids: a game can end with none) every game counts
    assert kids.at_least(low) == kids.at_least(0) == math.fsum(pmf.tolist())
    assert abs(kids.at_least(low) - 1) < 1e-12
    # at the highest score only the games that end there; above it none
    assert kids.at_least(top) == pmf[top]
    assert kids.at_least(top + 1) == 0.0 and kids.at_least(10**9) == 0.0


def test_at_least_counts_a_game_that_ends_on_the_target(kids: Distribution) -> None:
    """P(>= t) - P(>= t + 1) is the chance of ending on t: the target itself is reached."""
    for t in range(len(kids.pmf)):
        assert kids.at_least(t) - kids.at_least(t + 1) == pytest.approx(kids.pmf[t], abs=1e-15)
        assert kids.at_least(t) >= kids.at_least(t + 1)
    gaps = np.flatnonzero(kids.pmf == 0)  # a score no game ends on changes nothing
    assert len(gaps) and all(kids.at_least(int(g)) == kids.at_least(int(g) + 1) for g in gaps)


@pytest.mark.parametrize("bad,words", [
    (-1, "0 points or more, not -1"), (2.5, "whole number of points, not “2.5”"),
    (True, "whole number"), ("300", "whole number"),
])
def test_a_bad_target_is_refused(kids: Distribution, bad: object, words: str) -> None:
    with pytest.raises(InvalidActionError, match=words):
        kids.at_least(bad)  # type: ignore[arg-type]


def test_targets_as_typed() -> None:
    assert parse_targets(["300", " 200, 250 ", "250", "0"]) == [300, 200, 250, 0]
    for bad, words in (("abc", "“abc”"), ("", "“”"), ("200,", "“”"), ("-5", "not -5"),
                       ("2.5", "“2.5”")):
        with pytest.raises(InvalidActionError, match=words):
            parse_targets([bad])


def test_targets_in_the_json(kids: Distribution) -> None:
    out = kids.to_dict([150, 100])
    assert out["targets"] == {"150": kids.at_least(150), "100": kids.at_least(100)}
    assert "targets" not in kids.to_dict()

"""The exact solver against published values, a brute force, and simulation."""

from __future__ import annotations

from functools import cache, partial
from itertools import product

import numpy as np
import pytest

from yatzy import scoring
from yatzy.actions import Roll, Score
from yatzy.dice import all_rolls, counts, sub_multisets
from yatzy.registry import get_ruleset
from yatzy.rules import Bonus, Category, Ruleset
from yatzy.solver import kernel
from yatzy.solver import simulate as simulate_module
from yatzy.solver.coach import Coach
from yatzy.solver.simulate import simulate_optimal
from yatzy.solver.solve import build, solve
from yatzy.solver.spec import SolverSpec

PUBLISHED = [
    ("yatzy", {}, 248.4399894),
    ("yatzy", {"full_house_accepts_yatzy": True}, 248.4680909),
    ("yatzy", {"two_pairs_accepts_four": True}, 248.6440589),
    ("yahtzee", {}, 254.5877287),
    ("yahtzee", {"joker": "free"}, 254.5896095),
    ("yahtzee", {"joker": "none"}, 253.9702412),
    ("yahtzee", {"joker": "none", "yahtzee_bonus": False}, 245.8707745),
    ("forced", {}, 122.5585274),
    ("forced", {"order": "up"}, 122.5585274),
    ("forced", {"bonus_threshold": 42}, 150.2167965),
    ("forced", {"order": "up", "bonus_threshold": 42}, 150.2167965),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,opts,value", PUBLISHED)
def test_published_values(name: str, opts: dict[str, object], value: float) -> None:
    sol = solve(get_ruleset(name, **opts), use_cache=False)
    assert abs(sol.expected_score - value) < 1e-4
    assert sol.states > 0


def tiny(*cats: Category, bonus: Bonus | None = None, must_keep_one: bool = False) -> Ruleset:
    return Ruleset(name="yatzy", title="tiny", dice=5, categories=cats,
                   bonuses=(bonus,) if bonus else (), must_keep_one=must_keep_one)


SIXES = Category("sixes", "", 30, partial(scoring.upper, face=6), face=6)
YATZY = Category("yatzy", "", 50, partial(scoring.all_same, points=50))
PAIR = Category("one_pair", "", 12, partial(scoring.of_a_kind, n=2))


def brute_force(rs: Ruleset) -> float:
    """Expectimax over every roll sequence and keep, written without the solver's tricks."""
    ids = rs.category_ids
    bonus = rs.bonuses[0] if rs.bonuses else None

    @cache
    def rolled(keep: tuple[int, ...], left: int, filled: frozenset[str], upper: int) -> float:
        m = 5 - len(keep)
        total = 0.0
        for outcome in product(range(1, 7), repeat=m):
            total += turn(tuple(sorted(keep + outcome)), left, filled, upper)
        return total / 6**m

    @cache
    def turn(dice: tuple[int, ...], left: int, filled: frozenset[str], upper: int) -> float:
        best = -1.0
        for c in ids:
            if c in filled:
                continue
            pts = rs.by_id[c].score(counts(dice))
            up = upper + (pts if bonus and c in bonus.categories else 0)
            best = max(best, pts + start(filled | {c}, up))
        if left:
            for k in sub_multisets(dice):
                if k or not rs.must_keep_one:  # the house rule: keep at least one die
                    best = max(best, rolled(k, left - 1, filled, upper))
        return best

    @cache
    def start(filled: frozenset[str], upper: int) -> float:
        if len(filled) == len(ids):
            return float(bonus.points if bonus and upper >= bonus.threshold else 0)
        return rolled((), 2, filled, upper)

    return start(frozenset(), 0)


@pytest.mark.parametrize("must_keep_one", [False, True])
@pytest.mark.parametrize("cats,bonus", [
    ((YATZY,), None),
    ((SIXES,), Bonus("bonus", ("sixes",), 18, 40)),
    ((PAIR, SIXES), Bonus("bonus", ("sixes",), 24, 25)),
])
def test_brute_force_agrees(cats: tuple[Category, ...], bonus: Bonus | None, must_keep_one: bool) -> None:
    rs = tiny(*cats, bonus=bonus, must_keep_one=must_keep_one)
    assert abs(solve(rs, use_cache=False).expected_score - brute_force(rs)) < 1e-4


@pytest.mark.parametrize("cats,bonus", [
    ((SIXES,), Bonus("bonus", ("sixes",), 18, 40)),
    ((PAIR, SIXES), Bonus("bonus", ("sixes",), 24, 25)),
])
def test_must_keep_one_costs_points_in_brute_force(cats: tuple[Category, ...], bonus: Bonus | None) -> None:
    """With no sixes showing, the house rule forces a useless die to be kept: worth less."""
    free, forced = (tiny(*cats, bonus=bonus, must_keep_one=m) for m in (False, True))
    assert brute_force(forced) < brute_force(free) - 0.1
    assert solve(forced, use_cache=False).expected_score < solve(free, use_cache=False).expected_score - 0.1


@pytest.mark.slow
def test_must_keep_one_scandinavian_value() -> None:
    """The house rule costs about 0.42 points of Scandinavian Yatzy's 248.44."""
    sol = solve(get_ruleset("yatzy", must_keep_one=True))
    assert sol.expected_score < 248.4399894 - 0.1
    assert abs(sol.expected_score - 248.0181) < 2e-3  # this solver's value, recorded 2026-11
    summary = simulate_optimal(sol, 20000, seed=11)
    assert abs(summary.mean - sol.expected_score) < 3 * summary.std_error


def test_must_keep_one_has_its_own_cached_table() -> None:
    plain = solve(get_ruleset("kids"))
    kept = solve(get_ruleset("kids", must_keep_one=True))
    fresh = solve(get_ruleset("kids", must_keep_one=True), use_cache=False)
    assert kept.expected_score == fresh.expected_score < plain.expected_score - 0.1


def test_coach_never_rolls_every_die_under_must_keep_one() -> None:
    """Games the engine refereed (it refuses an empty keep) played by the exact solver."""
    from yatzy.bots import CoachBot, run
    from yatzy.game import Game, Roll

    rs = get_ruleset("kids", must_keep_one=True)
    bot = CoachBot(rs)
    rerolls = 0
    for seed in range(20):
        game = run(Game(rs, ["bot"], seed=seed), [bot])
        assert game.is_over
        rerolls += sum(1 for a in game.log if isinstance(a, Roll) and a.keep)
    assert rerolls > 0


def test_yatzy_in_one_turn_is_known() -> None:
    # The chance of five of a kind within three rolls is 2783176 / 6**10 (a classic result).
    assert abs(brute_force(tiny(YATZY)) / 50 - 2783176 / 6**10) < 1e-9


def test_cache_round_trip() -> None:
    rs = get_ruleset("kids")
    a = solve(rs)
    b = solve(rs)
    assert isinstance(b.values, np.memmap)
    assert b.expected_score == a.expected_score


@pytest.mark.slow
@pytest.mark.parametrize("name,opts,games", [("yatzy", {}, 20000), ("yahtzee", {}, 20000),
                                             ("yahtzee", {"joker": "free"}, 20000),
                                             ("forced", {"order": "up"}, 20000),
                                             ("kids", {}, 20000),
                                             ("osto", {"bank_cap": 1}, 10000)])
def test_optimal_simulation_matches_value(name: str, opts: dict[str, object], games: int) -> None:
    sol = solve(get_ruleset(name, **opts))
    summary = simulate_optimal(sol, games, seed=7)
    assert abs(summary.mean - sol.expected_score) < 3 * summary.std_error


@pytest.mark.parametrize("chunk", [1, 7, 20, 21])
def test_optimal_games_are_the_same_however_they_are_split(
        chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Game g's dice are its own: played in calls of ``chunk`` games (fewer, as many and more
    than the games), every score is the one-call score; progress is heard after every turn of
    every call, a call's share of the games after its last."""
    sol = solve(get_ruleset("kids"))
    turns = sol.spec.n_cat
    whole = simulate_optimal(sol, 20, seed=5).scores
    monkeypatch.setattr(simulate_module, "CHUNK", chunk)
    heard: list[tuple[int, int]] = []
    split = simulate_optimal(sol, 20, seed=5, progress=lambda done, games: heard.append((done, games))).scores
    assert split.tolist() == whole.tolist()
    done = [d for d, _ in heard]
    calls = -(-20 // chunk)
    assert len(done) == calls * turns and {g for _, g in heard} == {20}
    assert done[turns - 1::turns] == [*range(chunk, 20, chunk), 20]  # a call's games, all played
    assert done == sorted(done) and done[0] == min(chunk, 20) // turns
    assert simulate_optimal(sol, 20, seed=6).scores.tolist() != whole.tolist()


def test_coach_ranks_and_odds() -> None:
    coach = Coach(solve(get_ruleset("yatzy")))
    pos = coach.position([], (1, 2, 3, 4, 6), 2, upper=0)
    options = coach.options(pos)
    assert options[0].regret == 0
    assert all(a.value >= b.value for a, b in zip(options, options[1:], strict=False))
    keeps = {o.action: o for o in options}
    odds = dict(keeps[Roll((1, 2, 3, 4))].odds)
    assert abs(odds["small_straight"] - (1 - (5 / 6) ** 2)) < 1e-6
    assert len([o for o in options if isinstance(o.action, Roll)]) == len(
        sub_multisets((1, 2, 3, 4, 6))) - 1
    assert {o.action for o in options if isinstance(o.action, Score)} == {Score(c) for c in coach.ids}
    assert options[0].to_dict()["action"] == str(options[0].action)


@pytest.mark.slow
@pytest.mark.parametrize("name,opts,filled,upper,aux", [
    ("yatzy", {}, [], 0, 0),
    ("yatzy", {}, ["ones", "yatzy", "fours"], 9, 0),
    ("yahtzee", {}, ["yahtzee", "sixes"], 24, 1),
    ("yahtzee", {"joker": "free"}, ["yahtzee", "chance"], 0, 0),
    ("osto", {"bank_cap": 2}, ["ones", "chance"], 3, 2),
    ("forced", {}, ["ones", "twos"], 5, 0),
])
def test_coach_agrees_with_solver_table(name: str, opts: dict[str, object], filled: list[str],
                                        upper: int, aux: int) -> None:
    """The coach's turn (the simulator's kernel) averaged over the first roll is the table's value."""
    from yatzy.dice import probability

    sol = solve(get_ruleset(name, **opts))
    coach = Coach(sol)
    rolls_left = sol.ruleset.rolls_per_turn - 1 + (aux if sol.ruleset.saved_rolls else 0)
    expected = 0.0
    for r in all_rolls(sol.ruleset.dice):
        pos = coach.position(filled, r, rolls_left, upper=upper, aux=aux)
        expected += probability(r) * coach.best(pos).value
    mask = sum(1 << coach.ids.index(c) for c in filled)
    assert abs(expected - float(sol.values[mask, aux, min(upper, sol.spec.bonus[1])])) < 1e-3


@pytest.mark.slow
def test_bank_cap_convergence() -> None:
    from yatzy.errors import InvalidActionError
    from yatzy.solver.convergence import converge, parse_caps

    assert parse_caps("0-2, 5,1") == [0, 1, 2, 5]
    for bad in ("", "x", "3-y", "-1"):
        with pytest.raises(InvalidActionError):
            parse_caps(bad)
    with pytest.raises(InvalidActionError, match="no saved rolls"):
        converge(get_ruleset("yatzy"), [0, 1])
    seen = []
    points = converge(get_ruleset("osto"), [0, 1], lambda done, p: seen.append(done))
    assert seen == [1, 2]
    # with no saved rolls Osto plays like Yatzy; one saved roll is worth more than 10 points
    assert abs(points[0].expected_score - 248.4399894) < 1e-4
    assert points[1].expected_score > points[0].expected_score + 10
    assert points[1].states == 2 * points[0].states


@pytest.mark.parametrize(("name", "opts"), [
    ("kids", {}), ("forced", {}),
    pytest.param("yahtzee", {"joker": "free"}, marks=pytest.mark.slow),
    pytest.param("yatzy", {"bonus_threshold": 75}, marks=pytest.mark.slow),
    pytest.param("osto", {}, marks=pytest.mark.slow),
])
def test_the_hopeless_upper_totals_are_copied_exactly_as_solving_them_gives(
        name: str, opts: dict[str, object]) -> None:
    """The solver solves the upper totals from ``ulo`` up and copies ``ulo``'s values below
    (the bonus is lost there whatever the total): the table is bit for bit the one that
    solving every total gives (ulo all 0), in every mode (plain, Yahtzee's 50, saved rolls)."""
    rs = get_ruleset(name, **opts)
    spec, every = SolverSpec(rs, 1 if rs.saved_rolls else 0), SolverSpec(rs, 1 if rs.saved_rolls else 0)
    assert spec.ulo.max() > 0  # some totals are copied, or the test proves nothing
    every.__dict__["ulo"] = np.zeros_like(spec.ulo)  # every total solved
    copied, solved = build(spec), build(every)
    masks = spec.reachable_masks
    # the totals each card can hold (beyond, both leave zeros)
    held = np.arange(spec.bonus[1] + 1)[None, None, :] <= spec.umax[masks][:, None, None]
    assert np.array_equal(np.where(held, copied[masks], 0), np.where(held, solved[masks], 0))


def test_ulo_is_the_highest_total_that_cannot_reach_the_bonus_any_more() -> None:
    """Against its definition, mask by mask: at ulo the open upper boxes' best points fall short
    of the threshold (unless ulo is 0 or umax), one more and they reach it; never above umax."""
    spec = SolverSpec(get_ruleset("yatzy"), 0)
    is_upper, cap, _ = spec.bonus
    best = spec.score.max(axis=1)
    for m in range(1 << spec.n_cat):
        left = sum(int(best[c]) for c in range(spec.n_cat) if is_upper[c] and not m >> c & 1)
        lo, top = int(spec.ulo[m]), int(spec.umax[m])
        assert 0 <= lo <= top
        if lo > 0 and lo < top:
            assert lo + left < cap <= lo + 1 + left
        elif lo == 0:
            assert left >= cap - 1 or top == 0
        else:  # every total the card can hold is hopeless
            assert top + left < cap


@pytest.mark.parametrize(("name", "cap"), [("kids", 0), ("yahtzee", 0), ("osto", 2)])
def test_cards_solved_side_by_side_give_the_same_table(
        name: str, cap: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A thread solves ``kernel.GROUP`` cards side by side, their upper totals in columns next to
    each other: the table is bit for bit the one of each card solved alone, however many go
    together (cards of different widths, Yahtzee's cards with and without the 50 scored, banks)."""
    spec = SolverSpec(get_ruleset(name), cap)
    tables = []
    for group in (1, 3, 4, 7, 8):
        monkeypatch.setattr(kernel, "GROUP", group)
        tables.append(build(spec))
    assert all(np.array_equal(tables[0], t) for t in tables[1:])
    assert tables[0].any()

"""The coach's Numba ranking against the Python ranking it replaced, and its batch call.

``reference_options`` is the coach's ranking as it was before the hot path moved into
``solver/ranking.py`` (lean_turn for the keeps, the rules API for the boxes, odds box by
box), kept here as the oracle. Tables of small random whole numbers make many ties, so the
documented order of equal values is checked as well as the values.
"""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from helpers import turn_oracle
from yatzy.actions import Roll, Score
from yatzy.dice import Dice, sub_multisets
from yatzy.errors import IllegalActionError, InvalidActionError
from yatzy.registry import get_ruleset
from yatzy.rulesets.yahtzee import YahtzeeRuleset
from yatzy.solver import kernel
from yatzy.solver.coach import Coach, Option, Position, Ranking
from yatzy.solver.solve import Solution, solve
from yatzy.solver.spec import SolverSpec

Row = tuple[object, float, float, tuple[tuple[str, float], ...], int | None]


def reference_scores(coach: Coach, pos: Position) -> dict[str, tuple[int, float]]:
    spec, rs = coach.spec, coach.spec.ruleset
    is_upper, cap, _ = spec.bonus
    m, u = sum(1 << coach.ids.index(c) for c in pos.filled), min(pos.upper, cap)
    card: dict[str, int] = {c: 0 for c in pos.filled}
    ybox = rs.yahtzee_box if isinstance(rs, YahtzeeRuleset) else None
    if spec.n_aux == 2 and ybox in card:
        card[ybox] = rs.by_id[ybox].max if pos.aux == 1 else 0
    extra = rs.extra_points(card, pos.dice)
    out: dict[str, tuple[int, float]] = {}
    for cid, pts in rs.score_options(card, pos.dice).items():
        c = coach.ids.index(cid)
        if rs.saved_rolls:
            a2 = min(pos.rolls_left, spec.bank_cap)
        elif spec.n_aux == 2:
            a2 = (1 if pts > 0 else 0) if cid == ybox else pos.aux
        else:
            a2 = 0
        u2 = min(u + pts, cap) if is_upper[c] else u
        out[cid] = (pts + extra, pts + extra + float(coach.solution.values[m | 1 << c, a2, u2]))
    return out


def reference_odds(coach: Coach, pos: Position) -> dict[Dice, tuple[tuple[str, float], ...]]:
    spec = coach.spec
    keeps, index, start = spec.keeps
    child, _ = spec.child_sub
    is_upper = spec.bonus[0]
    fillable = set(spec.ruleset.open_categories(dict.fromkeys(pos.filled, 0)))
    open_ids = [c for i, c in enumerate(coach.ids) if c in fillable and not is_upper[i] and c != "chance"]
    my_keeps = [k for k in sub_multisets(pos.dice) if len(k) < len(pos.dice)]
    per_keep: dict[Dice, list[tuple[str, float]]] = {k: [] for k in my_keeps}
    full0 = int(start[spec.n])
    X = np.zeros((len(keeps), 1), dtype=np.float32)
    for cid in open_ids:
        hit = (spec.score[coach.ids.index(cid)] > 0).astype(np.float32)
        L = hit.copy()
        for j in range(pos.rolls_left):
            X[full0:, 0] = L
            kernel.expect(X, child, start, spec.n, 1)
            if j == pos.rolls_left - 1:
                break
            X[full0:, 0] = np.maximum(hit, L)
            kernel.best_keeps(X, *spec.sub_lists[:2], 1, spec.ruleset.must_keep_one)
            L = X[full0:, 0].copy()
        for k in my_keeps:
            p = float(X[index[k], 0])
            if 0.0 < p < 1.0:
                per_keep[k].append((cid, p))
    return {k: tuple(sorted(v, key=lambda t: -t[1])) for k, v in per_keep.items()}


def reference_options(coach: Coach, pos: Position, with_odds: bool) -> list[Row]:
    """The coach's ranking before the Numba hot path, line for line."""
    spec = coach.spec
    _, cap, _ = spec.bonus
    m, u = sum(1 << coach.ids.index(c) for c in pos.filled), min(pos.upper, cap)
    keeps, index, _ = spec.keeps
    S = np.empty((spec.levels + 1, len(spec.rolls)), dtype=np.float32)
    EX = np.empty((spec.levels + 1, len(keeps)), dtype=np.float32)
    turn_oracle.lean_turn(m, pos.aux, u, pos.rolls_left, coach._values, *spec.kernel_args, S, EX,
                      np.empty(len(keeps), dtype=np.float32))
    raw: list[tuple[Roll | Score, float, Dice | None, int | None]] = []
    if pos.rolls_left > 0:
        for k in sub_multisets(pos.dice):
            if len(k) == len(pos.dice) or (spec.ruleset.must_keep_one and not k):
                continue
            raw.append((Roll(k), float(EX[pos.rolls_left - 1, index[k]]), k, None))
    for cid, (pts, value) in reference_scores(coach, pos).items():
        raw.append((Score(cid), value, None, pts))
    best = max(v for _, v, _, _ in raw)
    raw.sort(key=lambda t: -t[1])
    odds_of = reference_odds(coach, pos) if with_odds and pos.rolls_left > 0 else {}
    return [(a, v, best - v, odds_of.get(k, ()) if k is not None else (), pts) for a, v, k, pts in raw]


def fields(o: Option) -> Row:
    """An option's fields in reference_options' order."""
    return (o.action, o.value, o.regret, o.odds, o.points)


@cache
def tied_coach(name: str, **opts: object) -> Coach:
    """A coach on a table of small random whole numbers (no solve; many equal values)."""
    rs = get_ruleset(name, **opts)
    spec = SolverSpec(rs, (rs.bank_cap or 0) if rs.saved_rolls else 0)
    shape = (1 << spec.n_cat, spec.n_aux, spec.bonus[1] + 1)
    values = np.random.default_rng(7).integers(0, 4, size=shape).astype(np.float32)
    return Coach(Solution(spec, values, 0.0, 0))


def random_positions(coach: Coach, count: int, seed: int) -> list[Position]:
    """Positions a game can reach, drawn at random and made through the checked Coach.position."""
    rs, spec, rng = coach.spec.ruleset, coach.spec, random.Random(seed)
    faces = {c.id: c.face for c in rs.categories}
    ybox = rs.yahtzee_box if isinstance(rs, YahtzeeRuleset) else None
    out = []
    for _ in range(count):
        k = rng.randrange(len(coach.ids))
        filled = list(rs.order[:k]) if rs.order is not None else rng.sample(coach.ids, k)
        upper = sum(rng.randrange(rs.dice + 1) * (faces[c] or 0) for c in filled)
        dice = [rng.randint(1, 6) for _ in range(rs.dice)]
        rolls_left = rng.randrange(rs.rolls_per_turn)
        saved = rng.randrange(spec.bank_cap + 1) if rs.saved_rolls else None
        y50 = rng.random() < 0.5 if spec.n_aux == 2 and ybox in filled and not rs.saved_rolls else None
        out.append(coach.position(filled, dice, rolls_left, upper, saved=saved, yahtzee_50=y50))
    return out


RULESETS = [("yatzy", {}), ("yatzy", {"must_keep_one": True}), ("forced", {}), ("forced", {"order": "up"}),
            ("kids", {}), ("yahtzee", {}), ("yahtzee", {"joker": "free"}), ("yahtzee", {"joker": "none"}),
            ("yahtzee", {"joker": "none", "yahtzee_bonus": False}), ("osto", {"bank_cap": 2})]


@pytest.mark.parametrize("name,opts", RULESETS)
def test_ranking_is_the_reference_one_with_ties(name: str, opts: dict[str, object]) -> None:
    """Same options, values, regrets, points and odds, in the same order, ties included."""
    coach = tied_coach(name, **opts)
    positions = random_positions(coach, 60, seed=len(name) + len(opts))
    ties = 0
    for pos in positions:
        for with_odds in (False, True):
            got = [fields(o) for o in coach.options(pos, with_odds=with_odds)]
            assert got == reference_options(coach, pos, with_odds), (pos, with_odds)
        values = [o.value for o in coach.options(pos, with_odds=False)]
        ties += len(values) - len(set(values))
    assert ties > 40  # the order of equal values was exercised


@pytest.mark.parametrize("name", ["yatzy", "kids"])
def test_ranking_is_the_reference_one_on_solved_tables(name: str) -> None:
    coach = Coach(solve(get_ruleset(name)))
    for pos in random_positions(coach, 60, seed=3):
        assert [fields(o) for o in coach.options(pos)] == reference_options(coach, pos, True)


@pytest.mark.parametrize("name,opts", [("yatzy", {}), ("yahtzee", {}), ("osto", {"bank_cap": 2}),
                                       ("forced", {})])
def test_rank_many_is_one_by_one(name: str, opts: dict[str, object]) -> None:
    coach = tied_coach(name, **opts)
    positions = random_positions(coach, 300, seed=11)  # several blocks of the parallel loop
    many = coach.rank_many(positions)
    assert len(many) == len(positions)
    assert list(many) == [coach.options(p, with_odds=False) for p in positions]
    assert many[len(positions) - 1] == coach.options(positions[-1], with_odds=False)
    assert len(coach.rank_many([])) == 0


@pytest.mark.parametrize("name,opts", [("yatzy", {"must_keep_one": True}), ("yahtzee", {}),
                                       ("osto", {"bank_cap": 2})])
def test_rank_many_reuses_a_turn_only_for_its_own_card(name: str, opts: dict[str, object]) -> None:
    """Positions in a game's order (one card's roll, keep and box, then the next card) share
    the card's turn; the rankings are still each position's own."""
    coach = tied_coach(name, **opts)
    rng = random.Random(2)
    positions = []
    for pos in random_positions(coach, 40, seed=13):
        for left in (pos.rolls_left, 0, pos.rolls_left, 2, 1):
            dice = tuple(sorted(rng.randint(1, 6) for _ in pos.dice))
            positions.append(Position(pos.filled, pos.upper, dice, min(left, pos.rolls_left), pos.aux))
    assert list(coach.rank_many(positions)) == [coach.options(p, with_odds=False) for p in positions]


@pytest.mark.parametrize("name,opts", RULESETS)
def test_a_query_hands_over_small_ints(name: str, opts: dict[str, object]) -> None:
    """rank's indices name (action, points) pairs of the roll's own list: a roll no joker can
    score has a list short enough that every index is one of CPython's cached small ints (-5 to
    256), so handing them to Python makes no int objects; a query's indices are within its
    roll's list, and name its options' moves and points."""
    coach = tied_coach(name, **opts)
    jokers = {i for i, r in enumerate(coach.spec.rolls)
              if isinstance(coach.spec.ruleset, YahtzeeRuleset) and len(set(r)) == 1}
    assert max(len(items) for i, items in enumerate(coach._items) if i not in jokers) <= 257
    for pos in random_positions(coach, 30, seed=11):
        options = coach.options(pos, with_odds=False)
        indices = coach._local.buffers[1][:len(options)].tolist()
        items = coach._items[coach.spec.rolls.index(pos.dice)]
        assert all(0 <= i < len(items) for i in indices)
        assert [items[i] for i in indices] == [(o.action, o.points) for o in options]


def test_a_ranking_reads_as_a_sequence_of_options() -> None:
    """options() is a sequence: indexed (from the end too), sliced, iterated, equal to the same
    options in any sequence; each option's regret is the best value less its own."""
    coach = tied_coach("yatzy")
    pos = random_positions(coach, 1, seed=5)[0]
    ranking = coach.options(pos)
    assert isinstance(ranking, Ranking)
    listed = list(ranking)
    assert len(listed) == len(ranking) > 2
    assert ranking[-1] == listed[-1] and ranking[1] == listed[1]
    assert ranking[1:3] == listed[1:3] and ranking[::-1] == listed[::-1]
    assert ranking == listed and ranking == tuple(listed) and ranking != listed[:-1]
    assert ranking != "not options"
    assert [o.regret for o in ranking] == [ranking[0].value - o.value for o in ranking]
    assert ranking[0].regret == 0.0
    with pytest.raises(IndexError):
        ranking[len(ranking)]
    assert list(Ranking((), [])) == [] and len(Ranking((), [])) == 0


def test_score_values_are_the_boxes_in_card_order() -> None:
    coach = tied_coach("yahtzee")
    for pos in random_positions(coach, 40, seed=5):
        ref = reference_scores(coach, pos)
        assert list(coach.score_values(pos).items()) == [(c, v) for c, (_, v) in ref.items()]


@pytest.mark.parametrize("args,kwargs,error,words", [
    ((["fours", "nope"], (1, 2, 3, 4, 5), 2), {"upper": 0}, InvalidActionError, "is not a box"),
    ((["ones", "ones"], (1, 2, 3, 4, 5), 2), {"upper": 0}, InvalidActionError, "named twice"),
    (([], (1, 2, 3, 4), 2), {"upper": 0}, InvalidActionError, "rolls 5 dice"),
    (([], (1, 2, 3, 4, 7), 2), {"upper": 0}, InvalidActionError, "7"),
    ((["ones"], (1, 2, 3, 4, 5), 3), {"upper": 0}, InvalidActionError, "must be 0 to 2"),
    ((["ones"], (1, 2, 3, 4, 5), 2), {"upper": 6}, InvalidActionError, "at most 5"),
    (([], (1, 2, 3, 4, 5), 2), {"upper": 3}, InvalidActionError, "no upper box"),
    ((["ones"], (1, 2, 3, 4, 5), 2), {"upper": 0, "saved": 1}, InvalidActionError, "no saved rolls"),
    ((["ones"], (1, 2, 3, 4, 5), 2), {"upper": 0, "yahtzee_50": True}, InvalidActionError, "only in yahtzee"),
])
def test_typed_positions_are_refused_before_ranking(args: tuple, kwargs: dict, error: type,
                                                    words: str) -> None:
    """The checks stay in front of the fast call: a bad position never reaches the kernel."""
    coach = tied_coach("yatzy")
    with pytest.raises(error, match=words):
        coach.position(*args, **kwargs)


def test_a_full_card_is_refused() -> None:
    coach = tied_coach("kids")
    with pytest.raises(IllegalActionError, match="every box is filled"):
        coach.position(coach.ids, (1, 1, 1, 1, 1), 0, upper=0)


def test_the_warm_up_compiles_every_kernel_a_query_calls() -> None:
    """A front end's start warms the solver up (yatzy.solver.warm.warm_up_soon): in a new
    process the coach's kernels and the target's end game have no compiled code until the
    warm-up, and every one has it after, so a player's first question after an install (a
    ranking, odds, a target) waits for no compiler."""
    import subprocess
    import sys

    probe = ("from yatzy.solver import endgame, ranking, warm\n"
             "kernels = (ranking.rank, ranking.odds_table, ranking.odds, ranking.rank_many,\n"
             "           endgame._solve)\n"
             "assert not any(k.signatures for k in kernels)\n"
             "warm.warm_up_soon(); warm.warm_up_soon()\n"
             "warm._warming.join(240)\n"
             "assert all(k.signatures for k in kernels), [k.signatures for k in kernels]\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr

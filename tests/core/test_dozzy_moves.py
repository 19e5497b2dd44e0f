"""DOZZY tile moves and scores against an independent brute force of the rule book.

The reference below is written from the DOZZY section of the rule book alone: for a row
it enumerates every subset of the dice (by position) that could make the row's
combination, keeps the best-scoring ones, and then every way to split the unused dice
into singles and pairs summing to 7..12. It never calls the engine's helpers (no
``counts``, no ``scoring``, no ``_splits``), only ``tile_moves`` and ``score`` to compare.
"""

from __future__ import annotations

import itertools
import os
import random
from collections.abc import Iterator
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yatzy.game import Game, Roll, Score
from yatzy.registry import get_ruleset

RS = get_ruleset("dozzy")
STRICT = get_ruleset("dozzy", sum_tiles_need_faces=True)
TILES = frozenset(range(1, 13))
ROLLS = list(itertools.combinations_with_replacement(range(1, 7), 5))
ROWS = [f"n{k}" for k in range(1, 13)] + [
    "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind",
    "small_straight", "large_straight", "full_house", "chance", "yatzy",
]
KIND = {"one_pair": 2, "three_of_a_kind": 3, "four_of_a_kind": 4}

Dice = tuple[int, ...]
Moves = tuple[frozenset[int], frozenset[frozenset[int]]]


# ---- the reference ---------------------------------------------------------------------
def _pairings(idx: tuple[int, ...]) -> Iterator[list[tuple[int, int]]]:
    """Every way to cover ``idx`` completely with disjoint pairs (empty if odd)."""
    if not idx:
        yield []
        return
    first, rest = idx[0], idx[1:]
    for j, other in enumerate(rest):
        for more in _pairings(rest[:j] + rest[j + 1:]):
            yield [(first, other), *more]


@cache
def _ways(row: str, dice: Dice) -> tuple[tuple[int, tuple[int, ...], frozenset[int], frozenset[int]], ...]:
    """Every way to make ``row`` from the dice, whatever the board.

    Each way is (points, dice positions used, tiles of the numbers used, tiles that must
    be in play for it: the numbers' tiles, and for a sum also its faces when the option
    ``sum_tiles_need_faces`` is on, which :func:`reference` decides).
    """
    n = len(dice)
    found = []
    for size in range(1, n + 1):
        for used in itertools.combinations(range(n), size):
            faces = [dice[i] for i in used]
            rest = [dice[i] for i in range(n) if i not in used]
            if row.startswith("n"):
                k = int(row[1:])
                if k <= 6:
                    # a single-die number counts every die showing it
                    if set(faces) == {k} and k not in rest:
                        found.append((k * size, used, frozenset({k}), frozenset(faces)))
                elif any(all(dice[a] + dice[b] == k for a, b in p) for p in _pairings(used)):
                    found.append((k * size // 2, used, frozenset({k}), frozenset(faces)))
            elif row in KIND:
                if size == KIND[row] and len(set(faces)) == 1:
                    found.append((sum(faces), used, frozenset(faces), frozenset(faces)))
            elif row == "two_pairs":
                if size == 4 and len(set(faces)) == 2 and all(faces.count(f) == 2 for f in faces):
                    found.append((sum(faces), used, frozenset(faces), frozenset(faces)))
            elif row == "full_house":
                shape = sorted(faces.count(f) for f in set(faces))
                if size == n and shape == [2, 3]:
                    found.append((sum(faces), used, frozenset(faces), frozenset(faces)))
            elif row == "yatzy":
                if size == n and len(set(faces)) == 1:
                    found.append((50, used, frozenset(faces), frozenset(faces)))
    return tuple(found)


@cache
def _splits(unused: tuple[int, ...]) -> tuple[frozenset[int], ...]:
    """Tiles named by each split of the unused dice into singles and pairs summing 7..12."""
    if not unused:
        return (frozenset(),)
    first, rest = unused[0], unused[1:]
    named = [tail | {first} for tail in _splits(rest)]
    for j, other in enumerate(rest):
        if 7 <= first + other <= 12:
            named += [tail | {first + other} for tail in _splits(rest[:j] + rest[j + 1:])]
    return tuple(named)


def reference(row: str, dice: Dice, out: frozenset[int], need_faces: bool = False) -> tuple[int, Moves]:
    """Points, tiles going out and the allowed return sets, straight from the rule book."""
    live = TILES - out
    if row in ("small_straight", "large_straight", "chance"):
        pattern = {"small_straight": [1, 2, 3, 4, 5], "large_straight": [2, 3, 4, 5, 6]}.get(row)
        ok = pattern is None or sorted(dice) == pattern
        points = sum(d for d in dice if d in live) if ok else 0
        return points, (frozenset(), frozenset({frozenset()}))  # never move tiles
    is_sum = row.startswith("n") and int(row[1:]) >= 7
    ways = [w for w in _ways(row, dice)
            if w[2] <= live and (not (need_faces and is_sum) or w[3] <= live)]
    points = max((w[0] for w in ways), default=0)
    if points == 0:
        ways = [(0, (), frozenset(), frozenset())]  # a 0 uses no dice: every die may return
    best = [w for w in ways if w[0] == points]
    gone = {w[2] for w in best}
    assert len(gone) == 1, (row, dice, out, gone)
    going_out = gone.pop()
    back = out - going_out  # a tile that went out this turn does not come back
    options: set[frozenset[int]] = set()
    for _, used, _, _ in best:
        unused = tuple(dice[i] for i in range(len(dice)) if i not in used)
        options.update(named & back for named in _splits(unused))
    if len(options) > 1:
        options.discard(frozenset())  # returning nothing only when something can return
    return points, (going_out, frozenset(options))


def engine(rs: object, row: str, dice: Dice, out: frozenset[int]) -> tuple[int, Moves]:
    going_out, options = rs.tile_moves(row, dice, out)  # type: ignore[attr-defined]
    assert len(options) == len(set(options)), "an allowed return is listed twice"
    return rs.score(row, dice, out), (frozenset(going_out), frozenset(options))  # type: ignore[attr-defined]


# ---- the reference's own sanity: the rule book's examples -----------------------------
def test_reference_reproduces_the_rule_book_examples() -> None:
    assert reference("two_pairs", (2, 4, 4, 5, 5), frozenset({2})) == (
        18, (frozenset({4, 5}), frozenset({frozenset({2})})))
    assert reference("n3", (3, 3, 3, 4, 5), frozenset({4, 5, 9}))[1] == (
        frozenset({3}), frozenset({frozenset({9}), frozenset({4, 5})}))
    assert reference("one_pair", (1, 4, 4, 6, 6), frozenset({6}))[0] == 8
    assert reference("two_pairs", (1, 4, 4, 6, 6), frozenset({6}))[0] == 0
    assert reference("small_straight", (1, 2, 3, 4, 5), frozenset({2, 3}))[0] == 10
    assert reference("n9", (3, 3, 3, 4, 5), frozenset({4, 5}))[0] == 9
    assert reference("n9", (3, 3, 3, 4, 5), frozenset({4, 5}), need_faces=True)[0] == 0
    assert reference("yatzy", (2, 2, 2, 2, 6), frozenset({6}))[0] == 0


# ---- the comparison --------------------------------------------------------------------
def test_reference_knows_every_row() -> None:
    assert sorted(ROWS) == sorted(RS.category_ids)


UNDER_MUTMUT = "MUTANT_UNDER_TEST" in os.environ
"""mutmut (scripts/mutation) sets this; its trampolines make the engine some 10x slower, so
the comparisons below then take a small sample of boards instead of 39."""


def _boards() -> list[frozenset[int]]:
    """Every board with 0 or 1 tile out, a fixed sample with 2..5 out, and boards with
    only one or two faces left in play (a Yatzy or full house of exactly those faces).

    Every board with 0..5 tiles out is 1586 boards; with 252 rolls and 21 rows that is 8.4
    million comparisons at about 50 us each (engine plus reference), some 7 minutes. So
    the exhaustive part takes 39 boards (about 206,000 comparisons, some 10 s) and
    Hypothesis draws further boards with up to 8 tiles out.
    """
    if UNDER_MUTMUT:
        return [frozenset(), frozenset({6}), frozenset({3, 9}), frozenset({1, 2, 7, 12}),
                TILES - {5}, TILES - {2, 3}]
    rnd = random.Random(20240607)
    boards = [frozenset(), *(frozenset({t}) for t in TILES)]
    for k, n in ((2, 6), (3, 5), (4, 3), (5, 3)):
        boards += [frozenset(rnd.sample(sorted(TILES), k)) for _ in range(n)]
    boards += [TILES - {f} for f in range(1, 7)]
    boards += [TILES - {2, 3}, TILES - {5, 6}, TILES - {1, 6, 7}]
    return boards


BOARDS = _boards()


@pytest.mark.slow
@pytest.mark.parametrize("row", ROWS)
def test_every_roll_every_row_against_reference(row: str) -> None:
    for out in BOARDS:
        for dice in ROLLS:
            assert engine(RS, row, dice, out) == reference(row, dice, out), (row, dice, sorted(out))


@settings(max_examples=60 if UNDER_MUTMUT else 400, deadline=None)
@given(st.sampled_from(ROWS), st.sampled_from(ROLLS), st.frozensets(st.integers(1, 12), max_size=8),
       st.booleans())
def test_any_board_against_reference(row: str, dice: Dice, out: frozenset[int], strict: bool) -> None:
    rs = STRICT if strict else RS
    assert engine(rs, row, dice, out) == reference(row, dice, out, need_faces=strict)


@pytest.mark.slow
@pytest.mark.parametrize("row", [f"n{k}" for k in range(7, 13)])
def test_sum_rows_needing_faces_against_reference(row: str) -> None:
    for out in BOARDS[:13] + BOARDS[-13:]:
        for dice in ROLLS:
            assert engine(STRICT, row, dice, out) == reference(row, dice, out, True), (dice, sorted(out))


def test_yatzy_and_full_house_with_only_their_faces_in_play() -> None:
    assert RS.score("yatzy", (5, 5, 5, 5, 5), TILES - {5}) == 50
    assert RS.score("full_house", (2, 2, 2, 3, 3), TILES - {2, 3}) == 12
    assert RS.tile_moves("yatzy", (5, 5, 5, 5, 5), TILES - {5}) == (frozenset({5}), [frozenset()])


# ---- the boundaries the suite let through ----------------------------------------------
def test_two_unused_dice_summing_to_seven_return_tile_seven() -> None:
    # n1 uses the 1; 3 + 4 = 7 may bring tile 7 back (7 is the range's lowest sum)
    going_out, back = RS.tile_moves("n1", (1, 3, 4, 6, 6), frozenset({7}))
    assert going_out == {1}
    assert back == [frozenset({7})]
    assert set(RS.tile_moves("n6", (1, 3, 4, 6, 6), frozenset({3, 4, 7}))[1]) == {
        frozenset({3, 4}), frozenset({7})}


def test_two_unused_dice_summing_to_six_return_nothing_as_a_pair() -> None:
    # 1 + 4 = 5 and 2 + 4 = 6 are no pair: tiles 5 and 6 stay out
    assert RS.tile_moves("n6", (1, 4, 6, 6, 6), frozenset({5}))[1] == [frozenset()]
    assert RS.tile_moves("n5", (2, 4, 5, 5, 5), frozenset({6}))[1] == [frozenset()]


def test_twelve_is_the_highest_pair() -> None:
    assert RS.tile_moves("n1", (1, 1, 1, 6, 6), frozenset({12}))[1] == [frozenset({12})]


def test_return_nothing_is_not_offered_when_a_return_exists() -> None:
    going_out, back = RS.tile_moves("n3", (3, 3, 3, 4, 5), frozenset({9}))
    assert going_out == {3}
    assert back == [frozenset({9})]


def test_restore_with_exactly_four_out() -> None:
    g = Game(RS, ["a", "b"], seed=3)
    g.state.out = frozenset({2, 5, 8, 11})
    assert g.may_restore() == 1
    g.restore([8])
    assert g.state.out == {2, 5, 11}
    assert g.may_restore() == 0
    g.state.out = frozenset({1, 2, 3})
    assert g.may_restore() == 0


def test_restore_only_before_the_first_roll() -> None:
    g = Game(RS, ["a"], seed=3)
    g.state.out = frozenset({1, 2, 3, 4})
    g.apply(Roll((), (6, 6, 6, 6, 6)))
    assert g.may_restore() == 0


def test_game_moves_tiles_as_the_reference_says() -> None:
    """A whole turn in the engine ends with the board the reference predicts."""
    g = Game(RS, ["a", "b", "c"], seed=4)
    g.state.out = frozenset({7, 9})
    g.apply(Roll((), (2, 3, 4, 5, 6)))
    _, (going_out, options) = reference("n2", (2, 3, 4, 5, 6), frozenset({7, 9}))
    assert options == {frozenset({7}), frozenset({9})}
    g.apply(Score("n2", (9,)))
    assert g.state.out == (frozenset({7, 9}) | going_out) - {9} == {2, 7}


def test_used_dice_are_the_tiles_going_out_and_the_rest_of_the_roll() -> None:
    """dozzy_tables builds the DOZZY bot's tables from ``used_dice`` for every box: the tiles
    a score sends out (the reference's) and the dice it leaves, faces 1..6 taken from the
    roll, which bring back what the reference says; Straights and Chance use no number (they
    never move tiles) and a 0 uses no dice."""
    from collections import Counter

    for out in (frozenset(), frozenset({6}), frozenset({3, 9})):
        for dice in [*ROLLS[::9], (1, 2, 3, 4, 5), (2, 3, 4, 5, 6)]:  # a sample, and both straights
            for row in ROWS:
                tiles, unused = RS.used_dice(row, dice, out)
                points, (going_out, options) = reference(row, dice, out)
                assert frozenset(tiles) == going_out, (row, dice, sorted(out))
                assert list(unused) == sorted(unused) and not Counter(unused) - Counter(dice)
                if points == 0 or row in ("small_straight", "large_straight", "chance"):
                    assert (tiles, unused) == (set(), dice), (row, dice, sorted(out))
                    continue
                back = {named & (out - going_out) for named in _splits(unused)}
                assert (back - {frozenset()} if len(back) > 1 else back) == options, (row, dice, sorted(out))

"""DOZZY's board rules, with the sheet's own examples."""

from __future__ import annotations

import pytest

from yatzy import checks
from yatzy.errors import IllegalActionError
from yatzy.game import Game, Roll, Score
from yatzy.registry import get_ruleset

RS = get_ruleset("dozzy")


def test_faces_out_of_play_do_not_count() -> None:
    out = frozenset({6})
    assert RS.score("one_pair", (1, 4, 4, 6, 6), out) == 8
    assert RS.score("two_pairs", (1, 4, 4, 6, 6), out) == 0
    assert RS.score("n6", (1, 4, 4, 6, 6), out) == 0


def test_small_straight_with_tiles_out() -> None:
    assert RS.score("small_straight", (1, 2, 3, 4, 5), frozenset({2, 3})) == 10
    assert RS.score("chance", (1, 2, 3, 4, 5), frozenset({2, 3})) == 10
    assert RS.tile_moves("small_straight", (1, 2, 3, 4, 5), frozenset({2, 3})) == (
        frozenset(), [frozenset()])


def test_sum_rows_need_only_their_tile() -> None:
    assert RS.score("n9", (3, 3, 3, 4, 5), frozenset({4, 5})) == 9
    strict = get_ruleset("dozzy", sum_tiles_need_faces=True)
    assert strict.score("n9", (3, 3, 3, 4, 5), frozenset({4, 5})) == 0


def test_two_pairs_example_moves_tiles() -> None:
    out, back = RS.tile_moves("two_pairs", (2, 4, 4, 5, 5), frozenset({2}))
    assert out == {4, 5}
    assert back == [frozenset({2})]


def test_row_three_example_offers_nine_or_four_and_five() -> None:
    out, back = RS.tile_moves("n3", (3, 3, 3, 4, 5), frozenset({4, 5, 9}))
    assert out == {3}
    assert set(back) == {frozenset({9}), frozenset({4, 5})}


def test_split_returning_nothing_only_when_nothing_returns() -> None:
    out, back = RS.tile_moves("n3", (3, 3, 3, 4, 5), frozenset())
    assert back == [frozenset()]


def play_roll(game: Game, dice: tuple[int, ...]) -> None:
    game.apply(Roll((), dice))


def test_game_applies_board_and_choice() -> None:
    g = Game(RS, ["a", "b"], seed=1)
    g.state.out = frozenset({4, 5, 9})  # set up the sheet's situation
    play_roll(g, (3, 3, 3, 4, 5))
    both = f"{Score('n3', (4, 5))} or {Score('n3', (9,))}"  # the scores to type, as the game names them
    with pytest.raises(IllegalActionError) as refused:
        g.apply(Score("n3"))
    assert str(refused.value) == f"choose which tiles come back: {both}"
    with pytest.raises(IllegalActionError) as refused:
        g.apply(Score("n3", (4,)))
    assert str(refused.value) == f"tile 4 cannot come back with this score; choose {both}"
    g.apply(Score("n3", (9,)))
    assert g.state.out == {3, 4, 5}
    assert g.state.players[0].card["n3"] == 9


def test_restore_when_four_or_more_out() -> None:
    g = Game(RS, ["a"], seed=2)
    g.state.out = frozenset({1, 2, 3, 4, 5})
    assert g.may_restore() == 2
    with pytest.raises(IllegalActionError, match="exactly 2"):
        g.restore([1])
    with pytest.raises(IllegalActionError):
        g.restore([1, 12])
    g.restore([1, 2])
    assert g.state.out == {3, 4, 5}
    assert g.may_restore() == 0


def test_bonuses() -> None:
    card = {f"n{k}": 2 * k for k in range(7, 13)}
    assert RS.bonus_points(card)["bonus_7_12"] == 50
    card["n12"] = 12
    assert RS.bonus_points(card)["bonus_7_12"] == 0
    upper = {"n1": 3, "n2": 6, "n3": 9, "n4": 12, "n5": 15, "n6": 18}
    assert RS.bonus_points(upper)["bonus"] == 50
    assert get_ruleset("dozzy", bonus_1_6_strict=True).bonus_points(upper)["bonus"] == 0


@pytest.mark.parametrize(("dice", "out"), [
    ((2, 2, 2, 2, 6), {6}),          # four 2s and a dead 6 are not a Yatzy
    ((2, 3, 3, 3, 4), {3, 4}),       # one live die is not "all equal"
    ((3, 3, 4, 4, 6), {3, 4, 9}),
    ((5, 5, 5, 5, 5), {5}),          # five equal dice whose tile is out
])
def test_yatzy_needs_five_equal_dice_in_play(dice: tuple[int, ...], out: set[int]) -> None:
    assert RS.score("yatzy", dice, frozenset(out)) == 0
    g = Game(RS, ["a"], seed=1)
    g.state.out = frozenset(out)
    play_roll(g, dice)
    assert g.score_options()["yatzy"] == 0


def test_yatzy_and_full_house_with_every_face_in_play() -> None:
    assert RS.score("yatzy", (5, 5, 5, 5, 5), frozenset({6, 9})) == 50
    assert RS.score("full_house", (2, 2, 2, 3, 3), frozenset({6})) == 12
    assert RS.score("full_house", (2, 2, 2, 3, 3), frozenset({3})) == 0
    out, back = RS.tile_moves("yatzy", (5, 5, 5, 5, 5), frozenset({6, 9}))
    assert out == {5} and back == [frozenset()]


def test_a_restore_is_refused_unless_it_brings_back_exactly_the_tiles_that_leave_three_out() -> None:
    """docs/rules.md: with 4 or more tiles out a player may, before the turn's first roll,
    bring back tiles that are out until 3 remain; otherwise none may come back."""
    with pytest.raises(IllegalActionError, match="^tiles may come back only before the first roll of a turn "
                                                 "with 4 or more out$"):
        checks.restore(0, (1,), frozenset({1, 2, 3}))
    for out in (frozenset({2, 4, 6, 8}), frozenset({1, 3, 5, 7, 9})):
        may = len(out) - 3
        tiles = "tile" if may == 1 else "tiles"
        words = (f"bring back exactly {may} {tiles} of those that are out "
                 f"({' '.join(map(str, sorted(out)))}), leaving 3 out")
        twice = [(min(out),) * may] if may > 1 else []  # the right count, but one tile named twice
        ordered = tuple(sorted(out))
        for wrong in ((10,) * may, ordered[: may + 1], (*ordered[: may - 1], 12), *twice):
            with pytest.raises(IllegalActionError) as refused:
                checks.restore(may, wrong, out)
            assert str(refused.value) == words
        right = tuple(sorted(out))[:may]
        assert checks.restore(may, right, out) == frozenset(right)


def test_tile_returns_refusals_write_the_scores_to_type() -> None:
    two = [frozenset({4, 5}), frozenset({9})]
    both = f"{Score('n3', (4, 5))} or {Score('n3', (9,))}"
    with pytest.raises(IllegalActionError) as refused:
        checks.tile_returns("n3", two, None)
    assert str(refused.value) == f"choose which tiles come back: {both}"
    for wrong, words in (((7,), "tile 7"), ((8, 7), "tiles 7 8")):
        with pytest.raises(IllegalActionError) as refused:
            checks.tile_returns("n3", two, wrong)
        assert str(refused.value) == f"{words} cannot come back with this score; choose {both}"
    assert checks.tile_returns("n3", two, (9,)) == frozenset({9})
    with pytest.raises(IllegalActionError) as refused:
        checks.tile_returns("n3", [frozenset({9})], (4,))
    assert str(refused.value) == f"tile 4 cannot come back with this score; choose {Score('n3')}"
    assert checks.tile_returns("n3", [frozenset({9})], None) == frozenset({9})
    with pytest.raises(IllegalActionError) as refused:
        checks.tile_returns("n3", [frozenset()], (4,))
    assert str(refused.value) == f"no tiles come back with this score: write {Score('n3')}"


def test_tiles_are_whole_numbers_1_to_12() -> None:
    from yatzy.errors import InvalidActionError
    from yatzy.rules import check_tiles

    assert check_tiles([12, 1, 12]) == frozenset({1, 12})
    for tiles, first_bad in (([3, 13, 0], 13), ([0], 0), ([True], True), ([5, "7"], "7"), ([2.0], 2.0)):
        with pytest.raises(InvalidActionError) as refused:
            check_tiles(tiles)
        assert str(refused.value) == f"tiles are numbered 1 to 12, not “{first_bad}”"


def test_the_card_has_a_section_per_bonus_and_the_lower_boxes_after_them() -> None:
    """docs/rules.md: rows 1-6 and rows 7-12 each earn their own bonus; a card's sections (the
    sheets draw a line between them, the bots weigh the lower boxes apart) run in card order,
    each bonus counting exactly one section's boxes, and the boxes no bonus counts come last."""
    from itertools import groupby
    from typing import get_args

    from yatzy.rules import Section

    rs = get_ruleset("dozzy")  # built here, not at import: the test reads the card as built now
    assert all(box.section in get_args(Section) for box in rs.categories)
    sections = [(section, [box.id for box in boxes])
                for section, boxes in groupby(rs.categories, key=lambda box: box.section)]
    assert len({section for section, _ in sections}) == len(sections) == len(rs.bonuses) + 1
    for (_, ids), bonus in zip(sections, rs.bonuses, strict=False):
        assert list(bonus.categories) == ids
    assert [f"n{k}" for k in range(1, 13)] == [c for b in rs.bonuses for c in b.categories]
    assert sections[-1][0] == "lower"

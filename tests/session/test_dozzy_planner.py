"""The DOZZY planner: legal moves only, the same game from the same seed, one plan a turn,
and a position where it provably does better than the heuristic."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from yatzy.bots import DozzyBot, make_bot, play_solo
from yatzy.dice import Dice, all_rolls, probability, sub_multisets
from yatzy.dozzy_bot import DozzyPlanner
from yatzy.dozzy_tables import mask_of, tables
from yatzy.game import Action, Game, Restore, Roll, Score
from yatzy.registry import get_ruleset

RS = get_ruleset("dozzy")


def key(game: Game, action: Action) -> tuple[object, ...]:
    """An action as the engine tells it apart (a lone way to bring tiles back may go unsaid)."""
    if isinstance(action, Score):
        returns = game.tile_moves(action.category)[1][0] if action.returns is None else action.returns
        return ("s", action.category, frozenset(returns))
    if isinstance(action, Roll):
        return ("r", tuple(sorted(action.keep)))
    assert isinstance(action, Restore)
    return ("b", tuple(sorted(action.tiles)))


def play_checked(game: Game, levels: list[str]) -> tuple[Game, int]:
    """Play ``game`` out, each move checked against the legal ones; the restores made."""
    bots = [make_bot(level, game.ruleset, seed=i) for i, level in enumerate(levels)]
    restores = 0
    while not game.is_over:
        action = bots[game.state.current].act(game)
        legal = {key(game, a) for a in game.legal_actions()}
        assert key(game, action) in legal, (str(action), game.state)
        restores += isinstance(action, Restore)
        game.play(action)
    return game, restores


@pytest.mark.slow
@pytest.mark.parametrize("levels", [["planner"], ["planner", "dozzy", "planner"]])
def test_every_move_is_legal_through_whole_games(levels: list[str]) -> None:
    seats = [f"{level} {i}" for i, level in enumerate(levels)]
    game, _ = play_checked(Game(RS, seats, seed=11), levels)
    assert all(len(p.card) == RS.turns for p in game.state.players)


@pytest.mark.slow
def test_legal_with_house_rules_and_tiles_brought_back() -> None:
    rs = get_ruleset("dozzy", must_keep_one=True, sum_tiles_need_faces=True, bonus_1_6_strict=True)
    game, restores = play_checked(Game(rs, ["a", "b", "c"], seed=5), ["planner"] * 3)
    assert game.is_over and restores > 0  # the game passed through boards of 4+ tiles out


@pytest.mark.slow
def test_the_same_seed_plays_the_same_game() -> None:
    one = Game(RS, ["p"], seed=3)
    two = Game(RS, ["p"], seed=3)
    for game in (one, two):
        play_checked(game, ["planner"])
    assert [str(a) for a in one.log] == [str(a) for a in two.log]
    assert play_solo(RS, make_bot("planner", RS, seed=1), 4) == \
        play_solo(RS, make_bot("planner", RS, seed=2), 4)


@pytest.mark.slow
def test_a_decision_makes_at_most_one_plan_and_a_turn_exactly_one() -> None:
    bot = DozzyPlanner(RS)
    game = Game(RS, ["p"], seed=8)
    per_turn: dict[int, int] = {}
    while not game.is_over:
        before, turn = bot.plans, len(game.player.card)
        game.play(bot.act(game))
        assert bot.plans - before in (0, 1)
        per_turn[turn] = per_turn.get(turn, 0) + bot.plans - before
    assert per_turn == {t: 1 for t in range(RS.turns)}


@pytest.mark.slow
@pytest.mark.parametrize(("out", "need_faces"), [({1}, False), ({3, 5, 6, 9, 12}, True)])
def test_the_tables_score_every_roll_as_the_rules_do(out: set[int], need_faces: bool) -> None:
    rs = get_ruleset("dozzy", sum_tiles_need_faces=need_faces)
    t = tables(rs)
    got = t.board(mask_of(out))
    for r, dice in enumerate(t.rolls):
        for c, cat in enumerate(rs.categories):
            tiles, rest = rs.used_dice(cat.id, dice, frozenset(out))  # type: ignore[attr-defined]
            assert (got.points[r, c], got.used[r, c], t.keeps[got.unused[r, c]]) == (
                rs.score(cat.id, dice, frozenset(out)), mask_of(tiles), rest), (dice, cat.id)


def expected(box: str, keep: tuple[int, ...], out: frozenset[int]) -> float:
    """The exact expected points of ``box`` after one more roll of the dice not kept."""
    return sum(probability(rest) * RS.score(box, tuple(sorted(keep + rest)), out)
               for rest in all_rolls(RS.dice - len(keep)))


def last_box_position() -> Game:
    """Chance is the last box, tile 6 is out, 1 1 6 6 6 is on the table with one roll left."""
    game = Game(RS, ["p"], seed=1)
    game.state.players[0].card = {c: 0 for c in RS.category_ids if c != "chance"}
    game.state.out = frozenset({6})
    game.state.dice = (1, 1, 6, 6, 6)
    game.state.rolls_used = 2
    return game


def test_it_provably_beats_the_heuristic_where_the_board_decides() -> None:
    game = last_box_position()
    out = game.state.out
    mine, theirs = DozzyPlanner(RS).act(game), DozzyBot().act(game)
    assert isinstance(mine, Roll) and isinstance(theirs, Roll)
    # the sixes count nothing with tile 6 out: the heuristic keeps the ones (9.5 expected),
    # the planner rolls all five again (12.5), the best of every keep
    best = max(expected("chance", k, out) for k in game.legal_keeps())
    assert expected("chance", mine.keep, out) == pytest.approx(best) == pytest.approx(12.5)
    assert expected("chance", theirs.keep, out) == pytest.approx(9.5)


def last_turn(worth: Callable[[Dice], float]) -> float:
    """The exact expected worth of a whole last turn (three rolls) played for ``worth``."""
    keeps = {k for size in range(RS.dice) for k in all_rolls(size)} | {()}
    value: dict[Dice, float] = {r: worth(r) for r in all_rolls(RS.dice)}
    for _ in range(RS.rolls_per_turn - 1):
        after = {k: sum(probability(x) * value[tuple(sorted(k + x))]
                        for x in all_rolls(RS.dice - len(k))) for k in keeps}
        value = {r: max([worth(r)] + [after[k] for k in sub_multisets(r)[:-1]]) for r in value}
    return sum(probability(r) * v for r, v in value.items())


def test_it_scores_the_last_sum_row_perfect_for_the_bonus() -> None:
    """Rows 7-11 perfect, 6 6 6 6 1 on the table at the turn's end, Twelves and Four of a
    Kind open: Twelves now earns the 50-point bonus, and the exact last turns say it is
    worth more than Four of a Kind now (the board each leaves counted)."""
    game = Game(RS, ["p"], seed=1)
    card = {c: 0 for c in RS.category_ids if c not in ("n12", "four_of_a_kind")}
    card.update({f"n{k}": 2 * k for k in range(7, 12)})
    game.state.players[0].card = card
    game.state.dice = (1, 6, 6, 6, 6)
    game.state.rolls_used = 3
    twelves_now = 24 + 50 + last_turn(lambda r: RS.score("four_of_a_kind", r, frozenset({12})))
    after = frozenset({6})
    fours_now = 24 + last_turn(lambda r: (s := RS.score("n12", r, after)) + 50 * (s == 24))
    assert twelves_now > fours_now + 30
    assert DozzyPlanner(RS).act(game) == Score("n12", ())


def test_off_a_board_the_level_plays_the_heuristic() -> None:
    assert isinstance(make_bot("planner", get_ruleset("yatzy")), DozzyBot)
    assert isinstance(make_bot("planner", RS), DozzyPlanner)
    with pytest.raises(ValueError):
        DozzyPlanner(get_ruleset("yatzy"))

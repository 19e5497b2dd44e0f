"""Seat order with three or more players: 0 -> 1 -> ... -> n-1 -> 0, checked turn by turn.

Each game is driven one action at a time and the seat is compared with the number of
turns completed so far (scores logged), not with a replay of the same engine.
"""

from __future__ import annotations

import pytest

from yatzy.bots import GreedyBot, RandomBot
from yatzy.errors import IllegalActionError, InvalidActionError
from yatzy.game import Game, Restore, Roll, Score
from yatzy.registry import get_ruleset


def drive(game: Game, bots: list[GreedyBot | RandomBot]) -> tuple[list[int], int]:
    """Play the game to the end checking the seat before and after every action.

    Returns the seat that scored each turn, in order, and how many DOZZY restores happened.
    """
    n = len(game.state.players)
    first = game.first
    assert game.state.current == first
    scorers: list[int] = []
    restores = 0
    while not game.is_over:
        turn = len(scorers)
        seat = (first + turn) % n
        assert game.state.current == seat, f"turn {turn}: seat {game.state.current}, expected {seat}"
        assert game.player is game.state.players[seat]
        before = [len(p.card) for p in game.state.players]
        action = bots[seat].act(game)
        game.play(action)
        after = [len(p.card) for p in game.state.players]
        if isinstance(action, Score):
            # exactly the seat whose turn it was filled one box; nobody else did
            assert after == [b + (i == seat) for i, b in enumerate(before)]
            assert before[seat] == turn // n, "a seat got a turn twice in one round"
            scorers.append(seat)
            assert game.state.current == (first + turn + 1) % n or game.is_over
        else:
            assert after == before
            assert game.state.current == seat, f"a {type(action).__name__} moved the seat"
            restores += isinstance(action, Restore)
    assert len(scorers) == game.ruleset.turns * n
    return scorers, restores


CASES = [
    ("yatzy", {}, 3), ("yatzy", {}, 5), ("forced", {"order": "up"}, 4), ("kids", {}, 9),
    ("yahtzee", {}, 3), ("osto", {}, 3), ("maxi", {}, 3), ("maxi", {"saved_rolls": False}, 4),
    ("dozzy", {}, 3), ("dozzy", {}, 4),
]


@pytest.mark.parametrize("name,opts,n", CASES, ids=[f"{c[0]}-{c[2]}p-{i}" for i, c in enumerate(CASES)])
def test_seats_rotate_in_order_over_whole_games(name: str, opts: dict[str, object], n: int) -> None:
    rs = get_ruleset(name, **opts)
    restored = 0
    for seed in (1, 2, 3):
        bots: list[GreedyBot | RandomBot] = [
            RandomBot(seed * 10 + i) if (i + seed) % 2 else GreedyBot() for i in range(n)]
        game = Game(rs, [f"p{i}" for i in range(n)], seed=seed)
        scorers, restores = drive(game, bots)
        assert scorers == list(range(n)) * rs.turns
        assert all(len(p.card) == rs.turns for p in game.state.players)
        restored += restores
    assert restored > 0 or name != "dozzy", "no DOZZY game restored tiles: the seat was not checked there"


@pytest.mark.parametrize("first", [1, 2, 3])
def test_a_chosen_starter_then_the_seats_in_order(first: int) -> None:
    rs = get_ruleset("kids")
    game = Game(rs, ["a", "b", "c", "d"], seed=first, first=first)
    scorers, _ = drive(game, [GreedyBot() for _ in range(4)])
    assert scorers == [(first + i) % 4 for i in range(4)] * rs.turns


def test_roll_off_winner_starts_then_the_seats_in_order() -> None:
    rs = get_ruleset("kids")
    starters = set()
    for seed in range(12):
        game = Game(rs, ["a", "b", "c"], seed=seed, roll_off=True)
        last = game.roll_offs[-1]
        assert max(last.values()) == last[game.first]
        assert list(last.values()).count(last[game.first]) == 1  # ties rolled again
        starters.add(game.first)
        scorers, _ = drive(game, [GreedyBot() for _ in range(3)])
        assert scorers == [(game.first + i) % 3 for i in range(3)] * rs.turns
    assert starters == {0, 1, 2}


def test_dozzy_restore_keeps_the_seat() -> None:
    g = Game("dozzy", ["a", "b", "c"], seed=5)
    g.apply(Roll((), (1, 1, 2, 2, 3)))
    g.apply(Score("chance"))
    assert g.state.current == 1
    g.state.out = frozenset({1, 2, 3, 4, 5})
    g.apply(Restore((1, 2)))
    assert g.state.current == 1
    g.apply(Roll((), (6, 6, 6, 6, 6)))
    g.apply(Score("chance"))
    assert g.state.current == 2
    assert [len(p.card) for p in g.state.players] == [1, 1, 0]


def test_saved_rolls_do_not_give_a_second_turn() -> None:
    g = Game("osto", ["a", "b", "c"], seed=7)
    for turn in range(7):
        assert g.state.current == turn % 3
        g.roll()
        g.score(g.ruleset.open_categories(g.player.card)[0])  # stop after one roll: bank grows
    assert [p.bank for p in g.state.players] == [6, 4, 4]


def test_player_field_names_the_seat_in_turn() -> None:
    g = Game("yatzy", ["a", "b", "c"], seed=3)
    for turn in range(7):
        seat = turn % 3
        for other in {0, 1, 2} - {seat}:
            with pytest.raises(IllegalActionError, match=f"it is player {seat}"):
                g.apply(Roll((), (1, 2, 3, 4, 5), player=other))
        g.apply(Roll((), (1, 2, 3, 4, 5), player=seat))
        g.apply(Score(g.ruleset.category_ids[turn // 3], player=seat))
    assert [len(p.card) for p in g.state.players] == [3, 2, 2]


def test_undo_across_the_wrap_returns_to_the_last_seat() -> None:
    g = Game("yatzy", ["a", "b", "c"], seed=8)
    for _ in range(3):
        g.roll()
        g.score("chance" if "chance" not in g.player.card else "ones")
    assert g.state.current == 0
    g.undo()
    assert g.state.current == 2 and "chance" not in g.state.players[2].card
    g.score("ones")
    assert g.state.current == 0


@pytest.mark.parametrize("first", [-1, 3, True, "1", 1.0])
def test_the_starter_must_be_a_seat(first: object) -> None:
    with pytest.raises(InvalidActionError) as refused:
        Game("kids", ["a", "b", "c"], seed=1, first=first)  # type: ignore[arg-type]
    assert str(refused.value) == "the first player is a seat number from 0 to 2"


def test_the_starter_may_be_any_seat() -> None:
    assert [Game("kids", ["a", "b", "c"], seed=1, first=f).state.current for f in (0, 1, 2)] == [0, 1, 2]
    with pytest.raises(InvalidActionError) as refused:
        Game("kids", ["a", "b", "c"], seed=1, first=1, roll_off=True)
    assert str(refused.value) == "give a roll-off or a first player, not both"


def _starter_games() -> list[Game]:
    """A game with a chosen starter and one whose roll-off was not won by seat 0."""
    rolled = next(g for s in range(50) if (g := Game("kids", ["a", "b", "c"], seed=s, roll_off=True)).first)
    return [Game("kids", ["a", "b", "c"], seed=4, first=2), rolled]


@pytest.mark.parametrize("which", ["chosen", "roll-off"])
def test_undo_keeps_the_starter_and_the_order(which: str) -> None:
    g = _starter_games()[which == "roll-off"]
    first, offs = g.first, list(g.roll_offs)
    g.roll()
    dice = g.state.dice
    g.score("ones")
    g.undo()
    assert (g.first, g.roll_offs, g.state.current, g.state.dice) == (first, offs, first, dice)
    g.score("twos")
    for turn in range(1, 7):
        assert g.state.current == (first + turn) % 3
        g.roll()
        g.score(g.ruleset.open_categories(g.player.card)[0])


@pytest.mark.parametrize("which", ["chosen", "roll-off"])
def test_a_loaded_game_keeps_the_starter_and_the_order(which: str) -> None:
    g = _starter_games()[which == "roll-off"]
    for _ in range(4):
        g.roll()
        g.score(g.ruleset.open_categories(g.player.card)[0])
    loaded = Game.from_json(g.to_json())
    assert (loaded.first, loaded.roll_offs, loaded.state) == (g.first, g.roll_offs, g.state)
    for turn in range(4, 9):
        assert loaded.state.current == (g.first + turn) % 3
        assert loaded.roll() == g.roll()
        box = loaded.ruleset.open_categories(loaded.player.card)[0]
        loaded.score(box)
        g.score(box)

"""legal_actions() against the engine: every listed action applies, anything else is refused
and changes nothing; outcome(), seats, roll-off and the save formats."""

from __future__ import annotations

import json
import random

import pytest

from yatzy.actions import Action, Restore, Roll, Score, parse_action
from yatzy.errors import IllegalActionError, InvalidActionError
from yatzy.game import Game, Seat, Termination
from yatzy.registry import RULESETS, get_ruleset


def snapshot(game: Game) -> tuple[str, str]:
    return game.to_json(), repr(game.state)


def random_candidate(game: Game, rng: random.Random) -> Action:
    """An action of any shape, legal or not."""
    rs = game.ruleset
    kind = rng.random()
    if kind < 0.4:
        return Roll(tuple(sorted(rng.randint(1, 6) for _ in range(rng.randint(0, rs.dice)))))
    if kind < 0.85:
        cat = rng.choice(rs.category_ids)
        if rs.uses_board and rng.random() < 0.7:
            return Score(cat, tuple(sorted(rng.sample(range(1, 13), rng.randint(0, 3)))))
        return Score(cat)
    return Restore(tuple(sorted(rng.sample(range(1, 13), rng.randint(1, 4)))))


def listed(game: Game, action: Action, legal: list[Action]) -> bool:
    """Whether the action is in the list; a DOZZY score naming the only tile choice counts
    as the listed score without one."""
    if action in legal:
        return True
    if isinstance(action, Score) and action.returns is not None and Score(action.category) in legal:
        return frozenset(action.returns) == game.tile_moves(action.category)[1][0]
    return False


@pytest.mark.slow
@pytest.mark.parametrize("name", RULESETS)
def test_legal_actions_apply_and_nothing_else_does(name: str) -> None:
    rng = random.Random(name)
    for g in range(4):
        game = Game(get_ruleset(name), ["a", "b", "c"][: 1 + g % 3], seed=rng.randrange(2**32))
        while not game.is_over:
            legal = game.legal_actions()
            assert legal, "a running game always has a legal action"
            assert len(set(legal)) == len(legal)
            before = snapshot(game)
            for action in rng.sample(legal, min(len(legal), 6)):
                trial = game.clone()
                trial.play(action)
                assert len(trial.log) == len(game.log) + 1
            assert snapshot(game) == before, "a clone shares nothing mutable with its game"
            for _ in range(10):
                action = random_candidate(game, rng)
                if listed(game, action, legal):
                    continue
                with pytest.raises((IllegalActionError, InvalidActionError)):
                    game.play(action)
                assert snapshot(game) == before, action
            game.play(rng.choice(legal))
        assert game.legal_actions() == []


def test_legal_actions_before_a_dozzy_turn_with_tiles_out() -> None:
    game = Game("dozzy", ["a"], seed=1)
    game.state.out = frozenset({1, 2, 3, 4, 5})
    legal = game.legal_actions()
    assert Roll() in legal
    restores = [a for a in legal if isinstance(a, Restore)]
    assert len(restores) == 10 and Restore((4, 5)) in restores


def test_notation_round_trips() -> None:
    for text in ("r", "k 335", "s two_pairs", "s n3 4 5", "s n3 -", "b 11 12"):
        action = parse_action(text)
        assert str(action) == text
        assert eval(repr(action)) == action  # noqa: S307
    assert parse_action("keep 3 3 5") == Roll((3, 3, 5)) == Roll.parse("K 533")
    assert parse_action("score chance") == Score("chance")
    assert parse_action("back 12,11") == Restore((12, 11))
    for bad, match in (("", "not an action"), ("x 12", "not an action"), ("k 7", "die face"),
                       ("k", "name the dice"), ("s", "name the box"), ("b 13", "1 to 12"),
                       ("r 335", "k 335")):
        with pytest.raises(InvalidActionError, match=match):
            parse_action(bad)
    with pytest.raises(InvalidActionError):
        Score.parse("r")


def test_every_legal_action_prints_and_parses_back() -> None:
    game = Game("dozzy", ["a"], seed=3)
    game.state.out = frozenset({4, 5, 9})
    game.apply(Roll((), (3, 3, 3, 4, 5)))
    for action in game.legal_actions():
        assert parse_action(str(action)) == action
    assert Score("n3", (9,)) in game.legal_actions() and Score("n3", (4, 5)) in game.legal_actions()


def test_outcome_with_a_tie() -> None:
    game = Game("kids", ["Ann", "Bo", "Cy"], seed=2)
    assert game.outcome() is None
    for face in (1, 2, 3, 4, 5, 6):
        for dice in ((face,) * 5, (face,) * 5, (face,) * 4 + (face % 6 + 1,)):
            game.apply(Roll((), dice))
            game.score(("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1])
    outcome = game.outcome()
    assert outcome is not None and outcome.termination is Termination.COMPLETED
    assert outcome.winners == (0, 1)
    assert [(s.name, s.total, s.rank) for s in outcome.standings] == [
        ("Ann", 155, 1), ("Bo", 155, 1), ("Cy", 134, 3)]


def test_seats_survive_save_and_load() -> None:
    seats = [Seat("Ann"), Seat.bot("optimal"), Seat("Bo"), Seat.bot("casual", "Robo")]
    game = Game("yatzy", seats, seed=5, roll_off=True)
    game.roll()
    data = json.loads(game.to_json())
    assert data["format"] == 2
    assert data["seats"][3] == {"name": "Robo", "kind": "bot", "level": "casual"}
    loaded = Game.from_json(game.to_json())
    assert loaded.seats == game.seats and loaded.state == game.state
    assert loaded.first == game.first and loaded.roll_offs == game.roll_offs


def test_version_1_saves_load() -> None:
    v1 = {"format": 1, "rules": "yatzy", "options": {}, "players": ["Me", "greedy (bot)"],
          "seed": 4, "log": []}
    game = Game("yatzy", ["Me", "Greedy bot"], seed=4)
    game.roll()
    game.score("chance")
    game.roll()
    v1["log"] = json.loads(game.to_json())["log"]
    loaded = Game.from_dict(v1)
    assert loaded.seats == (Seat("Me"), Seat("Greedy bot", "bot", "greedy"))
    assert loaded.state == game.state


def test_roll_off_highest_starts_ties_roll_again() -> None:
    starts = set()
    tied = 0
    for seed in range(200):
        game = Game("yatzy", ["a", "b", "c"], seed=seed, roll_off=True)
        last = game.roll_offs[-1]
        top = max(last.values())
        assert [i for i, d in last.items() if d == top] == [game.first]
        assert game.state.current == game.first
        for earlier, later in zip(game.roll_offs, game.roll_offs[1:], strict=False):
            best = max(earlier.values())
            assert set(later) == {i for i, d in earlier.items() if d == best} and len(later) > 1
        tied += len(game.roll_offs) > 1
        starts.add(game.first)
    assert starts == {0, 1, 2} and tied > 0
    assert Game("yatzy", ["solo"], seed=1, roll_off=True).roll_offs == []


def test_turn_order_after_a_roll_off_wraps_around() -> None:
    games = (Game("kids", ["a", "b", "c"], seed=s, roll_off=True) for s in range(50))
    game = next(g for g in games if g.first == 2)
    order = []
    while not game.is_over:
        order.append(game.state.current)
        game.roll()
        game.score(next(iter(game.score_options())))
    assert order == [2, 0, 1] * 6


def test_seat_shapes() -> None:
    assert Seat.parse("bot:Optimal") == Seat("Optimal bot", "bot", "optimal")
    assert Seat.parse(" Ann ") == Seat("Ann")
    assert Seat.parse(str(Seat.bot("casual", "Robo"))) == Seat.bot("casual", "Robo")
    for bad in (lambda: Seat(""), lambda: Seat("x", "cat"), lambda: Seat("x", "bot"),  # type: ignore[arg-type]
                lambda: Seat("x", "person", "optimal")):
        with pytest.raises(InvalidActionError):
            bad()


def test_a_chosen_first_player_survives_undo_and_save() -> None:
    game = Game("kids", ["a", "b", "c"], seed=8, first=1)
    assert game.state.current == 1 and game.first == 1
    game.roll()
    game.score("chance" if "chance" in game.score_options() else "ones")
    assert game.last_mover() == 1 and game.movers == [1, 1]
    game.undo()
    assert game.first == 1 and game.state.current == 1
    loaded = Game.from_json(game.to_json())
    assert loaded.first == 1 and loaded.state == game.state and loaded.movers == game.movers
    with pytest.raises(InvalidActionError, match="0 to 2"):
        Game("kids", ["a", "b", "c"], first=3)
    with pytest.raises(InvalidActionError, match="not both"):
        Game("kids", ["a", "b"], first=1, roll_off=True)


def test_rolls_split_spends_the_turns_own_rolls_first() -> None:
    game = Game("osto", ["a"], seed=2)
    game.roll()
    game.score("chance")
    assert game.rolls_split() == (3, 2)
    game.roll()
    game.roll(game.state.dice[:1])
    assert game.rolls_split() == (1, 2)
    game.roll(game.state.dice[:1])
    game.roll(game.state.dice[:1])
    assert game.rolls_split() == (0, 1)
    assert Game("yatzy", ["a"]).rolls_split() == (3, 0)

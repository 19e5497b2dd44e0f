"""Scorekeeper games: people at a real table type the dice they threw; the engine keeps the
sheet, refuses what the rules forbid, and records corrections of earlier turns."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from yatzy.actions import Roll, Score, parse_action
from yatzy.dice import is_submultiset
from yatzy.errors import IllegalActionError, InvalidActionError, YatzyError
from yatzy.events import Amended
from yatzy.game import Game
from yatzy.registry import VARIANTS
from yatzy.scorekeeping import Round, correction, correction_boxes, correction_returns, round_boxes, rounds
from yatzy.session import Session
from yatzy.views import game_view

FIVE = list(itertools.combinations_with_replacement(range(1, 7), 5))


def typed_game(rules: str, seed: int, players: int = 2, turns: int | None = None) -> Game:
    """A scorekeeper game, whole or its first ``turns`` turns: random throws typed in, random
    legal boxes."""
    rng = random.Random(seed)
    game = Game(rules, [f"P{i}" for i in range(players)], dice_from="players")
    while not game.is_over and (turns is None or len(rounds(game)) < turns):
        n = game.may_restore()
        if n:
            game.apply(rng.choice([a for a in game.legal_actions() if not isinstance(a, Roll)]))
        throws = rng.randint(1, min(3, game.rolls_left))
        for _ in range(throws):
            dice = [rng.randint(1, 6) for _ in range(game.ruleset.dice)]
            action = game.roll_reaching(dice)
            if game.ruleset.must_keep_one and not action.keep and game.state.dice is not None:
                break
            game.apply(action)
            assert game.state.dice == tuple(sorted(dice))
        game.apply(rng.choice([a for a in game.legal_actions() if isinstance(a, Score)]))
    return game


@pytest.mark.slow
def test_roll_reaching_every_pair_of_rolls() -> None:
    """Exhaustive over every five-dice table and every typed throw: the roll found gives
    exactly the typed dice, keeps only dice that were on the table, and never keeps all."""
    for before in FIVE:
        game = Game("yatzy", ["A"], dice_from="players")
        game.apply(Roll((), before))
        for after in FIVE:
            roll = game.roll_reaching(after)
            assert roll.result is not None
            assert tuple(sorted(roll.keep + roll.result)) == after
            assert is_submultiset(roll.keep, before) and len(roll.keep) < 5
            twin = game.clone()
            twin.apply(roll)
            assert twin.state.dice == after


def test_the_first_throw_keeps_nothing_and_wrong_counts_are_refused() -> None:
    game = Game("maxi", ["A"], dice_from="players")
    assert game.roll_reaching([6, 1, 1, 2, 3, 4]) == Roll((), (1, 1, 2, 3, 4, 6))
    with pytest.raises(InvalidActionError, match="6 dice; you typed 5"):
        game.roll_reaching([1, 2, 3, 4, 5])
    with pytest.raises(InvalidActionError):
        game.roll_reaching([1, 2, 3, 4, 5, 7])


@pytest.mark.parametrize("rules", [v.name for v in VARIANTS])
def test_whole_typed_games_of_every_ruleset_save_and_load(rules: str) -> None:
    for seed in range(3):
        game = typed_game(rules, seed)
        assert game.is_over and game.outcome() is not None
        data = json.loads(game.to_json())
        assert data["dice_from"] == "players"
        back = Game.from_json(json.dumps(data))
        assert back.dice_from == "players"
        assert back.log == game.log and back.totals() == game.totals()


def test_a_scorekeeper_game_never_rolls_by_itself() -> None:
    game = Game("yatzy", ["A", "B"], dice_from="players")
    with pytest.raises(InvalidActionError, match="type the dice you threw"):
        game.play(Roll())
    assert game.log == []
    session = Session(game)
    with pytest.raises(InvalidActionError, match="type the dice you threw"):
        session.act("r")
    session.act(game.roll_reaching([6, 6, 6, 6, 6]))
    assert game_view(game).dice_from == "players"
    assert "s yatzy" in game_view(game).legal_actions
    # a seeded game still refuses typed dice from a person
    seeded = Session(Game("yatzy", ["A"], seed=1))
    with pytest.raises(InvalidActionError, match="the game throws the rest"):
        seeded.act(Roll((), (6, 6, 6, 6, 6)))


def test_typed_dice_can_be_taken_back_but_seeded_dice_cannot() -> None:
    game = Game("yatzy", ["A"], dice_from="players")
    session = Session(game)
    session.act(Roll((), (1, 2, 3, 4, 4)))
    assert game_view(game).last is not None and game_view(game).last.undoable  # type: ignore[union-attr]
    session.undo()
    assert game.log == [] and game.state.dice is None
    seeded = Session(Game("yatzy", ["A"], seed=3))
    seeded.act("r")
    with pytest.raises(IllegalActionError, match="cannot be undone"):
        seeded.undo()


def test_no_roll_off_in_a_scorekeeper_game() -> None:
    with pytest.raises(InvalidActionError, match="name the first player"):
        Game("yatzy", ["A", "B"], roll_off=True, dice_from="players")
    assert Game("yatzy", ["A", "B"], first=1, dice_from="players").state.current == 1
    with pytest.raises(InvalidActionError, match="“server” or the “players”"):
        Game("yatzy", ["A"], dice_from="table")


def _turn(dice: tuple[int, ...], box: str) -> list[Roll | Score]:
    return [Roll((), dice), Score(box)]


def test_correcting_an_earlier_turn_changes_the_totals_and_is_recorded() -> None:
    game = Game("yatzy", ["A", "B"], dice_from="players")
    for action in [*_turn((6, 6, 6, 6, 6), "yatzy"), *_turn((1, 1, 2, 3, 4), "ones"),
                   *_turn((5, 5, 5, 2, 2), "full_house"), *_turn((2, 2, 2, 3, 4), "twos")]:
        game.apply(action)
    assert game.totals() == [50 + 19, 2 + 6]
    assert [(t.player, t.start, t.stop) for t in game.turns()] == [(0, 0, 2), (1, 2, 4), (0, 4, 6), (1, 6, 8)]
    amended = game.amend(0, _turn((6, 6, 6, 6, 5), "chance"))
    assert game.totals() == [29 + 19, 8]
    assert game.player.name == "A" and len(game.log) == 8
    assert amended.old == (Roll((), (6, 6, 6, 6, 6)), Score("yatzy"))
    assert game.amendments == [amended]
    back = Game.from_json(game.to_json())
    assert back.amendments == game.amendments and back.totals() == game.totals()


def test_a_correction_that_breaks_a_later_turn_changes_nothing() -> None:
    game = Game("yatzy", ["A"], dice_from="players")
    for action in [*_turn((6, 6, 6, 6, 6), "yatzy"), *_turn((1, 2, 3, 4, 5), "small_straight")]:
        game.apply(action)
    before = (list(game.log), game.totals())
    with pytest.raises(IllegalActionError, match="^a later round no longer fits the correction: "):
        game.amend(0, _turn((1, 2, 3, 4, 6), "small_straight"))  # the box turn 2 filled
    with pytest.raises(IllegalActionError, match="^the corrected round: "):
        game.amend(1, [Roll((), (1, 2, 3, 4, 6)), Score("yatzy")])  # the box turn 1 filled
    with pytest.raises(InvalidActionError, match="ends with one score"):
        game.amend(0, [Roll((), (1, 2, 3, 4, 6))])
    with pytest.raises(IllegalActionError, match="2 finished turns"):
        game.amend(2, _turn((1, 2, 3, 4, 6), "chance"))
    assert (game.log, game.totals()) == before and game.amendments == []
    seeded = Game("yatzy", ["A"], seed=1)
    seeded.roll()
    seeded.score("chance")
    with pytest.raises(IllegalActionError, match="^only a scorekeeper game's turns can be corrected$"):
        seeded.amend(0, _turn((6, 6, 6, 6, 6), "chance"))


def test_a_correction_reckons_later_bonuses_again() -> None:
    """Yahtzee: a second Yahtzee earns 100 only while the first one stands in its box."""
    game = Game("yahtzee", ["A"], dice_from="players")
    for action in [*_turn((3, 3, 3, 3, 3), "yahtzee"), *_turn((4, 4, 4, 4, 4), "fours")]:
        game.apply(action)
    assert game.totals() == [50 + 20 + 100]
    session = Session(game)
    events = session.amend(0, ["r = 33332", "s chance"])
    assert isinstance(events[0], Amended) and events[0].round == 1
    assert events[0].old == ("r = 33333", "s yahtzee") and events[0].new == ("r = 23333", "s chance")
    assert events[0].totals == (14 + 20,)
    assert game.totals() == [14 + 20]


@pytest.mark.parametrize("text, roll", [
    ("r = 13356", Roll((), (1, 3, 3, 5, 6))),
    ("k 335 = 46", Roll((3, 3, 5), (4, 6))),
    ("keep 3 3 5 = 6 4", Roll((3, 3, 5), (4, 6))),
    ("k 335", Roll((3, 3, 5))),
])
def test_typed_rolls_in_the_notation_round_trip(text: str, roll: Roll) -> None:
    assert parse_action(text) == roll
    assert parse_action(str(roll)) == roll


@pytest.mark.parametrize("text, message", [
    ("k 335 =", "write the dice thrown after ="),
    ("r = 1237", "“7” is not a die face"),
    ("r 12 = 345", "to keep dice write k 335"),
])
def test_malformed_typed_rolls_are_refused(text: str, message: str) -> None:
    with pytest.raises(InvalidActionError, match=message):
        parse_action(text)


def test_a_correction_may_fill_only_the_boxes_the_engine_takes() -> None:
    """The boxes a round fixed may go to, with what the dice typed score there: its own box and
    the ones still open (not one a later round filled); once the card is full, its own alone."""
    game = Game("kids", ["A"], dice_from="players")
    for action in [*_turn((1, 1, 1, 2, 3), "ones"), *_turn((2, 2, 2, 2, 3), "twos")]:
        game.apply(action)
    assert correction_boxes(game, 0, (1, 1, 1, 2, 3)) == {"ones": 3, "threes": 3, "fours": 0, "fives": 0,
                                                           "sixes": 0}
    assert correction_boxes(game, 1, (2, 2, 6, 6, 6)) == {"twos": 4, "threes": 0, "fours": 0, "fives": 0,
                                                           "sixes": 18}
    for face, box in ((3, "threes"), (4, "fours"), (5, "fives"), (6, "sixes")):
        for action in _turn((face,) * 5, box):
            game.apply(action)
    assert game.is_over
    assert correction_boxes(game, 0, (1, 1, 1, 1, 2)) == {"ones": 4}
    assert correction_boxes(game, 5, (1, 1, 1, 1, 2)) == {"sixes": 0}
    log = list(game.log)
    with pytest.raises(InvalidActionError, match="5 dice"):
        correction_boxes(game, 0, (1, 1))
    assert game.log == log and game.amendments == []  # only tried: nothing changed


def test_the_rounds_boxes_in_one_pass_agree_with_each_rounds_own() -> None:
    """The page's list (round_boxes, one pass over the log) names the boxes correction_boxes
    finds for each round with its dice as they are; mid-game and once the game is over."""
    rng = random.Random(5)
    game = Game("yatzy", ["A", "B"], dice_from="players")
    while not game.is_over:
        game.apply(game.roll_reaching([rng.randint(1, 6) for _ in range(5)]))
        game.apply(Score(next(iter(game.score_options()))))
        if len(game.log) in (12, 60):
            assert round_boxes(game) == [list(correction_boxes(game, r.turn, r.dice)) for r in rounds(game)]
    assert round_boxes(game) == [[r.box] for r in rounds(game)]


def _three_rounds_and_a_throw() -> Game:
    """A's round of two throws (ones), B's (twos), A's second (threes), B's throw in play."""
    game = Game("kids", ["A", "B"], dice_from="players")
    two_throws = [Roll((), (1, 1, 2, 3, 4)), Roll((1, 1), (1, 5, 6)), Score("ones")]
    for action in [*two_throws, *_turn((2, 2, 2, 3, 4), "twos"), *_turn((3, 3, 3, 1, 1), "threes"),
                   Roll((), (4, 4, 1, 2, 3))]:
        game.apply(action)
    return game


def test_rounds_name_each_finished_turns_player_round_number_last_dice_and_box() -> None:
    """Each player's rounds counted on their own (1 first); the turn being played is left out."""
    assert rounds(_three_rounds_and_a_throw()) == [
        Round(0, 0, 1, (1, 1, 1, 5, 6), "ones"), Round(1, 1, 1, (2, 2, 2, 3, 4), "twos"),
        Round(2, 0, 2, (1, 1, 3, 3, 3), "threes")]


def test_a_correction_rewrites_the_last_throw_keeping_the_earlier_ones_and_fills_the_box_given() -> None:
    game = _three_rounds_and_a_throw()
    first, again = Roll((), (1, 1, 2, 3, 4)), Roll((1, 1), (1, 1, 6))  # keeps what it can of the first
    assert correction(game, 0, (1, 1, 1, 1, 6), "ones") == [first, again, Score("ones")]
    assert correction(game, 0, (1, 1, 1, 1, 6), "fives") == [first, again, Score("fives")]
    assert correction(game, 2, (3, 3, 3, 3, 1), "threes") == [Roll((), (1, 3, 3, 3, 3)), Score("threes")]
    assert correction_returns(game, 0, (1, 1, 1, 1, 6), "ones") == []  # no board: nothing to choose
    assert correction_boxes(game, 0, (1, 1, 1, 1, 6)) == {"ones": 4, "twos": 0, "fours": 0, "fives": 0,
                                                           "sixes": 6}


def test_a_dozzy_correction_keeps_the_rounds_tiles_back_unless_told_or_the_box_changes() -> None:
    game = typed_game("dozzy", 1, players=1)
    turn = rounds(game)[5]
    assert (turn.box, turn.dice, turn.returns) == ("yatzy", (2, 3, 3, 5, 6), (5, 9))
    assert correction(game, 5, turn.dice, "yatzy")[-1] == Score("yatzy", (5, 9))  # as it was
    assert correction(game, 5, turn.dice, "yatzy", (9,))[-1] == Score("yatzy", (9,))
    assert correction(game, 5, turn.dice, "chance")[-1] == Score("chance")  # another box: none by default
    assert correction_returns(game, 5, turn.dice, "yatzy") == [frozenset(t) for t in ({5}, {5, 9}, {9})]
    assert correction_boxes(game, 5, turn.dice) == {"yatzy": 0}  # as it was: every later turn stands
    assert correction_boxes(game, 5, (1, 2, 3, 3, 5)) == {}  # no way of the tiles lets the later turns play


def _amended_boxes(game: Game, turn: int, dice: tuple[int, ...]) -> dict[str, int]:
    """The boxes finished turn ``turn`` written again with ``dice`` may fill, found the long way:
    every box of the card, with each of its tile returns (or none), tried by the engine's own
    correction on a copy; with the points the player gets there."""
    player = rounds(game)[turn].player
    found: dict[str, int] = {}
    for box in (c.id for c in game.ruleset.categories):
        try:
            ways = [None, *(tuple(sorted(r)) for r in correction_returns(game, turn, dice, box))]
        except YatzyError:
            continue
        for returns in ways:
            trial = game.clone()
            try:
                trial.amend(turn, correction(game, turn, dice, box, returns))
            except YatzyError:
                continue
            found[box] = trial.state.players[player].card[box]
            break
    return found


@pytest.mark.parametrize("turn", [2, 4])
def test_a_dozzy_correction_offers_exactly_the_boxes_the_engine_takes_with_some_tiles_back(turn: int) -> None:
    """Mid-game, the same dice: round 2 has open boxes whose tiles would break a later turn
    (left out though the throw is unchanged), round 4 boxes taken only with tiles named, out of
    two ways and out of more."""
    game = typed_game("dozzy", 3, turns=6)
    dice = rounds(game)[turn].dice
    assert correction_boxes(game, turn, dice) == _amended_boxes(game, turn, dice)


def test_a_correction_in_a_game_the_second_seat_started_reads_that_seats_card() -> None:
    """B (seat 1) starts: B's first round may go to a box A filled but not to one B filled later,
    A's round to the boxes B filled."""
    game = Game("kids", ["A", "B"], first=1, dice_from="players")
    for action in [*_turn((1, 1, 2, 3, 4), "ones"), *_turn((2, 2, 3, 4, 5), "twos"),
                   *_turn((3, 3, 3, 4, 5), "threes")]:
        game.apply(action)
    assert [r.player for r in rounds(game)] == [1, 0, 1]
    assert correction_boxes(game, 0, (1, 1, 2, 2, 6)) == {"ones": 2, "twos": 4, "fours": 0, "fives": 0,
                                                           "sixes": 6}
    assert correction_boxes(game, 1, (2, 2, 3, 3, 6)) == {"ones": 0, "twos": 4, "threes": 6, "fours": 0,
                                                           "fives": 0, "sixes": 6}
    assert round_boxes(game) == [list(correction_boxes(game, r.turn, r.dice)) for r in rounds(game)]

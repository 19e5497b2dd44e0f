"""The analysis after a game: every decision priced by the exact solver (kids' Yatzy: a fast table)."""

from __future__ import annotations

import pytest

from helpers.games import play_out
from yatzy.analysis import AnalysisError, Decision, Reason, analyse, ranked_reasons, reason_for
from yatzy.bots import make_bot
from yatzy.errors import InvalidActionError
from yatzy.game import Game, Roll, Score
from yatzy.i18n import LANGUAGES, language, number
from yatzy.narration import analysis_note, coach_option_text, decision_move, decision_text, reason_text
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.solver.coach import Coach
from yatzy.solver.solve import solve
from yatzy.views import game_view


@pytest.fixture(scope="module")
def coach() -> Coach:
    return Coach(solve(get_ruleset("kids")))


def kids_game(seed: int) -> Game:
    rs = get_ruleset("kids")
    game = Game(rs, [Seat.bot("optimal"), Seat.bot("random", "Rita"), Seat("Ann")], seed=seed)
    return play_out(game, [make_bot("optimal", rs), make_bot("random", rs, seed=seed),
                           make_bot("greedy", rs)])


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_points_lost_add_up_and_the_optimal_bot_loses_nothing(coach: Coach, seed: int) -> None:
    game = kids_game(seed)
    analysis = analyse(game, coach=coach)
    assert (analysis.ruleset, analysis.actions) == ("kids", len(game.log))
    assert [s.seat for s in analysis.seats] == [0, 1, 2]
    assert [s.name for s in analysis.seats] == ["Optimal bot", "Rita", "Ann"]
    for s in analysis.seats:
        assert s.decisions and all(d.points_lost >= 0 for d in s.decisions)
        assert s.total_lost == pytest.approx(sum(d.points_lost for d in s.decisions))
        assert len(s.costliest) <= 3
        assert [d.points_lost for d in s.costliest] == sorted((d.points_lost for d in s.decisions),
                                                              reverse=True)[:len(s.costliest)]
    optimal, rand, greedy = analysis.seats
    assert optimal.total_lost == pytest.approx(0, abs=1e-4) and optimal.costliest == ()
    assert all(d.played == d.best for d in optimal.decisions)
    assert rand.total_lost > 5 and len(rand.costliest) == 3
    assert rand.total_lost > greedy.total_lost > optimal.total_lost


def test_each_decision_is_the_move_in_the_log_at_its_position(coach: Coach) -> None:
    game = kids_game(4)
    replay = Game.from_dict({**game.to_dict(), "log": []})
    decisions = {d.index: d for s in analyse(game, coach=coach).seats for d in s.decisions}
    for index, action in enumerate(game.log):
        d = decisions.get(index)
        if d is not None:
            assert replay.state.dice == d.dice and replay.state.current == d.seat
            assert d.rolls_left == replay.rolls_left and d.turn == len(replay.player.card) + 1
            if isinstance(action, Roll):
                assert d.played == Roll(tuple(sorted(action.keep)))
            else:
                assert isinstance(action, Score) and d.played == Score(action.category)
            assert d.points_lost == 0 or d.best != d.played
        elif replay.state.dice is not None:  # skipped only when there was nothing to choose
            assert len(coach.options(coach.position_of(replay), with_odds=False)) == 1
        replay.apply(action)
    assert decisions


def test_only_the_chosen_seats_and_an_unfinished_game(coach: Coach) -> None:
    game = kids_game(5)
    part = Game.from_dict({**game.to_dict(), "log": game.to_dict()["log"][:20]})
    analysis = analyse(part, [2], coach=coach)
    assert [s.seat for s in analysis.seats] == [2] and analysis.actions == 20
    assert analysis.seat(2).decisions == analyse(game, [2], coach=coach).seat(2).decisions[
        :len(analysis.seat(2).decisions)]
    with pytest.raises(KeyError):
        analysis.seat(0)
    with pytest.raises(InvalidActionError, match="seats 0 to 2"):
        analyse(game, [3], coach=coach)


def test_dozzy_and_a_coach_of_another_ruleset_are_refused(coach: Coach) -> None:
    rs = get_ruleset("dozzy")
    game = play_out(Game(rs, ["Ann"], seed=1), [make_bot("dozzy", rs)])
    with pytest.raises(AnalysisError, match=r"DOZZY \(Yatzy on the DOZEN12 board\) games cannot be analysed"):
        analyse(game)
    yatzy_game = Game("yatzy", ["Ann"], seed=1)
    yatzy_game.roll()
    with pytest.raises(InvalidActionError, match="this coach plays kids"):
        analyse(yatzy_game, coach=coach)


def test_each_decision_in_the_words_a_player_uses(coach: Coach) -> None:
    """The box and its points, the move the coach preferred and what the choice cost, in a
    sentence (not "played score Twos; best was score Sixes"), in every language."""
    game = Game("kids", ["Ann"], seed=1)
    for action in [Roll((), (6, 6, 6, 6, 1)), Score("ones"), Roll((), (1, 2, 3, 4, 5)),
                   Roll((), (1, 2, 3, 4, 5)), Roll((), (6, 6, 6, 1, 1)), Score("twos")]:
        game.play(action)
    first, again, _third, last = analyse(game, coach=coach).seat(0).decisions
    assert (last.played_points, last.best, last.best_points) == (0, Score("sixes"), 18)
    assert decision_text(last, "Ann") == \
        f"Ann scored Twos for 0; Sixes for 18 would have been better: −{number(last.points_lost, 1)}."
    assert decision_text(first, "Ann", turn=True) == (
        f"Turn 1: Ann scored Ones for 1; keeping 6 6 6 6 would have been better: "
        f"−{number(first.points_lost, 1)}; 2 rolls were still left.")
    assert decision_text(again, "Ann").startswith("Ann rolled all the dice again; keeping ")
    assert (decision_move(last.played, last.played_points), decision_move(last.best, last.best_points)) == \
        ("Twos for 0", "Sixes for 18")
    with language("ru"):
        assert decision_text(last, "Ann").startswith(
            "Ann записывает 0 в «Двойки»; лучше было записать «Шестёрки» за 18")
    for lang in ("fi", "sv", "da", "nb", "ru"):
        with language(lang):
            words = decision_text(last, "Ann")
        assert "{" not in words and "18" in words and words != decision_text(last, "Ann"), lang
    best = Game("kids", ["Ann"], seed=1)
    best.play(Roll((), (6, 6, 6, 6, 6)))
    best.play(Score("sixes"))
    [right] = analyse(best, coach=coach).seat(0).decisions
    assert decision_text(right, "Ann") == "Ann scored Sixes for 30: the coach's best move."


def test_the_analysis_of_a_scorekeeper_game_says_the_keeps_were_guessed(coach: Coach) -> None:
    keeper = Game("kids", ["Ann"], dice_from="players")
    for dice in ((1, 1, 2, 3, 6), (1, 1, 1, 4, 6)):
        keeper.apply(keeper.roll_reaching(dice))
    keeper.apply(Score("ones"))
    guessed = analyse(keeper, coach=coach)
    assert guessed.keeps_guessed and "guessed from the throws" in (analysis_note(guessed) or "")
    assert analysis_note(analyse(kids_game(1), coach=coach)) is None


def kids_turns(*turns: tuple[tuple[int, ...], str]) -> Game:
    """Ann's kids' game, each turn one roll of the given dice and the box filled."""
    game = Game("kids", ["Ann"], seed=1)
    for dice, box in turns:
        game.play(Roll((), dice))
        game.play(Score(box))
    return game


LOW = (((1, 1, 1, 2, 3), "ones"), ((2, 2, 2, 1, 3), "twos"), ((3, 3, 3, 1, 2), "threes"),
       ((4, 4, 4, 1, 2), "fours"))
"""Three of each face so far: 30 in the upper section, the bonus needs 33 of Fives and Sixes."""


def test_a_move_that_loses_the_bonus_is_told_why_the_best_was_better(coach: Coach) -> None:
    """Sixes for 6 with 5 5 5 5 6 puts the bonus out of reach (30 + 6 + 25 < 63); the coach's best
    keeps it in reach: the reason is said. Sixes for 24 with 6 6 6 6 5 loses nothing of the bonus
    (Fives may still make it): no reason, though the move may cost points."""
    lost = analyse(kids_turns(*LOW, ((5, 5, 5, 5, 6), "sixes")), coach=coach).seat(0).decisions[-1]
    assert lost.reason == Reason("bonus") and lost.points_lost > 0
    assert decision_text(lost, "Ann").endswith("; it keeps the bonus in reach.")
    with language("fi"):
        assert decision_text(lost, "Ann").endswith("; se pitää bonuksen saavutettavissa.")
    kept = analyse(kids_turns(*LOW, ((6, 6, 6, 5, 5), "fives")), coach=coach).seat(0).decisions[-1]
    assert kept.reason != Reason("bonus") and "bonus" not in decision_text(kept, "Ann")  # 40 + 30 ≥ 63


def test_the_last_turn_rolling_on_for_the_one_box_left_is_the_last_chance(coach: Coach) -> None:
    """With Sixes the one box left, filling it at once with one 6 loses to rolling on for it: "the
    last chance for Sixes". The same dice and box a turn earlier (Fives still open): no such word.
    (Ones to Fours at 0: the bonus is out of reach from the start, and no reason of its own.)"""
    zeros = tuple(((6, 6, 6, 6, 5), box) for box in ("ones", "twos", "threes", "fours"))
    last = kids_turns(*zeros, ((1, 1, 1, 2, 3), "fives"), ((1, 2, 3, 4, 6), "sixes"))
    d = analyse(last, coach=coach).seat(0).decisions[-1]
    assert isinstance(d.best, Roll) and d.reason == Reason("last_chance", "sixes")
    assert decision_text(d, "Ann").endswith("; the last chance for Sixes.")
    with language("ru"):
        assert decision_text(d, "Ann").endswith("; последний шанс для «Шестёрки».")
    earlier = analyse(kids_turns(*zeros, ((1, 2, 3, 4, 6), "sixes")), coach=coach).seat(0).decisions[-1]
    assert earlier.played == Score("sixes") and earlier.points_lost > 0 and isinstance(earlier.best, Roll)
    assert earlier.reason == Reason("rolls_left", count=2)  # not the last chance: Fives is open
    assert "last chance" not in decision_text(earlier, "Ann")


def test_the_coachs_moves_say_what_the_card_tells_of_each(coach: Coach) -> None:
    """5 5 5 5 6 with 30 in the upper section: filling Sixes (6) puts the bonus out of reach while
    the best keeps it, and says so; Fives (20) and the best say nothing. At the last turn the best,
    rolling on for Sixes, is its last chance; a turn earlier it is not."""
    game = kids_turns(*LOW)
    game.play(Roll((), (5, 5, 5, 5, 6)))
    options = coach.options(coach.position_of(game), with_odds=False)
    ranked = [o.action for o in options]
    why = dict(zip(ranked, ranked_reasons(game, ranked), strict=True))
    assert why[Score("sixes")] == Reason("bonus") and why[Score("fives")] is None
    assert why[options[0].action] is None
    view = game_view(game, 0)
    sixes = next(o for o in options if o.action == Score("sixes"))
    assert coach_option_text(2, sixes, view, why[sixes.action]).endswith(
        "less than the best; it puts the bonus out of reach.")
    assert coach_option_text(2, sixes, view).endswith("less than the best.")
    zeros = tuple(((6, 6, 6, 6, 5), box) for box in ("ones", "twos", "threes", "fours"))
    for turns, last in ((zeros + (((1, 1, 1, 2, 3), "fives"),), True), (zeros, False)):
        game = kids_turns(*turns)
        game.play(Roll((), (1, 2, 3, 4, 6)))
        ranked = [o.action for o in coach.options(coach.position_of(game), with_odds=False)]
        assert ranked_reasons(game, ranked)[0] == (Reason("last_chance", "sixes") if last else None)
        assert not any(ranked_reasons(game, ranked)[1:])  # the bonus was out of reach all along


def yatzy_roll(*throws: tuple[int, ...], rules: str = "yatzy") -> Game:
    """Ann's first turn of a Scandinavian (or another) game, each throw rolled with nothing kept
    (no table needed: the reasons read the card and the dice)."""
    game = Game(rules, ["Ann"], seed=1)
    for dice in throws:
        game.play(Roll((), dice))
    return game


def test_a_box_worth_keeping_open_is_the_reason_when_the_best_move_keeps_it() -> None:
    """Chance or Yatzy filled where the best move fills another box: "it keeps Chance open". Not
    for another box, nor when the best fills the same box, nor when it rolls on (then Chance may
    still be filled this turn: the rolls left are the reason)."""
    game = yatzy_roll((1, 2, 3, 4, 6))
    assert reason_for(game, Score("chance"), Score("ones")) == Reason("open", "chance")
    assert reason_for(game, Score("yatzy"), Score("ones")) == Reason("open", "yatzy")
    # rolling on, Chance might still be filled this turn (in forced order it must be): the rolls left
    assert reason_for(game, Score("chance"), Roll((1, 2, 3, 4))) == Reason("rolls_left", count=2)
    assert reason_for(game, Score("twos"), Score("ones")) is None
    assert reason_for(game, Score("chance"), Score("chance")) is None
    yahtzee = yatzy_roll((1, 2, 3, 4, 6), rules="yahtzee")  # the box's kind, not its id
    assert reason_for(yahtzee, Score("yahtzee"), Score("ones")) == Reason("open", "yahtzee")


def test_sure_points_are_the_reason_when_the_player_rolled_on() -> None:
    """Rolling on where the best scores a box for points now: "28 sure points"; not when the best
    box scores 0, nor when the best rolls too, nor when the player scored."""
    game = yatzy_roll((5, 5, 5, 6, 6))
    assert reason_for(game, Roll((5, 5, 5)), Score("full_house")) == Reason("sure", "full_house", 27)
    assert reason_for(game, Roll((5, 5, 5)), Score("yatzy")) is None  # 0 points: nothing sure
    assert reason_for(game, Roll((5, 5, 5)), Roll((6, 6))) is None
    assert reason_for(game, Score("fives"), Score("full_house")) is None


@pytest.mark.parametrize(("throws", "left"), [(((1, 2, 3, 4, 6),), 2), (((1, 2, 3, 4, 6),) * 2, 1)])
def test_rolls_left_are_the_reason_when_the_player_stopped_early(throws: tuple[tuple[int, ...], ...],
                                                                 left: int) -> None:
    """A box filled with rolls still to make where the best rolls on: the rolls left, counted
    (2 after one throw, 1 after two). Not when the best fills a box too."""
    game = yatzy_roll(*throws)
    assert reason_for(game, Score("ones"), Roll((1,))) == Reason("rolls_left", count=left)
    assert reason_for(game, Score("ones"), Score("twos")) is None


def test_the_bonus_comes_before_the_rolls_left() -> None:
    """Sixes for 6 after four upper boxes at 0 puts the bonus out of reach; rolling on keeps it:
    the bonus is said, not the rolls left."""
    game = Game("yatzy", ["Ann"], seed=1)
    for box in ("ones", "twos", "threes"):
        game.play(Roll((), (6, 6, 5, 5, 4)))
        game.play(Score(box))
    game.play(Roll((), (1, 2, 3, 4, 6)))
    assert reason_for(game, Score("sixes"), Roll((6,))) == Reason("bonus")
    assert reason_for(game, Score("one_pair"), Roll((6,))) == Reason("rolls_left", count=2)


def decision(best: Roll | Score, reason: Reason | None, lost: float = 2.04) -> Decision:
    return Decision(index=0, seat=0, turn=3, dice=(5, 5, 5, 6, 6), rolls_left=2, played=Roll((5, 5, 5)),
                    best=best, points_lost=lost, best_points=27 if isinstance(best, Score) else None,
                    reason=reason)


REASONS = [Reason("bonus"), Reason("last_chance", "sixes"), Reason("open", "chance"),
           Reason("sure", "full_house", 1), Reason("sure", "full_house", 2), Reason("sure", "full_house", 5),
           Reason("sure", "full_house", 21), Reason("rolls_left", count=1), Reason("rolls_left", count=2)]


def test_each_reason_in_a_players_words_after_the_cost() -> None:
    sure = decision(Score("full_house"), Reason("sure", "full_house", 27))
    assert decision_text(sure, "Ann") == ("Ann kept 5 5 5 and rolled again; Full House for 27 would have "
                                          "been better: −2.0; 27 sure points, not a gamble.")
    assert decision_text(decision(Score("full_house"), None), "Ann").endswith("better: −2.0.")
    # a loss that rounds to nothing is the coach's best move, with no reason
    assert decision_text(decision(Score("full_house"), sure.reason, lost=0.04), "Ann") == \
        "Ann kept 5 5 5 and rolled again: the coach's best move."
    assert [reason_text(r) for r in REASONS] == [
        "it keeps the bonus in reach", "the last chance for Sixes", "it keeps Chance open",
        "1 sure point, not a gamble", "2 sure points, not a gamble", "5 sure points, not a gamble",
        "21 sure points, not a gamble", "1 roll was still left", "2 rolls were still left"]


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_each_reason_in_every_language(lang: str) -> None:
    english = [reason_text(r) for r in REASONS]
    with language(lang):
        words = [reason_text(r) for r in REASONS]
    for reason, said, en in zip(REASONS, words, english, strict=True):
        assert "{" not in said and said != en, (lang, reason)
        if reason.count is not None:
            assert str(reason.count) in said, (lang, reason)


@pytest.mark.parametrize(("lang", "forms"), [
    ("fi", ["1 varma piste", "2 varmaa pistettä", "5 varmaa pistettä", "21 varmaa pistettä"]),
    ("ru", ["1 верное очко", "2 верных очка", "5 верных очков", "21 верное очко"]),
])
def test_the_sure_points_take_the_plural_of_their_count(lang: str, forms: list[str]) -> None:
    with language(lang):
        said = [reason_text(Reason("sure", "chance", n)) for n in (1, 2, 5, 21)]
    assert [s.split(",")[0] for s in said] == forms

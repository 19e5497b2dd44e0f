"""The line game for a screen reader: only what changed after each line, the coach read out as
sentences, the warning before a costly move, the analysis after the game and the history —
driven with scripted input, each answer's output kept apart."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

from yatzy.actions import Roll
from yatzy.analysis import analyse
from yatzy.game import Game
from yatzy.i18n import number, percent
from yatzy.line.play import hot_seat
from yatzy.narration import decision_text
from yatzy.seats import Seat
from yatzy.solver.coach import Coach, Option
from yatzy.solver.solve import solve
from yatzy.solver.target import game_target
from yatzy.storage import Database, player_stats
from yatzy.views import game_view

Line = str | Callable[[Game], str]
GREEDY = Seat.bot("greedy")
KIDS_GAME = [line for box in range(1, 7) for line in ("r", f"s {box}")]
"""Me's six turns of a Kids' game after the greedy bot's: a roll, then boxes 1 to 6 in order."""


def answers(game: Game, lines: Iterable[Line], lang: str = "en") -> list[list[str]]:
    """Play on scripted lines; what was printed before the first line, then after each line
    (the lines of text, blank ones left out), EOF after the last (what follows it comes last)."""
    out = io.StringIO()
    feed = iter(lines)
    chunks: list[list[str]] = []
    said = 0

    def cut() -> None:
        nonlocal said
        text = out.getvalue()
        chunks.append([line.rstrip() for line in text[said:].splitlines() if line.strip()])
        said = len(text)

    def ask(_prompt: str) -> str:
        cut()
        for line in feed:
            return line(game) if callable(line) else line
        raise EOFError

    hot_seat(game, lang=lang, ask=ask, console=Console(file=out, width=200))
    cut()
    return chunks


def coach_of(game: Game) -> Coach:
    return Coach(solve(game.ruleset))


def no_building(chunk: list[str]) -> list[str]:
    """A chunk without the line that says the coach's table is being built (the first time only)."""
    return [line for line in chunk if not line.startswith("Building the ")]


# ---- only what changed ---------------------------------------------------------------------------

def test_after_a_roll_only_the_new_lines_are_printed() -> None:
    game = Game("yatzy", ["[b]Ann[/b]", GREEDY], seed=1)

    def keep_first(g: Game) -> str:
        return f"k {(g.state.dice or ())[0]}"

    start, rolled, kept, scored, bot, card, _end = answers(game, ["r", keep_first, "s 6", "", "card"])
    assert start[-2:] == ["[b]Ann[/b] · round 1 of 15", "r to roll"]  # a name is text, never markup
    assert rolled == [f"[b]Ann[/b] rolls {' '.join(map(str, game_dice(game, 1)))}. 2 rolls left."]
    first_die = game_dice(game, 1)[0]
    assert kept == [f"[b]Ann[/b] keeps {first_die} and rolls again (roll 2): "
                    f"{' '.join(map(str, game_dice(game, 2)))}. 1 roll left."]
    points = game.state.players[0].card["sixes"]
    assert scored == [f"[b]Ann[/b] scores {points} in 6 Sixes; total {points}.",
                      "Enter: Greedy bot plays · r: it plays, then you roll · u: undo your score"]
    assert bot[0] == "Greedy bot · round 1 of 15" and bot[-2:] == ["[b]Ann[/b] · round 2 of 15", "r to roll"]
    assert not any("Upper section" in line for line in scored + bot)  # the card only on request
    assert card[0].startswith("Yatzy (Scandinavian) · round 2 of 15") and any("6 Sixes" in x for x in card)


def game_dice(game: Game, rolls: int) -> tuple[int, ...]:
    """The dice on the table after the first ``rolls`` actions of the log (all rolls)."""
    data = game.to_dict()
    replay = Game.from_dict({**data, "log": data["log"][:rolls]})
    assert replay.state.dice is not None
    return replay.state.dice


def test_enter_says_where_the_turn_stands_and_s_lists_the_boxes() -> None:
    game = Game("kids", ["Ann"], seed=2)
    _start, _rolled, again, boxes, _end = answers(game, ["r", "", "s"])
    dice = " ".join(map(str, game.state.dice or ()))
    assert again == [f"Ann's dice: {dice}. 2 rolls left."]
    [line] = boxes
    faces = sorted(set(game.state.dice or ()))
    names = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")
    scoring = ", ".join(f"{f} {names[f - 1]} {f * (game.state.dice or ()).count(f)}" for f in faces)
    zero = ", ".join(f"{f} {names[f - 1]}" for f in range(1, 7) if f not in faces)
    assert line == f"Boxes that score: {scoring}." + (f" For 0: {zero}." if zero else "")


# ---- the coach -------------------------------------------------------------------------------------

def test_the_coach_reads_the_best_moves_as_sentences_best_first() -> None:
    game = Game("kids", ["Ann"], seed=1)
    before, _rolled, advice = answers(game, ["c", "r", "c"])[1:-1]
    advice = no_building(advice)
    assert before == ["Roll, and the coach ranks every keep and every box for your dice."]
    coach = coach_of(game)
    options = coach.options(coach.position_of(game), with_odds=False)
    dice = " ".join(map(str, game.state.dice or ()))
    assert advice[0].startswith(f"The coach's best moves for {dice}, 2 rolls left, by the points still to")
    best, second, third = options[:3]
    assert advice[1] == f"1. {move(best, game)}: expected {number(best.value, 1)} more points."
    assert advice[2] == (f"2. {move(second, game)}: expected {number(second.value, 1)} more points, "
                         f"{number(second.regret, 1)} less than the best.")
    assert advice[3].startswith(f"3. {move(third, game)}: expected {number(third.value, 1)} more points")
    assert advice[4:] == [f"… and {len(options) - 3} more moves."]
    assert len(game.log) == 1  # the coach changes nothing


def move(option: Option, game: Game) -> str:
    """A ranked move as the coach reads it, from the card's box numbers and names."""
    if isinstance(option.action, Roll):
        keep = " ".join(map(str, option.action.keep))
        return f"Keep {keep} and roll the others" if keep else "Roll all the dice again"
    b = next(b for b in game_view(game).players[0].boxes if b.id == option.action.category)
    return f"Score {option.points} in {b.number} {b.name}"


def test_the_coach_speaks_the_players_language() -> None:
    game = Game("kids", ["Aino"], seed=1)
    advice = [line for line in answers(game, ["r", "c"], lang="fi")[-2] if not line.startswith("Rakennetaan")]
    assert advice[0].startswith("Valmentajan parhaat siirrot") and advice[1].startswith("1. ")
    assert "odotettavissa" in advice[1]


def test_dozzy_has_no_table_and_the_coach_says_so_with_the_bots_rule_of_thumb() -> None:
    game = Game("dozzy", ["Ann"], seed=1)
    advice, warning, _scored, _end = answers(game, ["r", "c", "w", "s 21"])[2:]
    assert advice[0].startswith("DOZZY has no exact table")
    assert advice[1].startswith("The DOZZY bot's rule of thumb: ")
    assert warning == advice[:1]  # w does not promise a warning it cannot give
    assert "yatzy" in game.player.card


def test_the_line_game_warms_the_coach_up_as_it_starts_but_not_for_dozzy(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """As the terminal game and the server do: the first c after an install waits for no compiler."""
    started: list[str] = []
    monkeypatch.setattr("yatzy.line.play.warm_up_soon", lambda: started.append("warm-up"))
    answers(Game("kids", ["Ann"], seed=1), [])
    assert started == ["warm-up"]
    answers(Game("dozzy", ["Ann"], seed=1), [])  # no exact table, no coach to warm up
    assert started == ["warm-up"]


# ---- playing for a final score (t) ---------------------------------------------------------------

def test_t_has_the_coach_rank_by_the_chance_of_a_final_score_and_t_alone_goes_back() -> None:
    game = Game("kids", ["Ann"], seed=1)
    on, ranked, off, again = [no_building(c) for c in answers(game, ["r", "t 100", "c", "t", "c"])][2:6]
    assert on == ["The coach plays for 100 points or more at the end: c ranks the moves by their chance of "
                  "that (t alone: the points to expect again)."]
    query = game_target(coach_of(game), game.clone(), 100)
    dice = " ".join(map(str, game.state.dice or ()))
    assert ranked[0] == "Working out each move's chance of 100 points…"
    assert ranked[1] == (f"The coach's best moves for {dice}, 2 rolls left, by the chance of ending the game "
                         "with 100 points or more:")
    for rank, (line, t) in enumerate(zip(ranked[2:5], query.options[:3], strict=True), 1):
        assert line == (f"{rank}. {move(t.option, game)}: a {percent(t.chance, 1)} chance, "
                        f"expected {number(t.option.value, 1)} more points.")
    assert ranked[5:] == [f"… and {len(query.options) - 3} more moves."]
    assert off == ["The coach ranks the moves by the points to expect again (t 250 plays for a final score)."]
    assert again[0].startswith(f"The coach's best moves for {dice}, 2 rolls left, by the points still to")
    assert len(game.log) == 1  # the coach changes nothing


@pytest.mark.parametrize(("typed", "refused"), [("156", True), ("155", False), ("0", False), ("-1", True),
                                                ("x", True), ("100 120", True)])
def test_a_target_no_game_can_score_is_refused_in_words(typed: str, refused: bool) -> None:
    game = Game("kids", ["Ann"], seed=1)
    said, ranked = [no_building(c) for c in answers(game, ["r", f"t {typed}", "c"])][2:4]
    if refused:
        assert said == ["a target is a whole number of points from 0 to 155 in kids (the most a game can "
                        f"score), not {typed}"]
        assert ranked[0].startswith("The coach's best moves for ") and "by the points still to" in ranked[0]
    else:
        assert said[0].startswith(f"The coach plays for {typed} points or more at the end")
        assert ranked[1].endswith(f"with {typed} points or more:")
        if typed == "0":  # every move reaches 0
            assert all(" a 100.0% chance" in line for line in ranked[2:5])


def test_too_early_a_target_is_refused_by_the_solver_and_the_coach_ranks_by_points_meanwhile() -> None:
    game = Game("yatzy", ["Ann"], seed=1)
    said, ranked = [no_building(c) for c in answers(game, ["r", "t 250", "c"])][2:4]
    assert said[0].startswith("The coach plays for 250 points")
    assert ranked[0] == "Working out each move's chance of 250 points…"
    assert ranked[1].startswith("the chance of reaching a target is worked out exactly near the end of")
    assert ranked[2].startswith("The coach's best moves for ") and "by the points still to" in ranked[2]


def test_saved_roll_games_and_dozzy_say_why_there_is_no_target() -> None:
    said = no_building(answers(Game("maxi", ["Ann"], seed=1), ["r", "t 300"])[2])
    assert said == ["playing to a target is not worked out for games with saved rolls (maxi)"]
    said = answers(Game("dozzy", ["Ann"], seed=1), ["r", "t 300"])[2]
    assert said[0].startswith("DOZZY has no exact table")


def test_the_target_speaks_the_players_language() -> None:
    game = Game("kids", ["Aino"], seed=1)
    for typed, one, many in (("1", "на 1 очко или", "с 1 очком или"),
                             ("5", "на 5 очков или", "с 5 очками или")):
        on, ranked = [no_building(c) for c in answers(game.clone(), ["r", f"t {typed}", "c"], lang="ru")][2:4]
        assert on[0].startswith(f"Тренер играет {one} больше") and ranked[1].endswith(f"{many} больше:")


# ---- the warning before a costly move ------------------------------------------------------------

TYPED: list[str] = []


def worst_move(game: Game) -> str:
    """The move the coach ranks last for the dice on the table, typed (and noted in TYPED)."""
    coach = coach_of(game)
    TYPED.append(str(coach.options(coach.position_of(game), with_odds=False)[-1].action))
    return TYPED[-1]


def test_the_warning_asks_before_a_costly_move_and_the_move_waits() -> None:
    game = Game("kids", ["Ann"], seed=1)
    chunks = answers(game, ["r", "w", worst_move, "", worst_move, "y"])
    on, asked, refused, again, played = chunks[2:7]
    on = no_building(on)
    assert on == ["Asks before a move that loses more than 1 point against the coach's best (w changes it)."]
    assert asked[0].startswith("This move loses ") and asked[0].endswith(". Play it anyway?")
    assert refused == ["Not played: choose your move."]
    assert again[0] == asked[0] and len(game.player.card) == 1  # played only on y
    assert str(game.log[-1]).startswith(TYPED[-1])
    assert played[0].startswith("Ann scores ")


def test_without_the_warning_a_costly_move_is_played_at_once() -> None:
    game = Game("kids", ["Ann"], seed=1)
    chunks = answers(game, ["r", worst_move])
    assert not any("Play it anyway" in line for chunk in chunks for line in chunk)
    assert len(game.player.card) == 1


def test_w_cycles_the_warning_then_turns_it_off() -> None:
    game = Game("kids", ["Ann"], seed=1)
    chunks = [no_building(c) for c in answers(game, ["w"] * 5)[1:-1]]
    asks = "Asks before a move that loses more than"
    assert [c[0].split(" against")[0] for c in chunks] == [
        f"{asks} 1 point", f"{asks} 3 points", f"{asks} 5 points", f"{asks} 10 points",
        "No warning before costly moves (w turns it on)."]


# ---- the analysis after the game and the history ----------------------------------------------------

def test_the_analysis_after_the_game_reads_each_persons_costliest_decisions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    game = Game("kids", [GREEDY, Seat("Me")], seed=3)
    chunks = answers(game, [*KIDS_GAME, "", "h", "xyz", "a", ""])
    end, helped, unknown = chunks[-5:-2]
    analysis = no_building(chunks[-2])
    assert game.is_over
    assert end[-1] == ("a: the analysis of your decisions · every: each decision in a line · history: your "
                       "finished games · card: the scorecard · Enter: done")
    assert helped == [end[-1]] and unknown == ["unknown command “xyz”", end[-1]]
    me = analyse(game, [1]).seat(1)
    lost = number(me.total_lost, 1)
    assert analysis[0] == f"Me lost {lost} points to the coach in {len(me.decisions)} decisions."
    assert analysis[1] == "The costliest moments:"
    worst = me.costliest[0]  # in the analysis' own words, as the review and the page say it
    assert analysis[2] == "1. " + decision_text(worst, "Me", turn=True)
    assert analysis[2].startswith(f"1. Turn {worst.turn}: Me ")
    assert f"−{number(worst.points_lost, 1)}" in analysis[2]
    assert len(analysis) == 2 + len(me.costliest)
    with Database() as db:  # kept with the game in the history
        [stats] = [s for s in player_stats(db) if s.name == "Me"]
    assert stats.mean_points_lost == pytest.approx(me.total_lost, abs=0.01)


def test_every_decision_is_read_in_the_order_played(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    game = Game("kids", [GREEDY, Seat("Me")], seed=3)

    asked = []

    def as_the_coach(g: Game) -> str:
        """Me's moves after a first turn as KIDS_GAME's: the coach's best each time; Enter while
        the bot is to play; at the end "every" once, then Enter."""
        if g.is_over:
            asked.append(g.version)
            return "every" if len(asked) == 2 else ""  # the first Enter shows the final score
        if g.state.current != 1:
            return ""
        if g.state.dice is None:
            return "r"
        coach = coach_of(g)
        return str(coach.options(coach.position_of(g), with_odds=False)[0].action)

    chunks = answers(game, [*KIDS_GAME[:2], *[as_the_coach] * 40])
    assert game.is_over
    every = no_building(chunks[-2])
    me = analyse(game, [1]).seat(1)
    assert every[0].startswith("Me lost ") and len(every) == 1 + len(me.decisions)
    for n, (line, d) in enumerate(zip(every[1:], me.decisions, strict=True), 1):
        assert line == f"{n}. " + decision_text(d, "Me", turn=True)
    assert any(line.endswith("the coach's best move.") for line in every)  # both kinds are read
    assert any("would have been better: −" in line for line in every)


def test_history_lists_the_finished_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("YATZY_DATA_DIR", str(tmp_path))
    empty = answers(Game("kids", ["Ann"], seed=1), ["history"])[-2]
    assert empty == ["no games recorded yet: finish a game with yatzy play and it appears here"]
    first = Game("kids", [GREEDY, Seat("Me")], seed=3)
    listed = answers(first, [*KIDS_GAME, "", "history", ""])[-2]
    second = Game("kids", [GREEDY, Seat("Me")], seed=4)
    during = answers(second, [*KIDS_GAME[:2], "history"])[-2]
    totals = ", ".join(f"{s.name} {t}" for s, t in zip(first.seats, first.totals(), strict=True))
    assert listed[0] == "Your finished games, newest first (yatzy history shows more):"
    winners = " and ".join(first.seats[i].name for i in first.winners())
    assert listed[1].startswith(f"Game 1, {game_view(first).title}, ")
    assert listed[1].endswith(f": {totals}. Winner{'s' if len(first.winners()) > 1 else ''}: {winners}.")
    assert len(listed) == 2
    assert during == listed  # the unfinished game is not listed


def test_ctrl_c_stops_the_coachs_table_and_the_game_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(ruleset: object, progress: Callable[[int, int], None]) -> None:
        progress(1, 10)
        raise KeyboardInterrupt

    monkeypatch.setattr("yatzy.line.coach.solve", stopped)
    game = Game("kids", ["Ann"], seed=1)
    chunks = answers(game, ["r", "c", "w", "s 1"])
    title = game_view(game).title
    building = f"Building the {title} table for the coach, once; later games load it (Ctrl-C stops it)."
    assert chunks[2] == [building, "The table was not built; the game goes on."]
    assert chunks[3][-1] == "The table was not built; the game goes on."
    assert chunks[4][0].startswith("Ann scores ")  # the warning went off with its table: no question

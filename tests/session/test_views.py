"""Views: every scorecard and the table for one viewer, as stable JSON with nothing secret."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest

from helpers.games import play_out
from yatzy.errors import InvalidActionError
from yatzy.events import Event
from yatzy.game import Game, Restore, Roll, Score
from yatzy.i18n import _ as translate
from yatzy.i18n import language
from yatzy.names import LANGUAGES, box_label
from yatzy.registry import get_ruleset
from yatzy.seats import Seat
from yatzy.session import Session
from yatzy.views import (
    BonusView,
    GameView,
    and_list,
    as_seen_by,
    bonus_progress,
    game_view,
    outcome_view,
    plain,
)

RULESETS = ("yatzy", "forced", "maxi", "osto", "kids", "yahtzee", "dozzy")
SEEDS = {name: 7_359_184_620_517_394_286 - 1_000_003 * i for i, name in enumerate(RULESETS)}
"""Seeds with 19 digits: a view leaking one would show it."""
SECRET_WORDS = ("seed", "rng", "state")


def keys(data: Any) -> set[str]:
    """Every key name anywhere in a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys(v)}
    return set()


def check_secret_free(text: str, game: Game) -> None:
    assert str(game.seed) not in text
    state = game._rng.getstate()[1]
    assert not [n for n in state if n >= 10**8 and str(n) in text]  # the RNG state's words
    data = json.loads(text)
    assert not [k for k in keys(data) if any(w in k.lower() for w in SECRET_WORDS)]
    assert json.loads(json.dumps(data)) == data


def check_view(view: GameView, game: Game) -> str:
    text = view.to_json()
    check_secret_free(text, game)
    assert json.loads(text) == view.to_dict()
    assert game_view(game, view.viewer, view.lang, view.seq).to_json() == text  # stable: same game, same JSON
    assert as_seen_by(game_view(game, None, view.lang, view.seq), view.viewer) == view  # as a room makes it
    return text


def play_with_views(rules: str) -> tuple[Game, list[Event], int]:
    """Ann (random moves from her view) and a bot; every view and event checked on the way."""
    bot = "dozzy" if rules == "dozzy" else "greedy"
    game = Game(rules, [Seat("Ann"), Seat.bot(bot, "Bo")], seed=SEEDS[rules], roll_off=True)
    session = Session(game, bot_seed=SEEDS[rules] + 1)
    pick = random.Random(1)
    events: list[Event] = []
    views = 0
    while not game.is_over:
        events += session.advance()
        for viewer in (None, 0, 1):
            check_view(session.view(viewer), game)
            views += 1
        if session.waiting_for() == 0:
            view = session.view(0)
            assert view.legal_actions == session.view(None).legal_actions
            assert session.view(1).legal_actions == () and session.view(1).score_options == ()
            events += session.act(pick.choice(view.legal_actions), seat=0)
    for viewer in (None, 0, 1):
        check_view(session.view(viewer), game)
    return game, events, views


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_views_and_events_of_whole_games_are_stable_json_without_secrets(rules: str) -> None:
    game, events, views = play_with_views(rules)
    assert views > 2 * game.ruleset.turns
    for e in events:
        text = e.to_json()
        check_secret_free(text, game)
        assert json.loads(text) == e.to_dict() and e.to_dict()["kind"] == e.kind
    final = game_view(game).to_dict()
    assert final["over"] and final["current"] is None and final["legal_actions"] == []
    assert final["outcome"]["winners"] == list(game.winners())
    assert [p["total"] for p in final["players"]] == game.totals()
    assert final["version"] == len(game.log)
    # a local save keeps the seed; that is why it must never be sent where a view goes
    assert str(game.seed) in game.to_json()


def test_the_seed_in_a_view_would_be_caught() -> None:
    game = Game("yatzy", ["Ann"], seed=SEEDS["yatzy"])
    with pytest.raises(AssertionError):
        check_secret_free(json.dumps({"players": [], "note": game.seed}), game)
    with pytest.raises(AssertionError):
        check_secret_free(json.dumps({"rng_state": 1}), game)


def card(ruleset: str, **points: int) -> dict[str, int]:
    rs = get_ruleset(ruleset)
    assert set(points) <= set(rs.by_id)
    return points


def progress(ruleset: str, points: dict[str, int], bonus: int = 0) -> BonusView:
    rs = get_ruleset(ruleset)
    return bonus_progress(rs, rs.bonuses[bonus], points)


def test_bonus_three_of_each_face_is_on_pace() -> None:
    b = progress("yatzy", card("yatzy", ones=3, twos=6, threes=9, fours=12, fives=15))
    assert (b.subtotal, b.needed, b.reachable, b.pace, b.points) == (45, 18, True, 0.0, 0)
    assert b.boxes == (1, 2, 3, 4, 5, 6) and (b.threshold, b.worth, b.strict) == (63, 50, False)
    full = progress("yatzy", card("yatzy", ones=3, twos=6, threes=9, fours=12, fives=15, sixes=18))
    assert (full.subtotal, full.needed, full.reachable, full.pace, full.points) == (63, 0, True, 0.0, 50)


def test_bonus_needs_12_more_ahead_of_pace() -> None:
    b = progress("yatzy", card("yatzy", ones=3, twos=6, threes=6, fours=16, fives=20))
    assert (b.subtotal, b.needed, b.reachable) == (51, 12, True)
    assert b.pace == 6.0  # par of ones..fives is 45


def test_bonus_out_of_reach_and_behind() -> None:
    b = progress("yatzy", card("yatzy", ones=0, twos=0, threes=0, fours=0, fives=0))
    assert (b.subtotal, b.needed, b.reachable, b.pace, b.points) == (0, 63, False, -45.0, 0)
    just = progress("yatzy", card("yatzy", ones=3, twos=6, threes=9, fours=12, fives=3))
    assert (just.needed, just.reachable) == (30, True)  # sixes can still make 30
    short = progress("yatzy", card("yatzy", ones=3, twos=6, threes=9, fours=12, fives=0))
    assert (short.needed, short.reachable) == (33, False)
    assert progress("yatzy", {}).pace == 0.0 and progress("yatzy", {}).reachable


def test_bonus_pace_maxi_is_four_of_each_and_strict_bonuses_need_one_more() -> None:
    b = progress("maxi", card("maxi", ones=4, twos=8, threes=12))
    assert (b.subtotal, b.needed, b.pace, b.worth) == (24, 60, 0.0, 100)
    one_more = progress("dozzy", {f"n{k}": 2 * k for k in range(7, 12)}, bonus=1)
    assert (one_more.id, one_more.threshold, one_more.strict) == ("bonus_7_12", 113, True)
    assert (one_more.subtotal, one_more.needed, one_more.pace, one_more.reachable) == (90, 24, 0.0, True)
    done = progress("dozzy", {f"n{k}": 2 * k for k in range(7, 13)}, bonus=1)
    assert (done.points, done.needed) == (50, 0)
    short = progress("dozzy", {**{f"n{k}": 2 * k for k in range(7, 12)}, "n12": 23}, bonus=1)
    assert (short.points, short.needed, short.reachable) == (0, 1, False)


@pytest.mark.parametrize(("rules", "steps"), [("yatzy", None), ("dozzy", 40)])
def test_the_tables_view_as_each_seat_sees_it_is_that_seats_view(rules: str, steps: int | None) -> None:
    """A room makes one view a move and gives each seat its own from it (as_seen_by): at every
    step of a game of three (two people, a bot; DOZZY's first 40 actions), each seat's and the
    table's are the views game_view makes for them (the moves only for the seat whose turn it is)."""
    bot = "dozzy" if rules == "dozzy" else "greedy"
    game = Game(rules, [Seat("Ann"), Seat("Bo"), Seat.bot(bot, "Cy")], seed=SEEDS[rules])
    while not game.is_over and (steps is None or len(game.log) < steps):
        table = game_view(game, None, "fi", 3)
        for viewer in (None, 0, 1, 2):
            assert as_seen_by(table, viewer) == game_view(game, viewer, "fi", 3), (viewer, game.log[-3:])
        moving = [v for v in (0, 1, 2) if as_seen_by(table, v).legal_actions]
        assert moving == ([] if game.seats[game.state.current].is_bot else [game.state.current])
        play_out(game, actions=1)
    assert len(game.log) >= 40 and as_seen_by(game_view(game), 1) == game_view(game, 1)


def test_bonus_pace_is_the_exact_par_rounded_once() -> None:
    """The pace is worked out in integers (a Fraction cost a tenth of every view): for random
    cards of every ruleset with bonuses it is the exact rational pace rounded once."""
    rng = random.Random(7)
    checked = 0
    for name in RULESETS:
        rs = get_ruleset(name)
        for bonus in rs.bonuses:
            maxima = {c: rs.by_id[c].max for c in bonus.categories}
            for _ in range(200):
                points = {c: rng.randint(0, m) for c, m in maxima.items() if rng.random() < 0.6}
                target = bonus.threshold + int(bonus.strict)
                par = Fraction(target * sum(maxima[c] for c in points), sum(maxima.values()))
                got = bonus_progress(rs, bonus, points).pace
                assert got == float(sum(points.values()) - par), (name, bonus.id, points)
                checked += 1
    assert checked >= 600  # yatzy, maxi, dozzy's two, ...


def test_the_view_carries_each_players_bonus_and_yahtzee_bonus() -> None:
    game = Game("yahtzee", ["Ann", "Bo"], seed=1)
    game.state.players[1].card.update(ones=3, twos=6, threes=9, yahtzee=50)
    game.state.players[1].extra = 100
    view = game_view(game, lang="en")
    bo = view.players[1]
    assert bo.yahtzee_bonus == 100 and bo.total == 168 and bo.rank == 1
    assert view.players[0].rank == 2 and view.players[0].current and not bo.current
    (bonus,) = bo.bonuses
    assert (bonus.subtotal, bonus.needed, bonus.pace, bonus.worth) == (18, 45, 0.0, 35)
    assert [(b.number, b.id, b.points) for b in bo.boxes[:4]] == \
        [(1, "ones", 3), (2, "twos", 6), (3, "threes", 9), (4, "fours", None)]
    assert bo.boxes[11].id == "yahtzee" and bo.boxes[11].section == "lower" and bo.boxes[11].max == 50


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("rules", RULESETS)
def test_views_build_in_every_language(rules: str, lang: str) -> None:
    game = Game(rules, [Seat("Ann"), Seat.bot("greedy")], seed=3)
    game.roll()
    view = game_view(game, None, lang)
    assert view.lang == lang
    assert [b.number for b in view.players[0].boxes] == list(range(1, game.ruleset.turns + 1))
    assert all(b.name for b in view.players[0].boxes) and view.score_options
    json.loads(view.to_json())


def test_names_follow_the_language() -> None:
    game = Game("yatzy", ["Ann"], seed=3)
    assert game_view(game, lang="fi").players[0].boxes[0].name == "Ykköset"
    assert game_view(game, lang="sv").players[0].bonuses[0].name == "Bonus"
    assert game_view(game, lang="ru").players[0].boxes[-1].name == "Яцзы"
    with pytest.raises(InvalidActionError, match="unknown language “xx”; choose one of en, fi"):
        game_view(game, lang="xx")


def test_only_the_person_whose_turn_it_is_sees_moves() -> None:
    game = Game("yatzy", [Seat("Ann"), Seat("Bo"), Seat.bot("greedy", "Cy")], seed=5)
    game.roll()
    assert game_view(game, 1).legal_actions == () and game_view(game, 1).score_options == ()
    assert game_view(game, 2).legal_actions == ()
    ann, table = game_view(game, 0), game_view(game, None)
    assert ann.legal_actions == table.legal_actions == tuple(str(a) for a in game.legal_actions())
    assert {o.id: o.points for o in ann.score_options} == game.score_options()
    assert "s chance" in ann.legal_actions and not any(a.startswith("b ") for a in ann.legal_actions)
    assert ann.dice == game_view(game, 1).dice == game.state.dice  # the dice are public
    game.score("chance")
    game.roll()
    game.score("chance")  # Cy, a bot, is up: nobody is offered its moves
    assert game_view(game, 2).legal_actions == game_view(game, None).legal_actions == ()
    with pytest.raises(InvalidActionError, match="a seat number 0 to 2"):
        game_view(game, 3)


def test_saved_rolls_are_shown_apart_from_the_normal_rolls() -> None:
    game = Game("maxi", ["Ann"], seed=9)
    view = game_view(game)
    assert (view.rolls_left, view.saved_rolls, view.dice) == (3, 0, None)
    game.roll()
    game.score(next(iter(game.score_options())))  # two rolls unused: saved
    view = game_view(game)
    assert (view.rolls_left, view.saved_rolls, view.players[0].bank, view.round) == (3, 2, 2, 2)
    for _ in range(4):
        game.roll(game.state.dice[:1] if game.state.dice else ())
    view = game_view(game)
    assert (view.rolls_left, view.saved_rolls) == (0, 1)


def test_the_dozzy_board_and_tile_choices() -> None:
    game = Game("dozzy", ["Ann"], seed=2)
    view = game_view(game)
    assert view.board is not None
    assert view.board.tiles_in == tuple(range(1, 13)) and view.board.tiles_out == ()
    game.roll()
    view = game_view(game)
    for option in view.score_options:
        out, returns = game.tile_moves(option.id)
        assert option.tiles_out == tuple(sorted(out))
        assert option.returns == tuple(tuple(sorted(r)) for r in returns)
    scored = max(view.score_options, key=lambda o: len(o.tiles_out))
    game.score(scored.id, scored.returns[0])
    view = game_view(game)
    assert view.board is not None and set(view.board.tiles_out) == set(game.state.out)
    assert sorted(view.board.tiles_in + view.board.tiles_out) == list(range(1, 13))
    assert game_view(Game("yatzy", ["Ann"])).board is None


def test_the_last_move_and_whether_undo_may_take_it_back() -> None:
    game = Game("yatzy", [Seat("Ann"), Seat.bot("greedy", "Bo")], seed=4)
    assert game_view(game).last is None
    dice = game.roll()
    last = game_view(game).last
    assert last is not None and (last.player, last.kind, last.action, last.number, last.undoable) == \
        (0, "roll", "r = " + "".join(map(str, dice)), None, False)
    game.score("chance")
    last = game_view(game, 1).last
    assert last is not None and (last.player, last.kind, last.action, last.number, last.undoable) == \
        (0, "score", "s chance", 14, True)
    game.roll()
    game.score("ones")
    last = game_view(game).last
    assert last is not None and (last.player, last.kind, last.undoable) == (1, "score", False)  # a bot's


def test_the_view_says_which_extra_rows_a_card_has() -> None:
    flags = {rules: (v.has_yahtzee_bonus, v.has_saved_rolls)
             for rules in RULESETS for v in [game_view(Game(rules, ["Ann"]))]}
    assert flags == {"yatzy": (False, False), "forced": (False, False), "maxi": (False, True),
                     "osto": (False, True), "kids": (False, False), "yahtzee": (True, False),
                     "dozzy": (False, False)}


def test_box_labels_and_lists_of_names() -> None:
    assert box_label(3, "Threes") == "3 Threes" and box_label(7, "7 (pair sums)") == "7 (pair sums)"
    assert [and_list(names) for names in ([], ["Ann"], ["Ann", "Bo"], ["Ann", "Bo", "Cy"])] == \
        ["", "Ann", "Ann and Bo", "Ann, Bo and Cy"]


def test_the_title_follows_the_language() -> None:
    game = Game("maxi", ["Ann"])
    assert game_view(game).title == "Maxi Yatzy (6 dice)"
    with language("fi"):
        finnish = translate("Maxi Yatzy (6 dice)")
    assert game_view(game, lang="fi").title == finnish


def test_a_views_seats_and_score_options_carry_their_numbers_names_and_kinds_in_its_language() -> None:
    game = Game("kids", [Seat("Åsa"), Seat.bot("greedy", "Bo")], seed=3)
    game.roll()
    assert game.state.dice == (2, 2, 3, 5, 5)
    view = game_view(game, 0, "ru")
    assert [(p.seat, p.name, p.kind, p.level, p.level_name) for p in view.players] == [
        (0, "Åsa", "person", None, None), (1, "Bo", "bot", "greedy", "жадный")]
    assert [b.name for p in view.players for b in p.bonuses] == ["Премия", "Премия"]
    assert [(o.number, o.id, o.name, o.points) for o in view.score_options] == [
        (1, "ones", "Единицы", 0), (2, "twos", "Двойки", 4), (3, "threes", "Тройки", 3),
        (4, "fours", "Четвёрки", 0), (5, "fives", "Пятёрки", 10), (6, "sixes", "Шестёрки", 0)]
    assert all(o.tiles_out == () and o.returns == () for o in view.score_options)
    assert '"name": "Åsa"' in view.to_json() and view.seq == 0  # the letters as they are
    assert (view.ruleset, view.current, view.rounds, view.may_restore) == ("kids", 0, 6, False)
    no_seat = "^the viewer is a seat number 0 to 1, or none for the table$"
    for wrong in (True, 2, -1):
        with pytest.raises(InvalidActionError, match=no_seat):
            game_view(game, wrong)



@dataclass(frozen=True)
class _Held:
    seat: int
    faces: frozenset[int]


def test_plain_data_sorts_sets_names_keys_as_strings_and_goes_into_dicts() -> None:
    """Sets come out as sorted lists, dict keys as strings, and a dict's values made plain too
    (a dataclass in one, a tuple of sets in another)."""
    value = {2: (frozenset({5, 4}), {3, 1}), "held": _Held(1, frozenset({6, 2}))}
    assert plain(value) == {"2": [[4, 5], [1, 3]], "held": {"seat": 1, "faces": [2, 6]}}
    assert json.loads(json.dumps(plain(value))) == plain(value)


def test_a_finished_games_view_has_no_rolls_left() -> None:
    """After the last box the engine's turn counter is reset (three rolls, as for a new turn):
    the view says none are left, normal or saved."""
    game = play_out(Game("maxi", ["A", "B"], seed=4))
    assert game.is_over and game.rolls_split()[0] > 0
    view = game_view(game)
    assert (view.over, view.rolls_left, view.saved_rolls) == (True, 0, 0)


def test_a_bonus_earned_needs_nothing_more_and_one_short_needs_the_rest() -> None:
    """Over the threshold nothing more is needed (not a negative count); under it, the rest."""
    rs = get_ruleset("yatzy")
    bonus = rs.bonuses[0]
    over = bonus_progress(rs, bonus, {"fours": 16, "fives": 20, "sixes": 30})  # 66 of 63
    short = bonus_progress(rs, bonus, {"fours": 16, "fives": 20, "sixes": 24})  # 60 of 63
    assert (over.points, over.needed) == (bonus.points, 0)
    assert (short.points, short.needed) == (0, 3)


def test_a_tile_return_is_the_last_move_of_kind_restore() -> None:
    """DOZZY: tiles brought back before the roll show as the last move, of kind "restore"."""
    game = Game("dozzy", ["A"], seed=5)
    rng = random.Random(5)  # random moves that reach a turn with tiles to bring back
    while not game.may_restore():
        assert not game.is_over, "no turn with tiles to bring back: pick another seed"
        game.play(rng.choice(game.legal_actions()))
    game.play(next(a for a in game.legal_actions() if isinstance(a, Restore)))
    last = game_view(game).last
    assert last is not None and last.kind == "restore"


def test_the_outcome_in_a_view_names_how_the_game_ended_and_a_correction_after_the_end() -> None:
    """A finished game's outcome says how it ended and, by default, no correction after the
    end; a scorekeeper game whose first turn was corrected after the end says so."""
    game = play_out(Game("yatzy", ["A", "B"], seed=4))
    outcome = game.outcome()
    assert outcome is not None and outcome_view(outcome).corrected_after_end is False
    view = game_view(game).outcome
    assert view is not None and (view.termination, view.corrected_after_end) == ("completed", False)
    typed = Game("kids", ["A"], dice_from="players")
    for face, box in enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1):
        typed.apply(Roll((), (face,) * 5))
        typed.apply(Score(box))
    typed.amend(0, [Roll((), (1, 1, 1, 1, 2)), Score("ones")])
    after = game_view(typed).outcome
    assert after is not None and (after.termination, after.corrected_after_end) == ("completed", True)

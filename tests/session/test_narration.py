"""One narration for every front end: each kind of event in words, in every language, and
the same words for the web server's copy of an event (``event_words``)."""

from __future__ import annotations

import json

import pytest

from yatzy.errors import InvalidActionError
from yatzy.events import EVENTS, Event, GameOver, Rolled, RollOff, Scored, TilesMoved, Undone, event_from_dict
from yatzy.game import Game, Roll, Score
from yatzy.i18n import LANGUAGES, language
from yatzy.narration import (
    board_text,
    event_text,
    event_words,
    preparing_text,
    rolls_text,
    tiles_text,
    winners_text,
)
from yatzy.session import Preparing, Session
from yatzy.views import GameView, StandingView

TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")


def dozzy_with_four_out() -> Game:
    """A DOZZY game whose next turn may bring a tile back (tiles 3 4 5 6 out)."""
    game = Game("dozzy", ["Ann"], seed=1)
    for dice, box in [((1, 2, 3, 4, 4), Score("n4")), ((1, 2, 3, 5, 5), Score("n5")),
                      ((1, 1, 2, 3, 6), Score("n9")), ((3, 3, 3, 4, 5), Score("n3", (9,))),
                      ((6, 6, 1, 1, 2), Score("n6"))]:
        game.play(Roll((), dice))
        game.play(box)
    return game


def played() -> list[tuple[Event, GameView]]:
    """Every kind of event, each with a view of its game, from games played through sessions."""
    found: list[tuple[Event, GameView]] = []

    def add(session: Session, events: list[Event]) -> None:
        found.extend((e, session.view()) for e in events)

    s = Session(Game("maxi", ["Ann", "Bo"], seed=6, roll_off=True))
    add(s, s.start() + s.act("r") + s.act("r"))
    add(s, s.act(f"k {s.view().dice[0]}"))  # type: ignore[index]
    add(s, s.act("s chance"))  # Ann's score, and Bo's turn
    add(s, s.act("r") + s.act("s ones"))  # Bo's, two rolls saved
    add(s, s.undo())

    yahtzee = Game("yahtzee", ["Ann"], seed=6)
    s = Session(yahtzee)
    for box in ("yahtzee", "fives"):
        yahtzee.play(Roll((), (5, 5, 5, 5, 5)))
        add(s, s.act(f"s {box}"))  # the second: a Yahtzee bonus

    s = Session(dozzy_with_four_out())
    add(s, s.act("b 6"))
    add(s, s.undo())
    add(s, s.act("b 5") + s.act("r") + s.act(s.view().legal_actions[-1]))  # tiles move

    keeper = Game("yatzy", ["Ann", "Bo"], dice_from="players")
    s = Session(keeper)
    for dice, box in [((1, 1, 1, 1, 1), "ones"), ((2, 2, 3, 4, 4), "twos")]:
        s.act(keeper.roll_reaching(dice))
        s.act(f"s {box}")
    add(s, s.amend(0, [Roll((), (1, 1, 1, 2, 3)), Score("ones")]))
    s.act(keeper.roll_reaching((1, 3, 3, 5, 6)))
    add(s, s.undo())  # the dice typed, taken back before a box was filled

    s = Session(Game("kids", ["Ann"], seed=3))
    while not s.game.is_over:
        add(s, s.act("r") + s.act(s.view().legal_actions[-1]))
    return found


EVENTS_PLAYED = played()


def test_the_games_played_have_every_kind_of_event() -> None:
    assert {e.kind for e, _view in EVENTS_PLAYED} == set(EVENTS)
    assert any(isinstance(e, Undone) and e.number is None for e, _v in EVENTS_PLAYED)
    assert any(isinstance(e, Undone) and e.number is not None for e, _v in EVENTS_PLAYED)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_event_has_words_in_every_language(lang: str) -> None:
    """Each sentence is translated (it differs from the English one) and whole (no placeholder
    left), and reads as a sentence: it ends with a full stop or a "!"."""
    for e, view in EVENTS_PLAYED:
        english = event_text(e, view)
        with language(lang):
            words = event_text(e, view)
        assert words != english and "{" not in words and words.endswith((".", "!")), (e, words)


def test_the_words_of_each_kind_of_event() -> None:
    said = {e.kind: [] for e, _view in EVENTS_PLAYED}
    for e, view in EVENTS_PLAYED:
        said[e.kind].append(event_text(e, view))
    rolled = [e for e, _v in EVENTS_PLAYED if isinstance(e, Rolled)]
    first, again, kept = rolled[:3]
    assert said["rolled"][:3] == [
        f"Ann rolls {' '.join(map(str, first.dice))}.",
        f"Ann rolls all the dice again (roll 2): {' '.join(map(str, again.dice))}.",
        f"Ann keeps {again.dice[0]} and rolls again (roll 3): {' '.join(map(str, kept.dice))}."]
    scored = [e for e, _v in EVENTS_PLAYED if isinstance(e, Scored)]
    assert said["scored"][0] == f"Ann scores {scored[0].points} in 19 Chance; total {scored[0].total}."
    bo = scored[1].points
    assert said["scored"][1] == f"Bo scores {bo} in 1 Ones; total {bo}; saved rolls: 2."
    assert "Ann scores 25 in 5 Fives and a Yahtzee bonus of 100; total 175." in said["scored"]
    assert said["turn_passed"][0] == "Bo's turn, round 1."
    assert said["undone"] == ["Bo's score in 1 Ones is taken back.", "Ann's tiles go back out.",
                              "Ann takes back r = 13356."]
    assert said["tiles_restored"][0] == "Ann brings tile 6 back; tiles out: 3 4 5."
    assert said["tiles_moved"][-1].startswith("T") and "; tiles out: " in said["tiles_moved"][-1]
    assert said["amended"] == ["Corrected: Ann, round 1: 1 1 1 2 3 → 1 Ones 3."]
    roll_off = next(e for e, _v in EVENTS_PLAYED if isinstance(e, RollOff))
    assert said["roll_off"][0].startswith("Roll-off: Ann ") and said["roll_off"][0].endswith(
        f"{['Ann', 'Bo'][roll_off.first]} starts.")
    assert said["game_over"][0].startswith("Ann wins with ") and said["game_over"][0].endswith("!")


def test_tiles_that_move_and_tiles_that_do_not() -> None:
    view = Session(dozzy_with_four_out()).view()
    assert event_text(TilesMoved(1, 1, 0, (3,), (4, 5), (3, 6)), view) == \
        "Tile 3 goes out, tiles 4 5 come back; tiles out: 3 6."
    assert event_text(TilesMoved(1, 1, 0, (), (), ()), view) == "Tiles out: none."
    with language("ru"):  # a translation that begins in lower case begins the sentence in capitals
        assert event_text(TilesMoved(1, 1, 0, (3,), (), (3,)), view).startswith("Фишка 3 ")


def test_a_tie_and_a_win() -> None:
    view = Session(Game("yatzy", ["ann", "Bo", "Cy"], seed=1)).view()
    standings = (StandingView(0, "ann", 50, 1), StandingView(1, "Bo", 50, 1), StandingView(2, "Cy", 9, 3))
    assert event_text(GameOver(9, 9, "finished", standings, (0, 1)), view) == \
        "A tie: ann and Bo share the win with 50."  # a name is never capitalised
    assert event_text(GameOver(9, 9, "finished", standings[2:], (2,)), view) == "Cy wins with 9!"


def test_the_web_servers_copy_of_an_event_reads_the_same() -> None:
    """``event_words`` takes an event as the server sends it (JSON), in the client's language."""
    for e, view in EVENTS_PLAYED:
        sent = json.loads(e.to_json())
        assert event_from_dict(sent) == e
        for lang in LANGUAGES:
            with language(lang):
                assert event_words(sent, view, lang) == event_text(e, view)
    e, view = EVENTS_PLAYED[0]
    with pytest.raises(InvalidActionError, match="unknown language “xx”"):
        event_words(e.to_dict(), view, "xx")
    with pytest.raises(KeyError):
        event_words({**e.to_dict(), "kind": "presence"}, view, "en")


def test_rolls_tiles_and_progress_in_words() -> None:
    s = Session(Game("maxi", ["Ann"], seed=6))
    assert rolls_text(s.view()) == "3 rolls left"
    s.act("r")
    s.act("r")
    s.act("r")
    assert rolls_text(s.view()) == "no rolls left"
    s.act("s chance")
    s.act("r")
    assert rolls_text(s.view()) == "2 rolls left"
    s.act("s ones")  # two saved
    s.act("r")
    assert rolls_text(s.view()) == "2 rolls left + 2 saved rolls"
    assert board_text(()) == "tiles out: none" and board_text((3, 4)) == "tiles out: 3 4"
    assert tiles_text(frozenset()) == "no tile" and tiles_text(frozenset({9})) == "tile 9"
    assert tiles_text(frozenset({5, 4})) == "tiles 4 5"
    loading = Preparing("loading", "kids", ("casual",))
    assert preparing_text(loading) == "loading the Kids table for the casual bot"
    assert preparing_text(Preparing("ready", "kids", ("casual", "optimal"))) == \
        "the Kids table for the casual and optimal bots is ready"
    with language("fi"):
        assert "Kids" in preparing_text(Preparing("building", "kids", ("casual",), 1, 2))


def test_winners_of_a_view() -> None:
    s = Session(Game("kids", ["Ann", "Bo"], seed=3))
    while not s.game.is_over:
        s.act("r")
        s.act(s.view().legal_actions[-1])
    view = s.view()
    assert view.outcome is not None
    text = winners_text(view)
    best = view.outcome.standings[0].total
    assert text in (f"Ann wins with {best}!", f"Bo wins with {best}!",
                    f"A tie: Ann and Bo share the win with {best}.")


def test_a_keep_at_a_scorekeeper_table_is_said_to_be_guessed() -> None:
    """At a real table only the throws are typed: the dice kept are the engine's guess
    (Game.roll_reaching), and the words say so; a computer's roll keeps what was kept."""
    keeper = Game("yatzy", ["Ann"], dice_from="players")
    s = Session(keeper)
    s.act(keeper.roll_reaching((1, 1, 2, 3, 6)))
    [again] = s.act(keeper.roll_reaching((1, 1, 1, 4, 6)))
    assert isinstance(again, Rolled) and again.kept == (1, 1, 6)
    assert event_text(again, s.view()) == \
        "Ann keeps 1 1 6 (guessed from the dice typed) and rolls again (roll 2): 1 1 1 4 6."
    with language("fi"):
        assert "(päätelty kirjoitetuista nopista)" in event_text(again, s.view())
    seeded = Session(Game("yatzy", ["Ann"], seed=1))
    seeded.act("r")
    [kept] = seeded.act(f"k {seeded.view().dice[0]}")  # type: ignore[index]
    assert "guessed" not in event_text(kept, seeded.view())

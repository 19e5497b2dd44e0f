"""The game in words, for every front end: what each event says and how a view's round,
rolls, tiles and winners read, in the player's language, from the gettext catalogs.

The session's events are data; here they become sentences ("Ann keeps 3 3 and rolls again
(roll 2): 3 3 4 5 6."), each naming who moved, so a line read alone (a screen reader, a
log, the web page's announcements) says what happened. A front end chooses which events it
shows; the words are the same in all of them.

Everything here speaks the current language (call it inside ``with language(lang):``),
but :func:`event_words`, which the web server calls with a client's language. The texts
are plain: a front end that prints markup escapes them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .actions import Restore, Roll, Score, parse_action
from .bots import level_name
from .dice import show_dice
from .i18n import _, language, ngettext, number
from .names import box_label
from .session import (
    Amended,
    Event,
    GameOver,
    Preparing,
    Rolled,
    RollOff,
    Scored,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
    event_from_dict,
)
from .views import GameView, and_list

__all__ = ["duration_text", "event_text", "event_words", "preparing_text", "size_text", "table_cost_text",
           "table_progress_text", "rolls_text", "round_text", "round_words",
           "board_text", "tiles_text", "winners_text"]


# ---- a view's state in words --------------------------------------------------------------

def round_text(view: GameView) -> str:
    """ "round 3 of 15", or "final score" once the game is over."""
    if view.over:
        return _("final score")
    return _("round {n} of {rounds}").format(n=view.round, rounds=view.rounds)


def rolls_text(view: GameView) -> str:
    """ "2 rolls left", "no rolls left"; where unused rolls are saved, the saved ones apart:
    "1 roll left + 2 saved rolls"."""
    n, saved = view.rolls_left, view.has_saved_rolls and view.saved_rolls
    if not n and not saved:
        return _("no rolls left")
    normal = ngettext("{n} roll left", "{n} rolls left", n).format(n=n)
    if saved:
        return ngettext("{rolls} + {n} saved roll", "{rolls} + {n} saved rolls", view.saved_rolls).format(
            rolls=normal, n=view.saved_rolls)
    return normal


def board_text(tiles: Sequence[int]) -> str:
    """DOZZY's board: "tiles out: 3 4 5", "tiles out: none"."""
    return _("tiles out: {tiles}").format(tiles=show_dice(tiles))


def tiles_text(tiles: Iterable[int]) -> str:
    """A set of tiles in words: "tile 9", "tiles 4 5", "no tile"."""
    ts = sorted(tiles)
    if not ts:
        return _("no tile")
    return ngettext("tile {tiles}", "tiles {tiles}", len(ts)).format(tiles=show_dice(ts))


def winners_text(view: GameView) -> str:
    """ "Ann wins with 250!", or "A tie: Ann and Bo share the win with 250." (a finished game)."""
    assert view.outcome is not None
    return _winners([view.players[i].name for i in view.outcome.winners], view.outcome.standings[0].total)


def _winners(names: Sequence[str], total: int) -> str:
    if len(names) == 1:
        return _("{name} wins with {total}!").format(name=names[0], total=total)
    tie = _("A tie: {names} share the win with {total}").format(names=and_list(names), total=total)
    return _sentence(tie)


def preparing_text(p: Preparing) -> str:
    """What :meth:`Session.prepare` is doing: "loading the Kids table for the optimal bot"."""
    bots = and_list([level_name(level) for level in p.levels])  # in the player's language
    n, names = len(p.levels), dict(rules=p.ruleset.capitalize(), bots=bots)
    if p.stage == "loading":
        text = ngettext("loading the {rules} table for the {bots} bot",
                        "loading the {rules} table for the {bots} bots", n)
    elif p.stage == "building":
        text = ngettext("building the {rules} table for the {bots} bot",
                        "building the {rules} table for the {bots} bots", n)
    else:
        text = ngettext("the {rules} table for the {bots} bot is ready",
                        "the {rules} table for the {bots} bots is ready", n)
    return text.format(**names)


def duration_text(seconds: float) -> str:
    """Roughly how long: "a few seconds", "about 40 seconds", "about 5 minutes", "about 2 hours"."""
    if seconds < 10:
        return _("a few seconds")
    if seconds < 90:
        n = max(10, int(round(seconds / 5) * 5))
        return ngettext("about {n} second", "about {n} seconds", n).format(n=n)
    if seconds < 90 * 60:
        n = int(round(seconds / 60))
        return ngettext("about {n} minute", "about {n} minutes", n).format(n=n)
    n = int(round(seconds / 3600))
    return ngettext("about {n} hour", "about {n} hours", n).format(n=n)


def size_text(size: int) -> str:
    """Bytes as a player reads them: "1.8 GB", "140 MB", "under 1 MB"."""
    if size >= 1e9:
        return _("{n} GB").format(n=number(size / 1e9, 1))
    if size >= 1e6:
        return _("{n} MB").format(n=number(size / 1e6))
    return _("under 1 MB")


def table_progress_text(p: Preparing) -> str:
    """How far a table's build has come, and the time left once measured:
    "120,000 of 1,048,575 cards · about 4 minutes left"."""
    if p.stage != "building" or not p.total:
        return ""
    done = _("{done} of {total} cards").format(done=number(p.done), total=number(p.total))
    if p.seconds_left is None:
        return done + " · " + _("measuring the time left")
    return done + " · " + _("{time} left").format(time=duration_text(p.seconds_left))


def table_cost_text(rules: str, levels: Sequence[str], seconds: float, size: int,
                    instead: str | None) -> str:
    """The new game screen's word before a first game whose bots need a table not stored yet:
    what it costs, once, and what starts at once instead (the greedy bot; ``instead``, a game
    whose table is at hand)."""
    bots = and_list([level_name(level) for level in levels])
    text = ngettext("{rules}: the first game with the {bots} bot builds its table, {time} and {size}, "
                    "once; later games load it.",
                    "{rules}: the first game with the {bots} bots builds their table, {time} and {size}, "
                    "once; later games load it.", len(levels)).format(
        rules=rules, bots=bots, time=duration_text(seconds), size=size_text(size))
    text += " " + _("The greedy bot needs no table and plays at once.")
    if instead:
        text += " " + _("{rules} starts at once.").format(rules=instead)
    return text


# ---- events in words ----------------------------------------------------------------------

def _lead(template: str) -> str:
    """A translated message that begins a sentence, with a capital first letter (a message
    that begins with a name is left as it is: players write their names as they like)."""
    return template[:1].upper() + template[1:]


def _sentence(text: str) -> str:
    """A clause ended as a sentence (the six languages end one alike), so lines read one
    after another keep apart."""
    return text if text.endswith((".", "!", "?")) else text + "."


def event_text(e: Event, view: GameView) -> str:
    """One event as a sentence naming who moved. ``view`` gives the players' and boxes' names
    (any view of the game will do: a later one names them the same)."""
    def name(seat: int) -> str:
        return view.players[seat].name

    def box(number: int) -> str:
        b = view.players[0].boxes[number - 1]
        return box_label(b.number, b.name)

    if isinstance(e, RollOff):
        rolls = "; ".join(", ".join(f"{name(p)} {die}" for p, die in r) for r in e.rounds)
        return _("Roll-off: {rolls}. {name} starts.").format(rolls=rolls, name=name(e.first))
    if isinstance(e, Rolled):
        return _sentence(_rolled(e, name(e.player)))
    if isinstance(e, Scored):
        return _sentence(_scored(e, name(e.player), box(e.number)))
    if isinstance(e, TilesMoved):
        moved = []
        if e.tiles_out:
            moved.append(ngettext("tile {tiles} goes out", "tiles {tiles} go out", len(e.tiles_out))
                         .format(tiles=show_dice(e.tiles_out)))
        if e.tiles_back:
            moved.append(ngettext("tile {tiles} comes back", "tiles {tiles} come back", len(e.tiles_back))
                         .format(tiles=show_dice(e.tiles_back)))
        board = board_text(e.board_out)
        return _sentence(_lead(f"{', '.join(moved)}; {board}" if moved else board))
    if isinstance(e, TilesRestored):
        text = ngettext("{name} brings tile {tiles} back", "{name} brings tiles {tiles} back", len(e.tiles))
        return _sentence(f"{text.format(name=name(e.player), tiles=show_dice(e.tiles))}; "
                         f"{board_text(e.board_out)}")
    if isinstance(e, TurnPassed):
        return _sentence(_("{name}'s turn, round {round}").format(name=name(e.player), round=e.round))
    if isinstance(e, Undone):
        if e.number is not None:
            return _sentence(_lead(_("{name}'s score in {box} is taken back")).format(
                name=name(e.player), box=box(e.number)))
        if isinstance(parse_action(e.action), Restore):
            return _sentence(_lead(_("{name}'s tiles go back out")).format(name=name(e.player)))
        # a scorekeeper's entry of the dice thrown, taken back before its box was filled
        return _sentence(_("{name} takes back {action}").format(name=name(e.player), action=e.action))
    if isinstance(e, Amended):
        return _sentence(_amended(e, view))
    if isinstance(e, GameOver):
        return _winners([s.name for s in e.standings if s.player in e.winners], e.standings[0].total)
    raise TypeError(f"no words for a {e.kind} event")  # a new kind of event needs its words here


def _rolled(e: Rolled, name: str) -> str:
    dice = show_dice(e.dice)
    if e.roll == 1:
        return _("{name} rolls {dice}").format(name=name, dice=dice)
    if not e.kept:
        return _("{name} rolls all the dice again (roll {roll}): {dice}").format(
            name=name, roll=e.roll, dice=dice)
    return _("{name} keeps {kept} and rolls again (roll {roll}): {dice}").format(
        name=name, kept=show_dice(e.kept), roll=e.roll, dice=dice)


def _scored(e: Scored, name: str, box: str) -> str:
    """ "Ann scores 9 in 3 Threes; total 9", with a Yahtzee bonus and saved rolls when there are some."""
    text = ngettext("{name} scores {points} in {box}", "{name} scores {points} in {box}", e.points).format(
        name=name, points=e.points, box=box)
    if e.yahtzee_bonus:
        text += " " + _("and a Yahtzee bonus of {bonus}").format(bonus=e.yahtzee_bonus)
    text += "; " + _("total {total}").format(total=e.total)
    if e.bank:
        text += "; " + _("saved rolls: {n}").format(n=e.bank)
    return text


def _amended(e: Amended, view: GameView) -> str:
    """ "Corrected: Anna, round 3: 1 3 3 5 6 → 14 Chance 18"."""
    actions = [parse_action(a) for a in e.new]
    roll = next(a for a in reversed(actions) if isinstance(a, Roll))
    score = actions[-1]
    assert isinstance(score, Score)
    dice = tuple(sorted(roll.keep + (roll.result or ())))
    return _("Corrected: {round}").format(round=round_words(view, e.player, e.round, dice, score.category))


def round_words(view: GameView, player: int, number: int, dice: Sequence[int], box: str) -> str:
    """A finished round of a scorekeeper game: "Anna, round 3: 1 3 3 5 6 → 14 Chance 18" (the
    box's points as the card has them now)."""
    p = view.players[player]
    b = next(b for b in p.boxes if b.id == box)
    return _("{name}, round {n}: {dice} → {box} {points}").format(
        name=p.name, n=number, dice=show_dice(dice), box=box_label(b.number, b.name), points=b.points)


def event_words(event: Mapping[str, Any], view: GameView, lang: str) -> str:
    """An event as the web server sends it (:meth:`Event.to_dict`) in words, in ``lang``: the
    ``text`` of the event in the protocol. ``view`` is the game as the client sees it.

    :raises InvalidActionError: ``lang`` is not one of the six languages.
    :raises KeyError, TypeError: not an event's dict.
    """
    with language(lang):
        return event_text(event_from_dict(event), view)

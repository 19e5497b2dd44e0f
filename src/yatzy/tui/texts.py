"""Words the screens show, made from views and events (never from the rules).

Every function here speaks the current language: call it inside ``with language(lang):``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import _, ngettext
from ..names import box_label
from ..session import Event, GameOver, Rolled, RollOff, Scored, TilesMoved, TilesRestored, TurnPassed, Undone
from ..views import BonusView, GameView, and_list


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice))


def round_text(view: GameView) -> str:
    if view.over:
        return _("final score")
    return _("round {n} of {rounds}").format(n=view.round, rounds=view.rounds)


def rolls_text(view: GameView) -> str:
    """ "2 rolls left"; where unused rolls are saved, the saved ones apart: "1 roll left + 2 saved"."""
    normal = ngettext("{n} roll left", "{n} rolls left", view.rolls_left).format(n=view.rolls_left)
    if view.has_saved_rolls and view.saved_rolls:
        return ngettext("{rolls} + {n} saved roll", "{rolls} + {n} saved rolls", view.saved_rolls).format(
            rolls=normal, n=view.saved_rolls)
    return normal


def pace_text(pace: float) -> str:
    """A bonus pace in a few characters: "+4", "−3", "±0"."""
    n = round(pace)
    return "±0" if n == 0 else f"+{n}" if n > 0 else f"−{-n}"


def bonus_cell(bonus: BonusView) -> str:
    """A bonus in a card's column: "earned", "12 more" or "missed"."""
    if bonus.points:
        return _("earned")
    if not bonus.reachable:
        return _("missed")
    return _("{n} more").format(n=bonus.needed)


def bonus_sentence(name: str, bonus: BonusView) -> str:
    """ "Ann: the bonus needs 12 more, 4 ahead of the pace"."""
    if bonus.points:
        return _("{name}: the bonus is earned").format(name=name)
    if not bonus.reachable:
        return _("{name}: the bonus is out of reach").format(name=name)
    n = round(bonus.pace)
    if n > 0:
        pace = ngettext("{n} ahead of the pace", "{n} ahead of the pace", n).format(n=f"+{n}")
    elif n < 0:
        pace = ngettext("{n} behind the pace", "{n} behind the pace", -n).format(n=-n)
    else:
        pace = _("on the pace")
    return _("{name}: the bonus needs {n} more, {pace}").format(name=name, n=bonus.needed, pace=pace)


def tiles_text(tiles: Sequence[int]) -> str:
    return dice_text(tiles) if tiles else _("none")


def event_text(e: Event, view: GameView) -> str | None:
    """One line for the moves list: what happened, who did it. None for what needs no line."""
    def name(seat: int) -> str:
        return view.players[seat].name

    if isinstance(e, RollOff):
        rolls = "; ".join(", ".join(f"{name(p)} {die}" for p, die in r) for r in e.rounds)
        return _("Roll-off: {rolls}. {name} starts.").format(rolls=rolls, name=name(e.first))
    if isinstance(e, Rolled):
        if e.roll == 1:
            return _("{name} rolls {dice}").format(name=name(e.player), dice=dice_text(e.dice))
        if not e.kept:
            return _("{name} rolls every die again: {dice}").format(
                name=name(e.player), dice=dice_text(e.dice))
        return _("{name} keeps {kept} and rolls: {dice}").format(
            name=name(e.player), kept=dice_text(e.kept), dice=dice_text(e.dice))
    if isinstance(e, Scored):
        box = view.players[e.player].boxes[e.number - 1]
        text = ngettext("{name} scores {points} in {box}", "{name} scores {points} in {box}", e.points)
        text = text.format(name=name(e.player), points=e.points, box=box_label(box.number, box.name))
        if e.yahtzee_bonus:
            text += " " + _("and a Yahtzee bonus of {bonus}").format(bonus=e.yahtzee_bonus)
        return text
    if isinstance(e, TilesMoved):
        if not e.tiles_out and not e.tiles_back:
            return None
        parts = []
        if e.tiles_out:
            parts.append(ngettext("tile {tiles} goes out", "tiles {tiles} go out", len(e.tiles_out)).format(
                tiles=dice_text(e.tiles_out)))
        if e.tiles_back:
            parts.append(ngettext("tile {tiles} comes back", "tiles {tiles} come back", len(e.tiles_back))
                         .format(tiles=dice_text(e.tiles_back)))
        return "  " + ", ".join(parts)
    if isinstance(e, TilesRestored):
        return ngettext("{name} brings tile {tiles} back", "{name} brings tiles {tiles} back",
                        len(e.tiles)).format(name=name(e.player), tiles=dice_text(e.tiles))
    if isinstance(e, Undone):
        if e.number is None:
            return _("{name}'s tiles go back out").format(name=name(e.player))
        box = view.players[e.player].boxes[e.number - 1]
        return _("{name}'s score in {box} is taken back").format(
            name=name(e.player), box=box_label(box.number, box.name))
    if isinstance(e, TurnPassed):
        return None
    if isinstance(e, GameOver):
        return winners_text(view)
    return None


def winners_text(view: GameView) -> str:
    assert view.outcome is not None
    names = [view.players[i].name for i in view.outcome.winners]
    best = view.outcome.standings[0].total
    if len(names) == 1:
        return _("{name} wins with {total}!").format(name=names[0], total=best)
    return _("A tie: {names} share the win with {total}").format(names=and_list(names), total=best)

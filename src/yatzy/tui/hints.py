"""What the play screen says about the turn: whose it is, the hint under the dice, the key bar,
the bonus, what the picked box would do, the question before a 0, and DOZZY's tiles; each
from the view, in the current language."""

from __future__ import annotations

from rich.text import Text

from ..dice import show_dice
from ..i18n import _, ngettext, number
from ..names import box_label
from ..narration import board_text, rolls_text
from ..solver.coach import Option
from ..views import GameView, ScoreOption
from .texts import bonus_sentence, dice_text


def hint_text(view: GameView, person: bool, ready: bool, pace: float, on_coach: bool = False) -> str:
    """The line under the dice: what the player may do now, or who plays and at what pace;
    ``on_coach``: the coach has the arrows, and Tab goes to the card to fill a box."""
    if view.over:
        return _("n: a new game · q: quit")
    if not person:
        current = view.players[view.current or 0]
        if not ready:
            return _("{name} waits for its table.").format(name=current.name)
        text = _("{name} is playing: + faster, − slower ({pace} s a move), s skips.").format(
            name=current.name, pace=number(pace, 1))
        if view.last is not None and view.last.undoable:
            text += " " + _("u takes your move back.")
        return text
    if view.dice is None:
        if view.may_restore:
            return _("r rolls · b brings tiles back first")
        return _("r rolls the dice")
    if view.rolls_left + view.saved_rolls:
        if on_coach:
            return _("1–{n} hold a die · r rolls the others · Tab: the card, to fill a box").format(
                n=len(view.dice))
        return _("1–{n} hold a die · r rolls the others · ↑ ↓ Enter fill a box").format(n=len(view.dice))
    if on_coach:
        return _("No rolls left: Tab goes to the card to fill a box")
    return _("No rolls left: ↑ ↓ Enter fill a box")


def picked_text(view: GameView, box: str | None) -> str:
    """What the picked box would do now: its points, and in DOZZY its tiles."""
    option = next((o for o in view.score_options if o.id == box), None)
    if option is None:
        return ""
    box_name = box_label(option.number, option.name)
    text = _("{box}: {points} now").format(box=box_name, points=option.points)
    if view.board is not None:
        if option.tiles_out:
            text += "; " + board_text(option.tiles_out)
        choices = [c for c in option.returns if c]
        if choices:
            ways = _(" or ").join(dice_text(c) for c in choices)
            text += "; " + _("back: {choices}").format(choices=ways)
    return text


def tiles_board(view: GameView) -> Text:
    """DOZZY's tiles: those in play, those out, and whether b brings some back."""
    assert view.board is not None
    text = Text(_("Tiles") + "  ", style="bold")
    for t in range(1, 13):
        if t in view.board.tiles_in:
            text.append(f"[{t:>2}]", style="bold")
        else:
            text.append(" ·· ")
    text.append("\n" + _("out: {tiles}").format(tiles=show_dice(view.board.tiles_out)))
    if view.may_restore and view.board.tiles_out:
        text.append("  " + _("b brings {n} back").format(n=view.may_restore), style="bold")
    return text


def play_keys(view: GameView, person: bool, dice: int) -> list[tuple[str, str]]:
    """The key bar: the keys that matter now; the hold keys are those of the ruleset's ``dice``
    (1–5, or 1–6 in Maxi)."""
    if view.over:
        return [("n", _("new game")), ("ctrl+s", _("save")), ("?", _("help")), ("q", _("quit"))]
    keys = [("?", _("help"))]
    if person:
        keys += [("r", _("roll")), (f"1–{dice}", _("hold")), ("↑↓ ⏎", _("fill")), ("c", _("coach"))]
    else:
        keys += [("+ −", _("pace")), ("s", _("skip")), ("c", _("coach"))]
    if view.last is not None and view.last.undoable:
        keys.append(("u", _("undo")))
    return keys + [("ctrl+s", _("save")), ("ctrl+t", _("contrast")), ("q", _("quit"))]


def coach_keys(keys: list[tuple[str, str]], coaching: bool, on_coach: bool) -> list[tuple[str, str]]:
    """The key bar with the coach open: Tab's way to the card or the coach after the keys that
    fill (or in their place while the coach has the arrows), c closing it and t its target."""
    if not coaching:
        return keys
    keys = [(k, _("close coach") if k == "c" else what) for k, what in keys if not (on_coach and "↑↓" in k)]
    at = max((i + 1 for i, (k, _w) in enumerate(keys) if "↑↓" in k or k.startswith("1–")), default=1)
    at_c = next((i + 1 for i, (k, _w) in enumerate(keys) if k == "c"), len(keys))
    keys = keys[:at_c] + [("t", _("target"))] + keys[at_c:]
    return keys[:at] + [("tab", _("card") if on_coach else _("coach"))] + keys[at:]


def turn_text(view: GameView) -> str:
    """Whose turn it is, and the rolls left."""
    if view.current is None:
        return _("The game is over.")
    current = view.players[view.current]
    turn = _("{name}'s turn").format(name=current.name) if current.kind == "person" else \
        _("{name}'s turn (bot: {level})").format(name=current.name, level=current.level_name)
    return turn + " · " + rolls_text(view)


def bonus_text(view: GameView) -> str:
    """How far the player to move is on each bonus."""
    if view.current is None:
        return ""
    p = view.players[view.current]
    return "\n".join(bonus_sentence(p.name if len(p.bonuses) == 1 else
                                    f"{p.name} ({min(b.boxes)}–{max(b.boxes)})", b) for b in p.bonuses)


def warning_notice(warn: float | None) -> str:
    """What the warning before a costly move does now (w changed it)."""
    if warn is None:
        return _("No warning before costly moves (w turns it on).")
    return ngettext("Asks before a move that loses more than {points:g} point against the "
                    "coach's best (w changes it).",
                    "Asks before a move that loses more than {points:g} points against the "
                    "coach's best (w changes it).", int(warn) if warn == int(warn) else 2).format(points=warn)


def motion_notice(on: bool) -> str:
    """Whether the dice tumble when rolled (m changed it)."""
    return _("The dice tumble when rolled (m turns it off).") if on else \
        _("The dice show their faces at once (m brings the tumble back).")


def zero_question(option: ScoreOption, costly: tuple[float, Option] | None) -> str:
    """Before a 0 while another box would score; with what the move loses when the warning
    would ask too."""
    label = box_label(option.number, option.name)
    if costly is None:
        return _("Fill {box} with 0? Other boxes would score points with these dice.").format(box=label)
    lost, best = costly
    text = _("Fill {box} with 0? Other boxes would score points with these dice, and "
             "this move loses {points} points against the coach's best: {best}.")
    return text.format(box=label, points=number(lost, 1), best=best.action.describe())

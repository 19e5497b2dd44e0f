"""The line game's turns in words: the session's events as they come (:class:`Narrator`) and
what a person to move is told (whose turn, the dice, what may be undone)."""

from __future__ import annotations

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.markup import escape

from ..dice import show_dice
from ..i18n import _, ngettext
from ..names import box_label
from ..narration import board_text, event_text, rolls_text, round_text
from ..session import Event, Rolled, RollOff, Scored, Session, TilesMoved, TilesRestored, TurnPassed, Undone
from ..views import GameView
from .card import name_of, scorecard


def turn_head(view: GameView) -> str:
    head = f"\n[bold]{name_of(view, view.current or 0)}[/] · {round_text(view)}"
    return head + f" · {rolls_text(view)}" if view.has_saved_rolls else head


def dice_lines(view: GameView) -> list[RenderableType]:
    """A person's turn with dice on the table: the dice, rolls left, the open boxes, what to type."""
    dice = _("dice {dice}").format(dice=f"[bold yellow]{show_dice(view.dice or ())}[/]")
    status = f"[bold]{name_of(view, view.current or 0)}[/]  {dice}  ·  {rolls_text(view)}"
    if view.board:
        status += f"  ·  {board_text(view.board.tiles_out)}"
    cells = [f"{box_label(o.number, escape(o.name))} [bold]{o.points}[/]" if o.points else
             f"[dim]{box_label(o.number, escape(o.name))} 0[/]" for o in view.score_options]
    hint = _("k 335 keeps those dice and rolls the rest, s {n} scores box {n}") \
        if view.rolls_left or view.saved_rolls else _("s {n} scores box {n}")
    hint = hint.format(n=view.score_options[0].number)
    return [status, Columns(cells, padding=(0, 3)), f"[dim]{hint}[/]"]


def before_roll(view: GameView) -> list[str]:
    """A person's turn before the first roll: the tiles that may come back (DOZZY), and what
    r and u would do."""
    lines = [turn_head(view)]
    if view.may_restore and view.board:
        lines.append(ngettext("{tiles}: you may bring {n} tile back first, e.g. {action}",
                              "{tiles}: you may bring {n} tiles back first, e.g. {action}", view.may_restore)
                     .format(tiles=board_text(view.board.tiles_out), n=view.may_restore,
                             action=[a for a in view.legal_actions if a.startswith("b ")][-1]))
    last = view.last
    if last is None or not last.undoable:
        lines.append(_("r to roll"))
    elif last.kind == "restore":
        lines.append(_("r to roll, u to undo the tiles brought back"))
    elif last.player == view.current:
        lines.append(_("r to roll, u to undo your score"))
    else:
        lines.append(_("r to roll, u to undo {name}'s score").format(name=name_of(view, last.player)))
    return lines


def held_text(view: GameView, scorer: int) -> str:
    """After a person's score, before the bots play: go on, roll next, or undo."""
    if view.current is None:
        return _("That was the last box. Enter: the final score · u: undo your score")
    seats = view.players[view.current:] + view.players[:view.current]
    if next(p.seat for p in seats if p.kind == "person") == scorer:
        return _("Enter: {bot} plays · r: it plays, then you roll · u: undo your score").format(
            bot=name_of(view, view.current))
    return _("Enter: {bot} plays · u: undo your score").format(bot=name_of(view, view.current))



class Narrator:
    """Prints the session's events as they come: each bot move under the bot's name, people's
    scores and tile returns, undos, the roll-off, and the scorecard whenever a person is up
    next (after every turn when only bots play)."""

    def __init__(self, session: Session, con: Console) -> None:
        self.session, self.con = session, con
        seats = session.view().players
        self.bots = {p.seat for p in seats if p.kind == "bot"}
        self.only_bots = len(self.bots) == len(seats)
        self.heading: int | None = None
        """The bot whose turn has its heading printed."""
        self.scored: Scored | None = None
        """A score waiting for its tile moves (DOZZY sends them as the next event)."""

    def say(self, text: str) -> None:
        self.con.print(text, highlight=False)

    def __call__(self, e: Event) -> None:
        view = self.session.view()
        if self.scored is not None and not isinstance(e, TilesMoved):
            self.score(self.scored, None, view)
        if isinstance(e, RollOff):
            self.say(escape(event_text(e, view)))
        elif isinstance(e, TilesRestored) or isinstance(e, Rolled) and e.player in self.bots:
            self.move(e.player, event_text(e, view), view)  # a person sees their own dice at the prompt
        elif isinstance(e, Scored):
            self.scored = e
        elif isinstance(e, TilesMoved) and self.scored is not None:
            self.score(self.scored, e, view)
        elif isinstance(e, Undone):
            self.heading = None
            self.say(escape(event_text(e, view)))
        elif isinstance(e, TurnPassed):
            self.heading = None
            if e.player not in self.bots or self.only_bots:
                self.con.print("", scorecard(view))

    def move(self, player: int, text: str, view: GameView) -> None:
        """A move: indented under its heading for a bot, as it is for a person."""
        if player not in self.bots:
            return self.say(escape(text))
        if self.heading != player:
            self.say(f"\n[bold cyan]{name_of(view, player)}[/] · {round_text(view)}")
            self.heading = player
        self.say(f"  {escape(text)}")

    def score(self, e: Scored, tiles: TilesMoved | None, view: GameView) -> None:
        """ "Ann scores 9 in 3 Threes; total 9. Tile 3 goes out, tile 9 comes back; tiles out: 3 4 5."."""
        self.scored = None
        text = event_text(e, view)
        self.move(e.player, f"{text} {event_text(tiles, view)}" if tiles else text, view)

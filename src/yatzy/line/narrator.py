"""The line game's turns in words: the session's events as they come (:class:`Narrator`) and
what a person to move is told (whose turn, what may be undone)."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from ..events import Event, Rolled, RollOff, Scored, TilesMoved, TilesRestored, TurnPassed, Undone
from ..i18n import _, ngettext
from ..narration import board_text, event_text, rolls_sentence, rolls_text, round_text
from ..session import Session
from ..views import GameView
from .card import name_of


def turn_head(view: GameView) -> str:
    head = f"\n[bold]{name_of(view, view.current or 0)}[/] · {round_text(view)}"
    return head + f" · {rolls_text(view)}" if view.has_saved_rolls else head


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
    """Prints the session's events as they come, each once and nothing else (a screen reader
    reads every line): each bot move under the bot's name, people's rolls with the rolls left,
    their scores and tile returns, undos and the roll-off. The card is shown on request."""

    def __init__(self, session: Session, con: Console, own_rolls: bool = True) -> None:
        self.session, self.con = session, con
        self.own_rolls = own_rolls
        """Whether a person's roll is told (not where people type the dice they threw)."""
        self.bots = {p.seat for p in session.view().players if p.kind == "bot"}
        self.heading: int | None = None
        """The bot whose turn has its heading printed."""
        self.scored: Scored | None = None
        """A score waiting for its tile moves (DOZZY sends them as the next event)."""

    def say(self, text: str) -> None:
        self.con.print(text, highlight=False, soft_wrap=True)  # a sentence is one line

    def __call__(self, e: Event) -> None:
        view = self.session.view()
        if self.scored is not None and not isinstance(e, TilesMoved):
            self.score(self.scored, None, view)
        if isinstance(e, RollOff):
            self.say(escape(event_text(e, view)))
        elif isinstance(e, TilesRestored) or isinstance(e, Rolled) and e.player in self.bots:
            self.move(e.player, event_text(e, view), view)
        elif isinstance(e, Rolled) and self.own_rolls:
            self.say(escape(f"{event_text(e, view)} {rolls_sentence(view)}"))
        elif isinstance(e, Scored):
            self.scored = e
        elif isinstance(e, TilesMoved) and self.scored is not None:
            self.score(self.scored, e, view)
        elif isinstance(e, Undone):
            self.heading = None
            self.say(escape(event_text(e, view)))
        elif isinstance(e, TurnPassed):
            self.heading = None

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

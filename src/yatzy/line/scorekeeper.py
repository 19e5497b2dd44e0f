"""The scorekeeper line by line (``yatzy keep --plain``): people throw real dice at a table and
type what they threw; the session keeps the sheet.

Each prompt names the player and the round. A line of digits (``13356``, ``1 3 3 5 6``) puts a
throw on the table (the engine finds the roll that reaches it); a box (``s 3``, ``s chance`` or
just ``chance``) fills it; ``u`` takes typed dice or the last score back; ``f`` corrects a finished
round (its dice and its box; the engine replays the later turns and records the correction);
``c`` shows the card, ``h`` the help, ``save FILE`` saves, ``q`` quits.

Built on :class:`~yatzy.line.play.LineGame`: the same card, narrator, saving and quitting. Nothing here
applies a rule or adds up a score.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.columns import Columns
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..actions import Score, parse_tiles
from ..dice import parse, show_dice
from ..errors import InvalidActionError, YatzyError
from ..events import Amended, Event
from ..game import Game
from ..i18n import N_, _, language
from ..names import box_label
from ..narration import board_text, event_text, rolls_text, round_text, tiles_text, winners_text
from ..scorekeeping import correction, correction_returns, rounds
from ..session import DEFAULT_SAVE, Session
from ..views import GameView
from .card import scorecard, standings_text
from .parse import Command, parse_line
from .play import LineGame

KEEPER_HELP = N_("13356 the dice thrown · s 3 or chance fills a box · u undo · f fix an earlier round · "
                 "c card · save FILE · q quit · h help")
DIGITS = set("0123456789 ,")


class KeeperLine(LineGame):
    """The turn loop of a scorekeeper game: a line of dice, a box, or a command."""

    OWN_ROLLS = False  # the status shows the dice typed
    REVIEWS = False  # the kept dice are guessed from the throws typed: no analysis to trust

    def run(self) -> None:
        self.say(escape(_(KEEPER_HELP)))
        if self.session.view().version:
            self.con.print(scorecard(self.session.view()))
        stop = self.session.subscribe(self.narrator)
        heard = self.session.subscribe(self.amended)
        try:
            while self.turn():
                pass
        finally:
            heard()
            stop()

    def amended(self, e: Event) -> None:
        if isinstance(e, Amended):
            view = self.session.view()
            self.say(escape(event_text(e, view)))
            self.con.print("", scorecard(view))

    def turn(self) -> bool:
        view = self.session.view()
        if view.over:
            self.con.print("", scorecard(view))
            self.say(f"[bold]{escape(winners_text(view))}[/]")
            return False
        return self.read()

    def status(self, view: GameView) -> list[object]:
        """What the player to move sees: the dice on the table, the throws left, the boxes open."""
        name = escape(view.players[view.current or 0].name)
        head = f"\n[bold]{name}[/] · {round_text(view)} · {rolls_text(view)}"
        if view.dice is None:
            lines: list[object] = [head]
            if view.may_restore and view.board:
                lines.append(_("{tiles}: you may bring tiles back first, e.g. {action}").format(
                    tiles=board_text(view.board.tiles_out),
                    action=[a for a in view.legal_actions if a.startswith("b ")][-1]))
            return lines
        table = _("on the table: {dice}").format(dice=f"[bold]{show_dice(view.dice)}[/]")
        if view.board:
            table += f"  ·  {board_text(view.board.tiles_out)}"
        cells = [f"{box_label(o.number, escape(o.name))} [bold]{o.points}[/]" for o in view.score_options]
        return [head, table, Columns(cells, padding=(0, 3))]

    def prompt(self, view: GameView) -> str:
        name = view.players[view.current or 0].name
        return _("{name}, round {n}: dice thrown (or a box name, u undo, f fix, c card, q quit) > ").format(
            name=name, n=view.round)

    def read(self) -> bool:
        view = self.session.view()
        if self.shown != view.seq:
            for line in self.status(view):
                self.con.print(line, highlight=False)
            self.shown = view.seq
        try:
            line = self.ask(self.prompt(view))
        except EOFError:
            self.say(f"\n{standings_text(view)}")
            return False
        except KeyboardInterrupt:
            self.con.print()
            return not self.quit()
        try:
            return self.line(line.strip(), view)
        except YatzyError as e:
            self.error(str(e))
        return True

    def line(self, text: str, view: GameView) -> bool:
        """Act on one typed line; False when the game should stop."""
        if text and set(text) <= DIGITS:
            self.session.act(self.session.game.roll_reaching(parse(text)))
            return True
        words = text.split()
        if words and words[0].lower() in ("f", "fix"):
            self.fix(view)
            return True
        if words and words[0].lower() == "c":  # at a scorekeeper's table c is the card, as its help says
            return self.command(Command("card"), view)
        if words and words[0].lower() in ("h", "help", "?"):
            self.con.print(self.help_table())
            self.shown = None
            return True
        box = self.box_named(text, view)
        got = parse_line(f"s {box}" if box else text, view)
        if isinstance(got, Command):
            if got.verb == "go":
                self.shown = None
                return True
            if got.verb in ("unknown", "target"):  # no coach at a scorekeeper's table
                self.error(_("unknown command “{word}”").format(word=words[0]))
                self.say(escape(_(KEEPER_HELP)))
                return True
            return self.command(got, view)
        self.session.act(got)
        return True

    @staticmethod
    def box_named(text: str, view: GameView) -> str | None:
        """A box typed by its id or its name alone ("chance", "two pairs"): its id."""
        key = text.lower().replace("_", " ")
        return next((b.id for b in view.players[0].boxes
                     if key and key in (b.id.replace("_", " "), b.name.lower())), None)

    def help_table(self) -> Table:
        rows = [("13356", _("the dice thrown, as digits (spaces and commas may part them)")),
                ("s 3, chance", _("fill a box, by its number or its name")),
                ("u", _("undo the dice typed or the last score")),
                ("f", _("fix an earlier round: its dice and its box")),
                ("c", _("show the scorecard")),
                ("save FILE", _("save the game (default {file}); continue with yatzy play --load FILE")
                 .format(file=DEFAULT_SAVE)),
                ("q", _("quit (asks first and offers to save)"))]
        grid = Table.grid(padding=(0, 3))
        for command, text in rows:
            grid.add_row(command, escape(text))
        return grid

    def fix(self, view: GameView) -> None:
        """Ask which round, its dice and its box; the session corrects it or says why not."""
        turns = [(r.player, r.number) for r in rounds(self.session.game)]
        if not turns:
            raise InvalidActionError(_("no round is finished yet: there is nothing to fix"))
        names = [p.name for p in view.players]
        player = 0
        if len(names) > 1:
            answer = self.ask(_("Fix whose round? ({names}) > ").format(names=", ".join(names))).strip()
            found = [i for i, n in enumerate(names) if n.lower() == answer.lower()]
            if answer.isdigit() and 1 <= int(answer) <= len(names):
                found = [int(answer) - 1]
            if not found:
                raise InvalidActionError(_("no player “{name}” at this table").format(name=answer))
            player = found[0]
        mine = [(i, r) for i, (p, r) in enumerate(turns) if p == player]
        if not mine:
            raise InvalidActionError(_("{name} has no finished round yet").format(name=names[player]))
        answer = self.ask(_("Which round of {name}'s (1–{last})? > ").format(
            name=names[player], last=len(mine))).strip()
        if not answer.isdigit() or not 1 <= int(answer) <= len(mine):
            raise InvalidActionError(_("“{answer}” is not one of {name}'s rounds, 1 to {last}").format(
                answer=answer, name=names[player], last=len(mine)))
        turn = mine[int(answer) - 1][0]
        dice = parse(self.ask(_("The dice as they lay when the box was filled > ")))
        typed = self.ask(_("The box they filled (its number or name) > ")).strip()
        box = self.box_named(typed, view)
        returns = None
        if box is None:
            got = parse_line(f"s {typed}", view)
            assert isinstance(got, Score)
            box, returns = got.category, got.returns
        choices = correction_returns(self.session.game, turn, dice, box)
        if returns is None and len(choices) > 1:  # DOZZY: the rules leave a choice of tiles to bring back
            answer = self.ask(_("Which tiles came back? ({choices}) > ").format(
                choices=_(" or ").join(tiles_text(c) for c in choices))).strip()
            returns = tuple(sorted(parse_tiles(answer)))
        self.session.amend(turn, correction(self.session.game, turn, dice, box, returns))
        self.shown = None


def keep_score(game: Game, lang: str = "en", ask: Callable[[str], str] = input,
               console: Console | None = None) -> Game:
    """Keep the score of ``game`` (a scorekeeper game) line by line until it ends or the players
    quit; a finished game is kept in the history."""
    con = console or Console()
    with language(lang):
        KeeperLine(Session(game, lang=lang), con, ask).play()
    return game

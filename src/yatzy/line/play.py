"""The line game: people and bots around one terminal, one typed line at a time.

A thin front end on :class:`~yatzy.session.Session`, in three parts kept apart:

- parsing: :func:`parse_line` turns a typed line into an action (the notation of
  :mod:`yatzy.actions`, with boxes also by their fixed number: ``s 6``) or a :class:`Command`;
- rendering: text from a :class:`~yatzy.views.GameView` and from the session's events;
- the loop: :class:`LineGame` reads lines, sends actions to the session and lets the bots
  play, while a :class:`Narrator` prints every event as it comes.

The session alone changes the game: nothing here applies a rule or adds up a score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rich import box
from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..actions import Action, Roll, parse_action
from ..dice import show_dice
from ..errors import IllegalActionError, InvalidActionError, YatzyError
from ..game import Game
from ..i18n import N_, _, language, ngettext, pgettext
from ..names import box_label, label
from ..narration import (
    board_text,
    event_text,
    preparing_text,
    rolls_text,
    round_text,
    table_progress_text,
    winners_text,
)
from ..recording import Recorder
from ..seats import Seat
from ..session import (
    DEFAULT_SAVE,
    Event,
    Preparing,
    Rolled,
    RollOff,
    SaveError,
    Scored,
    Session,
    TilesMoved,
    TilesRestored,
    TurnPassed,
    Undone,
)
from ..views import BonusView, BoxView, GameView

SHORT_HELP = N_("r roll · k 335 keep those dice, roll the rest · s 3 score box 3 · c scorecard · "
                "u undo · save FILE · q quit · h help")
BOT_PACE = 0.3
"""Seconds between two bot moves on a terminal, so that a person can follow them."""


# ---- parsing: a typed line -> an action or a command ----------------------------------------

@dataclass(frozen=True)
class Command:
    """A typed line that is not an action."""

    verb: str
    """go (an empty line), help, card, undo, save, quit or unknown."""
    arg: str = ""
    """The word typed; save: the file name."""


COMMANDS = {"u": "undo", "undo": "undo", "c": "card", "card": "card", "h": "help", "help": "help",
            "?": "help", "q": "quit", "quit": "quit", "exit": "quit"}
ACTION_VERBS = ("r", "roll", "k", "keep", "s", "score", "b", "back", "restore")


def parse_line(line: str, view: GameView) -> Action | Command:
    """A typed line as an action or a command; InvalidActionError if the action is malformed.
    A box may be named by its fixed number on the view's card: ``s 6``."""
    words = line.split()
    if not words:
        return Command("go")
    verb = words[0].lower()
    if verb == "save":
        return Command("save", line.split(None, 1)[1].strip() if words[1:] else DEFAULT_SAVE)
    if verb in COMMANDS or verb not in ACTION_VERBS:
        return Command(COMMANDS.get(verb, "unknown"), words[0])
    if verb in ("s", "score"):
        if not words[1:]:
            raise InvalidActionError(_("name the box to fill by its number, e.g. s 3"))
        boxes = view.players[0].boxes
        key = str(int(words[1])) if words[1].isdigit() else words[1].lower()
        found = next((b for b in boxes if key in (str(b.number), b.id)), None)
        if found is None and words[1].isdigit():
            raise InvalidActionError(_("there is no box {n}: the boxes are numbered 1 to {last}").format(
                n=int(words[1]), last=len(boxes)))
        if found is None:
            raise InvalidActionError(
                _("there is no box “{word}”: write its number from the list, e.g. s 3").format(word=words[1]))
        if view.board is None and words[2:]:
            raise InvalidActionError(_("this game has no tiles: write just s {n}").format(n=found.number))
        words[1] = found.id
    return parse_action(" ".join(words))


# ---- rendering: views and events as text ------------------------------------------------------

def name_of(view: GameView, seat: int) -> str:
    return escape(view.players[seat].name)


def box_text(b: BoxView) -> str:
    return escape(box_label(b.number, b.name))


def bonus_status(bonus: BonusView) -> str:
    """ "earned", "12 more" or "out of reach"."""
    if not bonus.needed:
        return _("earned")
    return _("{n} more").format(n=bonus.needed) if bonus.reachable else _("out of reach")


def scorecard(view: GameView) -> Table:
    """Every box in card order with its number, each section's sum and bonus, and the totals."""
    title = f"{view.title} · {round_text(view)}"
    t = Table(title=escape(title), title_justify="left", min_width=len(title), box=box.SIMPLE_HEAD,
              show_edge=False, caption=board_text(view.board.tiles_out) if view.board else None,
              caption_justify="left")
    t.add_column(label("category"))
    players, bonuses = view.players, view.players[0].bonuses
    for p in players:
        t.add_column(escape(p.name), justify="right", header_style="bold reverse" if p.current else "bold")
    for i, b in enumerate(players[0].boxes):
        t.add_row(box_text(b), *("[dim]·[/]" if p.boxes[i].points is None else str(p.boxes[i].points)
                                 for p in players))
        for j, bonus in enumerate(bonuses):
            if max(bonus.boxes) == b.number:
                sums = label("upper") if len(bonuses) == 1 else \
                    f"{label('total')} {min(bonus.boxes)}–{max(bonus.boxes)}"
                t.add_row(f"[dim]{sums}[/]", *(f"[dim]{p.bonuses[j].subtotal}[/]" for p in players))
                t.add_row("[dim]" + _("for the bonus") + "[/]",
                          *(f"[dim]{bonus_status(p.bonuses[j])}[/]" for p in players))
                t.add_row(label("bonus"), *(str(p.bonuses[j].points) for p in players), end_section=True)
    if view.has_yahtzee_bonus or any(p.yahtzee_bonus for p in players):
        t.add_row(label("yahtzee_bonus"), *(str(p.yahtzee_bonus) for p in players))
    if view.has_saved_rolls:
        t.add_row(_("saved rolls"), *(str(p.bank) for p in players))
    t.add_row(label("total"), *(str(p.total) for p in players), style="bold")
    return t


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


def standings_text(view: GameView) -> str:
    ranking = " · ".join(f"{escape(p.name)} {p.total}" for p in sorted(view.players, key=lambda p: p.rank))
    return _("Standings ({round}): {ranking}").format(round=round_text(view), ranking=ranking)


def help_table(view: GameView) -> Table:
    rows = [("r", _("roll (the first roll of a turn throws all the dice)")),
            ("k 335", _("keep those dice and roll the others")),
            ("s 3", _("score box 3 (a box keeps its number all game; s two_pairs works too)"))]
    if view.board:
        rows += [("s 3 9", _("score box 3 and bring tile 9 back (s 3 4 5 brings tiles 4 and 5)")),
                 ("b 11 12", _("before your first roll, with 4 or more tiles out: bring those back"))]
    rows += [("c", _("show the scorecard")), ("u", _("undo the last score, until the next player rolls")),
             ("save FILE", _("save the game (default {file}); continue with yatzy play --load FILE").format(
                 file=DEFAULT_SAVE)),
             ("q", _("quit (asks first and offers to save)"))]
    grid = Table.grid(padding=(0, 3))
    for command, text in rows:
        grid.add_row(command, escape(text))
    return grid


# ---- the loop ---------------------------------------------------------------------------------

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


class LineGame:
    """The turn loop: bots play, a person types a line, the session acts on it."""

    def __init__(self, session: Session, con: Console, ask: Callable[[str], str], pace: float = 0) -> None:
        self.session, self.con, self.ask, self.pace = session, con, ask, pace
        self.narrator = Narrator(session, con)
        last = session.view().last
        self.held = last.player if last and last.kind == "score" and last.undoable \
            and session.waiting_for() is None else None
        """A person who just scored, before the bots play or the game ends: they may still undo."""
        self.roll_for: int | None = None
        """A person who typed r to let the bots play: their next turn starts with a roll."""
        self.shown: int | None = None
        """The number of events when the person to move last saw the game."""
        self.recorder = Recorder(session, failed=self.error)
        """Keeps the game in the history the moment it ends (before the narrator hears of it)."""

    def say(self, text: str) -> None:
        self.con.print(text, highlight=False)

    def error(self, text: str) -> None:
        self.say(f"[red]{escape(text)}[/]")

    def play(self) -> None:
        """The game until it ends or the players quit; then where the finished game is kept."""
        self.run()
        if self.recorder.kept is not None:
            self.say(escape(self.recorder.kept))

    def run(self) -> None:
        self.say(f"[dim]{escape(_(SHORT_HELP))}[/]")
        if self.session.view().version:
            self.con.print(scorecard(self.session.view()))  # a loaded game: where it stands
        stop = self.session.subscribe(self.narrator)
        try:
            while self.turn():
                pass
        finally:
            stop()

    def turn(self) -> bool:
        """Let the bots play unless a person holds them, then read a line; False to stop."""
        if self.held is None:
            try:
                self.session.advance(self.pace)
            except KeyboardInterrupt:  # while bots play: the bot's heading again if the game goes on
                self.con.print()
                self.narrator.heading = None
                return not self.quit()
            view = self.session.view()
            if view.over:
                self.con.print("", scorecard(view))
                self.say(f"[bold green]{escape(winners_text(view))}[/]")
                return False
            if self.roll_for == view.current and view.dice is None and not view.may_restore:
                self.say(turn_head(view))
                self.session.act(Roll())
            self.roll_for = None
        return self.read()

    def read(self) -> bool:
        """Show what changed, read a line and act on it; False when the game should stop."""
        view = self.session.view()
        if self.shown != view.seq:
            lines = [held_text(view, self.held)] if self.held is not None else \
                before_roll(view) if view.dice is None else dice_lines(view)
            for line in lines:
                self.con.print(line, highlight=False)
            self.shown = view.seq
        try:
            line = self.ask("> ")
        except EOFError:
            self.say(f"\n{standings_text(view)}")
            return False
        except KeyboardInterrupt:  # Ctrl-C: as q, so a game is not lost to a stray key
            self.con.print()
            return not self.quit()
        try:
            got = parse_line(line, view)
            if isinstance(got, Command):
                return self.command(got, view)
            if self.held is not None:  # a person's score waits: Enter lets the bots play, r too, then rolls
                if got != Roll() and view.current is None:
                    raise IllegalActionError(_("the game is over: press Enter for the final score"))
                if got != Roll():
                    raise IllegalActionError(_("{name} plays next: press Enter to go on").format(
                        name=view.players[view.current or 0].name))
                self.held, self.roll_for = None, self.held
                return True
            scored = [e for e in self.session.act(got) if isinstance(e, Scored)]
            if scored and self.session.waiting_for() is None:
                self.held = scored[0].player
        except YatzyError as e:
            self.error(str(e))
        return True

    def command(self, cmd: Command, view: GameView) -> bool:
        if cmd.verb == "go":
            if self.held is None:
                self.shown = None
            self.held = None
        elif cmd.verb in ("help", "card"):
            self.con.print(help_table(view) if cmd.verb == "help" else scorecard(view))
            self.shown = None
        elif cmd.verb == "undo":
            self.session.undo()
            self.held = None
        elif cmd.verb == "save":
            self.save(cmd.arg)
        elif cmd.verb == "quit":
            return not self.quit()
        else:
            self.error(_("unknown command “{word}”").format(word=cmd.arg))
            self.say(f"[dim]{escape(_(SHORT_HELP))}[/]")
        return True

    def save(self, path: str, going_on: bool = True) -> bool:
        try:
            self.session.save(path)
        except SaveError as e:
            self.error(str(e) if going_on else _("could not save the game to {path}: {reason}").format(
                path=e.path, reason=e.reason))
            return False
        self.say(_("saved to {path}; continue it with: yatzy play --load {path}").format(path=escape(path)))
        return True

    def quit(self) -> bool:
        """Confirm, offer to save, show the standings; False if the player goes on playing."""
        try:
            answer = self.ask(_("Quit the game? y to quit, Enter to go on > ")).strip().lower()
            if answer not in ("y", "yes", pgettext("answer", "y"), pgettext("answer", "yes")):
                self.say(_("The game goes on."))
                return False
            while True:
                path = self.ask(_("Save it first? A file name, Enter for {file}, n not to save > ").format(
                    file=DEFAULT_SAVE)).strip() or DEFAULT_SAVE
                if path.lower() in ("n", "no", pgettext("answer", "n"), pgettext("answer", "no")) \
                        or self.save(path, going_on=False):
                    break
        except (EOFError, KeyboardInterrupt):
            self.con.print()
        self.say(standings_text(self.session.view()))
        return True


def prepare(session: Session, con: Console) -> None:
    """Build the solver bots' table in sight: a progress bar while it loads or builds, with the
    cards done and the time left, and a line saying so when it is built (once; later games load
    it). Bots that need no table need nothing here."""
    bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                   TextColumn("{task.fields[left]}"), TimeElapsedColumn(), console=con, transient=True,
                   disable=not con.is_terminal)
    task = bar.add_task("", total=None, left="")

    def report(p: Preparing) -> None:
        if p.stage == "building" and bar.tasks[0].total is None:
            doing = preparing_text(p)
            con.print(_("{doing}, once; later games load it").format(doing=doing), highlight=False)
        bar.start()
        bar.update(task, description=preparing_text(p), completed=p.done, total=p.total,
                   left=table_progress_text(p))

    try:
        session.prepare(report)
    finally:
        if bar.live.is_started:
            bar.stop()


def hot_seat(game: Game, kinds: Sequence[str] | None = None, lang: str = "en",
             ask: Callable[[str], str] = input, console: Console | None = None) -> Game:
    """Play until the game ends or the players quit; a finished game is kept in the history.
    The game's seats say who is a bot; ``kinds`` ("human" or a bot level per seat), if given,
    seats people and bots anew."""
    con = console or Console()
    with language(lang):
        if kinds is not None:
            game.seats = tuple(Seat(s.name) if k == "human" else Seat(s.name, "bot", k)
                               for s, k in zip(game.seats, kinds, strict=True))
        session = Session(game, lang=lang)
        line = LineGame(session, con, ask, BOT_PACE if con.is_terminal else 0)
        prepare(session, con)
        line.play()
    return game

"""The line game: people and bots around one terminal, one typed line at a time.

A thin front end on :class:`~yatzy.session.Session`, in parts kept apart:

- parsing (:mod:`.parse`): a typed line as an action (the notation of :mod:`yatzy.actions`,
  with boxes also by their fixed number: ``s 6``) or a command;
- the turns in words (:mod:`.narrator`): each event as it comes and what a person to move is
  told; what is shown on request (:mod:`.card`): the scorecard, the standings, the help;
- the loop: :class:`LineGame` reads lines, sends actions to the session and lets the bots
  play, while a :class:`~.narrator.Narrator` prints every event as it comes.

The session alone changes the game: nothing here applies a rule or adds up a score.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ..actions import Roll
from ..errors import IllegalActionError, YatzyError
from ..events import Rolled, Scored
from ..game import Game
from ..i18n import N_, _, language, pgettext
from ..narration import (
    costly_move_text,
    dice_status_text,
    preparing_text,
    score_options_text,
    table_progress_text,
    winners_text,
)
from ..recording import Recorder
from ..seats import Seat
from ..session import DEFAULT_SAVE, Preparing, SaveError, Session
from ..solver.coach import Option
from ..solver.warm import warm_up_soon
from ..views import GameView
from .card import help_table, scorecard, standings_text
from .coach import LineCoach
from .narrator import Narrator, before_roll, held_text, turn_head
from .parse import Command, parse_line
from .review import analysis_lines, history_lines

SHORT_HELP = N_("r roll · k 335 keep those dice, roll the rest · s 3 score box 3 · s the boxes · c coach · "
                "card · u undo · save FILE · q quit · h help")
AFTER_HELP = N_("a: the analysis of your decisions · every: each decision in a line · history: your finished "
                "games · card: the scorecard · Enter: done")
BOT_PACE = 0.3
"""Seconds between two bot moves on a terminal, so that a person can follow them."""


class LineGame:
    """The turn loop: bots play, a person types a line, the session acts on it."""

    OWN_ROLLS = True
    """A person's roll is told as it comes (not where people type the dice they threw)."""
    REVIEWS = True
    """The analysis and the history are offered after the end."""

    def __init__(self, session: Session, con: Console, ask: Callable[[str], str], pace: float = 0) -> None:
        self.session, self.con, self.ask, self.pace = session, con, ask, pace
        self.narrator = Narrator(session, con, self.OWN_ROLLS)
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
        self.coach = LineCoach(session, con, self.tell)
        self.input_ended = False
        """The input has ended (or the terminal went): nothing more is asked."""

    def say(self, text: str) -> None:
        self.con.print(text, highlight=False, soft_wrap=True)  # a sentence is one line

    def tell(self, text: str) -> None:
        """A line of plain text (names are text, never markup)."""
        self.con.print(text, markup=False, highlight=False, soft_wrap=True)

    def error(self, text: str) -> None:
        self.say(f"[red]{escape(text)}[/]")

    def play(self) -> None:
        """The game until it ends or the players quit; then where the finished game is kept, and
        after a game played to its end the analysis and the history on request."""
        self.run()
        if self.recorder.kept is not None:
            self.say(escape(self.recorder.kept))
        if self.REVIEWS and self.session.game.is_over and not self.input_ended:
            self.after()

    def after(self) -> None:
        """After the end: the analysis, the history or the card, each on request, until Enter."""
        self.tell(_(AFTER_HELP))
        while True:
            try:
                word = self.ask("> ").strip().lower()
            except (EOFError, KeyboardInterrupt):
                return
            if word in ("", "q", "quit", "exit"):
                return
            if word in ("a", "analysis", "every"):
                lines = analysis_lines(self.coach, self.recorder, every=word == "every")
            elif word == "history":
                lines = history_lines()
            elif word == "card":
                self.con.print(scorecard(self.session.view()))
                continue
            elif word in ("h", "help", "?"):
                lines = [_(AFTER_HELP)]
            else:
                self.error(_("unknown command “{word}”").format(word=word))
                lines = [_(AFTER_HELP)]
            for line in lines:
                self.tell(line)

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
                self.shown = self.session.seq  # the narrator has told the roll
            self.roll_for = None
        return self.read()

    def read(self) -> bool:
        """Show what changed, read a line and act on it; False when the game should stop."""
        view = self.session.view()
        if self.shown != view.seq:
            lines = [held_text(view, self.held)] if self.held is not None else \
                before_roll(view) if view.dice is None else [escape(dice_status_text(view))]
            for line in lines:
                self.con.print(line, highlight=False, soft_wrap=True)
            self.shown = view.seq
        try:
            line = self.ask("> ")
        except EOFError:
            self.input_ended = True
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
            found = self.coach.cost(got)
            if found is not None and not self.confirm(*found):
                return True
            events = self.session.act(got)
            if any(isinstance(e, Rolled) for e in events):
                self.shown = self.session.seq  # the narrator has told the roll: nothing to add
            scored = [e for e in events if isinstance(e, Scored)]
            if scored and self.session.waiting_for() is None:
                self.held = scored[0].player
        except YatzyError as e:
            self.error(str(e))
        return True

    def confirm(self, lost: float, best: Option) -> bool:
        """The warning before a costly move: whether the player plays it anyway."""
        self.tell(costly_move_text(lost, best))
        try:
            answer = self.ask(_("y to play it, Enter to choose again > "))
        except (EOFError, KeyboardInterrupt):
            answer = ""
        if is_yes(answer):
            return True
        self.tell(_("Not played: choose your move."))
        return False

    def command(self, cmd: Command, view: GameView) -> bool:
        if cmd.verb == "go":
            if self.held is None:
                self.shown = None
            self.held = None
        elif cmd.verb in ("help", "card"):
            self.con.print(help_table(view) if cmd.verb == "help" else scorecard(view))
            self.shown = None
        elif cmd.verb == "boxes":
            if view.dice is None or not view.score_options:
                self.error(_("roll first: which boxes you may fill depends on the dice"))
            else:
                self.tell(score_options_text(view))
        elif cmd.verb == "coach":
            for line in self.coach.advice(view):
                self.tell(line)
        elif cmd.verb == "target":
            self.coach.play_for(cmd.arg)
        elif cmd.verb == "warn":
            self.coach.cycle_warning()
        elif cmd.verb == "history":
            for line in history_lines():
                self.tell(line)
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
            answer = self.ask(_("Quit the game? y to quit, Enter to go on > "))
            if not is_yes(answer):
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


def is_yes(answer: str) -> bool:
    """Whether a typed answer says yes (y or yes, in English or the player's language)."""
    return answer.strip().lower() in ("y", "yes", pgettext("answer", "y"), pgettext("answer", "yes"))


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
        if not game.ruleset.uses_board:  # the coach's first answer after an install waits for no compiler
            warm_up_soon()
        prepare(session, con)
        line.play()
    return game

"""The coach in the line game: the moves for the dice on the table ranked by the exact solver and
read out as sentences, best first (``c``), and the warning before a move that loses more than the
player allows against the coach's best (``w`` turns it on and changes how much).

``t 250`` has the coach play for a final score instead: the moves ranked by their exact chance of
ending the game with 250 or more (``t`` alone: by the points to expect again); the solver says
when a position is too early for that, and the coach ranks by the points to expect meanwhile.

The solver's table is built (or loaded) the first time the coach or the warning needs it, in
sight: a line saying so and a progress bar; Ctrl-C stops it and the game goes on. DOZZY has no
exact table (the shared board is beyond the solver): the coach says so and gives the DOZZY bot's
rule of thumb, and the warning never asks.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from ..actions import Action, Roll, Score
from ..analysis import ranked_reasons
from ..bots import DozzyBot
from ..errors import InvalidActionError
from ..game import Game
from ..i18n import _, ngettext, number
from ..narration import (
    coach_chance_text,
    coach_head_text,
    coach_option_text,
    coach_target_head_text,
    more_moves_text,
    target_working_text,
)
from ..session import Session
from ..solver.coach import Coach, Option
from ..solver.solve import solve
from ..solver.target import check_target, game_target
from ..views import GameView

SHOWN = 3
"""How many moves the coach reads out, best first: enough to compare, few enough to listen to."""
WARN_STEPS = (1.0, 3.0, 5.0, 10.0)
"""The points a move may lose before the warning asks (w cycles through them, then off), as in
the full-screen game."""


class LineCoach:
    """The coach and the warning of one line game; ``say`` prints a line of plain text."""

    def __init__(self, session: Session, con: Console, say: Callable[[str], None]) -> None:
        self.session, self.con, self.say = session, con, say
        self.coach: Coach | None = None
        """The coach of the game's ruleset once its table is at hand."""
        self.warn_above: float | None = None
        """Ask before a move that loses more than this many points (None: never ask)."""
        self.target: int | None = None
        """The final score the coach plays for (t), or None: the best expected score."""

    def play_for(self, text: str) -> None:
        """t: play for the final score typed (checked: a whole number a game of these rules can
        reach), or, with nothing typed, for the best expected score again."""
        game = self.session.game
        if game.ruleset.uses_board:
            self.say(no_table_text())
            return
        if not text:
            self.target = None
            self.say(_("The coach ranks the moves by the points to expect again (t 250 plays for a "
                       "final score)."))
            return
        self.target = check_target(game.ruleset, text)
        self.say(ngettext("The coach plays for {target} point or more at the end: c ranks the moves by "
                          "their chance of that (t alone: the points to expect again).",
                          "The coach plays for {target} points or more at the end: c ranks the moves by "
                          "their chance of that (t alone: the points to expect again).",
                          self.target).format(target=self.target))

    def table(self) -> Coach | None:
        """The coach of the game's ruleset, its table loaded or built now in sight; None when the
        player stopped the build (Ctrl-C)."""
        if self.coach is not None:
            return self.coach
        rules = self.session.view().title
        bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                       TimeElapsedColumn(), console=self.con, transient=True,
                       disable=not self.con.is_terminal)
        task = bar.add_task(rules, total=None)

        def progress(done: int, total: int) -> None:
            if not bar.live.is_started:
                self.say(_("Building the {rules} table for the coach, once; later games load it "
                           "(Ctrl-C stops it).").format(rules=rules))
                bar.start()
            bar.update(task, completed=done, total=total)

        try:
            self.coach = Coach(solve(self.session.game.ruleset, progress=progress))
        except KeyboardInterrupt:
            self.say(_("The table was not built; the game goes on."))
        finally:
            if bar.live.is_started:
                bar.stop()
        return self.coach

    def advice(self, view: GameView) -> list[str]:
        """The coach's best moves for the dice on the table as sentences, or why there are none."""
        if view.board is not None:
            lines = [no_table_text()]
            if not view.over and view.legal_actions:
                move = DozzyBot().act(self.session.game.clone())
                lines.append(_("The DOZZY bot's rule of thumb: {move}").format(move=move.describe()))
            return lines
        if view.over or view.dice is None or not view.score_options:
            return [_("Roll, and the coach ranks every keep and every box for your dice.")]
        coach = self.table()
        if coach is None:
            return []
        game = self.session.game
        lines = []
        if self.target is not None:
            self.say(target_working_text(self.target))
            try:
                chances = game_target(coach, game, self.target).options  # reads the game only
            except InvalidActionError as e:  # too early in the game: by expected score meanwhile
                lines.append(str(e))
            else:
                lines += [coach_target_head_text(view, self.target)]
                lines += [coach_chance_text(rank, c, view) for rank, c in enumerate(chances[:SHOWN], 1)]
                if len(chances) > SHOWN:
                    lines.append(more_moves_text(len(chances) - SHOWN))
                return lines
        options = coach.options(coach.position_of(game), with_odds=False)
        reasons = ranked_reasons(game, [o.action for o in options[:SHOWN]])
        lines.append(coach_head_text(view))
        lines += [coach_option_text(rank, o, view, reason)
                  for rank, (o, reason) in enumerate(zip(options[:SHOWN], reasons, strict=True), 1)]
        if len(options) > SHOWN:
            lines.append(more_moves_text(len(options) - SHOWN))
        return lines

    def cost(self, action: Action) -> tuple[float, Option] | None:
        """What a person's move loses against the coach's best, with that best move, when the
        warning is on and the move loses more than it allows; else None (a roll of dice typed in,
        no dice on the table, DOZZY, or no table at hand: the warning never builds one)."""
        game = self.session.game
        if self.warn_above is None or self.coach is None or game.state.dice is None \
                or not isinstance(action, Roll | Score):
            return None
        if isinstance(action, Roll) and action.result is not None:
            return None
        options = self.coach.options(self.coach.position_of(game), with_odds=False)
        played = next((o for o in options if same_move(o.action, action, game)), None)
        return (played.regret, options[0]) if played is not None and played.regret > self.warn_above else None

    def cycle_warning(self) -> None:
        """w: the warning off, then asking above 1, 3, 5 and 10 points; its table at hand when on
        (DOZZY has none: it stays off)."""
        if self.session.game.ruleset.uses_board:
            self.say(no_table_text())
            return
        steps = [None, *WARN_STEPS]
        at = steps.index(self.warn_above) if self.warn_above in steps else -1
        self.warn_above = steps[(at + 1) % len(steps)]
        if self.warn_above is None:
            self.say(_("No warning before costly moves (w turns it on)."))
            return
        self.say(ngettext("Asks before a move that loses more than {points} point against the coach's best "
                          "(w changes it).",
                          "Asks before a move that loses more than {points} points against the coach's best "
                          "(w changes it).", int(self.warn_above)).format(points=number(self.warn_above)))
        if self.table() is None:
            self.warn_above = None


def same_move(ranked: Roll | Score, action: Roll | Score, game: Game) -> bool:
    """Whether a typed move is the coach's ranked one: the same box (by id or name), or the same
    dice kept in any order."""
    if isinstance(action, Score):
        return isinstance(ranked, Score) and ranked.category == game.ruleset.category(action.category).id
    return isinstance(ranked, Roll) and sorted(ranked.keep) == sorted(action.keep)


def no_table_text() -> str:
    """Why DOZZY has no coach and no warning."""
    return _("DOZZY has no exact table: its shared tile board is beyond the solver. "
             "The coach helps in every other game.")

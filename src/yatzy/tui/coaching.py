"""Where the coach is on the play screen, and which of it and the card has the arrows.

c opens and closes the coach, t asks for the final score it plays for (or none: the best
expected score); Tab moves the arrows between it and the card. On a small terminal
(the app's ``-narrow`` class) the coach comes in the card's place, with the arrows, which scroll
its list only (the dice stay), and Tab brings the card back in its place; on a large one both
show, the card keeping the arrows until Tab. The key bar and the hint say which has them.
"""

from __future__ import annotations

from textual.screen import Screen

from ..game import Game
from ..session import Session
from ..solver.target import check_target
from .coach import CoachPanel
from .dialogs import TargetScreen
from .widgets import ScoreCard


class CoachPlacing(Screen[None]):
    """The play screen's coach and arrows (:class:`~yatzy.tui.play.PlayScreen` derives from it)."""

    coaching = False
    """The coach is open (c)."""
    on_coach = False
    """The coach has the arrows (Tab); on a small terminal it is then on show in the card's place,
    else the card is."""
    session: Session
    game: Game
    lang: str

    def action_coach(self) -> None:
        """Open or close the coach; on a small terminal it comes in the card's place, with the
        arrows, on a large one beside the card, which keeps them."""
        self.coaching = not self.coaching
        self.on_coach = self.coaching and self.app.has_class("-narrow")
        self.place_coach()

    def action_target(self) -> None:
        """Ask for the final score the coach plays for (empty: the best expected score); the
        coach opens to show each move's chance of it (the solver refuses DOZZY and saved rolls)."""
        coach = self.query_one(CoachPanel)
        game = self.game
        if game.ruleset.uses_board:  # DOZZY: no exact table, which the coach says
            if not self.coaching:
                self.action_coach()
            return

        def chosen(target: int | None) -> None:
            if not self.coaching:
                self.action_coach()
            coach.play_for(target, self.session.view(), self.game)

        points = game.total(game.state.current)
        self.app.push_screen(TargetScreen(self.lang, coach.target, points,
                                          lambda text: check_target(game.ruleset, text)), chosen)

    def action_switch(self) -> None:
        """Tab: the arrows go to the coach or back to the card (shown in its place on a small
        terminal); with the coach closed the card keeps them."""
        if self.coaching:
            self.on_coach = not self.on_coach
        self.place_coach()

    def place_coach(self) -> None:
        """Show the coach or the card as ``coaching`` and ``on_coach`` say, give the arrows to
        the one that has them, and draw the screen anew (the coach follows the game when shown)."""
        coach = self.query_one(CoachPanel)
        coach.display = self.coaching and (self.on_coach or not self.app.has_class("-narrow"))
        self.set_class(coach.display, "-coaching")  # room is made for it, the dice kept (yatzy.tcss)
        if self.on_coach:
            coach.focus()
        else:
            self.home()
        self.redraw()

    def home(self) -> None:
        """Where the keys go when the coach does not have them: the card."""
        self.query_one(ScoreCard).focus()

    def redraw(self) -> None:
        """Draw the screen for the game as it is now."""
        raise NotImplementedError

    def on_resize(self) -> None:
        """A small terminal shows the coach or the card, a large one both: laid out anew."""
        if self.coaching:
            self.call_after_refresh(self.place_coach)

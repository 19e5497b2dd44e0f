"""The scorekeeper: the play screen for dice thrown at a real table.

People throw real dice and type what they threw (``13356`` or ``1 3 3 5 6``); Enter puts them on
the table (the engine finds the roll that reaches them), Enter on an empty line fills the picked
box. u takes typed dice back, f corrects a finished round (the engine replays every later turn
on top of it and records the correction), c is the coach for the dice on the table.

The session alone changes the game: what a box scores, which boxes may be filled and whether a
correction holds all come from the views, the session and the engine.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..actions import Action
from ..dice import parse
from ..errors import YatzyError
from ..events import Amended, Event
from ..i18n import _, language
from ..names import box_label
from ..narration import box_points_text, round_words, tiles_text, winners_text
from ..scorekeeping import Round, correction, correction_boxes, correction_returns, rounds
from ..session import Session
from ..views import GameView
from .dialogs import HelpScreen
from .play import PlayScreen
from .texts import dice_text
from .widgets import ScoreCard

MOVES_ROWS = 7
"""The moves list's height (yatzy.tcss)."""
TYPED = "0123456789 ,"
"""What the dice line takes; any other key goes to the screen (u, f, c, q ...). A 0 or a 7..9
is taken so that the engine can say it is no die face."""


def example(dice: int) -> str:
    """A throw to show how dice are typed: 13356 (five dice), 133566 (six)."""
    return "".join(str(n) for n in (1, 3, 3, 5, 6, 6, 2, 4)[:dice])


class DiceEntry(Input):
    """The line where the dice thrown are typed: digits, spaces and commas only, so letters
    stay keys of the screen."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character in TYPED

    async def _on_key(self, event: events.Key) -> None:
        if event.character is not None and event.is_printable and event.character not in TYPED:
            # not ours: Input's own handler must not run (it would type the letter); the key goes
            # up to the app, which runs the screen's binding for it
            event.prevent_default()


# ---- the fix dialog -------------------------------------------------------------------------

def round_label(view: GameView, r: Round) -> str:
    """ "Anna, round 3: 1 3 3 5 6 → 14 Chance 18" (the box's points as the card has them now)."""
    return round_words(view, r.player, r.number, r.dice, r.box)


class FixScreen(ModalScreen[bool]):
    """Correct a finished round: pick it (↑ ↓ Enter), type its dice again (Enter), pick its box
    (↑ ↓ Enter) and, in DOZZY when there is a choice, the tiles that came back (↑ ↓ Enter). The
    session decides; a refusal is shown here and nothing changes. Dismissed with True once a
    correction is made, False on Esc."""

    DEFAULT_CSS = """
    #fix-rounds, #fix-boxes, #fix-returns { height: auto; max-height: 12; }
    #fix-dice { margin: 1 0; }
    #fix-message { height: auto; }
    """

    BINDINGS = [Binding("escape", "back", show=False)]

    def __init__(self, session: Session) -> None:
        super().__init__(classes="dialog", id="fix")
        self.session = session
        self.lang = session.lang
        self.rounds = rounds(session.game)
        self.chosen: Round | None = None
        self.dice: tuple[int, ...] = ()
        self.box = ""
        self.returns: list[frozenset[int]] = []

    def compose(self) -> ComposeResult:
        view = self.session.view()
        with language(self.lang):
            title = _("Fix an earlier round")
            labels = [round_label(view, r) for r in self.rounds]
            entry = DiceEntry(placeholder=_("the dice as they lay when the box was filled"), id="fix-dice",
                              compact=True)
        with Vertical(classes="box"):
            yield Static(Text(title, style="bold"), id="fix-title")
            yield OptionList(*[Option(label, id=str(r.turn)) for label, r in zip(labels, self.rounds,
                                                                                strict=True)],
                             id="fix-rounds")
            yield entry
            yield OptionList(id="fix-boxes")
            yield OptionList(id="fix-returns")
            yield Static(id="fix-message")
            yield Static(id="fix-hint", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#fix-dice").display = False
        self.query_one("#fix-boxes").display = False
        self.query_one("#fix-returns").display = False
        listing = self.query_one("#fix-rounds", OptionList)
        if self.rounds:
            listing.highlighted = len(self.rounds) - 1
        listing.focus()
        with language(self.lang):
            self.say("" if self.rounds else _("No round is finished yet: there is nothing to fix."))
            self.hint(_("↑ ↓ and Enter: the round to fix · Esc: back"))

    def say(self, text: str) -> None:
        self.query_one("#fix-message", Static).update(Text(text, style="bold"))

    def hint(self, text: str) -> None:
        self.query_one("#fix-hint", Static).update(Text(text))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_list.id == "fix-rounds":
            self.choose(self.rounds[event.option_index])
        elif event.option_list.id == "fix-boxes":
            self.pick_box(str(event.option.id))
        else:
            self.correct(tuple(sorted(self.returns[event.option_index])))

    def choose(self, r: Round) -> None:
        """A round picked: its dice are typed again next."""
        self.chosen = r
        view = self.session.view()
        with language(self.lang):
            self.query_one("#fix-title", Static).update(Text(
                _("Fix: {round}").format(round=round_label(view, r)), style="bold"))
            self.hint(_("Type the dice as they lay and Enter · Esc: back"))
        self.query_one("#fix-rounds").display = False
        self.query_one("#fix-boxes").display = False
        entry = self.query_one("#fix-dice", DiceEntry)
        entry.display = True
        entry.value = dice_text(r.dice).replace(" ", "")
        entry.focus()
        self.say("")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        assert self.chosen is not None
        with language(self.lang):
            try:
                self.dice = parse(event.value)
                allowed = correction_boxes(self.session.game, self.chosen.turn, self.dice)
            except YatzyError as e:
                self.say(str(e))
                return
            if not allowed:
                self.say(_("No box this round may fill takes these dice; type the dice again."))
                return
            player = self.session.view().players[self.chosen.player]
            shown = [b for b in player.boxes if b.id in allowed]
            boxes = self.query_one("#fix-boxes", OptionList)
            boxes.clear_options()
            boxes.add_options([Option(box_points_text(box_label(b.number, b.name), allowed[b.id]), id=b.id)
                               for b in shown])
            self.hint(_("↑ ↓ and Enter: the box these dice filled · Esc: back"))
        self.query_one("#fix-dice").display = False
        boxes.display = True
        boxes.highlighted = next((i for i, b in enumerate(shown) if b.id == self.chosen.box), 0)
        boxes.focus()
        self.say("")

    def pick_box(self, box: str) -> None:
        """A box picked: DOZZY asks which tiles came back when the rules leave a choice."""
        assert self.chosen is not None
        self.box = box
        with language(self.lang):
            try:
                self.returns = correction_returns(self.session.game, self.chosen.turn, self.dice, box)
            except YatzyError as e:
                self.say(str(e))
                return
            if len(self.returns) < 2:
                self.correct(tuple(sorted(self.returns[0])) if self.returns else None)
                return
            listing = self.query_one("#fix-returns", OptionList)
            listing.clear_options()
            listing.add_options([Option(tiles_text(r)) for r in self.returns])
            self.hint(_("↑ ↓ and Enter: the tiles that came back · Esc: back"))
        self.query_one("#fix-boxes").display = False
        listing.display = True
        kept = self.chosen.returns if box == self.chosen.box else None  # the turn's own, if the box stays
        listing.highlighted = next((i for i, r in enumerate(self.returns)
                                    if kept is not None and r == frozenset(kept)), 0)
        listing.focus()
        self.say("")

    def correct(self, returns: tuple[int, ...] | None) -> None:
        assert self.chosen is not None
        with language(self.lang):
            try:
                self.session.amend(self.chosen.turn, correction(self.session.game, self.chosen.turn,
                                                                self.dice, self.box, returns))
            except YatzyError as e:
                self.say(str(e))
                return
        self.dismiss(True)

    def action_back(self) -> None:
        """One step back; out of the dialog from its first step."""
        if self.query_one("#fix-returns").display:
            self.query_one("#fix-returns").display = False
            boxes = self.query_one("#fix-boxes")
            boxes.display = True
            boxes.focus()
            with language(self.lang):
                self.hint(_("↑ ↓ and Enter: the box these dice filled · Esc: back"))
            self.say("")
        elif self.query_one("#fix-boxes").display:
            self.choose(self.chosen)  # type: ignore[arg-type]
        elif self.chosen is not None:
            self.chosen = None
            self.query_one("#fix-dice").display = False
            self.query_one("#fix-rounds").display = True
            self.query_one("#fix-rounds").focus()
            with language(self.lang):
                self.query_one("#fix-title", Static).update(Text(_("Fix an earlier round"), style="bold"))
                self.hint(_("↑ ↓ and Enter: the round to fix · Esc: back"))
            self.say("")
        else:
            self.dismiss(False)


class KeeperHelpScreen(HelpScreen):
    """Every key of the scorekeeper, in the players' language."""

    def __init__(self, lang: str, dozzy: bool, dice: int) -> None:
        super().__init__(lang, dozzy, dice)
        self.example = example(dice)

    def heading(self) -> str:
        return _("Keys of the scorekeeper")

    def rows(self) -> list[tuple[str, str]]:
        rows = [
            (self.example, _("the dice thrown, then Enter: they go on the table")),
            ("↑ ↓", _("pick a box that the dice may fill")),
            (_("Enter"), _("on an empty line: fill the picked box")),
            ("u", _("undo the dice typed or the last score")),
            ("f", _("fix an earlier round: its dice and its box")),
            ("c", _("the coach: the best moves for the dice on the table")),
        ]
        if self.dozzy:
            rows.append(("b", _("bring tiles back before the first throw (4 or more out)")))
        return rows + [
            ("ctrl+s", _("save the game to a file (yatzy play --load FILE goes on)")),
            ("ctrl+t", _("low vision: black on yellow (remembered)")),
            ("?", _("this help")),
            ("q, ctrl+c", _("quit; an unfinished game is kept and offered next time")),
        ]


# ---- the play screen of a scorekeeper game ------------------------------------------------------

class KeeperScreen(PlayScreen):
    """The play screen of a game whose dice are thrown at the table: a dice line instead of dice
    buttons and the roll key; f fixes an earlier round."""

    DEFAULT_CSS = """
    #keeper { height: auto; }
    #keeper-table { height: 1; }
    #keeper-entry { margin-top: 1; max-width: 40; }
    #keeper-message { height: 2; }
    """

    BINDINGS = [
        Binding("f", "fix", show=False),
        Binding("up", "step(-1)", show=False),
        Binding("down", "step(1)", show=False),
    ]

    def dice_area(self) -> ComposeResult:
        with Vertical(id="keeper"):
            yield Static(id="keeper-table")
            yield DiceEntry(id="keeper-entry", compact=True, select_on_focus=False)
            yield Static(id="keeper-message")

    def on_mount(self) -> None:
        # the play screen's own on_mount runs after this one and focuses the card: the dice line next
        self.call_after_refresh(self.query_one(DiceEntry).focus)

    # ---- drawing ---------------------------------------------------------------------------
    def _draw(self, view: GameView) -> None:
        super()._draw(view)
        if view.over:
            table = ""
        elif view.dice is None:
            table = _("No dice on the table yet.")
        else:
            table = _("On the table: {dice}").format(dice=dice_text(view.dice))
        self.put("#keeper-table", Text(table, style="bold"))
        entry = self.query_one(DiceEntry)
        entry.disabled = view.over
        entry.placeholder = _("the dice thrown, e.g. {example}").format(
            example=example(self.game.ruleset.dice))

    def hint(self, view: GameView, person: bool) -> str:
        if view.over:
            return _("n: a new game · q: quit · f: fix a round")
        if view.dice is None:
            if view.may_restore:
                return _("Type the dice thrown and Enter · b brings tiles back first")
            return _("Throw, type the dice and Enter")
        if view.rolls_left + view.saved_rolls:
            return _("Type the next throw, or ↑ ↓ Enter fill a box")
        return _("No throws left: ↑ ↓ Enter fill a box")

    def keys(self, view: GameView, person: bool) -> list[tuple[str, str]]:
        if view.over:
            return [("n", _("new game")), ("f", _("fix")), ("?", _("help")), ("q", _("quit"))]
        keys = [("?", _("help")), ("↑↓ ⏎", _("fill")), ("u", _("undo")), ("f", _("fix")), ("c", _("coach"))]
        return keys + [("ctrl+s", _("save")), ("q", _("quit"))]

    def message(self, text: str) -> None:
        """Say what went wrong under the dice line (nothing changed); the line typed is selected,
        so the next key types it anew."""
        self.put("#keeper-message", Text(text, style="bold"))
        if text:
            self.query_one(DiceEntry).select_all()

    def heard(self, e: Event) -> None:
        super().heard(e)
        if isinstance(e, Amended):  # the moves list has the correction: the standings may have changed
            view = self.session.view()
            if view.over:
                with language(self.lang):
                    self.moves.append(winners_text(view))

    def moves_text(self) -> Text:
        """The newest moves that fit the list's rows (a long one wraps in the narrow column)."""
        box = self.query_one("#moves")
        width, rows = box.content_size.width or 36, box.content_size.height or MOVES_ROWS
        shown: list[str] = []
        used = 0
        for line in reversed(self.moves):
            used += len(Text(line).wrap(self.app.console, width))
            if used > rows:
                break
            shown.insert(0, line)
        return Text("\n".join(shown))

    # ---- what the players do ---------------------------------------------------------------
    def costly(self, action: Action) -> None:
        """No warning before a costly move here (``act`` plays every move typed), so the question
        before a 0 names no cost either."""
        return None

    def act(self, action: Action) -> None:
        try:
            self.session.act(action)
        except YatzyError as e:
            self.message(str(e))
            return
        self.message("")
        self.after_change()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Typed dice go on the table; an empty line fills the picked box."""
        event.stop()
        if event.input.id != "keeper-entry" or self.game.is_over:
            return
        text = event.value.strip()
        if not text:
            box = self.query_one(ScoreCard).picked
            if box is not None:
                self.fill(box)
            return
        with language(self.lang):
            try:
                roll = self.game.roll_reaching(parse(text))
            except YatzyError as e:
                self.message(str(e))
                return
        before = len(self.game.log)
        self.act(roll)
        if len(self.game.log) > before:
            event.input.clear()

    def action_roll(self) -> None:
        self.query_one(DiceEntry).focus()  # no roll key: the dice are typed

    def home(self) -> None:
        """Where the keys go when the coach does not have them: the dice line (the arrows pick
        the box from there)."""
        self.query_one(DiceEntry).focus()

    def action_hold(self, index: int) -> None:
        """A digit while the dice line has not the focus (the card, the coach): the start of a
        throw typed (the line does not select its text on focus, so the digit is kept)."""
        entry = self.query_one(DiceEntry)
        entry.focus()
        entry.insert_text_at_cursor(str(index + 1))

    def action_step(self, by: int) -> None:
        card = self.query_one(ScoreCard)
        card.action_cursor_up() if by < 0 else card.action_cursor_down()

    def action_undo(self) -> None:
        super().action_undo()
        self.message("")

    def action_fix(self) -> None:
        def fixed(done: bool | None) -> None:
            if done:
                self.message("")
                self.after_change()
            self.query_one(DiceEntry).focus()

        self.app.push_screen(FixScreen(self.session), fixed)

    def action_help(self) -> None:
        rs = self.game.ruleset
        self.app.push_screen(KeeperHelpScreen(self.lang, rs.uses_board, rs.dice))

"""Small screens over the game: help, a yes/no question, a choice from a list, saving, resuming,
and the notice of a terminal too small to play in."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from ..errors import YatzyError
from ..i18n import _, language


class HelpScreen(ModalScreen[None]):
    """Every key of the play screen, in the player's language."""

    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", show=False)]

    def __init__(self, lang: str, dozzy: bool, dice: int) -> None:
        super().__init__(classes="dialog")
        self.lang, self.dozzy, self.dice = lang, dozzy, dice

    def heading(self) -> str:
        return _("Keys")

    def rows(self) -> list[tuple[str, str]]:
        """Each key and what it does (called in the screen's language)."""
        rows = [
            (f"1 … {self.dice}", _("hold or free a die (a click on it too)")),
            ("r, " + _("space"), _("roll the dice that are not held")),
            ("↑ ↓", _("pick a box that the dice may fill")),
            ("Enter", _("fill the picked box (or click it twice)")),
            ("c", _("the coach: every move ranked by the exact solver")),
            ("Tab", _("the arrows to the open coach and back to the card")),
            ("t", _("the coach plays for a final score you choose: each move's chance of reaching it")),
            ("w", _("warn before a move that loses points against the coach (off, 1, 3, 5, 10)")),
            ("u", _("undo the last score, until the next roll")),
        ]
        if self.dozzy:
            rows.append(("b", _("bring tiles back before the first roll (4 or more out)")))
        return rows + [
            ("+ −", _("bots play faster or slower")),
            ("s", _("skip to the end of the bots' moves")),
            ("ctrl+s", _("save the game to a file (yatzy play --load FILE goes on)")),
            ("m", _("the dice tumble when rolled, or not (remembered)")),
            ("ctrl+t", _("low vision: black on yellow, large dice (remembered)")),
            ("?", _("this help")),
            ("q, ctrl+c", _("quit; an unfinished game is kept and offered next time")),
        ]

    def compose(self) -> ComposeResult:
        with language(self.lang):
            rows = self.rows()
            text = Text()
            text.append(self.heading() + "\n\n", style="bold")
            width = max(len(k) for k, _w in rows)
            for key, what in rows:
                text.append(f" {key:<{width}} ", style="bold reverse")
                text.append(f"  {what}\n")
            text.append("\n" + _("Esc closes this help."))
        with VerticalScroll(classes="box"):  # on a small terminal the arrows scroll the rest into view
            yield Static(text, id="help-text")


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter says yes, n or Esc says no."""

    BINDINGS = [Binding("y,enter", "answer(True)", show=False),
                Binding("n,escape", "answer(False)", show=False)]

    def __init__(self, lang: str, question: str) -> None:
        super().__init__(classes="dialog")
        self.lang, self.question = lang, question

    def compose(self) -> ComposeResult:
        with language(self.lang):
            hint = _("y: yes · n: no")
        with Vertical(classes="box"):
            yield Static(Text(self.question), id="question")
            yield Static(Text(hint, style="bold"), classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class ChoiceScreen(ModalScreen[int | None]):
    """Pick one of a few choices: arrows and Enter, or its number; Esc picks none."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "pick(None)", show=False),
        *(Binding(str(n), f"pick({n - 1})", show=False) for n in range(1, 10))]

    def __init__(self, lang: str, question: str, choices: list[str]) -> None:
        super().__init__(classes="dialog")
        self.lang, self.question, self.choices = lang, question, choices

    def compose(self) -> ComposeResult:
        with language(self.lang):
            hint = _("↑ ↓ and Enter, or the number · Esc: back")
        with Vertical(classes="box"):
            yield Static(Text(self.question, style="bold"))
            yield OptionList(*[Option(f"{n}  {c}", id=str(n - 1)) for n, c in enumerate(self.choices, 1)],
                             id="choices")
            yield Static(Text(hint), classes="hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(event.option_index)

    def action_pick(self, index: int | None) -> None:
        if index is None or index < len(self.choices):
            self.dismiss(index)


class SaveScreen(ModalScreen[Path | None]):
    """Ask for a file name; the caller saves and says what happened."""

    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, lang: str, default: str) -> None:
        super().__init__(classes="dialog")
        self.lang, self.default = lang, default

    def compose(self) -> ComposeResult:
        with language(self.lang):
            title, hint = _("Save the game to a file"), _("Enter saves · Esc: back to the game")
        with Vertical(classes="box"):
            yield Static(Text(title, style="bold"))
            yield Input(self.default, id="path")
            yield Static(Text(hint), classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.dismiss(Path(event.value.strip()).expanduser())

    def action_cancel(self) -> None:
        self.dismiss(None)


class TargetScreen(ModalScreen[int | None]):
    """Ask for the final score the coach should play for: Enter with a number sets it (checked
    by ``check``, whose refusal is shown here), Enter on an empty line goes back to the best
    expected score (dismissed with None); Esc leaves things as they were (no answer)."""

    BINDINGS = [Binding("escape", "cancel", show=False)]

    def __init__(self, lang: str, target: int | None, points: int, check: Callable[[str], int]) -> None:
        super().__init__(classes="dialog")
        self.lang, self.target, self.points, self.check = lang, target, points, check

    def compose(self) -> ComposeResult:
        with language(self.lang):
            title = _("Play for a final score (you have {points} now)").format(points=self.points)
            hint = _("Enter: the coach ranks by the chance of it · empty: the best expected score · "
                     "Esc: back")
        with Vertical(classes="box"):
            yield Static(Text(title, style="bold"))
            yield Input("" if self.target is None else str(self.target), id="target", type="integer")
            yield Static(id="target-error")
            yield Static(Text(hint), classes="hint")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not event.value.strip():
            self.dismiss(None)
            return
        with language(self.lang):
            try:
                target = self.check(event.value)
            except YatzyError as e:
                self.query_one("#target-error", Static).update(Text(str(e), style="bold"))
                return
        self.dismiss(target)

    def action_cancel(self) -> None:
        self.app.pop_screen()


class TooSmallScreen(ModalScreen[None]):
    """Over whatever is on show while the terminal is smaller than ``smallest``: the size to make
    it, and the size it is. The app opens it; it closes itself once the terminal is large enough
    (ctrl+c still quits meanwhile)."""

    def __init__(self, lang: str, smallest: Size, size: Size) -> None:
        super().__init__(classes="too-small")
        self.lang, self.smallest, self.size_now = lang, smallest, size

    def compose(self) -> ComposeResult:
        yield Static(self.text(), id="too-small-text")

    def text(self) -> Text:
        with language(self.lang):
            return Text(_("The window is too small: make it at least {width}×{height} (it is {now}).").format(
                width=self.smallest.width, height=self.smallest.height,
                now=f"{self.size_now.width}×{self.size_now.height}"), style="bold")

    def resized(self, size: Size) -> None:
        """The terminal changed size: the notice says the new size, or goes when it is enough."""
        self.size_now = size
        if self.fits(size):
            self.dismiss()
        elif self.is_mounted:
            self.query_one("#too-small-text", Static).update(self.text())

    def fits(self, size: Size) -> bool:
        return size.width >= self.smallest.width and size.height >= self.smallest.height

    def on_screen_resume(self) -> None:
        """Back on top (a dialog opened over it has closed): gone if the terminal grew meanwhile."""
        if self.fits(self.app.size):
            self.dismiss()

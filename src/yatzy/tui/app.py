"""The terminal game: a new game screen, the play screen, and what they remember.

``run()`` opens it; ``yatzy play`` calls it on a terminal. The app keeps the game for the
next start after every move and a finished game in the history the moment it ends (so ctrl+c
or a closed terminal loses nothing), and remembers the last setup and the low-vision choice
(ctrl+t: black on yellow, large dice).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual import events
from textual.app import App
from textual.binding import Binding
from textual.geometry import Size
from textual.notifications import SeverityLevel
from textual.theme import BUILTIN_THEMES, Theme

from ..game import Game
from ..i18n import _, check_language, language
from ..session import Session
from ..solver.warm import warm_up_soon
from ..views import and_list
from .dialogs import ConfirmScreen, TooSmallScreen
from .play import PlayScreen
from .scorekeeper import KeeperScreen
from .settings import Settings, forget_autosave, load_autosave
from .setup import NewGameScreen

BLACK, YELLOW = "#000000", "#ffff00"
"""Black on yellow: a contrast of 19.6 to 1."""

CONTRAST = Theme(
    name="yatzy-contrast", primary=BLACK, secondary=BLACK, accent=BLACK, warning=BLACK, error=BLACK,
    success=BLACK, foreground=BLACK, background=YELLOW, surface=YELLOW, panel=YELLOW, boost=YELLOW,
    dark=False,
    variables={name: BLACK for name in (
        "text", "text-muted", "text-disabled", "text-primary", "text-secondary", "text-accent",
        "text-warning", "text-error", "text-success", "foreground-muted", "foreground-disabled", "border",
        "border-blurred",
        "scrollbar", "scrollbar-hover", "scrollbar-active", "block-cursor-background",
        "block-cursor-blurred-background", "input-cursor-background", "input-selection-background",
        "footer-key-foreground", "footer-description-foreground", "button-foreground",
        "button-color-foreground", "link-color", "link-color-hover", "primary-muted", "secondary-muted",
        "accent-muted", "warning-muted", "error-muted", "success-muted", "screen-selection-background")}
    | {name: YELLOW for name in (
        "block-cursor-foreground", "block-cursor-blurred-foreground", "input-cursor-foreground",
        "input-selection-foreground", "block-hover-background", "scrollbar-background",
        "scrollbar-background-hover", "scrollbar-background-active", "scrollbar-corner-color",
        "footer-background", "surface-active", "link-background-hover", "screen-selection-foreground")}
    | {"block-cursor-text-style": "bold", "block-cursor-blurred-text-style": "bold",
       "button-focus-text-style": "bold reverse", "input-cursor-text-style": "reverse"},
)
"""Low vision: black on yellow everywhere, marks in reverse (yellow on black), no shade of grey."""
NORMAL = replace(BUILTIN_THEMES["textual-dark"], name="yatzy-dark", error="#f0647d", variables={
    "block-cursor-background": "#005a9e", "block-cursor-foreground": "#ffffff",
    "button-color-foreground": "#ffffff", "scrollbar": "#8c8c8c", "scrollbar-hover": "#a8a8a8",
    "scrollbar-active": "#c4c4c4"})
"""Textual's dark theme made legible (tests/tui/test_contrast.py): a darker blue under white text
(the picked row, a focused check box or tab: 7:1 where Textual's blue gives 3.8:1), a lighter red
for points lost (6:1, not 2.8:1) and scroll bars that stand out from their track."""


class YatzyApp(App[Game | None]):
    """Returns the game played (finished or not) from ``run``, or None if none was started."""

    CSS_PATH = "yatzy.tcss"
    TITLE = "Yatzy"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [
        Binding("ctrl+t", "low_vision", show=False, priority=True),
        Binding("ctrl+c", "quit", show=False, priority=True),
        Binding("ctrl+q", "quit", show=False, priority=True),
    ]

    def __init__(self, game: Game | None = None, *, lang: str | None = None, save_path: Path | None = None,
                 pace: float | None = None, offer_resume: bool = True) -> None:
        super().__init__()
        self.settings = Settings.load()
        self.lang = check_language(lang) if lang is not None else self.settings.setup.lang
        self.save_path = save_path
        self.pace = pace
        self.offer_resume = offer_resume
        self.played: Game | None = None
        self.start_with = None if game is None else Session(game, lang=self.lang, bot_seed=game.seed)
        """The session of a game given to play at once: made here, so a bad seat is refused before
        the screen opens (InvalidActionError)."""
        self.sized = False
        """Whether the first screens are up (a resize before them opens no notice under them)."""
        self.register_theme(CONTRAST)
        self.register_theme(NORMAL)

    def on_mount(self) -> None:
        warm_up_soon()  # the coach's first answer after an install does not wait for the compiler
        self.apply_low_vision()
        self.call_after_refresh(self.first_size)
        if self.start_with is not None:
            self.start(self.start_with)
            return
        self.push_screen(NewGameScreen(self.settings, self.lang))
        waiting = load_autosave() if self.offer_resume else None
        if waiting is not None:
            with language(self.lang):
                question = _("A game was left unfinished: {title}, {players}, round {n} of {rounds}. "
                             "Go on with it?").format(
                    title=_(waiting.ruleset.title), players=and_list([s.name for s in waiting.seats]),
                    n=waiting.round_number, rounds=waiting.ruleset.turns)
            self.push_screen(ConfirmScreen(self.lang, question), lambda yes: self.resume(waiting, bool(yes)))

    def resume(self, game: Game, yes: bool) -> None:
        if yes:
            self.play(game)
        else:
            forget_autosave()

    def play(self, game: Game, lang: str | None = None) -> None:
        """Play ``game``: the play screen takes the place of whatever is on show."""
        self.lang = lang or self.lang
        self.start(Session(game, lang=self.lang, bot_seed=game.seed))

    def start(self, session: Session) -> None:
        self.played = session.game
        kind = KeeperScreen if session.game.dice_from == "players" else PlayScreen  # dice typed at a table
        screen = kind(session, pace=self.pace, save_path=self.save_path)
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def new_game(self) -> None:
        self.save_path = None
        self.switch_screen(NewGameScreen(self.settings, self.lang))

    NARROW = (110, 32)
    """Below this width or height the play screen packs small dice (80x24 fits three players)."""

    SMALLEST = Size(80, 24)
    """Below this size (a classic terminal's) the screens cannot show the dice, the card and the
    keys together: a notice says so over whatever is on show, until the terminal is large enough."""

    def on_resize(self, event: events.Resize) -> None:
        width, height = self.NARROW
        self.set_class(event.size.width < width or event.size.height < height, "-narrow")
        for die in self.query("Die"):
            die.refresh(layout=True)
        self.check_size(event.size)

    def first_size(self) -> None:
        """The terminal's size looked at once the first screens are up: a notice goes over them."""
        self.sized = True
        self.check_size(self.size)

    def check_size(self, size: Size) -> None:
        """Open the too-small notice, tell it the new size, or let it close itself."""
        if not self.sized:
            return  # first_size looks, once the first screen is up
        top = self.screen
        if isinstance(top, TooSmallScreen):
            top.resized(size)
        elif size.width < self.SMALLEST.width or size.height < self.SMALLEST.height:
            self.push_screen(TooSmallScreen(self.lang, self.SMALLEST, size))

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Every notification is plain text, whatever the caller asks: its words hold names and
        errors that quote what a person typed, never markup ("[/x]" would crash the toast)."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def apply_low_vision(self) -> None:
        on = self.settings.low_vision
        self.theme = CONTRAST.name if on else NORMAL.name
        self.set_class(on, "-large")
        for die in self.query("Die"):
            die.refresh(layout=True)

    def action_low_vision(self) -> None:
        self.settings.low_vision = not self.settings.low_vision
        self.settings.save()
        self.apply_low_vision()

    async def action_quit(self) -> None:
        self.exit(self.played)

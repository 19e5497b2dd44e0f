"""The new game screen: the game and its house rules, the language, the players, a seed, a roll-off.

The dice may be rolled by the computer or thrown at a real table (a scorekeeper game: every seat
is a person who types the dice thrown, the table chooses who starts, there is no seed).

What was chosen last time comes back (the settings file); Enter on Start plays it again.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from ..bots import BOT_SPECS, bot_name, default_names, level_name
from ..errors import YatzyError
from ..game import Game
from ..i18n import LANGUAGE_NAMES, LANGUAGES, _, language
from ..registry import VARIANTS, get_ruleset
from ..rulesets.parts import OptionSpec, RulesetEntry
from ..seats import Seat
from .history import HistoryScreen
from .preparing import first_game_cost
from .settings import Settings, Setup

MAX_PLAYERS = 8
"""As many cards as fit side by side on a terminal."""


class TickBox(Checkbox):
    """A check box whose state reads by its shape, [x] or [ ], in monochrome and on a Braille line
    too (Textual's draws the same ▐X▌ on and off, in another colour)."""

    @property
    def _button(self) -> Content:
        return Content.assemble(("[x]" if self.value else "[ ]", self.get_visual_style("toggle--button")))


def seed_problem() -> str:
    """What a seed that is no whole number gets (in the current language)."""
    return _("The seed is a whole number, such as 42; leave it empty for random dice.")


def is_switch(spec: OptionSpec) -> bool:
    return isinstance(spec.default, bool) or spec.choices == (False, True)


def entry(rules: str) -> RulesetEntry:
    return next(e for e in VARIANTS if e.name == rules)


def levels(rules: str) -> list[str]:
    """The bot levels to offer: the DOZZY bot only where there is a board."""
    board = get_ruleset(rules).uses_board
    return [b.name for b in BOT_SPECS if b.needs != "board" or board]


class NewGameScreen(Screen[None]):
    BINDINGS = [Binding("h", "history", show=False)]
    DEFAULT_CSS = """
    #dice-from { width: 46; }
    #first { width: 27; }
    #table-cost { margin-bottom: 1; }
    """

    def __init__(self, settings: Settings, lang: str | None = None) -> None:
        super().__init__(id="setup")
        self.settings = settings
        self.setup = Setup.from_dict(settings.setup.to_dict())
        """The setup being edited (a copy: the settings change when the game starts)."""
        self.setup.lang = lang or self.setup.lang
        if not settings.remembered:  # a first start: the default players named in the language
            with language(self.lang):
                self.setup.seats = [Seat(_("Player {n}").format(n=1)),
                                    Seat(bot_name("greedy"), "bot", "greedy")]
            settings.setup.seats = list(self.setup.seats)
        self.focus_after: str | None = "start"

    @property
    def lang(self) -> str:
        return self.setup.lang

    # ---- layout -------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        with language(self.lang):
            yield from self.form()

    def form(self) -> ComposeResult:
        s = self.setup
        with VerticalScroll(id="setup-form", can_focus=False):  # Tab visits the fields, not their frame
            yield Static(Text(_("New game"), style="bold"), id="setup-title")
            with Horizontal(classes="row"):
                yield Label(_("Game"), classes="field")
                yield Select([(Text(f"{_(e.title)}"), e.name) for e in VARIANTS], value=s.rules,
                             allow_blank=False, id="rules", compact=True)
            with Vertical(id="options"):
                for spec in entry(s.rules).options:
                    yield from self.option_row(spec, s.options.get(spec.name, spec.default))
            with Horizontal(classes="row"):
                yield Label(_("Language"), classes="field")
                yield Select([(LANGUAGE_NAMES[code], code) for code in LANGUAGES], value=s.lang,
                             allow_blank=False, id="lang", compact=True)
            with Horizontal(classes="row"):
                yield Label(_("Dice"), classes="field")
                yield Select([(_("rolled by the computer"), "server"),
                              (_("thrown at the table (scorekeeper)"), "players")],
                             value=s.dice_from, allow_blank=False, id="dice-from", compact=True)
            keeper = s.dice_from == "players"
            yield Static(Text(_("Players"), style="bold"), classes="heading")
            kinds = [(_("person"), "person")]
            kinds += [(_("bot: {level}").format(level=level_name(b)), b) for b in levels(s.rules)]
            codes = [code for _label, code in kinds]
            with Vertical(id="players"):
                for i, seat in enumerate(s.seats):
                    with Horizontal(classes="player"):
                        yield Input(seat.name, placeholder=_("name"), id=f"name-{i}", classes="name",
                                    compact=True)
                        if not keeper:  # at a real table every seat is a person
                            kind = seat.level if seat.is_bot and seat.level in codes else "person"
                            yield Select(kinds, value=kind, allow_blank=False, id=f"kind-{i}", classes="kind",
                                         compact=True)
                        yield Button("↑", id=f"up-{i}", classes="small", compact=True)
                        yield Button("↓", id=f"down-{i}", classes="small", compact=True)
                        yield Button("✕", id=f"remove-{i}", classes="small", compact=True)
            yield Button(_("Add a player"), id="add", compact=True)
            if keeper:
                with Horizontal(classes="row"):
                    yield Label(_("Starts"), classes="field")
                    yield Select(self.starters(), value=min(s.first, len(s.seats) - 1), allow_blank=False,
                                 id="first", compact=True)
                    yield Label(_("the table rolls for it"), classes="help")
            else:
                with Horizontal(classes="row"):
                    yield Label(_("Seed"), classes="field")
                    yield Input("" if s.seed is None else str(s.seed), placeholder=_("random dice"),
                                type="integer", valid_empty=True, id="seed", compact=True)
                    yield Label(_("the same seed deals the same dice"), classes="help")
                yield TickBox(Content(_("Roll-off: each player rolls one die, the highest starts")),
                               s.roll_off, id="roll-off", compact=True)
            yield Static(id="error")
            cost = self.cost_text()
            line = Static(Text(cost), id="table-cost")
            line.display = bool(cost)
            yield line
            yield Button(_("Start"), id="start", variant="primary", compact=True)
            yield Static(Text(_("Tab moves between fields · Enter on Start plays · ctrl+t: low vision · "
                                "ctrl+c: quit") + " · " + _("h: games played and statistics")),
                         classes="hint")

    def starters(self, names: list[str] | None = None) -> list[tuple[str, int]]:
        """The choices of who starts a scorekeeper game: each seat by its name (or place)."""
        names = names or [seat.name for seat in self.setup.seats]
        return [(name.strip() or _("Player {n}").format(n=i + 1), i) for i, name in enumerate(names)]

    def on_input_changed(self, event: Input.Changed) -> None:
        """A seed that is no number says so at once (empty is fine: random dice); a renamed player
        is renamed in the list of who starts."""
        if event.input.id == "seed":
            bad = event.validation_result is not None and not event.validation_result.is_valid
            with language(self.lang):
                self.query_one("#error", Static).update(Text(seed_problem() if bad else "", style="bold"))
            return
        if not (event.input.id or "").startswith("name-") or self.setup.dice_from != "players":
            return
        first = self.query("#first")
        if first:
            select = first.first(Select)
            value = select.value
            with language(self.lang):
                select.set_options(self.starters(
                    [w.value for w in self.query(".name").results(Input)]))
            select.value = value
            select.mutate_reactive(Select.value)  # type: ignore[misc]  # the same starter, its new name

    def cost_text(self) -> str:
        """What the bots chosen cost the first time, when their table is not stored yet."""
        s = self.setup
        return "" if s.dice_from == "players" else first_game_cost(s.rules, s.options, s.seats)

    def show_cost(self) -> None:
        """The cost line anew, after a bot or a house rule changed."""
        self.read()
        with language(self.lang):
            cost = self.cost_text()
        line = self.query_one("#table-cost", Static)
        line.update(Text(cost))
        line.display = bool(cost)

    def changed(self, widget: str, value: object) -> bool:
        """A bot or a house rule the player changed (not a widget of a form composed anew)."""
        what, _sep, name = widget.partition("-")
        if what == "kind" and name.isdigit() and int(name) < len(self.setup.seats):
            seat = self.setup.seats[int(name)]
            return value != (seat.level if seat.is_bot else "person")
        spec = next((o for o in entry(self.setup.rules).options if o.name == name), None)
        return what == "opt" and spec is not None and value != self.setup.options.get(name, spec.default)

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if self.changed(event.checkbox.id or "", event.value):
            self.show_cost()

    def action_history(self) -> None:
        self.app.push_screen(HistoryScreen(self.lang))

    def option_row(self, spec: OptionSpec, value: object) -> ComposeResult:
        """One house rule with its one-line meaning."""
        help_text = _(spec.help)
        if is_switch(spec):
            yield TickBox(Content(help_text), bool(value), id=f"opt-{spec.name}", classes="option",
                           compact=True)
            return
        with Horizontal(classes="row option"):
            if spec.choices is not None:
                yield Select([(spec.show(c), c) for c in spec.choices], value=value, allow_blank=False,
                             id=f"opt-{spec.name}", classes="choice", compact=True)
            else:
                yield Input("" if value is None else str(value), placeholder=spec.show(None),
                            type="integer", valid_empty=True, id=f"opt-{spec.name}", classes="number",
                            compact=True)
            yield Label(Content(help_text), classes="help")

    def on_mount(self) -> None:
        self.refocus()

    def refocus(self) -> None:
        if self.focus_after:
            matches = self.query(f"#{self.focus_after}")
            if matches:
                matches.first().focus()
        self.focus_after = None

    # ---- reading the form -----------------------------------------------------------
    def read(self) -> list[str]:
        """Take what the widgets show into ``self.setup``; the problems found, in words."""
        s, problems = self.setup, []
        options: dict[str, Any] = {}
        with language(self.lang):
            for spec in entry(s.rules).options:
                widget = self.query_one(f"#opt-{spec.name}")
                if isinstance(widget, Checkbox):
                    options[spec.name] = widget.value
                elif isinstance(widget, Select):
                    options[spec.name] = widget.value
                elif isinstance(widget, Input):
                    try:
                        text = widget.value.strip()
                        options[spec.name] = spec.parse(text) if text else spec.default
                    except YatzyError as e:
                        problems.append(str(e))
            s.options = options
            seats = []
            for i, old in enumerate(s.seats):
                name = self.query_one(f"#name-{i}", Input).value.strip()
                kinds = self.query(f"#kind-{i}")  # none in a scorekeeper setup: a bot stays one for later
                kind = kinds.first(Select).value if kinds else old.level if old.is_bot else "person"
                try:  # a name no seat may have is a problem named, not a crash
                    if kind == "person":
                        seats.append(Seat(name or _("Player {n}").format(n=i + 1)))
                    else:
                        seats.append(Seat(name or bot_name(str(kind)), "bot", str(kind)))
                except YatzyError as e:
                    problems.append(str(e))
                    seats.append(old)
            s.seats = seats
            if s.dice_from == "players":
                s.first = int(self.query_one("#first", Select).value)  # type: ignore[arg-type]
            else:
                text = self.query_one("#seed", Input).value.strip()
                if text and not text.lstrip("-").isdigit():
                    problems.append(seed_problem())
                s.seed = int(text) if text.lstrip("-").isdigit() else None
                s.roll_off = self.query_one("#roll-off", Checkbox).value
        return problems

    async def redraw(self, focus: str | None = None) -> None:
        self.focus_after = focus
        await self.recompose()
        self.refocus()

    # ---- changes ------------------------------------------------------------------
    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "rules" and event.value != self.setup.rules:
            self.read()
            self.setup.rules, self.setup.options = str(event.value), {}
            await self.redraw("rules")
        elif event.select.id == "dice-from" and event.value != self.setup.dice_from:
            self.read()
            self.setup.dice_from = str(event.value)
            await self.redraw("dice-from")
        elif (event.select.id or "").startswith("kind-"):
            self.renamed(int(str(event.select.id).removeprefix("kind-")), str(event.value))
            if self.changed(event.select.id or "", event.value):  # not a row composed anew
                self.show_cost()
        elif event.select.id == "lang" and event.value != self.setup.lang:
            self.read()
            self.setup.lang = str(event.value)
            self.app.lang = self.setup.lang  # type: ignore[attr-defined]
            await self.redraw("lang")
        elif self.changed(event.select.id or "", event.value):
            self.show_cost()

    def renamed(self, i: int, kind: str) -> None:
        """Row ``i`` switched to ``kind``: a name nobody typed ("Player 3", "Greedy bot") becomes
        the new kind's ("Strong bot", in the game's language); a typed name stays."""
        entry = self.query_one(f"#name-{i}", Input)
        with language(self.lang):
            if entry.value.strip() and entry.value.strip() not in default_names(MAX_PLAYERS):
                return
            entry.value = _("Player {n}").format(n=i + 1) if kind == "person" else bot_name(kind)

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        name = event.button.id or ""
        if name == "start":
            self.start()
            return
        self.read()
        seats = self.setup.seats
        what, _sep, number = name.partition("-")
        i = int(number) if number.isdigit() else -1
        if what == "add" and len(seats) < MAX_PLAYERS:
            with language(self.lang):
                seats.append(Seat(_("Player {n}").format(n=len(seats) + 1)))
            await self.redraw(f"name-{len(seats) - 1}")
        elif what == "remove" and len(seats) > 1:
            del seats[i]
            first = self.setup.first  # the starter stays the same person, if still seated
            self.setup.first = first - 1 if i < first else 0 if i == first else first
            await self.redraw(f"remove-{min(i, len(seats) - 1)}")
        elif what in ("up", "down"):
            j = i - 1 if what == "up" else i + 1
            if 0 <= j < len(seats):
                seats[i], seats[j] = seats[j], seats[i]
                self.setup.first = {i: j, j: i}.get(self.setup.first, self.setup.first)
                await self.redraw(f"{what}-{j}")

    def start(self) -> None:
        problems = self.read()
        s = self.setup
        game: Game | None = None
        with language(self.lang):
            try:
                if s.dice_from == "players":  # people at a table: no bots, no seed, the table's starter
                    game = Game(get_ruleset(s.rules, **s.options), [Seat(seat.name) for seat in s.seats],
                                first=min(s.first, len(s.seats) - 1), dice_from="players")
                else:
                    game = Game(get_ruleset(s.rules, **s.options), s.seats, s.seed, roll_off=s.roll_off)
            except YatzyError as e:
                problems.append(str(e))
        if problems or game is None:
            self.query_one("#error", Static).update(Text("\n".join(problems), style="bold"))
            return
        self.settings.setup = s
        self.settings.save()
        self.app.play(game, s.lang)  # type: ignore[attr-defined]

"""The play screen's pieces: a die, the scorecards, the key bar."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import DataTable, Static

from ..i18n import _
from ..names import box_label, label
from ..views import GameView
from .texts import bonus_cell, pace_text

# pip positions on a 3 x 3 grid, row by row
_PIPS = {1: {4}, 2: {2, 6}, 3: {2, 4, 6}, 4: {0, 2, 6, 8}, 5: {0, 2, 4, 6, 8}, 6: {0, 2, 3, 5, 6, 8}}


def pips(face: int | None, large: bool) -> str:
    """A die face drawn with pips: 3 lines of 7 characters, or 5 lines of 12 when large."""
    on = _PIPS.get(face or 0, set())
    if not large:
        return "\n".join(" " + " ".join("●" if 3 * r + c in on else " " for c in range(3)) + " "
                         for r in range(3))
    rows = []
    for r in range(3):
        rows.append(" " + "  ".join("██" if 3 * r + c in on else "  " for c in range(3)) + " ")
        if r < 2:
            rows.append(" " * 12)
    return "\n".join(rows)


class Die(Static):
    """One die: its key (1 up to the number of dice) on the frame, its face in pips, and ▲HELD
    under them when held.

    A held die is marked by more than colour: a double frame and the word with its ▲. On a
    small terminal (the app's ``-narrow`` class) the face is a digit between ▲ marks."""

    class Toggled(Message):
        def __init__(self, index: int) -> None:
            self.index = index
            super().__init__()

    def __init__(self, index: int) -> None:
        super().__init__(id=f"die-{index}", classes="die")
        self.index = index
        self.face: int | None = None
        self.held = False
        self.held_word = ""
        self.border_title = str(index + 1)

    def show(self, face: int | None, held: bool, held_word: str, rolling: bool = False) -> None:
        """Draw ``face`` (None: no die yet), held or not; ``rolling``: a face of the roll's tumble."""
        self.set_class(rolling, "-rolling")
        if (face, held, held_word) == (self.face, self.held, self.held_word):
            return
        self.face, self.held, self.held_word = face, held, held_word
        self.set_class(held, "-held")
        self.set_class(face is None, "-blank")
        self.refresh()

    def render(self) -> Text:
        if self.app.has_class("-narrow"):
            # a small terminal (or a large font): the face as a bold digit, ▲ marks held
            face = "" if self.face is None else str(self.face)
            return Text(f"▲{face}▲" if self.held else face, style="bold", justify="center")
        large = self.app.has_class("-large")
        text = Text(pips(self.face, large) + "\n")
        width = 12 if large else 7
        text.append(f"▲{self.held_word}"[:width].center(width) if self.held else "", style="bold")
        return text

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Toggled(self.index))


def cell(value: object, style: str = "") -> Text:
    """A card's cell: numbers and words alike to the right."""
    return Text(str(value), style=style, justify="right")


Row = tuple[str, Text, list[Text], str | None]
"""A card's row: its key, its heading, its cells (one per player, then "now"), its box id."""


class ScoreCard(DataTable[Text]):
    """Every player's card side by side: boxes by their fixed number, section sums, bonus
    progress and pace, totals and ranks; and a column with what each open box would score now.

    The arrows move between the boxes that may be filled now (every box before the roll),
    Enter or a click on the picked row fills it (a first click picks). The rows and columns
    are laid out once; later views change only the cells that differ."""

    def __init__(self) -> None:
        super().__init__(id="card", cursor_type="row")
        self.boxes: list[str | None] = []
        """Each row's box id (None for sums, bonus and total rows)."""
        self.pickable: list[int] = []
        self.shown: dict[tuple[str, int], tuple[str, str]] = {}
        self.current: int | None = -1

    def lines(self, view: GameView) -> list[Row]:
        """What the card shows for ``view`` (in the current language)."""
        players = view.players
        options = {o.id: o for o in view.score_options}
        rows: list[Row] = []

        def add(key: str, head: str | Text, cells: list[Text], box: str | None = None) -> None:
            rows.append((key, Text(head) if isinstance(head, str) else head, cells, box))

        bonuses = players[0].bonuses
        for i, b in enumerate(players[0].boxes):
            cells = [cell("·" if p.boxes[i].points is None else p.boxes[i].points) for p in players]
            option = options.get(b.id)
            cells.append(cell("") if option is None else cell(option.points, "bold italic"))
            add(f"box:{b.id}", box_label(b.number, b.name), cells, b.id)
            for j, bonus in enumerate(bonuses):
                if max(bonus.boxes) != b.number:
                    continue
                sums = label("upper") if len(bonuses) == 1 else \
                    f"{label('total')} {min(bonus.boxes)}–{max(bonus.boxes)}"
                progress = [p.bonuses[j] for p in players]
                add(f"sum:{bonus.id}", sums, [cell(v.subtotal) for v in progress])
                add(f"need:{bonus.id}", _("for the bonus"), [cell(bonus_cell(v)) for v in progress])
                add(f"pace:{bonus.id}", _("pace (+ ahead)"),
                    [cell(pace_text(v.pace) if v.reachable and not v.points else "") for v in progress])
                add(f"bonus:{bonus.id}", label("bonus"), [cell(v.points) for v in progress])
        if view.has_yahtzee_bonus:
            add("yahtzee_bonus", label("yahtzee_bonus"), [cell(p.yahtzee_bonus) for p in players])
        if view.has_saved_rolls:
            add("bank", _("saved rolls"), [cell(p.bank) for p in players])
        add("total", Text(label("total"), style="bold"), [cell(p.total, "bold") for p in players])
        add("rank", _("rank"), [cell(p.rank) for p in players])
        return rows

    def show(self, view: GameView) -> None:
        """Draw the cards of ``view`` (in the current language), keeping the picked box."""
        picked = self.picked
        rows = self.lines(view)
        if view.current != self.current or not self.columns:
            # the player to move is marked in the header: ▶ and reversed; a new turn lays it out anew
            self.current = view.current
            self.clear(columns=True)
            self.boxes, self.shown = [], {}
            self.add_column(label("category"), key="box")
            for p in view.players:
                self.add_column(Text(f"▶ {p.name}" if p.current else p.name,
                                     style="bold reverse" if p.current else "bold"), key=f"p{p.seat}")
            self.add_column(Text(_("now"), style="bold italic"), key="now")
            for key, head, cells, box in rows:
                self.add_row(head, *cells, key=key)
                self.boxes.append(box)
                self.shown.update({(key, n): (c.plain, str(c.style)) for n, c in enumerate(cells)})
        columns = [f"p{p.seat}" for p in view.players] + ["now"]
        for key, _head, cells, _box in rows:
            for n, c in enumerate(cells):
                if self.shown.get((key, n)) != (c.plain, str(c.style)):
                    self.update_cell(key, columns[n], c, update_width=True)
                    self.shown[(key, n)] = (c.plain, str(c.style))
        options = {o.id for o in view.score_options}
        boxes = [i for i, box in enumerate(self.boxes) if box is not None]
        self.pickable = [i for i in boxes if self.boxes[i] in options] or boxes
        self.pick(picked if picked in options else None)

    @property
    def picked(self) -> str | None:
        """The box the cursor is on (None on other rows)."""
        row = self.cursor_row
        return self.boxes[row] if 0 <= row < len(self.boxes) else None

    def pick(self, box: str | None) -> None:
        """Put the cursor on ``box``, or on the first box that may be picked."""
        row = self.boxes.index(box) if box is not None and box in self.boxes else \
            self.pickable[0] if self.pickable else 0
        self.move_cursor(row=row, animate=False)

    def action_cursor_up(self) -> None:
        self._step(-1)

    def action_cursor_down(self) -> None:
        self._step(1)

    def action_scroll_home(self) -> None:
        if self.pickable:
            self.move_cursor(row=self.pickable[0], animate=False)

    def action_scroll_end(self) -> None:
        if self.pickable:
            self.move_cursor(row=self.pickable[-1], animate=False)

    def _step(self, by: int) -> None:
        """The next (or previous) box that may be picked, round the card."""
        if not self.pickable:
            return
        row = self.cursor_row
        later = [i for i in self.pickable if (i - row) * by > 0]
        target = (min(later) if by > 0 else max(later)) if later else \
            (self.pickable[0] if by > 0 else self.pickable[-1])
        self.move_cursor(row=target, animate=False)


class KeyBar(Static):
    """The keys that matter now, in the player's language (a footer that translates).

    The keys come most wanted first, then quit last; what does not fit the width is left out from
    the end of the middle, so the first (help, which lists every key) and the last (quit) always show."""

    keys: list[tuple[str, str]] = []

    def show(self, keys: list[tuple[str, str]]) -> None:
        if keys != self.keys:
            self.keys = keys
            self.refresh()

    def render(self) -> Text:
        keys, width = list(self.keys), self.content_size.width
        while len(keys) > 2 and self.line(keys).cell_len > width:
            del keys[-2]
        return self.line(keys)

    @staticmethod
    def line(keys: list[tuple[str, str]]) -> Text:
        text = Text(no_wrap=True, overflow="ellipsis")
        for i, (key, what) in enumerate(keys):
            if i:
                text.append("  ")
            text.append(f" {key} ", style="reverse bold")
            text.append(f" {what}")
        return text

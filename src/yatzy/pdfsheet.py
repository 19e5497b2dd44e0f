"""Printable score sheets as PDF: one A4 page per eight players, for any ruleset and language.

Everything on the sheet comes from the ruleset and the catalogs: the boxes and their
maxima, the bonuses under their own sections, a subtotal row per bonus, Yahtzee's extra
bonus row, the forced order, the turn count. ``large=True`` prints the large-print
version for low-vision players: big type and thick rules, black on yellow (16:1 contrast).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Literal

from fpdf import FPDF

from .errors import InvalidActionError
from .i18n import _, check_language, language, ngettext
from .names import category_name, label
from .registry import OPTIONS, get_ruleset
from .rules import Bonus, Ruleset
from .rulesets.parts import saved_rolls_note
from .seats import check_name

__all__ = ["PLAYERS_PER_PAGE", "YELLOW", "font_dir", "score_sheet"]

PLAYERS_PER_PAGE = 8
"""Player columns on one page; more players continue on further pages."""

YELLOW = (0xFF, 0xE6, 0x00)
"""The large-print paper colour: black on it has a contrast ratio of about 16:1."""

BLACK = (0, 0, 0)
WHITE = (0xFF, 0xFF, 0xFF)
PT = 25.4 / 72
"""Millimetres per typographic point."""

FONT = "DejaVu"
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}
FONT_DIRS = (
    Path("/usr/share/fonts/truetype/dejavu"),  # Debian and Ubuntu: fonts-dejavu-core
    Path("/usr/share/fonts/dejavu-sans-fonts"),  # Fedora
    Path("/usr/share/fonts/TTF"),  # Arch
    Path("/usr/share/fonts/dejavu"),
    Path("/usr/local/share/fonts/dejavu"),
    Path("/opt/homebrew/share/fonts"),
    Path("/Library/Fonts"),
)
"""Where DejaVu Sans lives on common systems; matplotlib's own copy is tried after these."""


def font_dir() -> Path:
    """The folder holding DejaVu Sans (it has every Finnish, Scandinavian and Russian letter).

    :raises FileNotFoundError: no copy on this machine, saying how to get one.
    """
    dirs = list(FONT_DIRS)
    spec = importlib.util.find_spec("matplotlib")  # finds the package without importing it
    if spec is not None and spec.submodule_search_locations:
        dirs.extend(Path(p) / "mpl-data" / "fonts" / "ttf" for p in spec.submodule_search_locations)
    for folder in dirs:
        if (folder / FONT_FILES[""]).is_file():
            return folder
    raise FileNotFoundError(
        _("the score sheet needs the DejaVu Sans font: install fonts-dejavu-core (Debian, Ubuntu) "
          "or matplotlib"))


@dataclass(frozen=True)
class _Style:
    """Sizes (type in points, the rest in millimetres) and colours of one look."""

    margin: float
    pad: float
    """Space between a cell's rule and its text."""
    title: float
    text: float
    small: float
    footer: float
    rule: float
    thick: float
    row_max: float
    row_min: float
    player_min: float
    player_max: float
    paper: tuple[int, int, int]
    soft: tuple[int, int, int]
    """Secondary text (maxima, notes): dark grey, or black in large print."""
    shade: tuple[int, int, int] | None
    """Fill of the sum and total rows and the max column (none in large print)."""
    bold_names: bool
    max_head: float
    """Type size of the max column's heading relative to ``small`` (large print: keep the column narrow)."""


NORMAL = _Style(margin=12, pad=1.5, title=17, text=10.5, small=8, footer=7, rule=0.2, thick=0.7, row_max=11,
                row_min=5.5, player_min=12, player_max=36, paper=WHITE, soft=(0x4D, 0x4D, 0x4D),
                shade=(0xEE, 0xEE, 0xEE), bold_names=False, max_head=1.0)
LARGE = _Style(margin=9, pad=2.2, title=22, text=16, small=12, footer=10, rule=0.6, thick=1.5, row_max=14,
               row_min=7.5, player_min=13, player_max=40, paper=YELLOW, soft=BLACK, shade=None,
               bold_names=True, max_head=0.75)


@dataclass(frozen=True)
class _Row:
    kind: Literal["box", "sum", "bonus", "extra", "total"]
    text: str
    note: str = ""
    max: str = ""
    order: str = ""
    thick_above: bool = False

    @property
    def strong(self) -> bool:
        return self.kind in ("sum", "total")


def _bonus_note(bonus: Bonus) -> str:
    """ "≥ 63", "> 113": what the sum above must reach."""
    return f"{'>' if bonus.strict else '≥'} {bonus.threshold}"


def _rows(rs: Ruleset) -> list[_Row]:
    """The sheet's rows in the current language: boxes, a sum and a bonus under each bonus's
    last box, Yahtzee's extra bonus, the total."""
    ids = rs.category_ids
    ends: dict[int, list[Bonus]] = {}
    for bonus in rs.bonuses:
        ends.setdefault(max(ids.index(c) for c in bonus.categories), []).append(bonus)
    turn_of = {c: n for n, c in enumerate(rs.order or (), 1)}
    rows: list[_Row] = []
    section_ended = False
    for i, cat in enumerate(rs.categories):
        new_section = i > 0 and cat.section != rs.categories[i - 1].section
        rows.append(_Row("box", category_name(cat.id), max=str(cat.max), order=str(turn_of.get(cat.id, "")),
                         thick_above=section_ended or new_section))
        section_ended = False
        for bonus in ends.get(i, []):
            rows.append(_Row("sum", _("Sum"), max=str(sum(rs.by_id[c].max for c in bonus.categories)),
                             thick_above=True))
            rows.append(_Row("bonus", label("bonus"), note=_bonus_note(bonus), max=str(bonus.points)))
            section_ended = True
    if rs.max_extra > 0:
        box = next(c for c in rs.categories if c.kind == "yatzy")
        each = rs.extra_points({box.id: box.max}, (box.face or 1,) * rs.dice)
        rows.append(_Row("extra", label("yahtzee_bonus"), thick_above=True,
                         note=_("+{points} each").format(points=each) if each else ""))
    rows.append(_Row("total", label("total"), max=str(rs.max_total), thick_above=True))
    return rows


def _intro(rs: Ruleset) -> list[str]:
    """The lines under the title: dice, turns and rolls; the forced order; saved rolls."""
    lines = [_("{dice}, {turns}, {rolls}; fill one box per turn.").format(
        dice=ngettext("{n} die", "{n} dice", rs.dice).format(n=rs.dice),
        turns=ngettext("{n} turn", "{n} turns", rs.turns).format(n=rs.turns),
        rolls=ngettext("up to {n} roll a turn", "up to {n} rolls a turn", rs.rolls_per_turn).format(
            n=rs.rolls_per_turn))]
    if rs.order is not None:
        lines.append(_("Forced order: fill the boxes in the order of the numbers beside them."))
    if rs.saved_rolls:
        lines.append(saved_rolls_note(rs.bank_cap))
    return lines


def _changed_options(rs: Ruleset) -> list[str]:
    """Options that differ from the defaults: ``name=value (what it means)``."""
    return [f"{spec.name}={spec.show(rs.option(spec.name))} ({_(spec.help)})"
            for spec in OPTIONS.get(rs.name, ()) if rs.option(spec.name) != spec.default]


def _order_arrow(rs: Ruleset) -> str:
    """↓ when the forced order runs down the sheet, ↑ when up, else nothing."""
    if rs.order == rs.category_ids:
        return "↓"
    if rs.order == rs.category_ids[::-1]:
        return "↑"
    return ""


class _Sheet:
    """Draws the pages of one score sheet."""

    def __init__(self, rs: Ruleset, style: _Style, headers: list[str], named: int, today: date) -> None:
        self.rs, self.s, self.today = rs, style, today
        self.headers, self.named = headers, named
        self.rows = _rows(rs)
        self.pdf = FPDF(orientation="P", unit="mm", format="A4")
        self.pdf.set_auto_page_break(False)
        self.pdf.set_margins(style.margin, style.margin, style.margin)
        folder = font_dir()
        for weight, file in FONT_FILES.items():
            path = folder / file
            self.pdf.add_font(FONT, weight, path if path.is_file() else folder / FONT_FILES[""])
        self.pad = style.pad

    # ---- text helpers -----------------------------------------------------------------
    def font(self, size: float, bold: bool = False, color: tuple[int, int, int] = BLACK) -> None:
        self.pdf.set_font(FONT, "B" if bold else "", size)
        self.pdf.set_text_color(*color)

    def width(self, text: str, size: float, bold: bool = False) -> float:
        self.pdf.set_font(FONT, "B" if bold else "", size)
        return float(self.pdf.get_string_width(text))

    def fit(self, text: str, size: float, room: float, bold: bool = False) -> float:
        """``size``, or smaller so that ``text`` fits in ``room`` millimetres."""
        w = self.width(text, size, bold)
        return size if w <= room else size * room / w

    def put(self, x: float, y: float, h: float, text: str, size: float, *, bold: bool = False,
            align: Literal["L", "R", "C"] = "L", w: float = 0, color: tuple[int, int, int] = BLACK) -> None:
        """Text centred vertically in the band ``y``..``y+h``, aligned in ``x``..``x+w``."""
        self.font(size, bold, color)
        tw = self.pdf.get_string_width(text)
        left = {"L": x, "R": x + w - tw, "C": x + (w - tw) / 2}[align]
        self.pdf.text(left, y + h / 2 + 0.36 * size * PT, text)

    def lines_of(self, text: str, size: float, w: float, bold: bool = False) -> list[str]:
        """``text`` broken at spaces into lines no wider than ``w``."""
        lines: list[str] = []
        for word in text.split(" "):
            if lines and self.width(f"{lines[-1]} {word}", size, bold) <= w:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        return lines

    def hline(self, x0: float, x1: float, y: float, width: float) -> None:
        self.pdf.set_line_width(width)
        self.pdf.line(x0, y, x1, y)

    def vline(self, x: float, y0: float, y1: float, width: float) -> None:
        self.pdf.set_line_width(width)
        self.pdf.line(x, y0, x, y1)

    # ---- layout -------------------------------------------------------------------------
    def columns(self) -> None:
        """Column widths: order numbers, names (shrunk only if eight players need it), max, players."""
        s, pad = self.s, self.pad
        page_w = self.pdf.w - 2 * s.margin
        self.cols = min(len(self.headers), PLAYERS_PER_PAGE)
        self.order_w = (self.width("88", s.small) + 2 * pad) if self.rs.order is not None else 0.0
        heading = self.width(label("max"), s.max_head * s.small, True)
        self.max_w = max([heading, self.width("888", s.small, True)]
                         + [self.width(r.max, s.small, r.strong) for r in self.rows]) + 2 * pad
        gap = self.width("  ", s.text)
        need = max([self.width(label("category"), s.small, True)]
                   + [self.width(r.text, s.text, r.strong or s.bold_names)
                      + (gap + self.width(r.note, s.small) if r.note else 0) for r in self.rows])
        room = page_w - self.order_w - self.max_w - self.cols * s.player_min - 3 * pad
        self.scale = min(1.0, room / need)
        self.name_w = min(need, room) + 3 * pad
        free = page_w - self.order_w - self.max_w - self.name_w
        self.player_w = max(s.player_min, min(s.player_max, free / self.cols))
        self.table_w = self.order_w + self.name_w + self.max_w + self.cols * self.player_w
        self.x0 = s.margin + (page_w - self.table_w) / 2
        self.text_w = self.pdf.w - s.margin - self.x0
        """Title, intro and footer: from the table's left edge to the page margin."""

    def heights(self, footer: list[str]) -> None:
        """Title, intro, footer and board strip heights; the rows share what is left."""
        s = self.s
        self.intro = [ln for text in _intro(self.rs) for ln in self.lines_of(text, s.small, self.text_w)]
        self.title_h = s.title * PT * 1.35
        self.intro_h = len(self.intro) * s.small * PT * 1.35
        self.footer_h = len(footer) * s.footer * PT * 1.35
        self.board_h = (2.2 * s.text * PT + s.small * PT * 1.6) if self.rs.uses_board else 0.0
        gaps = 4 + 4 + (4 if self.board_h else 0)
        room = self.pdf.h - 2 * s.margin - self.title_h - self.intro_h - self.footer_h - self.board_h - gaps
        header_rows = 1.6
        self.row_h = max(s.row_min, min(s.row_max, room / (len(self.rows) + header_rows)))
        self.header_h = self.row_h * header_rows

    # ---- drawing ------------------------------------------------------------------------
    def page(self, headers: list[str], first_number: int, footer: list[str]) -> None:
        pdf, s = self.pdf, self.s
        pdf.add_page()
        if s.paper != WHITE:
            pdf.set_fill_color(*s.paper)
            pdf.rect(-1, -1, pdf.w + 2, pdf.h + 2, style="F")  # past the edges: no white hairline
        pdf.set_draw_color(*BLACK)
        y = s.margin
        title = _(self.rs.title)
        self.put(self.x0, y, self.title_h, title, self.fit(title, s.title, self.text_w, True), bold=True)
        y += self.title_h
        for line in self.intro:
            self.put(self.x0, y, s.small * PT * 1.35, line, s.small, color=s.soft)
            y += s.small * PT * 1.35
        y += 4
        y = self.table(y, headers, first_number)
        if self.rs.uses_board:
            self.board(y + 4)
        fy = pdf.h - s.margin - self.footer_h
        for line in footer:
            self.put(self.x0, fy, s.footer * PT * 1.35, line, s.footer, color=s.soft)
            fy += s.footer * PT * 1.35

    def table(self, top: float, headers: list[str], first_number: int) -> float:
        """The grid: header row, one row per line of the sheet; returns its bottom."""
        s, pad, h = self.s, self.pad, self.row_h
        x_name = self.x0 + self.order_w
        x_max = x_name + self.name_w
        x_players = x_max + self.max_w
        width = self.table_w - (self.cols - len(headers)) * self.player_w  # a last page may have fewer
        right = self.x0 + width
        bottom = top + self.header_h + h * len(self.rows)
        if s.shade is not None:
            self.pdf.set_fill_color(*s.shade)
            self.pdf.rect(x_max, top + self.header_h, self.max_w, h * len(self.rows), style="F")
            for i, row in enumerate(self.rows):
                if row.strong:
                    self.pdf.rect(self.x0, top + self.header_h + i * h, width, h, style="F")
        # header: what each column holds; a player's cell leaves room to write a name
        hh = self.header_h
        if self.order_w:
            self.put(self.x0, top, hh, _order_arrow(self.rs), s.text, bold=True, align="C", w=self.order_w)
        self.put(x_name + pad, top + hh - h, h, label("category"), s.small, bold=True, color=s.soft)
        most = label("max")
        self.put(x_max, top + hh - h, h, most, self.fit(most, s.small, self.max_w - 2 * pad, True), bold=True,
                 align="C", w=self.max_w, color=s.soft)
        inset = s.thick / 2 + 0.6
        for k, text in enumerate(headers):
            x = x_players + k * self.player_w + inset
            room, y = self.player_w - 2 * inset, top + inset
            if first_number + k < self.named:  # a name the caller gave: large, on two lines if need be
                self.name(x, top, room, text)
            elif self.width(text, s.small) <= room:  # "Player 3" at the top, the rest to write a name in
                self.put(x, y, s.small * PT * 1.4, text, s.small, align="C", w=room, color=s.soft)
            else:  # too narrow: the word as small as it must be, the number under it in full size
                word, number = label("player"), str(first_number + k + 1)
                size = self.fit(word, s.small, room)
                self.put(x, y, size * PT * 1.4, word, size, align="C", w=room, color=s.soft)
                self.put(x, y + size * PT * 1.4, s.text * PT * 1.3, number, s.text, bold=True, align="C",
                         w=room)
        # rows
        for i, row in enumerate(self.rows):
            y = top + hh + i * h
            size = s.text * self.scale
            bold = row.strong or s.bold_names
            if row.order:
                self.put(self.x0, y, h, row.order, s.small, align="C", w=self.order_w, color=s.soft)
            self.put(x_name + pad, y, h, row.text, size, bold=bold)
            if row.note:
                self.put(x_name + pad, y, h, row.note, s.small * self.scale, align="R",
                         w=self.name_w - 2 * pad, color=s.soft)
            if row.max:
                self.put(x_max + pad, y, h, row.max, s.small, bold=row.strong, align="R",
                         w=self.max_w - 2 * pad, color=s.soft)
        # rules: thin between rows, thick under the header, between sections and round the frame
        for i, row in enumerate(self.rows):
            y = top + hh + i * h
            self.hline(self.x0, right, y, s.thick if row.thick_above or i == 0 else s.rule)
        for k in range(1, len(headers)):
            x = x_players + k * self.player_w
            self.vline(x, top, bottom, s.rule)
        if self.order_w:
            self.vline(x_name, top, bottom, s.rule)
        self.vline(x_max, top, bottom, s.rule)
        self.vline(x_players, top, bottom, s.thick)
        self.pdf.set_line_width(s.thick)
        self.pdf.rect(self.x0, top, width, bottom - top)
        return bottom

    def name(self, x: float, top: float, room: float, text: str) -> None:
        """A player's name in the header: as large as fits on one line or two, shrunk if it must be."""
        s, hh = self.s, self.header_h
        for size in (s.text, 0.85 * s.text, s.small):
            lines = self.lines_of(text, size, room, bold=True)
            if len(lines) <= 2 and all(self.width(ln, size, True) <= room for ln in lines):
                break
        else:
            lines = self.lines_of(text, s.small, room, bold=True)
            lines = [lines[0], " ".join(lines[1:])] if len(lines) > 1 else lines
            size = min(self.fit(ln, s.small, room, True) for ln in lines)
        line_h = size * PT * 1.25
        y = top + (hh - line_h * len(lines)) / 2
        for ln in lines:
            self.put(x, y, line_h, ln, size, bold=True, align="C", w=room)
            y += line_h

    def board(self, top: float) -> None:
        """DOZZY: the twelve tiles in a strip, to tick as they go out."""
        s = self.s
        cap_h = s.small * PT * 1.6
        caption = _("Board tiles: tick a tile when it goes out, rub the tick out when it comes back.")
        self.put(self.x0, top, cap_h, caption, self.fit(caption, s.small, self.table_w), color=s.soft)
        cell, h = self.table_w / 12, 2.2 * s.text * PT
        self.pdf.set_line_width(s.thick if s.paper != WHITE else 2 * s.rule)
        for tile in range(1, 13):
            x = self.x0 + (tile - 1) * cell
            self.pdf.rect(x, top + cap_h, cell, h)
            self.put(x, top + cap_h, h * 0.55, str(tile), s.small, bold=True, align="C", w=cell, color=s.soft)

    def footer(self, page: int, pages: int) -> list[str]:
        """Ruleset, changed options, "yatzy" and the date; the page when there are several."""
        rs, s = self.rs, self.s
        parts = [f"{_(rs.title)} ({rs.name})"]
        changed = _changed_options(rs)
        if changed:
            parts.append(_("options: {options}").format(options="; ".join(changed)))
        parts.append(f"yatzy {self.today.isoformat()}")
        if pages > 1:
            parts.append(f"{page}/{pages}")
        return self.lines_of(" · ".join(parts), s.footer, self.text_w)

    def render(self) -> bytes:
        self.columns()
        chunks = [self.headers[i:i + PLAYERS_PER_PAGE] for i in range(0, len(self.headers), PLAYERS_PER_PAGE)]
        for n, chunk in enumerate(chunks, 1):
            footer = self.footer(n, len(chunks))
            self.heights(footer)
            self.page(chunk, (n - 1) * PLAYERS_PER_PAGE, footer)
        return bytes(self.pdf.output())


def score_sheet(ruleset: Ruleset | str, lang: str = "en", players: int = 4, large: bool = False,
                names: Sequence[str] | None = None, *, today: date | None = None) -> bytes:
    """A printable A4 score sheet as PDF bytes.

    :param ruleset: a built ruleset (its options show in the footer), or a ruleset name.
    :param lang: the language of every word on the sheet.
    :param players: player columns; eight fit on a page, more continue on further pages.
    :param large: large print for low-vision players: big type and thick rules, black on yellow.
    :param names: headers of the first columns (the rest read "Player 4" with room to write a name).
    :param today: the date in the footer (default: today).
    :raises InvalidActionError: an unknown language, fewer than one player, more names than
        players, or a name no seat may have (:func:`yatzy.seats.check_name`).
    """
    check_language(lang)
    with language(lang):
        rs = get_ruleset(ruleset) if isinstance(ruleset, str) else ruleset
        if players < 1:
            raise InvalidActionError(_("a score sheet needs at least one player, not {n}").format(n=players))
        given = [str(n) for n in names or ()]
        for name in given:
            if name.strip():  # a blank header is a column left to write a name in
                check_name(name)
        if len(given) > players:
            raise InvalidActionError(
                _("{names} names for {n} players: give at most one name per player").format(
                    names=len(given), n=players))
        headers = given + [f"{label('player')} {k}" for k in range(len(given) + 1, players + 1)]
        day = today or date.today()
        sheet = _Sheet(rs, LARGE if large else NORMAL, headers, len(given), day)
        sheet.pdf.set_title(_(rs.title))
        sheet.pdf.set_lang(lang)
        sheet.pdf.set_creator("yatzy")
        sheet.pdf.set_creation_date(datetime.combine(day, time(), tzinfo=UTC))
        return sheet.render()

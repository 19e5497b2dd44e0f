"""What a Textual app draws, read back from its compositor (no tests here): the screen as lines of
text, and WCAG 2's contrast ratio of two colours."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rich.color import Color
from rich.segment import Segment
from textual.app import App


def luminance(color: Color) -> float:
    """WCAG 2's relative luminance of a colour."""
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = color.get_truecolor()
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def ratio(one: Color, other: Color) -> float:
    """WCAG 2's contrast ratio, 1 (the same) to 21 (black and white)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def segments(app: App[Any]) -> Iterator[tuple[int, int, Segment]]:
    """Every run of characters on the screen as drawn now: its column, its row and itself."""
    for y, line in enumerate(app.screen._compositor.render_full_update().strips):
        x = 0
        for segment in (segment for strip in line for segment in strip):
            yield x, y, segment
            x += segment.cell_length


def rows(app: App[Any]) -> list[str]:
    """The screen as lines of text."""
    lines: dict[int, str] = {}
    for _x, y, segment in segments(app):
        lines[y] = lines.get(y, "") + segment.text
    return [lines[y] for y in sorted(lines)]

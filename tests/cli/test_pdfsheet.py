"""Printable score sheets: every box of every ruleset in its language, readable by poppler;
large print black on yellow; eight players a page; nothing runs off the page."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from datetime import date
from functools import cache
from pathlib import Path

import pytest

from yatzy.errors import InvalidActionError
from yatzy.i18n import _, language
from yatzy.names import category_name, label
from yatzy.pdfsheet import YELLOW, score_sheet
from yatzy.registry import RULESETS, get_ruleset

DAY = date(2025, 6, 1)
OTHER_LANGUAGE = {"yatzy": "fi", "maxi": "fi", "kids": "fi", "dozzy": "ru", "forced": "sv", "osto": "da",
                  "yahtzee": "nb"}
"""Each ruleset's second language: all six are covered, with English for every ruleset."""


@pytest.fixture(autouse=True, scope="module")
def _poppler() -> None:
    for tool in ("pdftoppm", "pdftotext"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: install Debian's poppler-utils")


@cache
def sheet(rules: str = "yatzy", lang: str = "en", players: int = 4, large: bool = False,
          names: tuple[str, ...] = (), **options: object) -> bytes:
    return score_sheet(get_ruleset(rules, **options), lang, players, large, list(names), today=DAY)


def run(tool: str, pdf: bytes, *args: str) -> str:
    """A poppler tool's text output for the PDF (``-`` writes to stdout)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sheet.pdf"
        path.write_bytes(pdf)
        done = subprocess.run([tool, *args, str(path), "-"], capture_output=True, check=True)
    return done.stdout.decode()


def text(pdf: bytes) -> str:
    """The sheet's words in reading order, each run of white space one space, pages split by ``\\f``."""
    return "\f".join(" ".join(page.split()) for page in run("pdftotext", pdf).split("\f"))


def words(pdf: bytes, page: int = 1) -> list[tuple[str, float, float, float, float]]:
    """(word, xMin, yMin, xMax, yMax) in points, from ``pdftotext -bbox``."""
    html = run("pdftotext", pdf, "-bbox", "-f", str(page), "-l", str(page))
    number = r'"([\d.]+)"'
    found = re.findall(rf"<word xMin={number} yMin={number} xMax={number} yMax={number}>(.*?)</word>", html)
    unescape = {"&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'"}
    return [(re.sub("&[a-z]+;", lambda m: unescape[m[0]], w), float(a), float(b), float(c), float(d))
            for a, b, c, d, w in found]


def ppm(pdf: bytes, resolution: int = 20) -> tuple[int, int, bytes]:
    """The first page as pixels: width, height and RGB bytes (pdftoppm's PPM is trivial to read)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sheet.pdf"
        path.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", str(resolution), "-f", "1", "-l", "1", "-singlefile", str(path),
                        str(Path(tmp) / "page")], check=True)
        data = (Path(tmp) / "page.ppm").read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert (magic, depth) == (b"P6", b"255")
    return int(width), int(height), pixels


def pixel(image: tuple[int, int, bytes], x: int, y: int) -> tuple[int, ...]:
    width, _height, pixels = image
    at = 3 * (y * width + x)
    return tuple(pixels[at:at + 3])


CASES = [(rules, lang) for rules in RULESETS for lang in ("en", OTHER_LANGUAGE[rules])]


def test_every_ruleset_has_a_second_language_and_all_six_are_covered() -> None:
    assert set(OTHER_LANGUAGE) == set(RULESETS)
    assert {lang for _rules, lang in CASES} == {"en", "fi", "sv", "da", "nb", "ru"}


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "lang"), CASES)
def test_sheet_renders_with_every_box_name_and_player_column(rules: str, lang: str, tmp_path: Path) -> None:
    pdf = sheet(rules, lang)
    assert pdf.startswith(b"%PDF-")
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "30", str(tmp_path / "sheet.pdf"), str(tmp_path / "page")],
                   check=True)
    pngs = sorted(tmp_path.glob("page*.png"))
    assert len(pngs) == 1
    png = pngs[0].read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert abs(width - 248) <= 1 and abs(height - 351) <= 1  # A4 portrait at 30 dpi
    assert len(png) > 4000, "a blank page compresses to far less"
    words_read = text(pdf)
    rs = get_ruleset(rules)
    for category in rs.categories:
        assert category_name(category.id, lang) in words_read
    for k in range(1, 5):
        assert f"{label('player', lang)} {k}" in words_read
    assert label("total", lang) in words_read
    with language(lang):
        assert _(rs.title) in words_read


def test_rows_follow_the_ruleset_bonuses_and_extras() -> None:
    dozzy = text(sheet("dozzy"))
    assert dozzy.count(label("bonus")) == 2 and "≥ 63" in dozzy and "> 113" in dozzy
    assert dozzy.count(_("Sum")) == 2
    maxi = text(sheet("maxi", bonus_threshold=75, must_keep_one=True))
    assert "≥ 75" in maxi and "≥ 84" not in maxi
    yahtzee = text(sheet("yahtzee"))
    assert label("yahtzee_bonus") in yahtzee and "+100" in yahtzee
    assert label("yahtzee_bonus") not in text(sheet("yahtzee", yahtzee_bonus=False))
    assert label("yahtzee_bonus") not in text(sheet("yatzy"))
    kids = text(sheet("kids"))
    assert category_name("one_pair") not in kids and str(get_ruleset("kids").max_total) in kids


def test_sum_and_bonus_sit_under_their_own_section() -> None:
    def line_of(lines: list[str], words: str, start: int = 0) -> int:
        return next(i for i, line in enumerate(lines) if i >= start and words in line)

    for rules, sections in (("yatzy", [("sixes", "one_pair")]),
                            ("dozzy", [("n6", "n7"), ("n12", "one_pair")])):
        lines = run("pdftotext", sheet(rules), "-layout").splitlines()
        for last, next_box in sections:
            end = line_of(lines, category_name(last))
            subtotal = line_of(lines, _("Sum"), end)
            bonus = line_of(lines, label("bonus"), end)
            assert end < subtotal < bonus < line_of(lines, category_name(next_box), end)
        total = line_of(lines, label("total"))
        assert total > line_of(lines, category_name("yatzy"))


def test_forced_order_numbers_the_boxes_in_their_order() -> None:
    for pdf, first in ((sheet("forced"), "1"), (sheet("forced", order="up"), "15")):
        layout = run("pdftotext", pdf, "-layout")
        ones = next(line for line in layout.splitlines() if category_name("ones") in line)
        assert ones.split()[0] == first
    assert _("Forced order: fill the boxes in the order of the numbers beside them.") in text(sheet("forced"))
    assert "Forced order" not in text(sheet("yatzy"))


def test_dozzy_has_the_tile_strip() -> None:
    caption = _("Board tiles: tick a tile when it goes out, rub the tick out when it comes back.")
    assert caption in text(sheet("dozzy"))
    assert caption not in text(sheet("yatzy"))


def test_footer_names_the_ruleset_changed_options_and_date() -> None:
    plain = text(sheet("maxi"))
    assert "(maxi)" in plain and "yatzy 2025-06-01" in plain and "=" not in plain
    changed = text(sheet("maxi", bonus_threshold=75, must_keep_one=True))
    assert "bonus_threshold=75" in changed and "must_keep_one=on" in changed
    assert "saved_rolls" not in changed


def large_sheet(rules: str) -> bytes:
    """The tallest case: eight players in large print (in the ruleset's second language)."""
    return sheet(rules, OTHER_LANGUAGE[rules], players=8, large=True)


def test_large_print_is_black_on_yellow_with_bigger_type() -> None:
    large, normal = large_sheet("yatzy"), sheet("yatzy", "fi")
    image = ppm(large)
    assert pixel(image, 2, 2) == YELLOW
    assert pixel(ppm(normal), 2, 2) == (255, 255, 255)
    pixels = image[2]
    assert all(b == 0 for b in pixels[2::3]), "every mark is black on yellow: no grey or coloured ink"
    assert b"\x00\x00\x00" in pixels
    red, green, blue = (c / 255 for c in YELLOW)
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)]
    luminance = 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
    assert (luminance + 0.05) / 0.05 >= 7

    def height(pdf: bytes, word: str) -> float:
        return next(y1 - y0 for w, _x0, y0, _x1, y1 in words(pdf) if w == word)

    for word in (category_name("ones", "fi"), label("total", "fi")):
        assert height(large, word) > 1.4 * height(normal, word)


def player_columns(pdf: bytes, page: int = 1, lang: str = "en") -> list[int]:
    """The numbers heading the player columns: "Player 3" on one line, or "Player" over a big "3"."""
    found = words(pdf, page)
    numbers = []
    for word, x0, y0, x1, y1 in found:
        if word == label("player", lang):
            beside = [int(w) for w, a, b, _c, _d in found
                      if w.isdigit() and abs(b - y0) < 1 and 0 <= a - x1 < 8]
            below = [int(w) for w, a, b, c, _d in found
                     if w.isdigit() and a >= x0 - 1 and c <= x1 + 1 and -3 <= b - y1 < 5]
            numbers.extend((beside or below)[:1])
    return sorted(numbers)


@pytest.mark.parametrize("large", [False, True])
def test_eight_players_fit_on_one_page_and_the_ninth_starts_another(large: bool) -> None:
    eight = large_sheet("maxi") if large else sheet("maxi", players=8)
    assert text(eight).count("\f") == 1  # pdftotext ends every page with a form feed
    lang = OTHER_LANGUAGE["maxi"] if large else "en"
    assert player_columns(eight, 1, lang) == list(range(1, 9))
    nine = sheet("maxi", OTHER_LANGUAGE["maxi"], players=9, large=True) if large else sheet("maxi", players=9)
    assert text(nine).count("\f") == 2
    assert player_columns(nine, 1, lang) == list(range(1, 9)) and player_columns(nine, 2, lang) == [9]


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULESETS)
def test_nothing_runs_into_the_footer_or_off_the_page(rules: str) -> None:
    pdf = large_sheet(rules)
    found = words(pdf)
    footer_top = next(y0 for w, _x0, y0, _x1, _y1 in found if w == "2025-06-01")
    above = [(w, y1) for w, _x0, y0, _x1, y1 in found if y0 < footer_top - 1]
    assert above and all(y1 <= footer_top for _w, y1 in above)
    assert all(0 < x0 and x1 < 595.3 and 0 < y0 and y1 < 841.9 for _w, x0, y0, x1, y1 in found)
    assert text(pdf).count("\f") == 1


def test_names_head_the_first_columns() -> None:
    read = text(sheet("yatzy", "sv", players=3, names=("Åsa", "Björn")))
    assert "Åsa" in read and "Björn" in read and f"{label('player', 'sv')} 3" in read
    assert f"{label('player', 'sv')} 1" not in read


def test_bad_requests_are_refused() -> None:
    with pytest.raises(InvalidActionError):
        score_sheet("yatzy", players=0)
    with pytest.raises(InvalidActionError):
        score_sheet("yatzy", players=1, names=["Ann", "Bo"])
    with pytest.raises(InvalidActionError):
        score_sheet("yatzy", lang="xx")

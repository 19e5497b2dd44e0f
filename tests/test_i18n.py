"""Every word a player reads, in six languages, from one catalog (issue 8).

The catalogs must hold every marked string of ``src/yatzy`` (extracted here as
``scripts/translations`` extracts them), each translation with exactly its message's
``{placeholders}``, each compiled ``.mo`` must be the one its ``.po`` compiles to, and the web
page's words (``static/i18n/<lang>.json``) must be the ones the catalogs export. The
command line must then speak the language it is given: rule sheets with no English word
left, score tables with the language's box names, errors in the language.

When a test here fails after a change of wording: run ``bash scripts/translations``,
translate the new or changed messages in ``src/yatzy/locale/*/LC_MESSAGES/yatzy.po`` and run
the script again to compile them.
"""

from __future__ import annotations

import ast
import io
import re
from collections.abc import Iterable
from functools import cache
from io import BytesIO
from pathlib import Path
from string import Formatter

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from rich.console import Console
from typer.testing import CliRunner

import yatzy
from yatzy.bots import BOTS
from yatzy.cli import app
from yatzy.game import Game
from yatzy.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    _,
    current_language,
    language,
    ngettext,
    number,
    percent,
    pgettext,
)
from yatzy.line.play import hot_seat
from yatzy.names import category_name
from yatzy.registry import ALIASES, OPTIONS, RULESETS, get_ruleset, parse_options
from yatzy.session import DEFAULT_SAVE
from yatzy.web.page_text import FOLDER, PAGE_TEXT, page_json, page_words

runner = CliRunner()
SRC = Path(yatzy.__file__).parent
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
WIDE = {"COLUMNS": "250"}
"""Wide enough that Rich never folds a word of a sheet."""

KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "NC_": ((1, "c"), 2), "ngettext": (1, 2), "NP_": (1, 2)}
"""What ``scripts/translations`` extracts: pybabel's default keywords (``_``, ``gettext``,
``ngettext``, ``pgettext`` ...) plus ``-k N_ -k NC_:1c,2 -k ngettext:1,2 -k NP_:1,2``."""

Key = tuple[str | tuple[str, str], str | None]
"""A message as extracted: its id (a (singular, plural) pair for ngettext) and its context."""


@cache
def extracted() -> dict[Key, frozenset[str]]:
    """Every marked message of the package and the files (relative to src/yatzy) it is in."""
    found: dict[Key, set[str]] = {}
    for filename, _line, message, _comments, context in extract_from_dir(str(SRC), keywords=KEYWORDS):
        key = (message if isinstance(message, str) else tuple(message), context)
        found.setdefault(key, set()).add(filename.replace("\\", "/"))
    return {k: frozenset(v) for k, v in found.items()}


def required_messages() -> list[Key]:
    """The messages every catalog must translate: every marked message of the package."""
    return sorted(extracted(), key=repr)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / "yatzy.po"


def load_po(lang: str) -> Catalog:
    with po_path(lang).open("rb") as f:
        return read_po(f, locale=lang)


def untranslated(catalog: Catalog, required: Iterable[Key]) -> list[str]:
    """Each required message the catalog lacks, has empty (in any plural form) or fuzzy."""
    problems = []
    for msgid, context in required:
        singular = msgid if isinstance(msgid, str) else msgid[0]
        m = catalog.get(singular, context=context)
        if m is None:
            problems.append(f"missing: {msgid!r}")
        elif m.fuzzy:
            problems.append(f"fuzzy: {msgid!r}")
        elif isinstance(msgid, tuple):
            forms = m.string if isinstance(m.string, tuple) else (m.string,)
            if m.id != msgid or len(forms) != catalog.num_plurals or not all(forms):
                problems.append(f"plural forms missing or empty ({catalog.num_plurals} needed): {msgid!r}")
        elif not m.string or isinstance(m.string, tuple):
            problems.append(f"not translated: {msgid!r}")
    return problems


def fields(text: str) -> set[str]:
    """The {placeholders} of a format string (ValueError if its braces do not balance)."""
    return {name for _lit, name, _spec, _conv in Formatter().parse(text) if name is not None}


def placeholder_errors(catalog: Catalog) -> list[str]:
    """Translations whose {placeholders} are not exactly their message's (or that cannot format)."""
    problems = []
    for m in catalog:
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        forms = (m.string,) if isinstance(m.string, str) else m.string
        wanted = set().union(*(fields(i) for i in ids))
        for form in forms:
            if not form:
                continue  # untranslated: the completeness test's business
            try:
                got = fields(form)
            except ValueError as e:
                problems.append(f"{m.id!r}: {form!r} is not a format string ({e})")
                continue
            if got != wanted:
                problems.append(f"{m.id!r}: {form!r} has {sorted(got)}, wants {sorted(wanted)}")
    return problems


def compiled(catalog: Catalog) -> bytes:
    """The .mo a catalog compiles to, as ``pybabel compile`` writes it."""
    out = BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


# ---- the catalogs ------------------------------------------------------------------------------
def test_the_extraction_finds_the_strings() -> None:
    """A sanity check of the extraction itself: strings of every kind of marking are found."""
    keys = extracted()
    assert ("Full House", None) in keys  # N_ in rulesets/parts.py
    assert ("error:", None) in keys  # _ in cli/common.py
    assert (("{n} game", "{n} games"), None) in keys  # ngettext in cli/solver.py
    assert ("Box", "page") in keys and ("Seat {n}", None) in keys  # NC_ and N_ in web/page_text.py
    assert any("solver/coach.py" in files for files in keys.values())


def marked_in_code() -> dict[str, str]:
    """Every literal message the code passes to ``_``, ``N_`` or ``pgettext``, f-strings
    included (which the extraction does not read), and one place it is at."""
    found: dict[str, str] = {}
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args:
                literal = node.args[-1] if node.func.id in ("pgettext", "NC_") else node.args[0]
                if node.func.id in ("_", "N_", "NC_", "pgettext") and isinstance(literal, ast.Constant) \
                        and isinstance(literal.value, str):
                    found.setdefault(literal.value, f"{path.relative_to(SRC)}:{node.lineno}")
    return found


def test_every_message_in_the_code_is_extracted() -> None:
    """A message marked inside an f-string is invisible to the extraction, so no catalog
    translates it (the coach's column heads were English in every language)."""
    keys = {msgid for msgid, _context in extracted() if isinstance(msgid, str)}
    missing = {m: where for m, where in marked_in_code().items() if m not in keys}
    assert not missing, missing


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_string_is_translated(lang: str) -> None:
    problems = untranslated(load_po(lang), required_messages())
    assert not problems, (f"{po_path(lang)} (run scripts/translations, then translate):\n"
                          + "\n".join(problems))


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_their_placeholders(lang: str) -> None:
    problems = placeholder_errors(load_po(lang))
    assert not problems, f"{po_path(lang)}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_compiled_catalogs_are_fresh(lang: str) -> None:
    mo = po_path(lang).with_suffix(".mo")
    assert mo.read_bytes() == compiled(load_po(lang)), f"{mo} is stale: run bash scripts/translations"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_pages_words_are_exported_from_the_catalogs(lang: str) -> None:
    """The page's file is the catalogs' export: one catalog for the page and the program."""
    path = FOLDER / f"{lang}.json"
    assert path.read_text(encoding="utf-8") == page_json(lang), f"{path} is stale: run scripts/translations"


def test_every_key_the_page_looks_up_is_declared() -> None:
    """The keys the page's scripts and ``index.html`` name (``t("seat_n", ...)``,
    ``data-i18n="lobby"``) are all in page_text, so the page finds each of its words."""
    static = FOLDER.parent
    code = "".join(p.read_text(encoding="utf-8") for p in [*static.rglob("*.js"), static / "index.html"])
    named = set(re.findall(r"""\bt\(["'](\w+)["']""", code))
    named |= set(re.findall(r'data-i18n(?:-label)?="(\w+)"', code))
    assert len(named) > 100 and not named - set(PAGE_TEXT), sorted(named - set(PAGE_TEXT))


def test_a_page_word_that_reads_otherwise_elsewhere_has_its_own_context() -> None:
    """The page's "Box" (a scorecard's row) is not the program's (a sheet's column head)."""
    assert PAGE_TEXT["box"] == ("page", "Box") and PAGE_TEXT["seat_n"] == "Seat {n}"
    with language("fi"):
        assert page_words("fi")["box"] == pgettext("page", "Box") != _("Box")


def test_the_checks_catch_what_they_look_for() -> None:
    """Each check above fails on a broken catalog: a missing, an empty, a fuzzy or a short plural
    translation; a changed placeholder; a catalog changed after compiling."""
    required = required_messages()
    catalog = load_po("ru")
    assert untranslated(catalog, required) == [] and placeholder_errors(catalog) == []
    fresh = compiled(catalog)

    catalog.delete("Full House")
    catalog["Sixes"].string = ""
    catalog["Chance"].flags.add("fuzzy")
    catalog["{n} game"].string = ("{n} партия", "{n} партии", "")
    catalog["error:"].string = "ошибка {error}:"
    assert sorted(untranslated(catalog, required)) == sorted([
        f"missing: {'Full House'!r}", f"not translated: {'Sixes'!r}", f"fuzzy: {'Chance'!r}",
        f"plural forms missing or empty (3 needed): {('{n} game', '{n} games')!r}",
    ])
    wrong = placeholder_errors(catalog)
    assert len(wrong) == 1 and wrong[0].startswith(repr("error:")), wrong
    assert compiled(catalog) != fresh


def test_every_part_of_the_program_is_required() -> None:
    """No file is let off: the line game, the session, the views and the terminal app included."""
    files = set().union(*extracted().values())
    for part in ("line/play.py", "session.py", "views.py", "cli/common.py", "solver/coach.py"):
        assert part in files, part
    assert any(f.startswith("tui/") for f in files)
    assert set(required_messages()) == set(extracted())


# ---- the line game's answers ----------------------------------------------------------------
QUIT_PROMPT = "Quit the game? y to quit, Enter to go on > "
SAVE_PROMPT = "Save it first? A file name, Enter for {file}, n not to save > "


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quit_and_save_prompts_ask_for_the_answers_the_game_takes(lang: str) -> None:
    """The letter a prompt asks for is the language's answer, and yes and no differ."""
    with language(lang):
        yes, no = pgettext("answer", "y"), pgettext("answer", "n")
        quit_words = re.findall(r"\w+", _(QUIT_PROMPT))
        save_words = re.findall(r"\w+", _(SAVE_PROMPT).format(file=DEFAULT_SAVE))
        assert yes in quit_words and no in save_words, (yes, no)
        assert {yes, pgettext("answer", "yes")}.isdisjoint({no, pgettext("answer", "no")})
        assert pgettext("answer", "yes").startswith(yes) and pgettext("answer", "no").startswith(no)


def quit_game(lang: str, answers: list[str]) -> tuple[str, list[str]]:
    """A one-person game in ``lang`` that is quit at once with ``answers``: the output and the
    prompts asked."""
    out, asked, feed = io.StringIO(), [], iter(["q", *answers])

    def ask(prompt: str) -> str:
        asked.append(prompt)
        for line in feed:
            return line
        raise EOFError

    hot_seat(Game("yatzy", ["Aino"], seed=1), ["human"], lang=lang, ask=ask,
             console=Console(file=out, width=110))
    return out.getvalue(), asked


@pytest.mark.parametrize("lang,yes,no", [("fi", "k", "e"), ("fi", "kyllä", "ei"), ("fi", "K", "EI"),
                                         ("sv", "j", "nej"), ("da", "ja", "nej"), ("nb", "j", "nei"),
                                         ("ru", "д", "н"), ("ru", "да", "нет")])
def test_the_line_game_takes_the_answers_of_its_language(
        lang: str, yes: str, no: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out, asked = quit_game(lang, [yes, no])
    with language(lang):
        assert asked == ["> ", _(QUIT_PROMPT), _(SAVE_PROMPT).format(file=DEFAULT_SAVE)], asked
        assert _("The game goes on.") not in out
        assert _("Standings ({round}): {ranking}").split("(")[0] in out
    assert not list(tmp_path.iterdir())  # not saved


def test_a_finnish_no_to_quitting_goes_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    out, asked = quit_game("fi", ["e"])
    assert "Peli jatkuu." in out and asked[-1] == "> "
    out, _asked = quit_game("fi", ["kyllä", ""])  # Enter saves to the default file
    assert "tallennettu tiedostoon yatzy-game.json" in out and (tmp_path / DEFAULT_SAVE).exists()


# ---- the command line speaks the language -----------------------------------------------------------
SHEETS = [(name, []) for name in RULESETS] + [
    ("yatzy", ["full_house_accepts_yatzy=on", "two_pairs_accepts_four=on"]),
    ("forced", ["order=up"]),
    ("osto", ["bank_cap=3"]),
    ("maxi", ["saved_rolls=off", "bonus_threshold=75"]),
    ("yahtzee", ["joker=free", "yahtzee_bonus=off"]),
    ("yahtzee", ["joker=none"]),
]
"""Every ruleset's sheet, and the sheets whose words change with an option."""

SAME_WORDS = {"yatzy", "yahtzee", "maxi", "bonus", "dozzy", "dozen", "pakko", "tvungen", "osto"}
"""Names that are the same in English and in every language: the games (Pakko, Tvungen and Osto
are names, as in "Forced Yatzy (Pakko / Tvungen)"), the DOZEN12 board and the bonus."""

SAME_WORDS_IN = {
    "fi": {"on"},  # "is"
    "sv": {"max", "full",  # the column "Max"; "Full stege", Maxi's full straight
           "per", "extra", "in", "bot"},  # "3 kast per omgång", "extra Yahtzee", "för in", "okänd bot"
    "da": {"chance", "straight", "villa", "to",  # box names: Chance, Lille straight, Villa, To par
           "sum", "for", "at", "bot"},  # "summen ... sum", "for hver", "at" (that), "ukendt bot"
    "nb": {"straight", "full", "villa", "to",  # box names: Liten straight, Full straight, Villa, To par
           "sum", "per", "for", "at", "bot"},  # "beste sum", "per runde", "for hver", "at", "ukjent bot"
    "ru": set(),
}
"""Words of a language spelled as English ones: its box names, and everyday words that only look
English (each seen on a sheet or in an error)."""


def sheet(name: str, options: list[str], lang: str) -> str:
    args = ["rules", name, "--lang", lang] + [a for o in options for a in ("--option", o)]
    r = runner.invoke(app, args, env=WIDE)
    assert r.exit_code == 0, r.output
    return r.stdout


def words(text: str, ids: Iterable[str] = ()) -> set[str]:
    """The words of a text (two letters or more, lower case), leaving out what is typed as it is:
    the id column of a sheet (which must hold only ids), ``--flags``, ``name=value`` settings and
    ``bot:LEVEL`` seats."""
    ids = set(ids)
    lines = []
    for line in text.splitlines():
        if line.startswith("│"):
            cells = line.split("│")
            assert cells[1].strip() in ids | {""}, f"not an id in the id column: {cells[1]!r}"
            cells[1] = ""
            line = "│".join(cells)
        lines.append(line)
    typed = re.compile(r"--[\w-]+|\S+[=:]\S+")
    return {w.lower() for w in re.findall(r"[^\W\d_]{2,}", typed.sub(" ", "\n".join(lines)))}


def english_left(english: str, translated: str, lang: str, ids: Iterable[str] = ()) -> set[str]:
    """The words of the English text still in the translated one, but for names both share."""
    return (words(translated, ids) & words(english, ids)) - SAME_WORDS - SAME_WORDS_IN[lang]


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("name,options", SHEETS)
def test_rule_sheets_have_no_english_left(name: str, options: list[str], lang: str) -> None:
    ids = get_ruleset(name, **parse_options(options)).category_ids
    english, translated = sheet(name, options, "en"), sheet(name, options, lang)
    assert english != translated
    assert not english_left(english, translated, lang, ids), translated


def test_the_english_word_check_sees_a_line_left_in_english() -> None:
    english, finnish = sheet("maxi", [], "en"), sheet("maxi", [], "fi")
    ids = get_ruleset("maxi").category_ids
    left = english_left(english, finnish + "\nSaved rolls: unused rolls", "fi", ids)
    assert left == {"saved", "rolls", "unused"}
    with pytest.raises(AssertionError, match="not an id"):
        words("│ Viitoset │ Fives │", ids)


def test_score_shows_russian_names() -> None:
    r = runner.invoke(app, ["score", "66622", "--lang", "ru"], env=WIDE)
    assert r.exit_code == 0, r.output
    assert "Яцзы (скандинавский)" in r.stdout
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip()
            for line in r.stdout.splitlines() if line.startswith("│")}
    assert rows["Дом"] == "22" and rows["Шестёрки"] == "18" and rows["1 пара"] == "12"
    rs = get_ruleset("yatzy")
    assert set(rows) == {category_name(c, "ru") for c in rs.category_ids}
    assert not any(category_name(c, "en") in r.stdout for c in rs.category_ids if c != "yatzy")


def error_line(args: list[str]) -> str:
    r = runner.invoke(app, args)
    assert r.exit_code == 2 and r.stdout == "", (r.exit_code, r.output)
    assert len(r.stderr.splitlines()) == 1, r.stderr
    return r.stderr.rstrip("\n")


def test_an_error_comes_out_in_finnish() -> None:
    assert error_line(["score", "1234", "--lang", "fi"]) == (
        "virhe: ”1234”: 4 noppaa; tässä pelissä heitetään 5 noppaa kerralla")


ERRORS = [
    ["score", "1234"],
    ["rules", "nope"],
    ["rules", "--option", "joker"],
    ["solve", "-r", "dozzy"],
    ["converge", "--caps", "4-2"],
    ["advise", "-d", "66622", "--filled", "ones,ones"],
    ["simulate", "--bot", "wizard"],
    ["play", "-p", " , "],
]
"""An error of every command, each from a different part of the program."""


IDS = words(" ".join([*ALIASES, *BOTS, *LANGUAGES,
                      *(c for name in RULESETS for c in get_ruleset(name).category_ids),
                      *(f"{o.name} {' '.join(map(str, o.choices or ()))}" for specs in OPTIONS.values()
                        for o in specs)]))
"""Words of the names a player types (rulesets and their aliases, bots, languages, box ids, options
and their values): an error that lists them lists them as typed, in every language."""


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("args", ERRORS, ids=[" ".join(a) for a in ERRORS])
def test_errors_come_out_in_the_chosen_language(args: list[str], lang: str) -> None:
    english, translated = error_line(args), error_line([*args, "--lang", lang])
    with language(lang):
        assert translated.startswith(_("error:") + " "), translated
    assert not english_left(english, translated, lang) - IDS - words(" ".join(args)), translated


@pytest.mark.parametrize("args,lang,expected", [
    (["solve", "-r", "kids"], "fi", "odotettu pistemäärä"),
    (["simulate", "-r", "kids", "-n", "20", "--bot", "greedy"], "da", "botten greedy, 20 spil: gennemsnit"),
    (["advise", "-d", "66622", "--rolls-left", "1", "--filled", "ones"], "sv", "förväntade poäng framåt"),
    (["advise", "-d", "66622", "--rolls-left", "1", "--filled", "ones"], "ru", "записать в «Дом»"),
])
def test_every_command_speaks_the_language(args: list[str], lang: str, expected: str) -> None:
    r = runner.invoke(app, [*args, "--lang", lang], env=WIDE)
    assert r.exit_code == 0, r.output
    assert expected in r.stdout


@pytest.mark.parametrize("args", [
    ["score", "66622", "--lang", "nb"],
    ["score", "1234", "--lang", "fi"],  # an error of the command's own
    ["simulate", "--lang", "ru", "--games", "many"],  # a usage error in an option after --lang
])
def test_the_language_ends_with_the_command(args: list[str]) -> None:
    runner.invoke(app, args)
    assert current_language() == "en"


@pytest.mark.parametrize("lang", [x for x in LANGUAGES if x != "en"])
def test_bot_levels_and_option_values_are_shown_in_the_language(lang: str) -> None:
    """A player reads bot levels and option values in their language; every one has a name,
    and no two levels or two values of one option read the same."""
    from yatzy.bots import level_name
    from yatzy.registry import VARIANTS
    with language(lang):
        names = [level_name(b) for b in BOTS]
        assert len(set(names)) == len(BOTS)
        assert level_name("greedy") != "greedy" and level_name("unknown") == "unknown"
        for entry in VARIANTS:
            for spec in entry.options:
                values = spec.choices or tuple(dict.fromkeys((spec.default, None)))
                labels = [spec.label(v) for v in values]
                assert all(labels) and len(set(labels)) == len(labels), (entry.name, spec.name)
                if isinstance(spec.default, bool):
                    assert spec.label(True) != "on" and spec.label(False) != "off"


@pytest.mark.parametrize("lang,decimal,grouped,share", [
    ("en", "248.4", "1,234,567", "12.5%"),
    ("fi", "248,4", "1\xa0234\xa0567", "12,5\xa0%"),
    ("sv", "248,4", "1\xa0234\xa0567", "12,5\xa0%"),
    ("da", "248,4", "1.234.567", "12,5\xa0%"),
    ("nb", "248,4", "1\xa0234\xa0567", "12,5\xa0%"),
    ("ru", "248,4", "1\xa0234\xa0567", "12,5\xa0%"),
])
def test_numbers_are_written_the_languages_way(lang: str, decimal: str, grouped: str, share: str) -> None:
    with language(lang):
        assert number(248.44, 1) == decimal
        assert number(1234567) == grouped
        assert percent(0.125, 1) == share
        assert number(0.5, 1, sign=True) == f"+0{decimal[-2]}5"


@pytest.mark.parametrize("args,lang,expected", [
    (["solve", "-r", "kids"], "fi", r"odotettu pistemäärä \d+,\d{4} "),
    (["solve", "-r", "kids"], "en", r"expected score \d+\.\d{4} "),
    (["simulate", "-r", "kids", "-n", "20", "--bot", "greedy"], "da", r"gennemsnit \d+,\d\d ± \d+,\d\d"),
    (["advise", "-d", "66622", "--rolls-left", "1", "--filled", "ones"], "sv", r" \d+,\d{3} "),
])
def test_the_commands_write_numbers_the_languages_way(args: list[str], lang: str, expected: str) -> None:
    r = runner.invoke(app, [*args, "--lang", lang], env=WIDE)
    assert r.exit_code == 0, r.output
    assert re.search(expected, r.stdout), r.stdout


def test_the_coachs_target_agrees_with_its_number() -> None:
    """The terminal coach's target in words: Russian's three forms (1, 21 очко; 2 очка; 5 очков)
    and Finnish's two (1 piste, 2 pistettä)."""
    def playing(lang: str, n: int) -> str:
        with language(lang):
            return ngettext("Playing for {target} point", "Playing for {target} points", n).format(target=n)

    assert [playing("ru", n) for n in (1, 21, 2, 5, 11)] == [
        "Игра на 1 очко", "Игра на 21 очко", "Игра на 2 очка", "Игра на 5 очков", "Игра на 11 очков"]
    assert [playing("fi", n) for n in (1, 2)] == ["Tavoitteena 1 piste", "Tavoitteena 2 pistettä"]

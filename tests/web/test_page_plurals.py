"""The page's counting words ("1 game shown", "2 games shown", Russian's three forms): exported
from the catalogs by plural category (page_text.plural_forms), and picked by the page's ``t`` for
its count with the language's Intl.PluralRules (run by Node with stand-ins for the browser)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from babel import Locale

from yatzy.i18n import LANGUAGES, language, ngettext
from yatzy.web.page_text import FOLDER, PAGE_TEXT, Plural, page_words

STATIC = FOLDER.parent
COUNTING = {key: word for key, word in PAGE_TEXT.items() if isinstance(word, Plural)}


def test_the_words_that_count_are_declared_with_their_plurals() -> None:
    assert {"games_shown", "fair_ok", "distribution_explain", "chart_desc"} <= set(COUNTING)
    assert page_words("en")["games_shown"] == {"one": "{n} game shown.", "other": "{n} games shown."}
    assert set(page_words("ru")["games_shown"]) == {"one", "few", "many", "other"}
    assert isinstance(page_words("en")["seat_n"], str)  # a word that does not count stays a string


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_count_gets_the_catalogs_form(lang: str) -> None:
    """For every count the form under its plural category is the one gettext gives for it."""
    rule = Locale.parse(lang).plural_form
    words = page_words(lang)
    with language(lang):
        for key, word in COUNTING.items():
            forms = words[key]
            assert isinstance(forms, dict) and "other" in forms
            for n in (*range(0, 120), 1001, 1002, 1005, 1011, 1021):
                assert forms[rule(n)] == ngettext(word.singular, word.plural, n), (key, n)


PAGE = """
import fs from "node:fs";
const [STATIC, LANG, COUNTS] = process.argv.slice(2);
const dummy = { setAttribute() {}, value: "", textContent: "" };
globalThis.document = { querySelector: () => dummy, querySelectorAll: () => [], documentElement: {} };
globalThis.localStorage = { getItem: () => null, setItem() {} };
Object.defineProperty(globalThis, "navigator", { value: { language: LANG }, configurable: true });
globalThis.fetch = async (url) => ({
  json: async () => JSON.parse(fs.readFileSync(STATIC + url.replace("/static", ""), "utf8")) });
const { loadLanguage, t } = await import(`file://${STATIC}/i18n.js`);
await loadLanguage();
console.log(JSON.stringify(JSON.parse(COUNTS).map((n) => t("games_shown", { n }))
  .concat([t("seat_n", { n: 2 })])));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="no Node to run the page's modules")
@pytest.mark.parametrize(("lang", "want"), [
    ("en", ["1 game shown.", "2 games shown.", "5 games shown.", "21 games shown.", "Seat 2"]),
    ("ru", ["Показана 1 игра.", "Показаны 2 игры.", "Показано 5 игр.", "Показана 21 игра.", "Место 2"]),
    ("fi", ["1 peli näytetty.", "2 peliä näytetty.", "5 peliä näytetty.", "21 peliä näytetty.", "Paikka 2"]),
])
def test_the_page_picks_the_form_for_its_count(tmp_path: Path, lang: str, want: list[str]) -> None:
    script = tmp_path / "page.mjs"
    script.write_text(PAGE, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(STATIC), lang, json.dumps([1, 2, 5, 21])],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    assert json.loads(out) == want

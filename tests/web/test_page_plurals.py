"""The page's words with a number (page_text.Plural, gettext's ngettext): exported with every
form of the language, and the page's ``t`` (static/i18n.js, run by Node on the exported files)
picks the form the catalogs pick, Russian's three included. Without Node: skipped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from yatzy.i18n import LANGUAGES, language, ngettext
from yatzy.web.page_text import PAGE_TEXT, Plural, page_words, plural_form

STATIC = Path(__file__).parents[2] / "src" / "yatzy" / "web" / "static"
NUMBERS = list(range(0, 130)) + [1000, 1001, 1011, 1021, 1102, 1112, 1125]

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="no Node to run the page's modules")

# i18n.js as the page runs it, with the little of a browser it touches: its words fetched
# from the exported files
PAGE = """
import { readFileSync } from "node:fs";
const [STATIC, KEY, NUMBERS] = process.argv.slice(2);
const element = { setAttribute() {}, value: "" };
globalThis.document = { querySelector: () => element, querySelectorAll: () => [], documentElement: {} };
globalThis.navigator ??= { language: "en" };
const read = (url) => JSON.parse(readFileSync(`${STATIC}${url.slice(7)}`, "utf8"));  // "/static/..."
globalThis.fetch = async (url) => ({ json: async () => read(url) });
const { LANGS, setLanguage, t, pluralForm } = await import(`file://${STATIC}/i18n.js`);
const out = {};
for (const lang of LANGS) {
  await setLanguage(lang);
  out[lang] = JSON.parse(NUMBERS).map((n) => [pluralForm(lang, n), t(KEY, { n })]);
}
console.log(JSON.stringify(out));
"""


def test_the_pages_plural_words_take_the_catalogs_forms(tmp_path: Path) -> None:
    plural = PAGE_TEXT["games_shown"]
    assert isinstance(plural, Plural)
    script = tmp_path / "page.mjs"
    script.write_text(PAGE, encoding="utf-8")
    out = subprocess.run(["node", str(script), str(STATIC), "games_shown", json.dumps(NUMBERS)],
                         capture_output=True, text=True, timeout=60, check=True).stdout
    page = json.loads(out)
    assert sorted(page) == sorted(LANGUAGES)
    for lang in LANGUAGES:
        with language(lang):
            wanted = [[plural_form(lang, n), ngettext(plural.singular, plural.plural, n).format(n=n)]
                      for n in NUMBERS]
        assert page[lang] == wanted, lang
    assert page["en"][1][1] == "1 game shown." and page["en"][2][1] == "2 games shown."
    assert [page["ru"][n][0] for n in (1, 2, 5, 11, 21, 22, 25)] == [0, 1, 2, 2, 0, 1, 2]


def test_a_plural_word_is_exported_with_each_form_of_the_language() -> None:
    assert page_words("en")["games_shown"] == ["{n} game shown.", "{n} games shown."]
    for lang in LANGUAGES:
        forms = page_words(lang)["games_shown"]
        assert isinstance(forms, list) and len(forms) == (3 if lang == "ru" else 2), lang
        assert len(set(forms)) == len(forms) or lang != "ru", forms  # Russian's three differ
        assert all("{n}" in f for f in forms), forms

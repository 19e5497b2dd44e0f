// The page's own words (static/i18n/<lang>.json, English for a missing one), t() to use them
// (a word with a number in the form its number takes, as gettext's ngettext),
// the page's language (chosen, remembered, or the browser's) and its way of writing numbers.
import { $ } from "./dom.js";
import { pluralForm } from "./plural.js";
import { store } from "./store.js";

export const LANGS = ["en", "fi", "sv", "da", "nb", "ru"];

let strings = {};
let english = {};
/** The page's language: read it here, change it with setLanguage. */
export let lang = store.get("lang") || (LANGS.includes(navigator.language?.slice(0, 2)) ? navigator.language.slice(0, 2) : "en");
if (!LANGS.includes(lang)) lang = "en";

/** Load the current language's words (and English's, the fallback) and put them on the page. */
export async function loadLanguage() {
  const get = async (c) => (await fetch(`/static/i18n/${c}.json`)).json();
  const asked = lang;
  if (!Object.keys(english).length) english = await get("en");
  const words = asked === "en" ? english : await get(asked);
  if (asked !== lang) return false; // another language was chosen meanwhile: its own load shows it
  strings = words;
  applyStaticWords();
  return true;
}

/** The player's choice of language: remembered, loaded and put on the page; false if another
 * was chosen before it had loaded. */
export async function setLanguage(code) {
  lang = code;
  store.set("lang", lang);
  return loadLanguage();
}

/** The words under ``key``, with ``{name}`` placeholders filled from ``params``; a counting
 * word takes the form for ``params.n`` ("1 game shown", "2 games shown"). */
export function t(key, params = {}) {
  const text = key in strings ? pluralForm(strings[key], params.n ?? 0, lang)
    : pluralForm(english[key] ?? key, params.n ?? 0, "en");
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A number as the page's language writes it (248,4 in Finnish), with `digits` decimals. */
export function num(x, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A share (0.25) as a percentage, the page's language's way (25 % in Finnish), with at most
 * `digits` decimals. */
export function pct(x, digits = 0) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: digits }).format(x);
}

/** A date and time (ISO) the page's language's way; "" for none. */
export function dateText(iso) {
  if (!iso) return "";
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch { return iso; }
}

/** The words written in index.html (data-i18n, data-i18n-label) and the language picker. */
function applyStaticWords() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  $("#lang").value = lang;
  $("#lang").setAttribute("aria-label", t("language"));
}

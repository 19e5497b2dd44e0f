// A counting word's form for a count ("1 game shown", "2 games shown"; Russian's three forms):
// the page's file holds such a word as its forms by CLDR plural category, exported from the
// catalogs (page_text.py), and the language's Intl.PluralRules names the category of a count.

/** The form of ``word`` (a plain string, or forms by category) for the count ``n`` in ``lang``. */
export function pluralForm(word, n, lang) {
  if (typeof word === "string") return word;
  return word[new Intl.PluralRules(lang).select(Number(n))] ?? word.other;
}

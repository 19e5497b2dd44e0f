// What the page remembers in the browser (localStorage, keys prefixed "yatzy."): the language,
// the contrast, and each room's credentials. Private mode (no storage) remembers nothing.

export const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(`yatzy.${key}`); return v === null ? fallback : JSON.parse(v); }
    catch { return fallback; }
  },
  set(key, value) { try { localStorage.setItem(`yatzy.${key}`, JSON.stringify(value)); } catch { /* private mode */ } },
};

// What the page remembers in the browser, keys prefixed "yatzy.": in localStorage (store) the
// language, the contrast, the settings and each room's credentials; in sessionStorage (session,
// this tab only, gone when it closes) the dice held in a turn, so a reload keeps them. Private
// mode (no storage) remembers nothing.

function kept(storage) {
  return {
    get(key, fallback = null) {
      try { const v = storage().getItem(`yatzy.${key}`); return v === null ? fallback : JSON.parse(v); }
      catch { return fallback; }
    },
    set(key, value) { try { storage().setItem(`yatzy.${key}`, JSON.stringify(value)); } catch { /* private mode */ } },
    remove(key) { try { storage().removeItem(`yatzy.${key}`); } catch { /* private mode */ } },
  };
}

export const store = kept(() => localStorage);
export const session = kept(() => sessionStorage);

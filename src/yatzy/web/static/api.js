// The server's HTTP API (docs/web-protocol.md): api() asks in the page's language and throws
// the server's message on a refusal; the catalog (rulesets, their options, the bots) is asked
// once and kept until the language changes. The history's games are asked with the tokens of
// the rooms this browser has been in (X-Room-Tokens: the server shows those rooms' games).
import { lang } from "./i18n.js";
import { showError } from "./notice.js";

export async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  // a change is always sent as JSON (the server refuses anything else: a form from another site)
  const sent = method === "GET" ? undefined : JSON.stringify(body ?? {});
  const headers = sent ? { "Content-Type": "application/json" } : {};
  if (path.startsWith("/api/games")) headers["X-Room-Tokens"] = roomTokens().join(" ");
  const response = await fetch(`${path}${sep}lang=${lang}`, { method, headers, body: sent });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail;
    const message = typeof detail === "object" && detail && !Array.isArray(detail) ? detail.message
      : Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : response.statusText;
    throw new Error(message || String(response.status));
  }
  return data;
}

/** The tokens this browser keeps for its rooms, at most 200 (what the server reads); none in private mode. */
function roomTokens() {
  const tokens = [];
  try {
    for (const key of Object.keys(localStorage).filter((k) => k.startsWith("yatzy.room."))) {
      const cred = JSON.parse(localStorage.getItem(key));
      if (typeof cred?.token === "string") tokens.push(cred.token);
    }
  } catch { /* no storage, or not a room's: what was read */ }
  return tokens.slice(-200);
}

/** GET /api/catalog, once: null until a screen has asked for it (needCatalog). */
export let catalog = null;

export async function loadCatalog() {
  const asked = lang;
  const found = await api("GET", "/api/catalog");
  if (asked === lang) catalog = found; // not one in the language before a change made meanwhile
}

/** The catalog, asked for if need be; false (the error shown) when it can't be had. */
export async function needCatalog() {
  if (catalog) return true;
  try { await loadCatalog(); return catalog !== null; } catch (e) { showError(e.message); return false; }
}

/** A new language: the catalog's names are asked for again. */
export function forgetCatalog() {
  catalog = null;
}

export function rulesetTitle(id) {
  return catalog?.rulesets.find((r) => r.id === id)?.title ?? id;
}

// The bots' table being built (the server's "preparing" message): a line under the game's
// heading with what is being done and how far it has come, gone once the bots can play.
import { fill, h } from "./dom.js";
import { pct } from "./i18n.js";

/** Show (or, at stage "ready", take away) how far the bots' table has come. */
export function showPreparing(m) {
  let el = document.querySelector("#preparing");
  if (m.stage === "ready") {
    if (el) el.remove();
    return;
  }
  const meta = document.querySelector("#meta");
  if (!meta) return;
  if (!el) {
    el = h("p", { id: "preparing", class: "hint", role: "status" });
    meta.after(el);
  }
  const share = m.progress === null || m.progress === undefined ? "" : ` (${pct(m.progress)})`;
  const text = m.text.charAt(0).toUpperCase() + m.text.slice(1);
  fill(el, `${text}${share}…`);
}

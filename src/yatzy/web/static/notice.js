// The page's news: announcements read by screen readers (the #announce live region) and the
// error box (#alert, role=alert) that goes after 8 s.
import { $, fill, h } from "./dom.js";

let announceCount = 0;
/** Say ``text`` in the live region. */
export function announce(text) {
  if (!text) return;
  const region = $("#announce");
  announceCount++;
  // a new node each time, so a repeated roll with the same words is read again
  fill(region, h("p", { "data-n": String(announceCount) }, text));
}

/** A new screen: the last one's news and error go. */
export function clearNews() {
  fill($("#announce"));
  hideError();
}

export function hideError() {
  const box = $("#alert");
  box.hidden = true;
  box.textContent = "";
}

let alertTimer = null;
export function showError(message) {
  const box = $("#alert");
  box.hidden = false;
  box.textContent = message;
  clearTimeout(alertTimer);
  alertTimer = setTimeout(() => { box.hidden = true; box.textContent = ""; }, 8000);
}

// Moving between the page's screens without a reload: go() to an address, link() for a link
// inside the page, route() to show the address's screen again. main.js says which screen an
// address shows (setRouter); a screen registers what to undo when the next one comes (onLeave).
import { h } from "./dom.js";

let router = () => {};
let leaving = null;
let shown = 0; // how many screens have been shown: a screen's own number while it is the one shown

export function setRouter(show) {
  router = show;
}

/** Show the screen of the current address. */
export function route() {
  shown++;
  router();
}

/** The screen shown now, as a number: a screen that waited for the server draws itself only if
 * it is still the one shown (a language chosen meanwhile shows it again, in the new words). */
export function showing() {
  return shown;
}

export function go(path) {
  history.pushState({}, "", path);
  route();
}

/** The room code of a /r/<code> address, or null. */
export function roomCode() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  return m ? m[1].toUpperCase() : null;
}

/** What the screen shown undoes (its listeners) when another one comes. */
export function onLeave(undo) {
  leaving = undo;
}

export function leave() {
  if (leaving) { leaving(); leaving = null; }
}

/** A click that follows a link inside the page (not one opening a new tab or window). */
export function plainClick(e) {
  return !(e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey);
}

/** Links inside the page: followed without a reload. */
export function link(href, text, attrs = {}) {
  return h("a", { href, ...attrs, onclick: (e) => {
    if (!plainClick(e)) return;
    e.preventDefault();
    go(href);
  } }, text);
}

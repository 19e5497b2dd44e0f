// The browser page of `yatzy serve`: a lobby (make or join a room), a game screen, the games
// played, a game's replay and statistics. It renders the server's views (yatzy.views.GameView)
// and sends actions in the project's notation; it computes no score and holds no rule.
// Protocol: docs/web-protocol.md. This module starts the page and says which screen an
// address shows; each screen is a module of its own.
import { forgetCatalog } from "./api.js";
import { $ } from "./dom.js";
import { initFeel } from "./feel.js";
import { GameScreen } from "./game.js";
import { showGames } from "./history.js";
import { loadLanguage, setLanguage } from "./i18n.js";
import { showJoin } from "./join.js";
import { showLobby } from "./lobby.js";
import { go, leave, plainClick, roomCode, route, setRouter } from "./nav.js";
import { clearNews } from "./notice.js";
import { showReplay } from "./replay.js";
import { showStats } from "./stats.js";
import { store } from "./store.js";

let game = null; // the running game screen

function markNav(screen) {
  for (const a of document.querySelectorAll("#nav a")) {
    if (a.dataset.screen === screen) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

/** The screen of the address: /r/<code> a room, ?screen= one of the history's, else the lobby. */
function show() {
  if (game) { game.close(); game = null; }
  leave();
  clearNews();
  const code = roomCode();
  const query = new URLSearchParams(location.search);
  const screen = code ? "room" : query.get("screen") || "";
  markNav(screen);
  if (screen === "games") return showGames(query);
  if (screen === "replay") return showReplay(query);
  if (screen === "stats") return showStats(query);
  if (!code) return showLobby();
  const cred = store.get(`room.${code}`);
  if (cred && cred.token) {
    game = new GameScreen(code, cred);
    return game.start();
  }
  return showJoin(code);
}

function setContrast(on) {
  document.documentElement.classList.toggle("hc", on);
  $("#contrast").setAttribute("aria-pressed", String(on));
  store.set("contrast", on);
}

async function init() {
  setRouter(show);
  setContrast(store.get("contrast", false));
  initFeel();
  $("#contrast").addEventListener("click", () => setContrast(!document.documentElement.classList.contains("hc")));
  $("#lang").addEventListener("change", async (e) => { // heard at once, even while the first words load
    if (!(await setLanguage(e.target.value))) return;
    forgetCatalog();
    if (game) game.relanguage(); else route();
  });
  await loadLanguage();
  $("#home").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
  for (const a of document.querySelectorAll("#nav a")) {
    a.addEventListener("click", (e) => {
      if (!plainClick(e)) return;
      e.preventDefault();
      go(a.getAttribute("href"));
    });
  }
  window.addEventListener("popstate", route);
  route();
}

init();

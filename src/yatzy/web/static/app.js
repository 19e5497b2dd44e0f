// The browser page of `yatzy serve`: a lobby (make or join a room) and a game screen. It renders
// the server's views (yatzy.views.GameView) and sends actions in the project's notation; it
// computes no score and holds no rule. Protocol: docs/web-protocol.md.
import { verifyRevealText } from "./fair.js";

const PROTOCOL = 1;
const LANGS = ["en", "fi", "sv", "da", "nb", "ru"];
const $ = (sel) => document.querySelector(sel);
const main = $("#main");

// ---- small helpers -------------------------------------------------------------------------

function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replace an element's children, leaving out null and false (replaceChildren would print them). */
function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

const store = {
  get(key, fallback = null) {
    try { const v = localStorage.getItem(`yatzy.${key}`); return v === null ? fallback : JSON.parse(v); }
    catch { return fallback; }
  },
  set(key, value) { try { localStorage.setItem(`yatzy.${key}`, JSON.stringify(value)); } catch { /* private mode */ } },
};

// ---- the page's own words ------------------------------------------------------------------

let strings = {};
let english = {};
let lang = store.get("lang") || (LANGS.includes(navigator.language?.slice(0, 2)) ? navigator.language.slice(0, 2) : "en");
if (!LANGS.includes(lang)) lang = "en";

async function loadStrings(code) {
  const get = async (c) => (await fetch(`/static/i18n/${c}.json`)).json();
  if (!Object.keys(english).length) english = await get("en");
  strings = code === "en" ? english : await get(code);
}

function t(key, params = {}) {
  const text = strings[key] ?? english[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in params ? String(params[k]) : m));
}

/** A number as the page's language writes it (248,4 in Finnish), with `digits` decimals. */
function num(x, digits = 1) {
  return new Intl.NumberFormat(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
}

/** A share (0.25) as a percentage, the page's language's way (25 % in Finnish). */
function pct(x) {
  return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(x);
}

function applyStaticWords() {
  document.documentElement.lang = lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of document.querySelectorAll("[data-i18n-label]")) el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  $("#lang").value = lang;
  $("#lang").setAttribute("aria-label", t("language"));
}

// ---- announcements and errors --------------------------------------------------------------

let announceCount = 0;
function announce(text) {
  if (!text) return;
  const region = $("#announce");
  announceCount++;
  // a new node each time, so a repeated roll with the same words is read again
  fill(region, h("p", { "data-n": String(announceCount) }, text));
}

/** A new screen: the last one's news and error go. */
function clearNews() {
  fill($("#announce"));
  hideError();
}

function hideError() {
  const box = $("#alert");
  box.hidden = true;
  box.textContent = "";
}

let alertTimer = null;
function showError(message) {
  const box = $("#alert");
  box.hidden = false;
  box.textContent = message;
  clearTimeout(alertTimer);
  alertTimer = setTimeout(() => { box.hidden = true; box.textContent = ""; }, 8000);
}

async function api(method, path, body) {
  const sep = path.includes("?") ? "&" : "?";
  const response = await fetch(`${path}${sep}lang=${lang}`, {
    method, headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    const detail = data.detail;
    const message = typeof detail === "object" && detail && !Array.isArray(detail) ? detail.message
      : Array.isArray(detail) ? detail.map((d) => d.msg).join("; ") : response.statusText;
    throw new Error(message || String(response.status));
  }
  return data;
}

// ---- theme ---------------------------------------------------------------------------------

function setContrast(on) {
  document.documentElement.classList.toggle("hc", on);
  $("#contrast").setAttribute("aria-pressed", String(on));
  store.set("contrast", on);
}

// ---- routing -------------------------------------------------------------------------------

function roomCode() {
  const m = location.pathname.match(/^\/r\/([A-Za-z0-9]+)/);
  return m ? m[1].toUpperCase() : null;
}

function go(path) {
  history.pushState({}, "", path);
  route();
}

let game = null; // the running game screen
let leaving = null; // what the screen shown undoes when another one comes (listeners)

/** Links inside the page: followed without a reload. */
function link(href, text, attrs = {}) {
  return h("a", { href, ...attrs, onclick: (e) => {
    if (e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(href);
  } }, text);
}

function markNav(screen) {
  for (const a of document.querySelectorAll("#nav a")) {
    if (a.dataset.screen === screen) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
}

function route() {
  if (game) { game.close(); game = null; }
  if (leaving) { leaving(); leaving = null; }
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

// ---- lobby ---------------------------------------------------------------------------------

let catalog = null;
let lobbySeats = null;
let lobbyDice = "server"; // "players": a scorekeeper room (dice thrown at the table, people only)

async function loadCatalog() {
  catalog = await api("GET", "/api/catalog");
}

function seatRow(seat, index, redraw) {
  const id = `seat-${index}`;
  const kind = h("select", { id: `${id}-kind`, onchange: (e) => { seat.kind = e.target.value; redraw(); } },
    h("option", { value: "person", selected: seat.kind === "person" }, t("person")),
    lobbyDice === "players" ? null : h("option", { value: "bot", selected: seat.kind === "bot" }, t("bot")));
  const name = h("input", { id: `${id}-name`, value: seat.name || "", maxlength: "40", autocomplete: "off",
    placeholder: seat.kind === "bot" ? t("bot_name_placeholder") : t("player_n", { n: index + 1 }),
    oninput: (e) => { seat.name = e.target.value; } });
  const level = seat.kind === "bot" ? h("select", { id: `${id}-level`, onchange: (e) => { seat.level = e.target.value; } },
    catalog.bots.map((b) => h("option", { value: b.level, selected: seat.level === b.level }, b.name))) : null;
  return h("li", { class: "seat-row" },
    h("fieldset", { class: "seat" },
      h("legend", {}, t("seat_n", { n: index + 1 })),
      h("label", { for: `${id}-kind` }, t("who")), kind,
      h("label", { for: `${id}-name` }, t("name")), name,
      level ? [h("label", { for: `${id}-level` }, t("level")), level] : null,
      lobbySeats.length > 1 ? h("button", { type: "button", class: "small",
        "aria-label": t("remove_seat", { n: index + 1 }),
        onclick: () => { lobbySeats.splice(index, 1); redraw(); } }, t("remove")) : null));
}

async function showLobby() {
  document.title = "Yatzy";
  if (!catalog) {
    try { await loadCatalog(); } catch (e) { showError(e.message); return; }
  }
  lobbySeats ??= [{ kind: "person", name: "" }, { kind: "bot", level: "beginner" }];
  const ruleset = h("select", { id: "ruleset", onchange: () => drawOptions() },
    catalog.rulesets.map((r) => h("option", { value: r.id }, r.title)));
  const diceFrom = h("select", { id: "dice-from", "aria-describedby": "dice-from-note", onchange: () => {
    lobbyDice = diceFrom.value;
    if (lobbyDice === "players") for (const s of lobbySeats) if (s.kind === "bot") { s.kind = "person"; s.name = ""; }
    drawDice();
    redraw();
  } },
  h("option", { value: "server", selected: lobbyDice === "server" }, t("dice_server")),
  h("option", { value: "players", selected: lobbyDice === "players" }, t("dice_players")));
  const diceNote = h("p", { id: "dice-from-note", class: "hint" });
  const serverOnly = h("div", {});
  const drawDice = () => {
    diceNote.textContent = t(lobbyDice === "players" ? "dice_players_note" : "dice_server_note");
    serverOnly.hidden = lobbyDice === "players";
  };
  const optionsBox = h("div", { class: "options" });
  const drawOptions = () => {
    const rs = catalog.rulesets.find((r) => r.id === ruleset.value);
    fill(optionsBox, ...rs.options.map((o) => {
      const id = `opt-${o.name}`;
      const control = o.choices
        ? h("select", { id, "data-option": o.name }, o.choices.map((c) =>
          h("option", { value: String(c.value), selected: c.value === o.default }, c.label)))
        : h("input", { id, "data-option": o.name, type: "number", inputmode: "numeric", min: String(o.low),
          max: o.high === null ? null : String(o.high), value: o.default === null ? "" : String(o.default),
          placeholder: t("no_limit") });
      return h("div", { class: "field" }, h("label", { for: id }, o.help), control);
    }));
  };
  drawOptions();
  drawDice();
  const seatList = h("ol", { class: "seats" });
  const redraw = () => fill(seatList, ...lobbySeats.map((s, i) => seatRow(s, i, redraw)));
  redraw();
  const check = (id, key, on) => h("div", { class: "check" },
    h("input", { type: "checkbox", id, checked: on }), h("label", { for: id }, t(key)));
  const pace = h("select", { id: "pace" },
    h("option", { value: "0" }, t("pace_fast")), h("option", { value: "0.8", selected: true }, t("pace_normal")),
    h("option", { value: "2" }, t("pace_slow")));
  const form = h("form", { class: "card", onsubmit: (e) => { e.preventDefault(); createRoom(); } },
    h("h2", {}, t("new_game")),
    h("div", { class: "field" }, h("label", { for: "ruleset" }, t("ruleset")), ruleset),
    h("div", { class: "field" }, h("label", { for: "dice-from" }, t("dice_from")), diceFrom, diceNote),
    h("fieldset", {}, h("legend", {}, t("house_rules")), optionsBox),
    h("fieldset", {}, h("legend", {}, t("players")), seatList,
      h("button", { type: "button", onclick: () => {
        if (lobbySeats.length < 8) { lobbySeats.push({ kind: "person", name: "" }); redraw(); }
      } }, t("add_seat"))),
    check("hot-seat", "hot_seat", false), check("spectators", "allow_spectators", true),
    check("coach-on", "coach_on", true),
    fill(serverOnly, check("roll-off", "roll_off", false),
      h("div", { class: "field" }, h("label", { for: "pace" }, t("bot_pace")), pace)),
    h("button", { type: "submit", class: "primary", id: "create" }, t("create_room")));

  const codeInput = h("input", { id: "join-code", autocomplete: "off", autocapitalize: "characters",
    maxlength: "6", spellcheck: "false", pattern: "[A-Za-z0-9]{6}" });
  const join = h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    const code = codeInput.value.trim().toUpperCase();
    if (code) go(`/r/${code}`);
  } },
  h("h2", {}, t("join_room")),
  h("div", { class: "field" }, h("label", { for: "join-code" }, t("room_code")), codeInput),
  h("button", { type: "submit" }, t("open_room")));

  const mine = Object.keys(localStorage).filter((k) => k.startsWith("yatzy.room.")).map((k) => k.slice(11));
  const resume = mine.length ? h("section", { class: "card", "aria-labelledby": "mine-h" },
    h("h2", { id: "mine-h" }, t("your_rooms")),
    h("ul", { class: "plain" }, mine.slice(-8).reverse().map((code) =>
      h("li", {}, h("a", { href: `/r/${code}`, onclick: (e) => { e.preventDefault(); go(`/r/${code}`); } },
        t("room_n", { code })))))) : null;

  fill(main, h("h1", { class: "sr-only" }, t("lobby")),
    h("div", { class: "lobby" }, form, h("div", { class: "side" }, join, resume)));

  async function createRoom() {
    const options = {};
    for (const el of optionsBox.querySelectorAll("[data-option]")) {
      const spec = catalog.rulesets.find((r) => r.id === ruleset.value).options.find((o) => o.name === el.dataset.option);
      if (el.value === "" || el.value === String(spec.default)) continue;
      options[el.dataset.option] = el.tagName === "INPUT" ? Number(el.value) : el.value;
    }
    const hot = $("#hot-seat").checked;
    const keeper = lobbyDice === "players";
    const body = {
      ruleset: ruleset.value, options, lang, hot_seat: hot, spectators: $("#spectators").checked,
      coach: $("#coach-on").checked, dice_from: lobbyDice,
      roll_off: !keeper && $("#roll-off").checked, bot_pace: Number(pace.value),
      seats: lobbySeats.map((s) => s.kind === "bot"
        ? { kind: "bot", level: s.level || "beginner", ...(s.name ? { name: s.name } : {}) }
        : { kind: "person", ...(s.name ? { name: s.name } : {}) }),
    };
    try {
      const room = await api("POST", "/api/rooms", body);
      let cred;
      if (room.table_token) cred = { token: room.table_token, role: "table" };
      else if (body.seats.some((s) => s.kind === "person")) {
        const joined = await api("POST", `/api/rooms/${room.code}/join`, {});
        cred = { token: joined.token, role: "seat", seat: joined.seat };
      } else {
        cred = { token: (await api("POST", `/api/rooms/${room.code}/spectate`)).token, role: "spectator" };
      }
      store.set(`room.${room.code}`, cred);
      go(`/r/${room.code}`);
    } catch (e) {
      showError(e.message);
    }
  }
}

// ---- joining a room by its link ------------------------------------------------------------

async function showJoin(code) {
  let info;
  try { info = await api("GET", `/api/rooms/${code}`); } catch (e) {
    fill(main, h("section", { class: "card" }, h("h1", {}, t("room_n", { code })), h("p", {}, e.message),
      h("a", { href: "/" }, t("back_to_lobby"))));
    return;
  }
  document.title = `${t("room_n", { code })} · Yatzy`;
  const take = async (seat) => {
    try {
      const joined = await api("POST", `/api/rooms/${code}/join`, { seat });
      store.set(`room.${code}`, { token: joined.token, role: "seat", seat: joined.seat });
      route();
    } catch (e) { showError(e.message); }
  };
  const watch = async () => {
    try {
      const s = await api("POST", `/api/rooms/${code}/spectate`);
      store.set(`room.${code}`, { token: s.token, role: "spectator" });
      route();
    } catch (e) { showError(e.message); }
  };
  fill(main, h("section", { class: "card join" },
    h("h1", {}, t("room_n", { code })),
    h("p", {}, t(info.over ? "room_over" : "choose_seat")),
    h("ul", { class: "plain seats-join" }, info.seats.map((s) => h("li", {},
      h("span", { class: "who" }, s.name, s.kind === "bot" ? ` (${t("bot")})` : ""),
      s.kind === "bot" ? null : s.taken ? h("span", { class: "tag" }, t("taken"))
        : h("button", { type: "button", onclick: () => take(s.seat) }, t("take_seat", { name: s.name }))))),
    info.spectators ? h("button", { type: "button", onclick: watch }, t("watch")) : null,
    h("p", {}, h("a", { href: "/" }, t("back_to_lobby")))));
}

// ---- history: the games played, a game's replay, statistics --------------------------------

function dateText(iso) {
  if (!iso) return "";
  try {
    return new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
  } catch { return iso; }
}

function rulesetTitle(id) {
  return catalog?.rulesets.find((r) => r.id === id)?.title ?? id;
}

/** A ruleset filter (``all``: with "every ruleset"); ``onpick`` gets the chosen id. */
function rulesetPicker(id, chosen, all, onpick) {
  return h("div", { class: "field inline-field" }, h("label", { for: id }, t("ruleset")),
    h("select", { id, onchange: (e) => onpick(e.target.value) },
      all ? h("option", { value: "", selected: !chosen }, t("all_rulesets")) : null,
      catalog.rulesets.map((r) => h("option", { value: r.id, selected: r.id === chosen }, r.title))));
}

async function needCatalog() {
  if (catalog) return true;
  try { await loadCatalog(); return true; } catch (e) { showError(e.message); return false; }
}

function screenHead(title) {
  document.title = `${title} · Yatzy`;
  return h("h1", { class: "screen-h", id: "screen-h" }, title);
}

async function showGames(query) {
  if (!(await needCatalog())) return;
  const ruleset = query.get("ruleset") || "";
  const list = h("ol", { class: "plain games", id: "games" });
  const more = h("button", { type: "button", id: "more-games", hidden: true }, t("more_games"));
  const status = h("p", { id: "games-status" }, t("loading"));
  fill(main, h("section", { class: "history", "aria-labelledby": "screen-h" },
    screenHead(t("nav_games")),
    rulesetPicker("games-ruleset", ruleset, true, (r) => go(r ? `/?screen=games&ruleset=${encodeURIComponent(r)}` : "/?screen=games")),
    status, list, more));
  let offset = 0;
  const page = 20;
  const load = async () => {
    let found;
    const filter = ruleset ? `&ruleset=${encodeURIComponent(ruleset)}` : "";
    try { found = await api("GET", `/api/games?finished=true&limit=${page}&offset=${offset}${filter}`); } catch (e) {
      status.textContent = e.message;
      return;
    }
    offset += found.length;
    for (const g of found) list.append(gameItem(g));
    status.textContent = offset ? t("games_shown", { n: offset }) : t("no_games");
    more.hidden = found.length < page;
  };
  more.addEventListener("click", load);
  await load();
}

/** " (bot)" after a bot's name, unless its name says so already (a level's name). */
function botTag(seat) {
  return seat.kind === "bot" && !seat.name.toLowerCase().includes(t("bot").toLowerCase()) ? ` (${t("bot")})` : "";
}

function gameItem(g) {
  const seats = [...g.seats].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  return h("li", { class: "card game-item", "data-game": String(g.id) },
    h("h2", {}, h("span", {}, g.title || rulesetTitle(g.ruleset)), " ",
      h("span", { class: "when" }, dateText(g.finished_at || g.started_at))),
    g.dice_from === "players" ? h("p", { class: "badge" }, t("keeper_badge")) : null,
    h("ol", { class: "plain results" }, seats.map((s) => h("li", { class: s.won ? "winner" : null },
      t("result", { rank: s.rank ?? "–", name: s.name, total: s.total }),
      botTag(s),
      s.won ? h("span", { class: "tag" }, t("won")) : null,
      s.points_lost !== null && s.points_lost !== undefined
        ? h("span", { class: "lost" }, ` · ${t("lost_short", { points: num(s.points_lost) })}`) : null))),
    h("p", {}, link(`/?screen=replay&game=${g.id}`, t("replay_game"), {
      "aria-label": t("replay_game_n", { n: g.id, title: g.title || rulesetTitle(g.ruleset) }) })));
}

const describeMove = (v) => {
  const last = v.last;
  if (!last) return t("replay_start");
  const name = v.players[last.player]?.name ?? "?";
  if (last.kind === "roll") return t("replay_rolled", { name, dice: v.dice ? diceText(v.dice) : "" });
  if (last.kind === "score") {
    const box = v.players[last.player].boxes[last.number - 1];
    return t("replay_scored", { name, points: box?.points ?? 0, box: box ? `${box.number} ${box.name}` : last.action });
  }
  return t("replay_moved", { name, action: last.action });
};

function diceRow(dice, count) {
  const faces = dice || Array(count).fill(null);
  return h("ul", { class: "dice replay-dice", "aria-label": t("dice") }, faces.map((face, i) =>
    h("li", { class: face ? "die" : "die blank" },
      h("span", { class: "face", "aria-hidden": "true" },
        ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => h("span", { class: face && PIPS[face].includes(p) ? "pip on" : "pip" }))),
      h("span", { class: "sr-only" }, face ? t("die_label", { n: i + 1, face }) : t("die_empty", { n: i + 1 })))));
}

async function showReplay(query) {
  const id = Number(query.get("game"));
  let step = Math.max(0, Number(query.get("step")) || 0);
  let steps = null;
  if (!(await needCatalog())) return;
  const heading = screenHead(t("replay_n", { n: id }));
  const where = h("p", { id: "replay-step", class: "replay-step" });
  const move = h("p", { id: "replay-move", class: "replay-move" });
  const next = h("p", { id: "replay-following", class: "hint" });
  const diceBox = h("div", { id: "replay-dice" });
  const card = h("div", { class: "card-wrap", tabindex: "0", role: "region", "aria-labelledby": "replay-caption" });
  const button = (key, text, to) => h("button", { type: "button", id: `replay-${key}`, "aria-keyshortcuts": key === "prev" ? "ArrowLeft" : key === "next" ? "ArrowRight" : key === "first" ? "Home" : "End",
    onclick: () => show(to()) }, text);
  const controls = h("div", { class: "actions replay-controls", role: "group", "aria-label": t("replay_controls") },
    button("first", t("replay_first"), () => 0), button("prev", t("replay_prev"), () => step - 1),
    button("next", t("replay_next"), () => step + 1), button("last", t("replay_last"), () => steps ?? 0));
  fill(main, h("section", { class: "replay", "aria-labelledby": "screen-h" }, heading, where, controls,
    h("p", { class: "hint" }, t("replay_keys")),
    h("section", { class: "card", "aria-labelledby": "replay-move-h" },
      h("h2", { id: "replay-move-h", class: "small-h" }, t("replay_at")), move, diceBox, next),
    card,
    h("p", {}, link("/?screen=games", t("back_to_games")))));
  let asked = 0;
  async function show(to, first = false) {
    to = Math.max(0, steps === null ? to : Math.min(to, steps));
    const ask = ++asked;
    let r;
    try { r = await api("GET", `/api/games/${id}/replay?step=${to}`); } catch (e) {
      where.textContent = e.message;
      showError(e.message);
      return;
    }
    if (ask !== asked) return; // a later step was asked meanwhile
    step = r.step;
    steps = r.steps;
    const v = r.view;
    heading.textContent = `${t("replay_n", { n: id })} · ${v.title}`;
    where.textContent = t("replay_position", { step, steps, round: Math.min(v.round, v.rounds), rounds: v.rounds });
    move.textContent = describeMove(v);
    next.textContent = r.next_action ? t("replay_next_action", { action: r.next_words ?? r.next_action }) : t("game_over");
    fill(diceBox, diceRow(v.dice, v.dice?.length || 5));
    fill(card, cardTable(v, { captionId: "replay-caption", caption: t("scorecard") }));
    for (const [key, off] of [["first", step === 0], ["prev", step === 0], ["next", step >= steps], ["last", step >= steps]]) {
      $(`#replay-${key}`).setAttribute("aria-disabled", String(off));
    }
    history.replaceState({}, "", `/?screen=replay&game=${id}&step=${step}`);
    if (!first) announce(`${where.textContent} ${move.textContent}`);
  }
  const onKey = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps ?? 0 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  };
  document.addEventListener("keydown", onKey);
  leaving = () => document.removeEventListener("keydown", onKey);
  await show(step, true);
}

// the score-distribution chart: an SVG drawn from /api/stats's histogram, with a data table
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) el.append(c);
  return el;
}

function histogramChart(hist, width) {
  const bins = hist.bins;
  const label = (b) => (hist.bin === 1 ? String(b.low) : `${b.low}–${b.low + hist.bin - 1}`);
  const most = Math.max(1, ...bins.map((b) => b.count));
  const rowH = 30;
  const left = 88;
  const right = 40;
  const top = 8;
  const height = top + bins.length * rowH + 30;
  const span = Math.max(40, width - left - right);
  const step = Math.max(1, Math.ceil(most / 5));
  const ticks = [];
  for (let c = 0; c <= most; c += step) ticks.push(c);
  const x = (c) => left + (c / most) * span;
  const desc = t("chart_desc", { n: hist.count, bins: bins.filter((b) => b.count).map((b) => `${label(b)}: ${b.count}`).join(", ") });
  return svgEl("svg", { class: "chart", width, height, viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-labelledby": "chart-title chart-desc" },
  svgEl("title", { id: "chart-title" }, t("chart_title", { ruleset: rulesetTitle(hist.ruleset) })),
  svgEl("desc", { id: "chart-desc" }, desc),
  ...ticks.map((c) => svgEl("g", { class: "tick" },
    svgEl("line", { x1: x(c), x2: x(c), y1: top, y2: top + bins.length * rowH, class: "grid" }),
    svgEl("text", { x: x(c), y: top + bins.length * rowH + 20, "text-anchor": "middle" }, String(c)))),
  ...bins.map((b, i) => {
    const y = top + i * rowH;
    return svgEl("g", { class: "bar" },
      svgEl("text", { x: left - 8, y: y + rowH / 2 + 5, "text-anchor": "end", class: "bin" }, label(b)),
      b.count ? svgEl("rect", { x: left, y: y + 4, width: Math.max(2, x(b.count) - left), height: rowH - 8, rx: 3 }) : null,
      svgEl("text", { x: x(b.count) + 6, y: y + rowH / 2 + 5, class: "count" }, String(b.count)));
  }),
  svgEl("line", { x1: left, x2: left, y1: top, y2: top + bins.length * rowH, class: "axis" }));
}

async function showStats(query) {
  if (!(await needCatalog())) return;
  const ruleset = query.get("ruleset") || catalog.rulesets[0].id;
  const body = h("div", { class: "stats-body" }, h("p", {}, t("loading")));
  fill(main, h("section", { class: "stats", "aria-labelledby": "screen-h" },
    screenHead(t("stats_of", { ruleset: rulesetTitle(ruleset) })),
    rulesetPicker("stats-ruleset", ruleset, false, (r) => go(`/?screen=stats&ruleset=${encodeURIComponent(r)}`)),
    body));
  let st;
  try { st = await api("GET", `/api/stats?ruleset=${encodeURIComponent(ruleset)}`); } catch (e) {
    fill(body, h("p", {}, e.message));
    return;
  }
  if (!st.histogram.count) {
    fill(body, h("p", { id: "no-stats" }, t("no_stats")));
    return;
  }
  const chartBox = h("div", { class: "chart-box", id: "chart" });
  const draw = () => fill(chartBox, histogramChart(st.histogram, Math.min(960, Math.max(260, chartBox.clientWidth || 600))));
  const hist = st.histogram;
  const binLabel = (b) => (hist.bin === 1 ? String(b.low) : `${b.low}–${b.low + hist.bin - 1}`);
  fill(body,
    h("section", { class: "card", "aria-labelledby": "dist-h" },
      h("h2", { id: "dist-h" }, t("distribution")),
      h("p", {}, t("distribution_explain", { n: hist.count, bin: hist.bin })),
      chartBox,
      h("details", { class: "chart-data" }, h("summary", {}, t("chart_table")),
        h("table", { class: "data", id: "chart-table" },
          h("caption", { class: "sr-only" }, t("distribution")),
          h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("totals")), h("th", { scope: "col" }, t("games")))),
          h("tbody", {}, hist.bins.map((b) => h("tr", {}, h("th", { scope: "row" }, binLabel(b)), h("td", {}, String(b.count)))))))),
    h("section", { class: "card", "aria-labelledby": "players-h" },
      h("h2", { id: "players-h" }, t("player_stats")),
      h("div", { class: "card-wrap", tabindex: "0", role: "region", "aria-labelledby": "players-h" },
        h("table", { class: "data", id: "player-stats" },
          h("thead", {}, h("tr", {}, [t("name"), t("games"), t("wins"), t("mean"), t("best"), t("bonus_rate"),
            t("yatzy_rate"), t("mean_lost")].map((x) => h("th", { scope: "col" }, x)))),
          h("tbody", {}, st.players.map((p) => h("tr", {},
            h("th", { scope: "row" }, p.name, botTag(p)),
            h("td", {}, String(p.games)), h("td", {}, String(p.wins)), h("td", {}, num(p.mean)),
            h("td", {}, String(p.best)), h("td", {}, pct(p.bonus_rate)), h("td", {}, pct(p.yatzy_rate)),
            h("td", {}, p.mean_points_lost === null ? "–" : num(p.mean_points_lost)))))))),
    h("section", { class: "card", "aria-labelledby": "records-h" },
      h("h2", { id: "records-h" }, t("records")),
      h("ol", { class: "records", id: "records" }, st.records.map((r) => h("li", {},
        t("record", { name: r.name, total: r.total }), r.finished_at ? ` · ${dateText(r.finished_at)}` : "", " · ",
        link(`/?screen=replay&game=${r.game_id}`, t("replay_game"), {
          "aria-label": t("replay_record", { name: r.name, total: r.total }) }))))));
  draw();
  let timer = null;
  const onResize = () => { clearTimeout(timer); timer = setTimeout(draw, 150); };
  window.addEventListener("resize", onResize);
  leaving = () => window.removeEventListener("resize", onResize);
}

// ---- a scorecard (the game's, and a replay's read-only one) --------------------------------

/** The scorecard table of a view; ``acting``'s legal boxes are buttons calling ``onScore``. */
function cardTable(v, { acting = null, onScore = null, captionId = "card-caption", caption = null } = {}) {
  const options = new Map(v.score_options.map((o) => [o.number, o]));
  const players = v.players;
  const head = h("tr", {}, h("th", { scope: "col" }, t("box")), players.map((p) =>
    h("th", { scope: "col", class: p.current ? "current" : null },
      p.current ? h("span", { class: "turn-mark", "aria-hidden": "true" }, "▶ ") : null, p.name,
      p.level_name ? h("span", { class: "level" }, ` (${p.level_name})`) : null,
      p.current ? h("span", { class: "sr-only" }, ` (${t("playing_now")})`) : null)));
  const rows = [];
  const boxes = players[0].boxes;
  const bonusAfter = new Map();
  players[0].bonuses.forEach((b, bi) => bonusAfter.set(Math.max(...b.boxes), [...(bonusAfter.get(Math.max(...b.boxes)) || []), bi]));
  for (const box of boxes) {
    rows.push(h("tr", { class: box.section }, h("th", { scope: "row" }, h("span", { class: "no" }, `${box.number} `), box.name),
      players.map((p, pi) => {
        const points = p.boxes[box.number - 1].points;
        const option = onScore && pi === acting ? options.get(box.number) : null;
        if (points !== null) return h("td", { class: p.current ? "current" : null }, String(points));
        if (option) {
          return h("td", { class: "current" }, h("button", { type: "button", class: "score", "data-key": `score-${box.id}`,
            "aria-label": t("score_in", { points: option.points, box: `${box.number} ${box.name}` }),
            onclick: () => onScore(option) }, `+${option.points}`));
        }
        return h("td", { class: p.current ? "current" : null }, h("span", { class: "sr-only" }, t("open")));
      })));
    for (const bi of bonusAfter.get(box.number) || []) {
      rows.push(h("tr", { class: "bonus" }, h("th", { scope: "row" }, players[0].bonuses[bi].name),
        players.map((p) => {
          const b = p.bonuses[bi];
          return h("td", { class: p.current ? "current" : null }, b.points ? String(b.points)
            : h("span", { class: b.reachable ? "progress" : "progress lost" }, `${b.subtotal}/${b.threshold + (b.strict ? 1 : 0)}`));
        })));
    }
  }
  if (v.has_yahtzee_bonus) {
    rows.push(h("tr", { class: "bonus" }, h("th", { scope: "row" }, t("yahtzee_bonus")),
      players.map((p) => h("td", {}, String(p.yahtzee_bonus)))));
  }
  if (v.has_saved_rolls) {
    rows.push(h("tr", { class: "bonus" }, h("th", { scope: "row" }, t("saved_rolls")),
      players.map((p) => h("td", {}, String(p.bank)))));
  }
  return h("table", { class: "scorecard" },
    h("caption", { id: captionId }, caption ?? t("scorecard")),
    h("thead", {}, head), h("tbody", {}, rows),
    h("tfoot", {}, h("tr", {}, h("th", { scope: "row" }, t("total")), players.map((p) =>
      h("td", { class: p.current ? "current" : null }, String(p.total))))));
}

// ---- the game ------------------------------------------------------------------------------

const sortNums = (xs) => [...xs].sort((a, b) => a - b);
const diceText = (xs) => xs.join(" ");
const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

class GameScreen {
  constructor(code, cred) {
    this.code = code;
    this.cred = cred;
    this.view = null;
    this.welcome = null;
    this.presence = null;
    this.reveal = null;
    this.check = null;
    this.held = new Set();
    this.diceCount = 5;
    this.version = null; // the last version seen
    this.log = [];
    this.closed = false;
    this.pendingChoice = null;
    this.retry = 500;
    this.actionSeq = 0;
    this.lastAct = null;
    this.onKey = (e) => this.key(e);
  }

  start() {
    document.addEventListener("keydown", this.onKey);
    this.build();
    this.connect(0);
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.onKey);
    if (this.ws) this.ws.close();
  }

  // -- connection --
  connect(lastVersion) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/rooms/${this.code}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.setConnection(true);
      ws.send(JSON.stringify({ type: "resume", protocol: PROTOCOL, token: this.cred.token, lang,
        last_version: lastVersion }));
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      if (this.closed || this.ws !== ws) return;
      this.setConnection(false);
      setTimeout(() => { if (!this.closed && this.ws === ws) this.connect(this.version ?? 0); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  reconnect() { // a new language: the server sends the views in it
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect(this.version ?? 0);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  act(action) {
    if (!this.view) return;
    this.actionSeq++;
    const id = `${Date.now().toString(36)}-${this.actionSeq}-${Math.random().toString(36).slice(2, 8)}`;
    this.lastAct = { id, action };
    this.send({ type: "act", id, version: this.view.version, action });
    return id;
  }

  newId(kind) {
    this.actionSeq++;
    return `${kind}-${Date.now().toString(36)}-${this.actionSeq}`;
  }

  // -- a scorekeeper room: typed dice, undo, a fix of an earlier round --
  keeperForm() {
    const input = h("input", { id: "typed-dice", type: "text", inputmode: "numeric", autocomplete: "off",
      maxlength: "12", spellcheck: "false", "aria-describedby": "typed-dice-help typed-dice-error" });
    return h("form", { id: "keeper-form", class: "keeper-form", hidden: true, onsubmit: (e) => {
      e.preventDefault();
      this.typeDice(input.value);
    } },
    h("label", { for: "typed-dice" }, t("dice_thrown")),
    h("div", { class: "inline" }, input, h("button", { type: "submit", class: "primary", id: "enter-dice" }, t("enter_dice"))),
    h("p", { id: "typed-dice-help", class: "hint" }, t("dice_thrown_help")),
    h("p", { id: "typed-dice-error", class: "field-error" }));
  }

  typeDice(text) {
    const digits = text.replace(/[\s,]/g, "");
    if (!/^[1-6]+$/.test(digits)) {
      const message = t("dice_digits");
      this.setDiceError(message);
      showError(message);
      return;
    }
    this.typedAct = this.act(`r = ${digits}`);
  }

  setDiceError(message) {
    this.diceError = message;
    const error = $("#typed-dice-error");
    const input = $("#typed-dice");
    if (!error || !input) return;
    error.textContent = message ? `✘ ${message}` : "";
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }

  undo() {
    if (!this.view) return;
    this.send({ type: "undo", id: this.newId("undo"), version: this.view.version });
  }

  renderKeeper() {
    const v = this.view;
    const keeper = this.keeper();
    const e = this.el;
    const rolls = v.legal_actions.some((a) => a === "r" || a.startsWith("k "));
    e.roll.hidden = keeper;
    e.hint.textContent = t(keeper ? "keeper_hint" : "keys_hint");
    e.keeperForm.hidden = !keeper || !rolls;
    e.badge.hidden = !keeper;
    e.badge.textContent = keeper ? t("keeper_badge") : "";
    const player = this.cred.role !== "spectator";
    const undoable = keeper && !v.over && v.last && v.last.undoable && this.isMe(v.last.player);
    e.keeperBar.hidden = !keeper || !player || v.version === 0;
    const undo = $("#undo");
    undo.hidden = !undoable;
    if (undoable) undo.textContent = t("undo_action", { action: v.last.action });
  }

  async openAmend() {
    const dialog = this.el.amend;
    let found;
    try { found = await api("GET", `/api/rooms/${this.code}/rounds`); } catch (e) { showError(e.message); return; }
    const v = this.view;
    const mine = found.filter((r) => this.cred.role === "table" || r.seat === this.cred.seat);
    if (!mine.length) { showError(t("no_rounds")); return; }
    const boxName = (seat, id) => {
      const b = v.players[seat].boxes.find((x) => x.id === id);
      return b ? `${b.number} ${b.name}` : id;
    };
    const roundSelect = h("select", { id: "amend-round", onchange: () => pick() },
      mine.map((r) => h("option", { value: String(r.turn) },
        t("round_entry", { name: v.players[r.seat].name, number: r.number, dice: diceText(r.dice), box: boxName(r.seat, r.box) }))));
    const diceInput = h("input", { id: "amend-dice", type: "text", inputmode: "numeric", autocomplete: "off",
      maxlength: "12", spellcheck: "false", "aria-describedby": "amend-dice-help amend-error" });
    const boxSelect = h("select", { id: "amend-box" });
    // DOZZY: the tiles that came back, when the box leaves a choice (the server names the choices)
    const returnsInput = v.board ? h("input", { id: "amend-returns", type: "text", inputmode: "numeric",
      autocomplete: "off", maxlength: "30", spellcheck: "false", "aria-describedby": "amend-returns-help amend-error" })
      : null;
    const pick = () => {
      const r = mine.find((x) => String(x.turn) === roundSelect.value);
      diceInput.value = r.dice.join("");
      if (returnsInput) returnsInput.value = "";
      fill(boxSelect, v.players[r.seat].boxes.map((b) =>
        h("option", { value: b.id, selected: b.id === r.box }, `${b.number} ${b.name}`)));
    };
    roundSelect.value = String(mine[mine.length - 1].turn);
    fill(dialog, h("form", { method: "dialog", onsubmit: (e) => {
      e.preventDefault();
      const digits = diceInput.value.replace(/[\s,]/g, "");
      if (!/^[1-6]+$/.test(digits)) { this.setAmendError(t("dice_digits")); return; }
      const tiles = returnsInput ? returnsInput.value.trim().split(/[\s,]+/).filter((x) => x) : [];
      if (!tiles.every((x) => /^([1-9]|1[0-2])$/.test(x))) { this.setAmendError(t("tiles_numbers")); return; }
      this.setAmendError(null);
      this.amendAct = this.newId("amend");
      const fix = { type: "amend", id: this.amendAct, version: this.view.version, turn: Number(roundSelect.value),
        dice: [...digits].map(Number), box: boxSelect.value };
      this.send(tiles.length ? { ...fix, returns: tiles.map(Number) } : fix);
    } },
    h("h2", { id: "amend-h" }, t("fix_round")),
    h("p", {}, t("fix_round_explain")),
    h("div", { class: "field" }, h("label", { for: "amend-round" }, t("which_round")), roundSelect),
    h("div", { class: "field" }, h("label", { for: "amend-dice" }, t("dice_thrown")), diceInput,
      h("span", { id: "amend-dice-help", class: "hint" }, t("dice_thrown_help"))),
    h("div", { class: "field" }, h("label", { for: "amend-box" }, t("box")), boxSelect),
    returnsInput ? h("div", { class: "field" }, h("label", { for: "amend-returns" }, t("tiles_back")), returnsInput,
      h("span", { id: "amend-returns-help", class: "hint" }, t("tiles_back_help"))) : null,
    h("p", { id: "amend-error", class: "field-error", role: "alert" }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "amend-save" }, t("save_fix")),
      h("button", { type: "button", onclick: () => dialog.close() }, t("cancel")))));
    pick();
    dialog.showModal();
    roundSelect.focus();
  }

  setAmendError(message) {
    const error = $("#amend-error");
    if (error) error.textContent = message ? `✘ ${message}` : "";
    const input = $("#amend-dice");
    if (input) { if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid"); }
  }

  receive(text) {
    const m = JSON.parse(text);
    if (m.type === "welcome") {
      this.welcome = m;
      if (m.role === "seat" && this.cred.seat !== m.seat) { this.cred.seat = m.seat; }
    } else if (m.type === "state") {
      this.setView(m.view, []);
    } else if (m.type === "events") {
      this.setView(m.view, m.events);
    } else if (m.type === "presence") {
      this.presence = m;
      this.renderPresence();
    } else if (m.type === "reveal") {
      this.reveal = m;
      this.seedText = (text.match(/"seed"\s*:\s*(\d+)/) || [])[1] ?? ""; // 63 bits: not a JS number
      this.check = verifyRevealText(text);
      this.renderFair();
      announce(this.check.ok ? t("fair_ok", { n: this.check.rolls }) : t("fair_failed"));
    } else if (m.type === "coach") {
      this.advice = m;
      this.renderCoach();
      if (m.status !== "preparing" && m.options?.length) announce(`${t("coach")}: ${m.options[0].description}`);
    } else if (m.type === "ack") {
      if (this.typedAct && m.id === this.typedAct) {
        this.typedAct = null;
        const input = $("#typed-dice");
        if (input) input.value = "";
        if (this.diceError) hideError(); // the refusal shown in the alert is over too
        this.setDiceError(null);
      }
      if (this.amendAct && m.id === this.amendAct) {
        this.amendAct = null;
        this.el.amend.close();
        announce(t("round_fixed"));
      }
    } else if (m.type === "error") {
      if (this.typedAct && m.id === this.typedAct) { this.typedAct = null; this.setDiceError(m.message); }
      if (this.amendAct && m.id === this.amendAct) { this.amendAct = null; this.setAmendError(m.message); }
      if (m.code === "unauthorized" || m.code === "unknown_room") {
        this.closed = true;
        store.set(`room.${this.code}`, null);
        localStorage.removeItem(`yatzy.room.${this.code}`);
      }
      showError(m.message);
    }
  }

  setConnection(on) {
    const el = $("#conn");
    if (el) {
      el.textContent = on ? "" : t("reconnecting");
      el.hidden = on;
    }
  }

  // -- views and events --
  setView(view, events) {
    const before = this.version;
    const mine = this.lastAct && view.last && this.isMe(view.last.player);
    if (view.dice && view.dice.length > this.diceCount) this.diceCount = view.dice.length;
    const lines = [];
    for (const e of events) {
      const line = this.describe(e, view);
      if (!line) continue;
      if (!this.log.some((x) => x.seq === e.seq)) this.log.push(e);
      if (before !== null && e.version > before) lines.push(line);
    }
    if (this.log.length > 300) this.log = this.log.slice(-300);
    // holds: after a roll, the dice kept stay held (the dice come back sorted)
    const rolled = [...events].reverse().find((e) => e.kind === "rolled");
    if (rolled && view.dice) {
      const keep = [...rolled.kept];
      this.held = new Set();
      view.dice.forEach((d, i) => {
        const at = keep.indexOf(d);
        if (at >= 0) { keep.splice(at, 1); this.held.add(i); }
      });
    }
    if (!view.dice || view.over) this.held = new Set();
    this.view = view;
    this.version = view.version;
    this.pendingChoice = null;
    this.render(mine);
    if (before === null) announce(this.turnText());
    else if (lines.length > 8) announce(`${t("caught_up")} ${lines.slice(-3).join(" ")}`);
    else if (lines.length) announce(lines.join(" "));
  }

  isMe(seat) {
    if (this.cred.role === "table") return this.view ? this.view.players[seat]?.kind === "person" : false;
    return this.cred.role === "seat" && seat === this.cred.seat;
  }

  name(view, seat) { return view.players[seat]?.name ?? "?"; }

  boxName(view, number) {
    const box = view.players[0].boxes[number - 1];
    return box ? `${box.number} ${box.name}` : String(number);
  }

  describe(e, view) {
    const name = e.player !== undefined ? this.name(view, e.player) : "";
    switch (e.kind) {
      case "rolled":
        if (e.roll === 1) return t("ev_roll", { name, dice: diceText(e.dice), roll: e.roll });
        if (!e.kept.length) return t("ev_reroll_all", { name, dice: diceText(e.dice), roll: e.roll });
        return t("ev_reroll", { name, kept: diceText(e.kept), dice: diceText(e.dice), roll: e.roll });
      case "scored":
        return t(e.yahtzee_bonus ? "ev_scored_bonus" : "ev_scored", { name, points: e.points, box: this.boxName(view, e.number),
          total: e.total, bonus: e.yahtzee_bonus });
      case "tiles_moved": {
        const parts = [];
        if (e.tiles_out.length) parts.push(t("ev_tiles_out", { tiles: diceText(e.tiles_out) }));
        if (e.tiles_back.length) parts.push(t("ev_tiles_back", { tiles: diceText(e.tiles_back) }));
        return parts.join(" ");
      }
      case "tiles_restored": return t("ev_restored", { name, tiles: diceText(e.tiles) });
      case "turn_passed": return t("ev_turn", { name, round: e.round });
      case "undone": return t("ev_undone", { name, action: e.action });
      case "roll_off": return t("ev_roll_off", { name: this.name(view, e.first) });
      case "amended": return t("ev_amended", { name, round: e.round });
      case "game_over":
        return `${t("game_over")}. ${e.standings.map((s) => t("standing", { rank: s.rank, name: s.name, total: s.total })).join(", ")}.`;
      default: return "";
    }
  }

  turnText() {
    const v = this.view;
    if (!v) return "";
    if (v.over) return t("game_over");
    const who = this.name(v, v.current);
    if (v.legal_actions.length) return this.cred.role === "table" ? t("turn_of_here", { name: who }) : t("your_turn");
    return t("turn_of", { name: who });
  }

  // -- the screen --
  build() {
    document.title = `${t("room_n", { code: this.code })} · Yatzy`;
    this.el = {
      heading: h("h1", { id: "turn", class: "turn" }),
      conn: h("p", { id: "conn", class: "conn", hidden: true }),
      meta: h("p", { class: "meta", id: "meta" }),
      dice: h("div", { class: "dice", role: "group", "aria-labelledby": "dice-h" }),
      roll: h("button", { type: "button", id: "roll", class: "primary roll", "data-key": "roll",
        "aria-keyshortcuts": "R", onclick: () => this.roll() }),
      choice: h("div", { id: "choice", class: "choice" }),
      coachButton: h("button", { type: "button", id: "ask-coach", hidden: true, onclick: () => this.askCoach() }),
      coach: h("section", { id: "coach", class: "coach", hidden: true, "aria-labelledby": "coach-h" }),
      board: h("div", { id: "board", class: "board" }),
      card: h("div", { class: "card-wrap", tabindex: "0", role: "region", "aria-labelledby": "card-caption" }),
      standings: h("section", { id: "standings", class: "card standings", hidden: true, "aria-labelledby": "standings-h" }),
      invite: h("details", { class: "card invite", id: "invite" }),
      presence: h("section", { class: "card", "aria-labelledby": "presence-h" }),
      fair: h("section", { class: "card fair", "aria-labelledby": "fair-h" }),
      log: h("section", { class: "card log", "aria-labelledby": "log-h" }),
      keeperForm: this.keeperForm(),
      keeperBar: h("div", { class: "actions keeper-bar", id: "keeper-bar", hidden: true },
        h("button", { type: "button", id: "undo", onclick: () => this.undo() }, t("undo")),
        h("button", { type: "button", id: "fix-round", onclick: () => this.openAmend() }, t("fix_round"))),
      amend: h("dialog", { id: "amend", class: "amend", "aria-labelledby": "amend-h" }),
      badge: h("p", { id: "keeper-badge", class: "badge", hidden: true }),
    };
    const e = this.el;
    fill(main, h("div", { class: "game" },
      h("div", { class: "play" },
        e.heading, e.conn, e.meta, e.badge, e.standings,
        e.tableTop = h("section", { class: "table-top", "aria-labelledby": "dice-h" },
          h("h2", { id: "dice-h", class: "sr-only" }, t("dice")),
          e.dice, e.keeperForm, h("div", { class: "actions" }, e.roll, e.coachButton), e.choice, e.coach, e.board,
          e.hint = h("p", { class: "hint", id: "keys-hint" }, t("keys_hint"))),
        e.keeperBar, e.card, e.amend),
      h("div", { class: "aside" }, e.invite, e.presence, e.fair, e.log)));
    this.renderInvite();
    this.renderPresence();
    this.renderFair();
  }

  render(mine) {
    const focusKey = document.activeElement?.dataset?.key;
    const v = this.view;
    this.el.heading.textContent = this.turnText();
    const bits = [t("round", { round: Math.min(v.round, v.rounds), rounds: v.rounds }), v.title];
    if (this.cred.role === "spectator") bits.push(t("watching"));
    this.el.meta.textContent = bits.join(" · ");
    this.el.tableTop.hidden = v.over;
    if (!this.invitePlaced) { this.invitePlaced = true; this.el.invite.open = v.version === 0 && !v.over; }
    this.renderDice();
    this.renderKeeper();
    this.renderChoice();
    this.renderBoard();
    this.renderCard();
    this.renderStandings();
    this.renderCoach();
    this.renderLog();
    this.renderPresence();
    this.renderFair();
    if (focusKey) {
      const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && document.activeElement !== again) again.focus({ preventScroll: true });
      else if (!again && mine) { // only after one's own move
        (this.keeper() ? $("#typed-dice") : this.el.roll).focus({ preventScroll: true });
      }
    }
  }

  keeper() {
    return (this.view?.dice_from ?? this.welcome?.dice_from) === "players";
  }

  canKeep() {
    return !this.keeper() && this.view && this.view.dice && this.view.legal_actions.some((a) => a.startsWith("k "));
  }

  renderDice() {
    const v = this.view;
    const box = this.el.dice;
    while (box.children.length < this.diceCount) {
      const i = box.children.length;
      box.append(h("button", { type: "button", class: "die", "data-key": `die-${i}`, "aria-keyshortcuts": String(i + 1),
        onclick: () => this.toggle(i) }));
    }
    const active = this.canKeep();
    [...box.children].forEach((btn, i) => {
      const face = v.dice ? v.dice[i] : null;
      btn.setAttribute("aria-label", face ? t("die_label", { n: i + 1, face }) : t("die_empty", { n: i + 1 }));
      btn.setAttribute("aria-pressed", String(this.held.has(i)));
      btn.setAttribute("aria-disabled", String(!active || !face));
      btn.tabIndex = this.keeper() ? -1 : 0; // typed dice are shown, not held
      btn.classList.toggle("held", this.held.has(i));
      btn.classList.toggle("blank", !face);
      fill(btn,
        h("span", { class: "face", "aria-hidden": "true" },
          ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => h("span", { class: face && PIPS[face].includes(p) ? "pip on" : "pip" }))),
        h("span", { class: "held-tag", "aria-hidden": "true" }, t("held")));
    });
    const rolls = v.legal_actions.some((a) => a === "r" || a.startsWith("k "));
    this.el.roll.setAttribute("aria-disabled", String(!rolls));
    this.el.roll.textContent = v.over ? t("roll") : v.saved_rolls ? t("roll_left_saved", { n: v.rolls_left, saved: v.saved_rolls })
      : t("roll_left", { n: v.rolls_left });
  }

  heldFaces() {
    return sortNums([...this.held].map((i) => this.view.dice[i]));
  }

  toggle(i) {
    if (!this.canKeep() || !this.view.dice[i]) return;
    if (this.held.has(i)) this.held.delete(i); else this.held.add(i);
    this.renderDice();
    const faces = this.heldFaces();
    announce(`${t(this.held.has(i) ? "die_held" : "die_released", { n: i + 1, face: this.view.dice[i] })} ${
      faces.length ? t("held_list", { dice: diceText(faces) }) : t("none_held")}`);
  }

  roll() {
    const v = this.view;
    if (!v || !v.legal_actions.some((a) => a === "r" || a.startsWith("k "))) return;
    const faces = v.dice ? this.heldFaces() : [];
    this.act(faces.length ? `k ${faces.join("")}` : "r");
  }

  scoreActions(id) {
    return this.view.legal_actions.filter((a) => a === `s ${id}` || a.startsWith(`s ${id} `));
  }

  score(option) {
    const actions = this.scoreActions(option.id);
    if (actions.length === 1) return this.act(actions[0]);
    if (actions.length > 1) { // DOZZY: which tiles come back
      this.pendingChoice = option;
      this.renderChoice();
      this.el.choice.querySelector("button")?.focus();
    }
  }

  renderChoice() {
    const box = this.el.choice;
    const v = this.view;
    const parts = [];
    if (this.pendingChoice) {
      const o = this.pendingChoice;
      parts.push(h("fieldset", {}, h("legend", {}, t("choose_return", { box: `${o.number} ${o.name}` })),
        this.scoreActions(o.id).map((a) => {
          const tiles = a.split(" ").slice(2).filter((x) => x !== "-");
          return h("button", { type: "button", "data-key": `choice-${a}`, onclick: () => this.act(a) },
            tiles.length ? t("return_tiles", { tiles: tiles.join(" ") }) : t("return_none"));
        }),
        h("button", { type: "button", onclick: () => { this.pendingChoice = null; this.renderChoice(); } }, t("cancel"))));
    }
    const restores = v.legal_actions.filter((a) => a.startsWith("b "));
    if (restores.length) {
      parts.push(h("fieldset", {}, h("legend", {}, t("bring_back")), restores.map((a) =>
        h("button", { type: "button", "data-key": `act-${a}`, onclick: () => this.act(a) },
          t("return_tiles", { tiles: a.slice(2) })))));
    }
    fill(box, ...parts);
  }

  renderBoard() {
    const b = this.view.board;
    if (!b) { fill(this.el.board); return; }
    fill(this.el.board, h("h2", { class: "small-h" }, t("tiles")),
      h("ul", { class: "tiles" }, [...Array(12).keys()].map((i) => {
        const out = b.tiles_out.includes(i + 1);
        return h("li", { class: out ? "tile out" : "tile" }, String(i + 1),
          h("span", { class: "sr-only" }, ` ${out ? t("tile_out") : t("tile_in")}`));
      })));
  }

  renderCard() {
    const v = this.view;
    const table = cardTable(v, { acting: v.legal_actions.length ? v.current : null,
      onScore: (option) => this.score(option) });
    table.addEventListener("keydown", (e) => this.tableKey(e));
    fill(this.el.card, table);
  }

  tableKey(e) {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    const buttons = [...this.el.card.querySelectorAll("button.score")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    e.preventDefault();
    e.stopPropagation();
    const next = buttons[(at + (e.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length];
    next.focus();
  }

  key(e) {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const tag = e.target.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    if (this.el.amend.open) return;
    if (this.keeper() && (e.key === "r" || e.key === "R")) {
      if (!this.el.keeperForm.hidden) { e.preventDefault(); $("#typed-dice").focus(); }
      return;
    }
    if (/^[1-6]$/.test(e.key)) {
      if (this.keeper()) return;
      const i = Number(e.key) - 1;
      if (i < this.diceCount) { e.preventDefault(); this.toggle(i); }
    } else if (e.key === "r" || e.key === "R") {
      e.preventDefault();
      this.roll();
    } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      const buttons = [...this.el.card.querySelectorAll("button.score")];
      if (!buttons.length || buttons.includes(document.activeElement)) return;
      e.preventDefault();
      (e.key === "ArrowDown" ? buttons[0] : buttons[buttons.length - 1]).focus();
    }
  }

  askCoach() {
    this.advice = { status: "asking", version: this.view.version };
    this.renderCoach();
    this.send({ type: "coach", id: `coach-${Date.now().toString(36)}` });
  }

  renderCoach() {
    const v = this.view;
    const button = this.el.coachButton;
    const offered = this.welcome?.coach && v && !v.over && v.dice && v.legal_actions.length > 0;
    button.hidden = !offered;
    button.textContent = t("ask_coach");
    const box = this.el.coach;
    const a = this.advice;
    if (!a || !v || a.version !== v.version) { box.hidden = true; fill(box); return; }
    box.hidden = false;
    const parts = [h("h2", { id: "coach-h", class: "small-h" }, t("coach"))];
    if (a.status === "asking") parts.push(h("p", {}, t("coach_asking")));
    else if (a.status === "preparing") {
      parts.push(h("p", {}, t("coach_preparing", { percent: Math.round((a.progress || 0) * 100) })));
    } else {
      if (a.note) parts.push(h("p", {}, a.note));
      parts.push(h("ol", {}, (a.options || []).slice(0, 3).map((o) => h("li", {}, o.description,
        o.regret ? ` (${t("coach_regret", { points: num(o.regret) })})` : ""))));
    }
    fill(box, ...parts);
  }

  // the analysis after the game (GET /api/rooms/{code}/analysis), asked for on demand
  analysisPart() {
    const a = this.analysis;
    if (!a) return h("button", { type: "button", id: "analyse", onclick: () => this.analyse() }, t("analyse"));
    if (a.error) return h("p", {}, a.error);
    if (a.status !== "ready") return h("p", {}, t("analysis_preparing", { percent: Math.round((a.progress || 0) * 100) }));
    return h("section", { "aria-labelledby": "analysis-h" }, h("h3", { id: "analysis-h" }, t("analysis")),
      a.seats.map((s) => h("div", {}, h("p", {}, t("points_lost", { name: s.name, points: num(s.total_lost) })),
        s.costliest.length ? h("ul", {}, s.costliest.map((d) => h("li", {},
          t("costly", { turn: d.turn, played: d.played_words, best: d.best_words, points: num(d.points_lost) })))) : null)));
  }

  async analyse() {
    this.analysis = { status: "preparing", progress: 0 };
    this.renderStandings();
    try {
      const a = await api("GET", `/api/rooms/${this.code}/analysis`);
      this.analysis = a;
      if (a.status === "preparing" && !this.closed) setTimeout(() => this.analyse(), 2000);
    } catch (e) {
      this.analysis = { error: e.message };
    }
    this.renderStandings();
    if (this.analysis.status === "ready") announce(t("analysis_ready"));
  }

  renderStandings() {
    const v = this.view;
    const s = this.el.standings;
    if (!v.over || !v.outcome) { s.hidden = true; return; }
    s.hidden = false;
    const winners = v.outcome.winners.map((w) => this.name(v, w));
    fill(s, h("h2", { id: "standings-h" }, t("standings")),
      h("ol", { class: "plain" }, v.outcome.standings.map((st) =>
        h("li", { class: st.rank === 1 ? "winner" : null }, t("standing", { rank: st.rank, name: st.name, total: st.total })))),
      h("p", {}, t(winners.length > 1 ? "winners" : "winner", { names: winners.join(", ") })),
      this.analysisPart(),
      h("div", { class: "links" },
        this.gameId !== undefined ? h("p", {}, link(`/?screen=replay&game=${this.gameId}`, t("replay_this"))) : null,
        h("p", {}, link(`/?screen=games&ruleset=${encodeURIComponent(v.ruleset)}`, t("nav_games"))),
        h("p", {}, link(`/?screen=stats&ruleset=${encodeURIComponent(v.ruleset)}`, t("stats_of", { ruleset: v.title }))),
        h("p", {}, link("/", t("new_game")))));
    if (this.gameId === undefined && !this.askedGameId) {
      this.askedGameId = true;
      api("GET", `/api/rooms/${this.code}`).then((info) => {
        this.gameId = info.game_id;
        if (!this.closed) this.renderStandings();
      }).catch(() => {});
    }
  }

  renderLog() {
    const el = this.el.log;
    fill(el, h("h2", { id: "log-h" }, t("moves")),
      this.log.length ? h("ol", { class: "moves", tabindex: "0", "aria-labelledby": "log-h",
        start: String(Math.max(1, this.log.length - 59)) },
        this.log.slice(-60).map((e) => h("li", {}, this.describe(e, this.view)))) : h("p", {}, t("no_moves")));
    const list = el.querySelector("ol");
    if (list) list.scrollTop = list.scrollHeight;
  }

  renderInvite() {
    const link = `${location.origin}/r/${this.code}`;
    const el = this.el.invite;
    el.open = this.view ? this.view.version === 0 : true;
    fill(el, h("summary", {}, t("invite")),
      h("p", {}, t("room_code"), ": ", h("strong", { class: "code" }, this.code)),
      h("p", {}, h("label", { for: "invite-link" }, t("invite_link")),
        h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() })),
      h("button", { type: "button", onclick: async () => {
        try { await navigator.clipboard.writeText(link); announce(t("copied")); } catch { $("#invite-link").select(); }
      } }, t("copy_link")),
      h("figure", {}, h("img", { src: `/api/rooms/${this.code}/qr.svg`, alt: t("qr_alt"), width: "164", height: "164" }),
        h("figcaption", {}, t("qr_caption"))));
  }

  renderPresence() {
    const el = this.el?.presence;
    if (!el) return;
    const p = this.presence;
    const v = this.view;
    const seats = p ? p.seats : v ? v.players.map((x) => ({ seat: x.seat, name: x.name, kind: x.kind, connected: x.kind === "bot" })) : [];
    fill(el, h("h2", { id: "presence-h" }, t("players")),
      h("ul", { class: "plain presence" }, seats.map((s) => {
        const pl = v?.players[s.seat];
        let state;
        if (s.kind === "bot") state = t("bot_level", { level: pl?.level_name ?? "" });
        else if (s.stand_in) state = t("stand_in", { level: s.stand_in });
        else state = s.connected ? t("connected") : t("away");
        const me = this.cred.role === "seat" && s.seat === this.cred.seat;
        return h("li", {}, h("span", { class: `dot ${s.kind === "bot" || s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
          h("span", { class: "who" }, s.name, me ? ` (${t("you")})` : ""), ` — ${state}`,
          s.may_hand_to_bot && this.cred.role !== "spectator" ? h("button", { type: "button", class: "small",
            onclick: () => this.send({ type: "hand_to_bot", seat: s.seat, level: "casual" }) }, t("hand_to_bot")) : null);
      })),
      p && p.spectators ? h("p", {}, t("spectators", { n: p.spectators })) : null);
  }

  renderFair() {
    const el = this.el?.fair;
    if (!el) return;
    if (this.keeper()) {
      fill(el, h("h2", { id: "fair-h" }, t("keeper_dice")), h("p", {}, t("keeper_explain")));
      return;
    }
    const commitment = this.welcome?.commitment;
    const parts = [h("h2", { id: "fair-h" }, t("fair_dice")), h("p", {}, t("fair_explain")),
      commitment ? h("p", {}, t("commitment"), ": ", h("code", { class: "hash" }, commitment)) : null];
    if (this.reveal) {
      const c = this.check;
      parts.push(h("p", {}, t("seed"), ": ", h("code", {}, this.revealSeed())),
        h("p", {}, t("salt"), ": ", h("code", { class: "hash" }, this.reveal.salt)));
      let verdict;
      if (c.ok) verdict = t("fair_ok", { n: c.rolls });
      else if (c.reason === "dice") verdict = t("fair_bad_roll", { number: c.detail.number, shown: diceText(c.detail.shown), drawn: diceText(c.detail.drawn) });
      else verdict = t(`fair_bad_${c.reason}`);
      parts.push(h("p", { class: c.ok ? "verdict ok" : "verdict bad", id: "fair-verdict" },
        h("span", { "aria-hidden": "true" }, c.ok ? "✔ " : "✘ "), verdict));
    } else {
      parts.push(h("p", {}, t("fair_wait")));
    }
    fill(el, ...parts);
  }

  revealSeed() {
    return this.seedText ?? "";
  }
}

// ---- start ---------------------------------------------------------------------------------

async function init() {
  setContrast(store.get("contrast", false));
  $("#contrast").addEventListener("click", () => setContrast(!document.documentElement.classList.contains("hc")));
  await loadStrings(lang);
  applyStaticWords();
  $("#lang").addEventListener("change", async (e) => {
    lang = e.target.value;
    store.set("lang", lang);
    await loadStrings(lang);
    applyStaticWords();
    catalog = null;
    if (game) { game.build(); if (game.view) game.render(false); game.reconnect(); } else route();
  });
  $("#home").addEventListener("click", (e) => { e.preventDefault(); go("/"); });
  for (const a of document.querySelectorAll("#nav a")) {
    a.addEventListener("click", (e) => {
      if (e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
      e.preventDefault();
      go(a.getAttribute("href"));
    });
  }
  window.addEventListener("popstate", route);
  route();
}

init();

// The lobby: a quick game against a bot in one click, a new game (ruleset, house rules, where
// the dice come from, the seats, people or bots) made into a room, a room joined by its code,
// and the rooms this browser has a seat in.
import { api, catalog, needCatalog } from "./api.js";
import { $, fill, h, main } from "./dom.js";
import { lang, t } from "./i18n.js";
import { go, showing } from "./nav.js";
import { showError } from "./notice.js";
import { store } from "./store.js";

const QUICK_BOT = "beginner"; // the quick game's bot: plays at once, no table to wait for

let lobbySeats = null;
let lobbyDice = "server"; // "players": a scorekeeper room (dice thrown at the table, people only)

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

/** The lobby screen (the seats chosen stay while the page is open). */
export async function showLobby() {
  document.title = "Yatzy";
  const ours = showing();
  if (!(await needCatalog()) || ours !== showing()) return;
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

  const quick = h("section", { class: "card", "aria-labelledby": "quick-h" },
    h("h2", { id: "quick-h" }, t("quick_game")),
    h("p", { class: "hint", id: "quick-note" }, t("quick_game_note")),
    h("button", { type: "button", class: "primary", id: "quick", "aria-describedby": "quick-note",
      onclick: () => startRoom({ ruleset: "yatzy", lang, seats: [{ kind: "person" }, { kind: "bot", level: QUICK_BOT }] }) },
    t("quick_game_start")));

  const codeInput = h("input", { id: "join-code", autocomplete: "off", autocapitalize: "characters",
    maxlength: "9", spellcheck: "false", pattern: "[A-Za-z0-9]{6}([A-Za-z0-9]{3})?" });
  const join = h("form", { class: "card", onsubmit: (e) => {
    e.preventDefault();
    const code = codeInput.value.trim().toUpperCase();
    if (code) go(`/r/${code}`);
  } },
  h("h2", {}, t("join_room")),
  h("div", { class: "field" }, h("label", { for: "join-code" }, t("room_code")), codeInput),
  h("button", { type: "submit" }, t("open_room")));

  const mine = Object.keys(localStorage).filter((k) => k.startsWith("yatzy.room.") && !store.get(k.slice(6))?.expired)
    .map((k) => k.slice(11));
  const resume = mine.length ? h("section", { class: "card", "aria-labelledby": "mine-h" },
    h("h2", { id: "mine-h" }, t("your_rooms")),
    h("ul", { class: "plain" }, mine.slice(-8).reverse().map((code) =>
      h("li", {}, h("a", { href: `/r/${code}`, onclick: (e) => { e.preventDefault(); go(`/r/${code}`); } },
        t("room_n", { code })))))) : null;

  fill(main, h("h1", { class: "sr-only" }, t("lobby")), quick,
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
    await startRoom(body);
  }
}

/** Make the room ``body`` describes and go to it, with this browser in its first person's seat
 * (the table in a hot-seat room; a spectator of bots only) and holding the host's token. */
async function startRoom(body) {
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
    store.set(`room.${room.code}`, { ...cred, host: room.host_token });
    go(`/r/${room.code}`);
  } catch (e) {
    showError(e.message);
  }
}


// The host's say over the seats (who made the room holds its host token): a person's seat
// freed for someone else to take, or given to a bot at once. The server checks the token.
import { api } from "./api.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { roomCode } from "./nav.js";
import { announce, showError } from "./notice.js";

async function ask(path, body, done) {
  try {
    await api("POST", `/api/rooms/${roomCode()}/${path}`, body);
    announce(done);
  } catch (e) {
    showError(e.message);
  }
}

/** The host's buttons for seat ``s`` of the presence (none for a bot's seat, one's own, or
 * when this browser is not the host's); ``level``: the room's bot level for a seat (none
 * known yet: no button to give it to a bot). */
export function hostButtons(s, { cred, v, me, level }) {
  if (!cred.host || me || s.kind !== "person" || !v || v.over) return null;
  return [
    s.taken ? h("button", { type: "button", class: "small", "data-host": "free",
      onclick: () => ask(`seats/${s.seat}/free`, { token: cred.host }, t("seat_freed", { name: s.name })) },
    t("free_seat")) : null,
    s.stand_in || !level ? null : h("button", { type: "button", class: "small", "data-host": "bot",
      onclick: () => ask(`seats/${s.seat}/bot`, { token: cred.host, level }, t("seat_to_bot_done", { name: s.name })) },
    t("seat_to_bot")),
  ];
}

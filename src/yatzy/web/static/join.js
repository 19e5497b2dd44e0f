// A room's link opened without a seat in it: take a free seat, or watch.
import { api } from "./api.js";
import { fill, h, main } from "./dom.js";
import { t } from "./i18n.js";
import { route, showing } from "./nav.js";
import { showError } from "./notice.js";
import { store } from "./store.js";

export async function showJoin(code) {
  let info;
  const ours = showing();
  try { info = await api("GET", `/api/rooms/${code}`); } catch (e) {
    if (ours !== showing()) return;
    fill(main, h("section", { class: "card" }, h("h1", {}, t("room_n", { code })), h("p", {}, e.message),
      h("a", { href: "/" }, t("back_to_lobby"))));
    return;
  }
  if (ours !== showing()) return;
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
    // a hot-seat room's seats are its table's (the server refuses a join): only watching
    h("p", {}, t(info.over ? "room_over" : info.hot_seat ? "hot_seat_join" : "choose_seat")),
    h("ul", { class: "plain seats-join" }, info.seats.map((s) => h("li", {},
      h("span", { class: "who" }, s.name, s.kind === "bot" ? ` (${t("bot")})` : ""),
      s.kind === "bot" || info.hot_seat ? null : s.taken ? h("span", { class: "tag" }, t("taken"))
        : s.kept ? h("span", { class: "tag" }, t("kept_seat")) // a rematch's, for its player (who follows)
        : h("button", { type: "button", onclick: () => take(s.seat) }, t("take_seat", { name: s.name }))))),
    info.spectators ? h("button", { type: "button", onclick: watch }, t("watch")) : null,
    h("p", {}, h("a", { href: "/" }, t("back_to_lobby")))));
}

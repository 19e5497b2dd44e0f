// The game screen's side panels: the invitation (code, link, QR code), who is there, the fair
// dice (the commitment, and the check of the seed revealed at the end, by fair.js), the moves.
import { diceText } from "./dice.js";
import { $, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { hostButtons } from "./host.js";
import { eventText } from "./narrate.js";
import { announce } from "./notice.js";

/** The moves so far (the last 60 of ``log``), in words, scrolled to the latest. */
export function renderLog(el, log) {
  fill(el, h("h2", { id: "log-h" }, t("moves")),
    log.length ? h("ol", { class: "moves", tabindex: "0", "aria-labelledby": "log-h",
      start: String(Math.max(1, log.length - 59)) },
      log.slice(-60).map((e) => h("li", {}, eventText(e)))) : h("p", {}, t("no_moves")));
  const list = el.querySelector("ol");
  if (list) list.scrollTop = list.scrollHeight;
}

/** The invitation to room ``code``: open before the first move. */
export function renderInvite(el, code, view) {
  const link = `${location.origin}/r/${code}`;
  el.open = view ? view.version === 0 : true;
  fill(el, h("summary", {}, t("invite")),
    h("p", {}, t("room_code"), ": ", h("strong", { class: "code" }, code)),
    h("p", {}, h("label", { for: "invite-link" }, t("invite_link")),
      h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() })),
    h("button", { type: "button", onclick: async () => {
      try { await navigator.clipboard.writeText(link); announce(t("copied")); } catch { $("#invite-link").select(); }
    } }, t("copy_link")),
    h("figure", {}, h("img", { src: `/api/rooms/${code}/qr.svg`, alt: t("qr_alt"), width: "164", height: "164" }),
      h("figcaption", {}, t("qr_caption"))));
}

/**
 * Who is there: each seat connected, away or played by a stand-in (from the presence message
 * ``p``, or the view's seats before one came), a button to hand an away seat to a bot, the
 * spectators' count. ``cred``: this browser's credentials; ``send``: a message to the room.
 */
export function renderPresence(el, { p, v, cred, send }) {
  const seats = p ? p.seats : v ? v.players.map((x) => ({ seat: x.seat, name: x.name, kind: x.kind, connected: x.kind === "bot" })) : [];
  fill(el, h("h2", { id: "presence-h" }, t("players")),
    h("ul", { class: "plain presence" }, seats.map((s) => {
      const pl = v?.players[s.seat];
      let state;
      if (s.kind === "bot") state = t("bot_level", { level: pl?.level_name ?? "" });
      else if (s.stand_in) state = t("stand_in", { level: s.stand_in });
      else state = s.connected ? t("connected") : t("away");
      const me = cred.role === "seat" && s.seat === cred.seat;
      return h("li", {}, h("span", { class: `dot ${s.kind === "bot" || s.connected ? "on" : "off"}`, "aria-hidden": "true" }),
        h("span", { class: "who" }, s.name, me ? ` (${t("you")})` : ""), ` — ${state}`,
        // a seat goes to a bot of the room's own level (presence's stand_in_level), no other
        s.may_hand_to_bot && cred.role !== "spectator" && p.stand_in_level ? h("button", { type: "button", class: "small",
          onclick: () => send({ type: "hand_to_bot", seat: s.seat, level: p.stand_in_level }) }, t("hand_to_bot")) : null,
        hostButtons(s, { cred, v, me, level: p?.stand_in_level }));
    })),
    p && p.spectators ? h("p", {}, t("spectators", { n: p.spectators })) : null);
}

/**
 * The dice's fairness: in a scorekeeper room (``keeper``) that the dice are the table's; else
 * the ``commitment`` and, once the game is over, the ``reveal``ed seed and salt with the
 * ``check`` of them (fair.js's verdict); ``seed`` is the seed as the server wrote it.
 */
export function renderFair(el, { keeper, commitment, reveal, check, seed }) {
  if (keeper) {
    fill(el, h("h2", { id: "fair-h" }, t("keeper_dice")), h("p", {}, t("keeper_explain")));
    return;
  }
  const parts = [h("h2", { id: "fair-h" }, t("fair_dice")), h("p", {}, t("fair_explain")),
    commitment ? h("p", {}, t("commitment"), ": ", h("code", { class: "hash" }, commitment)) : null];
  if (reveal) {
    const c = check;
    parts.push(h("p", {}, t("seed"), ": ", h("code", {}, seed)),
      h("p", {}, t("salt"), ": ", h("code", { class: "hash" }, reveal.salt)));
    let verdict;
    if (c.ok) verdict = t("fair_ok", { n: c.rolls });
    else if (c.reason === "dice") verdict = t("fair_bad_roll", { number: c.detail.number, shown: diceText(c.detail.shown), drawn: diceText(c.detail.drawn) });
    else verdict = t(`fair_bad_${c.reason}`, c.detail || {});
    parts.push(h("p", { class: c.ok ? "verdict ok" : "verdict bad", id: "fair-verdict" },
      h("span", { "aria-hidden": "true" }, c.ok ? "✔ " : "✘ "), verdict));
  } else {
    parts.push(h("p", {}, t("fair_wait")));
  }
  fill(el, ...parts);
}

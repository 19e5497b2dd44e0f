// A finished game replayed step by step (GET /api/games/{id}/replay): the move, the dice (a
// score's: those it was scored with) and the scorecard at each step, with buttons and the
// arrow, Home and End keys.
import { api, needCatalog } from "./api.js";
import { cardTable } from "./card.js";
import { diceRow, diceText } from "./dice.js";
import { $, fill, h, main } from "./dom.js";
import { screenHead } from "./history.js";
import { t } from "./i18n.js";
import { notOurKey } from "./keys.js";
import { link, onLeave, showing } from "./nav.js";
import { announce, showError } from "./notice.js";

/** What the step's last move was, in words. */
function describeMove(v) {
  const last = v.last;
  if (!last) return t("replay_start");
  const name = v.players[last.player]?.name ?? "?";
  if (last.kind === "roll") return t("replay_rolled", { name, dice: v.dice ? diceText(v.dice) : "" });
  if (last.kind === "score") {
    const box = v.players[last.player].boxes[last.number - 1];
    return t("replay_scored", { name, points: box?.points ?? 0, box: box ? `${box.number} ${box.name}` : last.action });
  }
  return t("replay_moved", { name, action: last.action });
}

export async function showReplay(query) {
  const id = Number(query.get("game"));
  let step = Math.max(0, Number(query.get("step")) || 0);
  let steps = null;
  const ours = showing();
  if (!(await needCatalog()) || ours !== showing()) return;
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
  /** The dice of step ``r``: a score's are the dice it was scored with, on the table one step
   * before (the view after it has the table cleared for the next turn). */
  async function scoredDice(r) {
    const v = r.view;
    if (v.dice || v.last?.kind !== "score" || r.step === 0) return v.dice;
    try { return (await api("GET", `/api/games/${id}/replay?step=${r.step - 1}`)).view.dice; } catch { return null; }
  }
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
    const dice = await scoredDice(r);
    if (ask !== asked) return;
    step = r.step;
    steps = r.steps;
    const v = r.view;
    heading.textContent = `${t("replay_n", { n: id })} · ${v.title}`;
    where.textContent = t("replay_position", { step, steps, round: Math.min(v.round, v.rounds), rounds: v.rounds });
    move.textContent = describeMove(v);
    next.textContent = r.next_action ? t("replay_next_action", { action: r.next_words ?? r.next_action }) : t("game_over");
    fill(diceBox, diceRow(dice, dice?.length || 5));
    fill(card, cardTable(v, { captionId: "replay-caption", caption: t("scorecard") }));
    for (const [key, off] of [["first", step === 0], ["prev", step === 0], ["next", step >= steps], ["last", step >= steps]]) {
      $(`#replay-${key}`).setAttribute("aria-disabled", String(off));
    }
    history.replaceState({}, "", `/?screen=replay&game=${id}&step=${step}`);
    if (!first) announce(`${where.textContent} ${move.textContent}`);
  }
  const onKey = (e) => {
    if (notOurKey(e)) return;
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: steps ?? 0 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    show(to);
  };
  document.addEventListener("keydown", onKey);
  onLeave(() => document.removeEventListener("keydown", onKey));
  await show(step, true);
}


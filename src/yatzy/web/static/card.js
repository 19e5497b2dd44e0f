// The scorecard table of a view: the game screen's, where the boxes the player may score are
// buttons, and the replay's, read-only.
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The scorecard table of a view; ``acting``'s legal boxes are buttons calling ``onScore``. */
export function cardTable(v, { acting = null, onScore = null, captionId = "card-caption", caption = null } = {}) {
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


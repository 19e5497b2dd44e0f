// Statistics of a ruleset's finished games (GET /api/stats): the distribution of totals as an
// SVG chart with its data table, each player's figures, and the records.
import { api, catalog, needCatalog, rulesetTitle } from "./api.js";
import { fill, h, main } from "./dom.js";
import { botTag, rulesetPicker, screenHead } from "./history.js";
import { dateText, num, pct, t } from "./i18n.js";
import { go, link, onLeave, showing } from "./nav.js";

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

export async function showStats(query) {
  const ours = showing();
  if (!(await needCatalog()) || ours !== showing()) return;
  const ruleset = query.get("ruleset") || catalog.rulesets[0].id;
  const body = h("div", { class: "stats-body" }, h("p", {}, t("loading")));
  fill(main, h("section", { class: "stats", "aria-labelledby": "screen-h" },
    screenHead(t("stats_of", { ruleset: rulesetTitle(ruleset) })),
    rulesetPicker("stats-ruleset", ruleset, false, (r) => go(`/?screen=stats&ruleset=${encodeURIComponent(r)}`)),
    body));
  // Games with the server's dice and games with dice typed at a table are never ranked
  // together: one kind at a time, the other a link away (typed first only when it is all there is).
  const ask = (dice) => api("GET", `/api/stats?ruleset=${encodeURIComponent(ruleset)}&dice_from=${dice}`);
  let st;
  try {
    st = await ask(query.get("dice") === "players" ? "players" : "server");
    if (!query.get("dice") && !st.histogram.count && st.other_dice_games) st = await ask("players");
  } catch (e) {
    fill(body, h("p", {}, e.message));
    return;
  }
  const other = st.dice_from === "players" ? "server" : "players";
  const dice = h("p", { class: "dice-note", id: "stats-dice" },
    t(st.dice_from === "players" ? "stats_typed_note" : "stats_server_note"),
    st.other_dice_games ? " " : null,
    st.other_dice_games ? link(`/?screen=stats&ruleset=${encodeURIComponent(ruleset)}&dice=${other}`,
      t(other === "players" ? "stats_show_typed" : "stats_show_server", { n: st.other_dice_games }),
      { id: "stats-other-dice" }) : null);
  if (!st.histogram.count) {
    fill(body, h("p", { id: "no-stats" }, t("no_stats")), st.other_dice_games ? dice : null);
    return;
  }
  const chartBox = h("div", { class: "chart-box", id: "chart" });
  const draw = () => fill(chartBox, histogramChart(st.histogram, Math.min(960, Math.max(260, chartBox.clientWidth || 600))));
  const hist = st.histogram;
  const binLabel = (b) => (hist.bin === 1 ? String(b.low) : `${b.low}–${b.low + hist.bin - 1}`);
  fill(body, dice,
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
        r.corrected_after_end ? [h("span", { class: "tag" }, t("corrected_after_end")), " · "] : null,
        link(`/?screen=replay&game=${r.game_id}`, t("replay_game"), {
          "aria-label": t("replay_record", { name: r.name, total: r.total }) }))))));
  draw();
  let timer = null;
  const onResize = () => { clearTimeout(timer); timer = setTimeout(draw, 150); };
  window.addEventListener("resize", onResize);
  onLeave(() => window.removeEventListener("resize", onResize));
}


// The games played (GET /api/games, twenty at a time, by ruleset; on a server whose history is
// not public, said to be this browser's rooms' games), and what the history's
// screens share: the ruleset filter, the screen's heading, a bot's name tag.
import { api, catalog, needCatalog, rulesetTitle } from "./api.js";
import { fill, h, main } from "./dom.js";
import { dateText, num, t } from "./i18n.js";
import { go, link, showing } from "./nav.js";

/** A ruleset filter (``all``: with "every ruleset"); ``onpick`` gets the chosen id. */
export function rulesetPicker(id, chosen, all, onpick) {
  return h("div", { class: "field inline-field" }, h("label", { for: id }, t("ruleset")),
    h("select", { id, onchange: (e) => onpick(e.target.value) },
      all ? h("option", { value: "", selected: !chosen }, t("all_rulesets")) : null,
      catalog.rulesets.map((r) => h("option", { value: r.id, selected: r.id === chosen }, r.title))));
}

export function screenHead(title) {
  document.title = `${title} · Yatzy`;
  return h("h1", { class: "screen-h", id: "screen-h" }, title);
}

export async function showGames(query) {
  const ours = showing();
  if (!(await needCatalog()) || ours !== showing()) return;
  const ruleset = query.get("ruleset") || "";
  const list = h("ol", { class: "plain games", id: "games" });
  const more = h("button", { type: "button", id: "more-games", hidden: true }, t("more_games"));
  const status = h("p", { id: "games-status" }, t("loading"));
  fill(main, h("section", { class: "history", "aria-labelledby": "screen-h" },
    screenHead(t("nav_games")),
    catalog.public_history === false ? h("p", { class: "hint", id: "games-scope" }, t("games_own")) : null,
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
export function botTag(seat) {
  return seat.kind === "bot" && !seat.name.toLowerCase().includes(t("bot").toLowerCase()) ? ` (${t("bot")})` : "";
}

function gameItem(g) {
  const seats = [...g.seats].sort((a, b) => (a.rank ?? 99) - (b.rank ?? 99));
  return h("li", { class: "card game-item", "data-game": String(g.id) },
    h("h2", {}, h("span", {}, g.title || rulesetTitle(g.ruleset)), " ",
      h("span", { class: "when" }, dateText(g.finished_at || g.started_at))),
    g.dice_from === "players" ? h("p", { class: "badge" }, t("keeper_badge")) : null,
    g.corrected_after_end ? h("p", { class: "badge corrected" }, t("corrected_after_end")) : null,
    h("ol", { class: "plain results" }, seats.map((s) => h("li", { class: s.won ? "winner" : null },
      t("result", { rank: s.rank ?? "–", name: s.name, total: s.total }),
      botTag(s),
      s.won ? h("span", { class: "tag" }, t("won")) : null,
      s.points_lost !== null && s.points_lost !== undefined
        ? h("span", { class: "lost" }, ` · ${t("lost_short", { points: num(s.points_lost) })}`) : null))),
    h("p", {}, link(`/?screen=replay&game=${g.id}`, t("replay_game"), {
      "aria-label": t("replay_game_n", { n: g.id, title: g.title || rulesetTitle(g.ruleset) }) })));
}


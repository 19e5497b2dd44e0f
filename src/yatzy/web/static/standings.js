// The end of a game: the standings and winners, the analysis of each player's moves (GET
// /api/rooms/{code}/analysis, asked for on demand, while the solver prepares its table), a
// rematch with the same seats (asked for here, or offered once someone else has), and links to
// the replay, the games played, the statistics and a new game.
import { api } from "./api.js";
import { fill, h } from "./dom.js";
import { num, t } from "./i18n.js";
import { go, link } from "./nav.js";
import { seatName } from "./narrate.js";
import { announce, showError } from "./notice.js";
import { store } from "./store.js";

export class Standings {
  /** ``game``: the GameScreen (its code, current view, standings element, and whether it is closed). */
  constructor(game) {
    this.game = game;
    this.analysis = null;
    this.gameId = undefined; // the finished game's id in the history, once asked for
    this.askedGameId = false;
    this.rematch = null; // the rematch's room code, once someone asked for one
  }

  /** Someone asked for a rematch in room ``code``: offered to follow. */
  offered(code) {
    const news = this.rematch !== code;
    this.rematch = code;
    this.render();
    if (news) announce(t("rematch_offered"));
  }

  /** The rematch part: a button that asks for one (or follows it), a spectator's link to it. */
  rematchPart() {
    const cred = this.game.cred;
    if (cred.role === "spectator") {
      return this.rematch ? h("p", {}, link(`/r/${this.rematch}`, t("rematch_watch"))) : null;
    }
    return h("p", {}, this.rematch ? h("span", {}, t("rematch_offered"), " ") : null,
      h("button", { type: "button", id: "rematch", class: "primary", onclick: () => this.playRematch() },
        t(this.rematch ? "rematch_follow" : "rematch")));
  }

  async playRematch() {
    const old = this.game;
    if (this.rematch && store.get(`room.${this.rematch}`)) return go(`/r/${this.rematch}`); // followed already
    try {
      const r = await api("POST", `/api/rooms/${old.code}/rematch`, { token: old.cred.token });
      const cred = r.role === "table" ? { token: r.token, role: "table" } : { token: r.token, role: "seat", seat: r.seat };
      if (r.host_token) cred.host = r.host_token;
      store.set(`room.${r.code}`, cred);
      go(`/r/${r.code}`);
    } catch (e) {
      showError(e.message);
    }
  }

  /** The analysis: a button to ask for it, how far it has come, or what each player lost where. */
  analysisPart() {
    const a = this.analysis;
    if (!a) return h("button", { type: "button", id: "analyse", onclick: () => this.analyse() }, t("analyse"));
    if (a.error) return h("p", {}, a.error);
    if (a.status !== "ready") return h("p", {}, t("analysis_preparing", { percent: Math.round((a.progress || 0) * 100) }));
    return h("section", { "aria-labelledby": "analysis-h" }, h("h3", { id: "analysis-h" }, t("analysis")),
      a.note ? h("p", {}, a.note) : null,
      a.seats.map((s) => h("div", {}, h("p", {}, t("points_lost", { name: s.name, points: num(s.total_lost) })),
        s.costliest.length ? h("ul", {}, s.costliest.map((d) => h("li", {}, d.text ||
          t("costly", { turn: d.turn, played: d.played_words, best: d.best_words, points: num(d.points_lost) })))) : null)));
  }

  async analyse() {
    this.analysis = { status: "preparing", progress: 0 };
    this.render();
    try {
      const a = await api("GET", `/api/rooms/${this.game.code}/analysis`);
      this.analysis = a;
      if (a.status === "preparing" && !this.game.closed) setTimeout(() => this.analyse(), 2000);
    } catch (e) {
      this.analysis = { error: e.message };
    }
    this.render();
    if (this.analysis.status === "ready") announce(t("analysis_ready"));
  }

  render() {
    const game = this.game;
    const v = game.view;
    const s = game.el.standings;
    if (!v.over || !v.outcome) { s.hidden = true; return; }
    s.hidden = false;
    const winners = v.outcome.winners.map((w) => seatName(v, w));
    fill(s, h("h2", { id: "standings-h" }, t("standings")),
      v.outcome.corrected_after_end ? h("p", { class: "badge", id: "corrected" }, t("corrected_after_end")) : null,
      h("ol", { class: "plain" }, v.outcome.standings.map((st) =>
        h("li", { class: st.rank === 1 ? "winner" : null }, t("standing", { rank: st.rank, name: st.name, total: st.total })))),
      h("p", {}, t(winners.length > 1 ? "winners" : "winner", { names: winners.join(", ") })),
      this.rematchPart(),
      this.analysisPart(),
      h("div", { class: "links" },
        this.gameId !== undefined ? h("p", {}, link(`/?screen=replay&game=${this.gameId}`, t("replay_this"))) : null,
        h("p", {}, link(`/?screen=games&ruleset=${encodeURIComponent(v.ruleset)}`, t("nav_games"))),
        h("p", {}, link(`/?screen=stats&ruleset=${encodeURIComponent(v.ruleset)}`, t("stats_of", { ruleset: v.title }))),
        h("p", {}, link("/", t("new_game")))));
    if (this.gameId === undefined && !this.askedGameId) {
      this.askedGameId = true;
      api("GET", `/api/rooms/${game.code}`).then((info) => {
        this.gameId = info.game_id;
        if (!game.closed) this.render();
      }).catch(() => {});
    }
  }

}

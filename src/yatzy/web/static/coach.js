// The coach during a game: the button asking for advice (a coach message) when the room has the
// coach and the player has a move, and the advice for the position shown (the best three moves,
// what each costs), or how far the solver's table has come while it is being prepared (its place
// in the server's queue of builds while it waits for its turn, in the server's words).
import { fill, h } from "./dom.js";
import { num, t } from "./i18n.js";

export class Coach {
  /** ``send(message)`` goes to the room. */
  constructor(send) {
    this.send = send;
    this.advice = null; // the last coach message (or the question asked), for its version
  }

  ask(version) {
    this.advice = { status: "asking", version };
    this.send({ type: "coach", id: `coach-${Date.now().toString(36)}` });
  }

  /** A coach message: kept; the words to announce (its best move) once it is ready, else null. */
  receive(m) {
    this.advice = m;
    return m.status !== "preparing" && m.options?.length ? `${t("coach")}: ${m.options[0].description}` : null;
  }

  /** The button (shown if ``offered``) and the panel ``box`` for view ``v``. */
  render(button, box, v, offered) {
    button.hidden = !offered;
    button.textContent = t("ask_coach");
    const a = this.advice;
    if (!a || !v || a.version !== v.version) { box.hidden = true; fill(box); return; }
    box.hidden = false;
    const parts = [h("h2", { id: "coach-h", class: "small-h" }, t("coach"))];
    if (a.status === "asking") parts.push(h("p", {}, t("coach_asking")));
    else if (a.status === "preparing" && a.place != null && a.note) {
      parts.push(h("p", {}, a.note)); // waiting in the server's queue of builds: its place, the server's words
    } else if (a.status === "preparing") {
      parts.push(h("p", {}, t("coach_preparing", { percent: Math.round((a.progress || 0) * 100) })));
    } else {
      if (a.note) parts.push(h("p", {}, a.note));
      parts.push(h("ol", {}, (a.options || []).slice(0, 3).map((o) => h("li", {}, o.description,
        o.regret ? ` (${t("coach_regret", { points: num(o.regret) })})` : ""))));
    }
    fill(box, ...parts);
  }
}

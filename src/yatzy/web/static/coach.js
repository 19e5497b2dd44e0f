// The coach during a game: the button asking for advice (a coach message) when the room has the
// coach and the player has a move, and the advice for the position shown (the best three moves,
// what each costs), or how far the solver's table has come while it is being prepared (its place
// in the server's queue of builds while it waits for its turn, in the server's words). With a
// final score in the target box, the moves come ranked by their chance of it (or, too early in
// the game, by expected score with the server's words saying why).
import { fill, h } from "./dom.js";
import { num, pct, t } from "./i18n.js";

export class Coach {
  /** ``send(message)`` goes to the room. */
  constructor(send) {
    this.send = send;
    this.advice = null; // the last coach message (or the question asked), for its version
    this.target = h("input", { type: "number", id: "coach-target", min: "0", step: "1", inputmode: "numeric",
      "aria-describedby": "coach-target-help" });
    /** The target box: a final score to play for, or empty for the best expected score. */
    this.label = h("label", { for: "coach-target" });
    this.help = h("small", { id: "coach-target-help", class: "hint" });
    this.field = h("span", { class: "coach-target", hidden: true }, this.label, " ", this.target, " ", this.help);
  }

  ask(version) {
    const id = `coach-${Date.now().toString(36)}`;
    this.advice = { status: "asking", version, id };
    const typed = this.target.value.trim();
    this.send(typed === "" ? { type: "coach", id } : { type: "coach", id, target: Number(typed) });
  }

  /** An error answering the question asked (a target out of range): said in the panel (true). */
  refused(m) {
    if (this.advice?.status !== "asking" || this.advice.id !== m.id) return false;
    this.advice = { ...this.advice, status: "refused", note: m.message };
    return true;
  }

  /** A coach message: kept; the words to announce (its best move) once it is ready, else null. */
  receive(m) {
    this.advice = m;
    return m.status !== "preparing" && m.options?.length ? `${t("coach")}: ${m.options[0].description}` : null;
  }

  /** The button (shown if ``offered``) and the panel ``box`` for view ``v``. */
  render(button, box, v, offered) {
    button.hidden = !offered;
    this.field.hidden = !offered;
    button.textContent = t("ask_coach");
    this.label.textContent = t("coach_target"); // in the page's language now, as it changes
    this.help.textContent = t("coach_target_help");
    const a = this.advice;
    if (!a || !v || a.version !== v.version) { box.hidden = true; fill(box); return; }
    box.hidden = false;
    const parts = [h("h2", { id: "coach-h", class: "small-h" }, t("coach"))];
    if (a.status === "asking") parts.push(h("p", {}, t("coach_asking")));
    else if (a.status === "refused") parts.push(h("p", { class: "error" }, a.note));
    else if (a.status === "preparing" && a.place != null && a.note) {
      parts.push(h("p", {}, a.note)); // waiting in the server's queue of builds: its place, the server's words
    } else if (a.status === "preparing") {
      parts.push(h("p", {}, t("coach_preparing", { percent: Math.round((a.progress || 0) * 100) })));
    } else {
      if (a.note) parts.push(h("p", {}, a.note));
      if (a.refused) parts.push(h("p", { class: "coach-refused" }, a.refused));
      parts.push(h("ol", {}, (a.options || []).slice(0, 3).map((o) => h("li", {}, o.description,
        o.chance != null ? ` (${t("coach_chance", { percent: pct(o.chance, 1), target: a.target })})`
          : o.regret ? ` (${t("coach_regret", { points: num(o.regret) })})` : ""))));
    }
    fill(box, ...parts);
  }
}

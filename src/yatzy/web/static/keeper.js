// A scorekeeper room's typed dice: the form where the dice thrown at the table are typed, its
// check (digits 1-6 only), and the error shown beside it until the server takes a roll.
import { $, h } from "./dom.js";
import { t } from "./i18n.js";
import { hideError, showError } from "./notice.js";

export class TypedDice {
  /** ``act(action)`` sends an action and gives its id. */
  constructor(act) {
    this.act = act;
    this.pending = null; // the id of the roll typed, until the server answers
    this.error = null;
  }

  form() {
    const input = h("input", { id: "typed-dice", type: "text", inputmode: "numeric", autocomplete: "off",
      maxlength: "12", spellcheck: "false", "aria-describedby": "typed-dice-help typed-dice-error" });
    return h("form", { id: "keeper-form", class: "keeper-form", hidden: true, onsubmit: (e) => {
      e.preventDefault();
      this.submit(input.value);
    } },
    h("label", { for: "typed-dice" }, t("dice_thrown")),
    h("div", { class: "inline" }, input, h("button", { type: "submit", class: "primary", id: "enter-dice" }, t("enter_dice"))),
    h("p", { id: "typed-dice-help", class: "hint" }, t("dice_thrown_help")),
    h("p", { id: "typed-dice-error", class: "field-error" }));
  }

  submit(text) {
    const digits = text.replace(/[\s,]/g, "");
    if (!/^[1-6]+$/.test(digits)) {
      const message = t("dice_digits");
      this.setError(message);
      showError(message);
      return;
    }
    this.pending = this.act(`r = ${digits}`);
  }

  setError(message) {
    this.error = message;
    const error = $("#typed-dice-error");
    const input = $("#typed-dice");
    if (!error || !input) return;
    error.textContent = message ? `✘ ${message}` : "";
    if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid");
  }

  /** The server took action ``id``: if it was the roll typed, the field is emptied. */
  ack(id) {
    if (!this.pending || id !== this.pending) return;
    this.pending = null;
    const input = $("#typed-dice");
    if (input) input.value = "";
    if (this.error) hideError(); // the refusal shown in the alert is over too
    this.setError(null);
  }

  /** The server refused action ``id``: if it was the roll typed, its words go beside the field. */
  refused(id, message) {
    if (this.pending && id === this.pending) { this.pending = null; this.setError(message); }
  }
}

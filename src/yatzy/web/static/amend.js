// A scorekeeper room's fix of an earlier round (GET /api/rooms/{code}/rounds, then an amend
// message): a dialog to pick the round, type its dice again, choose its box and, in DOZZY,
// the tiles that came back.
import { api } from "./api.js";
import { diceText } from "./dice.js";
import { $, fill, h } from "./dom.js";
import { t } from "./i18n.js";
import { announce, showError } from "./notice.js";

export class AmendDialog {
  /** ``game``: the GameScreen (its code, credentials, current view, dialog element, send and newId). */
  constructor(game) {
    this.game = game;
    this.pending = null; // the id of the fix sent, until the server answers
  }

  /** Ask for the rounds that may be fixed (one's own, or all at a table) and show the dialog. */
  async open() {
    const game = this.game;
    const dialog = game.el.amend;
    let found;
    try { found = await api("GET", `/api/rooms/${game.code}/rounds`); } catch (e) { showError(e.message); return; }
    const v = game.view;
    const mine = found.filter((r) => game.cred.role === "table" || r.seat === game.cred.seat);
    if (!mine.length) { showError(t("no_rounds")); return; }
    const boxName = (seat, id) => {
      const b = v.players[seat].boxes.find((x) => x.id === id);
      return b ? `${b.number} ${b.name}` : id;
    };
    const roundSelect = h("select", { id: "amend-round", onchange: () => pick() },
      mine.map((r) => h("option", { value: String(r.turn) },
        t("round_entry", { name: v.players[r.seat].name, number: r.number, dice: diceText(r.dice), box: boxName(r.seat, r.box) }))));
    const diceInput = h("input", { id: "amend-dice", type: "text", inputmode: "numeric", autocomplete: "off",
      maxlength: "12", spellcheck: "false", "aria-describedby": "amend-dice-help amend-error" });
    const boxSelect = h("select", { id: "amend-box" });
    // DOZZY: the tiles that came back, when the box leaves a choice (the server names the choices)
    const returnsInput = v.board ? h("input", { id: "amend-returns", type: "text", inputmode: "numeric",
      autocomplete: "off", maxlength: "30", spellcheck: "false", "aria-describedby": "amend-returns-help amend-error" })
      : null;
    const pick = () => {
      const r = mine.find((x) => String(x.turn) === roundSelect.value);
      diceInput.value = r.dice.join("");
      if (returnsInput) returnsInput.value = "";
      // only the boxes the engine lets this round fill (the server names them; all when it does not)
      const boxes = v.players[r.seat].boxes.filter((b) => !r.boxes || r.boxes.includes(b.id));
      fill(boxSelect, boxes.map((b) =>
        h("option", { value: b.id, selected: b.id === r.box }, `${b.number} ${b.name}`)));
    };
    roundSelect.value = String(mine[mine.length - 1].turn);
    fill(dialog, h("form", { method: "dialog", onsubmit: (e) => {
      e.preventDefault();
      const digits = diceInput.value.replace(/[\s,]/g, "");
      if (!/^[1-6]+$/.test(digits)) { this.setError(t("dice_digits")); return; }
      const tiles = returnsInput ? returnsInput.value.trim().split(/[\s,]+/).filter((x) => x) : [];
      if (!tiles.every((x) => /^([1-9]|1[0-2])$/.test(x))) { this.setError(t("tiles_numbers")); return; }
      this.setError(null);
      this.pending = game.newId("amend");
      const fix = { type: "amend", id: this.pending, version: game.view.version, turn: Number(roundSelect.value),
        dice: [...digits].map(Number), box: boxSelect.value };
      game.send(tiles.length ? { ...fix, returns: tiles.map(Number) } : fix);
    } },
    h("h2", { id: "amend-h" }, t("fix_round")),
    h("p", {}, t("fix_round_explain")),
    h("div", { class: "field" }, h("label", { for: "amend-round" }, t("which_round")), roundSelect),
    h("div", { class: "field" }, h("label", { for: "amend-dice" }, t("dice_thrown")), diceInput,
      h("span", { id: "amend-dice-help", class: "hint" }, t("dice_thrown_help"))),
    h("div", { class: "field" }, h("label", { for: "amend-box" }, t("box")), boxSelect),
    returnsInput ? h("div", { class: "field" }, h("label", { for: "amend-returns" }, t("tiles_back")), returnsInput,
      h("span", { id: "amend-returns-help", class: "hint" }, t("tiles_back_help"))) : null,
    h("p", { id: "amend-error", class: "field-error", role: "alert" }),
    h("div", { class: "actions" },
      h("button", { type: "submit", class: "primary", id: "amend-save" }, t("save_fix")),
      h("button", { type: "button", onclick: () => dialog.close() }, t("cancel")))));
    pick();
    dialog.showModal();
    roundSelect.focus();
  }

  setError(message) {
    const error = $("#amend-error");
    if (error) error.textContent = message ? `✘ ${message}` : "";
    const input = $("#amend-dice");
    if (input) { if (message) input.setAttribute("aria-invalid", "true"); else input.removeAttribute("aria-invalid"); }
  }

  /** The server took ``id``: if it was the fix sent, the dialog closes. */
  ack(id) {
    if (!this.pending || id !== this.pending) return;
    this.pending = null;
    this.game.el.amend.close();
    announce(t("round_fixed"));
  }

  /** The server refused ``id``: if it was the fix sent, its words go in the dialog. */
  refused(id, message) {
    if (this.pending && id === this.pending) { this.pending = null; this.setError(message); }
  }
}

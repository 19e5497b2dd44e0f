// DOZZY's tiles on the game screen: the board (which of the twelve tiles are out), the choice
// of the tiles that come back when a box leaves one, and the tiles that may be brought back.
import { fill, h } from "./dom.js";
import { t } from "./i18n.js";

/** The board of a view (``board``: the view's, null outside DOZZY: nothing shown). */
export function renderBoard(el, board) {
  if (!board) { fill(el); return; }
  fill(el, h("h2", { class: "small-h" }, t("tiles")),
    h("ul", { class: "tiles" }, [...Array(12).keys()].map((i) => {
      const out = board.tiles_out.includes(i + 1);
      return h("li", { class: out ? "tile out" : "tile" }, String(i + 1),
        h("span", { class: "sr-only" }, ` ${out ? t("tile_out") : t("tile_in")}`));
    })));
}

/**
 * The choices of view ``v``: for the box ``pending`` (a score option), its ``actions`` (one a
 * choice of tiles, each a button, with ``cancel``); and the bring-back actions (``b ...``).
 * ``act(action)`` sends one.
 */
export function renderChoice(el, { v, pending, actions, act, cancel }) {
  const parts = [];
  if (pending) {
    parts.push(h("fieldset", {}, h("legend", {}, t("choose_return", { box: `${pending.number} ${pending.name}` })),
      actions.map((a) => {
        const tiles = a.split(" ").slice(2).filter((x) => x !== "-");
        return h("button", { type: "button", "data-key": `choice-${a}`, onclick: () => act(a) },
          tiles.length ? t("return_tiles", { tiles: tiles.join(" ") }) : t("return_none"));
      }),
      h("button", { type: "button", onclick: cancel }, t("cancel"))));
  }
  const restores = v.legal_actions.filter((a) => a.startsWith("b "));
  if (restores.length) {
    parts.push(h("fieldset", {}, h("legend", {}, t("bring_back")), restores.map((a) =>
      h("button", { type: "button", "data-key": `act-${a}`, onclick: () => act(a) },
        t("return_tiles", { tiles: a.slice(2) })))));
  }
  fill(el, ...parts);
}

// Dice as the page shows them: a die's face of pips, a row of dice (the replay's), dice as text.
import { h } from "./dom.js";
import { t } from "./i18n.js";

const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

export const sortNums = (xs) => [...xs].sort((a, b) => a - b);
export const diceText = (xs) => xs.join(" ");

/** A die's face: a 3 × 3 grid of pips, those of ``face`` on (none for a blank die), hidden from readers. */
export function dieFace(face) {
  return h("span", { class: "face", "aria-hidden": "true" },
    ...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => h("span", { class: face && PIPS[face].includes(p) ? "pip on" : "pip" })));
}

/** A row of ``count`` dice showing ``dice`` (blank ones when there are none), not to be pressed. */
export function diceRow(dice, count) {
  const faces = dice || Array(count).fill(null);
  return h("ul", { class: "dice replay-dice", "aria-label": t("dice") }, faces.map((face, i) =>
    h("li", { class: face ? "die" : "die blank" }, dieFace(face),
      h("span", { class: "sr-only" }, face ? t("die_label", { n: i + 1, face }) : t("die_empty", { n: i + 1 })))));
}

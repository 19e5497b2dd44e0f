// Dice as the page shows them: a die's face of pips, a row of dice (the replay's), dice as text,
// and where each die lies on the table after a roll (placeDice).
import { h } from "./dom.js";
import { t } from "./i18n.js";

const PIPS = { 1: [5], 2: [1, 9], 3: [1, 5, 9], 4: [1, 3, 7, 9], 5: [1, 3, 5, 7, 9], 6: [1, 3, 4, 6, 7, 9] };

export const sortNums = (xs) => [...xs].sort((a, b) => a - b);
export const diceText = (xs) => xs.join(" ");

/** The same dice (as a multiset), in any order. */
export const sameDice = (a, b) => Boolean(a && b) && sortNums(a).join() === sortNums(b).join();

/**
 * Where the dice lie after a roll: the dice kept stay in their places, the new ones fall into
 * the other places in the order they came. The server's dice are a multiset (it sends them
 * sorted); their places are the page's own, so a held die never moves and its number key
 * stays on it. The terminal places its dice by the same rule.
 *
 * ``places``: the faces by place before the roll (empty or null before a turn's first roll);
 * ``held``: the places this player held (a kept face found elsewhere stays where it is too:
 * another player's or a bot's holds are not known here); ``kept``, ``rolled``: the roll's dice,
 * as the server's event gives them. Returns ``{ dice, kept }``: the faces by place and the
 * places of the kept dice.
 */
export function placeDice(places, held, kept, rolled) {
  const count = kept.length + rolled.length;
  const before = places && places.length === count ? places : [];
  const dice = Array(count).fill(null);
  const keptAt = [];
  const wanted = [...kept];
  const stay = (i) => {
    const at = dice[i] === null ? wanted.indexOf(before[i]) : -1;
    if (at < 0) return;
    dice[i] = wanted.splice(at, 1)[0];
    keptAt.push(i);
  };
  for (const i of sortNums(held)) if (i < before.length) stay(i);
  for (let i = 0; i < before.length; i++) stay(i);
  const free = () => dice.indexOf(null);
  for (const face of wanted) { const i = free(); dice[i] = face; keptAt.push(i); } // not on the table as known
  for (const face of rolled) dice[free()] = face;
  return { dice, kept: sortNums(keptAt) };
}

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

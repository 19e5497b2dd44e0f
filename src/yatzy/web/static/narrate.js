// An event of the game in words, for the moves list and the announcements: the server's own
// words (the event's optional ``text``) when it sends them, else the page's, with the names of
// the view. One function, so that each event is put into words in one place.
import { diceText } from "./dice.js";
import { t } from "./i18n.js";

/** A seat's name in a view ("?" for none). */
export function seatName(view, seat) {
  return view.players[seat]?.name ?? "?";
}

function boxName(view, number) {
  const box = view.players[0].boxes[number - 1];
  return box ? `${box.number} ${box.name}` : String(number);
}

/** The words of event ``e`` ("" for one not told). */
export function eventText(e, view) {
  if (e.text) return e.text;
  const name = e.player !== undefined ? seatName(view, e.player) : "";
  switch (e.kind) {
    case "rolled":
      if (e.roll === 1) return t("ev_roll", { name, dice: diceText(e.dice), roll: e.roll });
      if (!e.kept.length) return t("ev_reroll_all", { name, dice: diceText(e.dice), roll: e.roll });
      return t("ev_reroll", { name, kept: diceText(e.kept), dice: diceText(e.dice), roll: e.roll });
    case "scored":
      return t(e.yahtzee_bonus ? "ev_scored_bonus" : "ev_scored", { name, points: e.points, box: boxName(view, e.number),
        total: e.total, bonus: e.yahtzee_bonus });
    case "tiles_moved": {
      const parts = [];
      if (e.tiles_out.length) parts.push(t("ev_tiles_out", { tiles: diceText(e.tiles_out) }));
      if (e.tiles_back.length) parts.push(t("ev_tiles_back", { tiles: diceText(e.tiles_back) }));
      return parts.join(" ");
    }
    case "tiles_restored": return t("ev_restored", { name, tiles: diceText(e.tiles) });
    case "turn_passed": return t("ev_turn", { name, round: e.round });
    case "undone": return t("ev_undone", { name, action: e.action });
    case "roll_off": return t("ev_roll_off", { name: seatName(view, e.first) });
    case "amended": return t("ev_amended", { name, round: e.round });
    case "game_over":
      return `${t("game_over")}. ${e.standings.map((s) => t("standing", { rank: s.rank, name: s.name, total: s.total })).join(", ")}.`;
    default: return "";
  }
}

// An event of the game in words, for the moves list and the announcements: the server sends
// each event's words (its ``text``, from the one narration, in the page's language), so the
// page only shows them.

/** A seat's name in a view ("?" for none). */
export function seatName(view, seat) {
  return view.players[seat]?.name ?? "?";
}

/** The words of event ``e`` ("" for one sent without words). */
export function eventText(e) {
  return typeof e.text === "string" ? e.text : "";
}

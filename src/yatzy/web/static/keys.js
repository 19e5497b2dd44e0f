// The keyboard: which keys a screen leaves alone, the game screen's keys (1-6 hold a die, R
// rolls or goes to the typed dice, the arrows reach the scorecard's buttons) and the arrows
// moving between the scorecard's buttons.

/** A key that is not the screen's: with a modifier, or typed into a field. */
export function notOurKey(e) {
  if (e.altKey || e.ctrlKey || e.metaKey) return true;
  const tag = e.target.tagName;
  return tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA";
}

/** The game screen's keys; ``game`` is the GameScreen (its dice, roll, card and keeper form). */
export function gameKey(e, game) {
  if (notOurKey(e)) return;
  const el = game.el;
  if (el.amend.open) return;
  if (game.keeper() && (e.key === "r" || e.key === "R")) {
    if (!el.keeperForm.hidden) { e.preventDefault(); document.querySelector("#typed-dice").focus(); }
    return;
  }
  if (/^[1-6]$/.test(e.key)) {
    if (game.keeper()) return;
    const i = Number(e.key) - 1;
    if (i < game.diceCount) { e.preventDefault(); game.toggle(i); }
  } else if (e.key === "r" || e.key === "R") {
    e.preventDefault();
    game.roll();
  } else if (e.key === "ArrowDown" || e.key === "ArrowUp") {
    const buttons = [...el.card.querySelectorAll("button.score")];
    if (!buttons.length || buttons.includes(document.activeElement)) return;
    e.preventDefault();
    (e.key === "ArrowDown" ? buttons[0] : buttons[buttons.length - 1]).focus();
  }
}

/** Up and down inside the scorecard (``card``): from one box's score button to the next, round. */
export function cardKey(e, card) {
  if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
  const buttons = [...card.querySelectorAll("button.score")];
  const at = buttons.indexOf(document.activeElement);
  if (at < 0) return;
  e.preventDefault();
  e.stopPropagation();
  const next = buttons[(at + (e.key === "ArrowDown" ? 1 : -1) + buttons.length) % buttons.length];
  next.focus();
}

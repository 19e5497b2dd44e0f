// The game screen of a room: it shows the server's views (the dice, the scorecard, whose turn)
// and sends the player's actions in the project's notation over the room's connection. Its
// parts are modules of their own: the connection, the typed dice and the fix dialog of a
// scorekeeper room, the coach, the standings, DOZZY's tiles, the side panels, the keys and the
// narration; the feel of the dice (their animation, sounds, reading aloud) is feel.js's.
import { AmendDialog } from "./amend.js";
import { renderFair, renderInvite, renderLog, renderPresence } from "./aside.js";
import { cardTable } from "./card.js";
import { Coach } from "./coach.js";
import { Connection } from "./connection.js";
import { dieFace, diceText, placeDice, sameDice, sortNums } from "./dice.js";
import { $, fill, h, main } from "./dom.js";
import { verifyRevealText } from "./fair.js";
import { allAlike, bestsSoFar, celebrate, motion, sound, speak } from "./feel.js";
import { t } from "./i18n.js";
import { TypedDice } from "./keeper.js";
import { cardKey, gameKey } from "./keys.js";
import { eventText, seatName } from "./narrate.js";
import { announce, showError } from "./notice.js";
import { showPreparing } from "./preparing.js";
import { Standings } from "./standings.js";
import { session, store } from "./store.js";
import { renderBoard, renderChoice } from "./tiles.js";

const rolls = (v) => v.legal_actions.some((a) => a === "r" || a.startsWith("k "));

export class GameScreen {
  /** Room ``code`` with this browser's credentials ``cred`` (token, role, seat). */
  constructor(code, cred) {
    this.code = code;
    this.cred = cred;
    this.view = null;
    this.welcome = null;
    this.presence = null;
    this.reveal = null;
    this.check = null;
    this.seedText = null;
    this.held = new Set(); // the places of the dice held
    this.faces = null; // the dice on the table by place (the server's are a sorted multiset)
    this.rolling = new Set(); // the places of the dice just rolled, shaken once
    this.online = false; // the room's socket open and resumed: actions go through
    this.bests = null; // this browser's players' best totals before this game (personal bests)
    this.diceCount = 5;
    this.version = null; // the last version seen
    this.log = [];
    this.closed = false;
    this.pendingChoice = null;
    this.actionSeq = 0;
    this.lastAct = null;
    this.invitePlaced = false;
    this.onKey = (e) => gameKey(e, this);
    this.conn = new Connection(code, cred.token, {
      lastVersion: () => this.version ?? 0,
      receive: (text) => this.receive(text),
      status: (on) => this.setConnection(on),
    });
    this.typed = new TypedDice((action) => this.act(action));
    this.amend = new AmendDialog(this);
    this.coach = new Coach((message) => this.send(message));
    this.standings = new Standings(this);
  }

  start() {
    document.addEventListener("keydown", this.onKey);
    this.build();
    this.conn.open();
  }

  close() {
    this.closed = true;
    document.removeEventListener("keydown", this.onKey);
    this.barSize?.disconnect();
    document.documentElement.style.removeProperty("--bar-h");
    this.conn.close();
  }

  /** A new language: the screen built again in it, and views asked for in it; the moves
   * logged so far are asked for again, in the server's words in the new language. */
  relanguage() {
    this.build();
    if (this.view) this.render(false);
    const first = this.log.length ? Math.max(0, Math.min(...this.log.map((e) => e.version)) - 1) : undefined;
    this.log = [];
    this.conn.reopen(first);
  }

  send(message) {
    this.conn.send(message);
  }

  act(action) {
    if (!this.view) return;
    if (!this.online) { showError(t("offline_wait")); return; } // said, not lost
    this.actionSeq++;
    const id = `${Date.now().toString(36)}-${this.actionSeq}-${Math.random().toString(36).slice(2, 8)}`;
    this.lastAct = { id, action };
    this.send({ type: "act", id, version: this.view.version, action });
    return id;
  }

  newId(kind) {
    this.actionSeq++;
    return `${kind}-${Date.now().toString(36)}-${this.actionSeq}`;
  }

  undo() {
    if (!this.view) return;
    this.send({ type: "undo", id: this.newId("undo"), version: this.view.version });
  }

  receive(text) {
    const m = JSON.parse(text);
    if (m.type === "welcome") {
      this.welcome = m;
      if (!this.online) this.setOnline(true);
      if (m.role === "seat" && this.cred.seat !== m.seat) { this.cred.seat = m.seat; }
    } else if (m.type === "state") {
      this.setView(m.view, []);
    } else if (m.type === "events") {
      this.setView(m.view, m.events);
    } else if (m.type === "presence") {
      this.presence = m;
      this.renderPresence();
    } else if (m.type === "reveal") {
      this.reveal = m;
      this.seedText = (text.match(/"seed"\s*:\s*(\d+)/) || [])[1] ?? ""; // 63 bits: not a JS number
      this.check = verifyRevealText(text);
      this.renderFair();
      announce(this.check.ok ? t("fair_ok", { n: this.check.rolls }) : t("fair_failed"));
    } else if (m.type === "preparing") {
      showPreparing(m);
    } else if (m.type === "rematch") {
      this.standings.offered(m.room);
    } else if (m.type === "coach") {
      const news = this.coach.receive(m);
      this.renderCoach();
      if (news) announce(news);
    } else if (m.type === "ack") {
      this.typed.ack(m.id);
      this.amend.ack(m.id);
    } else if (m.type === "error") {
      this.typed.refused(m.id, m.message);
      this.amend.refused(m.id, m.message);
      if (this.coach.refused(m)) this.renderCoach();
      if (m.code === "unauthorized" || m.code === "unknown_room") {
        this.closed = true;
        this.conn.stop();
        // an expired room's token is kept (its game stays in this browser's history), marked
        // so the lobby lists the room no more; a token no room takes is forgotten
        if (m.code === "unknown_room" && m.expired === true) store.set(`room.${this.code}`, { ...this.cred, expired: true });
        else store.remove(`room.${this.code}`);
      }
      showError(m.message);
    }
  }

  /** The socket dropped (``on`` false; it opens again by itself) or opened: actions wait
   * until the room has answered again (its welcome), so no click is lost unseen. */
  setConnection(on) {
    if (!on && this.online) this.setOnline(false);
  }

  setOnline(on) {
    const back = on && this.view !== null;
    this.online = on;
    const el = $("#conn");
    if (el) {
      el.textContent = on ? "" : `${t("reconnecting")} ${t("offline_wait")}`;
      el.hidden = on;
    }
    if (this.view) this.render(false);
    if (back) announce(t("reconnected"));
  }

  // -- views and events --
  setView(view, events) {
    const before = this.version;
    const mine = this.lastAct && view.last && this.isMe(view.last.player);
    if (view.dice && view.dice.length > this.diceCount) this.diceCount = view.dice.length;
    const lines = [];
    for (const e of events) {
      const line = eventText(e);
      if (!line) continue;
      if (!this.log.some((x) => x.seq === e.seq)) this.log.push(e);
      if (before !== null && e.version > before) lines.push(line);
    }
    if (this.log.length > 300) this.log = this.log.slice(-300);
    const fresh = events.filter((e) => before === null || e.version > before);
    this.view = view;
    this.place(view, fresh, before === null);
    this.version = view.version;
    this.pendingChoice = null;
    this.render(mine);
    const live = before !== null && lines.length <= 8; // moves seen as they happen, not a catch-up
    const cheers = live ? this.cheers(fresh) : [];
    if (before === null) announce(this.turnText());
    else if (lines.length > 8) announce(`${t("caught_up")} ${lines.slice(-3).join(" ")}`);
    else if (lines.length || cheers.length) announce([...lines, ...cheers].join(" "));
    if (live) {
      if (fresh.some((e) => e.kind === "rolled")) sound("roll");
      else if (fresh.some((e) => e.kind === "scored")) sound("score");
      speak(lines.join(" "));
    }
    if (before === null && !view.over && this.bests === null) this.askBests(view);
  }

  /**
   * Where the dice lie (dice.js's placeDice): each new roll leaves the kept dice in their
   * places, and a turn's other moves clear the table. The dice held stay held, over a reload
   * too (this tab's sessionStorage, by room, seat and the game's version); events sent again
   * (the moves asked for in a new language) change nothing.
   */
  place(view, fresh, loaded) {
    this.rolling = new Set();
    for (const e of fresh) {
      if (e.kind === "rolled") {
        const placed = placeDice(this.faces, this.held, e.kept, e.rolled);
        this.faces = placed.dice;
        this.held = new Set(placed.kept);
        if (!loaded) this.rolling = new Set(placed.dice.map((_, i) => i).filter((i) => !this.held.has(i)));
      } else if (e.kind !== "roll_off") {
        this.faces = null;
        this.held = new Set();
      }
    }
    if (!view.dice || view.over) { this.faces = null; this.held = new Set(); }
    else if (!sameDice(this.faces, view.dice)) { this.faces = [...view.dice]; this.held = new Set(); }
    if (loaded) {
      const saved = session.get(this.holdKey());
      if (saved && saved.version === view.version && sameDice(saved.dice, view.dice)) {
        this.faces = saved.dice;
        this.held = new Set(saved.held.filter((i) => i < saved.dice.length));
      }
    }
    this.keepHolds(view);
  }

  holdKey() {
    return `held.${this.code}.${this.cred.role === "seat" ? this.cred.seat : this.cred.role}`;
  }

  /** The dice this browser holds, remembered for a reload during its turn; forgotten once the
   * turn moved on. */
  keepHolds(view = this.view) {
    if (this.faces && view && !view.over && view.legal_actions.length && this.isMe(view.current)) {
      session.set(this.holdKey(), { version: view.version, dice: this.faces, held: sortNums([...this.held]) });
    } else session.remove(this.holdKey());
  }

  /** The celebrations of new events (a Yatzy rolled; a personal best at the end): their words. */
  cheers(fresh) {
    const words = [];
    if (fresh.some((e) => e.kind === "rolled" && allAlike(e.dice))) words.push(t("cheer_yatzy"));
    const over = fresh.find((e) => e.kind === "game_over");
    if (over && this.bests) {
      for (const s of over.standings) {
        if (this.isMe(s.player) && this.bests.has(s.name) && s.total > this.bests.get(s.name)) {
          words.push(t("cheer_best", { name: s.name, total: s.total }));
        }
      }
    }
    if (words.length) celebrate(words.join(" "));
    return words;
  }

  async askBests(view) {
    this.bests = new Map();
    const names = view.players.filter((p) => p.kind === "person" && this.isMe(p.seat)).map((p) => p.name);
    if (names.length) this.bests = await bestsSoFar(view.ruleset, names);
  }

  isMe(seat) {
    if (this.cred.role === "table") return this.view ? this.view.players[seat]?.kind === "person" : false;
    return this.cred.role === "seat" && seat === this.cred.seat;
  }

  turnText() {
    const v = this.view;
    if (!v) return "";
    if (v.over) return t("game_over");
    const who = seatName(v, v.current);
    if (v.legal_actions.length) return this.cred.role === "table" ? t("turn_of_here", { name: who }) : t("your_turn");
    return t("turn_of", { name: who });
  }

  // -- the screen --
  build() {
    document.title = `${t("room_n", { code: this.code })} · Yatzy`;
    this.el = {
      heading: h("h1", { id: "turn", class: "turn" }),
      conn: h("p", { id: "conn", class: "conn", hidden: true }),
      meta: h("p", { class: "meta", id: "meta" }),
      dice: h("div", { class: "dice", role: "group", "aria-labelledby": "dice-h" }),
      roll: h("button", { type: "button", id: "roll", class: "primary roll", "data-key": "roll",
        "aria-keyshortcuts": "R", onclick: () => this.roll() }),
      choice: h("div", { id: "choice", class: "choice" }),
      coachButton: h("button", { type: "button", id: "ask-coach", hidden: true, onclick: () => this.askCoach() }),
      coach: h("section", { id: "coach", class: "coach", hidden: true, "aria-labelledby": "coach-h" }),
      board: h("div", { id: "board", class: "board" }),
      card: h("div", { class: "card-wrap", tabindex: "0", role: "region", "aria-labelledby": "card-caption" }),
      standings: h("section", { id: "standings", class: "card standings", hidden: true, "aria-labelledby": "standings-h" }),
      invite: h("details", { class: "card invite", id: "invite" }),
      presence: h("section", { class: "card", "aria-labelledby": "presence-h" }),
      fair: h("section", { class: "card fair", "aria-labelledby": "fair-h" }),
      log: h("section", { class: "card log", "aria-labelledby": "log-h" }),
      keeperForm: this.typed.form(),
      keeperBar: h("div", { class: "actions keeper-bar", id: "keeper-bar", hidden: true },
        h("button", { type: "button", id: "undo", onclick: () => this.undo() }, t("undo")),
        h("button", { type: "button", id: "fix-round", onclick: () => this.amend.open() }, t("fix_round"))),
      amend: h("dialog", { id: "amend", class: "amend", "aria-labelledby": "amend-h" }),
      badge: h("p", { id: "keeper-badge", class: "badge", hidden: true }),
    };
    const e = this.el;
    fill(main, h("div", { class: "game" },
      h("div", { class: "play" },
        e.heading, e.conn, e.meta, e.badge, e.standings,
        e.tableTop = h("section", { class: "table-top", id: "table-top", "aria-labelledby": "dice-h" },
          h("h2", { id: "dice-h", class: "sr-only" }, t("dice")),
          e.dice, e.keeperForm, h("div", { class: "actions" }, e.roll)),
        e.tableMore = h("div", { class: "table-more" }, h("div", { class: "actions" }, e.coachButton, this.coach.field), e.choice, e.coach, e.board,
          e.hint = h("p", { class: "hint keys-hint", id: "keys-hint" }, t("keys_hint"))),
        e.keeperBar, e.card, e.amend),
      h("div", { class: "aside" }, e.invite, e.presence, e.fair, e.log)));
    renderInvite(e.invite, this.code, this.view);
    this.renderPresence();
    this.renderFair();
    // the dice stay in reach while the card scrolls (a sticky bar): what gets the focus is
    // scrolled clear of it
    this.barSize?.disconnect();
    this.barSize = new ResizeObserver(() => document.documentElement.style.setProperty("--bar-h",
      `${Math.ceil(e.tableTop.getBoundingClientRect().height)}px`));
    this.barSize.observe(e.tableTop);
  }

  render(mine) {
    const focusKey = document.activeElement?.dataset?.key;
    const v = this.view;
    this.el.heading.textContent = this.turnText();
    const bits = [t("round", { round: Math.min(v.round, v.rounds), rounds: v.rounds }), v.title];
    if (this.cred.role === "spectator") bits.push(t("watching"));
    this.el.meta.textContent = bits.join(" · ");
    this.el.tableTop.hidden = v.over;
    this.el.tableMore.hidden = v.over;
    if (!this.invitePlaced) { this.invitePlaced = true; this.el.invite.open = v.version === 0 && !v.over; }
    this.renderDice();
    this.renderKeeper();
    this.renderChoice();
    renderBoard(this.el.board, v.board);
    this.renderCard();
    this.standings.render();
    this.renderCoach();
    renderLog(this.el.log, this.log);
    this.renderPresence();
    this.renderFair();
    if (focusKey) {
      const again = document.querySelector(`[data-key="${CSS.escape(focusKey)}"]`);
      if (again && document.activeElement !== again) again.focus({ preventScroll: true });
      else if (!again && mine) { // only after one's own move
        (this.keeper() ? $("#typed-dice") : this.el.roll).focus({ preventScroll: true });
      }
    }
  }

  /** A scorekeeper room: the dice are thrown at the table and typed in. */
  keeper() {
    return (this.view?.dice_from ?? this.welcome?.dice_from) === "players";
  }

  canKeep() {
    return !this.keeper() && this.view && this.view.dice && this.view.legal_actions.some((a) => a.startsWith("k "));
  }

  renderKeeper() {
    const v = this.view;
    const keeper = this.keeper();
    const e = this.el;
    e.roll.hidden = keeper;
    e.hint.textContent = t(keeper ? "keeper_hint" : "keys_hint");
    e.keeperForm.hidden = !keeper || !rolls(v);
    e.badge.hidden = !keeper;
    e.badge.textContent = keeper ? t("keeper_badge") : "";
    const player = this.cred.role !== "spectator";
    const undoable = keeper && !v.over && v.last && v.last.undoable && this.isMe(v.last.player);
    e.keeperBar.hidden = !keeper || !player || v.version === 0;
    const undo = $("#undo");
    undo.hidden = !undoable;
    if (undoable) undo.textContent = t("undo_action", { action: v.last.action });
  }

  renderDice() {
    const v = this.view;
    const box = this.el.dice;
    while (box.children.length < this.diceCount) {
      const i = box.children.length;
      box.append(h("button", { type: "button", class: "die", "data-key": `die-${i}`, "aria-keyshortcuts": String(i + 1),
        onclick: () => this.toggle(i) }));
    }
    const active = this.canKeep();
    const shake = motion();
    [...box.children].forEach((btn, i) => {
      const face = this.faces ? this.faces[i] : null;
      btn.setAttribute("aria-label", face ? t("die_label", { n: i + 1, face }) : t("die_empty", { n: i + 1 }));
      btn.setAttribute("aria-pressed", String(this.held.has(i)));
      btn.setAttribute("aria-disabled", String(!active || !face));
      btn.tabIndex = this.keeper() ? -1 : 0; // typed dice are shown, not held
      btn.classList.toggle("held", this.held.has(i));
      btn.classList.toggle("blank", !face);
      btn.classList.toggle("rolling", shake && this.rolling.has(i));
      fill(btn, dieFace(face), h("span", { class: "held-tag", "aria-hidden": "true" }, t("held")));
    });
    this.rolling = new Set(); // shaken once, not again at the next render
    this.el.roll.setAttribute("aria-disabled", String(!this.online || !rolls(v)));
    this.el.roll.textContent = v.over ? t("roll") : v.saved_rolls ? t("roll_left_saved", { n: v.rolls_left, saved: v.saved_rolls })
      : t("roll_left", { n: v.rolls_left });
  }

  heldFaces() {
    return sortNums([...this.held].map((i) => this.faces[i]));
  }

  toggle(i) {
    if (!this.canKeep() || !this.faces?.[i]) return;
    if (this.held.has(i)) this.held.delete(i); else this.held.add(i);
    this.keepHolds();
    this.renderDice();
    sound("hold");
    const faces = this.heldFaces();
    announce(`${t(this.held.has(i) ? "die_held" : "die_released", { n: i + 1, face: this.faces[i] })} ${
      faces.length ? t("held_list", { dice: diceText(faces) }) : t("none_held")}`);
  }

  roll() {
    const v = this.view;
    if (!v || !rolls(v)) return;
    const faces = this.faces ? this.heldFaces() : [];
    this.act(faces.length ? `k ${faces.join("")}` : "r");
  }

  scoreActions(id) {
    return this.view.legal_actions.filter((a) => a === `s ${id}` || a.startsWith(`s ${id} `));
  }

  score(option) {
    const actions = this.scoreActions(option.id);
    if (actions.length === 1) return this.act(actions[0]);
    if (actions.length > 1) { // DOZZY: which tiles come back
      this.pendingChoice = option;
      this.renderChoice();
      this.el.choice.querySelector("button")?.focus();
    }
  }

  renderChoice() {
    const pending = this.pendingChoice;
    renderChoice(this.el.choice, { v: this.view, pending, actions: pending ? this.scoreActions(pending.id) : [],
      act: (a) => this.act(a), cancel: () => { this.pendingChoice = null; this.renderChoice(); } });
  }

  renderCard() {
    const v = this.view;
    const table = cardTable(v, { acting: v.legal_actions.length ? v.current : null,
      onScore: (option) => this.score(option) });
    table.addEventListener("keydown", (e) => cardKey(e, this.el.card));
    if (!this.online) for (const b of table.querySelectorAll("button.score")) b.setAttribute("aria-disabled", "true");
    fill(this.el.card, table);
  }

  askCoach() {
    this.coach.ask(this.view.version);
    this.renderCoach();
  }

  renderCoach() {
    const v = this.view;
    const offered = this.welcome?.coach && v && !v.over && v.dice && v.legal_actions.length > 0;
    this.coach.render(this.el.coachButton, this.el.coach, v, offered);
  }

  renderPresence() {
    renderPresence(this.el.presence, { p: this.presence, v: this.view, cred: this.cred, send: (m) => this.send(m) });
  }

  renderFair() {
    renderFair(this.el.fair, { keeper: this.keeper(), commitment: this.welcome?.commitment, reveal: this.reveal,
      check: this.check, seed: this.seedText ?? "" });
  }
}

// The feel of a dice game, each part a setting of the header's "Settings" (remembered in this
// browser): the dice shaken as they roll (off under the system's reduced motion, or when the
// player turns it off), a celebration of a Yatzy and of a personal best, short sounds made by
// the Web Audio API (off by default) and the moves read aloud by the browser's speech, in the
// page's language (off by default). The words read are the server's own (each event's text).
import { api } from "./api.js";
import { $, h } from "./dom.js";
import { lang } from "./i18n.js";
import { store } from "./store.js";

/** The settings and what each is by default. */
const DEFAULTS = { motion: true, sounds: false, speech: false };

export function setting(name) {
  return store.get(`feel.${name}`, DEFAULTS[name]);
}

/** Whether the dice may move: the player's setting and the system's reduced motion. */
export function motion() {
  return setting("motion") && !matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The header's settings: each checkbox (#feel-<name>) shows and changes its setting. */
export function initFeel() {
  for (const name of Object.keys(DEFAULTS)) {
    const box = $(`#feel-${name}`);
    if (!box) continue;
    box.checked = setting(name);
    box.addEventListener("change", () => {
      store.set(`feel.${name}`, box.checked);
      if (name === "speech" && !box.checked) window.speechSynthesis?.cancel();
      if (name === "sounds" && box.checked) sound("hold");
    });
  }
}

// -- sounds: a few oscillator and noise bursts, no sound files --
let audio = null;

function context() {
  if (!audio) {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    audio = new Ctx();
  }
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function click(ac, at, freq, length, volume) {
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = "triangle";
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

/** A sound: "roll" (dice rattling), "hold" (a click), "score" (two notes), "cheer" (a run up). */
export function sound(kind) {
  if (!setting("sounds")) return;
  const ac = context();
  if (!ac) return;
  const now = ac.currentTime + 0.01;
  if (kind === "roll") {
    for (let i = 0; i < 7; i++) click(ac, now + i * 0.035 + Math.random() * 0.02, 900 + Math.random() * 900, 0.03, 0.18);
  } else if (kind === "hold") {
    click(ac, now, 1400, 0.04, 0.2);
  } else if (kind === "score") {
    click(ac, now, 660, 0.12, 0.2);
    click(ac, now + 0.1, 880, 0.16, 0.2);
  } else if (kind === "cheer") {
    [523, 659, 784, 1047].forEach((f, i) => click(ac, now + i * 0.09, f, 0.22, 0.22));
  }
}

// -- reading aloud --
/** Read ``text`` aloud in the page's language, when the player asked for it (it stops what
 * was still being read: the newest move matters). */
export function speak(text) {
  if (!text || !setting("speech") || !window.speechSynthesis) return;
  const words = new SpeechSynthesisUtterance(text);
  words.lang = lang;
  speechSynthesis.cancel();
  speechSynthesis.speak(words);
}

// -- a celebration --
let banner = null;
let bannerTimer = null;

/** A celebration on the screen for a moment: ``text`` in a banner (the live region says the
 * words; the banner itself is not read), with confetti when the dice may move. */
export function celebrate(text) {
  banner?.remove();
  clearTimeout(bannerTimer);
  const bits = motion() ? Array.from({ length: 18 }, (_, i) =>
    h("span", { class: "bit", style: `--i:${i}; --x:${Math.round(Math.random() * 100)}` })) : [];
  banner = h("div", { class: motion() ? "celebrate moving" : "celebrate", id: "celebrate", "aria-hidden": "true" },
    h("p", {}, text), ...bits);
  document.body.append(banner);
  sound("cheer");
  bannerTimer = setTimeout(() => { banner?.remove(); banner = null; }, 2600);
}

/** Whether a roll's dice all show one face: a Yatzy on the table (for the celebration). */
export const allAlike = (dice) => dice.length > 1 && dice.every((d) => d === dice[0]);

/** The best final totals of ``names`` (people) in the finished games of ``ruleset`` so far, by
 * name: a total above one at the game's end is a personal best. None when unknown. */
export async function bestsSoFar(ruleset, names) {
  try {
    const stats = await api("GET", `/api/stats?ruleset=${encodeURIComponent(ruleset)}`);
    return new Map(stats.players.filter((p) => p.kind === "person" && names.includes(p.name) && p.games > 0)
      .map((p) => [p.name, p.best]));
  } catch { return new Map(); }
}

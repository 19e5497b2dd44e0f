// A room's WebSocket (/ws/rooms/{code}): it says who it is (resume, with the last version seen,
// in the page's language) each time it opens, and opens again after a drop, waiting 0.5 s,
// then twice as long each time up to 8 s.
import { lang } from "./i18n.js";

const PROTOCOL = 1;

export class Connection {
  /**
   * ``lastVersion()``: the last version seen (the server sends what came after);
   * ``receive(text)``: a message; ``status(on)``: open (true) or dropped (false).
   */
  constructor(code, token, { lastVersion, receive, status }) {
    this.code = code;
    this.token = token;
    this.lastVersion = lastVersion;
    this.receive = receive;
    this.status = status;
    this.ws = null;
    this.retry = 500;
    this.stopped = false;
  }

  /** Open the socket and resume after ``from`` (by default the last version seen). */
  open(from = this.lastVersion()) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    // the language in the URL too: a refusal before the resume is read (too many connections
    // from one address) comes in it
    const ws = new WebSocket(`${scheme}//${location.host}/ws/rooms/${this.code}?lang=${lang}`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this.status(true);
      ws.send(JSON.stringify({ type: "resume", protocol: PROTOCOL, token: this.token, lang, last_version: from }));
    };
    ws.onmessage = (e) => this.receive(e.data);
    ws.onclose = () => {
      if (this.stopped || this.ws !== ws) return;
      this.status(false);
      setTimeout(() => { if (!this.stopped && this.ws === ws) this.open(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** A new socket now (a new language: the server sends the views in it), resuming after
   * ``from`` (the events after it come again) or the last version seen. */
  reopen(from = this.lastVersion()) {
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.open(from);
  }

  send(message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** No opening again after a drop (the room refused us). */
  stop() {
    this.stopped = true;
  }

  close() {
    this.stopped = true;
    if (this.ws) this.ws.close();
  }
}

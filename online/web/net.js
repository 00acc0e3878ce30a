// @ts-check
/**
 * The websocket to the server that served this page (PROTOCOL.md).  It says
 * hello, then hands over to `onOpen` (which creates, joins or resumes); when
 * the connection drops it reconnects by itself with a growing pause, and calls
 * `onOpen` again (the seat is taken back with its token and last seq); but not
 * when the server closed it with 4001 (the seat was opened elsewhere with its
 * token: coming back would take it from there, and so on for ever).
 */

export const PROTOCOL = 1;
/** The close code of a connection whose seat another connection opened. */
export const OPENED_ELSEWHERE = 4001;

/**
 * @typedef {Record<string, any>} Message
 * @typedef {"connecting" | "open" | "lost" | "closed" | "elsewhere"} LinkState
 */

export class Connection {
  /**
   * @param {string} name the player's name, for hello
   * @param {(msg: Message) => void} onMessage every message after welcome
   * @param {(state: LinkState) => void} onState
   * @param {(conn: Connection) => void} onOpen after each welcome
   */
  constructor(name, onMessage, onState, onOpen) {
    this.name = name;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onOpen = onOpen;
    /** @type {WebSocket | null} */
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.welcomed = false;
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/`;
  }

  open() {
    this.closed = false;
    this.onState("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.welcomed = false;
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", protocol: PROTOCOL, name: this.name.slice(0, 32) || "player" }));
    });
    ws.addEventListener("message", (ev) => this.received(ws, ev));
    ws.addEventListener("close", (ev) => this.dropped(ws, ev.code));
  }

  /**
   * @param {WebSocket} ws
   * @param {MessageEvent} ev
   */
  received(ws, ev) {
    if (ws !== this.ws) return;
    /** @type {Message} */
    let msg;
    try {
      msg = JSON.parse(String(ev.data));
    } catch {
      return;
    }
    if (!this.welcomed) {
      if (msg.type === "welcome") {
        this.welcomed = true;
        this.attempt = 0;
        this.onState("open");
        this.onOpen(this);
        return;
      }
    }
    if (msg.type === "bye") {
      ws.close();
      return;
    }
    this.onMessage(msg);
  }

  /**
   * @param {WebSocket} ws
   * @param {number} code the close code
   */
  dropped(ws, code) {
    if (ws !== this.ws) return;
    this.ws = null;
    if (code === OPENED_ELSEWHERE) {
      this.closed = true;
      this.onState("elsewhere");
      return;
    }
    if (this.closed) {
      this.onState("closed");
      return;
    }
    this.onState("lost");
    this.attempt += 1;
    const pause = Math.min(5000, 250 * 2 ** Math.min(this.attempt, 5));
    this.timer = setTimeout(() => this.open(), pause);
  }

  /** @param {Message} msg */
  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.welcomed) {
      this.ws.send(JSON.stringify(msg));
      return true;
    }
    return false;
  }

  close() {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  /** Drop the connection as a network failure would (it reconnects). */
  drop() {
    if (this.ws) this.ws.close();
  }
}

// @ts-check
/**
 * The browser seat: a thin client of PROTOCOL.md.  It renders its seat's view
 * and sends commands; the server decides everything (the legal cards come as
 * `options`, a refusal as data).  Token, last seq and the view are kept per tab
 * in sessionStorage, so a reload or a dropped connection resumes at the same
 * position; nothing is kept in cookies, and localStorage only holds
 * preferences (the language, sound on or off).
 */

import { byId } from "./dom.js";
import { chooseLanguage, game, setCatalog, setLanguage, t } from "./i18n.js";
import { advance } from "./model.js";
import { Connection } from "./net.js";
import { renderLobby, renderStart } from "./screens.js";
import { Sounds } from "./sound.js";
import { TableScreen } from "./table.js";
import { Names, refusal } from "./words.js";

/**
 * @typedef {import("./model.js").View} View
 * @typedef {import("./net.js").Message} Message
 * @typedef {import("./words.js").LobbySeat} LobbySeat
 * @typedef {{variant: string, deals: number, seats: string[], name: string}} CreateOrder
 * @typedef {{kind: "create", order: CreateOrder} | {kind: "join", seat: number, name: string}
 *   | {kind: "resume"} | {kind: "watch"} | {kind: "none"}} Intent
 */

const CODE_RE = /^\/t\/([A-Za-z0-9]{6})\/?$/;
const STORE = "tarocchi.table.";
const NAME = "tarocchi.name";

export class App {
  constructor() {
    /** @type {Record<string, string>} */
    this.assets = JSON.parse(document.body.dataset.assets || "{}");
    /** @type {string | null} */
    this.code = null;
    this.seat = -1;
    /** @type {string | null} */
    this.token = null;
    /** @type {string | null} */
    this.hostToken = null;
    this.lastSeq = 0;
    /** @type {View | null} */
    this.view = null;
    /** @type {Message | null} */
    this.lobby = null;
    /** @type {Message | null} */
    this.options = null;
    /** @type {Record<string, Record<string, any>>} */
    this.pending = {};
    /** @type {Connection | null} */
    this.conn = null;
    /** @type {Intent} */
    this.intent = { kind: "none" };
    this.linkState = "connecting";
    /** @type {Message | null} */
    this.over = null;
    /** @type {string | null} */
    this.error = null;
    this.ids = 0;
    this.tag = Math.random().toString(36).slice(2, 8);
    /** @type {TableScreen | null} */
    this.table = null;
    this.sounds = new Sounds(this.assets);
  }

  async boot() {
    const res = await fetch(this.assets["catalog.json"]);
    setCatalog(await res.json());
    setLanguage(chooseLanguage());
    const m = location.pathname.match(CODE_RE);
    if (!m) {
      this.render();
      return;
    }
    this.code = m[1].toUpperCase();
    this.restore();
    this.intent = this.token ? { kind: "resume" } : { kind: "watch" };
    this.connect();
  }

  // --- what the tab keeps -------------------------------------------------------------

  restore() {
    const raw = sessionStorage.getItem(STORE + this.code);
    if (!raw) return;
    try {
      const s = JSON.parse(raw);
      this.token = s.token;
      this.seat = s.seat;
      this.hostToken = s.hostToken;
      this.lastSeq = s.view ? s.lastSeq : 0;
      this.view = s.view;
      this.pending = s.pending || {};
    } catch {
      sessionStorage.removeItem(STORE + this.code);
    }
  }

  save() {
    if (!this.code) return;
    sessionStorage.setItem(STORE + this.code, JSON.stringify({
      token: this.token, seat: this.seat, hostToken: this.hostToken, lastSeq: this.lastSeq,
      view: this.view, pending: this.pending,
    }));
  }

  get name() {
    return sessionStorage.getItem(NAME) || "";
  }

  /** @param {string} name */
  set name(name) {
    sessionStorage.setItem(NAME, name);
  }

  // --- the connection ---------------------------------------------------------------

  connect() {
    if (this.conn) this.conn.close();
    this.conn = new Connection(this.name, (m) => this.received(m), (s) => this.linkChanged(s),
      (c) => this.opened(c));
    this.conn.open();
  }

  /** @param {Connection} c */
  opened(c) {
    const i = this.intent;
    if (i.kind === "create") {
      c.send({ type: "create", variant: i.order.variant, deals: i.order.deals, seats: i.order.seats });
    } else if (i.kind === "join") {
      c.send({ type: "join", code: this.code, seat: i.seat, name: i.name });
    } else if (i.kind === "resume") {
      c.send({ type: "resume", code: this.code, token: this.token, last_seq: this.view ? this.lastSeq : 0 });
    } else if (i.kind === "watch") {
      c.send({ type: "join", code: this.code, seat: null });
    }
  }

  /** @param {string} state */
  linkChanged(state) {
    const was = this.linkState;
    this.linkState = state;
    if (this.table) this.table.link(state, was);
    else {
      if (state === "elsewhere") this.error = t("Opened elsewhere: this seat is now played from another window");
      this.render();
    }
  }

  /** @param {CreateOrder} order */
  create(order) {
    this.name = order.name;
    this.intent = { kind: "create", order };
    this.error = null;
    this.connect();
  }

  /** @param {string} code */
  goTo(code) {
    location.assign(`/t/${encodeURIComponent(code.trim().toUpperCase())}`);
  }

  /**
   * Take a free seat (a new connection: one connection holds one place).
   * @param {number} seat
   * @param {string} name
   */
  sit(seat, name) {
    this.name = name;
    this.intent = { kind: "join", seat, name };
    this.connect();
  }

  /**
   * A host's order (set_seat, start).
   * @param {string} type
   * @param {Record<string, any>} [fields]
   */
  host(type, fields = {}) {
    if (!this.conn || !this.hostToken) return;
    this.conn.send({ type, code: this.code, host_token: this.hostToken, ...fields });
  }

  /** @param {Record<string, any>} body */
  command(body) {
    if (!this.conn) return;
    this.ids += 1;
    const id = `${this.tag}-${this.ids}`;
    this.pending[id] = body;
    this.options = null;
    this.save();
    this.conn.send({ type: "command", id, command: body });
    if (this.table) this.table.update();
  }

  // --- what the server says ---------------------------------------------------------

  /** @param {Message} m */
  received(m) {
    const handler = HANDLERS[m.type];
    if (handler) handler(this, m);
    if (this.table && m.type !== "event" && m.type !== "snapshot") this.table.message(m);
  }

  /** @param {Message} snap */
  snapshot(snap) {
    this.view = snap.view;
    this.lastSeq = snap.seq;
    this.save();
  }

  /** @param {Message} m */
  event(m) {
    if (!this.view || m.seq <= this.lastSeq) return;
    if (m.seq !== this.lastSeq + 1) {  // a gap: ask for what is missing
      if (this.token) this.conn?.send({ type: "resume", code: this.code, token: this.token, last_seq: this.lastSeq });
      return;
    }
    const before = this.view;
    this.view = advance(this.view, m.event, game(this.view.variant));
    this.lastSeq = m.seq;
    this.save();
    if (this.table) this.table.event(m.event, before);
  }

  names() {
    const variant = this.view?.variant || this.lobby?.variant || "piedicavallo";
    return new Names(game(variant), this.seat, /** @type {LobbySeat[]} */ (this.lobby?.seats || []));
  }

  render() {
    const root = byId("app");
    const started = this.lobby?.started || (this.view && this.view.deal_no > 0);
    if (!this.code || (!this.lobby && !this.view)) {
      this.table = null;
      renderStart(this, root);
    } else if (!started) {
      this.table = null;
      renderLobby(this, root);
    } else {
      if (!this.table) this.table = new TableScreen(this, root);
      this.table.update();
    }
  }
}

/** @type {Record<string, (app: App, m: Message) => void>} */
const HANDLERS = {
  created(app, m) {
    app.code = m.code;
    app.hostToken = m.host_token;
    app.save();
    history.replaceState(null, "", `/t/${m.code}`);
    app.intent = { kind: "join", seat: 0, name: app.name };
    app.conn?.send({ type: "join", code: m.code, seat: 0, name: app.name });
  },
  seated(app, m) {
    app.code = m.code;
    app.seat = m.seat;
    app.token = m.token;
    app.snapshot(m.snapshot);
    app.intent = { kind: "resume" };
    if (location.pathname !== `/t/${m.code}`) history.replaceState(null, "", `/t/${m.code}`);
    app.save();
    app.render();
  },
  watching(app, m) {
    app.seat = -1;
    app.snapshot(m.snapshot);
    app.render();
  },
  resumed(app, m) {
    app.seat = m.seat;
    for (const [id, body] of Object.entries(app.pending)) app.conn?.send({ type: "command", id, command: body });
  },
  snapshot(app, m) {
    app.snapshot(m);
    app.render();
  },
  event(app, m) {
    app.event(m);
  },
  options(app, m) {
    app.options = m;
    if (app.table) app.table.update();
  },
  ack(app, m) {
    delete app.pending[m.id];
    app.save();
  },
  lobby(app, m) {
    app.lobby = m;
    app.render();
  },
  game_over(app, m) {
    app.over = m;
  },
  presence(app, m) {
    const seat = app.lobby?.seats?.[m.seat];
    if (seat) seat.connected = m.connected;
  },
  error(app, m) {
    if (m.id) {
      const body = app.pending[m.id];
      delete app.pending[m.id];
      app.save();
      app.error = refusal(app.names(), m, body && typeof body.play === "string" ? body.play : null);
    } else {
      app.error = refusal(app.names(), m, null);
      if (m.code === "bad_token" && app.code) {  // the seat is gone: watch the table instead
        sessionStorage.removeItem(STORE + app.code);
        app.token = null;
        app.view = null;
        app.intent = { kind: "watch" };
        app.connect();
      }
    }
    if (app.table) app.table.update();
    else app.render();
  },
};

const app = new App();
app.boot().catch((err) => {
  byId("app").textContent = String(err);
});

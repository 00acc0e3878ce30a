// @ts-check
/**
 * The table: the other seats round it, the trick in the middle, the piles, the
 * seat's hand as buttons (the cards the server's `options` allow are lit), the
 * discard, and the score sheet after each deal.  Plays are announced in a live
 * region; cards move when played (none of it with prefers-reduced-motion),
 * and sound, when it is on, follows the play (sound.js).
 */

import { el, fill, reducedMotion } from "./dom.js";
import { cardLabel, cardName, game, levelName, nt, t } from "./i18n.js";
import { DISCARD, OVER, PLAY, pilePoints, sortHand, totals, trickSeats } from "./model.js";
import { languageSwitch } from "./screens.js";
import { drawSheet } from "./sheet.js";
import { soundSwitch } from "./sound.js";
import { discarded, pileLine, standing } from "./words.js";

/**
 * @typedef {import("./app.js").App} App
 * @typedef {import("./model.js").View} View
 * @typedef {import("./i18n.js").Game} Game
 * @typedef {Record<string, any>} Message
 */

const SPOTS = { 4: ["bottom", "right", "top", "left"], 3: ["bottom", "right", "left"] };
const TRICK_SHOWN_MS = 1300;

/**
 * @param {Game} g
 * @param {number} seat
 * @param {number} me
 */
function spot(g, seat, me) {
  const spots = g.n_seats === 3 ? SPOTS[3] : SPOTS[4];
  return spots[(seat - Math.max(me, 0) + g.n_seats) % g.n_seats];
}

export class TableScreen {
  /**
   * @param {App} app
   * @param {HTMLElement} root
   */
  constructor(app, root) {
    this.app = app;
    this.root = root;
    /** @type {Set<string>} */
    this.chosen = new Set();
    this.chosenFor = -1;
    /** @type {{cards: string[], seats: number[], winner: number, until: number} | null} */
    this.lastTrick = null;
    /** @type {import("./sheet.js").Sheet | null} */
    this.sheet = null;
    /** @type {string | null} */
    this.notice = null;
    this.title = el("h1", { class: "title" });
    this.standing = el("p", { class: "standing" });
    this.seats = el("div", { class: "seats" });
    this.trick = el("div", { class: "trick", role: "group" });
    this.status = el("p", { class: "status", id: "status" });
    this.refusal = el("p", { class: "refusal", role: "alert" });
    this.piles = el("ul", { class: "piles" });
    this.hand = el("div", { class: "hand", role: "group", onkeydown: (/** @type {KeyboardEvent} */ e) => this.arrows(e) });
    this.confirm = /** @type {HTMLButtonElement} */ (el("button", { type: "button", class: "primary confirm", id: "confirm", onclick: () => this.sendDiscard() }));
    this.sheetBox = el("div", { class: "sheet-box" });
    this.live = el("div", { class: "sr-only", id: "live", "aria-live": "polite" });
    this.banner = el("p", { class: "banner", role: "status" });
    this.build();
    app.sounds.attach();
  }

  /** The screen laid out, its labels in the page's language. */
  build() {
    this.trick.setAttribute("aria-label", t("The trick"));
    this.hand.setAttribute("aria-label", t("Your hand"));
    fill(this.root,
      el("header", { class: "bar" }, this.title, this.standing,
        el("div", { class: "tools" }, soundSwitch(this.app.sounds), languageSwitch(() => { this.build(); this.update(); }))),
      el("main", { id: "main", class: "table-screen" },
        this.banner,
        el("section", { class: "felt", "aria-label": t("The table") }, this.seats, this.trick, this.confirm, this.status, this.refusal),
        el("section", { class: "mine", "aria-label": t("Your cards") }, this.piles, this.hand),
        this.sheetBox, this.live));
  }

  get view() {
    return /** @type {View} */ (this.app.view);
  }

  get game() {
    return game(this.view.variant);
  }

  /** The discard options for the seat now, if it is to discard. */
  discardOptions() {
    const o = this.app.options;
    return o && o.seq === this.app.lastSeq && o.discard ? o.discard : null;
  }

  playOptions() {
    const o = this.app.options;
    return o && o.seq === this.app.lastSeq && Array.isArray(o.play) ? /** @type {string[]} */ (o.play) : null;
  }

  update() {
    if (!this.app.view) return;
    const v = this.view;
    const g = this.game;
    const names = this.app.names();
    const code = this.app.code || "";
    const gameName = t(v.variant === "scarto" ? "Scarto" : "Piedicavallo");
    this.title.textContent = `${gameName} · ${t("Table {code}", { code })}`;
    document.title = `Tarocchi · ${gameName} · ${code}`;
    this.standing.textContent = standing(names, v.deal_no, v.n_deals, totals(v.scores, g), v.scores.length);
    if (this.chosenFor !== this.app.lastSeq) {
      this.chosen = new Set();
      this.chosenFor = this.app.lastSeq;
    }
    this.drawSeats(v, g);
    this.drawTrick(v, g);
    this.drawStatus(v);
    this.drawPiles(v, g);
    this.drawHand(v, g);
    this.drawSheet();
  }

  /**
   * @param {View} v
   * @param {Game} g
   */
  drawSeats(v, g) {
    const names = this.app.names();
    const lobbySeats = this.app.lobby?.seats || [];
    const plates = [];
    for (let s = 0; s < g.n_seats; s++) {
      const where = spot(g, s, this.app.seat);
      const ls = lobbySeats[s];
      const badges = [];
      if (s === v.dealer) badges.push(el("span", { class: "badge dealer" }, t("Dealer")));
      if (ls && ls.kind === "human" && ls.taken && !ls.connected) badges.push(el("span", { class: "badge away" }, t("away")));
      if (ls && ls.kind === "ai") badges.push(el("span", { class: "badge ai" }, levelName(ls.level || "")));
      if (ls && ls.takeover) badges.push(el("span", { class: "badge ai" }, t("AI")));
      const away = Boolean(ls && ls.kind === "human" && ls.taken && !ls.connected && !ls.takeover);
      plates.push(el("div", {
        class: `plate spot-${where}${v.turn === s ? " turn" : ""}`, "data-seat": s,
      },
      el("span", { class: "plate-name" }, names.name(s)),
      s !== this.app.seat ? el("span", { class: "plate-count" }, nt("{n} card", "{n} cards", v.hand_sizes[s] || 0)) : null,
      badges,
      away && this.app.hostToken && v.phase !== OVER ? el("button", {
        type: "button", class: "takeover", "data-seat": s,
        onclick: () => this.app.host("takeover", { seat: s }),
      }, t("Let the AI play for {name}", { name: names.name(s) })) : null));
    }
    fill(this.seats, plates);
  }

  /**
   * @param {View} v
   * @param {Game} g
   */
  drawTrick(v, g) {
    let cards = v.trick;
    let seats = trickSeats(v, g);
    let taken = false;
    if (!cards.length && this.lastTrick && this.lastTrick.until > Date.now()) {
      cards = this.lastTrick.cards;
      seats = this.lastTrick.seats;
      taken = true;
    }
    fill(this.trick, cards.map((c, i) => el("div", {
      class: `slot spot-${spot(g, seats[i], this.app.seat)}${taken ? " taken" : ""}`,
      "data-trick-card": c, role: "img", "aria-label": t("{name}: {card}", { name: this.app.names().name(seats[i]), card: cardName(c) }),
    }, this.face(g, c))));
  }

  /**
   * A card's picture from the game's sprite sheet.
   * @param {Game} g
   * @param {string} code
   */
  face(g, code) {
    const span = el("span", { class: "face", "aria-hidden": "true" });
    const sp = g.sprite;
    const i = sp.index[code] ?? sp.index.back;
    const col = i % sp.cols;
    const row = Math.floor(i / sp.cols);
    span.style.backgroundImage = `url("${this.app.assets[sp.file]}")`;
    span.style.backgroundSize = `${sp.cols * 100}% ${sp.rows * 100}%`;
    span.style.backgroundPosition = `${sp.cols > 1 ? (col / (sp.cols - 1)) * 100 : 0}% ${sp.rows > 1 ? (row / (sp.rows - 1)) * 100 : 0}%`;
    return span;
  }

  /** @param {View} v */
  drawStatus(v) {
    const names = this.app.names();
    const g = this.game;
    let text = "";
    const d = this.discardOptions();
    if (this.playOptions()) {
      text = t("Your turn: play a card");
    } else if (d) {
      text = g.stock_cards
        ? nt("You took the stock: choose {n} card to lay aside", "You took the stock: choose {n} cards to lay aside", d.count)
        : nt("You deal: choose {n} card to discard", "You deal: choose {n} cards to discard", d.count);
    } else if (this.lastTrick && this.lastTrick.until > Date.now()) {
      text = names.isYou(this.lastTrick.winner) ? t("You take the trick")
        : t("{name} takes the trick", { name: names.name(this.lastTrick.winner) });
    } else if (v.turn >= 0 && v.turn !== this.app.seat) {
      text = t("{name} is thinking…", { name: names.name(v.turn) });
    }
    this.status.textContent = this.notice || text;
    this.refusal.textContent = this.app.error || "";
  }

  /**
   * @param {View} v
   * @param {Game} g
   */
  drawPiles(v, g) {
    const names = this.app.names();
    fill(this.piles, v.piles.map((p, side) => el("li", { class: "pile" },
      pileLine(names, side, pilePoints(p, g), v.tricks_won[side] || 0))));
  }

  /**
   * @param {View} v
   * @param {Game} g
   */
  drawHand(v, g) {
    const focused = document.activeElement instanceof HTMLElement ? document.activeElement.dataset.card : undefined;
    const play = this.playOptions();
    const d = this.discardOptions();
    const lit = new Set(play || []);
    if (d && this.chosen.size < d.count) {
      for (const c of d.cards) {
        if (this.chosen.has(c)) continue;
        const fits = d.choices === null || d.choices.some((/** @type {string[]} */ ch) =>
          ch.includes(c) && [...this.chosen].every((x) => ch.includes(x)));
        if (fits) lit.add(c);
      }
    }
    const discarding = v.phase === DISCARD && v.dealer === this.app.seat;
    const cards = sortHand(v.hand, g).map((c) => el("button", {
      type: "button",
      class: `card${lit.has(c) ? " lit" : ""}${this.chosen.has(c) ? " chosen" : ""}`,
      "data-card": c, "data-lit": lit.has(c) ? "true" : "false",
      "aria-label": cardLabel(g, c), "aria-pressed": discarding ? String(this.chosen.has(c)) : undefined,
      onclick: () => this.clicked(c),
    }, this.face(g, c)));
    fill(this.hand, cards);
    this.hand.classList.toggle("my-turn", Boolean(play || d));
    if (d) {
      this.confirm.hidden = false;
      const n = this.chosen.size;
      this.confirm.textContent = g.stock_cards ? nt("Lay this card aside", "Lay these {n} aside", d.count)
        : nt("Discard this card", "Discard these {n}", d.count);
      this.confirm.disabled = n !== d.count;
    } else {
      this.confirm.hidden = true;
    }
    if (focused) {
      const again = this.hand.querySelector(`[data-card="${CSS.escape(focused)}"]`);
      if (again instanceof HTMLElement) again.focus();
      else if (cards.length && !this.sheet) /** @type {HTMLElement} */ (cards[0]).focus();
    }
  }

  /** @param {string} code */
  clicked(code) {
    const v = this.view;
    this.app.error = null;
    if (v.phase === DISCARD && v.dealer === this.app.seat) {
      const d = this.discardOptions();
      if (this.chosen.has(code)) this.chosen.delete(code);
      else if (!d || this.chosen.size < d.count) this.chosen.add(code);
      this.update();
      return;
    }
    if (v.phase === PLAY) this.app.command({ play: code });
  }

  sendDiscard() {
    const d = this.discardOptions();
    if (!d || this.chosen.size !== d.count) return;
    this.app.command({ discard: [...this.chosen] });
    this.chosen = new Set();
  }

  /** @param {KeyboardEvent} e */
  arrows(e) {
    const keys = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -1000, End: 1000 };
    const step = keys[/** @type {keyof typeof keys} */ (e.key)];
    if (!step) return;
    const buttons = [...this.hand.querySelectorAll("button")];
    const at = buttons.indexOf(/** @type {HTMLButtonElement} */ (document.activeElement));
    const next = buttons[Math.max(0, Math.min(buttons.length - 1, (at < 0 ? 0 : at) + step))];
    if (next) {
      e.preventDefault();
      next.focus();
    }
  }

  /** @param {string} text */
  say(text) {
    const p = el("p", {}, text);
    this.live.appendChild(p);
    while (this.live.childNodes.length > 4) this.live.removeChild(/** @type {Node} */ (this.live.firstChild));
  }

  /**
   * An event just folded into the view: words for it, and its card moved.
   * @param {Record<string, any>} e
   * @param {View} before
   */
  event(e, before) {
    const names = this.app.names();
    const g = this.game;
    let from = null;
    if (e.type === "play") {
      const src = e.seat === this.app.seat ? this.hand.querySelector(`[data-card="${CSS.escape(e.card)}"]`)
        : this.seats.querySelector(`[data-seat="${e.seat}"]`);
      from = src ? src.getBoundingClientRect() : null;
      this.lastTrick = null;
      this.say(names.isYou(e.seat) ? t("You play {card}", { card: cardName(e.card) })
        : t("{name} plays {card}", { name: names.name(e.seat), card: cardName(e.card) }));
    } else if (e.type === "trick") {
      this.lastTrick = { cards: e.cards, seats: e.cards.map((/** @type {string} */ _, /** @type {number} */ i) => (before.leader + i) % g.n_seats), winner: e.winner, until: Date.now() + TRICK_SHOWN_MS };
      setTimeout(() => this.update(), TRICK_SHOWN_MS + 20);
      this.say(names.isYou(e.winner) ? t("You take the trick") : t("{name} takes the trick", { name: names.name(e.winner) }));
    } else if (e.type === "discard") {
      this.say(discarded(names, e.seat, g.discard_cards, typeof e.trumps === "number" ? e.trumps : -1));
    } else if (e.type === "deal") {
      this.lastTrick = null;
      this.say(t("Dealer: {name}", { name: names.name(e.dealer) }));
    }
    this.update();
    this.app.sounds.event(e, g.matto);
    if (e.type === "play" && from) this.move(e.card, from);
  }

  /**
   * The card just played slides from where it was to its place in the trick.
   * @param {string} code
   * @param {DOMRect} from
   */
  move(code, from) {
    const node = this.trick.querySelector(`[data-trick-card="${CSS.escape(code)}"]`);
    if (!(node instanceof HTMLElement) || reducedMotion() || !node.animate) return;
    const to = node.getBoundingClientRect();
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }],
      { duration: 260, easing: "ease-out" });
  }

  /**
   * Messages other than events: presence, the AI taking a seat, the deal's end.
   * @param {Message} m
   */
  message(m) {
    const names = this.app.names();
    if (m.type === "presence") {
      this.say(m.connected ? t("{name} is back", { name: names.name(m.seat) })
        : t("{name} is reconnecting…", { name: names.name(m.seat) }));
      this.notice = m.connected ? null : t("{name} is reconnecting…", { name: names.name(m.seat) });
    } else if (m.type === "takeover") {
      this.notice = t("{name} is now played by the AI", { name: names.name(m.seat) });
      this.say(this.notice);
    } else if (m.type === "timeout") {
      this.say(t("{name} ran out of time: the AI played", { name: names.name(m.seat) }));
    } else if (m.type === "deal_end") {
      this.sheet = { kind: "deal", msg: m };
      this.app.sounds.verdict(m.outcome, this.mySide(), false);
    } else if (m.type === "game_over") {
      this.sheet = { kind: "over", msg: m };
      this.app.sounds.verdict(m.outcome, this.mySide(), true);
      document.documentElement.dataset.over = "true";
    }
    this.update();
    if ((m.type === "deal_end" || m.type === "game_over") && this.sheet) {
      const button = this.sheetBox.querySelector("button");
      if (button instanceof HTMLElement) button.focus();
    }
  }

  /** The seat's side (-1: watching). */
  mySide() {
    return this.app.seat >= 0 ? this.game.side[this.app.seat] : -1;
  }

  /**
   * @param {string} state
   * @param {string} was
   */
  link(state, was) {
    if (state === "elsewhere") {
      this.banner.textContent = t("Opened elsewhere: this seat is now played from another window");
    } else if (state === "lost") this.banner.textContent = t("Connection lost: reconnecting…");
    else if (state === "open" && was !== "connecting") this.banner.textContent = t("Connected again");
    else if (state === "open") this.banner.textContent = "";
  }

  drawSheet() {
    drawSheet(this.sheetBox, this.sheet, this.view.scores, this.game, this.app.names(), () => {
      this.sheet = null;
      this.update();
      this.focusHand();
    });
  }

  focusHand() {
    const first = this.hand.querySelector("button.lit") || this.hand.querySelector("button");
    if (first instanceof HTMLElement) first.focus();
  }
}

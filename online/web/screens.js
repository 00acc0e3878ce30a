// @ts-check
/**
 * The start page (create a table, or join one by its code) and the lobby (who
 * sits where, the link to share, the host's controls).
 */

import { el, fill } from "./dom.js";
import { data, game, language, languages, levelName, nt, setLanguage, t } from "./i18n.js";

/**
 * @typedef {import("./app.js").App} App
 * @typedef {import("./words.js").LobbySeat} LobbySeat
 */

/**
 * The language switch, on every screen.
 * @param {() => void} rerender
 */
export function languageSwitch(rerender) {
  const select = /** @type {HTMLSelectElement} */ (el("select", {
    id: "language", "aria-label": t("Language"),
    onchange: () => { setLanguage(select.value, true); rerender(); },
  }, Object.entries(languages()).map(([code, own]) => el("option", { value: code, selected: code === language() }, own))));
  return el("div", { class: "lang" }, select);
}

/**
 * @param {App} app
 * @param {HTMLElement} root
 */
function header(app, root) {
  return el("header", { class: "bar" },
    el("p", { class: "brand" }, "Tarocchi"),
    languageSwitch(() => app.render()));
}

/**
 * @param {string} variant
 * @param {number} deals
 */
function lengthName(variant, deals) {
  if (deals === 1) return t("single deal");
  const g = game(variant);
  return g.n_sides < g.n_seats ? nt("match of {n} deal", "match of {n} deals", deals)
    : nt("game of {n} deal", "game of {n} deals", deals);
}

/**
 * @param {App} app
 * @param {HTMLElement} root
 */
export function renderStart(app, root) {
  document.title = `Tarocchi · ${t("Play online")}`;
  let variant = "piedicavallo";
  const nameInput = /** @type {HTMLInputElement} */ (el("input", {
    id: "name", name: "name", maxlength: 32, autocomplete: "nickname", value: app.name, required: true,
  }));
  const seatsBox = el("div", { class: "seat-choices" });
  const lengthBox = el("div", { class: "field" });
  const gameSelect = /** @type {HTMLSelectElement} */ (el("select", {
    id: "game", onchange: () => { variant = gameSelect.value; fillChoices(); },
  }, Object.keys(data().games).map((v) => el("option", { value: v }, t(v === "scarto" ? "Scarto" : "Piedicavallo")))));
  /** @type {HTMLSelectElement | null} */
  let lengthSelect = null;
  /** @type {HTMLSelectElement[]} */
  let seatSelects = [];
  const fillChoices = () => {
    const g = game(variant);
    lengthSelect = /** @type {HTMLSelectElement} */ (el("select", { id: "length" },
      g.game_lengths.map((d) => el("option", { value: d, selected: d === g.full_game }, lengthName(variant, d)))));
    fill(lengthBox, el("label", { for: "length" }, t("Length")), lengthSelect);
    seatSelects = [];
    const rows = [];
    for (let s = 1; s < g.n_seats; s++) {
      const sel = /** @type {HTMLSelectElement} */ (el("select", { id: `seat-${s}` },
        el("option", { value: "human" }, t("a friend")),
        data().levels.map((lv) => el("option", { value: lv, selected: false }, levelName(lv)))));
      seatSelects.push(sel);
      rows.push(el("div", { class: "field" }, el("label", { for: `seat-${s}` }, t(g.seat_names[s])), sel));
    }
    fill(seatsBox, el("p", { class: "note" }, t("You sit South. Share the table's code with your friends.")), rows);
  };
  fillChoices();
  const create = el("form", {
    class: "card-panel", "aria-labelledby": "create-title",
    onsubmit: (/** @type {Event} */ ev) => {
      ev.preventDefault();
      const name = nameInput.value.trim();
      if (!name) { nameInput.focus(); return; }
      app.create({
        variant, name, deals: Number(lengthSelect?.value || 1),
        seats: ["human", ...seatSelects.map((s) => s.value)],
      });
    },
  },
  el("h2", { id: "create-title" }, t("Host a table")),
  el("div", { class: "field" }, el("label", { for: "name" }, t("Your name")), nameInput),
  el("div", { class: "field" }, el("label", { for: "game" }, t("Game")), gameSelect),
  lengthBox, seatsBox,
  el("button", { type: "submit", class: "primary", id: "create" }, t("Create the table")));
  const codeInput = /** @type {HTMLInputElement} */ (el("input", {
    id: "code", name: "code", maxlength: 6, autocomplete: "off", autocapitalize: "characters", spellcheck: "false",
  }));
  const join = el("form", {
    class: "card-panel", "aria-labelledby": "join-title",
    onsubmit: (/** @type {Event} */ ev) => {
      ev.preventDefault();
      if (/^[A-Za-z0-9]{6}$/.test(codeInput.value.trim())) app.goTo(codeInput.value);
      else codeInput.focus();
    },
  },
  el("h2", { id: "join-title" }, t("Join a table with its code")),
  el("div", { class: "field" }, el("label", { for: "code" }, t("Table code")), codeInput),
  el("button", { type: "submit", class: "primary", id: "join" }, t("Join")));
  fill(root, header(app, root), el("main", { id: "main", class: "start" },
    el("h1", {}, t("Play online")),
    app.error ? el("p", { class: "error", role: "alert" }, app.error) : null,
    el("div", { class: "panels" }, create, join)));
}

/**
 * @param {App} app
 * @param {LobbySeat} s
 * @param {number} seat
 */
function who(app, s, seat) {
  if (seat === app.seat) return t("you");
  if (s.kind === "ai") return levelName(s.level || "");
  if (!s.taken) return t("waiting for a friend");
  if (!s.connected) return t("{name} (away)", { name: s.name });
  return s.name;
}

/**
 * The host's choice for a seat nobody has taken: a friend, or an AI level.
 * @param {App} app
 * @param {LobbySeat} s
 * @param {number} seat
 * @param {string} where
 */
function seatControl(app, s, seat, where) {
  const sel = /** @type {HTMLSelectElement} */ (el("select", {
    "aria-label": t("Who plays {seat}", { seat: where }), "data-seat": seat,
    onchange: () => app.host("set_seat", { seat, level: sel.value }),
  },
  el("option", { value: "human", selected: s.kind === "human" }, t("a friend")),
  data().levels.map((lv) => el("option", { value: lv, selected: s.kind === "ai" && s.level === lv }, levelName(lv)))));
  return sel;
}

/**
 * @param {App} app
 * @param {HTMLElement} root
 */
export function renderLobby(app, root) {
  const lobby = app.lobby;
  const code = app.code || "";
  document.title = `Tarocchi · ${t("Table {code}", { code })}`;
  const variant = lobby?.variant || app.view?.variant || "piedicavallo";
  const g = game(variant);
  const seats = /** @type {LobbySeat[]} */ (lobby?.seats || []);
  const link = `${location.origin}/t/${code}`;
  const linkInput = /** @type {HTMLInputElement} */ (el("input", {
    id: "link", readonly: true, value: link, "aria-label": t("The table's link"),
    onfocus: () => linkInput.select(),
  }));
  const copied = el("span", { class: "copied", role: "status" });
  const copy = el("button", {
    type: "button", id: "copy",
    onclick: async () => {
      linkInput.select();
      try {
        await navigator.clipboard.writeText(link);
        copied.textContent = t("Copied");
      } catch {
        copied.textContent = t("Select the link and copy it");
      }
    },
  }, t("Copy the link"));
  const host = Boolean(app.hostToken);
  const mine = app.seat >= 0;
  const nameInput = /** @type {HTMLInputElement} */ (el("input", {
    id: "name", maxlength: 32, autocomplete: "nickname", value: app.name,
  }));
  const items = seats.map((s, seat) => {
    const where = t(g.seat_names[seat]);
    const free = s.kind === "human" && !s.taken;
    return el("li", { class: "lobby-seat", "data-seat": seat },
      el("span", { class: "who" }, t("{seat}: {who}", { seat: where, who: who(app, s, seat) })),
      host && free ? seatControl(app, s, seat, where) : null,
      !mine && free ? el("button", {
        type: "button", class: "primary sit", "data-seat": seat,
        onclick: () => { const n = nameInput.value.trim(); if (n) app.sit(seat, n); else nameInput.focus(); },
      }, t("Sit here")) : null);
  });
  const everyone = seats.length > 0 && seats.every((s) => s.kind === "ai" || s.taken);
  const status = host ? (everyone ? "" : t("Waiting for friends…")) : t("Waiting for the host to start the game.");
  fill(root, header(app, root), el("main", { id: "main", class: "lobby" },
    el("h1", {}, t("Table {code}", { code })),
    el("p", { class: "game-name" }, `${t(variant === "scarto" ? "Scarto" : "Piedicavallo")} · ${lengthName(variant, lobby?.deals || g.full_game)}`),
    app.error ? el("p", { class: "error", role: "alert" }, app.error) : null,
    el("section", { class: "card-panel share", "aria-labelledby": "share-title" },
      el("h2", { id: "share-title" }, t("Share this link with your friends")),
      el("div", { class: "link-row" }, linkInput, copy), copied),
    !mine ? el("div", { class: "field" }, el("label", { for: "name" }, t("Your name")), nameInput) : null,
    el("section", { class: "card-panel", "aria-labelledby": "seats-title" },
      el("h2", { id: "seats-title" }, t("Seats")),
      el("ul", { class: "lobby-seats" }, items)),
    status ? el("p", { class: "note", role: "status" }, status) : null,
    host ? el("button", {
      type: "button", class: "primary", id: "start", disabled: !everyone,
      onclick: () => app.host("start"),
    }, t("Start the game")) : null));
}

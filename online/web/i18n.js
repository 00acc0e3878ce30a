// @ts-check
/**
 * Words of the page, from the catalog the desktop's .po files make
 * (python -m game.web_catalog writes catalog.json): one source of words.  The
 * catalog also carries each game's facts as data (seats, sides, cards in a
 * hand, each card's points and name), all taken from the engine.
 */

/**
 * @typedef {{name: string, n_seats: number, side: number[], n_sides: number,
 *   seat_names: string[], hand_cards: number, dealer_extra: number, stock_cards: number,
 *   discard_cards: number, n_tricks: number, game_lengths: number[], full_game: number,
 *   par: number, matto: string, order: string[], points: Record<string, number>,
 *   sprite: {file: string, cols: number, rows: number, index: Record<string, number>}}} Game
 * @typedef {{langs: Record<string, string>, plural: Record<string, string>,
 *   words: Record<string, Record<string, string | string[]>>,
 *   cards: Record<string, Record<string, string>>, games: Record<string, Game>,
 *   levels: string[], trump_suit: number}} Catalog
 */

/** @type {Catalog | null} */
let catalog = null;
let lang = "en";
const PREF = "tarocchi.language";

/** @param {Catalog} data */
export function setCatalog(data) {
  catalog = data;
}

/** @returns {Catalog} */
export function data() {
  if (!catalog) throw new Error("the catalog is not loaded");
  return catalog;
}

/** The languages offered, code -> own name. */
export function languages() {
  return data().langs;
}

/** The page's language: the one chosen before (a preference), else the browser's. */
export function chooseLanguage() {
  const offered = Object.keys(languages());
  let saved = null;
  try {
    saved = localStorage.getItem(PREF);
  } catch {
    saved = null;
  }
  if (saved && offered.includes(saved)) return saved;
  for (const l of navigator.languages || [navigator.language]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (offered.includes(short)) return short;
  }
  return "en";
}

/**
 * @param {string} code
 * @param {boolean} [remember]
 */
export function setLanguage(code, remember = false) {
  lang = code in languages() ? code : "en";
  document.documentElement.lang = lang;
  if (remember) {
    try {
      localStorage.setItem(PREF, lang);
    } catch {
      /* private mode: the choice lasts as long as the page */
    }
  }
}

export function language() {
  return lang;
}

/**
 * @param {string} text
 * @param {Record<string, string | number>} [args]
 */
function format(text, args) {
  if (!args) return text;
  return text.replace(/\{(\w+)\}/g, (m, name) => (name in args ? String(args[name]) : m));
}

/**
 * A text in the page's language, with {name} fields filled in.
 * @param {string} msgid
 * @param {Record<string, string | number>} [args]
 */
export function t(msgid, args) {
  const got = data().words[lang]?.[msgid];
  const text = typeof got === "string" ? got : Array.isArray(got) ? got[0] : msgid;
  return format(text, args);
}

/**
 * A counted text: the language's form for n ({n} is filled in).
 * @param {string} singular
 * @param {string} plural
 * @param {number} n
 * @param {Record<string, string | number>} [args]
 */
export function nt(singular, plural, n, args) {
  const got = data().words[lang]?.[singular];
  const rule = data().plural[lang] || "n!=1";
  const many = rule === "n>1" ? n > 1 : n !== 1;
  const forms = Array.isArray(got) ? got : [singular, plural];
  return format(many ? forms[1] : forms[0], { n, ...(args || {}) });
}

/**
 * A card's name ("King of Cups", "trump 21").
 * @param {string} code
 */
export function cardName(code) {
  return data().cards[lang]?.[code] || code;
}

/**
 * A card's name with its points: "Knight of Coins, 3 points".
 * @param {Game} game
 * @param {string} code
 */
export function cardLabel(game, code) {
  const name = cardName(code);
  const points = nt("{n} point", "{n} points", game.points[code] ?? 0);
  return t("{card}, {points}", { card: name.charAt(0).toUpperCase() + name.slice(1), points });
}

/**
 * Cards one after another: "A", "A and B", "A, B and C".
 * @param {string[]} codes
 */
export function cardList(codes) {
  const names = codes.map(cardName);
  if (names.length <= 1) return names.join("");
  return t("{first} and {last}", { first: names.slice(0, -1).join(", "), last: names[names.length - 1] });
}

/**
 * Marks a text for the catalog without translating it now (as the desktop's N_).
 * @param {string} msgid
 */
export function N_(msgid) {
  return msgid;
}

const SUITS = [N_("Swords"), N_("Batons"), N_("Cups"), N_("Coins"), N_("Trumps")];
N_("South"), N_("East"), N_("North"), N_("West");
N_("random"), N_("easy"), N_("medium"), N_("hard");
N_("Piedicavallo"), N_("Scarto");

/** @param {number} suit */
export function suitName(suit) {
  return suit >= 0 && suit < SUITS.length ? t(SUITS[suit]) : "?";
}

/**
 * A game's facts.
 * @param {string} variant
 * @returns {Game}
 */
export function game(variant) {
  const g = data().games[variant];
  if (!g) throw new Error(`unknown game ${variant}`);
  return g;
}

/**
 * An AI level's name ("AI: easy").
 * @param {string} level
 */
export function levelName(level) {
  return t("AI: {level}", { level: t(level) });
}

/** @param {string} s */
export function capital(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

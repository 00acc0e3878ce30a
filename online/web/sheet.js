// @ts-check
/**
 * The score sheet: after each deal (each side's score, the totals, who won it,
 * in the server's verdict) and at the game's end.
 */

import { el, fill } from "./dom.js";
import { t } from "./i18n.js";
import { figure, outcomeText } from "./words.js";

/**
 * @typedef {import("./i18n.js").Game} Game
 * @typedef {import("./words.js").Names} Names
 * @typedef {{kind: "deal" | "over", msg: Record<string, any>}} Sheet
 */

/**
 * Draw `sheet` into `box` (or empty and hide the box when there is none).
 * @param {HTMLElement} box
 * @param {Sheet | null} sheet
 * @param {number[][]} scores each finished deal's points, by side
 * @param {Game} g
 * @param {Names} names
 * @param {() => void} onClose
 */
export function drawSheet(box, sheet, scores, g, names, onClose) {
  if (!sheet) {
    fill(box);
    box.hidden = true;
    return;
  }
  const over = sheet.kind === "over";
  const rows = over ? sheet.msg.scores : scores;
  const sums = sheet.msg.totals;
  const signed = Boolean(g.par);
  const sides = Array.from({ length: g.n_sides }, (_, i) => i);
  const body = rows.map((/** @type {number[]} */ pts, /** @type {number} */ i) => el("tr", {},
    el("th", { scope: "row" }, t("Deal {n}", { n: i + 1 })),
    sides.map((side) => el("td", {}, figure(pts[side] - g.par, signed)))));
  const verdict = sheet.msg.outcome ? outcomeText(names, sheet.msg.outcome, over ? sums : sheet.msg.points, over) : "";
  const close = el("button", { type: "button", class: "primary", onclick: onClose }, over ? t("Close") : t("Continue"));
  const again = over ? el("button", { type: "button", class: "again", onclick: () => { location.assign("/"); } }, t("New table")) : null;
  fill(box, el("div", { class: "sheet", role: "dialog", "aria-modal": "true", "aria-labelledby": "sheet-title", "data-kind": sheet.kind },
    el("h2", { id: "sheet-title" }, over ? t("Final score") : t("Score sheet")),
    el("p", { class: "verdict" }, verdict),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("Deal")), sides.map((side) => el("th", { scope: "col" }, names.sideName(side))))),
      el("tbody", {}, body),
      el("tfoot", {}, el("tr", {}, el("th", { scope: "row" }, t("Total")), sides.map((side) => el("td", {}, figure(sums[side], signed)))))),
    close, again));
  box.hidden = false;
}

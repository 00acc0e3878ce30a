// @ts-check
/**
 * The seat's view of its table, as the server's snapshots give it, and each
 * event folded in (the same fold as engine/view.py's `advance`).  It only keeps
 * what the events say: who played what, who took a trick (the server names the
 * winner), the deal's points (the server's score); the game's facts it needs
 * (sides, cards in a hand) are data from the catalog.  Nothing here decides
 * what may be played: the server's `options` do.
 */

/**
 * @typedef {{variant: string, seat: number, n_deals: number, phase: number, deal_no: number,
 *   dealer: number, hand: string[], discard: string[], discard_trumps: number, turn: number,
 *   leader: number, trick: string[], trick_no: number, hand_sizes: number[], played: string[][],
 *   piles: string[][], tricks_won: number[], scores: number[][], history: [number, string[]][],
 *   stock: string[]}} View
 * @typedef {import("./i18n.js").Game} Game
 * @typedef {Record<string, any>} WireEvent
 */

export const DEAL = 0;
export const DISCARD = 1;
export const PLAY = 2;
export const OVER = 3;

/**
 * @param {string[]} list
 * @param {string[]} take
 */
function without(list, take) {
  const gone = new Set(take);
  return list.filter((c) => !gone.has(c));
}

/**
 * The view after one event as this seat saw it.
 * @param {View} v
 * @param {WireEvent} e
 * @param {Game} g
 * @returns {View}
 */
export function advance(v, e, g) {
  const n = g.n_seats;
  const out = structuredClone(v);
  if (e.type === "deal") {
    const d = e.dealer;
    const mine = v.seat >= 0 ? e.hands[v.seat] || [] : [];
    const stock = v.seat === d ? e.stock || [] : [];
    Object.assign(out, {
      phase: DISCARD, deal_no: v.deal_no + 1, dealer: d, hand: [...mine, ...stock],
      hand_sizes: Array.from({ length: n }, (_, s) => g.hand_cards + (s === d ? g.dealer_extra + g.stock_cards : 0)),
      stock, discard: [], discard_trumps: -1, turn: d, leader: (d + 1) % n, trick: [], trick_no: 0,
      piles: Array.from({ length: g.n_sides }, () => []), tricks_won: Array(g.n_sides).fill(0),
      played: Array.from({ length: n }, () => []), history: [],
    });
  } else if (e.type === "discard") {
    const own = e.seat === v.seat;
    out.hand = own ? without(v.hand, e.cards) : v.hand;
    out.hand_sizes[e.seat] -= g.discard_cards;
    out.discard = own ? e.cards : [];
    out.discard_trumps = typeof e.trumps === "number" ? e.trumps : -1;
    out.phase = PLAY;
    out.turn = v.leader;
  } else if (e.type === "play") {
    const s = e.seat;
    if (s === v.seat) out.hand = without(v.hand, [e.card]);
    out.hand_sizes[s] -= 1;
    out.played[s].push(e.card);
    if (e.card === g.matto) out.piles[g.side[s]].push(e.card);
    out.trick.push(e.card);
    out.turn = out.trick.length < n ? (s + 1) % n : -1;
  } else if (e.type === "trick") {
    const side = g.side[e.winner];
    out.piles[side].push(...e.cards.filter((/** @type {string} */ c) => c !== g.matto));
    out.tricks_won[side] += 1;
    out.history.push([v.leader, e.cards]);
    out.trick = [];
    out.trick_no = v.trick_no + 1;
    out.leader = e.winner;
    out.turn = out.trick_no < g.n_tricks ? e.winner : -1;
  } else if (e.type === "score") {
    out.scores.push(e.points);
    out.phase = out.scores.length >= v.n_deals ? OVER : DEAL;
    out.turn = -1;
  }
  return out;
}

/**
 * The seats that played the current trick's cards, in order.
 * @param {View} v
 * @param {Game} g
 */
export function trickSeats(v, g) {
  return v.trick.map((_, i) => (v.leader + i) % g.n_seats);
}

/**
 * Each side's total so far: the sum of its deal scores (points less the game's par).
 * @param {number[][]} scores
 * @param {Game} g
 */
export function totals(scores, g) {
  const out = Array(g.n_sides).fill(0);
  for (const pts of scores) pts.forEach((p, s) => { out[s] += p - g.par; });
  return out;
}

/**
 * Card points of a pile (data from the catalog).
 * @param {string[]} cards
 * @param {Game} g
 */
export function pilePoints(cards, g) {
  return cards.reduce((sum, c) => sum + (g.points[c] ?? 0), 0);
}

/**
 * A hand in the desktop's order (trumps together strongest first, suits by rank).
 * @param {string[]} hand
 * @param {Game} g
 */
export function sortHand(hand, g) {
  const at = new Map(g.order.map((c, i) => [c, i]));
  return [...hand].sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
}

// @ts-check
/**
 * How the page words what the server says, with the desktop's own texts
 * (game/common/words.py words the same messages): refusals from their reason
 * and data, the discard as the others learn of it, who won a deal or a game
 * from the server's verdict (`outcome`), the standing, the piles.
 */

import { cardList, capital, data, nt, suitName, t } from "./i18n.js";

/**
 * @typedef {import("./i18n.js").Game} Game
 * @typedef {{kind: string, level: string | null, name: string, taken: boolean,
 *   connected: boolean, takeover: string | null}} LobbySeat
 */

/** Who sits where: names for one table as one seat sees it. */
export class Names {
  /**
   * @param {Game} game
   * @param {number} me the viewer's seat (-1: a spectator)
   * @param {LobbySeat[]} seats the lobby's seats
   */
  constructor(game, me, seats) {
    this.game = game;
    this.me = me;
    this.seats = seats;
  }

  /** @param {unknown} seat */
  isYou(seat) {
    return this.me >= 0 && seat === this.me;
  }

  /**
   * A seat's name: "You", a person's own name, or the AI's level.
   * @param {unknown} seat
   */
  name(seat) {
    if (typeof seat !== "number" || seat < 0 || seat >= this.game.n_seats) return "?";
    if (this.isYou(seat)) return t("You");
    const s = this.seats[seat];
    if (s && s.kind === "human" && s.name) return s.name;
    return t(this.game.seat_names[seat]);
  }

  /** @param {number} seat */
  where(seat) {
    return t(this.game.seat_names[seat]);
  }

  /** @param {number} side */
  sideSeats(side) {
    return this.game.side.map((s, seat) => (s === side ? seat : -1)).filter((s) => s >= 0);
  }

  mySide() {
    return this.game.side[this.me >= 0 ? this.me : 0];
  }

  /** "Us" / "Them" for teams, a seat's name for one who plays alone. @param {number} side */
  sideName(side) {
    const seats = this.sideSeats(side);
    if (seats.length === 1) return this.name(seats[0]);
    return side === this.mySide() ? t("Us") : t("Them");
  }
}

/** @type {Record<string, (n: Names, r: Record<string, any>) => string>} */
const REFUSALS = {
  not_in_hand: (n, r) => t("{card} is not in your hand", { card: cardList(r.cards || []) }),
  out_of_turn: (n, r) => t("it is not your turn: {name} is to play", { name: n.name(r.seat) }),
  no_play_due: () => t("no card is due now"),
  must_follow: (n, r) => (r.suit === data().trump_suit
    ? t("trumps were led: you must play a trump")
    : t("you must follow {suit}", { suit: suitName(r.suit) })),
  must_trump: (n, r) => t("you have no {suit}, so you must play a trump", { suit: suitName(r.suit) }),
  discard_size: (n, r) => nt("the discard is {n} card", "the discard is {n} cards", r.count),
  discard_not_held: (n, r) => t("{card} is not in your hand", { card: cardList(r.cards || []) }),
  never_discard: (n, r) => (r.rule === "S4"
    ? t("{cards}: trump 20, Kings and the Matto may not be laid aside", { cards: cardList(r.cards || []) })
    : t("{cards}: never a King, trump 1, trump 21 or the Matto", { cards: cardList(r.cards || []) })),
  discard_trump: () => t("a trump may be discarded only with no other choice, or to keep no trump at all"),
  discard_trumps_max: (n, r) => nt("this hand may discard {n} trump at most",
    "this hand may discard {n} trumps at most", r.count),
  trump1_with_trumps: () => t("trump 1 may be laid aside only by a dealer with no other trump and no Matto"),
  not_dealer: (n, r) => t("only the dealer lays cards aside: {name} deals", { name: n.name(r.seat) }),
  no_discard_due: () => t("no discard is due now"),
};

/** @type {Record<string, () => string>} */
const ERRORS = {
  unknown_table: () => t("No table has this code"),
  seat_taken: () => t("This seat is taken"),
  started: () => t("The game has started"),
  game_over: () => t("The game is over"),
  not_your_turn: () => t("The AI plays your seat now"),
  table_full: () => t("This table is full"),
  bad_token: () => t("This seat is no longer yours"),
};

/**
 * A refused command or request in words.
 * @param {Names} names
 * @param {Record<string, any>} err the server's error
 * @param {string | null} card the card that was played, if one was
 */
export function refusal(names, err, card) {
  if (err.code === "illegal_move" && err.reason && REFUSALS[err.reason]) {
    let text = REFUSALS[err.reason](names, err);
    if (card) {
      const cardWords = cardList([card]);
      if (!text.toLowerCase().includes(cardWords.toLowerCase())) {
        text = t("{card}: {reason}", { card: cardWords, reason: text });
      }
    }
    return capital(text);
  }
  const known = ERRORS[err.code];
  return known ? known() : String(err.text || err.code || "");
}

/**
 * The discard as the others learn of it (its trumps where the game announces them).
 * @param {Names} names
 * @param {number} seat
 * @param {number} count
 * @param {number} trumps
 */
export function discarded(names, seat, count, trumps) {
  const you = names.isYou(seat);
  const name = names.name(seat);
  if (trumps < 0) {
    return you ? nt("You lay {n} card aside", "You lay {n} cards aside", count)
      : nt("{name} lays {n} card aside", "{name} lays {n} cards aside", count, { name });
  }
  if (trumps === 0) {
    return you ? t("Your discard holds no trump") : t("{name}'s discard holds no trump", { name });
  }
  return you ? nt("Your discard holds {n} trump", "Your discard holds {n} trumps", trumps)
    : nt("{name}'s discard holds {n} trump", "{name}'s discard holds {n} trumps", trumps, { name });
}

/**
 * A figure with a true minus sign; `signed`: a plus on gains too.
 * @param {number} v
 * @param {boolean} signed
 */
export function figure(v, signed) {
  const text = signed && v > 0 ? `+${v}` : String(v);
  return text.replace("-", "\u2212");
}

/**
 * Where the game stands: "Deal 2 of 4 · Match: Us 64, Them 50".
 * @param {Names} names
 * @param {number} dealNo
 * @param {number} nDeals
 * @param {number[]} sums
 * @param {number} scored
 */
export function standing(names, dealNo, nDeals, sums, scored) {
  if (nDeals <= 1 || dealNo < 1) return "";
  const deal = t("Deal {n} of {total}", { n: dealNo, total: nDeals });
  if (!scored) return deal;
  const g = names.game;
  const sides = sums.map((v, s) => `${names.sideName(s)} ${figure(v, Boolean(g.par))}`).join(", ");
  return g.n_sides < g.n_seats ? t("{deal} · Match: {sides}", { deal, sides })
    : t("{deal} · Game: {sides}", { deal, sides });
}

/**
 * A side's pile during play: "Us: 17 points, 2 tricks".
 * @param {Names} names
 * @param {number} side
 * @param {number} points
 * @param {number} tricks
 */
export function pileLine(names, side, points, tricks) {
  return t("{side}: {points}, {tricks}", {
    side: names.sideName(side),
    points: nt("{n} point", "{n} points", points),
    tricks: nt("{n} trick", "{n} tricks", tricks),
  });
}

/**
 * Who won or lost a deal or the game, from the server's verdict.
 * @param {Names} names
 * @param {{winners: number[], losers: number[]}} outcome
 * @param {number[]} points by side (the deal's points, or the game's totals)
 * @param {boolean} whole
 */
export function outcomeText(names, outcome, points, whole) {
  const g = names.game;
  const draw = outcome.losers.length === 0;
  if (g.n_sides < g.n_seats) {
    const mine = names.mySide();
    const a = points[mine];
    const b = points[1 - mine];
    if (draw) return whole ? t("The match is drawn, {a} all", { a }) : t("A draw: {a} all", { a });
    if (outcome.winners.includes(mine)) {
      return whole ? t("We win the match, {a} to {b}!", { a, b }) : t("We win the deal, {a} to {b}!", { a, b });
    }
    return whole ? t("They win the match, {b} to {a}", { a, b }) : t("They win the deal, {b} to {a}", { a, b });
  }
  if (draw) return whole ? t("The game is drawn: every total is equal") : t("A draw: every count is equal");
  const you = outcome.losers.filter((s) => names.isYou(s));
  const others = outcome.losers.filter((s) => !names.isYou(s)).map((s) => names.name(s));
  if (you.length && !others.length) {
    return whole ? t("You have the lowest total: you lose the game") : t("You have the lowest count: you lose the deal");
  }
  if (you.length) {
    return whole ? t("You and {name} share the lowest total: you both lose", { name: others[0] })
      : t("You and {name} share the lowest count", { name: others[0] });
  }
  const list = others.length > 1
    ? t("{first} and {last}", { first: others.slice(0, -1).join(", "), last: others[others.length - 1] })
    : others[0];
  if (whole) {
    return nt("{names} has the lowest total and loses the game",
      "{names} share the lowest total and lose the game", others.length, { names: list });
  }
  return nt("{names} has the lowest count and loses the deal",
    "{names} share the lowest count and lose the deal", others.length, { names: list });
}

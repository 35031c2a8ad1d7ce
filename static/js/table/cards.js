// Cards as people see them: rank and suit symbols, colours, spoken names, a sort order for the
// hand. Presentation only: what may be melded or taken is decided by the server.
//
// Notation (games/engine/cards.py): rank + suit ("7H", "TS"), "JK" for a joker, a physical copy
// after "#" ("7H#2", "JK#3") and, for a joker, the card it stands for in parentheses ("JK#3(8H)").

import { cardName as spokenName } from "../i18n.js";

const CARD_RE = /^(?:([2-9TJQKA])([SHDC])|(JK))(?:#(\d+))?(?:\(([2-9TJQKA])([SHDC])\))?$/;

export const SUITS = ["S", "H", "D", "C"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K"];

/** @type {Record<string, string>} */
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
/** @type {Record<string, string>} */
const RANK_SHOWN = { T: "10" };
// Display order in the hand: suits apart by colour, ace after the king, jokers last.
/** @type {Record<string, number>} */
const SORT_SUIT = { S: 0, H: 1, C: 2, D: 3 };
/** @type {Record<string, number>} */
const SORT_RANK = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };

/**
 * @typedef {object} Card a card read from the engine's notation
 * @property {string} text as it was written
 * @property {boolean} joker
 * @property {string} rank "2"…"A", or "JK"
 * @property {string} suit "S", "H", "D", "C", or "" for a joker
 * @property {number} copy the physical copy (0: none written)
 * @property {string | null} standsFor a joker's declaration ("8H"), if any
 * @property {string} id the physical card without its declaration ("JK#3")
 */

/**
 * @typedef {object} CardFace what is printed on a card
 * @property {string} rank
 * @property {string} suit
 * @property {boolean} red
 * @property {boolean} joker
 * @property {CardFace | null} standsFor
 */

/**
 * Read a card written in the engine's notation; null if it is not a card.
 * @param {string} text
 * @returns {Card | null}
 */
export function parseCard(text) {
  const m = CARD_RE.exec(String(text));
  if (!m) return null;
  const joker = Boolean(m[3]);
  return {
    text: String(text),
    joker,
    rank: joker ? "JK" : m[1],
    suit: joker ? "" : m[2],
    copy: m[4] ? Number(m[4]) : 0,
    standsFor: m[5] ? m[5] + m[6] : null,
    // The physical card without its declaration: what a hand lists and a move names.
    id: (joker ? "JK" : m[1] + m[2]) + (m[4] ? `#${m[4]}` : ""),
  };
}

/**
 * "7H#2" -> "7H"; "JK#1(5D)" -> "JK".
 * @param {string} text
 */
export function faceOf(text) {
  const card = parseCard(text);
  return card ? (card.joker ? "JK" : card.rank + card.suit) : String(text);
}

/** @param {string} suit */
export function isRed(suit) {
  return suit === "H" || suit === "D";
}

/**
 * "queen of hearts", "joker", "joker as five of diamonds" — in the page's language (i18n.js:
 * "dama kier", "damă de inimă roșie"); screen readers speak it as the card's name.
 * @param {string} text
 * @param {string} [form] "acc": as the object of a verb
 */
export function cardName(text, form) {
  return spokenName(text, form);
}

/**
 * What is printed on the card: {rank: "10", suit: "♥", red: true}; a joker prints "★".
 * @param {string} text
 * @returns {CardFace}
 */
export function cardFace(text) {
  const card = parseCard(text);
  if (!card) return { rank: String(text), suit: "", red: false, joker: false, standsFor: null };
  if (card.joker) {
    const under = card.standsFor ? cardFace(card.standsFor) : null;
    return { rank: "★", suit: "", red: false, joker: true, standsFor: under };
  }
  return {
    rank: RANK_SHOWN[card.rank] || card.rank,
    suit: SUIT_SYMBOL[card.suit],
    red: isRed(card.suit),
    joker: false,
    standsFor: null,
  };
}

/**
 * Short text such as "10♥" or "★" (for messages and lists).
 * @param {string} text
 */
export function cardShort(text) {
  const face = cardFace(text);
  if (face.joker) return face.standsFor ? `★(${face.standsFor.rank}${face.standsFor.suit})` : "★";
  return face.rank + face.suit;
}

/**
 * A sort key for the hand: by suit then rank ("suit"), or by rank then suit ("rank").
 * @param {string} text
 * @param {string} mode
 * @returns {(number | string)[]}
 */
export function sortKey(text, mode) {
  const card = parseCard(text);
  if (!card) return [9, 99, 99, String(text)];
  if (card.joker) return [9, 99, card.copy, card.id];
  const suit = SORT_SUIT[card.suit];
  const rank = SORT_RANK[card.rank];
  return mode === "rank" ? [0, rank, suit, card.id] : [0, suit, rank, card.id];
}

/**
 * @param {(number | string)[]} a
 * @param {(number | string)[]} b
 */
export function compareKeys(a, b) {
  for (let i = 0; i < a.length; i += 1) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

/**
 * The faces a joker could be declared as, to offer in a picker: the missing suits of one rank,
 * or the ranks of one suit, judged only from the natural cards beside it (the server checks).
 * @param {string[]} cardsBeside
 * @returns {string[]}
 */
export function declarationChoices(cardsBeside) {
  const naturals = /** @type {Card[]} */ (cardsBeside.map((c) => parseCard(c)).filter((c) => c && !c.joker));
  const ranks = new Set(naturals.map((c) => c.rank));
  const suits = new Set(naturals.map((c) => c.suit));
  if (naturals.length && ranks.size === 1) {
    const [rank] = ranks;
    return SUITS.map((suit) => rank + suit);
  }
  if (naturals.length && suits.size === 1) {
    const [suit] = suits;
    return RANKS.map((rank) => rank + suit);
  }
  return SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
}

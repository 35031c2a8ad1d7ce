// The rack (RMI-UI-1..5, RMI-Q25): one card per slot, in the order the player put them. Plain
// data: `slots` is an array of card keys or null (an empty slot). Nothing here knows a rule: a
// block of three or more cards between empty slots is sent to the server, which says whether it
// is a meld and what it is worth (games/play/views/table.py).
//
// The order is kept in localStorage per match and seat, so it survives frames and reloads; cards
// that leave the hand disappear from it, new cards go to the first free slot with no card beside it.

/** Empty slots the rack always has beyond its cards (RMI-Q25: always more slots than cards). */
export const SPARE = 4;
/** The smallest rack. */
export const MIN_SLOTS = 16;
/** Cards side by side that make a block (RMI-UI-5). */
export const BLOCK_MIN = 3;

/** @typedef {(string | null)[]} Slots the rack: a card key per slot, null where it is empty */

/**
 * @param {string} matchId
 * @param {number | string} seat a seat's number, or "watch"
 */
export function storageKey(matchId, seat) {
  return `remi.rack.${matchId}.${seat}`;
}

/**
 * @param {string} key
 * @returns {Slots | null} null: none kept
 */
export function load(key) {
  try {
    const raw = JSON.parse(localStorage.getItem(key) || "null");
    return Array.isArray(raw) ? raw.map((k) => (typeof k === "string" ? k : null)) : null;
  } catch {
    return null;
  }
}

/**
 * @param {string} key
 * @param {Slots} slots
 */
export function save(key, slots) {
  try {
    localStorage.setItem(key, JSON.stringify(trimEnd(slots)));
  } catch {
    // A full or forbidden storage only loses the order across reloads.
  }
}

/** @param {Slots} slots */
function trimEnd(slots) {
  let end = slots.length;
  while (end > 0 && slots[end - 1] === null) end -= 1;
  return slots.slice(0, end);
}

/**
 * Pad the rack (never below its cards): MIN_SLOTS at least, and SPARE empty slots after the last
 * card, so there is always room at the end for a new block (RMI-Q25: the rack grows).
 * @param {Slots} slots
 * @returns {Slots}
 */
function sized(slots) {
  const out = trimEnd(slots);
  const want = Math.max(MIN_SLOTS, out.length + SPARE);
  while (out.length < want) out.push(null);
  return out;
}

/**
 * The rack for the cards `keys` (in hand order): cards that left are removed, new ones go to the
 * first free slot with no card beside it, the others stay where the player put them. `slots` may be null (a new rack).
 * @param {Slots | null} slots
 * @param {string[]} keys
 * @returns {Slots}
 */
export function reconcile(slots, keys) {
  const wanted = new Set(keys);
  const seen = new Set();
  const out = (slots || []).map((/** @type {string | null} */ k) => {
    if (k === null || !wanted.has(k) || seen.has(k)) return null;
    seen.add(k);
    return k;
  });
  const fresh = keys.filter((k) => !seen.has(k));
  if (!out.some((k) => k !== null)) {
    // A new rack (none of its cards is still in the hand: a new deal, or no rack kept yet): the
    // cards in hand order from the first slot.
    return sized(fresh);
  }
  for (const key of fresh) out[freeSlotApart(out)] = key;
  return sized(out);
}

/**
 * The first empty slot with no card on either side, so that a card arriving (a draw, a take)
 * joins no block and splits none; at the end, after a gap, when there is none.
 * @param {Slots} out
 */
function freeSlotApart(out) {
  const empty = (/** @type {number} */ i) => i < 0 || i >= out.length || out[i] === null;
  for (let i = 0; i < out.length; i += 1) {
    if (out[i] === null && empty(i - 1) && empty(i + 1)) return i;
  }
  const end = trimEnd(out).length;
  while (out.length < end + 2) out.push(null);
  return end + 1;
}

/**
 * Move `key` to slot `to` (RMI-UI-2): an empty slot takes it; an occupied one gets it inserted
 * there (RMI-UI-3), that card and the ones right behind it shifting one slot along into the first
 * empty slot; the rack grows when nothing is free behind (RMI-Q25).
 * @param {Slots} slots
 * @param {string} key
 * @param {number} to
 * @returns {Slots}
 */
export function moveTo(slots, key, to) {
  const from = slots.indexOf(key);
  const out = [...slots];
  if (from === to || to < 0) return sized(out);
  if (from >= 0) out[from] = null;
  while (out.length <= to) out.push(null);
  if (out[to] !== null) {
    let free = out.indexOf(null, to + 1);
    if (free < 0) {
      out.push(null);
      free = out.length - 1;
    }
    for (let i = free; i > to; i -= 1) out[i] = out[i - 1];
  }
  out[to] = key;
  return sized(out);
}

/**
 * Swap the card at `from` with its neighbour (step -1 or +1); used by the keyboard.
 * @param {Slots} slots
 * @param {string} key
 * @param {number} step
 * @returns {Slots}
 */
export function nudge(slots, key, step) {
  const from = slots.indexOf(key);
  const to = from + step;
  if (from < 0 || to < 0) return slots;
  const out = [...slots];
  while (out.length <= to) out.push(null);
  [out[from], out[to]] = [out[to], out[from]];
  return sized(out);
}

/**
 * Blocks of BLOCK_MIN+ cards side by side, bounded by empty slots or the rack's edges (RMI-Q25).
 * @param {Slots} slots
 * @returns {{start: number, keys: string[]}[]}
 */
export function blocks(slots) {
  /** @type {{start: number, keys: string[]}[]} */
  const out = [];
  let start = -1;
  for (let i = 0; i <= slots.length; i += 1) {
    const filled = i < slots.length && slots[i] !== null;
    if (filled && start < 0) start = i;
    if (!filled && start >= 0) {
      if (i - start >= BLOCK_MIN) out.push({ start, keys: /** @type {string[]} */ (slots.slice(start, i)) });
      start = -1;
    }
  }
  return out;
}

// --- auto-sort -------------------------------------------------------------------------------------
// Presentation only: cards of one suit in rank order ("runs") or of one rank ("sets"), an empty
// slot between groups, so that likely melds stand as blocks; the server says which ones are.

/** @type {Record<string, number>} */
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 };
/** @type {Record<string, number>} */
const RANK_ORDER = { 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9, T: 10, J: 11, Q: 12, K: 13, A: 14 };

/** @typedef {{joker: boolean, key: string, rank?: number, suit?: number}} SortCard */
/** @typedef {{joker: false, key: string, rank: number, suit: number}} NaturalCard */

/**
 * @param {string} key
 * @param {(key: string) => string} textOf
 * @returns {SortCard}
 */
function parts(key, textOf) {
  const text = textOf(key);
  const m = /^([2-9TJQKA])([SHDC])/.exec(text);
  if (!m) return { joker: true, key };
  return { joker: false, key, rank: RANK_ORDER[m[1]], suit: SUIT_ORDER[m[2]] };
}

/**
 * Split cards (one suit, sorted by rank) into chains of consecutive ranks; duplicates start new chains.
 * @param {NaturalCard[]} cards
 * @returns {NaturalCard[][]}
 */
function chains(cards) {
  /** @type {NaturalCard[][]} */
  const out = [];
  let rest = cards;
  while (rest.length) {
    /** @type {NaturalCard[]} */
    const chain = [];
    /** @type {NaturalCard[]} */
    const left = [];
    for (const card of rest) {
      const last = chain[chain.length - 1];
      if (!last || card.rank === last.rank + 1) chain.push(card);
      else if (card.rank === last.rank) left.push(card);
      else {
        out.push([...chain]);
        chain.length = 0;
        chain.push(card);
      }
    }
    if (chain.length) out.push(chain);
    rest = left;
  }
  return out;
}

/**
 * Slots for `keys` sorted by `mode` ("runs" or "sets"), an empty slot between groups, jokers last.
 * `textOf(key)` gives the card text of a key (a joker freed by an exchange is "JK").
 * @param {string[]} keys
 * @param {string} mode
 * @param {(key: string) => string} [textOf]
 * @returns {Slots}
 */
export function arrange(keys, mode, textOf = (k) => k) {
  const cards = keys.map((k) => parts(k, textOf));
  const jokers = cards.filter((c) => c.joker);
  const naturals = /** @type {NaturalCard[]} */ (cards.filter((c) => !c.joker));
  /** @type {SortCard[][]} */
  const groups = [];
  if (mode === "sets") {
    /** @type {Map<number, NaturalCard[]>} */
    const byRank = new Map();
    for (const c of naturals.sort((a, b) => a.rank - b.rank || a.suit - b.suit)) {
      if (!byRank.has(c.rank)) byRank.set(c.rank, []);
      /** @type {NaturalCard[]} */ (byRank.get(c.rank)).push(c);
    }
    groups.push(...byRank.values());
  } else {
    for (let suit = 0; suit < 4; suit += 1) {
      const ofSuit = naturals.filter((c) => c.suit === suit).sort((a, b) => a.rank - b.rank);
      // Short chains of one suit stay together; long ones stand apart as blocks.
      /** @type {NaturalCard[]} */
      let small = [];
      for (const chain of chains(ofSuit)) {
        if (chain.length >= BLOCK_MIN) {
          groups.push(chain);
        } else small = small.concat(chain);
      }
      if (small.length) groups.push(small);
    }
  }
  if (jokers.length) groups.push(jokers);
  /** @type {Slots} */
  const slots = [];
  for (const group of groups) {
    if (slots.length) slots.push(null);
    for (const c of group) slots.push(c.key);
  }
  return sized(slots);
}

// The move being put together before it is sent: new melds, lay-offs, joker exchanges and, when
// the turn starts by taking from the discard pile/row, the card taken. Plain data; the server
// decides whether the move is legal.
//
// Cards are referred to by a local key. For a card in the hand, taken from the discard pile or
// the atu, the key is its id ("7H#2"). A joker freed by an exchange in this same move has no id
// on our side: its key is "freed:<n>" and it is sent as a bare "JK" (the engine reads a bare JK
// in an exchange play as the joker just freed). A joker's declaration is kept apart and written
// after its id: "JK#3(8H)".

/**
 * @typedef {object} PoolItem a card the player may build with
 * @property {string} key the draft's key for it (a card id, or "freed:<n>")
 * @property {string} wire how a move names it
 * @property {string} source "hand", "picked", "along", "freed" or "atu"
 */

/** @returns {Draft} */
export function emptyDraft() {
  return { take: null, melds: [], layoffs: [], exchanges: [], declared: {}, freed: 0 };
}

/** @param {Draft} draft */
export function isEmpty(draft) {
  return !draft.take && !draft.melds.length && !draft.layoffs.length && !draft.exchanges.length;
}

/** @param {Draft} draft */
export function hasPlay(draft) {
  return draft.melds.length > 0 || draft.layoffs.length > 0 || draft.exchanges.length > 0;
}

/**
 * Every key the draft has placed somewhere.
 * @param {Draft} draft
 * @returns {Set<string>}
 */
export function usedKeys(draft) {
  /** @type {Set<string>} */
  const used = new Set();
  for (const meld of draft.melds) meld.forEach((key) => used.add(key));
  for (const layoff of draft.layoffs) layoff.cards.forEach((key) => used.add(key));
  for (const exchange of draft.exchanges) used.add(exchange.card);
  return used;
}

/**
 * The cards the player may build with now, in hand order: the hand, the cards a take brings
 * along, jokers freed by exchanges, and the atu (Remi). Cards already placed are left out.
 * Each item is {key, wire, source}.
 * @param {Draft} draft
 * @param {View} view
 * @param {string[]} handOrder the hand's cards in the order shown
 * @returns {PoolItem[]}
 */
export function pool(draft, view, handOrder) {
  /** @type {PoolItem[]} */
  const items = handOrder.map((id) => ({ key: id, wire: id, source: "hand" }));
  if (draft.take) {
    const index = view.discard.lastIndexOf(draft.take);
    for (const id of view.discard.slice(index)) {
      items.push({ key: id, wire: id, source: id === draft.take ? "picked" : "along" });
    }
  }
  // A meld gives back at most the jokers it holds: Remik 40's set of three takes two exchanges
  // (both missing cards) for its one joker.
  const jokersIn = (/** @type {number} */ meldId) => {
    const meld = (view.melds || []).find((m) => m.id === meldId);
    return meld ? meld.cards.filter((c) => /^JK/.test(c)).length : 1;
  };
  /** @type {Map<number, number>} */
  const perMeld = new Map();
  for (const ex of draft.exchanges) {
    const count = perMeld.get(ex.meld) || 0;
    perMeld.set(ex.meld, count + 1);
    if (count < jokersIn(ex.meld)) items.push({ key: ex.freedKey, wire: "JK", source: "freed" });
  }
  if (view.atu && view.atu_taken_by === null) items.push({ key: view.atu, wire: view.atu, source: "atu" });
  const used = usedKeys(draft);
  return items.filter((item) => !used.has(item.key));
}

/**
 * @param {Draft} draft
 * @param {string} key
 */
function wireOf(draft, key) {
  const base = key.startsWith("freed:") ? "JK" : key;
  const declared = draft.declared[key];
  return declared ? `${base}(${declared})` : base;
}

/**
 * The move to send, as docs/protocol.md writes it.
 * @param {Draft} draft
 * @returns {{kind: string, card?: string, exchanges?: {meld: number, card: string}[], melds?: string[][],
 *   layoffs?: {meld: number, cards: string[]}[]}}
 */
export function toMove(draft) {
  /** @type {ReturnType<typeof toMove>} */
  const move = { kind: draft.take ? "take" : "play" };
  if (draft.take) move.card = draft.take;
  if (draft.exchanges.length) {
    move.exchanges = draft.exchanges.map((ex) => ({ meld: ex.meld, card: wireOf(draft, ex.card) }));
  }
  if (draft.melds.length) move.melds = draft.melds.map((meld) => meld.map((key) => wireOf(draft, key)));
  if (draft.layoffs.length) {
    move.layoffs = draft.layoffs.map((lo) => ({ meld: lo.meld, cards: lo.cards.map((k) => wireOf(draft, k)) }));
  }
  return move;
}

// --- changes (each returns a new draft) ----------------------------------------------------------

/**
 * @param {Draft} draft
 * @returns {Draft}
 */
function copy(draft) {
  return {
    ...draft,
    melds: draft.melds.map((meld) => [...meld]),
    layoffs: draft.layoffs.map((lo) => ({ ...lo, cards: [...lo.cards] })),
    exchanges: draft.exchanges.map((ex) => ({ ...ex })),
    declared: { ...draft.declared },
  };
}

/**
 * @param {Draft} _draft the draft it replaces
 * @param {string} card
 * @returns {Draft}
 */
export function startTake(_draft, card) {
  return { ...emptyDraft(), take: card };
}

/**
 * @param {Draft} draft
 * @param {string[]} keys
 */
export function addMeld(draft, keys) {
  const next = copy(draft);
  next.melds.push([...keys]);
  return next;
}

/**
 * @param {Draft} draft
 * @param {number} meldId
 * @param {string[]} keys
 */
export function addLayoff(draft, meldId, keys) {
  const next = copy(draft);
  const existing = next.layoffs.find((lo) => lo.meld === meldId);
  if (existing) existing.cards.push(...keys);
  else next.layoffs.push({ meld: meldId, cards: [...keys] });
  return next;
}

/**
 * @param {Draft} draft
 * @param {number} meldId
 * @param {string} key
 */
export function addExchange(draft, meldId, key) {
  const next = copy(draft);
  next.exchanges.push({ meld: meldId, card: key, freedKey: `freed:${next.freed}` });
  next.freed += 1;
  return next;
}

/**
 * Put the cards of new melds written in notation (e.g. the suggested opening) into the draft.
 * @param {Draft} draft
 * @param {string[][]} melds
 */
export function addMeldsFromText(draft, melds) {
  let next = copy(draft);
  for (const meld of melds) {
    /** @type {string[]} */
    const keys = [];
    for (const text of meld) {
      const m = /^([^()]+)(?:\(([^()]+)\))?$/.exec(text);
      const key = m ? m[1] : text;
      if (m && m[2]) next.declared[key] = m[2];
      keys.push(key);
    }
    next = addMeld(next, keys);
  }
  return next;
}

/**
 * @param {Draft} next
 * @param {string[]} keys
 */
function forget(next, keys) {
  for (const key of keys) delete next.declared[key];
}

/**
 * @param {Draft} draft
 * @param {number} index
 */
export function removeMeld(draft, index) {
  const next = copy(draft);
  const [removed] = next.melds.splice(index, 1);
  forget(next, removed || []);
  return next;
}

/**
 * @param {Draft} draft
 * @param {number} index
 */
export function removeLayoff(draft, index) {
  const next = copy(draft);
  const [removed] = next.layoffs.splice(index, 1);
  forget(next, removed ? removed.cards : []);
  return next;
}

/**
 * @param {Draft} draft
 * @param {number} index
 */
export function removeExchange(draft, index) {
  const next = copy(draft);
  const [removed] = next.exchanges.splice(index, 1);
  if (removed) {
    // The joker it freed goes back to the table: take it out of wherever it was placed.
    next.melds = next.melds.map((meld) => meld.filter((key) => key !== removed.freedKey));
    next.layoffs = next.layoffs.map((lo) => ({ ...lo, cards: lo.cards.filter((k) => k !== removed.freedKey) }));
    forget(next, [removed.freedKey, removed.card]);
  }
  return next;
}

/**
 * Move a card of a new meld one place left (-1) or right (+1).
 * @param {Draft} draft
 * @param {number} meldIndex
 * @param {number} cardIndex
 * @param {number} step
 */
export function shiftInMeld(draft, meldIndex, cardIndex, step) {
  const next = copy(draft);
  const meld = next.melds[meldIndex];
  const target = cardIndex + step;
  if (!meld || target < 0 || target >= meld.length) return draft;
  [meld[cardIndex], meld[target]] = [meld[target], meld[cardIndex]];
  return next;
}

/**
 * @param {Draft} draft
 * @param {string} key
 * @param {string} face "" or null: undeclared
 */
export function declare(draft, key, face) {
  const next = copy(draft);
  if (face) next.declared[key] = face;
  else delete next.declared[key];
  return next;
}

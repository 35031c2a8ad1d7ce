// The notes of the engine's score lines in the player's language (docs/i18n.md, score notes).
// A note the engine wrote ("knocked with 5 against 12: 7 (GIN-19)") is read back into its kind and
// values with the kinds of games/engine/notes.py (note_kinds.js, generated), and said as the kind's
// sentence without rule ids ("pukanie z 5 przeciw 12: 7"); noteRules() gives the ids for a small
// tag beside it. A text of no kind stays as written. The server does the same in
// games/shared/i18n_rules.py (score_note).

import { cardShort } from "./cards.js";
import { KINDS, TEXT_FIELDS } from "./note_kinds.js";

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let patterns = null;
function compiled() {
  if (!patterns) {
    // The kind with the most words of its own first (as games/engine/notes.py reads them): a name
    // in a shorter kind could otherwise swallow what a longer one says after it.
    const own = (english) => english.replace(/\{\w+\}/g, "").length;
    const kinds = Object.entries(KINDS).sort((a, b) => own(b[1][0]) - own(a[1][0]));
    patterns = kinds.map(([code, [english]]) => {
      const source = /** @type {string} */ (english)
        .split(/\{(\w+)\}/)
        .map((part, index) => (index % 2 === 0 ? escape(part) : TEXT_FIELDS.has(part) ? `(?<${part}>.+?)` : `(?<${part}>[+-]?\\d+)`))
        .join("");
      return [code, new RegExp(`^${source}$`)];
    });
  }
  return patterns;
}

/** The kind and values of a note the engine wrote, or null. */
export function readNote(note) {
  for (const [code, pattern] of compiled()) {
    const found = pattern.exec(String(note));
    if (found) return { code, values: { ...found.groups } };
  }
  return null;
}

/** The note as a sentence in the page's language, without its rule ids. */
export function noteText(note) {
  const found = readNote(note);
  if (!found) return String(note);
  const values = { ...found.values };
  if (values.card) values.card = cardShort(values.card);
  return KINDS[found.code][2](values);
}

/** The rule ids the note cites, for a tag beside its sentence. */
export function noteRules(note) {
  const found = readNote(note);
  return found ? KINDS[found.code][1] : [];
}

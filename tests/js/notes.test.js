// The score notes in the table (static/js/table/notes.js; docs/i18n.md, score notes): read back
// into their kind, said without rule ids, the ids apart.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { noteRules, noteText, readNote } from "../../static/js/table/notes.js";

afterEach(() => {
  delete globalThis.window;
});

describe("score notes", () => {
  test("a note is read into its kind and values; the longer kind wins over a name", () => {
    assert.deepEqual(readNote("knocked with 5 against 12: 7 (GIN-19)"), {
      code: "gin_knock",
      values: { points: "5", opponent: "12", score: "7" },
    });
    assert.equal(readNote("chips -15 (5 to Ala, 10 to the pool, K108-23)").code, "k108_chips_paid_pool");
    assert.equal(readNote("something else"), null);
  });

  test("the sentence has no rule id; the ids come apart", () => {
    assert.equal(noteText("entry stake: 10 chips into the pool (K108-22)"), "entry stake: 10 chips into the pool");
    assert.deepEqual(noteRules("knocked with 2 (K108-14, K108-20)"), ["K108-14", "K108-20"]);
    assert.equal(noteText("doubled: the first up-card 7S is a spade (OKL-4)"), "doubled: the first up-card 7♠ is a spade");
    assert.equal(noteText("not a note"), "not a note");
  });

  test("with a catalog, the sentence is the translation with the values put back", () => {
    const pl = { "knocked with %(points)s": "pukanie z %(points)s" };
    globalThis.window = { gettext: (id) => pl[id] ?? id };
    assert.equal(noteText("knocked with 2 (K108-14, K108-20)"), "pukanie z 2");
  });
});

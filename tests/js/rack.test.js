// The rack's plain functions (static/js/table/rack.js; docs/table.md, RMI-UI-1..5, RMI-Q25).
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import {
  BLOCK_MIN,
  MIN_SLOTS,
  SPARE,
  arrange,
  blocks,
  load,
  moveTo,
  nudge,
  reconcile,
  save,
  storageKey,
} from "../../static/js/table/rack.js";

/** The cards of a rack, without its trailing empty slots. */
const cards = (slots) => {
  const out = [...slots];
  while (out.length && out[out.length - 1] === null) out.pop();
  return out;
};

describe("reconcile", () => {
  test("a new rack holds the hand in its order from the first slot, padded to the smallest rack", () => {
    const rack = reconcile(null, ["7H", "8H", "9H"]);
    assert.deepEqual(cards(rack), ["7H", "8H", "9H"]);
    assert.equal(rack.length, MIN_SLOTS);
  });

  test("a long hand gets SPARE empty slots after its last card (RMI-Q25: more slots than cards)", () => {
    const hand = Array.from({ length: 15 }, (_, i) => `C${i}`);
    const rack = reconcile(null, hand);
    assert.equal(rack.length, 15 + SPARE);
    assert.deepEqual(rack.slice(15), [null, null, null, null]);
  });

  test("cards still in the hand stay where the player put them; cards that left become empty slots", () => {
    const rack = reconcile(["AS", null, "2S", "3S", null, "9D"], ["AS", "3S", "9D"]);
    assert.deepEqual(cards(rack), ["AS", null, null, "3S", null, "9D"]);
  });

  test("a new card goes to the first empty slot with no card beside it, joining no block", () => {
    const rack = reconcile(["AS", "2S", "3S", null, null, null, "9D"], ["AS", "2S", "3S", "9D", "KC"]);
    assert.deepEqual(cards(rack), ["AS", "2S", "3S", null, "KC", null, "9D"]);
  });

  test("with no slot apart, a new card goes after the last card, one empty slot between", () => {
    const rack = reconcile(["AS", "2S", null, "3S"], ["AS", "2S", "3S", "KC"]);
    assert.deepEqual(cards(rack), ["AS", "2S", null, "3S", null, "KC"]);
  });

  test("a new deal (no card of the rack still in the hand) is laid side by side from the first slot", () => {
    const old = ["AS", "2S", "3S", null, "9H", "9D", "9C", null, "KD", null, null, "5C"];
    const hand = ["4H", "7C", "8C", "JD", "QS", "TS"];
    assert.deepEqual(cards(reconcile(old, hand)), hand);
  });

  test("a card listed twice in the stored rack is kept once", () => {
    assert.deepEqual(cards(reconcile(["AS", "AS", null, "2S"], ["AS", "2S"])), ["AS", null, null, "2S"]);
  });

  test("the rack given is not changed", () => {
    const slots = ["AS", null, "2S"];
    reconcile(slots, ["2S", "KC"]);
    assert.deepEqual(slots, ["AS", null, "2S"]);
  });
});

describe("moveTo and nudge", () => {
  test("a card dropped on an empty slot goes there, its old slot left empty (RMI-UI-2)", () => {
    assert.deepEqual(cards(moveTo(["AS", "2S", null, null], "AS", 3)), [null, "2S", null, "AS"]);
  });

  test("a card dropped on a card is inserted there, the cards behind shifting into the first empty slot (RMI-UI-3)", () => {
    const rack = moveTo(["AS", "2S", "3S", null, "9D"], "9D", 1);
    assert.deepEqual(cards(rack), ["AS", "9D", "2S", "3S"]);
  });

  test("the rack grows when nothing is free behind the insertion (RMI-Q25)", () => {
    const full = Array.from({ length: MIN_SLOTS }, (_, i) => `C${i}`);
    const rack = moveTo(full, "C15", 0);
    assert.equal(rack[0], "C15");
    assert.deepEqual(rack.slice(1, MIN_SLOTS), full.slice(0, 15));
    assert.ok(rack.length >= MIN_SLOTS + SPARE);
  });

  test("a drop on the card's own slot, or before the rack, changes nothing", () => {
    assert.deepEqual(cards(moveTo(["AS", "2S"], "2S", 1)), ["AS", "2S"]);
    assert.deepEqual(cards(moveTo(["AS", "2S"], "2S", -1)), ["AS", "2S"]);
  });

  test("nudge swaps a card with its neighbour, and not past the first slot", () => {
    assert.deepEqual(cards(nudge(["AS", "2S", null], "2S", -1)), ["2S", "AS"]);
    assert.deepEqual(cards(nudge(["AS", "2S"], "2S", 1)), ["AS", null, "2S"]);
    const rack = ["AS", "2S"];
    assert.equal(nudge(rack, "AS", -1), rack);
  });
});

describe("blocks", () => {
  test(`${BLOCK_MIN} or more cards side by side make a block, bounded by empty slots or the edges (RMI-UI-5)`, () => {
    const slots = ["AS", "2S", "3S", null, "9H", "9D", null, "KC", "KD", "KH", "KS"];
    assert.deepEqual(blocks(slots), [
      { start: 0, keys: ["AS", "2S", "3S"] },
      { start: 7, keys: ["KC", "KD", "KH", "KS"] },
    ]);
  });

  test("an empty rack has no block", () => {
    assert.deepEqual(blocks([null, null]), []);
  });
});

describe("arrange", () => {
  test("by runs: one suit's chains of three or more stand apart, short ones together, jokers last", () => {
    const keys = ["9S", "JK#1", "3H", "7S", "8S", "4H", "KD"];
    assert.deepEqual(cards(arrange(keys, "runs")), ["7S", "8S", "9S", null, "3H", "4H", null, "KD", null, "JK#1"]);
  });

  test("by sets: cards of one rank together, ranks in order with the ace high", () => {
    const keys = ["AS", "7H", "7S", "AD", "2C"];
    assert.deepEqual(cards(arrange(keys, "sets")), ["2C", null, "7S", "7H", null, "AS", "AD"]);
  });

  test("a key's card text comes from textOf (a freed joker is a bare JK)", () => {
    const rack = arrange(["freed:0", "5D"], "runs", (key) => (key.startsWith("freed:") ? "JK" : key));
    assert.deepEqual(cards(rack), ["5D", null, "freed:0"]);
  });
});

describe("load and save", () => {
  const store = new Map();
  globalThis.localStorage = {
    getItem: (key) => (store.has(key) ? store.get(key) : null),
    setItem: (key, value) => store.set(key, String(value)),
  };
  afterEach(() => store.clear());

  test("the rack is kept per match and seat, without its trailing empty slots", () => {
    const key = storageKey(12, 1);
    assert.equal(key, "remi.rack.12.1");
    save(key, ["AS", null, "2S", null, null]);
    assert.equal(store.get(key), '["AS",null,"2S"]');
    assert.deepEqual(load(key), ["AS", null, "2S"]);
  });

  test("nothing kept, something that is not a list, or broken JSON: no rack", () => {
    assert.equal(load("remi.rack.1.0"), null);
    store.set("remi.rack.1.0", '{"a": 1}');
    assert.equal(load("remi.rack.1.0"), null);
    store.set("remi.rack.1.0", "[");
    assert.equal(load("remi.rack.1.0"), null);
  });

  test("what is not a card key in a stored rack reads as an empty slot", () => {
    store.set("remi.rack.1.0", '["AS", 3, null, {"x": 1}, "2S"]');
    assert.deepEqual(load("remi.rack.1.0"), ["AS", null, null, null, "2S"]);
  });

  test("a full or forbidden storage loses the order but raises nothing", () => {
    const saved = globalThis.localStorage;
    globalThis.localStorage = {
      setItem() {
        throw new Error("QuotaExceededError");
      },
    };
    try {
      assert.doesNotThrow(() => save("remi.rack.1.0", ["AS"]));
    } finally {
      globalThis.localStorage = saved;
    }
  });
});

// The move being put together on the table (static/js/table/draft.js): plain data turned into the
// move docs/protocol.md writes; the server decides whether it is legal.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  addExchange,
  addLayoff,
  addMeld,
  addMeldsFromText,
  declare,
  emptyDraft,
  hasPlay,
  isEmpty,
  pool,
  removeExchange,
  removeLayoff,
  removeMeld,
  shiftInMeld,
  startTake,
  toMove,
  usedKeys,
} from "../../static/js/table/draft.js";

const VIEW = { discard: ["2C", "5H", "9S", "KD"], melds: [], atu: null, atu_taken_by: null };

describe("building a play", () => {
  test("an empty draft is empty and has no play; a meld makes it a play", () => {
    const draft = emptyDraft();
    assert.ok(isEmpty(draft));
    assert.ok(!hasPlay(draft));
    const next = addMeld(draft, ["7H", "8H", "9H"]);
    assert.ok(!isEmpty(next) && hasPlay(next));
    assert.ok(isEmpty(draft), "each change returns a new draft");
  });

  test("melds and lay-offs become a play move; lay-offs on one meld are gathered", () => {
    let draft = addMeld(emptyDraft(), ["7H", "8H", "9H"]);
    draft = addLayoff(draft, 3, ["TH"]);
    draft = addLayoff(draft, 3, ["JH"]);
    draft = addLayoff(draft, 5, ["QS"]);
    assert.deepEqual(toMove(draft), {
      kind: "play",
      melds: [["7H", "8H", "9H"]],
      layoffs: [
        { meld: 3, cards: ["TH", "JH"] },
        { meld: 5, cards: ["QS"] },
      ],
    });
    assert.deepEqual([...usedKeys(draft)].sort(), ["7H", "8H", "9H", "JH", "QS", "TH"]);
  });

  test("a take names its card and starts a new draft", () => {
    const draft = startTake(addMeld(emptyDraft(), ["AS", "2S", "3S"]), "5H");
    assert.deepEqual(toMove(draft), { kind: "take", card: "5H" });
    assert.deepEqual(toMove(addMeld(draft, ["5H", "5D", "5C"])), {
      kind: "take",
      card: "5H",
      melds: [["5H", "5D", "5C"]],
    });
  });

  test("a joker freed by an exchange is sent as a bare JK, with its declaration after it", () => {
    let draft = addExchange(emptyDraft(), 2, "8H");
    draft = addMeld(draft, ["freed:0", "9C", "TC"]);
    draft = declare(draft, "freed:0", "8C");
    assert.deepEqual(toMove(draft), {
      kind: "play",
      exchanges: [{ meld: 2, card: "8H" }],
      melds: [["JK(8C)", "9C", "TC"]],
    });
    assert.equal(addExchange(draft, 4, "3D").exchanges[1].freedKey, "freed:1");
  });

  test("melds written in notation keep their jokers' declarations (the suggested opening)", () => {
    const draft = addMeldsFromText(emptyDraft(), [["JK#3(8H)", "9H", "TH"], ["5S", "5D", "5C"]]);
    assert.deepEqual(draft.melds, [["JK#3", "9H", "TH"], ["5S", "5D", "5C"]]);
    assert.deepEqual(toMove(draft).melds, [["JK#3(8H)", "9H", "TH"], ["5S", "5D", "5C"]]);
  });

  test("a declaration can be changed and taken back", () => {
    let draft = addMeldsFromText(emptyDraft(), [["JK#1(4D)", "5D", "6D"]]);
    draft = declare(draft, "JK#1", "7D");
    assert.equal(toMove(draft).melds[0][0], "JK#1(7D)");
    assert.equal(toMove(declare(draft, "JK#1", "")).melds[0][0], "JK#1");
  });
});

describe("taking back", () => {
  test("removing a meld or a lay-off forgets its jokers' declarations", () => {
    let draft = addMeldsFromText(emptyDraft(), [["JK#1(4D)", "5D", "6D"]]);
    draft = addLayoff(draft, 1, ["JK#2"]);
    draft = declare(draft, "JK#2", "7S");
    const noMeld = removeMeld(draft, 0);
    assert.deepEqual(noMeld.melds, []);
    assert.deepEqual(noMeld.declared, { "JK#2": "7S" });
    const noLayoff = removeLayoff(noMeld, 0);
    assert.deepEqual(noLayoff.layoffs, []);
    assert.deepEqual(noLayoff.declared, {});
  });

  test("removing an exchange takes the joker it freed out of wherever it was placed", () => {
    let draft = addExchange(emptyDraft(), 2, "8H");
    draft = addMeld(draft, ["freed:0", "9C", "TC"]);
    draft = addLayoff(draft, 4, ["KD"]);
    draft = declare(draft, "freed:0", "8C");
    const back = removeExchange(draft, 0);
    assert.deepEqual(back.exchanges, []);
    assert.deepEqual(back.melds, [["9C", "TC"]]);
    assert.deepEqual(back.layoffs, [{ meld: 4, cards: ["KD"] }]);
    assert.deepEqual(back.declared, {});
  });

  test("removing what is not there changes nothing", () => {
    const draft = addMeld(emptyDraft(), ["AS", "2S", "3S"]);
    assert.deepEqual(removeMeld(draft, 5), draft);
    assert.deepEqual(removeExchange(draft, 0), draft);
  });
});

describe("shiftInMeld", () => {
  test("a card moves one place left or right inside its new meld, never past its ends", () => {
    const draft = addMeld(emptyDraft(), ["9H", "7H", "8H"]);
    assert.deepEqual(shiftInMeld(draft, 0, 1, -1).melds[0], ["7H", "9H", "8H"]);
    assert.deepEqual(shiftInMeld(draft, 0, 2, 1), draft);
    assert.equal(shiftInMeld(draft, 3, 0, 1), draft);
  });
});

describe("pool", () => {
  test("the hand, in its order, without the cards already placed", () => {
    const draft = addMeld(emptyDraft(), ["7H"]);
    assert.deepEqual(
      pool(draft, VIEW, ["AS", "7H", "QD"]).map((item) => [item.key, item.source]),
      [
        ["AS", "hand"],
        ["QD", "hand"],
      ],
    );
  });

  test("a take brings the picked card and every card above it in the row", () => {
    const items = pool(startTake(emptyDraft(), "5H"), VIEW, ["AS"]);
    assert.deepEqual(
      items.map((item) => [item.key, item.source]),
      [
        ["AS", "hand"],
        ["5H", "picked"],
        ["9S", "along"],
        ["KD", "along"],
      ],
    );
  });

  test("an exchange frees at most the jokers its meld holds (Remik 40: two exchanges, one joker)", () => {
    const view = { ...VIEW, melds: [{ id: 7, cards: ["8S", "8D", "JK#1(8C)"] }] };
    let draft = addExchange(emptyDraft(), 7, "8C");
    draft = addExchange(draft, 7, "8H");
    const freed = pool(draft, view, []).filter((item) => item.source === "freed");
    assert.deepEqual(freed, [{ key: "freed:0", wire: "JK", source: "freed" }]);
  });

  test("the atu is offered while nobody has taken it (Remi)", () => {
    assert.deepEqual(pool(emptyDraft(), { ...VIEW, atu: "4C", atu_taken_by: null }, []), [
      { key: "4C", wire: "4C", source: "atu" },
    ]);
    assert.deepEqual(pool(emptyDraft(), { ...VIEW, atu: "4C", atu_taken_by: 1 }, []), []);
  });
});

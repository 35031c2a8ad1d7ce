// Cards as people see them (static/js/table/cards.js): the engine's notation read, faces, short
// texts, the hand's sort order and a joker's possible declarations.
import assert from "node:assert/strict";
import { describe, test } from "node:test";

import {
  cardFace,
  cardName,
  cardShort,
  compareKeys,
  declarationChoices,
  faceOf,
  parseCard,
  sortKey,
} from "../../static/js/table/cards.js";

describe("parseCard", () => {
  test("rank, suit and copy of a natural card", () => {
    assert.deepEqual(parseCard("7H#2"), {
      text: "7H#2",
      joker: false,
      rank: "7",
      suit: "H",
      copy: 2,
      standsFor: null,
      id: "7H#2",
    });
  });

  test("a joker with its declaration: the id leaves the declaration out", () => {
    const card = parseCard("JK#3(8H)");
    assert.equal(card.joker, true);
    assert.equal(card.standsFor, "8H");
    assert.equal(card.id, "JK#3");
  });

  test("what is not a card reads as null", () => {
    for (const text of ["", "1H", "7X", "JK(8)", "7H#"]) assert.equal(parseCard(text), null, text);
  });
});

describe("faces", () => {
  test("the face without copy or declaration", () => {
    assert.equal(faceOf("7H#2"), "7H");
    assert.equal(faceOf("JK#1(5D)"), "JK");
    assert.equal(faceOf("??"), "??");
  });

  test("what is printed: the ten as 10, suit symbols, red suits, a joker's star", () => {
    assert.deepEqual(cardFace("TH"), { rank: "10", suit: "♥", red: true, joker: false, standsFor: null });
    assert.deepEqual(cardFace("QS").red, false);
    assert.deepEqual(cardFace("JK#1(5D)"), {
      rank: "★",
      suit: "",
      red: false,
      joker: true,
      standsFor: { rank: "5", suit: "♦", red: true, joker: false, standsFor: null },
    });
  });

  test("short texts and spoken names", () => {
    assert.equal(cardShort("TH"), "10♥");
    assert.equal(cardShort("JK"), "★");
    assert.equal(cardShort("JK#2(AC)"), "★(A♣)");
    assert.equal(cardName("QH"), "queen of hearts");
  });
});

describe("the hand's order", () => {
  const sorted = (cards, mode) => [...cards].sort((a, b) => compareKeys(sortKey(a, mode), sortKey(b, mode)));

  test("by suit: spades, hearts, clubs, diamonds, each from 2 to the ace; jokers last by copy", () => {
    const hand = ["JK#2", "AD", "2S", "KH", "JK#1", "5C", "AS"];
    assert.deepEqual(sorted(hand, "suit"), ["2S", "AS", "KH", "5C", "AD", "JK#1", "JK#2"]);
  });

  test("by rank: ranks from 2 to the ace, suits in the same order within a rank", () => {
    const hand = ["AD", "2S", "AS", "2D", "9H"];
    assert.deepEqual(sorted(hand, "rank"), ["2S", "2D", "9H", "AS", "AD"]);
  });
});

describe("declarationChoices", () => {
  test("beside a set: the rank in each suit", () => {
    assert.deepEqual(declarationChoices(["8S", "8D", "JK#1"]), ["8S", "8H", "8D", "8C"]);
  });

  test("beside a run: every rank of the suit", () => {
    const choices = declarationChoices(["4H", "5H"]);
    assert.equal(choices.length, 13);
    assert.ok(choices.every((card) => card.endsWith("H")));
  });

  test("beside nothing telling: every card", () => {
    assert.equal(declarationChoices([]).length, 52);
    assert.equal(declarationChoices(["4H", "9S"]).length, 52);
  });
});

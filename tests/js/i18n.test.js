// The scripts' translations (static/js/i18n.js; docs/i18n.md): Django's JavaScript catalog when
// the page has loaded it, English without it.
import assert from "node:assert/strict";
import { afterEach, describe, test } from "node:test";

import { cardName, language, meldKind, pt, rankName, suitName, t, tn } from "../../static/js/i18n.js";

/** A catalog as /jsi18n/ defines it on window, for a few Polish messages. */
function polishCatalog() {
  const messages = {
    "Draw": "Dobierz",
    "%(name)s to move": "Ruch: %(name)s",
    "rank\u0004seven": "siódemka",
    "suit\u0004hearts": "kier",
    "card\u0004%(rank)s of %(suit)s": "%(rank)s %(suit)s",
    "card\u0004joker": "joker",
    "card\u0004joker as %(card)s": "joker jako %(card)s",
    "rank\u0004ace": "as",
    "suit\u0004diamonds": "karo",
    "meld\u0004run": "sekwens",
    "rank, accusative\u0004seven": "siódemkę",
    "rank, accusative\u0004ace": "asa",
    "card, accusative\u0004joker as %(card)s": "jokera jako %(card)s",
  };
  return {
    gettext: (id) => messages[id] ?? id,
    pgettext: (context, id) => messages[`${context}\u0004${id}`] ?? id,
    // Polish: 1, 2-4 (not 12-14), 5+.
    ngettext: (one, _many, n) =>
      n === 1 ? "%(n)s karta" : [2, 3, 4].includes(n % 10) && ![12, 13, 14].includes(n % 100) ? "%(n)s karty" : "%(n)s kart",
  };
}

afterEach(() => {
  delete globalThis.window;
  delete globalThis.document;
});

describe("without a catalog", () => {
  test("the English text comes back, its placeholders filled", () => {
    assert.equal(t("Draw"), "Draw");
    assert.equal(t("%(name)s to move", { name: "Ala" }), "Ala to move");
    assert.equal(pt("rank", "seven"), "seven");
  });

  test("a placeholder with no value stays as written", () => {
    assert.equal(t("%(name)s has %(count)s", { name: "Ala" }), "Ala has %(count)s");
  });

  test("singular or plural by n, n filled in", () => {
    assert.equal(tn("%(n)s card", "%(n)s cards", 1), "1 card");
    assert.equal(tn("%(n)s card", "%(n)s cards", 5), "5 cards");
    assert.equal(tn("%(n)s card of %(name)s", "%(n)s cards of %(name)s", 2, { name: "Ala" }), "2 cards of Ala");
  });

  test("cards are spoken from the engine's notation; a copy number is not spoken", () => {
    assert.equal(cardName("7H"), "seven of hearts");
    assert.equal(cardName("TS#2"), "ten of spades");
    assert.equal(cardName("JK"), "joker");
    assert.equal(cardName("JK#2(5D)"), "joker as five of diamonds");
    assert.equal(cardName("not a card"), "not a card");
  });

  test("ranks, suits and meld kinds by name; unknown ones as they are", () => {
    assert.equal(rankName("10"), "ten");
    assert.equal(rankName("q"), "queen");
    assert.equal(rankName("Z"), "Z");
    assert.equal(suitName("c"), "clubs");
    assert.equal(meldKind("set"), "set");
    assert.equal(meldKind("row"), "row");
  });

  test("the language is English where there is no page", () => {
    assert.equal(language(), "en");
  });
});

describe("with the page's catalog", () => {
  test("messages, contexts and plural forms come from it", () => {
    globalThis.window = polishCatalog();
    assert.equal(t("Draw"), "Dobierz");
    assert.equal(t("%(name)s to move", { name: "Ala" }), "Ruch: Ala");
    assert.equal(meldKind("run"), "sekwens");
    assert.deepEqual(
      [1, 2, 5, 12, 22].map((n) => tn("%(n)s card", "%(n)s cards", n)),
      ["1 karta", "2 karty", "5 kart", "12 kart", "22 karty"],
    );
  });

  test("card names follow the catalog loaded when they are asked for", () => {
    assert.equal(cardName("7H"), "seven of hearts");
    globalThis.window = polishCatalog();
    assert.equal(cardName("7H"), "siódemka kier");
    assert.equal(cardName("JK#1(AD)"), "joker jako as karo");
  });

  test("a card that is the object of a verb takes the accusative (docs/i18n.md)", () => {
    globalThis.window = polishCatalog();
    assert.equal(cardName("7H", "acc"), "siódemkę kier");
    assert.equal(cardName("JK#1(AD)", "acc"), "jokera jako asa karo");
    assert.equal(cardName("7H"), "siódemka kier"); // the name alone stays in the nominative
  });

  test("the language is the page's <html lang>, without its region", () => {
    globalThis.document = { documentElement: { lang: "pl-PL" } };
    assert.equal(language(), "pl");
    globalThis.document = { documentElement: { lang: "" } };
    assert.equal(language(), "en");
  });
});

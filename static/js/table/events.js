// The move log's sentences: one line about what a frame's events say happened, in the page's
// language (docs/i18n.md); the family's own events come from its module.

import { cardName, cardShort } from "./cards.js";
import { describeFamilyEvent, roundOverLine } from "./families/index.js";
import { t, tn } from "../i18n.js";
import { seatName } from "./widgets.js";

/**
 * A stand-in's move, in the third person with the bot as its subject ("the bot for Ala discards
 * …"): never "you …" (even on the page of the seat it plays for) and the player named once.
 */
export function describeStandin(view, seat, events) {
  const names = [...view.names];
  names[seat] = t("the bot for %(name)s", { name: seatName(view, seat) });
  return describeEvents({ ...view, seat: null, names }, events);
}

/** One line about what just happened, from the frame's events. */
export function describeEvents(view, events) {
  const out = [];
  const list = events || [];
  const drewCard = new Set(list.filter((e) => e.kind === "drew_card").map((e) => e.seat));
  for (const e of list) {
    const who = seatName(view, e.seat);
    if (e.kind === "drew" && drewCard.has(e.seat)) continue; // "you drew <card>" says it
    const special = describeFamilyEvent(view, e);
    if (special !== undefined) {
      out.push(special);
      continue;
    }
    // The player's own moves are whole sentences of their own, so that Polish and Romanian can
    // conjugate the verb ("dobierasz", "ai tras"); the others' moves name the player.
    const me = view.seat !== null && e.seat === view.seat;
    switch (e.kind) {
      case "drew": out.push(me ? t("you drew from the stock") : t("%(who)s drew from the stock", { who })); break;
      // Only the seat itself sees its card; a stand-in's line tells it in the third person.
      case "drew_card": out.push(me ? t("you drew %(card)s", { card: cardName(e.card, "acc") }) : t("%(who)s drew %(card)s", { who, card: cardName(e.card, "acc") })); break;
      case "took": {
        const card = cardName(e.card, "acc");
        if (e.depth > 1) {
          out.push(me
            ? tn("you took %(card)s and %(n)s more card from the discards", "you took %(card)s and %(n)s more cards from the discards", e.depth - 1, { card })
            : tn("%(who)s took %(card)s and %(n)s more card from the discards", "%(who)s took %(card)s and %(n)s more cards from the discards", e.depth - 1, { who, card }));
        } else {
          out.push(me ? t("you took %(card)s from the discards", { card }) : t("%(who)s took %(card)s from the discards", { who, card }));
        }
        break;
      }
      case "melded": {
        const cards = e.cards.map(cardShort).join(" ");
        out.push(me ? t("you laid %(cards)s", { cards }) : t("%(who)s laid %(cards)s", { who, cards }));
        break;
      }
      case "laid_off": {
        const cards = e.cards.map(cardShort).join(" ");
        out.push(me ? t("you added %(cards)s to meld %(id)s", { cards, id: e.meld }) : t("%(who)s added %(cards)s to meld %(id)s", { who, cards, id: e.meld }));
        break;
      }
      case "joker_exchanged": out.push(me ? t("you swapped %(card)s for a joker", { card: cardShort(e.card) }) : t("%(who)s swapped %(card)s for a joker", { who, card: cardShort(e.card) })); break;
      case "discarded": out.push(me ? t("you discarded %(card)s", { card: cardName(e.card, "acc") }) : t("%(who)s discarded %(card)s", { who, card: cardName(e.card, "acc") })); break;
      case "round_over": out.push(roundOverText(view, e)); break;
      case "match_over": out.push(t("the match is over")); break;
      case "stock_rebuilt": out.push(t("the stock was rebuilt from the discards")); break;
      default: break;
    }
  }
  return out.join("; ");
}

function roundOverText(view, e) {
  return roundOverLine(view, e);
}

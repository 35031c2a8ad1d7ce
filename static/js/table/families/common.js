// Words and helpers the three rule families' modules share (rummy.js, gin.js, knock108.js).

import { cardShort } from "../cards.js";
import { h } from "../../dom.js";
import { t, tn } from "../../i18n.js";
import { seatName } from "../widgets.js";

// Looked up when asked for, not at import, so that they follow the loaded catalog (i18n.js).
const DECLARED = {
  knock: () => t("a knock"),
  gin: () => t("gin"),
  flush: () => t("a flush"),
  figures: () => t("figures"),
  full_sequence: () => t("a full sequence"),
};

/** How a Knock-108 deal was ended ("a knock", "a flush"…), in the page's language. */
export function declaredName(result) {
  return DECLARED[result] ? DECLARED[result]() : String(result).replace(/_/g, " ");
}

export function who(view, seat) {
  return seat === view.seat && view.seat !== null ? t("you") : seatName(view, seat);
}

export function faces(cards) {
  return cards.map(cardShort).join(" ");
}

/** "… knocked with N loose points", with its own sentence for the player's own knock. */
export function knockedTitle(view, seat, points) {
  if (view.seat !== null && seat === view.seat) {
    return upperFirst(tn("you knocked with %(n)s loose point", "you knocked with %(n)s loose points", points));
  }
  return tn("%(who)s knocked with %(n)s loose point", "%(who)s knocked with %(n)s loose points", points, { who: seatName(view, seat) });
}

export function upperFirst(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "you" starts a sentence as "You"; a player's name is left as it is written. */
export function cap(text) {
  return /^you\b/.test(text) ? `Y${text.slice(1)}` : text;
}

/** A row of the scores table's foot. */
export function footRow(label, cells, cls = "") {
  return h("tr", { class: cls }, h("th", { scope: "row" }, label), cells.map((c) => h("td", {}, c)));
}

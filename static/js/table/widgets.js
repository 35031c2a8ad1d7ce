// Small building blocks shared by the table's regions: a card, a button, a seat's name.

import { cardFace, cardName, parseCard } from "./cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/** A card. Interactive when `onclick` is given (a button), otherwise an image with a name. */
export function cardEl(text, options = {}) {
  const { onclick, key, pressed, note, classes = "", label, disabled, drag, drop } = options;
  const face = cardFace(text);
  const card = parseCard(text);
  const name = label || cardName(text);
  const cls = [
    "card",
    face.red ? "red" : "black",
    face.joker ? "joker" : "",
    card && !card.joker ? `suit-${card.suit}` : "",
    options.consumed ? "consumed" : "",
    classes,
  ]
    .filter(Boolean)
    .join(" ");
  const body = [
    h("span", { class: "card-rank", "aria-hidden": "true" }, face.rank),
    h("span", { class: "card-suit", "aria-hidden": "true" }, face.suit),
    face.standsFor
      ? h("span", { class: `card-as ${face.standsFor.red ? "red" : ""}`, "aria-hidden": "true" },
          face.standsFor.rank + face.standsFor.suit)
      : null,
    note ? h("span", { class: "card-note", "aria-hidden": "true" }, note) : null,
  ];
  const data = { card: card ? card.text : text };
  if (drag) data.drag = drag;
  if (drop) data.drop = drop;
  if (onclick) {
    return h(
      "button",
      {
        type: "button",
        class: cls,
        "aria-label": name,
        "aria-pressed": pressed === undefined ? null : String(Boolean(pressed)),
        dataset: { ...data, key: key || `card:${text}` },
        disabled,
        onclick,
      },
      body,
    );
  }
  return h("span", { class: cls, role: "img", "aria-label": name, dataset: data }, body);
}

/** A row of small face-up cards (not interactive). */
export function cardRow(cards, { label, classes = "" } = {}) {
  return h("span", { class: `card-row ${classes}`.trim(), role: "group", "aria-label": label || null },
    cards.map((c) => cardEl(c)));
}

export function button(label, onclick, { key, disabled, cls = "", title, ariaLabel, ariaExpanded, controls } = {}) {
  return h(
    "button",
    { type: "button", class: `tbtn ${cls}`.trim(), dataset: { key: key || `btn:${label}` }, disabled, title,
      "aria-label": ariaLabel, "aria-expanded": ariaExpanded === undefined ? null : String(Boolean(ariaExpanded)),
      "aria-controls": controls, onclick },
    label,
  );
}

export function formatSeconds(total) {
  const s = Math.max(0, Math.ceil(total));
  const m = Math.floor(s / 60);
  return `${m}:${String(s % 60).padStart(2, "0")}`;
}

export function seatName(view, seat) {
  return seat === null || seat === undefined ? t("nobody") : view.names[seat] || t("seat %(n)s", { n: seat + 1 });
}

/** "+5", "-3", "0". */
export function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

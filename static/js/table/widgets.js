// Small building blocks shared by the table's regions: a card, a button, a seat's name.

import { cardFace, cardName, parseCard } from "./cards.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

/**
 * @typedef {object} CardOptions
 * @property {(() => void) | null} [onclick] a button when given
 * @property {string} [key] the button's data-key (default "card:<text>")
 * @property {boolean} [pressed]
 * @property {string | null} [note] a word under the card ("new", "taken"…)
 * @property {string} [classes]
 * @property {string} [label] what it is called (default: the card's name)
 * @property {boolean} [disabled]
 * @property {string | null} [drag] the payload when it is dragged (drag.js)
 * @property {string | null} [drop] the target it is when something is dropped on it
 * @property {boolean} [consumed]
 */

/**
 * A card. Interactive when `onclick` is given (a button), otherwise an image with a name.
 * @param {string} text
 * @param {CardOptions} [options]
 * @returns {HTMLElement}
 */
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
  /** @type {Record<string, string>} */
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

/**
 * A row of small face-up cards (not interactive).
 * @param {string[]} cards
 * @param {{label?: string, classes?: string}} [options]
 */
export function cardRow(cards, { label, classes = "" } = {}) {
  return h("span", { class: `card-row ${classes}`.trim(), role: "group", "aria-label": label || null },
    cards.map((c) => cardEl(c)));
}

/**
 * A button of the table.
 * @param {any} label its text or its elements
 * @param {((event: Event) => void) | null} onclick
 * @param {{key?: string, disabled?: boolean, cls?: string, title?: string | null, ariaLabel?: string | null,
 *   ariaExpanded?: boolean, controls?: string}} [options]
 * @returns {HTMLElement}
 */
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

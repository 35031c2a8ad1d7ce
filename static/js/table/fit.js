// Fitting the table to the screen after each render: the rack's rows and its blocks' labels, where
// the round's summary lies, which buttons go into the action bar's "More" menu, the discard row's
// cue, and the scrolling areas' positions kept across a render. Measures the DOM, decides nothing.

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { regions } from "./skeleton.js";
import { model, render, root } from "./state.js";

/**
 * A block's value spans its cards, but not past the end of the rack's row when the block wraps:
 * the rack's columns are measured, and each label is cut to the slots left in its row.
 */
export function fitBlockLabels() {
  const rack = document.getElementById("hand");
  const first = rack && rack.querySelector("li.slot");
  if (!first) return;
  const style = getComputedStyle(rack);
  const gap = parseFloat(style.columnGap) || 0;
  const inner = rack.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const cols = Math.max(1, Math.floor((inner + gap) / (first.getBoundingClientRect().width + gap)));
  // The rack reserves the rows its cards need with one slot to spare (a card drawn fits): a
  // phone's 12 or 13 cards take two rows, not a third nearly empty one; the felt gets the rest,
  // and slots past them (the empty slots for arranging) scroll inside the rack.
  // It counts cards, not the slots they reach, so arranging or sorting never resizes it; it keeps
  // the height of its most rows during a deal (at this width): it grows only when the hand grows
  // past a row. A new deal (syncRack) or another width starts again.
  // A card is never out of sight (issue 33, item 7): the rows also reach the last slot that holds
  // a card (a sort's gaps, a drawn card set apart, the cards a take brings along).
  const filled = [...rack.querySelectorAll("li.slot")];
  const cards = filled.filter((li) => !li.classList.contains("empty")).length;
  const last = filled.findLastIndex((li) => !li.classList.contains("empty"));
  const rows = Math.max(1, Math.ceil((cards + 1) / cols), Math.ceil((last + 1) / cols));
  if (model.rackCols !== cols) {
    model.rackRows = 0;
    model.rackCols = cols;
  }
  model.rackRows = Math.min(4, Math.max(model.rackRows || 0, rows));
  const table = document.getElementById("tbl");
  if (table && table.style.getPropertyValue("--rack-rows") !== String(model.rackRows)) table.style.setProperty("--rack-rows", String(model.rackRows));
  for (const label of rack.querySelectorAll(".block-value")) {
    const start = Number(label.dataset.start);
    const length = Number(label.dataset.length);
    label.style.setProperty("--span", String(Math.min(length, cols - (start % cols))));
  }
}


/** Fit again when the window changes size. */
export function installResize() {
  window.addEventListener("resize", () => {
    fitBlockLabels();
    fitControls();
    fitRowCue();
  });
}


/**
 * The round's summary (issue 33, item 6) covers no control: it lies over the felt's melds area,
 * under the stock and the discards; on a phone whose felt has no room for it, over the room the
 * idle action bar leaves below the rack's cards (it is only shown while there is nothing
 * to press: it closes when the seat's turn comes). The match's result stays over the table
 * (nothing is played then). A page that is not the whole-screen table (practice) keeps it over
 * the table as before.
 */
export function placeSummary(f) {
  const el = regions.summary;
  const live = document.documentElement.classList.contains("table-live") && !f.over;
  const scroller = regions.board.querySelector(".board-scroll");
  const idle = regions.mine.querySelector(".controls.idle");
  const rack = document.getElementById("hand");
  // A phone's felt, when it has room (7 rem) for the summary, else the idle bar's room.
  const roomy = scroller && scroller.clientHeight >= 7 * parseFloat(getComputedStyle(document.documentElement).fontSize);
  const inHand = Boolean(live && idle && rack && !roomy && window.matchMedia("(max-width: 40rem)").matches);
  el.classList.toggle("in-felt", Boolean(live && scroller && !inHand));
  el.classList.toggle("in-hand", inHand);
  el.style.removeProperty("--summary-top");
  if (inHand) {
    regions.mine.append(el);
    if (!el.firstChild) return;
    // Below the rows the rack reserves for its cards (--rack-rows, set by fitBlockLabels).
    const hand = /** @type {HTMLElement} */ (rack); // inHand: the rack is there
    const style = getComputedStyle(hand);
    const slot = hand.querySelector("li.slot");
    const rows = Number(getComputedStyle(/** @type {HTMLElement} */ (document.getElementById("tbl"))).getPropertyValue("--rack-rows")) || 1;
    const gap = parseFloat(style.rowGap) || 0;
    const top = hand.offsetTop + hand.clientTop + parseFloat(style.paddingTop) + rows * ((slot ? slot.offsetHeight : 0) + gap);
    el.style.setProperty("--summary-top", `${Math.round(top)}px`);
  } else if (live && scroller) scroller.prepend(el);
  else if (el.parentNode !== regions.mine.parentNode) regions.mine.after(el);
}

// Buttons that go into the action bar's "More" menu first when the bar would take more rows than
// it has (two on a phone, one on a laptop: issue 33, item 7), the least needed first.
const OVERFLOW = ["unselect", "move", "clear", "use-best", "new-meld", "knock", "pass", "take"];

export function fitControls() {
  const bar = document.querySelector("#controls .buttons");
  if (!bar) return;
  const allowed = window.matchMedia("(max-width: 40rem)").matches ? 2 : 1;
  const rows = () => new Set([...bar.children].map((el) => Math.round(el.getBoundingClientRect().top))).size;
  if (rows() <= allowed) return;
  const menu = h("div", { class: "more-menu", id: "more-menu", hidden: !model.moreOpen, role: "group", "aria-label": t("More") });
  const more = h("button", { type: "button", class: `tbtn more${model.moreOpen ? " pressed" : ""}`, dataset: { key: "more" },
    "aria-expanded": String(Boolean(model.moreOpen)), "aria-controls": "more-menu",
    onclick: () => { model.moreOpen = !model.moreOpen; render(); } }, `⋯ ${t("More")}`);
  bar.append(more);
  for (const key of OVERFLOW) {
    if (rows() <= allowed) break;
    const el = bar.querySelector(`:scope > [data-key="${key}"]`);
    if (el) menu.append(el);
  }
  menu.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("button")) {
      model.moreOpen = false;
      render();
    }
  });
  bar.after(menu);
}

/** The Remi / Rummy 500 row's cue: how many older discards are out of sight (issue 33, item 8). */
export function fitRowCue() {
  const cue = /** @type {HTMLButtonElement | null} */ (document.querySelector('[data-key="row-more"]'));
  const row = document.querySelector(".discards.row");
  if (!cue || !row) return;
  if (model.rowOpen) {
    // The whole row, from just below the cue to the bottom of the window.
    row.style.setProperty("--row-top", `${Math.round(cue.getBoundingClientRect().bottom + 4)}px`);
    return;
  }
  const top = row.getBoundingClientRect().top;
  const hidden = [...row.querySelectorAll("li")].filter((li) => li.getBoundingClientRect().bottom <= top + 1).length;
  cue.classList.toggle("none", hidden === 0);
  cue.disabled = hidden === 0;
  const count = /** @type {HTMLElement} */ (cue.querySelector(".row-more-count")); // board.js puts it in the cue
  const text = t("%(n)s more", { n: hidden });
  if (count.textContent !== text) count.textContent = text;
}

/**
 * The scrolling areas (the melds, the discard row, the log, a drawer) are rebuilt on each render:
 * their positions are read before and put back after. The discard row and the log go to their
 * newest end when they grew; the log also when its drawer opens.
 */
export function keepScroll() {
  const kept = {};
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    kept[el.dataset.scrollKey] = { top: el.scrollTop, left: el.scrollLeft, size: el.dataset.scrollSize || "" };
  }
  return kept;
}

export function restoreScroll(kept) {
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    const was = kept[el.dataset.scrollKey || ""];
    const toEnd = el.dataset.scrollEnd === "true" && (!was || was.size !== (el.dataset.scrollSize || ""));
    if (toEnd) el.scrollTop = el.scrollHeight;
    else if (was) {
      el.scrollTop = was.top;
      el.scrollLeft = was.left;
    }
  }
}

// The table's skeleton, built once when the page loads (docs/table.md): the regions each render
// fills, the drawers that open over the table, and the page's own parts the table takes in (the
// chat drawer, the rematch slot, the match's record and the site's header).

import { h } from "../dom.js";
import { pt } from "../i18n.js";
import { DRAWERS, drawerHead } from "./layout.js";
import { focusAfter, model, render, root } from "./state.js";

export const regions = {
  status: h("header", { class: "tbl-status", id: "tbl-status" }),
  seats: h("div", { class: "tbl-seats", id: "tbl-seats" }),
  banner: h("div", { class: "tbl-banner", id: "tbl-banner", "aria-live": "polite" }),
  events: h("p", { class: "tbl-events", id: "tbl-events", "aria-live": "polite" }),
  board: h("section", { class: "tbl-board", id: "tbl-board", "aria-label": pt("region", "table") }),
  mine: h("section", { class: "tbl-mine", id: "tbl-mine", "aria-labelledby": "hand-title" }),
  summary: h("div", { class: "tbl-summary", id: "tbl-summary" }),
  log: h("div", { class: "tbl-log", id: "tbl-log" }),
  players: h("section", { class: "tbl-players", id: "tbl-players", "aria-label": pt("region", "players") }),
  scores: h("section", { class: "tbl-scores", id: "tbl-scores", "aria-label": pt("region", "scores") }),
  settings: h("div", { class: "tbl-settings", id: "tbl-settings" }),
  help: h("div", { class: "tbl-help", id: "tbl-help" }),
};
// Places other modules mount into (docs/table.md): the chat drawer and the rematch slot come
// from the page (match.html); the same elements are kept across renders, so what is mounted in
// them stays. A page without them (practice) gets empty ones.
const matchPage = document.getElementById("match");
const chatDrawer = document.getElementById("drawer-chat") || h("aside", { class: "tbl-drawer", id: "drawer-chat", hidden: true });
if (chatDrawer.querySelector(".drawer-title") && !chatDrawer.querySelector(".drawer-head")) {
  const title = /** @type {HTMLElement} */ (chatDrawer.querySelector(".drawer-title"));
  title.replaceWith(drawerHead("chat", title.textContent, { drawer: openDrawer }));
}
model.rematchSlot = document.getElementById("rematch-slot") || h("div", { class: "rematch-slot", id: "rematch-slot" });
model.hasChat = Boolean(document.getElementById("chat-panel"));
model.roomName = matchPage ? matchPage.dataset.roomName || "" : "";
model.roomUrl = matchPage ? matchPage.dataset.roomUrl || "" : "";
// On the match page the table is the whole screen: the page's record sections go into the
// scores drawer and the site's header into the settings drawer (all still one tap away).
const records = matchPage ? [...matchPage.querySelectorAll(".rounds-record, #match-record")] : [];
const siteHeader = matchPage ? document.querySelector(".site-header") : null;
const drawers = {
  log: h("div", { class: "drawer-slot" }, regions.log),
  scores: h("div", { class: "drawer-slot" }, regions.players, regions.scores, records),
  settings: h("div", { class: "drawer-slot" }, regions.settings, siteHeader),
  help: h("div", { class: "drawer-slot" }, regions.help),
};
/** @type {Record<string, HTMLElement>} */
export const drawerEls = Object.fromEntries(Object.entries(drawers).map(([name, content]) =>
  [name, h("aside", { class: "tbl-drawer", id: `drawer-${name}`, hidden: true, dataset: { drawer: name } },
    drawerHead(name, /** @type {{label: () => string}} */ (DRAWERS.find((d) => d.name === name)).label(), { drawer: openDrawer }),
    h("div", { class: "drawer-body" }, content))]));
drawerEls.chat = chatDrawer;
root.replaceChildren(
  h("div", { class: "tbl", id: "tbl" },
    regions.status,
    regions.seats,
    regions.banner,
    regions.board,
    regions.events,
    regions.mine,
    regions.summary,
    Object.values(drawerEls)),
);
if (matchPage) {
  matchPage.classList.add("live");
  document.documentElement.classList.add("table-live");
}

/**
 * Open the drawer `name` over the table, or close it if it is the one open (null: close).
 * @param {string | null} name
 */
export function openDrawer(name) {
  const opening = name !== null && model.drawer !== name;
  model.drawer = opening ? name : null;
  focusAfter(opening ? `close:${name}` : null);
  render();
  if (opening) {
    const close = /** @type {HTMLElement | null} */ (root.querySelector(`[data-key="close:${name}"]`));
    if (close) close.focus({ preventScroll: true });
    const body = drawerEls[name] && drawerEls[name].querySelector(".drawer-body");
    if (body && name === "log") body.scrollTop = body.scrollHeight;
  }
}

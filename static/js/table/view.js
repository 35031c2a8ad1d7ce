// Drawing the table: every region rebuilt from the model (render.js, board.js, mine.js,
// scores.js, layout.js), then fitted to the screen (fit.js); the focus, the open sections and
// the scroll positions stay where they were.

import { patch } from "../dom.js";
import { turnAlert } from "./alerts.js";
import { renderBoard } from "./board.js";
import { fitBlockLabels, fitControls, fitRowCue, keepScroll, placeSummary, restoreScroll } from "./fit.js";
import { renderHelp, renderLog, renderSeats, renderTopBar } from "./layout.js";
import { actions } from "./actions.js";
import { renderMine } from "./mine.js";
import { rackQuery, scheduleRackCheck, syncRack } from "./rackcheck.js";
import { facts, renderBanner, renderPlayers, renderPrefs, renderSummary } from "./render.js";
import { renderScores } from "./scores.js";
import { drawerEls, regions } from "./skeleton.js";
import { focusAfter, focusFallback, matchVersion, model, root } from "./state.js";

/** The summary of round n closes by itself once the next round's first turn is this seat's. */
function closeSummaryOnTurn(f) {
  const which = model.summaryFor;
  if (!which || model.summaryClosed === which || f.over || f.paused || !f.myTurn) return;
  if (Number(f.view.round) > Number(which.split(":")[1])) model.summaryClosed = which;
}

export function render() {
  const f = facts(model);
  syncRack(f);
  model.rackSig = rackQuery(f).sig;
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : null;
  // Sections the reader opened stay open when the regions are rebuilt.
  const opened = new Set([...root.querySelectorAll("details[data-keep][open]")].map((el) => el.dataset.keep));
  const scrolled = keepScroll();
  closeSummaryOnTurn(f);
  patch(regions.status, renderTopBar(model, f, actions));
  patch(regions.seats, renderSeats(model, f));
  patch(regions.banner, renderBanner(model, f, actions));
  patch(regions.events, model.lastEvents);
  patch(regions.board, renderBoard(model, f, actions));
  patch(regions.mine, renderMine(model, f, actions));
  patch(regions.summary, renderSummary(model, f, actions));
  patch(regions.log, renderLog(model));
  patch(regions.players, renderPlayers(model, f));
  patch(regions.scores, renderScores(model, f));
  patch(regions.settings, renderPrefs(model));
  patch(regions.help, renderHelp());
  for (const [name, el] of Object.entries(drawerEls)) el.hidden = model.drawer !== name;
  restoreScroll(scrolled);
  for (const el of /** @type {NodeListOf<HTMLDetailsElement>} */ (root.querySelectorAll("details[data-keep]"))) el.open = opened.has(el.dataset.keep);
  root.dataset.version = String(matchVersion());
  root.dataset.status = model.status;
  root.dataset.pending = model.pending ? "true" : "false";
  const table = /** @type {HTMLElement} */ (document.getElementById("tbl")); // skeleton.js
  table.classList.toggle("cards-large", model.prefs.large);
  table.classList.toggle("deck-four", model.prefs.four);
  scheduleRackCheck(f);
  fitBlockLabels();
  placeSummary(f);
  fitControls();
  fitRowCue();
  const query = rackQuery(f);
  root.dataset.rack = !query.query ? "off" : model.rackCheck && model.rackCheck.sig === query.sig ? "checked" : "checking";
  rovingRack();
  if (model.error && model.errorShown !== model.error) {
    // A refusal is shown next to the control that was pressed, and scrolled into view.
    model.errorShown = model.error;
    const box = document.getElementById("move-error");
    if (box) box.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
  turnAlert(f);
  // Keep keyboard focus where it was; if that control is gone or disabled, go to a sensible one.
  if (key) {
    const fallback = focusFallback();
    const again = findKey(key) || (fallback && findKey(fallback)) || firstEnabled();
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
  focusAfter(null);
}


function findKey(key) {
  // A control: a button, a select (a joker's declaration), or a link.
  const el = /** @type {HTMLButtonElement | null} */ (root.querySelector(`[data-key="${CSS.escape(key)}"]`));
  return el && !el.disabled ? el : null;
}

function firstEnabled() {
  return root.querySelector("#controls button:not([disabled]), #hand button:not([disabled])");
}

// --- the rack is one tab stop (roving tabindex) ------------------------------------------------

function rovingRack() {
  const cards = [...root.querySelectorAll("#hand button.card")];
  if (!cards.length) return;
  let current = cards.find((el) => el.dataset.key === model.rackFocus);
  if (!current) current = cards.find((el) => el.getAttribute("aria-pressed") === "true") || cards[0];
  for (const el of cards) el.tabIndex = el === current ? 0 : -1;
}

// The playable match page (/matches/<id>/). Entry module: reads the frame embedded in the page,
// keeps the newest state frame from the match socket, and turns clicks and keys into commands
// exactly as docs/protocol.md describes. Nothing here decides a rule: the `you` hints of the
// view say what may be tried, and the server answers.

import { compareKeys, sortKey } from "./cards.js";
import { mount as mountChat } from "./chat.js";
import { MatchConnection, newCommandId } from "./connection.js";
import { h, patch } from "../dom.js";
import { pt, t } from "../i18n.js";
import * as Draft from "./draft.js";
import { installDrag } from "./drag.js";
import { familyOf, takeAlone } from "./families/index.js";
import { DRAWERS, drawerHead, renderHelp, renderLog, renderSeats, renderTopBar } from "./layout.js";
import * as Rack from "./rack.js";
import { mount as mountRematch } from "./rematch.js";
import { renderBoard } from "./board.js";
import { describeEvents, describeStandin } from "./events.js";
import { keyText, rackItems, renderMine } from "./mine.js";
import { facts, formatSeconds, renderBanner, renderPlayers, renderPrefs, renderSummary, timerText } from "./render.js";
import { renderScores } from "./scores.js";

// A page may run the table on another connection than the match socket: it sets
// `window.remiTableHost = {frame, key, connection}` before importing this module (practice plays
// in the browser: docs/practice.md). `connection` has the socket's methods (connection.js) plus
// attach(handlers) and checkRack(query); `frame` is the first frame; `key` names what the page
// keeps (the rack's order).
const host = window.remiTableHost || null;
const root = document.getElementById("table-app");
const initial = host ? host.frame : JSON.parse(document.getElementById("initial-frame").textContent);
const matchId = host ? host.key : document.getElementById("match")?.dataset.matchId || "0";
const seatNo = initial.view.seat;
const rackKey = Rack.storageKey(matchId, seatNo === null || seatNo === undefined ? "watch" : seatNo);
const awayKey = `remi.away.${matchId}`;

// Card display: the account's choice when logged in (the page carries it), else this browser's.
const PREF_ATTR = { large: "cardsLarge", four: "cardsFour", sound: "turnSound" };

function readPref(name) {
  const stored = root.dataset[PREF_ATTR[name]];
  if (stored === "true" || stored === "false") return stored === "true";
  try {
    return localStorage.getItem(`remi.cards.${name}`) === "1";
  } catch {
    return false;
  }
}

function csrfToken() {
  const m = /(?:^|;\s*)csrftoken=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]) : "";
}

/** Keep the display choice with the account (best effort: the page has it already). */
function savePref(name, on) {
  const url = root.dataset.displayUrl;
  if (!url || name === "sound") return; // the sound is this browser's choice only
  const body = name === "large" ? { large: on } : { four_colour: on };
  fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
  }).catch(() => {});
}

const model = {
  frame: initial,
  status: host || root.dataset.authenticated === "true" ? "connecting" : "anonymous",
  statusDetail: "",
  loginUrl: root.dataset.loginUrl || "",
  selected: [], // keys of selected cards, in the order they were picked
  draft: Draft.emptyDraft(),
  sortMode: localStorage.getItem("remi.sort") || "suit",
  error: null, // {code, message} of the last refused command
  pending: null, // the command waiting for its answer
  fresh: [], // cards that just arrived in the hand (highlighted)
  lastEvents: "",
  lastDeal: null, // the newest round_over event seen (its melds and hands, for the end-of-deal summary)
  errorAt: null, // where the last refusal is shown: "discard", "meld:<id>", "lay-all", or the controls
  pendingAt: null, // where the command waiting for its answer came from
  rack: { slots: Rack.load(rackKey) }, // the order of the cards on the rack (rack.js)
  rackSig: "", // the blocks and move the rack check was asked about
  rackCheck: null, // {sig, data}: the server's answer (games/views/table.py)
  rackCheckError: false,
  atuOnRack: false, // the player put the atu on the rack (RMI-UI-11)
  wantSlot: null, // {key, index}: a card dragged from the discards onto the rack, placed when it arrives
  returning: false, // this tab marked the seat away when it left; it takes it back on its own
  prefs: { large: readPref("large"), four: readPref("four"), sound: readPref("sound") },
  drawer: null, // the drawer open over the table ("log", "scores", "chat", "settings", "help"), or null
  log: [], // the move log of this round: {version, text, standin, kind}, oldest first
  logDone: false, // the log's round is over: the next move starts a new log
  summaryFor: null, // "round:<n>" when this page saw round n end (its summary is shown until closed)
  summaryClosed: null, // the summary the player closed ("round:<n>", "over")
  alerts: [], // the turn alerts given ("turn", "clock"), for the tests
  rackFocus: null, // the rack card that is the rack's tab stop
  moving: null, // the rack card being moved by taps ("Move", then a tap on a slot or a card)
  moreOpen: false, // the action bar's "More" menu is open
  rowOpen: false, // the whole Remi / Rummy 500 row is shown over the table
  setPref(name, on) {
    this.prefs = { ...this.prefs, [name]: on };
    try {
      localStorage.setItem(`remi.cards.${name}`, on ? "1" : "0");
    } catch {
      // the choice lasts for this page only
    }
    savePref(name, on);
    render();
  },
  now: () => Date.now(),
  handOrder() {
    const hand = this.frame.view.hand || [];
    return [...hand].sort((a, b) => compareKeys(sortKey(a, this.sortMode), sortKey(b, this.sortMode)));
  },
};

// --- the page skeleton ---------------------------------------------------------------------------

const regions = {
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
  const title = chatDrawer.querySelector(".drawer-title");
  title.replaceWith(drawerHead("chat", title.textContent, { drawer: (name) => actions.drawer(name) }));
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
const drawerEls = Object.fromEntries(Object.entries(drawers).map(([name, content]) =>
  [name, h("aside", { class: "tbl-drawer", id: `drawer-${name}`, hidden: true, dataset: { drawer: name } },
    drawerHead(name, DRAWERS.find((d) => d.name === name).label(), { drawer: (n) => actions.drawer(n) }),
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

// --- rendering ------------------------------------------------------------------------------------

let focusFallback = null;

/**
 * A block's value spans its cards, but not past the end of the rack's row when the block wraps:
 * the rack's columns are measured, and each label is cut to the slots left in its row.
 */
function fitBlockLabels() {
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

window.addEventListener("resize", () => {
  fitBlockLabels();
  fitControls();
  fitRowCue();
});

/**
 * The round's summary (issue 33, item 6) covers no control: it lies over the felt's melds area,
 * under the stock and the discards; on a phone whose felt has no room for it, over the room the
 * idle action bar leaves below the rack's cards (it is only shown while there is nothing
 * to press: it closes when the seat's turn comes). The match's result stays over the table
 * (nothing is played then). A page that is not the whole-screen table (practice) keeps it over
 * the table as before.
 */
function placeSummary(f) {
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
    const style = getComputedStyle(rack);
    const slot = rack.querySelector("li.slot");
    const rows = Number(getComputedStyle(document.getElementById("tbl")).getPropertyValue("--rack-rows")) || 1;
    const gap = parseFloat(style.rowGap) || 0;
    const top = rack.offsetTop + rack.clientTop + parseFloat(style.paddingTop) + rows * ((slot ? slot.offsetHeight : 0) + gap);
    el.style.setProperty("--summary-top", `${Math.round(top)}px`);
  } else if (live && scroller) scroller.prepend(el);
  else if (el.parentNode !== regions.mine.parentNode) regions.mine.after(el);
}

/** The summary of round n closes by itself once the next round's first turn is this seat's. */
function closeSummaryOnTurn(f) {
  const which = model.summaryFor;
  if (!which || model.summaryClosed === which || f.over || f.paused || !f.myTurn) return;
  if (Number(f.view.round) > Number(which.split(":")[1])) model.summaryClosed = which;
}

// Buttons that go into the action bar's "More" menu first when the bar would take more rows than
// it has (two on a phone, one on a laptop: issue 33, item 7), the least needed first.
const OVERFLOW = ["unselect", "move", "clear", "use-best", "new-meld", "knock", "pass", "take"];

function fitControls() {
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
    if (event.target.closest("button")) {
      model.moreOpen = false;
      render();
    }
  });
  bar.after(menu);
}

/** The Remi / Rummy 500 row's cue: how many older discards are out of sight (issue 33, item 8). */
function fitRowCue() {
  const cue = document.querySelector('[data-key="row-more"]');
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
  const count = cue.querySelector(".row-more-count");
  const text = t("%(n)s more", { n: hidden });
  if (count.textContent !== text) count.textContent = text;
}

function syncRack(f) {
  const keys = rackItems(model, f).map((item) => item.key);
  // A new deal gets a new rack (its cards may carry the same ids as the last deal's: issue 14, item 4).
  if (model.rackRound !== f.view.round) {
    if (model.rackRound !== undefined) model.rack.slots = null;
    model.rackRound = f.view.round;
    model.rackRows = 0; // the new hand reserves its own rows
  }
  const before = JSON.stringify(model.rack.slots);
  model.rack.slots = Rack.reconcile(model.rack.slots, keys);
  // A card taken by dropping it on a slot goes to that slot once it is in the hand.
  if (model.wantSlot && model.rack.slots.includes(model.wantSlot.key)) {
    model.rack.slots = Rack.moveTo(model.rack.slots, model.wantSlot.key, model.wantSlot.index);
    model.wantSlot = null;
  }
  if (JSON.stringify(model.rack.slots) !== before && f.seated) Rack.save(rackKey, model.rack.slots);
}

function render() {
  const f = facts(model);
  syncRack(f);
  model.rackSig = rackQuery(f).sig;
  const active = document.activeElement;
  const key = active && root.contains(active) ? active.dataset.key : null;
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
  for (const el of root.querySelectorAll("details[data-keep]")) el.open = opened.has(el.dataset.keep);
  root.dataset.version = String(model.frame.version);
  root.dataset.status = model.status;
  root.dataset.pending = model.pending ? "true" : "false";
  const table = document.getElementById("tbl");
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
    const again = findKey(key) || (focusFallback && findKey(focusFallback)) || firstEnabled();
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }
  focusFallback = null;
}

/**
 * The scrolling areas (the melds, the discard row, the log, a drawer) are rebuilt on each render:
 * their positions are read before and put back after. The discard row and the log go to their
 * newest end when they grew; the log also when its drawer opens.
 */
function keepScroll() {
  const kept = {};
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    kept[el.dataset.scrollKey] = { top: el.scrollTop, left: el.scrollLeft, size: el.dataset.scrollSize || "" };
  }
  return kept;
}

function restoreScroll(kept) {
  for (const el of root.querySelectorAll("[data-scroll-key]")) {
    const was = kept[el.dataset.scrollKey];
    const toEnd = el.dataset.scrollEnd === "true" && (!was || was.size !== (el.dataset.scrollSize || ""));
    if (toEnd) el.scrollTop = el.scrollHeight;
    else if (was) {
      el.scrollTop = was.top;
      el.scrollLeft = was.left;
    }
  }
}

function findKey(key) {
  const el = root.querySelector(`[data-key="${CSS.escape(key)}"]`);
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

root.addEventListener("focusin", (event) => {
  const el = event.target;
  if (el instanceof HTMLElement && el.matches("#hand button.card")) {
    model.rackFocus = el.dataset.key;
    for (const other of root.querySelectorAll("#hand button.card")) other.tabIndex = other === el ? 0 : -1;
  }
});

// --- turn alerts: the title, the icon, a sound (if chosen), a vibration on phones -----------------

const baseTitle = document.title;
const CLOCK_WARNING_S = 10;

function iconUrl(fill, mark) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect x="8" y="3" width="48" height="58" rx="7" fill="${fill}" stroke="#1f5f46" stroke-width="5"/><text x="32" y="45" font-size="34" font-family="sans-serif" font-weight="700" text-anchor="middle" fill="${mark}">R</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

const ICONS = { idle: iconUrl("#ffffff", "#1f5f46"), turn: iconUrl("#ffd54a", "#b3261e"), clock: iconUrl("#b3261e", "#ffffff") };

function setIcon(name) {
  let link = document.getElementById("table-icon");
  if (!link) {
    for (const other of document.querySelectorAll('link[rel~="icon"]')) other.remove();
    link = h("link", { rel: "icon", id: "table-icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  if (link.dataset.state !== name) {
    link.dataset.state = name;
    link.href = ICONS[name];
  }
}

let audio = null;
function beep(high) {
  if (!model.prefs.sound) return;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = high ? 880 : 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.35);
  } catch {
    // no sound here
  }
}

function buzz(pattern) {
  if (!navigator.vibrate || !window.matchMedia || !window.matchMedia("(pointer: coarse)").matches) return;
  // Browsers refuse (and complain) before the player has touched the page.
  if (navigator.userActivation && !navigator.userActivation.hasBeenActive) return;
  try {
    navigator.vibrate(pattern);
  } catch {
    // no vibration here
  }
}

/** Tell the player their turn has started, and that their clock is about to run out. */
function turnAlert(f) {
  const mine = f.myTurn && !f.paused && f.seated;
  const left = mine && f.clock && f.clock.turn_seconds && f.clock.turn_started
    ? f.clock.turn_seconds - (f.now - f.clock.turn_started) / 1000
    : Infinity;
  let state = "idle";
  if (mine) state = left <= CLOCK_WARNING_S ? "clock" : "turn";
  const turnKey = mine ? `${f.view.round}:${f.clock ? f.clock.turn_started : ""}:${model.frame.view.turn}` : "";
  if (state !== "idle" && model.alertedTurn !== turnKey) {
    model.alertedTurn = turnKey;
    model.alerts = [...model.alerts, "turn"];
    beep(false);
    buzz(200);
  }
  if (state === "clock" && model.warnedTurn !== turnKey) {
    model.warnedTurn = turnKey;
    model.alerts = [...model.alerts, "clock"];
    beep(true);
    buzz([120, 80, 120]);
  }
  if (!mine) model.alertedTurn = "";
  root.dataset.alert = state === "idle" ? "" : state;
  setIcon(state);
  const title = state === "clock" ? `⏰ ${t("Your turn")} · ${baseTitle}` : state === "turn" ? `● ${t("Your turn")} · ${baseTitle}` : baseTitle;
  if (document.title !== title) document.title = title;
}

// Only the clock changes between frames: update its text without rebuilding the page.
let wasPaused = facts(model).paused;
setInterval(() => {
  const f = facts(model);
  if (f.paused !== wasPaused) {
    wasPaused = f.paused;
    render();
    return;
  }
  const timer = document.getElementById("turn-timer");
  if (timer) {
    const text = timerText(model, f);
    if (timer.textContent !== text) timer.textContent = text;
    const left = f.clock && f.clock.turn_seconds ? f.clock.turn_seconds - (f.now - f.clock.turn_started) / 1000 : Infinity;
    timer.classList.toggle("urgent", left <= 10);
  }
  turnAlert(f);
  const pause = document.getElementById("pause-countdown");
  if (pause && f.paused) pause.textContent = formatSeconds((f.clock.resume_at - f.now) / 1000);
}, 250);

// --- the rack's question to the server (games/views/table.py) -------------------------------------

function rackQuery(f) {
  if (!f.seated || f.over || model.status === "anonymous") return { sig: "", query: null };
  const groups = Rack.blocks(model.rack.slots).map((block) => block.keys.map(keyText));
  const move = Draft.isEmpty(model.draft) ? { kind: "play" } : Draft.toMove(model.draft);
  const query = { groups, move };
  // The blocks' values depend only on the player's own cards; whether they may be laid down
  // depends on the game, which changes for this seat only on its own turn: ask again on every
  // frame of that turn, and once when it ends.
  const when = f.myTurn ? `v${model.frame.version}` : "waiting";
  return { sig: `${when}|${JSON.stringify(query)}`, query };
}

let checkTimer = null;
let asked = "";

function scheduleRackCheck(f) {
  const { sig, query } = rackQuery(f);
  if (!query || sig === asked || (model.rackCheck && model.rackCheck.sig === sig)) return;
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => {
    asked = sig;
    const answer = host
      ? host.connection.checkRack(query)
      : fetch(`/matches/${matchId}/rack/?q=${encodeURIComponent(JSON.stringify(query))}`, {
          credentials: "same-origin",
          headers: { Accept: "application/json" },
        }).then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))));
    answer
      .then((data) => {
        model.rackCheckError = false;
        model.rackCheck = { sig, data };
        render();
      })
      .catch(() => {
        model.rackCheckError = true;
        asked = "";
        if (sig === model.rackSig) render();
      });
  }, 120);
}

// --- frames -----------------------------------------------------------------------------------

function applyState(frame) {
  if (typeof frame.version !== "number" || frame.version <= model.frame.version) {
    return false; // a frame we already have (the connect frame, a broadcast seen twice)
  }
  const before = new Set(model.frame.view.hand || []);
  const roundBefore = model.frame.view.round;
  model.frame = frame;
  const hand = frame.view.hand || [];
  const inHand = new Set(hand);
  // A new deal is all new: nothing is marked (a card drawn or taken is).
  const dealt = frame.view.round !== roundBefore || !hand.some((id) => before.has(id));
  model.fresh = dealt ? [] : hand.filter((id) => !before.has(id));
  model.selected = model.selected.filter((key) => inHand.has(key));
  model.draft = Draft.emptyDraft();
  // An error stays next to the controls while it is still this seat's turn (a stale-version
  // refusal is followed by a newer frame); it goes once the turn has passed.
  if (!frame.view.you || !frame.view.you.my_turn) {
    model.error = null;
    model.moreOpen = false;
  }
  if (!model.pending) model.pendingAt = null;
  const atu = frame.view.atu;
  if (!atu || frame.view.atu_taken_by !== null) model.atuOnRack = false;
  const over = (frame.events || []).filter((e) => e.kind === "round_over");
  if (over.length) {
    model.lastDeal = over[over.length - 1];
    model.summaryFor = `round:${model.lastDeal.round}`;
  }
  const line = logLine(frame);
  if (line) {
    model.lastEvents = line.text;
    // The move that ends a round is the last line of its log; the next move starts a new one.
    if (model.logDone) model.log = [];
    model.log = [...model.log, line];
    model.logDone = over.length > 0;
    saveLog();
  }
  return true;
}

// --- the move log ---------------------------------------------------------------------------------
// One line per frame that carries a move's events (a frame is one move: docs/protocol.md), in the
// page's language; a move a stand-in played for a seat says so ("bot for Ala: …"). The page's
// first frame and a socket's first frame carry the round's moves so far (`log`, each move's events
// as this seat saw them live): a page opened, reloaded or reconnected in the middle of a round
// has every move since the deal. The log is also kept in this tab (sessionStorage), for a table
// whose frames carry no `log` (practice).

const logKey = `remi.log.${matchId}.${seatNo === null || seatNo === undefined ? "watch" : seatNo}`;

function logLine(frame) {
  const events = frame.events || [];
  if (!events.length) return null;
  const actorSeat = events.find((e) => typeof e.seat === "number" && e.kind !== "turn");
  const standin = frame.actor === "standin" && actorSeat !== undefined;
  // A stand-in's move is told in the third person with the bot as its subject ("the bot for Ala
  // discards …"), even for this very seat: never "you …", and the name only once.
  const said = standin ? describeStandin(frame.view, actorSeat.seat, events) : describeEvents(frame.view, events);
  if (!said) return null;
  // One full stop at the end, even after an abbreviation ("… cu 81 pct.").
  const text = said.charAt(0).toUpperCase() + said.slice(1) + (said.endsWith(".") ? "" : ".");
  return { version: frame.version, text, standin, kind: actorSeat ? actorSeat.kind : "" };
}

/** The round's log from a frame's `log` (docs/protocol.md); false if the frame has none. */
function takeLog(frame) {
  if (!Array.isArray(frame.log) || frame.version < model.frame.version) return false;
  const lines = [];
  let done = false;
  for (const entry of frame.log) {
    const line = logLine({ version: entry.version, events: entry.events, actor: entry.actor, view: frame.view });
    if (line) lines.push(line);
    done = (entry.events || []).some((e) => e.kind === "round_over");
  }
  model.log = lines;
  model.logDone = done;
  const last = lines[lines.length - 1];
  model.lastEvents = last ? last.text : "";
  saveLog();
  return true;
}

function saveLog() {
  try {
    sessionStorage.setItem(logKey, JSON.stringify({ version: model.frame.version, done: model.logDone, lines: model.log }));
  } catch {
    // the log lasts for this page only
  }
}

function loadLog() {
  if (takeLog(initial)) return;
  try {
    const kept = JSON.parse(sessionStorage.getItem(logKey) || "null");
    if (kept && kept.version <= initial.version && Array.isArray(kept.lines)) {
      model.log = kept.lines;
      model.logDone = Boolean(kept.done);
      const last = kept.lines[kept.lines.length - 1];
      if (last) model.lastEvents = last.text;
    }
  } catch {
    // nothing kept
  }
}
loadLog();

function onFrame(frame) {
  // Every frame, whatever its type, is also announced on the document for the modules mounted in
  // the page (chat.js, rematch.js): event "remi:frame", detail = the frame.
  document.dispatchEvent(new CustomEvent("remi:frame", { detail: frame }));
  if (frame.type === "state") {
    if (frame.version <= model.frame.version && frame.clock && !sameClock(frame.clock, model.frame.clock)) {
      model.frame = { ...model.frame, clock: frame.clock }; // same game, newer timer
    }
    if (frame.version === model.frame.version && Array.isArray(frame.seats)) {
      model.frame = { ...model.frame, seats: frame.seats }; // same game, a seat came or went
    }
    applyState(frame);
    takeLog(frame);
    comeBackAfterReload();
  } else if (frame.type === "error" && frame.code !== "rate_limited") {
    // Nothing was applied: keep the move being built so it can be corrected. (A rate-limited
    // command was not read; the connection sends it again by itself.)
    model.error = { code: frame.code, message: frame.message, rule: frame.rule || null };
    model.errorAt = model.pendingAt;
    model.wantSlot = null;
  }
  model.pending = connection ? connection.pending : null;
  render();
}

function sameClock(a, b) {
  return Boolean(a && b) && a.turn_started === b.turn_started && a.resume_at === b.resume_at && a.turn_seconds === b.turn_seconds;
}

function onStatus(status, detail) {
  model.status = status;
  model.statusDetail = typeof detail === "string" ? detail : "";
  render();
}

// --- commands -------------------------------------------------------------------------------------

function send(move, at = "controls") {
  if (!connection || model.pending) return;
  const command = { type: "move", id: newCommandId(), version: model.frame.version, move };
  if (connection.sendCommand(command)) {
    model.pending = command;
    model.pendingAt = at;
    model.error = null;
    model.errorAt = null;
    render();
  }
}

/** Where a refusal of the draft goes: next to the one table meld it adds to, else `fallback`. */
function anchorFor(draft, fallback) {
  if (draft.take) return "discard"; // a take from the pile or row: shown at the discards
  const melds = new Set([...draft.layoffs.map((lo) => lo.meld), ...draft.exchanges.map((ex) => ex.meld)]);
  if (!draft.melds.length && melds.size === 1) return `meld:${[...melds][0]}`;
  return fallback;
}

function selectionKeys() {
  // New melds take the cards in hand order (sorted by suit and rank); arrows reorder them.
  const order = Draft.pool(model.draft, model.frame.view, model.handOrder()).map((item) => item.key);
  return order.filter((key) => model.selected.includes(key));
}

const actions = {
  /** Open the drawer `name` over the table, or close it if it is the one open. */
  drawer(name) {
    const opening = name !== null && model.drawer !== name;
    model.drawer = opening ? name : null;
    focusFallback = opening ? `close:${name}` : null;
    render();
    if (opening) {
      const close = root.querySelector(`[data-key="close:${name}"]`);
      if (close) close.focus({ preventScroll: true });
      const body = drawerEls[name] && drawerEls[name].querySelector(".drawer-body");
      if (body && name === "log") body.scrollTop = body.scrollHeight;
    }
  },
  toggleRow() {
    model.rowOpen = !model.rowOpen;
    render();
  },
  closeSummary(which) {
    model.summaryClosed = which;
    render();
  },
  toggle(key) {
    model.selected = model.selected.includes(key) ? model.selected.filter((k) => k !== key) : [...model.selected, key];
    render();
  },
  unselect() {
    model.selected = [];
    model.moving = null;
    focusFallback = "btn:none";
    render();
  },
  toggleSort() {
    model.sortMode = model.sortMode === "suit" ? "rank" : "suit";
    localStorage.setItem("remi.sort", model.sortMode);
    render();
  },
  sortRack(mode) {
    const keys = model.rack.slots.filter((k) => k !== null);
    model.rack.slots = Rack.arrange(keys, mode, keyText);
    Rack.save(rackKey, model.rack.slots);
    render();
  },
  /** Put `key` (a rack card, or the atu) in slot `index`: moved, or inserted (RMI-UI-2/3). */
  place(key, index) {
    const view = model.frame.view;
    if (view.atu && key === view.atu && !model.rack.slots.includes(key)) {
      model.atuOnRack = true;
      model.rack.slots = Rack.reconcile(model.rack.slots, [...model.rack.slots.filter((k) => k !== null), key]);
    }
    if (!model.rack.slots.includes(key)) return;
    model.rack.slots = Rack.moveTo(model.rack.slots, key, index);
    Rack.save(rackKey, model.rack.slots);
    model.selected = [];
    model.moving = null;
    render();
  },
  toSlot(index) {
    if (model.selected.length !== 1) return;
    actions.place(model.selected[0], index);
  },
  /** Tap-to-move onto any slot: the selected card moves to the next slot or card tapped. */
  startMove() {
    model.moving = model.moving ? null : model.selected.length === 1 ? model.selected[0] : null;
    render();
  },
  nudge(key, step) {
    model.rack.slots = Rack.nudge(model.rack.slots, key, step);
    Rack.save(rackKey, model.rack.slots);
    focusFallback = `hand:${key}`;
    render();
  },
  layAll() {
    const check = model.rackCheck && model.rackCheck.sig === model.rackSig ? model.rackCheck.data : null;
    if (!check || !check.lay_down.possible) return;
    const melds = (check.lay_down.move.melds || []).length;
    send(check.lay_down.move, melds ? "lay-all" : anchorFor(model.draft, "lay-all"));
  },
  back() {
    if (connection) connection.sendRaw({ type: "back" });
    forgetAway();
  },
  draw() {
    send({ kind: "draw" });
  },
  take(card) {
    // The gin family and Knock-108: a take is a move of its own.
    send(card ? { kind: "take", card } : { kind: "take" });
  },
  pass() {
    send({ kind: "pass" });
  },
  buyBack() {
    send({ kind: "knock" }); // Knock-108's buy-back stage: a knock buys back in
  },
  knock(card) {
    const move = { kind: "knock" };
    if (card) move.card = card;
    // Melds arranged by hand go with it; without them the engine lays the best arrangement.
    if (model.draft.melds.length) move.melds = Draft.toMove(model.draft).melds;
    send(move);
  },
  useBestMelds() {
    const best = model.frame.view.you?.best_melds;
    if (!best || !best.length) return;
    model.draft = Draft.addMeldsFromText(model.draft, best);
    model.selected = [];
    focusFallback = "submit";
    render();
  },
  startTake(card) {
    model.rowOpen = false;
    model.draft = Draft.startTake(model.draft, card);
    model.selected = [card];
    model.error = null;
    focusFallback = `hand:${card}`;
    render();
  },
  newMeld() {
    const keys = selectionKeys();
    if (!keys.length) return;
    model.draft = Draft.addMeld(model.draft, keys);
    model.selected = [];
    focusFallback = "submit";
    render();
  },
  useOpening() {
    const opening = model.frame.view.you?.opening;
    if (!opening) return;
    model.draft = Draft.addMeldsFromText(model.draft, opening.melds);
    model.selected = [];
    focusFallback = "submit";
    render();
  },
  layoff(meldId) {
    const keys = selectionKeys();
    if (!keys.length) return;
    model.draft = Draft.addLayoff(model.draft, meldId, keys);
    model.selected = [];
    focusFallback = "submit";
    render();
  },
  exchange(meldId) {
    const keys = selectionKeys();
    if (keys.length !== 1) return;
    model.draft = Draft.addExchange(model.draft, meldId, keys[0]);
    model.selected = [];
    render();
  },
  shift(meldIndex, cardIndex, step) {
    model.draft = Draft.shiftInMeld(model.draft, meldIndex, cardIndex, step);
    focusFallback = `shift:${meldIndex}:${cardIndex + step}:${step}`;
    render();
  },
  declare(key, face) {
    model.draft = Draft.declare(model.draft, key, face);
    render();
  },
  removeMeld(index) {
    model.draft = Draft.removeMeld(model.draft, index);
    render();
  },
  removeLayoff(index) {
    model.draft = Draft.removeLayoff(model.draft, index);
    render();
  },
  removeExchange(index) {
    model.draft = Draft.removeExchange(model.draft, index);
    render();
  },
  clear() {
    model.atuOnRack = false;
    model.draft = Draft.emptyDraft();
    model.selected = [];
    model.error = null;
    render();
  },
  submit() {
    const { draft } = model;
    if (!Draft.hasPlay(draft)) return; // a take carries the play that uses the taken card
    send(Draft.toMove(draft), anchorFor(draft, "controls"));
  },
  discard(at) {
    if (model.selected.length !== 1) return;
    send({ kind: "discard", card: model.selected[0] }, typeof at === "string" ? at : "controls");
  },
};

// Arrow keys move between the cards of the hand (Enter or Space selects, as for any button).
root.addEventListener("keydown", (event) => {
  const target = event.target;
  if (!(target instanceof HTMLElement) || !target.closest("#hand")) return;
  if (!["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key)) return;
  const cards = [...root.querySelectorAll("#hand button.card")];
  const at = cards.indexOf(target);
  if (at < 0) return;
  if (event.shiftKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
    const key = (target.dataset.key || "").replace(/^hand:/, "");
    actions.nudge(key, event.key === "ArrowLeft" ? -1 : 1);
    event.preventDefault();
    return;
  }
  let next = at;
  if (event.key === "ArrowLeft") next = Math.max(0, at - 1);
  if (event.key === "ArrowRight") next = Math.min(cards.length - 1, at + 1);
  if (event.key === "Home") next = 0;
  if (event.key === "End") next = cards.length - 1;
  cards[next].focus();
  event.preventDefault();
});

// Shortcut keys (listed in the help drawer, "?"): D draw, T take, L lay down, X discard the
// selected card, M the move log, S the scores, Esc closes a panel. Each presses the button the
// page shows for it, so a key does exactly what the button does (disabled: nothing).
const SHORTCUTS = {
  d: ['[data-key="draw"]', '[data-key="stock"]'],
  t: ['[data-key="take"]', () => last(root.querySelectorAll('#tbl-board [data-key^="take:"]'))],
  l: ['[data-key="submit"]', '[data-key="lay-all"]'],
  x: ['[data-key="discard"]', '[data-key="discard-here"]'],
};

function last(list) {
  return list.length ? list[list.length - 1] : null;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
  const target = event.target;
  if (target instanceof HTMLElement && (target.closest("input, textarea, select, [contenteditable='true']") || target.isContentEditable)) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  if (key === "Escape") {
    if (model.drawer) actions.drawer(null);
    else if (root.querySelector("#summary-panel")) root.querySelector('[data-key="close:summary"]').click();
    else return;
    event.preventDefault();
    return;
  }
  if (key === "?") return pressed(event, () => actions.drawer("help"));
  if (key === "m") return pressed(event, () => actions.drawer("log"));
  if (key === "s") return pressed(event, () => actions.drawer("scores"));
  const choices = SHORTCUTS[key];
  if (!choices) return;
  for (const choice of choices) {
    const el = typeof choice === "function" ? choice() : root.querySelector(choice);
    if (el && !el.disabled) {
      event.preventDefault();
      el.click();
      return;
    }
  }
});

function pressed(event, act) {
  event.preventDefault();
  act();
}

// --- start ------------------------------------------------------------------------------------------

let connection = null;
if (host) {
  connection = host.connection;
  connection.attach({ onFrame, onStatus, onOpen: () => comeBackOnOpen() });
} else if (model.status !== "anonymous") {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  connection = new MatchConnection(`${scheme}://${location.host}${root.dataset.wsPath}`, {
    onFrame,
    onStatus,
    onOpen: () => comeBackOnOpen(),
  });
}
// Drag and drop (drag.js): rack cards onto slots, the discard box and table melds; the atu onto the rack.
installDrag(root, {
  accepts(payload, target) {
    const f = facts(model);
    const [kind, key] = splitOnce(payload);
    if (target.startsWith("slot:")) {
      if (kind === "take") return f.canAct && f.moves.includes("take") && !f.taking;
      return kind === "rack" || (kind === "atu" && f.canBuild);
    }
    if (kind !== "rack") return false;
    if (target === "discard") return f.canAct && f.moves.includes("discard") && (model.frame.view.hand || []).includes(key);
    return f.canBuild && f.canAct; // a table meld or its joker
  },
  drop(payload, target) {
    const [kind, key] = splitOnce(payload);
    if (kind === "take") {
      // A discard dragged onto the rack: the take starts (the gin family and Knock-108: the take
      // is sent), and the card goes to the slot it was dropped on.
      model.wantSlot = { key, index: Number(target.slice(5)) };
      if (takeAlone(familyOf(model.frame.view))) actions.take(key);
      else actions.startTake(key);
    } else if (target.startsWith("slot:")) {
      actions.place(key, Number(target.slice(5)));
    } else if (target === "discard") {
      model.selected = [key];
      actions.discard("discard");
    } else if (target.startsWith("meld:")) {
      model.selected = [key];
      actions.layoff(Number(target.slice(5)), target);
    } else if (target.startsWith("joker:")) {
      model.selected = [key];
      actions.exchange(Number(target.slice(6)));
    }
  },
});

function splitOnce(payload) {
  const at = payload.indexOf(":");
  return at < 0 ? [payload, ""] : [payload.slice(0, at), payload.slice(at + 1)];
}

// Leaving the page (the back arrow, a link, closing the tab) marks the seat away (RMI-NET-4), best
// effort. A reload is not leaving: the page says "back" first thing on its new socket, so the seat
// is the player's again before a stand-in could move (and a frame still showing it away after
// that is answered the same way).
const AWAY_FRESH_MS = 60000;

function markedAway() {
  try {
    const at = Number(sessionStorage.getItem(awayKey) || 0);
    return at > 0 && Date.now() - at < AWAY_FRESH_MS;
  } catch {
    return false;
  }
}

function forgetAway() {
  try {
    sessionStorage.removeItem(awayKey);
  } catch {
    // nothing kept
  }
}

function comeBackOnOpen() {
  if (model.returning && connection) connection.sendRaw({ type: "back" });
}

// Until a frame shows the seat connected again (at most a few seconds), a frame showing it away
// is answered with "back" again, and the away banner waits.
const RETURN_WINDOW_MS = 5000;

function comeBackAfterReload() {
  const seats = model.frame.seats;
  if (!Array.isArray(seats) || seatNo === null || seatNo === undefined || !model.returning) return;
  const mine = seats.find((s) => s && s.seat === seatNo);
  if (mine && mine.state === "away" && connection) connection.sendRaw({ type: "back" });
  else if (mine && mine.state === "connected") model.returning = false; // back in the seat
}

model.returning = markedAway();
forgetAway();
if (model.returning) {
  setTimeout(() => {
    model.returning = false;
    render();
  }, RETURN_WINDOW_MS);
}

let navigatingTo = null; // the Navigation API's type of the navigation leaving this page
if (window.navigation && typeof window.navigation.addEventListener === "function") {
  window.navigation.addEventListener("navigate", (event) => {
    navigatingTo = event.navigationType;
  });
}

window.addEventListener("pagehide", () => {
  if (!connection || seatNo === null || seatNo === undefined || facts(model).over) return;
  if (navigatingTo === "reload") return;
  if (connection.sendRaw({ type: "away" })) {
    try {
      sessionStorage.setItem(awayKey, String(Date.now()));
    } catch {
      // nothing kept: the player presses "I'm back"
    }
  }
});

// The chat (in its drawer) and "Play again" (in a finished match's summary) hear the frames the
// table announces, from the first one on (chat.js, rematch.js); not in practice (no room).
if (connection && !host) {
  const chatPanel = document.getElementById("chat-panel");
  if (chatPanel) mountChat(chatPanel, connection);
  // A deal of the day is one try: its slot links to the day's board instead (match.html).
  if (model.rematchSlot.dataset.daily !== "true") mountRematch(model.rematchSlot, connection, model.frame);
}

render();
if (connection) connection.start();

// For tests and debugging in the console: the model and the socket.
window.remiTable = { model, connection, render };

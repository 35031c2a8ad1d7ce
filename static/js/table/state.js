// The table's state, in one place: the page it runs on (read once at import), the model every
// region is drawn from, and the few things of this page's life that are not the game's (the
// connection, the control that gets the focus after a render, the rack check's timer…). The other
// modules of the table read and change them here: the model's fields through the actions
// (actions.js) and the frames (frames.js), the rest through the named functions below.
//
// Versions (docs/protocol.md): a frame's `version` is the match's version, the one a command
// carries and the one frames are ordered by (`matchVersion`); a view's own `version` is the number
// of moves played in the engine, which the table does not use.

import { compareKeys, sortKey } from "./cards.js";
import * as Draft from "./draft.js";
import * as Rack from "./rack.js";

// A page may run the table on another connection than the match socket: it sets
// `window.remiTableHost = {frame, key, connection}` before importing this module (practice plays
// in the browser: docs/practice.md). `connection` has the socket's methods (connection.js) plus
// attach(handlers) and checkRack(query); `frame` is the first frame; `key` names what the page
// keeps (the rack's order).
/** @type {TableHost | null} */
export const host = window.remiTableHost || null;
export const root = /** @type {HTMLElement} */ ( document.getElementById("table-app"));
/** @type {Frame} */
export const initial = host ? host.frame : JSON.parse(/** @type {HTMLElement} */ (document.getElementById("initial-frame")).textContent || "null");
/** @type {string} */
export const matchId = host ? host.key : document.getElementById("match")?.dataset.matchId || "0";
/** @type {number | null} */
export const seatNo = initial.view.seat;
export const rackKey = Rack.storageKey(matchId, seatNo === null || seatNo === undefined ? "watch" : seatNo);
export const awayKey = `remi.away.${matchId}`;
/** Where this tab keeps the round's move log (frames.js). */
export const logKey = `remi.log.${matchId}.${seatNo === null || seatNo === undefined ? "watch" : seatNo}`;

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

/** @type {Model} */
export const model = {
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
  rack: { slots: Rack.load(rackKey) || [] }, // the order of the cards on the rack (rack.js)
  rackSig: "", // the blocks and move the rack check was asked about
  rackCheck: null, // {sig, data}: the server's answer (games/play/views/table.py)
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

/** The match version of the frame the table shows: what a command says it saw (docs/protocol.md). */
export function matchVersion() {
  return model.frame.version;
}

// --- this page's life, apart from the game -----------------------------------------------------

/**
 * @type {{
 *   connection: TableConnection | null,
 *   focusFallback: string | null,
 *   redraw: () => void,
 *   rackTimer: ReturnType<typeof setTimeout> | undefined,
 *   rackAsked: string,
 *   leavingBy: string | null,
 *   pausedSeen: boolean,
 *   audio: AudioContext | null,
 * }}
 */
const life = {
  connection: null, // the match socket, or the host's connection (practice, puzzles)
  focusFallback: null, // the control that gets the focus if the focused one is gone after a render
  redraw: () => {}, // the table's render (view.js)
  rackTimer: undefined, // the rack check waiting to be asked (rackcheck.js)
  rackAsked: "", // the signature of the rack check last asked
  leavingBy: null, // the Navigation API's type of the navigation leaving this page
  pausedSeen: false, // whether the last clock tick saw the table paused
  audio: null, // the turn alert's sound (alerts.js), made at its first beep
};

/** Draw the table again from the model. */
export function render() {
  life.redraw();
}

/** @param {() => void} draw the table's render (view.js) */
export function setRenderer(draw) {
  life.redraw = draw;
}

export function connection() {
  return life.connection;
}

/** @param {TableConnection | null} value */
export function setConnection(value) {
  life.connection = value;
}

/**
 * The control (its data-key) that gets the focus after the next render if the focused one is
 * gone or disabled; null: none.
 * @param {string | null} key
 */
export function focusAfter(key) {
  life.focusFallback = key;
}

export function focusFallback() {
  return life.focusFallback;
}

/**
 * Run `ask` in `ms`, instead of the one waiting.
 * @param {() => void} ask
 * @param {number} ms
 */
export function askRackLater(ask, ms) {
  clearTimeout(life.rackTimer);
  life.rackTimer = setTimeout(ask, ms);
}

export function rackAsked() {
  return life.rackAsked;
}

/** @param {string} sig */
export function setRackAsked(sig) {
  life.rackAsked = sig;
}

export function leavingBy() {
  return life.leavingBy;
}

/** @param {string} type */
export function setLeavingBy(type) {
  life.leavingBy = type;
}

export function pausedSeen() {
  return life.pausedSeen;
}

/** @param {boolean} paused */
export function setPausedSeen(paused) {
  life.pausedSeen = paused;
}

export function audioContext() {
  return life.audio;
}

/**
 * @param {AudioContext} context
 * @returns {AudioContext} the same
 */
export function setAudioContext(context) {
  life.audio = context;
  return context;
}

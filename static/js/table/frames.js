// The frames the table is given (docs/protocol.md): a state frame newer than the one shown
// replaces it; the move log is kept from the frames' events and their `log`; an error frame is
// the refusal of the command that was waiting. Frames are ordered by the match version (a
// frame's `version`; state.js, matchVersion), never by the view's move count.

import * as Draft from "./draft.js";
import { describeEvents, describeStandin } from "./events.js";
import { comeBackAfterReload } from "./away.js";
import { connection, initial, logKey, matchVersion, model, render } from "./state.js";

function applyState(frame) {
  if (typeof frame.version !== "number" || frame.version <= matchVersion()) {
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
    const last = over[over.length - 1];
    model.lastDeal = last;
    model.summaryFor = `round:${last.round}`;
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
  if (!Array.isArray(frame.log) || frame.version < matchVersion()) return false;
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
    sessionStorage.setItem(logKey, JSON.stringify({ version: matchVersion(), done: model.logDone, lines: model.log }));
  } catch {
    // the log lasts for this page only
  }
}

export function loadLog() {
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

export function onFrame(frame) {
  // Every frame, whatever its type, is also announced on the document for the modules mounted in
  // the page (chat.js, rematch.js): event "remi:frame", detail = the frame.
  document.dispatchEvent(new CustomEvent("remi:frame", { detail: frame }));
  if (frame.type === "state") {
    if (frame.version <= matchVersion() && frame.clock && !sameClock(frame.clock, model.frame.clock)) {
      model.frame = { ...model.frame, clock: frame.clock }; // same game, newer timer
    }
    if (frame.version === matchVersion() && Array.isArray(frame.seats)) {
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
  const socket = connection();
  model.pending = socket ? socket.pending : null;
  render();
}

function sameClock(a, b) {
  return Boolean(a && b) && a.turn_started === b.turn_started && a.resume_at === b.resume_at && a.turn_seconds === b.turn_seconds;
}

export function onStatus(status, detail) {
  model.status = status;
  model.statusDetail = typeof detail === "string" ? detail : "";
  render();
}

// What the player's clicks, taps, drops and keys do (docs/table.md): each action changes the
// model (state.js) and draws the table again, or sends a command exactly as docs/protocol.md
// describes. Nothing here decides a rule: the view's `you` hints say what may be tried, and the
// server answers.

import { forgetAway } from "./away.js";
import { newCommandId } from "./connection.js";
import * as Draft from "./draft.js";
import { keyText } from "./mine.js";
import * as Rack from "./rack.js";
import { openDrawer } from "./skeleton.js";
import { connection, focusAfter, matchVersion, model, rackKey, render } from "./state.js";

function send(move, at = "controls") {
  const socket = connection();
  if (!socket || model.pending) return;
  const command = { type: "move", id: newCommandId(), version: matchVersion(), move };
  if (socket.sendCommand(command)) {
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

/** @type {Actions} */
export const actions = {
  /** Open the drawer `name` over the table, or close it if it is the one open (skeleton.js). */
  drawer: openDrawer,
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
    focusAfter("btn:none");
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
    focusAfter(`hand:${key}`);
    render();
  },
  layAll() {
    const check = model.rackCheck && model.rackCheck.sig === model.rackSig ? model.rackCheck.data : null;
    if (!check || !check.lay_down.possible) return;
    const melds = (check.lay_down.move.melds || []).length;
    send(check.lay_down.move, melds ? "lay-all" : anchorFor(model.draft, "lay-all"));
  },
  back() {
    const socket = connection();
    if (socket) socket.sendRaw({ type: "back" });
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
    focusAfter("submit");
    render();
  },
  startTake(card) {
    model.rowOpen = false;
    model.draft = Draft.startTake(model.draft, card);
    model.selected = [card];
    model.error = null;
    focusAfter(`hand:${card}`);
    render();
  },
  newMeld() {
    const keys = selectionKeys();
    if (!keys.length) return;
    model.draft = Draft.addMeld(model.draft, keys);
    model.selected = [];
    focusAfter("submit");
    render();
  },
  useOpening() {
    const opening = model.frame.view.you?.opening;
    if (!opening) return;
    model.draft = Draft.addMeldsFromText(model.draft, opening.melds);
    model.selected = [];
    focusAfter("submit");
    render();
  },
  layoff(meldId) {
    const keys = selectionKeys();
    if (!keys.length) return;
    model.draft = Draft.addLayoff(model.draft, meldId, keys);
    model.selected = [];
    focusAfter("submit");
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
    focusAfter(`shift:${meldIndex}:${cardIndex + step}:${step}`);
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

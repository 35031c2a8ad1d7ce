// The rack: its slots kept in step with the hand (rack.js), and the rack's question to the server
// (games/play/views/table.py; the host's connection in practice): what each block of cards is worth,
// and whether they may be laid down now.

import * as Draft from "./draft.js";
import { keyText, rackItems } from "./mine.js";
import * as Rack from "./rack.js";
import { askRackLater, host, matchId, model, matchVersion, rackAsked, rackKey, render, setRackAsked } from "./state.js";

export function syncRack(f) {
  const keys = rackItems(model, f).map((item) => item.key);
  // A new deal gets a new rack (its cards may carry the same ids as the last deal's: issue 14, item 4).
  if (model.rackRound !== f.view.round) {
    if (model.rackRound !== undefined) model.rack.slots = []; // a new rack: the new hand fills it below
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

export function rackQuery(f) {
  if (!f.seated || f.over || model.status === "anonymous") return { sig: "", query: null };
  const groups = Rack.blocks(model.rack.slots).map((block) => block.keys.map(keyText));
  const move = Draft.isEmpty(model.draft) ? { kind: "play" } : Draft.toMove(model.draft);
  const query = { groups, move };
  // The blocks' values depend only on the player's own cards; whether they may be laid down
  // depends on the game, which changes for this seat only on its own turn: ask again on every
  // frame of that turn, and once when it ends.
  const when = f.myTurn ? `v${matchVersion()}` : "waiting";
  return { sig: `${when}|${JSON.stringify(query)}`, query };
}

export function scheduleRackCheck(f) {
  const { sig, query } = rackQuery(f);
  if (!query || sig === rackAsked() || (model.rackCheck && model.rackCheck.sig === sig)) return;
  askRackLater(() => {
    setRackAsked(sig);
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
        setRackAsked("");
        if (sig === model.rackSig) render();
      });
  }, 120);
}

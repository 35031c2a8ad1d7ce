// The playable match page (/matches/<id>/). Entry module: the table's skeleton is built
// (skeleton.js) from the frame embedded in the page (state.js), the newest state frame from the
// match socket is kept (frames.js), and clicks, taps, drops and keys become commands exactly as
// docs/protocol.md describes (actions.js, input.js). Nothing here decides a rule: the `you` hints
// of the view say what may be tried, and the server answers.
//
// The table's modules: state.js (the one place of its state), skeleton.js, view.js (render),
// render.js, board.js, mine.js, controls.js, scores.js, layout.js, events.js (the regions),
// fit.js, alerts.js, rackcheck.js, frames.js, actions.js, input.js, away.js; families/ (what
// differs between the rule families).

import { comeBackOnOpen, installAway } from "./away.js";
import { startClock } from "./alerts.js";
import { mount as mountChat } from "./chat.js";
import { MatchConnection } from "./connection.js";
import { installResize } from "./fit.js";
import { loadLog, onFrame, onStatus } from "./frames.js";
import { installInput } from "./input.js";
import { mount as mountRematch } from "./rematch.js";
import "./skeleton.js";
import { host, model, root, setConnection, setRenderer } from "./state.js";
import { render } from "./view.js";

setRenderer(render);
installResize();
startClock();
loadLog();
installInput();

/** @type {TableConnection | null} */
let connection = null;
if (host) {
  host.connection.attach({ onFrame, onStatus, onOpen: () => comeBackOnOpen() });
  connection = host.connection;
} else if (model.status !== "anonymous") {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  connection = new MatchConnection(`${scheme}://${location.host}${root.dataset.wsPath}`, {
    onFrame,
    onStatus,
    onOpen: () => comeBackOnOpen(),
  });
}
setConnection(connection);
installAway();

// The chat (in its drawer) and "Play again" (in a finished match's summary) hear the frames the
// table announces, from the first one on (chat.js, rematch.js); not in practice (no room).
if (connection && !host) {
  const chatPanel = document.getElementById("chat-panel");
  if (chatPanel) mountChat(chatPanel, connection);
  // A deal of the day is one try: its slot links to the day's board instead (match.html).
  const slot = /** @type {HTMLElement} */ (model.rematchSlot); // skeleton.js
  if (slot.dataset.daily !== "true") mountRematch(slot, connection, model.frame);
}

render();
if (connection) connection.start();

// For tests and debugging in the console: the model and the socket.
window.remiTable = { model, connection, render };

// Away and back (RMI-NET-4). Leaving the page (the back arrow, a link, closing the tab) marks the
// seat away, best effort. A reload is not leaving: the page says "back" first thing on its new
// socket, so the seat is the player's again before a stand-in could move (and a frame still
// showing it away after that is answered the same way).

import { facts } from "./render.js";
import { awayKey, connection, leavingBy, model, render, seatNo, setLeavingBy } from "./state.js";

const AWAY_FRESH_MS = 60000;

function markedAway() {
  try {
    const at = Number(sessionStorage.getItem(awayKey) || 0);
    return at > 0 && Date.now() - at < AWAY_FRESH_MS;
  } catch {
    return false;
  }
}

export function forgetAway() {
  try {
    sessionStorage.removeItem(awayKey);
  } catch {
    // nothing kept
  }
}

export function comeBackOnOpen() {
  const socket = connection();
  if (model.returning && socket) socket.sendRaw({ type: "back" });
}

// Until a frame shows the seat connected again (at most a few seconds), a frame showing it away
// is answered with "back" again, and the away banner waits.
const RETURN_WINDOW_MS = 5000;

export function comeBackAfterReload() {
  const seats = model.frame.seats;
  if (!Array.isArray(seats) || seatNo === null || seatNo === undefined || !model.returning) return;
  const mine = seats.find((s) => s && s.seat === seatNo);
  const socket = connection();
  if (mine && mine.state === "away" && socket) socket.sendRaw({ type: "back" });
  else if (mine && mine.state === "connected") model.returning = false; // back in the seat
}


/** Take the seat back if this tab marked it away when it left; mark it away when the page is left. */
export function installAway() {
  model.returning = markedAway();
  forgetAway();
  if (model.returning) {
    setTimeout(() => {
      model.returning = false;
      render();
    }, RETURN_WINDOW_MS);
  }

  if (window.navigation && typeof window.navigation.addEventListener === "function") {
    window.navigation.addEventListener("navigate", (event) => {
      setLeavingBy(/** @type {any} */ (event).navigationType);
    });
  }

  window.addEventListener("pagehide", () => {
    const socket = connection();
    if (!socket || seatNo === null || seatNo === undefined || facts(model).over) return;
    if (leavingBy() === "reload") return;
    if (socket.sendRaw({ type: "away" })) {
      try {
        sessionStorage.setItem(awayKey, String(Date.now()));
      } catch {
        // nothing kept: the player presses "I'm back"
      }
    }
  });
}

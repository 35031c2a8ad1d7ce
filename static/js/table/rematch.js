// "Play again" at a finished match (docs/protocol.md, "Rematch"): mount(container, connection, frame).
//
// Self-contained: it shows itself in `container` once a state frame says the match is over,
// offers the seated players "Play again" and "No thanks", says who agreed and who is awaited
// (names from the view, as text), and when the room's next match has started takes the players
// there (spectators get a link). Frames come as the table announces them ("remi:frame",
// chat.js's listen), commands go out with connection.sendRaw.

import { h, patch } from "../dom.js";
import { t } from "../i18n.js";
import { ensureStyles, listen } from "./chat.js";

let counter = 0;
const nextId = () => `rematch-${Date.now().toString(36)}-${(counter += 1)}`;

/** The address of a match page. */
export const matchUrl = (id) => `/matches/${encodeURIComponent(id)}/`;

/**
 * @param {HTMLElement} container where the offer is shown (the table's #rematch-slot)
 * @param {{sendRaw: Function}} connection the match socket (connection.js)
 * @param {object} [frame] the newest state frame the page has (the page's first one)
 * @param {{go?: Function}} [options] go(url) opens the next match (default: location.assign)
 */
export function mount(container, connection, frame = null, { go = (url) => window.location.assign(url) } = {}) {
  /** @type {{view: View | null, votes: any, error: string, ours: Set<string>, asked: string | null, went: boolean}} */
  const state = { view: frame ? frame.view : null, votes: null, error: "", ours: new Set(), asked: null, went: false };

  function names(seats) {
    const all = (state.view && state.view.names) || [];
    return seats.map((seat) => all[seat] || t("seat %(n)s", { n: seat + 1 })).join(", ");
  }

  function vote(agree) {
    const id = nextId();
    state.ours.add(id);
    state.asked = agree;
    state.error = "";
    if (!connection.sendRaw({ type: "rematch", agree, id })) {
      state.ours.delete(id);
      state.asked = null;
      state.error = t("Not connected: try again in a moment.");
    }
    render();
  }

  function render() {
    const view = state.view;
    if (!view || view.phase !== "over") {
      container.hidden = true;
      patch(container);
      return;
    }
    container.hidden = false;
    container.classList.add("rematch");
    const seated = view.seat !== null && view.seat !== undefined;
    const votes = state.votes;
    const parts = [h("h2", { class: "rematch-title" }, t("Play again?"))];
    if (votes && votes.next_match) {
      parts.push(
        h("p", { class: "rematch-status", id: "rematch-status" }, t("Everyone agreed: the next match has started.")),
        h("p", {}, h("a", { href: matchUrl(votes.next_match), id: "rematch-next", class: "tbtn primary" }, seated ? t("Go to the next match") : t("Watch the next match"))),
      );
    } else {
      const mine = seated && votes ? (votes.agreed.includes(view.seat) ? true : votes.declined.includes(view.seat) ? false : null) : null;
      const answer = mine === null ? state.asked : mine;
      if (votes) {
        const lines = [];
        if (votes.agreed.length) lines.push(t("Ready: %(names)s", { names: names(votes.agreed) }));
        if (votes.declined.length) lines.push(t("Not playing again: %(names)s", { names: names(votes.declined) }));
        if (votes.waiting.length) lines.push(t("Waiting for: %(names)s", { names: names(votes.waiting) }));
        parts.push(h("p", { class: "rematch-status", id: "rematch-status" }, lines.join(" · ")));
      } else {
        parts.push(
          h("p", { class: "rematch-status", id: "rematch-status" }, t("The same seats and table options; it starts when every player agrees.")),
        );
      }
      if (seated) {
        parts.push(
          h(
            "p",
            { class: "rematch-actions" },
            h("button", { type: "button", id: "rematch-yes", class: "tbtn primary", disabled: answer === true, "aria-pressed": answer === true ? "true" : "false", onclick: () => vote(true) }, t("Play again")),
            " ",
            h("button", { type: "button", id: "rematch-no", class: "tbtn", disabled: answer === false, "aria-pressed": answer === false ? "true" : "false", onclick: () => vote(false) }, t("No thanks")),
          ),
        );
      }
    }
    if (state.error) parts.push(h("p", { class: "rematch-error", role: "alert" }, state.error));
    patch(container, ...parts);
  }

  function onFrame(incoming) {
    if (incoming.type === "state") {
      state.view = incoming.view;
      render();
    } else if (incoming.type === "rematch") {
      state.votes = incoming;
      render();
      const seated = state.view && state.view.seat !== null && state.view.seat !== undefined;
      if (incoming.next_match && seated && !state.went) {
        state.went = true;
        go(matchUrl(incoming.next_match));
      }
    } else if (incoming.type === "error" && incoming.id !== null && state.ours.has(incoming.id)) {
      state.ours.delete(incoming.id);
      state.asked = null;
      state.error = incoming.message;
      render();
    }
  }

  ensureStyles();
  const stop = listen(connection, { onFrame });
  render();
  return {
    state,
    unmount() {
      stop();
      patch(container);
    },
  };
}

// The table's input beyond its buttons: arrow keys along the rack (one tab stop, a roving
// tabindex), the shortcut keys of the help drawer, and drag and drop (drag.js).

import { actions } from "./actions.js";
import { installDrag } from "./drag.js";
import { familyOf, takeAlone } from "./families/index.js";
import { facts } from "./render.js";
import { model, root } from "./state.js";

// Shortcut keys (listed in the help drawer, "?"): D draw, T take, L lay down, X discard the
// selected card, M the move log, S the scores, Esc closes a panel. Each presses the button the
// page shows for it, so a key does exactly what the button does (disabled: nothing).
const SHORTCUTS = {
  d: ['[data-key="draw"]', '[data-key="stock"]'],
  t: ['[data-key="take"]', () => last(root.querySelectorAll('#tbl-board [data-key^="take:"]'))],
  l: ['[data-key="submit"]', '[data-key="lay-all"]'],
  x: ['[data-key="discard"]', '[data-key="discard-here"]'],
};

/** @param {NodeListOf<Element>} list */
function last(list) {
  return list.length ? list[list.length - 1] : null;
}

/**
 * @param {Event} event
 * @param {() => void} act
 */
function pressed(event, act) {
  event.preventDefault();
  act();
}

/** @param {string} payload "kind:key" */
function splitOnce(payload) {
  const at = payload.indexOf(":");
  return at < 0 ? [payload, ""] : [payload.slice(0, at), payload.slice(at + 1)];
}

/** Listen to the keys, the focus moving along the rack, and the drags. */
export function installInput() {
  root.addEventListener("focusin", (event) => {
    const el = event.target;
    if (el instanceof HTMLElement && el.matches("#hand button.card")) {
      model.rackFocus = el.dataset.key || null;
      for (const other of root.querySelectorAll("#hand button.card")) other.tabIndex = other === el ? 0 : -1;
    }
  });

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

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const target = event.target;
    if (target instanceof HTMLElement && (target.closest("input, textarea, select, [contenteditable='true']") || target.isContentEditable)) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (key === "Escape") {
      if (model.drawer) actions.drawer(null);
      // The summary panel always has its close button (render.js, renderSummary).
      else if (root.querySelector("#summary-panel")) /** @type {HTMLElement} */ (root.querySelector('[data-key="close:summary"]')).click();
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
}

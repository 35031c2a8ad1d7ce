"""What the player can see and press on the table, checked in the page (issue 33).

``in_view(page, wanted)`` returns, for every element of ``wanted`` (a list of ``(name, selector,
every)``: the first match, or every match when ``every``), what keeps the player from seeing or
pressing it: outside the window, cut by a box that scrolls or clips (the rack, the discard row),
or covered by another element (``document.elementFromPoint`` at its centre and at four points
near its corners, each inside what its scrolling boxes show). An element that the page does not
show at all is "missing" only when ``every`` is false (a control that must be there).

``HAND`` (every card of the hand) and ``CONTROLS`` (what the player may need during a turn:
whose turn, the stock, the newest discard, the "discard here" button, the action bar's buttons,
"I'm back", the hand's bar, the drawers' buttons) are the usual lists. No rule is decided here:
the test says what must be in view, the page says where it put it.
"""

from __future__ import annotations

from typing import Any

IN_VIEW = """
(wanted) => {
  const problems = [];
  const W = window.innerWidth, H = window.innerHeight;
  const label = (el) =>
    el.dataset.card || el.dataset.key || el.id || (el.textContent || "").trim().slice(0, 24) || el.nodeName;
  const who = (el) => {
    if (!el) return "nothing";
    if (el.id) return `#${el.id}`;
    return el.className && typeof el.className === "string" ? el.className : el.nodeName;
  };
  const clipsOf = (el) => {
    // The boxes around el that scroll or clip it, up to one fixed to the window (none clips that).
    const out = [];
    const top = document.documentElement;
    for (let node = el; node.parentElement && node.parentElement !== top; node = node.parentElement) {
      if (getComputedStyle(node).position === "fixed") break;
      const s = getComputedStyle(node.parentElement);
      if (s.overflowX !== "visible" || s.overflowY !== "visible") out.push(node.parentElement);
    }
    return out;
  };
  const check = (name, el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return `${name} ${label(el)}: not shown`;
    const box = [r.left, r.top, r.right, r.bottom].map(Math.round).join(",");
    if (r.left < -0.5 || r.top < -0.5 || r.right > W + 0.5 || r.bottom > H + 0.5) {
      return `${name} ${label(el)}: outside the window (${box}) of ${W}x${H}`;
    }
    // The part of it that its scrolling or clipping boxes show.
    let [left, top, right, bottom] = [r.left, r.top, r.right, r.bottom];
    for (const p of clipsOf(el)) {
      const c = p.getBoundingClientRect();
      const cl = c.left + p.clientLeft, ct = c.top + p.clientTop;
      const cr = cl + p.clientWidth, cb = ct + p.clientHeight;
      if (r.left < cl - 0.5 || r.top < ct - 0.5 || r.right > cr + 0.5 || r.bottom > cb + 0.5) {
        const shown = [cl, ct, cr, cb].map(Math.round).join(",");
        return `${name} ${label(el)}: cut by ${who(p)} (${box} in ${shown})`;
      }
      [left, top] = [Math.max(left, cl), Math.max(top, ct)];
      [right, bottom] = [Math.min(right, cr), Math.min(bottom, cb)];
    }
    // The centre, four points a quarter in from the edges (inside any rounded corner) and two near
    // the ends of the middle line (the end of a text).
    const [w, h] = [right - left, bottom - top];
    const points = [[0.5, 0.5], [0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]]
      .concat([[0.1, 0.5], [0.9, 0.5]])
      .map(([fx, fy]) => [left + w * fx, top + h * fy]);
    for (const [x, y] of points) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(el === hit || el.contains(hit))) {
        return `${name} ${label(el)}: covered by ${who(hit)}`;
      }
    }
    return null;
  };
  for (const [name, selector, every] of wanted) {
    const els = every
      ? [...document.querySelectorAll(selector)]
      : [document.querySelector(selector)].filter(Boolean);
    if (!els.length && !every) problems.push(`${name}: missing`);
    for (const el of els) {
      if (every && el.closest("[hidden]")) continue;  // put away on purpose (the "More" menu)
      const problem = check(name, el);
      if (problem) problems.push(problem);
    }
  }
  return problems;
}
"""

#: Every card of the hand (the rack's cards).
HAND = [("card", "#hand button.card", True)]

#: What the player may need to see or press during a turn (those the page shows).
CONTROLS = [
    ("turn", "#turn-line", False),
    ("stock", "#tbl-board .stock", False),
    ("newest discard", "#tbl-board .discards li:last-child", True),
    ("discard here", '[data-key="discard-here"]', True),
    ("action", "#controls button", True),
    ("I'm back", '[data-key="back"]', True),
    ("hand's bar", ".mine-bar button", True),
    ("drawer button", ".drawer-buttons button", True),
]


def in_view(page: Any, wanted: list[tuple[str, str, bool]]) -> list[str]:
    """What of ``wanted`` the player cannot see or press on ``page`` (empty: all of it)."""
    return list(page.evaluate(IN_VIEW, [list(w) for w in wanted]))


def where(page: Any) -> str:
    size = page.viewport_size or {"width": 0, "height": 0}
    language = page.evaluate("document.documentElement.lang")
    return f"{size['width']}x{size['height']} {language}"

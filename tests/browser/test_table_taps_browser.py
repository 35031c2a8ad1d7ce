"""Every tap target of the table on a phone while a move is being built (issue 33: the "Remove"
button inside the move being built was under 44 px), in Polish and Romanian.

A Remik 51 turn, both seats opened: the player draws, builds a new meld with a joker (its "◀ ▶"
buttons, the joker's choice, "Remove") and a lay-off onto a meld of the table (its "Remove"), then
every button, link, select and input the page shows inside the window is measured: each must be at
least 44 px in its smaller dimension (docs/table.md, "Cards and buttons are at least 44 px on
phones"). Screenshots: tests/browser/artifacts/taps-building-<w>x<h>-<language>.png.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import viewkit
from tests.browser.tablekit import Seat, version, wait_version
from tests.browser.test_table_phone_browser import _open, _press, _rigged_pair, _settled

pytestmark = pytest.mark.timeout(300)

#: Everything a finger can press, shown, inside the window; [what, width, height] of each.
TARGETS = """
() => {
  const W = window.innerWidth, H = window.innerHeight;
  const shown = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const s = getComputedStyle(node);
      if (s.display === "none" || s.visibility === "hidden" || node.inert || node.hidden) return false;
      if (node.getAttribute && node.getAttribute("aria-hidden") === "true") return false;
    }
    return true;
  };
  const found = [];
  const selector = "button, a[href], select, input:not([type=hidden]), textarea, [role=button], summary";
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || r.right <= 0 || r.bottom <= 0 || r.left >= W || r.top >= H) continue;
    if (!shown(el) || el.closest(".visually-hidden")) continue;
    const text = (el.textContent || "").trim().slice(0, 30);
    const name = el.dataset.key || el.getAttribute("aria-label") || text || el.nodeName;
    found.push([name, Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10]);
  }
  return found;
}
"""


@pytest.fixture
def remik_building(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    """Remik 51, two seats, both opened; Ala holds two kings, a joker and the 9 of hearts."""
    match_id, seats, _ = _rigged_pair(
        "remik51",
        request.param,
        b"phone taps",
        "Stolik",
        hands=["KH KD JK 9H 4S", "2S 5S 9S JS 3H 6H TH 4D 8D QD 5C 7C"],
        melds=[(0, "AS 2S 3S"), (1, "7D 8D 9D"), (0, "5H 6H 7H 8H")],
        discard="8S",
        opened=[True, True],
        turn=0,
        phase="draw",
        turns_started=[3, 3],
    )
    return match_id, seats


@pytest.mark.parametrize(
    ("remik_building", "size"),
    [
        (("pl", "ro"), "390x844"),
        (("ro", "pl"), "390x844"),
        (("pl", "ro"), "360x740"),
        (("ro", "pl"), "360x740"),
    ],
    indirect=["remik_building"],
    ids=["390-pl", "390-ro", "360-pl", "360-ro"],
)
def test_every_tap_target_is_44_px_while_a_move_is_built_on_a_phone(
    remik_building: tuple[int, list[Seat]], size: str, server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = remik_building
    page = _open(browser, server_url, match_id, seats[0], size)
    at = version(page)
    _press(page, '[data-key="draw"]')
    wait_version(page, at + 1)
    _settled(page)
    for card in ("KH", "KD", "JK"):
        _press(page, f'#hand button.card[data-card^="{card}"]')
    _press(page, '[data-key="new-meld"]')
    _press(page, '#hand button.card[data-card^="9H"]')
    _press(page, '[data-key="meld-target:3"]')
    page.wait_for_selector('#draft [data-key="rm-layoff:0"]')
    page.wait_for_selector('#draft [data-key="rm-meld:0"]')
    _settled(page)
    targets = page.evaluate(TARGETS)
    language = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(artifacts / f"taps-building-{size}-{language}.png"))
    page.evaluate("document.getElementById('mine-info').scrollTop = 1e6")
    page.screenshot(path=str(artifacts / f"taps-building-{size}-{language}-scrolled.png"))
    names = [name for name, _, _ in targets]
    assert "rm-meld:0" in names, f"{viewkit.where(page)}: {targets}"
    assert "rm-layoff:0" in names, f"{viewkit.where(page)}: {targets}"
    small = [f"{name}: {w}x{h}" for name, w, h in targets if min(w, h) < 43.5]
    assert small == [], f"{viewkit.where(page)}: {small}"

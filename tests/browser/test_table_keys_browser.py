"""The table's keyboard, alerts and refusals (issue 14, items 5, 6, 10 to 13): each test reproduces
what was seen on the old page and checks what the table does now.

* item 6: before opening (Remik 51) a table meld's "Add selected" cannot be pressed and says why;
* item 5: a refused move is shown next to the control that was pressed, inside the window;
* item 10: the rack is one tab stop; arrows move the focus, Shift+arrows the card; D, X, ? work;
  from the rack "Discard" is a few Tab presses away;
* item 11: disabled buttons are readable (contrast ≥ 4.5:1) and "Lay down all" drops an old label;
* item 12: on the phone (390x844) the rack does not move when a sort changes the engine's reason
  for not laying down, and with it the lay-down text's length;
* item 13: the title and the icon say that it is your turn, then that your clock runs out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from unittest import mock

import pytest

from games import engine
from games.play import services
from games.play.models import Match
from tests.browser.tablekit import Seat, open_page, rig, seat_of, users, version, wait_version

pytestmark = pytest.mark.timeout(240)

PHONE = {"viewport": {"width": 360, "height": 740}, "has_touch": True, "is_mobile": True}
LAPTOP = {"viewport": {"width": 1280, "height": 720}}
PHONE_390 = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}

# Where the rack is in the window (where a finger taps), at every frame, into window.__rack; the
# page rebuilds its regions, so #hand is looked up again each frame.
RACK_WATCH = """
() => {
  window.__rack = [];
  const watch = () => {
    const hand = document.querySelector("#hand");
    if (hand) {
      const r = hand.getBoundingClientRect();
      window.__rack.push([r.x, r.y].map((v) => Math.round(v * 10) / 10));
    }
    requestAnimationFrame(watch);
  };
  requestAnimationFrame(watch);
}
"""

CONTRAST = """
(el) => {
  // The contrast as painted: the element's colours seen through its own and its ancestors'
  // opacity over the first background behind it (the old page dimmed disabled buttons so).
  const rgba = (text) => {
    const v = text.match(/[\\d.]+/g).map(Number);
    return { c: v.slice(0, 3), a: v.length > 3 ? v[3] : 1 };
  };
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const mix = (top, bottom, a) => top.map((v, i) => a * v + (1 - a) * bottom[i]);
  let behind = [255, 255, 255];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const bg = rgba(getComputedStyle(p).backgroundColor);
    if (bg.a > 0) { behind = bg.c; break; }
  }
  let alpha = 1;
  for (let p = el; p; p = p.parentElement) alpha *= Number(getComputedStyle(p).opacity);
  const style = getComputedStyle(el);
  const own = rgba(style.backgroundColor);
  const back = own.a > 0 ? mix(own.c, behind, own.a) : behind;
  const fg = mix(rgba(style.color).c, back, 1);
  const a = lum(mix(fg, behind, alpha)), b = lum(mix(back, behind, alpha));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
"""


def contrast(page: Any, selector: str) -> float:
    """CONTRAST of the element ``selector`` finds, found and measured in one task of the page: the
    page rebuilds its regions on every frame and rack answer, and an element handle taken first
    may be detached by then (its computed colours are empty: seen once in the PostgreSQL run)."""
    return float(page.eval_on_selector(selector, CONTRAST))


@dataclass
class Table:
    match_id: int
    ala: Seat
    bartek: Seat


def _start(players: list[Any], secret: bytes, turn_seconds: int = 3600) -> Match:
    room = services.room_create(
        owner=players[0],
        name="Klawisze",
        variant="remik51",
        options={"max_players": 2},
        seats=2,
        turn_seconds=turn_seconds,
    )
    for index, user in enumerate(players):
        services.seat_take(room=room, user=user, index=index)
    with mock.patch("secrets.token_bytes", return_value=secret):
        return services.match_start(room=room)


def _table(secret: bytes, *, turn_seconds: int = 3600, **position: Any) -> Table:
    """Ala and Bartek at a two-seat Remik 51 table rigged to ``position`` (engine.position's
    arguments besides the variant and the names)."""
    players = users(2)
    match = _start(players, secret, turn_seconds=turn_seconds)
    state = engine.position(
        engine.variant("remik51", max_players=2), turns_started=[3, 3], names=["ala", "bartek"], **position
    )
    rig(match, state)
    return Table(match.pk, seat_of(players, 0), seat_of(players, 1))


@pytest.fixture
def not_opened(transactional_db: None) -> Table:
    """Ala has drawn and not opened; Bartek's run is on the table; 9H would fit it."""
    return _table(
        b"keys not opened",
        hands=["9H 2S 5C KD 7C 3D JS 4H QC", "2D 3C 4S 6D 8S TC QH KS"],
        melds=[(1, "6H 7H 8H")],
        discard="5D",
        opened=[False, True],
        turn=0,
        phase="play",
    )


@pytest.fixture
def sorts_change_the_reason(transactional_db: None) -> Table:
    """Ala has drawn and not opened. Sorted by rank her three sevens stand as a set (the engine: the
    opening needs a pure run); sorted by suit no block is a meld (the engine: nothing to lay): the
    lay-down text changes length with each sort."""
    return _table(
        b"keys sorts change the reason",
        hands=["7S 7H 7C 2D 9D KS 4C QH JD", "2H 3C 4S 6D 8S TC QS KH"],
        discard="5D",
        opened=[False, False],
        turn=0,
        phase="play",
    )


@pytest.fixture
def short_clock(transactional_db: None) -> Table:
    """Bartek to move (he draws, then discards); Ala's turn comes with a clock of 14 seconds."""
    return _table(
        b"keys short clock",
        turn_seconds=14,
        hands=["9H 2S 5C KD 7C 3D JS 4H QC", "2D 3C 4S 6D 8S TC QH KS"],
        discard="5D",
        turn=1,
        phase="draw",
    )


def test_before_opening_a_lay_off_cannot_be_built_and_says_why_issue_14_item_6(
    not_opened: Table, server_url: str, browser: Any
) -> None:
    ala = open_page(browser, server_url, not_opened.match_id, not_opened.ala, **LAPTOP)
    nine = ala.locator('#hand button.card[data-card^="9H"]')
    nine.click()
    add = ala.locator('[data-key="layoff:1"]')
    # Before: "Add selected" was enabled and the refusal came at the meld, out of sight.
    assert add.is_disabled()
    assert add.inner_text() == "You have not opened yet."
    assert ala.locator('[data-key="meld-target:1"]').count() == 0  # the meld is no tap target either
    assert contrast(ala, '[data-key="layoff:1"]') >= 4.5


#: The refusal's box and the action bar's, once the refusal is shown (else null).
ERROR_AND_CONTROLS = """() => {
  const rect = (el) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.width && r.height ? { x: r.x, y: r.y, width: r.width, height: r.height } : null;
  };
  const box = rect(document.getElementById("move-error"));
  const at = rect(document.getElementById("controls"));
  return box && at ? { box, at } : null;
}"""


def test_a_refusal_shows_next_to_the_pressed_control_inside_the_window_issue_14_item_5(
    not_opened: Table, server_url: str, browser: Any
) -> None:
    ala = open_page(browser, server_url, not_opened.match_id, not_opened.ala, **PHONE)
    for card in ("2S", "5C", "KD"):  # no meld
        ala.locator(f'#hand button.card[data-card^="{card}"]').tap()
    ala.locator('[data-key="new-meld"]').tap()
    submit = ala.locator('[data-key="submit"]')
    submit.tap()
    # Both boxes read in one task of the page: a render (the rack's check answering) replaces
    # the page's elements, and a box read through a locator in between finds its element gone.
    rects = ala.wait_for_function(ERROR_AND_CONTROLS, timeout=10000).json_value()
    box, at = rects["box"], rects["at"]
    height = ala.viewport_size["height"]
    assert box["y"] >= 0, box
    assert box["y"] + box["height"] <= height, box
    assert abs((box["y"] + box["height"]) - at["y"]) < 40, (box, at)  # right above the action bar
    assert ala.evaluate("document.scrollingElement.scrollHeight <= innerHeight")


def test_the_rack_is_one_tab_stop_and_the_keys_play_a_turn_issue_14_item_10(
    short_clock: Table, server_url: str, browser: Any
) -> None:
    bartek = open_page(browser, server_url, short_clock.match_id, short_clock.bartek, **LAPTOP)
    cards = bartek.locator("#hand button.card")
    stops = bartek.evaluate(
        "[...document.querySelectorAll('#hand button.card')].filter(b => b.tabIndex === 0).length"
    )
    assert stops == 1  # before: every card was a tab stop
    at = version(bartek)
    bartek.keyboard.press("d")  # D draws
    wait_version(bartek, at + 1)
    first = cards.first
    first.focus()
    bartek.keyboard.press("ArrowRight")
    assert bartek.evaluate("document.activeElement.dataset.key") == cards.nth(1).get_attribute("data-key")
    moved = bartek.evaluate("document.activeElement.dataset.card")
    before = bartek.evaluate("window.remiTable.model.rack.slots.indexOf(document.activeElement.dataset.card)")
    bartek.keyboard.press("Shift+ArrowRight")
    after = bartek.evaluate(f"window.remiTable.model.rack.slots.indexOf({moved!r})")
    assert after == before + 1
    # Select the focused card and reach "Discard selected" with Tab: a few presses, not eleven.
    bartek.keyboard.press("Space")
    presses = 0
    while bartek.evaluate("document.activeElement.dataset.key") != "discard":
        bartek.keyboard.press("Tab")
        presses += 1
        assert presses <= 4, "Discard is more than four Tab presses from the rack"
    bartek.keyboard.press("x")  # X discards the selected card
    wait_version(bartek, at + 2)
    bartek.keyboard.press("?")
    assert bartek.locator("#drawer-help").is_visible()
    assert "draw from the stock" in bartek.inner_text("#keys-help")
    bartek.keyboard.press("Escape")
    assert not bartek.locator("#drawer-help").is_visible()


def test_your_turn_shows_in_the_title_and_icon_then_the_clock_warning_issue_14_item_13(
    short_clock: Table, server_url: str, browser: Any
) -> None:
    ala = open_page(browser, server_url, short_clock.match_id, short_clock.ala, **PHONE)
    bartek = open_page(browser, server_url, short_clock.match_id, short_clock.bartek, **LAPTOP)
    assert not ala.title().startswith("●")
    assert ala.get_attribute("#table-icon", "data-state") == "idle"
    at = version(bartek)
    bartek.locator('[data-key="draw"]').click()
    wait_version(bartek, at + 1)
    bartek.locator("#hand button.card").last.click()
    bartek.locator('[data-key="discard"]').click()
    wait_version(ala, at + 2)
    ala.wait_for_function("document.title.startsWith('●')", timeout=5000)
    assert ala.get_attribute("#table-icon", "data-state") == "turn"
    assert ala.evaluate("window.remiTable.model.alerts") == ["turn"]
    assert not bartek.title().startswith("●")
    # Ten seconds before the clock runs out: the warning (the clock here is 14 s).
    ala.wait_for_function("document.title.startsWith('⏰')", timeout=10000)
    assert ala.get_attribute("#table-icon", "data-state") == "clock"
    assert ala.evaluate("window.remiTable.model.alerts") == ["turn", "clock"]
    # The sound is off unless chosen (settings drawer), and the choice is kept.
    ala.locator('[data-key="drawer:settings"]').tap()
    sound = ala.locator('[data-key="pref:sound"]')
    assert sound.get_attribute("aria-pressed") == "false"
    sound.tap()
    assert ala.evaluate("localStorage.getItem('remi.cards.sound')") == "1"


def test_disabled_lay_down_is_readable_issue_14_item_11(
    not_opened: Table, server_url: str, browser: Any
) -> None:
    ala = open_page(browser, server_url, not_opened.match_id, not_opened.ala, **PHONE)
    ala.wait_for_selector('#table-app[data-rack="checked"]', timeout=10000)
    lay = ala.locator('[data-key="lay-all"]')
    assert lay.is_disabled()
    assert contrast(ala, '[data-key="lay-all"]') >= 4.5  # before: 2.15:1


def test_the_phone_rack_stays_put_when_a_sort_changes_the_lay_down_text_issue_14_item_12(
    sorts_change_the_reason: Table, server_url: str, browser: Any
) -> None:
    table = sorts_change_the_reason
    ala = open_page(browser, server_url, table.match_id, table.ala, **PHONE_390)
    ala.wait_for_selector('#table-app[data-rack="checked"]', timeout=10000)
    ala.locator('[data-key="sort-sets"]').tap()
    ala.wait_for_selector('#table-app[data-rack="checked"]', timeout=10000)
    ala.wait_for_timeout(350)
    rack = ala.locator("#hand").bounding_box()
    assert rack
    at = [round(rack[k] * 10) / 10 for k in ("x", "y")]
    ala.evaluate(
        """window.__moves = [];
        new PerformanceObserver((l) => {
          for (const e of l.getEntries()) if (!e.hadRecentInput) window.__moves.push(e.value);
        }).observe({type: "layout-shift"})"""
    )
    ala.evaluate(RACK_WATCH)
    # The engine's reason after each sort: its text is twice as long sorted by suit (two lines on
    # the old page, above the rack) as sorted by rank.
    for mode, code in (("sort-runs", "nothing_to_lay"), ("sort-sets", "opening_needs_run")) * 2:
        ala.evaluate("window.__rack.length = 0")
        ala.locator(f'[data-key="{mode}"]').tap()
        ala.wait_for_selector(f'#lay-reason[data-code="{code}"]', state="attached", timeout=10000)
        ala.wait_for_selector('#table-app[data-rack="checked"]', timeout=10000)
        ala.wait_for_timeout(350)  # past the 140 to 290 ms where the old text changed
        boxes = {tuple(box) for box in ala.evaluate("window.__rack")}
        assert boxes == {tuple(at)}, f"{mode}: the rack moved: {sorted(boxes)} (it was at {at})"
    assert ala.evaluate("window.__moves") == []


def test_tap_to_move_inserts_onto_an_occupied_slot_issue_14_item_2(
    not_opened: Table, server_url: str, browser: Any
) -> None:
    ala = open_page(browser, server_url, not_opened.match_id, not_opened.ala, **PHONE)
    ala.wait_for_selector('#table-app[data-rack="checked"]', timeout=10000)
    slots = ala.evaluate("window.remiTable.model.rack.slots")
    moving, target = slots[5], slots[1]
    ala.locator(f'#hand button.card[data-card="{moving}"]').tap()
    ala.locator('[data-key="move"]').tap()
    ala.locator(f'#hand button.card[data-card="{target}"]').tap()  # a slot with a card: inserted there
    after = ala.evaluate("window.remiTable.model.rack.slots")
    assert after.index(moving) == 1
    assert after.index(target) == 2
    assert sorted(k for k in after if k) == sorted(k for k in slots if k)
    # Before: only an empty slot took a tapped card; arranging by taps grew the rack row by row.
    assert len(after) <= len(slots) + 1

"""The table on a phone and after a round (issue 33, items 6 to 10), in Polish and Romanian.

Every check is ``viewkit.in_view``: each card of the hand and each control the player may need
is inside the window, not cut by a box that scrolls, and not covered by anything
(``elementFromPoint``). The pages are opened by players whose language is Polish or Romanian, at
the four sizes the table is made for (1366x768, 1280x720, 390x844, 360x740); a screenshot of each
step goes to tests/browser/artifacts/ (``phone-<what>-<w>x<h>-<language>.png``).

- item 6: a round of Remik 51 played to its end; the summary stays through the pause between the
  deals and into the next deal, and covers nothing the player needs (the stock, the discards,
  "I'm back", the rack, the buttons); it closes by itself when the next deal's first turn is the
  player's;
- item 7: Remi hands of 10 and 15 cards sorted with gaps, drawn to and selected, and a gin hand
  that can knock, at 390x844 and 360x740: every card in view, the action bar in two rows at most;
- item 8: a Remi row of 20 discards on a phone: a cue says how many older ones are out of sight,
  one tap shows the whole row, and a deep card is then taken with one more tap.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from games import engine
from games.engine.positions import gin_position
from tests.browser import viewkit
from tests.browser.tablekit import Seat, rig, seat_of, start_match, users, version, wait_live, wait_version

pytestmark = pytest.mark.timeout(300)

SIZES = {
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "390x844": {"width": 390, "height": 844},
    "360x740": {"width": 360, "height": 740},
}
PHONES = ("390x844", "360x740")


def _players(count: int, languages: tuple[str, ...]) -> list[Any]:
    players = users(count)
    for user, language in zip(players, languages, strict=True):
        user.language = language
        user.save(update_fields=["language"])
    return players


def _rigged_pair(
    variant: str, languages: tuple[str, ...], seed: bytes, name: str, **position: Any
) -> tuple[int, list[Seat], Any]:
    """A two-seat match of ``variant`` for Ala and Bartek (in ``languages``), rigged to
    ``engine.position(..., **position)``: the match id, the two seats and the state."""
    players = _players(2, languages)
    match = start_match(variant, {"max_players": 2}, players, seed, name=name)
    state = engine.position(engine.variant(variant, max_players=2), names=["ala", "bartek"], **position)
    rig(match, state)
    return match.pk, [seat_of(players, 0), seat_of(players, 1)], state


def _open(browser: Any, server_url: str, match_id: int, seat: Seat, size: str) -> Any:
    viewport = SIZES[size]
    touch = viewport["width"] < 600
    ctx = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": seat.cookie, "url": server_url}])
    page = ctx.new_page()
    page.goto(f"{server_url}/matches/{match_id}/")
    wait_live(page)
    _settled(page)
    return page


def _settled(page: Any) -> None:
    page.wait_for_selector('#table-app:is([data-rack="checked"], [data-rack="off"])', timeout=10000)
    page.wait_for_timeout(150)


def _press(page: Any, selector: str) -> None:
    locator = page.locator(selector)
    if (page.viewport_size or {"width": 1000})["width"] < 600:
        locator.tap()
    else:
        locator.click()


def _assert_in_view(page: Any, wanted: list[tuple[str, str, bool]], when: str) -> None:
    problems = viewkit.in_view(page, wanted)
    import os

    if os.environ.get("EXPLORE"):
        print("EXPLORE", viewkit.where(page), when, problems)
        return
    assert problems == [], f"{viewkit.where(page)} {when}: {problems}"


def _shoot(page: Any, artifacts: Path, what: str) -> None:
    size = page.viewport_size
    language = page.evaluate("document.documentElement.lang")
    page.screenshot(path=str(artifacts / f"phone-{what}-{size['width']}x{size['height']}-{language}.png"))


# --- item 7: every card of the hand in view ---------------------------------------------------------

# Four suits and a joker: sorted by runs the rack puts an empty slot between the groups.
REMI_HANDS = {
    10: "3H 4H 9H 2S 7S KS 5D JD 8C QC",
    15: "3H 4H 5H 9H 2S 7S 8S KS 5D 6D JD 8C QC KC JK",
}


@pytest.fixture
def remi_hand(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    count, languages = request.param
    match_id, seats, _ = _rigged_pair(
        "remi",
        languages,
        b"phone remi hand",
        "Masa",
        hands=[REMI_HANDS[count], "2H 6H TH 3S 4S 9S TS 2D 3D 4D 2C 3C 4C 5C"],
        discard="6S",
        turn=0,
        phase="draw",
        turns_started=[3, 3],
    )
    return match_id, seats


@pytest.mark.parametrize(
    ("remi_hand", "size"),
    [
        ((10, ("pl", "ro")), "390x844"),
        ((15, ("ro", "pl")), "390x844"),
        ((15, ("pl", "ro")), "360x740"),
    ],
    indirect=["remi_hand"],
    ids=["10-cards-390-pl", "15-cards-390-ro", "15-cards-360-pl"],
)
def test_every_card_of_a_remi_hand_is_in_view_on_a_phone_issue_33_item_7(
    remi_hand: tuple[int, list[Seat]], size: str, server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = remi_hand
    page = _open(browser, server_url, match_id, seats[0], size)
    wanted = viewkit.HAND + viewkit.CONTROLS
    _assert_in_view(page, wanted, "dealt")
    at = version(page)
    _press(page, '[data-key="draw"]')
    wait_version(page, at + 1)
    _settled(page)
    _assert_in_view(page, wanted, "after the draw")
    _press(page, '[data-key="sort-runs"]')
    _settled(page)
    _assert_in_view(page, wanted, "sorted by runs")
    _press(page, "#hand button.card >> nth=0")
    _settled(page)
    _assert_in_view(page, wanted, "a card selected")
    assert _button_rows(page) <= 2, f"{viewkit.where(page)}: the action bar takes {_button_rows(page)} rows"
    _shoot(page, artifacts, f"remi-{len(page.locator('#hand button.card').all())}")


def _button_rows(page: Any) -> int:
    return int(
        page.evaluate(
            "new Set([...document.querySelectorAll('#controls .buttons > button')]"
            ".map((b) => Math.round(b.getBoundingClientRect().top))).size"
        )
    )


@pytest.fixture
def gin_knock(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    players = _players(2, request.param)
    match = start_match("gin", {}, players, b"phone gin knock", name="Gin")
    state = gin_position(
        engine.variant("gin"),
        hands=["AD 2D 3D 6C 7C 8C 9C 2S 3H 4S", "5S 6S 7S 7H 8H 9H TD JD QD 5C"],
        discard="QH",
        stock="KH",
        turn=0,
        phase="draw",
        upcard="QH",
        names=["ala", "bartek"],
    )
    rig(match, state)
    return match.pk, [seat_of(players, 0), seat_of(players, 1)]


@pytest.mark.parametrize("gin_knock", [("pl", "ro"), ("ro", "pl")], indirect=True, ids=["pl", "ro"])
def test_a_gin_hand_that_can_knock_is_whole_at_360x740_issue_33_item_7(
    gin_knock: tuple[int, list[Seat]], server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = gin_knock
    page = _open(browser, server_url, match_id, seats[0], "360x740")
    at = version(page)
    _press(page, '[data-key="draw"]')
    wait_version(page, at + 1)
    _settled(page)
    assert page.locator('[data-key="knock-best"]').count() == 1  # a knock is possible
    wanted = viewkit.HAND + viewkit.CONTROLS + [("knock", '[data-key="knock-best"]', False)]
    _assert_in_view(page, wanted, "can knock")
    _press(page, '#hand button.card[data-card^="KH"]')
    _settled(page)
    _assert_in_view(page, wanted, "a card selected")
    _shoot(page, artifacts, "gin-knock")
    assert _button_rows(page) <= 2, f"{viewkit.where(page)}: the action bar takes {_button_rows(page)} rows"
    info = page.eval_on_selector("#mine-info", "(el) => [el.scrollHeight, el.clientHeight]")
    assert info[0] <= info[1] + 1, f"{viewkit.where(page)}: the facts are cut ({info[0]} > {info[1]})"
    _shoot(page, artifacts, "gin-knock")


# --- item 6: the round's summary covers nothing the player needs -------------------------------------


@pytest.fixture
def remik_last_turn(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    """Remik 51, two seats, both opened; Ala goes out this turn with her three kings."""
    match_id, seats, _ = _rigged_pair(
        "remik51",
        request.param,
        b"phone round end",
        "Stolik",
        hands=["KH KD KC", "2S 5S 9S JS 3H 6H TH 4D 8D QD 5C 7C"],
        melds=[(0, "AS 2S 3S"), (1, "7D 8D 9D"), (0, "5H 6H 7H 8H")],
        discard="8S",
        opened=[True, True],
        turn=0,
        phase="draw",
        turns_started=[3, 3],
    )
    return match_id, seats


NEEDED = viewkit.HAND + viewkit.CONTROLS


@pytest.mark.parametrize(
    ("remik_last_turn", "sizes"),
    [
        (("pl", "ro"), ("1366x768", "390x844")),
        (("ro", "pl"), ("1280x720", "360x740")),
        (("ro", "pl"), ("390x844", "1366x768")),
        (("pl", "ro"), ("360x740", "1280x720")),
    ],
    indirect=["remik_last_turn"],
    ids=["1366pl+390ro", "1280ro+360pl", "390ro+1366pl", "360pl+1280ro"],
)
def test_the_round_summary_covers_no_control_into_the_next_round_issue_33_item_6(
    remik_last_turn: tuple[int, list[Seat]],
    sizes: tuple[str, str],
    server_url: str,
    browser: Any,
    artifacts: Path,
) -> None:
    match_id, seats = remik_last_turn
    ala, bartek = (
        _open(browser, server_url, match_id, seat, size) for seat, size in zip(seats, sizes, strict=True)
    )
    # Bartek steps away: his page shows "I'm back", which nothing may cover.
    bartek.evaluate("window.remiTable.connection.sendRaw({type: 'away'})")
    bartek.wait_for_selector('[data-key="back"]')
    at = version(ala)
    _press(ala, '[data-key="draw"]')
    wait_version(ala, at + 1)
    _settled(ala)
    for key in ("KH", "KD", "KC"):
        _press(ala, f'#hand button.card[data-card^="{key}"]')
    _press(ala, '[data-key="new-meld"]')
    _press(ala, '[data-key="submit"]')
    wait_version(ala, at + 2)
    _settled(ala)
    _press(ala, "#hand button.card")
    _press(ala, '[data-key="discard"]')
    for page in (ala, bartek):
        wait_version(page, at + 3)
        page.wait_for_selector("#summary-panel")
        _settled(page)
    # The pause between the deals: the summary is there, and covers nothing.
    for name, page in (("ala", ala), ("bartek", bartek)):
        _assert_in_view(page, [*NEEDED, ("summary", '[data-key="close:summary"]', False)], "in the pause")
        _shoot(page, artifacts, f"round-end-pause-{name}")
    # The next deal's first turn is Bartek's: his summary closes by itself; Ala's stays, covering nothing.
    bartek.wait_for_selector("#turn-line.mine", timeout=15000)
    _press(bartek, '[data-key="back"]')
    # (His first turn starts with a discard: fourteen cards.)
    bartek.wait_for_selector('#controls [data-key="discard"]', timeout=15000)
    bartek.wait_for_timeout(300)
    assert bartek.locator("#summary-panel").count() == 0, (
        f"{viewkit.where(bartek)}: the summary is still open"
    )
    _assert_in_view(bartek, NEEDED, "his first turn")
    _assert_in_view(ala, NEEDED, "the next deal, his turn")
    for name, page in (("ala", ala), ("bartek", bartek)):
        _shoot(page, artifacts, f"round-end-next-{name}")


# --- item 8: a deep take from the Remi row on a phone ------------------------------------------------

# The row's cards scrolled out of sight above its box.
HIDDEN_IN_ROW = """(() => {
  const row = document.querySelector('.discards.row');
  const top = row.getBoundingClientRect().top;
  return [...row.querySelectorAll('li')].filter((li) => li.getBoundingClientRect().bottom <= top + 1).length;
})()"""


@pytest.fixture
def remi_row(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    match_id, seats, _ = _rigged_pair(
        "remi",
        request.param,
        b"phone remi row",
        "Masa",
        hands=["4H 5H 9C KS KD 2C 7D JS QC", "2S 3S 7C 8D JH QD 2H 4C 6S"],
        discard="5S TD AH 5C 3H 6D 7S 8H 9D TC JD QS KH AD 2D 3D 4D 5D 6H 7H",
        melds=[(0, "8S 9S TS")],
        opened=[True, False],
        turn=0,
        phase="draw",
        turns_started=[6, 6],
    )
    return match_id, seats


@pytest.mark.parametrize(
    ("remi_row", "size"),
    [(("pl", "ro"), "390x844"), (("ro", "pl"), "360x740")],
    indirect=["remi_row"],
    ids=["390-pl", "360-ro"],
)
def test_a_deep_take_from_the_remi_row_is_one_tap_away_on_a_phone_issue_33_item_8(
    remi_row: tuple[int, list[Seat]], size: str, server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = remi_row
    page = _open(browser, server_url, match_id, seats[0], size)
    # The row shows its newest cards; a cue says how many older ones are out of sight.
    more = page.locator('[data-key="row-more"]')
    assert more.count() == 1, f"{viewkit.where(page)}: no cue for the older discards"
    hidden = page.evaluate(HIDDEN_IN_ROW)
    assert hidden > 0
    assert str(hidden) in more.inner_text(), (hidden, more.inner_text())
    _assert_in_view(page, [*NEEDED, ("more", '[data-key="row-more"]', False)], "the row closed")
    # One tap shows the whole row; a tap on a deep card starts the take.
    _press(page, '[data-key="row-more"]')
    _assert_in_view(page, [("discard", ".discards.row li", True)], "the row open")
    _shoot(page, artifacts, "remi-row-open")
    _press(page, '.discards.row button.card[data-card^="QS"]')
    _settled(page)
    assert page.locator("#hand .src-picked").count() == 1
    assert page.locator("#hand .src-along").count() == 8
    _assert_in_view(page, NEEDED, "the take being built")
    _shoot(page, artifacts, "remi-deep-take")


# --- item 10: smaller things ----------------------------------------------------------------------

# Every layout shift from the page's start (no input: the page is only opened).
SHIFTS = """
window.__loadShifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__loadShifts.push({
      value: entry.value, at: Math.round(entry.startTime),
      nodes: (entry.sources || []).map((s) => {
        const n = s.node;
        const name = n ? n.id || (typeof n.className === "string" && n.className) || n.nodeName : "?";
        return `${name} ${Math.round(s.previousRect.x)},${Math.round(s.previousRect.y)}`
          + ` -> ${Math.round(s.currentRect.x)},${Math.round(s.currentRect.y)}`;
      }),
    });
  }
}).observe({ type: "layout-shift", buffered: true });
"""


@pytest.mark.parametrize("remik_last_turn", [("pl", "ro"), ("ro", "pl")], indirect=True, ids=["pl", "ro"])
@pytest.mark.parametrize("size", ["1366x768", "1280x720"])
def test_the_laptop_table_does_not_shift_after_it_opens_issue_33_item_10(
    remik_last_turn: tuple[int, list[Seat]], size: str, server_url: str, browser: Any
) -> None:
    match_id, seats = remik_last_turn
    ctx = browser.new_context(viewport=SIZES[size])
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": seats[0].cookie, "url": server_url}])
    ctx.add_init_script(SHIFTS)
    page = ctx.new_page()
    page.goto(f"{server_url}/matches/{match_id}/")
    wait_live(page)
    _settled(page)
    page.wait_for_timeout(1200)  # the shift seen came ~270 ms after the load
    shifts = page.evaluate("window.__loadShifts")
    assert sum(s["value"] for s in shifts) == 0, f"{viewkit.where(page)}: shifts at load {shifts}"


@pytest.mark.parametrize("gin_knock", [("pl", "ro"), ("ro", "pl")], indirect=True, ids=["pl", "ro"])
def test_the_round_and_the_drawers_tap_targets_on_a_phone_issue_33_item_10(
    gin_knock: tuple[int, list[Seat]], server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = gin_knock
    page = _open(browser, server_url, match_id, seats[0], "360x740")
    other = _open(browser, server_url, match_id, seats[1], "390x844")
    # "Rozdanie 1" / "Împărțirea 1" whole, beside the connection's pill.
    _assert_in_view(page, [("round", ".round-line", False), ("connection", ".conn", False)], "the top bar")
    # Chat: another player's line has "Mute" and "Report", 44 px tall at least.
    other.evaluate("window.remiTable.connection.sendRaw({type: 'chat', text: 'cześć'})")
    page.locator('[data-key="drawer:chat"]').tap()
    page.wait_for_selector(".chat-mute")
    small = page.evaluate(SMALL_TARGETS, "#drawer-chat .chat-tool")
    assert small == [], f"{viewkit.where(page)}: chat {small}"
    _shoot(page, artifacts, "chat")
    page.locator('#drawer-chat [data-key="close:chat"]').tap()
    page.locator('[data-key="drawer:settings"]').tap()
    page.wait_for_selector("#drawer-settings:not([hidden])")
    small = page.evaluate(
        SMALL_TARGETS, "#drawer-settings a, #drawer-settings button, #drawer-settings select"
    )
    assert small == [], f"{viewkit.where(page)}: settings drawer {small}"
    _shoot(page, artifacts, "settings")


SMALL_TARGETS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.getClientRects().length && !el.closest(".visually-hidden"))
  .map((el) => [el.textContent.trim().slice(0, 20), Math.round(el.getBoundingClientRect().height)])
  .filter(([, h]) => h < 43.5)"""


@pytest.fixture
def gin_offer(request: pytest.FixtureRequest, transactional_db: None) -> tuple[int, list[Seat]]:
    players = _players(2, request.param)
    match = start_match("gin", {}, players, b"phone gin offer", name="Gin")
    return match.pk, [seat_of(players, 0), seat_of(players, 1)]


@pytest.mark.parametrize("gin_offer", [("pl", "ro"), ("ro", "pl")], indirect=True, ids=["pl", "ro"])
def test_the_up_card_fact_goes_once_the_up_card_is_taken_issue_33_item_9(
    gin_offer: tuple[int, list[Seat]], server_url: str, browser: Any
) -> None:
    match_id, seats = gin_offer
    pages = [
        _open(browser, server_url, match_id, seat, size)
        for seat, size in zip(seats, ("390x844", "1280x720"), strict=True)
    ]
    offered = next(p for p in pages if p.locator('[data-key="take"]').count())
    assert offered.locator("#deal-info .card").count() == 1  # the up-card, while it is offered
    at = version(offered)
    _press(offered, '[data-key="take"]')
    for p in pages:
        wait_version(p, at + 1)
        assert p.locator("#deal-info .card").count() == 0, f"{viewkit.where(p)}: {p.inner_text('#deal-info')}"


@pytest.mark.parametrize(
    ("gin_knock", "size"),
    [(("pl", "ro"), "360x740"), (("ro", "pl"), "390x844")],
    indirect=["gin_knock"],
    ids=["360-pl", "390-ro"],
)
def test_after_a_knock_the_knockers_melds_are_in_view_while_the_other_lays_off_issue_33_item_9(
    gin_knock: tuple[int, list[Seat]], size: str, server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = gin_knock
    page = _open(browser, server_url, match_id, seats[0], size)
    at = version(page)
    _press(page, '[data-key="draw"]')
    wait_version(page, at + 1)
    _settled(page)
    _press(page, '[data-key="knock-best"]')
    wait_version(page, at + 2)
    _settled(page)
    assert page.locator(".table-meld").count() == 2  # AD 2D 3D and 6C 7C 8C 9C
    _assert_in_view(page, [("meld", ".table-meld", True)], "the reply")
    _shoot(page, artifacts, "gin-after-knock")


@pytest.fixture
def remik_arranged(
    request: pytest.FixtureRequest, transactional_db: None
) -> tuple[int, list[Seat], list[str]]:
    """Remik 51, two seats; Ala's turn with fourteen cards (ids as the page knows them)."""
    match_id, seats, state = _rigged_pair(
        "remik51",
        request.param,
        b"phone rack slots",
        "Stolik",
        hands=["2S 5S 9S JS 3H 6H TH 4D 8D QD 5C 7C KC AH", "3S 6S TS QS 2H 7H JH 5D 9D 2C 6C 9C"],
        discard="8S",
        turn=0,
        phase="play",
        turns_started=[3, 3],
    )
    return match_id, seats, [str(card) for card in state.hands[0]]


@pytest.mark.parametrize(
    ("remik_arranged", "size", "last"),
    [(("pl", "ro"), "1366x768", 25), (("ro", "pl"), "390x844", 22), (("pl", "ro"), "360x740", 22)],
    indirect=["remik_arranged"],
    ids=["1366-slot-25", "390-slot-22", "360-slot-22"],
)
def test_a_card_the_player_put_far_along_the_rack_stays_in_view_issue_33_items_7_and_10(
    remik_arranged: tuple[int, list[Seat], list[str]],
    size: str,
    last: int,
    server_url: str,
    browser: Any,
    artifacts: Path,
) -> None:
    """The rack as the player left it (kept in the browser, docs/table.md): blocks with gaps, the
    last card far along (slot 25 of 26 at 1366 px grew a second row nobody saw)."""
    match_id, seats, ids = remik_arranged
    slots: list[str | None] = [*ids[:3], None, *ids[3:6], None, *ids[6:9], None, *ids[9:13]]
    slots += [None] * (last - len(slots)) + [ids[13]]
    viewport = SIZES[size]
    touch = viewport["width"] < 600
    ctx = browser.new_context(viewport=viewport, has_touch=touch, is_mobile=touch)
    ctx.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": seats[0].cookie, "url": server_url}])
    key = f"remi.rack.{match_id}.0"
    ctx.add_init_script(f"localStorage.setItem({key!r}, {json.dumps(json.dumps(slots))})")
    page = ctx.new_page()
    page.goto(f"{server_url}/matches/{match_id}/")
    wait_live(page)
    _settled(page)
    assert page.evaluate("(card) => window.remiTable.model.rack.slots.indexOf(card)", ids[13]) == last
    _assert_in_view(page, viewkit.HAND, "the rack as arranged")
    _shoot(page, artifacts, "rack-arranged")


@pytest.mark.parametrize(
    ("remik_last_turn", "size"),
    [(("pl", "ro"), "360x740"), (("ro", "pl"), "390x844")],
    indirect=["remik_last_turn"],
    ids=["360-pl", "390-ro"],
)
def test_a_lay_off_being_built_shows_its_card_whole_issue_33_item_10(
    remik_last_turn: tuple[int, list[Seat]], size: str, server_url: str, browser: Any, artifacts: Path
) -> None:
    match_id, seats = remik_last_turn
    page = _open(browser, server_url, match_id, seats[0], size)
    at = version(page)
    _press(page, '[data-key="draw"]')
    wait_version(page, at + 1)
    _settled(page)
    _press(page, '#hand button.card[data-card^="KH"]')
    _press(page, '[data-key="meld-target:3"]')
    page.wait_for_selector("#mine-info .draft .card")
    _assert_in_view(page, [("lay-off card", "#mine-info .draft .card", True)], "a lay-off in the draft")
    _shoot(page, artifacts, "lay-off")

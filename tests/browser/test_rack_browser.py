"""The rack in a real browser (issue 6; RMI-UI-1..12 of docs/rules/remi.md, the rack).

A Remik 51 round played to its scored end through the page by two players in two browser
contexts: Ala with the mouse (drag and drop), Bartek on a touch screen (taps only). The deal is
rigged with ``engine.position`` (``tablekit.rig``) so that every step is known:

* Ala's rack: moving a card to a free slot, the blocks the server values (a pure run of 39), the
  lay-down button refusing an opening of 39 with its reason (RMI-UI-7), then a set of 24 making
  63 with the pure run; a reload mid-turn keeps the rack's order and the state; lay down all;
* a discard dragged onto the discard box; Bartek draws, moves a card by tapping it and then an
  empty slot, and discards by tapping a card then the discard box;
* Ala draws, drops a card on her table run (a lay-off), lays it down, and goes out with a
  discard: the round is scored.

A Remi test takes deep from the row (the cards that come along shown before anything moves),
builds the meld on the rack by inserting a card in front of another, lays it down, and buys back a
joker by dropping the card it stands for on it. Screenshots go to tests/browser/artifacts/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from games import engine
from tests.browser.tablekit import (
    Screenshot,
    click,
    close_drawer,
    drag,
    free_run,
    hand,
    js_errors,
    no_sideways_scroll,
    open_drawer,
    open_page,
    open_path,
    rack_settled,
    rack_slots,
    rig,
    seat_of,
    start_match,
    touch_drag,
    users,
    version,
    wait_live,
    wait_version,
)

pytestmark = pytest.mark.timeout(240)


def _ids(state: Any, seat: int) -> dict[str, str]:
    return {card.face: str(card) for card in state.hands[seat]}


def _card(page: Any, card_id: str) -> Any:
    return page.locator(f'#hand button.card[data-card="{card_id}"]')


def _slot(page: Any, index: int) -> Any:
    return page.locator(f'#hand li.slot[data-slot="{index}"]')


def _width(page: Any, locator: Any) -> float:
    """A locator's width, read again if a render replaced the element meanwhile."""
    rack_settled(page)
    for _ in range(20):
        box = locator.bounding_box()
        if box:
            return float(box["width"])
        page.wait_for_timeout(50)
    raise AssertionError("not on the page")


def _wait_reason(page: Any, code: str) -> None:
    page.wait_for_selector(f'#lay-reason[data-code="{code}"]', timeout=10000)


def _wait_ready(page: Any) -> None:
    page.wait_for_selector('#lay-all button:not([disabled])[data-key="lay-all"]', timeout=10000)


@pytest.fixture
def remik51(transactional_db: None) -> dict[str, Any]:
    players = users(2)
    match = start_match("remik51", {}, players, b"rack browser remik51")
    state = engine.position(
        engine.variant("remik51"),
        hands=["9S TS JS QS 8H 8D 8C 2C 5D", "3H 4H 6C 7D KD QC 2D 9H 4C"],
        stock="4D KS",
        discard="7C",
        turn=0,
        phase="play",
        turns_started=[2, 2],
        names=["ala", "bartek"],
    )
    match = rig(match, state)
    state = match.game_state()
    return {
        "match": match,
        "ala": seat_of(players, 0),
        "bartek": seat_of(players, 1),
        "ids": _ids(state, 0),
        "theirs": _ids(state, 1),
        "stock": [str(card) for card in state.stock[:2]],
    }


def test_a_remik51_round_through_the_rack(
    remik51: dict[str, Any], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    match_id = remik51["match"].pk
    ids = remik51["ids"]
    ala = open_page(browser, server_url, match_id, remik51["ala"], viewport={"width": 1280, "height": 900})
    bartek = open_page(
        browser,
        server_url,
        match_id,
        remik51["bartek"],
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    start = version(ala)

    # Always in view: whose turn, each seat's card count.
    assert "Your turn" in ala.inner_text("#turn-line")
    strip = bartek.locator("#seat-strip li")
    assert strip.count() == 2
    assert "9" in strip.nth(0).inner_text()

    # The rack starts in hand order, one card per slot: a single block of nine is no meld.
    slots = rack_slots(ala)
    assert [s for s in slots if s] == [ids[f] for f in ["9S", "TS", "JS", "QS", "8H", "2C", "8C", "5D", "8D"]]
    _wait_reason(ala, "nothing_to_lay")

    # Drag 8H to a free slot (RMI-UI-2): the spades stand alone as a pure run worth 39, but an
    # opening of 39 is refused, and the page says why (RMI-UI-7).
    spot = free_run(slots, 3)
    drag(ala, _card(ala, ids["8H"]), _slot(ala, spot))
    assert rack_slots(ala)[spot] == ids["8H"]
    _wait_reason(ala, "opening_too_low")
    assert "39 of 51" in ala.inner_text("#lay-reason")
    assert ala.locator("#hand .block-value").first.inner_text() == "39"
    assert ala.locator('#lay-all button[data-key="lay-all"]').is_disabled()

    # The other two eights beside it: a set of 24, 63 in all with the pure run.
    drag(ala, _card(ala, ids["8D"]), _slot(ala, spot + 1))
    drag(ala, _card(ala, ids["8C"]), _slot(ala, spot + 2))
    _wait_ready(ala)
    values = ala.locator("#hand .block-value").all_inner_texts()
    assert sorted(values) == ["24", "39"]
    assert "63 points" in ala.inner_text('#lay-all button[data-key="lay-all"]')
    arranged = rack_slots(ala)

    # A reload in the middle of the turn: the same version, the same rack, the same answer.
    ala.reload()
    wait_live(ala)
    assert version(ala) == start
    assert rack_slots(ala) == arranged
    _wait_ready(ala)
    screenshot(ala, "rack-desktop-ready.png")

    click(ala, "Lay down all (2 melds, 63 points)")
    wait_version(ala, start + 1)
    assert ala.locator(".table-melds .table-meld").count() == 2
    assert hand(ala) == sorted([ids["2C"], ids["5D"]])
    assert [s for s in rack_slots(ala) if s] == [ids["2C"], ids["5D"]]  # the others left the rack

    # Discard by dragging onto the discard box (RMI-UI-8).
    drag(ala, _card(ala, ids["2C"]), ala.locator("#discard-box"))
    wait_version(bartek, start + 2)
    assert bartek.locator(f'.discards [data-card="{ids["2C"]}"]').count() == 1

    # Bartek, with taps only: draw, move a card (tap it, tap an empty slot), discard (tap it, tap
    # the discard box).
    bartek.get_by_role("button", name="Draw from stock").first.tap()
    wait_version(bartek, start + 3)
    drawn = remik51["stock"][0]
    assert drawn in hand(bartek)
    mine = rack_slots(bartek)
    empty = free_run(mine, 1)
    bartek.locator(f'#hand button.card[data-card="{remik51["theirs"]["KD"]}"]').tap()
    _slot(bartek, empty).tap()
    assert rack_slots(bartek)[empty] == remik51["theirs"]["KD"]
    bartek.locator(f'#hand button.card[data-card="{remik51["theirs"]["9H"]}"]').tap()
    bartek.locator('[data-key="discard-here"]').tap()
    wait_version(ala, start + 4)
    assert no_sideways_scroll(bartek)
    screenshot(bartek, "rack-phone-390x844.png")

    # Ala draws KS and drops it on her run (a lay-off, RMI-UI-9), then lays it down.
    click(ala, "Draw from stock")
    wait_version(ala, start + 5)
    king = remik51["stock"][1]
    run = ala.locator(".table-meld", has_text="run")
    drag(ala, _card(ala, king), run)
    assert ala.locator("#draft .draft-layoff").count() == 1
    _wait_ready(ala)
    click(ala, "Lay down all")
    wait_version(ala, start + 6)
    assert run.locator(f'[data-card="{king}"]').count() == 1

    # The last card onto the discard box: Ala goes out and the round is scored.
    drag(ala, _card(ala, ids["5D"]), ala.locator("#discard-box"))
    wait_version(bartek, start + 7)
    for page in (ala, bartek):
        open_drawer(page, "scores")
        page.wait_for_selector(".scores-table tbody tr:not(.totals-row)", timeout=10000)
        first = page.locator(".scores-table tbody tr").first
        assert first.locator("th").inner_text().startswith("1")
    assert js_errors(ala) == []
    assert js_errors(bartek) == []


def _seat_state(page: Any, seat: int) -> str:
    return str(page.get_attribute(f'#seat-strip li[data-seat="{seat}"]', "data-state") or "")


def _wait_seat_state(page: Any, seat: int, state: str) -> None:
    page.wait_for_selector(f'#seat-strip li[data-seat="{seat}"][data-state="{state}"]', timeout=15000)


def test_away_and_back(remik51: dict[str, Any], server_url: str, browser: Any) -> None:
    """RMI-NET-4: leaving the page marks the seat away, coming back takes it back; a seat marked
    away otherwise gets a banner with "I'm back". Each seat's state is shown to everyone."""
    from games.play import services

    if not hasattr(services, "seat_away"):
        pytest.skip("the server does not send seat states yet (helper 'timers': seats in frames, away/back)")
    match_id = remik51["match"].pk
    ala = open_page(browser, server_url, match_id, remik51["ala"])
    bartek = open_page(
        browser, server_url, match_id, remik51["bartek"], viewport={"width": 390, "height": 844}
    )
    _wait_seat_state(ala, 1, "connected")
    _wait_seat_state(bartek, 0, "connected")
    start = version(ala)

    # Bartek leaves the table by a link: his seat is away, a bot plays for him.
    bartek.goto(f"{server_url}/")
    _wait_seat_state(ala, 1, "away")
    assert "away — bot playing for bartek" in ala.inner_text('.player[data-seat="1"]')

    # The back arrow brings him back to his seat.
    bartek.go_back()
    wait_live(bartek)
    _wait_seat_state(ala, 1, "connected")
    _wait_seat_state(bartek, 1, "connected")
    assert bartek.locator("#away-banner").count() == 0

    # Marked away while the page is open (as after a missed turn): the banner and "I'm back".
    bartek.evaluate('window.remiTable.connection.sendRaw({type: "away"})')
    bartek.wait_for_selector("#away-banner", timeout=10000)
    assert "You are away" in bartek.inner_text("#away-banner")
    _wait_seat_state(ala, 1, "away")
    bartek.get_by_role("button", name="I'm back").click()
    _wait_seat_state(ala, 1, "connected")
    bartek.wait_for_selector("#away-banner", state="detached", timeout=10000)
    assert version(ala) == start  # presence is not a move

    # A reload is not leaving: the seat stays the player's.
    ala.reload()
    wait_live(ala)
    _wait_seat_state(ala, 0, "connected")
    _wait_seat_state(bartek, 0, "connected")
    assert ala.locator("#away-banner").count() == 0


@pytest.fixture
def remi_row(transactional_db: None) -> dict[str, Any]:
    """RMI-EX1's row, Ala opened with a run holding a joker for 9C, and 9C in her hand."""
    players = users(2)
    match = start_match("remi", {"max_players": 2}, players, b"rack browser remi")
    state = engine.position(
        engine.variant("remi", max_players=2),
        hands=["4H 5H 9C KS KD", "2S 3S 7C 8D JH QD 2H 4C 6S"],
        discard="5S TD AH 5C 3H 6D 7S",
        melds=[(0, "8C JK TC")],
        opened=[True, False],
        turn=0,
        phase="draw",
        turns_started=[3, 3],
        names=["ala", "bartek"],
    )
    match = rig(match, state)
    state = match.game_state()
    row = [str(card) for card in state.discard]
    points = engine.variant("remi", max_players=2).meld_points("3H 4H 5H")
    return {"match": match, "ala": seat_of(players, 0), "ids": _ids(state, 0), "row": row, "points": points}


def test_remi_deep_take_with_preview_and_a_joker_buy_back(
    remi_row: dict[str, Any], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    match_id = remi_row["match"].pk
    ids = remi_row["ids"]
    three, six, seven = remi_row["row"][4], remi_row["row"][5], remi_row["row"][6]
    ala = open_page(browser, server_url, match_id, remi_row["ala"], viewport={"width": 390, "height": 844})
    start = version(ala)

    # Pick the 3H deep in the row (RMI-UI-10): before anything moves, the page shows the two cards
    # that come along, on the row and on the rack.
    ala.locator(f'.discards button[data-card="{three}"]').click()
    assert ala.locator(".discards .card.picked").get_attribute("data-card") == three
    assert sorted(
        ala.locator(".discards .card.along").evaluate_all("els => els.map(e => e.dataset.card)")
    ) == sorted([six, seven])
    assert "2 cards that come along" in ala.inner_text("#draft")
    assert version(ala) == start
    assert ala.locator(f'#hand button.card.src-along[data-card="{six}"]').count() == 1

    click(ala, "Cancel take")
    assert ala.locator(".discards .card.picked").count() == 0

    # The meld on the rack: 4H and 5H to free slots, then the 3H dragged from the row onto the
    # 4H: the take starts, and the 3H is inserted there, the 4H and 5H shifting along (RMI-UI-3).
    spot = free_run(rack_slots(ala), 3)
    drag(ala, _card(ala, ids["4H"]), _slot(ala, spot))
    drag(ala, _card(ala, ids["5H"]), _slot(ala, spot + 1))
    drag(ala, ala.locator(f'.discards button[data-card="{three}"]'), _slot(ala, spot))
    assert "2 cards that come along" in ala.inner_text("#draft")
    assert version(ala) == start
    assert rack_slots(ala)[spot : spot + 3] == [three, ids["4H"], ids["5H"]]
    _wait_ready(ala)
    points = remi_row["points"]
    assert ala.locator("#hand .block-value").first.inner_text() == str(points)
    assert no_sideways_scroll(ala)  # a block that wraps to the next row keeps its value inside the rack
    screenshot(ala, "rack-phone-remi-deep-take.png")
    click(ala, f"Lay down all (1 meld, {points} points)")
    wait_version(ala, start + 1)
    assert ala.locator(".table-melds .table-meld").count() == 2
    assert six in hand(ala)
    assert seven in hand(ala)
    assert ala.locator(".discards .card").count() == 4

    # A card that does not fit a table meld: the refusal is shown next to that meld, nothing moves.
    drag(ala, _card(ala, ids["KD"]), ala.locator('.table-meld[data-meld="1"]'))
    click(ala, "Lay down")
    ala.wait_for_selector('.table-meld[data-meld="1"] #move-error[data-code]', timeout=10000)
    assert ala.get_attribute('.table-meld[data-meld="1"] #move-error', "data-code") == "cannot_lay_off"
    assert "cannot_lay_off" not in ala.inner_text("#move-error")  # the sentence, not the code
    assert version(ala) == start + 1
    click(ala, "Clear")

    # The keyboard moves the focused card along the rack (Shift + arrow).
    before = rack_slots(ala)
    at = before.index(ids["KS"])
    _card(ala, ids["KS"]).focus()
    ala.keyboard.press("Shift+ArrowRight")
    after = rack_slots(ala)
    assert after[at + 1] == ids["KS"]
    assert after[at] == before[at + 1]

    # Buy back the joker standing for 9C: drop the 9C on it (RMI-UI-12); it comes into the hand.
    drag(ala, _card(ala, ids["9C"]), ala.locator('[data-drop="joker:1"]'))
    assert ala.locator("#draft .draft-exchange").count() == 1
    freed = ala.locator("#hand button.card.src-freed")
    assert freed.count() == 1
    # The freed joker arrives on the rack (a slot with no card beside it); a drag moves it like
    # any card. Only the exchange is laid down.
    spare = free_run(rack_slots(ala), 1)
    drag(ala, freed, _slot(ala, spare))
    _wait_ready(ala)
    click(ala, "Lay down all")
    wait_version(ala, start + 2)
    first = ala.locator('.table-meld[data-meld="1"]')
    assert first.locator(f'[data-card="{ids["9C"]}"]').count() == 1
    assert any(card.startswith("JK") for card in hand(ala))
    assert ala.inner_text("#move-error") == ""
    assert no_sideways_scroll(ala)
    assert js_errors(ala) == []


def test_large_cards_and_four_colours_are_kept_with_the_account(
    remik51: dict[str, Any], server_url: str, browser: Any, screenshot: Screenshot
) -> None:
    from django.contrib.auth import get_user_model

    match_id = remik51["match"].pk
    ids = remik51["ids"]
    page = open_page(browser, server_url, match_id, remik51["ala"], viewport={"width": 390, "height": 844})
    small = _width(page, _card(page, ids["9S"]))
    open_drawer(page, "settings")
    for name in ("Large cards", "Four-colour deck"):
        with page.expect_response(lambda response: "/table/display/" in response.url) as saved:
            page.get_by_role("button", name=name).click()
        assert saved.value.status == 200
    assert page.get_attribute('[data-key="pref:large"]', "aria-pressed") == "true"
    page.wait_for_selector("#tbl.cards-large.deck-four")
    close_drawer(page)
    assert _width(page, _card(page, ids["9S"])) > small
    colour = "el => getComputedStyle(el).color"
    assert _card(page, ids["5D"]).evaluate(colour) != _card(page, ids["8H"]).evaluate(colour)
    assert _card(page, ids["2C"]).evaluate(colour) != _card(page, ids["9S"]).evaluate(colour)
    assert _card(page, ids["5D"]).get_attribute("aria-label") == "five of diamonds"
    screenshot(page, "rack-phone-large-four-colour.png")
    assert no_sideways_scroll(page)

    # Another browser (a new context, no localStorage) gets the account's choice.
    user = get_user_model().objects.get(username="ala")
    assert (user.cards_large, user.cards_four_colour) == (True, True)
    other = open_page(browser, server_url, match_id, remik51["ala"])
    other.wait_for_selector("#tbl.cards-large.deck-four")


@pytest.fixture
def remi_atu(transactional_db: None) -> dict[str, Any]:
    """Ala (opened) can go out with 7D 8D and the atu 9D, keeping KS to discard (RMI-45)."""
    players = users(2)
    match = start_match("remi", {"max_players": 2}, players, b"rack browser atu")
    state = engine.position(
        engine.variant("remi", max_players=2),
        hands=["7D 8D KS", "2S 3S 7C 8H JH QD 2H 4C 6S"],
        discard="5S TH",
        melds=[(0, "2C 3C 4C")],
        atu="9D",
        opened=[True, False],
        turn=0,
        phase="play",
        turns_started=[3, 3],
        names=["ala", "bartek"],
    )
    match = rig(match, state)
    state = match.game_state()
    return {"match": match, "ala": seat_of(players, 0), "ids": _ids(state, 0), "atu": str(state.cycle.atu)}


def test_remi_the_atu_dragged_into_a_rack_meld(
    remi_atu: dict[str, Any], server_url: str, browser: Any
) -> None:
    match_id = remi_atu["match"].pk
    ids, atu = remi_atu["ids"], remi_atu["atu"]
    ala = open_page(browser, server_url, match_id, remi_atu["ala"])
    start = version(ala)

    # The atu beside the stock onto a free slot of the rack (RMI-UI-11), then 7D and 8D dropped
    # in front of it, each inserted at the atu's slot.
    spot = free_run(rack_slots(ala), 3)
    drag(ala, ala.locator(f'.atu button[data-card="{atu}"]'), _slot(ala, spot))
    assert rack_slots(ala)[spot] == atu
    assert ala.locator(f'#hand button.card.src-atu[data-card="{atu}"]').count() == 1
    drag(ala, _card(ala, ids["7D"]), _slot(ala, spot))
    drag(ala, _card(ala, ids["8D"]), _slot(ala, spot + 1))
    assert rack_slots(ala)[spot : spot + 3] == [ids["7D"], ids["8D"], atu]
    _wait_ready(ala)
    ala.get_by_role("button", name=re.compile(r"^Lay down all \(1 meld")).click()
    wait_version(ala, start + 1)
    assert ala.locator(".table-melds .table-meld").count() == 2
    assert "taken by" in ala.inner_text(".atu")
    assert hand(ala) == [ids["KS"]]

    # The last card onto the discard box: out, with the atu.
    drag(ala, _card(ala, ids["KS"]), ala.locator("#discard-box"))
    wait_version(ala, start + 2)
    open_drawer(ala, "scores")
    ala.wait_for_selector(".scores-table tbody tr:not(.totals-row)", timeout=10000)
    assert js_errors(ala) == []


def test_frames_without_seats_still_render(remik51: dict[str, Any], server_url: str, browser: Any) -> None:
    """An older server sends no ``seats``: the table plays on, with no seat states shown."""
    page = open_path(browser, server_url, "", remik51["ala"].cookie)
    # Every state frame the page reads (the one in the page and those from the socket) loses its
    # "seats", as an older server wrote them.
    page.add_init_script(
        """(() => {
          const parse = JSON.parse;
          JSON.parse = function (text, reviver) {
            const value = parse.call(this, text, reviver);
            if (value && typeof value === "object" && value.type === "state") delete value.seats;
            return value;
          };
        })();"""
    )
    page.goto(f"{server_url}/matches/{remik51['match'].pk}/")
    wait_live(page)
    start = version(page)
    assert page.evaluate("window.remiTable.model.frame.seats === undefined")
    assert page.locator("#seat-strip li").count() == 2
    assert page.locator("#seat-strip li[data-state]").count() == 0
    assert page.locator(".seat-state").count() == 0
    assert page.locator("#away-banner").count() == 0
    drag(page, _card(page, remik51["ids"]["2C"]), page.locator("#discard-box"))
    wait_version(page, start + 1)


def test_a_finger_drags_a_card_along_the_rack(remik51: dict[str, Any], server_url: str, browser: Any) -> None:
    """Touch: a finger on a card drags it (Pointer Events of type "touch"; the card has
    ``touch-action: none`` so the page does not scroll instead)."""
    page = open_page(
        browser,
        server_url,
        remik51["match"].pk,
        remik51["bartek"],
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
    )
    page.evaluate("window.sameDocument = true")
    card = remik51["theirs"]["QC"]
    spare = free_run(rack_slots(page), 1)
    touch_drag(page, page.locator(f'#hand button.card[data-card="{card}"]'), _slot(page, spare))
    assert page.evaluate("window.sameDocument === true")
    assert rack_slots(page)[spare] == card
    # A tap after the drag still selects a card.
    other = remik51["theirs"]["9H"]
    page.locator(f'#hand button.card[data-card="{other}"]').tap()
    assert page.get_attribute(f'#hand button.card[data-card="{other}"]', "aria-pressed") == "true"


def _groups(slots: list[str | None]) -> list[list[str]]:
    """The cards of the rack in groups between empty slots, as faces ("9S#1" -> "9S")."""
    out: list[list[str]] = [[]]
    for key in slots:
        if key is None:
            if out[-1]:
                out.append([])
        else:
            out[-1].append(key.split("#")[0])
    return [group for group in out if group]


def test_sorting_the_rack_by_sets_and_by_runs(remik51: dict[str, Any], server_url: str, browser: Any) -> None:
    # Bartek holds 3H 4H 6C 7D KD QC 2D 9H 4C; it is not his turn: the rack is his all the same.
    page = open_page(browser, server_url, remik51["match"].pk, remik51["bartek"])
    click(page, "Sort the rack by sets")
    assert _groups(rack_slots(page)) == [["2D"], ["3H"], ["4H", "4C"], ["6C"], ["7D"], ["9H"], ["QC"], ["KD"]]
    click(page, "Sort the rack by runs")
    # By suit (spades, hearts, clubs, diamonds), rank order, an empty slot between suits.
    assert _groups(rack_slots(page)) == [["3H", "4H", "9H"], ["4C", "6C", "QC"], ["2D", "7D", "KD"]]
    arranged = rack_slots(page)
    page.reload()
    wait_live(page)
    assert rack_slots(page) == arranged

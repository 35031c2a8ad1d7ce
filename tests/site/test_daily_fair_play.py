"""Fair play at the deal of the day (docs/learn.md, "Deal of the day"): a try played by the
stand-in is not ranked as the player's, the deal cannot be previewed through the boards or the
analysis, one ranked try per person, and a finished try's room offers nothing to start or share."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.learn import daily
from games.learn.services import daily as daily_services
from games.play import services
from games.play.models import Match, MoveRecord
from tests.site.daily_helpers import DAY_START, NEXT_DAY, play_try, set_clock
from tests.site.site_helpers import client_for

pytestmark = pytest.mark.django_db

TODAY = DAY_START.date().isoformat()


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    set_clock(monkeypatch, DAY_START)


@pytest.fixture
def old_user(make_user: Any) -> Any:
    """An account made before the day of the deal (an account made that day plays unranked)."""

    def make(name: str) -> Any:
        user = make_user(name)
        user.date_joined = DAY_START - timedelta(days=30)
        user.save(update_fields=["date_joined"])
        return user

    return make


def play_then_leave(match: Match, player: Any, *, own_moves: int) -> Match:
    """The player makes ``own_moves`` moves, then leaves the table (away): the stand-in plays the
    rest of the try for them, the bots their seats."""
    made = 0
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        state = match.game_state()
        if state.turn == 0 and made < own_moves:
            move = choose_move(engine.view_for(state, 0), level="normal")
            services.move_submit(match_id=match.pk, user=player, move=move, expected_version=match.version)
            made += 1
            if made == own_moves:
                services.seat_away(match_id=match.pk, user=player)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the try did not end")


# --- item 3: a try the stand-in played is not ranked as the player's ------------------------------


def test_a_try_finished_by_the_stand_in_is_listed_unranked_with_a_mark(old_user: Any) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    left = play_then_leave(daily_services.daily_start(user=ala, variant="oklahoma"), ala, own_moves=2)
    assert MoveRecord.objects.filter(match=left, seat=0, actor=MoveRecord.Actor.STANDIN).exists()
    play_try(daily_services.daily_start(user=bob, variant="oklahoma"), bob)

    board = daily.board(DAY_START.date(), "oklahoma")

    assert [(entry.username, entry.rank) for entry in board.entries] == [("bob", 1)]
    assert [(entry.username, entry.unranked) for entry in board.unranked] == [("ala", "standin")]
    page = client_for(bob).get(f"/daily/day/{TODAY}/")
    assertContains(page, 'id="daily-oklahoma-ala"')
    assertContains(page, 'class="daily-unranked-mark"')
    assertContains(page, "The stand-in bot played part of this try: it is not ranked.")
    # The month's board counts ranked tries only (once the day is over).
    month = daily.month_board(DAY_START.year, DAY_START.month, "oklahoma", at=NEXT_DAY)
    assert [row.username for row in month] == ["bob"]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("pl", "Część tej próby rozegrał bot zastępca: nie jest klasyfikowana."),
        ("ro", "O parte din această încercare a jucat-o botul înlocuitor: nu intră în clasament."),
    ],
)
def test_the_stand_ins_mark_is_explained_in_polish_and_romanian(
    old_user: Any, language: str, text: str
) -> None:
    ala = old_user("ala")
    play_then_leave(daily_services.daily_start(user=ala, variant="gin"), ala, own_moves=1)
    ala.language = language
    ala.save(update_fields=["language"])

    page = client_for(ala).get(f"/daily/day/{TODAY}/")

    assertContains(page, text)
    daily_page = client_for(ala).get("/daily/")
    assertContains(daily_page, 'class="daily-unranked-mark"')


# --- item 12: a finished try's room, and its analysis ------------------------------------------------


def test_a_finished_trys_room_page_offers_neither_start_nor_share(old_user: Any) -> None:
    ala = old_user("ala")
    match = play_try(daily_services.daily_start(user=ala, variant="gin"), ala)

    page = client_for(ala).get(f"/rooms/{match.room_id}/")

    assert page.status_code == 200
    assertNotContains(page, "Start the match")
    assertNotContains(page, "Share this link")
    assertNotContains(page, f'action="/rooms/{match.room_id}/start/"')
    assertContains(page, f'href="/daily/day/{TODAY}/"')


def test_the_analysis_of_a_try_waits_for_the_end_of_the_day_with_its_own_code(
    old_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ala = old_user("ala")
    match = play_try(daily_services.daily_start(user=ala, variant="gin"), ala)
    client = client_for(ala)
    url = f"/matches/{match.pk}/rounds/1/analysis/"

    asked = client.post(url, HTTP_ACCEPT="application/json")
    assert asked.status_code == 403, asked.content
    assert asked.json()["code"] == "daily_analysis_sealed"
    assert "analysis" in asked.json()["message"]
    assert client.get(url).json()["code"] == "daily_analysis_sealed"
    ala.language = "pl"
    ala.save(update_fields=["language"])
    assert client.post(url, HTTP_ACCEPT="application/json").json()["message"] == (
        "Analiza rozdania dnia będzie dostępna po zakończeniu dnia (UTC), razem z jego kluczem i powtórką."
    )

    set_clock(monkeypatch, NEXT_DAY)
    daily_services.daily_reveal()
    asked = client.post(url, HTTP_ACCEPT="application/json")
    assert asked.status_code == 200, asked.content
    assert "analyses" in asked.json()
    assert Client().post(url, HTTP_ACCEPT="application/json").status_code == 403  # not a player: not_seated


# --- item 10: no preview of the deal, one ranked try per person ---------------------------------------


def test_the_days_board_is_hidden_until_ones_own_try_is_finished(
    old_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    play_try(daily_services.daily_start(user=ala, variant="gin"), ala)
    play_try(daily_services.daily_start(user=ala, variant="oklahoma"), ala)
    url = f"/daily/day/{TODAY}/"

    for client in (client_for(bob), Client()):
        page = client.get(url)
        assertNotContains(page, 'id="daily-gin-ala"')
        assertContains(page, 'id="daily-closed-gin"')
        assertContains(page, "1 player has finished this deal.")
    # Playing is not enough: the board opens when one's own try is finished.
    mine = daily_services.daily_start(user=bob, variant="gin")
    assertNotContains(client_for(bob).get(url), 'id="daily-gin-ala"')
    play_try(mine, bob)
    opened = client_for(bob).get(url)
    assertContains(opened, 'id="daily-gin-ala"')
    assertContains(opened, 'id="daily-gin-bob"')
    assertNotContains(opened, 'id="daily-closed-gin"')
    # Another variant's board stays closed to bob; one nobody finished has nothing to hide.
    assertContains(opened, 'id="daily-closed-oklahoma"')
    assertNotContains(opened, 'id="daily-oklahoma-ala"')
    assertNotContains(opened, 'id="daily-closed-remik51"')
    # The month's board adds a day once it is over: nothing of today before.
    assert daily.month_board(DAY_START.year, DAY_START.month, "gin") == []
    assertNotContains(Client().get(f"/daily/month/{TODAY[:7]}/?variant=gin"), 'id="month-ala"')

    set_clock(monkeypatch, NEXT_DAY)
    assertContains(Client().get(url), 'id="daily-gin-ala"')
    assertContains(Client().get(f"/daily/month/{TODAY[:7]}/?variant=gin"), 'id="month-ala"')


def test_another_accounts_try_shows_nothing_of_its_cards_while_the_day_lasts(old_user: Any) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    match = play_try(daily_services.daily_start(user=ala, variant="remik51"), ala)
    play_try(daily_services.daily_start(user=bob, variant="remik51"), bob)
    other = client_for(bob)

    for url in (
        f"/matches/{match.pk}/",
        f"/matches/{match.pk}/rounds/1/replay/",
        f"/matches/{match.pk}/rounds/1/analysis/",
        f"/rooms/{match.room_id}/",
        f"/rooms/join/{match.room.join_code}/",
    ):
        assert other.get(url).status_code == 404, url
    assert other.get(f"/matches/{match.pk}/record.json").status_code in (403, 404)
    assertNotContains(other.get("/matches/all/"), f"/matches/{match.pk}/")
    assertNotContains(other.get("/u/ala/"), f"/matches/{match.pk}/")


def login(client: Client, user: Any, address: str) -> None:
    """Sign in through the login form, as a browser does, from ``address``."""
    response = client.post(
        "/accounts/login/", {"username": user.username, "password": "not-used-here"}, REMOTE_ADDR=address
    )
    assert response.status_code == 302, response.content[:300]


def play_from(client: Client, user: Any, address: str, variant: str = "gin") -> Match:
    """Start the try through its page (the browser's cookie, the address) and play it to its end."""
    response = client.post(f"/daily/{variant}/play/", REMOTE_ADDR=address)
    assert response.status_code == 302
    match = Match.objects.get(daily_try__user=user, daily_try__variant=variant)
    return play_try(match, user)


def ranked_names(variant: str = "gin") -> list[str]:
    return sorted(entry.username for entry in daily.board(DAY_START.date(), variant).entries)


def unranked_names(variant: str = "gin") -> dict[str, str]:
    return {entry.username: entry.unranked for entry in daily.board(DAY_START.date(), variant).unranked}


def test_a_second_account_in_the_same_browser_plays_unranked(old_user: Any) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    browser = Client()
    login(browser, ala, "198.51.100.7")
    play_from(browser, ala, "198.51.100.7")
    browser.post("/accounts/logout/")
    # The same browser, from another address (a phone's network, say).
    login(browser, bob, "203.0.113.50")
    play_from(browser, bob, "203.0.113.50")

    assert ranked_names() == ["ala"]
    assert unranked_names() == {"bob": "second_account"}
    assertContains(
        client_for(bob).get(f"/daily/day/{TODAY}/"),
        "Another account from the same browser or address played this deal first: one ranked try per person.",
    )


def test_a_second_account_from_the_same_address_in_a_private_window_plays_unranked(old_user: Any) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    first, private = Client(), Client()  # two browsers: no cookie in common
    login(first, ala, "198.51.100.7")
    play_from(first, ala, "198.51.100.7")
    login(private, bob, "198.51.100.7")
    play_from(private, bob, "198.51.100.7")

    assert ranked_names() == ["ala"]
    assert unranked_names() == {"bob": "second_account"}


def test_an_ipv6_address_counts_by_its_64_network(old_user: Any) -> None:
    ala, bob, cyd = old_user("ala"), old_user("bob"), old_user("cyd")
    login(first := Client(), ala, "2001:db8:7:1::10")
    play_from(first, ala, "2001:db8:7:1::10")
    login(second := Client(), bob, "2001:db8:7:1:a:b:c:d")  # the same /64: the same household
    play_from(second, bob, "2001:db8:7:1:a:b:c:d")
    login(third := Client(), cyd, "2001:db8:7:2::10")  # another /64
    play_from(third, cyd, "2001:db8:7:2::10")

    assert ranked_names() == ["ala", "cyd"]
    assert unranked_names() == {"bob": "second_account"}


def test_an_account_that_signed_in_where_another_played_is_unranked_wherever_it_plays(old_user: Any) -> None:
    ala, bob = old_user("ala"), old_user("bob")
    login(home := Client(), ala, "198.51.100.7")
    play_from(home, ala, "198.51.100.7")
    # bob signed in at the same place earlier, then plays from elsewhere in a fresh browser.
    login(Client(), bob, "198.51.100.7")
    login(away := Client(), bob, "192.0.2.99")
    play_from(away, bob, "192.0.2.99")

    assert unranked_names() == {"bob": "second_account"}


def test_a_new_account_plays_unranked_on_the_day_it_is_made() -> None:
    browser = Client()
    response = browser.post(
        "/accounts/register/",
        {
            "username": "fresh",
            "email": "fresh@example.org",
            "password1": "a-long-pass-phrase-77",
            "password2": "a-long-pass-phrase-77",
        },
        REMOTE_ADDR="192.0.2.1",
    )
    assert response.status_code == 302, response.content.decode()
    user = get_user_model().objects.get(username="fresh")
    user.date_joined = DAY_START
    user.save(update_fields=["date_joined"])
    play_from(browser, user, "192.0.2.1")

    assert unranked_names() == {"fresh": "new_account"}
    assert ranked_names() == []


def test_another_person_in_another_browser_and_place_is_ranked(old_user: Any) -> None:
    # What the site cannot tell apart: two accounts with no browser and no address in common are
    # two people (docs/learn.md, "One ranked try per person": its limits).
    ala, bob = old_user("ala"), old_user("bob")
    login(one := Client(), ala, "198.51.100.7")
    play_from(one, ala, "198.51.100.7")
    login(two := Client(), bob, "203.0.113.50")
    play_from(two, bob, "203.0.113.50")

    assert ranked_names() == ["ala", "bob"]
    assert unranked_names() == {}


def test_a_sign_in_keeps_a_browser_id_and_an_hmac_of_the_address_never_the_address(old_user: Any) -> None:
    from accounts.models import SignIn
    from accounts.signins import BROWSER_COOKIE

    ala = old_user("ala")
    browser = Client()
    login(browser, ala, "198.51.100.7")
    browser.post("/accounts/logout/")
    login(browser, ala, "198.51.100.8")

    first, second = SignIn.objects.filter(user=ala).order_by("at", "pk")
    assert first.browser == second.browser == browser.cookies[BROWSER_COOKIE].value
    assert len(first.address) == 64
    assert first.address != second.address
    assert "198.51.100" not in first.address
    assert browser.cookies[BROWSER_COOKIE]["httponly"]

"""Fair play at the deal of the day (docs/learn.md, "Deal of the day"): a try played by the
stand-in is not ranked as the player's, the deal cannot be previewed through the boards or the
analysis, one ranked try per person, and a finished try's room offers nothing to start or share."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from games import daily, engine, services
from games.engine.bots import choose_move
from games.models import Match, MoveRecord
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
    left = play_then_leave(services.daily_start(user=ala, variant="oklahoma"), ala, own_moves=2)
    assert MoveRecord.objects.filter(match=left, seat=0, actor=MoveRecord.Actor.STANDIN).exists()
    play_try(services.daily_start(user=bob, variant="oklahoma"), bob)

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
    play_then_leave(services.daily_start(user=ala, variant="gin"), ala, own_moves=1)
    ala.language = language
    ala.save(update_fields=["language"])

    page = client_for(ala).get(f"/daily/day/{TODAY}/")

    assertContains(page, text)
    daily_page = client_for(ala).get("/daily/")
    assertContains(daily_page, 'class="daily-unranked-mark"')


# --- item 12: a finished try's room, and its analysis ------------------------------------------------


def test_a_finished_trys_room_page_offers_neither_start_nor_share(old_user: Any) -> None:
    ala = old_user("ala")
    match = play_try(services.daily_start(user=ala, variant="gin"), ala)

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
    match = play_try(services.daily_start(user=ala, variant="gin"), ala)
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
    services.daily_reveal()
    asked = client.post(url, HTTP_ACCEPT="application/json")
    assert asked.status_code == 200, asked.content
    assert "analyses" in asked.json()
    assert Client().post(url, HTTP_ACCEPT="application/json").status_code == 403  # not a player: not_seated

"""Deal of the day (games/learn/daily.py, docs/learn.md): the same deal and the same bots for everyone,
one try per account, the seed sealed until the day is over and verifiable after, duplicate boards."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from games import engine
from games.engine.record_check import verify_record
from games.engine.tools.cli import main as engine_cli
from games.learn import daily
from games.learn.models import DailyTry
from games.learn.services import daily as daily_services
from games.play import selectors, services
from games.play.models import Match, Room, Round, ScoreLine, Seat
from games.shared.errors import (
    DailyAlreadyPlayedError,
    DailyNoSuchDealError,
    RematchUnavailableError,
    RoomNotOpenError,
)
from tests.site.daily_helpers import DAY_START, NEXT_DAY, move_log, play_try, secrets_of, set_clock
from tests.site.site_helpers import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _today(monkeypatch: pytest.MonkeyPatch) -> None:
    set_clock(monkeypatch, DAY_START)


def dealt(match: Match) -> tuple[Any, ...]:
    """Everything the deal fixed: the dealer, every hand, the stock's order, the discard, the atu."""
    document = engine.state_to_json(match.game_state())
    return tuple(json.dumps(document[key], sort_keys=True) for key in sorted(document) if key != "names")


# --- the same deal for everyone ----------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(daily.DAILY_VARIANTS))
def test_two_accounts_get_the_same_deal_and_the_same_bot_moves(variant: str, ala: Any, bob: Any) -> None:
    first = daily_services.daily_start(user=ala, variant=variant)
    second = daily_services.daily_start(user=bob, variant=variant)

    assert first.secret_bytes == second.secret_bytes == daily.day_secret(DAY_START.date(), variant)
    assert dealt(first) == dealt(second)
    assert first.game_state().hands == second.game_state().hands
    rounds = Round.objects.filter(match__in=(first, second), number=1).values_list("commitment", flat=True)
    assert set(rounds) == {daily.deal_commitment(DAY_START.date(), variant)}
    seats = Seat.objects.filter(room=first.room).order_by("index")
    assert next((seat.user_id, seat.is_bot, seat.bot_level) for seat in seats) == (ala.pk, False, "")
    assert all(seat.is_bot and seat.bot_level == "hard" for seat in seats[1:])

    play_try(first, ala)
    play_try(second, bob)

    # The same player moves met the same bot moves, to the same score.
    assert move_log(first) == move_log(second)
    assert any(actor == "bot" for _seat, _move, actor in move_log(first))
    lines = [
        list(ScoreLine.objects.filter(round__match=match).order_by("seat").values_list("seat", "points"))
        for match in (first, second)
    ]
    assert lines[0] == lines[1]
    assert lines[0]
    assert first.status == second.status == Match.Status.FINISHED
    # One round: the match ended with it, by the engine's round limit, and no second round was dealt.
    assert list(Round.objects.filter(match=first).values_list("number", flat=True)) == [1]
    for match in (first, second):
        state = match.game_state()
        assert (state.phase, state.round_no, len(state.results)) == ("over", 1, 1)
        assert state.rules.round_limit == 1


def test_a_different_day_or_variant_is_a_different_deal(ala: Any) -> None:
    today = DAY_START.date()
    tomorrow = date.fromordinal(today.toordinal() + 1)
    assert daily.day_secret(today, "gin") != daily.day_secret(tomorrow, "gin")
    assert daily.day_secret(today, "gin") != daily.day_secret(today, "oklahoma")
    assert daily.deal_commitment(today, "gin") != daily.deal_commitment(tomorrow, "gin")


def test_bots_that_see_the_same_view_with_another_deals_luck_may_choose_otherwise() -> None:
    # The daily bots' luck comes from the deal's seed (not only the view): the key differs by deal.
    today = DAY_START.date()
    keys = {daily.bot_rng_key(daily.day_secret(today, variant), 1) for variant in daily.DAILY_VARIANTS}
    assert len(keys) == len(daily.DAILY_VARIANTS)


# --- one try per account and day -----------------------------------------------------------------


def test_a_second_try_is_refused_with_daily_already_played(ala: Any) -> None:
    match = daily_services.daily_start(user=ala, variant="gin")

    with pytest.raises(DailyAlreadyPlayedError) as refused:
        daily_services.daily_start(user=ala, variant="gin")
    assert refused.value.code == "daily_already_played"
    play_try(match, ala)
    with pytest.raises(DailyAlreadyPlayedError):
        daily_services.daily_start(user=ala, variant="gin")
    assert DailyTry.objects.filter(user=ala).count() == 1
    # Another variant's deal is another try; tomorrow's deal too.
    daily_services.daily_start(user=ala, variant="remik51")
    daily_services.daily_start(user=ala, variant="gin", at=NEXT_DAY)
    assert DailyTry.objects.filter(user=ala).count() == 3


def test_a_second_try_through_the_page_says_why_in_the_players_language(ala: Any) -> None:
    ala.language = "pl"
    ala.save(update_fields=["language"])
    client = client_for(ala)
    response = client.post("/daily/gin/play/")
    match = DailyTry.objects.get(user=ala).match
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"

    again = client.post("/daily/gin/play/", follow=True)
    assert again.redirect_chain[-1][0] == "/daily/"
    assertContains(again, "To rozdanie dnia zostało już przez ciebie rozegrane: jedna próba dziennie.")
    assert DailyTry.objects.filter(user=ala).count() == 1


def test_there_is_no_deal_of_the_day_of_an_unknown_variant(ala: Any) -> None:
    with pytest.raises(DailyNoSuchDealError):
        daily_services.daily_start(user=ala, variant="poker")


def test_a_daily_room_plays_no_second_match(ala: Any) -> None:
    match = play_try(daily_services.daily_start(user=ala, variant="gin"), ala)

    with pytest.raises(RematchUnavailableError):
        services.rematch_vote(match_id=match.pk, user=ala, agree=True)
    with pytest.raises(RoomNotOpenError):
        services.match_start(room=match.room_id)
    assert Match.objects.filter(room=match.room).count() == 1


# --- the seed: sealed until the day is over, verifiable after -----------------------------------------


def pages_of(client: Client, match: Match) -> dict[str, str]:
    today = DAY_START.date().isoformat()
    urls = [
        "/daily/",
        f"/daily/day/{today}/",
        f"/daily/month/{today[:7]}/?variant={match.room.variant}",
        f"/matches/{match.pk}/",
        "/matches/",
        f"/verify/?match={match.pk}",
        f"/matches/{match.pk}/scores.csv",
    ]
    return {url: client.get(url).content.decode() for url in urls}


@pytest.mark.parametrize("variant", ["remik51", "gin"])
def test_the_seed_is_in_no_page_or_frame_before_the_day_ends_and_verifies_after(
    variant: str, ala: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    match = play_try(daily_services.daily_start(user=ala, variant=variant), ala)
    hidden = secrets_of(match)
    client = client_for(ala)

    for url, text in pages_of(client, match).items():
        assert not any(value in text for value in hidden), url
    for user in (ala, None):
        frame = json.dumps(selectors.match_frame_for(match_id=match.pk, user=user))
        assert not any(value in frame for value in hidden)
        assert "revealed_seed" not in frame
    assert Round.objects.get(match=match).revealed_seed is None
    record = client.get(f"/matches/{match.pk}/record.json")
    assert record.status_code == 403
    assert b"sealed" in record.content
    assert client.get(f"/matches/{match.pk}/rounds/1/replay/").status_code == 404
    # Another account does not even see the try while the day lasts.
    assert client_for(bob).get(f"/matches/{match.pk}/").status_code == 404

    set_clock(monkeypatch, NEXT_DAY)  # the day is over
    assert daily_services.daily_reveal() == 1

    day_page = Client().get(f"/daily/day/{DAY_START.date().isoformat()}/")
    assertContains(day_page, engine.deal_seed(match.secret_bytes, 1).hex())
    assertContains(day_page, f"/matches/{match.pk}/rounds/1/replay/")
    response = client_for(bob).get(f"/matches/{match.pk}/record.json")
    assert response.status_code == 200
    document = json.loads(response.content)
    assert document["seed"] == match.secret_bytes.hex()
    assert document["rounds"][0]["seed"] == engine.deal_seed(match.secret_bytes, 1).hex()
    assert document["rounds"][0]["commitment"] == daily.deal_commitment(DAY_START.date(), variant)
    report = verify_record(document)
    assert report["ok"], report
    # The replay ends where the match did: round 1 over, no round 2 dealt.
    replayed = engine.replay(document)
    assert replayed == match.game_state()
    assert engine.state_to_json(replayed) == engine.state_to_json(match.game_state())
    assert (replayed.phase, replayed.round_no) == ("over", 1)
    path = tmp_path / "daily.json"
    path.write_text(json.dumps(document))
    out = io.StringIO()
    assert engine_cli(["verify", str(path)], stdout=out) == 0, out.getvalue()
    assert client_for(bob).get(f"/matches/{match.pk}/rounds/1/replay/").status_code == 200
    assertContains(client_for(bob).get(f"/verify/?match={match.pk}"), "verify-report")


def test_a_try_still_being_played_when_the_day_ends_is_closed_unscored(
    ala: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = daily_services.daily_start(user=ala, variant="remik51")

    set_clock(monkeypatch, NEXT_DAY)
    assert daily_services.daily_reveal() == 1
    match.refresh_from_db()

    assert match.status == Match.Status.ABANDONED
    assert Room.objects.get(pk=match.room_id).join_code is None
    assert Round.objects.get(match=match).revealed_seed is None  # the round never ended
    assert daily.board(DAY_START.date(), "remik51").entries == []
    assert daily_services.daily_reveal() == 0


def test_the_day_ends_at_midnight_utc() -> None:
    day = DAY_START.date()
    assert not daily.day_over(day, datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC))
    assert daily.day_over(day, datetime(2026, 12, 4, 0, 0, 0, tzinfo=UTC))
    assert daily.revealed(day, "gin", datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC)) is None
    assert daily.revealed(day, "gin", NEXT_DAY) is not None


# --- duplicate boards --------------------------------------------------------------------------------


def scored_try(user: Any, day: date, variant: str, points: int) -> DailyTry:
    """A finished try with ``points`` for seat 0 (the rows a played try leaves, written directly)."""
    room = Room.objects.create(
        owner=user, name="Deal of the day", variant=variant, seat_count=2, daily_day=day, join_code=None
    )
    match = Match.objects.create(
        room=room, number=1, state={}, secret=daily.day_secret(day, variant), status=Match.Status.FINISHED
    )
    round_ = Round.objects.create(match=match, number=1, commitment=daily.deal_commitment(day, variant))
    ScoreLine.objects.create(round=round_, seat=0, points=points, total=points)
    ScoreLine.objects.create(round=round_, seat=1, points=7, total=7)
    return DailyTry.objects.create(user=user, day=day, variant=variant, match=match)


def test_the_day_board_ranks_by_points_against_the_field_average(make_user: Any) -> None:
    day = DAY_START.date()
    users = {name: make_user(name) for name in ("ala", "bob", "cyd", "dan")}
    # Remik 51: fewer points are better.
    for name, points in (("ala", 30), ("bob", -10), ("cyd", 30), ("dan", 50)):
        scored_try(users[name], day, "remik51", points)
    # Gin: more points are better.
    for name, points in (("ala", 25), ("bob", 0)):
        scored_try(users[name], day, "gin", points)

    board = daily.board(day, "remik51")
    assert board.average == 25
    assert [(e.rank, e.username, e.points, e.diff, e.gain) for e in board.entries] == [
        (1, "bob", -10, -35, 35),
        (2, "ala", 30, 5, -5),
        (2, "cyd", 30, 5, -5),
        (4, "dan", 50, 25, -25),
    ]
    gin = daily.board(day, "gin")
    assert [(e.rank, e.username, e.diff, e.gain) for e in gin.entries] == [
        (1, "ala", 12.5, 12.5),
        (2, "bob", -12.5, -12.5),
    ]
    # While the day lasts the board shows to those who finished their own try (docs/learn.md).
    page = client_for(users["ala"]).get(f"/daily/day/{day.isoformat()}/")
    assertContains(page, 'id="daily-remik51-bob"')
    assertContains(page, "+5")
    assertContains(page, "-35")


def test_an_unfinished_try_is_not_on_the_board(ala: Any, bob: Any) -> None:
    daily_services.daily_start(user=ala, variant="gin")
    scored_try(bob, DAY_START.date(), "gin", 20)

    assert [entry.username for entry in daily.board(DAY_START.date(), "gin").entries] == ["bob"]


def test_the_month_board_adds_up_each_players_gains(make_user: Any) -> None:
    ala, bob, cyd = (make_user(name) for name in ("ala", "bob", "cyd"))
    first, second, next_month = date(2026, 12, 1), date(2026, 12, 2), date(2027, 1, 1)
    scored_try(ala, first, "remik51", 10)  # average 20: ala +10, bob -10
    scored_try(bob, first, "remik51", 30)
    scored_try(bob, second, "remik51", 0)  # average 30: bob +30, cyd -30
    scored_try(cyd, second, "remik51", 60)
    scored_try(cyd, next_month, "remik51", -100)  # another month

    rows = daily.month_board(2026, 12, "remik51")

    assert [(row.rank, row.username, row.gain, row.days) for row in rows] == [
        (1, "bob", 20, 2),
        (2, "ala", 10, 1),
        (3, "cyd", -30, 1),
    ]
    page = Client().get("/daily/month/2026-12/?variant=remik51")
    assertContains(page, 'id="month-bob"')
    assertContains(page, "+20")


# --- the pages ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Deal of the day"), ("pl", "Rozdanie dnia"), ("ro", "Jocul zilei")]
)
def test_the_daily_page_lists_each_variants_deal_with_its_commitment(
    language: str, title: str, ala: Any
) -> None:
    ala.language = language
    ala.save(update_fields=["language"])
    response = client_for(ala).get("/daily/")

    assertContains(response, f"<h1>{title}</h1>")
    for variant in daily.DAILY_VARIANTS:
        assertContains(response, daily.deal_commitment(DAY_START.date(), variant))
        assertContains(response, f'id="daily-play-{variant}"')
    home = client_for(ala).get("/")
    assertContains(home, 'id="nav-daily"')
    assertContains(home, 'id="home-daily"')


def test_the_daily_page_shows_your_result_in_place_of_play(ala: Any) -> None:
    ala.date_joined = DAY_START - timedelta(days=30)  # an account made that day plays unranked
    ala.save(update_fields=["date_joined"])
    match = play_try(daily_services.daily_start(user=ala, variant="gin"), ala)
    points = ScoreLine.objects.get(round__match=match, seat=0).points

    response = client_for(ala).get("/daily/")

    assertNotContains(response, 'id="daily-play-gin"')
    assertContains(response, f"Your round: {points} points, rank 1 of 1")
    assertContains(response, 'id="daily-play-remik51"')


def test_the_table_of_a_try_is_the_live_table_with_the_days_board_in_place_of_play_again(ala: Any) -> None:
    match = daily_services.daily_start(user=ala, variant="remik51")

    page = client_for(ala).get(f"/matches/{match.pk}/")

    assertContains(page, 'id="table-app"')
    assertContains(page, 'id="initial-frame"')
    assertContains(page, 'data-daily="true"')
    assertContains(page, f'href="/daily/day/{DAY_START.date().isoformat()}/"')
    assertContains(page, "Deal of the day: Remik 51, 2026-12-03")


def test_the_workers_sweep_reveals_the_days_that_are_over(ala: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    match = play_try(daily_services.daily_start(user=ala, variant="gin"), ala)
    services.sweep_overdue()
    assert Room.objects.get(pk=match.room_id).daily_sealed

    set_clock(monkeypatch, NEXT_DAY)
    services.sweep_overdue()

    assert not Room.objects.get(pk=match.room_id).daily_sealed
    assert Round.objects.get(match=match).revealed_seed == engine.deal_seed(match.secret_bytes, 1).hex()

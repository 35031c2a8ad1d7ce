"""History pages: the match lists' filters (each, and paging), who may see what, and the match
page's score lines, totals and rating changes. Matches are played by the engine's bot through
``games.play.services``, as a person would play them."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.asserts import assertContains, assertNotContains
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.learn.views import history as views_history
from games.play import services
from games.play.models import Match, ScoreLine
from games.ranked import ratings
from games.ranked.models import RatingChange
from tests.site.site_helpers import client_for, make_room

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    # Every move publishes after commit; keep the frames away from a shared Redis.
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


# --- helpers shared by the history tests -------------------------------------------------------


def play(match: Match, people: dict[int, Any], *, until: Any = None, limit: int = 5000) -> Match:
    """Play the match through the services: the bot's choice for each person, bots as bots.

    Stops when the match is over, or when ``until(state)`` holds.
    """
    for _ in range(limit):
        match.refresh_from_db()
        state = match.game_state()
        if state.is_over or (until is not None and until(state)):
            return match
        if state.turn in people:
            move = choose_move(engine.view_for(state, state.turn))
            services.move_submit(
                match_id=match.pk, user=people[state.turn], move=move, expected_version=match.version
            )
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the match did not get there")


def bot_match(
    player: Any,
    variant: str = "remi",
    options: dict[str, Any] | None = None,
    *,
    finish: bool = True,
    until: Any = None,
    **room: Any,
) -> Match:
    """``player`` at seat 0 against a bot at seat 1; played to the end (or ``until``) when ``finish``."""
    room_ = make_room(
        player, variant, seats=2, options=options if options is not None else {"rounds": 1}, **room
    )
    services.seat_take(room=room_, user=player, index=0)
    services.seat_add_bot(room=room_, index=1)
    match = services.match_start(room=room_)
    if finish or until is not None:
        match = play(match, {0: player}, until=until)
    return match


def two_people_match(first: Any, second: Any, *, ranked: bool = False, **kwargs: Any) -> Match:
    room = make_room(first, "remi", seats=2, options={"rounds": 1}, ranked=ranked, **kwargs)
    services.seat_take(room=room, user=first, index=0)
    services.seat_take(room=room, user=second, index=1)
    return play(services.match_start(room=room), {0: first, 1: second})


def rows(html: str) -> list[int]:
    """The match ids listed on a history page, in order."""
    return [int(found) for found in re.findall(r'id="match-row-(\d+)"', html)]


# --- filters -------------------------------------------------------------------------------------


def test_the_variant_filter(ala: Any) -> None:
    remi = bot_match(ala, finish=False, name="Remi table")
    gin = bot_match(ala, "gin", {}, finish=False, name="Gin table")
    client = client_for(ala)

    assert set(rows(client.get("/matches/").content.decode())) == {remi.pk, gin.pk}
    assert rows(client.get("/matches/?variant=gin").content.decode()) == [gin.pk]
    assert rows(client.get("/matches/all/?variant=remi").content.decode()) == [remi.pk]


def test_the_ranked_or_casual_filter(ala: Any, bob: Any) -> None:
    ranked = two_people_match(ala, bob, ranked=True, name="Ranked one")
    casual = two_people_match(ala, bob, name="Casual one")
    client = client_for(ala)

    assert rows(client.get("/matches/?kind=ranked").content.decode()) == [ranked.pk]
    assert rows(client.get("/matches/?kind=casual").content.decode()) == [casual.pk]
    assert rows(Client().get("/matches/all/?kind=ranked").content.decode()) == [ranked.pk]


def test_the_date_range_filter(ala: Any) -> None:
    old = bot_match(ala, finish=False, name="Old")
    new = bot_match(ala, finish=False, name="New")
    Match.objects.filter(pk=old.pk).update(started=dt.datetime(2025, 3, 10, 12, tzinfo=dt.UTC))
    Match.objects.filter(pk=new.pk).update(started=dt.datetime(2025, 6, 1, 12, tzinfo=dt.UTC))
    client = client_for(ala)

    assert rows(client.get("/matches/?date_from=2025-03-10&date_to=2025-03-10").content.decode()) == [old.pk]
    assert rows(client.get("/matches/?date_from=2025-04-01").content.decode()) == [new.pk]
    assert rows(client.get("/matches/?date_to=2025-04-01").content.decode()) == [old.pk]
    assert rows(client.get("/matches/?date_from=2025-07-01").content.decode()) == []


def test_a_date_range_backwards_or_malformed_says_so_and_filters_nothing_by_it(ala: Any) -> None:
    match = bot_match(ala, finish=False)
    client = client_for(ala)

    backwards = client.get("/matches/?date_from=2025-05-01&date_to=2025-04-01")
    assertContains(backwards, "The end date is before the start date.")
    malformed = client.get("/matches/?date_from=yesterday")
    assert malformed.status_code == 200
    assertContains(malformed, 'id="error-date_from"')
    assert rows(malformed.content.decode()) == [match.pk]


def test_the_opponent_filter(ala: Any, bob: Any, make_user: Any) -> None:
    celina = make_user("celina")
    with_bob = two_people_match(ala, bob, name="With Bob")
    with_celina = two_people_match(ala, celina, name="With Celina")
    client = client_for(ala)

    assert rows(client.get("/matches/?opponent=bob").content.decode()) == [with_bob.pk]
    assert rows(client.get("/matches/?opponent=CELINA").content.decode()) == [with_celina.pk]
    assert rows(client.get("/matches/?opponent=nobody").content.decode()) == []
    assertContains(client.get("/matches/?opponent=nobody"), "No match fits these filters.")


def test_filters_combine_and_pages_keep_them(ala: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(views_history, "PAGE_SIZE", 2)
    made = [bot_match(ala, finish=False, name=f"Table {n}") for n in range(3)]
    bot_match(ala, "gin", {}, finish=False, name="Gin")
    client = client_for(ala)

    first = client.get("/matches/?variant=remi").content.decode()
    assert rows(first) == [made[2].pk, made[1].pk]
    assert 'href="?variant=remi&amp;page=2"' in first
    second = client.get("/matches/?variant=remi&page=2").content.decode()
    assert rows(second) == [made[0].pk]
    assert 'href="?variant=remi&amp;page=1"' in second
    assert "Page 2 of 2" in second


def test_the_filter_form_is_a_plain_get_form(ala: Any) -> None:
    html = client_for(ala).get("/matches/all/").content.decode()

    form = re.search(r'<form method="get" class="history-filters".*?</form>', html, re.S)
    assert form is not None
    for name in ("variant", "kind", "date_from", "date_to", "opponent"):
        assert f'name="{name}"' in form.group(0)
    assert 'type="date"' in form.group(0)


# --- who sees what ---------------------------------------------------------------------------------


def test_private_matches_are_listed_and_shown_only_to_their_players(
    ala: Any, bob: Any, make_user: Any
) -> None:
    public = bot_match(ala, name="Open table")
    private = bot_match(ala, name="Closed table", private=True)
    stranger = client_for(make_user("celina"))

    assert rows(stranger.get("/matches/all/").content.decode()) == [public.pk]
    assert rows(Client().get("/matches/all/").content.decode()) == [public.pk]
    assert set(rows(client_for(ala).get("/matches/all/").content.decode())) == {public.pk, private.pk}
    for path in (
        f"/matches/{private.pk}/",
        f"/matches/{private.pk}/record.json",
        f"/matches/{private.pk}/scores.csv",
        f"/matches/{private.pk}/rounds/1/replay/",
        f"/verify/?match={private.pk}",
    ):
        assert stranger.get(path).status_code == 404, path
        assert client_for(ala).get(path).status_code == 200, path


# --- the match page ---------------------------------------------------------------------------


def test_the_match_page_shows_every_score_line_with_its_breakdown_and_the_totals(ala: Any) -> None:
    match = bot_match(ala, options={"rounds": 2})
    lines = list(ScoreLine.objects.filter(round__match=match).order_by("round__number", "seat"))
    assert len(lines) == 4

    html = client_for(ala).get(f"/matches/{match.pk}/").content.decode()

    for number in (1, 2):
        section = re.search(rf'<div class="round" id="round-{number}">(.*?)</div>', html, re.S).group(1)
        table = re.search(r'<table class="table score-lines">.*?</table>', section, re.S).group(0)
        assert "<th>Hand</th><th>Table</th><th>Bonus</th><th>Atu</th>" in table
        cells = [
            re.findall(r"<td>(.*?)</td>", row) for row in re.findall(r"<tr>\s*(.*?)</tr>", table, re.S)[1:]
        ]
        for line, row in zip([li for li in lines if li.round.number == number], cells, strict=True):
            expected = [
                line.hand,
                line.table,
                line.bonus,
                line.atu_bonus,
                line.multiplier,
                line.points,
                line.total,
            ]
            assert row[1:8] == [str(value) for value in expected]
        assert f'href="/matches/{match.pk}/rounds/{number}/replay/"' in section
    totals = re.search(r'<table class="table score-lines" id="final-totals">(.*?)</table>', html, re.S).group(
        1
    )
    for seat, total in enumerate(match.state["totals"]):
        assert f"<td>{total}</td>" in totals, seat
    assert f'href="/matches/{match.pk}/record.json"' in html
    assert f'href="/matches/{match.pk}/scores.csv"' in html
    assert f'href="/verify/?match={match.pk}"' in html


def test_a_ranked_match_page_shows_each_rating_change(ala: Any, bob: Any) -> None:
    match = two_people_match(ala, bob, ranked=True)
    changes = list(RatingChange.objects.filter(match=match).order_by("seat"))
    assert len(changes) == 2

    html = Client().get(f"/matches/{match.pk}/").content.decode()

    for change in changes:
        before = ratings.display(change.mu_before, change.sigma_before)
        after = ratings.display(change.mu_after, change.sigma_after)
        row = re.search(rf'<tr class="rating-change" id="rating-change-{change.seat}">(.*?)</tr>', html, re.S)
        assert row is not None
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)
        assert change.user.username in cells[0]
        assert cells[2] == str(before)
        assert cells[3].startswith(str(after))
        assert "provisional" in cells[3]  # one match: sigma is still far above the threshold
        delta = after - before
        assert cells[4] == (f"+{delta}" if delta > 0 else str(delta))
    assert changes[0].won != changes[1].won or changes[0].rank == changes[1].rank


def test_a_casual_match_page_has_no_rating_changes_and_no_record_while_played(ala: Any) -> None:
    match = bot_match(ala, finish=False)

    html = client_for(ala).get(f"/matches/{match.pk}/").content.decode()

    assert 'id="rating-changes"' not in html
    assert f'href="/matches/{match.pk}/record.json"' not in html
    assert "can be downloaded once a round is over" in html
    assertNotContains(client_for(ala).get("/matches/all/"), "No matches yet.")


@pytest.mark.parametrize(
    ("language", "said", "listed"),
    [("pl", "Brak zwycięzcy.", "brak zwycięzcy"), ("ro", "Niciun câștigător.", "niciun câștigător")],
)
def test_r40_q15_a_match_with_no_winner_says_so_on_the_match_page_and_in_the_history(
    ala: Any, bob: Any, language: str, said: str, listed: str
) -> None:
    # docs/engine.md "No winner": R40-Q15 ends the game void; nobody is named a winner or placed.
    room = make_room(ala, variant="remik40", ranked=True)
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bob, index=1)
    match = Match.objects.get(pk=services.match_start(room=room).pk)
    state = engine.position(
        engine.variant("remik40"),
        hands=["2C 3C", "4H 5H"],
        discard="KC",
        stock="",
        turn=0,
        phase="draw",
        rest="drop",
        names=["ala", "bob"],
    )
    match.set_game_state(state)
    match.save(update_fields=["state"])
    services.move_submit(match_id=match.pk, user=ala, move=engine.DrawStock(), expected_version=match.version)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert list(match.winners) == []
    ala.language = language
    ala.save(update_fields=["language"])
    client = client_for(ala)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert said in page
    assert "(winner)" not in page
    listing = client.get("/matches/").content.decode()
    assert listed in listing

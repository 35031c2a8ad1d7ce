"""Issue 32, item 9: the analysis of a round is limited per account and per hour, and by how many
wait on the whole site (docs/learn.md, "Analysis of a round"; ``ANALYSES_PER_ACCOUNT_PER_HOUR``,
``ANALYSES_WAITING``). Tried the way one person would go past them: more rounds than the hour
allows, a second account, another hour."""

from __future__ import annotations

import contextlib
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone
from pytest_django.fixtures import Settings

from games.learn.models import RoundAnalysis
from games.play.models import Match
from games.shared.errors import AnalysisRateLimitedError
from tests.site.site_helpers import client_for
from tests.site.test_history_pages import bot_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def ask(user: Any, match: Match, number: int, language: str = "en") -> Any:
    user.language = language  # a player's stored language wins (docs/i18n.md)
    user.save(update_fields=["language"])
    client = client_for(user)
    return client.post(f"/matches/{match.pk}/rounds/{number}/analysis/", HTTP_ACCEPT="application/json")


@pytest.fixture
def three_rounds(ala: Any) -> Match:
    match = bot_match(ala, "remi", {"rounds": 3})
    assert match.status == Match.Status.FINISHED
    return match


def test_an_account_asks_for_at_most_its_hours_worth(
    settings: Settings, ala: Any, three_rounds: Match
) -> None:
    settings.ANALYSES_PER_ACCOUNT_PER_HOUR = 2
    assert ask(ala, three_rounds, 1).status_code == 200
    assert ask(ala, three_rounds, 2).status_code == 200
    refused = ask(ala, three_rounds, 3)
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "analysis_rate_limited"
    assert body["limit"] == 2
    assert 55 <= body["minutes"] <= 60
    assert "2 analyses in the last hour" in body["message"]
    assert RoundAnalysis.objects.count() == 2
    # Asking again for one already asked for costs nothing and is answered.
    assert ask(ala, three_rounds, 1).status_code == 200
    # An hour later the first two count no more.
    RoundAnalysis.objects.update(created=timezone.now() - timedelta(minutes=61))
    assert ask(ala, three_rounds, 3).status_code == 200


@pytest.mark.parametrize(
    ("language", "words"), [("pl", "Limit analiz na godzinę (1)"), ("ro", "Limita de analize pe oră (1)")]
)
def test_the_refusal_is_worded_in_polish_and_romanian(
    settings: Settings, ala: Any, three_rounds: Match, language: str, words: str
) -> None:
    settings.ANALYSES_PER_ACCOUNT_PER_HOUR = 1
    assert ask(ala, three_rounds, 1).status_code == 200
    refused = ask(ala, three_rounds, 2, language)
    assert refused.json()["code"] == "analysis_rate_limited"
    assert words in refused.json()["message"]


def test_a_second_account_has_its_own_hour_and_the_site_a_waiting_line(
    settings: Settings, ala: Any, bob: Any, make_user: Any, three_rounds: Match
) -> None:
    """A person with two accounts gets each account's hour (the site cannot tell them apart), but
    never more than the site's waiting line, and the background worker computes one at a time."""
    settings.ANALYSES_PER_ACCOUNT_PER_HOUR = 2
    settings.ANALYSES_WAITING = 3
    bobs = bot_match(bob, "remi", {"rounds": 3})
    assert ask(ala, three_rounds, 1).status_code == 200
    assert ask(ala, three_rounds, 2).status_code == 200
    assert ask(ala, three_rounds, 3).json()["code"] == "analysis_rate_limited"
    assert ask(bob, bobs, 1).status_code == 200  # another account: its own hour
    full = ask(bob, bobs, 2, "pl")
    assert full.status_code == 429
    assert full.json()["code"] == "analysis_queue_full"
    assert full.json()["message"] == "Wiele analiz czeka w kolejce: spróbuj ponownie za kilka minut."
    carol = make_user("carol")
    carols = bot_match(carol, "remi", {"rounds": 1})
    assert ask(carol, carols, 1).json()["code"] == "analysis_queue_full"
    # One finished: a place in the line.
    RoundAnalysis.objects.filter(requested_by=ala, round__number=1).update(status=RoundAnalysis.Status.DONE)
    assert ask(carol, carols, 1).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_requests_at_once_cannot_both_take_the_last_analysis_of_the_hour(
    settings: Settings, ala: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two tabs asking at the same moment, each for another round, with one analysis left in the
    account's hour: each request counts the hour before either adds its analysis, so without one
    request at a time both would be accepted. Each waits (up to a second) after its count for the
    other to count too; with the requests taken one at a time, the second counts after the first
    has added its analysis."""
    from games.learn.services import analysis as analysis_services

    settings.ANALYSES_PER_ACCOUNT_PER_HOUR = 1
    match = bot_match(ala, "remi", {"rounds": 2})
    counted = threading.Barrier(2)
    check = analysis_services._check_analysis_limits

    def count_then_wait(user: Any) -> None:
        check(user)
        with contextlib.suppress(threading.BrokenBarrierError):
            counted.wait(timeout=1.0)

    monkeypatch.setattr(analysis_services, "_check_analysis_limits", count_then_wait)
    outcomes: list[str] = []

    def ask_for(number: int) -> None:
        try:
            analysis_services.analysis_request(match_id=match.pk, number=number, user=ala)
            outcomes.append("queued")
        except AnalysisRateLimitedError:
            outcomes.append("refused")
        finally:
            connection.close()

    tabs = [threading.Thread(target=ask_for, args=(number,)) for number in (1, 2)]
    for tab in tabs:
        tab.start()
    for tab in tabs:
        tab.join(timeout=30)
    assert sorted(outcomes) == ["queued", "refused"]
    assert RoundAnalysis.objects.filter(requested_by=ala).count() == 1

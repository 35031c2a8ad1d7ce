"""The analysis of a round (docs/learn.md): asked for on a finished round's replay by a player of
the match, computed by the Celery task with the engine's evaluator, stored with the round, shown
at the moves it concerns; refused for a round still being played."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from pytest_django.fixtures import Settings

from games import tasks
from games.engine import Discard, apply_move, parse_card, position, variant
from games.engine.analysis import analyse_round
from games.learn.analysis_text import decision_words
from games.learn.models import RoundAnalysis
from games.learn.services import analysis as analysis_services
from games.play.models import Match
from games.shared.errors import NotSeatedError, RoundInPlayError
from tests.site.site_helpers import client_for
from tests.site.test_history_pages import bot_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def in_round_two(state: Any) -> bool:
    return state.round_no == 2


@pytest.fixture
def gin_midway(ala: Any) -> Match:
    """Ala against a bot at gin: deal 1 over, deal 2 being played."""
    match = bot_match(ala, "gin", {}, finish=False, until=in_round_two)
    assert match.status == Match.Status.PLAYING
    return match


def analysis_data(html: str) -> dict[str, Any]:
    found = re.search(r'<script id="replay-analysis-data" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return dict(json.loads(found.group(1)))


def ask(client: Client, match: Match, number: int) -> Any:
    return client.post(f"/matches/{match.pk}/rounds/{number}/analysis/", HTTP_ACCEPT="application/json")


def test_a_round_still_being_played_is_refused_with_round_in_play(ala: Any, gin_midway: Match) -> None:
    response = ask(client_for(ala), gin_midway, 2)
    assert response.status_code == 409
    assert response.json()["code"] == "round_in_play"
    with pytest.raises(RoundInPlayError):
        analysis_services.analysis_request(match_id=gin_midway.pk, number=2, user=ala)
    assert not RoundAnalysis.objects.exists()


def test_only_a_player_of_the_match_may_ask(bob: Any, gin_midway: Match) -> None:
    response = ask(client_for(bob), gin_midway, 1)
    assert response.status_code == 403
    assert response.json()["code"] == "not_seated"
    with pytest.raises(NotSeatedError):
        analysis_services.analysis_request(match_id=gin_midway.pk, number=1, user=bob)
    html = client_for(bob).get(f"/matches/{gin_midway.pk}/rounds/1/replay/").content.decode()
    assert analysis_data(html)["can_ask"] is False
    assert 'id="analysis-form"' not in html


def test_asked_on_the_replay_queued_run_by_the_task_and_shown_at_its_moves(
    ala: Any, gin_midway: Match
) -> None:
    client = client_for(ala)
    replay = f"/matches/{gin_midway.pk}/rounds/1/replay/"
    assert analysis_data(client.get(replay).content.decode())["can_ask"] is True

    response = ask(client, gin_midway, 1)
    assert response.status_code == 200
    assert [a["status"] for a in response.json()["analyses"]] == ["pending"]
    assert response.json()["can_ask"] is False
    analysis = RoundAnalysis.objects.get()
    assert (analysis.seat, analysis.round.number) == (0, 1)
    # Asking again changes nothing: one analysis per round and seat.
    ask(client, gin_midway, 1)
    assert RoundAnalysis.objects.count() == 1

    assert tasks.round_analyse(analysis.pk) == "done"  # what the worker runs
    assert tasks.round_analyse(analysis.pk) == "already"
    analysis.refresh_from_db()
    assert analysis.status == RoundAnalysis.Status.DONE
    report = analysis.report
    assert report is not None
    assert report["decisions"]
    assert analysis.done == analysis.total > 0
    assert analysis.cpu_seconds is not None

    step = report["decisions"][0]["step"]
    html = client.get(f"{replay}?step={step}").content.decode()
    shown = analysis_data(html)["analyses"][0]
    assert shown["status"] == "done"
    assert [d["step"] for d in shown["decisions"]] == [d["step"] for d in report["decisions"]]
    assert 'class="analysis-mark' in html
    assert f'data-step="{step}"' in html


def test_an_analysis_a_stopped_worker_left_running_is_listed_again_and_finishes(
    ala: Any, gin_midway: Match
) -> None:
    analysis = analysis_services.analysis_request(match_id=gin_midway.pk, number=1, user=ala)
    assert analysis_services.analyses_unfinished() == [analysis.pk]  # queued
    # The worker took it and stopped mid-way (the process ended): it stays "running".
    RoundAnalysis.objects.filter(pk=analysis.pk).update(status=RoundAnalysis.Status.RUNNING, done=3)
    assert analysis_services.analyses_unfinished() == [analysis.pk]  # a worker's start queues it again
    assert tasks.round_analyse(analysis.pk) == "done"
    assert analysis_services.analyses_unfinished() == []
    analysis.refresh_from_db()
    assert analysis.status == RoundAnalysis.Status.DONE
    assert analysis.done == analysis.total > 0


def test_the_same_round_gives_the_same_analysis(ala: Any, gin_midway: Match) -> None:
    analysis_services.analysis_request(match_id=gin_midway.pk, number=1, user=ala)
    analysis = RoundAnalysis.objects.get()
    analysis_services.analysis_run(analysis_id=analysis.pk)
    analysis.refresh_from_db()
    first = analysis.report
    RoundAnalysis.objects.all().delete()
    analysis_services.analysis_request(match_id=gin_midway.pk, number=1, user=ala)
    again = RoundAnalysis.objects.get()
    analysis_services.analysis_run(analysis_id=again.pk)
    again.refresh_from_db()
    assert again.report == first


def test_during_the_match_only_the_seats_player_reads_its_analysis(
    ala: Any, bob: Any, gin_midway: Match
) -> None:
    analysis_services.analysis_request(match_id=gin_midway.pk, number=1, user=ala)
    analysis_services.analysis_run(analysis_id=RoundAnalysis.objects.get().pk)
    url = f"/matches/{gin_midway.pk}/rounds/1/analysis/"
    assert len(client_for(ala).get(url).json()["analyses"]) == 1
    assert client_for(bob).get(url).json()["analyses"] == []
    Match.objects.filter(pk=gin_midway.pk).update(status=Match.Status.FINISHED)
    assert len(client_for(bob).get(url).json()["analyses"]) == 1


# --- the planted mistake -------------------------------------------------------------------------


def planted_round() -> list[Any]:
    """A round's steps where seat 0 discards the ten of hearts, which completes the opponent's
    run on the table: the opponent (one card left) takes it, lays it off and goes out."""
    state = position(
        variant("rummy500"),
        hands=["TH 3S 4D KD QC 9C 5S", "2C"],
        melds=[(1, "7H 8H 9H")],
        discard="6C",
        turn=0,
        phase="play",
    )
    move = Discard(parse_card("TH"))
    return [(state, None, None), (apply_move(state, 0, move).state, 0, move)]


def test_the_analysis_names_the_planted_mistake_in_every_language() -> None:
    report = analyse_round(planted_round(), 0, seed="planted")
    [decision] = report.decisions
    assert decision.mark == "mistake"
    # Discarding the ten costs the whole hand in every sample; the best discard keeps it.
    assert decision.loss >= 50
    assert decision.best != decision.played
    words = decision_words(decision.to_json())
    for language, mistake in (("en", "Mistake"), ("pl", "Błąd"), ("ro", "Greșeală")):
        with translation.override(language):
            text = decision_words(decision.to_json())["text"]
        assert text.startswith(mistake)
        assert "10♥" in text
    assert words["step"] == 1

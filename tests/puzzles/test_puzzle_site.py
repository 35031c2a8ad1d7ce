"""Puzzles on the site: stored answers accepted and wrong ones refused through the HTTP endpoint,
ratings per kind, the next puzzle near one's rating, reports, the generator's batches and task."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import engine
from games.learn import puzzles
from games.learn.models import Puzzle, PuzzleAttempt, PuzzleBatch, PuzzleRating, PuzzleReport
from games.learn.services import puzzles as puzzle_services
from games.learn.views.puzzles import GIVEN_KEY

pytestmark = pytest.mark.django_db


def give(client: Client, puzzle: Puzzle) -> None:
    """This browser session has been given ``puzzle``, as "Next puzzle" records it (the fairness
    tests, tests/puzzles/test_puzzle_fairness.py, go through "Next puzzle" itself)."""
    session = client.session
    session[GIVEN_KEY] = [*session.get(GIVEN_KEY, []), puzzle.pk]
    session.save()


def _answer(client: Client, puzzle: Puzzle, move: Any) -> Any:
    give(client, puzzle)
    return client.post(
        reverse("puzzle_answer", args=[puzzle.pk]),
        data=json.dumps({"move": move}),
        content_type="application/json",
    )


def _wrong(puzzle: Puzzle) -> dict[str, Any]:
    hand = engine.state_from_json(puzzle.state).hands[puzzle.seat]
    return {"kind": "discard", "card": str(hand[0])}


def test_every_stored_answer_is_accepted_by_the_engine(stored: list[Puzzle]) -> None:
    assert len(stored) == 8
    for puzzle in stored:
        state = engine.state_from_json(puzzle.state)
        result = puzzles.check(state, puzzle.seat, puzzle.kind, puzzle.answer, puzzle.answer)
        assert result["code"] == "solved"
        if puzzle.kind == "discard":  # the evaluator again, on the stored position: the same answer
            assert puzzles.find_discard(state, puzzle.seat) == (puzzle.answer, puzzle.explanation)
        if puzzle.kind in ("knock", "discard"):
            assert puzzle.explanation["margin"] >= puzzles.KNOCK_MARGIN
        else:
            assert puzzle.explanation["points"] >= puzzle.explanation["required_points"]


def test_the_stored_answer_is_accepted_through_the_endpoint(stored: list[Puzzle], client: Client) -> None:
    puzzle = stored[0]
    response = _answer(client, puzzle, puzzle.answer)
    assert response.status_code == 200
    data = response.json()
    assert (data["correct"], data["code"], data["rated"]) == (True, "solved", False)
    assert data["explanation"]["points"] >= data["explanation"]["required_points"]
    # The frame after the answer is the seat's own: no other hand, no stock.
    frame = data["frame"]
    assert frame["view"]["seat"] == puzzle.seat
    assert "stock" not in frame["view"]
    assert "hands" not in frame["view"]


def test_a_wrong_answer_is_refused_with_a_stable_code(stored: list[Puzzle], client: Client) -> None:
    puzzle = stored[0]
    data = _answer(client, puzzle, _wrong(puzzle)).json()
    assert (data["correct"], data["code"]) == (False, "not_an_opening")
    assert data["answer"] is None  # a visitor is never shown the engine's answer (docs/learn.md)
    melds = puzzle.answer["melds"][:1]
    low = _answer(client, puzzle, {"kind": "play", "melds": melds}).json()
    assert low["correct"] is False
    assert low["code"] in {
        "opening_too_low",
        "opening_needs_run",
        "must_keep_discard",
    }


def test_bad_requests_get_stable_errors(stored: list[Puzzle], client: Client) -> None:
    puzzle = stored[0]
    assert _answer(client, puzzle, {"kind": "fly"}).json()["code"] == "malformed_move"
    assert _answer(client, puzzle, {"kind": "fly"}).status_code == 400
    bad = client.post(reverse("puzzle_answer", args=[puzzle.pk]), data="{", content_type="application/json")
    assert (bad.status_code, bad.json()["code"]) == (400, "malformed_move")
    missing = client.post(reverse("puzzle_answer", args=[99999]), data="{}", content_type="application/json")
    assert (missing.status_code, missing.json()["code"]) == (404, "no_such_puzzle")
    assert client.get(reverse("puzzle_answer", args=[puzzle.pk])).status_code == 405


def test_the_first_answer_of_a_player_is_rated_and_only_that(
    stored: list[Puzzle], client: Client, make_user: Any
) -> None:
    user = make_user("solver")
    client.force_login(user)
    puzzle = stored[0]
    first = _answer(client, puzzle, puzzle.answer).json()
    assert first["rated"] is True
    assert first["rating_change"] > 0
    rating = PuzzleRating.objects.get(user=user, kind=puzzle.kind)
    assert (rating.solved, rating.failed) == (1, 0)
    assert rating.mu > 25
    puzzle.refresh_from_db()
    assert (puzzle.attempts, puzzle.solved) == (1, 1)
    assert puzzle.mu < 25
    again = _answer(client, puzzle, _wrong(puzzle)).json()
    assert again["rated"] is False
    assert again["code"] == "not_an_opening"
    assert PuzzleAttempt.objects.filter(user=user).count() == 1
    failed = _answer(client, stored[1], _wrong(stored[1])).json()
    assert failed["rated"] is True
    assert failed["rating_change"] < 0
    rating = PuzzleRating.objects.get(user=user, kind=stored[1].kind)
    assert rating.failed == 1 or stored[1].kind != puzzle.kind


def test_visitors_may_solve_but_are_not_rated(stored: list[Puzzle], client: Client) -> None:
    assert _answer(client, stored[0], stored[0].answer).json()["rated"] is False
    assert not PuzzleAttempt.objects.exists()
    assert not PuzzleRating.objects.exists()


def test_the_next_puzzle_is_untried_and_nearest_the_players_rating(
    stored: list[Puzzle], client: Client, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The next puzzle is drawn among the PUZZLE_CHOICES nearest (docs/learn.md, "Fair puzzles";
    # tests/puzzles/test_puzzle_fairness.py): with one choice it is the nearest untried one.
    from games.learn import selectors

    monkeypatch.setattr(selectors, "PUZZLE_CHOICES", 1)
    user = make_user("next")
    client.force_login(user)
    kind = stored[0].kind
    same = [p for p in stored if p.kind == kind]
    Puzzle.objects.filter(pk=same[0].pk).update(mu=40.0)
    Puzzle.objects.filter(pk=same[1].pk).update(mu=30.0)
    PuzzleRating.objects.create(user=user, kind=kind, mu=31.0)
    response = client.get(reverse("puzzle_next", args=[kind]))
    assert response["Location"] == reverse("puzzle", args=[same[1].pk])
    _answer(client, same[1], same[1].answer)
    rating = PuzzleRating.objects.get(user=user, kind=kind)
    nearest = min(
        (p for p in Puzzle.objects.filter(kind=kind).exclude(pk=same[1].pk)),
        key=lambda p: (abs(p.mu - rating.mu), p.pk),
    )
    assert client.get(reverse("puzzle_next", args=[kind]))["Location"] == reverse("puzzle", args=[nearest.pk])
    assert client.get(reverse("puzzle_next", args=["nonsense"])).status_code == 404


def test_the_puzzle_page_hides_the_engines_opening_and_other_hands(
    stored: list[Puzzle], client: Client
) -> None:
    puzzle = stored[0]
    response = client.get(reverse("puzzle", args=[puzzle.pk]))
    assert response.status_code == 200
    frame = response.context["frame"]
    opening = frame["view"]["you"]["opening"]
    assert opening["hidden"] is True
    assert opening["melds"] == []
    assert opening["best_points"] is None
    page = response.content.decode()
    state = engine.state_from_json(puzzle.state)
    for other, hand in enumerate(state.hands):
        if other != puzzle.seat:
            assert not any(f'"{card}"' in page for card in hand if str(card) not in frame["view"]["discard"])
    assert not any(f'"{card}"' in page for card in state.stock)


def test_the_rack_question_is_answered_on_the_puzzles_position(stored: list[Puzzle], client: Client) -> None:
    puzzle = stored[0]
    query = {"groups": puzzle.answer["melds"], "move": {"kind": "play"}}
    response = client.get(reverse("puzzle_rack", args=[puzzle.pk]), {"q": json.dumps(query)})
    data = response.json()
    assert data["seat"] == puzzle.seat
    assert data["lay_down"]["possible"] is True
    assert (
        client.get(reverse("puzzle_rack", args=[puzzle.pk]), {"q": "[1"}).json()["code"] == "malformed_query"
    )


def test_a_report_reaches_the_admin_and_withdrawing_hides_the_puzzle(
    stored: list[Puzzle], client: Client, make_user: Any, admin_client: Client
) -> None:
    user = make_user("reporter")
    client.force_login(user)
    puzzle = stored[0]
    client.post(reverse("puzzle_report", args=[puzzle.pk]), {"reason": "the joker is not on the table"})
    client.post(reverse("puzzle_report", args=[puzzle.pk]), {"reason": "again"})
    assert list(PuzzleReport.objects.values_list("reason", flat=True)) == ["the joker is not on the table"]
    page = admin_client.get(reverse("admin:games_puzzlereport_changelist"))
    assert b"the joker is not on the table" in page.content
    admin_client.post(
        reverse("admin:games_puzzlereport_changelist"),
        {"action": "withdraw_puzzles", "_selected_action": [PuzzleReport.objects.get().pk]},
    )
    assert Puzzle.objects.get(pk=puzzle.pk).withdrawn
    assert client.get(reverse("puzzle", args=[puzzle.pk])).status_code == 404
    assert _answer(client, puzzle, puzzle.answer).json()["code"] == "no_such_puzzle"


def test_the_profile_and_the_list_show_ratings_and_history(
    stored: list[Puzzle], client: Client, make_user: Any
) -> None:
    user = make_user("shown")
    client.force_login(user)
    _answer(client, stored[0], stored[0].answer)
    _answer(client, stored[1], _wrong(stored[1]))
    profile = client.get(reverse("profile", args=["shown"])).content.decode()
    assert "profile-puzzles" in profile
    assert "→" in profile
    listing = client.get(reverse("puzzles")).content.decode()
    assert f'href="{reverse("puzzle", args=[stored[0].pk])}"' in listing


def test_a_batch_step_is_idempotent_by_its_game_count(db: None) -> None:
    batch = puzzle_services.puzzle_batch_create(seed="steps", target=3)
    assert puzzle_services.puzzle_batch_step(batch_id=batch.pk, games=0) in (True, False)
    batch.refresh_from_db()
    assert batch.games == 1
    made = batch.made
    assert puzzle_services.puzzle_batch_step(batch_id=batch.pk, games=0) is False  # stale: done already
    batch.refresh_from_db()
    assert (batch.games, batch.made) == (1, made)


def test_the_task_runs_a_batch_to_its_end(db: None, settings: Any) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    from games.tasks import puzzles_step

    batch = puzzle_services.puzzle_batch_create(seed="task", target=4)
    from remi_site.celery import app

    app.conf.task_always_eager = True
    try:
        puzzles_step.apply_async((batch.pk, 0))
    finally:
        app.conf.task_always_eager = False
    batch.refresh_from_db()
    assert batch.made == 4
    assert batch.finished is not None
    assert Puzzle.objects.count() == 4


def test_the_startup_seed_fills_up_to_its_target_and_shows_progress(db: None, client: Client) -> None:
    batch = puzzle_services.puzzle_seed_startup(target=3)
    assert batch is not None
    assert puzzle_services.puzzle_seed_startup(target=3) == batch
    page = client.get(reverse("puzzles")).content.decode()
    assert 'id="puzzle-progress"' in page
    puzzle_services.puzzle_batch_run(batch_id=batch.pk)
    assert Puzzle.objects.count() == 3
    assert puzzle_services.puzzle_seed_startup(target=3) is None
    assert 'id="puzzle-progress"' not in client.get(reverse("puzzles")).content.decode()
    assert PuzzleBatch.objects.get().finished is not None


def test_gin_15_a_knock_puzzle_through_the_endpoint(db: None, client: Client) -> None:
    found = next(puzzles.game_puzzles("t1", 4, kinds=("knock",)))
    puzzle = puzzle_services.puzzle_store(found)
    assert puzzle is not None
    data = _answer(client, puzzle, puzzle.answer).json()
    assert (data["correct"], data["code"]) == (True, "solved")
    assert data["explanation"]["alternatives"][0]["choice"] in {"knock", "draw_on"}
    card = puzzle.answer["card"]
    other = {"kind": "discard" if puzzle.answer["kind"] == "knock" else "knock", "card": card}
    wrong = _answer(client, puzzle, other).json()
    assert (wrong["correct"], wrong["code"]) == (False, "wrong_choice")
    assert client.get(reverse("puzzle", args=[puzzle.pk])).status_code == 200


def test_puzzles_come_from_finished_public_matches_of_the_site(make_user: Any) -> None:
    from unittest import mock

    from games.play.models import Match
    from tests.site.test_history_pages import bot_match

    ala = make_user("ala")
    # A deal (its secret fixed) in which a seat reaches an opening that is not trivial.
    with mock.patch("secrets.token_bytes", return_value=b"b" * 32):
        match = bot_match(ala, "remi", {"rounds": 1})
    assert match.status == Match.Status.FINISHED
    stored = puzzle_services.puzzles_from_matches(limit=5)
    assert stored >= 1
    for puzzle in Puzzle.objects.all():
        assert puzzle.source == {"match": match.pk, "round": 1, "moves": puzzle.source["moves"]}
        state = engine.state_from_json(puzzle.state)
        assert (
            puzzles.check(state, puzzle.seat, puzzle.kind, puzzle.answer, puzzle.answer)["code"] == "solved"
        )
    assert puzzle_services.puzzles_from_matches(limit=5) == 0  # each position stored once


def test_gin_9_a_discard_puzzle_through_the_endpoint(db: None, client: Client) -> None:
    found = next(puzzles.game_puzzles("y", 16, kinds=("discard",)))
    puzzle = puzzle_services.puzzle_store(found)
    assert puzzle is not None
    page = client.get(reverse("puzzle", args=[puzzle.pk])).content.decode()
    assert "Which card do you discard?" in page
    assert f"at least {puzzles.DISCARD_MARGIN:g} points" in page
    data = _answer(client, puzzle, puzzle.answer).json()
    assert (data["correct"], data["code"]) == (True, "solved")
    figures = data["explanation"]
    assert figures["alternatives"][0]["card"] == puzzle.answer["card"].split("#")[0]
    assert figures["margin"] >= puzzles.DISCARD_MARGIN
    second = figures["alternatives"][1]["move"]
    wrong = _answer(client, puzzle, second).json()
    assert (wrong["correct"], wrong["code"]) == (False, "wrong_choice")
    assert wrong["message"] == "The hard bot's look-ahead prefers another discard here."
    assert wrong["answer"] is None  # a visitor: never the engine's answer
    client.force_login(get_user_model().objects.create_user(username="ola", password=None))
    rated = _answer(client, puzzle, second).json()
    assert rated["rated"] is True
    assert rated["answer"] == puzzle.answer  # after one's own rated try
    assert rated["answer_explanation"]["alternatives"] == figures["alternatives"]
    polish = _answer(Client(HTTP_ACCEPT_LANGUAGE="pl"), puzzle, second).json()["message"]
    assert polish == "Przewidywanie trudnego bota woli tu odrzucić inną kartę."

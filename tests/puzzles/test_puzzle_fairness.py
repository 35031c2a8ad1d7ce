"""Fair puzzles, tried as a cheater would (docs/learn.md, "Fair puzzles"; issue 32, item 6): a
private window and a throwaway account must not preview the puzzle one is given, and the engine's
answer comes only with one's own rated try."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.learn import puzzles
from games.learn.models import Puzzle, PuzzleAttempt
from games.learn.selectors import PUZZLE_CHOICES
from games.learn.services import puzzles as puzzle_services

pytestmark = pytest.mark.django_db

HAND = "JH JC JD JK QS KS AS 9D 5S 8H 2C 3C 4D 6H"
RIGHT = {"kind": "play", "melds": [["JH", "JC", "JD"], ["QS", "KS", "AS"]]}
TOPS = ["7S", "7C", "7H", "8S", "8C", "8D", "9S", "9C", "9H", "TS", "TC", "TD", "QH", "QC"]


@pytest.fixture
def many(db: None) -> list[Puzzle]:
    """More opening puzzles than ``PUZZLE_CHOICES`` at the same rating (the same hand under
    different discard piles: different positions, each stored once)."""
    rows = []
    for top in TOPS:
        state = engine.position(
            engine.variant("remik51"), hands=[HAND, "4D 6D 8D TS QS KH"], discard=top, turn=0, phase="play"
        )
        row = puzzle_services.puzzle_store(puzzles.Puzzle("opening", state, 0, RIGHT))
        assert row is not None
        rows.append(row)
    assert len(rows) > PUZZLE_CHOICES
    return rows


def _next(client: Client) -> int:
    response = client.get(reverse("puzzle_next", args=["opening"]))
    assert response.status_code == 302
    return int(response["Location"].rstrip("/").rsplit("/", 1)[1])


def _answer(client: Client, puzzle_id: int, move: Any) -> Any:
    return client.post(
        reverse("puzzle_answer", args=[puzzle_id]),
        data=json.dumps({"move": move}),
        content_type="application/json",
    )


def _logged_in(django_user_model: Any, name: str) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_user(username=name, password=None))
    return client


def test_a_private_window_cannot_preview_the_puzzle_one_is_given(
    many: list[Puzzle], django_user_model: Any
) -> None:
    main = _logged_in(django_user_model, "ala")
    given = _next(main)
    assert _next(main) == given  # the same person is given the same puzzle until they answer it
    private = Client()  # no account, no cookie: a private window
    page = private.get(reverse("puzzle", args=[given])).content.decode()
    assert 'id="puzzle-not-given"' in page
    for move in (RIGHT, {"kind": "discard", "card": "9D"}):
        response = _answer(private, given, move)
        assert response.status_code == 403
        data = response.json()
        assert data["code"] == "puzzle_not_given"
        assert "correct" not in data
        assert "answer" not in data
    # A visitor's own puzzle ("Next puzzle") is judged, but never with the engine's answer.
    own = _next(private)
    data = _answer(private, own, {"kind": "discard", "card": "9D"}).json()
    assert (data["correct"], data["answer"], data["answer_explanation"]) == (False, None, None)
    # The main account's answer is then judged and rated, as its first try.
    first = _answer(main, given, RIGHT).json()
    assert (first["correct"], first["rated"]) == (True, True)


def test_a_throwaway_account_is_given_another_puzzle_and_cannot_preview_ones(
    many: list[Puzzle], django_user_model: Any
) -> None:
    main = _logged_in(django_user_model, "ala")
    given = _next(main)
    # Fresh accounts at the same rating are given puzzles among the nearest, not all the same one.
    throwaways = [_logged_in(django_user_model, f"throwaway{n}") for n in range(6)]
    theirs = [_next(client) for client in throwaways]
    assert len(set(theirs)) > 1
    nearest = {p.pk for p in many}
    assert set(theirs) <= nearest
    # A throwaway opening the main account's puzzle by its address is not judged, not rated, and
    # sees no answer; a miss on its own puzzle shows the answer of that puzzle only.
    # The spy is a throwaway given another puzzle than the main account (one of the six may be
    # given the same one: the choice among the nearest is keyed by the site's secret and the id).
    spy, own = next((client, pk) for client, pk in zip(throwaways, theirs, strict=True) if pk != given)
    refused = _answer(spy, given, {"kind": "discard", "card": "9D"})
    assert refused.status_code == 403
    assert not PuzzleAttempt.objects.filter(puzzle_id=given).exists()
    miss = _answer(spy, own, {"kind": "discard", "card": "9D"}).json()
    assert (miss["rated"], miss["correct"]) == (True, False)
    assert miss["answer"] == Puzzle.objects.get(pk=own).answer
    assert miss["puzzle"] == own
    # After its rated try it may look at that puzzle again: judged, with the answer, not rated.
    again = _answer(spy, own, RIGHT).json()
    assert (again["rated"], again["correct"], again["answer"] is not None) == (False, True, True)

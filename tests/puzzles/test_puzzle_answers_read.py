"""Puzzle answers are read as the table's rack reads a block (``games.play.rack.read_move``): a run in
the order its cards were selected, a joker left on "★ = auto" declared as the rack declares it;
an answer that still cannot be read (not wrong: unreadable) is explained and never rated
(docs/learn.md, "Puzzles"; issue 32, item 5)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.learn import puzzles
from games.learn.models import Puzzle, PuzzleAttempt, PuzzleRating
from games.learn.services import puzzles as puzzle_services
from tests.puzzles.test_puzzle_site import give

pytestmark = pytest.mark.django_db

#: Remik 51 (R51-31: an opening of 51): J♥ J♣ ★ or J♥ J♣ J♦ (30) and Q♠ K♠ A♠ (31) open with 61.
HAND = "JH JC JD JK QS KS AS 9D 5S 8H 2C 3C 4D 6H"


def _position() -> engine.GameState:
    return engine.position(
        engine.variant("remik51"),
        hands=[HAND, "4D 6D 8D TS QS KH"],
        melds=[(1, "5D 6D 7D")],
        discard="7S",
        turn=0,
        phase="play",
        rest="stock",
    )


def _stored() -> Puzzle:
    state = _position()
    answer = {"kind": "play", "melds": [["JH", "JC", "JD"], ["QS", "KS", "AS"]]}
    puzzle = puzzle_services.puzzle_store(puzzles.Puzzle("opening", state, 0, answer))
    assert puzzle is not None
    return puzzle


def _answer(client: Client, puzzle: Puzzle, move: Any) -> Any:
    give(client, puzzle)
    return client.post(
        reverse("puzzle_answer", args=[puzzle.pk]),
        data=json.dumps({"move": move}),
        content_type="application/json",
    )


@pytest.mark.parametrize(
    "melds",
    [
        [["JH", "JC", "JK"], ["QS", "KS", "AS"]],  # ★ = auto: the joker not declared (R51-22/23)
        [["JH", "JC", "JK(JD)"], ["KS", "AS", "QS"]],  # the run in the order it was selected
        [["JK", "JC", "JH"], ["AS", "KS", "QS"]],  # both at once
    ],
)
def test_r51_31_a_right_opening_is_solved_in_whatever_order_its_cards_were_selected(
    melds: list[list[str]],
) -> None:
    result = puzzles.check(_position(), 0, "opening", {"kind": "play", "melds": melds})
    assert result["code"] == "solved"
    assert result["correct"] is True
    assert result["explanation"]["points"] == 61


def test_an_answer_read_as_the_rack_reads_it_is_rated_as_solved(
    client: Client, django_user_model: Any
) -> None:
    puzzle = _stored()
    client.force_login(django_user_model.objects.create_user(username="ala", password=None))
    data = _answer(client, puzzle, {"kind": "play", "melds": [["JH", "JC", "JK"], ["KS", "AS", "QS"]]}).json()
    assert (data["correct"], data["code"], data["rated"]) == (True, "solved", True)
    assert data["rating_change"] > 0


def test_an_unreadable_answer_is_explained_and_not_rated(client: Client, django_user_model: Any) -> None:
    # A joker laid off onto 5♦ 6♦ 7♦ may stand for 4♦ or 8♦: the rack cannot tell, the player must
    # say (R51-40). That is a form slip, not a wrong answer: explained, not rated.
    puzzle = _stored()
    user = django_user_model.objects.create_user(username="ola", password=None, language="pl")
    client.force_login(user)
    opening = [["JH", "JC", "JD"], ["QS", "KS", "AS"]]
    move = {"kind": "play", "melds": opening, "layoffs": [{"meld": 1, "cards": ["JK"]}]}
    response = _answer(client, puzzle, move)
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "joker_must_be_declared"
    assert data["rated"] is False
    assert "nie jest liczona" in data["message"]
    assert not PuzzleAttempt.objects.exists()
    assert not PuzzleRating.objects.exists()
    puzzle.refresh_from_db()
    assert puzzle.attempts == 0
    # The same answer with the joker declared is then rated as usual.
    move = {"kind": "play", "melds": opening, "layoffs": [{"meld": 1, "cards": ["JK(8D)"]}]}
    again = _answer(client, puzzle, move).json()
    assert (again["correct"], again["rated"]) == (True, True)

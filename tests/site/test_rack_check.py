"""The rack's question to the engine (games/play/views/table.py): which blocks are melds, and whether
"lay down everything" would be accepted now, with the engine's reason when not (RMI-UI-5..7)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import engine
from games.play import services
from games.play.models import Match
from tests.browser.tablekit import cookie, rack_answer, rig, start_match, users

pytestmark = pytest.mark.django_db

HAND = "9S TS JS QS 8H 8D 8C 2C 5D"


def _table(turns: int = 2) -> tuple[Match, list[Any]]:
    players = users(2)
    match = start_match("remik51", {}, players, b"rack check")
    state = engine.position(
        engine.variant("remik51"),
        hands=[HAND, "3H 4H 5H 6H 7H KD KC 2S 3S 4S"],
        discard="7C",
        turn=0,
        phase="play",
        turns_started=[turns, turns],
        names=["ala", "bartek"],
    )
    return rig(match, state), players


def _ids(match: Match, seat: int) -> dict[str, str]:
    """Face -> physical id ("9S" -> "9S#1": Remik 51 plays with two decks)."""
    return {card.face: str(card) for card in match.game_state().hands[seat]}


def _faces(cards: list[str]) -> list[str]:
    return [card.split("#")[0] for card in cards]


def _ask(
    user: Any, match: Match, groups: list[list[str]], move: dict[str, Any] | None = None
) -> dict[str, Any]:
    named = {**_ids(match, 1), **_ids(match, 0)}
    groups = [[named.get(face, face) for face in group] for group in groups]
    response = rack_answer(cookie(user), match.pk, groups, move)
    assert response.status_code == 200, response.content
    return json.loads(response.content)


def test_blocks_are_valued_and_a_51_with_a_pure_run_may_be_laid() -> None:
    match, players = _table()
    answer = _ask(players[0], match, [["9S", "TS", "JS", "QS"], ["8H", "8D", "8C"]])
    first, second = answer["groups"]
    assert first == {"meld": True, "kind": "run", "pure": True, "points": 39, "cards": first["cards"]}
    assert _faces(first["cards"]) == ["9S", "TS", "JS", "QS"]
    assert second["meld"]
    assert second["kind"] == "set"
    assert second["points"] == 24
    lay = answer["lay_down"]
    assert lay["possible"] is True
    assert lay["points"] == 63
    assert lay["move"]["kind"] == "play"
    assert [_faces(m) for m in lay["move"]["melds"]] == [["9S", "TS", "JS", "QS"], ["8H", "8D", "8C"]]
    # The move the button would send is accepted by the real service.
    services.move_submit(
        match_id=match.pk,
        user=players[0],
        move=engine.move_from_json(lay["move"]),
        expected_version=match.version,
    )


def test_a_block_out_of_order_is_read_in_the_order_that_makes_it_a_meld() -> None:
    match, players = _table()
    answer = _ask(players[0], match, [["JS", "9S", "TS"]])
    assert _faces(answer["groups"][0]["cards"]) == ["9S", "TS", "JS"]


def test_a_block_that_is_not_a_meld_has_no_value_and_is_left_out() -> None:
    match, players = _table()
    answer = _ask(players[0], match, [["2C", "5D", "8H"], ["9S", "TS", "JS", "QS"]])
    assert answer["groups"][0]["meld"] is False
    assert "points" not in answer["groups"][0]
    assert answer["groups"][0]["code"] in {"not_a_meld", "not_consecutive", "repeated_suit"}
    assert [_faces(m) for m in answer["lay_down"]["move"]["melds"]] == [["9S", "TS", "JS", "QS"]]


def test_the_opening_below_51_says_so_and_a_set_alone_needs_the_pure_run() -> None:
    match, players = _table()
    low = _ask(players[0], match, [["9S", "TS", "JS"]])["lay_down"]
    assert low["possible"] is False
    assert low["code"] == "opening_too_low"
    assert low["points"] == 29
    no_run = _ask(players[0], match, [["8H", "8D", "8C"]])["lay_down"]
    assert no_run["possible"] is False
    assert no_run["code"] in {"opening_needs_run", "opening_too_low"}
    nothing = _ask(players[0], match, [])["lay_down"]
    assert nothing["possible"] is False
    assert nothing["code"] == "nothing_to_lay"


def test_not_your_turn_is_the_engines_reason_and_blocks_are_still_valued() -> None:
    match, players = _table()
    other = _ask(players[1], match, [["3H", "4H", "5H"]])
    assert other["groups"][0]["meld"] is True  # the value is shown whoever's turn it is
    assert other["lay_down"]["code"] == "not_your_turn"


def test_remi_first_turn_is_locked_rmi_19() -> None:
    players = users(2)
    match = start_match("remi", {}, players, b"rack check remi")
    state = engine.position(
        engine.variant("remi"),
        hands=[HAND, "3H 4H 5H 6H 7H KD KC 2S 3S 4S"],
        discard="7C",
        turn=0,
        phase="play",
        turns_started=[1, 1],
        names=["ala", "bartek"],
    )
    match = rig(match, state)
    first = _ask(players[0], match, [["9S", "TS", "JS", "QS"], ["8H", "8D", "8C"]])["lay_down"]
    assert first["possible"] is False
    assert first["code"] == "first_turn"


def test_only_the_seats_own_cards_are_read_and_nothing_hidden_comes_back() -> None:
    match, players = _table()
    # The opponent holds 3H 4H 5H: naming them is answered exactly like naming absent cards.
    theirs = _ask(players[0], match, [["3H", "4H", "5H"]])["groups"][0]
    absent = _ask(players[0], match, [["QH", "KH", "AH"]])["groups"][0]
    assert theirs == absent == {"meld": False, "code": "card_not_in_hand", "message": theirs["message"]}


def test_strangers_and_bad_queries_are_refused() -> None:
    match, players = _table()
    from django.contrib.auth import get_user_model
    from django.test import Client

    stranger = get_user_model().objects.create_user(username="widz", password=None)
    assert rack_answer(cookie(stranger), match.pk, [["9S", "TS", "JS"]]).status_code == 403
    assert Client().get(f"/matches/{match.pk}/rack/", {"q": "{}"}).status_code == 401
    client = Client()
    client.force_login(players[0])
    bad = client.get(f"/matches/{match.pk}/rack/", {"q": "[1, 2"})
    assert bad.status_code == 400
    assert json.loads(bad.content)["code"] == "malformed_query"
    assert (
        client.get(f"/matches/{match.pk}/rack/", {"q": json.dumps({"groups": [["ZZ"]]})}).status_code == 400
    )
    assert client.get("/matches/99999/rack/", {"q": "{}"}).status_code == 404


def test_the_card_display_is_kept_with_the_account() -> None:
    from django.contrib.auth import get_user_model
    from django.test import Client

    user = get_user_model().objects.create_user(username="ola", password=None)
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    body = json.dumps({"large": True})
    # Without the CSRF token: refused, nothing stored.
    assert client.post("/table/display/", body, content_type="application/json").status_code == 403
    client.get("/")  # the page sets the csrftoken cookie
    token = client.cookies["csrftoken"].value
    answer = client.post("/table/display/", body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert answer.status_code == 200
    assert json.loads(answer.content) == {"large": True, "four_colour": False}
    client.post(
        "/table/display/",
        json.dumps({"four_colour": True}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    user.refresh_from_db()
    assert (user.cards_large, user.cards_four_colour) == (True, True)
    bad = client.post(
        "/table/display/",
        json.dumps({"large": "yes"}),
        content_type="application/json",
        HTTP_X_CSRFTOKEN=token,
    )
    assert bad.status_code == 400
    assert Client().post("/table/display/", body, content_type="application/json").status_code == 401


def test_the_match_page_carries_the_players_card_display() -> None:
    match, players = _table()
    from accounts.services import user_set_card_display

    user_set_card_display(user=players[0], large=True)
    from django.test import Client

    client = Client()
    client.force_login(players[0])
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-cards-large="true"' in page
    assert 'data-cards-four="false"' in page


def test_the_reason_comes_in_the_players_language() -> None:
    match, players = _table()
    players[0].language = "pl"
    players[0].save(update_fields=["language"])
    low = _ask(players[0], match, [["9S", "TS", "JS"]])["lay_down"]
    assert low["code"] == "opening_too_low"
    assert "29" in low["message"]
    assert "potrzeba" in low["message"]  # "Twoje wyłożenie jest warte 29 pkt; potrzeba co najmniej 51."


@pytest.mark.parametrize(
    "query",
    [
        "[" * 1500 + "]" * 1500,  # the whole query
        '{"groups": ' + "[" * 1500 + "]" * 1500 + "}",  # inside groups
        '{"move": ' + "[" * 1500 + "]" * 1500 + "}",  # inside the move
        '{"groups": [], "move": ' + '{"a": ' * 60 + "1" + "}" * 60 + "}",  # deep, yet under the limit
    ],
    ids=["top", "groups", "move", "deep-object"],
)
def test_a_deeply_nested_query_is_refused_with_400_and_a_stable_code(query: str) -> None:
    match, players = _table()
    from django.test import Client

    client = Client(raise_request_exception=False)
    client.force_login(players[0])
    response = client.get(f"/matches/{match.pk}/rack/", {"q": query})
    assert response.status_code == 400, response.content[:200]
    assert json.loads(response.content)["code"] == "malformed_query"

"""Round replays (/matches/<id>/rounds/<n>/replay/): frames built on the server with the engine,
what each viewer may see in them (every hand once the match is over; during it, only their own),
and that the seed of a round still being played never reaches a page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from pytest_django.fixtures import Settings

from games import engine
from games.engine import move_text
from games.engine.record_check import verify_record
from games.play import services
from games.play.models import Match, MoveRecord, Round, ScoreLine
from tests.site.site_helpers import client_for
from tests.site.test_history_pages import bot_match

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def frames_of(html: str) -> list[dict[str, Any]]:
    """The frames a replay page holds (one page of them: docs/record.md, "Replays")."""
    found = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return list(json.loads(found.group(1)))


def all_frames(client: Client, url: str) -> list[dict[str, Any]]:
    """Every frame of a replay: its page's, then the next pages as the replay's script asks for them."""
    response = client.get(url)
    assert response.status_code == 200, response.content[:300]
    frames = frames_of(response.content.decode())
    while True:
        page = client.get(f"{url}frames/", {"step": len(frames)}).json()
        if page["first"] != len(frames):  # past the end: the server answers the last page
            break
        frames += page["frames"]
    assert [frame["index"] for frame in frames] == list(range(len(frames)))
    assert len(frames) == page["last"] + 1
    return frames


def in_round_two(state: Any) -> bool:
    return state.round_no == 2


@pytest.fixture
def midway(ala: Any) -> Match:
    """Ala against a bot, round 1 over and round 2 being played."""
    match = bot_match(ala, options={"rounds": 2}, finish=False, until=in_round_two)
    assert match.status == Match.Status.PLAYING
    return match


def dealt_hands(match: Match, number: int) -> list[list[str]]:
    """The round's deal, recomputed by the engine from its revealed seed alone."""
    round_ = Round.objects.get(match=match, number=number)
    state = match.game_state()
    first = next(r.first for r in state.results if r.round_no == number)
    deal = engine.verify_deal(match.room.rules(), state.players, round_.revealed_seed, first)
    return [sorted(hand) for hand in deal["hands"]]


def ids(cards: list[dict[str, Any]] | None) -> list[str] | None:
    return None if cards is None else sorted(card["id"] for card in cards)


def test_during_the_match_a_player_sees_only_their_own_hand(midway: Match, ala: Any) -> None:
    frames = all_frames(client_for(ala), f"/matches/{midway.pk}/rounds/1/replay/")

    moves = list(MoveRecord.objects.filter(match=midway, round_number=1).order_by("seq"))
    assert len(frames) == len(moves) + 1
    deal = dealt_hands(midway, 1)
    assert frames[0]["move"] is None
    assert ids(frames[0]["hands"][0]["cards"]) == deal[0]
    assert frames[0]["hands"][1]["cards"] is None
    assert frames[0]["hands"][1]["count"] == len(deal[1])
    for frame, record in zip(frames[1:], moves, strict=True):
        assert frame["move"]["seat"] == record.seat
        assert frame["move"]["text"] == move_text(engine.move_from_json(record.move))
        assert frame["hands"][0]["cards"] is not None
        if not frame["over"]:
            assert frame["hands"][1]["cards"] is None
    # The last frame is the end of the round: the hands left, which the table showed everyone.
    last = frames[-1]
    assert last["over"] is True
    result = midway.game_state().results[0]
    assert [ids(hand["cards"]) for hand in last["hands"]] == [sorted(c.id for c in h) for h in result.hands]
    stored = ScoreLine.objects.filter(round__match=midway, round__number=1).order_by("seat")
    assert [(line["points"], line["total"]) for line in last["lines"]] == [
        (s.points, s.total) for s in stored
    ]


def test_during_the_match_a_spectator_sees_no_hand(midway: Match, bob: Any) -> None:
    for client in (client_for(bob), Client()):
        frames = all_frames(client, f"/matches/{midway.pk}/rounds/1/replay/")
        for frame in frames[:-1]:
            assert [hand["cards"] for hand in frame["hands"]] == [None, None]
            assert all(hand["count"] > 0 for hand in frame["hands"])


def test_no_seed_of_a_round_being_played_and_no_secret_reach_the_page(midway: Match, ala: Any) -> None:
    secret = midway.secret_bytes
    html = client_for(ala).get(f"/matches/{midway.pk}/rounds/1/replay/").content.decode()

    assert Round.objects.get(match=midway, number=1).revealed_seed in html
    assert engine.deal_seed(secret, 2).hex() not in html
    assert secret.hex() not in html
    # The stock is a count, never its cards.
    assert all(isinstance(frame["stock"], int) for frame in frames_of(html))
    # Round 2 is not over: no replay of it yet, and it is not in the record of the finished rounds.
    assert client_for(ala).get(f"/matches/{midway.pk}/rounds/2/replay/").status_code == 404
    record = client_for(ala).get(f"/matches/{midway.pk}/record.json").content.decode()
    assert engine.deal_seed(secret, 2).hex() not in record
    assert secret.hex() not in record
    assert {item["round"] for item in json.loads(record)["moves"]} == {1}


def test_once_the_match_is_over_every_hand_is_in_every_frame(ala: Any, bob: Any) -> None:
    match = bot_match(ala, options={"rounds": 2})
    assert match.status == Match.Status.FINISHED

    for number in (1, 2):
        frames = all_frames(Client(), f"/matches/{match.pk}/rounds/{number}/replay/")
        assert [ids(hand["cards"]) for hand in frames[0]["hands"]] == dealt_hands(match, number)
        for frame in frames:
            assert all(hand["cards"] is not None for hand in frame["hands"])
            assert [len(hand["cards"]) for hand in frame["hands"]] == [
                hand["count"] for hand in frame["hands"]
            ]
        assert frames[-1]["over"] is True


def test_without_scripts_a_step_is_a_link_and_the_server_renders_it(ala: Any) -> None:
    match = bot_match(ala)
    url = f"/matches/{match.pk}/rounds/1/replay/"
    frames = all_frames(Client(), url)

    html = Client().get(f"{url}?step=3").content.decode()

    move = frames[3]["move"]
    assert f'<p class="replay-move" id="replay-move">{move["name"]}: {move["text"]}</p>' in html
    assert f"Move 3 of {len(frames) - 1}" in html
    assert 'id="replay-prev" href="?step=2"' in html
    assert 'id="replay-next" href="?step=4"' in html
    assert f'id="replay-last" href="?step={len(frames) - 1}"' in html
    assert 'id="replay-first" href="?step=0"' in html
    assert '<script type="module" src="/static/js/replay.js"></script>' in html
    # Out of range or not a number: the nearest frame.
    assert "Move 0 of" in Client().get(f"{url}?step=-4").content.decode()
    assert f"Move {len(frames) - 1} of" in Client().get(f"{url}?step=9999").content.decode()
    assert "Move 0 of" in Client().get(f"{url}?step=x").content.decode()


def test_a_round_that_does_not_exist_is_not_found(ala: Any) -> None:
    match = bot_match(ala)
    assert Client().get(f"/matches/{match.pk}/rounds/7/replay/").status_code == 404
    assert Client().get(f"/matches/{match.pk + 100}/rounds/1/replay/").status_code == 404


@pytest.mark.parametrize("variant", engine.variant_names())
def test_every_variant_replays_exports_and_verifies(ala: Any, variant: str) -> None:
    # Two finished rounds (Remik 40: its one deal), then the room is closed: the match is over.
    def two_rounds(state: Any) -> bool:
        return len(state.results) >= 2 or state.is_over

    match = bot_match(ala, variant, {}, finish=False, until=two_rounds)
    services.room_close(room_ids=[match.room_id])
    match.refresh_from_db()
    assert match.status != Match.Status.PLAYING
    client = Client()

    finished = list(
        Round.objects.filter(match=match, revealed_seed__isnull=False).values_list("number", flat=True)
    )
    assert finished == ([1] if variant == "remik40" else [1, 2])
    for number in finished:
        frames = all_frames(client, f"/matches/{match.pk}/rounds/{number}/replay/")
        assert frames[-1]["over"] is True
        stored = ScoreLine.objects.filter(round__match=match, round__number=number).order_by("seat")
        assert [line["points"] for line in frames[-1]["lines"]] == [line.points for line in stored]
        result = match.game_state().results[number - 1]
        if variant in ("gin", "oklahoma") and result.winner is not None:
            # The deal's final table (the knock's melds) comes from its round_over event.
            assert frames[-1]["melds"], "a knock lays the knocker's melds"
            assert frames[-1]["table_before_last_move"] is False
    document = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    report = verify_record(document)
    assert report["ok"], report["problems"]
    checked = report["rounds"][: len(finished)]
    assert [(entry["commitment_ok"], entry["seed_ok"], entry["lines_ok"]) for entry in checked] == [
        (True, True, True)
    ] * len(finished)
    assert all(entry["deal_ok"] is True for entry in checked), [e["deal_ok"] for e in checked]

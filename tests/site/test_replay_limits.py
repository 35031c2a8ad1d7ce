"""Issue 32, item 8: a record sent to /verify/ and a replay page are bounded in work and size,
per request, per address and per account, and built off the process that serves the sockets
(docs/record.md, "Replays" and "Limits"; games/play/limits.py, games/play/offload.py).

The records are made the way the outside client made them: a Remik 51 round of two players who
only draw and discard (the stock is rebuilt, so the round can be any length).
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from pytest_django.fixtures import Settings

from games import engine
from games.engine import Discard, DrawStock
from games.engine.records import make_record, record_to_json
from games.play import limits
from games.play.models import MoveRecord
from tests.site.site_helpers import client_for

pytestmark = pytest.mark.django_db


def drawing_round(moves: int, seed: int = 3) -> dict[str, Any]:
    """A Remik 51 record whose first round is ``moves`` moves of draws and discards."""
    rules = engine.variant("remik51")
    state = engine.new_game(rules, ["Ala", "Bob"], seed=seed)
    played: list[tuple[int, Any]] = []
    while len(played) < moves:
        seat = state.turn
        legal = engine.legal_moves(state, seat)
        move = next((m for m in legal if isinstance(m, DrawStock)), None) or next(
            m for m in legal if isinstance(m, Discard)
        )
        state = engine.apply_move(state, seat, move).state
        played.append((seat, move))
        assert state.round_no == 1
    return record_to_json(make_record(rules, ["Ala", "Bob"], seed, played))


def frames_in(html: str) -> list[dict[str, Any]]:
    found = re.search(r'<script id="replay-frames" type="application/json">(.*?)</script>', html, re.S)
    assert found is not None
    return list(json.loads(found.group(1)))


def post_record(client: Client, document: dict[str, Any], address: str = "10.0.0.1", **extra: Any) -> Any:
    return client.post(
        "/verify/replay/",
        {"record": json.dumps(document), "round": "1"},
        REMOTE_ADDR=address,
        follow=True,
        **extra,
    )


@pytest.fixture(scope="module")
def long_record() -> dict[str, Any]:
    return drawing_round(1500)


def test_a_long_uploaded_round_is_replayed_a_page_at_a_time(long_record: dict[str, Any]) -> None:
    """1,500 moves (about 7 MB of frames in one page before): the page holds 40 frames, the others
    come a page at a time, and together they are the whole round."""
    client = Client()
    response = post_record(client, long_record)
    assert response.status_code == 200
    html = response.content.decode()
    assert len(response.content) < 500_000, len(response.content)
    frames = frames_in(html)
    assert [frame["index"] for frame in frames] == list(range(40))
    assert 'data-last="1500"' in html
    frames_url = re.search(r'data-frames-url="([^"]+)"', html).group(1)
    page = client.get(frames_url, {"step": 1460}, REMOTE_ADDR="10.0.0.1")
    assert page.status_code == 200
    assert len(page.content) < 500_000
    data = page.json()
    assert (data["first"], data["last"]) == (1440, 1500)
    assert [frame["index"] for frame in data["frames"]] == list(range(1440, 1480))
    # The same frames the whole replay gives.
    from games.learn import records

    whole = records.replay_frames(long_record, 1, names=["Ala", "Bob"], viewer=None, show_all=True)
    assert data["frames"] == whole[1440:1480]
    assert frames == whole[:40]
    # Past the end: the last page.
    tail = client.get(frames_url, {"step": 99_999}, REMOTE_ADDR="10.0.0.1").json()
    assert (tail["first"], tail["step"], tail["frames"][-1]["over"]) == (1480, 1500, False)


def test_a_rounds_own_replay_on_the_site_is_paged(ala: Any) -> None:
    from tests.site.test_history_pages import bot_match

    for _ in range(10):  # a round of more than one page (the bots' rounds vary in length)
        match = bot_match(ala, "remi", {"rounds": 1})
        if MoveRecord.objects.filter(match=match, round_number=1).count() > 40:
            break
    last = MoveRecord.objects.filter(match=match, round_number=1).count()
    assert last > 40
    response = client_for(ala).get(f"/matches/{match.pk}/rounds/1/replay/?step=40")
    html = response.content.decode()
    assert f'data-last="{last}"' in html
    assert [frame["index"] for frame in frames_in(html)] == list(range(40, min(80, last + 1)))
    assert "Move 40 of" in html


def test_records_past_the_limits_are_refused(settings: Settings) -> None:
    """Upload at most 1 MB, 20,000 moves in a record, 2,000 in a replayed round (docs/record.md)."""
    client = Client()
    move = {"seat": 0, "move": {"kind": "draw"}}
    document = {**drawing_round(4), "moves": [move] * 20_001}
    too_many = client.post("/verify/", {"record": json.dumps(document)}, REMOTE_ADDR="10.0.0.2")
    assert "This record has more than 20000 moves." in too_many.content.decode()

    big = json.dumps({**drawing_round(4), "padding": "x" * (1024 * 1024)}).encode()
    upload = SimpleUploadedFile("record.json", big, content_type="application/json")
    too_large = client.post("/verify/", {"file": upload}, REMOTE_ADDR="10.0.0.3")
    assert "The file is too large." in too_large.content.decode()

    settings.REPLAY_MAX_ROUND_MOVES = 100  # the same rule as 2,000, on a shorter record
    response = post_record(client, drawing_round(101), address="10.0.0.4")
    assert response.status_code == 413
    assert 'data-code="replay_too_long"' in response.content.decode()
    assert "more than 100 moves" in response.content.decode()
    assert post_record(client, drawing_round(100), address="10.0.0.4").status_code == 200


def test_records_sent_are_counted_per_address_and_per_account(settings: Settings, ala: Any, bob: Any) -> None:
    """A cheater's ways: two accounts on one address, one account on several addresses."""
    settings.REPLAY_UPLOADS_PER_HOUR = 3
    record = drawing_round(10)
    for _ in range(3):
        assert post_record(Client(), record, address="10.1.0.1").status_code == 200
    refused = post_record(Client(), record, address="10.1.0.1")
    assert refused.status_code == 429
    assert 'data-code="replay_rate_limited"' in refused.content.decode()
    assert int(refused["Retry-After"]) > 3000  # the hour's window
    assert "try again in 60 min" in refused.content.decode()
    # Another account on the same address: the same address's budget.
    assert post_record(client_for(ala), record, address="10.1.0.1").status_code == 429
    # Another address is another visitor.
    assert post_record(Client(), record, address="10.1.0.2").status_code == 200
    # One account from three addresses, then a fourth: the account's budget.
    for address in ("10.1.0.3", "10.1.0.4", "10.1.0.5"):
        assert post_record(client_for(bob), record, address=address).status_code == 200
    assert post_record(client_for(bob), record, address="10.1.0.6").status_code == 429
    # A plain check at /verify/ is a record sent as well.
    checked = Client().post("/verify/", {"record": json.dumps(record)}, REMOTE_ADDR="10.1.0.1")
    assert checked.status_code == 429


def test_replay_pages_are_counted_per_address(settings: Settings, ala: Any) -> None:
    from tests.site.test_history_pages import bot_match

    settings.REPLAY_PAGES_PER_MINUTE = 4
    match = bot_match(ala, "remik51", {"rounds": 1})
    url = f"/matches/{match.pk}/rounds/1/replay/"
    for step in range(4):
        assert Client().get(f"{url}frames/", {"step": step * 40}, REMOTE_ADDR="10.2.0.1").status_code == 200
    refused = Client().get(f"{url}frames/", {"step": 0}, REMOTE_ADDR="10.2.0.1")
    assert refused.status_code == 429
    assert refused.json()["code"] == "replay_rate_limited"
    assert Client().get(url, REMOTE_ADDR="10.2.0.1").status_code == 429
    assert Client().get(url, REMOTE_ADDR="10.2.0.2").status_code == 200


@pytest.mark.parametrize(
    ("language", "words"), [("pl", "Zbyt wiele odtworzeń"), ("ro", "Prea multe reluări")]
)
def test_the_refusals_are_worded_in_polish_and_romanian(
    settings: Settings, language: str, words: str
) -> None:
    settings.REPLAY_UPLOADS_PER_HOUR = 0
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    refused = post_record(client, drawing_round(4), address="10.3.0.1")
    assert refused.status_code == 429
    assert words in refused.content.decode()
    with limits.replay_slot(address="10.3.0.2", account=None):
        settings.REPLAY_UPLOADS_PER_HOUR = 10
        busy = post_record(client, drawing_round(4), address="10.3.0.2").content.decode()
    assert 'data-code="replay_busy"' in busy
    assert "Another replay" not in busy


def test_one_replay_at_a_time_per_address_and_per_account(ala: Any) -> None:
    """While a request of an address (or account) is being answered, its next one is refused
    with replay_busy at once instead of queueing more work."""
    record = drawing_round(10)
    with limits.replay_slot(address="10.4.0.1", account=None):
        busy = post_record(Client(), record, address="10.4.0.1")
        assert busy.status_code == 429
        assert 'data-code="replay_busy"' in busy.content.decode()
        assert post_record(Client(), record, address="10.4.0.2").status_code == 200
    assert post_record(Client(), record, address="10.4.0.1").status_code == 200
    with limits.replay_slot(address="10.4.0.9", account=ala.pk):
        assert post_record(client_for(ala), record, address="10.4.0.3").status_code == 429


def test_the_replay_is_built_in_a_child_process_not_in_the_server(long_record: dict[str, Any]) -> None:
    from games.play import offload

    assert settings.OFFLOAD_PROCESSES
    assert offload.replay(os.getpid) != os.getpid()
    assert post_record(Client(), long_record, address="10.5.0.1").status_code == 200
    assert offload.children()
    assert os.getpid() not in offload.children()


def test_an_uploaded_rounds_replay_names_no_empty_room() -> None:
    """An uploaded record has no room: its replay's subtitle and title are the variant, the players
    and the link, with no empty field between two dots ("Remik 51 ·  · Ala, Bob" before)."""
    response = post_record(Client(), drawing_round(6))
    html = response.content.decode()
    subtitle = re.search(r'<p class="aside">(.*?)</p>', html, re.S).group(1)
    words = " ".join(re.sub(r"<[^>]+>", " ", subtitle).split())
    assert words.startswith("Remik 51 · Ala, Bob · ")
    title = " ".join(re.search(r"<title>(.*?)</title>", html, re.S).group(1).split())
    assert "· ·" not in title
    assert "·  ·" not in html


def _priority() -> tuple[int, int]:
    """This process's niceness and scheduling class (run in the replay child)."""
    return os.getpriority(os.PRIO_PROCESS, 0), os.sched_getscheduler(0)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="the idle scheduling class is Linux's")
@pytest.mark.parametrize("idle", [False, True])
def test_the_replay_child_runs_below_the_server(monkeypatch: pytest.MonkeyPatch, idle: bool) -> None:
    """The replay child's niceness is the server's plus ``OFFLOAD_NICE``, and with
    ``OFFLOAD_IDLE`` its class is SCHED_IDLE (it runs only on CPU time the tables leave)."""
    from games.play import offload

    monkeypatch.setenv("OFFLOAD_NICE", "7")
    monkeypatch.setenv("OFFLOAD_IDLE", "1" if idle else "0")
    offload.stop()  # a child started now reads these
    try:
        nice, policy = offload.replay(_priority)
    finally:
        offload.stop()
    assert nice == min(19, os.getpriority(os.PRIO_PROCESS, 0) + 7)
    assert policy == (os.SCHED_IDLE if idle else os.SCHED_OTHER)

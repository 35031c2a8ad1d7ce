"""Chat in the admin (docs/protocol.md, "Chat"): staff read what players reported, delete a line for
everyone (the room's sockets are told), silence an account; nobody rewrites a player's words."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.test import Client
from pytest_django.fixtures import Settings

from games.chat import services as chat_services
from games.chat.models import ChatMessage, ChatReport, ChatSilence
from games.play import broadcast, services
from tests.site.site_helpers import make_room

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture
def reported() -> dict[str, Any]:
    make = get_user_model().objects.create_user
    ala, bob = make(username="ala", password=None), make(username="bob", password=None)
    room = make_room(ala)
    services.seat_take(room=room, user=ala, index=0)
    services.seat_take(room=room, user=bob, index=1)
    match = services.match_start(room=room)
    rude = chat_services.chat_post(match_id=match.pk, user=ala, text="you play like a <b>bot</b>")
    chat_services.chat_post(match_id=match.pk, user=ala, text="sorry")
    chat_services.chat_report(match_id=match.pk, user=bob, message_id=rude["id"], reason="insult")
    staff = get_user_model().objects.create_superuser(username="boss", email="b@example.com", password="x")
    client = Client()
    client.force_login(staff)
    return {"client": client, "rude": rude["id"], "room": room.pk, "ala": ala, "staff": staff}


def test_staff_see_the_reports_with_the_line_its_author_and_the_reason(reported: dict[str, Any]) -> None:
    listing = reported["client"].get("/admin/games/chatreport/").content.decode()

    assert "you play like a &lt;b&gt;bot&lt;/b&gt;" in listing  # escaped, as everywhere
    assert "insult" in listing
    assert ">ala<" in listing
    assert ">bob<" in listing
    unhandled = reported["client"].get("/admin/games/chatreport/", {"handled__exact": "0"}).content.decode()
    assert "insult" in unhandled


def test_deleting_a_reported_line_hides_it_for_everyone_and_tells_the_room(reported: dict[str, Any]) -> None:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.chat_group(reported["room"]), channel)
    report = ChatReport.objects.get()

    response = reported["client"].post(
        "/admin/games/chatreport/",
        {"action": "delete_reported_messages", "_selected_action": [report.pk]},
        follow=True,
    )

    assert "1 chat message(s) deleted for everyone." in response.content.decode()
    message = ChatMessage.objects.get(pk=reported["rude"])
    assert (message.deleted, message.deleted_by_id) == (True, reported["staff"].pk)
    assert ChatReport.objects.get().handled
    told = async_to_sync(layer.receive)(channel)
    assert told["frame"] == {"type": "chat_deleted", "message": reported["rude"]}
    assert ChatMessage.objects.get(text="sorry").deleted is False


def test_nobody_adds_or_rewrites_chat_lines_in_the_admin(reported: dict[str, Any]) -> None:
    client = reported["client"]
    assert client.get("/admin/games/chatmessage/add/").status_code == 403
    client.post(f"/admin/games/chatmessage/{reported['rude']}/change/", {"text": "nice game"})
    assert ChatMessage.objects.get(pk=reported["rude"]).text == "you play like a <b>bot</b>"


def test_staff_silence_an_account_from_the_admin(reported: dict[str, Any]) -> None:
    response = reported["client"].post(
        "/admin/games/chatsilence/add/", {"user": reported["ala"].pk, "reason": "spam"}, follow=True
    )

    assert response.status_code == 200
    assert ChatSilence.objects.get().user_id == reported["ala"].pk


def test_a_player_cannot_open_the_chat_admin(reported: dict[str, Any]) -> None:
    client = Client()
    client.force_login(reported["ala"])
    response = client.get("/admin/games/chatreport/")
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")

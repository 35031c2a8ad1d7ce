"""A room's chat over the match socket (docs/protocol.md, "Chat"): two seated accounts and a
spectator with real sockets, a private room's stranger, the limits, mutes, reports, staff deletes.

Every frame is checked against the published schema (``CheckedCommunicator``), and every
command sent here too (``send``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth import get_user_model
from pytest_django.fixtures import Settings

from games.chat import services as chat_services
from games.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from games.play import limits, services
from games.shared.errors import MatchNotFoundError
from tests.realtime.sockets import TIMEOUT, Player, Table, joined, open_socket, session_cookie
from tests.schema import assert_command

pytestmark = pytest.mark.django_db(transaction=True)

QUIET = 0.3


@pytest.fixture(autouse=True)
def _fresh_chat_budgets() -> Iterator[None]:
    """The chat budgets are per server process: each test starts with full ones."""
    limits.CHAT.clear()
    yield
    limits.CHAT.clear()


async def send(socket: Any, command: dict[str, Any]) -> None:
    assert_command(command)
    await socket.send_json_to(command)


async def test_a_line_reaches_both_players_and_the_spectator_as_typed(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.spectator) as (spectator, _),
    ):
        await send(mover, {"type": "chat", "id": "m1", "text": "  <b>hi</b> & \u202egood\nluck  "})
        frames = [await socket.receive_json_from(timeout=TIMEOUT) for socket in (mover, other, spectator)]
        assert frames[0] == frames[1] == frames[2]
        message = frames[0]["message"]
        assert frames[0]["type"] == "chat"
        # Markup is text to the server: stored and sent as typed (the page shows it as text);
        # control and direction-override characters become spaces, runs of spaces one.
        assert message["text"] == "<b>hi</b> & good luck"
        assert (message["author"], message["seat"]) == (table.mover.user.username, table.mover.seat)

        # The spectator writes too; the seat is null.
        await send(spectator, {"type": "chat", "text": "gl hf"})
        for socket in (mover, other, spectator):
            line = (await socket.receive_json_from(timeout=TIMEOUT))["message"]
            assert (line["author"], line["seat"], line["text"]) == ("celina", None, "gl hf")


async def test_the_history_survives_a_reload_in_order(table: Table) -> None:
    async with joined(table.match_id, table.mover) as (mover, _):
        for text in ("one", "two", "three"):
            await send(mover, {"type": "chat", "text": text})
            assert (await mover.receive_json_from(timeout=TIMEOUT))["message"]["text"] == text
    # A new socket (the page reloaded), of another account, asks for the history.
    async with joined(table.match_id, table.spectator) as (spectator, _):
        await send(spectator, {"type": "chat_history"})
        history = await spectator.receive_json_from(timeout=TIMEOUT)
        assert history["type"] == "chat_history"
        assert [m["text"] for m in history["messages"]] == ["one", "two", "three"]
        assert history["muted"] == []
        assert history["you"] == {"name": "celina", "staff": False}


async def test_history_keeps_the_newest_lines_only(table: Table, settings: Settings) -> None:
    settings.CHAT_HISTORY = 2
    await database_sync_to_async(_post_lines)(table, ["a", "b", "c"])
    async with joined(table.match_id, table.other) as (other, _):
        await send(other, {"type": "chat_history"})
        assert [m["text"] for m in (await other.receive_json_from(timeout=TIMEOUT))["messages"]] == ["b", "c"]


def _post_lines(table: Table, texts: list[str]) -> None:
    for text in texts:
        chat_services.chat_post(match_id=table.match_id, user=table.mover.user, text=text)


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "chat_empty"), (" \n\t\u200b ", "chat_empty"), ("x" * 301, "chat_too_long")],
)
async def test_an_empty_or_too_long_line_is_refused_with_its_code(table: Table, text: str, code: str) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        await send(mover, {"type": "chat", "id": "t1", "text": text})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error["id"], error["code"]) == ("error", "t1", code)
        if code == "chat_too_long":
            assert error["limit"] == 300
        assert await other.receive_nothing(timeout=QUIET)
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0


@pytest.mark.parametrize(
    "text",
    [
        "a" + "\u0301" * 200,  # one letter under 200 accents
        "ok " + "x" + "\u0300\u0301\u0302\u0303\u0304" + " ok",  # five on one letter (none composes)
        "\u0301" * 6,  # marks with no letter at all
    ],
)
async def test_a_letter_with_more_than_four_combining_marks_is_refused(table: Table, text: str) -> None:
    """Issue 32 item 12 (docs/protocol.md, "Chat"): a letter with 200 combining marks drew a
    tower over the others' lines. After NFC, at most four marks may stand on one character."""
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        await send(mover, {"type": "chat", "id": "z1", "text": text})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert (error["type"], error.get("code"), error.get("id")) == ("error", "chat_too_many_marks", "z1")
        assert error["limit"] == 4
        assert await other.receive_nothing(timeout=QUIET)
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0


async def test_letters_with_their_accents_are_kept_composed(table: Table) -> None:
    """Polish and Romanian letters typed as a letter and a combining mark are stored composed
    (NFC); a Vietnamese letter with two marks and a letter with four pass."""
    decomposed = "zaz\u0307o\u0301łc\u0301 ge\u0328s\u0301la\u0328 s\u0326i t\u0326 vie\u0323\u0302t"
    four = "x\u0300\u0301\u0302\u0303"
    async with joined(table.match_id, table.mover) as (mover, _):
        await send(mover, {"type": "chat", "text": decomposed + " " + four})
        line = (await mover.receive_json_from(timeout=TIMEOUT))["message"]["text"]
    assert line == "zażółć gęślą și ț việt " + four


async def test_300_characters_is_not_too_long(table: Table) -> None:
    async with joined(table.match_id, table.mover) as (mover, _):
        await send(mover, {"type": "chat", "text": "é" * 300})
        assert len((await mover.receive_json_from(timeout=TIMEOUT))["message"]["text"]) == 300


async def test_chat_past_its_budget_is_refused_chat_rate_limited(table: Table, settings: Settings) -> None:
    settings.WS_CHAT_BURST = 3
    settings.WS_CHAT_PER_MINUTE = 1.0
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
    ):
        for number in range(4):
            await send(mover, {"type": "chat", "id": f"r{number}", "text": f"line {number}"})
        answers = [await mover.receive_json_from(timeout=TIMEOUT) for _ in range(4)]
        # The refusal is answered at once; the lines come back through the channel layer.
        lines = [a["message"]["text"] for a in answers if a["type"] == "chat"]
        assert lines == ["line 0", "line 1", "line 2"]
        (refused,) = [a for a in answers if a["type"] == "error"]
        assert (refused["code"], refused["id"]) == ("chat_rate_limited", "r3")
        assert refused["retry_after"] > 0
        assert [(await other.receive_json_from(timeout=TIMEOUT))["message"]["text"] for _ in range(3)] == [
            "line 0",
            "line 1",
            "line 2",
        ]
        assert await other.receive_nothing(timeout=QUIET)
        # The chat budget is the account's: a second socket of the same account gets no more.
        async with joined(table.match_id, table.mover) as (again, _):
            await send(again, {"type": "chat", "id": "r4", "text": "more"})
            assert (await again.receive_json_from(timeout=TIMEOUT))["code"] == "chat_rate_limited"
        # Moves are not chat: the game goes on.
        await send(mover, {"type": "move", "id": "c1", "version": 0, "move": table.a_discard})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["version"] == 1


async def test_a_chat_line_spends_the_sockets_message_budget_too(table: Table, settings: Settings) -> None:
    settings.WS_RATE_LIMIT_BURST = 2
    settings.WS_RATE_LIMIT_PER_SECOND = 0.01
    async with joined(table.match_id, table.mover) as (mover, _):  # the connect costs nothing
        for number in range(3):
            await send(mover, {"type": "chat", "id": f"b{number}", "text": "hello"})
        answers = [await mover.receive_json_from(timeout=TIMEOUT) for _ in range(3)]
        assert sorted(a.get("code", a["type"]) for a in answers) == ["chat", "chat", "rate_limited"]


async def test_a_private_rooms_chat_is_closed_to_strangers(table: Table) -> None:
    _room_id, match_id, owner, stranger = await database_sync_to_async(_private_match)(table)
    async with open_socket(match_id, stranger.cookie) as socket:
        connected, _ = await socket.connect(timeout=TIMEOUT)
        assert connected
        assert (await socket.receive_output(timeout=TIMEOUT))["code"] == 4404
    async with joined(match_id, owner) as (mine, _):
        await send(mine, {"type": "chat", "text": "just us"})
        assert (await mine.receive_json_from(timeout=TIMEOUT))["message"]["text"] == "just us"
    # Nor does the service let a stranger write or report there.
    with pytest.raises(MatchNotFoundError):
        await database_sync_to_async(chat_services.chat_post)(
            match_id=match_id, user=stranger.user, text="hi"
        )


def _private_match(table: Table) -> tuple[int, int, Player, Player]:
    make = get_user_model().objects.create_user
    ola, piotr = make(username="ola", password=None), make(username="piotr", password=None)
    room = services.room_create(
        owner=ola, name="Tylko my", variant="remik51", options={}, seats=2, turn_seconds=60, private=True
    )
    services.seat_take(room=room, user=ola, index=0)
    services.seat_add_bot(room=room, index=1)
    match = services.match_start(room=room)
    # The table's spectator (celina) writes in the public room: never seen here.
    chat_services.chat_post(match_id=table.match_id, user=table.spectator.user, text="public")
    return (
        room.pk,
        match.pk,
        Player(user=ola, cookie=session_cookie(ola), seat=0, hand=()),
        Player(user=piotr, cookie=session_cookie(piotr), seat=None, hand=()),
    )


async def test_a_muted_players_lines_no_longer_reach_who_muted_them(table: Table) -> None:
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.other) as (other_tab, _),
        joined(table.match_id, table.spectator) as (spectator, _),
    ):
        await send(other, {"type": "chat_mute", "id": "u1", "name": table.mover.user.username.upper()})
        # Each socket of the account hears of it (another tab too).
        for socket in (other, other_tab):
            assert await socket.receive_json_from(timeout=TIMEOUT) == {
                "type": "chat_muted",
                "muted": [table.mover.user.username],
            }
        await send(mover, {"type": "chat", "text": "can you hear me"})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["type"] == "chat"
        assert (await spectator.receive_json_from(timeout=TIMEOUT))["type"] == "chat"
        assert await other.receive_nothing(timeout=QUIET)
        assert await other_tab.receive_nothing(timeout=QUIET)

        # Their history leaves them out as well; the spectator's keeps them.
        await send(other, {"type": "chat_history"})
        history = await other.receive_json_from(timeout=TIMEOUT)
        assert (history["messages"], history["muted"]) == ([], [table.mover.user.username])
        await send(spectator, {"type": "chat_history"})
        assert len((await spectator.receive_json_from(timeout=TIMEOUT))["messages"]) == 1

        # Unmuted: the next line arrives.
        await send(other, {"type": "chat_mute", "name": table.mover.user.username, "mute": False})
        assert (await other.receive_json_from(timeout=TIMEOUT))["muted"] == []
        await other_tab.receive_json_from(timeout=TIMEOUT)
        await send(mover, {"type": "chat", "text": "now?"})
        assert (await other.receive_json_from(timeout=TIMEOUT))["message"]["text"] == "now?"
    # The mute is the account's, kept for every room.
    assert await database_sync_to_async(ChatMute.objects.count)() == 0


@pytest.mark.parametrize("whom", ["nobody", "myself"])
async def test_muting_nobody_or_yourself_is_refused(table: Table, whom: str) -> None:
    name = table.other.user.username if whom == "myself" else "nobody-here"
    async with joined(table.match_id, table.other) as (other, _):
        await send(other, {"type": "chat_mute", "id": "u2", "name": name})
        error = await other.receive_json_from(timeout=TIMEOUT)
        assert (error["code"], error["id"]) == ("mute_target", "u2")


async def test_staff_delete_a_line_for_everyone_and_others_may_not(table: Table) -> None:
    await database_sync_to_async(_make_staff)(table.spectator.user)
    entry = await database_sync_to_async(chat_services.chat_post)(
        match_id=table.match_id, user=table.mover.user, text="something rude"
    )
    async with (
        joined(table.match_id, table.mover) as (mover, _),
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.spectator) as (staff, _),
    ):
        await send(other, {"type": "chat_delete", "id": "d1", "message": entry["id"]})
        error = await other.receive_json_from(timeout=TIMEOUT)
        assert (error["code"], error["id"]) == ("not_staff", "d1")

        await send(staff, {"type": "chat_delete", "id": "d2", "message": entry["id"]})
        for socket in (mover, other, staff):
            assert await socket.receive_json_from(timeout=TIMEOUT) == {
                "type": "chat_deleted",
                "message": entry["id"],
            }
        await send(mover, {"type": "chat_history"})
        assert (await mover.receive_json_from(timeout=TIMEOUT))["messages"] == []
        # Gone already: there is nothing to delete.
        await send(staff, {"type": "chat_delete", "id": "d3", "message": entry["id"]})
        assert (await staff.receive_json_from(timeout=TIMEOUT))["code"] == "chat_message_not_found"
    deleted = await database_sync_to_async(ChatMessage.objects.get)(pk=entry["id"])
    assert (deleted.deleted, deleted.deleted_by_id) == (True, table.spectator.user.pk)


def _make_staff(user: Any) -> None:
    user.is_staff = True
    user.save(update_fields=["is_staff"])


async def test_a_player_reports_a_line_to_staff(table: Table) -> None:
    entry = await database_sync_to_async(chat_services.chat_post)(
        match_id=table.match_id, user=table.mover.user, text="rude"
    )
    async with (
        joined(table.match_id, table.other) as (other, _),
        joined(table.match_id, table.mover) as (mover, _),
    ):
        await send(other, {"type": "chat_report", "id": "p1", "message": entry["id"], "reason": "insults"})
        assert await other.receive_json_from(timeout=TIMEOUT) == {
            "type": "chat_reported",
            "id": "p1",
            "message": entry["id"],
        }
        assert await mover.receive_nothing(timeout=QUIET)  # the author is not told
        await send(other, {"type": "chat_report", "id": "p2", "message": entry["id"] + 99})
        assert (await other.receive_json_from(timeout=TIMEOUT))["code"] == "chat_message_not_found"
    report = await database_sync_to_async(ChatReport.objects.select_related("message").get)()
    reported = (report.message.text, report.reporter_id, report.reason)
    assert reported == ("rude", table.other.user.pk, "insults")


async def test_an_account_staff_silenced_cannot_chat(table: Table) -> None:
    await database_sync_to_async(ChatSilence.objects.create)(user=table.mover.user, reason="spam")
    async with joined(table.match_id, table.mover) as (mover, _):
        await send(mover, {"type": "chat", "id": "s1", "text": "hello?"})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert (error["code"], error["id"]) == ("chat_silenced", "s1")


async def test_a_refusal_reads_in_the_players_language(table: Table) -> None:
    await database_sync_to_async(_prefers_polish)(table.mover.user)
    async with joined(table.match_id, table.mover) as (mover, _):
        await send(mover, {"type": "chat", "text": "x" * 400})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert error["code"] == "chat_too_long"
        assert error["message"] == "Wiadomość na czacie może mieć najwyżej 300 znaków."


async def test_too_many_marks_reads_in_polish_and_romanian(table: Table) -> None:
    for language, said in (
        ("pl", "Za dużo znaków diakrytycznych przy jednej literze."),
        ("ro", "Prea multe semne diacritice pe o singură literă."),
    ):
        await database_sync_to_async(_prefers)(table.mover.user, language)
        async with joined(table.match_id, table.mover) as (mover, _):
            await send(mover, {"type": "chat", "text": "a" + "\u0301" * 200})
            error = await mover.receive_json_from(timeout=TIMEOUT)
            assert (error.get("code"), error.get("message")) == ("chat_too_many_marks", said)


def _prefers(user: Any, language: str) -> None:
    user.language = language
    user.save(update_fields=["language"])


def _prefers_polish(user: Any) -> None:
    user.language = "pl"
    user.save(update_fields=["language"])


@pytest.mark.parametrize(
    "command",
    [
        {"type": "chat"},
        {"type": "chat", "text": 5},
        {"type": "chat_delete", "message": "7"},
        {"type": "chat_mute", "name": ""},
        {"type": "chat_mute", "name": "x", "mute": "yes"},
        {"type": "chat_report", "message": 1, "reason": "x" * 201},
        {"type": "rematch", "agree": 1},
    ],
)
async def test_unreadable_chat_commands_are_malformed(table: Table, command: dict[str, Any]) -> None:
    async with joined(table.match_id, table.mover) as (mover, _):
        await mover.send_json_to({**command, "id": "x1"})
        error = await mover.receive_json_from(timeout=TIMEOUT)
        assert (error["code"], error["id"]) == ("malformed_message", "x1")

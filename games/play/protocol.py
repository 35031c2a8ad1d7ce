"""The wire format between browsers and the site: commands in, frames out.

Pure Python (no Django): it only translates between JSON and engine types. Frames are built for
one audience each; this module never decides what a seat may see (``engine.view_for`` does).

>>> command = decode_command({"type": "move", "id": "r1", "version": 3, "move": {"kind": "draw"}})
>>> command.version, command.move
(3, DrawStock())
>>> decode_command({"version": 3, "move": {"kind": "fly"}})
Traceback (most recent call last):
...
games.play.protocol.MalformedMessageError: unknown move kind 'fly' (draw, take, play, discard, pass, knock)
>>> command.command_id
'r1'
>>> error_frame(MalformedMessageError("bad"), request_id="r1")
{'type': 'error', 'id': 'r1', 'code': 'malformed_message', 'message': 'bad'}
>>> ack_frame("r1", version=4, duplicate=True)
{'type': 'ack', 'id': 'r1', 'version': 4, 'duplicate': True}
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from games.engine import CodedError, IllegalMoveError, Move, move_from_json
from games.shared.errors import epoch_ms

RequestId = str | int | None

#: The longest command id the server stores (``MoveRecord.command_id``), as text.
MAX_ID_LENGTH = 64

#: The largest message a socket reads, in characters of its text (a whole Remi deep take with
#: its melds is under 2,000); longer ones are answered ``malformed_message`` without being parsed.
MAX_MESSAGE_CHARS = 16_384

#: How deeply arrays and objects may nest in a message (a move with lay-offs nests 5 deep).
MAX_NESTING = 12


class MalformedMessageError(CodedError, ValueError):
    """We could not even read the message (not JSON, missing fields, an unreadable move)."""

    code: ClassVar[str] = "malformed_message"


@dataclass(frozen=True, slots=True)
class Command:
    """A player's move, tagged with the version of the game the player saw."""

    id: RequestId
    version: int
    move: Move

    @property
    def command_id(self) -> str | None:
        """The id as the server stores it (numbers as their decimal text), or None."""
        return None if self.id is None else str(self.id)


def read_json(
    text: str | bytes | bytearray, *, max_chars: int = MAX_MESSAGE_CHARS, max_nesting: int = MAX_NESTING
) -> Any:
    """Parse a message from a client, or raise ``MalformedMessageError``; never anything else.

    Too long, not JSON (or not UTF-8), or nested deeper than ``max_nesting``: the parser's own
    recursion limit (a ``RecursionError`` at about 1,000 levels) is never reached, since a text
    is refused by its length first and by its depth after parsing.

    >>> read_json('{"type": "resync"}')
    {'type': 'resync'}
    >>> read_json("[" * 5000 + "]" * 5000)
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: nested too deeply (at most 12 levels)
    >>> read_json('{"a": [[[1]]]}', max_nesting=3)
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: nested too deeply (at most 3 levels)
    >>> read_json("x" * 20, max_chars=10)
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: too long: at most 10 characters
    """
    if len(text) > max_chars:
        raise MalformedMessageError(f"too long: at most {max_chars} characters")
    try:
        data = json.loads(text)
    except RecursionError:
        raise MalformedMessageError(f"nested too deeply (at most {max_nesting} levels)") from None
    except (ValueError, TypeError) as error:  # UnicodeDecodeError is a ValueError
        raise MalformedMessageError("not JSON") from error
    if nesting(data, limit=max_nesting) > max_nesting:
        raise MalformedMessageError(f"nested too deeply (at most {max_nesting} levels)")
    # JSON can carry NUL only as the escape \u0000 (a raw control character is not JSON): only a
    # text holding that escape is walked. The database cannot store NUL, and no field needs it.
    escaped = "\\u0000" in text if isinstance(text, str) else b"\\u0000" in text
    if escaped and holds_nul(data):
        raise MalformedMessageError(NUL_REFUSED)
    return data


#: Why a message or a request holding NUL (U+0000) is refused (docs/protocol.md, "Limits").
NUL_REFUSED = "a NUL character (U+0000) is not allowed"


def holds_nul(value: Any) -> bool:
    """Whether a NUL character is in any string of a JSON value, keys included (no recursion).

    >>> holds_nul({"type": "chat", "text": "hi"}), holds_nul({"a": ["x", {"b" + chr(0): 1}]})
    (False, True)
    >>> read_json(json.dumps({"type": "chat_mute", "name": "a" + chr(0)}))
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: a NUL character (U+0000) is not allowed
    """
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def nesting(value: Any, *, limit: int) -> int:
    """How deeply lists and dicts nest in ``value`` (a scalar is 0), counted without recursion
    and only up to ``limit + 1``.

    >>> nesting(1, limit=5), nesting([], limit=5), nesting({"a": [1, {"b": []}]}, limit=5)
    (0, 1, 4)
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        depth += 1
        if depth > deepest:
            deepest = depth
            if deepest > limit:
                return deepest
        stack.extend((child, depth) for child in children)
    return deepest


#: A card on the wire, exactly as a view writes it (docs/protocol.md, "Cards"): upper-case rank
#: (T for ten) and suit, or JK; the copy id after '#'; a joker's declared card in brackets.
CARD_TEXT = re.compile(r"(?:[2-9TJQKA][SHDC]|JK)(?:#[1-9][0-9]?)?(?:\([2-9TJQKA][SHDC]\))?")


def _check_card_texts(move: Any) -> None:
    """Every string of a move but its ``kind`` is a card, written as a view writes it.

    The engine's notation reader is lenient for people at a terminal (``10h``, ``7 H``); a
    client of the socket writes cards one way only, so that two clients never disagree on them.

    >>> _check_card_texts({"kind": "discard", "card": "TH#1"})
    >>> _check_card_texts({"kind": "play", "melds": [["10H", "JH", "QH"]]})
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: '10H' is not a card as the view writes it (e.g. 'TH#1', 'JK#2(5S)')
    """  # noqa: E501 (the doctest's exception, whole)
    stack = [move]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(value for key, value in item.items() if key != "kind")
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str) and not CARD_TEXT.fullmatch(item):
            raise MalformedMessageError(
                f"{item!r} is not a card as the view writes it (e.g. 'TH#1', 'JK#2(5S)')", card=item
            )


def decode_command(data: Any) -> Command:
    """Read ``{"type": "move", "id": ..., "version": n, "move": {...}}`` (text or parsed JSON).

    ``type`` may be left out; ``id`` is optional (echoed back in error and ack frames). With an
    id, a command is applied at most once: the server remembers it per seat and match.
    """
    if isinstance(data, str | bytes | bytearray):
        data = read_json(data)
    if not isinstance(data, Mapping):
        raise MalformedMessageError("a command is a JSON object")
    if data.get("type", "move") != "move":
        raise MalformedMessageError(f"unknown command type {data.get('type')!r}")
    request_id = data.get("id")
    if request_id is not None and (isinstance(request_id, bool) or not isinstance(request_id, str | int)):
        raise MalformedMessageError("'id' must be a string or a number")
    if request_id is not None and not 0 < len(str(request_id)) <= MAX_ID_LENGTH:
        raise MalformedMessageError(f"'id' must be 1 to {MAX_ID_LENGTH} characters long")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise MalformedMessageError("'version' must be the game version you saw (an integer >= 0)")
    _check_card_texts(data.get("move"))
    try:
        move = move_from_json(data.get("move"))
    except (IllegalMoveError, ValueError, TypeError, KeyError) as error:
        raise MalformedMessageError(str(error)) from error
    return Command(id=request_id, version=version, move=move)


def error_frame(error: BaseException, request_id: RequestId = None) -> dict[str, Any]:
    """The frame answering a refused command, sent to the sender only.

    Every error a client can cause (a malformed message, an illegal move, an application error)
    has the engine's one shape (:class:`~games.engine.CodedError`): the frame carries its code,
    message, rule id and fields (``to_dict``). Anything else is a bug and is reported as
    ``server_error`` without details.

    >>> from games.engine import variant, position, apply_move, parse_cards, Play
    >>> state = position(variant("remik51"), hands=["2S 3S 4S 9H", "5C"], turn=0, phase="play")
    >>> try:
    ...     apply_move(state, 0, Play(melds=(parse_cards("2S 3S 4S"),)))
    ... except IllegalMoveError as error:
    ...     error_frame(error, request_id="r2")  # doctest: +NORMALIZE_WHITESPACE
    {'type': 'error', 'id': 'r2', 'code': 'opening_too_low',
     'message': 'the opening is worth 9 points; it needs at least 51 (R51-31)', 'rule': 'R51-31',
     'points': 9, 'needed': 51, 'missing': 'points'}
    """
    if isinstance(error, CodedError):
        return {"type": "error", "id": request_id, **error.to_dict()}
    return {"type": "error", "id": request_id, "code": "server_error", "message": "server error; resync"}


def ack_frame(request_id: RequestId, *, version: int, duplicate: bool = True) -> dict[str, Any]:
    """The answer to a command whose id was already applied: nothing happened, ``version`` is now.

    Sent to the sender only, followed by a fresh state frame.
    """
    return {"type": "ack", "id": request_id, "version": version, "duplicate": duplicate}


def state_frame(
    view: Mapping[str, Any],
    version: int,
    events: Iterable[Mapping[str, Any]],
    clock: Mapping[str, Any] | None = None,
    seats: Iterable[Mapping[str, Any]] | None = None,
    actor: str | None = None,
) -> dict[str, Any]:
    """The game as one audience sees it at ``version``, with the events that led there.

    ``clock`` (see :func:`clock`) and ``seats`` (see :func:`seats`) are added as top-level
    ``"clock"`` and ``"seats"`` when given; ``actor`` (who made the move: ``"player"``, ``"bot"``
    or ``"standin"``) as ``"actor"``.
    """
    frame: dict[str, Any] = {
        "type": "state",
        "version": version,
        "view": dict(view),
        "events": [dict(e) for e in events],
    }
    if clock is not None:
        frame["clock"] = dict(clock)
    if seats is not None:
        frame["seats"] = [dict(seat) for seat in seats]
    if actor is not None:
        frame["actor"] = actor
    return frame


#: Commands about the sender's seat rather than the game: ``{"type": "away"}`` (I am leaving the
#: table: the bot plays for me) and ``{"type": "back"}`` (I'm back: my seat again).
SEAT_COMMANDS = ("away", "back")


#: Commands about the room rather than the game (docs/protocol.md, "Chat" and "Rematch").
CHAT_COMMANDS = ("chat", "chat_delete", "chat_mute", "chat_report")
ROOM_COMMANDS = (*CHAT_COMMANDS, "rematch")


@dataclass(frozen=True, slots=True)
class RoomCommand:
    """A chat or rematch command, read (``decode_room_command``); what it asks is checked later.

    ``text``: a chat line; ``message``: the chat message a delete or report is about; ``name``:
    the player to mute or unmute; ``on``: mute (True) or unmute, agree (True) or decline a
    rematch; ``reason``: a report's few words.
    """

    type: str
    id: RequestId = None
    text: str = ""
    message: int = 0
    name: str = ""
    on: bool = True
    reason: str = ""


#: The longest reason a report may give, in characters.
MAX_REPORT_REASON = 200


def decode_room_command(data: Any) -> RoomCommand:
    """Read a chat or rematch command (its ``type`` one of ``ROOM_COMMANDS``).

    >>> decode_room_command({"type": "chat", "id": "m1", "text": "hi"})
    RoomCommand(type='chat', id='m1', text='hi', message=0, name='', on=True, reason='')
    >>> decode_room_command({"type": "rematch", "agree": False}).on
    False
    >>> decode_room_command({"type": "chat_mute", "name": 7})
    Traceback (most recent call last):
    ...
    games.play.protocol.MalformedMessageError: 'name' must be a player's name
    """
    kind = data.get("type") if isinstance(data, Mapping) else None
    if kind not in ROOM_COMMANDS:
        raise MalformedMessageError(f"unknown command type {kind!r}")
    request_id = data.get("id")
    if request_id is not None and (
        isinstance(request_id, bool)
        or not isinstance(request_id, str | int)
        or not 0 < len(str(request_id)) <= MAX_ID_LENGTH
    ):
        raise MalformedMessageError(f"'id' must be a string or a number of 1 to {MAX_ID_LENGTH} characters")
    fields: dict[str, Any] = {}
    if kind == "chat":
        if not isinstance(data.get("text"), str):
            raise MalformedMessageError("'text' must be the message, as a string")
        fields["text"] = data["text"]
    elif kind in ("chat_delete", "chat_report"):
        message = data.get("message")
        if isinstance(message, bool) or not isinstance(message, int) or message < 1:
            raise MalformedMessageError("'message' must be the id of a chat message")
        fields["message"] = message
        reason = data.get("reason", "")
        if kind == "chat_report":
            if not isinstance(reason, str) or len(reason) > MAX_REPORT_REASON:
                raise MalformedMessageError(
                    f"'reason' must be a text of at most {MAX_REPORT_REASON} characters"
                )
            fields["reason"] = reason
    elif kind == "chat_mute":
        name = data.get("name")
        if not isinstance(name, str) or not 0 < len(name) <= 150:
            raise MalformedMessageError("'name' must be a player's name")
        mute = data.get("mute", True)
        if not isinstance(mute, bool):
            raise MalformedMessageError("'mute' must be true or false")
        fields.update(name=name, on=mute)
    else:  # rematch
        agree = data.get("agree", True)
        if not isinstance(agree, bool):
            raise MalformedMessageError("'agree' must be true or false")
        fields["on"] = agree
    return RoomCommand(type=kind, id=request_id, **fields)


def chat_frame(message: Mapping[str, Any]) -> dict[str, Any]:
    """A new chat line, to everyone in the room but those who muted its author.

    ``message`` is ``{"id", "author", "seat", "text", "sent"}`` (``sent`` in epoch ms; ``seat``
    the author's seat in the room, or None for a spectator).
    """
    return {"type": "chat", "message": dict(message)}


def chat_history_frame(
    messages: Iterable[Mapping[str, Any]], muted: Iterable[str], *, name: str, staff: bool
) -> dict[str, Any]:
    """The room's latest chat lines, oldest first, the names this user mutes, and who they are
    (``you``: their name, and whether they are staff, who may delete lines)."""
    return {
        "type": "chat_history",
        "messages": [dict(m) for m in messages],
        "muted": sorted(muted),
        "you": {"name": name, "staff": staff},
    }


def chat_deleted_frame(message_id: int) -> dict[str, Any]:
    return {"type": "chat_deleted", "message": message_id}


def chat_muted_frame(muted: Iterable[str]) -> dict[str, Any]:
    """The names this account mutes now (to each of its sockets, after a ``chat_mute``)."""
    return {"type": "chat_muted", "muted": sorted(muted)}


def chat_reported_frame(message_id: int, request_id: RequestId = None) -> dict[str, Any]:
    return {"type": "chat_reported", "id": request_id, "message": message_id}


def rematch_frame(
    *, match_id: int, votes: Mapping[int, bool], people: Iterable[int], next_match: int | None
) -> dict[str, Any]:
    """Who agreed to play again at a finished match (``people``: the seats that must agree).

    >>> rematch_frame(match_id=4, votes={0: True}, people=[0, 1], next_match=None)
    ... # doctest: +NORMALIZE_WHITESPACE
    {'type': 'rematch', 'match': 4, 'agreed': [0], 'declined': [], 'waiting': [1], 'next_match': None}
    """
    people = sorted(people)
    return {
        "type": "rematch",
        "match": match_id,
        "agreed": sorted(seat for seat, agree in votes.items() if agree),
        "declined": sorted(seat for seat, agree in votes.items() if not agree),
        "waiting": [seat for seat in people if seat not in votes],
        "next_match": next_match,
    }


def seats(rows: Iterable[tuple[int, bool, str, int]]) -> list[dict[str, Any]]:
    """The ``seats`` of a state frame from (index, is bot, state, timeouts), the same for everyone.

    ``state`` is the seat's presence (``connected``, ``offline``: its sockets are gone for less
    than the grace period, ``away``); ``standin`` says that a bot plays a person's turns (an away
    seat). A bot seat is always ``connected``. Nothing here says who the player is.

    >>> seats([(0, False, "away", 2), (1, True, "connected", 0)])
    ... # doctest: +NORMALIZE_WHITESPACE
    [{'seat': 0, 'kind': 'human', 'state': 'away', 'standin': True, 'timeouts': 2},
     {'seat': 1, 'kind': 'bot', 'state': 'connected', 'standin': False, 'timeouts': 0}]
    """
    return [
        {
            "seat": index,
            "kind": "bot" if is_bot else "human",
            "state": "connected" if is_bot else state,
            "standin": not is_bot and state == "away",
            "timeouts": 0 if is_bot else timeouts,
        }
        for index, is_bot, state, timeouts in rows
    ]


def clock(
    *, turn_seconds: int, turn_started: datetime | None, resume_at: datetime | None, now: datetime
) -> dict[str, Any]:
    """The turn clock of a state frame; times are epoch milliseconds.

    ``resume_at`` is only given while a pause between rounds is still running.

    >>> from datetime import UTC
    >>> start = datetime(2026, 1, 1, tzinfo=UTC)
    >>> clock(turn_seconds=60, turn_started=start, resume_at=None, now=start)
    {'turn_seconds': 60, 'turn_started': 1767225600000, 'resume_at': None}
    """
    return {
        "turn_seconds": turn_seconds,
        "turn_started": None if turn_started is None else epoch_ms(turn_started),
        "resume_at": epoch_ms(resume_at) if resume_at is not None and resume_at > now else None,
    }


__all__ = [
    "CHAT_COMMANDS",
    "MAX_ID_LENGTH",
    "MAX_MESSAGE_CHARS",
    "MAX_NESTING",
    "MAX_REPORT_REASON",
    "NUL_REFUSED",
    "ROOM_COMMANDS",
    "SEAT_COMMANDS",
    "Command",
    "MalformedMessageError",
    "RoomCommand",
    "ack_frame",
    "chat_deleted_frame",
    "chat_frame",
    "chat_history_frame",
    "chat_muted_frame",
    "chat_reported_frame",
    "clock",
    "decode_command",
    "decode_room_command",
    "error_frame",
    "holds_nul",
    "nesting",
    "read_json",
    "rematch_frame",
    "seats",
    "state_frame",
]

"""Everything that writes game data: rooms, seats, matches and moves.

Each service is one transaction. A move locks its ``Match`` row
(``select_for_update(no_key=True)``), checks the version the client saw, lets the engine decide,
then writes the new state, the move log and, at the end of a round, the scores and the revealed
seed. Frames go out in ``transaction.on_commit``, so nobody hears of a move that was rolled back;
in the same callback, when the seat to move next is a bot, its move is queued as a Celery task
(``games.tasks.bot_move``) for the new version.

Between rounds there is a pause (``ROUND_PAUSE_SECONDS``): the move that ends a round deals the
next one and sets ``Match.resume_at``; no move is accepted before then (``RoundPauseError``).
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from games import broadcast, engine, ratings, selectors
from games.engine.bots import candidate_moves, choose_move
from games.errors import (
    AlreadySeatedError,
    BadOptionsError,
    MatchNotFoundError,
    MatchOverError,
    NotBotTurnError,
    NotOwnerError,
    NotSeatedError,
    RankedNoBotsError,
    RoomFullError,
    RoomNotFoundError,
    RoomNotOpenError,
    RoomNotReadyError,
    RoundPauseError,
    SeatTakenError,
    StaleVersionError,
)
from games.models import Match, MoveRecord, Room, Round, ScoreLine, Seat

logger = logging.getLogger(__name__)

_JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: read aloud and typed
TURN_SECONDS_RANGE = (5, 3600)


# --- rooms and seats ---------------------------------------------------------------------------


def room_create(
    *,
    owner: AbstractBaseUser,
    name: str,
    variant: str,
    options: Mapping[str, Any],
    seats: int,
    turn_seconds: int,
    ranked: bool = False,
    private: bool = False,
) -> Room:
    """Open a room with ``seats`` empty seats. The engine validates the variant and options."""
    if not isinstance(options, Mapping):
        raise BadOptionsError("options must be a JSON object")
    try:
        rules = engine.variant(variant, **dict(options))
    except ValueError as error:
        raise BadOptionsError(str(error)) from error
    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not rules.min_players <= seats <= rules.max_players
    ):
        raise BadOptionsError(f"{rules.name} is played by {rules.min_players} to {rules.max_players} players")
    low, high = TURN_SECONDS_RANGE
    if isinstance(turn_seconds, bool) or not isinstance(turn_seconds, int) or not low <= turn_seconds <= high:
        raise BadOptionsError(f"a turn lasts {low} to {high} seconds")
    with transaction.atomic():
        room = Room.objects.create(
            owner=owner,
            name=name,
            variant=rules.name,
            options=dict(rules.options),
            seat_count=seats,
            turn_seconds=turn_seconds,
            ranked=ranked,
            join_code=_new_join_code() if private else None,
        )
        Seat.objects.bulk_create(Seat(room=room, index=index) for index in range(seats))
    return room


def _new_join_code() -> str:
    while True:
        code = "".join(secrets.choice(_JOIN_CODE_ALPHABET) for _ in range(8))
        if not Room.objects.filter(join_code=code).exists():
            return code


def _room_locked(room: Room | int) -> Room:
    room_id = room if isinstance(room, int) else room.pk
    locked = Room.objects.select_for_update(no_key=True).filter(pk=room_id).first()
    if locked is None:
        raise RoomNotFoundError()
    return locked


def _require_owner(room: Room, user: AbstractBaseUser | AnonymousUser | None) -> None:
    if user is not None and room.owner_id != user.pk:
        raise NotOwnerError()


def seat_take(*, room: Room | int, user: AbstractBaseUser, index: int | None = None) -> Seat:
    """Sit ``user`` at seat ``index`` (or the first free one) of an open room."""
    with transaction.atomic():
        room = _room_locked(room)  # one seating change per room at a time
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError()
        seats = list(room.seats.all())
        if any(seat.user_id == user.pk for seat in seats):
            raise AlreadySeatedError()
        if index is None:
            seat = next((seat for seat in seats if seat.is_free), None)
            if seat is None:
                raise RoomFullError()
        else:
            seat = next((seat for seat in seats if seat.index == index and seat.is_free), None)
            if seat is None:
                raise SeatTakenError()
        seat.user = user
        seat.state = Seat.State.CONNECTED
        seat.save(update_fields=["user", "state"])
    return seat


def seat_add_bot(
    *,
    room: Room | int,
    index: int,
    level: str = Seat.BotLevel.NORMAL,
    user: AbstractBaseUser | None = None,
) -> Seat:
    """Put a bot at a free seat. With ``user``, only the room's owner may do it."""
    if level not in Seat.BotLevel.values:
        raise BadOptionsError(f"bot level must be one of {', '.join(Seat.BotLevel.values)}")
    with transaction.atomic():
        room = _room_locked(room)
        _require_owner(room, user)
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError()
        if room.ranked:
            raise RankedNoBotsError()
        seat = room.seats.filter(index=index, user__isnull=True, is_bot=False).first()
        if seat is None:
            raise SeatTakenError()
        seat.is_bot = True
        seat.bot_level = level
        seat.save(update_fields=["is_bot", "bot_level"])
    return seat


# --- matches -----------------------------------------------------------------------------------


def match_start(*, room: Room | int, user: AbstractBaseUser | None = None) -> Match:
    """Deal a new match in a room whose seats are all taken (by players or bots).

    The match secret comes from ``secrets``; round 1's commitment is stored (and shown in every
    view) before anyone has seen a card.
    """
    with transaction.atomic():
        room = _room_locked(room)
        _require_owner(room, user)
        if room.status not in (Room.Status.OPEN, Room.Status.FINISHED):
            raise RoomNotOpenError()
        seats = list(room.seats.select_related("user").order_by("index"))
        if len(seats) != room.seat_count or any(seat.is_free for seat in seats):
            raise RoomNotReadyError()
        if room.ranked and any(seat.is_bot for seat in seats):
            raise RankedNoBotsError()
        names = [
            seat.user.get_username() if seat.user is not None else f"Bot {seat.index + 1}" for seat in seats
        ]
        secret = secrets.token_bytes(32)
        state = engine.new_game(room.rules(), names, secret)
        number = (room.matches.order_by("-number").values_list("number", flat=True).first() or 0) + 1
        match = Match(room=room, number=number, version=0, secret=secret, turn_started=timezone.now())
        match.set_game_state(state)
        match.save()
        Round.objects.create(
            match=match, number=state.round_no, commitment=_commitment(secret, state.round_no)
        )
        room.status = Room.Status.PLAYING
        room.save(update_fields=["status"])
        _publish_after_commit(match=match, state=state, events=())
    return match


def _commitment(secret: bytes, round_no: int) -> str:
    return engine.commitment(engine.deal_seed(secret, round_no))


def _match_locked(match_id: int) -> Match:
    # The room comes in the same query (the frames' clock reads its turn time); only the
    # match row is locked.
    match = (
        Match.objects.select_for_update(no_key=True, of=("self",))
        .select_related("room")
        .filter(pk=match_id)
        .order_by("pk")  # not the model's ordering, which joins and sorts by the room
        .first()
    )
    if match is None:
        raise MatchNotFoundError()
    return match


def _check_version(match: Match, expected_version: int) -> None:
    if match.version != expected_version:
        raise StaleVersionError(current=match.version)


def _check_not_paused(match: Match) -> None:
    """Refuse a move while the pause between two rounds runs."""
    if match.resume_at is not None and timezone.now() < match.resume_at:
        raise RoundPauseError(resume_at=match.resume_at)


class AlreadyApplied(int):
    """What ``move_submit`` returns for a command id already recorded: the current version.

    It is an ``int`` like any other result; callers that care (the consumer) test for the type.
    """


def move_submit(
    *,
    match_id: int,
    user: AbstractBaseUser | AnonymousUser,
    move: engine.Move,
    expected_version: int,
    actor: str = MoveRecord.Actor.PLAYER,
    command_id: str | None = None,
) -> int:
    """Play ``move`` for the user's seat; returns the new version.

    ``command_id`` is the client's id for the command. If this seat already has a move recorded
    with that id in this match (a command resent after a reconnect), nothing is applied and the
    current version comes back as an ``AlreadyApplied``; the version is not checked then.

    Raises NotSeatedError, StaleVersionError, RoundPauseError (before the next round may start),
    or the engine's IllegalMoveError (nothing saved).
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        # Under the row lock: a second copy sent concurrently waits here and then finds the first.
        seat, applied, bot_seats = selectors.seat_for_move(
            match_id=match.pk, room_id=match.room_id, user=user, command_id=command_id
        )
        if seat is None:
            raise NotSeatedError()
        if applied:
            return AlreadyApplied(match.version)
        _check_version(match, expected_version)
        _check_not_paused(match)
        state = match.game_state()
        transition = engine.apply_move(state, seat, move)
        _record(
            match=match,
            before=state,
            seat=seat,
            move=move,
            transition=transition,
            actor=actor,
            command_id=command_id,
            bot_seats=bot_seats,
        )
    return match.version


def bot_move_play(*, match_id: int, expected_version: int) -> int:
    """Play the move of the bot whose turn it is; returns the new version.

    ``expected_version`` is the version the bot's task was scheduled for: if anyone has moved
    since, StaleVersionError and nothing happens. NotBotTurnError when the seat to move is a
    person's or the match is over; RoundPauseError before the next round may start.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        _check_version(match, expected_version)
        state = match.game_state()
        seat = state.turn
        if state.is_over or not Seat.objects.filter(room_id=match.room_id, index=seat, is_bot=True).exists():
            raise NotBotTurnError()
        _check_not_paused(match)
        move, transition = _bot_choice(state, seat)
        _record(
            match=match, before=state, seat=seat, move=move, transition=transition, actor=MoveRecord.Actor.BOT
        )
    return match.version


#: A turn is a few moves (draw, plays, discard); a stand-in stops after this many in any case.
_MAX_MOVES_PER_TURN = 20


def turn_end_stuck(*, match_id: int) -> int:
    """Staff action: play the rest of the current seat's turn with the normal bot; the new version.

    The bot decides from that seat's view only (as ``bot_move_play``) and every move is logged
    with the ``standin`` actor. It plays until the turn passes to another seat, the round ends
    or the match is over. No version check (staff act on whatever is current), but under the row
    lock. Raises MatchOverError for a finished match and RoundPauseError during a pause.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            raise MatchOverError()
        _check_not_paused(match)
        seat, round_no = state.turn, state.round_no
        for _ in range(_MAX_MOVES_PER_TURN):
            move, transition = _bot_choice(state, seat)
            _record(
                match=match,
                before=state,
                seat=seat,
                move=move,
                transition=transition,
                actor=MoveRecord.Actor.STANDIN,
            )
            state = transition.state
            if state.is_over or state.turn != seat or state.round_no != round_no:
                break
    return match.version


def _bot_choice(state: engine.GameState, seat: int) -> tuple[engine.Move, engine.Transition]:
    # The bot decides from its own seat's view, like a player (RMI-NET-2).
    view = engine.view_for(state, seat)
    move = choose_move(view)
    try:
        return move, engine.apply_move(state, seat, move)
    except engine.IllegalMoveError:
        pass
    # Its candidates end with simple moves (a draw, every discard), so one of them is legal.
    for move in candidate_moves(view):
        try:
            return move, engine.apply_move(state, seat, move)
        except engine.IllegalMoveError:
            continue
    raise NotBotTurnError("the bot found no legal move")  # pragma: no cover


def _record(
    *,
    match: Match,
    before: engine.GameState,
    seat: int,
    move: engine.Move,
    transition: engine.Transition,
    actor: str,
    command_id: str | None = None,
    bot_seats: frozenset[int] | None = None,
) -> None:
    """Store an accepted move: state, version, log row, finished rounds; publish after commit.

    ``bot_seats``: the room's bot seats when the caller has read them already.
    """
    after = transition.state
    match.set_game_state(after)
    match.version += 1
    MoveRecord.objects.create(
        match=match,
        seq=match.version,
        round_number=before.round_no,
        seat=seat,
        move=engine.move_to_json(move),
        actor=actor,
        command_id=command_id,
    )
    now = timezone.now()
    for result in after.results[len(before.results) :]:
        _round_close(match=match, result=result, now=now)
    update_fields = ["state", "version", "turn_started", "resume_at"]
    match.resume_at = None
    if after.is_over:
        match.status = Match.Status.FINISHED
        match.winners = list(after.winners)
        match.finished = now
        update_fields += ["status", "winners", "finished"]
        Room.objects.filter(pk=match.room_id).update(status=Room.Status.FINISHED)
    elif after.round_no != before.round_no:
        Round.objects.create(
            match=match, number=after.round_no, commitment=_commitment(match.secret_bytes, after.round_no)
        )
        # The next round is dealt; everyone gets a moment with the scores before it starts.
        if settings.ROUND_PAUSE_SECONDS > 0:
            match.resume_at = now + timedelta(seconds=settings.ROUND_PAUSE_SECONDS)
    if after.turn != before.turn or after.round_no != before.round_no:
        match.turn_started = match.resume_at or now
    match.save(update_fields=update_fields)
    if after.is_over:
        ratings.on_match_over(match=match, state=after)  # once; in this transaction
    _publish_after_commit(match=match, state=after, events=transition.events, bot_seats=bot_seats)


def _round_close(*, match: Match, result: Any, now: Any) -> None:
    """Reveal a finished round's seed and write one score line per seat."""
    seed = engine.deal_seed(match.secret_bytes, result.round_no)
    Round.objects.filter(match=match, number=result.round_no).update(revealed_seed=seed.hex(), finished=now)
    round_id = Round.objects.values_list("pk", flat=True).get(match=match, number=result.round_no)
    ScoreLine.objects.bulk_create(
        ScoreLine(
            round_id=round_id,
            seat=line.seat,
            points=line.points,
            hand=line.hand,
            table=line.table,
            bonus=line.bonus,
            atu_bonus=line.atu_bonus,
            multiplier=line.multiplier,
            notes=list(line.notes),
            chips=line.chips,
            total=result.totals[line.seat],
        )
        for line in result.lines
    )


def _publish_after_commit(
    *, match: Match, state: engine.GameState, events: Any, bot_seats: frozenset[int] | None = None
) -> None:
    """After commit: every audience gets its frame, then the bot to move (if any) is scheduled."""
    bot_to_move = not state.is_over and (
        state.turn in bot_seats
        if bot_seats is not None
        else Seat.objects.filter(room_id=match.room_id, index=state.turn, is_bot=True).exists()
    )
    # Plain values only (the state is immutable): never close over a model instance. One
    # callback per change, which publishes and then schedules.
    callback = partial(
        _after_commit,
        match_id=match.pk,
        state=state,
        version=match.version,
        events=tuple(events),
        clock=selectors.match_clock(match),
        bot_to_move=bot_to_move,
        resume_at=match.resume_at,
    )
    transaction.on_commit(callback, robust=True)


def _after_commit(
    *,
    match_id: int,
    state: engine.GameState,
    version: int,
    events: tuple[engine.Event, ...],
    clock: dict[str, Any],
    bot_to_move: bool,
    resume_at: datetime | None,
) -> None:
    try:
        broadcast.publish(match_id=match_id, state=state, version=version, events=events, clock=clock)
    finally:
        if bot_to_move:
            bot_move_schedule(match_id=match_id, version=version, resume_at=resume_at)


# --- bots on Celery: scheduling and the start-up sweep ----------------------------------------


def bot_move_schedule(*, match_id: int, version: int, resume_at: datetime | None = None) -> None:
    """Queue the bot's move at ``version``: after ``BOT_MOVE_DELAY``, or when the pause ends.

    Call it only once the version is committed (a worker must find it). Scheduling twice is
    harmless: the second task finds the version moved on, and does nothing.
    """
    from games import tasks  # games.tasks imports this module

    delay = settings.BOT_MOVE_DELAY
    if resume_at is not None:
        delay = max(delay, (resume_at - timezone.now()).total_seconds())
    if delay > 0:
        tasks.bot_move.apply_async((match_id, version), countdown=delay)
    else:
        tasks.bot_move.apply_async((match_id, version))


def resume_pending() -> int:
    """Schedule the bot's move of every match waiting for one (the worker start-up sweep).

    A restarted server has lost the tasks it queued in memory, and a worker killed hard holds its
    tasks until the broker's visibility timeout: this sets every such table moving again, from
    the database. Returns how many matches were scheduled.
    """
    waiting = selectors.matches_waiting_for_a_bot()
    for match_id, version, resume_at in waiting:
        bot_move_schedule(match_id=match_id, version=version, resume_at=resume_at)
    if waiting:
        logger.info("resumed %d table(s) waiting for a bot", len(waiting))
    return len(waiting)


# --- site pages: opening a room seated, starting from the room page ----------------------------


def room_open_seated(*, owner: AbstractBaseUser, **room: Any) -> Room:
    """``room_create`` and seat the owner at seat 0, in one transaction (the create-room page)."""
    with transaction.atomic():
        created = room_create(owner=owner, **room)
        seat_take(room=created, user=owner, index=0)
    return created


def match_start_from_room(*, room: Room | int, user: AbstractBaseUser) -> Match:
    """Start on behalf of ``user``: the owner, or any seated player when the owner has no seat.

    Rooms whose owner does not play (the demo rooms of ``seed_demo``) can then still be started by
    the people sitting in them.
    """
    room_id = room if isinstance(room, int) else room.pk
    owner_id = Room.objects.filter(pk=room_id).values_list("owner_id", flat=True).first()
    if owner_id is None:
        raise RoomNotFoundError()
    if owner_id == user.pk:
        return match_start(room=room_id, user=user)
    seated = Seat.objects.filter(room_id=room_id, user_id__in=(owner_id, user.pk)).values_list(
        "user_id", flat=True
    )
    if owner_id in seated or user.pk not in seated:
        raise NotOwnerError()
    return match_start(room=room_id)


# --- site pages: leaving a seat; admin actions -------------------------------------------------


def seat_leave(*, room: Room | int, user: AbstractBaseUser) -> Seat:
    """Free the user's seat in a room that is still open (no match started yet)."""
    with transaction.atomic():
        room = _room_locked(room)
        if room.status != Room.Status.OPEN:
            raise RoomNotOpenError("the match has started: you can no longer leave your seat")
        seat = room.seats.filter(user_id=user.pk).first()
        if seat is None:
            raise NotSeatedError()
        seat.user = None
        seat.state = Seat.State.CONNECTED
        seat.save(update_fields=["user", "state"])
    return seat


def seat_remove_player(*, seat_id: int) -> bool:
    """Free a seat (player or bot) if its room is still open; False when nothing was changed."""
    with transaction.atomic():
        room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
        if room_id is None:
            return False
        room = _room_locked(room_id)
        if room.status != Room.Status.OPEN:
            return False
        seat = Seat.objects.get(pk=seat_id)
        if seat.is_free:
            return False
        seat.user = None
        seat.is_bot = False
        seat.bot_level = ""
        seat.state = Seat.State.CONNECTED
        seat.save(update_fields=["user", "is_bot", "bot_level", "state"])
    return True


def room_close(*, room_ids: list[int]) -> int:
    """Close rooms (staff action): they leave the lobby and take no seats or new matches.

    A match still being played in a closed room ends there (``match_close``).
    """
    with transaction.atomic():
        closing = list(
            Room.objects.filter(pk__in=room_ids)
            .exclude(status=Room.Status.CLOSED)
            .values_list("pk", flat=True)
        )
        playing = Match.objects.filter(room_id__in=closing, status=Match.Status.PLAYING)
        for match_id in playing.order_by("pk").values_list("pk", flat=True):
            match_close(match_id=match_id)
        return Room.objects.filter(pk__in=closing).update(status=Room.Status.CLOSED)


def match_close(*, match_id: int) -> bool:
    """End a match being played now, as when its room is closed; False if it was over already.

    The engine's ``end_match`` makes the standings final (the round in progress is dropped); the
    match is ``ABANDONED`` and, in a ranked room, rated from those standings, or aborted for
    ratings when nobody had discarded yet in the first round (``games.ratings``). The version
    goes up (the state changed) without a move in the log.
    """
    with transaction.atomic():
        match = _match_locked(match_id)
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            return False
        transition = engine.end_match(state)
        after = transition.state
        match.set_game_state(after)
        match.version += 1
        match.status = Match.Status.ABANDONED
        match.winners = list(after.winners)
        match.finished = match.turn_started = timezone.now()
        match.resume_at = None
        match.save(
            update_fields=["state", "version", "status", "winners", "finished", "turn_started", "resume_at"]
        )
        Room.objects.filter(pk=match.room_id, status=Room.Status.PLAYING).update(status=Room.Status.FINISHED)
        ratings.on_match_over(match=match, state=after)
        _publish_after_commit(match=match, state=after, events=transition.events)
    return True

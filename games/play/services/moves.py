"""Moves: a person's (``move_submit``), a bot's (``bot_move_play``), and a stand-in's.

Each is one transaction through ``core``: lock, version, engine, record, publish after commit. A
command id a seat already had applied is not applied again (``AlreadyApplied``). Bots decide from
their own seat's view only, at their level (easy, normal, hard); a stand-in (a person's timed-out
turn, an away seat, staff's "end a stuck turn") plays the rest of the turn with the normal bot.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction

from games import engine
from games.engine.bots import candidate_moves, choose_move, view_rng
from games.play import selectors
from games.play.models import Match, MoveRecord, Seat
from games.play.selectors import SeatRow
from games.play.services.core import (
    check_not_paused,
    check_version,
    match_locked,
    record_move,
    row_of,
    seats_changed,
    with_row,
)
from games.shared.errors import (
    GameError,
    MatchOverError,
    NotBotTurnError,
    NotSeatedError,
)


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

    Any move from a seat that is away (or offline, or has timed out) takes the seat back: it is
    ``connected`` again with no timeouts counted, even when the move itself is refused (the player
    is evidently at the table), and the stand-in stops (RMI-NET-4).
    """
    refused: Exception | None = None
    with transaction.atomic():
        match = match_locked(match_id)
        # Under the row lock: a second copy sent concurrently waits here and then finds the first.
        seat, applied, rows = selectors.seat_for_move(
            match_id=match.pk, room_id=match.room_id, user=user, command_id=command_id
        )
        if seat is None:
            raise NotSeatedError()
        if applied:
            return AlreadyApplied(match.version)
        state = match.game_state()
        row = row_of(rows, seat)
        reclaim = row.state != Seat.State.CONNECTED or row.timeouts > 0
        if reclaim:
            Seat.objects.filter(pk=row.pk).update(state=Seat.State.CONNECTED, timeouts=0, offline_since=None)
            rows = with_row(rows, row._replace(state=Seat.State.CONNECTED, timeouts=0))
        try:
            check_version(match, expected_version)
            check_not_paused(match)
            transition = engine.apply_move(state, seat, move)
        except (GameError, engine.IllegalMoveError) as error:
            if not reclaim:
                raise
            # The seat is taken back all the same: commit that, then refuse the move.
            refused = error
            seats_changed(match=match, state=state, before=row, rows=rows)
        else:
            record_move(
                match=match,
                before=state,
                seat=seat,
                move=move,
                transition=transition,
                actor=actor,
                command_id=command_id,
                rows=rows,
            )
    if refused is not None:
        raise refused
    return match.version


def bot_move_play(*, match_id: int, expected_version: int) -> int:
    """Play the move of the bot whose turn it is; returns the new version.

    The seat to move is a bot's (its own level), or an away person's: the normal bot plays for
    them as a stand-in (RMI-NET-4). ``expected_version`` is the version the task was scheduled
    for: if anyone has moved since, StaleVersionError and nothing happens. NotBotTurnError when
    the seat to move is a person's who is not away (a stand-in cancelled by "back") or the match
    is over; RoundPauseError before the next round may start.
    """
    with transaction.atomic():
        match = match_locked(match_id)
        check_version(match, expected_version)
        state = match.game_state()
        rows = selectors.seat_rows(room_id=match.room_id)
        if state.is_over or match.status != Match.Status.PLAYING:
            raise NotBotTurnError()
        row = row_of(rows, state.turn)
        if not row.played_by_bot:
            raise NotBotTurnError()
        check_not_paused(match)
        bot_play_one(match=match, state=state, row=row, rows=rows)
    return match.version


def daily_bot_key(secret: bytes, round_no: int) -> bytes:
    """What a deal of the day's bot's luck is seeded from, with its view: the round's seed,
    labelled; the same for everyone who plays that day's deal
    (docs/learn.md, "Deal of the day"; ``games.learn.daily`` names it ``bot_rng_key``)."""
    return engine.sub_seed(engine.deal_seed(secret, round_no), "daily-bots")


def bot_play_one(*, match: Match, state: engine.GameState, row: SeatRow, rows: list[SeatRow]) -> None:
    """One move of a bot seat (at its level), or of the stand-in for an away person (normal)."""
    level = (row.bot_level or Seat.BotLevel.NORMAL) if row.is_bot else Seat.BotLevel.NORMAL
    luck = daily_bot_key(match.secret_bytes, state.round_no) if match.room.daily_day is not None else None
    move, transition = _bot_choice(state, row.index, level=level, luck=luck)
    actor = MoveRecord.Actor.BOT if row.is_bot else MoveRecord.Actor.STANDIN
    record_move(
        match=match, before=state, seat=row.index, move=move, transition=transition, actor=actor, rows=rows
    )


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
        match = match_locked(match_id)
        state = match.game_state()
        if match.status != Match.Status.PLAYING or state.is_over:
            raise MatchOverError()
        check_not_paused(match)
        standin_turn(match=match, state=state, rows=selectors.seat_rows(room_id=match.room_id))
    return match.version


def standin_turn(*, match: Match, state: engine.GameState, rows: list[SeatRow]) -> None:
    """The normal bot plays the rest of the current seat's turn, each move logged as ``standin``.

    It stops when the turn passes to another seat, the round ends or the match is over.
    """
    seat, round_no = state.turn, state.round_no
    for played in range(1, _MAX_MOVES_PER_TURN + 1):
        move, transition = _bot_choice(state, seat, level=Seat.BotLevel.NORMAL)
        after = transition.state
        last = after.is_over or after.turn != seat or after.round_no != round_no
        record_move(
            match=match,
            before=state,
            seat=seat,
            move=move,
            transition=transition,
            actor=MoveRecord.Actor.STANDIN,
            rows=rows,
            # Only the last move schedules what comes next (the others' would be stale at once).
            schedule=last or played == _MAX_MOVES_PER_TURN,
        )
        state = after
        if last:
            break


def _bot_choice(
    state: engine.GameState, seat: int, *, level: str = Seat.BotLevel.NORMAL, luck: bytes | None = None
) -> tuple[engine.Move, engine.Transition]:
    """The bot's move and its transition. ``luck``: a key its random choices are seeded from,
    with its view (a deal of the day's bots: ``daily_bot_key``); else from the view alone."""
    # The bot decides from its own seat's view, like a player (RMI-NET-2).
    view = engine.view_for(state, seat)
    move = choose_move(view, level=level, rng=_luck_rng(luck, view))
    try:
        return move, engine.apply_move(state, seat, move)
    except engine.IllegalMoveError:
        pass
    # Its candidates end with simple moves (a draw, every discard), so one of them is legal.
    for move in candidate_moves(view, level=level, rng=_luck_rng(luck, view)):
        try:
            return move, engine.apply_move(state, seat, move)
        except engine.IllegalMoveError:
            continue
    raise NotBotTurnError("the bot found no legal move")  # pragma: no cover


def _luck_rng(luck: bytes | None, view: dict[str, Any]) -> random.Random | None:
    """A generator seeded by ``luck`` and the view's ``SEED_FIELDS`` (None without ``luck``): the
    same key and the same moves give the same choices, whoever plays (docs/engine.md)."""
    if luck is None:
        return None
    return view_rng(view, luck)

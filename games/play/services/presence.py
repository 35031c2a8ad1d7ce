"""Seats' presence: sockets, away and back, and server processes that are gone.

A seat is ``connected``, ``offline`` (its sockets are all gone, for less than
``AWAY_GRACE_SECONDS``) or ``away`` (the bot plays for it). ``seat_connect`` /
``seat_disconnect`` count a seat's sockets (``SeatSocket`` rows, with their server process);
``seat_away`` / ``seat_back`` are the players' commands (``away`` from one of a seat's sockets
while another is open, on any server process, changes nothing); ``seat_grace_end`` marks an offline seat
away when its grace period is over. ``servers_gone`` closes the sockets of server processes that
stopped beating; ``presence_reset`` forgets every socket when the single embedded server starts.
``account_socket_open`` / ``_close`` count each account's sockets for its cap (games/play/limits.py).
"""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timedelta
from functools import partial

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.db.models import F
from django.db.models.functions import Greatest
from django.utils import timezone

from games.play import selectors, servers
from games.play.models import AccountSocket, Match, Room, Seat, SeatSocket, ServerProcess
from games.play.services.core import (
    TIMER_TOLERANCE,
    match_locked,
    on_commit,
    publish_after_commit,
    seat_of,
    seats_changed,
    with_row,
)
from games.shared import enqueue

logger = logging.getLogger(__name__)


def presence_reset() -> int:
    """A server process started: no socket of before survives it, so no seat has one.

    Only for a single server process (the embedded mode): with several, another process's
    sockets are still open. Connected seats that had sockets become ``offline`` from now (a
    client that reconnects within the grace period is connected again). Returns how many seats
    changed.
    """
    now = timezone.now()
    with transaction.atomic():
        changed = Seat.objects.filter(
            state=Seat.State.CONNECTED, connections__gt=0, room__status=Room.Status.PLAYING
        ).update(state=Seat.State.OFFLINE, offline_since=now)
        Seat.objects.filter(connections__gt=0).update(connections=0)
        SeatSocket.objects.all().delete()
        AccountSocket.objects.all().delete()
        ServerProcess.objects.all().delete()
    return changed


def _seat_presence_set(
    *, match_id: int, user: AbstractBaseUser | AnonymousUser, state: str, channel: str | None = None
) -> bool:
    with transaction.atomic():
        match = match_locked(match_id)
        rows = selectors.seat_rows(room_id=match.room_id)
        row = seat_of(rows, user)
        timeouts = 0 if state == Seat.State.CONNECTED else row.timeouts
        if row.state == state and row.timeouts == timeouts:
            return False
        others = SeatSocket.objects.filter(seat_id=row.pk).exclude(channel=channel)
        if channel is not None and others.exists():
            return False  # another socket of the seat is open: the player is still at the table
        Seat.objects.filter(pk=row.pk).update(state=state, timeouts=timeouts, offline_since=None)
        rows = with_row(rows, row._replace(state=state, timeouts=timeouts))
        seats_changed(match=match, state=match.game_state(), before=row, rows=rows)
    return True


def seat_away(*, match_id: int, user: AbstractBaseUser | AnonymousUser, channel: str | None = None) -> bool:
    """The player leaves the table (the ``away`` command): the bot plays their turns until they
    are back; their seat, score and position wait for them (RMI-NET-4). NotSeatedError for a
    spectator. Returns whether the seat changed (False: it was away already, or another of its
    sockets is open).

    ``channel``: the socket that sent it (as recorded by ``seat_connect``). While another socket
    of the seat is open, on this server process or any other (another tab, another device),
    nothing changes: a page sends ``away`` when it closes, and closing one of two tabs is not
    leaving the table. The seat goes away when its last socket says so, or after the grace
    period once none is left (docs/protocol.md, "`away` and `back`").
    """
    return _seat_presence_set(match_id=match_id, user=user, state=Seat.State.AWAY, channel=channel)


def seat_back(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Back at the table ("I'm back", the ``back`` command): the seat is the player's again, with
    its score and position; the stand-in stops and the count of timeouts starts again from 0. If
    it is their turn, they get a whole turn from now. NotSeatedError for a spectator. Returns whether the
    seat changed (False: it was connected already, with no timeouts counted)."""
    return _seat_presence_set(match_id=match_id, user=user, state=Seat.State.CONNECTED)


def _seat_id_for(*, match_id: int, user: AbstractBaseUser | AnonymousUser) -> tuple[int, int] | None:
    """(seat id, room id) of the user's seat at the match's table, or None (a spectator)."""
    if not user.is_authenticated:
        return None
    room_id = Match.objects.filter(pk=match_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return None
    seat_id = Seat.objects.filter(room_id=room_id, user_id=user.pk).values_list("pk", flat=True).first()
    return None if seat_id is None else (seat_id, room_id)


def _presence_publish(*, match_id: int, except_channel: str | None = None) -> None:
    """After commit: everyone gets a frame with the seats as they are now (same version)."""
    match = Match.objects.select_related("room").filter(pk=match_id).order_by("pk").first()
    if match is not None:
        publish_after_commit(
            match=match, state=match.game_state(), events=(), schedule=False, except_channel=except_channel
        )


def seat_connect(
    *,
    match_id: int,
    user: AbstractBaseUser | AnonymousUser,
    except_channel: str | None = None,
    channel: str | None = None,
) -> bool:
    """A socket of the seat's player opened: an offline seat is ``connected`` again.

    An away seat stays away until "back" or a move. Nothing for a spectator. Returns whether
    the seat's state changed. ``except_channel``: the new socket, which reads its own fresh
    frame after this and need not be sent the broadcast too. ``channel``: the socket's channel
    name, recorded with this server process's name (``SeatSocket``), so that the sweep can close
    it if this process dies without closing it (``servers_gone``).
    """
    found = _seat_id_for(match_id=match_id, user=user)
    if found is None:
        return False
    seat_id, _room_id = found
    with transaction.atomic():
        if channel is not None:
            now = timezone.now()
            if not ServerProcess.objects.filter(name=servers.server_name()).exists():
                ServerProcess.objects.get_or_create(
                    name=servers.server_name(), defaults={"started": now, "beat": now}
                )
            SeatSocket.objects.create(
                seat_id=seat_id, server=servers.server_name(), channel=channel, opened=now
            )
        Seat.objects.filter(pk=seat_id).update(connections=F("connections") + 1)
        changed = Seat.objects.filter(pk=seat_id, state=Seat.State.OFFLINE).update(
            state=Seat.State.CONNECTED, offline_since=None
        )
        if changed:
            _presence_publish(match_id=match_id, except_channel=except_channel)
    return bool(changed)


def seat_disconnect(
    *, match_id: int, user: AbstractBaseUser | AnonymousUser, channel: str | None = None
) -> bool:
    """A socket of the seat's player closed. When it was the last one, a connected seat goes
    ``offline``, and ``away`` after ``AWAY_GRACE_SECONDS`` unless a socket opens again. Returns
    whether the seat's state changed. ``channel``: the socket's channel name, as given to
    ``seat_connect``; if the sweep has closed it already (its server was taken for gone), it
    is not counted twice."""
    found = _seat_id_for(match_id=match_id, user=user)
    if found is None:
        return False
    seat_id, _room_id = found
    with transaction.atomic():
        if channel is not None:
            deleted, _ = SeatSocket.objects.filter(seat_id=seat_id, channel=channel).delete()
            if not deleted:
                return False
        return _sockets_closed(seat_id=seat_id, match_id=match_id, count=1)


def account_socket_open(*, user: AbstractBaseUser, channel: str) -> bool:
    """Record a game socket of ``user`` on this server process; False (nothing recorded) if the
    account already has ``WS_MAX_SOCKETS_PER_ACCOUNT`` open, on any server process.

    Under the user's row lock, so two sockets opening at once cannot both take the last place.
    """
    limit = settings.WS_MAX_SOCKETS_PER_ACCOUNT
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
        if AccountSocket.objects.filter(user_id=user.pk).count() >= limit:
            return False
        AccountSocket.objects.create(
            user_id=user.pk, server=servers.server_name(), channel=channel, opened=timezone.now()
        )
    return True


def account_socket_close(*, channel: str) -> None:
    """A socket recorded by ``account_socket_open`` closed."""
    AccountSocket.objects.filter(channel=channel).delete()


def _sockets_closed(*, seat_id: int, match_id: int | None, count: int) -> bool:
    """``count`` sockets of a seat closed (in a transaction): when none is left, a connected
    seat goes ``offline`` (everyone hears it) and its grace period starts. Whether it changed."""
    now = timezone.now()
    Seat.objects.filter(pk=seat_id).update(connections=Greatest(F("connections") - count, 0))
    changed = Seat.objects.filter(pk=seat_id, connections=0, state=Seat.State.CONNECTED).update(
        state=Seat.State.OFFLINE, offline_since=now
    )
    if changed:
        if match_id is not None:
            _presence_publish(match_id=match_id)
        on_commit(partial(seat_grace_schedule, seat_id=seat_id))
    return bool(changed)


def servers_gone(*, now: datetime | None = None) -> int:
    """Close the sockets held by server processes that stopped beating (killed hard, lost).

    A process that has not written its heartbeat for ``SERVER_GONE_AFTER_SECONDS`` is gone:
    each seat loses the sockets it had there, and a seat left with none goes ``offline`` (then
    ``away`` after its grace period, unless the player reconnects to another server). The
    process's row goes too. Run by the sweep; several sweeps at once are safe (the rows are
    deleted under lock, and only what one deleted is counted). Returns how many seats went
    offline.
    """
    now = now or timezone.now()
    limit = now - timedelta(seconds=settings.SERVER_GONE_AFTER_SECONDS)
    offline = 0
    for name in ServerProcess.objects.filter(beat__lt=limit).values_list("name", flat=True):
        with transaction.atomic():
            gone = ServerProcess.objects.select_for_update(skip_locked=True).filter(name=name, beat__lt=limit)
            if not gone.exists():
                continue
            counts = Counter(
                SeatSocket.objects.select_for_update().filter(server=name).values_list("seat_id", flat=True)
            )
            SeatSocket.objects.filter(server=name).delete()
            AccountSocket.objects.filter(server=name).delete()
            gone.delete()
            for seat_id, count in sorted(counts.items()):
                offline += _sockets_closed(seat_id=seat_id, match_id=_latest_match_id(seat_id), count=count)
            logger.info("server %s is gone: %d socket(s) closed", name, sum(counts.values()))
    return offline


def _latest_match_id(seat_id: int) -> int | None:
    room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return None
    return Match.objects.filter(room_id=room_id).order_by("-number").values_list("pk", flat=True).first()


def seat_grace_schedule(*, seat_id: int) -> None:
    """Queue the end of an offline seat's grace period (``AWAY_GRACE_SECONDS`` from now)."""
    enqueue.send(enqueue.SEAT_GRACE_END, seat_id, countdown=settings.AWAY_GRACE_SECONDS)


def seat_grace_end(*, seat_id: int) -> bool:
    """Mark an offline seat away once its grace period is over; whether it was marked.

    Nothing if a socket opened again meanwhile, or if it went offline again later (that time's
    own task will come). The room's latest match is locked first, as for any seat change.
    """
    room_id = Seat.objects.filter(pk=seat_id).values_list("room_id", flat=True).first()
    if room_id is None:
        return False
    match_id = Match.objects.filter(room_id=room_id).order_by("-number").values_list("pk", flat=True).first()
    limit = timezone.now() - timedelta(seconds=settings.AWAY_GRACE_SECONDS) + TIMER_TOLERANCE
    with transaction.atomic():
        match = match_locked(match_id) if match_id is not None else None
        changed = Seat.objects.filter(pk=seat_id, state=Seat.State.OFFLINE, offline_since__lte=limit).update(
            state=Seat.State.AWAY, offline_since=None
        )
        if not changed:
            return False
        if match is not None:
            rows = selectors.seat_rows(room_id=room_id)
            after = next(row for row in rows if row.pk == seat_id)
            before = after._replace(state=Seat.State.OFFLINE)
            seats_changed(match=match, state=match.game_state(), before=before, rows=rows)
    logger.info("seat %s is away: its grace period ended", seat_id)
    return True

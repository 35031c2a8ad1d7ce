"""Deal of the day: a player's one try (``daily_start``) and the day's end (``daily_reveal``).

A try is a room of its own (``Room.daily_day``; private by join code while the day lasts): the
player at seat 0, ``daily.BOT_LEVEL`` bots in the others, one match dealt from the day's secret
(``daily.day_secret``) through ``rooms.match_start``, so the table, socket, timers and bots are
the live ones. ``services.core`` ends the match after its round, keeps the round's seed out of
the database and of every frame. ``daily_reveal`` runs once a day is over (the sweep, and the
daily pages): it ends the tries still being played, writes their rounds' seeds and makes their
rooms public, so records, replays and ``/verify/`` open for everyone; once a day it also forgets
the sign-ins older than ``accounts.signins.SIGNIN_DAYS``. ``unranked_reason`` decides, when a try
starts, whether it is ranked (docs/learn.md, "One ranked try per person").
"""

from __future__ import annotations

import logging
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import SignIn
from accounts.signins import SIGNIN_DAYS, signins_prune
from games import engine
from games.learn import daily
from games.learn.models import DailyTry
from games.play.models import Match, Room, Round, Seat
from games.play.services.core import match_close
from games.play.services.rooms import _new_join_code, match_start
from games.shared.errors import DailyAlreadyPlayedError, DailyNoSuchDealError

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)


def daily_start(
    *, user: User, variant: str, at: datetime | None = None, browser: str = "", address: str = ""
) -> Match:
    """Start ``user``'s one try at today's deal of ``variant``; the match being played.

    ``browser`` and ``address``: what the site can tell of the person starting it (the browser's
    id, the HMAC of the address: ``accounts.signins``); with the account's sign-ins they decide
    whether the try is ranked (``unranked_reason``).

    Raises DailyNoSuchDealError for a variant without one, DailyAlreadyPlayedError when the
    account has a try at today's deal already (finished or not).
    """
    setup = daily.DAILY_VARIANTS.get(variant)
    if setup is None:
        raise DailyNoSuchDealError(variant=variant)
    day = daily.today(at)
    rules = daily.rules_for(variant)
    try:
        with transaction.atomic():
            if DailyTry.objects.filter(user=user, day=day, variant=variant).exists():
                raise DailyAlreadyPlayedError(day=day.isoformat(), variant=variant)
            room = Room.objects.create(
                owner=user,
                name="Deal of the day",
                variant=rules.name,
                options=dict(rules.options),
                seat_count=setup.seats,
                turn_seconds=daily.TURN_SECONDS,
                join_code=_new_join_code(),
                daily_day=day,
            )
            Seat.objects.bulk_create(
                [
                    Seat(room=room, index=0, user=user),
                    *(
                        Seat(room=room, index=index, is_bot=True, bot_level=daily.BOT_LEVEL)
                        for index in range(1, setup.seats)
                    ),
                ]
            )
            match = match_start(room=room, secret=daily.day_secret(day, variant))
            DailyTry.objects.create(
                user=user,
                day=day,
                variant=variant,
                match=match,
                browser=browser,
                address=address,
                unranked=unranked_reason(
                    user=user, day=day, variant=variant, browser=browser, address=address
                ),
            )
    except IntegrityError as error:  # a second try sent at the same moment
        raise DailyAlreadyPlayedError(day=day.isoformat(), variant=variant) from error
    return match


def unranked_reason(*, user: User, day: date, variant: str, browser: str = "", address: str = "") -> str:
    """Why a try ``user`` starts now at the deal of ``day`` and ``variant`` is not ranked, or ""
    (docs/learn.md, "One ranked try per person"):

    * ``second_account``: another account played this deal first from a browser or an address
      this account has used: the one it starts from, or one it signed in from in the last
      ``SIGNIN_DAYS`` days. The other account's places are its sign-ins of those days and the
      places it started its try from.
    * ``new_account``: the account was made on the day of the deal (UTC).
    """
    since = timezone.now() - timedelta(days=SIGNIN_DAYS)
    mine = SignIn.objects.filter(user=user, at__gte=since)
    browsers = {value for value in [browser, *mine.values_list("browser", flat=True)] if value}
    addresses = {value for value in [address, *mine.values_list("address", flat=True)] if value}
    others = DailyTry.objects.filter(day=day, variant=variant).exclude(user=user)
    if browsers or addresses:
        seen_together = (
            SignIn.objects.filter(Q(browser__in=browsers) | Q(address__in=addresses), at__gte=since)
            .exclude(user=user)
            .values("user_id")
        )
        shared = Q(user_id__in=seen_together) | Q(browser__in=browsers) | Q(address__in=addresses)
        if others.filter(shared).exists():
            return DailyTry.Unranked.SECOND_ACCOUNT
    if daily.today(user.date_joined) >= day:
        return DailyTry.Unranked.NEW_ACCOUNT
    return DailyTry.Unranked.RANKED


def daily_reveal(*, at: datetime | None = None) -> int:
    """Open the tries of every day that is over: end those still being played (unscored), write
    their finished rounds' seeds, make their rooms public. Returns how many rooms it opened.

    Idempotent and cheap when there is nothing to do (one indexed query).
    """
    today = daily.today(at)
    # Once a day (any process): forget the sign-ins older than the rule looks back.
    if cache.add(f"remi:signins-pruned:{today.isoformat()}", 1, timeout=2 * 24 * 3600):
        signins_prune()
    rooms = list(
        Room.objects.filter(daily_day__lt=today, join_code__isnull=False).values_list("pk", flat=True)
    )
    if not rooms:
        return 0
    for match_id in Match.objects.filter(room_id__in=rooms, status=Match.Status.PLAYING).values_list(
        "pk", flat=True
    ):
        match_close(match_id=match_id)
    with transaction.atomic():
        finished = Round.objects.filter(
            match__room_id__in=rooms, finished__isnull=False, revealed_seed__isnull=True
        ).select_related("match")
        for round_ in finished:
            seed = engine.deal_seed(round_.match.secret_bytes, round_.number)
            Round.objects.filter(pk=round_.pk).update(revealed_seed=seed.hex())
        opened = Room.objects.filter(pk__in=rooms).update(join_code=None)
    logger.info("deal of the day: %s tries of past days revealed", opened)
    return opened

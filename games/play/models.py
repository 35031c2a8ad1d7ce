"""Rooms, seats, matches and their append-only move log.

A match's authoritative state is the engine's ``state_to_json`` document in ``Match.state`` with the
secret taken out: the secret lives only in ``Match.secret``, which no frame, view or admin page
shows. Only ``games.play.services`` writes these rows; ``games.play.selectors`` reads them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop

from games import engine


class Room(models.Model):
    class Status(models.TextChoices):
        OPEN = "open"
        PLAYING = "playing"
        FINISHED = "finished"
        CLOSED = "closed"

    name = models.CharField(max_length=80)
    variant = models.CharField(max_length=32)
    #: The engine's full, normalised options (snake_case names, defaults filled in).
    options = models.JSONField(default=dict, blank=True)
    seat_count = models.PositiveSmallIntegerField()
    turn_seconds = models.PositiveIntegerField(default=60)
    ranked = models.BooleanField(default=False)
    #: Set for private rooms: whoever knows the code may join.
    join_code = models.CharField(max_length=12, unique=True, null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.OPEN, db_index=True)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="owned_rooms")
    created = models.DateTimeField(auto_now_add=True)
    #: Set for the solo room of one try at a deal of the day (``games.learn.daily``): the day (UTC) whose
    #: deal it plays. Such a room is private (``join_code``) and its seeds sealed until the day is
    #: over and ``daily_services.daily_reveal`` has revealed them (it clears ``join_code``).
    daily_day = models.DateField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ("-created", "-id")

    def __str__(self) -> str:
        return f"{self.name} ({self.variant})"

    #: The name ``seed_demo`` gives its rooms, in English (stored); shown translated.
    DEMO_NAME = gettext_noop("%(title)s with bots")

    @property
    def daily_sealed(self) -> bool:
        """A deal of the day's room whose day has not been revealed yet: no seed, record or replay."""
        return self.daily_day is not None and self.join_code is not None

    @property
    def display_name(self) -> str:
        """The name as pages show it: a demo room's (``DEMO_NAME`` with its variant's title, as
        ``seed_demo`` stores it) in the page's language; a deal of the day's with its variant and
        day; any other name as its owner wrote it."""
        if self.daily_day is not None and self.variant in engine.variant_names():
            return gettext("Deal of the day: %(title)s, %(day)s") % {
                "title": gettext(engine.variant(self.variant).title),
                "day": self.daily_day.isoformat(),
            }
        title = engine.variant(self.variant).title if self.variant in engine.variant_names() else None
        if title is not None and self.name == self.DEMO_NAME % {"title": title}:
            return gettext(self.DEMO_NAME) % {"title": gettext(title)}
        return self.name

    def rules(self) -> engine.Rules:
        return engine.variant(self.variant, **self.options)


class Seat(models.Model):
    class BotLevel(models.TextChoices):
        EASY = "easy"
        NORMAL = "normal"
        HARD = "hard"

    class State(models.TextChoices):
        """Whether the person in a seat is at the table (a bot seat stays ``connected``).

        ``offline``: every socket of the seat is gone, for less than ``AWAY_GRACE_SECONDS``; the
        turn timer still runs. ``away``: the seat's player left (the ``away`` command, the grace
        period ran out, or ``AWAY_AFTER_TIMEOUTS`` turns in a row timed out): the normal bot plays
        the seat's turns as a stand-in until the player is back (RMI-NET-3, RMI-NET-4).
        """

        CONNECTED = "connected"
        OFFLINE = "offline"
        AWAY = "away"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    is_bot = models.BooleanField(default=False)
    bot_level = models.CharField(max_length=8, choices=BotLevel.choices, blank=True)
    state = models.CharField(max_length=16, choices=State.choices, default=State.CONNECTED)
    #: Turns in a row that ran out of time (the timer's stand-in played them); a move or "back"
    #: resets it. At ``AWAY_AFTER_TIMEOUTS`` the seat is marked away.
    timeouts = models.PositiveSmallIntegerField(default=0)
    #: Open sockets of this seat's player (several tabs); the seat goes offline when the last closes.
    connections = models.PositiveSmallIntegerField(default=0)
    #: When the seat went offline (its grace period runs from here); None unless ``offline``.
    offline_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("room", "index")
        constraints = (
            models.UniqueConstraint(fields=("room", "index"), name="seat_unique_index"),
            models.UniqueConstraint(fields=("room", "user"), name="seat_unique_user"),
        )

    def __str__(self) -> str:
        return f"{self.room_id}#{self.index}"

    @property
    def is_free(self) -> bool:
        return self.user_id is None and not self.is_bot


class ServerProcess(models.Model):
    """A server process that holds sockets (a daphne process), alive while it beats.

    Each one writes ``beat`` every ``SERVER_HEARTBEAT_SECONDS`` (``games.play.servers``). One that has
    not beaten for ``SERVER_GONE_AFTER_SECONDS`` is gone (killed hard, its machine lost): the
    sweep closes the sockets it held (``services.servers_gone``), so that their seats go offline
    and then away as if their players had closed the tab.
    """

    name = models.CharField(max_length=120, unique=True)
    started = models.DateTimeField()
    beat = models.DateTimeField()

    def __str__(self) -> str:
        return self.name


class SeatSocket(models.Model):
    """One open socket of a seat's player: its channel, and the server process that holds it.

    ``Seat.connections`` counts them; the rows say which server each is on, so that the sockets
    of a server that is gone can be closed without touching the others.
    """

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    server = models.CharField(max_length=120, db_index=True)
    channel = models.CharField(max_length=200, unique=True)
    opened = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.seat_id} on {self.server}"


class AccountSocket(models.Model):
    """One open game socket (seated or watching) of an account, on the server process that holds it.

    Counted when an account opens another (at most ``WS_MAX_SOCKETS_PER_ACCOUNT`` across every
    server process, docs/protocol.md "Limits"); removed when the socket closes, by the sweep when
    its server is gone (``services.servers_gone``), and all at once when the single server of the
    embedded mode starts (``services.presence_reset``).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    server = models.CharField(max_length=120, db_index=True)
    channel = models.CharField(max_length=200, unique=True)
    opened = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.user_id} on {self.server}"


class RatingStatus(models.TextChoices):
    """What a match did to ratings (``Match.rating_status``). Only ``games.ranked.ratings`` sets it."""

    #: Still being played, or over in a room that is not ranked.
    NONE = "", "not rated"
    #: Over in a ranked room: its ``RatingChange`` rows were applied when it ended.
    RATED = "rated", "rated"
    #: Ended before the first discard of its first round: it counts for nobody.
    ABORTED = "aborted", "aborted (ended before the first discard)"
    #: Rated once, then annulled by staff: its changes are gone and ratings were replayed.
    ANNULLED = "annulled", "annulled by staff"


class Match(models.Model):
    class Status(models.TextChoices):
        PLAYING = "playing"
        FINISHED = "finished"
        ABANDONED = "abandoned"

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveIntegerField()
    #: ``engine.state_to_json`` without its "secret" (see ``game_state``).
    state = models.JSONField()
    #: Moves applied so far; a command must name the version it saw.
    version = models.PositiveIntegerField(default=0)
    #: The match secret that seeds every deal. Never leaves the server before the match is over.
    secret = models.BinaryField(max_length=64, editable=False)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PLAYING, db_index=True)
    winners = models.JSONField(default=list, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    #: When the current turn began (the turn clock shown to clients). During a pause between
    #: rounds it is ``resume_at``: the next turn begins when the pause ends.
    turn_started = models.DateTimeField(null=True, blank=True)
    #: When the move awaited at ``version`` is due: for a person, the end of the turn
    #: (``turn_started`` + the room's ``turn_seconds``), when the timer's stand-in plays the rest of
    #: the turn; for a bot or an away seat, when its move is scheduled. None once the match is
    #: over. The periodic sweep fires deadlines whose task was lost (``services.sweep_overdue``).
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the turn timer queued last for this match fires (``games.tasks.turn_timeout``), or
    #: None. A turn that begins while a timer fires before its deadline queues none of its own:
    #: that timer, finding a later turn being played, queues the timer of that turn
    #: (``services.turn_overdue``). One timer task per turn time and table, not one per turn.
    timer_at = models.DateTimeField(null=True, blank=True)
    #: Set when a round ends and the next one is dealt: no move is accepted before this time.
    resume_at = models.DateTimeField(null=True, blank=True)
    #: What the match did to ratings (``RatingStatus``); set once, when it ends (``games.ranked.ratings``).
    rating_status = models.CharField(
        max_length=16, choices=RatingStatus.choices, blank=True, default=RatingStatus.NONE, db_index=True
    )
    #: "Play again" at the end of the match (``services.rematch_vote``): seat index (as text) ->
    #: True (agrees) or False (declines). The room's next match starts once every person agrees.
    rematch_votes = models.JSONField(default=dict, blank=True)

    class Meta:
        verbose_name_plural = "matches"
        ordering = ("room", "number")
        constraints = (models.UniqueConstraint(fields=("room", "number"), name="match_unique_number"),)

    def __str__(self) -> str:
        return f"match {self.pk} (room {self.room_id} #{self.number})"

    @property
    def secret_bytes(self) -> bytes:
        return bytes(self.secret)  # PostgreSQL hands back a memoryview

    def game_state(self) -> engine.GameState:
        return engine.state_from_json({**self.state, "secret": self.secret_bytes.hex()})

    def set_game_state(self, state: engine.GameState) -> None:
        self.state = state_document(state)


def state_document(state: engine.GameState) -> dict[str, Any]:
    """What ``Match.state`` stores: the engine's JSON minus the secret."""
    document = engine.state_to_json(state)
    del document["secret"]
    return document


class Round(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    #: sha256 hex of the round's seed, published before the round is dealt to anyone.
    commitment = models.CharField(max_length=64)
    #: The round's seed in hex, once the round is over (its sha256 is the commitment).
    revealed_seed = models.CharField(max_length=64, null=True, blank=True)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("match", "number")
        constraints = (models.UniqueConstraint(fields=("match", "number"), name="round_unique_number"),)

    def __str__(self) -> str:
        return f"round {self.number} of match {self.match_id}"


class MoveRecord(models.Model):
    """One accepted move. Append-only: with the secret, the log replays the match exactly."""

    class Actor(models.TextChoices):
        PLAYER = "player"
        BOT = "bot"
        STANDIN = "standin"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="moves")
    #: The match version after this move (1 for the first move).
    seq = models.PositiveIntegerField()
    round_number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    actor = models.CharField(max_length=8, choices=Actor.choices, default=Actor.PLAYER)
    #: The ``id`` the client gave the command (None for bots and callers without one): a command
    #: resent with an id already recorded for this seat is not applied again.
    command_id = models.CharField(max_length=64, null=True, blank=True)
    #: The events the move made, each with its audience (``{"kind", "to", "data"}``; ``to``:
    #: None for everyone, else the one seat that may see it): the table's move log of a round,
    #: sent to a page opened in the middle of it (``selectors.round_log``), filtered per seat
    #: exactly as the live frames are (``engine.events_for``). Empty for moves stored before 0014.
    events = models.JSONField(default=list, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("match", "seq")
        constraints = (
            models.UniqueConstraint(fields=("match", "seq"), name="move_unique_seq"),
            models.UniqueConstraint(
                fields=("match", "seat", "command_id"),
                condition=models.Q(command_id__isnull=False),
                name="move_unique_command_id",
            ),
        )

    def __str__(self) -> str:
        return f"move {self.seq} of match {self.match_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise ValueError("MoveRecord is append-only")
        super().save(*args, **kwargs)


class ScoreLine(models.Model):
    """One seat's score for one round, as the engine's RoundResult line, plus the running total."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="score_lines")
    seat = models.PositiveSmallIntegerField()
    points = models.IntegerField()
    hand = models.IntegerField(default=0)
    table = models.IntegerField(default=0)
    bonus = models.IntegerField(default=0)
    atu_bonus = models.IntegerField(default=0)
    multiplier = models.IntegerField(default=1)
    notes = models.JSONField(default=list, blank=True)
    #: Site chips the seat won or paid this round (Remik 40's prize pool, Knock-108's stakes).
    chips = models.IntegerField(null=True, blank=True)
    total = models.IntegerField()

    class Meta:
        ordering = ("round", "seat")
        constraints = (models.UniqueConstraint(fields=("round", "seat"), name="scoreline_unique_seat"),)

    def __str__(self) -> str:
        return f"{self.round}: seat {self.seat} {self.points:+d} = {self.total}"

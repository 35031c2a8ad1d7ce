"""Rooms, seats, matches and their append-only move log.

A match's authoritative state is the engine's ``state_to_json`` document in ``Match.state`` with the
secret taken out: the secret lives only in ``Match.secret``, which no frame, view or admin page
shows. Only ``games.services`` writes these rows; ``games.selectors`` reads them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

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
    #: Set for the solo room of one try at a deal of the day (``games.daily``): the day (UTC) whose
    #: deal it plays. Such a room is private (``join_code``) and its seeds sealed until the day is
    #: over and ``services.daily_reveal`` has revealed them (it clears ``join_code``).
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

    Each one writes ``beat`` every ``SERVER_HEARTBEAT_SECONDS`` (``games.servers``). One that has
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
    """What a match did to ratings (``Match.rating_status``). Only ``games.ratings`` sets it."""

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
    #: What the match did to ratings (``RatingStatus``); set once, when it ends (``games.ratings``).
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


class RoundAnalysis(models.Model):
    """One seat's decisions in a finished round, judged by the engine (``games.engine.analysis``).

    Asked for by the seat's player on the round's replay (``services.analysis_request``), computed
    by the Celery task ``games.tasks.round_analyse``; ``report`` is the engine's
    ``RoundReport.to_json()`` once ``status`` is done. ``done``/``total`` count the seat's moves
    looked at so far, for the progress shown while it runs.
    """

    class Status(models.TextChoices):
        PENDING = "pending"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="analyses")
    seat = models.PositiveSmallIntegerField()
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    report = models.JSONField(null=True, blank=True)
    #: CPU seconds the analysis took (the budget, docs/learn.md).
    cpu_seconds = models.FloatField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("round", "seat")
        constraints = (models.UniqueConstraint(fields=("round", "seat"), name="analysis_unique_seat"),)

    def __str__(self) -> str:
        return f"analysis of seat {self.seat} in {self.round}"


# --- ratings (ranked rooms) -------------------------------------------------------------------


class Rating(models.Model):
    """A player's current openskill rating in one category (a variant; Remi by its opening).

    ``mu`` and ``sigma`` are openskill's (PlackettLuce, defaults 25 and 25/3); ``ordinal`` is
    ``mu - 3 sigma``, kept for ordering. The site shows ``games.ratings.display``. Derived from the
    ``RatingChange`` rows: ``games.ratings.category_replay`` rebuilds it from them.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    #: ``games.ratings.category_for``: ``remik51``, ``gin``, ``remi-45``, ...
    category = models.CharField(max_length=40)
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    #: Rated matches played, and won (alone or tied first).
    matches = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("category", "-ordinal", "user")
        constraints = (models.UniqueConstraint(fields=("user", "category"), name="rating_unique_category"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.category}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one ranked match did to one player's rating: before and after, and why.

    One row per (match, user), written in the transaction that records the match's end.
    ``rank`` (1 = first; ties share a rank) and ``standin`` are the inputs a replay needs.
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    category = models.CharField(max_length=40, db_index=True)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    won = models.BooleanField(default=False)
    #: A stand-in bot played more than half of this player's turns: the change is clamped to <= 0.
    standin = models.BooleanField(default=False)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    ordinal_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    ordinal_after = models.FloatField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("match", "seat")
        constraints = (models.UniqueConstraint(fields=("match", "user"), name="ratingchange_unique_user"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.match}: {self.ordinal_before:.2f} -> {self.ordinal_after:.2f}"


# --- chat (docs/protocol.md, "Chat") ------------------------------------------------------------


class ChatMessage(models.Model):
    """One line of a room's chat, by a logged-in player or spectator (``services.chat_post``).

    Stored as typed (trimmed, control characters removed, at most ``MAX_LENGTH`` characters);
    the page shows it as text, never as markup. Staff may delete it: it is then hidden from
    everyone (``deleted``), and kept with its reports for the record.
    """

    MAX_LENGTH = 300

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)
    deleted = models.BooleanField(default=False)
    deleted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ("room", "pk")
        indexes = (models.Index(fields=("room", "deleted", "-id"), name="chat_room_newest"),)

    def __str__(self) -> str:
        return f"{self.author_id} in room {self.room_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player does not want to read another one's chat: kept per account, for every room."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = (models.UniqueConstraint(fields=("user", "muted"), name="chatmute_unique"),)

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"


class ChatReport(models.Model):
    """A player reported a chat message to staff (seen in the admin)."""

    message = models.ForeignKey(ChatMessage, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    #: Staff have looked at it (the message deleted, or left as it is).
    handled = models.BooleanField(default=False, db_index=True)

    class Meta:
        ordering = ("handled", "-created")
        constraints = (models.UniqueConstraint(fields=("message", "reporter"), name="chatreport_unique"),)

    def __str__(self) -> str:
        return f"report of message {self.message_id} by {self.reporter_id}"


class ChatSilence(models.Model):
    """Staff muted an account in every chat until ``until`` (None: until lifted)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    until = models.DateTimeField(null=True, blank=True)
    reason = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user_id} silenced until {self.until or 'lifted'}"


# --- puzzles (docs/learn.md, "Puzzles") -------------------------------------------------------------


class PuzzleKind(models.TextChoices):
    OPENING = "opening", _("Find the opening")
    JOKER = "joker", _("Open and buy back a joker")
    KNOCK = "knock", _("Knock or draw on")
    DISCARD = "discard", _("The best discard")


class Puzzle(models.Model):
    """A position from a bot game (or a match of the site) with an answer the engine checks
    (``games.puzzles.check``). ``state`` is the engine's full state (``state_to_json``): it never
    leaves the server; the page gets ``view_for(state, seat)`` only. ``mu``/``sigma``: the
    puzzle's openskill rating in its kind (a player against the puzzle, a two-player match)."""

    kind = models.CharField(max_length=20, choices=PuzzleKind.choices, db_index=True)
    variant = models.CharField(max_length=40)
    options = models.JSONField(default=dict, blank=True)
    state = models.JSONField()
    seat = models.PositiveSmallIntegerField()
    #: One right answer (the wire's move JSON); the engine accepts others too.
    answer = models.JSONField()
    #: The engine's facts about ``answer`` (``games.puzzles.explain``): melds, points, minimum.
    explanation = models.JSONField(default=dict)
    #: Where it comes from: ``{"seed", "game", "moves", "players"}`` for a bot game.
    source = models.JSONField(default=dict)
    #: ``games.puzzles.position_key``: a position is stored once.
    key = models.CharField(max_length=40, unique=True)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    attempts = models.PositiveIntegerField(default=0)
    solved = models.PositiveIntegerField(default=0)
    #: Withdrawn by staff (after a report): never offered again.
    withdrawn = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        indexes = (models.Index(fields=("kind", "mu"), name="puzzle_kind_mu"),)

    def __str__(self) -> str:
        return f"puzzle {self.pk} ({self.kind}, {self.variant})"


class PuzzleRating(models.Model):
    """A player's openskill rating in one kind of puzzle (mu 25, sigma 25/3 to start)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_ratings"
    )
    kind = models.CharField(max_length=20, choices=PuzzleKind.choices)
    mu = models.FloatField(default=25.0)
    sigma = models.FloatField(default=25.0 / 3)
    solved = models.PositiveIntegerField(default=0)
    failed = models.PositiveIntegerField(default=0)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("user", "kind")
        constraints = (models.UniqueConstraint(fields=("user", "kind"), name="puzzlerating_unique_kind"),)

    def __str__(self) -> str:
        return f"{self.user_id} in {self.kind} puzzles: {self.mu:.2f} ± {self.sigma:.2f}"


class PuzzleAttempt(models.Model):
    """A logged-in player's first answer to a puzzle (the one that is rated)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_attempts"
    )
    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts_made")
    solved = models.BooleanField()
    #: ``games.puzzles.check``'s code: ``solved``, ``not_an_opening``, an engine refusal code, ...
    code = models.CharField(max_length=40)
    answer = models.JSONField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created", "-id")
        constraints = (models.UniqueConstraint(fields=("user", "puzzle"), name="puzzleattempt_unique"),)

    def __str__(self) -> str:
        return f"{self.user_id} on puzzle {self.puzzle_id}: {'solved' if self.solved else 'failed'}"


class PuzzleReport(models.Model):
    """A player says a puzzle is wrong; staff see it in the admin and may withdraw the puzzle."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="puzzle_reports"
    )
    reason = models.CharField(max_length=500)
    created = models.DateTimeField(auto_now_add=True)
    resolved = models.BooleanField(default=False)

    class Meta:
        ordering = ("resolved", "-created")
        constraints = (models.UniqueConstraint(fields=("puzzle", "reporter"), name="puzzlereport_unique"),)

    def __str__(self) -> str:
        return f"report on puzzle {self.puzzle_id} by {self.reporter_id}"


class PuzzleBatch(models.Model):
    """A run of the generator (``manage.py puzzles_generate``, the Celery task, the start-up seed):
    its seed, how many it aims at and has stored so far (the progress /puzzles/ shows)."""

    seed = models.CharField(max_length=80)
    target = models.PositiveIntegerField()
    made = models.PositiveIntegerField(default=0)
    games = models.PositiveIntegerField(default=0)
    started = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    error = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ("-started", "-id")

    def __str__(self) -> str:
        return f"puzzle batch {self.seed}: {self.made}/{self.target}"


# --- deal of the day (games.daily) ------------------------------------------------------------------


class DailyTry(models.Model):
    """One account's one try at the deal of one day (UTC) and variant: a solo match of its own room.

    At most one per account, day and variant (``services.daily_start`` refuses a second). Its
    result is the round's score line of seat 0, where every player of the deal sits.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_tries")
    day = models.DateField()
    variant = models.CharField(max_length=32)
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="daily_try")
    created = models.DateTimeField(auto_now_add=True)

    class Unranked(models.TextChoices):
        """Why a try is not ranked, decided when it starts (docs/learn.md, "One ranked try per
        person"). A try the stand-in played part of is not ranked either; that one is read from
        its moves (``games.daily``), as it can happen at any time of the try."""

        RANKED = "", "ranked"
        SECOND_ACCOUNT = "second_account", "another account of the same browser or address played first"
        NEW_ACCOUNT = "new_account", "an account made on the day of the deal"

    unranked = models.CharField(max_length=16, choices=Unranked.choices, default="", blank=True)
    #: What the site could tell of the person at the start of the try (``accounts.signins``): the
    #: browser's id and the HMAC of the address; compared with other accounts' tries of the deal.
    browser = models.CharField(max_length=64, default="", blank=True)
    address = models.CharField(max_length=64, default="", blank=True)

    class Meta:
        ordering = ("day", "variant", "pk")
        constraints = (
            models.UniqueConstraint(fields=("user", "day", "variant"), name="dailytry_unique_user"),
        )
        indexes = (models.Index(fields=("variant", "day"), name="dailytry_variant_day"),)

    def __str__(self) -> str:
        return f"{self.user_id} on {self.day} ({self.variant})"

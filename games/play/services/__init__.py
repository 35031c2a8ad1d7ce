"""Everything that writes play's data: rooms, seats, matches, moves, timers and presence.

Callers use the package as one module (``services.move_submit``); the parts are:

* ``core``: the live-match core: the match's row lock, the version check, the engine's
  transition recorded (state, move log, scores and revealed seed at a round's end), when the next
  move is due, and after commit the frames and what plays next;
* ``rooms``: rooms, seats and the start of matches;
* ``moves``: a person's, a bot's and a stand-in's moves;
* ``presence``: sockets, away and back, gone server processes, sockets per account;
* ``clock``: turn timers and the sweeps;
* ``rematch``: "play again" at a finished match.

The other domains write through services of their own (docs/architecture.md, "The house by
domain"): a room's chat (``games.chat.services``), a deal of the day's tries and the analysis of a
round (``games.learn.services``).

Each service is one transaction. A move locks its ``Match`` row
(``select_for_update(no_key=True)``), checks the version the client saw, lets the engine decide,
then writes the new state, the move log and, at the end of a round, the scores and the revealed
seed. Frames go out in ``transaction.on_commit``, so nobody hears of a move that was rolled back;
in the same callback, when the seat to move next is a bot, its move is queued as a Celery task
(``games.tasks.bot_move``) for the new version. Tasks are queued by name (``games.shared.enqueue``):
this package never imports ``games.tasks``, which imports it.

Between rounds there is a pause (``ROUND_PAUSE_SECONDS``): the move that ends a round deals the
next one and sets ``Match.resume_at``; no move is accepted before then (``RoundPauseError``).

Turn timers, away seats and stand-ins (RMI-NET-3, RMI-NET-4): every commit stores when the move
awaited is due (``Match.turn_deadline``) and, after commit, schedules what plays it: the bot's move
for a bot or an away seat (``games.tasks.bot_move``), or the turn timer for a person
(``games.tasks.turn_timeout``, at the deadline). Both carry the version, so a stale one does
nothing. A timer that fires plays the rest of the turn with the normal bot (``standin`` in the
log) and counts the timeout; ``AWAY_AFTER_TIMEOUTS`` in a row mark the seat away, and an away seat
is played without waiting. The ``away`` and ``back`` commands, the sockets (``seat_connect``,
``seat_disconnect``: offline, then away after ``AWAY_GRACE_SECONDS``) and any move change a seat's
presence; everyone gets a frame with the seats' states. Each worker runs ``sweep_overdue`` every
``TURN_SWEEP_SECONDS``: it fires deadlines and grace periods whose task was lost.
"""

from games.play.services.clock import (
    SWEEP_LATE_SECONDS,
    match_schedule,
    resume_pending,
    sweep_overdue,
    timers_resume,
    turn_overdue,
)
from games.play.services.core import bot_move_schedule, match_close, turn_timer_schedule
from games.play.services.moves import AlreadyApplied, bot_move_play, move_submit, turn_end_stuck
from games.play.services.presence import (
    account_socket_close,
    account_socket_open,
    presence_reset,
    seat_away,
    seat_back,
    seat_connect,
    seat_disconnect,
    seat_grace_end,
    seat_grace_schedule,
    servers_gone,
)
from games.play.services.rematch import rematch_vote
from games.play.services.rooms import (
    TURN_SECONDS_RANGE,
    match_start,
    match_start_from_room,
    room_close,
    room_create,
    room_open_seated,
    seat_add_bot,
    seat_leave,
    seat_remove_player,
    seat_take,
)

__all__ = [
    "SWEEP_LATE_SECONDS",
    "TURN_SECONDS_RANGE",
    "AlreadyApplied",
    "account_socket_close",
    "account_socket_open",
    "bot_move_play",
    "bot_move_schedule",
    "match_close",
    "match_schedule",
    "match_start",
    "match_start_from_room",
    "move_submit",
    "presence_reset",
    "rematch_vote",
    "resume_pending",
    "room_close",
    "room_create",
    "room_open_seated",
    "seat_add_bot",
    "seat_away",
    "seat_back",
    "seat_connect",
    "seat_disconnect",
    "seat_grace_end",
    "seat_grace_schedule",
    "seat_leave",
    "seat_remove_player",
    "seat_take",
    "servers_gone",
    "sweep_overdue",
    "timers_resume",
    "turn_end_stuck",
    "turn_overdue",
    "turn_timer_schedule",
]

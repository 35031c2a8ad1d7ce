"""Application errors above the rules engine: who may act where, and when.

Every error leaves in the engine's one shape (:class:`games.engine.CodedError`): a stable
snake_case ``code`` (the browser maps codes to text), a plain English message, a ``rule`` id where
there is one and structured ``fields``; ``to_dict()`` is what a frame or an HTTP response carries.
Illegal moves are the engine's ``IllegalMoveError`` family and are not repeated here.

Pure Python: ``games.play.protocol`` turns these into frames and must not import Django.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from games.engine import CodedError


class GameError(CodedError):
    """Base class: the request is well-formed and the move may be legal, but not here or now."""

    code: ClassVar[str] = "game_error"
    default_message: ClassVar[str] = "this cannot be done here"

    def __init__(self, message: str | None = None, **fields: Any) -> None:
        super().__init__(message or self.default_message, **fields)


class NotSeatedError(GameError):
    code = "not_seated"
    default_message = "you have no seat at this table"


class StaleVersionError(GameError):
    """The client acted on an old version of the game; it must resync to ``current``."""

    code = "stale_version"

    def __init__(self, current: int) -> None:
        super().__init__(f"the game is at version {current}", current=current)
        self.current = current


class RoomFullError(GameError):
    code = "room_full"
    default_message = "every seat is taken"


class SeatTakenError(GameError):
    code = "seat_taken"
    default_message = "that seat is taken or does not exist"


class AlreadySeatedError(GameError):
    code = "already_seated"
    default_message = "you already have a seat at this table"


class NotOwnerError(GameError):
    code = "not_owner"
    default_message = "only the room's owner may do this"


class RoomNotOpenError(GameError):
    code = "room_not_open"
    default_message = "the room is not open for seating or a new match"


class RoomNotReadyError(GameError):
    code = "room_not_ready"
    default_message = "every seat needs a player or a bot before the match starts"


class RankedNoBotsError(GameError):
    """A ranked room seats only people; a bot may stand in for an away player, never sit down."""

    code = "ranked_no_bots"
    default_message = "a ranked room seats only people: no bot may sit down"


class NotBotTurnError(GameError):
    code = "not_bot_turn"
    default_message = "the seat to move is not a bot"


class RoundPauseError(GameError):
    """A round has just ended and the next one is dealt: no move before ``resume_at``."""

    code = "round_pause"

    def __init__(self, resume_at: datetime) -> None:
        super().__init__("the next round has not started yet", resume_at=epoch_ms(resume_at))
        self.resume_at = resume_at


class MatchOverError(GameError):
    code = "match_over"
    default_message = "the match is over"


def epoch_ms(moment: datetime) -> int:
    """An aware datetime as milliseconds since the Unix epoch (what frames carry)."""
    return round(moment.timestamp() * 1000)


class RoomNotFoundError(GameError):
    code = "room_not_found"
    default_message = "no such room"


class MatchNotFoundError(GameError):
    code = "match_not_found"
    default_message = "no such match"


class BadOptionsError(GameError):
    """The variant or its options were refused; the message is the engine's ValueError text."""

    code = "bad_options"
    default_message = "these table options are not allowed"


class ChatEmptyError(GameError):
    code = "chat_empty"
    default_message = "a chat message needs some text"


class ChatTooLongError(GameError):
    code = "chat_too_long"

    def __init__(self, *, limit: int) -> None:
        super().__init__(f"a chat message is at most {limit} characters", limit=limit)


class ChatTooManyMarksError(GameError):
    """A chat line with more than ``limit`` combining marks on one character (after NFC)."""

    code = "chat_too_many_marks"

    def __init__(self, *, limit: int) -> None:
        super().__init__(f"at most {limit} accents or other combining marks on one letter", limit=limit)


class ChatRateLimitedError(GameError):
    """Chat has its own budget within the socket's: a burst, then so many a minute."""

    code = "chat_rate_limited"

    def __init__(self, *, per_minute: float, burst: int, retry_after: float) -> None:
        super().__init__(
            f"too many chat messages: at most {per_minute:g} a minute (bursts of {burst})",
            retry_after=round(retry_after, 3),
        )


class ChatSilencedError(GameError):
    """Staff muted the account in chat (``ChatSilence``)."""

    code = "chat_silenced"
    default_message = "staff have muted you in chat"


class ChatMessageNotFoundError(GameError):
    code = "chat_message_not_found"
    default_message = "no such chat message in this room"


class MuteTargetError(GameError):
    code = "mute_target"
    default_message = "name another player of this site (not yourself) to mute"


class NotStaffError(GameError):
    code = "not_staff"
    default_message = "only staff may do this"


class RoundInPlayError(GameError):
    """An analysis of a round still being played (it would be computed from hidden cards)."""

    code = "round_in_play"
    default_message = "this round is still being played: it can be analysed once it is over"


class RoundNotFoundError(GameError):
    code = "round_not_found"
    default_message = "there is no such round"


class AnalysisRateLimitedError(GameError):
    """An account asked for more analyses in the last hour than ``ANALYSES_PER_ACCOUNT_PER_HOUR``
    (docs/learn.md, "Analysis of a round"); ``retry_after``: seconds until the oldest one counts no more."""

    code = "analysis_rate_limited"
    default_message = "you have asked for enough analyses for this hour: try again later"


class AnalysisQueueFullError(GameError):
    """``ANALYSES_WAITING`` analyses are waiting or running on the site: none is queued now."""

    code = "analysis_queue_full"
    default_message = "too many analyses are waiting: try again in a few minutes"


# --- replays and checks of uploaded records (docs/record.md, "Limits") -------------------------------


class ReplayRateLimitedError(GameError):
    """An address (or account) sent more records or asked for more replay pages than its budget;
    ``retry_after``: seconds until it may again."""

    code = "replay_rate_limited"
    default_message = "too many replays from this address: wait a moment"


class ReplayBusyError(GameError):
    """One replay or check at a time per address, and a few waiting per server process."""

    code = "replay_busy"
    default_message = "another replay is being prepared: wait a moment and try again"


class ReplayTooLongError(GameError):
    """A round of an uploaded record holds more moves than ``REPLAY_MAX_ROUND_MOVES``."""

    code = "replay_too_long"
    default_message = "this round has too many moves to be replayed here"


class RematchUnavailableError(GameError):
    """ "Play again" only at the room's latest match once it is finished (not abandoned)."""

    code = "rematch_unavailable"
    default_message = "there is no finished match to play again here"


# --- deal of the day (games.learn.daily) ------------------------------------------------------------------


class DailyAlreadyPlayedError(GameError):
    """One try per account at each deal of the day: this account has played (or is playing) it."""

    code = "daily_already_played"
    default_message = "you have already played this deal of the day: one try per day"


class DailyNoSuchDealError(GameError):
    code = "daily_no_such_deal"
    default_message = "there is no deal of the day for this variant"


class DailyAnalysisSealedError(GameError):
    """The analysis of a deal of the day's try waits for the end of its day (UTC), as its seed and
    replay do: no preview of the deal through the analysis (docs/learn.md)."""

    code = "daily_analysis_sealed"
    default_message = "the analysis of a deal of the day opens when the day is over, with its seed and replay"


class DailySealedError(GameError):
    """A deal of the day's seed, record and replays wait for the end of its day (UTC)."""

    code = "daily_sealed"
    default_message = "the deal of the day is sealed until the day is over: its record comes then"


__all__ = [
    "AlreadySeatedError",
    "AnalysisQueueFullError",
    "AnalysisRateLimitedError",
    "BadOptionsError",
    "ChatEmptyError",
    "ChatMessageNotFoundError",
    "ChatRateLimitedError",
    "ChatSilencedError",
    "ChatTooLongError",
    "ChatTooManyMarksError",
    "DailyAlreadyPlayedError",
    "DailyAnalysisSealedError",
    "DailyNoSuchDealError",
    "DailySealedError",
    "GameError",
    "MatchNotFoundError",
    "MatchOverError",
    "MuteTargetError",
    "NotBotTurnError",
    "NotOwnerError",
    "NotSeatedError",
    "NotStaffError",
    "RematchUnavailableError",
    "ReplayBusyError",
    "ReplayRateLimitedError",
    "ReplayTooLongError",
    "RoomFullError",
    "RoomNotFoundError",
    "RoomNotOpenError",
    "RoomNotReadyError",
    "RoundPauseError",
    "SeatTakenError",
    "StaleVersionError",
    "epoch_ms",
]

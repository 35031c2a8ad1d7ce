"""The models of the one Django app ``games``, gathered from its domains (docs/architecture.md).

Each domain keeps its own models module; Django looks for an app's models here, so this module
imports them all. Code imports a model from its domain (``games.play.models``), never from here.
"""

from games.chat.models import ChatMessage, ChatMute, ChatReport, ChatSilence
from games.learn.models import (
    DailyTry,
    Puzzle,
    PuzzleAttempt,
    PuzzleBatch,
    PuzzleKind,
    PuzzleRating,
    PuzzleReport,
    RoundAnalysis,
)
from games.play.models import (
    AccountSocket,
    Match,
    MoveRecord,
    RatingStatus,
    Room,
    Round,
    ScoreLine,
    Seat,
    SeatSocket,
    ServerProcess,
)
from games.ranked.models import Rating, RatingChange

__all__ = [
    "AccountSocket",
    "ChatMessage",
    "ChatMute",
    "ChatReport",
    "ChatSilence",
    "DailyTry",
    "Match",
    "MoveRecord",
    "Puzzle",
    "PuzzleAttempt",
    "PuzzleBatch",
    "PuzzleKind",
    "PuzzleRating",
    "PuzzleReport",
    "Rating",
    "RatingChange",
    "RatingStatus",
    "Room",
    "Round",
    "RoundAnalysis",
    "ScoreLine",
    "Seat",
    "SeatSocket",
    "ServerProcess",
]

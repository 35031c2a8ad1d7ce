"""Playing a deal of the day's try through the services, with the clock of games.learn.daily fixed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from games import engine
from games.engine.bots import choose_move
from games.learn import daily
from games.play import services
from games.play.models import Match, MoveRecord


@dataclass
class FixedClock:
    at: datetime

    def now(self) -> datetime:
        return self.at


DAY_START = datetime(2026, 12, 3, 9, 30, tzinfo=UTC)
NEXT_DAY = datetime(2026, 12, 4, 0, 0, 1, tzinfo=UTC)


def play_try(match: Match, player: Any, *, level: str = "normal") -> Match:
    """Play a try to its end: seat 0's moves are the ``level`` bot's choice from its own view
    (the same view gives the same move), the other seats' through ``services.bot_move_play``."""
    for _ in range(3000):
        match.refresh_from_db()
        state = match.game_state()
        if match.status != Match.Status.PLAYING:
            return match
        if state.turn == 0:
            move = choose_move(engine.view_for(state, 0), level=level)
            services.move_submit(match_id=match.pk, user=player, move=move, expected_version=match.version)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the try did not end")


def move_log(match: Match) -> list[tuple[int, Any, str]]:
    return list(MoveRecord.objects.filter(match=match).order_by("seq").values_list("seat", "move", "actor"))


def secrets_of(match: Match) -> list[str]:
    """What must stay out of every page and frame until the day is over: the secret and the
    seeds of rounds 0 to 2 (round 0 picks the dealer; round 2 is dealt when the round ends)."""
    secret = match.secret_bytes
    return [secret.hex(), *(engine.deal_seed(secret, number).hex() for number in range(3))]


def set_clock(monkeypatch: Any, at: datetime) -> None:
    monkeypatch.setattr(daily, "clock", FixedClock(at))

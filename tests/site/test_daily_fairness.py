"""The deal of the day is the same game for everyone (docs/learn.md, "Deal of the day"; docs/engine.md,
"Bots: levels and API", on luck): accounts with different names that make the same moves in
the same deal meet the same bot moves, in every variant.

The test plays as a person would who knows the moves of a first account: the first account's
moves come from a policy of its own; every other account sends exactly those moves, in order.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

import pytest
from pytest_django.fixtures import Settings

from games import engine
from games.engine.bots import choose_move
from games.learn import daily
from games.learn.services import daily as daily_services
from games.play import services
from games.play.models import Match
from tests.site.daily_helpers import move_log, set_clock

pytestmark = pytest.mark.django_db

#: Six names as different as accounts' names are: short, long, with letters of both languages.
NAMES = ["ala", "bob", "Zbigniew_Wróblewski", "x", "ștefan.ionescu", "GinMaster1987"]

#: Three days: each is another deal of every variant.
DAYS = [datetime(2026, 12, day, 9, 30, tzinfo=UTC) for day in (3, 11, 24)]


@pytest.fixture(autouse=True)
def _in_memory_channel_layer(settings: Settings) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def _play_first(match: Match, player: Any, variant: str) -> list[engine.Move]:
    """Play the first account's try to its end (seat 0 by the easy bot, with a luck of its own);
    the moves it sent, in order."""
    luck = random.Random(f"first-account:{variant}")
    sent: list[engine.Move] = []
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return sent
        state = match.game_state()
        if state.turn == 0:
            move = choose_move(engine.view_for(state, 0), level="easy", rng=random.Random(luck.random()))
            services.move_submit(match_id=match.pk, user=player, move=move, expected_version=match.version)
            sent.append(move)
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the try did not end")


def _play_the_same(match: Match, player: Any, moves: list[engine.Move]) -> None:
    """Send ``moves`` at seat 0's turns, in order, the bots playing the other seats; stops at the
    end of the try or at the first move refused (the bots have then played otherwise)."""
    pending = list(moves)
    for _ in range(3000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return
        state = match.game_state()
        if state.turn == 0:
            if not pending:
                return
            try:
                services.move_submit(
                    match_id=match.pk, user=player, move=pending.pop(0), expected_version=match.version
                )
            except engine.IllegalMoveError:
                return
        else:
            services.bot_move_play(match_id=match.pk, expected_version=match.version)
    raise AssertionError("the try did not end")


@pytest.mark.parametrize("at", DAYS, ids=[at.date().isoformat() for at in DAYS])
@pytest.mark.parametrize("variant", list(daily.DAILY_VARIANTS))
def test_accounts_with_other_names_making_the_same_moves_meet_every_same_bot_move(
    variant: str, at: datetime, make_user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_clock(monkeypatch, at)
    accounts = [make_user(name) for name in NAMES]
    first = daily_services.daily_start(user=accounts[0], variant=variant)
    moves = _play_first(first, accounts[0], variant)
    expected = move_log(first)
    assert any(actor == "bot" for _seat, _move, actor in expected)

    for account in accounts[1:]:
        match = daily_services.daily_start(user=account, variant=variant)
        _play_the_same(match, account, moves)
        log = move_log(match)
        for number, (seen, wanted) in enumerate(zip(log, expected, strict=False)):
            assert seen == wanted, f"{account.username}: move {number} differs: {seen} != {wanted}"
        assert len(log) == len(expected), f"{account.username}: {len(log)} moves, not {len(expected)}"
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED

"""Migration 0009 rewrites every stored ``Match.state`` in the engine's current format, and a
match stored by the code before it (``remi-state/1``, tests/engine/fixtures/state_v1) is played
to its end after it, through the site's services, on PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from pytest_django.fixtures import Settings

from games import engine
from games.engine.deal import secret_bytes
from games.play import services
from games.play.models import Match

FIXTURES = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "state_v1"
BEFORE = [("games", "0008_account_sockets")]
AFTER = [("games", "0009_match_state_format_2")]

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(target: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


def _latest() -> list[tuple[str, str]]:
    """The newest migrations: the models of today's code read their rows (later migrations add
    columns the rows of 0009 do not have)."""
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes("games")


def _historical(name: str, at: list[tuple[str, str]]) -> Any:
    """A model as it was after the migrations ``at``."""
    return MigrationExecutor(connection).loader.project_state(at).apps.get_model("games", name)


def _stored_match(owner: Any, name: str) -> tuple[int, dict[str, Any]]:
    """A room of bots with a match whose state is the fixture's, as the older code stored it."""
    data = json.loads((FIXTURES / f"{name}.json").read_text())
    record = data["record"]
    # The room and its seats as the older code stored them too (later migrations add columns).
    rules = engine.variant(record["variant"], **record["options"])
    room = _historical("Room", BEFORE).objects.create(
        owner_id=owner.pk,
        name="Table",
        variant=rules.name,
        options=dict(rules.options),
        seat_count=len(record["players"]),
        turn_seconds=60,
        status="playing",
    )
    for index in range(len(record["players"])):
        _historical("Seat", BEFORE).objects.create(
            room_id=room.pk, index=index, is_bot=True, bot_level="normal"
        )
    match = _historical("Match", BEFORE).objects.create(
        room_id=room.pk,
        number=1,
        state=data["stored"],
        version=len(record["moves"]),
        secret=secret_bytes(record["seed"]),
        turn_started=timezone.now(),
    )
    secret = secret_bytes(record["seed"])
    for number in range(1, data["stored"]["round"] + 1):
        seed = engine.deal_seed(secret, number)
        ended = number < data["stored"]["round"]
        _historical("Round", BEFORE).objects.create(
            match_id=match.pk,
            number=number,
            commitment=engine.commitment(seed),
            revealed_seed=seed.hex() if ended else None,
        )
    return match.pk, data


@pytest.mark.parametrize("name", ["remi", "gin", "knock108"])
def test_migration_0009_upgrades_a_stored_state_and_its_match_finishes(
    owner: Any, settings: Settings, name: str
) -> None:
    settings.ROUND_PAUSE_SECONDS = 0
    _migrate(BEFORE)
    try:
        match_id, data = _stored_match(owner, name)
        assert (
            Match.objects.filter(pk=match_id).values_list("state", flat=True).get()["format"]
            == "remi-state/1"
        )
        _migrate(AFTER)
        _migrate(_latest())
        match = Match.objects.get(pk=match_id)
        assert match.state == engine.upgrade_state_json(data["stored"])
        assert match.state["format"] == "remi-state/2"
        for _ in range(5000):
            if match.status != Match.Status.PLAYING:
                break
            services.bot_move_play(match_id=match_id, expected_version=match.version)
            match.refresh_from_db()
        assert match.status == Match.Status.FINISHED
        assert match.game_state().is_over
        assert match.state["format"] == "remi-state/2"
    finally:
        _migrate(_latest())


def test_migration_0009_goes_back_to_the_older_format(owner: Any) -> None:
    _migrate(BEFORE)
    try:
        stored = {name: _stored_match(owner, name) for name in ("remik40", "oklahoma")}
        _migrate(AFTER)
        _migrate(BEFORE)
        for match_id, data in stored.values():
            assert Match.objects.filter(pk=match_id).values_list("state", flat=True).get() == data["stored"]
    finally:
        _migrate(_latest())

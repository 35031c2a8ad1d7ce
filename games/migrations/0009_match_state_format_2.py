"""Every stored ``Match.state`` in the engine's current format (``remi-state/2``).

``remi-state/1`` kept the rummy cycle's fields (who has opened, Remi's atu, ...) beside the shared
ones, and the gin family's and Knock-108's in ``extra``; ``remi-state/2`` keeps each family's own
in ``cycle`` and names the family. The engine reads both (it upgrades an older document as it
reads it), so a match being played goes on across the change; this migration rewrites the stored
rows once, with the engine's own upgrade (``games.engine.upgrade_state_json``). Going back writes
``remi-state/1`` again (the fields moved back where they were).
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

#: The rummy cycle's fields, which ``remi-state/1`` kept at the top level.
RUMMY_V1 = (
    "opened",
    "opened_at_turn_start",
    "turn_joker_laid",
    "atu",
    "atu_taken_by",
    "atu_pair_seats",
    "consumed",
    "reshuffles",
)


def upgrade(apps: Any, schema_editor: Any) -> None:
    from games.engine import upgrade_state_json

    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("pk", "state").order_by("pk").iterator(chunk_size=200):
        state = upgrade_state_json(match.state)
        if state != match.state:
            match.state = state
            match.save(update_fields=["state"])


def downgrade_document(document: dict[str, Any]) -> dict[str, Any]:
    """A ``remi-state/2`` document as ``remi-state/1`` wrote it."""
    if document.get("format") != "remi-state/2":
        return document
    old = {key: value for key, value in document.items() if key not in ("family", "cycle")}
    old["format"] = "remi-state/1"
    if document["family"] == "rummy":
        old.update({key: document["cycle"][key] for key in RUMMY_V1})
        old["extra"] = {}
    else:
        players = document["players"]
        old.update(
            opened=[False] * players,
            opened_at_turn_start=False,
            turn_joker_laid=False,
            atu=None,
            atu_taken_by=None,
            atu_pair_seats=[],
            consumed=[],
            reshuffles=0,
            extra=dict(document["cycle"]),
        )
    return old


def downgrade(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("games", "Match")
    for match in Match.objects.only("pk", "state").order_by("pk").iterator(chunk_size=200):
        state = downgrade_document(match.state)
        if state != match.state:
            match.state = state
            match.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [("games", "0008_account_sockets")]

    operations = [migrations.RunPython(upgrade, downgrade)]

"""The published protocol schema (``games/protocol.schema.json``, served at /protocol.schema.json)
as test assertions: every frame a socket test receives is checked against it."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "games" / "protocol.schema.json"


@cache
def _validator(definition: str) -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    schema.pop("oneOf")
    return Draft202012Validator({**schema, "$ref": f"#/$defs/{definition}"})


def _check(definition: str, value: Any) -> None:
    errors = sorted(_validator(definition).iter_errors(value), key=lambda e: len(list(e.absolute_path)))
    if errors:
        deepest = errors[-1]
        while deepest.context:
            deepest = max(deepest.context, key=lambda e: len(list(e.absolute_path)))
        raise AssertionError(
            f"not a {definition} of docs/protocol.md: {deepest.json_path}: {deepest.message[:300]}"
        )


def assert_frame(frame: Any) -> None:
    """``frame`` is a frame the schema describes (a state, error or ack frame)."""
    _check("frame", frame)


def assert_command(command: Any) -> None:
    """``command`` is a command the schema describes."""
    _check("command", command)

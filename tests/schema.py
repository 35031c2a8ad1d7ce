"""The published protocol schema (``games/play/protocol.schema.json``, served at /protocol.schema.json)
as test assertions: every frame a socket test receives is checked against it.

``jsonschema`` (Draft 2020-12) is the judge, and says what is wrong. A frame that passes goes
through ``fastjsonschema`` first, which compiles the schema into Python code: about twenty times
as fast, and the socket tests check thousands of frames (the whole-match test spent 23 of its 27
seconds in ``jsonschema``). It is a draft-07 validator; the schema uses only keywords both drafts
read alike (``$ref`` is never beside another keyword), and
``tests/games/test_protocol_schema.py`` checks that the two agree on every frame of a bot match
and on broken ones. When the fast one refuses, ``jsonschema`` decides and explains.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
from jsonschema import Draft202012Validator

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "games" / "play" / "protocol.schema.json"


def _schema_of(definition: str) -> dict[str, Any]:
    """The published schema narrowed to one of its definitions (``frame``, ``command``)."""
    schema = json.loads(SCHEMA_PATH.read_text())
    schema.pop("oneOf")
    return {**schema, "$ref": f"#/$defs/{definition}"}


@cache
def _validator(definition: str) -> Draft202012Validator:
    return Draft202012Validator(_schema_of(definition))


@cache
def _fast_validator(definition: str) -> Any:
    schema = _schema_of(definition)
    for key in ("$schema", "$id"):  # draft-07 code for the same keywords; the refs are local
        schema.pop(key, None)
    return fastjsonschema.compile(schema)


def fast_accepts(definition: str, value: Any) -> bool:
    """Whether the compiled (draft-07) validator accepts ``value`` as a ``definition``."""
    try:
        _fast_validator(definition)(value)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def slow_accepts(definition: str, value: Any) -> bool:
    """Whether ``jsonschema`` (Draft 2020-12, the judge) accepts ``value`` as a ``definition``."""
    return _validator(definition).is_valid(value)


def _check(definition: str, value: Any) -> None:
    if fast_accepts(definition, value):
        return
    errors = sorted(_validator(definition).iter_errors(value), key=lambda e: len(list(e.absolute_path)))
    if not errors:
        raise AssertionError(
            f"the two validators disagree on a {definition} (tests/schema.py): {value!r:.300}"
        )
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

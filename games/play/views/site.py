"""The site's machine-readable endpoints: the liveness probe and the socket protocol's schema."""

from __future__ import annotations

from pathlib import Path

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import cache_control

#: The game socket's JSON Schema (docs/protocol.md), as published at /protocol.schema.json.
PROTOCOL_SCHEMA = Path(__file__).resolve().parent.parent / "protocol.schema.json"


@cache_control(public=True, max_age=3600)
def protocol_schema(request: HttpRequest) -> HttpResponse:
    """``/protocol.schema.json``: the commands and frames of the game socket, for client authors."""
    return HttpResponse(PROTOCOL_SCHEMA.read_bytes(), content_type="application/schema+json")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe: the process is up and serving requests. It does not touch the database."""
    return JsonResponse({"ok": True})

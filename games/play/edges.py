"""NUL characters (U+0000) are refused where requests come in (docs/operations.md, "Security").

PostgreSQL's text fields cannot hold NUL: a NUL that reached a query (a join code, a user name,
a session key, a search) was a ``DataError`` and a server error. No field of the site needs one,
so a request holding NUL is refused before any view, form or session reads it:

* HTTP (``NulRefusalMiddleware``, right after Django's security middleware): a NUL in the path
  is answered with the 404 page (no page has such a name); in the query string (names or values),
  a cookie, a header, a form's fields or a JSON body, with the 400 page, or, when the request
  sends or accepts JSON, with ``{"code": "malformed_query", "message": ...}`` and status 400, as
  the site's JSON endpoints answer what they cannot read. Uploaded files are left to the views
  that read them.
* WebSocket handshakes (``NulHandshakeRefusal``, before the session is read): a NUL in the path,
  the query string, a header or a cookie: the socket is accepted and closed with 4400.
* WebSocket messages: ``protocol.read_json``, which reads every message, refuses one holding NUL
  with ``malformed_message`` (docs/protocol.md, "Limits").
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.cookie import parse_cookie
from django.views.defaults import bad_request

from games.play.limits import refuse_handshake
from games.play.protocol import NUL_REFUSED, holds_nul

logger = logging.getLogger(__name__)

NUL = "\x00"
#: The close code of a handshake that holds NUL (docs/protocol.md, "Close codes").
CLOSE_BAD_HANDSHAKE = 4400
#: Content types whose body is read here as JSON (the site's JSON endpoints send one of these,
#: or none: ``fetch`` with a string body says ``text/plain``).
_JSON_TYPES = ("application/json", "text/plain", "")
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def _any_nul(texts: Iterable[str]) -> bool:
    return any(NUL in text for text in texts)


def _body_holds_nul(request: HttpRequest) -> bool:
    """Whether a form field or a JSON body holds NUL (files are the views' to read)."""
    if request.method in ("GET", "HEAD", "OPTIONS"):
        return False
    content_type = request.content_type or ""
    if content_type in _FORM_TYPES:
        if request.method != "POST":
            return False
        form = request.POST  # parsed as CsrfViewMiddleware would parse it
        return _any_nul(form.keys()) or any(_any_nul(values) for _key, values in form.lists())
    if content_type not in _JSON_TYPES and not content_type.endswith("+json"):
        return False
    length = int(request.META.get("CONTENT_LENGTH") or 0)
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    if limit is not None and length > limit:
        return False  # too big to read here: the view refuses it as it would anyway
    body = request.body
    if b"\x00" in body:
        return True
    if b"\\u0000" not in body:  # JSON writes NUL only as this escape
        return False
    try:
        return holds_nul(json.loads(body))
    except (ValueError, RecursionError):
        return False  # not JSON: its view answers what it cannot read


def _wants_json(request: HttpRequest) -> bool:
    return "json" in (request.content_type or "") or "application/json" in request.headers.get("Accept", "")


class NulRefusalMiddleware:
    """Refuse an HTTP request holding NUL: 404 for the path, 400 for anything else (see above)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if NUL in request.path_info or NUL in request.path:
            raise Http404("no such page")
        headers = ((key, value) for key, value in request.META.items() if key.startswith("HTTP_"))
        if (
            _any_nul(request.GET.keys())
            or any(_any_nul(values) for _key, values in request.GET.lists())
            or _any_nul(request.COOKIES.keys())
            or _any_nul(request.COOKIES.values())
            or any(isinstance(value, str) and NUL in value for _key, value in headers)
            or _body_holds_nul(request)
        ):
            logger.info("refused a request holding NUL: %s %r", request.method, request.path)
            if _wants_json(request):
                return JsonResponse({"code": "malformed_query", "message": NUL_REFUSED}, status=400)
            # The site's 400 page (Django's ``handler400``), answered here: raising ``BadRequest``
            # would log a traceback for every such request.
            return bad_request(request, BadRequest(NUL_REFUSED))
        return self.get_response(request)


Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def _handshake_holds_nul(scope: dict[str, Any]) -> bool:
    path = scope.get("path", "")
    if NUL in path or b"\x00" in scope.get("raw_path", b"") or b"\x00" in scope.get("query_string", b""):
        return True
    if b"%00" in scope.get("query_string", b"").lower():
        return True
    for name, value in scope.get("headers", ()):
        if b"\x00" in name or b"\x00" in value:
            return True
        if name.lower() == b"cookie":
            # A quoted cookie value may write NUL as an octal escape ("\000"), which the
            # cookie parser decodes: the session key looked up would hold it.
            cookies = parse_cookie(value.decode("latin-1"))
            if _any_nul(cookies.keys()) or _any_nul(cookies.values()):
                return True
    return False


class NulHandshakeRefusal:
    """ASGI middleware: a WebSocket handshake holding NUL is accepted and closed with 4400 (so that
    a client can read the code) before its session is read. Other scopes pass through."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and _handshake_holds_nul(scope):
            logger.info("refused a socket handshake holding NUL")
            await refuse_handshake(receive, send, CLOSE_BAD_HANDSHAKE)
            return
        await self.app(scope, receive, send)

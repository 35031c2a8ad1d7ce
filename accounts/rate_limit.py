"""Login rate limiting with django-axes (settings: AXES_* in remi_site/settings.py).

Failed logins are counted per (username, client IP) in the database; after AXES_FAILURE_LIMIT
failures that pair is refused with HTTP 429 and the page of ``lockout_response`` until
AXES_COOLOFF_TIME has passed. A successful login clears the count.
"""

from http import HTTPStatus
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


class LoginRateLimitBackend(AxesStandaloneBackend):
    """Axes' lockout check, for logins that come with a request.

    Axes refuses to run without a request; calls without one (the test client's ``login()``, a
    shell) have no client to count, so they go straight to the next backend.
    """

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, *args, **kwargs)  # type: ignore[no-any-return]


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The username attempts are counted under: case-folded, since "Ala" and "ala" are one account."""
    source = credentials if credentials else getattr(request, "POST", {})
    return str(source.get("username") or "").strip().lower()


def lockout_response(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
    """The page shown instead of the login form while a (username, IP) pair is locked out.

    Axes calls this with ``(request, original_response, credentials)``; none of the extra
    arguments is needed (and its async middleware passes them in another order).
    """
    cooloff = settings.AXES_COOLOFF_TIME
    context = {
        "username": str(request.POST.get("username", "")).strip(),
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": max(1, round(cooloff.total_seconds() / 60)) if cooloff else None,
    }
    return render(request, "accounts/locked_out.html", context, status=HTTPStatus.TOO_MANY_REQUESTS)

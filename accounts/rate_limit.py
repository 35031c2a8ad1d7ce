"""Login and registration rate limiting (settings in remi_site/settings/base.py, docs/operations.md).

* Failed logins are counted by django-axes per (username, client IP) in the database; after
  AXES_FAILURE_LIMIT failures that pair is refused with HTTP 429 and the page of
  ``lockout_response`` until AXES_COOLOFF_TIME has passed. A successful login clears the count.
* Across usernames: an address whose failed logins (axes' records of the last AXES_COOLOFF_TIME,
  any username) reach LOGIN_ADDRESS_FAILURE_LIMIT is refused the same way, whatever username it
  tries next (one address guessing many accounts' passwords).
* Registrations: at most REGISTRATIONS_PER_ADDRESS_PER_HOUR new accounts from one address in an
  hour (counted in the cache: Redis, shared by every process, in production).
"""

from datetime import timedelta
from http import HTTPStatus
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.exceptions import AxesBackendPermissionDenied
from axes.helpers import get_client_ip_address
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone


def address_failures(request: HttpRequest) -> int:
    """Failed logins from the request's address within the cool-off time, for any username."""
    address = get_client_ip_address(request)
    if not address:
        return 0
    since = timezone.now() - (settings.AXES_COOLOFF_TIME or timedelta(hours=1))
    attempts = AccessAttempt.objects.filter(ip_address=address, attempt_time__gte=since)
    return int(attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0)


def address_locked_out(request: HttpRequest) -> bool:
    return address_failures(request) >= settings.LOGIN_ADDRESS_FAILURE_LIMIT


class LoginRateLimitBackend(AxesStandaloneBackend):
    """Axes' lockout check, for logins that come with a request.

    Axes refuses to run without a request; calls without one (the test client's ``login()``, a
    shell) have no client to count, so they go straight to the next backend.
    """

    def authenticate(self, request: HttpRequest | None, *args: Any, **kwargs: Any) -> None:
        if request is None:
            return None
        if address_locked_out(request):
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.address_locked_out = True  # type: ignore[attr-defined]
            raise AxesBackendPermissionDenied("too many failed logins from this address")
        return super().authenticate(request, *args, **kwargs)


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
    by_address = getattr(request, "address_locked_out", False)
    context = {
        # Locked out by address: every username is, so none is named.
        "username": "" if by_address else str(request.POST.get("username", "")).strip(),
        "failure_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT if by_address else settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": max(1, round(cooloff.total_seconds() / 60)) if cooloff else None,
    }
    return render(request, "accounts/locked_out.html", context, status=HTTPStatus.TOO_MANY_REQUESTS)


def _registration_key(request: HttpRequest) -> str:
    return f"registrations:{get_client_ip_address(request) or 'unknown'}"


def registration_allowed(request: HttpRequest) -> bool:
    """Whether the request's address may register another account this hour."""
    return int(cache.get(_registration_key(request), 0)) < settings.REGISTRATIONS_PER_ADDRESS_PER_HOUR


def registration_recorded(request: HttpRequest) -> None:
    """Count an account registered from the request's address (for an hour from the first)."""
    key = _registration_key(request)
    if not cache.add(key, 1, timeout=3600):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=3600)

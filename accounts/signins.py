"""What the site can tell of the person behind an account: the browser and the address it signs
in from (docs/learn.md, "One ranked try per person").

* **The browser**: a random id (32 hex digits) in the ``remi_browser`` cookie, given at the first
  sign-in (or deal of the day played) from that browser and kept for two years. Another account
  signing in from the same browser carries the same id. A private window or cleared cookies get
  a new one: the address still tells.
* **The address**: the client's address as django-axes reads it (the same one its lockouts
  count), an IPv6 address by its /64 network (one household or phone holds a whole /64), kept
  only as an HMAC-SHA256 with a key derived from the site's secret, never in clear.

``signin_record`` (connected to Django's ``user_logged_in``) keeps one ``SignIn`` per login and
registration; ``BrowserIdMiddleware`` sets the cookie on the response when a new id was given.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
from datetime import timedelta
from typing import Any

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import SignIn

BROWSER_COOKIE = "remi_browser"
BROWSER_COOKIE_AGE = int(timedelta(days=730).total_seconds())
_BROWSER_ID = re.compile(r"^[0-9a-f]{32}$")

#: How far back an account's sign-ins tell where it was (older ones are forgotten: ``signins_prune``).
SIGNIN_DAYS = 30


def browser_id(request: HttpRequest) -> str:
    """The request's browser id: its cookie's, or a new one the response will set."""
    given = getattr(request, "_remi_browser_new", None)
    if given:
        return str(given)
    cookie = request.COOKIES.get(BROWSER_COOKIE, "")
    if _BROWSER_ID.match(cookie):
        return cookie
    new = secrets.token_hex(16)
    request._remi_browser_new = new  # type: ignore[attr-defined]
    return new


def network(address: str) -> str:
    """The address as compared: an IPv4 address itself, an IPv6 address's /64 network ("" if
    it is not an address). An IPv4 address mapped into IPv6 counts as the IPv4 one.

    >>> network("203.0.113.7")
    '203.0.113.7'
    >>> network("2001:db8:1:2:aaaa::1") == network("2001:db8:1:2:bbbb::9")
    True
    >>> network("2001:db8:1:3::1") == network("2001:db8:1:2::1")
    False
    >>> network("::ffff:203.0.113.7")
    '203.0.113.7'
    """
    try:
        parsed = ipaddress.ip_address(address.strip())
    except ValueError:
        return ""
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{parsed}/64", strict=False))
    return str(parsed)


def address_key(request: HttpRequest) -> str:
    """The HMAC (hex) of the request's address network; "" when there is no address."""
    place = network(get_client_ip_address(request) or "")
    if not place:
        return ""
    key = hashlib.sha256(f"remi-signin-address/1:{settings.SECRET_KEY}".encode()).digest()
    return hmac.new(key, place.encode(), hashlib.sha256).hexdigest()


def signin_record(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in``: keep where this sign-in came from (nothing without a request)."""
    if request is None or not hasattr(request, "COOKIES"):
        return
    SignIn.objects.create(user=user, browser=browser_id(request), address=address_key(request))


def signins_prune() -> int:
    """Forget the sign-ins older than ``SIGNIN_DAYS``; how many went."""
    since = timezone.now() - timedelta(days=SIGNIN_DAYS)
    deleted, _ = SignIn.objects.filter(at__lt=since).delete()
    return deleted


class BrowserIdMiddleware:
    """Sets the ``remi_browser`` cookie on a response whose request was given a new browser id."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response: HttpResponse = self.get_response(request)
        new = getattr(request, "_remi_browser_new", None)
        if new:
            response.set_cookie(
                BROWSER_COOKIE,
                new,
                max_age=BROWSER_COOKIE_AGE,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response

"""Which language a page is served in (docs/i18n.md).

A logged-in player's stored preference (``User.language``) wins; otherwise Django's own choice:
the language cookie the switcher sets (``set_language``), then the browser's Accept-Language,
then ``LANGUAGE_CODE``. The switcher also stores a logged-in player's choice
(``accounts.views.set_language``), so the two never disagree for long.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.utils import translation


def offered(code: str | None) -> str | None:
    """``code`` if the site is translated into it (``pl``, ``ro``, ``en``), else None."""
    if not code:
        return None
    code = code.lower().split("-")[0]
    return code if code in dict(settings.LANGUAGES) else None


def user_language(user: object) -> str | None:
    """The stored preference of a logged-in user, or None (anonymous, or not a language we offer)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return offered(getattr(user, "language", None))


class PlayerLocaleMiddleware(LocaleMiddleware):
    """``LocaleMiddleware`` that puts the logged-in player's stored language first.

    It sits after ``AuthenticationMiddleware`` (it reads ``request.user``); the site uses no
    language prefixes in its URLs, so nothing needs it before ``CommonMiddleware``.
    """

    def process_request(self, request: HttpRequest) -> None:
        language = user_language(getattr(request, "user", None))
        if language is None:
            super().process_request(request)
            return
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()

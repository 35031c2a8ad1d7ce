"""Thin HTTP views: forms read the input, services write, selectors read.

Log in, log out, password change and password reset are Django's own views (see accounts/urls.py).
"""

from http import HTTPStatus

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import PreferencesForm, RegistrationForm
from accounts.middleware import offered
from accounts.rate_limit import registration_allowed, registration_recorded
from accounts.selectors import user_get_public
from accounts.services import user_register, user_set_language
from games.play.selectors import match_history

# Registration logs the new player in directly; there is no request to check for lockouts then.
_MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


@require_http_methods(["GET", "POST"])
def register(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("profile", username=request.user.get_username())
    form = RegistrationForm(request.POST or None)
    if request.method == "POST" and not registration_allowed(request):
        form.is_valid()
        form.add_error(
            None,
            _("Too many accounts were made from your address in the last hour. Try again later."),
        )
        return render(request, "accounts/register.html", {"form": form}, status=HTTPStatus.TOO_MANY_REQUESTS)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_register(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
                # The language the page was served in: the switcher's cookie or the browser's.
                language=offered(translation.get_language()),
            )
        except ValidationError as error:
            form.add_service_errors(error)
        else:
            registration_recorded(request)
            login(request, user, backend=_MODEL_BACKEND)
            messages.success(
                request, _("Welcome, %(name)s! Your account is ready.") % {"name": user.username}
            )
            return redirect("profile", username=user.username)
    return render(request, "accounts/register.html", {"form": form})


@require_http_methods(["GET"])
def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = user_get_public(username=username)
    return render(
        request,
        "accounts/profile.html",
        {
            "player": player,
            # Only matches of public rooms: private rooms are for those who hold their code.
            "recent_matches": match_history(user_id=player.pk, public_only=True, limit=20),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def preferences(request: HttpRequest) -> HttpResponse:
    form = PreferencesForm.for_user(request.user, request.POST or None)  # type: ignore[arg-type]
    if request.method == "POST" and form.is_valid():
        user_set_language(user=request.user, language=form.cleaned_data["language"])  # type: ignore[arg-type]
        response = redirect("preferences")
        # The preference wins from now on; the cookie keeps the choice after logging out.
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            form.cleaned_data["language"],
            max_age=settings.LANGUAGE_COOKIE_AGE,
            samesite="Lax" if settings.LANGUAGE_COOKIE_SAMESITE == "Lax" else "Strict",
        )
        with translation.override(form.cleaned_data["language"]):
            messages.success(request, _("Your preferences are saved."))
        return response
    return render(request, "accounts/preferences.html", {"form": form})


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The language switcher: Django's ``set_language`` (the cookie, then back to ``next``), and
    for a logged-in player the stored preference too, since that wins over the cookie."""
    response = i18n.set_language(request)
    language = offered(request.POST.get("language"))
    if language is not None and request.user.is_authenticated:
        user_set_language(user=request.user, language=language)
    return response

from django.contrib import admin
from django.contrib.staticfiles import finders
from django.http import FileResponse, Http404, HttpRequest
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

from accounts import views as accounts_views


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> FileResponse:
    """``/favicon.ico``, which browsers and tools ask for whatever a page links to (the pages link
    static/img/favicon.svg): the same card as a 32x32 icon, static/img/favicon.ico."""
    found = finders.find("img/favicon.ico")
    if not found:
        raise Http404("no favicon")
    return FileResponse(open(found, "rb"), content_type="image/vnd.microsoft.icon")


urlpatterns = [
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("u/<str:username>/", accounts_views.profile, name="profile"),
    # The language switcher (a form in every page's header) and the JavaScript catalog that
    # static/js/i18n.js reads (docs/i18n.md).
    path("i18n/setlang/", accounts_views.set_language, name="set_language"),
    # Only the site's own messages (locale/*/djangojs.po), not every installed app's (the admin's).
    path("jsi18n/", JavaScriptCatalog.as_view(packages=["games"]), name="javascript-catalog"),
    path("", include("games.urls")),
]

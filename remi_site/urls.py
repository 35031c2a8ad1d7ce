from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from accounts import views as accounts_views

urlpatterns = [
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

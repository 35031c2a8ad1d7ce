"""ASGI entry point: HTTP goes to Django, WebSockets to the routes in games.routing.

Run it with `daphne remi_site.asgi:application` (or `make run`). Daphne sends no lifespan
events, so the single-process start-up (the embedded Celery worker, see remi_site/embedded.py)
happens lazily, on the first call.
"""

import os
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

# Set up Django (apps, models) before importing anything that touches models or the auth middleware.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from remi_site import embedded  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # A WebSocket handshake whose Origin is not in ALLOWED_HOSTS is refused (no cross-site use).
        "websocket": AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # Remember the server's loop (sends from the worker thread run on it) and start the embedded
    # worker once per process when the settings ask for it; both are cheap after the first call.
    embedded.remember_loop()
    embedded.ensure_embedded_worker()
    await router(scope, receive, send)

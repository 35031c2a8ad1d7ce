"""ASGI entry point: HTTP goes to Django, WebSockets to the routes in games.routing.

Run it with `daphne remi_site.asgi:application` (or `make run`). The embedded Celery worker
(single-process mode, see remi_site/embedded.py) starts when this module is loaded, so a restarted
server resumes its tables (the worker's start-up sweep) before anyone connects. Daphne sends no
lifespan events, so the server's event loop is noted on the first call, and the orderly stop
(``games.play.servers.shutdown``) hangs on Twisted's shutdown, which daphne's SIGTERM and SIGINT start.
"""

import gc
import os
import sys
from typing import Any

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "remi_site.settings")

# Set up Django (apps, models) before importing anything that touches models or the auth middleware.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from games.play import broadcast, servers  # noqa: E402
from games.play.edges import NulHandshakeRefusal  # noqa: E402
from games.play.limits import HandshakeLimit  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from remi_site import embedded  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Too many handshakes from one address are closed with 4409 before anything else is done
        # (games/play/limits.py); one holding a NUL character (a cookie, say) with 4400, before its
        # session is read (games/play/edges.py); a handshake whose Origin is not in ALLOWED_HOSTS, or
        # that has none, is refused (no cross-site use).
        "websocket": HandshakeLimit(
            NulHandshakeRefusal(
                AllowedHostsOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns)))
            )
        ),
    }
)


# Under daphne (its reactor is installed before the application is loaded): when the server is
# told to stop, stop in order before daphne cancels the sockets' applications (triggers of one
# phase run in the order they were added; daphne adds its own when it starts to run). Elsewhere
# (tests, management commands) no reactor runs and this is never called.
if "twisted.internet.reactor" in sys.modules:
    from twisted.internet import reactor

    # (zope interface methods are declared without self: mypy counts the arguments one off)
    reactor.addSystemEventTrigger("before", "shutdown", servers.shutdown)  # type: ignore[arg-type]


# Start now, not on the first request: a table of bots must not wait for a visitor after a restart.
# Sends made before the first call reach nobody, and nobody is connected yet.
embedded.ensure_embedded_worker()
# This process's heartbeat: if it is killed hard, the workers' sweep closes the sockets it held.
servers.ensure_heartbeat()


# The garbage collector's full passes walk every tracked object of the process, and a move that
# arrives during one waits for it. Under 200 tables of 4 they took 100-230 ms each with the default
# settings, which was the whole p99 (docs/benchmarks.md, "What each server choice is worth"). So:
# what is loaded by now (modules, classes, URL patterns, settings) lives as long as the process and
# is moved out of the collector's sight, and the young generation is collected less often, so that
# the short-lived objects of a move die before they are promoted towards the full passes.
# SERVER_GC_THRESHOLDS ("gen0,gen1,gen2", empty for Python's defaults) tunes this.
def _tune_gc(thresholds: str) -> None:
    gc.collect()
    gc.freeze()
    if thresholds.strip():
        gen0, gen1, gen2 = (int(part) for part in thresholds.split(","))
        gc.set_threshold(gen0, gen1, gen2)


_tune_gc(os.environ.get("SERVER_GC_THRESHOLDS", "20000,50,100"))

# The event loop that serves every socket shares the interpreter lock with the threads that run
# the pages and the database calls: while a thread computes (a large form parsed, a page encoded),
# the loop waits up to the switch interval for the lock at each step of a move. SERVER_GIL_SWITCH
# (seconds; empty for Python's 0.005) shortens that wait: 0.0005 halved the tables' move -> frames
# p50 and p99 beside heavy replays, with no cost when quiet (docs/benchmarks.md, "Replays and
# analyses beside live tables").
if switch := os.environ.get("SERVER_GIL_SWITCH", "0.0005").strip():
    sys.setswitchinterval(float(switch))


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    # Remember the server's loop (sends from the worker thread run on it) and start the embedded
    # worker once per process when the settings ask for it; both are cheap after the first call.
    broadcast.remember_loop()
    embedded.ensure_embedded_worker()
    await router(scope, receive, send)

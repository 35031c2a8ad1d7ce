"""WebSocket routes, mounted by remi_site.asgi (inside the origin check and the auth middleware).

Ids in paths are 1 to 18 digits (``IdConverter``: every such number fits a database integer).
Any other path, or an id out of that range, reaches ``NowhereConsumer``, which closes the socket
with 4404 as for a match that does not exist: no handshake fails with a server error.
"""

from django.urls import URLPattern, re_path

from games.consumers import EchoConsumer, GameConsumer, NowhereConsumer

websocket_urlpatterns: list[URLPattern] = [
    re_path(r"^ws/match/(?P<match_id>[0-9]{1,18})/$", GameConsumer.as_asgi(), name="ws-match"),
    # The room's current (latest) match; the socket stays on that match once connected.
    re_path(r"^ws/rooms/(?P<room_id>[0-9]{1,18})/$", GameConsumer.as_asgi(), name="ws-room"),
    # Diagnostics: a bare round trip through Channels (the load test compares moves with it).
    re_path(r"^ws/echo/$", EchoConsumer.as_asgi(), name="ws-echo"),
    # Everything else: closed with 4404 (URLRouter would raise "No route found": a 500 handshake).
    re_path(r"", NowhereConsumer.as_asgi(), name="ws-nowhere"),
]

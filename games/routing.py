"""WebSocket routes, mounted by remi_site.asgi (inside the origin check and the auth middleware)."""

from django.urls import URLPattern, path

from games.consumers import EchoConsumer, GameConsumer

websocket_urlpatterns: list[URLPattern] = [
    path("ws/match/<int:match_id>/", GameConsumer.as_asgi(), name="ws-match"),
    # The room's current (latest) match; the socket stays on that match once connected.
    path("ws/rooms/<int:room_id>/", GameConsumer.as_asgi(), name="ws-room"),
    # Diagnostics: a bare round trip through Channels (the load test compares moves with it).
    path("ws/echo/", EchoConsumer.as_asgi(), name="ws-echo"),
]

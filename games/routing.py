"""WebSocket routes, mounted by remi_site.asgi. Empty until the game consumers exist."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html")


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness probe: the process is up and serving requests. It does not touch the database."""
    return JsonResponse({"ok": True})

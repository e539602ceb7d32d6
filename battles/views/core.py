"""The home page, the web app manifest and the health check."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control, never_cache
from django.views.decorators.http import require_GET

from battles.league.services.clubs import in_a_club
from battles.services.health import database_problem


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "battles/home.html", {"in_a_club": in_a_club(request.user)})


@require_GET
@cache_control(max_age=86400, public=True)
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, so the app can be added to a phone's home screen."""
    data = {
        "name": _("Confrontation companion"),
        "short_name": "Confrontation",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#121417",
        "theme_color": "#121417",
        "icons": [
            {"src": static("icons/icon.svg"), "sizes": "any", "type": "image/svg+xml"},
            {
                "src": static("icons/icon-192.png"),
                "sizes": "192x192",
                "type": "image/png",
            },
            {
                "src": static("icons/icon-512.png"),
                "sizes": "512x512",
                "type": "image/png",
            },
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers still ask for /favicon.ico; point them at the app icon."""
    return redirect(static("icons/icon-192.png"))


@require_GET
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database answers and takes a write, 503 otherwise (for a
    load balancer): ``battles.services.health`` moves a counter of its own
    table on, so a full or read-only disk is seen."""
    problem = database_problem()
    if problem is not None:
        return JsonResponse({"status": "error", "database": problem}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})

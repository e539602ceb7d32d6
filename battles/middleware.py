"""Response headers Django's SecurityMiddleware does not set, and the answer
when the database cannot be reached."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.templatetags.static import static

logger = logging.getLogger(__name__)

# The app needs none of these powerful features; the screen wake lock is
# requested by the game page itself and stays allowed for this origin.
PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), "
    "screen-wake-lock=(self)"
)


class PermissionsPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response


# --- a database that went away ----------------------------------------------------

DATABASE_GONE = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 5


def database_gone(exception: BaseException | None) -> bool:
    """Is ``exception`` the database not answering (down, restarting, locked)?"""
    return isinstance(exception, DATABASE_GONE)


def database_gone_response(request: HttpRequest) -> HttpResponse:
    """503: the server cannot reach its database; this tap was not recorded.

    Rendered without the request's context (no session, no user: both need
    the database). An htmx request gets the message alone; htmx does not swap
    a 503, so the page keeps its form and its tap key, and a retry sends the
    same key: the tap counts once (``static/js/app.js`` shows the message).
    """
    template = "503.html#message" if request.headers.get("HX-Request") else "503.html"
    body = loader.render_to_string(template, {"css": static("css/app.css")})
    response = HttpResponse(body, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """A view that cannot reach the database answers a styled 503, not a 500.

    Nothing needs resetting when the database is back: Django drops a broken
    connection at the end of the request and opens a new one for the next.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception):
        if database_gone(exception):
            logger.warning("database unreachable: %s", exception)
            return database_gone_response(request)
        return None

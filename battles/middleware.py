"""Response headers Django's SecurityMiddleware does not set, compression, and
the answer when the database cannot be reached."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import brotli
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.templatetags.static import static
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.text import compress_string

logger = logging.getLogger(__name__)
ACCEPTS_BR = re.compile(r"\bbr\b")
ACCEPTS_GZIP = re.compile(r"\bgzip\b")

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


class AnswerFirstMiddleware:
    """The request's live announcements go out once its answer has been sent
    where the server says when (``AFTER_ANSWER`` in its environ), else once
    it is rendered (``battles.live.bus.held_until_answered``): the tapping
    phone first."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        from battles.live.bus import AFTER_ANSWER, held_until_answered

        with held_until_answered(request.META.get(AFTER_ANSWER)):
            return self.get_response(request)


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


class CompressionMiddleware(MiddlewareMixin):
    """Brotli where the client accepts it, else gzip, for pages and fragments.

    Streamed responses (the live event stream, WhiteNoise's files, which come
    compressed already) pass untouched: an event must leave at once. Against
    BREACH, gzip adds Django's random bytes to the header and every CSRF
    token is masked afresh on each response.
    """

    MIN_BYTES = 200
    BROTLI_QUALITY = 5  # quick enough per response, within a few % of the best

    def process_response(
        self, request: HttpRequest, response: HttpResponse
    ) -> HttpResponse:
        if response.streaming or len(response.content) < self.MIN_BYTES:
            return response
        if response.has_header("Content-Encoding"):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        accepted = request.META.get("HTTP_ACCEPT_ENCODING", "")
        if ACCEPTS_BR.search(accepted):
            encoding = "br"
            body = brotli.compress(response.content, quality=self.BROTLI_QUALITY)
        elif ACCEPTS_GZIP.search(accepted):
            encoding = "gzip"
            body = compress_string(response.content, max_random_bytes=100)
        else:
            return response
        if len(body) >= len(response.content):
            return response
        response.content = body
        response.headers["Content-Length"] = str(len(body))
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response.headers["ETag"] = "W/" + etag
        response.headers["Content-Encoding"] = encoding
        return response

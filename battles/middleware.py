"""Response headers Django's SecurityMiddleware does not set, and compression."""

from __future__ import annotations

import re
from collections.abc import Callable

import brotli
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers
from django.utils.deprecation import MiddlewareMixin
from django.utils.text import compress_string

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

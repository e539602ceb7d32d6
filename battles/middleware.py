"""Response headers Django's SecurityMiddleware does not set."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

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

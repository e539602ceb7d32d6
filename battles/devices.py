"""The devices (sessions) an account is signed in on (issue #29).

``SignedInDevicesMiddleware`` notes the session of any page a signed-in
account saw (once per session key: a flag in the session), so the account page
lists every device, the ones signed in before this list existed too, and
signs the others out. Signing out forgets the device.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

NOTED = "_device_noted"


class SignedInDevicesMiddleware:
    """After any page a signed-in account saw, its session is a listed device.

    Only when the page itself loaded the account (no query of its own).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = request.__dict__.get("user")
        if isinstance(user, SimpleLazyObject):  # not loaded by login(): cached?
            user = getattr(request, "_cached_user", None)
        session = getattr(request, "session", None)
        if (
            user is not None
            and user.is_authenticated
            and session is not None
            and session.session_key
            and session.get(NOTED) != f"{user.pk}:{session.session_key}"
        ):
            from battles.services.account_security import note_device

            note_device(
                user,
                session.session_key,
                request.headers.get("User-Agent", ""),
            )
            # The key too: a sign-in again or a new password gives a new key.
            session[NOTED] = f"{user.pk}:{session.session_key}"
        return response


def forget_on_sign_out(sender, request, user, **kwargs) -> None:
    from battles.services.account_security import forget_device

    session = getattr(request, "session", None)
    if session is not None:
        forget_device(session.session_key)

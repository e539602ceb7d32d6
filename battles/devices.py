"""The accounts that have signed in on this browser: proof of "my own phone".

A one-time password link an admin makes works only in a browser where its
member has signed in before (``known_here``): the admin who made it cannot
use it on his own phone. The browser keeps a signed cookie listing the
account ids that were signed in on it (``RememberAccountsMiddleware`` adds
the signed-in account on any page); signing out keeps it, as the phone is
still the member's. Signed with the site's secret: no page can forge it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils.functional import SimpleLazyObject

COOKIE = "known_accounts"
SALT = "battles.devices.known_accounts"
MAX_ACCOUNTS = 8
MAX_AGE = 60 * 60 * 24 * 400  # the longest a browser keeps a cookie


def known_accounts(request: HttpRequest) -> list[int]:
    """The account ids signed in on this browser before (newest last)."""
    value = request.get_signed_cookie(COOKIE, default="", salt=SALT)
    ids = []
    for part in value.split(","):
        if part.isdigit() and len(part) < 19:
            ids.append(int(part))
    return ids


def known_here(request: HttpRequest, user_id: int) -> bool:
    return user_id in known_accounts(request)


def remember(request: HttpRequest, response: HttpResponse, user_id: int) -> None:
    ids = [i for i in known_accounts(request) if i != user_id][-(MAX_ACCOUNTS - 1) :]
    response.set_signed_cookie(
        COOKIE,
        ",".join(str(i) for i in [*ids, user_id]),
        salt=SALT,
        max_age=MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
    )


class RememberAccountsMiddleware:
    """After any page a signed-in account saw, this browser knows it.

    Only when the page itself loaded the account (no query of its own).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = request.__dict__.get("user")
        if isinstance(user, SimpleLazyObject):  # not loaded by login(): cached?
            user = getattr(request, "_cached_user", None)
        if (
            user is not None
            and user.is_authenticated
            and not known_here(request, user.pk)
        ):
            remember(request, response, user.pk)
        return response

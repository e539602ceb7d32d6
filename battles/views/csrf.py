"""Pages that say ``Referrer-Policy: no-referrer``, and their forms' CSRF.

A page whose URL holds a secret (a game's join link, a club invitation)
sends its address nowhere, not even to this site:
``Referrer-Policy: no-referrer``. Under that policy the browser sends
``Origin: null`` with the page's form posts (Fetch standard), which plain
Django refuses with a 403. ``no_referrer_page`` is the one mechanism for
such pages: it sets the header on every answer and checks CSRF taking
``Origin: null`` from this very site only. ``NO_REFERRER_VIEWS`` lists the
views it wraps (a test posts every form they serve with ``Origin: null``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.decorators import decorator_from_middleware
from django.views.decorators.csrf import csrf_exempt

REFERRER_POLICY = "no-referrer"


class NullOriginCsrf(CsrfViewMiddleware):
    """Django's CSRF check, taking ``Origin: null`` from this very site only.

    ``Origin: null`` is taken only when the browser itself says the request
    came from this very site (``Sec-Fetch-Site: same-origin``, a header no
    page can set); the CSRF token is then checked as everywhere else.
    """

    def _origin_verified(self, request: HttpRequest) -> bool:
        if (
            request.META.get("HTTP_ORIGIN") == "null"
            and request.META.get("HTTP_SEC_FETCH_SITE") == "same-origin"
        ):
            return True
        return super()._origin_verified(request)


# Use under ``@csrf_exempt`` (which turns the site-wide middleware off), for a
# view whose form sits on a no-referrer page without being one (sign-out).
null_origin_csrf_protect = decorator_from_middleware(NullOriginCsrf)

# Every view ``no_referrer_page`` wraps, by dotted name.
NO_REFERRER_VIEWS: dict[str, Callable] = {}


def no_referrer_page(view: Callable) -> Callable:
    """A page sent with ``Referrer-Policy: no-referrer``, its posts CSRF-checked
    with ``Origin: null`` taken from this very site."""
    checked = null_origin_csrf_protect(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = checked(request, *args, **kwargs)
        response["Referrer-Policy"] = REFERRER_POLICY
        return response

    wrapped = csrf_exempt(wrapped)  # the check is ``checked``'s, just above
    wrapped.no_referrer = True
    NO_REFERRER_VIEWS[f"{view.__module__}.{view.__qualname__}"] = wrapped
    return wrapped


def posted_from_no_referrer_pages(view: Callable) -> Callable:
    """A view whose form is on every page, the no-referrer ones too (the
    header's sign-out, the footer's language switch): ``Origin: null`` is
    taken from this very site, the CSRF token checked as everywhere."""
    return csrf_exempt(null_origin_csrf_protect(view))

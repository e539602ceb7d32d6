"""CSRF for forms on pages that say ``Referrer-Policy: no-referrer``.

Under that policy the browser sends ``Origin: null`` with a form's POST
(Fetch standard), which plain Django refuses. The join page has the policy
(its URL holds a token); its own form and the header's sign-out form post
from it.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware
from django.utils.decorators import decorator_from_middleware


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


# Use under ``@csrf_exempt`` (which turns the site-wide middleware off).
null_origin_csrf_protect = decorator_from_middleware(NullOriginCsrf)

"""Styled error pages that never leak a traceback."""

from __future__ import annotations

import sys

from django.http import HttpRequest, HttpResponse, HttpResponseServerError
from django.shortcuts import render
from django.template import loader

from battles.middleware import database_gone, database_gone_response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """400: a request the app cannot read, e.g. a form posted in another
    charset than UTF-8 (Django refuses it). Unlike Django's own handler, no
    CSRF check here: it would read the unreadable body again and fail (500).
    """
    encoding = (request.encoding or "").lower()
    return render(
        request,
        "400.html",
        {"encoding": encoding if encoding not in ("", "utf-8", "utf8") else ""},
        status=400,
    )


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return render(request, "404.html", status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    # A database that went away outside a view (a middleware reading the
    # session, say) is still a 503 "try again", not a 500.
    if database_gone(sys.exc_info()[1]):
        return database_gone_response(request)
    # No request context: whatever broke must not break the error page too.
    return HttpResponseServerError(loader.get_template("500.html").render())


def too_many_requests(request: HttpRequest, decision) -> HttpResponse:
    """429: a rate limit refused the attempt (``battles.ratelimit``)."""
    response = render(
        request,
        "429.html",
        {"retry_minutes": decision.retry_minutes},
        status=429,
    )
    response["Retry-After"] = str(decision.retry_after)
    return response

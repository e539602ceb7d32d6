"""Accounts: sign up, sign in, sign out (all optional for a casual game).

Thin views: the rate limit (``battles.ratelimit``), Django's auth forms and
``login``/``logout``, then one service: ``adopt_guest_data`` moves what the
guest built on this phone into the account right after the login.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, logout
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render, resolve_url
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from battles import ratelimit
from battles.forms.accounts import SignInForm, SignUpForm
from battles.identity import GUEST_SESSION_KEY
from battles.services.accounts import adopt_guest_data
from battles.views.account import give_recovery_codes, sign_in_refused
from battles.views.csrf import posted_from_no_referrer_pages
from battles.views.errors import too_many_requests

NEXT_FIELD = "next"


def _safe_next(request: HttpRequest) -> str:
    """The ``next`` page asked for, if it is on this site; else ""."""
    wanted = request.POST.get(NEXT_FIELD) or request.GET.get(NEXT_FIELD, "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return ""


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing in: the safe ``next``, else home."""
    return _safe_next(request) or resolve_url(settings.LOGIN_REDIRECT_URL)


def _sign_in(request: HttpRequest, user) -> None:
    """Log ``user`` in and give them what this phone's guest built."""
    guest_key = request.session.get(GUEST_SESSION_KEY, "")
    login(request, user)
    adopted = adopt_guest_data(guest_key, user)
    request.session.pop(GUEST_SESSION_KEY, None)
    if adopted.anything:
        messages.success(
            request,
            _("What you built on this phone is now in your account: %(what)s.")
            % {"what": _adopted_words(adopted)},
        )
    for old, new in adopted.renamed:
        messages.info(
            request,
            _("You already had “%(old)s”: the one from this phone is now “%(new)s”.")
            % {"old": old, "new": new},
        )


def _adopted_words(adopted) -> str:
    parts = []
    if adopted.armies:
        parts.append(
            ngettext("%(count)d army", "%(count)d armies", adopted.armies)
            % {"count": adopted.armies}
        )
    if adopted.cards:
        parts.append(
            ngettext(
                "%(count)d reference card", "%(count)d reference cards", adopted.cards
            )
            % {"count": adopted.cards}
        )
    if adopted.seats:
        parts.append(
            ngettext("%(count)d game", "%(count)d games", adopted.seats)
            % {"count": adopted.seats}
        )
    return ", ".join(parts)


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
@never_cache
def signup(request: HttpRequest) -> HttpResponse:
    """A new account; the phone's guest armies and games move into it."""
    form = SignUpForm()
    if request.method == "POST":
        # Only accounts made count: a refused form costs the network nothing.
        address = ratelimit.client_ip(request)
        decision = ratelimit.peek(ratelimit.sign_up_limit(), address)
        if not decision.allowed:
            return too_many_requests(request, decision)
        form = SignUpForm(request.POST)
        if form.is_valid():
            user = form.save()
            ratelimit.hit(ratelimit.sign_up_limit(), address)
            _sign_in(request, user)
            messages.success(
                request,
                _("Welcome, %(name)s: your account is ready.")
                % {"name": user.get_username()},
            )
            give_recovery_codes(request, user)
            codes = resolve_url("recovery_codes")
            wanted = _safe_next(request)
            return redirect(
                f"{codes}?{urlencode({'next': wanted})}" if wanted else codes
            )
    context = {"form": form, "next": _safe_next(request)}
    return render(request, "accounts/signup.html", context)


@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
@never_cache
def signin(request: HttpRequest) -> HttpResponse:
    """Sign in with a username and a password (limited per address and name)."""
    form = SignInForm(request)
    if request.method == "POST":
        refused = sign_in_refused(request)
        if refused:
            return refused
        form = SignInForm(request, data=request.POST)
        if form.is_valid():
            _sign_in(request, form.get_user())
            return redirect(_next_url(request))
    context = {"form": form, "next": _safe_next(request)}
    return render(request, "accounts/login.html", context)


@posted_from_no_referrer_pages
@require_POST
def signout(request: HttpRequest) -> HttpResponse:
    """Sign out: the session is flushed, the phone is an anonymous guest again.

    The header's form is on every page, the join page too, whose
    ``Referrer-Policy: no-referrer`` makes the browser send ``Origin: null``.
    """
    logout(request)
    messages.success(request, _("You are signed out."))
    return redirect(settings.LOGOUT_REDIRECT_URL)

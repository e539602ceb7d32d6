"""The account page and password recovery (issue #29): thin views over
``battles.services.account_security``.

Nobody but the member sets her password: from this page (the current
password, or on a device where she is signed in, a new one), with one of her
recovery codes, or by e-mail where the server sends mail. The recovery codes
are shown once after they are made (and downloadable as a text file until she
says she saved them); only their hashes are kept.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_GET, require_http_methods

from battles import ratelimit
from battles.forms.accounts import (
    ChangePasswordForm,
    EmailForm,
    ForgottenPasswordForm,
    NamesForm,
    NewCodesForm,
    RecoverForm,
)
from battles.services import account_security as accounts
from battles.services.account_security import AccountError
from battles.validation import add_field_error
from battles.views.errors import too_many_requests

SHOWN_CODES = "recovery_codes_to_show"


def give_recovery_codes(request: HttpRequest, user) -> None:
    """New codes for ``user``, kept in this session until she saved them."""
    request.session[SHOWN_CODES] = accounts.new_recovery_codes(user)


def _safe_next(request: HttpRequest) -> str:
    wanted = request.POST.get("next") or request.GET.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return ""


def _password_set(request: HttpRequest, user) -> None:
    """This device stays signed in; every other one is signed out."""
    old_key = request.session.session_key
    update_session_auth_hash(request, user)
    accounts.move_device(old_key, request.session.session_key)
    accounts.sign_out_devices(user, keep=request.session.session_key)


ACCOUNT_FORMS = ("names", "email", "password", "forgotten", "others", "codes")


@sensitive_post_parameters(
    "password-old_password",
    "password-new_password1",
    "password-new_password2",
    "forgotten-new_password1",
    "forgotten-new_password2",
    "codes-password",
    "email-password",
)
@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def account_page(request: HttpRequest) -> HttpResponse:
    """Names, e-mail, password, signed-in devices, recovery codes."""
    user = request.user
    which = request.POST.get("form", "") if request.method == "POST" else ""
    data = request.POST if which else None
    forms = {
        "names": NamesForm(
            data if which == "names" else None,
            initial={
                "display_name": accounts.display_name_of(user),
                "first_name": user.first_name,
                "last_name": user.last_name,
            },
            prefix="names",
        ),
        "email": EmailForm(
            user,
            data if which == "email" else None,
            initial={"email": user.email},
            prefix="email",
        ),
        "password": ChangePasswordForm(
            user, data if which == "password" else None, prefix="password"
        ),
        "forgotten": ForgottenPasswordForm(
            user, data if which == "forgotten" else None, prefix="forgotten"
        ),
        "codes": NewCodesForm(user, data if which == "codes" else None, prefix="codes"),
    }
    if which in ("names", "email", "password", "forgotten"):
        form = forms[which]
        if form.is_valid():
            try:
                done = _save(request, which, form)
            except AccountError as error:
                add_field_error(form, error)
            else:
                messages.success(request, done)
                return redirect("account")
    elif which == "others":
        count = accounts.sign_out_devices(user, keep=request.session.session_key)
        messages.success(
            request,
            _("Signed out of your other devices (%(count)d).") % {"count": count},
        )
        return redirect("account")
    elif which == "codes" and forms["codes"].is_valid():
        give_recovery_codes(request, user)
        return redirect("recovery_codes")
    context = {
        **forms,
        "devices": accounts.devices_of(user),
        "this_device": request.session.session_key,
        "codes_left": accounts.codes_left(user),
        "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL,
    }
    return render(request, "accounts/account.html", context)


def _save(request: HttpRequest, which: str, form) -> str:
    user = request.user
    data = form.cleaned_data
    if which == "names":
        accounts.update_names(
            user,
            display=data["display_name"],
            first_name=data["first_name"],
            last_name=data["last_name"],
        )
        return _("Your names are saved.")
    if which == "email":
        accounts.set_email(user, data["email"])
        return _("Your e-mail address is saved.")
    if which == "forgotten":
        accounts.check_forgotten_allowed(user)
    form.save()
    _password_set(request, user)
    return _("Your new password is set; your other devices are signed out.")


@login_required
@require_http_methods(["GET", "POST"])
@never_cache
def recovery_codes(request: HttpRequest) -> HttpResponse:
    """The codes just made, shown once; "I saved them" forgets them here."""
    if request.method == "POST":
        request.session.pop(SHOWN_CODES, None)
        return redirect(_safe_next(request) or settings.LOGIN_REDIRECT_URL)
    context = {
        "codes": request.session.get(SHOWN_CODES) or [],
        "codes_left": accounts.codes_left(request.user),
        "next": _safe_next(request),
    }
    return render(request, "accounts/recovery_codes.html", context)


@login_required
@require_GET
@never_cache
def recovery_codes_text(request: HttpRequest) -> HttpResponse:
    """The codes just made, as a text file to keep (until she saved them)."""
    codes = request.session.get(SHOWN_CODES) or []
    if not codes:
        return redirect("recovery_codes")
    lines = [
        _("Recovery codes for %(name)s on %(site)s")
        % {"name": request.user.get_username(), "site": request.get_host()},
        _("Each code sets a new password once."),
        "",
        *codes,
        "",
    ]
    response = HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="recovery-codes.txt"'
    return response


def sign_in_refused(request: HttpRequest) -> HttpResponse | None:
    """The answer to a posted sign-in (or recovery) past its limits, per
    address and per address and name; None while within them."""
    username = request.POST.get("username", "").strip().casefold()[:150]
    address = ratelimit.client_ip(request)
    decisions = [
        ratelimit.hit(ratelimit.SIGN_IN_ADDRESS, address),
        ratelimit.hit(ratelimit.SIGN_IN, address, username),
    ]
    refused = [d for d in decisions if not d.allowed]
    if refused:
        return too_many_requests(request, max(refused, key=lambda d: d.retry_after))
    return None


@sensitive_post_parameters("code", "new_password1", "new_password2")
@require_http_methods(["GET", "POST"])
@never_cache
def recover(request: HttpRequest) -> HttpResponse:
    """A lost password: the username, a recovery code, a new password. Every
    device is signed out, then this one is signed in."""
    form = RecoverForm(request.POST or None)
    if request.method == "POST":
        refused = sign_in_refused(request)
        if refused:
            return refused
        if form.is_valid():
            data = form.cleaned_data
            try:
                user = accounts.recover_with_code(
                    data["username"], data["code"], data["new_password1"]
                )
            except AccountError as error:
                add_field_error(form, error)
            else:
                login(request, user)
                left = accounts.codes_left(user)
                messages.success(
                    request,
                    _(
                        "Your new password is set and every other device is signed "
                        "out. Recovery codes left: %(left)d."
                    )
                    % {"left": left},
                )
                return redirect("account")
    context = {"form": form, "reset_by_email": settings.PASSWORD_RESET_BY_EMAIL}
    return render(request, "accounts/recover.html", context)

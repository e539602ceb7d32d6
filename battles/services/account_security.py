"""Nobody but the member sets her password (issue #29).

She recovers it with one of her recovery codes (shown once when made, kept
as a keyed hash, each used once), with Django's e-mail reset when she gave
an address and ``EMAIL_HOST`` is set, or from a device where she is still
signed in (the account page). No club admin has any power over it.

Her signed-in devices are sessions (``SignedInDevice``): the account page
lists them and signs the others out; recovering or setting a new password
signs every other device out.

Why our own small model and not a library: django-allauth brings its own
account pages, URL tree, templates and settings (a second sign-in flow
beside ours, to restyle for our CSP and translations), and django-otp's
static tokens are a second factor checked after a password, not a way to
set a new one. Ten random codes hashed with the site's key are a few lines.
"""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from battles.models.accounts import AccountProfile, RecoveryCode, SignedInDevice
from battles.validation import FieldError

CODES = 10
# 10 characters from 32 (no 0/O, 1/I/L): 50 bits each, read aloud easily.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 10

User = get_user_model()


class AccountError(FieldError):
    """An account action refused; the message is for the person."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message, field or "")


def _normalise(code: str) -> str:
    return "".join(ch for ch in code.upper() if ch.isalnum())


def _hash(code: str) -> str:
    return salted_hmac(
        "battles.account.recovery", _normalise(code), algorithm="sha256"
    ).hexdigest()


def _new_code() -> str:
    raw = "".join(secrets.choice(ALPHABET) for _i in range(CODE_LENGTH))
    return f"{raw[:5]}-{raw[5:]}"


def new_recovery_codes(user) -> list[str]:
    """Ten fresh codes for ``user``; the old ones stop working. The codes are
    returned once, to be shown once: only their hashes are kept."""
    codes = [_new_code() for _i in range(CODES)]
    with transaction.atomic():
        RecoveryCode.objects.filter(user=user).delete()
        RecoveryCode.objects.bulk_create(
            RecoveryCode(user=user, code_hash=_hash(code)) for code in codes
        )
    return codes


def codes_left(user) -> int:
    return RecoveryCode.objects.filter(user=user, used__isnull=True).count()


def check_forgotten_allowed(user) -> None:
    """A signed-in device sets a password without the old one only while the
    member holds no unused recovery code: else a stolen session (a phone
    left at the club) would take the account and lock her out. She uses a
    code instead, which signs every other device out."""
    if codes_left(user):
        raise AccountError(
            _(
                "You still have recovery codes: use one on the recovery page to "
                "set a new password."
            ),
            field="new_password2",
        )


def recover_with_code(username: str, code: str, new_password: str):
    """Set ``new_password`` for ``username`` with one of their unused codes.

    The code is used up, and every device signed in to the account is signed
    out (whoever held it). A wrong name or code says the same thing.
    """
    refusal = _("This username and recovery code do not match an unused code.")
    user = User.objects.filter(username=username.strip()).first()
    if user is None or not code.strip():
        raise AccountError(refusal, field="code")
    with transaction.atomic():
        row = (
            RecoveryCode.objects.select_for_update()
            .filter(user=user, code_hash=_hash(code), used__isnull=True)
            .first()
        )
        if row is None:
            raise AccountError(refusal, field="code")
        row.used = timezone.now()
        row.save(update_fields=["used"])
        user.set_password(new_password)
        user.save(update_fields=["password"])
        sign_out_devices(user)
    return user


# --- the display name -----------------------------------------------------------


def display_name(user) -> str:
    """The name other players see: the display name, else the login."""
    profile = getattr(user, "profile", None) if _has_profile(user) else None
    return (profile.display_name if profile else "") or user.get_username()


def display_name_of(user) -> str:
    """The display name she chose ("" if none)."""
    return user.profile.display_name if _has_profile(user) else ""


def _has_profile(user) -> bool:
    try:
        user.profile  # noqa: B018
    except AccountProfile.DoesNotExist:
        return False
    return True


def update_names(user, *, display: str, first_name: str, last_name: str) -> None:
    """The display name (nickname) and the first and last names (for a
    federation's export), each trimmed."""
    display = display.strip()
    if (
        display
        and User.objects.filter(profile__display_name__iexact=display)
        .exclude(pk=user.pk)
        .exists()
    ):
        raise AccountError(
            _("Another player already uses this display name."), field="display_name"
        )
    with transaction.atomic():
        AccountProfile.objects.update_or_create(
            user=user, defaults={"display_name": display}
        )
        user.first_name = first_name.strip()
        user.last_name = last_name.strip()
        user.save(update_fields=["first_name", "last_name"])


def set_email(user, email: str) -> None:
    email = email.strip()
    if email and User.objects.filter(email__iexact=email).exclude(pk=user.pk).exists():
        raise AccountError(_("Another account uses this address."), field="email")
    with transaction.atomic():
        user.email = email
        user.save(update_fields=["email"])


# --- signed-in devices ------------------------------------------------------------


def session_store(session_key: str) -> SessionBase:
    from importlib import import_module

    from django.conf import settings

    engine = import_module(settings.SESSION_ENGINE)
    return engine.SessionStore(session_key=session_key)


def note_device(user, session_key: str | None, user_agent: str = "") -> None:
    """The session ``session_key`` is signed in to ``user``."""
    if not session_key:
        return
    SignedInDevice.objects.update_or_create(
        session_key=session_key,
        defaults={"user": user, "user_agent": user_agent[:200]},
    )


def move_device(old_key: str | None, new_key: str | None) -> None:
    """The session got a new key (a password change cycles it)."""
    if old_key and new_key and old_key != new_key:
        SignedInDevice.objects.filter(session_key=old_key).update(session_key=new_key)


def forget_device(session_key: str | None) -> None:
    if session_key:
        SignedInDevice.objects.filter(session_key=session_key).delete()


def devices_of(user) -> list[SignedInDevice]:
    """The sessions ``user`` is signed in on, newest first (gone ones pruned)."""
    rows = list(SignedInDevice.objects.filter(user=user))
    alive = []
    for row in rows:
        if session_store(row.session_key).exists(row.session_key):
            alive.append(row)
        else:
            row.delete()
    return alive


def sign_out_devices(user, *, keep: str | None = None) -> int:
    """Sign ``user`` out of every device but the session ``keep``."""
    count = 0
    for row in SignedInDevice.objects.filter(user=user).exclude(session_key=keep or ""):
        session_store(row.session_key).delete(row.session_key)
        row.delete()
        count += 1
    return count


__all__ = [
    "AccountError",
    "check_forgotten_allowed",
    "codes_left",
    "devices_of",
    "display_name",
    "new_recovery_codes",
    "recover_with_code",
    "set_email",
    "sign_out_devices",
    "update_names",
]

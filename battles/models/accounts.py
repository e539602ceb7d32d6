"""What an account keeps beside Django's user: a display name, one-time
recovery codes, and the devices (sessions) it is signed in on.

Issue #29, "no admin above the rules": nobody but the member sets her
password. She recovers with a recovery code (shown once, stored hashed, used
once), an e-mail reset when she gave an address and e-mail is configured, or
from a device where she is still signed in.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AccountProfile(models.Model):
    """The name other players see (a nickname), distinct from the login."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(_("display name"), max_length=60, blank=True)

    def __str__(self) -> str:
        return self.display_name or str(self.user_id)


class RecoveryCode(models.Model):
    """One code that sets a new password once; only its keyed hash is kept."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    code_hash = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(default=timezone.now)
    used = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"recovery code of {self.user_id}"


class SignedInDevice(models.Model):
    """A session an account is signed in on: listed on the account page,
    signed out from there."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    session_key = models.CharField(max_length=40, unique=True)
    user_agent = models.CharField(max_length=200, blank=True)
    signed_in = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-signed_in", "-id"]

    def __str__(self) -> str:
        return f"device of {self.user_id}"

"""A creating form sent twice makes one thing (issue 30, DESIGN "Concurrency").

``once(kind, ...)`` wraps a service that creates something: it then takes a
``tap_key`` keyword (the form's one-use key). The key is claimed in the
service's transaction; the same key again (a double tap, a form sent twice
at once, a retry) gives back what the first submission made, and nothing
is created twice. Without a key the service runs as before.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from battles.models.once import FormSubmission

MAX_KEY = 40
# How long a claimed key is kept: a form sent again within it (a double tap,
# a retry, the page sent again from the back button) still makes nothing
# new. Older claims are deleted as a new one is made, so the table holds
# the last KEPT_DAYS of creating forms, not every one ever sent.
KEPT_DAYS = 90


def _claim(kind: str, key: str) -> int | None:
    """Claim ``key`` for a ``kind``; None if it is new, else the id of what
    its first submission made. Raises ``LookupError`` for a key used by
    another kind of form (or whose first submission made nothing)."""
    cutoff = timezone.now() - timedelta(days=KEPT_DAYS)
    FormSubmission.objects.filter(created__lt=cutoff).delete()
    try:
        with transaction.atomic():
            FormSubmission.objects.create(key=key, kind=kind)
    except IntegrityError:
        # PostgreSQL: the insert waited for the first submission's commit.
        row = FormSubmission.objects.filter(key=key).first()
        if row is None or row.kind != kind or row.object_id is None:
            raise LookupError(key) from None
        return row.object_id
    return None


def _identity(who: Any) -> str:
    """A guest or an account (an ``Owner`` or a user), as text."""
    if getattr(who, "user_id", None) is not None:
        return f"user:{who.user_id}"
    if getattr(who, "guest_key", ""):
        return f"guest:{who.guest_key}"
    return f"user:{getattr(who, 'pk', '')}"


def once(
    kind: str,
    *,
    by: str,
    error: type[Exception],
    fetch: Callable[[int], Any],
    pk_of: Callable[[Any], int] = lambda made: made.pk,
):
    """Decorate a creating service: ``tap_key`` makes it run once per key.

    ``by`` names the service's parameter holding who creates (an ``Owner``
    or a user): a key is claimed for that person alone, so nobody else's
    form can ever fetch what theirs made. ``fetch(id)`` gives back what the
    first submission made; ``error`` is the service's own error class
    (raised with a message for a key already used by another form)."""

    def wrap(service):
        signature = inspect.signature(service)

        @functools.wraps(service)
        def run(*args, tap_key: str | None = "", **kwargs):
            raw = (tap_key or "").strip()[:MAX_KEY]
            if not raw:
                return service(*args, **kwargs)
            who = signature.bind_partial(*args, **kwargs).arguments[by]
            text = f"{_identity(who)}\x1f{raw}"
            key = hashlib.sha256(text.encode()).hexdigest()[:MAX_KEY]
            with transaction.atomic():
                try:
                    made_id = _claim(kind, key)
                except LookupError:
                    raise error(
                        _("This form was already used: reload the page.")
                    ) from None
                if made_id is not None:
                    try:
                        return fetch(made_id)
                    except ObjectDoesNotExist:  # made, then deleted since
                        raise error(
                            _("This form was already used: reload the page.")
                        ) from None
                made = service(*args, **kwargs)
                FormSubmission.objects.filter(key=key).update(object_id=pk_of(made))
                return made

        return run

    return wrap


__all__ = ["KEPT_DAYS", "MAX_KEY", "once"]

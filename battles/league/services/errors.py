"""The league's one refusal: ``LeagueError``, a message for the person and
the field it is about; every league service raises it and changes nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from battles.validation import FieldError

User = get_user_model()


class LeagueError(FieldError):
    """A league action refused; the message is for the person, ``field`` its place
    (the project's one field error, ``battles.validation.FieldError``)."""

    def __init__(self, message: str, *, field: str | None = None):
        super().__init__(message, field or "")

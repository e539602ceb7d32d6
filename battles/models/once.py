"""One row per creating form sent (issue 30): a double submission is one.

Every form that creates something carries a one-use key (a hidden field
made when the form is shown). The service claims the key in the same
transaction as it creates the thing; the unique key makes the second of two
identical submissions wait for the first (PostgreSQL) or come after it
(SQLite's immediate transactions), then find what the first made.
"""

from __future__ import annotations

from django.db import models


class FormSubmission(models.Model):
    """The form key ``key`` made the ``kind`` thing whose id is ``object_id``."""

    key = models.CharField(max_length=40, unique=True)
    kind = models.CharField(max_length=30)
    object_id = models.BigIntegerField(null=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.kind} {self.object_id} ({self.key[:6]}…)"

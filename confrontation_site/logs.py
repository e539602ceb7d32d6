"""Log lines an operator can read (issue 30).

A refusal the app makes on purpose (403, 404, 400...) is logged by Django
with the exception's whole traceback: about 2 KB for every "permission
denied". An expected condition gets one line here; a server error (5xx)
keeps its traceback.
"""

from __future__ import annotations

import logging


class RefusalsInOneLine(logging.Filter):
    """``django.request`` and ``django.security``: a 4xx answer's record
    without its traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True

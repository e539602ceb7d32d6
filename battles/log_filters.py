"""Log filters (issue #29): a refusal is one log line, not a traceback.

Django logs every 4xx answer on ``django.request``; a ``PermissionDenied``
carries its exception, so each 403 wrote a whole traceback. A refusal is the
app working as meant: its line (status, path) says all. Server errors (5xx)
keep their traceback.
"""

from __future__ import annotations

import logging


class OneLineRefusals(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and status < 500:
            record.exc_info = None
            record.exc_text = None
        return True

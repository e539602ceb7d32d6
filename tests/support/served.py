"""The app served the way ``make run`` serves it (``confrontation_site.serve``)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from tests.support.servers import serving


def served(
    env: dict[str, str], *, ready_timeout: float = 60, log: Path | None = None
) -> AbstractContextManager[str]:
    """``python -m confrontation_site.serve`` on a free loopback port; its URL
    (its error output in ``log``, if given)."""
    return serving(
        ["confrontation_site.serve"],
        env,
        ready_timeout=ready_timeout,
        quiet=True,
        log=log,
    )

"""Screenshots of what a player sees, for a person to look at (360x740 phones).

One helper for every browser test: ``caret="initial"``, because Playwright's
caret-hiding style is an inline style the strict CSP refuses (a console error,
which fails the test).
"""

from __future__ import annotations

import os
from pathlib import Path

SHOTS_ROOT = Path(os.environ.get("SHOTS_DIR", "/tmp/shots"))


def shot(target, folder: str, name: str, **options) -> Path:
    """Save ``target`` (a page or a locator) as ``<SHOTS_DIR>/<folder>/<name>.png``."""
    path = SHOTS_ROOT / folder / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), caret="initial", **options)
    return path

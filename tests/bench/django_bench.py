"""What the in-process Django benchmarks share: Django started as in production
(``DEBUG`` off) on a throw-away SQLite file unless ``DATABASE_URL`` names
another database, and the percentile they report."""

from __future__ import annotations

import os
import tempfile


def start_django(**environment: str) -> None:
    """Set the environment (``environment`` adds to it; variables already set
    win), then ``django.setup()``."""
    scratch = tempfile.mkdtemp(prefix="confrontation-bench-")
    defaults = {
        "DJANGO_SETTINGS_MODULE": "confrontation_site.settings",
        "DATABASE_URL": f"sqlite:///{scratch}/bench.sqlite3",
        "DEBUG": "false",
        "SECRET_KEY": "bench-only-secret-key-0123456789abcdefghijklmnop",
        "ALLOWED_HOSTS": "testserver",
        "SECURE_SSL_REDIRECT": "false",
        **environment,
    }
    for name, value in defaults.items():
        os.environ.setdefault(name, value)

    import django

    django.setup()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]

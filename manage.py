#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "confrontation_site.settings")
    from django.core.management import execute_from_command_line
    from django.db.utils import OperationalError

    try:
        execute_from_command_line(sys.argv)
    except OperationalError as error:
        # A database that cannot be reached: one clear line, not a traceback.
        first_line = str(error).strip().splitlines()[0] if str(error).strip() else ""
        sys.exit(f"Database error: {first_line} (check DATABASE_URL)")


if __name__ == "__main__":
    main()

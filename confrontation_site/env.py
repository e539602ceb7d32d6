"""Small, strict readers for settings taken from the environment.

A value that is set but malformed stops start-up with one clear line rather
than being silently replaced by a default (healthchecks' habit).
"""

from __future__ import annotations

import os
import sys

TRUE_WORDS = {"true", "1", "yes", "on"}
FALSE_WORDS = {"false", "0", "no", "off"}


def fail(message: str) -> None:
    """Stop start-up with a one-line message on stderr (no traceback)."""
    sys.exit(f"Configuration error: {message}")


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    fail(f"{name} must be true or false, not {raw!r}.")
    raise AssertionError  # unreachable: fail() exits


def env_int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        fail(f"{name} must be a whole number, not {raw!r}.")
        raise AssertionError from None


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]

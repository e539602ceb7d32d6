"""The argument checks every section of the sheet shares: whole numbers and counts."""

from __future__ import annotations


def whole_number(value: object, name: str) -> int:
    """``value`` if it is an int (not a bool), else ``TypeError`` naming it."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be a whole number, not {value!r}.")
    return value


def checked_count(value: int, name: str) -> int:
    """``value`` if it is a whole number of at least 0, else an error naming it."""
    value = whole_number(value, name)
    if value < 0:
        raise ValueError(f"{name} cannot be negative.")
    return value

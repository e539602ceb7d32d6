"""A game's addresses, each reversed once per process.

A board names the same few addresses at every render (its actions', its
tools', its sequence's), for every phone and every push: Django's
``reverse`` walks the URL patterns each time, 50 µs for one argument and
185 µs for two on a slow laptop, about 0.6 ms of a render. The patterns do
not change while a process runs; the script prefix and the URLconf in use
are part of the key all the same.
"""

from __future__ import annotations

from functools import lru_cache

from django.urls import get_script_prefix, get_urlconf, reverse


@lru_cache(maxsize=4096)
def _reversed(name: str, args: tuple[str, ...], prefix: str, urlconf) -> str:
    return reverse(name, args=args, urlconf=urlconf)


def game_address(name: str, *args: object) -> str:
    """``reverse(name, args=args)``, remembered."""
    return _reversed(
        name, tuple(str(arg) for arg in args), get_script_prefix(), get_urlconf()
    )

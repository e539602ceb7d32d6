"""Magic and faith in words (X, XI): gems by element, spells and miracles in
the log."""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext_lazy as _lazy

ELEMENT_WORDS = {
    "light": _lazy("light"),
    "darkness": _lazy("darkness"),
    "air": _lazy("air"),
    "water": _lazy("water"),
    "fire": _lazy("fire"),
    "earth": _lazy("earth"),
    "neutral": _lazy("neutral"),
}


def element_word(element: str) -> str:
    return str(ELEMENT_WORDS.get(element, element))


def gem_words(gems: Mapping[str, int] | None) -> str:
    """ "2 fire, 1 light" (the elements with gems, in the rules' order);
    "0" when there is none."""
    parts = [
        f"{count} {element_word(element)}"
        for element, count in (gems or {}).items()
        if count
    ]
    return ", ".join(parts) or "0"

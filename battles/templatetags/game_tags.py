"""Small formatting helpers for the game board (kept out of template loops)."""

from __future__ import annotations

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.filter
def characteristics(values: list[tuple[str, object, object]]) -> SafeString:
    """ "MOU 10 · INI 4 · ATT <strong>3</strong>": current values, changed ones bold."""
    parts = [
        format_html("{} <strong>{}</strong>", code, current)
        if base != current
        else format_html("{} {}", code, current)
        for code, base, current in values
    ]
    return format_html_join(" · ", "{}", ((part,) for part in parts))

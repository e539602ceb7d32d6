"""``{% once_key %}``: the hidden one-use key of a form that creates something
(``battles.services.once``: the same form sent twice makes one thing)."""

from __future__ import annotations

import secrets

from django import template
from django.utils.html import format_html

register = template.Library()


@register.simple_tag
def once_key() -> str:
    return format_html(
        '<input type="hidden" name="tap_key" value="{}">', secrets.token_urlsafe(16)
    )

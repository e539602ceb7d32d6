"""Small display helpers for the hex combat sheet."""

from django import template

register = template.Library()


@register.filter
def signed(value: int) -> str:
    """An advantage as players write it: +2, 0, −3 (a true minus sign)."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"\u2212{-number}"
    return "0"

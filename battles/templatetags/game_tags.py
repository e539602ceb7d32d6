"""Small formatting helpers for the game board (kept out of template loops)."""

from __future__ import annotations

from html import escape  # what Django's escape calls, less its lazy-text check

from django import template
from django.template.defaulttags import CsrfTokenNode
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import SafeString

from battles.presenters.urls import game_address as _game_address

register = template.Library()
CSRF_FIELD = CsrfTokenNode()


@register.simple_tag
def game_address(name: str, *args: object) -> str:
    """``{% url %}`` for a game's own views, reversed once per process
    (``battles.presenters.urls``): a board names them at every render."""
    return _game_address(name, *args)


@register.filter
def characteristics(values: list[tuple[str, object, object]]) -> SafeString:
    """ "MOU 10 · INI 4 · ATT <strong>3</strong>": current values, changed ones bold.
    Written out rather than by ``format_html`` per value: a fighter's line is
    in every board and in each answer that changes it (a third of its render)."""
    parts = []
    for code, base, current in values:
        shown = escape(_number(current))
        if base != current:
            shown = f"<strong>{shown}</strong>"
        parts.append(f"{escape(str(code))} {shown}")
    return SafeString(" · ".join(parts))


def _number(value: object) -> str:
    """``localize(value)``; a small whole number as it is, which is what
    ``localize`` gives it in every language (no separator below 1,000),
    without its format look-ups (4 µs each)."""
    if type(value) is int and -1000 < value < 1000:
        return str(value)
    return str(localize(value))


@register.filter
def wound_steps(steps: int) -> SafeString:
    """The four wound steps (II-B), the first ``steps`` of them taken (none
    for a count that is not a number, as the template's loop did)."""
    steps = steps if isinstance(steps, int) else 0
    return SafeString(
        "".join(
            '<span class="step taken"></span>'
            if n < steps
            else '<span class="step"></span>'
            for n in range(4)
        )
    )


@register.simple_tag(takes_context=True)
def csrf_field(context) -> SafeString:
    """Django's ``{% csrf_token %}``, but in a ``fragment``: a tap's answer
    or a pushed board, which only script swaps in and whose forms only
    script posts (htmx, or ``live.js`` for the panel's taps), with the page's
    token in a header (``base.html``'s ``hx-headers``). There a field would
    only add an element per form, and a token masked afresh per render: 32
    draws of the system's randomness, each letting go of the interpreter's
    lock, which a busy server gives back late."""
    if context.get("fragment"):
        return SafeString("")
    return CSRF_FIELD.render(context)


@register.simple_tag(takes_context=True)
def tap_fields(context, command_type: str = "", side: str | None = None) -> SafeString:
    """The hidden fields every tap sends: the CSRF token (``csrf_field``),
    the command's type, the side, the version the phone shows and a fresh tap
    key (DESIGN "Double taps"). A tag rather than an included template: a
    panel holds several."""
    tap = context.get("tap")
    return format_html(
        "{}{}"
        '<input type="hidden" name="side" value="{}">'
        '<input type="hidden" name="version" value="{}">'
        '<input type="hidden" name="tap" value="{}">',
        csrf_field(context),
        format_html('<input type="hidden" name="type" value="{}">', command_type)
        if command_type
        else "",
        context.get("side", "") if side is None else side,
        context["game"].version,
        tap() if callable(tap) else tap or "",
    )


@register.simple_tag(takes_context=True)
def act_attrs(context) -> SafeString:
    """A tap's form attributes: posted to the game's ``act`` URL (a plain
    POST without JavaScript; with it, by ``live.js`` as htmx would, these
    attributes being what it looks for), the answer taking the panel's
    place, its buttons disabled while the tap is under way."""
    return format_html(
        'hx-post="{0}" hx-target="#game-panel" hx-swap="outerHTML" '
        'hx-disabled-elt="find button" method="post" action="{0}"',
        context["act_url"],
    )

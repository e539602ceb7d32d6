"""Exceptions raised by the rules engine, and the marker for their messages."""

from __future__ import annotations

from typing import Any


def _(message: str) -> str:
    """Mark a message for translation without translating it here.

    ``rules/`` imports no Django; the app's ``makemessages`` extracts the
    strings marked ``_()`` and translates them when it shows them.
    """
    return message


class IllegalAction(ValueError):
    """An action the rules forbid right now.

    The message says why in words a player understands; the state that raised
    it is left unchanged. Give a template marked with ``_()`` and its values,
    ``IllegalAction(_("{name} was eliminated."), name=label)``: ``str()`` is
    the English sentence, and the app translates ``template`` then fills in
    ``params``.
    """

    def __init__(self, template: str, **params: Any):
        self.template = template
        self.params = params
        super().__init__(template.format(**params) if params else template)

"""Exceptions raised by the rules engine, and the marker for their messages.

A message a player may read is a template marked with ``_()`` and its values,
str.format style: ``_("{card} is missing.")`` with ``card="Lion"``. The rules
keep the English sentence (``str()``); the app translates the template with
gettext, then fills in the values (``render``). A value may itself be a
``Message`` (translated the same way) or a ``Words`` (a name the rules know in
both languages).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["IllegalAction", "Message", "Words", "_", "joined", "render"]

Translate = Callable[[str], str]


def _(message: str) -> str:
    """Mark a message for translation without translating it here.

    ``rules/`` imports no Django; the app's ``makemessages`` extracts the
    strings marked ``_()`` and translates them when it shows them.
    """
    return message


def _same(message: str) -> str:
    return message


def _fill(template: str, params: Mapping[str, Any]) -> str:
    return template.format(**params) if params else template


class Words(str):
    """A name the rules know in English and in French (an upkeep step...).

    ``str()`` is the English; ``render`` picks the French for a French reader.
    """

    fr: str

    def __new__(cls, en: str, fr: str) -> Words:
        words = super().__new__(cls, en)
        words.fr = fr
        return words


class Message(str):
    """A player-facing sentence that remembers its template and values.

    It is the English sentence (so it compares and joins as a ``str``), and
    ``render`` gives it in the reader's language.
    """

    template: str
    params: dict[str, Any]

    def __new__(cls, template: str, **params: Any) -> Message:
        message = super().__new__(cls, _fill(template, params))
        message.template = template
        message.params = params
        return message

    def render(self, translate: Translate = _same, language: str = "en") -> str:
        """The sentence through ``translate`` (gettext), values filled in."""
        return render(self.template, self.params, translate, language)


def _value(value: Any, translate: Translate, language: str) -> Any:
    if isinstance(value, Message):
        return value.render(translate, language)
    if isinstance(value, Words):
        return value.fr if language.lower().startswith("fr") else str(value)
    return value


def render(
    template: str,
    params: Mapping[str, Any],
    translate: Translate = _same,
    language: str = "en",
) -> str:
    """``template`` translated, then filled in with ``params`` (also translated).

    A translation that lost or misspelt a placeholder falls back to English.
    """
    text = translate(template)
    if not params:
        return text
    values = {key: _value(value, translate, language) for key, value in params.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError, AttributeError):
        return template.format(**values)


def joined(messages: Sequence[str]) -> str:
    """Several sentences shown together, each one translated on its own."""
    if len(messages) == 1:
        return messages[0]
    template = " ".join(f"{{part{index}}}" for index in range(len(messages)))
    return Message(template, **{f"part{i}": m for i, m in enumerate(messages)})


class IllegalAction(ValueError):
    """An action the rules forbid right now.

    The message says why in words a player understands; the state that raised
    it is left unchanged. Give a template marked with ``_()`` and its values,
    ``IllegalAction(_("{name} was eliminated."), name=label)``: ``str()`` is
    the English sentence, and the app translates ``template`` then fills in
    ``params`` (``render``). A ``Message`` (a reason found earlier) may be
    given alone in place of the template.
    """

    def __init__(self, template: str, **params: Any):
        if isinstance(template, Message) and not params:
            template, params = template.template, dict(template.params)
        self.template = template
        self.params = params
        super().__init__(_fill(template, params))

    def render(self, translate: Translate = _same, language: str = "en") -> str:
        """The message through ``translate`` (gettext), values filled in."""
        return render(self.template, self.params, translate, language)

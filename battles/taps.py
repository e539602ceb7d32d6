"""Reading a player's tap (an HTML form post) into a rules command.

Everything a phone sends is untrusted: each field is checked for its type and
size here, as its command's declaration says (``rules.game.commands.
CommandKind``: a new command needs no parsing of its own); the rules then
check that the command is legal.
A bad field gives ``FieldError`` (``battles.validation``) with a message for
the player, and nothing is applied.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from battles.forms.games import (
    CharacteristicTestForm,
    LastingEffectForm,
    ScatterForm,
)
from battles.services.games import TABLE_COMMANDS
from battles.validation import (
    FieldError,
    check_float,
    check_int,
    check_text,
    parse_faces,
)
from rules.game import COMMAND_TABLE
from rules.game.commands import MAX_ID, MAX_LIST, Field
from rules.magic import GEM_KINDS

MAX_TAP_KEY = 64


@dataclass(frozen=True)
class Tap:
    """One tap: who acts, what, on which version, with which key and dice."""

    side: str
    command: dict[str, Any]
    version: int | None
    key: str
    faces: list[int] | None
    # Several commands of one type in one tap (a side's whole placement,
    # VII-C-1): applied in order as one action; ``command`` is the first.
    commands: tuple[dict[str, Any], ...] = ()


def _bool(raw: str | None) -> bool:
    return (raw or "").strip().lower() in ("1", "true", "on", "yes")


def _list(data: QueryDict, spec: Field) -> list[str]:
    most = spec.max_items or MAX_LIST
    values = [
        check_text(v, spec.name, max_length=spec.max_length or MAX_ID)
        for v in data.getlist(spec.name)[: most + 1]
    ]
    values = [v for v in values if v]
    if len(values) > most:
        raise FieldError(_("Too many values."), spec.name)
    return values


def _map(data: QueryDict, spec: Field) -> dict[str, str]:
    """Fields named ``prefix<key>`` (e.g. "opponent:<fighter>"), as a dict."""
    names = [key for key in data if key.startswith(spec.prefix)]
    if len(names) > (spec.max_items or MAX_LIST):
        raise FieldError(_("Too many values."), spec.name)
    found = {}
    for key in names:
        length = spec.max_length or MAX_ID
        item = check_text(key.removeprefix(spec.prefix), spec.name, max_length=length)
        value = check_text(data.get(key), spec.name, max_length=length)
        if item and value:
            found[item] = value
    return found


def _gems(data: QueryDict, spec: Field) -> dict[str, int] | None:
    """Fields named ``prefix<element>`` ("extra:fire"), each a number of
    gems; the elements left out or empty count 0 (X). None when none of
    them was posted."""
    found: dict[str, int] = {}
    posted = False
    for kind in GEM_KINDS:
        raw = data.get(spec.prefix + kind)
        if (raw or "").strip():
            posted = True
            count = check_int(raw, spec.name, spec.low, spec.high)
            if count:
                found[kind] = count
    return found if posted else None


def _value(data: QueryDict, spec: Field) -> Any:
    """One declared field (``rules.game.commands.Field``) read and checked; None
    when it is optional and was not sent."""
    if spec.type == "list":
        return _list(data, spec) or (None if not spec.required else [])
    if spec.type == "map":
        return _map(data, spec) or None
    if spec.type == "gems":
        return _gems(data, spec)
    raw = data.get(spec.name)
    if spec.type == "bool":
        return spec.default if raw is None else _bool(raw)
    if not (raw or "").strip() and not spec.required:
        return spec.default
    if spec.type == "int":
        return check_int(raw, spec.name, spec.low, spec.high)
    if spec.type == "float":
        return check_float(
            raw,
            spec.name,
            spec.low,
            spec.high,
            message=_("Enter a distance in cm, e.g. 18 or 18.5."),
        )
    longest = max((len(str(c)) for c in spec.choices), default=0)
    text = check_text(
        raw,
        spec.name,
        max_length=spec.max_length or max(longest, MAX_ID),
        required=spec.required,
    )
    if spec.type == "choice" and text not in spec.choices:
        raise FieldError(_("Choose one of the options offered."), spec.name)
    return text


def _form_command(form_class, data: QueryDict) -> dict[str, Any]:
    """A command's fields read by a thin form; its first error, next to its field."""
    form = form_class(data)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise FieldError(str(errors[0]), "" if field == "__all__" else field)
    return form.command()


# The tools at the table have a form of their own (shown on the phone, with a
# message for each field and the checks across fields); their taps are read
# by that form. Every other command is read from its declaration.
FORM_COMMANDS = {
    "characteristic_test": CharacteristicTestForm,
    "scatter": ScatterForm,
    "record_effect": LastingEffectForm,
}


def _fields(data: QueryDict, command_type: str) -> dict[str, Any]:
    """The command's fields as its declaration (``CommandKind.fields``) says;
    a field left out and optional without a default is not sent on."""
    if command_type in FORM_COMMANDS:
        return _form_command(FORM_COMMANDS[command_type], data)
    fields = {}
    declared = COMMAND_TABLE.get(command_type) or TABLE_COMMANDS[command_type]
    for spec in declared.fields:
        value = _value(data, spec)
        if value is not None:
            fields[spec.name] = value
    return fields


def parse_tap(data: QueryDict, default_side: str | None, default_type: str = "") -> Tap:
    """The tap a form posted; ``FieldError`` for anything malformed.
    ``default_type``: the command of a URL that names it (``/undo``)."""
    command_type = data.get("type") or default_type
    if command_type not in COMMAND_TABLE and command_type not in TABLE_COMMANDS:
        raise FieldError(_("Unknown action."), "type")
    side = data.get("side") or default_side or ""
    if side not in ("a", "b"):
        raise FieldError(_("Which side is acting?"), "side")
    version = parse_version(data)
    key = parse_tap_key(data)
    faces = parse_faces(data.get("faces")) if data.get("faces") else None
    each = _list(data, Field("each", "list", required=False))
    if each:
        # Several commands in one tap: the fields of item k are posted as
        # "k:<field>" (k: a fighter's id, say).
        commands = tuple(
            {"type": command_type, **_fields(_item(data, k), command_type)}
            for k in each
        )
    else:
        commands = ({"type": command_type, **_fields(data, command_type)},)
    return Tap(
        side=side,
        command=commands[0],
        version=version,
        key=key,
        faces=faces,
        commands=commands,
    )


def _item(data: QueryDict, key: str) -> QueryDict:
    """The fields "key:<name>" of one item of a tap, as "<name>"."""
    prefix = f"{key}:"
    item = QueryDict(mutable=True)
    for name in data:
        if name.startswith(prefix):
            item.setlist(name.removeprefix(prefix), data.getlist(name))
    return item


def parse_version(data: QueryDict) -> int | None:
    """The game version the page showed (None: not sent)."""
    raw = (data.get("version") or "").strip()
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 9:
        raise FieldError(_("This page is out of date: reload it."), "version")
    return int(raw)


def parse_since(data: QueryDict) -> int | None:
    """The version a refreshing phone shows (None: not sent, or not a version:
    it gets the whole board)."""
    try:
        return parse_version({"version": data.get("since", "")})
    except FieldError:
        return None


def parse_tap_key(data: QueryDict) -> str:
    """The tap's idempotency key: a retry of the same tap sends the same one."""
    return check_text(data.get("tap"), "tap", max_length=MAX_TAP_KEY)

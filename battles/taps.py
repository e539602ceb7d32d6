"""Reading a player's tap (an HTML form post) into a rules command.

Everything a phone sends is untrusted: each field is checked for its type and
size here; the rules then check that the command is legal. A bad field gives
``FieldError`` (``battles.validation``) with a message for the player, and
nothing is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from battles.forms.games import (
    CharacteristicTestForm,
    LastingEffectForm,
    ScatterForm,
)
from battles.validation import (
    FieldError,
    check_float,
    check_int,
    check_text,
    parse_faces,
)
from rules.game import COMMANDS

MAX_ID = 24
MAX_LIST = 60
MAX_TAP_KEY = 64


@dataclass(frozen=True)
class Tap:
    """One tap: who acts, what, on which version, with which key and dice."""

    side: str
    command: dict[str, Any]
    version: int | None
    key: str
    faces: list[int] | None


def _text(data: QueryDict, name: str, *, required: bool = True) -> str | None:
    value = check_text(data.get(name), name, max_length=MAX_ID, required=required)
    return value or None


def _int(data: QueryDict, name: str, low: int, high: int) -> int:
    return check_int(data.get(name), name, low, high)


def _float(data: QueryDict, name: str, low: float, high: float) -> float:
    return check_float(
        data.get(name),
        name,
        low,
        high,
        message=_("Enter a distance in cm, e.g. 18 or 18.5."),
    )


def _list(data: QueryDict, name: str) -> list[str]:
    values = [
        check_text(v, name, max_length=MAX_ID)
        for v in data.getlist(name)[: MAX_LIST + 1]
    ]
    values = [v for v in values if v]
    if len(values) > MAX_LIST:
        raise FieldError(_("Too many values."), name)
    return values


def _combat_choices(data: QueryDict) -> dict[str, Any]:
    """ "opponent:<fighter>" fields: whom each fighter faces (IV-C); none: the
    split the app suggested."""
    names = [key for key in data if key.startswith("opponent:")]
    if len(names) > MAX_LIST:
        raise FieldError(_("Too many values."), "opponent")
    choices = {}
    for key in names:
        fighter = check_text(
            key.removeprefix("opponent:"), "opponent", max_length=MAX_ID
        )
        value = check_text(data.get(key), "opponent", max_length=MAX_ID)
        if fighter and value:
            choices[fighter] = value
    if not choices:
        return {"combats": "suggested"}
    return {"choices": choices}


def _bool(data: QueryDict, name: str) -> bool:
    return data.get(name, "") in ("1", "true", "on", "yes")


def _form_command(form_class, data: QueryDict) -> dict[str, Any]:
    """A command's fields read by a thin form; its first error, next to its field."""
    form = form_class(data)
    if not form.is_valid():
        field, errors = next(iter(form.errors.items()))
        raise FieldError(str(errors[0]), "" if field == "__all__" else field)
    return form.command()


def _fields(data: QueryDict, command_type: str) -> dict[str, Any]:
    get: dict[str, Callable[[], dict[str, Any]]] = {
        "set_sequence": lambda: {"order": _list(data, "order")},
        "choose_tactics_fighter": lambda: {"fighter": _text(data, "fighter")},
        "choose_first": lambda: {"first": _text(data, "first")},
        "draw": lambda: {"action": _text(data, "action")},
        "end_activation": dict,
        "declare": lambda: {
            "fighter": _text(data, "fighter"),
            "action": _text(data, "action"),
            "targets": _list(data, "targets"),
        },
        "disengage": lambda: {
            "fighter": _text(data, "fighter"),
            "method": _text(data, "method"),
            "free_side": not _bool(data, "no_free_side"),
        },
        "shoot": lambda: {
            "fighter": _text(data, "fighter"),
            "target": _text(data, "target"),
            "distance_cm": _float(data, "distance_cm", 0, 1000),
            "nearest_friend": _text(data, "nearest_friend", required=False),
        },
        "set_contact": lambda: {
            "one": _text(data, "one"),
            "two": _text(data, "two"),
            "contact": _bool(data, "contact"),
        },
        "form_combats": lambda: _combat_choices(data),
        "choose_combat": lambda: {"combat": _int(data, "combat", 0, 500)},
        "set_combat_dice": lambda: {
            "fighter": _text(data, "fighter"),
            "attack": _int(data, "attack", 0, 10),
            "defence": _int(data, "defence", 0, 10),
        },
        "set_attack_difficulty": lambda: {
            "difficulty": (
                "DEF"
                if (data.get("difficulty") or "DEF").strip() in ("", "DEF")
                else _int(data, "difficulty", 0, 30)
            )
        },
        "attack": lambda: {
            "attacker": _text(data, "attacker"),
            "target": _text(data, "target"),
        },
        "parry": lambda: {"parry": _bool(data, "parry")},
        "end_combat": dict,
        "tick_upkeep": lambda: {
            "key": check_text(data.get("key"), "key", max_length=200),
            "rallied": _bool(data, "rallied"),
            "value": _int(data, "value", 0, 99) if data.get("value") else None,
            "pay": _bool(data, "pay"),
            **(
                {"difficulty": _int(data, "difficulty", 1, 30)}
                if data.get("difficulty")
                else {}
            ),
        },
        "characteristic_test": lambda: _form_command(CharacteristicTestForm, data),
        "scatter": lambda: _form_command(ScatterForm, data),
        "record_effect": lambda: _form_command(LastingEffectForm, data),
        "end_effect": lambda: {
            "effect": check_text(data.get("effect"), "effect", max_length=60)
        },
        "set_mystic": lambda: {
            "fighter": _text(data, "fighter"),
            "mana": _int(data, "mana", 0, 99) if data.get("mana") else None,
            "faith": _int(data, "faith", 0, 99) if data.get("faith") else None,
        },
        "set_routed": lambda: {
            "fighter": _text(data, "fighter"),
            "routed": _bool(data, "routed"),
        },
        "concede": dict,
        "roll": dict,
        "reroll": dict,
        "keep": dict,
    }
    return get[command_type]()


def parse_tap(data: QueryDict, default_side: str | None) -> Tap:
    """The tap a form posted; ``FieldError`` for anything malformed."""
    command_type = data.get("type", "")
    if command_type not in COMMANDS:
        raise FieldError(_("Unknown action."), "type")
    side = data.get("side") or default_side or ""
    if side not in ("a", "b"):
        raise FieldError(_("Which side is acting?"), "side")
    version = parse_version(data)
    key = parse_tap_key(data)
    faces = parse_faces(data.get("faces")) if data.get("faces") else None
    command = {"type": command_type, **_fields(data, command_type)}
    for name in ("amplified", "attenuated"):
        if data.get(name):
            command[name] = _int(data, name, 0, 5)
    return Tap(side=side, command=command, version=version, key=key, faces=faces)


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

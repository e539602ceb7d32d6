"""Reading a player's tap (an HTML form post) into a rules command.

Everything a phone sends is untrusted: each field is checked for its type and
size here; the rules then check that the command is legal. A bad field gives
``CommandError`` with a message for the player, and nothing is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from rules.game import COMMANDS

MAX_ID = 24
MAX_LIST = 60


class CommandError(ValueError):
    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Tap:
    """One tap: who acts, what, on which version, with which key and dice."""

    side: str
    command: dict[str, Any]
    version: int | None
    key: str
    faces: list[int] | None


def _text(data: QueryDict, name: str, *, required: bool = True) -> str | None:
    value = data.get(name, "").strip()
    if not value:
        if required:
            raise CommandError(
                _("Something is missing: %(field)s.") % {"field": name}, name
            )
        return None
    if len(value) > MAX_ID:
        raise CommandError(_("That value is too long."), name)
    return value


def _int(data: QueryDict, name: str, low: int, high: int) -> int:
    raw = data.get(name, "").strip()
    try:
        value = int(raw)
    except ValueError:
        raise CommandError(_("Enter a whole number."), name) from None
    if not low <= value <= high:
        raise CommandError(
            _("Enter a number from %(low)s to %(high)s.") % {"low": low, "high": high},
            name,
        )
    return value


def _float(data: QueryDict, name: str, low: float, high: float) -> float:
    raw = data.get(name, "").strip().replace(",", ".")
    try:
        value = float(raw)
    except ValueError:
        raise CommandError(
            _("Enter a distance in cm, e.g. 18 or 18.5."), name
        ) from None
    if not low <= value <= high or value != value:
        raise CommandError(
            _("Enter a number from %(low)s to %(high)s.") % {"low": low, "high": high},
            name,
        )
    return value


def _list(data: QueryDict, name: str) -> list[str]:
    values = [v.strip() for v in data.getlist(name) if v.strip()]
    if len(values) > MAX_LIST or any(len(v) > MAX_ID for v in values):
        raise CommandError(_("Too many values."), name)
    return values


def _combat_choices(data: QueryDict) -> dict[str, Any]:
    """ "opponent:<fighter>" fields: whom each fighter faces (IV-C); none: the
    split the app suggested."""
    choices = {
        key.removeprefix("opponent:"): value.strip()
        for key, value in data.items()
        if key.startswith("opponent:") and value.strip()
    }
    if not choices:
        return {"combats": "suggested"}
    if len(choices) > MAX_LIST or any(
        len(k) > MAX_ID or len(v) > MAX_ID for k, v in choices.items()
    ):
        raise CommandError(_("Too many values."), "opponent")
    return {"choices": choices}


def _bool(data: QueryDict, name: str) -> bool:
    return data.get(name, "") in ("1", "true", "on", "yes")


def parse_faces(raw: str) -> list[int] | None:
    """ "3 5" or "3,5" or "35" into [3, 5]; None when empty (the app rolls)."""
    cleaned = raw.replace(",", " ").replace(";", " ").strip()
    if not cleaned:
        return None
    parts = cleaned.split() if " " in cleaned else list(cleaned)
    faces = []
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= 6:
            raise CommandError(_("A die shows 1 to 6."), "faces")
        faces.append(int(part))
    if len(faces) > 20:
        raise CommandError(_("Too many dice entered."), "faces")
    return faces


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
                if data.get("difficulty", "DEF").strip() in ("", "DEF")
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
            "key": data.get("key", "")[:200],
            "rallied": _bool(data, "rallied"),
            "value": _int(data, "value", 0, 99) if data.get("value") else None,
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
    """The tap a form posted; ``CommandError`` for anything malformed."""
    command_type = data.get("type", "")
    if command_type not in COMMANDS:
        raise CommandError(_("Unknown action."), "type")
    side = data.get("side") or default_side or ""
    if side not in ("a", "b"):
        raise CommandError(_("Which side is acting?"), "side")
    version_raw = data.get("version", "").strip()
    version = None
    if version_raw:
        if not version_raw.isdigit() or len(version_raw) > 9:
            raise CommandError(_("This page is out of date: reload it."), "version")
        version = int(version_raw)
    key = data.get("tap", "")[:64]
    faces = parse_faces(data.get("faces", "")) if data.get("faces") else None
    command = {"type": command_type, **_fields(data, command_type)}
    for name in ("amplified", "attenuated"):
        if data.get(name):
            command[name] = _int(data, name, 0, 5)
    return Tap(side=side, command=command, version=version, key=key, faces=faces)

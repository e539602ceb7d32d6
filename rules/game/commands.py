"""What a command is: one class per kind, declared beside its rule, and the table.

A player's tap is one command, ``{"type": <kind>, ...fields}`` (a plain dict on
the wire and in the log). Each kind is declared ONCE, as a subclass of
``CommandKind`` in its phase's module, next to the functions that check and
apply it (python-chess: a ``Move``, legality in one place, ``push`` trusting
it)::

    class PlaceDice(CommandKind):
        \"\"\"VII-C-3: a fighter's combat dice split between attack and defence.\"\"\"

        type = "place_dice"
        section = "VII-C-3"
        batched = True
        fields = (id_field("fighter"), int_field("attack", 0, MAX_COMBAT_DICE), ...)
        legal = staticmethod(legal_place_dice)
        apply = staticmethod(place_dice)

Declaring the class registers it in ``COMMAND_TABLE``; everything else reads
that one declaration: the tap parser (``battles.taps``) checks each posted
field by its ``Field``, ``rules.game.legal.legal_actions`` asks every kind's
``legal``, ``rules.game.engine.decide`` calls its ``apply``, ``matches``
reads a left-out field's default, the game service reads ``batched``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from rules.errors import IllegalAction, _

FieldType = Literal[
    "id", "int", "bool", "float", "text", "choice", "list", "map", "gems"
]

MAX_ID = 24  # a fighter or card id ("a12.3")
MAX_LIST = 60  # ids in one list or map
MAX_TEXT = 60  # a label, an effect's name, a spell's name
MAX_KEY = 200  # an upkeep item's key
MAX_DIFFICULTY = 30  # a difficulty a player types (II-A)


@dataclass(frozen=True)
class Field:
    """One field of a command as a phone posts it.

    - ``id``: a text of at most ``max_length`` characters (a fighter, a card);
    - ``int``: a whole number from ``low`` to ``high``;
    - ``float``: a number from ``low`` to ``high`` (a distance);
    - ``bool``: a yes/no ("1", "true", "on", "yes" are yes);
    - ``text``: a text of at most ``max_length`` characters;
    - ``choice``: one of ``choices``;
    - ``list``: several ids (the field repeated), at most ``max_items``;
    - ``map``: ``{key: id}`` posted as fields named ``prefix + key``, at most
      ``max_items``;
    - ``gems``: ``{element: n}`` posted as fields named ``prefix + element``
      (the six elements, and "neutral"), each a whole number ``low`` to
      ``high``; the elements left out or empty count 0.

    A field left out (or empty) takes ``default`` when it is not ``required``
    (``None``: the field is left out of the command). ``assumed`` is what the
    rule reads when a command leaves the field out (the parser does not fill
    it in: the command is logged as sent). ``message``: what the player reads
    when a value breaks the declaration (``check``), in place of the
    field type's own sentence. ``structured``: besides what a phone posts,
    the rules' callers may pass a value of this type (the combats of
    ``form_combats`` as a list), whose structure its handler checks.
    """

    name: str
    type: FieldType
    required: bool = True
    low: int | float | None = None
    high: int | float | None = None
    max_length: int | None = None
    choices: tuple[Any, ...] = ()
    max_items: int | None = None
    prefix: str = ""
    default: Any = None
    assumed: Any = None
    message: str = ""
    structured: type | None = None

    @property
    def when_left_out(self) -> Any:
        return self.default if self.default is not None else self.assumed


@dataclass(frozen=True)
class Bound:
    """A whole-number field's bounds in the state at hand, beyond what its
    ``Field`` declares: the dice a parry may commit, the Enchaînement dice a
    fighter may take, the fervour a faithful's faith allows, the reserve an
    upkeep line may give. A kind's ``bounds(state, side, command)`` returns
    them by field name; ``check`` refuses a value outside ``low``..``high``
    (or left out, when ``required``: a difficulty the card does not give)
    with ``message``, filled in with ``low``, ``high`` and ``params``; a
    kind's ``legal`` lists ``values`` as the field's choices."""

    low: int
    high: int
    message: str
    params: Mapping[str, Any] | None = None
    required: bool = False

    @property
    def values(self) -> list[int]:
        return list(range(self.low, self.high + 1))

    def holds(self, value: Any) -> bool:
        return _whole(value) and self.low <= value <= self.high

    def refusal(self) -> IllegalAction:
        return IllegalAction(
            self.message, low=self.low, high=self.high, **(self.params or {})
        )


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _fits(field: Field, value: Any) -> bool:
    """Whether ``value`` is what ``field`` declares (its type and bounds)."""
    low = field.low if field.low is not None else float("-inf")
    high = field.high if field.high is not None else float("inf")
    if field.type == "int":
        return _whole(value) and low <= value <= high
    if field.type == "float":
        return _number(value) and low <= value <= high
    if field.type == "bool":
        return isinstance(value, bool)
    if field.type == "choice":
        return value in field.choices
    if field.type in ("id", "text"):
        return isinstance(value, str) and (
            field.max_length is None or len(value) <= field.max_length
        )
    if field.type == "list":
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if field.type == "map":
        return isinstance(value, Mapping) and all(
            isinstance(k, str) and isinstance(v, str) for k, v in value.items()
        )
    # gems: {element: n}, each a whole number within the bounds
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and _whole(n) and low <= n <= high for k, n in value.items()
    )


def _refusal(field: Field) -> IllegalAction:
    if field.message:
        return IllegalAction(field.message, low=field.low, high=field.high)
    if field.type in ("int", "float", "gems"):
        return IllegalAction(
            _("{field}: enter a number from {low} to {high}."),
            field=field.name,
            low=field.low,
            high=field.high,
        )
    if field.type == "choice":
        return IllegalAction(_("Choose one of the options offered."))
    return IllegalAction(_("{field}: that value does not fit."), field=field.name)


def check(
    declared: type[CommandKind],
    command: Mapping[str, Any],
    state: Any = None,
    side: str | None = None,
) -> None:
    """``command`` checked once against its kind's declared fields (types,
    bounds, choices, required), before its ``apply``: a value that breaks
    the declaration is refused here, so a handler trusts what it reads
    (python-chess's ``push`` trusting ``is_legal``). A field left out (or
    ``None``) reads as the declaration says (``when_left_out``). Given the
    ``state``, the kind's ``bounds`` in that state are checked too."""
    for field in declared.fields:
        value = command.get(field.name)
        if value is None:
            if (
                field.required
                and field.when_left_out is None
                and field.type not in ("list", "map", "gems")
            ):
                raise IllegalAction(
                    _("Something is missing: {field}."), field=field.name
                )
            continue
        if field.structured is not None and isinstance(value, field.structured):
            continue
        if not _fits(field, value):
            raise _refusal(field)
        if field.type in ("list", "map", "gems") and field.max_items is not None:
            if len(value) > field.max_items:
                raise IllegalAction(_("Too many values."))
    if state is None:
        return
    for name, bound in declared.bounds(state, side, command).items():
        value = command.get(name)
        if value is None and not bound.required:
            continue  # left out: its default, which the bounds hold
        if not bound.holds(value):
            raise bound.refusal()


def id_field(name: str, *, required: bool = True) -> Field:
    return Field(name, "id", required=required, max_length=MAX_ID)


def int_field(
    name: str,
    low: int,
    high: int,
    *,
    required: bool = True,
    default: Any = None,
    message: str = "",
) -> Field:
    return Field(
        name,
        "int",
        required=required,
        low=low,
        high=high,
        default=default,
        message=message,
    )


def bool_field(name: str, *, default: bool = False) -> Field:
    return Field(name, "bool", required=False, default=default)


def choice_field(
    name: str,
    choices: tuple[Any, ...],
    *,
    required: bool = True,
    assumed: Any = None,
    message: str = "",
) -> Field:
    return Field(
        name,
        "choice",
        required=required,
        choices=choices,
        assumed=assumed,
        message=message,
    )


def text_field(name: str, max_length: int = MAX_TEXT, *, required: bool = False):
    return Field(name, "text", required=required, max_length=max_length)


def ids_field(name: str, *, required: bool = True) -> Field:
    return Field(name, "list", required=required, max_items=MAX_LIST, max_length=MAX_ID)


def gems_field(name: str, prefix: str, high: int) -> Field:
    return Field(
        name, "gems", required=False, low=0, high=high, prefix=prefix, max_items=7
    )


# II-B: a blow's Amplified/Attenuated steps, as a shot and an attack post them.
_WOUND_STEPS = _("Amplified and attenuated effects count 0 to 5.")
WOUND_MODIFIERS = (
    Field("amplified", "int", required=False, low=0, high=5, message=_WOUND_STEPS),
    Field("attenuated", "int", required=False, low=0, high=5, message=_WOUND_STEPS),
)

Legal = Callable[[Any, str], list[dict[str, Any]]]


def turn_place(kind: type[CommandKind]) -> float:
    """Where a kind stands in its table (and so in ``legal_actions``): its
    module's ``TURN_PLACE``, the turn's order (the rolls, the phases, a
    side's own fighters, the upkeep, the tools at the table); a module
    that gives none, last. A new phase module says its own place: nothing
    else is edited. The kinds of one module keep their declaration order."""
    return getattr(sys.modules[kind.__module__], "TURN_PLACE", float("inf"))


COMMAND_TABLE: dict[str, type[CommandKind]] = {}


class CommandKind:
    """One kind of command, declared once (see the module's docstring).

    - ``type``: the kind's name, the command's ``"type"``;
    - ``section``: the rule it follows (a section of the seeds);
    - ``fields``: what a phone posts, each a ``Field`` (type, bounds, default);
    - ``legal(state, side)``: the commands of this kind ``side`` may send now,
      in the shape of ``rules.game.legal.legal_actions``;
    - ``apply(batch, side, command)`` (``rolls``: ``apply(batch, side,
      command, dice)``): the events, or ``IllegalAction`` with nothing changed;
    - ``bounds(state, side, command)``: the ``Bound`` of each field whose
      bounds come from the state (none by default; none either where the
      command does not apply now: its handler says why), checked with the
      fields by ``check``;
    - ``anytime``: listed while the side waits (conceding, keeping one's own
      fighters up to date, the tools at the table);
    - ``batched``: several may come in one tap, applied as one action (a
      side's whole placement, VII-C-1).

    A subclass that names its ``type`` is registered as it is declared, in
    its ``registry`` (the rules' ``COMMAND_TABLE``, unless a family of
    commands that ``decide`` never sees keeps a table of its own).
    """

    registry: ClassVar[dict[str, type[CommandKind]]] = COMMAND_TABLE

    type: ClassVar[str] = ""
    section: ClassVar[str] = ""
    fields: ClassVar[tuple[Field, ...]] = ()
    anytime: ClassVar[bool] = False
    batched: ClassVar[bool] = False
    rolls: ClassVar[bool] = False
    legal: ClassVar[Legal]
    apply: ClassVar[Callable[..., None]]

    @staticmethod
    def bounds(state: Any, side: str, command: Mapping[str, Any]) -> dict[str, Bound]:
        return {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.type:
            cls.registry[cls.type] = cls
            # In the turn's order, whatever order the modules are imported in.
            ordered = sorted(cls.registry.values(), key=turn_place)
            cls.registry.clear()
            cls.registry.update((kind.type, kind) for kind in ordered)

    @classmethod
    def field(cls, name: str) -> Field | None:
        return next((f for f in cls.fields if f.name == name), None)

    @classmethod
    def handle(cls, batch: Any, side: str, command: Any, dice: Any) -> None:
        """Apply the command, with the game's dice where the kind rolls."""
        if cls.rolls:
            cls.apply(batch, side, command, dice)
        else:
            cls.apply(batch, side, command)


def when_left_out(kind: str, name: str) -> Any:
    """What the rule reads for a field a command of ``kind`` leaves out."""
    declared = COMMAND_TABLE.get(kind)
    field = declared.field(name) if declared else None
    return field.when_left_out if field else None


__all__ = [
    "Bound",
    "COMMAND_TABLE",
    "CommandKind",
    "Field",
    "MAX_DIFFICULTY",
    "MAX_ID",
    "MAX_KEY",
    "MAX_LIST",
    "MAX_TEXT",
    "WOUND_MODIFIERS",
    "bool_field",
    "check",
    "choice_field",
    "gems_field",
    "id_field",
    "ids_field",
    "int_field",
    "text_field",
    "turn_place",
    "when_left_out",
]

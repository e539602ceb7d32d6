"""One check for everything a person types or a phone sends (issues #13, #16).

Every text field refuses NUL and the other control characters, every number
field refuses what does not fit, and the refusal is a message next to the
field that caused it. The same rules apply everywhere:

- **Django forms**: inherit ``CheckedForm`` or ``CheckedModelForm`` (or put
  ``CheckedFields`` first among a form's bases). Every ``CharField`` then gets
  ``refuse_control_characters``, every integer field the bounds of a database
  integer, every decimal or float field a finite value of bounded size. A
  form's own, tighter validators still apply.
- **Fields read by hand** (a game's tap, a join name): ``check_text``,
  ``check_int``, ``check_float``. They raise ``FieldError``.
- **Services**: raise ``FieldError`` (or a subclass) with ``field=`` when the
  message belongs next to one field. ``FieldError`` is the one way a field
  error travels from a service to a template; a view puts it on its form
  with ``add_field_error`` or passes ``error.message``/``error.field`` to the
  template.

What an htmx refusal answers (see ``docs/input-checks.md``): **200** with the
message next to its field, swapped like any answer. Statuses 4xx are kept for
requests no honest page sends (403 acting for the other side, 404, 429); a
refusal a player can cause by typing is never an HTTP error.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# C0 controls but tab, line feed and carriage return; DEL; C1 controls.
CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The bounds of a 32-bit SQL integer, the narrowest integer column we use.
INT_MIN = -(2**31)
INT_MAX = 2**31 - 1
# A decimal or float field never needs more than this (a distance, a MOU...).
NUMBER_LIMIT = 10**9


class FieldError(ValueError):
    """A refusal for the player, with the field it belongs next to ("": the form)."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.message = str(message)
        self.field = field or ""


def has_control_characters(value: str) -> bool:
    return bool(CONTROL_CHARACTERS.search(value))


CONTROL_MESSAGE = gettext_lazy(
    "Remove the invisible control characters from this text."
)


def refuse_control_characters(value) -> None:
    """Django validator: NUL and the other control characters are refused."""
    if isinstance(value, str) and has_control_characters(value):
        raise ValidationError(CONTROL_MESSAGE, code="control_characters")


def check_text(
    value: str | None,
    field: str,
    *,
    max_length: int,
    required: bool = False,
) -> str:
    """A stripped text without control characters and at most ``max_length`` long."""
    value = value or ""
    if has_control_characters(value):  # before strip(), which eats some of them
        raise FieldError(str(CONTROL_MESSAGE), field)
    value = value.strip()
    if required and not value:
        raise FieldError(
            _("Something is missing: %(field)s.") % {"field": field}, field
        )
    if len(value) > max_length:
        raise FieldError(_("That value is too long."), field)
    return value


def check_int(value: str | None, field: str, low: int, high: int) -> int:
    """A whole number from ``low`` to ``high``, written in at most a few digits."""
    raw = (value or "").strip()
    if len(raw) > 12 or not re.fullmatch(r"[+-]?\d+", raw):
        raise FieldError(_("Enter a whole number."), field)
    number = int(raw)
    if not low <= number <= high:
        raise FieldError(
            _("Enter a number from %(low)s to %(high)s.") % {"low": low, "high": high},
            field,
        )
    return number


def check_float(
    value: str | None, field: str, low: float, high: float, *, message: str = ""
) -> float:
    """A finite number from ``low`` to ``high`` ("18,5" is read as 18.5)."""
    raw = (value or "").strip().replace(",", ".")
    try:
        number = float(raw) if len(raw) <= 24 else math.nan
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise FieldError(message or _("Enter a number."), field)
    if not low <= number <= high:
        raise FieldError(
            _("Enter a number from %(low)s to %(high)s.") % {"low": low, "high": high},
            field,
        )
    return number


# --- dice faces typed from real dice ------------------------------------------------

MAX_FACES = 20
FACE_SEPARATORS = " ,;-/+\t"


def check_faces(faces, field: str = "faces") -> list[int]:
    """Faces of six-sided dice (ints 1 to 6), at most ``MAX_FACES`` of them."""
    faces = list(faces)
    if len(faces) > MAX_FACES:
        raise FieldError(_("Too many dice entered."), field)
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise FieldError(_("A die shows 1 to 6."), field)
    return faces


def parse_faces(text: str | None, field: str = "faces") -> list[int]:
    """The faces typed from real dice: one digit per die, separators allowed.

    "35", "3 5", "3,5" and "3-5" are all ``[3, 5]``; "" is ``[]``. The one
    parser of faces: the game's tap and the hex sheet both read them here.
    """
    faces = []
    for character in text or "":
        if character in FACE_SEPARATORS:
            continue
        if character not in "123456":
            raise FieldError(_("A die shows 1 to 6."), field)
        faces.append(int(character))
        if len(faces) > MAX_FACES:
            break
    return check_faces(faces, field)


def finite_decimal(value: Decimal | None, *, limit: int = NUMBER_LIMIT) -> None:
    """Refuse NaN, infinities and decimals too large to store (``mou=1e308``)."""
    if value is None:
        return
    try:
        too_big = not value.is_finite() or abs(value) >= limit
    except InvalidOperation:
        too_big = True
    if too_big:
        raise ValidationError(
            _("Enter a number below %(limit)s.") % {"limit": limit}, code="overflow"
        )


def _has_bound(field: forms.Field, kind: type) -> bool:
    return any(isinstance(v, kind) for v in field.validators)


def check_form_fields(form: forms.BaseForm) -> None:
    """Give every field of ``form`` the checks above (``CheckedFields`` calls it)."""
    for field in form.fields.values():
        if isinstance(field, forms.CharField):
            if refuse_control_characters not in field.validators:
                field.validators.append(refuse_control_characters)
        elif isinstance(field, forms.IntegerField):
            if not _has_bound(field, MaxValueValidator):
                field.validators.append(MaxValueValidator(INT_MAX))
            if not _has_bound(field, MinValueValidator):
                field.validators.append(MinValueValidator(INT_MIN))
        elif isinstance(field, forms.DecimalField | forms.FloatField):
            if _finite_number not in field.validators:
                field.validators.append(_finite_number)


def _finite_number(value) -> None:
    if isinstance(value, float):
        value = Decimal(value) if math.isfinite(value) else Decimal("NaN")
    finite_decimal(value)


class CheckedFields:
    """Form mixin: ``check_form_fields`` on every field (put it first in the bases)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        check_form_fields(self)


class CheckedForm(CheckedFields, forms.Form):
    """A ``forms.Form`` whose fields refuse control characters and overflow."""


class CheckedModelForm(CheckedFields, forms.ModelForm):
    """A ``forms.ModelForm`` whose fields refuse control characters and overflow."""


def add_field_error(form: forms.BaseForm, error: FieldError) -> None:
    """Put a service's ``FieldError`` on ``form``: next to its field if it has one."""
    form.add_error(error.field if error.field in form.fields else None, error.message)


__all__ = [
    "CONTROL_CHARACTERS",
    "INT_MAX",
    "INT_MIN",
    "CheckedFields",
    "CheckedForm",
    "CheckedModelForm",
    "FieldError",
    "MAX_FACES",
    "add_field_error",
    "check_float",
    "check_faces",
    "check_form_fields",
    "check_int",
    "check_text",
    "finite_decimal",
    "has_control_characters",
    "parse_faces",
    "refuse_control_characters",
]

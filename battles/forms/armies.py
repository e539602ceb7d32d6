"""Forms for armies and reference cards: they check what a player typed and
put each message next to its field. Ranges come from the models' validators
(see ``battles.models.armies``)."""

from __future__ import annotations

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.utils.translation import gettext_lazy as _

from battles.models.armies import (
    CHARACTERISTIC_FIELDS,
    Army,
    Owner,
    People,
    ReferenceCard,
    parse_abilities,
)
from battles.services.armies import (
    PROFILE_FIELDS,
    PROFILE_FLIGHT_AND_FAITH,
    PROFILE_IDENTITY,
    PROFILE_WEAPON,
)
from battles.validation import CheckedForm, CheckedModelForm, finite_decimal

__all__ = [
    "AddCardForm",
    "ArmyForm",
    "ArmyImportForm",
    "CatalogueUploadForm",
    "CountForm",
    "ReferenceCardForm",
    "add_errors",
]


def add_errors(form: forms.Form, error: ValidationError) -> None:
    """Put a service's error on the form: next to its field when the form has
    that field, at the top otherwise."""
    if hasattr(error, "error_dict"):
        for field_name, messages in error.message_dict.items():
            target = field_name if field_name in form.fields else NON_FIELD_ERRORS
            for message in messages:
                form.add_error(None if target == NON_FIELD_ERRORS else target, message)
    else:
        for message in error.messages:
            form.add_error(None, message)


def _number(**attrs) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", **attrs})


class LenientDecimalField(forms.DecimalField):
    """A decimal that ignores trailing zeros ("12.50" is 12.5, "0.00" is 0)."""

    def to_python(self, value):
        value = super().to_python(value)
        finite_decimal(value)  # "1e308" is refused here, before it is rounded
        if value is not None:
            value = value.normalize()
            if value.as_tuple().exponent > 0:
                value = value.quantize(1)
        return value


def _peoples(owner: Owner | None):
    """The peoples ``owner`` may choose: the shared ones and their own."""
    return People.objects.visible_to(owner or Owner()).order_by("name")


class ArmyForm(CheckedModelForm):
    class Meta:
        model = Army
        fields = ["name", "people", "points_limit"]
        widgets = {"points_limit": _number(min=1, max=10000)}

    def __init__(self, *args, owner: Owner | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].queryset = _peoples(owner)
        self.fields["people"].empty_label = _("Choose a people")
        self.fields["name"].widget.attrs["autocomplete"] = "off"


class ReferenceCardForm(CheckedModelForm):
    """A custom card: the profile as printed, abilities as one text."""

    abilities = forms.CharField(
        label=_("Abilities"),
        required=False,
        max_length=600,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Separated by commas, value after a slash: Tueur né/1, Créature"),
    )

    class Meta:
        model = ReferenceCard
        fields = list(PROFILE_FIELDS)
        field_classes = {"mou": LenientDecimalField, "mou_flight": LenientDecimalField}
        widgets = {
            field_name: _number(min=0)
            for field_name in [*CHARACTERISTIC_FIELDS.values(), "cost"]
            if field_name != "mou"
        } | {
            "mou": forms.NumberInput(
                attrs={"inputmode": "decimal", "step": "0.5", "min": 0}
            ),
            "mou_flight": forms.NumberInput(
                attrs={"inputmode": "decimal", "step": "0.5", "min": 0}
            ),
            "creation": _number(min=0),
            "alteration": _number(min=0),
            "destruction": _number(min=0),
            "weapon_strength": _number(min=0),
            "range_short": _number(min=0),
            "range_medium": _number(min=0),
            "range_long": _number(min=0),
            "fighters_per_card": _number(min=1),
        }

    def __init__(self, *args, owner: Owner | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].queryset = _peoples(owner)
        self.fields["people"].empty_label = _("Choose a people")
        self.fields["mou"].widget.attrs["step"] = "0.5"

    def _fields(self, names) -> list:
        return [self[name] for name in names]

    @property
    def identity_fields(self) -> list:
        return self._fields(PROFILE_IDENTITY)

    @property
    def characteristic_fields(self) -> list:
        return self._fields(CHARACTERISTIC_FIELDS.values())

    @property
    def flight_and_faith_fields(self) -> list:
        return self._fields(PROFILE_FLIGHT_AND_FAITH)

    @property
    def weapon_fields(self) -> list:
        return self._fields(PROFILE_WEAPON)

    @property
    def ability_fields(self) -> list:
        return self._fields(["abilities"])

    def clean_abilities(self) -> str:
        text = self.cleaned_data["abilities"]
        for name, value in parse_abilities(text):
            if len(name) > 60 or len(value) > 40:
                raise ValidationError(
                    _("“%(ability)s” is too long."), params={"ability": name[:60]}
                )
        return text


class AddCardForm(CheckedForm):
    card = forms.IntegerField(min_value=1)
    is_ally = forms.BooleanField(required=False)


class CountForm(CheckedForm):
    delta = forms.TypedChoiceField(choices=[("1", "+1"), ("-1", "-1")], coerce=int)


class ArmyImportForm(CheckedForm):
    file = forms.FileField(
        label=_("Army file (.json)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )


class CatalogueUploadForm(CheckedForm):
    file = forms.FileField(
        label=_("Catalogue (.cat, .catz, .gst, .gstz)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".cat,.catz,.gst,.gstz"}),
    )
    people = forms.ModelChoiceField(
        label=_("People"),
        queryset=People.objects.none(),
        required=False,
        empty_label=_("The catalogue's name"),
        help_text=_(
            "Leave as is to match the catalogue's name (in English or French) "
            "to a people; a name that matches none makes a people of your own."
        ),
    )

    def __init__(self, *args, owner: Owner | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].queryset = _peoples(owner)

"""Forms for spells and miracles typed by hand (X, XI) and for the upload of
the community catalogues (``AA-Spells.cat``, ``AA-Miracles.cat``): each
message next to its field."""

from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from battles.models.mystic import Miracle, Spell
from battles.presenters.words import ELEMENT_WORDS
from battles.validation import CheckedForm, CheckedModelForm
from rules.magic import GEM_KINDS

__all__ = ["MiracleForm", "MysticCatalogueForm", "SpellForm", "gem_field_name"]

MAX_GEMS = 30

DURATIONS = [
    ("", _("Not given")),
    ("instant", _("Instant")),
    ("end_of_round", _("Until the end of the round")),
    ("game", _("The whole game")),
]


def _number(low: int, high: int) -> forms.NumberInput:
    return forms.NumberInput(attrs={"min": low, "max": high, "inputmode": "numeric"})


def gem_field_name(kind: str) -> str:
    return f"gems_{kind}"


class _MysticForm(CheckedModelForm):
    """What a spell form and a miracle form share: bounds the rules read."""

    BOUNDS = {
        "difficulty": (1, 30),
        "range_cm": (0, 999),
        "points": (0, 999),
        "frequency": (1, 99),
        "intensity": (0, 99),
        "fervour": (1, 99),
        "creation": (0, 9),
        "alteration": (0, 9),
        "destruction": (0, 9),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (low, high) in self.BOUNDS.items():
            field = self.fields.get(name)
            if field is None:
                continue
            field.min_value, field.max_value = low, high
            field.validators = [
                v for v in field.validators if not hasattr(v, "limit_value")
            ] + [MinValueValidator(low), MaxValueValidator(high)]
            field.widget = _number(low, high)
        self.fields["points"].required = False
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        if "duration" in self.fields:
            self.fields["duration"] = forms.ChoiceField(
                label=_("Duration"), choices=DURATIONS, required=False
            )
            if self.instance.pk:
                self.initial["duration"] = self.instance.duration

    HEAD = ("name", "path", "cult")

    def head_fields(self):
        """The name (and path or cult) first; the gems of a spell next."""
        return [self[name] for name in self.Meta.fields if name in self.HEAD]

    def rest_fields(self):
        return [self[name] for name in self.Meta.fields if name not in self.HEAD]

    def clean_name(self) -> str:
        return (self.cleaned_data.get("name") or "").strip()

    def clean_points(self) -> int:
        return self.cleaned_data.get("points") or 0

    def clean(self):
        data = super().clean()
        if (
            data.get("difficulty") is None
            and not data.get("difficulty_text")
            and "difficulty" not in self.errors
        ):
            self.add_error(
                "difficulty",
                _("Give the difficulty: a number, or a formula as printed."),
            )
        return data


class SpellForm(_MysticForm):
    """A spell card (C3 fields): its gems by element, entered one number each."""

    class Meta:
        model = Spell
        fields = [
            "name",
            "path",
            "difficulty",
            "difficulty_text",
            "frequency",
            "intensity",
            "range_cm",
            "area",
            "duration",
            "points",
            "description",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        help_texts = {
            "difficulty_text": _(
                "A formula as printed (POU+2, target's DEF+1), or empty when the "
                "difficulty is a number."
            ),
            "frequency": _("Casts per round; empty: unlimited."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        cost = dict(self.instance.cost or {}) if self.instance.pk else {}
        for kind in GEM_KINDS:
            self.fields[gem_field_name(kind)] = forms.IntegerField(
                label=ELEMENT_WORDS[kind],
                min_value=0,
                max_value=MAX_GEMS,
                required=False,
                initial=cost.get(kind, 0),
                widget=_number(0, MAX_GEMS),
            )

    def gem_fields(self):
        return [self[gem_field_name(kind)] for kind in GEM_KINDS]

    def cost(self) -> dict[str, int]:
        """The gems by element (those above zero); empty: entered at the cast."""
        found = {}
        for kind in GEM_KINDS:
            count = self.cleaned_data.get(gem_field_name(kind)) or 0
            if count:
                found[kind] = count
        return found


class MiracleForm(_MysticForm):
    """A miracle card (M7, M12): cult or universal, fervour, aspects C/A/D."""

    class Meta:
        model = Miracle
        fields = [
            "name",
            "cult",
            "universal",
            "fervour",
            "creation",
            "alteration",
            "destruction",
            "difficulty",
            "difficulty_text",
            "range_cm",
            "area",
            "duration",
            "points",
            "description",
        ]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}
        help_texts = {
            "difficulty_text": _(
                "A formula of the fervour as printed (fervour+4), or empty when "
                "the difficulty is a number."
            ),
            "fervour": _("Empty: chosen when called."),
        }

    def clean(self):
        data = super().clean()
        if not data.get("universal") and not (data.get("cult") or "").strip():
            self.add_error("cult", _("Give the cult, or tick “universal”."))
        return data


class MysticCatalogueForm(CheckedForm):
    file = forms.FileField(
        label=_("Catalogue of spells or miracles (.cat)"),
        widget=forms.ClearableFileInput(attrs={"accept": ".cat,.catz"}),
    )

"""The set-up form of a new game, and the forms of the tools at the table (built
from their commands' declarations)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from battles.models.armies import Army
from battles.models.games import DiceMode, GameMode
from battles.models.identity import Owner
from battles.presenters.rulings import RULING_PREFIX, ruling_field_texts
from battles.validation import CheckedForm
from rules import melee
from rules.game import COMMAND_TABLE
from rules.game.state import MAX_TURNS


def playable_armies(owner: Owner):
    """The requester's armies and the shared demo armies, with at least one card."""
    mine = owner.q() if owner.is_anyone else Q(pk__in=[])
    return (
        Army.objects.alive()
        .filter(mine | Q(is_demo=True, owner__isnull=True, guest_key=""))
        .filter(cards__isnull=False)
        .select_related("people")
        .distinct()
        .order_by("-is_demo", "name")
    )


class ArmyChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, army: Army) -> str:
        """ "Name (people) · Demo", each said once: a demo army named
        "Griffons d'Akkylannie (démo)" needs neither its people nor "Demo"."""
        label = army.name
        if army.people.name.lower() not in label.lower():
            label += f" ({army.people.name})"
        named_demo = any(word in label.lower() for word in ("démo", "demo"))
        if not (army.is_demo and named_demo):
            label += f" · {_('Demo') if army.is_demo else _('Mine')}"
        return label


class NewGameForm(CheckedForm):
    title = forms.CharField(label=_("Title"), max_length=120, required=False)
    army_a = ArmyChoiceField(
        label=_("Army of side A (yours)"), queryset=Army.objects.none()
    )
    player_a = forms.CharField(
        label=_("Player A's name"), max_length=60, required=False
    )
    army_b = ArmyChoiceField(label=_("Army of side B"), queryset=Army.objects.none())
    player_b = forms.CharField(
        label=_("Player B's name"), max_length=60, required=False
    )
    turns = forms.IntegerField(
        label=_("Number of turns"),
        min_value=1,
        max_value=MAX_TURNS,
        initial=6,
        help_text=_("6 by default; some scenarios play 4 or 5."),
    )
    mode = forms.ChoiceField(
        label=_("How you play"), choices=GameMode.choices, initial=GameMode.TWO_PHONES
    )
    dice_mode = forms.ChoiceField(
        label=_("Dice"),
        choices=DiceMode.choices,
        initial=DiceMode.APP,
        help_text=_(
            "Decided now for the whole game: with the app's dice no face can be "
            "typed; switching later needs the other phone's agreement and is "
            "written in the log."
        ),
    )
    require_confirmation = forms.BooleanField(
        label=_("A wound on my fighters waits for my confirmation"), required=False
    )

    def __init__(self, *args: Any, owner: Owner, **kwargs: Any):
        super().__init__(*args, **kwargs)
        armies = playable_armies(owner)
        self.fields["army_a"].queryset = armies
        self.fields["army_b"].queryset = armies
        # Ready to play at once: two different armies picked by default.
        first_two = list(armies[:2])
        if first_two:
            self.fields["army_a"].initial = first_two[0].pk
            self.fields["army_b"].initial = first_two[-1].pk
        # Where the sources are silent: each house ruling, its default first.
        for name, ruling in melee.HOUSE_RULINGS.items():
            texts = ruling_field_texts(ruling)
            self.fields[RULING_PREFIX + name] = forms.ChoiceField(
                label=texts["label"],
                choices=texts["choices"],
                initial=ruling.default,
                required=False,  # left out: the sources' default
                help_text=texts["help"],
            )

    def game_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "army_a": data["army_a"],
            "army_b": data["army_b"],
            "turns": data["turns"],
            "mode": data["mode"],
            "dice_mode": data["dice_mode"],
            "title": data["title"],
            "player_a": data["player_a"],
            "player_b": data["player_b"],
            "require_confirmation": data["require_confirmation"],
            "house_rulings": {
                name: data[RULING_PREFIX + name] or ruling.default
                for name, ruling in melee.HOUSE_RULINGS.items()
            },
        }


# --- Tests rolled at the table (II-A), the scatter (II-C-5), lasting effects ---
# Thin forms: each field is built from its command's declaration
# (rules.game.commands.Field: type, bounds, choices, required, the message for
# a value out of bounds), with a message next to the field; the rules then
# check the fighter, its characteristic and its side.


def _within(template: str, low: Any, high: Any):
    """The declaration's message for a number out of bounds, translated when
    it is shown, its bounds filled in."""
    return lazy(lambda: gettext(template).format(low=low, high=high), str)()


def _declared(kind: str, name: str, label) -> forms.Field:
    """The form field of the declared field ``name`` of the command ``kind``."""
    spec = COMMAND_TABLE[kind].field(name)
    if spec is None:
        raise LookupError(f"{kind} declares no field {name!r}")
    if spec.type == "int":
        message = _within(spec.message, spec.low, spec.high)
        return forms.IntegerField(
            label=label,
            min_value=spec.low,
            max_value=spec.high,
            required=spec.required,
            error_messages={
                "min_value": message,
                "max_value": message,
                "invalid": message,
            },
        )
    if spec.type == "choice":
        choices = [(c, c) for c in spec.choices]
        if not spec.required:
            choices = [("", "—"), *choices]
        return forms.ChoiceField(label=label, choices=choices, required=spec.required)
    if spec.type == "bool":
        return forms.BooleanField(label=label, required=False)
    return forms.CharField(
        label=label, max_length=spec.max_length, required=spec.required
    )


class CharacteristicTestForm(CheckedForm):
    """A test of any characteristic (II-A): difficulty or opposed fighter."""

    fighter = _declared("characteristic_test", "fighter", _("Fighter"))
    characteristic = _declared(
        "characteristic_test", "characteristic", _("Characteristic")
    )
    difficulty = _declared("characteristic_test", "difficulty", _("Difficulty"))
    opponent = _declared("characteristic_test", "opponent", _("Opposing fighter"))
    opponent_characteristic = _declared(
        "characteristic_test", "opponent_characteristic", _("Their characteristic")
    )
    dice = _declared("characteristic_test", "dice", _("Dice"))
    modifier = _declared("characteristic_test", "modifier", _("Circumstance modifier"))
    use = _declared("characteristic_test", "use", _("What for"))
    label = _declared("characteristic_test", "label", _("In a few words"))
    cost = _declared("characteristic_test", "cost", _("Mana or faith it costs"))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if (
            not self.errors
            and data.get("difficulty") is None
            and not data.get("opponent")
        ):
            self.add_error(
                "difficulty", _("Give a difficulty, or an opposing fighter (II-A-3).")
            )
        return data

    def command(self) -> dict[str, Any]:
        data = self.cleaned_data
        command = {
            "fighter": data["fighter"],
            "characteristic": data["characteristic"],
            "dice": data["dice"] or 1,
            "modifier": data["modifier"] or 0,
            "use": data["use"],
            "label": data["label"],
        }
        if data["cost"]:
            command["cost"] = data["cost"]
        if data["opponent"]:
            command["opponent"] = data["opponent"]
            if data["opponent_characteristic"]:
                command["opponent_characteristic"] = data["opponent_characteristic"]
        else:
            command["difficulty"] = data["difficulty"]
        return command


class ScatterForm(CheckedForm):
    """A scatter roll (II-C-5), with what scatters."""

    label = _declared("scatter", "label", _("What scatters"))

    def command(self) -> dict[str, Any]:
        return {"label": self.cleaned_data["label"]}


class LastingEffectForm(CheckedForm):
    """A lasting effect on a fighter (II-C-3), its duration and upkeep."""

    fighter = _declared("record_effect", "fighter", _("On fighter"))
    name = _declared("record_effect", "name", _("Effect"))
    kind = _declared("record_effect", "kind", _("Kind"))
    active = _declared("record_effect", "active", _("Active skill"))
    duration = _declared("record_effect", "duration", _("Duration"))
    turns = _declared("record_effect", "turns", _("Turns"))
    cost = _declared("record_effect", "cost", _("Upkeep cost (Entretien/X)"))
    caster = _declared("record_effect", "caster", _("Paid by"))

    def command(self) -> dict[str, Any]:
        data = self.cleaned_data
        command = {
            "fighter": data["fighter"],
            "name": data["name"],
            "kind": data["kind"],
            "active": data["active"],
            "duration": data["duration"],
        }
        if data["duration"] == "turns":
            command["turns"] = data["turns"]
        if data["duration"] == "upkeep":
            command["cost"] = data["cost"]
            if data["caster"]:
                command["caster"] = data["caster"]
        return command

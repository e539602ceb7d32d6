"""The set-up form of a new game."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from battles.models.armies import Army
from battles.models.games import DiceMode, GameMode
from battles.models.identity import Owner
from battles.validation import CheckedForm
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
        prefix = _("Demo") if army.is_demo else _("Mine")
        return f"{army.name} ({army.people.name}) · {prefix}"


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
        label=_("Dice"), choices=DiceMode.choices, initial=DiceMode.APP
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
        }

"""Forms of a tournament day: its players and their peoples, a table's result."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.forms.league import (
    MAX_SHORT_TEXT,
    LeagueForm,
    _date_field,
    _score_field,
    people_choices,
)


class TournamentForm(LeagueForm):
    """A tournament day: its name, date, players, and each player's people."""

    name = forms.CharField(label=_("Name"), max_length=MAX_SHORT_TEXT)
    played_on = _date_field()
    players = forms.TypedMultipleChoiceField(
        label=_("Players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.members = list(members)
        self.fields["players"].choices = [
            (user.pk, user.get_username()) for user in self.members
        ]
        choices = people_choices()
        for user in self.members:
            self.fields[f"people_{user.pk}"] = forms.ChoiceField(
                label=_("People of %(name)s") % {"name": user.get_username()},
                choices=choices,
                required=False,
            )

    def chosen_players(self) -> dict[int, str]:
        """The chosen players' ids, each with their people ("" when not given)."""
        return {
            user_id: self.cleaned_data.get(f"people_{user_id}", "")
            for user_id in self.cleaned_data["players"]
        }

    def people_fields(self):
        return [self[f"people_{user.pk}"] for user in self.members]


class PairingReportForm(LeagueForm):
    """A table's game, as the reporting player saw it."""

    result = forms.ChoiceField(
        label=_("Your result"),
        choices=[("won", _("I won")), ("draw", _("Draw")), ("lost", _("I lost"))],
        widget=forms.RadioSelect,
    )
    score_for = _score_field(_("Your score"))
    score_against = _score_field(_("Opponent's score"))

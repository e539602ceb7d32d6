"""Forms of the club league: Django's field validation, one form per screen.

Every form goes through the project's one input check
(``battles.validation``): text without control characters, numbers that fit.
"""

from __future__ import annotations

import secrets

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from battles.league.models.league import MAX_SCORE, Outcome, Season
from battles.league.services.peoples import league_peoples
from battles.validation import CheckedForm, CheckedModelForm
from rules.league import TIEBREAKERS

TIEBREAKER_LABELS = {
    "head_to_head": _("Head to head (confrontation directe)"),
    "goal_average": _("Goal average (score for − against)"),
    "score_for": _("Score for"),
    "strength_of_schedule": _("Strength of schedule"),
}
TIEBREAKER_SLOTS = 4
MAX_SHORT_TEXT = 80


class LeagueForm(CheckedForm):
    """The league forms' common base: the project's one input check."""


def _score_field(label):
    return forms.IntegerField(
        label=label,
        min_value=0,
        max_value=MAX_SCORE,
        initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


def _date_field():
    return forms.DateField(
        label=_("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


def people_choices() -> list[tuple[str, str]]:
    """The app's list of peoples (``battles.league.services.peoples``), by name."""
    return [("", "—")] + [(name, name) for name in league_peoples()]


def _people_field(label):
    """A people from the app's list, never free text (one faction, one name)."""
    return forms.ChoiceField(label=label, choices=people_choices, required=False)


class ClubForm(LeagueForm):
    name = forms.CharField(label=_("Club name"), max_length=80)
    description = forms.CharField(
        label=_("About the club (public)"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )

    def clean_name(self):
        # A name already taken is the service's to refuse (create_club), after
        # the form's one-use key: the same form sent twice gets its club back.
        return self.cleaned_data["name"].strip()


def tiebreaker_order(form: forms.Form, cleaned: dict, slots: int) -> list[str]:
    """The tie-breakers chosen in the form's slots ``tiebreaker_1``..,
    in order, the empty ones left out; one listed twice is refused next to
    its second slot."""
    order: list[str] = []
    for slot in range(1, slots + 1):
        name = cleaned.get(f"tiebreaker_{slot}")
        if not name:
            continue
        if name in order:
            form.add_error(
                f"tiebreaker_{slot}", _("This tie-breaker is already listed.")
            )
        order.append(name)
    return order


class SeasonForm(CheckedModelForm):
    """A season: dates, points per result, army points limit, tie-breakers, pairing."""

    class Meta:
        model = Season
        fields = [
            "name",
            "starts",
            "ends",
            "points_limit",
            "scale",
            "win",
            "draw",
            "loss",
            "major_win",
            "minor_win",
            "minor_loss",
            "major_loss",
            "margin",
            "pairing",
        ]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args, members=None, **kwargs):
        super().__init__(*args, **kwargs)
        if members is not None:  # a new season: who takes part (all by default)
            self.fields["participants"] = participants_field(members)
        choices = [("", _("(none)"))] + [
            (name, TIEBREAKER_LABELS[name]) for name in TIEBREAKERS
        ]
        for slot in range(1, TIEBREAKER_SLOTS + 1):
            self.fields[f"tiebreaker_{slot}"] = forms.ChoiceField(
                label=_("Tie-breaker %(n)s") % {"n": slot},
                choices=choices,
                required=False,
                initial=TIEBREAKERS[slot - 1],
            )

    def clean(self):
        cleaned = super().clean()
        cleaned["tiebreakers"] = tiebreaker_order(self, cleaned, TIEBREAKER_SLOTS)
        starts, ends = cleaned.get("starts"), cleaned.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The season ends after it starts."))
        return cleaned

    def season_fields(self) -> dict:
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields}
        fields["tiebreakers"] = self.cleaned_data["tiebreakers"]
        if "participants" in self.fields:
            fields["participants"] = self.cleaned_data["participants"]
        return fields


def participants_field(members) -> forms.TypedMultipleChoiceField:
    """Who takes part in a season: the club's members, all ticked at first."""
    members = list(members)
    return forms.TypedMultipleChoiceField(
        label=_("Players in this season"),
        coerce=int,
        choices=[(user.pk, user.get_username()) for user in members],
        initial=[user.pk for user in members],
        widget=forms.CheckboxSelectMultiple,
        required=False,  # nobody yet: players are added on the season's page
    )


class ParticipantsForm(LeagueForm):
    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["participants"] = participants_field(members)


class ReportForm(LeagueForm):
    """A game played without the app, as the reporter saw it."""

    opponent = forms.TypedChoiceField(label=_("Opponent"), coerce=int)
    played_on = _date_field()
    result = forms.ChoiceField(
        label=_("Your result"),
        choices=[("won", _("I won")), ("draw", _("Draw")), ("lost", _("I lost"))],
        widget=forms.RadioSelect,
    )
    score_for = _score_field(_("Your score"))
    score_against = _score_field(_("Opponent's score"))
    people_for = _people_field(_("Your people"))
    people_against = _people_field(_("Opponent's people"))
    army_for = forms.CharField(label=_("Your army"), max_length=120, required=False)
    army_against = forms.CharField(
        label=_("Opponent's army"), max_length=120, required=False
    )
    second_game = forms.BooleanField(
        label=_("It was a second game that day"), required=False
    )
    tap_key = forms.CharField(max_length=40, required=False, widget=forms.HiddenInput)

    def __init__(self, *args, opponents=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["opponent"].choices = [("", "—")] + [
            (user.pk, user.get_username()) for user in opponents
        ]
        if not self.is_bound:
            self.initial.setdefault("tap_key", secrets.token_urlsafe(16))
        self.fields["played_on"].widget.attrs["max"] = timezone.localdate().isoformat()


class DisputeForm(LeagueForm):
    """What is wrong with a reported result, and the score as you saw it."""

    reason = forms.CharField(
        label=_("What is wrong (kept in the history)"), max_length=500
    )
    outcome = forms.ChoiceField(label=_("The result as you saw it"), required=False)
    score_a = _score_field(_("Score of player A"))
    score_b = _score_field(_("Score of player B"))

    def __init__(self, *args, result=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = outcome_choices(result)
        if result is not None:
            names = _player_names(result)
            self.fields["score_a"].label = _("Score of %(name)s") % {"name": names[0]}
            self.fields["score_b"].label = _("Score of %(name)s") % {"name": names[1]}


def _player_names(result) -> tuple[str, str]:
    return result.player_a.get_username(), result.player_b.get_username()


def outcome_choices(result) -> list[tuple[str, str]]:
    """Outcome choices that say the players' names, not "Player A"."""
    if result is None:
        return list(Outcome.choices)
    a, b = _player_names(result)
    return [
        ("a", _("%(name)s won") % {"name": a}),
        ("b", _("%(name)s won") % {"name": b}),
        ("draw", _("Draw")),
    ]


class ReasonForm(LeagueForm):
    reason = forms.CharField(
        label=_("Reason (kept in the history)"), max_length=500, required=True
    )


class CorrectForm(ReasonForm):
    played_on = _date_field()
    outcome = forms.ChoiceField(label=_("Outcome"), choices=Outcome.choices)
    score_a = _score_field(_("Score of player A"))
    score_b = _score_field(_("Score of player B"))
    people_a = _people_field(_("People of player A"))
    people_b = _people_field(_("People of player B"))

    def __init__(self, *args, result=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = outcome_choices(result)
        if result is not None:
            a, b = _player_names(result)
            for side, name in (("a", a), ("b", b)):
                self.fields[f"score_{side}"].label = _("Score of %(name)s") % {
                    "name": name
                }
                self.fields[f"people_{side}"].label = _("People of %(name)s") % {
                    "name": name
                }


class GameOutcomeForm(LeagueForm):
    """The end of a game: who won (or a draw), each side's score, a season."""

    outcome = forms.ChoiceField(
        label=_("Result"),
        choices=[("a", _("Side A won")), ("draw", _("Draw")), ("b", _("Side B won"))],
        widget=forms.RadioSelect,
    )
    score_a = _score_field(_("Score of side A"))
    score_b = _score_field(_("Score of side B"))
    season = forms.TypedChoiceField(
        label=_("Count it for a season"), coerce=int, required=False, empty_value=None
    )

    def __init__(self, *args, seasons=(), names=None, **kwargs):
        super().__init__(*args, **kwargs)
        if names:  # the players' names, not "side A"
            self.fields["outcome"].choices = [
                ("a", _("%(name)s won") % {"name": names["a"]}),
                ("draw", _("Draw")),
                ("b", _("%(name)s won") % {"name": names["b"]}),
            ]
            for side in ("a", "b"):
                self.fields[f"score_{side}"].label = _("Score of %(name)s") % {
                    "name": names[side]
                }
        self.fields["season"].choices = [("", _("No, just this game"))] + [
            (season.pk, f"{season.club.name} · {season.name}") for season in seasons
        ]

"""Forms of a tournament day: its players and their peoples, a table's result."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from battles.forms.games import NewGameForm
from battles.league.forms.league import (
    MAX_SHORT_TEXT,
    TIEBREAKER_LABELS,
    LeagueForm,
    _date_field,
    _score_field,
    people_choices,
    tiebreaker_order,
)
from battles.league.models.league import MAX_SCORE
from battles.league.models.tournament import MAX_ROUNDS, FirstRound
from battles.models.games import GameMode
from rules.league import ALL_TIEBREAKERS, SWISS_TIEBREAKERS

SWISS_LABELS = {
    **TIEBREAKER_LABELS,
    "extended_strength_of_schedule": _("Extended strength of schedule"),
}
# The standings' column heads (short, for a phone), each with its full name.
SWISS_SHORT = {
    "head_to_head": _("H2H"),
    "goal_average": "+/−",
    "score_for": _("For"),
    "strength_of_schedule": _("SoS"),
    "extended_strength_of_schedule": _("ESoS"),
}
EVENT_TIEBREAKER_SLOTS = 4


def _number(label, *, initial, low=0, high=MAX_SCORE):
    """A rule of the day; left empty, it keeps its default."""
    return forms.IntegerField(
        label=label,
        min_value=low,
        max_value=high,
        initial=initial,
        required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class TournamentForm(LeagueForm):
    """A tournament day: its name, date, players, and each player's people."""

    name = forms.CharField(label=_("Name"), max_length=MAX_SHORT_TEXT)
    played_on = _date_field()
    place = forms.CharField(
        label=_("Place"),
        max_length=80,
        required=False,
        help_text=_("Where it is played (the T³ file names it; empty: the club)."),
    )
    players = forms.TypedMultipleChoiceField(
        label=_("Players"), coerce=int, widget=forms.CheckboxSelectMultiple
    )
    rounds_planned = _number(_("Number of rounds"), initial=4, low=1, high=MAX_ROUNDS)
    first_round = forms.ChoiceField(
        label=_("Round 1"),
        choices=FirstRound.choices,
        initial=FirstRound.SEED,
        widget=forms.RadioSelect,
        required=False,
    )
    seed = forms.CharField(
        label=_("Seed of round 1 (shown to everyone)"), max_length=40, required=False
    )
    bye_points = _number(_("Points of a bye"), initial=3, high=100)
    bye_score = _number(_("Score of a bye"), initial=0)
    forfeit_score = _number(_("Score of a forfeit win"), initial=0)
    late_points = _number(
        _("Points per round missed (late entry)"), initial=0, high=100
    )
    round_minutes = _number(_("Round length (minutes)"), initial=120, low=5, high=600)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", _("(none)"))] + [
            (name, SWISS_LABELS[name]) for name in ALL_TIEBREAKERS
        ]
        for slot in range(1, EVENT_TIEBREAKER_SLOTS + 1):
            initial = (
                SWISS_TIEBREAKERS[slot - 1] if slot <= len(SWISS_TIEBREAKERS) else ""
            )
            self.fields[f"tiebreaker_{slot}"] = forms.ChoiceField(
                label=_("Tie-breaker %(n)s") % {"n": slot},
                choices=choices,
                initial=initial,
                required=False,
            )
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

    def tiebreaker_fields(self):
        return [self[f"tiebreaker_{n}"] for n in range(1, EVENT_TIEBREAKER_SLOTS + 1)]

    def clean(self):
        cleaned = super().clean()
        order = tiebreaker_order(self, cleaned, EVENT_TIEBREAKER_SLOTS)
        cleaned["tiebreakers"] = tuple(order)
        return cleaned

    def rules(self) -> dict:
        """The day's own rules, as ``create_tournament`` takes them."""
        data = self.cleaned_data
        rules = {
            "first_round": data.get("first_round") or FirstRound.SEED,
            "seed": data.get("seed") or "",
            "tiebreakers": data["tiebreakers"] or SWISS_TIEBREAKERS,
        }
        for name in (
            "rounds_planned",
            "bye_points",
            "bye_score",
            "forfeit_score",
            "late_points",
            "round_minutes",
        ):
            value = data.get(name)
            rules[name] = self.fields[name].initial if value is None else value
        return rules


class PairingReportForm(LeagueForm):
    """A table's game, as the reporting player saw it."""

    result = forms.ChoiceField(
        label=_("Your result"),
        choices=[("won", _("I won")), ("draw", _("Draw")), ("lost", _("I lost"))],
        widget=forms.RadioSelect,
    )
    score_for = _score_field(_("Your score"))
    score_against = _score_field(_("Opponent's score"))


class TableResultForm(LeagueForm):
    """The organiser's entry of a table's result, in the pairing's order."""

    outcome = forms.ChoiceField(label=_("Winner"), widget=forms.RadioSelect)
    score_a = _score_field(_("Score of the first player"))
    score_b = _score_field(_("Score of the second player"))

    def __init__(self, *args, pairing=None, **kwargs):
        super().__init__(*args, **kwargs)
        if pairing is not None:
            a = pairing.player_a.get_username()
            b = pairing.player_b.get_username() if pairing.player_b else ""
            self.fields["outcome"].choices = [
                ("a", a),
                ("b", b),
                ("draw", _("Draw")),
            ]
            self.fields["score_a"].label = _("Score of %(name)s") % {"name": a}
            self.fields["score_b"].label = _("Score of %(name)s") % {"name": b}
        else:
            self.fields["outcome"].choices = [("a", "a"), ("b", "b"), ("draw", "draw")]


class ForfeitForm(LeagueForm):
    forfeiter = forms.TypedChoiceField(label=_("Who forfeits"), coerce=int)

    def __init__(self, *args, pairing=None, **kwargs):
        super().__init__(*args, **kwargs)
        choices = []
        if pairing is not None and pairing.player_b is not None:
            choices = [
                (pairing.player_a_id, pairing.player_a.get_username()),
                (pairing.player_b_id, pairing.player_b.get_username()),
            ]
        self.fields["forfeiter"].choices = choices


class EntrantForm(LeagueForm):
    """A player of the day (to drop, or to give bonus/penalty points)."""

    player = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(self, *args, entrants=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = [
            (e.pk, e.user.get_username()) for e in entrants
        ]


class AdjustmentForm(EntrantForm):
    points = forms.IntegerField(
        label=_("Points (below 0: a penalty)"),
        min_value=-100,
        max_value=100,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    reason = forms.CharField(label=_("Reason"), max_length=200)


class LateEntryForm(LeagueForm):
    user = forms.TypedChoiceField(label=_("Player"), coerce=int)
    people = forms.ChoiceField(label=_("People"), required=False)

    def __init__(self, *args, candidates=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["user"].choices = [(u.pk, u.get_username()) for u in candidates]
        self.fields["people"].choices = people_choices()


class GuestForm(LeagueForm):
    """A guest without an account, by name."""

    name = forms.CharField(label=_("Guest's name"), max_length=60)
    people = forms.ChoiceField(label=_("People"), required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["people"].choices = people_choices()


class TableGameForm(NewGameForm):
    """A table's game in the app (issue #29): the new game's form without what
    the table decides already (two phones, the players' names, the title)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name in ("title", "player_a", "player_b", "mode"):
            del self.fields[name]
        self.fields["army_b"].label = _("Your opponent's army (side B)")

    def game_arguments(self) -> dict:
        data = self.cleaned_data
        for name in ("title", "player_a", "player_b"):
            data.setdefault(name, "")
        data.setdefault("mode", GameMode.TWO_PHONES)
        arguments = dict(super().game_arguments())
        for name in ("title", "player_a", "player_b", "mode"):
            arguments.pop(name)  # the table decides them
        return arguments

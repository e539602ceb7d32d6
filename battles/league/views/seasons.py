"""A season's management page for the club's admins: thin views over
``battles.league.services.seasons``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from battles.league.forms.league import TIEBREAKER_SLOTS, ParticipantsForm, SeasonForm
from battles.league.services import seasons as services
from battles.league.services.errors import LeagueError
from battles.league.views.access import season_for_member
from battles.validation import add_field_error

User = get_user_model()


def _season_for_admin(request, season_id: int):
    season, member = season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    return season


def _members(season):
    return User.objects.filter(clubs__club_id=season.club_id).order_by("username")


def _season_form(season, data=None) -> SeasonForm:
    initial = {
        f"tiebreaker_{slot}": (
            season.tiebreakers[slot - 1] if slot <= len(season.tiebreakers) else ""
        )
        for slot in range(1, TIEBREAKER_SLOTS + 1)
    }
    return SeasonForm(data, instance=season, initial=initial)


def _manage_page(request, season, *, form=None, participants=None) -> HttpResponse:
    context = {
        "season": season,
        "form": form or _season_form(season),
        "can_edit": services.can_edit_rules(season),
        "participants": participants
        or ParticipantsForm(
            members=_members(season),
            initial={
                "participants": list(season.participants.values_list("pk", flat=True))
            },
        ),
    }
    return render(request, "battles/league/season_manage.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def season_manage(request: HttpRequest, season_id: int) -> HttpResponse:
    """Edit the season's dates and rules (while no result counts)."""
    season = _season_for_admin(request, season_id)
    if request.method == "GET":
        return _manage_page(request, season)
    form = _season_form(season, request.POST)
    if form.is_valid():
        try:
            services.edit_season(season, request.user, **form.season_fields())
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("The season is saved."))
            return redirect("season_manage", season_id=season.pk)
    season.refresh_from_db()
    return _manage_page(request, season, form=form)


@login_required
@require_POST
def season_participants(request: HttpRequest, season_id: int) -> HttpResponse:
    season = _season_for_admin(request, season_id)
    form = ParticipantsForm(request.POST, members=_members(season))
    if form.is_valid():
        try:
            services.set_participants(
                season, request.user, form.cleaned_data["participants"]
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("The season's players are saved."))
            return redirect("season_manage", season_id=season.pk)
    return _manage_page(request, season, participants=form)


STATE_ACTIONS = {
    "close": (services.close_season, gettext_lazy("The season is closed.")),
    "reopen": (services.reopen_season, gettext_lazy("The season is open again.")),
    "archive": (services.archive_season, gettext_lazy("The season is archived.")),
}


@login_required
@require_POST
def season_state(request: HttpRequest, season_id: int, action: str) -> HttpResponse:
    """Close, reopen, archive or delete the season."""
    season = _season_for_admin(request, season_id)
    if action == "delete":
        try:
            services.delete_season(season, request.user)
        except LeagueError as error:
            messages.error(request, error.message)
            return redirect("season_manage", season_id=season.pk)
        messages.success(request, _("The season is deleted."))
        return redirect("club", club_id=season.club_id)
    if action not in STATE_ACTIONS:
        raise PermissionDenied("No such action.")
    act, done = STATE_ACTIONS[action]
    try:
        act(season, request.user)
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done))
    return redirect("season_manage", season_id=season.pk)

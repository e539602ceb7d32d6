"""A tournament day's pages: thin views over ``battles.services.tournament``.

Members of the club see the rounds, their table and the standings after
each round, and print the notice board; the players of a table report its
result or count their finished in-app game; an admin creates the day and its
rounds.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.forms.tournament import PairingReportForm, TournamentForm
from battles.models.tournament import Tournament, TournamentPairing
from battles.services import league as league_services
from battles.services import tournament as services
from battles.services.league import LeagueError
from battles.validation import add_field_error
from battles.views.league import _qr, _season_for_member


def _tournament_for_member(request, tournament_id: int):
    tournament = get_object_or_404(
        Tournament.objects.select_related("season__club"), pk=tournament_id
    )
    member = league_services.membership(tournament.season.club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return tournament, member


def _tables_context(request, tournament, shown_round: int | None = None) -> dict:
    """The current round's tables, and this person's table in it."""
    view = services.tournament_view(tournament)
    mine = None
    if view.current is not None:
        mine = next((p for p in view.current.pairings if p.has(request.user.pk)), None)
    current = view.current.number if view.current else 0
    return {
        "tournament": tournament,
        "view": view,
        "current": view.current,
        "mine": mine,
        "shown_round": current if shown_round is None else shown_round,
    }


def _page(request, tournament, member, *, report_form=None, report_table=None):
    tables = _tables_context(request, tournament)
    mine = tables["mine"]
    context = {
        **tables,
        "season": tournament.season,
        "member": member,
        "report_form": report_form or PairingReportForm(),
        "report_table": report_table,
        "games_to_count": services.games_to_count(mine) if mine else [],
    }
    return render(request, "battles/league/tournament.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_new(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = _season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    form = TournamentForm(
        request.POST or None,
        members=league_services.club_members(season),
        initial={"played_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                season,
                request.user,
                name=form.cleaned_data["name"],
                played_on=form.cleaned_data["played_on"],
                players=form.chosen_players(),
                tap_key=request.POST.get("tap_key", ""),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            return redirect("tournament", tournament_id=tournament.pk)
    context = {"season": season, "form": form}
    return render(request, "battles/league/tournament_new.html", context)


@login_required
@require_GET
def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, member = _tournament_for_member(request, tournament_id)
    return _page(request, tournament, member)


@login_required
@require_POST
def tournament_round_new(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament, _member = _tournament_for_member(request, tournament_id)
    try:
        new_round = services.create_round(
            tournament,
            request.user,
            tap_key=request.POST.get("tap_key", ""),
        )
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Round %(n)s is paired.") % {"n": new_round.number})
    return redirect("tournament", tournament_id=tournament.pk)


def _pairing_for_member(request, tournament, pairing_id: int) -> TournamentPairing:
    return get_object_or_404(
        TournamentPairing.objects.select_related("round__tournament__season__club"),
        pk=pairing_id,
        round__tournament=tournament,
    )


@login_required
@require_POST
def pairing_report(
    request: HttpRequest, tournament_id: int, pairing_id: int
) -> HttpResponse:
    tournament, member = _tournament_for_member(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    form = PairingReportForm(request.POST)
    if form.is_valid():
        try:
            result = services.report_pairing_result(
                pairing,
                request.user,
                tap_key=request.POST.get("tap_key", ""),
                **form.cleaned_data,
            )
        except LeagueError as error:
            if not error.field:
                # Not about a field of the form (not this member's table, its
                # result already recorded): the form may not even be shown.
                messages.error(request, error.message)
                return redirect("tournament", tournament_id=tournament.pk)
            add_field_error(form, error)
        else:
            messages.success(
                request, _("Result reported: it counts once your opponent confirms it.")
            )
            return redirect("result", result_id=result.pk)
    return _page(request, tournament, member, report_form=form, report_table=pairing)


@login_required
@require_POST
def pairing_game(request: HttpRequest, tournament_id: int, pairing_id: int):
    tournament, _member = _tournament_for_member(request, tournament_id)
    pairing = _pairing_for_member(request, tournament, pairing_id)
    try:
        services.count_game_for_pairing(pairing, request.user)
    except LeagueError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your finished game counts for this table."))
    return redirect("tournament", tournament_id=tournament.pk)


@login_required
@require_GET
def tournament_print(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The notice board: the current round's tables in big print."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    view = services.tournament_view(tournament)
    context = {"tournament": tournament, "season": tournament.season, "view": view}
    return render(request, "battles/league/tournament_print.html", context)


@login_required
@require_GET
def tournament_qr(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The QR code of the tournament's page, for the notice board: a player
    scans it to find their table on their phone."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    return _qr(request.build_absolute_uri(reverse("tournament", args=[tournament.pk])))


@login_required
@require_GET
def tournament_tables(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The current round's tables, which the page fetches every 15 s: results
    as they come, and a new round announced (the rest of the page is not
    swapped, so a report being typed is never lost)."""
    tournament, _member = _tournament_for_member(request, tournament_id)
    try:
        shown = int(request.GET.get("round", ""))
    except ValueError:
        shown = None
    context = _tables_context(request, tournament, shown)
    if context["current"] is None:
        return HttpResponse(status=204)
    response = render(request, "battles/league/tournament.html#tables", context)
    response["Vary"] = "HX-Request"
    return response

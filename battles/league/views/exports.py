"""A tournament's T³ file (issue #29): the tournament block, then each
player's placement, names and nickname. Members of the club download it."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_GET

from battles.league import services as league_services
from battles.league.models.tournament import Tournament
from battles.league.services import exports


def csv_response(sheet: exports.Sheet) -> HttpResponse:
    response = HttpResponse(
        exports.csv_text(sheet), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{sheet.filename}"'
    return response


@login_required
@require_GET
def tournament_t3_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(
        Tournament.objects.select_related("season__club"), pk=tournament_id
    )
    if league_services.membership(tournament.season.club, request.user) is None:
        raise PermissionDenied("Members only.")
    return csv_response(exports.tournament_t3_sheet(tournament))

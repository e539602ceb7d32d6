"""The club league's pages: thin views over ``battles.league.services``, one
module per topic; this one loads what a page needs, with the right checks.

Who may see what (checked here, never only in templates):

- anyone, no account: a club's public page, a season's public standings
  through its public link (and its QR code);
- signed in: the list of clubs, making a club, an invitation's page;
- a member of the club: the season's pages (standings, results, players,
  peoples, schedule, exports, printable page), reporting a result, answering
  a result reported against them;
- an admin of the club: members, invitations, seasons, the public link,
  confirming / correcting / voiding any result.

A signed-out visitor asking for a member's page is sent to sign in; a
signed-in outsider gets 403.
"""

from __future__ import annotations

import io

import segno
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import (
    HttpResponse,
)
from django.shortcuts import get_object_or_404

from battles.league import services
from battles.league.models.league import (
    Club,
    LeagueResult,
    Membership,
    Season,
)
from battles.league.services.errors import LeagueError

User = get_user_model()


# --- loading what a view needs, with the right checks --------------------------------


def club_for_member(request, club_id: int) -> tuple[Club, Membership]:
    club = get_object_or_404(Club, pk=club_id)
    member = services.membership(club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return club, member


def club_for_admin(request, club_id: int) -> tuple[Club, Membership]:
    club, member = club_for_member(request, club_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    return club, member


def season_for_member(request, season_id: int) -> tuple[Season, Membership]:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    member = services.membership(season.club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return season, member


def result_for_member(request, result_id: int) -> tuple[LeagueResult, Membership]:
    result = get_object_or_404(
        LeagueResult.objects.select_related(
            "season__club", "player_a", "player_b", "reported_by"
        ),
        pk=result_id,
    )
    member = services.membership(result.season.club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return result, member


def refuse(request, error: LeagueError) -> None:
    messages.error(request, error.message)


def qr(url: str) -> HttpResponse:
    code = segno.make(url, error="m")
    buffer = io.BytesIO()
    code.save(buffer, kind="svg", scale=6, border=3, dark="#000", light="#fff")
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")

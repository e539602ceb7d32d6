"""A season's pages for its members (standings, results, peoples, schedule,
a player, exports, the printable page, sharing) and its public link."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from battles.league import services
from battles.league.forms.league import (
    SeasonForm,
)
from battles.league.live.league import (
    season_version,
)
from battles.league.models.league import (
    Season,
)
from battles.league.presenters import rating_chart, rating_curve_points
from battles.league.services import exports
from battles.league.services.errors import LeagueError
from battles.league.views.access import club_for_admin, qr, season_for_member
from battles.league.views.exports import csv_response
from battles.validation import add_field_error

User = get_user_model()


# --- seasons --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = club_for_admin(request, club_id)
    today = timezone.localdate()
    initial = {"starts": today, "ends": today.replace(month=12, day=31)}
    members = User.objects.filter(clubs__club=club).order_by("username")
    form = SeasonForm(request.POST or None, initial=initial, members=members)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.create_season(
                club,
                request.user,
                tap_key=request.POST.get("tap_key", ""),
                **form.season_fields(),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            return redirect("season", season_id=season.pk)
    return render(
        request, "battles/league/season_new.html", {"club": club, "form": form}
    )


def _standings_context(request, season: Season, *, public: bool = False) -> dict:
    table = services.season_table(season)
    return {
        "season": season,
        "club": season.club,
        "table": table,
        "version": season_version(season.pk),
        "public": public,
    }


@login_required
@require_GET
def season_page(request: HttpRequest, season_id: int) -> HttpResponse:
    """The standings (live), and the way to everything else of the season."""
    season, member = season_for_member(request, season_id)
    context = _standings_context(request, season)
    context["member"] = member
    context["takes_part"] = season.participants.filter(pk=request.user.pk).exists()
    context["pending"] = [
        r for r in services.pending_for(request.user) if r.season_id == season.pk
    ]
    template = "battles/league/season.html"
    if request.htmx:
        template += "#standings"
    response = render(request, template, context)
    response["Vary"] = "HX-Request"
    return response


@login_required
@require_GET
@never_cache
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    """The standings partial, which the live page fetches when told to."""
    season, _member = season_for_member(request, season_id)
    context = _standings_context(request, season)
    return render(request, "battles/league/season.html#standings", context)


def public_season(key: str) -> Season:
    season = (
        Season.objects.select_related("club")
        .filter(public_key=key, public=True)
        .first()
    )
    if season is None:
        raise Http404("No such season.")
    return season


@require_GET
def season_public(request: HttpRequest, key: str) -> HttpResponse:
    """The read-only standings for a notice board: no account needed."""
    season = public_season(key)
    context = _standings_context(request, season, public=True)
    template = "battles/league/public.html"
    if request.htmx:
        template = "battles/league/season.html#standings"
    response = render(request, template, context)
    response["Vary"] = "HX-Request"
    response["X-Robots-Tag"] = "noindex, nofollow"  # a club's page, not the web's
    return response


@require_GET
def season_public_qr(request: HttpRequest, key: str) -> HttpResponse:
    season = public_season(key)
    return qr(
        request.build_absolute_uri(reverse("season_public", args=[season.public_key]))
    )


@login_required
@require_POST
def season_public_renew(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    services.renew_public_link(season, request.user)
    messages.success(request, _("New public link: the old one no longer works."))
    return redirect("season_share", season_id=season.pk)


@login_required
@require_POST
def season_public_switch(request: HttpRequest, season_id: int) -> HttpResponse:
    """An admin switches the public standings off (or on again)."""
    season, member = season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    public = request.POST.get("public") == "on"
    services.set_public_standings(season, request.user, public)
    if public:  # (off: the share page says so in its place)
        messages.success(request, _("The public standings are on."))
    return redirect("season_share", season_id=season.pk)


@login_required
@require_GET
def season_share(request: HttpRequest, season_id: int) -> HttpResponse:
    """The public standings link and its QR code, for the club's notice board."""
    season, member = season_for_member(request, season_id)
    url = request.build_absolute_uri(reverse("season_public", args=[season.public_key]))
    context = {"season": season, "member": member, "url": url}
    return render(request, "battles/league/share.html", context)


@login_required
@require_GET
def season_print(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season on paper: standings and every confirmed result."""
    season, _member = season_for_member(request, season_id)
    context = _standings_context(request, season)
    if season.public:
        context["public_url"] = request.build_absolute_uri(
            reverse("season_public", args=[season.public_key])
        )
    return render(request, "battles/league/print.html", context)


@login_required
@require_GET
def season_results(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = season_for_member(request, season_id)
    results = list(services.results_visible_to(season)[:500])
    players = {pk for r in results for pk in (r.player_a_id, r.player_b_id)}
    context = {
        "season": season,
        "member": member,
        "results": results,
        "names": services.shown_names(players),
    }
    return render(request, "battles/league/results.html", context)


def _season_listing(
    request, season_id: int, template: str, name: str, compute
) -> HttpResponse:
    """A member's page of one season's ``name``: ``compute(season)``."""
    season, _member = season_for_member(request, season_id)
    context = {"season": season, name: compute(season)}
    return render(request, template, context)


@login_required
@require_GET
def season_peoples(request: HttpRequest, season_id: int) -> HttpResponse:
    return _season_listing(
        request,
        season_id,
        "battles/league/peoples.html",
        "stats",
        services.people_statistics,
    )


@login_required
@require_GET
def season_schedule(request: HttpRequest, season_id: int) -> HttpResponse:
    return _season_listing(
        request, season_id, "battles/league/schedule.html", "rounds", services.schedule
    )


@login_required
@require_GET
def season_player(request: HttpRequest, season_id: int, user_id: int) -> HttpResponse:
    season, _member = season_for_member(request, season_id)
    user = get_object_or_404(User, pk=user_id)
    page = services.player_page(season, user)
    people = [user, *(h["opponent"] for h in page.history)]
    people += [o["user"] for o in page.opponents]
    context = {
        "season": season,
        "page": page,
        "names": services.shown_names(p.pk for p in people if p is not None),
        "curve": rating_chart(page.curve),
        # The season's luck starts at zero, before the first game.
        "luck_curve": rating_curve_points(
            [0.0, *(point["season_luck"] for point in page.luck)] if page.luck else []
        ),
    }
    return render(request, "battles/league/player.html", context)


@login_required
@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = season_for_member(request, season_id)
    return csv_response(exports.standings_sheet(season))


@login_required
@require_GET
def season_results_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = season_for_member(request, season_id)
    return csv_response(exports.results_sheet(season))


@login_required
@require_GET
def season_t3_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's final placements for T³ (the European ranking)."""
    season, _member = season_for_member(request, season_id)
    return csv_response(exports.t3_sheet(season))

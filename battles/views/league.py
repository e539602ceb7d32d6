"""The club league's pages: thin views over ``battles.services.league``.

Who may see what (checked here, never only in templates):

- anyone, no account: a club's public page, a season's public standings
  through its public link (and its QR code);
- signed in: the list of clubs, making a club, an invitation's page;
- a member of the club: the season's pages (standings, results, players,
  peoples, schedule, exports, printable page), reporting a result, answering
  a result reported against them;
- an admin of the club: members, invitations, password-reset links,
  seasons, the public link, confirming / correcting / voiding any result.

A signed-out visitor asking for a member's page is sent to sign in; a
signed-in outsider gets 403.
"""

from __future__ import annotations

import csv
import io

import segno
from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.forms.league import (
    ClubForm,
    CorrectForm,
    GameOutcomeForm,
    NewPasswordForm,
    ReasonForm,
    ReportForm,
    SeasonForm,
)
from battles.live.league import (
    league_events,
    player_version,
    season_version,
)
from battles.live.stream import hang_up, seen_version
from battles.models.league import (
    Club,
    Invitation,
    LeagueResult,
    Membership,
    ResultStatus,
    Season,
)
from battles.presenters.league import rating_curve_points
from battles.services import league as services
from battles.services.league import LeagueError
from battles.validation import add_field_error
from battles.views.access import get_game_for_viewer

User = get_user_model()
INVITE_TOKENS = "club_invitation_tokens"
RESET_TOKENS = "club_reset_tokens"


# --- loading what a view needs, with the right checks --------------------------------


def _club_for_member(request, club_id: int) -> tuple[Club, Membership]:
    club = get_object_or_404(Club, pk=club_id)
    member = services.membership(club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return club, member


def _club_for_admin(request, club_id: int) -> tuple[Club, Membership]:
    club, member = _club_for_member(request, club_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    return club, member


def _season_for_member(request, season_id: int) -> tuple[Season, Membership]:
    season = get_object_or_404(Season.objects.select_related("club"), pk=season_id)
    member = services.membership(season.club, request.user)
    if member is None:
        raise PermissionDenied("Members only.")
    return season, member


def _result_for_member(request, result_id: int) -> tuple[LeagueResult, Membership]:
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


def _refuse(request, error: LeagueError) -> None:
    messages.error(request, error.message)


# --- clubs ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def club_list(request: HttpRequest) -> HttpResponse:
    """The clubs you belong to, every club's public page, and a new club."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["description"],
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("Club created: you are its admin."))
            return redirect("club", club_id=club.pk)
    mine = Membership.objects.filter(user=request.user).select_related("club")
    context = {"form": form, "mine": mine, "clubs": Club.objects.all()[:200]}
    return render(request, "battles/league/clubs.html", context)


@require_GET
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's public page: its name, its seasons; members see more."""
    club = get_object_or_404(Club, pk=club_id)
    member = services.membership(club, request.user)
    context = {
        "club": club,
        "member": member,
        "seasons": club.seasons.all(),
        "members": (
            club.members.select_related("user").order_by("user__username")
            if member
            else None
        ),
        "member_count": club.members.count(),
    }
    return render(request, "battles/league/club.html", context)


@login_required
@require_GET
@never_cache
def club_admin(request: HttpRequest, club_id: int) -> HttpResponse:
    """Members (remove, promote, password-reset link) and invitations."""
    club, _member = _club_for_admin(request, club_id)
    tokens = request.session.get(INVITE_TOKENS, {})
    invitations = []
    for invitation in club.invitations.all()[:50]:
        token = tokens.get(str(invitation.pk))
        url = (
            request.build_absolute_uri(reverse("club_join", args=[token]))
            if token and invitation.usable
            else ""
        )
        invitations.append({"row": invitation, "url": url})
    reset = request.session.pop(RESET_TOKENS, None)
    reset_url = None
    if reset and reset.get("club") == club.pk:
        reset_url = {
            "user": reset["user"],
            "url": request.build_absolute_uri(
                reverse("password_reset_link", args=[reset["token"]])
            ),
        }
    context = {
        "club": club,
        "members": club.members.select_related("user").order_by("user__username"),
        "invitations": invitations,
        "reset": reset_url,
    }
    return render(request, "battles/league/club_admin.html", context)


@login_required
@require_POST
def club_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = _club_for_admin(request, club_id)
    issued = services.make_invitation(club, request.user)
    tokens = dict(request.session.get(INVITE_TOKENS, {}))
    tokens[str(issued.row.pk)] = issued.token
    request.session[INVITE_TOKENS] = tokens
    messages.success(request, _("Invitation ready: show its QR code or send the link."))
    return redirect("club_admin", club_id=club.pk)


@login_required
@require_GET
@never_cache
def club_invite_qr(request: HttpRequest, club_id: int, invitation_id: int):
    club, _member = _club_for_admin(request, club_id)
    token = request.session.get(INVITE_TOKENS, {}).get(str(invitation_id))
    if not token or not Invitation.objects.filter(club=club, pk=invitation_id).exists():
        raise Http404("No such invitation.")
    return _qr(request.build_absolute_uri(reverse("club_join", args=[token])))


@login_required
@require_POST
def club_invite_revoke(request: HttpRequest, club_id: int, invitation_id: int):
    club, _member = _club_for_admin(request, club_id)
    try:
        services.revoke_invitation(club, request.user, invitation_id)
    except LeagueError as error:
        _refuse(request, error)
    else:
        messages.success(request, _("Invitation withdrawn."))
    return redirect("club_admin", club_id=club.pk)


@login_required
@require_POST
def club_member_action(request: HttpRequest, club_id: int, user_id: int, action: str):
    """Remove a member, make them an admin, or issue a password-reset link."""
    club, _member = _club_for_admin(request, club_id)
    try:
        if action == "remove":
            services.remove_member(club, request.user, user_id)
            messages.success(request, _("Member removed."))
        elif action == "promote":
            services.promote_admin(club, request.user, user_id)
            messages.success(request, _("Member promoted to admin."))
        elif action == "reset":
            issued = services.issue_password_reset(club, request.user, user_id)
            request.session[RESET_TOKENS] = {
                "club": club.pk,
                "user": issued.row.user.get_username(),
                "token": issued.token,
            }
        else:
            raise Http404("No such action.")
    except LeagueError as error:
        _refuse(request, error)
    return redirect("club_admin", club_id=club.pk)


def _no_referrer(response: HttpResponse) -> HttpResponse:
    response["Referrer-Policy"] = "no-referrer"
    return response


def _link_refused(request, template: str, error: LeagueError) -> HttpResponse:
    """A used, expired or withdrawn link: the page says why (410), no referrer."""
    response = render(request, template, {"refusal": error.message}, status=410)
    return _no_referrer(response)


@require_http_methods(["GET", "POST"])
@never_cache
def club_join(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation: sign in (or up), then join the club."""
    try:
        invitation = services.invitation_for(token)
    except LeagueError as error:
        return _link_refused(request, "battles/league/join.html", error)
    if request.method == "POST":
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        try:
            services.accept_invitation(token, request.user)
        except LeagueError as error:
            return _link_refused(request, "battles/league/join.html", error)
        messages.success(request, _("Welcome to the club."))
        return _no_referrer(redirect("club", club_id=invitation.club_id))
    context = {"invitation": invitation, "next": request.path}
    return _no_referrer(render(request, "battles/league/join.html", context))


@require_http_methods(["GET", "POST"])
@never_cache
def password_reset_link(request: HttpRequest, token: str) -> HttpResponse:
    """A one-time link from an admin: choose a new password, then you are in."""
    try:
        link = services.password_reset_for(token)
    except LeagueError as error:
        return _link_refused(request, "battles/league/reset.html", error)
    form = NewPasswordForm(link.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.use_password_reset(
                token, form.cleaned_data["new_password1"]
            )
        except LeagueError as error:
            form.add_error(None, error.message)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, _("Your new password is set."))
            return _no_referrer(redirect("home"))
    context = {"form": form, "who": link.user.get_username()}
    return _no_referrer(render(request, "battles/league/reset.html", context))


# --- seasons --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = _club_for_admin(request, club_id)
    today = timezone.localdate()
    initial = {"starts": today, "ends": today.replace(month=12, day=31)}
    form = SeasonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.create_season(club, request.user, **form.season_fields())
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
    season, member = _season_for_member(request, season_id)
    context = _standings_context(request, season)
    context["member"] = member
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
    season, _member = _season_for_member(request, season_id)
    context = _standings_context(request, season)
    return render(request, "battles/league/season.html#standings", context)


def _public_season(key: str) -> Season:
    season = Season.objects.select_related("club").filter(public_key=key).first()
    if season is None:
        raise Http404("No such season.")
    return season


@require_GET
def season_public(request: HttpRequest, key: str) -> HttpResponse:
    """The read-only standings for a notice board: no account needed."""
    season = _public_season(key)
    context = _standings_context(request, season, public=True)
    template = "battles/league/public.html"
    if request.htmx:
        template = "battles/league/season.html#standings"
    response = render(request, template, context)
    response["Vary"] = "HX-Request"
    return response


@require_GET
def season_public_qr(request: HttpRequest, key: str) -> HttpResponse:
    season = _public_season(key)
    return _qr(
        request.build_absolute_uri(reverse("season_public", args=[season.public_key]))
    )


@login_required
@require_POST
def season_public_renew(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = _season_for_member(request, season_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    services.renew_public_link(season, request.user)
    messages.success(request, _("New public link: the old one no longer works."))
    return redirect("season_share", season_id=season.pk)


@login_required
@require_GET
def season_share(request: HttpRequest, season_id: int) -> HttpResponse:
    """The public standings link and its QR code, for the club's notice board."""
    season, member = _season_for_member(request, season_id)
    url = request.build_absolute_uri(reverse("season_public", args=[season.public_key]))
    context = {"season": season, "member": member, "url": url}
    return render(request, "battles/league/share.html", context)


@login_required
@require_GET
def season_print(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season on paper: standings and every confirmed result."""
    season, _member = _season_for_member(request, season_id)
    context = _standings_context(request, season)
    return render(request, "battles/league/print.html", context)


@login_required
@require_GET
def season_results(request: HttpRequest, season_id: int) -> HttpResponse:
    season, member = _season_for_member(request, season_id)
    context = {
        "season": season,
        "member": member,
        "results": services.results_visible_to(season)[:500],
    }
    return render(request, "battles/league/results.html", context)


def _season_listing(
    request, season_id: int, template: str, name: str, compute
) -> HttpResponse:
    """A member's page of one season's ``name``: ``compute(season)``."""
    season, _member = _season_for_member(request, season_id)
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
    season, _member = _season_for_member(request, season_id)
    user = get_object_or_404(User, pk=user_id)
    page = services.player_page(season, user)
    context = {
        "season": season,
        "page": page,
        "curve": rating_curve_points([point["ordinal"] for point in page.curve]),
        # The season's luck starts at zero, before the first game.
        "luck_curve": rating_curve_points(
            [0.0, *(point["season_luck"] for point in page.luck)] if page.luck else []
        ),
    }
    return render(request, "battles/league/player.html", context)


def _csv_response(filename: str, header: list[str], rows) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    for row in rows:
        writer.writerow([_csv_safe(value) for value in row])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _csv_safe(value):
    """A cell a spreadsheet will not run as a formula."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


@login_required
@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = _season_for_member(request, season_id)
    table = services.season_table(season)
    header = [
        "rank",
        "player",
        "played",
        "won",
        "drawn",
        "lost",
        "points",
        "head_to_head",
        "score_for",
        "score_against",
        "goal_average",
        "strength_of_schedule",
        "rating_mu",
        "rating_sigma",
        "rating_ordinal",
        "peoples",
    ]
    rows = []
    for row in table.rows:
        line, rating = row.line, row.rating
        rows.append(
            [
                line.rank,
                line.player,
                line.played,
                line.won,
                line.drawn,
                line.lost,
                line.points,
                line.head_to_head,
                line.score_for,
                line.score_against,
                line.goal_average,
                line.strength_of_schedule,
                f"{rating.mu:.3f}" if rating else "",
                f"{rating.sigma:.3f}" if rating else "",
                f"{rating.ordinal:.3f}" if rating else "",
                "; ".join(row.peoples),
            ]
        )
    return _csv_response(f"standings-{season.pk}.csv", header, rows)


@login_required
@require_GET
def season_results_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = _season_for_member(request, season_id)
    header = [
        "id",
        "date",
        "player_a",
        "player_b",
        "outcome",
        "score_a",
        "score_b",
        "people_a",
        "people_b",
        "army_a",
        "army_b",
        "status",
        "game",
    ]
    rows = [
        [
            r.pk,
            r.played_on.isoformat(),
            r.player_a.username,
            r.player_b.username,
            r.outcome,
            r.score_a,
            r.score_b,
            r.people_a,
            r.people_b,
            r.army_a,
            r.army_b,
            r.status,
            r.game.public_id if r.game_id else "",
        ]
        for r in season.results.select_related("player_a", "player_b", "game").order_by(
            "played_on", "id"
        )
    ]
    return _csv_response(f"results-{season.pk}.csv", header, rows)


# --- results --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def result_report(request: HttpRequest, season_id: int) -> HttpResponse:
    """Report a game played without the app; the opponent confirms it."""
    season, _member = _season_for_member(request, season_id)
    opponents = [u for u in services.club_members(season) if u.pk != request.user.pk]
    form = ReportForm(
        request.POST or None,
        opponents=opponents,
        initial={"played_on": timezone.localdate()},
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            result = services.report_result(
                season,
                request.user,
                opponent_id=data["opponent"],
                played_on=data["played_on"],
                result=data["result"],
                score_for=data["score_for"],
                score_against=data["score_against"],
                people_for=data["people_for"],
                people_against=data["people_against"],
                army_for=data["army_for"],
                army_against=data["army_against"],
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(
                request, _("Result reported: it counts once your opponent confirms it.")
            )
            return redirect("result", result_id=result.pk)
    context = {"season": season, "form": form}
    return render(request, "battles/league/report.html", context)


def _result_context(request, result, member, **extra) -> dict:
    user = request.user
    waiting_for_me = (
        result.status == ResultStatus.PENDING
        and user.pk in (result.player_a_id, result.player_b_id)
        and user.pk != result.reported_by_id
    )
    correct = extra.pop("correct_form", None) or CorrectForm(
        initial={
            "played_on": result.played_on,
            "outcome": result.outcome,
            "score_a": result.score_a,
            "score_b": result.score_b,
            "people_a": result.people_a,
            "people_b": result.people_b,
        }
    )
    return {
        "result": result,
        "season": result.season,
        "member": member,
        "history": services.result_history(result),
        "waiting_for_me": waiting_for_me,
        "reason_form": extra.pop("reason_form", None) or ReasonForm(),
        "correct_form": correct,
        **extra,
    }


@login_required
@require_GET
def result_page(request: HttpRequest, result_id: int) -> HttpResponse:
    """A result, its history, and what this person may do about it."""
    result, member = _result_for_member(request, result_id)
    return render(
        request, "battles/league/result.html", _result_context(request, result, member)
    )


def _after_result_action(request, result) -> HttpResponse:
    url = reverse("result", args=[result.pk])
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


@login_required
@require_POST
def result_answer(request: HttpRequest, result_id: int, verdict: str) -> HttpResponse:
    """The opponent confirms or disputes a reported result."""
    result, _member = _result_for_member(request, result_id)
    try:
        if verdict == "confirm":
            services.confirm_result(result, request.user)
            messages.success(
                request, _("Result confirmed: it counts in the standings.")
            )
        elif verdict == "dispute":
            services.dispute_result(result, request.user)
            messages.success(request, _("Result disputed: an admin will settle it."))
        else:
            raise Http404("No such answer.")
    except LeagueError as error:
        _refuse(request, error)
    return _after_result_action(request, result)


@login_required
@require_POST
def result_admin(request: HttpRequest, result_id: int, action: str) -> HttpResponse:
    """An admin confirms, voids or corrects a result, with a reason."""
    result, member = _result_for_member(request, result_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    form_class = CorrectForm if action == "correct" else ReasonForm
    if action not in ("confirm", "void", "correct"):
        raise Http404("No such action.")
    form = form_class(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            if action == "confirm":
                services.admin_confirm(result, request.user, data["reason"])
            elif action == "void":
                services.admin_void(result, request.user, data["reason"])
            else:
                services.admin_correct(
                    result,
                    request.user,
                    data["reason"],
                    played_on=data["played_on"],
                    outcome=data["outcome"],
                    score_a=data["score_a"],
                    score_b=data["score_b"],
                    people_a=data["people_a"],
                    people_b=data["people_b"],
                )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("Done; the history keeps who did it and why."))
            return _after_result_action(request, result)
    extra = {"correct_form": form} if action == "correct" else {"reason_form": form}
    extra["failed_action"] = action
    context = _result_context(request, result, member, **extra)
    return render(request, "battles/league/result.html", context, status=200)


# --- waiting for me (the home page box), live -----------------------------------------


@require_GET
@never_cache
def waiting(request: HttpRequest) -> HttpResponse:
    """The results waiting for this person's confirmation (a partial)."""
    if not request.user.is_authenticated:
        return HttpResponse(status=204)
    context = {
        "pending": services.pending_for(request.user),
        "version": player_version(request.user.pk),
    }
    return render(request, "battles/league/waiting.html#box", context)


def _stream_response(kind: str, key_id: int, request) -> StreamingHttpResponse:
    seen = seen_version(request.headers.get("Last-Event-ID"), request.GET.get("since"))
    response = StreamingHttpResponse(
        league_events(kind, key_id, seen), content_type="text/event-stream"
    )
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def _waiting_user_id(request) -> int:
    try:
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        return request.user.pk
    finally:
        hang_up()


@require_GET
async def waiting_stream(request: HttpRequest) -> StreamingHttpResponse:
    user_id = await sync_to_async(_waiting_user_id)(request)
    return _stream_response("player", user_id, request)


def _season_id_for_stream(request, season_id: int, key: str | None) -> int:
    try:
        if key is not None:
            return _public_season(key).pk
        if not request.user.is_authenticated:
            raise PermissionDenied("Sign in first.")
        season, _member = _season_for_member(request, season_id)
        return season.pk
    finally:
        hang_up()


@require_GET
async def season_stream(request: HttpRequest, season_id: int) -> StreamingHttpResponse:
    found = await sync_to_async(_season_id_for_stream)(request, season_id, None)
    return _stream_response("season", found, request)


@require_GET
async def season_public_stream(request: HttpRequest, key: str) -> StreamingHttpResponse:
    found = await sync_to_async(_season_id_for_stream)(request, 0, key)
    return _stream_response("season", found, request)


@require_GET
@never_cache
def season_version_view(request: HttpRequest, season_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        raise PermissionDenied("Sign in first.")
    season, _member = _season_for_member(request, season_id)
    return JsonResponse({"version": season_version(season.pk)})


# --- a finished game's result ----------------------------------------------------


def _outcome_context(request, game, viewer, form=None) -> dict:
    outcome = services.game_outcome(game)
    seasons = services.seasons_for_game(game) if game.finished else []
    if form is None:
        initial = services.default_outcome(game) if game.finished else {}
        if outcome is not None:
            initial = {
                "outcome": outcome.outcome,
                "score_a": outcome.score_a,
                "score_b": outcome.score_b,
                "season": outcome.season_id,
            }
        form = GameOutcomeForm(initial=initial, seasons=seasons)
    sides = viewer.sides
    can_confirm = bool(
        outcome is not None
        and not outcome.settled
        and any(not outcome.agreed(side) for side in sides)
    )
    return {
        "game": game,
        "viewer": viewer,
        "outcome": outcome,
        "form": form,
        "seasons": seasons,
        "destroyed": services.army_points_destroyed(game) if game.finished else None,
        "can_confirm": can_confirm,
        "can_propose": bool(sides) and (outcome is None or not outcome.settled),
        "waiting": outcome is None or not outcome.settled,
    }


@require_http_methods(["GET", "POST"])
@never_cache
def game_outcome(request: HttpRequest, public_id: str) -> HttpResponse:
    """The end-of-game result: proposed by one phone, confirmed by the other."""
    game, viewer = get_game_for_viewer(request, public_id)
    if not game.finished:
        return HttpResponse(status=204)
    form = None
    error = ""
    if request.method == "POST":
        if not viewer.is_player:
            raise PermissionDenied("Players only.")
        form = GameOutcomeForm(request.POST, seasons=services.seasons_for_game(game))
        if form.is_valid():
            data = form.cleaned_data
            side = viewer.sides[0]
            try:
                services.propose_game_outcome(
                    game,
                    side,
                    outcome=data["outcome"],
                    score_a=data["score_a"],
                    score_b=data["score_b"],
                    season_id=data["season"],
                )
                if viewer.holds_both_sides:  # one phone: both players are here
                    services.confirm_game_outcome(game, "b")
            except LeagueError as error_:
                add_field_error(form, error_)
            else:
                form = None
    context = _outcome_context(request, game, viewer, form)
    context["error"] = error
    template = "battles/league/game_outcome.html"
    if request.method == "GET" and request.GET.get("part") == "status":
        template += "#status"
    return render(request, template, context)


@require_POST
def game_outcome_confirm(request: HttpRequest, public_id: str) -> HttpResponse:
    game, viewer = get_game_for_viewer(request, public_id)
    if not viewer.is_player:
        raise PermissionDenied("Players only.")
    error = ""
    outcome = services.game_outcome(game)
    side = next(
        (s for s in viewer.sides if outcome is None or not outcome.agreed(s)),
        viewer.sides[0],
    )
    try:
        services.confirm_game_outcome(game, side)
    except LeagueError as error_:
        error = error_.message
    context = _outcome_context(request, game, viewer)
    context["error"] = error
    return render(request, "battles/league/game_outcome.html", context)


def _qr(url: str) -> HttpResponse:
    qr = segno.make(url, error="m")
    buffer = io.BytesIO()
    qr.save(buffer, kind="svg", scale=6, border=3, dark="#000", light="#fff")
    return HttpResponse(buffer.getvalue(), content_type="image/svg+xml")

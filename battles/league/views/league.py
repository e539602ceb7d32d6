"""The club league's pages: thin views over ``battles.league.services``.

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
from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth import get_user_model
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
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from battles.league import services
from battles.league.forms.league import (
    ClubForm,
    CorrectForm,
    DisputeForm,
    GameOutcomeForm,
    ReasonForm,
    ReportForm,
    SeasonForm,
)
from battles.league.live.league import (
    league_events,
    season_version,
)
from battles.league.models.league import (
    Club,
    Invitation,
    LeagueResult,
    Membership,
    ResultStatus,
    Season,
)
from battles.league.notices import notice_words
from battles.league.presenters import rating_chart, rating_curve_points
from battles.league.services import exports
from battles.league.services.errors import LeagueError
from battles.live.stream import hang_up, seen_version
from battles.validation import add_field_error
from battles.views.access import get_game_for_viewer
from battles.views.csrf import no_referrer_page

User = get_user_model()
INVITE_TOKENS = "club_invitation_tokens"


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
    """The clubs you belong to, joining one by its invitation link, and a new
    club (no list of every club: issue #29)."""
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(
                request.user,
                form.cleaned_data["name"],
                form.cleaned_data["description"],
                tap_key=request.POST.get("tap_key", ""),
            )
        except LeagueError as error:
            add_field_error(form, error)
        else:
            messages.success(request, _("Club created: you are its admin."))
            return redirect("club", club_id=club.pk)
    link = request.GET.get("invitation", "").strip()
    if link:  # joining by link: the invitation's page, found by its token
        token = link.rstrip("/").rsplit("/", 1)[-1]
        if token:
            return redirect("club_join", token=token)
    # Only her own clubs: the directory of every club is nobody's business.
    mine = Membership.objects.filter(user=request.user).select_related("club")
    context = {"form": form, "mine": mine}
    return render(request, "battles/league/clubs.html", context)


@login_required  # not listed to anonymous visitors by sequential ids
@require_GET
def club_page(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's page: its name, its seasons; members see more."""
    club = get_object_or_404(Club, pk=club_id)
    member = services.membership(club, request.user)
    context = {
        "club": club,
        "member": member,
        "seasons": club.seasons.filter(archived=False),
        "archived": club.seasons.filter(archived=True),
        "members": (
            club.members.select_related("user").order_by("user__username")
            if member
            else None
        ),
        "member_count": club.members.count(),
        "notices": [
            notice_words(row)
            for row in services.notices_for(request.user)
            if row.club_id == club.pk
        ],
    }
    return render(request, "battles/league/club.html", context)


@login_required
@require_GET
@never_cache
def club_admin(request: HttpRequest, club_id: int) -> HttpResponse:
    """Members (remove, promote), invitations, the audit."""
    club, _member = _club_for_admin(request, club_id)
    tokens = request.session.get(INVITE_TOKENS, {})
    invitations = []
    for invitation in club.invitations.select_related("used_by", "created_by")[:50]:
        token = services.invitation_token(invitation) or tokens.get(str(invitation.pk))
        url = (
            request.build_absolute_uri(reverse("club_join", args=[token]))
            if token and invitation.usable
            else ""
        )
        invitations.append({"row": invitation, "url": url})
    context = {
        "club": club,
        "members": club.members.select_related("user").order_by("user__username"),
        "invitations": invitations,
        "audit": services.club_audit(club),
        "removed": services.removed_members(club),
    }
    return render(request, "battles/league/club_admin.html", context)


@login_required
@require_POST
def club_invite(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = _club_for_admin(request, club_id)
    try:
        issued = services.make_invitation(
            club,
            request.user,
            tap_key=request.POST.get("tap_key", ""),
        )
    except LeagueError as error:
        messages.error(request, error.message)
        return redirect("club_admin", club_id=club.pk)
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
    invitation = Invitation.objects.filter(club=club, pk=invitation_id).first()
    if invitation is None:
        raise Http404("No such invitation.")
    token = services.invitation_token(invitation) or request.session.get(
        INVITE_TOKENS, {}
    ).get(str(invitation_id))
    if not token:
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
    """Remove (after a confirmation page), restore or promote a member (no
    admin ever touches a member's password: issue #29)."""
    club, _member = _club_for_admin(request, club_id)
    if action not in ("remove", "restore", "promote"):
        raise Http404("No such action.")
    try:
        if action == "remove":
            if request.POST.get("confirmed") != "yes":
                member = services.removal_check(club, request.user, user_id)
                context = {"club": club, "member": member}
                return render(request, "battles/league/remove.html", context)
            services.remove_member(club, request.user, user_id)
            messages.success(
                request, _("Member removed: their results stay; you can restore them.")
            )
        elif action == "restore":
            services.restore_member(club, request.user, user_id)
            messages.success(request, _("Member restored."))
        else:
            services.promote_admin(club, request.user, user_id)
            messages.success(request, _("Member promoted to admin."))
    except LeagueError as error:
        _refuse(request, error)
    return redirect("club_admin", club_id=club.pk)


def _link_refused(request, template: str, error: LeagueError) -> HttpResponse:
    """A used, expired or withdrawn link: the page says why (410)."""
    return render(request, template, {"refusal": error.message}, status=410)


@no_referrer_page  # the URL holds the token (battles.views.csrf)
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
        return redirect("club", club_id=invitation.club_id)
    context = {"invitation": invitation, "next": request.path}
    return render(request, "battles/league/join.html", context)


# --- seasons --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, club_id: int) -> HttpResponse:
    club, _member = _club_for_admin(request, club_id)
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
    season, member = _season_for_member(request, season_id)
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
    season, _member = _season_for_member(request, season_id)
    context = _standings_context(request, season)
    return render(request, "battles/league/season.html#standings", context)


def _public_season(key: str) -> Season:
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
    season = _public_season(key)
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
@require_POST
def season_public_switch(request: HttpRequest, season_id: int) -> HttpResponse:
    """An admin switches the public standings off (or on again)."""
    season, member = _season_for_member(request, season_id)
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
    if season.public:
        context["public_url"] = request.build_absolute_uri(
            reverse("season_public", args=[season.public_key])
        )
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
        "curve": rating_chart(page.curve),
        # The season's luck starts at zero, before the first game.
        "luck_curve": rating_curve_points(
            [0.0, *(point["season_luck"] for point in page.luck)] if page.luck else []
        ),
    }
    return render(request, "battles/league/player.html", context)


def _csv(sheet: exports.Sheet) -> HttpResponse:
    response = HttpResponse(
        exports.csv_text(sheet), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{sheet.filename}"'
    return response


@login_required
@require_GET
def season_standings_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = _season_for_member(request, season_id)
    return _csv(exports.standings_sheet(season))


@login_required
@require_GET
def season_results_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    season, _member = _season_for_member(request, season_id)
    return _csv(exports.results_sheet(season))


@login_required
@require_GET
def season_t3_csv(request: HttpRequest, season_id: int) -> HttpResponse:
    """The season's final placements for T³ (the European ranking)."""
    season, _member = _season_for_member(request, season_id)
    return _csv(exports.t3_sheet(season))


# --- results --------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def result_report(request: HttpRequest, season_id: int) -> HttpResponse:
    """Report a game played without the app; the opponent confirms it."""
    season, _member = _season_for_member(request, season_id)
    if not season.accepts_results:  # a closed season offers no report form
        messages.error(request, services.closed_message(season))
        return redirect("season", season_id=season.pk)
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
                second_game=data["second_game"],
                tap_key=data["tap_key"] or None,
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


# The result page holds several forms with a "reason": each its own ids.
AUTO_IDS = {
    "settle": "settle_%s",
    "refuse": "refuse_%s",
    "correct": "correct_%s",
    "dispute": "dispute_%s",
}


def _result_context(request, result, member, **extra) -> dict:
    user = request.user
    waiting_for_me = (
        result.status == ResultStatus.PENDING
        and user.pk in (result.player_a_id, result.player_b_id)
        and user.pk != result.reported_by_id
    )
    initial = {
        "played_on": result.played_on,
        "outcome": result.outcome,
        "score_a": result.score_a,
        "score_b": result.score_b,
        "people_a": result.people_a,
        "people_b": result.people_b,
    }
    # A dispute's counter-score is what the admin most likely sets.
    initial.update(services.disputed_counter(result) or {})
    correct = extra.pop("correct_form", None) or CorrectForm(
        result=result, initial=initial, auto_id=AUTO_IDS["correct"]
    )
    dispute = extra.pop("dispute_form", None) or DisputeForm(
        result=result,
        initial={
            "outcome": result.outcome,
            "score_a": result.score_a,
            "score_b": result.score_b,
        },
        auto_id=AUTO_IDS["dispute"],
    )
    change_to_dispute = services.admin_change_to_dispute(result, user)
    return {
        "result": result,
        "season": result.season,
        "member": member,
        "history": services.result_history(result),
        "waiting_for_me": waiting_for_me,
        "may_withdraw": result.status == ResultStatus.PENDING
        and user.pk == result.reported_by_id,
        "may_answer_proposal": services.may_answer_proposal(result, user, member),
        "admin_plays": member.is_admin and result.side_of(user.pk) is not None,
        "admin_has_say": services.has_say(result, member),
        "change_to_dispute": change_to_dispute,
        "second_game": services.is_second_game(result),
        "reason_form": extra.pop("reason_form", None)
        or ReasonForm(auto_id=AUTO_IDS["settle"]),
        "refuse_form": extra.pop("refuse_form", None)
        or ReasonForm(auto_id=AUTO_IDS["refuse"]),
        "correct_form": correct,
        "dispute_form": dispute,
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


ANSWERS = {
    "confirm": gettext_lazy("Result confirmed: it counts in the standings."),
    "withdraw": gettext_lazy("Report withdrawn."),
    "approve": gettext_lazy("Agreed: the admin's change is done."),
}


@login_required
@require_POST
def result_answer(request: HttpRequest, result_id: int, verdict: str) -> HttpResponse:
    """The opponent confirms or disputes a reported result; the reporter
    withdraws it; the opponent answers a playing admin's change; either
    player disputes an admin's change of their game."""
    result, member = _result_for_member(request, result_id)
    if verdict not in ("confirm", "dispute", "withdraw", "approve", "refuse"):
        raise Http404("No such answer.")
    try:
        if verdict == "confirm":
            services.confirm_result(result, request.user)
        elif verdict == "withdraw":
            services.withdraw_result(result, request.user)
        elif verdict == "approve":
            services.approve_proposal(result, request.user)
        elif verdict == "refuse":
            form = ReasonForm(request.POST, auto_id=AUTO_IDS["refuse"])
            if not form.is_valid():
                raise LeagueError(_("Say why (the reason is kept in the history)."))
            services.refuse_proposal(result, request.user, form.cleaned_data["reason"])
            messages.success(request, _("The admin's change is refused."))
            return _after_result_action(request, result)
        else:
            form = DisputeForm(request.POST, result=result, auto_id=AUTO_IDS["dispute"])
            if not form.is_valid():
                context = _result_context(request, result, member, dispute_form=form)
                return render(request, "battles/league/result.html", context)
            data = form.cleaned_data
            services.dispute_result(
                result,
                request.user,
                data["reason"],
                outcome=data["outcome"] or None,
                score_a=data["score_a"],
                score_b=data["score_b"],
            )
            messages.success(request, _("Result disputed: an admin will settle it."))
            return _after_result_action(request, result)
    except LeagueError as error:
        _refuse(request, error)
    else:
        messages.success(request, str(ANSWERS[verdict]))
    return _after_result_action(request, result)


@login_required
@require_POST
def result_admin(request: HttpRequest, result_id: int, action: str) -> HttpResponse:
    """An admin confirms, voids or corrects a result, with a reason (of a game
    they played: it waits for the opponent's agreement)."""
    result, member = _result_for_member(request, result_id)
    if not member.is_admin:
        raise PermissionDenied("Admins only.")
    if action not in ("confirm", "void", "correct"):
        raise Http404("No such action.")
    if action == "correct":
        form = CorrectForm(request.POST, result=result, auto_id=AUTO_IDS["correct"])
    else:
        form = ReasonForm(request.POST, auto_id=AUTO_IDS["settle"])
    if form.is_valid():
        data = form.cleaned_data
        try:
            if action == "confirm":
                done = services.admin_confirm(result, request.user, data["reason"])
            elif action == "void":
                done = services.admin_void(result, request.user, data["reason"])
            else:
                done = services.admin_correct(
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
            if done.proposal:
                messages.info(
                    request,
                    _(
                        "You played this game: your change waits for your "
                        "opponent's agreement."
                    ),
                )
            else:
                messages.success(
                    request, _("Done; the history keeps who did it and why.")
                )
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
    context = services.waiting_box(request.user)
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
        form = GameOutcomeForm(
            initial=initial, seasons=seasons, names=services.side_names(game)
        )
    sides = viewer.sides
    destroyed = services.army_points_destroyed(game) if game.finished else None
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
        "destroyed": destroyed,
        "names": services.side_names(game),
        "differs_from_log": services.differs_from_log(outcome, destroyed),
        "can_confirm": can_confirm,
        # Agreed without a season: both may still count it for one.
        "can_propose": bool(sides)
        and (
            outcome is None
            or not outcome.settled
            or (outcome.result_id is None and bool(seasons))
        ),
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
        form = GameOutcomeForm(
            request.POST,
            seasons=services.seasons_for_game(game),
            names=services.side_names(game),
        )
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
